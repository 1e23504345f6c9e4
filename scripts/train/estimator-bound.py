#!/usr/bin/env python3
"""How far any choice among global estimators could go: an upper bound over the realistic cases.

For every faulted case of `cases.py`'s folder, each of 36 global corrections is applied whole — veil (none, or the
0.5th percentile of each pixel's smallest channel removed) × cast (none, grey world, white patch, shades of grey,
grey edge, the model's posterior mean) × exposure (none, the log-average luminance brought to 0.18, the model's
estimate) — and scored like the bench (1 − ΔE00 after / ΔE00 before, against the good photo). The bound takes, case
by case, the best of them: what a selector that knew the answer would reach. Untouched photos are not scored (such a
selector leaves them alone). Images are box-reduced to `--side` px first, the oracle's PNG too, so the columns
compare like with like. Prints per family the oracle, the bound over all 36, over cast-only, exposure-only and the
model's own corrections (none or the model's, with or without the veil), then every correction's mean when applied
to every case. About 17 minutes on 2 cores at 384 px.

Usage: estimator-bound.py CASES_DIR MODEL [--side 384] [--workers 2] [--json OUT]
"""
import argparse
import json
import os
from multiprocessing import Pool

import numpy as np
from PIL import Image
from skimage.color import deltaE_ciede2000, rgb2lab

import model as M
import simulate as S
from evaluate import quantise

ARGS = None
MODEL = None


def load(name):
    image = Image.open(os.path.join(ARGS.cases, name)).convert("RGB")
    image.thumbnail((ARGS.side, ARGS.side), Image.BOX)
    return np.asarray(image, dtype=np.float64) / 255


def de00(lab, srgb):
    return float(deltaE_ciede2000(lab, rgb2lab(srgb)).mean())


def cast_gains(lin):
    """Von Kries gains (green 1) that remove each estimator's cast."""
    px = lin.reshape(-1, 3)
    usable = (px.min(axis=1) > M.DARK) & (px.max(axis=1) < M.BRIGHT)
    p = px[usable] if usable.sum() > 64 else px
    grey_world = p.mean(axis=0)
    white_patch = np.maximum(np.percentile(px, 99, axis=0), 1e-6)
    shades = (p ** 4).mean(axis=0) ** 0.25
    gy, gx = np.gradient(lin, axis=(0, 1))
    edges = np.maximum(np.sqrt(((gx ** 2 + gy ** 2).reshape(-1, 3)).mean(axis=0)), 1e-9)
    h, _ = M.chroma_histogram(M.downscale(lin))
    z = M.chroma_logits(np.fft.rfft2(h), MODEL.p["chroma_filter"], MODEL.p["chroma_bias"])
    u, v, _ = M.chroma_estimate(M.softmax(z, (0, 1)))
    gains = {"none": np.ones(3), "greyworld": grey_world[1] / grey_world, "whitepatch": white_patch[1] / white_patch,
             "shadesofgrey": shades[1] / shades, "greyedge": edges[1] / edges,
             "model": np.array([np.exp(u), 1.0, np.exp(v)])}
    return {k: np.clip(g, 0.25, 4.0) for k, g in gains.items()}


def exposure_stops(lin):
    """Stops each exposure estimator adds, read after the cast gains."""
    key = np.exp(np.mean(np.log(np.maximum(lin @ M.LUMA, 1e-4))))
    z = M.luma_logits(M.luma_histogram(M.downscale(lin)), MODEL.p["luma_filter"], MODEL.p["luma_bias"])
    stops, _ = M.luma_estimate(M.softmax(z, (0,)))
    return {"none": 0.0, "key": float(np.clip(np.log2(0.18 / key), M.C_MIN, 2.0)), "model": float(stops)}


def run(photo):
    global MODEL
    if MODEL is None:
        MODEL = M.load(ARGS.model)[0]
    good = rgb2lab(load(photo["photo"]))
    rows = []
    for fault in photo["faults"]:
        faulted = load(fault["faulted"])
        before = max(de00(good, faulted), 1e-6)
        lin = S.to_linear(faulted)
        scores = {}
        for veil_name, veil in (("none", 0.0), ("black", M.veil(lin, 0.0))):
            x = M.remove_veil(lin, veil)
            for cast_name, gains in cast_gains(x).items():
                for exposure_name, stops in exposure_stops(x * gains).items():
                    out = quantise(S.to_srgb(np.clip(x * gains * 2.0 ** stops, 0, 1)))
                    scores[f"{veil_name}|{cast_name}|{exposure_name}"] = 1 - de00(good, out) / before
        rows.append(dict(photo=photo["photo"], family=fault["family"],
                         oracle=1 - de00(good, load(fault["oracle"])) / before, scores=scores))
    return rows


def main():
    global ARGS
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("cases")
    parser.add_argument("model")
    parser.add_argument("--side", type=int, default=384)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json")
    ARGS = parser.parse_args()
    with open(os.path.join(ARGS.cases, "cases.json")) as f:
        photos = json.load(f)["photos"]
    with Pool(ARGS.workers) as pool:
        rows = [row for rows in pool.imap(run, photos) for row in rows]
    if ARGS.json:
        with open(ARGS.json, "w") as f:
            json.dump(rows, f)
    names = list(rows[0]["scores"])
    selections = {
        "all 36": lambda k: True,
        "cast only": lambda k: k.startswith("none|") and k.endswith("|none"),
        "exposure only": lambda k: k.startswith("none|none|"),
        "model's own": lambda k: k.split("|")[1] in ("none", "model") and k.split("|")[2] in ("none", "model"),
    }
    families = list(dict.fromkeys(r["family"] for r in rows))
    print(f"{'family':<11} {'cases':>5} {'oracle':>7} " + " ".join(f"{s:>14}" for s in selections))
    for family in families + ["all"]:
        chosen = [r for r in rows if family in ("all", r["family"])]
        bounds = [np.mean([max(r["scores"][k] for k in names if keep(k)) for r in chosen])
                  for keep in selections.values()]
        print(f"{family:<11} {len(chosen):5d} {np.mean([r['oracle'] for r in chosen]):7.3f} "
              + " ".join(f"{b:14.3f}" for b in bounds))
    print("\nmean recovery of each correction applied to every case (veil|cast|exposure):")
    for k in names:
        print(f"  {k:<28} {np.mean([r['scores'][k] for r in rows]):7.3f}")


if __name__ == "__main__":
    main()
