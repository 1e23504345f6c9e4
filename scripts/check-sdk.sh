#!/usr/bin/env bash
# The embedding API end to end (`make test-sdk`, part of `make test`): installs the build into a temporary prefix,
# then builds and runs the C, Python and Swift examples against it and checks that they write the bytes the
# installed `lookstudio` writes — `apply --look GUID` and `correct --strength 40,70,100` after one detection — and
# that bad input through C and Python is an error with a message; then eight threads apply different looks
# through one engine for SDK_THREAD_SECONDS (default 5).
#
#   scripts/check-sdk.sh .build/debug          BIN: the build folder (`swift build --show-bin-path`)
#   SDK_ONLY=threads scripts/check-sdk.sh …    the thread test alone (make test-sdk-threads: 30 s)
#
# The Swift example builds in .build-sdk/swift-app (kept, so later runs are incremental) WITHOUT
# LOOKSTUDIO_OPTIMISED_DEBUG: as another package depending on LookStudioKit sees it, with no unsafe flags.
set -eu -o pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(cd "${1:?usage: scripts/check-sdk.sh BIN_PATH}" && pwd)
seconds=${SDK_THREAD_SECONDS:-5}
work=$(mktemp -d /tmp/lookstudio-sdk.XXXXXX)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
catalog=$work/catalog.sqlite
# Debian's Python: numpy, cffi and Pillow from its packages (APT_PACKAGES), no download.
python_bin=/usr/bin/python3
unset LOOKSTUDIO_CATALOG LOOKSTUDIO_SEED_DIR LOOKSTUDIO_LIBRARY
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
cd "$root"

# Each step's heading carries the seconds spent so far: what the SDK check adds to `make test` is in its log.
step() { printf '\n== [%d s] %s\n' "$SECONDS" "$*"; }

step "make install PREFIX=$prefix (from $bin)"
./scripts/install.sh "$prefix" "$bin" >/dev/null
ls=$prefix/bin/lookstudio
# Two LUT files beside the six shipped looks: eight looks for eight threads.
"$ls" --catalog "$catalog" import Tests/Fixtures/corpus/cubelutloader_resolve_17_crlf.cube \
    Tests/Fixtures/corpus/sharktacos_show_cin_resolve_33.cube >/dev/null
guids=$("$ls" --catalog "$catalog" looks list --json | "$python_bin" -c 'import json,sys; print(" ".join(l["guid"] for l in json.load(sys.stdin)))')
set -- $guids
look=$1
echo "catalog $catalog: $# looks; applying $look"

step "C: build against the installed library with pkg-config"
cflags="$(pkg-config --cflags --libs lookstudio) -Wall -Werror"
# shellcheck disable=SC2086
cc -std=c11 -D_POSIX_C_SOURCE=200809L Tests/SDK/threads.c $cflags -lpthread -o "$work/threads"
if [ "${SDK_ONLY:-}" = threads ]; then
    step "threads: 8 threads, $seconds s"
    "$work/threads" "$catalog" "$seconds"
    exit 0
fi
# shellcheck disable=SC2086
cc -std=c11 examples/c/apply_look.c $cflags $(pkg-config --cflags --libs libpng) -o "$work/apply_look"
# shellcheck disable=SC2086
cc -std=c11 Tests/SDK/abi_check.c $cflags -o "$work/abi_check"
diff <(sed -n '/cdef:begin/,/cdef:end/p' "$prefix/include/lookstudio.h") python/lookstudio/_cdef.h \
    || { echo "python/lookstudio/_cdef.h differs from lookstudio.h's cdef block: copy it again"; exit 1; }

step "the command line's bytes"
mkdir -p "$work/cli" "$work/c" "$work/py" "$work/swift"
for photo in chelsea coffee; do
    "$ls" --catalog "$catalog" apply --look "$look" --strength 60 "samples/$photo.png" "$work/cli/$photo.png" 2>/dev/null
done
cp samples/astronaut.png "$work/astronaut.png"
"$ls" --catalog "$catalog" correct --strength 40,70,100 "$work/astronaut.png" -o "$work/cli/" 2>/dev/null

compare() { # compare NAME DIR: the example's outputs in DIR against the command line's
    "$python_bin" scripts/sdk/same_pixels.py "$work/cli/chelsea.png" "$2/chelsea.png" "$work/cli/coffee.png" "$2/coffee.png" \
        "$work/cli/astronaut-s40.png" "$2/astronaut-s40.png" "$work/cli/astronaut-s70.png" "$2/astronaut-s70.png" \
        "$work/cli/astronaut-s100.png" "$2/astronaut-s100.png" | sed "s/^/$1: /"
}
run_example() { # run_example DIR COMMAND…: apply to both photos, correct the astronaut at 40, 70, 100
    local out=$1
    shift
    {
        for photo in chelsea coffee; do "$@" "$catalog" "samples/$photo.png" "$look" 60 "$out/$photo.png"; done
        "$@" --correct "$catalog" samples/astronaut.png "$out/astronaut" 40 70 100
    } >"$out/log" 2>&1 || { cat "$out/log"; exit 1; }
    grep '^scene' "$out/log"
}

step "C example"
run_example "$work/c" "$work/apply_look"
compare C "$work/c"
step "C: bad input"
"$work/abi_check" "$catalog" >"$work/abi.txt" || { cat "$work/abi.txt"; exit 1; }
tail -1 "$work/abi.txt"

step "Python: a fresh venv, pip install ./python (numpy, cffi and Pillow from Debian)"
"$python_bin" -m venv --system-site-packages "$work/venv"
"$work/venv/bin/pip" install --quiet --no-deps --no-build-isolation --no-index ./python
run_example "$work/py" "$work/venv/bin/python" examples/python/apply_look.py
compare Python "$work/py"
step "Python: tests"
LOOKSTUDIO_TEST_CATALOG=$catalog "$work/venv/bin/python" -m unittest -q Tests/SDK/test_python.py

step "Swift example (its own package, LookStudioKit by path, no unsafe flags)"
env -u LOOKSTUDIO_OPTIMISED_DEBUG swift build --package-path examples/swift-app \
    --scratch-path "$root/.build-sdk/swift-app" >"$work/swift-build.log" 2>&1 \
    || { tail -30 "$work/swift-build.log"; exit 1; }
tail -1 "$work/swift-build.log"
example=$(env -u LOOKSTUDIO_OPTIMISED_DEBUG swift build --package-path examples/swift-app \
    --scratch-path "$root/.build-sdk/swift-app" --show-bin-path)/lookstudio-example
run_example "$work/swift" "$example"
compare Swift "$work/swift"

step "threads: 8 threads, $seconds s"
"$work/threads" "$catalog" "$seconds"
echo "check-sdk: C, Python and Swift passed in $SECONDS s"
