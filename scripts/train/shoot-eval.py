"""Shoot-level correction on held-out photos (issue 53): one cast and one exposure for a shoot, pooled from the
model's posteriors, against the single-photo model, the exact-inverse oracle and a global auto-level.

Shoots are drawn from one source unit of the test split (never across units): 8 photos, one fault for the whole
shoot from the simulator's twelve families (the same fault, each photo its own noise and JPEG), seeded. Also
untouched shoots (how far each photo moves) and shoots of 8 crops of one photo (no variety: must stay safe).

The pooled posterior: each photo's cast likelihood Σx H_i(x) F(x − L) (the filter response, without the prior B)
adds across the shoot's photos, and the prior is added once; the exposure likewise, each photo's luminance histogram
read after the shoot's gains. The confidence is the model's own calibrated ramp applied to an effective spread that
joins the joint posterior's spread and the standard error of the photos' own estimates (their spread / √n): photos of
different scenes that disagree lower it. No constant is fitted here.

Beside them, "whole" is the pooled estimate applied at amount 1 whatever its confidence, and "gate" the bound of any
confidence over it: with the answer known, each faulted shoot takes the single-photo model or the pooled estimate at
amount 0.25, 0.5, 0.75 or 1, whichever recovers most on average over its photos; untouched shoots take the
single-photo model.

Usage: shoot-eval.py MODEL.lscm UNIT_DIR [UNIT_DIR …] [--shoots N] [--seed S]
"""
import argparse
import glob
import json
import math
import os
import sys

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.dirname(__file__))
import model as M  # noqa: E402
import simulate as S  # noqa: E402

SIDE = 384
SHOOT = 8
TEMPERED = False
MEAN_EXPOSURE = False
# The fractions of the pooled estimate the bound ("gate") may choose besides all of it and none.
BOUND_AMOUNTS = (0.25, 0.5, 0.75)
# With --shoot-veil: percentiles 0…100 of the train split's good photos' blacks (good-blacks.py), and the number of
# validation photos the single-photo veil threshold is the highest black of.
GOOD_BLACKS = None
VALIDATION_PHOTOS = 57
# With --tinted-veil (as ShootInference.swift): a shoot's cast read after its shared veil, and the veil removed in the
# colour that cast gives a grey airlight.
TINTED = False
# With --joint-count: photos count as independent by their colours and tones together (n² / Σij BC_chroma·BC_luma).
JOINT = False
# With --exposure-significance: shoots counting as two or more independent scenes take the exposure by its
# significance z = |estimate| / effective spread, from nothing at z = low to all at z = high (ShootInference.swift).
SIGNIFICANCE = None
# With --diagnose: each shoot with a shared veil prints its exposure estimate and what 0, ½ and all of it recover.
DIAGNOSE = False


def load_photo(path):
    image = Image.open(path).convert("RGB")
    image.thumbnail((SIDE, SIDE), Image.LANCZOS)
    return np.asarray(image, dtype=np.float64) / 255.0


def lab(srgb):
    lin = S.to_linear(srgb)
    xyz = lin @ np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]).T
    xyz = xyz / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.stack([116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])], -1)


