#!/usr/bin/env python3
"""The Python package's figures (scripts/bench-sdk.sh): engine.apply on a 24 MP uint8 array into a new array and
into one reused through out=, the cost of one call on a 1-pixel array, and a thread pool of 4 against 1 thread over
many images with one core per call.

    bench_sdk.py CATALOG LOOK
"""
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

import lookstudio


def photo_like(height: int, width: int, seed: int = 1) -> np.ndarray:
    """Smooth gradients with ±8 codes of texture (as `lookstudio bench apply` makes them)."""
    fy, fx = np.mgrid[0:height, 0:width].astype(np.float64)
    fx /= width
    fy /= height
    noise = np.random.default_rng(seed).integers(-8, 8, size=(height, width))
    planes = [128 + 100 * np.sin(6 * fx + 2 * fy), 120 + 90 * np.sin(4 * fy + 3 * fx * fy),
              110 + 80 * np.cos(5 * fx - 2 * fy)]
    return np.stack([np.clip(p.astype(int) + noise, 0, 255) for p in planes], axis=-1).astype(np.uint8)


def timed(work) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def best_of(repeats: int, work) -> float:
    return min(timed(work) for _ in range(repeats))


def main(catalog: str, look: str) -> None:
    engine = lookstudio.Engine(catalog=catalog)
    big = photo_like(4000, 6000)
    out = engine.apply(big, look=look)
    # Alternated, so a disturbance on the shared machine falls on both ways alike.
    fresh, reused = [], []
    for _ in range(3):
        fresh.append(timed(lambda: engine.apply(big, look=look)))
        reused.append(timed(lambda: engine.apply(big, look=look, out=out)))
    print(f"Python engine.apply 24 MP uint8 RGB, all cores, new array each call (its pages faulted in by the apply): "
          f"{min(fresh):.3f} s, {24 / min(fresh):.0f} Mpix/s (best of 3)")
    print(f"Python engine.apply 24 MP uint8 RGB, all cores, out= reused (like for like with the core and C API): "
          f"{min(reused):.3f} s, {24 / min(reused):.0f} Mpix/s (best of 3)")

    one = photo_like(1, 1)
    calls = 20000
    engine.apply(one, look=look)
    seconds = best_of(3, lambda: [engine.apply(one, look=look) for _ in range(calls)])
    print(f"Python engine.apply 1-pixel array: {seconds / calls * 1e6:.1f} µs per call (best of 3 × {calls})")

    images = [photo_like(512, 512, seed) for seed in range(48)]
    jobs = [(image, look) for image in images]
    run = lambda job: engine.apply(job[0], look=job[1], threads=1)  # noqa: E731
    single = best_of(3, lambda: [run(job) for job in jobs])
    with ThreadPoolExecutor(4) as pool:
        pooled = best_of(3, lambda: list(pool.map(run, jobs)))
    print(f"Python 48 × 0.26 MP, one core per call: 1 thread {single:.3f} s, 4 threads {pooled:.3f} s, "
          f"speed-up {single / pooled:.2f}×")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
