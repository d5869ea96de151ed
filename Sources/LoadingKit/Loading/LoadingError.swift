import LoadingKitNetworking

/// Why loading content failed, as a ``LoadingState`` records it.
///
/// ```swift
/// switch screen.loadingState.error {
/// case .webservice(.badStatus(let failure))?: show("Server said \(failure.statusCode)")
/// case .rejected(let reason)?: show(reason)
/// default: break
/// }
/// ```
public enum LoadingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The request failed: transport, status, decoding, size or not-modified.
    case webservice(WebserviceError)
    /// The value arrived but ``Loading/validate(_:)`` refused it; the reason is the
    /// description of what it threw.
    case rejected(String)
    /// A custom load function (such as a ``LoadingContainer``'s) failed with an
    /// error that is not a `WebserviceError`; its description.
    case failed(String)

    /// Maps anything a load threw; `nil` for cancellation, which is not a failure.
    init?(_ error: any Error) {
        switch error {
        case let error as LoadingError:
            self = error
        case let error as WebserviceError:
            guard error != .cancelled else { return nil }
            self = .webservice(error)
        case is CancellationError:
            return nil
        default:
            self = .failed(String(describing: error))
        }
    }

    /// A one-line, readable account of the failure.
    public var description: String {
        switch self {
        case .webservice(let error): error.description
        case .rejected(let reason): "Rejected: \(reason)"
        case .failed(let reason): "Failed: \(reason)"
        }
    }
}
