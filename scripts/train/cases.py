"""Writes the realistic evaluation's cases for `lookstudio bench correct`: every photo of a split, each under one
random fault of every family (simulate.py, the same simulator training uses), as files the Swift bench reads.

Per photo: NAME.png (the good photo at the evaluation size), and per family NAME-FAMILY.jpg (the faulted photo,
the camera's own JPEG) and NAME-FAMILY-oracle.png (the known fault inverted exactly); cases.json lists them with
each fault's parameters and the photo's scene kinds (scene-kinds.csv beside the manifest, labelled by eye; used
only to report per kind, never in training). Seeds are evaluate.py's, so both see the same cases.

Usage: cases.py MANIFEST.csv CORPUS_DIR OUT_DIR [--split test]
"""
import argparse
import csv
import json
import os

import numpy as np
from PIL import Image

import simulate as S
from train import load_photo


def png(path, srgb):
    Image.fromarray(np.round(np.clip(srgb, 0, 1) * 255).astype(np.uint8)).save(path)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("manifest")
    parser.add_argument("corpus")
    parser.add_argument("out")
    parser.add_argument("--split", default="test")
    args = parser.parse_args()
    rows = [r for r in csv.DictReader(open(args.manifest)) if r["split"] == args.split]
    labels = os.path.join(os.path.dirname(os.path.abspath(args.manifest)), "scene-kinds.csv")
    scenes = {r["file"]: r["scenes"].split() for r in csv.DictReader(open(labels))} if os.path.exists(labels) else {}
    os.makedirs(args.out, exist_ok=True)
    cases = []
    for k, r in enumerate(rows):
        rng = np.random.default_rng(4242 + k)
        name = os.path.splitext(r["file"])[0]
        srgb = load_photo(os.path.join(args.corpus, r["file"]))
        png(os.path.join(args.out, name + ".png"), srgb)
        photo = dict(photo=name + ".png", package=r["package"], kind=r["kind"], scenes=scenes.get(name, []),
                     faults=[])
        for family in S.FAMILIES:
            fault = S.draw_fault(rng, family)
            jpeg = S.degrade_jpeg(srgb, fault, rng)
            with open(os.path.join(args.out, f"{name}-{family}.jpg"), "wb") as f:
                f.write(jpeg)
            png(os.path.join(args.out, f"{name}-{family}-oracle.png"), S.oracle(S.decode_jpeg(jpeg), fault))
            photo["faults"].append(dict(family=family, faulted=f"{name}-{family}.jpg",
                                        oracle=f"{name}-{family}-oracle.png", ev=fault["ev"],
                                        gains=[float(g) for g in fault["gains"]], veil=fault["veil"],
                                        air=[float(a) for a in fault["air"]]))
        cases.append(photo)
    with open(os.path.join(args.out, "cases.json"), "w") as f:
        json.dump(dict(split=args.split, families=list(S.FAMILIES), photos=cases), f, indent=1)
    print(f"cases: {len(cases)} photos × {len(S.FAMILIES)} faults in {args.out}")


if __name__ == "__main__":
    main()
