"""Builds the photo corpus from installed Debian packages: extracts, filters illustrations, hashes, splits.

Usage: corpus.py CACHE_DIR MANIFEST.csv
Writes every kept photo to CACHE_DIR/<sha256[:16]>.<ext> (the original bytes) and one manifest row per photo.
"""
import csv
import glob
import hashlib
import io
import os
import subprocess
import sys

import numpy as np
from PIL import Image

import qres

EXTS = (".jpg", ".jpeg", ".png", ".webp")
# GCompris activities whose images are drawings, paintings, diagrams or cut-outs, not photographs.
GCOMPRIS_SKIP = {"paintings.rcc", "clickgame.rcc", "babyshapes.rcc", "solar_system.rcc", "core.rcc",
                 "digital_electricity.rcc", "gravity.rcc", "leftright.rcc", "hangman.rcc",
                 "memory-sound.rcc", "chronos.rcc"}
# Packages whose image files are read directly (wallpapers: the largest size of each; scikit-image's samples).
FILE_PACKAGES = ("plasma-workspace-wallpapers", "gnome-backgrounds", "mate-backgrounds", "ukui-wallpapers",
                 "lomiri-wallpapers", "lomiri-wallpapers-16.04", "lomiri-wallpapers-20.04", "python3-skimage",
                 "python3-sklearn", "python-matplotlib-data", "opencv-doc")
# Packages that are mostly not photographs (test patterns, calibration boards, logos, text, stereo and
# sequence pairs): only these files, picked by eye from a contact sheet of what passes photo_check, one of
# each pair or sequence.
PICKED = {
    "python-matplotlib-data": ("sample_data/grace_hopper.jpg",),
    "opencv-doc": tuple(f"examples/{name}" for name in (
        "alphamat/input_images/plant.jpg", "data/aero1.jpg", "data/aloeL.jpg", "data/apple.jpg",
        "data/baboon.jpg", "data/basketball1.png", "data/board.jpg", "data/box.png", "data/building.jpg",
        "data/butterfly.jpg", "data/ela_original.jpg", "data/fruits.jpg", "data/home.jpg", "data/leuvenA.jpg",
        "data/messi5.jpg", "data/orange.jpg", "data/rubberwhale1.png", "data/squirrel_cls.jpg",
        "data/stuff.jpg", "dnn_superres/butterfly.png", "hfs/data/000.jpg", "hfs/data/001.jpg",
        "hfs/data/002.jpg", "reg/home.png", "text/scenetext01.jpg", "text/scenetext02.jpg",
        "text/scenetext03.jpg", "text/scenetext04.jpg", "text/scenetext05.jpg", "text/scenetext06.jpg")),
}
# Renders, illustrations and non-photographs in the file packages, excluded by eye from a contact sheet (the
# automatic rule in photo_check cannot tell a smooth render from a photograph); wallpaper preview screenshots
# duplicate their wallpaper. A path containing any of these is skipped.
EXCLUDE = ("/contents/screenshot", "/Altai/", "/Autumn/", "/Canopee/", "/Cascade/", "/Cluster/", "/Grey/",
           "/Honeywave/", "/Kay/", "/Patak/", "/SafeLanding/", "/Shell/", "backgrounds/gnome/", "mate/abstract/",
           "mate/desktop/", "fluent-color", "rhythm.jpg", "string.jpg", "umang_by_", "skimage/data/color.png",
           "skimage/data/ihc.png", "skimage/data/cell.png", "skimage/data/page.png", "skimage/data/text.png",
           "skimage/data/motorcycle_right.png", "warty-final", "lomiri-default-background", "Painting-Colors",
           "/Elarun/", "/Flow/", "/IceCold/", "/Kite/", "/Kokkini/", "/MilkyWay/", "/Opal/", "/PastelHills/",
           "/Volna/", "calla.png", "focal-ubuntukylin", "goldfish.png", "Fossa_by_", "Infinite-Sea_by_",
           "analogpattern_by_", "greentock_by_", "2004default.jpg", "the-mouse.jpg",
           # GCompris: Van Gogh's paintings among the `details` photographs, a braille chart; and the small
           # copies in `categorization` of three `explore_monuments` photographs (found by matching ORB
           # features between every two photos of different units, scripts/train/duplicates.py).
           "/Eglise_dAuvers-sur-Oise_", "/Gogh4_", "/PortraitOfPereTanguy_", "/Van_Gogh_The_Night_Cafe_",
           "/VincentVanGogh", "louis-braille/resource/chart.webp", "monuments/brandenburgGate.webp",
           "monuments/colosseum.webp", "monuments/greatPyramid.webp")
# Split by source: whole packages; GCompris (most photos) by activity, each activity one unit. Chosen by hand
# before any evaluation so that every split holds several kinds of scene; unlisted units go to train.
SPLITS = {
    "gcompris-qt-data/erase.rcc": "validation", "gcompris-qt-data/explore_farm_animals.rcc": "validation",
    "python3-skimage": "validation", "lomiri-wallpapers-20.04": "validation", "lomiri-wallpapers": "validation",
    "gcompris-qt-data/explore_world_music.rcc": "test", "gcompris-qt-data/explore_world_animals.rcc": "test",
    "gcompris-qt-data/details.rcc": "test", "plasma-workspace-wallpapers": "test",
    "mate-backgrounds": "test", "gnome-backgrounds": "test", "ukui-wallpapers": "test",
    "lomiri-wallpapers-16.04": "test", "python3-sklearn": "test", "python-matplotlib-data": "test",
    "opencv-doc": "test",
}


def package_version(package):
    out = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package], capture_output=True, text=True)
    return out.stdout.strip() if out.returncode == 0 else ""


