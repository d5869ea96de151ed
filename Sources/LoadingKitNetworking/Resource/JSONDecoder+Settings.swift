import Foundation

extension JSONDecoder {
    /// A decoder of the default settings, which the JSON resources made without one
    /// share: a decode changes nothing in it.
    static let shared = JSONDecoder()

    /// The decoder's settings in words — `keys from snake_case, dates as ISO 8601` —
    /// when each is of a kind two decoders share by value: keys as they are or from
    /// snake case; dates and data by a standard strategy; non-conforming floats refused
    /// or read from given strings; no `userInfo`, no JSON5; not a subclass. Empty for
    /// the settings of a new decoder; `nil` when one is a closure or a formatter, or the
    /// decoder a subclass: known by instance only.
    ///
    /// ```swift
    /// let decoder = JSONDecoder()
    /// decoder.keyDecodingStrategy = .convertFromSnakeCase
    /// decoder.settingsByValue  // "keys from snake_case"
    /// ```
    var settingsByValue: String? {
        var settings: [String] = []
        switch keyDecodingStrategy {
        case .useDefaultKeys: break
        case .convertFromSnakeCase: settings.append("keys from snake_case")
        default: return nil
        }
        switch dateDecodingStrategy {
        case .deferredToDate: break
        case .secondsSince1970: settings.append("dates in seconds since 1970")
        case .millisecondsSince1970: settings.append("dates in milliseconds since 1970")
        case .iso8601: settings.append("dates as ISO 8601")
        default: return nil
        }
        switch dataDecodingStrategy {
        case .base64: break
        case .deferredToData: settings.append("data deferred to Data")
        default: return nil
        }
        if case .convertFromString(let infinity, let negativeInfinity, let nan) =
            nonConformingFloatDecodingStrategy
        {
            let texts = [infinity, negativeInfinity, nan].map { String(reflecting: $0) }
            settings.append("floats from \(texts.joined(separator: ", "))")
        }
        // A subclass may decode otherwise, whatever its settings.
        guard type(of: self) == JSONDecoder.self, userInfo.isEmpty, !allowsJSON5,
            !assumesTopLevelDictionary
        else { return nil }
        return settings.joined(separator: ", ")
    }
}
