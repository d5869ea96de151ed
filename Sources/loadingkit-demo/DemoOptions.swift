import Foundation

/// The command line: `loadingkit-demo [--interactive] [--url URL] [--pages N]`.
struct DemoOptions: Equatable {
    var interactive = false
    var url: URL?
    var pages = 3
    var help = false

    static let usage = """
        usage: loadingkit-demo [--interactive] [--url URL] [--pages N] [--help]

        With no options, starts an embedded loopback server and plays a scripted session
        through URLSession: first load, a 304 background reload, pull to refresh, pages
        to the end with a failed page and its retry, and an empty filter.

          --interactive  play yourself: r refresh, n next page, f force reload, q quit
          --url URL      load a real JSON API that paginates with Link headers
          --pages N      with --url, load at most N pages (default 3)
          --help         show this help
        """

    /// Why the command line could not be read.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init() {}

    /// Reads the arguments after the program name.
    init(arguments: [String]) throws(Failure) {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--interactive", "-i":
                interactive = true
            case "--help", "-h":
                help = true
            case "--url":
                guard let value = remaining.popFirst(), let url = URL(string: value),
                    let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
                    url.host != nil
                else { throw Failure(description: "--url needs an http or https URL") }
                self.url = url
            case "--pages":
                guard let value = remaining.popFirst(), let pages = Int(value), pages > 0 else {
                    throw Failure(description: "--pages needs a positive number")
                }
                self.pages = pages
            default:
                throw Failure(description: "unknown option \(argument); see --help")
            }
        }
    }
}
