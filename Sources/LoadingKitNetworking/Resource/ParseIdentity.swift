import Foundation
import Synchronization

/// The identity of a resource's parse: the steps that turn a response into its value,
/// each named, or unique when nothing can name it (a closure has no identity).
package struct ParseIdentity: Hashable, Sendable, CustomStringConvertible {
    package enum Step: Hashable, Sendable {
        /// JSON decoding with a default decoder.
        case json
        /// JSON decoding with this decoder instance.
        case decoder(InstanceReference)
        /// JSON decoding with a decoder of these settings, named by value: any decoder
        /// set the same way decodes the same (see `JSONDecoder.settingsByValue`).
        case jsonSettings(String)
        /// A step the user or the kit named.
        case named(String)
        /// A step nothing names: equal to no other.
        case unique(UInt64)
        /// Steps nothing names, standing where only what follows must match: never
        /// persisted.
        case unnamed
    }

    private(set) var steps: [Step]

    private init(steps: [Step]) {
        self.steps = steps
    }

    /// A parse nothing names: equal to no other.
    static var unique: ParseIdentity { ParseIdentity(steps: [.uniqueStep]) }

    /// JSON decoding with a default decoder, made once: most resources parse so.
    private static let plainJSON = ParseIdentity(steps: [.json])

    /// JSON decoding, with `decoder` when one is given: named by its settings when
    /// they are of kinds two decoders share (a new decoder's are plain `json`), else by
    /// the instance.
    static func json(_ decoder: JSONDecoder?) -> ParseIdentity {
        guard let decoder else { return plainJSON }
        return switch decoder.settingsByValue {
        case "": plainJSON
        case let settings?: ParseIdentity(steps: [.jsonSettings(settings)])
        case nil: ParseIdentity(steps: [.decoder(InstanceReference(decoder))])
        }
    }

    /// A parse named `key` as a whole.
    static func named(_ key: String) -> ParseIdentity {
        ParseIdentity(steps: [.named(key)])
    }

    /// This parse followed by `step`.
    package func appending(_ step: Step) -> ParseIdentity {
        ParseIdentity(steps: steps + [step])
    }

    /// The parse of a list built from pages parsed this way, named `key`: this parse
    /// then `key` when it is stable; unnamed steps then `key` when it is not — a page
    /// resource made anew on each call (an unnamed `map`, a decoder with a custom
    /// strategy made per call) still builds the same list, which is never persisted.
    package func listing(_ key: String) -> ParseIdentity {
        isStable ? appending(.named(key)) : ParseIdentity(steps: [.unnamed, .named(key)])
    }

    /// Whether the parse is named the same in every process: JSON decoding with a
    /// decoder named by its settings, and named steps only.
    package var isStable: Bool {
        steps.allSatisfy { step in
            switch step {
            case .json, .jsonSettings, .named: true
            case .decoder, .unique, .unnamed: false
            }
        }
    }

    /// The steps, such as `json → named("first")`.
    package var description: String {
        steps.map { step in
            switch step {
            case .json: "json"
            case .decoder: "json(decoder)"
            case .jsonSettings(let settings): "json(\(settings))"
            case .named(let key): "named(\(key))"
            case .unique, .unnamed: "unnamed"
            }
        }.joined(separator: " → ")
    }
}

extension ParseIdentity.Step {
    private static let counter = Atomic<UInt64>(0)

    /// A step equal to no other.
    static var uniqueStep: Self {
        .unique(counter.add(1, ordering: .relaxed).newValue)
    }
}
