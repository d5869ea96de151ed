#!/usr/bin/env bash
# Counts the source files of the kit that one plain load passes through, from
# `load(resource:)` to `configure(value:)` and back, with gdb: every function of the
# two modules is a breakpoint that records its file (see trace.py).
#
#   bash Benchmarks/trace-load/run.sh
#
# A debug build of OneLoad.swift in a scratch package that depends on this one.
set -euo pipefail
cd "$(dirname "$0")/../.."
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/Sources/OneLoad"
cp Benchmarks/trace-load/OneLoad.swift "$scratch/Sources/OneLoad/"
cat > "$scratch/Package.swift" <<PACKAGE
// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "OneLoad",
    dependencies: [.package(path: "$PWD")],
    targets: [
        .executableTarget(
            name: "OneLoad",
            dependencies: [.product(name: "LoadingKit", package: "$(basename "$PWD")")]
        )
    ]
)
PACKAGE
swift build --package-path "$scratch" 2>&1 | tail -1
TRACE_EXECUTABLE="$scratch/.build/debug/OneLoad" TRACE_SOURCES="$PWD/Sources" \
    gdb -batch -x Benchmarks/trace-load/trace.py "$scratch/.build/debug/OneLoad" 2>/dev/null \
    | grep -E "^(functions|files|switches|lock|  )"
