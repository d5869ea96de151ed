import Foundation
import Testing

/// The suites that write files leave nothing behind in the temporary directory.
@Suite("Temporary directories of tests", .timeLimit(.minutes(1)))
struct TemporaryDirectoryTests {
    @Test("a test's directory goes with everything in it once its holder is released")
    func removedOnRelease() throws {
        var temporary: TemporaryDirectory? = TemporaryDirectory("loadingkit-temporary")
        let url = try #require(temporary?.url)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try Data("kept".utf8).write(to: url.appending(path: "record.lkrs"))
        #expect(FileManager.default.fileExists(atPath: url.path(percentEncoded: false)))
        temporary = nil
        #expect(!FileManager.default.fileExists(atPath: url.path(percentEncoded: false)))
    }
}
