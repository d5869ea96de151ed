/// An object compared by identity, held so that its address is not reused while an
/// identity refers to it.
package struct InstanceReference: Hashable, Sendable {
    let object: any AnyObject & Sendable

    init(_ object: any AnyObject & Sendable) {
        self.object = object
    }

    package static func == (lhs: InstanceReference, rhs: InstanceReference) -> Bool {
        lhs.object === rhs.object
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(object))
    }
}
