import LoadingKitNetworking

/// Waits until `body` calls the function it is given, and returns what it was called
/// with — or `nil` at once when the calling task is cancelled, as by a test's time
/// limit, so that a completion that never comes fails the test instead of stalling the
/// run. Calls after the first are ignored.
///
/// ```swift
/// let saved = await callback { reply in
///     screen.startSending(rename) { saving in reply(saving.value) }
/// }
/// ```
///
/// - Parameters:
///   - isolation: Where `body` runs: the caller's actor, by default.
///   - body: Starts the work, and hands its completion the function to call.
/// - Returns: The value passed first, or `nil` when the task was cancelled first.
public func callback<Value: Sendable>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: (_ reply: @escaping @Sendable (Value) -> Void) -> Void
) async -> Value? {
    guard !Task.isCancelled else { return nil }
    let reply = OneShot<Value?>()
    body { reply.fire($0) }
    return await withTaskCancellationHandler {
        await reply.wait()
    } onCancel: {
        reply.fire(nil)
    }
}
