#!/bin/sh
# Builds the libFuzzer harnesses in Fuzz/ and runs each for FUZZ_SECONDS (default 60).
#
#   scripts/fuzz.sh                 build, then run every target
#   scripts/fuzz.sh cube png        only these targets
#   FUZZ_SECONDS=600 scripts/fuzz.sh
#
# Prints one line per target, `fuzz NAME: N executions, K crashes`, and exits 1 if any target crashed. Crash
# inputs are kept in .build-fuzz/artifacts/NAME/ (turn them into regression tests: Fuzz/README.md). The corpus a
# target grows is kept in .build-fuzz/corpus/NAME/, so repeated runs go deeper.
#
# How the harnesses are built (a SwiftPM executable target cannot take -sanitize=fuzzer: SwiftPM renames the
# module's `main`, and libFuzzer brings its own): SwiftPM compiles the library targets, and only those, with
# coverage and AddressSanitizer instrumentation into their own scratch folder (compiling objects needs no link,
# so -sanitize=fuzzer is accepted there); then swiftc links each harness (a file defining
# @_cdecl("LLVMFuzzerTestOneInput")) against those objects with -sanitize=fuzzer,address.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
scratch="$root/.build-fuzz"
seconds="${FUZZ_SECONDS:-60}"
swift="${SWIFT:-swift}"
# Every harness in Fuzz/ (one per parser). TIFF, WebP and HEIC readers get theirs as Fuzz/tiff.swift etc.,
# with seeds under Fuzz/seeds/NAME/ and a line in seed_dirs below.
targets="${*:-$(cd "$root/Fuzz" && ls ./*.swift | sed 's|^\./||; s|\.swift$||' | sort | tr '\n' ' ')}"

cd "$root"
flags="-Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=fuzzer-no-link,address"
mkdir -p "$scratch"
for module in LookEngine LookCatalog; do
    # shellcheck disable=SC2086
    "$swift" build -c release --scratch-path "$scratch" --target "$module" $flags >"$scratch/build.log" 2>&1 || {
        cat "$scratch/build.log"; exit 2; }
done
build=$(cd "$scratch/release" && pwd -P)  # a symlink to the triple folder; find needs the real path

# The objects of every library target (not the CLI, tests or plugins) and the module maps of the C modules.
objects=$(find "$build" -path '*/lookstudio.build' -prune -o -path '*Tests.build' -prune -o \
    -path '*Plugin.build' -prune -o -name '*.o' -print | sort)
modulemaps=""
for map in "$build"/*.build/module.modulemap \
    "$root"/Sources/C*/module.modulemap "$scratch/checkouts/Yams/Sources/CYaml/include/module.modulemap" \
    "$scratch/checkouts/GRDB.swift/Sources/GRDBSQLite/module.modulemap"; do
    modulemaps="$modulemaps -Xcc -fmodule-map-file=$map"
done
libs="$(pkg-config --libs libpng libjpeg libcrypto sqlite3 zlib lcms2 libtiff-4 libwebpmux libheif) -ldlib -llapack -lblas -lstdc++ -lm"

# Seeds: small files from the fixtures and samples (large ones only slow each execution down).
seed_dirs() {
    case "$1" in
        cube)       echo "Tests/Fixtures/corpus/*.cube Fuzz/seeds/cube/*" ;;
        threedl)    echo "Tests/Fixtures/corpus/*.3dl Fuzz/seeds/threedl/*" ;;
        cubepng)    echo "Tests/Fixtures/corpus/*.png Tests/Fixtures/reference/warm64_*.png" ;;
        cubelayout) echo "Fuzz/seeds/cubelayout/*" ;;
        png)        echo "Tests/Fixtures/corpus/*.png Fuzz/seeds/png/*" ;;
        jpeg)       echo "Fuzz/seeds/jpeg/*" ;;
        recipe)     echo "Looks/*.yaml Fuzz/seeds/recipe/*" ;;
        scenes)     echo "Catalog/scenes.yaml" ;;
        *)          echo "Fuzz/seeds/$1/*" ;;
    esac
}

status=0
for name in $targets; do
    binary="$scratch/fuzzers/$name"
    mkdir -p "$scratch/fuzzers" "$scratch/corpus/$name" "$scratch/seeds/$name" "$scratch/artifacts/$name"
    if [ ! -x "$binary" ] || [ "$root/Fuzz/$name.swift" -nt "$binary" ] || [ -n "$(find "$build" -name '*.o' -newer "$binary" | head -1)" ]; then
        # shellcheck disable=SC2086
        swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name "Fuzz_$name" \
            -I "$build/Modules" $modulemaps "$root/Fuzz/$name.swift" $objects $libs -o "$binary" \
            >"$scratch/link-$name.log" 2>&1 || { grep -v "Cannot export local symbol" "$scratch/link-$name.log"; exit 2; }
    fi
    for seed in $(seed_dirs "$name"); do
        # shellcheck disable=SC2086
        [ -f "$seed" ] && [ "$(wc -c <"$seed")" -le 262144 ] && cp "$seed" "$scratch/seeds/$name/"
    done
    log="$scratch/fuzz-$name.log"
    # Findings are crash-, leak-, timeout- (over 20 s) and oom- files; libFuzzer's slow-unit- notes are not.
    findings() { find "$scratch/artifacts/$name" -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' | wc -l; }
    before=$(findings)
    # Leak checks are off: the Swift runtime's metadata caches look like leaks to LeakSanitizer.
    ASAN_OPTIONS="detect_leaks=0:allocator_may_return_null=1" "$binary" \
        -max_total_time="$seconds" -max_len=65536 -timeout=20 -rss_limit_mb=3072 -print_final_stats=1 \
        -artifact_prefix="$scratch/artifacts/$name/" "$scratch/corpus/$name" "$scratch/seeds/$name" \
        >"$log" 2>&1 || true
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    [ -n "$runs" ] || runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log" | tail -1)
    crashes=$(( $(findings) - before ))
    echo "fuzz $name: ${runs:-0} executions, $crashes crashes"
    if [ "$crashes" -gt 0 ]; then
        status=1
        grep -m1 -A12 "ERROR:\|Fatal error\|deadly signal" "$log" >&2 || tail -20 "$log" >&2
    fi
done
exit $status
