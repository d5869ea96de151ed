import Dispatch
import Foundation

extension Webservice {
    /// Loads `resource` and calls `completion` with the outcome, for callers that are
    /// not async.
    ///
    /// ```swift
    /// let task = webservice.load(Episode.resource(id: 1)) { result in
    ///     switch result {
    ///     case .success(let episode): show(episode)
    ///     case .failure(let error): show(error.description)
    ///     }
    /// }
    /// task.cancel()  // completion gets .failure(.cancelled)
    /// ```
    ///
    /// - Parameters:
    ///   - resource: What to load.
    ///   - queue: The queue `completion` is called on; the main queue by default.
    ///   - completion: Called exactly once, also after cancellation.
    /// - Returns: A handle that cancels the load.
    @discardableResult
    public func load<A: Sendable>(
        _ resource: Resource<A>,
        queue: DispatchQueue = .main,
        completion: @escaping @Sendable (Result<A, WebserviceError>) -> Void
    ) -> LoadTask {
        let task = Task {
            let result: Result<A, WebserviceError>
            do throws(WebserviceError) {
                result = .success(try await load(resource))
            } catch {
                result = .failure(error)
            }
            queue.async { completion(result) }
        }
        return LoadTask(task)
    }
}
