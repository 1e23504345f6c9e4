#!/bin/sh
# The development subset for choosing the extraction's settings (docs/EXTRACT.md, "Method"): three looks and two
# photos, named before any measurement; the full set of evaluate.sh is the held-out report.
# Usage: scripts/extract/dev-subset.sh OUTDIR [VARIANT …]   (default variants: clean jpeg-q85 vignette)
set -eu
out=${1:?usage: dev-subset.sh OUTDIR [VARIANT …]}
shift
mkdir -p "$out"
corpus=${CORPUS:-/work/shared/corpus}
photos=${PHOTOS:-/work/shared/samples}
bin=${LOOKSTUDIO:-.build/debug/lookstudio}
variants=""
for v in ${*:-clean jpeg-q85 vignette}; do variants="$variants --variant $v"; done
for l in gpuimage_lookup_amatorka.png pillowlut_hald6_hefe.png metalpetal_colorlookuptable_tiled64_rgba.png; do
    name=${l%.*}
    # shellcheck disable=SC2086
    nice -n 10 "$bin" bench extract-eval --dump "$out/$name" --look "$corpus/$l" $variants \
        "$photos/chelsea.png" "$photos/coffee.png" > "$out/$name.txt" 2>/dev/null
done
python3 scripts/extract/summarize.py "$out"/*/ | grep -E "^\| lattice"
