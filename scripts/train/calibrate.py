"""Calibrates how much of the model's estimates the correction applies, in the acceptance metric (CIEDE2000).

On every validation photo (untouched, and under one simulated fault of every family) the model's estimates are
read, and the photo is corrected on a grid of applied cast shares × exposure stops, scored in ΔE00 against the
good photo on a random subset of its pixels. The amount rule (model.py: the spread's ramp times a soft threshold
on the estimate, for cast and exposure) is then chosen on that grid: the largest mean recovery such that no
untouched photo moves more than `untouched_de00_max`, the 10th percentile of recovery is ≥ 0, and no case ends
more than `harm_max` below what it scores with nothing applied.
"""
import itertools

import numpy as np
from skimage.color import deltaE_ciede2000, rgb2lab

import model as M
import simulate as S

SHARES = np.linspace(0, 1, 5)
STOPS = M.C_MIN + np.arange(M.N_C) * M.DY
LOWS = (0.0, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.6)
HIGHS = (0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.7, 1.0, 1.5, 9.0)
SHRINKS = (0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.7, 1.0, 9.0)
OFF_RAMP, OFF_SHRINK = (0.0, 9.0), 9.0


def grid_case(params, good, faulted, family, pixels, rng):
    """The model's readings of one case and its ΔE00 on the (cast share × stops) grid."""
    small = M.downscale(S.to_linear(faulted))
    v = M.veil(small, params["veil_threshold"])
    x = M.remove_veil(small, v)
    h, n = M.chroma_histogram(x)
    z = M.chroma_logits(np.fft.rfft2(M.chroma_channels(h)), params["chroma_filter"], params["chroma_bias"])
    u, vv, spread = M.chroma_estimate(M.softmax(z, (0, 1)))
    cast = np.array([u, vv]) if n >= 64 else np.zeros(2)
    gains = np.stack([np.exp(SHARES * cast[0]), np.ones(len(SHARES)), np.exp(SHARES * cast[1])], 1)
    readings = [M.luma_estimate(M.softmax(M.luma_logits(M.luma_histogram(x * g), params["luma_filter"],
                                                         params["luma_bias"]), (0,))) for g in gains]
    g2, b2 = good.reshape(-1, 3), faulted.reshape(-1, 3)
    idx = rng.choice(len(g2), min(pixels, len(g2)), replace=False)
    lin = M.remove_veil(S.to_linear(b2[idx]), v)
    out = lin[None, None] * gains[:, None, None, :] * (2.0 ** STOPS)[None, :, None, None]
    out = np.round(S.to_srgb(out) * 255) / 255
    ref = rgb2lab(g2[idx][None])[0]
    lab = rgb2lab(out.reshape(1, -1, 3))[0].reshape(len(SHARES), len(STOPS), len(idx), 3)
    de = deltaE_ciede2000(np.broadcast_to(ref, lab.shape), lab).mean(-1)
    before = float(deltaE_ciede2000(ref, rgb2lab(b2[idx][None])[0]).mean())
    return dict(family=family, cast=cast, spread=spread, exposure=np.array([r[0] for r in readings]),
                exposure_spread=np.array([r[1] for r in readings]), de=de, before=before)


def grid_photo(args):
    """Every validation case of one photo: untouched and one fault of every family."""
    path, seed, params, pixels, load_photo = args
    rng = np.random.default_rng(seed)
    good = load_photo(path)
    rows = [grid_case(params, good, good, "none", pixels, rng)]
    for family in S.FAMILIES:
        fault = S.draw_fault(rng, family)
        rows.append(grid_case(params, good, S.degrade(good, fault, rng), family, pixels, rng))
    return rows


