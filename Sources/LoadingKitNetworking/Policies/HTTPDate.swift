import Foundation

/// The HTTP date formats of RFC 9110 §5.6.7 — IMF-fixdate, and the obsolete RFC 850
/// and asctime forms a recipient must accept — read by hand in one pass: no
/// `DateFormatter` (whose parsing leaks on some inputs in FoundationNetworking's
/// Foundation on Linux), no locale, no time zone database.
enum HTTPDate {
    private static let months = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ]

    /// The date `value` names, or `nil`; values over 64 characters are refused.
    static func parse(_ value: String) -> Date? {
        guard value.utf8.count <= 64 else { return nil }
        let tokens = value.split(separator: " ", omittingEmptySubsequences: true)
        switch tokens.count {
        case 6 where tokens[0].hasSuffix(",") && tokens[5] == "GMT":
            // Sun, 06 Nov 1994 08:49:37 GMT
            return date(day: tokens[1], month: tokens[2], year: tokens[3], time: tokens[4])
        case 4 where tokens[0].hasSuffix(",") && tokens[3] == "GMT":
            // Sunday, 06-Nov-94 08:49:37 GMT
            let parts = tokens[1].split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[2].count == 2, let short = Int(parts[2]) else {
                return nil
            }
            let year = Substring(String(short < 70 ? 2000 + short : 1900 + short))
            return date(day: parts[0], month: parts[1], year: year, time: tokens[2])
        case 5:
            // Sun Nov  6 08:49:37 1994
            return date(day: tokens[2], month: tokens[1], year: tokens[4], time: tokens[3])
        default:
            return nil
        }
    }

    private static func date(day: Substring, month: Substring, year: Substring, time: Substring)
        -> Date?
    {
        let clock = time.split(separator: ":", omittingEmptySubsequences: false)
        guard day.count <= 2, year.count == 4, clock.count == 3,
            clock.allSatisfy({ $0.count == 2 }),
            let day = number(day), let year = number(year),
            let month = months.firstIndex(of: month.lowercased()).map({ $0 + 1 }),
            let hour = number(clock[0]), let minute = number(clock[1]),
            let second = number(clock[2]),
            hour < 24, minute < 60, second <= 60, (1...daysIn(month, of: year)).contains(day)
        else { return nil }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        return Date(
            timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3600 + minute * 60 + second)
        )
    }

    /// A run of ASCII digits as a number.
    private static func number(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            return nil
        }
        return Int(text)
    }

    private static func daysIn(_ month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the given proleptic Gregorian date.
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
