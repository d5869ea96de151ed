// swift-tools-version: 6.0
import PackageDescription

// A package outside LoadingKit that uses only its public API, built in release by
// `.ci/run`: what another package compiles against, optimised across the module
// boundary, must build and run. `.ci/run` copies it into a temporary directory
// beside a `LoadingKit` link to the checkout, which is what the path below names.
let package = Package(
    name: "outside",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "../LoadingKit")],
    targets: [
        .executableTarget(
            name: "outside",
            dependencies: [
                .product(name: "LoadingKit", package: "LoadingKit"),
                .product(name: "LoadingKitTesting", package: "LoadingKit"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
