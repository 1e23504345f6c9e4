"""Realistic evaluation: camera-like faults on held-out photos, corrected by the model, scored in CIEDE2000
against the undegraded photo; next to the exact-inverse oracle and a joint min/max stretch (ImageMagick's
`-auto-level`). Also how far the model moves each untouched photo.

Usage: evaluate.py MANIFEST.csv CORPUS_DIR MODEL [--split test] [--json OUT]
"""
import argparse
import csv
import json
import os
from multiprocessing import Pool

import numpy as np
from skimage.color import deltaE_ciede2000, rgb2lab

import model as M
import simulate as S
from train import load_photo

MODEL = None


def de00(a, b):
    return float(deltaE_ciede2000(rgb2lab(a), rgb2lab(b)).mean())


def quantise(x):
    return np.round(np.clip(x, 0, 1) * 255) / 255


def correct(srgb):
    lin = S.to_linear(srgb)
    analysis = MODEL.analyse(M.downscale(lin))
    return quantise(S.to_srgb(MODEL.correct_linear(lin, analysis))), analysis


def auto_level(srgb):
    low, high = srgb.min(), srgb.max()
    return srgb if high - low < 1e-6 else (srgb - low) / (high - low)


def run_photo(args):
    path, seed, families, model_path = args
    global MODEL
    if MODEL is None:
        MODEL = M.load(model_path)[0]
    rng = np.random.default_rng(seed)
    srgb = load_photo(path)
    untouched, analysis = correct(srgb)
    rows = [dict(photo=os.path.basename(path), family="untouched", moved=de00(srgb, untouched),
                 stops=analysis["stops"], cast_amount=analysis["cast_amount"], veil=analysis["veil"])]
    for family in families:
        fault = S.draw_fault(rng, family)
        faulted = S.degrade(srgb, fault, rng)
        before = de00(srgb, faulted)
        fixed, analysis = correct(faulted)
        rec = lambda out: 1 - de00(srgb, out) / max(before, 1e-6)
        rows.append(dict(photo=os.path.basename(path), family=family, before=before, model=rec(fixed),
                         oracle=rec(quantise(S.oracle(faulted, fault))), autolevel=rec(auto_level(faulted)),
                         stops=analysis["stops"], cast_amount=analysis["cast_amount"], veil=analysis["veil"]))
    return rows


def summary(values):
    v = np.asarray(values)
    return dict(mean=float(v.mean()), p10=float(np.percentile(v, 10)), worst=float(v.min()), n=len(v))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("manifest")
    parser.add_argument("corpus")
    parser.add_argument("model")
    parser.add_argument("--split", default="test")
    parser.add_argument("--json")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--limit", type=int, default=0)
    args = parser.parse_args()
    rows = [r for r in csv.DictReader(open(args.manifest)) if r["split"] == args.split]
    if args.limit:
        rows = rows[:args.limit]
    jobs = [(os.path.join(args.corpus, r["file"]), 4242 + k, S.FAMILIES, args.model) for k, r in enumerate(rows)]
    with Pool(args.workers) as pool:
        results = [row for chunk in pool.map(run_photo, jobs) for row in chunk]
    faulted = [r for r in results if r["family"] != "untouched"]
    table = {}
    for family in list(S.FAMILIES) + ["all"]:
        sel = [r for r in faulted if family in ("all", r["family"])]
        table[family] = {k: summary([r[k] for r in sel]) for k in ("model", "oracle", "autolevel")}
    moved = sorted(((r["moved"], r["photo"]) for r in results if r["family"] == "untouched"), reverse=True)
    print(f"split {args.split}: {len(rows)} photos, {len(faulted)} faulted cases")
    print(f"{'family':12s} {'model mean':>10s} {'p10':>7s} {'worst':>7s} | {'oracle':>7s} {'p10':>7s} | "
          f"{'autolevel':>9s} {'worst':>7s}")
    for family, t in table.items():
        m, o, a = t["model"], t["oracle"], t["autolevel"]
        print(f"{family:12s} {m['mean']:10.3f} {m['p10']:7.3f} {m['worst']:7.3f} | {o['mean']:7.3f} "
              f"{o['p10']:7.3f} | {a['mean']:9.3f} {a['worst']:7.3f}")
    ratio = table["all"]["model"]["mean"] / table["all"]["oracle"]["mean"]
    print(f"model/oracle {ratio:.3f}; untouched moved: max {moved[0][0]:.3f} ({moved[0][1]}), "
          f"mean {np.mean([m for m, _ in moved]):.3f}, > 1.0: {sum(m > 1.0 for m, _ in moved)}")
    if args.json:
        with open(args.json, "w") as out:
            json.dump(dict(split=args.split, photos=len(rows), table=table, ratio=ratio,
                           untouched=[dict(photo=p, moved=m) for m, p in moved], cases=results), out, indent=1)


if __name__ == "__main__":
    main()
