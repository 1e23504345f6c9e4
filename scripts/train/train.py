"""Trains the correction model from the corpus: good photos + simulated camera faults → histogram filters.

Usage: train.py MANIFEST.csv CORPUS_DIR OUT_MODEL [--smoke] [--workers N]
Only `train` photos fit the filters; `validation` photos choose the veil threshold and the confidence ramps.
"""
import argparse
import csv
import hashlib
import json
import os
import sys
import time
from multiprocessing import Pool

import numpy as np
from PIL import Image
from scipy.optimize import minimize

import calibrate as C
import model as M
import simulate as S

TRAIN_FAMILIES = ("none", "none", "under", "over", "warm", "cool", "green", "magenta", "haze", "under+warm",
                  "under+cool", "over+cool", "haze+warm")
PHOTO_SIDE = 384
SETTINGS = dict(samples_per_photo=10, photo_side=PHOTO_SIDE, lambda_tv=1e-3, lambda_l2=1e-5,
                lambda_tv_bias=1e-3, iterations=300, calibration_pixels=4000, untouched_de00_max=0.6,
                harm_max=0.25, seed=21)


def load_photo(path, side=PHOTO_SIDE):
    image = Image.open(path).convert("RGB")
    image.thumbnail((side, side), Image.LANCZOS)
    return np.asarray(image, dtype=np.float64) / 255.0


def cast_target(fault):
    return -np.log(fault["gains"][0]), -np.log(fault["gains"][2])


def features(args):
    """Histograms and targets of `count` simulated cases of one photo (the veil measured with `threshold`)."""
    path, count, seed, threshold, families = args
    rng = np.random.default_rng(seed)
    srgb = load_photo(path)
    out = []
    for k in range(count):
        family = families[k % len(families)] if count >= len(families) else families[rng.integers(len(families))]
        fault = S.draw_fault(rng, family)
        faulted = srgb if family == "none" else S.degrade(srgb, fault, rng)
        small = M.downscale(S.to_linear(faulted))
        x = M.remove_veil(small, M.veil(small, threshold))
        h, n = M.chroma_histogram(x)
        hy = M.luma_histogram(x / fault["gains"])
        out.append((family, h, n, hy, cast_target(fault), -fault["ev"]))
    return out


def tv_grad(a, lam):
    """λ Σ (wrapped first differences)² and its gradient, over every axis."""
    value, grad = 0.0, np.zeros_like(a)
    for axis in range(a.ndim):
        d = a - np.roll(a, 1, axis)
        value += lam * (d ** 2).sum()
        grad += 2 * lam * (d - np.roll(d, -1, axis))
    return value, grad


def chroma_targets(targets):
    """Bilinear one-hot of each cast on the wrapped chroma grid."""
    t = np.zeros((len(targets), M.N_UV, M.N_UV))
    for s, (u, v) in enumerate(targets):
        fu, fv = u / M.DUV, v / M.DUV
        i0, j0 = int(np.floor(fu)), int(np.floor(fv))
        wu, wv = fu - i0, fv - j0
        for di, wi in ((0, 1 - wu), (1, wu)):
            for dj, wj in ((0, 1 - wv), (1, wv)):
                t[s, (i0 + di) % M.N_UV, (j0 + dj) % M.N_UV] += wi * wj
    return t


def fit_chroma(hists, targets, settings):
    hf = np.fft.rfft2(M.chroma_channels(hists))  # (S, C, N, N//2+1)
    t = chroma_targets(targets)
    c, n = M.N_CHROMA, M.N_UV * M.N_UV

    def objective(theta):
        f, b = theta[:c * n].reshape(c, M.N_UV, M.N_UV), theta[c * n:].reshape(M.N_UV, M.N_UV)
        z = M.chroma_logits(hf, f, b)
        z = z - z.max(axis=(1, 2), keepdims=True)
        logp = z - np.log(np.exp(z).sum(axis=(1, 2), keepdims=True))
        loss = -(t * logp).sum() / len(t)
        g = (np.exp(logp) - t) / len(t)
        gf = np.fft.irfft2((hf * np.conj(np.fft.rfft2(g))[:, None]).sum(0), s=(M.N_UV, M.N_UV))
        for k in range(c):
            r, rg = tv_grad(f[k], settings["lambda_tv"])
            loss += r
            gf[k] += rg
        rb, rgb = tv_grad(b, settings["lambda_tv_bias"])
        loss += rb + settings["lambda_l2"] * (f ** 2).sum()
        gf = gf + 2 * settings["lambda_l2"] * f
        return loss, np.concatenate([gf.ravel(), (g.sum(0) + rgb).ravel()])

    result = minimize(objective, np.zeros((c + 1) * n), jac=True, method="L-BFGS-B",
                      options=dict(maxiter=settings["iterations"]))
    return result.x[:c * n].reshape(c, M.N_UV, M.N_UV), result.x[c * n:].reshape(M.N_UV, M.N_UV), float(result.fun)


