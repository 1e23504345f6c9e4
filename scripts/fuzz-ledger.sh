#!/usr/bin/env bash
# Sums the fuzzing ledger (.build-fuzz/ledger.tsv, one line per target run of scripts/fuzz.sh) per target:
#
#   scripts/fuzz-ledger.sh              runs, seconds, executions and crashes per target, and the total
#   scripts/fuzz-ledger.sh LEDGER.tsv   another ledger (e.g. one copied from a fuzzing machine)
set -eu
ledger="${1:-$(cd "$(dirname "$0")/.." && pwd)/.build-fuzz/ledger.tsv}"
[ -f "$ledger" ] || { echo "error: no ledger at $ledger (scripts/fuzz.sh writes it)" >&2; exit 1; }
printf "%-12s %6s %9s %14s %8s\n" target runs seconds executions crashes
awk -F'\t' '
    { runs[$2]++; secs[$2] += $3; execs[$2] += $4; crashes[$2] += $5 }
    END { for (t in execs) printf "%-12s %6d %9d %14d %8d\n", t, runs[t], secs[t], execs[t], crashes[t] }' "$ledger" | sort
awk -F'\t' '{ e += $4; c += $5 } END { printf "%-12s %6s %9s %14d %8d\n", "all", "", "", e, c }' "$ledger"
