import LoadingKit
import LoadingKitTesting

extension MockTransport {
    /// Queues posts `ids` as page `number`, of size 3, of `/posts`.
    ///
    /// - Parameters:
    ///   - number: The page number.
    ///   - ids: The posts on the page.
    ///   - gate: When given, the page is held until the gate opens.
    func respond(page number: Int, posts ids: some Sequence<Int>, after gate: Gate? = nil) {
        respond(to: "/posts?page=\(number)&per_page=3", with: .json(Post.list(ids)), after: gate)
    }
}
