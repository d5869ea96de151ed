/// One element of a list's value, with the identity of the element's own resource.
package struct StoredElement: Sendable {
    package let identity: ResourceIdentity
    package let value: any Sendable
}

extension Resource {
    /// A copy whose value's elements are also stored as the values of their own
    /// resources whenever a webservice stores this resource's value — so that a detail
    /// screen opened on an item the list holds shows it at once, with no request while
    /// the list's value is fresh, and a mutation's optimistic change of an item's
    /// resource shows in the item's rows of every screen showing the list.
    ///
    /// ```swift
    /// func resource(forPage page: Int?) -> Resource<Page<Post, Int>> {
    ///     .pageNumber(url: postsURL, page: page, size: 20)
    ///         .storingElements(\.items, as: Post.resource(for:))
    /// }
    /// ```
    ///
    /// Use it when an element is what its own resource returns: the same fields,
    /// parsed alike. Each element is stored with the list's freshness and without
    /// validators, in memory only; an element's value stored by a later request is
    /// never replaced by an earlier list's, and a screen showing an element is shown
    /// the list's newer one. A `304` for the list stores its elements again, fresh,
    /// as its answer listed them: `resource` is called for the answers with a body.
    ///
    /// - Parameters:
    ///   - elements: The elements of a value.
    ///   - resource: The element's own resource, as a detail screen loads it.
    /// - Returns: The copy; its identity is this resource's.
    public func storingElements<Element: Sendable>(
        _ elements: @escaping @Sendable (A) -> [Element],
        as resource: @escaping @Sendable (Element) -> Resource<Element>
    ) -> Resource {
        var copy = self
        copy.storedElements = { value in
            elements(value).map { StoredElement(identity: resource($0).identity, value: $0) }
        }
        return copy
    }
}

extension Resource where A: Collection & SendableMetatype, A.Element: Sendable {
    /// A copy whose elements are also stored as the values of their own resources
    /// whenever a webservice stores this resource's value; see
    /// ``storingElements(_:as:)``.
    ///
    /// ```swift
    /// let posts = Resource<[Post]>(url: postsURL).storingElements(as: Post.resource(for:))
    /// ```
    ///
    /// - Parameter resource: The element's own resource, as a detail screen loads it.
    /// - Returns: The copy; its identity is this resource's.
    public func storingElements(
        as resource: @escaping @Sendable (A.Element) -> Resource<A.Element>
    ) -> Resource {
        storingElements({ Array($0) }, as: resource)
    }
}
