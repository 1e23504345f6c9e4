#!/bin/sh
# Creative looks from sources no extraction measurement uses, to learn a prior over looks from (docs/EXTRACT.md,
# "A prior learned from other looks"): digiKam's bundled 3D LUTs (digikam-data, `apt-get download`, no install) and
# the pilgram package's Instagram-style filters (PyPI, Apache-2.0) applied to a Hald identity — only the 15 filters
# that act on colour alone (the other 11 lay a radial or linear gradient over the frame, which no cube can hold).
# Every look is written as a 33³ .cube; DIR/SOURCES.csv records file, source, version, path, licence, SHA-256.
# Usage: scripts/extract/prior-looks.sh DIR   (after `swift build`; LOOKSTUDIO names another binary; python3 with
# numpy and pip, as for the training scripts)
set -eu
dir=${1:?usage: prior-looks.sh DIR}
bin=${LOOKSTUDIO:-.build/debug/lookstudio}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "file,source,version,path,licence,sha256" > "$dir/SOURCES.csv"
record() { echo "$1,$2,$3,$4,$5,$(sha256sum "$dir/$1" | cut -d' ' -f1)" >> "$dir/SOURCES.csv"; }

(cd "$work" && apt-get download -qq digikam-data)
deb=$(ls "$work"/digikam-data_*.deb)
dpkg-deb -x "$deb" "$work/dk"
version=$(dpkg-deb -f "$deb" Version)
for f in "$work"/dk/usr/share/digikam/data/lut3d/*.png; do
    name=$(basename "$f" .png)
    [ "$name" = original ] && continue  # the identity
    "$bin" convert "$f" "$dir/digikam_$name.cube" --size 33 >/dev/null
    record "digikam_$name.cube" digikam-data "$version" "/usr/share/digikam/data/lut3d/$name.png" \
        "GPL-2+ (debian/copyright)"
done

# pilgram 2 needs a newer Pillow than Debian's; both go to a private folder, numpy stays the system's.
python3 -m pip install -q --no-deps --target "$work/py" pilgram==2.0.0 pillow >/dev/null
"$bin" generate --size 64 --layout hald --bits 16 -o "$work/hald.png" >/dev/null
filters="_1977 brannan clarendon gingham inkwell kelvin lark maven moon nashville reyes slumber stinson valencia walden"
PYTHONPATH="$work/py" python3 - "$work" $filters <<'PY'
import sys
import pilgram
from PIL import Image
work, names = sys.argv[1], sys.argv[2:]
hald = Image.open(f"{work}/hald.png").convert("RGB")
for name in names:
    getattr(pilgram, name)(hald).save(f"{work}/pilgram_{name.lstrip('_')}.png")
PY
for name in $filters; do
    name=${name#_}
    "$bin" convert "$work/pilgram_$name.png" "$dir/pilgram_$name.cube" --size 33 --input-layout hald >/dev/null
    record "pilgram_$name.cube" pilgram 2.0.0 "pilgram.$name applied to a 64³ Hald identity" Apache-2.0
done
echo "prior-looks: $(($(wc -l < "$dir/SOURCES.csv") - 1)) looks in $dir" >&2
