"""Tables for docs/EXTRACT.md from `bench extract-eval --dump DIR` (lattice-cases.json) and polynomial.py's output.

"Other photos": the look extracted from one pair, measured on each of the other photos; the figure is the mean over
those (pair, photo) cases of the per-photo mean ΔE00, and the mean of their 95th percentiles.

Usage: python3 scripts/extract/summarize.py [--apart LOOK] [--without PHOTO] DIR [DIR …]  (one folder per look, as
evaluate.sh writes them; --apart puts a look in its own tables, e.g. a palette remap that is no smooth grade;
--without leaves out every case a photo is the source or the target of, e.g. a development photo in a held-out set)
"""
import json
import os
import sys
from collections import defaultdict


def table(cases, grey, label):
    rows = defaultdict(list)
    for c in cases:
        if c["source"] in grey:
            continue
        kind = "own photo" if c["target"] == c["source"] else "other photos"
        rows[(c.get("method", "lattice"), c["variant"], kind)].append(c)
        rows[(c.get("method", "lattice"), c["variant"], kind, c["look"])].append(c)
    print(f"\n{label}: method | variant | measured on | cases | mean ΔE00 | mean p95 | worst case mean")
    for key in sorted(k for k in rows if len(k) == 3):
        r = rows[key]
        mean = sum(c["mean"] for c in r) / len(r)
        p95 = sum(c["p95"] for c in r) / len(r)
        worst = max(c["mean"] for c in r)
        print(f"| {key[0]} | {key[1]} | {key[2]} | {len(r)} | {mean:.2f} | {p95:.2f} | {worst:.2f} |")
    print(f"\n{label}, per look (clean, other photos): look | mean ΔE00 | mean p95")
    for key in sorted(k for k in rows if len(k) == 4 and k[1] == "clean" and k[2] == "other photos"):
        r = rows[key]
        print(f"| {key[3]} | {key[0]} | {sum(c['mean'] for c in r) / len(r):.2f} | "
              f"{sum(c['p95'] for c in r) / len(r):.2f} |")


THIN = 1 / 3  # LookExtractor.thinCoverage: extract warns below it, apply --look notes an unshown share from it on


def said(c):
    """What LookStudio tells the user about this (pair, photo) case."""
    if c["typicalCoverage"] < THIN:
        return "warned at extract"
    return "noted at apply" if c["unshown"] >= THIN else "silent"


def by_warning(cases, label):
    rows = defaultdict(list)
    for c in cases:
        if c["target"] != c["source"] and "unshown" in c:
            rows[(c["variant"], said(c))].append(c)
    if not rows:
        return
    print(f"\n{label}, other photos by what LookStudio says: variant | said | cases | mean ΔE00 | mean p95")
    for key in sorted(rows):
        r = rows[key]
        print(f"| {key[0]} | {key[1]} | {len(r)} | {sum(c['mean'] for c in r) / len(r):.2f} | "
              f"{sum(c['p95'] for c in r) / len(r):.2f} |")


def main(directories, apart, without):
    # A later folder's case replaces an earlier one's (a rerun of one variant after a change).
    lattice, polynomial = {}, {}
    for d in directories:
        for name, into in (("lattice-cases.json", lattice), ("polynomial-cases.json", polynomial)):
            if os.path.exists(f"{d}/{name}"):
                for c in json.load(open(f"{d}/{name}")):
                    if c["source"] not in without and c["target"] not in without:
                        into[(c["look"], c["source"], c["variant"], c["target"], c.get("method"))] = c
    lattice, polynomial = list(lattice.values()), list(polynomial.values())
    print(f"looks: {len(set(c['look'] for c in lattice))}; photos: {sorted(set(c['target'] for c in lattice))}")
    groups = [("", lambda c: c["look"] not in apart)] + [(f" [{a} only]", lambda c, a=a: c["look"] == a) for a in apart]
    for suffix, keep in groups:
        table([c for c in lattice if keep(c)], set(), "lattice fit" + suffix)
        by_warning([c for c in lattice if keep(c)], "lattice fit" + suffix)
        if polynomial:
            table([c for c in polynomial if keep(c)], set(), "colour-science polynomial fits" + suffix)


if __name__ == "__main__":
    args, apart, without = sys.argv[1:], set(), set()
    while args and args[0] in ("--apart", "--without"):
        (apart if args[0] == "--apart" else without).add(args[1])
        args = args[2:]
    main(args, apart, without)
