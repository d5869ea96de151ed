import Foundation
import LoadingKitNetworking
import Observation

/// Finds, once per conformer type, at its first operation, a stored property named as
/// one of the settings a protocol gives a default for but of another type: `let maxPages
/// = 5` is an `Int`, not the `Int?` ``Paginating/maxPages`` asks for, so it compiles,
/// satisfies nothing, and the default is used. Each is reported as a
/// ``LoadingEvent/Kind/settingIgnored(name:declared:expected:)`` event and, in a debug
/// build, on standard error.
///
/// ```swift
/// SettingsCheck.run(for: screen)  // LoadingCore.run calls it
/// ```
///
/// A computed property of the wrong type, or a hook whose signature is misspelled,
/// cannot be seen: the requirements' doc comments say so.
@MainActor
enum SettingsCheck {
    /// The conformer types checked already.
    private static var checked: Set<ObjectIdentifier> = []

    /// Checks `loader`'s type once — its class, when it is one, with the stored
    /// properties its superclasses declare.
    ///
    /// - Parameter loader: The loader about to run an operation.
    static func run<Loader: Loading>(for loader: Loader) {
        let loaderType = type(of: loader)
        guard checked.insert(ObjectIdentifier(loaderType)).inserted else { return }
        let expected = settings(of: loader)
        let isObservable = loader is any Observable
        var mirror: Mirror? = Mirror(reflecting: loader)
        while let level = mirror {
            for child in level.children {
                guard let (label, value) = setting(child, isObservable: isObservable),
                    let requirement = expected[label]
                else { continue }
                let declared = type(of: value)
                guard declared != type(of: requirement.value) else { continue }
                report(
                    name: "\(loaderType).\(label)",
                    declared: spelled(declared),
                    expected: requirement.type,
                    for: loader
                )
            }
            mirror = level.superclassMirror
        }
    }

    /// The property `child` stands for, with its value: `_name` is a property
    /// wrapper's storage — its `wrappedValue` is the property's — or, on an
    /// `@Observable` conformer, the stored `name` the macro moved; any other `_name` is
    /// a field of the conformer's own.
    private static func setting(_ child: Mirror.Child, isObservable: Bool) -> (String, Any)? {
        guard let label = child.label else { return nil }
        guard label.hasPrefix("_") else { return (label, child.value) }
        let name = String(label.dropFirst())
        if let wrapped = Mirror(reflecting: child.value).children.first(where: {
            $0.label == "wrappedValue"
        }) {
            return (name, wrapped.value)
        }
        return isObservable ? (name, child.value) : nil
    }

    /// Tells that the setting `name` is declared `declared` instead of `expected`.
    private static func report<Loader: Loading>(
        name: String,
        declared: String,
        expected: String,
        for loader: Loader
    ) {
        loader.loading.report(
            .settingIgnored(name: name, declared: declared, expected: expected),
            for: loader
        )
        #if DEBUG
            FileHandle.standardError.write(
                Data(
                    "LoadingKit: \(name) is declared \(declared), the requirement \(expected): it is ignored and the default is used\n"
                        .utf8
                )
            )
        #endif
    }

    /// A setting as `loader` answers it, and its type as the requirement spells it.
    private typealias Setting = (value: Any, type: String)

    /// The settings with defaults `loader` answers, by name.
    private static func settings<Loader: Loading>(of loader: Loader) -> [String: Setting] {
        var settings: [String: Setting] = [
            "webservice": (loader.webservice, "Webservice"),
            "resource": (loader.resource as Any, spelled(Resource<Loader.ResourceType>?.self)),
            "configuresEmptyValues": (loader.configuresEmptyValues, "Bool"),
            "cancelsLoadingOnDisappear": (loader.cancelsLoadingOnDisappear, "Bool"),
            "maxAge": (loader.maxAge as Any, "Duration?"),
            "revalidationInterval": (loader.revalidationInterval as Any, "Duration?"),
            "failureRetryInterval": (loader.failureRetryInterval, "Duration"),
            "loadingClock": (loader.loadingClock, "any Clock<Duration>"),
        ]
        if let paginating = loader as? any Paginating {
            settings["prefetchDistance"] = (paginating.prefetchDistance, "Int")
            settings["maxPages"] = (paginating.maxPages as Any, "Int?")
        }
        if let refreshable = loader as? any Refreshable {
            settings["refreshPageSize"] = (refreshable.refreshPageSize as Any, "Int?")
            settings["refreshPageLimit"] = (refreshable.refreshPageLimit, "Int")
            settings["refreshReplacesContent"] = (refreshable.refreshReplacesContent, "Bool")
        }
        return settings
    }

    /// `type` as Swift code spells it: `Int?`, `[Post]`, `[String: Int]`, not
    /// `Optional<Int>`.
    private static func spelled(_ type: Any.Type) -> String {
        spelled(String(describing: type))
    }

    private static func spelled(_ name: String) -> String {
        guard let open = name.firstIndex(of: "<"), name.hasSuffix(">") else { return name }
        let base = name[..<open]
        let arguments = splitArguments(
            name[name.index(after: open)..<name.index(before: name.endIndex)]
        )
        .map(spelled)
        switch (base, arguments.count) {
        case ("Optional", 1): return arguments[0] + "?"
        case ("Array", 1): return "[" + arguments[0] + "]"
        case ("Dictionary", 2): return "[" + arguments[0] + ": " + arguments[1] + "]"
        default: return base + "<" + arguments.joined(separator: ", ") + ">"
        }
    }

    /// The generic arguments in `list`, split at its commas outside brackets.
    private static func splitArguments(_ list: Substring) -> [String] {
        var arguments: [String] = []
        var current = ""
        var depth = 0
        for character in list {
            switch character {
            case "<", "(", "[": depth += 1
            case ">" where current.last == "-": break  // a function's arrow
            case ">", ")", "]": depth -= 1
            case "," where depth == 0:
                arguments.append(current.trimmingCharacters(in: .whitespaces))
                current = ""
                continue
            default: break
            }
            current.append(character)
        }
        arguments.append(current.trimmingCharacters(in: .whitespaces))
        return arguments
    }
}
