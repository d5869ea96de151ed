#!/usr/bin/env bash
# The bench's 1 KB rounds (`loadingkit-bench side-by-side`) with kean/Get itself as
# one more route, in the same shuffled rounds: every route against a hand-written
# data task, and a `Loading` screen against Get. The kit keeps no dependency and CI
# does not run this: it builds a scratch package beside the bench.
#
#   git clone https://github.com/kean/Get && git -C Get checkout 2.2.1
#   bash Benchmarks/side-by-side-get/run.sh path/to/Get [--processes N] [--quick] [--server URL]
set -euo pipefail
if [ $# -lt 1 ] || [ ! -f "$1/Sources/Get/APIClient.swift" ]; then
    echo "usage: $0 path/to/Get [--processes N] [--quick] [--server URL]" >&2
    exit 2
fi
get=$(cd "$1" && pwd)
shift
cd "$(dirname "$0")/../.."
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
sources="$scratch/Sources/side-by-side-get"
mkdir -p "$sources"
cp Benchmarks/side-by-side-get/main.swift "$sources/"
for file in SideBySide SideBySideScenario ServerProcess HandWritten Measure Measurement Pinning \
    Report ProcessPool PeerClient PeerDataLoader Screens; do
    cp "Benchmarks/loadingkit-bench/$file.swift" "$sources/"
done
cat > "$scratch/Package.swift" <<PACKAGE
// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "side-by-side-get",
    dependencies: [.package(path: "$PWD"), .package(path: "$get")],
    targets: [
        .executableTarget(
            name: "side-by-side-get",
            dependencies: [
                .product(name: "LoadingKit", package: "$(basename "$PWD")"),
                .product(name: "LoadingKitTesting", package: "$(basename "$PWD")"),
                .product(name: "Get", package: "$(basename "$get")"),
            ]
        )
    ]
)
PACKAGE
if ! swift build -c release --package-path "$scratch" > "$scratch/build.log" 2>&1; then
    cat "$scratch/build.log"
    exit 1
fi
tail -1 "$scratch/build.log"
"$scratch/.build/release/side-by-side-get" "$@"
