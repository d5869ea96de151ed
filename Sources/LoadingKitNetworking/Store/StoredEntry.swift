import Foundation

/// One resource's entry in a webservice's store: the value the server last sent, the
/// optimistic changes of mutations in flight layered on it, and what the response
/// said of it.
///
/// An entry is made once, from an answer, and changes after that only through
/// ``reduce(_:numbering:)``, one ``Event`` at a time: every field is set in this file
/// alone (`.ci/check-sources` keeps it so).
///
/// ```swift
/// var entry = StoredEntry(value: posts, validators: nil, cacheFields: [:], …)
/// entry.reduce(.changeLaid(like), numbering: 2)  // true: the value shown changed
/// entry.reduce(.changeEnded(id: like.id, kept: true), numbering: 3)  // false: kept
/// ```
package struct StoredEntry: Sendable {
    /// A change a mutation in flight made to the value, until it ends.
    package struct Edit: Sendable {
        /// The mutation's number, which removes the change when the mutation ends.
        package let id: UInt64
        /// Returns the value changed; the value is of the entry's type.
        package let apply: @Sendable (any Sendable) -> any Sendable
        /// Whether the mutation ended without saying whether the server took the
        /// change: it stays until the server's value tells.
        package fileprivate(set) var isUnconfirmed = false

        /// Creates a change numbered `id`.
        package init(id: UInt64, apply: @escaping @Sendable (any Sendable) -> any Sendable) {
            self.id = id
            self.apply = apply
        }
    }

    /// The value the server last sent, or a local edit made since.
    package private(set) var base: any Sendable
    /// The optimistic changes of the mutations in flight, oldest first.
    package private(set) var edits: [Edit] = []
    /// Whether the value shows a change the server may not have: see
    /// ``Edit/isUnconfirmed``.
    package var hasUnconfirmedChanges: Bool { edits.contains(where: \.isUnconfirmed) }
    /// `base` with every change in `edits` applied: the value screens show.
    package private(set) var value: any Sendable
    /// The `ETag` and `Last-Modified` the base came with.
    package private(set) var validators: Validators?
    /// The caching header fields of the response, which a `304` updates.
    package private(set) var cacheFields: [String: String]
    /// What the response said of keeping and reusing the value.
    package private(set) var directives: CacheDirectives
    /// When the base was received or last confirmed, by the webservice's clock.
    package private(set) var loadedAt: ContinuousClock.Instant
    /// What the response said beside the value.
    package private(set) var response: ResponseSummary
    /// Whether the entry was invalidated since it was loaded.
    package private(set) var isStale: Bool
    /// Changes each time ``value`` does, so that a screen applies each value once.
    package private(set) var version: UInt64
    /// The number of the request the base answered: an older request's answer never
    /// replaces it.
    package private(set) var sequence: UInt64
    /// An estimate of the memory the value takes: the size of its body.
    package private(set) var cost: Int
    /// The base's rows stored under their own resources when it was answered, so that
    /// a `304` stores them again without listing them; `nil` when none were, or the
    /// base changed since.
    package private(set) var elements: [StoredElement]?

    /// An entry made of an answer.
    ///
    /// - Parameters:
    ///   - value: The value the server sent.
    ///   - validators: The `ETag` and `Last-Modified` it came with.
    ///   - cacheFields: The caching header fields of the response.
    ///   - directives: What the response said of keeping and reusing the value.
    ///   - loadedAt: When it was received, by the webservice's clock.
    ///   - response: What the response said beside the value.
    ///   - isStale: Whether it is stale from the start, as a value read back from disk
    ///     past its lifetime is.
    ///   - version: The store's number of this value.
    ///   - sequence: The number of the request it answered.
    ///   - cost: The size of its body.
    ///   - elements: Its rows stored under their own resources, if any.
    package init(
        value: any Sendable,
        validators: Validators?,
        cacheFields: [String: String],
        directives: CacheDirectives,
        loadedAt: ContinuousClock.Instant,
        response: ResponseSummary,
        isStale: Bool = false,
        version: UInt64,
        sequence: UInt64,
        cost: Int,
        elements: [StoredElement]? = nil
    ) {
        self.base = value
        self.value = value
        self.validators = validators
        self.cacheFields = cacheFields
        self.directives = directives
        self.loadedAt = loadedAt
        self.response = response
        self.isStale = isStale
        self.version = version
        self.sequence = sequence
        self.cost = cost
        self.elements = elements
    }

    // MARK: - The reducer

    /// Changes the entry as `event` says; the only place any field changes.
    ///
    /// - Parameters:
    ///   - event: What happened to the resource.
    ///   - version: The version the entry takes when its value changes.
    /// - Returns: Whether the value shown changed — and so took `version`; a value
    ///   equal to the one shown before keeps its version.
    @discardableResult
    package mutating func reduce(_ event: Event, numbering version: UInt64) -> Bool {
        let (shown, shownVersion) = (value, self.version)
        var changed: Bool
        // An answer with no change pending was compared with the base already.
        var isCompared = false
        switch event {
        case .answered(let answer):
            isCompared = edits.isEmpty
            changed = take(answer)
        case .confirmed(let fields, let directives, let instant):
            cacheFields = fields
            self.directives = directives
            loadedAt = instant
            // A 304 may answer a request sent before a change became unconfirmed:
            // only a full answer, numbered after it, settles the change.
            isStale = hasUnconfirmedChanges
            changed = false
        case .edited(let value, let sequence):
            base = value
            elements = nil
            self.sequence = sequence
            recompute()
            changed = true
        case .changeLaid(let edit):
            edits.append(edit)
            value = edit.apply(value)
            changed = true
        case .changeEnded(let id, let kept):
            changed = removeEdit(id, keepingIt: kept)
            if kept {
                // The base is the client's guess now, which no validator describes.
                validators = nil
            }
        case .changeUnconfirmed(let id):
            if let index = edits.firstIndex(where: { $0.id == id }) {
                edits[index].isUnconfirmed = true
                // The next load asks for the whole value, which settles the change.
                validators = nil
            }
            changed = false
        case .mutationAnswered(let id, let answer, let instant, let sequence):
            let removed = removeEdit(id, keepingIt: false)
            guard let answered = answer(base) else {
                changed = removed
                break
            }
            takeServerValue(answered, at: instant, sequence: sequence)
            changed = true
        case .pushed(let value, let instant, let sequence):
            takeServerValue(value, at: instant, sequence: sequence)
            changed = true
        case .validatorsRefused:
            validators = nil
            changed = false
        case .invalidated(let sequence):
            isStale = true
            if let sequence {
                self.sequence = sequence
            }
            changed = false
        }
        // A value equal to the one shown is no new version: no screen shows it again.
        if changed, !isCompared, Self.isEqual(shown, value) {
            changed = false
        }
        // An answer brings a version of its own, which only a changed value takes.
        self.version = changed ? version : shownVersion
        return changed
    }

    /// Takes `value`, the server's whole value received at `instant` after every request
    /// numbered before `sequence` was sent, as the base: fresh, described by no
    /// validator, the pending changes kept on top and the unconfirmed ones settled.
    private mutating func takeServerValue(
        _ value: any Sendable,
        at instant: ContinuousClock.Instant,
        sequence: UInt64
    ) {
        base = value
        elements = nil
        edits.removeAll(where: \.isUnconfirmed)
        validators = nil
        isStale = false
        loadedAt = instant
        self.sequence = sequence
        recompute()
    }

    /// Takes what `answer` says, keeping the pending changes on top — the unconfirmed
    /// ones are settled by it; returns whether the value changed. An answer equal to
    /// the base, with no change pending, keeps the base's instance: fresh, and nothing
    /// to tell.
    private mutating func take(_ answer: StoredEntry) -> Bool {
        let isSame = edits.isEmpty && Self.isEqual(base, answer.base)
        let pending = edits.filter { !$0.isUnconfirmed }
        let kept = base
        self = answer
        if isSame {
            base = kept
            value = base
        }
        for edit in pending {
            edits.append(edit)
            value = edit.apply(value)
        }
        return !isSame
    }

    /// Takes the change `id` off the value — also when other values came in since —
    /// and, when `keep` is `true`, folds it into the base instead: the server took it.
    /// Returns whether the value shown may have changed: not when the change was not
    /// pending, nor when the oldest change is kept.
    private mutating func removeEdit(_ id: UInt64, keepingIt keep: Bool) -> Bool {
        guard let index = edits.firstIndex(where: { $0.id == id }) else { return false }
        let edit = edits.remove(at: index)
        if keep {
            base = edit.apply(base)
            elements = nil
            if index == 0 {
                return false
            }
        }
        recompute()
        return true
    }

    private mutating func recompute() {
        value = edits.reduce(base) { value, edit in edit.apply(value) }
    }

    /// Whether `stored` and `answered` are equal values of one `Equatable` type.
    private static func isEqual(_ stored: any Sendable, _ answered: any Sendable) -> Bool {
        guard let stored = stored as? any Equatable else { return false }
        return stored.isEqual(to: answered)
    }
}

extension Equatable {
    /// Whether `other` is a value of this type equal to this one.
    fileprivate func isEqual(to other: any Sendable) -> Bool {
        (other as? Self) == self
    }
}