class Grid:
    """The validation grid, vectorised over cases."""

    def __init__(self, rows):
        self.family = np.array([r["family"] for r in rows])
        self.none = self.family == "none"
        self.cast = np.stack([r["cast"] for r in rows])
        self.size = np.linalg.norm(self.cast, axis=1)
        self.spread = np.array([r["spread"] for r in rows])
        self.exposure = np.stack([r["exposure"] for r in rows])
        self.exposure_spread = np.stack([r["exposure_spread"] for r in rows])
        self.de = np.stack([r["de"] for r in rows])
        self.before = np.array([r["before"] for r in rows])
        self.k = np.arange(len(rows))

    def shares(self, ramp, shrink):
        r = np.clip((ramp[1] - self.spread) / (ramp[1] - ramp[0]), 0, 1)
        return r * np.clip(1 - shrink / np.maximum(self.size, 1e-12), 0, 1)

    def _along(self, a, share):
        x = share * (len(SHARES) - 1)
        i = np.clip(np.floor(x).astype(int), 0, len(SHARES) - 2)
        return a[self.k, i] * (1 - (x - i)) + a[self.k, i + 1] * (x - i)

    def stops(self, share, ramp, shrink):
        e, s = self._along(self.exposure, share), self._along(self.exposure_spread, share)
        beyond = np.where(e > 0, np.maximum(0, e - shrink[0]), np.minimum(0, e + shrink[1]))
        return np.clip(np.clip((ramp[1] - s) / (ramp[1] - ramp[0]), 0, 1) * beyond, STOPS[0], STOPS[-1])

    def score(self, share, stops):
        """Recovery of the faulted cases and the movement (ΔE00) of the untouched ones."""
        x = share * (len(SHARES) - 1)
        i = np.clip(np.floor(x).astype(int), 0, len(SHARES) - 2)
        wi = x - i
        y = (stops - STOPS[0]) / (STOPS[1] - STOPS[0])
        j = np.clip(np.floor(y).astype(int), 0, len(STOPS) - 2)
        wj = y - j
        k, d = self.k, self.de
        de = (d[k, i, j] * (1 - wi) * (1 - wj) + d[k, i + 1, j] * wi * (1 - wj) + d[k, i, j + 1] * (1 - wi) * wj
              + d[k, i + 1, j + 1] * wi * wj)
        return 1 - de[~self.none] / self.before[~self.none], de[self.none]


def choose(grid, untouched_max, harm_max, rounds=2):
    """Coordinate search over the cast rule, then the exposure rule, `rounds` times."""
    zero = np.zeros(len(grid.k))
    base, _ = grid.score(zero, zero)

    def allowed(rec, moved):
        return ((moved.max() if len(moved) else 0.0) <= untouched_max and np.percentile(rec, 10) >= 0
                and (rec - base).min() >= -harm_max)

    cast, expo = (OFF_RAMP, OFF_SHRINK), (OFF_RAMP, (OFF_SHRINK, OFF_SHRINK))
    ramps = [(lo, hi) for lo, hi in itertools.product(LOWS, HIGHS) if hi > lo]
    for _ in range(rounds):
        best = -np.inf
        for ramp, shrink in itertools.product(ramps, SHRINKS):
            share = grid.shares(ramp, shrink)
            rec, moved = grid.score(share, grid.stops(share, *expo))
            if allowed(rec, moved) and rec.mean() > best:
                best, cast = rec.mean(), (ramp, shrink)
        share = grid.shares(*cast)
        best = -np.inf
        for ramp, up, down in itertools.product(ramps, SHRINKS, SHRINKS):
            rec, moved = grid.score(share, grid.stops(share, ramp, (up, down)))
            if allowed(rec, moved) and rec.mean() > best:
                best, expo = rec.mean(), (ramp, (up, down))
    share = grid.shares(*cast)
    rec, moved = grid.score(share, grid.stops(share, *expo))
    fam = grid.family[~grid.none]
    figures = dict(recovery_mean=round(float(rec.mean()), 4), recovery_p10=round(float(np.percentile(rec, 10)), 4),
                   recovery_worst=round(float(rec.min()), 4),
                   recovery_nothing_applied=round(float(base.mean()), 4),
                   untouched_max_de00=round(float(moved.max()) if len(moved) else 0.0, 4),
                   untouched_mean_de00=round(float(moved.mean()) if len(moved) else 0.0, 4),
                   per_family={f: round(float(rec[fam == f].mean()), 4) for f in dict.fromkeys(fam)})
    return cast, expo, figures
