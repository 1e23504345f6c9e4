"""Tables for docs/EXTRACT.md from `bench extract-eval --dump DIR` (lattice-cases.json) and polynomial.py's output.

"Other photos": the look extracted from one pair, measured on each of the other photos; the figure is the mean over
those (pair, photo) cases of the per-photo mean ΔE00, and the mean of their 95th percentiles. Pairs whose source is
a grey-only photo are listed apart (the extraction warns that such a pair covers the grey axis only).

Usage: python3 scripts/extract/summarize.py DIR [GREY_PHOTO …]
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
        print(f"| {key[0]} | {key[1]} | {key[2]} | {len(r)} | {mean:.2f} | {p95:.2f} | {max(c['mean'] for c in r):.2f} |")
    print(f"\n{label}, per look (clean, other photos): look | mean ΔE00 | mean p95")
    for key in sorted(k for k in rows if len(k) == 4 and k[1] == "clean" and k[2] == "other photos"):
        r = rows[key]
        print(f"| {key[3]} | {key[0]} | {sum(c['mean'] for c in r) / len(r):.2f} | "
              f"{sum(c['p95'] for c in r) / len(r):.2f} |")


def main(directory, grey):
    lattice = json.load(open(f"{directory}/lattice-cases.json"))
    table(lattice, grey, "lattice fit")
    grey_cases = [c for c in lattice if c["source"] in grey and c["target"] != c["source"] and c["variant"] == "clean"]
    if grey_cases:
        print(f"\ngrey-only source photos, clean, other photos: {len(grey_cases)} cases, mean "
              f"{sum(c['mean'] for c in grey_cases) / len(grey_cases):.2f}, mean p95 "
              f"{sum(c['p95'] for c in grey_cases) / len(grey_cases):.2f}")
    if os.path.exists(f"{directory}/polynomial-cases.json"):
        table(json.load(open(f"{directory}/polynomial-cases.json")), grey, "colour-science polynomial fits")


if __name__ == "__main__":
    main(sys.argv[1], set(sys.argv[2:]))
