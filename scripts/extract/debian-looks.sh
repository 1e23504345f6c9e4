#!/bin/sh
# Creative looks from Debian packages, for measuring extraction on looks that no setting of the fit was chosen on
# (docs/EXTRACT.md, "Looks from Debian packages"). Downloads the packages with `apt-get download` (no install, no
# root), unpacks only their LUT files into DIR and writes DIR/SOURCES.csv: file, package, version, path inside the
# package, licence (the package's debian/copyright `Files: *` stanza, which covers them), SHA-256.
# Usage: scripts/extract/debian-looks.sh DIR
# Then: CORPUS=DIR LOOKS="$(cat DIR/LOOKS)" scripts/extract/heldout.sh CORPUS_DIR OUTDIR
set -eu
dir=${1:?usage: debian-looks.sh DIR}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# package  path inside it  name in DIR
looks="kdenlive-data /usr/share/kdenlive/luts/BLUE_TINT.cube kdenlive_blue_tint.cube
kdenlive-data /usr/share/kdenlive/luts/CINEMATIC.cube kdenlive_cinematic.cube
kdenlive-data /usr/share/kdenlive/luts/GREEN_TINT.cube kdenlive_green_tint.cube
kdenlive-data /usr/share/kdenlive/luts/TEAL_ORANGE.cube kdenlive_teal_orange.cube
obs-studio /usr/share/obs/obs-plugins/obs-filters/LUTs/teal_lows_orange_highs.png obs_teal_lows_orange_highs.png
obs-studio /usr/share/obs/obs-plugins/obs-filters/LUTs/red_isolated.png obs_red_isolated.png
obs-studio /usr/share/obs/obs-plugins/obs-filters/LUTs/black_and_white.png obs_black_and_white.png
obs-studio /usr/share/obs/obs-plugins/obs-filters/LUTs/posterize.png obs_posterize.png"
(cd "$work" && apt-get download -qq kdenlive-data obs-studio)
echo "file,package,version,path,licence,sha256" > "$dir/SOURCES.csv"
: > "$dir/LOOKS"
echo "$looks" | while read -r package path name; do
    deb=$(ls "$work/${package}"_*.deb)
    [ -d "$work/$package" ] || dpkg-deb -x "$deb" "$work/$package"
    version=$(dpkg-deb -f "$deb" Version)
    licence=$(awk '/^Files: \*$/ {f=1; next} f && /^License:/ {print $2; exit}' \
        "$work/$package/usr/share/doc/$package/copyright")
    cp "$work/$package$path" "$dir/$name"
    sum=$(sha256sum "$dir/$name" | cut -d' ' -f1)
    echo "$name,$package,$version,$path,$licence (debian/copyright Files: *),$sum" >> "$dir/SOURCES.csv"
    printf '%s ' "$name" >> "$dir/LOOKS"
done
echo "debian-looks: $(wc -l < "$dir/SOURCES.csv") lines in $dir/SOURCES.csv" >&2
