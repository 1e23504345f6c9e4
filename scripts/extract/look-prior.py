"""Would a prior learned from other looks continue an extracted look better than the fit's own continuation?

docs/EXTRACT.md, "A prior learned from other looks". The prior: the looks of prior-looks.sh as deviations from
identity on a 33³ lattice, their mean and principal components, the coefficients Gaussian with the components'
variances. Given a fitted cube, the prior is conditioned on the fit at the lattice nodes the pair's before image
shows (weighted by how many pixels fall there) and its posterior mean stands in for the fit where the pair shows
nothing. Scored two ways: the error at the nodes the pair did not show (RMS against the true look, 0…1 units), and
ΔE00 on the other photos after a blend (the fit where the pair shows colours, the prior elsewhere).

Usage: python3 scripts/extract/look-prior.py PRIOR_LOOKS TRAIN_RUNS HELDOUT_RUNS HELDOUT_LOOKS
  PRIOR_LOOKS   prior-looks.sh's folder (33³ .cube files)
  TRAIN_RUNS    SPLIT=train VARIANTS=clean CORPUS=PRIOR_LOOKS LOOKS="…" heldout.sh's folder: the prior looks
                extracted from training photos; scored with each look left out of its own prior
  HELDOUT_RUNS  VARIANTS=clean heldout.sh's folder: the corpus's creative looks on the held-out wallpapers
  HELDOUT_LOOKS those looks as 33³ .cube files (`lookstudio convert LOOK OUT.cube --size 33`)
"""
import glob
import json
import os
import sys

import numpy as np
from scipy.ndimage import gaussian_filter
from skimage.color import deltaE_ciede2000, rgb2lab

from roughness import read_cube

N = 33


def identity():
    g = np.linspace(0, 1, N)
    b, gg, r = np.meshgrid(g, g, g, indexing='ij')
    return np.stack([r, gg, b], axis=-1)


IDENTITY = identity()

# The six tetrahedra of the unit cell, as `apply` walks them: the order of the fractions picks the vertices.
TETRAHEDRA = [((0, 1, 2), [(1, 0, 0), (1, 1, 0)]), ((0, 2, 1), [(1, 0, 0), (1, 0, 1)]),
              ((2, 0, 1), [(0, 0, 1), (1, 0, 1)]), ((1, 0, 2), [(0, 1, 0), (1, 1, 0)]),
              ((1, 2, 0), [(0, 1, 0), (0, 1, 1)]), ((2, 1, 0), [(0, 0, 1), (0, 1, 1)])]


def apply(cube, rgb):
    """Tetrahedral interpolation of `cube` ([b, g, r, c]) at `rgb` (…, 3)."""
    x = np.clip(rgb, 0, 1) * (N - 1)
    i = np.minimum(np.floor(x).astype(int), N - 2)
    f = x - i

    def at(d):
        return cube[i[..., 2] + d[2], i[..., 1] + d[1], i[..., 0] + d[0]]
    out = np.empty(rgb.shape)
    taken = np.zeros(rgb.shape[:-1], bool)
    c0, c1 = at((0, 0, 0)), at((1, 1, 1))
    for (a, b, c), (v1, v2) in TETRAHEDRA:
        m = (f[..., a] >= f[..., b]) & (f[..., b] >= f[..., c]) & ~taken
        p1, p2 = at(v1), at(v2)
        val = c0 + f[..., a:a + 1] * (p1 - c0) + f[..., b:b + 1] * (p2 - p1) + f[..., c:c + 1] * (c1 - p2)
        out[m] = val[m]
        taken |= m
    return out


def delta_e(a, b):
    d = deltaE_ciede2000(rgb2lab(np.clip(a, 0, 1)), rgb2lab(np.clip(b, 0, 1)))
    return d.mean(), np.percentile(d, 95)


def node_counts(rgb):
    """Pixels of `rgb` at each lattice node (the nearest): the colours a pair shows."""
    idx = np.rint(np.clip(rgb, 0, 1) * (N - 1)).astype(int).reshape(-1, 3)
    flat = (idx[:, 2] * N + idx[:, 1]) * N + idx[:, 0]
    return np.bincount(flat, minlength=N ** 3).reshape(N, N, N).astype(float)


class Prior:
    """Mean and leading principal components of looks' deviations from identity."""

    def __init__(self, deviations, k):
        x = np.stack([d.reshape(-1) for d in deviations])
        self.mean = x.mean(0)
        _, s, vt = np.linalg.svd(x - self.mean, full_matrices=False)
        k = min(k, len(deviations) - 1)
        self.components = vt[:k]
        self.variances = s[:k] ** 2 / (len(deviations) - 1)

    def posterior_mean(self, deviation, weight, noise):
        """The look's deviation given `deviation` seen with `weight` (0…1 per node) and per-value `noise` variance."""
        w = np.repeat(weight.reshape(-1), 3)
        v = self.components
        a = np.linalg.solve((v * w) @ v.T + np.diag(noise / self.variances),
                            (v * w) @ (deviation.reshape(-1) - self.mean))
        return (self.mean + a @ v).reshape(deviation.shape)


