import Foundation

/// The HTTP date formats of RFC 9110 §5.6.7: IMF-fixdate, and the obsolete RFC 850
/// and asctime forms a recipient must accept.
enum HTTPDate {
    private static let formats = [
        "EEE, dd MMM yyyy HH:mm:ss zzz",
        "EEEE, dd-MMM-yy HH:mm:ss zzz",
        "EEE MMM d HH:mm:ss yyyy",
    ]

    private static let formatters: [DateFormatter] = formats.map { format in
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = format
        return formatter
    }

    /// The date `value` names, or `nil`; values over 64 characters are refused.
    static func parse(_ value: String) -> Date? {
        guard value.utf8.count <= 64 else { return nil }
        let collapsed = value.split(separator: " ", omittingEmptySubsequences: true)
            .joined(separator: " ")
        for formatter in formatters {
            if let date = formatter.date(from: collapsed) {
                return date
            }
        }
        return nil
    }
}
