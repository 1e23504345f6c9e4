#!/usr/bin/env bash
# Installs a built LookStudio into a prefix (what `make install PREFIX=… CONFIG=…` runs):
#
#   PREFIX/bin/lookstudio                                  the command line
#   PREFIX/lib/liblookstudio.so                            the C library (built as libCLookStudio.so)
#   PREFIX/lib/lookstudio/plugins/lib*Plugin.so            the built-in plugins
#   PREFIX/include/lookstudio.h                            the C API
#   PREFIX/lib/pkgconfig/lookstudio.pc                     for `pkg-config --cflags --libs lookstudio`
#   PREFIX/share/lookstudio/{Catalog,Looks}                the seed a new catalog is made from
#   PREFIX/share/lookstudio/LookStudio_CorrectionModel.resources   the correction model
#
# The command and the library find the rest from their own location (LookCore's CodeLocation).
#
#   scripts/install.sh PREFIX BIN_PATH      BIN_PATH: `swift build -c CONFIG --show-bin-path`
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
prefix=${1:?usage: scripts/install.sh PREFIX BIN_PATH}
bin=${2:?usage: scripts/install.sh PREFIX BIN_PATH}
version=$(sed -n 's/.*versionText: StaticString = "\(.*\)"/\1/p' "$root/Sources/CLookStudio/Version.swift")

mkdir -p "$prefix/bin" "$prefix/lib/lookstudio/plugins" "$prefix/lib/pkgconfig" "$prefix/include" \
    "$prefix/share/lookstudio"
install -m 755 "$bin/lookstudio" "$prefix/bin/lookstudio"
install -m 755 "$bin/libCLookStudio.so" "$prefix/lib/liblookstudio.so"
for plugin in "$bin"/lib*Plugin.so; do install -m 755 "$plugin" "$prefix/lib/lookstudio/plugins/"; done
install -m 644 "$root/Sources/C/CLookStudioHeader/include/lookstudio.h" "$prefix/include/lookstudio.h"
sed -e "s|@PREFIX@|$prefix|" -e "s|@VERSION@|$version|" "$root/scripts/sdk/lookstudio.pc.in" \
    >"$prefix/lib/pkgconfig/lookstudio.pc"
rm -rf "$prefix/share/lookstudio/Catalog" "$prefix/share/lookstudio/Looks" \
    "$prefix/share/lookstudio/LookStudio_CorrectionModel.resources"
cp -R "$root/Catalog" "$root/Looks" "$bin/LookStudio_CorrectionModel.resources" "$prefix/share/lookstudio/"
echo "installed LookStudio $version in $prefix"
