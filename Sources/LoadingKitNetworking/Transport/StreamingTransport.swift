import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport that hands a response's body over as it arrives: what a live resource
/// follows (see ``LiveResource``).
///
/// ``URLSessionTransport`` streams through its session delegate — FoundationNetworking
/// on Linux has no `bytes(for:)` — and `MockTransport` from `LoadingKitTesting` streams
/// the chunks a test sends. A transport of your own streams by wrapping another:
///
/// ```swift
/// struct LoggingTransport: StreamingTransport {
///     let base: any StreamingTransport
///     func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
///         try await base.send(request)
///     }
///     func stream(_ request: URLRequest) async throws -> (ResponseBody, HTTPURLResponse) {
///         print("following", request.url?.path ?? "")
///         return try await base.stream(request)
///     }
/// }
/// ```
public protocol StreamingTransport: Transport {
    /// Sends `request` and returns as soon as the response's head arrives, with its body
    /// to read as it comes.
    ///
    /// The transfer stops at once when the body is cancelled or released, or when the
    /// task reading it is cancelled. The request's `timeoutInterval` is no deadline for
    /// the body, which may never end: a live resource keeps its own idle timeout.
    ///
    /// - Parameter request: The request.
    /// - Returns: The body, read in order once, and the response, whatever its status.
    /// - Throws: Whatever ends the request before a response head: `URLError`,
    ///   `CancellationError` when the calling task is cancelled.
    func stream(_ request: URLRequest) async throws -> (ResponseBody, HTTPURLResponse)
}
