import Foundation

/// A change a live event makes to the webservice's store, so that every screen showing
/// the values it changes updates: a new value, an edit of the stored one, or an
/// invalidation. See ``LiveResource/updatingStore(_:)``.
///
/// ```swift
/// LiveResource<Story>(url: liveURL).updatingStore { story in
///     [
///         .replace(Story.resource(id: story.id), with: story),
///         .edit(Story.feed) { feed in feed.insert(story, at: 0) },
///         .invalidate(.prefix(URL(string: "https://api.example.com/authors")!)),
///     ]
/// }
/// ```
///
/// A pushed value is the server's, newer than every answer to a request sent before it
/// arrived: an answer to one sent after it wins over it, whatever order they are stored
/// in. Changes of mutations in flight stay laid on top of it.
public struct StoreUpdate: Sendable {
    /// Applies the change to `webservice`'s store, as of request number `sequence`.
    let apply: @Sendable (_ webservice: Webservice, _ sequence: UInt64) -> Void

    /// Stores `value` as the value of `resource`, stored before or not.
    ///
    /// - Parameters:
    ///   - resource: The resource whose value the event carries.
    ///   - value: Its new value.
    /// - Returns: The change.
    public static func replace<A: Sendable>(_ resource: Resource<A>, with value: A) -> StoreUpdate {
        StoreUpdate { webservice, sequence in
            webservice.push(value, to: resource.identity, sequence: sequence)
        }
    }

    /// Changes the stored value of `resource` with `change`, when one is stored.
    ///
    /// - Parameters:
    ///   - resource: The resource whose stored value the event changes.
    ///   - change: Changes the value.
    /// - Returns: The change.
    public static func edit<A: Sendable>(
        _ resource: Resource<A>,
        _ change: @escaping @Sendable (inout A) -> Void
    ) -> StoreUpdate {
        StoreUpdate { webservice, _ in
            webservice.pushEdit(to: resource) { (value: inout A) in change(&value) }
        }
    }

    /// Marks the stored values `invalidation` covers as stale, as
    /// ``Webservice/invalidate(_:)`` does: the screens showing one load it again.
    ///
    /// - Parameter invalidation: Which resources.
    /// - Returns: The change.
    public static func invalidate(_ invalidation: Invalidation) -> StoreUpdate {
        StoreUpdate { webservice, _ in
            webservice.invalidate(invalidation)
        }
    }
}
