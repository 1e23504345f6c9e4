#!/bin/sh
# Measures look extraction for docs/EXTRACT.md: real creative looks (from the LUT corpus) applied to real photos,
# extracted from one pair, compared with the true look on the pair's own photo and on the other photos; then
# colour-science's polynomial fits on the same pairs (needs .venv-extract with colour-science, see docs/EXTRACT.md).
# Usage: scripts/extract/evaluate.sh OUTDIR   (run from the package root after `swift build`)
set -eu
out=${1:?usage: evaluate.sh OUTDIR}
corpus=${CORPUS:-/work/shared/corpus}
photos=${PHOTOS:-/work/shared/samples}
bin=${LOOKSTUDIO:-.build/debug/lookstudio}
mkdir -p "$out"
. "$(dirname "$0")/looks.sh"
looks=$all_looks
# One process and folder per look, so a long run leaves usable results as it goes. The grey-only photo is a target
# only: a grey pair covers the grey axis alone (the extraction warns), and docs/EXTRACT.md reports that case apart.
for l in $looks; do
    name=${l%.*}
    [ -f "$out/$name/lattice-cases.json" ] && continue
    nice -n 10 "$bin" bench extract-eval --dump "$out/$name" --look "$corpus/$l" --target-only camera \
        "$photos/chelsea.png" "$photos/coffee.png" "$photos/camera.png" samples/astronaut.png \
        Tests/Fixtures/photos/clipped-sky.jpg > "$out/$name.txt"
done
# colour-science's polynomial fits on the same pairs, where the venv exists (a failure leaves the table out).
if [ -x .venv-extract/bin/python ]; then
    for l in $looks; do
        name=${l%.*}
        [ -f "$out/$name/polynomial-cases.json" ] && continue
        nice -n 10 .venv-extract/bin/python scripts/extract/polynomial.py "$out/$name" clean jpeg-q85 \
            > "$out/$name/polynomial.tmp" && mv "$out/$name/polynomial.tmp" "$out/$name/polynomial-cases.json"
    done
fi
# The palette remap (lutgen) is no smooth grade: its figures are listed apart (decided before measuring).
python3 scripts/extract/summarize.py --apart lutgen_gruvbox_dark_hald8 "$out"/*/ | tee "$out/summary.md"
