import Foundation
import LoadingKit
import Testing

@Suite("LoadingKit module", .timeLimit(.minutes(1)))
struct ExportsTests {
    @Test("importing LoadingKit brings the networking layer with it")
    func reexportsNetworking() {
        let resource = Resource<[String]>(url: URL(string: "https://api.example.com/tags")!)
        #expect(resource.method == .get)
    }
}
