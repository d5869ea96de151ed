import LoadingKitNetworking

/// Waits until `body` calls the function it is given, and returns what it was called
/// with — or `nil` at once when the calling task is cancelled, as by a test's time
/// limit, so that a completion that never comes fails the test instead of stalling the
/// run. Calls after the first are ignored.
///
/// ```swift
/// let saved = await callback { reply in
///     screen.send(rename) { saving in reply(saving.value) }
/// }
/// ```
///
/// - Parameter body: Starts the work, and hands its completion the function to call.
/// - Returns: The value passed first, or `nil` when the task was cancelled first.
@MainActor
public func callback<Value: Sendable>(
    _ body: (_ reply: @escaping @Sendable (Value) -> Void) -> Void
) async -> Value? {
    let waiter = Locked<(continuation: CheckedContinuation<Value?, Never>?, isOver: Bool)>(
        (nil, false)
    )
    let finish: @Sendable (Value?) -> Void = { value in
        let continuation = waiter.withLock { waiter in
            defer { waiter = (nil, true) }
            return waiter.isOver ? nil : waiter.continuation
        }
        continuation?.resume(returning: value)
    }
    return await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
            let isOver = waiter.withLock { waiter in
                if !waiter.isOver {
                    waiter.continuation = continuation
                }
                return waiter.isOver
            }
            if isOver {
                continuation.resume(returning: nil)
                return
            }
            body { finish($0) }
        }
    } onCancel: {
        finish(nil)
    }
}
