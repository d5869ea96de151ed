/// A ``LoadingMonitor`` that writes each event as one line, for the console or a log
/// file.
///
/// ```swift
/// let webservice = Webservice(configuration: .init(monitor: LoadingEventPrinter()))
///
/// let lines = LoadingEventPrinter(showsQueryValues: true) { line in
///     FileHandle.standardError.write(Data((line + "\n").utf8))
/// }
/// ```
///
/// Lines carry no user, password, fragment, header value or body text; query values
/// show only when asked.
public struct LoadingEventPrinter: LoadingMonitor {
    /// Whether URLs show the values of their query items.
    public let showsQueryValues: Bool
    private let write: @Sendable (String) -> Void

    /// Creates a printer.
    ///
    /// - Parameters:
    ///   - showsQueryValues: Whether URLs show the values of their query items
    ///     (`?page=2`); off by default, since they can hold keys and tokens.
    ///   - write: Where each line goes, without a newline; standard output by default.
    public init(
        showsQueryValues: Bool = false,
        write: @escaping @Sendable (String) -> Void = { print($0) }
    ) {
        self.showsQueryValues = showsQueryValues
        self.write = write
    }

    /// Writes the event's line.
    ///
    /// - Parameter event: The event to write.
    public func record(_ event: LoadingEvent) {
        write(event.line(showingQueryValues: showsQueryValues))
    }
}
