#!/bin/sh
# Builds the photo corpus (docs/CORRECTION.md): installs the Debian packages that carry photographs,
# extracts and filters them into CORPUS_DIR (outside git) and writes the committed manifest.
# Usage: scripts/corpus.sh [CORPUS_DIR] [MANIFEST]
set -eu
cd "$(dirname "$0")/.."
CORPUS_DIR=${1:-.corpus}
MANIFEST=${2:-scripts/train/corpus-manifest.csv}
PACKAGES="gcompris-qt-data plasma-workspace-wallpapers gnome-backgrounds mate-backgrounds ukui-wallpapers \
lomiri-wallpapers python3-skimage python3-sklearn python-matplotlib-data opencv-doc python3-numpy python3-scipy \
python3-pil"
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
missing=""
for p in $PACKAGES; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "corpus: installing$missing"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
fi
/usr/bin/python3 scripts/train/corpus.py "$CORPUS_DIR" "$MANIFEST"
# The realistic evaluation's cases (`lookstudio bench correct`): the test split under simulate.py's faults.
# Written again only when the manifest or the scene labels are newer than them (seeded: the same files every time).
SCENES="$(dirname "$MANIFEST")/scene-kinds.csv"
if [ ! -f "$CORPUS_DIR/cases/test/cases.json" ] || [ "$MANIFEST" -nt "$CORPUS_DIR/cases/test/cases.json" ] \
    || [ "$SCENES" -nt "$CORPUS_DIR/cases/test/cases.json" ]; then
    /usr/bin/python3 scripts/train/cases.py "$MANIFEST" "$CORPUS_DIR" "$CORPUS_DIR/cases/test"
fi
# The shoot evaluation's cases (`lookstudio bench correct --shoots`): shoots of the test split's source units under
# the same simulator, drawn as scripts/train/shoot-eval.py draws them; written again on the same condition.
SHOOTS="$CORPUS_DIR/cases/shoots/shoots.json"
if [ ! -f "$SHOOTS" ] || [ "$MANIFEST" -nt "$SHOOTS" ]; then
    /usr/bin/python3 scripts/train/shoot-cases.py "$MANIFEST" "$CORPUS_DIR" "$CORPUS_DIR/cases/shoots"
fi
