#!/bin/sh
# Look extraction on photos no setting was chosen on (docs/EXTRACT.md, "Held-out photos"): the first PHOTOS_N
# colour wallpapers of the photo corpus (scripts/corpus.sh) in the order of their SHA-256, a rule fixed before any
# of them was measured, evaluated as evaluate.sh evaluates the development photos, at LONG_SIDE pixels.
# Usage: scripts/extract/heldout.sh CORPUS_DIR OUTDIR [LONG_SIDE]   (after `swift build`; CORPUS_DIR from corpus.sh)
# LOOKS="a.png b.cube" and VARIANTS="clean jpeg-q85" narrow the run (default: every look, the standard variants);
# SPLIT=train takes the first PHOTOS_N colour photos of the training split instead (for look-prior.py);
# SPLIT=validation the eight validation-split photos of docs/EXTRACT.md's fourth photo set (PHOTOS_N ignored).
set -eu
corpus_dir=${1:?usage: heldout.sh CORPUS_DIR OUTDIR [LONG_SIDE]}
out=${2:?usage: heldout.sh CORPUS_DIR OUTDIR [LONG_SIDE]}
long_side=${3:-768}
luts=${CORPUS:-/work/shared/corpus}
bin=${LOOKSTUDIO:-.build/debug/lookstudio}
manifest=${MANIFEST:-scripts/train/corpus-manifest.csv}
n=${PHOTOS_N:-6}
split=${SPLIT:-wallpapers}
mkdir -p "$out"
photos=$(/usr/bin/python3 - "$manifest" "$corpus_dir" "$n" "$split" <<'EOF'
import csv, sys
manifest, folder, n, split = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
wallpapers = {"lomiri-wallpapers-16.04", "lomiri-wallpapers-20.04", "mate-backgrounds", "plasma-workspace-wallpapers"}
# The fourth set, picked before any was measured: the first five GCompris photos of the validation split by
# SHA-256, its Lomiri wallpaper, and scikit-image's chelsea and astronaut (development photos, reported apart).
fourth = {"076622230f0634c0.webp", "15b49393342bf7de.webp", "1aca9fcc5a0e3e9f.webp", "1c8a4014d0793806.webp",
          "1c8be6df0a6ff161.webp", "6572410c09f4492c.jpg", "596aa1e7cb875eb7.png", "88431cd9653ccd53.png"}
rows = [r for r in csv.DictReader(open(manifest)) if r["kind"] == "colour"
        and (r["split"] == "train" if split == "train" else r["file"] in fourth if split == "validation"
             else r["package"] in wallpapers)]
rows.sort(key=lambda r: r["sha256"])
print(" ".join(f"{folder}/{r['file']}" for r in (rows if split == "validation" else rows[:n])))
EOF
)
echo "heldout: photos $photos" >&2
. "$(dirname "$0")/looks.sh"
looks=${LOOKS:-$all_looks}
variants=""
for v in ${VARIANTS:-}; do variants="$variants --variant $v"; done
for l in $looks; do
    name=${l%.*}
    [ -f "$out/$name/lattice-cases.json" ] && continue
    # shellcheck disable=SC2086
    nice -n 10 "$bin" bench extract-eval --dump "$out/$name" --look "$luts/$l" --long-side "$long_side" \
        $variants $photos > "$out/$name.txt"
    # The after and true images are for polynomial.py; at these sizes they are gigabytes, and this script does not
    # use them. The photos and the fitted cubes (a few megabytes) stay for look-prior.py.
    rm -f "$out/$name"/after-*.f32 "$out/$name"/true-*.f32
done
# Twice: every creative look, then with the Resolve parser fixture apart (docs/EXTRACT.md, "Which looks are smooth").
{ python3 scripts/extract/summarize.py --apart lutgen_gruvbox_dark_hald8 "$out"/*/
  python3 scripts/extract/summarize.py --apart lutgen_gruvbox_dark_hald8 --apart cubelutloader_resolve_17_crlf \
      "$out"/*/; } | tee "$out/summary.md"
