#!/usr/bin/env bash
# The main job on the embedded defaults: generate an identity cube, then apply a look to a shipped sample photo.
set -euo pipefail
bin=${1:-.build/release/lookstudio}
out=out/demo
mkdir -p "$out"
"$bin" generate --size 64 --layout tiled --bits 8 -o "$out/identity64.png"
echo "identity cube:   $out/identity64.png"
