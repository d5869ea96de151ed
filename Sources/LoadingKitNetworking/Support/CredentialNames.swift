import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Which header fields and query items of a request carry credentials, so that what
/// the kit writes to disk leaves them out: a name is a credential's when one of its
/// words — split at punctuation and at case changes — is a credential word (`token`,
/// `key`, `secret`, `password`, `auth`, `session`, `sig`, `cookie` …), or when the
/// app named it. `X-API-Key`, `access_token`, `apiKey`, `X-Amz-Signature` are; `page`,
/// `author`, `keyword` and `Idempotency-Key` are not.
package struct CredentialNames: Sendable {
    /// The words that make a name a credential's.
    static let words: Set<String> = [
        "apikey", "auth", "authorization", "bearer", "cookie", "credential", "credentials",
        "jwt", "key", "passwd", "password", "pwd", "secret", "session", "sessionid", "sig",
        "signature", "token",
    ]

    /// Names with a credential word that are not a credential's.
    static let exceptions: Set<String> = ["idempotency-key"]

    /// More names, lowercased, whose values are credentials.
    let named: Set<String>

    /// The rule, with `named` credentials besides the words.
    package init(named: Set<String> = []) {
        self.named = Set(named.map { $0.lowercased() })
    }

    /// Whether a header field or query item called `name` carries a credential.
    package func contains(_ name: String) -> Bool {
        let lowercased = name.lowercased()
        return named.contains(lowercased)
            || (!Self.exceptions.contains(lowercased)
                && !Self.words.isDisjoint(with: Self.words(of: name)))
    }

    /// Whether `request` carries a credential — in its URL's user or password, a query
    /// item, its own header fields or `added`, those the transport adds to it.
    func areCarried(by request: URLRequest, with added: [String: String]) -> Bool {
        if let url = request.url {
            if url.user(percentEncoded: true) != nil || url.password(percentEncoded: true) != nil {
                return true
            }
            let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems
            if items?.contains(where: { contains($0.name) }) == true {
                return true
            }
        }
        let fields = request.allHTTPHeaderFields ?? [:]
        return fields.keys.contains { contains($0) } || added.keys.contains { contains($0) }
    }

    /// The lowercased words of `name`: split at every character that is not a letter
    /// or a digit, and before an uppercase letter that follows a lowercase one.
    package static func words(of name: String) -> [String] {
        guard name.utf8.allSatisfy({ $0 < 0x80 }) else { return characterWords(of: name) }
        // The same rule over ASCII bytes: header field names always are, and walking
        // characters costs several times more on Linux, once per request stored.
        var words: [String] = []
        var word: [UInt8] = []
        var previousIsLowercase = false
        for byte in name.utf8 {
            let isLowercase = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            let isUppercase = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            let isDigit = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            if !(isLowercase || isUppercase || isDigit) || (isUppercase && previousIsLowercase),
                !word.isEmpty
            {
                words.append(String(decoding: word, as: UTF8.self))
                word = []
            }
            previousIsLowercase = isLowercase
            if isLowercase || isDigit {
                word.append(byte)
            } else if isUppercase {
                word.append(byte - UInt8(ascii: "A") + UInt8(ascii: "a"))
            }
        }
        if !word.isEmpty { words.append(String(decoding: word, as: UTF8.self)) }
        return words
    }

    /// ``words(of:)`` for a name with characters beyond ASCII.
    package static func characterWords(of name: String) -> [String] {
        var words: [String] = []
        var word = ""
        var previousIsLowercase = false
        for character in name {
            guard character.isLetter || character.isNumber else {
                if !word.isEmpty { words.append(word) }
                word = ""
                previousIsLowercase = false
                continue
            }
            if character.isUppercase, previousIsLowercase {
                words.append(word)
                word = ""
            }
            word += character.lowercased()
            previousIsLowercase = character.isLowercase
        }
        if !word.isEmpty { words.append(word) }
        return words
    }
}
