#if canImport(os)
    import os

    /// A ``LoadingMonitor`` that writes each event to an `os.Logger`: failures as
    /// errors, cancellations and refused links as notices, the rest at debug level.
    ///
    /// ```swift
    /// let logger = Logger(subsystem: "com.example.app", category: "loading")
    /// let webservice = Webservice(configuration: .init(monitor: LoggerMonitor(logger)))
    /// ```
    ///
    /// Lines are ``LoadingEvent/description``: no user, password, fragment, query
    /// value, header value or body text, so they are logged as public.
    public struct LoggerMonitor: LoadingMonitor {
        /// Where the events go.
        public let logger: Logger

        /// Creates a monitor writing to `logger`.
        ///
        /// - Parameter logger: The logger; subsystem `LoadingKit`, category `loading`
        ///   by default.
        public init(_ logger: Logger = Logger(subsystem: "LoadingKit", category: "loading")) {
            self.logger = logger
        }

        /// Writes the event's line at the level of its kind.
        ///
        /// - Parameter event: The event to write.
        public func record(_ event: LoadingEvent) {
            let line = event.description
            switch event.kind {
            case .failed:
                logger.error("\(line, privacy: .public)")
            case .cancelled, .linkRefused, .linkMalformed:
                logger.notice("\(line, privacy: .public)")
            default:
                logger.debug("\(line, privacy: .public)")
            }
        }
    }
#endif
