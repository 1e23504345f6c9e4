"""How far `correct` moves good images of kinds the corpus' splits lack (issue 53): textures (GIMP's photographic and
procedural patterns, Debian `gimp-data`) and rendered snow mountains (Extreme Tux Racer's sky boxes,
`extremetuxracer-data`). Nothing here trains or tunes anything: it measures the default on material no split holds.

Each pattern is tiled to at least 400 px (a pattern tiles seamlessly), each image saved as JPEG quality 90 (a
photo's usual history) and that JPEG's decode kept as PNG, so the outputs are lossless too and a re-encoding's noise
is not counted as the correction's move; then corrected with `--no-look` and compared (mean CIEDE2000) with the
same run under `--auto off`. Extra arguments go to `correct` (e.g. `--levels 0`).

Usage: /usr/bin/python3 scripts/train/kinds-eval.py LOOKSTUDIO [WORK_DIR] [-- CORRECT_ARGS…]
"""
import glob
import importlib.util
import os
import struct
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
_spec = importlib.util.spec_from_file_location("shoot_eval", os.path.join(HERE, "shoot-eval.py"))
shoot_eval = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(shoot_eval)

PACKAGES = ["gimp-data", "extremetuxracer-data"]


def gimp_pattern(path):
    """A GIMP .pat file: a big-endian header (size, version, width, height, bytes per pixel, 'GPAT', name), pixels."""
    data = open(path, "rb").read()
    header, _, width, height, depth = struct.unpack(">5I", data[:20])
    mode = {1: "L", 2: "LA", 3: "RGB", 4: "RGBA"}[depth]
    return Image.frombytes(mode, (width, height), data[header:header + width * height * depth]).convert("RGB")


def tiled(image, side=400):
    w, h = image.size
    out = Image.new("RGB", (w * -(-side // w), h * -(-side // h)))
    for x in range(0, out.width, w):
        for y in range(0, out.height, h):
            out.paste(image, (x, y))
    return out


def save(image, folder, name):
    """`image` through JPEG quality 90, kept as the PNG of that decode."""
    path = os.path.join(folder, name + ".jpg")
    image.save(path, quality=90)
    Image.open(path).convert("RGB").save(os.path.join(folder, name + ".png"))
    os.remove(path)


def gather(work):
    """Downloads and unpacks the packages (no installation) and writes the images; returns their folder."""
    debs, root, images = os.path.join(work, "debs"), os.path.join(work, "root"), os.path.join(work, "png")
    if os.path.isdir(images) and os.listdir(images):
        return images
    for d in (debs, root, images):
        os.makedirs(d, exist_ok=True)
    subprocess.run(["apt-get", "download", *PACKAGES], cwd=debs, check=True, capture_output=True)
    for deb in glob.glob(os.path.join(debs, "*.deb")):
        subprocess.run(["dpkg-deb", "-x", deb, root], check=True)
    for path in sorted(glob.glob(os.path.join(root, "usr/share/gimp/2.0/patterns/*/*.pat"))):
        if "/Legacy/" in path:  # flat colours and grids, not surfaces
            continue
        name = f"pat-{os.path.basename(os.path.dirname(path)).lower()}-{os.path.basename(path)[:-4]}"
        save(tiled(gimp_pattern(path)), images, name)
    for path in sorted(glob.glob(os.path.join(root, "usr/share/games/etr/env/etr/*/*.png"))):
        if os.path.basename(path) in ("front.png", "left.png", "right.png"):
            name = f"etr-{os.path.basename(os.path.dirname(path))}-{os.path.basename(path)[:-4]}"
            save(Image.open(path).convert("RGB"), images, name)
    return images


def load(path):
    return np.asarray(Image.open(path).convert("RGB"), dtype=np.float64) / 255


def main():
    args = sys.argv[1:]
    extra = args[args.index("--") + 1:] if "--" in args else []
    args = args[:args.index("--")] if "--" in args else args
    binary = os.path.abspath(args[0])
    work = args[1] if len(args) > 1 else os.path.join(tempfile.gettempdir(), "lookstudio-kinds")
    images = gather(work)
    corrected, reference = tempfile.mkdtemp(), tempfile.mkdtemp()
    for out, more in ((corrected, extra), (reference, ["--auto", "off"])):
        subprocess.run([binary, "correct", images, "--no-look", "-o", out, *more], check=True, capture_output=True)
    rows = sorted(((shoot_eval.de00(load(os.path.join(reference, f)), load(os.path.join(corrected, f))), f)
                   for f in os.listdir(images)), reverse=True)
    for group, prefix in (("textures (GIMP patterns)", "pat-"), ("snow mountains (ETR)", "etr-")):
        moved = [d for d, f in rows if f.startswith(prefix)]
        print(f"{group:26} {len(moved):3} images: mean {np.mean(moved):.3f}, max {max(moved):.3f} ΔE00, "
              f"> 1.0: {sum(d > 1 for d in moved)}")
    for d, f in rows:
        print(f"  {d:6.3f}  {f}")


if __name__ == "__main__":
    main()
