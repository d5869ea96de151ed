import Foundation
import Synchronization

/// The identity of a resource's parse: the steps that turn a response into its value,
/// each named, or unique when nothing can name it (a closure has no identity).
package struct ParseIdentity: Hashable, Sendable, CustomStringConvertible {
    package enum Step: Hashable, Sendable {
        /// JSON decoding with a fresh default decoder.
        case json
        /// JSON decoding with this decoder instance.
        case decoder(InstanceReference)
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

    /// JSON decoding, with `decoder` when one is given.
    static func json(_ decoder: JSONDecoder?) -> ParseIdentity {
        ParseIdentity(steps: [decoder.map { .decoder(InstanceReference($0)) } ?? .json])
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
    /// resource made anew on each call (an unnamed `map`, a decoder made per call)
    /// still builds the same list, which is never persisted.
    package func listing(_ key: String) -> ParseIdentity {
        isStable ? appending(.named(key)) : ParseIdentity(steps: [.unnamed, .named(key)])
    }

    /// Whether the parse is named the same in every process: JSON decoding with a
    /// fresh decoder and named steps only.
    package var isStable: Bool {
        steps.allSatisfy { step in
            switch step {
            case .json, .named: true
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
