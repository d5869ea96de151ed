import Foundation

/// The command line:
/// `loadingkit-demo [--interactive | --url URL [--pages N]] [--verbose] [--help]`.
struct DemoOptions: Equatable {
    var interactive = false
    var verbose = false
    var url: URL?
    var pages = 3
    var help = false

    /// The one-line synopsis, printed after an error.
    static let synopsis =
        "usage: loadingkit-demo [--interactive | --url URL [--pages N]] [--verbose] [--help]"

    static let usage = """
        \(synopsis)

        With no options, starts embedded loopback servers and plays a scripted session
        through URLSession, in thirteen steps: first load, a 304 background reload, pull
        to refresh, pages to the end with a failed page and its retry, back toward the
        head, an empty filter, a list and a detail sharing one stored value, an
        optimistic rename, a refused rename rolled back, a cold start from the offline
        cache, edits made while the server is away, confirmed on its return, a token
        that expires under five loads, renewed once, and live stories pushed by the
        server, the stream dropped and resumed after its last event.

          --interactive  play yourself, in a terminal: r publish stories and
                         refresh, n next page, p previous page, f reload the pages
                         held, s server away or back, l live stream off or
                         on, q quit
          --url URL      load a real JSON API that paginates with Link headers
          --pages N      with --url, load at most N pages (default 3)
          --verbose      print, as lines, what the kit does and decides: each request
                         and response, 304s, retries, coalesced callers, superseded
                         and cancelled loads, stored values shown
          --help         show this help
        """

    /// Why the command line could not be read.
    struct Failure: Error, CustomStringConvertible, Equatable {
        let description: String
    }

    /// Every option, by its long name.
    private static let options: Set = ["--interactive", "--help", "--url", "--pages", "--verbose"]

    init() {}

    /// Reads the arguments after the program name; refuses an unknown option, an
    /// option given twice, and options that contradict each other or mean nothing
    /// together, unless help is asked for.
    init(arguments: [String]) throws(Failure) {
        var remaining = arguments[...]
        var given: Set<String> = []
        while let argument = remaining.popFirst() {
            let option = Self.canonical(argument)
            guard Self.options.contains(option) else {
                throw Failure(
                    description: argument.hasPrefix("-")
                        ? "unknown option \(argument)" : "unexpected argument \"\(argument)\""
                )
            }
            guard given.insert(option).inserted else {
                throw Failure(description: "\(option) is given twice")
            }
            switch option {
            case "--interactive":
                interactive = true
            case "--help":
                help = true
            case "--verbose":
                verbose = true
            case "--url":
                guard let value = remaining.popFirst(), let url = URL(string: value),
                    let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
                    url.host != nil
                else { throw Failure(description: "--url needs an http or https URL") }
                self.url = url
            case "--pages":
                guard let value = remaining.popFirst(), let pages = Int(value), pages > 0 else {
                    throw Failure(description: "--pages needs a positive whole number")
                }
                self.pages = pages
            default:
                break
            }
        }
        if !help {
            try Self.check(given)
        }
    }

    /// The long name of a short option.
    private static func canonical(_ argument: String) -> String {
        switch argument {
        case "-i": "--interactive"
        case "-h": "--help"
        case "-v": "--verbose"
        default: argument
        }
    }

    /// Refuses options that cannot be used together.
    private static func check(_ given: Set<String>) throws(Failure) {
        if given.contains("--interactive") && given.contains("--url") {
            throw Failure(
                description: "--interactive and --url cannot be combined: "
                    + "--interactive plays the embedded feed"
            )
        }
        if given.contains("--interactive") && given.contains("--verbose") {
            throw Failure(
                description: "--interactive and --verbose cannot be combined: "
                    + "--interactive draws the screen, --verbose prints lines"
            )
        }
        if given.contains("--pages") && !given.contains("--url") {
            throw Failure(
                description: "--pages needs --url: it limits the pages loaded from that URL"
            )
        }
    }
}