def seen_weight(counts):
    """How far the fit at a node is taken as observed: about 0.4 for one pixel there, 1 for a patch."""
    return 1 - np.exp(-counts / 2)


def load_runs(folder):
    """(look, source, fitted cube, {photo: pixels}) for every fit in heldout.sh's folder."""
    runs = []
    for path in sorted(glob.glob(folder + '/*/manifest.json')):
        base = os.path.dirname(path)
        manifest = json.load(open(path))
        photos = {m['photo']: np.fromfile(f"{base}/{m['file']}", np.float32)
                  .reshape(int(m['height']), int(m['width']), 3).astype(float) for m in manifest if 'photo' in m}
        for m in manifest:
            if 'fit' in m:
                cube = np.fromfile(f"{base}/{m['fit']}", np.float32).reshape(N, N, N, 3).astype(float)
                runs.append((m['look'], m['source'], cube, photos))
    return runs


def reduced(img, f=4):
    """A box-reduced copy: the ΔE00 comparison's ranking does not need every pixel, and it is 16 times faster."""
    h, w = img.shape[0] // f * f, img.shape[1] // f * f
    return img[:h, :w].reshape(h // f, f, w // f, f, 3).mean((1, 3))


def other_photo_error(runs, truths, continue_fit):
    cache, rows = {}, []
    for look, source, cube, photos in runs:
        candidate = continue_fit(look, source, cube, photos[source])
        for target, img in photos.items():
            if target == source:
                continue
            if (look, target) not in cache:
                small = reduced(img)
                cache[(look, target)] = small, np.clip(apply(truths[look], small), 0, 1)
            small, truth = cache[(look, target)]
            rows.append(delta_e(apply(candidate, small), truth))
    return np.array(rows).mean(0)


def main():
    prior_dir, train_dir, heldout_dir, heldout_looks = sys.argv[1:5]
    prior_looks = {os.path.basename(p)[:-5]: read_cube(p)[0] for p in sorted(glob.glob(prior_dir + '/*.cube'))}
    truths_heldout = {os.path.basename(p)[:-5]: read_cube(p)[0] for p in glob.glob(heldout_looks + '/*.cube')}
    # The per-value variance the components leave unexplained: a look left out of the prior and projected on it
    # whole keeps 21–29 % of its RMS deviation (K 20–10; looks' RMS 0.06–0.35, median 0.15), about 0.03–0.045.
    noise = 1e-3

    priors = {}

    def prior_for(look, k):
        # A look of the prior's own set is left out of it; every other look shares the whole set's prior.
        key = (k, look if look in prior_looks else None)
        if key not in priors:
            priors[key] = Prior([d - IDENTITY for name, d in prior_looks.items() if name != look], k)
        return priors[key]

    for label, folder, truths in (('training photos, each look left out of its prior', train_dir, prior_looks),
                                  ('held-out wallpapers, corpus looks', heldout_dir, truths_heldout)):
        runs = load_runs(folder)
        counts = {r[1]: node_counts(r[3][r[1]]) for r in runs}
        print(f'## {label}: {len(runs)} fits')
        for k in (10, 20):
            fit_err, prior_err, shown_err, better = [], [], [], 0
            for look, source, cube, _ in runs:
                unshown = counts[source] == 0
                p = prior_for(look, k).posterior_mean(cube - IDENTITY, seen_weight(counts[source]), noise)
                true = truths[look] - IDENTITY
                e_fit = np.sqrt(((cube - IDENTITY - true)[unshown] ** 2).mean())
                e_prior = np.sqrt(((p - true)[unshown] ** 2).mean())
                shown_err.append(np.sqrt(((cube - IDENTITY - true)[~unshown] ** 2).mean()))
                fit_err.append(e_fit)
                prior_err.append(e_prior)
                better += e_prior < e_fit
            print(f'K {k}: RMS at the nodes the pair did not show: fit {np.mean(fit_err):.3f}, prior '
                  f'{np.mean(prior_err):.3f} (prior nearer in {better} of {len(runs)}); fit at shown nodes '
                  f'{np.mean(shown_err):.4f}')
        base = other_photo_error(runs, truths, lambda look, source, cube, img: cube)
        print(f'other photos, ΔE00 mean / mean p95: the fit as it is {base[0]:.2f} / {base[1]:.2f}')
        for k in (10, 20):
            for spread in (1, 2):
                def blended(look, source, cube, img):
                    seen = seen_weight(gaussian_filter(counts[source], spread, mode='nearest'))
                    p = prior_for(look, k).posterior_mean(cube - IDENTITY, seen, noise)
                    return IDENTITY + seen[..., None] * (cube - IDENTITY) + (1 - seen[..., None]) * p
                e = other_photo_error(runs, truths, blended)
                print(f'  prior where the pair shows nothing (K {k}, shown colours spread by {spread} nodes): '
                      f'{e[0]:.2f} / {e[1]:.2f}')
        sys.stdout.flush()


if __name__ == '__main__':
    main()
