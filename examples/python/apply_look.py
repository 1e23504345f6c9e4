#!/usr/bin/env python3
"""A photo's pixels through the lookstudio package: a catalog look by GUID, or the correction after one detection
at several strengths — the bytes `lookstudio apply --look` and `lookstudio correct` write for the same decoded photo.

    apply_look.py CATALOG IN.png LOOK STRENGTH OUT.png
    apply_look.py --correct CATALOG IN.png OUT S1 [S2 …]      writes OUT-sS1.png, …

Reads and writes 8-bit PNGs with Pillow (only how this example gets pixels).
"""
import sys

import numpy as np
from PIL import Image

import lookstudio


def main(argv: list[str]) -> int:
    correct = argv[:1] == ["--correct"]
    args = argv[1:] if correct else argv
    if len(args) < 4 or (not correct and len(args) != 5):
        print(__doc__, file=sys.stderr)
        return 2
    engine = lookstudio.Engine(catalog=args[0])
    source = Image.open(args[1])
    icc = source.info.get("icc_profile")
    pixels = np.asarray(source)
    if not correct:
        out = engine.apply(pixels, look=args[2], strength=float(args[3]), icc=icc)
        Image.fromarray(out).save(args[4], icc_profile=icc)
        print(f"wrote {args[4]}")
        return 0
    analysis = engine.detect(pixels, icc=icc)
    print(f"scene {analysis.scene} ({analysis.scene_name}), confidence {analysis.confidence:.2f}, "
          f"{len(analysis.faces)} faces")
    for strength in args[3:]:
        out = engine.correct(pixels, analysis=analysis, strength=float(strength), icc=icc)
        path = f"{args[2]}-s{strength}.png"
        Image.fromarray(out).save(path, icc_profile=icc)
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