def de00(a, b):
    """Mean CIEDE2000 between two sRGB float images (Sharma, Wu & Dalal 2005)."""
    l1, a1, b1 = np.moveaxis(lab(a), -1, 0)
    l2, a2, b2 = np.moveaxis(lab(b), -1, 0)
    c1, c2 = np.hypot(a1, b1), np.hypot(a2, b2)
    cm = (c1 + c2) / 2
    g = 0.5 * (1 - np.sqrt(cm ** 7 / (cm ** 7 + 25.0 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = np.hypot(a1p, b1), np.hypot(a2p, b2)
    h1p = np.degrees(np.arctan2(b1, a1p)) % 360
    h2p = np.degrees(np.arctan2(b2, a2p)) % 360
    dl, dc = l2 - l1, c2p - c1p
    dh = h2p - h1p
    dh = np.where(dh > 180, dh - 360, np.where(dh < -180, dh + 360, dh))
    dh = np.where(c1p * c2p == 0, 0, dh)
    dhh = 2 * np.sqrt(c1p * c2p) * np.sin(np.radians(dh / 2))
    lm, cmp_ = (l1 + l2) / 2, (c1p + c2p) / 2
    hs = h1p + h2p
    hm = np.where(c1p * c2p == 0, hs,
                  np.where(np.abs(h1p - h2p) <= 180, hs / 2, np.where(hs < 360, (hs + 360) / 2, (hs - 360) / 2)))
    t = (1 - 0.17 * np.cos(np.radians(hm - 30)) + 0.24 * np.cos(np.radians(2 * hm))
         + 0.32 * np.cos(np.radians(3 * hm + 6)) - 0.20 * np.cos(np.radians(4 * hm - 63)))
    sl = 1 + 0.015 * (lm - 50) ** 2 / np.sqrt(20 + (lm - 50) ** 2)
    sc, sh = 1 + 0.045 * cmp_, 1 + 0.015 * cmp_ * t
    rt = (-2 * np.sqrt(cmp_ ** 7 / (cmp_ ** 7 + 25.0 ** 7))
          * np.sin(np.radians(60 * np.exp(-((hm - 275) / 25) ** 2))))
    d = np.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (dhh / sh) ** 2 + rt * (dc / sc) * (dhh / sh))
    return float(d.mean())


def quantise(x):
    return np.round(np.clip(x, 0, 1) * 255) / 255


def shoot_analysis(model, smalls, ramps):
    """One estimate for the shoot: veils per photo, cast and exposure pooled (module docstring); `ramps` are the
    (low, high) spreads of the cast's and the exposure's confidence."""
    p = model.p
    zero_c, zero_y = np.zeros_like(p["chroma_bias"]), np.zeros_like(p["luma_bias"])
    veils, xs, z_sum, own, used, hists = [], [], 0.0, [], 0, []
    common = shoot_veil(smalls) if GOOD_BLACKS is not None else 0.0
    for s in smalls:
        v = M.veil(s, p["veil_threshold"])
        x = M.remove_veil(s, v)
        # Under a shared veil the photos' colours are read with it removed: a veil dilutes every chroma, and the
        # cast it hides is what colours its airlight.
        h, n = M.chroma_histogram(M.remove_veil(s, common) if common > 0 and TINTED else x)
        veils.append(v)
        xs.append(x)
        if n < 64:
            continue
        z = M.chroma_logits(np.fft.rfft2(h), p["chroma_filter"], zero_c)
        z_sum = z_sum + z
        own.append(M.chroma_estimate(M.softmax(z + p["chroma_bias"], (0, 1)))[:2])
        hists.append(h)
        used += 1
    if used == 0:
        gains, u, vv, a_c, eff_c = np.ones(3), 0.0, 0.0, 0.0, np.inf
    else:
        # Photos of one scene (crops, bursts) are not independent evidence: with `tempered`, the summed likelihood
        # counts n_eff = n² / Σij BC(i, j) photos (BC: the Bhattacharyya coefficient of their chroma histograms,
        # which a common cast leaves unchanged), so eight crops of one photo weigh about one.
        n_eff = float(used)
        if TEMPERED and used > 1:
            r = np.sqrt(np.array(hists).reshape(used, -1))
            n_eff = effective_count(r @ r.T)
        u, vv, spread = M.chroma_estimate(M.softmax(z_sum * (n_eff / used) + p["chroma_bias"], (0, 1)))
        own = np.array(own)
        sd = float(np.sqrt(own.var(axis=0).sum())) if used > 1 else 0.0
        eff_c = float(np.hypot(spread, sd / np.sqrt(n_eff)))
        a_c = M.ramp_amount(eff_c, *ramps[0])
        gains = np.array([np.exp(a_c * u), 1.0, np.exp(a_c * vv)])
    if common > 0 and TINTED and used > 0:
        # Airlight is the light scattered towards the camera: under the shoot's light it takes that light's colour,
        # which is the cast the photos show (the whole pooled estimate, however sure: the veil is vouched for).
        air = np.exp(-np.array([u, 0.0, vv]))
        common = common * air / air.min()
    if np.any(common > 0):
        xs = [M.remove_veil(s, common) for s in smalls]
    independent = independent_photos(smalls) if len(smalls) > 1 else 1.0
    zl_sum, own_e, lhists = 0.0, [], []
    for x in xs:
        hy = M.luma_histogram(x * gains)
        zl = M.luma_logits(hy, p["luma_filter"], zero_y)
        zl_sum = zl_sum + zl
        own_e.append(M.luma_estimate(M.softmax(zl + p["luma_bias"], (0,)))[0])
        lhists.append(hy)
    n_eff_e = float(len(xs))
    if TEMPERED and len(xs) > 1:
        r = np.sqrt(np.array(lhists))
        n_eff_e = effective_count(r @ r.T)
    c, spread_e = M.luma_estimate(M.softmax(zl_sum * (n_eff_e / len(xs)) + p["luma_bias"], (0,)))
    if MEAN_EXPOSURE:
        c = float(np.mean(own_e))
    sd_e = float(np.std(own_e)) if len(xs) > 1 else 0.0
    eff_e = float(np.hypot(spread_e, sd_e / np.sqrt(n_eff_e)))
    a_e = M.ramp_amount(eff_e, *ramps[1])
    if np.any(common > 0):
        # A shoot whose photos share a veil is not untouched: its veil is removed and the exposure read after it
        # (removing a veil darkens mid-tones) applied whole, or by its significance with --exposure-significance.
        veils = [common for _ in veils]
        a_e = 1.0
    if SIGNIFICANCE is not None and independent >= 2:
        a_e = rising(abs(c) / max(eff_e, 1e-9), *SIGNIFICANCE)
    return [dict(veil=v, gains=gains, stops=a_e * c) for v in veils], dict(cast=(u, vv), cast_amount=a_c,
                                                                         exposure=c, exposure_amount=a_e,
                                                                         cast_eff=eff_c, exposure_eff=eff_e,
                                                                         exposure_spread=spread_e, exposure_sd=sd_e,
                                                                         exposure_n=n_eff_e,
                                                                         veil=float(np.max(common)),
                                                                         independent=independent)


def independent_photos(smalls):
    """How many independent photos the shoot counts as, read under the largest veil its blacks allow (the lowest):
    n² / Σij BC(i, j) on the chroma histograms, times the luma histograms' with --joint-count."""
    lowest = min(M.veil(s, 0.0) for s in smalls)
    r = np.sqrt(np.array([M.chroma_histogram(M.remove_veil(s, lowest))[0] for s in smalls]).reshape(len(smalls), -1))
    bc = r @ r.T
    if JOINT:
        rl = np.sqrt(np.array([M.luma_histogram(M.remove_veil(s, lowest)) for s in smalls]))
        bc = bc * (rl @ rl.T)
    return effective_count(bc)


def effective_count(bc):
    """n² / Σij BC(i, j) over the n photos with usable pixels (a positive diagonal): a photo without any is no
    evidence of another scene, so it is not counted (as CorrectionModel.effectiveCount)."""
    rows = np.flatnonzero(np.diag(bc) > 0)
    if len(rows) < 2:
        return float(min(len(bc), 1))
    return min(float(len(rows)), len(rows) ** 2 / float(bc[np.ix_(rows, rows)].sum()))


def shoot_veil(smalls):
    """A veil common to the shoot: every photo's black (0.5th percentile of the smallest channel) lifted by it, so
    the lowest of them, less what the lowest of n_eff good photos' blacks reaches as rarely as one good photo's
    reaches the single-photo threshold (level 1 / VALIDATION_PHOTOS: the threshold is the highest of that many).
    Photos counting as fewer than two independent ones are one scene: none."""
    # The effective count read once the largest veil the blacks allow is removed: a veil pulls every photo's colours
    # towards its airlight, so under it different scenes look alike.
    n_eff = independent_photos(smalls)
    if n_eff < 2:
        return 0.0
    chance = 1.0 / VALIDATION_PHOTOS
    good = lambda percent: float(np.interp(percent, np.arange(101), GOOD_BLACKS))
    blacks = np.array([M.veil(s, 0.0) for s in smalls])
    veil = max(0.0, blacks.min() - good(100 * (1 - chance ** (1.0 / n_eff))))
    if veil == 0:
        return 0.0
    # The veil predicts the other blacks too: removed, they are good photos' again. More above the single-photo
    # level than good photos reach by chance (a binomial tail under that chance) is light content, not a veil.
    above = int(((blacks - veil) / (1 - veil) > good(100 * (1 - chance))).sum())
    tail = 1.0 - sum(math.comb(len(blacks), j) * chance ** j * (1 - chance) ** (len(blacks) - j) for j in range(above))
    return 0.0 if tail < chance else veil


def naive_mean(model, smalls):
    """The issue's prototype in the model's terms: the mean of the photos' own estimates, applied whole."""
    own = [model.analyse(s) for s in smalls]
    u = np.mean([a["cast"][0] for a in own])
    vv = np.mean([a["cast"][1] for a in own])
    c = np.mean([a["exposure"] for a in own])
    gains = np.array([np.exp(u), 1.0, np.exp(vv)])
    return [dict(veil=a["veil"], gains=gains, stops=c) for a in own]


def fix(model, srgb, analysis):
    return quantise(S.to_srgb(model.correct_linear(S.to_linear(srgb), analysis)))


def auto_level(srgb):
    low, high = srgb.min(), srgb.max()
    return srgb if high - low < 1e-6 else (srgb - low) / (high - low)


def run_shoot(model, goods, family, rng, ramps):
    fault = S.draw_fault(rng, family) if family != "untouched" else None
    faulted = [S.degrade(g, fault, rng) if fault else g for g in goods]
    smalls = [M.downscale(S.to_linear(f)) for f in faulted]
    pooled, joint = shoot_analysis(model, smalls, ramps)
    whole, _ = shoot_analysis(model, smalls, ((1e9, 2e9), (1e9, 2e9)))
    naive = naive_mean(model, smalls)
    rows = []
    for g, f, s, pa, wa, na in zip(goods, faulted, smalls, pooled, whole, naive):
        outs = dict(single=fix(model, f, model.analyse(s)), pooled=fix(model, f, pa), naive=fix(model, f, na),
                    whole=fix(model, f, wa))
        for a in BOUND_AMOUNTS:
            outs[f"whole{a}"] = fix(model, f, dict(wa, gains=wa["gains"] ** a, stops=wa["stops"] * a))
        if fault is None:
            rows.append({k: de00(g, o) for k, o in outs.items()})
            continue
        before = max(de00(g, f), 1e-6)
        row = {k: 1 - de00(g, o) / before for k, o in outs.items()}
        row["oracle"] = 1 - de00(g, quantise(S.oracle(f, fault))) / before
        row["autolevel"] = 1 - de00(g, auto_level(f)) / before
        rows.append(row)
    # The bound of any confidence on the pooled estimate: with the answer known, each shoot takes the single-photo
    # model or the pooled estimate at one of the amounts, whichever recovers most on average; untouched shoots
    # decline.
    if DIAGNOSE and fault is not None and joint["veil"] > 0:
        recovered = []
        for k in (0.0, 0.5, 1.0):
            before = [max(de00(g, f), 1e-6) for g, f in zip(goods, faulted)]
            recovered.append(np.mean([1 - de00(g, fix(model, f, dict(pa, stops=k * joint["exposure"]))) / b
                                      for g, f, pa, b in zip(goods, faulted, pooled, before)]))
        print(f"veiled {family:11s} ev {fault['ev']:+.2f} est {joint['exposure']:+.3f} spread "
              f"{joint['exposure_spread']:.3f} sd {joint['exposure_sd']:.3f} n {joint['exposure_n']:.2f} eff "
              f"{joint['exposure_eff']:.3f} veil {joint['veil']:.3f} recovery at 0/0.5/1: "
              + " ".join(f"{r:+.3f}" for r in recovered), flush=True)
    choices = ["single", "whole"] + [f"whole{a}" for a in BOUND_AMOUNTS]
    best = max(choices, key=lambda k: np.mean([r[k] for r in rows])) if fault is not None else "single"
    for r in rows:
        r["gate"] = r[best]
    return rows, joint


def calibrate(model, units, rng, shoots):
    """The ramps as the model's were chosen (docs/design/correction.md, "Model" 4): over simulated shoots of the
    validation units, the (low, high) pair that removes the largest share of the faulted shoots' error (log units)
    while no untouched shoot — of different photos, or of crops of one photo — is moved by more than 0.04 log units
    (cast) or 0.15 stops (exposure); likewise a ramp on the estimate's significance, checked with each unit left out."""
    records = []
    for kind in ["untouched"] * 2 + ["crops"] + list(S.FAMILIES):
        family = "untouched" if kind == "crops" else kind
        for unit, photos in units.items():
            for _ in range(shoots):
                pick = rng.choice(len(photos), size=min(SHOOT, len(photos) - 1), replace=False)
                goods = crops(photos[pick[0]], rng) if kind == "crops" else [photos[i] for i in pick]
                fault = S.draw_fault(rng, family) if family != "untouched" else S.draw_fault(rng, "none")
                smalls = [M.downscale(S.to_linear(S.degrade(g, fault, rng))) for g in goods]
                _, joint = shoot_analysis(model, smalls, ((0, 1e9), (0, 1e9)))
                truth = np.array([-np.log(fault["gains"][0]), -np.log(fault["gains"][2])])
                records.append((family, joint, truth, -fault["ev"], unit))
                if DIAGNOSE and family == "untouched":
                    print(f"untouched {kind:9s} exposure {joint['exposure']:+.3f} eff {joint['exposure_eff']:.3f} "
                          f"n {joint['exposure_n']:.2f} cast {np.linalg.norm(joint['cast']):.3f} "
                          f"eff {joint['cast_eff']:.3f} veil {joint['veil']:.3f} independent {joint['independent']:.2f}")
    # Beside the spread's ramp, a ramp on the estimate's significance z = |estimate| / effective spread, rising from
    # nothing at `low` to all of it at `high`, for shoots of two or more independent scenes: a spread that grows with
    # the estimate cannot tell a fault from none. Then each unit left out in turn: the significance ramp chosen on the
    # others, and how far it moves the left-out unit's untouched shoots (a ramp that holds only where it was chosen
    # fails).
    spreads, zs = np.round(np.arange(0.0, 0.6, 0.01), 3), np.round(np.arange(0.0, 3.01, 0.05), 3)
    for what, limit in (("cast", 0.04), ("exposure", 0.15)):
        rows = []
        for family, joint, truth, ev, unit in records:
            est = np.array(joint["cast"]) if what == "cast" else np.array([joint["exposure"]])
            true = truth if what == "cast" else np.array([ev])
            eff = joint[what + "_eff"]
            z = float(np.linalg.norm(est)) / max(eff, 1e-9) if joint["independent"] >= 2 else 0.0
            rows.append(dict(family=family, est=est, true=true, eff=eff, z=z, unit=unit))
        best = best_ramp(rows, limit, "eff", spreads, M.ramp_amount)
        effs = [r["eff"] for r in rows if r["family"] == "untouched"]
        print(f"{what}: ramp {best[1]:.2f}…{best[2]:.2f} removes {best[0]:.3f} of the faulted shoots' error "
              f"(untouched shoots' effective spreads {min(effs):.3f}…{max(effs):.3f}; {len(records)} shoots)")
        best = best_ramp(rows, limit, "z", zs, rising)
        untouched = [r["z"] for r in rows if r["family"] == "untouched"]
        print(f"{what}: significance ramp {best[1]:.2f}…{best[2]:.2f} removes {best[0]:.3f} of the faulted shoots' "
              f"error (untouched shoots' z {min(untouched):.2f}…{max(untouched):.2f})")
        for family in sorted({r["family"] for r in rows}):
            fz = [r["z"] for r in rows if r["family"] == family]
            print(f"   {family:11s} z {np.min(fz):.2f} … {np.median(fz):.2f} … {np.max(fz):.2f}")
        for left in units:
            _, low, high = best_ramp([r for r in rows if r["unit"] != left], limit, "z", zs, rising)
            moved = max([float(np.linalg.norm(rising(r["z"], low, high) * r["est"])) for r in rows
                         if r["unit"] == left and r["family"] == "untouched"] + [0.0])
            print(f"   without {os.path.basename(left)}: ramp {low:.2f}…{high:.2f}; its untouched shoots moved "
                  f"up to {moved:.3f} (limit {limit})")


def rising(z, low, high):
    """None of the estimate up to significance `low`, all of it from `high` on."""
    return float(np.clip((z - low) / (high - low), 0.0, 1.0))


def best_ramp(rows, limit, key, grid, amount):
    """The (share removed, low, high) of the ramp `amount(row[key], low, high)` over the pairs of `grid` that
    removes most of the faulted shoots' error while no untouched shoot moves by more than `limit`."""
    best = None
    for low in grid:
        for high in grid[grid > low]:
            removed, total, worst = 0.0, 0.0, 0.0
            for r in rows:
                a = amount(r[key], low, high)
                before, after = np.linalg.norm(r["true"]), np.linalg.norm(r["true"] - a * r["est"])
                if r["family"] == "untouched":
                    worst = max(worst, after)
                else:
                    removed += before - after
                    total += before
            if worst <= limit and (best is None or removed / total > best[0]):
                best = (removed / total, low, high)
    return best


def crops(photo, rng, n=SHOOT):
    h, w, _ = photo.shape
    out = []
    for _ in range(n):
        ch, cw = int(h * rng.uniform(0.5, 0.7)), int(w * rng.uniform(0.5, 0.7))
        y, x = rng.integers(0, h - ch + 1), rng.integers(0, w - cw + 1)
        out.append(photo[y:y + ch, x:x + cw])
    return out


def summary(values):
    v = np.asarray(values)
    return f"mean {v.mean():+.3f}  p10 {np.percentile(v, 10):+.3f}  worst {v.min():+.3f}  (n {len(v)})"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("model")
    parser.add_argument("units", nargs="+")
    parser.add_argument("--shoots", type=int, default=3, help="shoots per unit and family")
    parser.add_argument("--crop-photos", type=int, default=6)
    parser.add_argument("--seed", type=int, default=53)
    parser.add_argument("--calibrate", action="store_true", help="choose the ramps on these (validation) units")
    parser.add_argument("--cast-ramp", type=float, nargs=2, default=(0.0, 1e-6))
    parser.add_argument("--exposure-ramp", type=float, nargs=2, default=(0.02, 0.04))
    parser.add_argument("--tempered", action="store_true", help="weigh the photos by their effective number")
    parser.add_argument("--tinted-veil", action="store_true",
                        help="with --shoot-veil: the cast read under it and the veil removed in the colour it gives")
    parser.add_argument("--families", nargs="+", default=list(S.FAMILIES), help="only these fault families")
    parser.add_argument("--no-crops", action="store_true", help="only shoots of photos")
    parser.add_argument("--shoot-veil", action="store_true",
                        help="also remove a veil common to the shoot (good photos' blacks from good-blacks.json)")
    parser.add_argument("--joint-count", action="store_true",
                        help="with --shoot-veil: count independent photos by colours and tones together")
    parser.add_argument("--exposure-significance", type=float, nargs=2,
                        help="low, high: shoots of two or more independent scenes take the exposure by significance")
    parser.add_argument("--diagnose", action="store_true", help="print each veiled shoot's exposure (with --calibrate: each untouched shoot's estimate)")
    parser.add_argument("--mean-exposure", action="store_true",
                        help="the shoot's exposure the mean of the photos' own estimates, not the joint posterior's")
    args = parser.parse_args()
    global TEMPERED, GOOD_BLACKS, TINTED, JOINT, DIAGNOSE, SIGNIFICANCE, MEAN_EXPOSURE
    MEAN_EXPOSURE = args.mean_exposure
    JOINT, DIAGNOSE, SIGNIFICANCE = args.joint_count, args.diagnose, args.exposure_significance
    TEMPERED = args.tempered
    TINTED = args.tinted_veil
    if args.shoot_veil:
        GOOD_BLACKS = np.array(json.load(open(os.path.join(os.path.dirname(__file__), "good-blacks.json")))
                               ["percentiles"])
    model = M.load(args.model)[0]
    rng = np.random.default_rng(args.seed)
    units = {u: [load_photo(p) for p in sorted(glob.glob(os.path.join(u, "*.jpg")) + glob.glob(os.path.join(u, "*.png"))
                                        + glob.glob(os.path.join(u, "*.webp")))]
             for u in args.units}
    if args.calibrate:
        calibrate(model, units, rng, args.shoots)
        return
    ramps = (args.cast_ramp, args.exposure_ramp)
    kinds = (("shoots of 8 photos of one unit", None), ("shoots of 8 crops of one photo", crops))
    for kind, make in kinds[:1] if args.no_crops else kinds:
        table = {}
        for family in ["untouched"] + args.families:
            if make is None:
                for photos in units.values():
                    for _ in range(args.shoots):
                        pick = rng.choice(len(photos), size=min(SHOOT, len(photos)), replace=False)
                        rows, _ = run_shoot(model, [photos[i] for i in pick], family, rng, ramps)
                        table.setdefault(family, []).extend(rows)
            else:
                everyone = [p for ps in units.values() for p in ps]
                for i in rng.choice(len(everyone), size=args.crop_photos, replace=False):
                    rows, _ = run_shoot(model, make(everyone[i], rng), family, rng, ramps)
                    table.setdefault(family, []).extend(rows)
        print(f"== {kind}")
        for family, rows in table.items():
            keys = ["single", "naive", "pooled", "whole", "gate"] + ([] if family == "untouched"
                                                                    else ["oracle", "autolevel"])
            what = "moved dE00 (max)" if family == "untouched" else "recovery"
            for key in keys:
                values = [r[key] for r in rows]
                extra = f"  max {max(values):.3f}" if family == "untouched" else ""
                print(f"{family:11s} {key:9s} {what}: {summary(values)}{extra}")
        faults = [r for f, rows in table.items() if f != "untouched" for r in rows]
        for key in ["single", "naive", "pooled", "whole", "gate", "oracle", "autolevel"]:
            print(f"{'all faults':11s} {key:9s} recovery: {summary([r[key] for r in faults])}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