def fit_luma(hists, targets, settings):
    t = np.zeros((len(targets), M.N_C))
    for s, target in enumerate(targets):
        fk = np.clip((target - M.C_MIN) / M.DY, 0, M.N_C - 1.0001)
        k0 = int(np.floor(fk))
        t[s, k0] += 1 - (fk - k0)
        t[s, k0 + 1] += fk - k0
    channels = M.luma_channels(hists)  # (S, C, N_Y)
    c, nf = M.N_LUMA, M.N_Y + M.N_C - 1

    def objective(theta):
        f, b = theta[:c * nf].reshape(c, nf), theta[c * nf:]
        z = M.luma_logits(hists, f, b)
        z = z - z.max(axis=1, keepdims=True)
        logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
        loss = -(t * logp).sum() / len(t)
        g = (np.exp(logp) - t) / len(t)
        gw = np.einsum("sj,skx->kjx", g, channels)
        gf = np.zeros((c, nf))
        for j in range(M.N_C):
            gf[:, j:j + M.N_Y] += gw[:, j]
        for k in range(c):
            r, rg = tv_grad(f[k], settings["lambda_tv"])
            loss += r
            gf[k] += rg
        rb, rgb = tv_grad(b, settings["lambda_tv_bias"])
        loss += rb + settings["lambda_l2"] * (f ** 2).sum()
        return loss, np.concatenate([(gf + 2 * settings["lambda_l2"] * f).ravel(), g.sum(0) + rgb])

    result = minimize(objective, np.zeros(c * nf + M.N_C), jac=True, method="L-BFGS-B",
                      options=dict(maxiter=settings["iterations"]))
    return result.x[:c * nf].reshape(c, nf), result.x[c * nf:], float(result.fun)


def posteriors(params, cases):
    """Per case: cast estimate + spread, exposure estimate + spread (exposure read after the true cast)."""
    out = []
    for family, h, n, hy, target, stops in cases:
        z = M.chroma_logits(np.fft.rfft2(M.chroma_channels(h)), params["chroma_filter"], params["chroma_bias"])
        u, v, sc = M.chroma_estimate(M.softmax(z, (0, 1)))
        zl = M.luma_logits(hy, params["luma_filter"], params["luma_bias"])
        e, se = M.luma_estimate(M.softmax(zl, (0,)))
        out.append((family, np.array([u, v]), sc, np.array(target), e, se, stops, n))
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("manifest")
    parser.add_argument("corpus")
    parser.add_argument("out")
    parser.add_argument("--smoke", action="store_true", help="a handful of photos and iterations (seconds)")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    started = time.time()
    settings = dict(SETTINGS)
    rows = list(csv.DictReader(open(args.manifest)))
    train = [r for r in rows if r["split"] == "train"]
    valid = [r for r in rows if r["split"] == "validation"]
    if args.smoke:
        train, valid = train[:6], valid[:3]
        settings.update(samples_per_photo=4, iterations=30, calibration_pixels=500)
    pool = Pool(args.workers)
    path = lambda r: os.path.join(args.corpus, r["file"])

    # The veil threshold: the highest black of the good validation photos (a motion-blurred clock, 0.16), so that
    # no good validation photo is de-veiled (their 95th percentile, 0.02, de-veiled two of them by up to 12 ΔE00).
    blacks = [M.veil(M.downscale(S.to_linear(load_photo(path(r)))), 0.0) for r in valid]
    threshold = float(max(blacks) if blacks else 0.02)

    jobs = [(path(r), settings["samples_per_photo"], settings["seed"] * 100003 + k, threshold, TRAIN_FAMILIES)
            for k, r in enumerate(train)]
    cases = [c for chunk in pool.map(features, jobs) for c in chunk]
    hists = np.stack([c[1] for c in cases])
    f, b, loss_c = fit_chroma(hists, [c[4] for c in cases], settings)
    f_l, b_l, loss_l = fit_luma(np.stack([c[3] for c in cases]), [c[5] for c in cases], settings)
    params = dict(chroma_filter=f, chroma_bias=b, luma_filter=f_l, luma_bias=b_l, veil_threshold=threshold)

    vjobs = [(path(r), len(TRAIN_FAMILIES), settings["seed"] * 7919 + k, threshold, TRAIN_FAMILIES)
             for k, r in enumerate(valid)]
    vcases = [c for chunk in pool.map(features, vjobs) for c in chunk]
    post = posteriors(params, vcases)
    # The amounts, chosen in ΔE00 on the validation photos under one fault of every family (calibrate.py).
    gjobs = [(path(r), settings["seed"] * 7907 + k, params, settings["calibration_pixels"], load_photo)
             for k, r in enumerate(valid)]
    grid = C.Grid([row for chunk in pool.map(C.grid_photo, gjobs) for row in chunk])
    (cast_ramp, cast_shrink), (luma_ramp, luma_shrink), calibration = C.choose(
        grid, settings["untouched_de00_max"], settings["harm_max"])
    params.update(chroma_ramp=cast_ramp, chroma_shrink=cast_shrink, luma_ramp=luma_ramp, luma_shrink=luma_shrink)
    cast_err = np.median([np.linalg.norm(p[1] - p[3]) for p in post])
    luma_err = np.median([abs(p[4] - p[6]) for p in post])
    record = dict(
        corpus_manifest_sha256=hashlib.sha256(open(args.manifest, "rb").read()).hexdigest(),
        train_photos=len(train), validation_photos=len(valid), training_cases=len(cases), smoke=args.smoke,
        settings=settings, families=list(TRAIN_FAMILIES),
        validation=dict(cases=len(vcases), cast_median_error_log=round(float(cast_err), 4),
                        exposure_median_error_stops=round(float(luma_err), 4),
                        calibration_cases=len(grid.k), calibration=calibration),
        loss=dict(chroma=round(loss_c, 5), luma=round(loss_l, 5)), seconds=round(time.time() - started, 1))
    M.save(args.out, params, record)
    print(json.dumps(record, indent=1))


if __name__ == "__main__":
    sys.exit(main())
