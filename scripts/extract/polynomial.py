"""colour-science's polynomial colour corrections on the pairs `lookstudio bench extract-eval --dump DIR` wrote.

For every pair (look, source photo, variant) in DIR/manifest.json, fits colour-science 0.4.7's polynomial colour
corrections from the before photo to the after image (Cheung 2004 with 10 terms; Finlayson 2015 root-polynomial,
degree 2; Vandermonde, degree 3), applies each to every photo and reports mean and 95th-percentile CIEDE2000 from
the true look on that photo: the same cases as the lattice fit in DIR/lattice-cases.json, for scale.

Usage: .venv-extract/bin/python scripts/extract/polynomial.py DIR [VARIANT …] > DIR/polynomial-cases.json
(variants default to all; e.g. `clean jpeg-q85`)
"""
import json
import sys

import colour
import numpy as np

METHODS = [
    ("cheung-10", dict(method="Cheung 2004", terms=10)),
    ("finlayson-root-2", dict(method="Finlayson 2015", degree=2, root_polynomial_expansion=True)),
    ("vandermonde-3", dict(method="Vandermonde", degree=3)),
]
FIT_PIXELS = 20000


def load(directory, name, width, height):
    return np.fromfile(f"{directory}/{name}", dtype="<f4").reshape(height, width, 3).astype(np.float64)


def lab(rgb):
    # sRGB (D65) to CIE Lab under D65, the chain colour.convert would take (which needs networkx).
    d65 = colour.CCS_ILLUMINANTS["CIE 1931 2 Degree Standard Observer"]["D65"]
    return colour.XYZ_to_Lab(colour.sRGB_to_XYZ(np.clip(rgb, 0, 1)), d65)


def main(directory, variants):
    manifest = json.load(open(f"{directory}/manifest.json"))
    photos = {m["photo"]: load(directory, m["file"], int(m["width"]), int(m["height"]))
              for m in manifest if "photo" in m}
    truths = {(m["look"], m["truth_of"]): m["file"] for m in manifest if "truth_of" in m}
    rng = np.random.default_rng(0)
    cases = []
    truth_lab = {}
    for pair in (m for m in manifest if "after" in m and (not variants or m["variant"] in variants)):
        before = photos[pair["source"]].reshape(-1, 3)
        after = load(directory, pair["after"], int(pair["width"]), int(pair["height"])).reshape(-1, 3)
        pick = rng.choice(len(before), size=min(FIT_PIXELS, len(before)), replace=False)
        for name, options in METHODS:
            for target, image in photos.items():
                key = (pair["look"], target)
                if key not in truth_lab:
                    truth = load(directory, truths[key], image.shape[1], image.shape[0])
                    truth_lab[key] = lab(truth.reshape(-1, 3))
                fitted = colour.colour_correction(image.reshape(-1, 3), before[pick], after[pick], **options)
                d = colour.delta_E(lab(fitted), truth_lab[key], method="CIE 2000")
                cases.append(dict(look=pair["look"], source=pair["source"], variant=pair["variant"], method=name,
                                  target=target, mean=float(np.mean(d)), p95=float(np.percentile(d, 95))))
        print(f"{pair['look']} {pair['source']} {pair['variant']}", file=sys.stderr)
    json.dump(cases, sys.stdout, indent=0)


if __name__ == "__main__":
    main(sys.argv[1], set(sys.argv[2:]))
