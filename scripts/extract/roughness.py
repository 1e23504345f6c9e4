#!/usr/bin/env python3
"""How rough each look is: the deviation from identity and its second differences between neighbouring nodes.

usage: roughness.py LOOKSTUDIO LUT...   (any format `lookstudio convert` reads)

Every look is resampled to one 17³ grid first (`lookstudio convert --size 17`: the look sampled at those nodes, no
averaging), so looks stored at 16³, 33³ or 64³ are compared at one node spacing. A smooth grade changes its
deviation gradually from node to node; a look whose neighbouring nodes' deviations jump cannot be predicted between
the colours a photo shows (docs/EXTRACT.md, "Which looks are smooth").
"""
import os
import subprocess
import sys
import tempfile

import numpy as np


def read_cube(path):
    rows = [line.split() for line in open(path).read().replace("\r", "").splitlines()]
    size = next(int(r[1]) for r in rows if r and r[0] == "LUT_3D_SIZE")
    values = np.array([[float(v) for v in r] for r in rows if len(r) == 3 and r[0][0] in "0123456789.-"])
    return values.reshape(size, size, size, 3), size


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    tool, luts = sys.argv[1], sys.argv[2:]
    print("| look | deviation mean / max (codes) | second difference mean / p99 / max (codes) |")
    print("|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for lut in luts:
            out = os.path.join(tmp, "look.cube")
            subprocess.run([tool, "convert", lut, out, "--size", "17"], check=True, capture_output=True)
            cube, n = read_cube(out)
            grid = np.linspace(0, 1, n)
            # .cube order: red fastest, so the array is indexed [blue][green][red].
            identity = np.stack(np.meshgrid(grid, grid, grid, indexing="ij")[::-1], -1)
            deviation = cube - identity
            second = np.concatenate([
                np.abs(np.diff(np.moveaxis(deviation, axis, 0), n=2, axis=0)).max(-1).ravel()
                for axis in range(3)]) * 255
            size = np.abs(deviation).max(-1) * 255
            print("| %s | %.1f / %.1f | %.2f / %.1f / %.1f |" % (
                os.path.basename(lut), size.mean(), size.max(), second.mean(), np.percentile(second, 99),
                second.max()))


if __name__ == "__main__":
    main()
