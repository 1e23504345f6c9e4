#!/usr/bin/env python3
"""Exits 0 when every pair of images decodes to the same pixels (8-bit PNGs, Pillow), else prints how many
samples differ and exits 1.   same_pixels.py A B [A B …]"""
import sys

import numpy as np
from PIL import Image

status = 0
pairs = sys.argv[1:]
for a, b in zip(pairs[::2], pairs[1::2]):
    x, y = np.asarray(Image.open(a)), np.asarray(Image.open(b))
    if x.shape != y.shape:
        print(f"DIFFERENT {a} {x.shape} and {b} {y.shape}")
        status = 1
        continue
    differ = int(np.count_nonzero(x != y))
    print(f"{'same' if differ == 0 else 'DIFFERENT'} {a} and {b}: {differ} samples differ")
    status |= differ != 0
sys.exit(status)
