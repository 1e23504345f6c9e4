#!/usr/bin/env bash
# Speed of the embedding API on this machine (`make bench-sdk`, release build), beside the command line's
# in-memory apply core: `lookstudio bench apply` (CubeApplier on a buffer), the C API (lookstudio_apply on 24 MP and
# per call on 1 pixel), the Python package (the same through cffi and NumPy, into a new array and into one reused
# through out=, and a thread pool's speed-up).
#
#   scripts/bench-sdk.sh .build/release
set -eu -o pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(cd "${1:?usage: scripts/bench-sdk.sh BIN_PATH}" && pwd)
work=$(mktemp -d /tmp/lookstudio-bench-sdk.XXXXXX)
trap 'rm -rf "$work"' EXIT
unset LOOKSTUDIO_CATALOG LOOKSTUDIO_SEED_DIR LOOKSTUDIO_LIBRARY
export PKG_CONFIG_PATH=$work/prefix/lib/pkgconfig
cd "$root"
./scripts/install.sh "$work/prefix" "$bin" >/dev/null
catalog=$work/catalog.sqlite
# Cyanotype: a shipped 64³ look, applied as it is to untagged pixels (the cube the core benchmark's size).
look=887A3B95-9F89-4605-A509-254B653619FB
"$work/prefix/bin/lookstudio" --catalog "$catalog" looks show "$look" >/dev/null
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
"$work/prefix/bin/lookstudio" bench apply --megapixels 24 --size 64 --repeat 3
echo "  (the SDK's comparison: photo-like 8-bit, vector kernel, all threads; in place on a buffer refilled" \
    "between runs, so no new pages)"
# shellcheck disable=SC2046
cc -O2 scripts/sdk/bench_calls.c $(pkg-config --cflags --libs lookstudio) -lm -o "$work/bench_calls"
"$work/bench_calls" "$catalog" "$look"
/usr/bin/python3 -m venv --system-site-packages "$work/venv"
"$work/venv/bin/pip" install --quiet --no-deps --no-build-isolation --no-index ./python
"$work/venv/bin/python" scripts/sdk/bench_sdk.py "$catalog" "$look"
echo "machine load after: $(cut -d' ' -f1-3 /proc/loadavg)"
