#!/usr/bin/env python3
"""Writes the seeds of the `plugindescriptor` fuzz target (Fuzz/seeds/plugindescriptor/).

Each seed is a byte string in the harness's input layout (Fuzz/plugindescriptor.swift): a mode byte (bit 0: version 1
layout, bit 2: abi_version from the next byte), the plugin's name and version, the adjustment count, then per
adjustment its parameter count, every field of each parameter, a flags byte and its strings. Counts are one byte
below 40, or 0xFF and eight big-endian bytes; floats are four big-endian bytes; strings a length byte (0xFF: NULL)
and their bytes. Run it again after changing that layout:

    scripts/fuzz-seeds-plugindescriptor.py Fuzz/seeds/plugindescriptor
"""
import os
import struct
import sys

SIZE_MAX = 2**64 - 1
KIND = {"scalar": 0, "angle": 1, "kelvin": 2, "bool": 3, "curve": 4, "color": 5, "choice": 6}
PERIODIC, WHEEL = 1, 2


def string(text):
    if text is None:
        return b"\xff"
    data = text.encode()
    assert len(data) < 0xF0
    return bytes([len(data)]) + data


def number(value):
    return struct.pack(">f", value)


def count(n):
    return bytes([n]) if n < 40 else b"\xff" + struct.pack(">Q", n)


def array(entries, encode, limit, pad, n=None, null=None):
    """A count, the NULL byte, and the entries the harness reads whenever 1 <= count <= limit, NULL or not (padded
    with `pad` to the count). An empty array is NULL unless told otherwise, as the header asks of unused fields."""
    n = len(entries) if n is None else n
    null = n == 0 if null is None else null
    body = b"".join(encode(e) for e in (entries + [pad] * n)[:n]) if 1 <= n <= limit else b""
    return count(n) + bytes([1 if null else 0]) + body


def parameter(name, kind, low, high, default=0.0, identity=0.0, defaults=(), identities=(), x_min=0.0, x_max=0.0,
              max_points=0, flags=0, choices=(), default_count=None, default_null=None, choice_count=None,
              choice_null=None):
    return (string(name) + string(name.capitalize()) + string(None) + bytes([KIND[kind] + 1])
            + number(low) + number(high) + number(default) + number(identity)
            + array(list(defaults), number, 128, 0.0, default_count, default_null)
            + array(list(identities), number, 128, 0.0)
            + number(x_min) + number(x_max) + count(max_points) + bytes([flags])
            + array(list(choices), string, 64, "x", choice_count, choice_null))


def plugin(parameters, mode=0, abi=None, parameter_count=None):
    head = bytes([mode | (4 if abi is not None else 0)]) + (bytes([abi]) if abi is not None else b"")
    n = len(parameters) if parameter_count is None else parameter_count
    return (head + string("Seed") + string("1") + count(1) + count(n) + b"".join(parameters) + bytes([0])
            + string("test.seed") + string("Seed") + string("Test") + string(None))


def curve(**changes):
    fields = dict(defaults=[0, 0, 1, 1], identities=[0, 0, 1, 1], x_min=0, x_max=1, max_points=16)
    fields.update(changes)
    return parameter("master", "curve", 0, 1, **fields)


def choice(**changes):
    fields = dict(choices=["fwd", "rev", "no-clamp"])
    fields.update(changes)
    return parameter("style", "choice", 0, 2, **fields)


AMOUNT = parameter("amount", "scalar", -1, 1)
HUE = parameter("hue", "curve", -1, 1, defaults=[0, 0], identities=[0, 0], x_min=0, x_max=360, max_points=16,
                flags=PERIODIC)
LIFT = parameter("lift", "color", -1, 1, defaults=[0, 0, 0], identities=[0, 0, 0], flags=WHEEL)

SEEDS = {
    "valid": plugin([AMOUNT]),
    "parameter-count-size-max": plugin([AMOUNT], parameter_count=SIZE_MAX),
    "typed-valid": plugin([curve(), HUE, LIFT, choice(), AMOUNT]),
    "curve-null-default-with-count": plugin([curve(defaults=[], default_count=4, default_null=True)]),
    "curve-default-count-size-max": plugin([curve(defaults=[], default_count=SIZE_MAX, default_null=False)]),
    "curve-max-points-size-max": plugin([curve(max_points=SIZE_MAX)]),
    "curve-nan-point": plugin([curve(defaults=[0, float("nan"), 1, 1])]),
    "curve-infinite-x-max": plugin([curve(x_max=float("inf"))]),
    "choice-null-with-count": plugin([choice(choices=[], choice_count=3, choice_null=True)]),
    "choice-count-size-max": plugin([choice(choices=[], choice_count=SIZE_MAX, choice_null=False)]),
    "v1-valid": plugin([AMOUNT], mode=1),
    "v1-curve-kind": plugin([curve()], mode=1),
    "abi-version-3": plugin([AMOUNT], abi=3),
}

if __name__ == "__main__":
    folder = sys.argv[1] if len(sys.argv) > 1 else "Fuzz/seeds/plugindescriptor"
    os.makedirs(folder, exist_ok=True)
    for name, data in SEEDS.items():
        with open(os.path.join(folder, name), "wb") as out:
            out.write(data)
