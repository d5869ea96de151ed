import Foundation

/// A directory of a test's own under the system's temporary directory, removed with
/// everything in it when the suite instance that holds it goes — after the test, also
/// when it failed.
///
/// ```swift
/// let temporary = TemporaryDirectory("loadingkit-outbox")
/// let outbox = Outbox(directory: temporary.url)
/// ```
final class TemporaryDirectory: Sendable {
    /// The directory; not created until something is written in it.
    let url: URL

    /// A new directory named `prefix` and a unique suffix.
    ///
    /// - Parameter prefix: The start of its name.
    init(_ prefix: String) {
        url = FileManager.default.temporaryDirectory.appending(
            path: "\(prefix)-\(UUID().uuidString)",
            directoryHint: .isDirectory
        )
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
