#!/bin/sh
# Browser test of `lookstudio studio` (docs in scripts/studio_browser_test.py): Debian's chromium, chromium-driver
# and python3-selenium (Makefile APT_PACKAGES). Usage: scripts/studio-browser-test.sh [BINARY] [--screenshot FILE]
set -eu
cd "$(dirname "$0")/.."
binary=${1:-.build/debug/lookstudio}
[ $# -gt 0 ] && shift
exec timeout 180 /usr/bin/python3 scripts/studio_browser_test.py --binary "$binary" "$@"
