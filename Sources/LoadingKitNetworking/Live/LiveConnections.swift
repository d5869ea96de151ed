/// The live connections of a webservice, one per live identity: a new follower joins
/// the one open, and the last to leave closes it.
final class LiveConnections: Sendable {
    private let open = Locked<[ResourceIdentity: any LiveConnectionClosing]>([:])

    /// A new follower of the connection of `identity`: the one open when it is of
    /// `Event` and still open, else a new one `make` makes.
    func follow<Event: Sendable>(
        _ identity: ResourceIdentity,
        making make: () -> LiveConnection<Event>
    ) -> LiveFollowing<Event> {
        open.withLock { open in
            if let connection = open[identity] as? LiveConnection<Event>,
                let following = connection.join()
            {
                return following
            }
            let connection = make()
            open[identity] = connection
            // A new connection is open until its first follower has joined.
            return connection.join()!
        }
    }

    /// Forgets `connection`, closed, unless another took its place.
    func remove(_ connection: some LiveConnectionClosing, of identity: ResourceIdentity) {
        open.withLock { open in
            if open[identity] === connection {
                open[identity] = nil
            }
        }
    }

    /// How many connections are open.
    var count: Int { open.withLock { $0.count } }
}

/// A live connection of any event type, as the table keeps it.
protocol LiveConnectionClosing: AnyObject, Sendable {}
