"""Faults made the way a camera makes them; shared by training (train.py) and evaluation (evaluate.py).

A good photo (8-bit sRGB) is linearised; its clipped pixels are radiance of unknown height above white, so the
channels at 255 are scaled up by a random factor > 1 first. The fault acts on that linear radiance before clipping
(veil, von Kries white-balance gains, exposure), then the camera clips, adds signal-dependent noise, encodes sRGB
and writes a JPEG at quality 85–95. `oracle` inverts the known fault exactly (noise, clipping and JPEG stay).
"""
import io

import numpy as np
from PIL import Image

# Linear sRGB from CIE XYZ (D65).
XYZ_TO_RGB = np.array([[3.2404542, -1.5371385, -0.4985314],
                       [-0.9692660, 1.8760108, 0.0415560],
                       [0.0556434, -0.2040259, 1.0572252]])

FAMILIES = ("under", "over", "warm", "cool", "green", "magenta", "haze", "under+warm", "under+cool",
            "over+cool", "haze+warm", "under+haze")


def to_linear(srgb):
    s = np.asarray(srgb, dtype=np.float64)
    return np.where(s <= 0.04045, s / 12.92, ((s + 0.055) / 1.055) ** 2.4)


def to_srgb(linear):
    x = np.clip(linear, 0.0, 1.0)
    return np.where(x <= 0.0031308, x * 12.92, 1.055 * np.power(x, 1 / 2.4) - 0.055)


def load(path):
    """8-bit RGB of a photo as float sRGB in [0, 1]."""
    return np.asarray(Image.open(path).convert("RGB"), dtype=np.float64) / 255.0


def locus_xy(kelvin):
    """CIE daylight locus from 4000 K, Planckian locus (Kim et al. cubic fit) below."""
    t = float(kelvin)
    if t >= 4000:
        x = (-2.0064e9 / t**3 + 1.9018e6 / t**2 + 0.24748e3 / t + 0.237040) if t > 7000 else \
            (-4.6070e9 / t**3 + 2.9678e6 / t**2 + 0.09911e3 / t + 0.244063)
        y = -3.0 * x * x + 2.87 * x - 0.275
        return x, y
    x = -0.2661239e9 / t**3 - 0.2343589e6 / t**2 + 0.8776956e3 / t + 0.179910
    if t <= 2222:
        y = -1.1063814 * x**3 - 1.34811020 * x**2 + 2.18555832 * x - 0.20219683
    else:
        y = -0.9549476 * x**3 - 1.37418593 * x**2 + 2.09137015 * x - 0.16748867
    return x, y


def illuminant_gains(kelvin, tint=0.0):
    """Von Kries gains (G = 1) of a camera balanced for D65 shooting under `kelvin`; tint > 0 adds green."""
    x, y = locus_xy(kelvin)
    rgb = XYZ_TO_RGB @ np.array([x / y, 1.0, (1 - x - y) / y])
    x65, y65 = locus_xy(6504)
    rgb65 = XYZ_TO_RGB @ np.array([x65 / y65, 1.0, (1 - x65 - y65) / y65])
    g = rgb / rgb65
    g = g / g[1]
    return g * np.exp(np.array([-tint / 2, tint / 2, -tint / 2])) / np.exp(tint / 2)


def draw_fault(rng, family):
    """A random fault of one family: dict with exposure (EV), gains (RGB), veil (amount, airlight RGB)."""
    fault = {"family": family, "ev": 0.0, "gains": np.ones(3), "veil": 0.0, "air": np.ones(3)}
    for part in family.split("+"):
        if part == "under":
            fault["ev"] = rng.uniform(-1.5, -0.3)
        elif part == "over":
            fault["ev"] = rng.uniform(0.25, 0.7)
        elif part == "warm":
            fault["gains"] = illuminant_gains(rng.uniform(2800, 5000), rng.uniform(-0.05, 0.05))
        elif part == "cool":
            fault["gains"] = illuminant_gains(rng.uniform(8000, 10000), rng.uniform(-0.05, 0.05))
        elif part == "green":
            fault["gains"] = illuminant_gains(rng.uniform(5500, 7000), rng.uniform(0.12, 0.3))
        elif part == "magenta":
            fault["gains"] = illuminant_gains(rng.uniform(5500, 7000), -rng.uniform(0.12, 0.3))
        elif part == "haze":
            fault["veil"] = rng.uniform(0.08, 0.3)
            fault["air"] = np.array([0.92, 0.96, 1.0]) * rng.uniform(0.85, 1.0)
        elif part != "none":
            raise ValueError(f"unknown fault family {part}")
    return fault


def radiance(srgb, rng):
    """Linear radiance of a good photo, its clipped channels raised by a random factor 1.2…3."""
    lin = to_linear(srgb)
    clipped = srgb >= 254.5 / 255
    return np.where(clipped, lin * rng.uniform(1.2, 3.0), lin)


def expose(lin, fault):
    """The fault in linear light, before clipping."""
    x = lin * (1 - fault["veil"]) + fault["veil"] * fault["air"]
    return x * fault["gains"] * 2.0 ** fault["ev"]


def camera_jpeg(lin, rng, quality=None):
    """Clip, signal-dependent noise, sRGB, 8 bits, JPEG 85–95; returns the JPEG file's bytes."""
    x = np.clip(lin, 0, 1)
    sigma = np.sqrt(rng.uniform(2e-5, 2e-4) * x + rng.uniform(1e-7, 1e-6))
    x = np.clip(x + rng.standard_normal(x.shape) * sigma, 0, 1)
    codes = np.round(to_srgb(x) * 255).astype(np.uint8)
    buffer = io.BytesIO()
    Image.fromarray(codes).save(buffer, "JPEG", quality=int(quality or rng.integers(85, 96)))
    return buffer.getvalue()


def decode_jpeg(data):
    return np.asarray(Image.open(io.BytesIO(data)).convert("RGB"), dtype=np.float64) / 255.0


def camera(lin, rng, quality=None):
    """The camera as `camera_jpeg`, returning the decoded sRGB floats."""
    return decode_jpeg(camera_jpeg(lin, rng, quality))


def degrade_jpeg(srgb, fault, rng):
    """A good photo (sRGB floats) under `fault`, as the JPEG file a camera would write."""
    return camera_jpeg(expose(radiance(srgb, rng), fault), rng)


def degrade(srgb, fault, rng):
    return decode_jpeg(degrade_jpeg(srgb, fault, rng))


def oracle(srgb_faulted, fault):
    """The exact inverse of the known fault, applied to the faulted photo."""
    x = to_linear(srgb_faulted) / (fault["gains"] * 2.0 ** fault["ev"])
    x = (x - fault["veil"] * fault["air"]) / (1 - fault["veil"])
    return to_srgb(x)
