#!/usr/bin/env bash
# Builds the libFuzzer harnesses in Fuzz/ and runs each for FUZZ_SECONDS (default 60).
#
#   scripts/fuzz.sh                 build, then run every target
#   scripts/fuzz.sh cube png        only these targets
#   FUZZ_SECONDS=600 scripts/fuzz.sh
#   FUZZ_JOBS=1 scripts/fuzz.sh     one target at a time (default: one per core, `nproc`)
#   FUZZ_RUNS=20000 scripts/fuzz.sh  a fixed number of executions per target from a fixed seed (FUZZ_SEED, default
#                                   1), FUZZ_SECONDS then only a cap: `make test`'s smoke, the same run on every
#                                   machine, so a finding in CI is one the same command finds here
#
# Prints one line per target, `fuzz NAME: N executions, K crashes`, as each finishes, and exits 1 if any target
# crashed. Every run is also appended to .build-fuzz/ledger.tsv (end time, target, seconds it ran, executions,
# crashes), which `scripts/fuzz-ledger.sh` sums per target: the volume a corpus has been through across runs. Crash
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
jobs="${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}"
fixed=""
[ -z "${FUZZ_RUNS:-}" ] || fixed="-runs=$FUZZ_RUNS -seed=${FUZZ_SEED:-1}"
swift="${SWIFT:-swift}"
# Every harness in Fuzz/ (one per parser). TIFF, WebP and HEIC readers get theirs as Fuzz/tiff.swift etc.,
# with seeds under Fuzz/seeds/NAME/ and a line in seed_dirs below.
targets="${*:-$(cd "$root/Fuzz" && ls ./*.swift | sed 's|^\./||; s|\.swift$||' | sort | tr '\n' ' ')}"

cd "$root"
# The modules get libFuzzer's coverage without its main(): a build-tool plugin's executable (EmbedAssetsTool,
# which Workflows pulls in through LookGallery) is linked with these flags too, and libFuzzer's main() would clash
# with its own. Each fuzzer is linked with -sanitize=fuzzer below.
flags="-Xswiftc -sanitize=address -Xswiftc -sanitize-coverage=edge,indirect-calls,trace-cmp,inline-8bit-counters,pc-table -Xcc -fsanitize=fuzzer-no-link,address"
mkdir -p "$scratch"
# A C target that only another C target depends on (CCPUFeatures, under CLUTKernels) gets its module map from
# `--target`, not its object, so it is named itself.
for module in Recipes ColorManagement LookCatalog CCPUFeatures CLookStudio; do
    # shellcheck disable=SC2086
    "$swift" build -c release --scratch-path "$scratch" --target "$module" $flags >"$scratch/build.log" 2>&1 || {
        cat "$scratch/build.log"; exit 2; }
done
build=$(cd "$scratch/release" && pwd -P)  # a symlink to the triple folder; find needs the real path

# The objects of every library target (not the CLI, tests or plugins) and the module maps of the C modules. A Swift
# target's objects are taken from its `sources` list: a file removed or renamed since an earlier build leaves its
# object in the scratch folder, and linking that would bring back references to types that no longer exist.
current_objects() {
    for dir in "$build"/*.build; do
        # Executables (the CLI, the build-tool plugin's EmbedAssetsTool) bring their own main().
        case "$dir" in */lookstudio.build|*Tests.build|*Plugin.build|*/EmbedAssetsTool*.build) continue ;; esac
        if [ -f "$dir/sources" ]; then
            while read -r source; do
                [ -f "$dir/$(basename "$source").o" ] && echo "$dir/$(basename "$source").o"
            done <"$dir/sources"
        else
            find "$dir" -name '*.o'
        fi
    done
}
objects=$(current_objects | sort)
modulemaps=""
for map in "$build"/*.build/module.modulemap \
    "$root"/Sources/C/*/module.modulemap "$scratch/checkouts/Yams/Sources/CYaml/include/module.modulemap" \
    "$scratch/checkouts/GRDB.swift/Sources/GRDBSQLite/module.modulemap"; do
    modulemaps="$modulemaps -Xcc -fmodule-map-file=$map"
done
libs="$(pkg-config --libs libpng libjpeg libcrypto sqlite3 zlib lcms2 libtiff-4 libwebpmux libheif) -ldlib -llapack -lblas -lexiv2 -lstdc++ -lm"

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

# Extra libFuzzer flags of one target: `decodebudget` makes any single allocation over 1 GiB a finding (the decode
# budget allows 512 MiB for an image decoded whole, plus a decoder's own planes).
target_flags() {
    case "$1" in
        decodebudget) echo "-malloc_limit_mb=1024" ;;
        *)            echo "" ;;
    esac
}

# Links every harness first (quick, and a harness that no longer builds fails the run before any fuzzing).
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
done

# Findings are crash-, leak-, timeout- (over 20 s) and oom- files; libFuzzer's slow-unit- notes are not.
findings() {
    find "$scratch/artifacts/$1" -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' 2>/dev/null | wc -l
}

# Fuzzes one target; prints its line and records it in the ledger; returns 1 on a finding.
fuzz_one() {
    local name=$1 binary="$scratch/fuzzers/$1" log="$scratch/fuzz-$1.log" before runs crashes started
    # Made again here, not only before linking, and never left empty: a workspace copied or synced without its
    # empty folders loses them, and libFuzzer then cannot save a crash input.
    mkdir -p "$scratch/artifacts/$name" "$scratch/corpus/$name"
    touch "$scratch/artifacts/$name/.keep"
    before=$(findings "$name")
    started=$(date +%s)
    # Leak checks are off: the Swift runtime's metadata caches look like leaks to LeakSanitizer. Allocation stacks
    # are not recorded (malloc_context_size=0): unwinding on every allocation cost a fifth of the time of the
    # allocation-heavy targets (YAML); a finding is reproduced with full stacks by running the binary on its file.
    # The Swift runtime's backtracer is off: it caught a C library's abort before libFuzzer did, and its memory
    # reader then tripped AddressSanitizer, burying the real report.
    # shellcheck disable=SC2086
    SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="detect_leaks=0:allocator_may_return_null=1:malloc_context_size=0" "$binary" \
        -max_total_time="$seconds" $fixed $(target_flags "$name") -max_len=65536 -timeout=20 -rss_limit_mb=3072 -print_final_stats=1 \
        -artifact_prefix="$scratch/artifacts/$name/" "$scratch/corpus/$name" "$scratch/seeds/$name" \
        >"$log" 2>&1 || true
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    [ -n "$runs" ] || runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log" | tail -1)
    crashes=$(( $(findings "$name") - before ))
    echo "fuzz $name: ${runs:-0} executions, $crashes crashes"
    printf '%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$name" "$(( $(date +%s) - started ))" "${runs:-0}" "$crashes" \
        >>"$scratch/ledger.tsv"
    if [ "$crashes" -gt 0 ]; then
        grep -m1 -A12 "ERROR:\|Fatal error\|deadly signal" "$log" >&2 || tail -20 "$log" >&2
        return 1
    fi
}

# Up to $jobs targets at a time (libFuzzer runs one process per target; each is single-threaded).
status=0
running=0
for name in $targets; do
    if [ "$running" -ge "$jobs" ]; then
        wait -n || status=1
        running=$((running - 1))
    fi
    fuzz_one "$name" &
    running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
    wait -n || status=1
    running=$((running - 1))
done
exit $status
