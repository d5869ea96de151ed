import Foundation
import LoadingKitNetworking

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

    /// Checks `loader`'s type once.
    ///
    /// - Parameter loader: The loader about to run an operation.
    static func run<Loader: Loading>(for loader: Loader) {
        guard checked.insert(ObjectIdentifier(Loader.self)).inserted else { return }
        let expected = settings(of: loader)
        for child in Mirror(reflecting: loader).children {
            // `@Observable` keeps a stored property as `_name`.
            guard let label = child.label.map({ $0.hasPrefix("_") ? String($0.dropFirst()) : $0 }),
                let requirement = expected[label]
            else { continue }
            let declared = type(of: child.value)
            guard declared != type(of: requirement.value) else { continue }
            let name = "\(Loader.self).\(label)"
            let found = spelled(declared)
            let wanted = requirement.type
            loader.loading.report(
                .settingIgnored(name: name, declared: found, expected: wanted),
                for: loader
            )
            #if DEBUG
                FileHandle.standardError.write(
                    Data(
                        "LoadingKit: \(name) is declared \(found), the requirement \(wanted): it is ignored and the default is used\n"
                            .utf8
                    )
                )
            #endif
        }
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

    /// `type` as Swift code spells it: `Int?`, `[Post]`, not `Optional<Int>`.
    private static func spelled(_ type: Any.Type) -> String {
        spelled(String(describing: type))
    }

    private static func spelled(_ name: String) -> String {
        for (generic, form) in [("Optional<", "?"), ("Array<", "[]")] where name.hasPrefix(generic)
        {
            let inner = spelled(String(name.dropFirst(generic.count).dropLast()))
            return form == "?" ? inner + "?" : "[" + inner + "]"
        }
        guard let open = name.firstIndex(of: "<"), name.hasSuffix(">") else { return name }
        let inner = name[name.index(after: open)..<name.index(before: name.endIndex)]
        return name[...open] + spelled(String(inner)) + ">"
    }
}