def package_files(package):
    out = subprocess.run(["dpkg", "-L", package], capture_output=True, text=True)
    return [p for p in out.stdout.splitlines() if p.lower().endswith(EXTS) and os.path.isfile(p)]


def package_licence(package):
    """The licences the package's DEP-5 copyright file names (package level; the file lists per-file credits)."""
    path = f"/usr/share/doc/{package}/copyright"
    if not os.path.exists(path):
        return "see package"
    names = []
    for line in open(path, encoding="utf-8", errors="replace"):
        if line.startswith("License:"):
            name = line.split(":", 1)[1].strip()
            if name and name not in names:
                names.append(name)
    return " / ".join(names[:4]) + f" ({path})"


def photo_check(data):
    """Returns (ok, reason, width, height). The rule (docs/CORRECTION.md):
    at least 160 px on the short side; no transparency (cut-outs); on a copy at most 256 px long, at least 700
    distinct colours at 6 bits per channel (or 120 grey levels for a black-and-white photo), and under 45 % of
    pixels exactly equal to both their right and lower neighbours (flat fills of drawings and renders)."""
    try:
        image = Image.open(io.BytesIO(data))
        image.load()
    except Exception as error:  # a broken or unsupported file is skipped, not fatal
        return False, f"undecodable: {error}", 0, 0
    width, height = image.size
    if min(width, height) < 160:
        return False, "small", width, height
    if image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info:
        alpha = np.asarray(image.convert("RGBA"))[..., 3]
        if (alpha < 250).mean() > 0.001:
            return False, "transparent", width, height
    rgb = image.convert("RGB")
    rgb.thumbnail((256, 256), Image.BILINEAR)
    a = np.asarray(rgb).astype(np.int32)
    flat = ((a[:-1, :-1] == a[1:, :-1]).all(-1) & (a[:-1, :-1] == a[:-1, 1:]).all(-1)).mean()
    grey = np.abs(a - a.mean(-1, keepdims=True)).max() <= 6
    if grey:
        distinct = len(np.unique(a[..., 1]))
        enough = distinct >= 120
    else:
        q = a >> 2
        distinct = len(np.unique((q[..., 0] << 12) | (q[..., 1] << 6) | q[..., 2]))
        enough = distinct >= 700
    if not enough:
        return False, f"few colours ({distinct})", width, height
    if flat >= 0.45:
        return False, f"flat ({flat:.2f})", width, height
    return True, "grey" if grey else "colour", width, height


def split_of(package, unit):
    key = package if unit == package else f"{package}/{unit}"
    return SPLITS.get(key, "train")


def candidates():
    version = package_version("gcompris-qt-data")
    if version:
        for rcc in sorted(glob.glob("/usr/share/gcompris-qt/rcc/*.rcc")):
            unit = os.path.basename(rcc)
            if unit in GCOMPRIS_SKIP:
                continue
            res = qres.QRes(open(rcc, "rb").read())
            for path, flags, offset in res.files():
                if path.lower().endswith(EXTS) and not any(part in path for part in EXCLUDE):
                    yield "gcompris-qt-data", version, f"{rcc}:{path}", unit, lambda r=res, f=flags, o=offset: r.read(f, o)
    for package in FILE_PACKAGES:
        version = package_version(package)
        if not version:
            print(f"corpus: {package} not installed, skipped", file=sys.stderr)
            continue
        files = package_files(package)
        # A wallpaper ships at several sizes: keep the largest file of each wallpaper folder.
        best = {}
        for path in files:
            if any(part in path for part in EXCLUDE):
                continue
            if package in PICKED and not path.endswith(PICKED[package]):
                continue
            key = os.path.dirname(path) if "/contents/images" in path else path
            if key not in best or os.path.getsize(path) > os.path.getsize(best[key]):
                best[key] = path
        for path in sorted(best.values()):
            yield package, version, path, package, lambda p=path: open(p, "rb").read()


def main(cache, manifest):
    os.makedirs(cache, exist_ok=True)
    rows, seen, rejected = [], set(), {}
    licences = {}
    for package, version, source, unit, read in candidates():
        data = read()
        digest = hashlib.sha256(data).hexdigest()
        if digest in seen:
            continue
        ok, reason, width, height = photo_check(data)
        if not ok:
            rejected[reason.split(" ")[0]] = rejected.get(reason.split(" ")[0], 0) + 1
            continue
        seen.add(digest)
        ext = os.path.splitext(source)[1].lower()
        name = f"{digest[:16]}{ext}"
        target = os.path.join(cache, name)
        if not os.path.exists(target):
            with open(target + ".tmp", "wb") as out:
                out.write(data)
            os.replace(target + ".tmp", target)
        if package not in licences:
            licences[package] = package_licence(package)
        rows.append(dict(file=name, package=package, version=version, path=source, unit=unit,
                         split=split_of(package, unit), kind=reason, width=width, height=height,
                         licence=licences[package], sha256=digest))
    rows.sort(key=lambda r: (r["split"], r["package"], r["path"]))
    with open(manifest + ".tmp", "w", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=list(rows[0].keys()))
        writer.writeheader()
        writer.writerows(rows)
    # An unchanged manifest keeps its file (and time): corpus.sh rewrites the realistic cases only when it is newer.
    if os.path.exists(manifest) and open(manifest, "rb").read() == open(manifest + ".tmp", "rb").read():
        os.remove(manifest + ".tmp")
    else:
        os.replace(manifest + ".tmp", manifest)
    counts = {}
    for r in rows:
        counts[(r["split"], r["package"])] = counts.get((r["split"], r["package"]), 0) + 1
    for key in sorted(counts):
        print(f"corpus: {key[0]:10s} {key[1]:28s} {counts[key]}")
    print(f"corpus: {len(rows)} photographs kept; rejected: {rejected}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
