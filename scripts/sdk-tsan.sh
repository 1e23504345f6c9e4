#!/usr/bin/env bash
# The embedding API's thread test under ThreadSanitizer (`make test-sdk-tsan`): liblookstudio (libCLookStudio.so)
# and everything below it built with `swift build --sanitize=thread` in its own folder, Tests/SDK/threads.c
# compiled with the toolchain's clang -fsanitize=thread (the same TSan runtime as swiftc's), then eight threads
# applying different looks, detecting, listing looks and reading cubes through one engine for
# SDK_THREAD_SECONDS (default 5). Fails on any report (halt_on_error) or a wrong output.
set -eu -o pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${SDK_THREAD_SECONDS:-5}
scratch=$root/.build-tsan-sdk
swift=${SWIFT:-swift}
work=$(mktemp -d /tmp/lookstudio-sdk-tsan.XXXXXX)
trap 'rm -rf "$work"' EXIT
unset LOOKSTUDIO_CATALOG LOOKSTUDIO_SEED_DIR
cd "$root"
"$swift" build --scratch-path "$scratch" --sanitize=thread --product CLookStudio
lib=$("$swift" build --scratch-path "$scratch" --sanitize=thread --show-bin-path)
# The catalog (eight looks) is made by the ordinary build's command line.
"$swift" build --product lookstudio
.build/debug/lookstudio --catalog "$work/catalog.sqlite" import Tests/Fixtures/corpus/cubelutloader_resolve_17_crlf.cube \
    Tests/Fixtures/corpus/sharktacos_show_cin_resolve_33.cube >/dev/null
toolchain=$(dirname "$(readlink -f "$(command -v "$swift")")")
clang=$toolchain/clang
# clang's TSan runtime intercepts libdispatch, so the program links the toolchain's libdispatch (the one the Swift
# library already uses) and its blocks runtime for the symbols the interceptors name.
runtime=$toolchain/../lib/swift/linux
"$clang" -std=c11 -D_POSIX_C_SOURCE=200809L -g -O1 -fsanitize=thread Tests/SDK/threads.c \
    -I Sources/C/CLookStudioHeader/include -L "$lib" -lCLookStudio -Wl,-rpath,"$lib" \
    -L "$runtime" -ldispatch -lBlocksRuntime -Wl,-rpath,"$runtime" -lpthread -o "$work/threads"
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}" "$work/threads" "$work/catalog.sqlite" "$seconds"
echo "ThreadSanitizer: no reports"
