#!/bin/sh
# Syntax check of the web pages' scripts with Node's parser (Debian's `nodejs`, in the Makefile's APT_PACKAGES), run
# by `make test`. Usage: scripts/check-web-assets.sh [FILE.js ...]; with no file, every Sources/*/Resources/*.js.
# Exits non-zero on a syntax error in any file. It first checks itself on a file with a syntax error, so a broken or
# stand-in `node` that accepts everything fails the check instead of passing it.
set -eu
cd "$(dirname "$0")/.."
if ! command -v node >/dev/null; then
	echo "error: node is not installed: install the Debian package nodejs (make deps does)" >&2
	exit 1
fi
broken=$(mktemp --suffix=.js)
trap 'rm -f "$broken"' EXIT
printf 'const ok = 1;\nfunction broken( {\n' >"$broken"
if node --check "$broken" 2>/dev/null; then
	echo "error: node --check accepted a script with a syntax error; it checks nothing" >&2
	exit 1
fi
[ $# -gt 0 ] || set -- Sources/*/Resources/*.js
status=0
for file in "$@"; do
	if node --check "$file"; then echo "ok $file"; else status=1; fi
done
exit $status
