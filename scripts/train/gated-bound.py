#!/usr/bin/env python3
"""How much any confidence could get out of the model's estimates: an upper bound, from `bench correct --rows`.

Each FILE is `lookstudio bench correct --auto N --rows FILE` at one N (100: the shipped amount; above 100 the share
of the whole estimate grows to 1 at 200). For every faulted case the bound takes the best of "nothing" (recovery 0)
and every share run — what a perfect confidence, one that knew each case's answer, would choose among them. Untouched
photos are held at their smallest move over the runs (a perfect confidence leaves them alone). Prints per family
and overall the mean recovery of each run and of the bound, next to the oracle.
Usage: gated-bound.py FILE [FILE …]
"""
import collections
import csv
import sys


def read(path):
    with open(path, newline="") as f:
        rows = [r for r in csv.DictReader(f, delimiter="\t") if r["row"] == "faulted"]
    return {(r["photo"], r["family_or_kind"]): r for r in rows}


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    runs = [(path, read(path)) for path in sys.argv[1:]]
    keys = sorted(set.intersection(*(set(r) for _, r in runs)))
    families = collections.defaultdict(list)
    for key in keys:
        families[key[1]].append(key)
    header = "family      cases " + " ".join(f"{p.rsplit('/', 1)[-1][:12]:>12}" for p, _ in runs) + "   bound  oracle"
    print(header)
    for family in sorted(families) + ["all"]:
        chosen = keys if family == "all" else families[family]
        means = [sum(float(r[k]["model"]) for k in chosen) / len(chosen) for _, r in runs]
        bound = sum(max(0.0, *(float(r[k]["model"]) for _, r in runs)) for k in chosen) / len(chosen)
        oracle = sum(float(runs[0][1][k]["oracle"]) for k in chosen) / len(chosen)
        print(f"{family:<11} {len(chosen):5d} " + " ".join(f"{m:12.3f}" for m in means) + f" {bound:7.3f} {oracle:7.3f}")


if __name__ == "__main__":
    main()
