import LoadingKitNetworking

/// Turns any load function into content: holds the loading state, builds the content
/// from each value loaded, and offers ``retry()``.
///
/// ```swift
/// let container = LoadingContainer(load: { callback in
///     legacyClient.fetchProfile { result in callback(result) }
/// }, build: { (profile: Profile) in
///     ProfileView(profile)
/// })
/// await container.load()
/// container.content            // ProfileView, once loaded
/// container.state.placeholder  // .content
///
/// let episode = LoadingContainer(resource: Episode.resource(id: 1)) { EpisodeView($0) }
/// ```
@MainActor
public final class LoadingContainer<Value: Sendable, Content>: Loading {
    /// The container's core: its loading state and what is behind it.
    public let loading = LoadingCore<Value>()

    /// The content built from the last value loaded.
    public private(set) var content: Content?

    /// The webservice of the resource initialiser; `Webservice.shared` otherwise.
    public let webservice: Webservice

    private let operation: @Sendable () async throws -> Value
    private let build: @MainActor (Value) -> Content

    /// Creates a container around a callback-based load function.
    ///
    /// - Parameters:
    ///   - load: Starts a load and calls its callback once with the outcome; a second
    ///     call is ignored.
    ///   - build: Makes the content from a loaded value, on the main actor.
    public init(
        load: @escaping @Sendable (@escaping @Sendable (Result<Value, any Error>) -> Void) -> Void,
        build: @escaping @MainActor (Value) -> Content
    ) {
        self.webservice = .shared
        self.build = build
        self.operation = {
            try await withCheckedThrowingContinuation { continuation in
                let resumed = Locked(false)
                load { result in
                    let first = resumed.withLock { resumed in
                        defer { resumed = true }
                        return !resumed
                    }
                    guard first else { return }
                    continuation.resume(with: result)
                }
            }
        }
    }

    /// Creates a container that loads `resource` through `webservice`.
    ///
    /// - Parameters:
    ///   - resource: What to load.
    ///   - webservice: Where to load it; `Webservice.shared` by default.
    ///   - build: Makes the content from a loaded value, on the main actor.
    public init(
        resource: Resource<Value>,
        webservice: Webservice = .shared,
        build: @escaping @MainActor (Value) -> Content
    ) {
        self.webservice = webservice
        self.build = build
        self.operation = { try await webservice.load(resource) }
    }

    /// The container's loading state.
    public var state: LoadingState<Value> { loadingState }

    /// `true`: every value loaded, empty or not, is built into content.
    public var configuresEmptyValues: Bool { true }

    /// Builds the content from `value`.
    ///
    /// - Parameter value: The loaded value, passed to the build function.
    public func configure(value: Value) {
        content = build(value)
    }

    /// Runs the load function as `policy` says and returns when it has ended: applied,
    /// failed, superseded or cancelled — a superseded or cancelled load returns at once.
    ///
    /// - Parameter policy: When to load; ``LoadPolicy/ifNeeded`` by default.
    public func load(policy: LoadPolicy = .ifNeeded) async {
        await start(policy).finish()
    }

    /// Runs the load function again, whatever the state, with the loading placeholder
    /// only while there is no content.
    ///
    /// - Returns: A handle that cancels the load.
    @discardableResult
    public func retry() -> LoadTask {
        start(.force).task
    }

    private func start(_ policy: LoadPolicy) -> LoadStart {
        let core = loading
        if let existing = core.existingLoad(for: policy, of: nil, for: self) {
            return existing
        }
        let load = self.operation
        let operation = core.run(core.activity(for: policy), for: self) {
            try await load()
        } apply: { container, value in
            try container.loading.applyLoaded(value, for: container)
        }
        return .started(operation)
    }
}
