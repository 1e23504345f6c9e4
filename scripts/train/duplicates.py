"""Finds photographs the corpus holds twice under different units (another size or crop of the same shot).

Usage: duplicates.py CORPUS_DIR [MANIFEST]
Matches ORB features (on copies at most 400 px long) between every two photos of different units and keeps
pairs whose matches agree on one similarity transform (RANSAC, ≥ 15 inliers): the same scene photographed
twice does not align that way, the same photograph does. About 10 minutes for 300 photos on two cores.
A pair across splits leaks a test photo into training; corpus.py's EXCLUDE drops one of each pair.
"""
import csv
import inspect
import itertools
import sys

import numpy as np
from PIL import Image
from skimage.feature import ORB, match_descriptors
from skimage.measure import ransac
from skimage.transform import SimilarityTransform

# scikit-image renamed ransac's seed argument (random_state → rng); a fixed seed makes the list repeatable.
SEED = {"rng": 0} if "rng" in inspect.signature(ransac).parameters else {"random_state": 0}


def features(path):
    image = Image.open(path).convert("L")
    image.thumbnail((400, 400))
    orb = ORB(n_keypoints=300, fast_threshold=0.05)
    try:
        orb.detect_and_extract(np.asarray(image, dtype=float) / 255)
    except (RuntimeError, ValueError):  # too few corners (a flat or tiny image): nothing to match
        return np.zeros((0, 2)), np.zeros((0, 256), bool)
    return orb.keypoints, orb.descriptors


def inliers(a, b):
    (k1, d1), (k2, d2) = a, b
    if len(d1) < 20 or len(d2) < 20:
        return 0
    matches = match_descriptors(d1, d2, cross_check=True, max_ratio=0.8)
    if len(matches) < 12:
        return 0
    src, dst = k1[matches[:, 0]][:, ::-1], k2[matches[:, 1]][:, ::-1]
    _, mask = ransac((src, dst), SimilarityTransform, min_samples=3, residual_threshold=3, max_trials=300,
                     **SEED)
    return int(mask.sum()) if mask is not None else 0


def main(corpus, manifest):
    rows = list(csv.DictReader(open(manifest)))
    feats = [features(f"{corpus}/{r['file']}") for r in rows]
    found = 0
    for i, j in itertools.combinations(range(len(rows)), 2):
        if rows[i]["unit"] == rows[j]["unit"]:
            continue
        n = inliers(feats[i], feats[j])
        if n >= 15:
            found += 1
            print(f"{n:4d} inliers: {rows[i]['split']} {rows[i]['path']}  ~  {rows[j]['split']} {rows[j]['path']}")
    print(f"duplicates: {found} pairs among {len(rows)} photos")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "scripts/train/corpus-manifest.csv"))
