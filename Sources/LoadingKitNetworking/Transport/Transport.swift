import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends a request and returns the whole response: what a ``Webservice`` loads through.
///
/// ``URLSessionTransport`` is the live transport; `MockTransport` from
/// `LoadingKitTesting` scripts responses for tests. A transport of your own only sends:
///
/// ```swift
/// struct LoggingTransport: Transport {
///     let base: any Transport
///     func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
///         print(request.httpMethod ?? "GET", request.url?.path ?? "")
///         return try await base.send(request)
///     }
/// }
/// ```
public protocol Transport: Sendable {
    /// Sends `request` and returns the body and the response, whatever its status.
    ///
    /// A transport ends promptly when the calling task is cancelled, throwing
    /// `CancellationError`, `URLError(.cancelled)` or ``WebserviceError/cancelled``,
    /// and ends the request with `URLError(.timedOut)` once its `timeoutInterval` has
    /// passed, however slowly the body arrives (``URLSessionTransport`` does both). It
    /// reports download progress to ``TransferProgress/observer`` when it can.
    ///
    /// - Parameter request: The request; its `timeoutInterval` is its overall
    ///   deadline.
    /// - Returns: The body and the response, whatever its status.
    /// - Throws: Whatever ends the request without a response. A ``Webservice``
    ///   passes a ``WebserviceError`` through, takes `CancellationError` and
    ///   `URLError(.cancelled)` as a cancellation and wraps anything else in
    ///   ``WebserviceError/transport(_:)``.
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)

    /// The header fields this transport adds to every request it sends. A
    /// ``Webservice`` judges what it may keep on disk by what is sent: a value whose
    /// request carries a credential in one of these is not written either. A transport
    /// that wraps another returns the other's. Default: none.
    var addedHeaderFields: [String: String] { get }
}

extension Transport {
    /// None: the transport sends requests as they are.
    public var addedHeaderFields: [String: String] { [:] }
}
