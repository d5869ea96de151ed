// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "LoadingKit",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11)],
    products: [
        .library(name: "LoadingKitNetworking", targets: ["LoadingKitNetworking"]),
        .library(name: "LoadingKit", targets: ["LoadingKit"]),
        .library(name: "LoadingKitTesting", targets: ["LoadingKitTesting"]),
        .executable(name: "loadingkit-demo", targets: ["loadingkit-demo"]),
        .executable(name: "loadingkit-bench", targets: ["loadingkit-bench"]),
    ],
    dependencies: [],
    targets: [
        .target(name: "LoadingKitNetworking"),
        .target(name: "LoadingKit", dependencies: ["LoadingKitNetworking"]),
        .target(name: "LoadingKitTesting", dependencies: ["LoadingKitNetworking"]),
        .executableTarget(
            name: "loadingkit-demo",
            dependencies: ["LoadingKit", "LoadingKitTesting"]
        ),
        .executableTarget(
            name: "loadingkit-bench",
            dependencies: ["LoadingKit", "LoadingKitNetworking", "LoadingKitTesting"],
            path: "Benchmarks/loadingkit-bench"
        ),
        .executableTarget(
            name: "loadingkit-outbox-drill",
            dependencies: ["LoadingKitNetworking", "LoadingKitTesting"],
            path: "Benchmarks/outbox-drill"
        ),
        .executableTarget(
            name: "loadingkit-live-drill",
            dependencies: ["LoadingKitNetworking", "LoadingKitTesting"],
            path: "Benchmarks/live-drill"
        ),
        .executableTarget(
            name: "loadingkit-cache-drill",
            dependencies: ["LoadingKitNetworking"],
            path: "Benchmarks/cache-drill"
        ),
        .target(
            name: "LoadingKitExamples",
            dependencies: ["LoadingKit"],
            path: "Examples"
        ),
        .target(
            name: "LoadingKitFixtures",
            path: "Tests/Fixtures",
            resources: [.copy("Recorded")]
        ),
        .testTarget(
            name: "LoadingKitNetworkingTests",
            dependencies: ["LoadingKitNetworking", "LoadingKitTesting", "LoadingKitFixtures"]
        ),
        .testTarget(
            name: "LoadingKitTests",
            dependencies: [
                "LoadingKit", "LoadingKitTesting", "LoadingKitFixtures", "LoadingKitExamples",
            ]
        ),
        .testTarget(name: "LoadingKitTestingTests", dependencies: ["LoadingKitTesting"]),
        .testTarget(
            name: "LoadingKitDemoTests",
            dependencies: ["loadingkit-demo", "LoadingKitTesting"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
