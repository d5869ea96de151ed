import Foundation
import LoadingKit
import LoadingKitTesting

/// One episode of the demo feed.
struct Episode: Codable, Sendable {
    let id: Int
    let title: String
}

let server = try LoopbackServer()
server.route("/episodes/1") { _ in .json(Episode(id: 1, title: "Pilot")) }
server.route("/episodes/2") { _ in .text("<html>Bad gateway</html>", status: 502) }

let webservice = Webservice(transport: URLSessionTransport())
print("LoadingKit demo — loopback server at \(server.baseURL)")
for id in 1...2 {
    let resource = Resource<Episode>(url: server.url("/episodes/\(id)"))
    do {
        let episode = try await webservice.load(resource)
        print("loaded episode \(episode.id): \(episode.title)")
    } catch {
        print("failed: \(error)")
    }
}
server.stop()
