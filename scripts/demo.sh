#!/usr/bin/env bash
# The main job end to end, in out/demo with its own catalog (never the user's):
# identity cube → a look imported into the catalog → scene detection on a shipped photo → correction with the look
# by GUID at two strengths → before/after contact sheet. Prints where every file went.
set -euo pipefail
bin=${1:-.build/release/lookstudio}
out=out/demo
catalog="$out/catalog.sqlite"
photo=samples/coffee.png
mkdir -p "$out"
rm -rf "$catalog" "$catalog-wal" "$catalog-shm" "$out/corrected"

step() { printf '\n== %s\n' "$1"; }

step "1. Identity cube (open it in an image editor beside a photo, apply colour-only edits, save)"
"$bin" generate --size 64 --layout tiled --bits 8 -o "$out/identity64.png"

step "2. A look, imported into the demo catalog"
# A warm, slightly faded film-like look as a 17³ .cube, computed here so the demo needs no downloaded file; an
# edited identity PNG from step 1 imports the same way.
awk 'BEGIN {
  n = 17; print "TITLE \"Demo warm\""; print "LUT_3D_SIZE " n
  for (b = 0; b < n; b++) for (g = 0; g < n; g++) for (r = 0; r < n; r++) {
    R = r / (n - 1); G = g / (n - 1); B = b / (n - 1)
    R = 0.04 + 0.94 * R ^ 0.92; G = 0.03 + 0.93 * G ^ 0.98; B = 0.06 + 0.80 * B ^ 1.08
    printf "%.6f %.6f %.6f\n", R, G, B
  } }' > "$out/warm.cube"
guid=$("$bin" import --catalog "$catalog" "$out/warm.cube" --name "Demo warm" --tag demo | tail -n 1)
"$bin" looks show --catalog "$catalog" "$guid" | sed 's/^/    /'

step "3. Scene of $photo"
"$bin" detect "$photo" | sed 's/^/    /'

step "4. Correct $photo with look $guid at overall strengths 50 and 100 (one analysis, two renders)"
"$bin" correct --catalog "$catalog" "$photo" -o "$out/corrected" --look "$guid" --strength 50,100 \
  --json > "$out/correct.json"
sed 's/^/    /' "$out/correct.json"

step "5. Before / after contact sheet (original, 50 %, 100 %)"
"$bin" contact-sheet "$photo" "$out/corrected/coffee-s50.png" "$out/corrected/coffee-s100.png" \
  -o "$out/before-after.png" > /dev/null

step "Files"
files=("$out/identity64.png" "$out/warm.cube" "$catalog" "$out/correct.json"
       "$out/corrected/coffee-s50.png" "$out/corrected/coffee-s100.png" "$out/before-after.png")
labels=("identity cube (64³, tiled PNG)" "look file" "catalog" "correct --json report"
        "corrected at 50 %" "corrected at 100 %" "before/after sheet")
for i in "${!files[@]}"; do
  [ -s "${files[$i]}" ] || { echo "error: ${files[$i]} was not written" >&2; exit 1; }
  printf '  %-31s %s\n' "${labels[$i]}:" "${files[$i]}"
done
echo "  imported look GUID:             $guid"
