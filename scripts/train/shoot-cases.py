"""Writes the shoot evaluation's cases for `lookstudio bench correct --shoots` (issue 53): shoots drawn as
shoot-eval.py draws them, as files the Swift bench reads, so it can correct them with the shipped `--shoot` code
rather than a re-implementation.

A split's photos are grouped by source unit (the manifest's `unit`; a shoot never mixes units, and units with fewer
photos than a shoot are left out). Per unit, `--shoots` shoots of 8 of its photos per family, untouched first, then
`--crop-photos` photos of those units, each as a shoot of 8 random crops of itself (no variety: the hardest case),
untouched and under every family. One fault per shoot (simulate.py, the simulator training uses); each photo gets its
own noise and JPEG. The draws are shoot-eval.py's, in its order, from one generator seeded `--seed`: given these units
as its unit folders in the same order, it simulates the same shoots.

Files: NAME.png (a unit photo at the evaluation size), crop-SHOOT-P.png (a crop), SHOOT-P.jpg (faulted) and
SHOOT-P-oracle.png (the fault inverted exactly); an untouched shoot's photos are their good PNGs, with no oracle.
shoots.json lists every shoot: id, kind (`photos` or `crops`), unit, family (or `untouched`), and per photo its good,
faulted and oracle files and the fault's parameters.

Usage: shoot-cases.py MANIFEST.csv CORPUS_DIR OUT_DIR [--split test] [--shoots 3] [--crop-photos 6] [--seed 53]
"""
import argparse
import csv
import importlib.util
import json
import os

import numpy as np

import simulate as S
from cases import png
from train import load_photo

_spec = importlib.util.spec_from_file_location("shoot_eval", os.path.join(os.path.dirname(__file__), "shoot-eval.py"))
shoot_eval = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(shoot_eval)


def write_shoot(out, shoot_id, kind, unit, family, goods, good_names, rng):
    """One shoot's files, drawn as shoot-eval.py's run_shoot draws them; returns its shoots.json entry."""
    fault = S.draw_fault(rng, family) if family != "untouched" else None
    photos = []
    for p, (good, name) in enumerate(zip(goods, good_names)):
        entry = dict(good=name, faulted=name, oracle=None)
        if fault is not None:
            jpeg = S.degrade_jpeg(good, fault, rng)
            entry.update(faulted=f"{shoot_id}-{p}.jpg", oracle=f"{shoot_id}-{p}-oracle.png", ev=fault["ev"],
                         gains=[float(g) for g in fault["gains"]], veil=fault["veil"],
                         air=[float(a) for a in fault["air"]])
            with open(os.path.join(out, entry["faulted"]), "wb") as f:
                f.write(jpeg)
            png(os.path.join(out, entry["oracle"]), S.oracle(S.decode_jpeg(jpeg), fault))
        photos.append(entry)
    return dict(id=shoot_id, kind=kind, unit=unit, family=family, photos=photos)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("manifest")
    parser.add_argument("corpus")
    parser.add_argument("out")
    parser.add_argument("--split", default="test")
    parser.add_argument("--shoots", type=int, default=3, help="shoots per unit and family")
    parser.add_argument("--crop-photos", type=int, default=6)
    parser.add_argument("--seed", type=int, default=53)
    args = parser.parse_args()
    size = shoot_eval.SHOOT
    rows = [r for r in csv.DictReader(open(args.manifest)) if r["split"] == args.split]
    by_unit = {}
    for r in sorted(rows, key=lambda r: r["file"]):
        by_unit.setdefault(r["unit"], []).append(r["file"])
    units = {u: files for u, files in sorted(by_unit.items()) if len(files) >= size}
    os.makedirs(args.out, exist_ok=True)
    photos, names = {}, {}
    for u, files in units.items():
        photos[u] = [load_photo(os.path.join(args.corpus, f)) for f in files]
        names[u] = [os.path.splitext(f)[0] + ".png" for f in files]
        for srgb, name in zip(photos[u], names[u]):
            png(os.path.join(args.out, name), srgb)
    rng = np.random.default_rng(args.seed)
    shoots = []
    for kind in ("photos", "crops"):
        for family in ("untouched",) + S.FAMILIES:
            if kind == "photos":
                for u in units:
                    for _ in range(args.shoots):
                        pick = rng.choice(len(photos[u]), size=size, replace=False)
                        shoots.append(write_shoot(args.out, f"s{len(shoots):04d}", kind, u, family,
                                                  [photos[u][i] for i in pick], [names[u][i] for i in pick], rng))
                continue
            everyone = [(u, k) for u in units for k in range(len(photos[u]))]
            for i in rng.choice(len(everyone), size=args.crop_photos, replace=False):
                u, k = everyone[i]
                shoot_id = f"s{len(shoots):04d}"
                goods = shoot_eval.crops(photos[u][k], rng)
                crop_names = [f"crop-{shoot_id}-{p}.png" for p in range(len(goods))]
                for good, name in zip(goods, crop_names):
                    png(os.path.join(args.out, name), good)
                entry = write_shoot(args.out, shoot_id, kind, u, family, goods, crop_names, rng)
                entry["source"] = names[u][k]
                shoots.append(entry)
    with open(os.path.join(args.out, "shoots.json"), "w") as f:
        json.dump(dict(split=args.split, families=list(S.FAMILIES), shoot_size=size, seed=args.seed,
                       units={u: len(files) for u, files in units.items()},
                       left_out={u: len(files) for u, files in sorted(by_unit.items()) if u not in units},
                       shoots=shoots), f, indent=1)
    print(f"shoot cases: {len(shoots)} shoots of {size} from {len(units)} units in {args.out}")


if __name__ == "__main__":
    main()
