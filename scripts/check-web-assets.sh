#!/bin/sh
# Syntax check of the web pages' scripts with Node's parser (Debian's `nodejs`, in the Makefile's APT_PACKAGES), run
# by `make test`. Usage: scripts/check-web-assets.sh [FILE.js ...]; with no file, every Sources/*/Resources/*.js.
# Exits non-zero on a syntax error in any file. It first runs its check on a file with a syntax error and stops unless
# that fails, so a broken check (or a stand-in `node` that accepts everything) cannot pass the real files.
set -eu
cd "$(dirname "$0")/.."
if ! command -v node >/dev/null; then
	echo "error: node is not installed: install the Debian package nodejs (make deps does)" >&2
	exit 1
fi

# Checks each file, printing `ok FILE` or Node's error; fails when any file fails.
check() {
	failed=0
	for file in "$@"; do
		if node --check "$file"; then echo "ok $file"; else failed=1; fi
	done
	return $failed
}

broken=$(mktemp --suffix=.js)
trap 'rm -f "$broken"' EXIT
printf 'const ok = 1;\nfunction broken( {\n' >"$broken"
if check "$broken" >/dev/null 2>&1; then
	echo "error: the check accepted a script with a syntax error ($broken): it checks nothing" >&2
	exit 1
fi
[ $# -gt 0 ] || set -- Sources/*/Resources/*.js
check "$@"
