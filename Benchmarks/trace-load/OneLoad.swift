import Foundation
import LoadingKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One plain load of a plain conformer, between two calls of `getppid()` that the
/// tracer uses as markers: the second load is the one traced, after a first one has
/// made every lazy structure.
struct Episode: Codable, Sendable {
    let id: Int
    let title: String
}

/// Answers every request at once with one episode, so that only the kit's code runs.
struct FixedTransport: Transport {
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let body = Data(#"{"id":1,"title":"Pilot"}"#.utf8)
        let response = HTTPURLResponse(
            url: request.url!,
            statusCode: 200,
            httpVersion: "HTTP/1.1",
            headerFields: ["Content-Type": "application/json"]
        )!
        return (body, response)
    }
}

@MainActor final class EpisodeScreen: Loading {
    let loading = LoadingCore<Episode>()
    let webservice = Webservice(transport: FixedTransport())
    private(set) var title = ""

    func configure(value: Episode) { title = value.title }
}

@main
struct OneLoad {
    @MainActor static func main() async {
        let resource = Resource<Episode>(url: URL(string: "https://example.com/episodes/1")!)
        let screen = EpisodeScreen()
        await screen.load(resource: resource, policy: .force)
        _ = getppid()
        await screen.load(resource: resource, policy: .force)
        _ = getppid()
        precondition(screen.title == "Pilot")
    }
}
