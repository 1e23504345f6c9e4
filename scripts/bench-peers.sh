#!/usr/bin/env bash
# Times the peers (ffmpeg, optionally ImageMagick) on the same inputs as `lookstudio bench`, so LookStudio's figures
# can be stated as ratios measured in one run on one machine.
#
# Usage: scripts/bench-peers.sh CUBE.cube [--png IMAGE.png] [--png16 IMAGE16.png] [--jpeg IMAGE.jpg]
#                                         [--hald HALD.png] [--lookstudio PATH]
#   needs: ffmpeg (and ffprobe), GNU time (/usr/bin/time); ImageMagick only with --hald. Benchmark tools, never
#   project dependencies (Debian: ffmpeg imagemagick time).
#   prints, per peer: lut3d core throughput on photo-like and random pixels (rawvideo, the frame looped 10 times so
#   parsing the cube is amortised, the cost of the same run without the filter subtracted), 1 thread in CPU time
#   and 2 threads in wall time;
#   PNG→PNG, 16-bit PNG→PNG, JPEG→JPEG and JPEG→PNG wall time, output size and peak RSS; with --lookstudio, the
#   same file runs through `lookstudio apply` beside them, and the ratio of walls.
set -eu
cube=$1; shift
png= png16= jpeg= hald= ls=
while [ $# -gt 0 ]; do
  case $1 in
    --png) png=$2; shift 2 ;;
    --png16) png16=$2; shift 2 ;;
    --jpeg) jpeg=$2; shift 2 ;;
    --hald) hald=$2; shift 2 ;;
    --lookstudio) ls=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# wall seconds, peak RSS (kB) and CPU seconds (user + system) of a command
t() { /usr/bin/time -f "%e %M %U %S" "$@" 2>&1 >/dev/null | tail -1 | awk '{ print $1, $2, $3 + $4 }'; }
size() { ffprobe -v error -select_streams v:0 -show_entries stream=width,height -of csv=p=0 "$1" | tr ',' ' '; }
mb() { awk -v b="$(stat -c %s "$1")" 'BEGIN { printf "%.1f", b / 1e6 }'; }

core() {  # core LABEL RAWFILE W H
  local label=$1 raw=$2 w=$3 h=$4 th lut cp wall_lut cpu_lut wall_cp cpu_cp
  # One thread is measured in CPU seconds (like `lookstudio bench apply`'s thread CPU time, so load from other
  # processes does not count), two threads in wall seconds.
  for th in 1 2; do
    read -r wall_lut _ cpu_lut < <(t ffmpeg -v error -threads $th -filter_threads $th -f rawvideo -pix_fmt rgb24 \
      -s ${w}x$h -stream_loop 9 -i "$raw" -vf "lut3d=file=$cube:interp=tetrahedral" -f rawvideo -y /dev/null)
    read -r wall_cp _ cpu_cp < <(t ffmpeg -v error -threads $th -filter_threads $th -f rawvideo -pix_fmt rgb24 \
      -s ${w}x$h -stream_loop 9 -i "$raw" -f rawvideo -y /dev/null)
    if [ $th = 1 ]; then lut=$cpu_lut cp=$cpu_cp; else lut=$wall_lut cp=$wall_cp; fi
    awk -v l="$lut" -v c="$cp" -v mp="$(awk -v w=$w -v h=$h 'BEGIN{print w*h/1e6}')" -v th=$th -v label="$label" \
      'BEGIN { d = l - c; if (d < 1e-3) d = 1e-3;
               printf "ffmpeg lut3d core, %s, %d thread(s): %.1f Mpix/s (10 frames %.2f s - copy %.2f s, %s)\n",
                      label, th, 10 * mp / d, l, c, th == 1 ? "CPU time" : "wall" }'
  done
}

endToEnd() {  # endToEnd LABEL INPUT OUTEXT [ffmpeg output options…]
  local label=$1 in=$2 ext=$3; shift 3
  local s kb ls_s ls_kb
  read -r s kb _ < <(t ffmpeg -v error -i "$in" -vf "lut3d=file=$cube:interp=tetrahedral" "$@" -y "$tmp/ff.$ext")
  echo "ffmpeg $label: ${s} s, out $(mb "$tmp/ff.$ext") MB, peak RSS $((kb / 1024)) MB"
  if [ -n "$ls" ]; then
    read -r ls_s ls_kb _ < <(t "$ls" apply --lut "$cube" "$in" "$tmp/ls.$ext")
    awk -v a="$ls_s" -v b="$s" -v kb="$ls_kb" -v label="$label" -v out="$(mb "$tmp/ls.$ext")" \
      'BEGIN { printf "lookstudio %s: %s s, out %s MB, peak RSS %d MB, %.2f× ffmpeg wall\n", label, a, out, kb / 1024, a / b }'
  fi
}

if [ -n "$png" ]; then
  read -r w h < <(size "$png")
  ffmpeg -v error -i "$png" -f rawvideo -pix_fmt rgb24 -y "$tmp/photo.rgb"
  head -c $((w * h * 3)) /dev/urandom > "$tmp/random.rgb"
  core "photo-like ($png)" "$tmp/photo.rgb" "$w" "$h"
  core "random pixels" "$tmp/random.rgb" "$w" "$h"
  rm -f "$tmp/photo.rgb" "$tmp/random.rgb"
  endToEnd "PNG->PNG ${w}x$h" "$png" png
  if [ -n "$hald" ]; then
    im=$(command -v convert-im6.q16 || command -v magick || echo /usr/bin/convert)
    read -r s kb _ < <(t "$im" "$png" "$hald" -hald-clut "$tmp/im.png")
    echo "ImageMagick -hald-clut PNG->PNG: ${s} s, out $(mb "$tmp/im.png") MB, peak RSS $((kb / 1024)) MB"
  fi
fi
[ -n "$png16" ] && endToEnd "16-bit PNG->PNG (rgb48)" "$png16" png -pix_fmt rgb48be
if [ -n "$jpeg" ]; then
  endToEnd "JPEG->JPEG" "$jpeg" jpg -q:v 2
  endToEnd "JPEG->PNG" "$jpeg" png
fi
