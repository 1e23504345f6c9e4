#!/usr/bin/env bash
# The main job end to end on the embedded defaults, in out/demo (its own catalog, never the user's):
# identity cube → a look → scene detection on a shipped photo → correction at two strengths → before/after sheet.
set -euo pipefail
bin=${1:-.build/release/lookstudio}
out=out/demo
catalog="$out/catalog.sqlite"
mkdir -p "$out"
rm -f "$catalog"

"$bin" generate --size 64 --layout tiled --bits 8 -o "$out/identity64.png"
echo "identity cube:      $out/identity64.png"

# A warm, slightly faded film-like look as a 17³ .cube, computed here so the demo needs no downloaded file.
awk 'BEGIN {
  n = 17; print "TITLE \"Demo warm\""; print "LUT_3D_SIZE " n
  for (b = 0; b < n; b++) for (g = 0; g < n; g++) for (r = 0; r < n; r++) {
    R = r / (n - 1); G = g / (n - 1); B = b / (n - 1)
    R = 0.04 + 0.94 * R ^ 0.92; G = 0.03 + 0.93 * G ^ 0.98; B = 0.06 + 0.80 * B ^ 1.08
    printf "%.6f %.6f %.6f\n", R, G, B
  } }' > "$out/warm.cube"
echo "look file:          $out/warm.cube"

look_args=(--lut "$out/warm.cube")
if "$bin" import --help >/dev/null 2>&1; then
  guid=$("$bin" --catalog "$catalog" import "$out/warm.cube" --name "Demo warm" | tail -n 1 | awk '{print $1}')
  echo "imported look:      $guid (catalog $catalog)"
  look_args=(--catalog "$catalog" --look "$guid")
fi

photo=samples/coffee.png
echo "scene of $photo:"
"$bin" detect "$photo" | sed 's/^/    /'

"$bin" correct "$photo" -o "$out/corrected" "${look_args[@]}" --strength 50,100
for s in 50 100; do echo "corrected ($s %):    $out/corrected/coffee-s$s.png"; done

"$bin" contact-sheet "$photo" "$out/corrected/coffee-s50.png" "$out/corrected/coffee-s100.png" \
  -o "$out/before-after.png" > /dev/null
echo "before/after sheet: $out/before-after.png"
