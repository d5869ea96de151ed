#!/usr/bin/env bash
# Fuzzes the kit's parsers — LinkHeader, RetryAfter and CacheDirectives (with HTTP
# dates), PageCursor, and the live streams' EventStreamParser and JSONLinesParser — with
# libFuzzer and AddressSanitizer.
#
#   bash Fuzz/run.sh             # 1,000,000 executions
#   bash Fuzz/run.sh 5000000     # more
#   FUZZ_SEED=1 bash Fuzz/run.sh 200000   # as CI runs it; runs still differ, since
#                                         # hashing and the clock vary per process
#   FUZZ_UPDATE_CORPUS=1 bash Fuzz/run.sh # also merge what it found into Fuzz/corpus
#
# The run reads Fuzz/corpus and writes what it finds to a scratch directory, so the
# tracked corpus changes only when asked. A crash or a hang (over 2 s) is written to
# .build-fuzz/ and fails the run, which prints what failed, where, and the input as
# Base64, so that a CI log alone reproduces it; the whole log is kept in
# .build-fuzz/failed-run.log. A slow input (over 1 s) is only written.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-1000000}
mkdir -p .build-fuzz
swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name LoadingKitFuzz \
    Fuzz/FuzzTarget.swift \
    Sources/LoadingKitNetworking/Link/LinkHeader.swift \
    Sources/LoadingKitNetworking/Link/LinkHeaderParser.swift \
    Sources/LoadingKitNetworking/Policies/RetryAfter.swift \
    Sources/LoadingKitNetworking/Policies/HTTPDate.swift \
    Sources/LoadingKitNetworking/Policies/CacheDirectives.swift \
    Sources/LoadingKitNetworking/Pagination/PageCursor.swift \
    Sources/LoadingKitNetworking/Live/EventStreamParser.swift \
    Sources/LoadingKitNetworking/Live/JSONLinesParser.swift \
    Sources/LoadingKitNetworking/Live/ServerSentEvent.swift \
    Sources/LoadingKitNetworking/Live/LiveStreamError.swift \
    -o .build-fuzz/fuzz-parsers
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
work="$scratch/new"
mkdir "$work"
touch "$scratch/start"
# libFuzzer and AddressSanitizer report a crash themselves, with a symbolized stack;
# Swift's own backtracer would interleave a second report with theirs.
status=0
SWIFT_BACKTRACE=enable=no .build-fuzz/fuzz-parsers "$work" Fuzz/corpus -runs="$runs" \
    -seed="${FUZZ_SEED:-0}" -timeout=2 -report_slow_units=1 -max_len=4096 \
    -artifact_prefix=.build-fuzz/ -print_final_stats=1 >"$scratch/log" 2>&1 || status=$?
if [ "$status" -ne 0 ]; then
    # What failed and where, then each input found: the report alone reproduces it.
    grep -E "Fatal error|ERROR:|SUMMARY:|^ +#[0-9]+ |^MS:" "$scratch/log" | head -60
    find .build-fuzz -maxdepth 1 -type f -newer "$scratch/start" \( -name 'crash-*' \
        -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) |
        while read -r finding; do
            echo "$finding, as Base64: $(base64 -w0 "$finding")"
        done
    echo "to reproduce: base64 -d <<< BASE64 > input; .build-fuzz/fuzz-parsers input"
    cp "$scratch/log" .build-fuzz/failed-run.log
    exit "$status"
fi
grep -E "^Done|^stat::" "$scratch/log"
echo "found: $(ls "$work" | wc -l) new inputs; corpus: $(ls Fuzz/corpus | wc -l) inputs"
if [ "${FUZZ_UPDATE_CORPUS:-0}" = 1 ]; then
    # Keep the corpus small: merge what the run found into the minimal set.
    mkdir -p "$scratch/merged"
    .build-fuzz/fuzz-parsers -merge=1 "$scratch/merged" Fuzz/corpus "$work" >/dev/null 2>&1
    rm -f Fuzz/corpus/*
    cp "$scratch/merged"/* Fuzz/corpus/ 2>/dev/null || true
    echo "corpus merged: $(ls Fuzz/corpus | wc -l) inputs"
fi
