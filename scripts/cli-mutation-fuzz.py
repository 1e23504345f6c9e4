#!/usr/bin/env python3
"""Mutation fuzz of the `lookstudio` command line: mutated LUTs, images and recipes through the commands users run.

Each input is a seed from Fuzz/seeds/ or Tests/Fixtures/ (LUTs: .cube, .3dl, CLF, CDL, cube PNGs; photos: PNG,
JPEG, TIFF, WebP, HEIF; recipes) with one to four mutations (bit flips, interesting bytes and numbers, inserted,
deleted or duplicated runs, truncation, splicing with another seed of its kind), run through one command of its
kind (`inspect`, `import` into a scratch catalog, `convert`, `apply --lut`, `compose` of a recipe naming the LUT,
`info`, `apply` of a photo, `compose -o` and `--explain` of a recipe). Inputs are the same for the same --seed.

A finding is: a death by signal (exit status above 128, or killed), a failure (non-zero exit) whose stderr has no
line starting with `error: `, an output file or hidden temporary left behind by a failure, or a run over --timeout.
Each finding's input and command are kept in --findings. Exit status 1 when anything was found.

    scripts/cli-mutation-fuzz.py --binary .build/release/lookstudio              # 5,000 inputs, seed 56
    scripts/cli-mutation-fuzz.py --binary .build/debug/lookstudio --count 200 --seed 7 --jobs 2
"""
import argparse
import concurrent.futures
import os
import pathlib
import random
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
SEED_FOLDERS = {
    "lut": ["Fuzz/seeds/cube", "Fuzz/seeds/threedl", "Fuzz/seeds/clf", "Fuzz/seeds/cdl", "Tests/Fixtures/corpus"],
    "image": ["Fuzz/seeds/png", "Fuzz/seeds/jpeg", "Fuzz/seeds/tiff", "Fuzz/seeds/webp", "Fuzz/seeds/heif",
              "Tests/Fixtures/odd"],
    "recipe": ["Fuzz/seeds/recipe", "Tests/Fixtures/fuzz"],
}
LUT_EXTENSIONS = {".cube", ".3dl", ".clf", ".cdl", ".cc", ".ccc", ".png"}
IMAGE_EXTENSIONS = {".png", ".jpg", ".tif", ".webp", ".heic", ".avif"}
MAX_SEED_BYTES = 200_000
INTERESTING_BYTES = [0x00, 0xFF, 0x7F, 0x80, 0x0A, 0x0D, 0x22, 0x3C, 0x3E, 0x26, 0x2D, 0x2E, 0x30, 0x39, 0xC3, 0xEE]
INTERESTING_TEXT = [b"nan", b"inf", b"-1", b"0", b"1e308", b"-1e-45", b"256", b"257", b"65536", b"4294967297",
                    b"99999999999999999999", b"1.5", b"\xee", b"&amp;", b"<!--", b"]]>", b"\"", b"\n\n", b"\t",
                    b"LUT_3D_SIZE 256", b"LUT_1D_SIZE 65536", b"size: 256", b"strength: 200", b"*a", b"&a [*a]"]

# Recipes that compose as they are (warm33.cube is put beside each one), for mutations to start from.
RECIPES = [
    "name: Warm\nsize: 17\nsteps:\n  - adjust: tone.exposure\n    params: { stops: 0.3 }\n"
    "  - lut: warm33.cube\n    strength: 60\n  - adjust: color.saturation\n    params: { amount: -0.3 }\n",
    "size: 9\nsteps:\n  - adjust: tone.contrast\n    params: { amount: 0.2 }\n    strength: 80\n",
    "name: \"Lut only\"\nsize: 5\nsteps:\n  - lut: warm33.cube\n  - lut: warm33.cube\n    strength: 0\n",
    "size: 4\nsteps: []\n",
]


def collect_seeds(binary, scratch):
    """Seed files by kind; cube PNGs (tiled, strip, hald) are made by the binary itself."""
    seeds = {kind: [] for kind in SEED_FOLDERS}
    for kind, folders in SEED_FOLDERS.items():
        for folder in folders:
            for path in sorted((ROOT / folder).glob("*")):
                ext = path.suffix.lower()
                allowed = {"lut": LUT_EXTENSIONS - {".png"}, "image": IMAGE_EXTENSIONS, "recipe": {".yaml"}}[kind]
                if path.is_file() and ext in allowed and path.stat().st_size <= MAX_SEED_BYTES:
                    seeds[kind].append((ext, path.read_bytes()))
    for path in sorted((ROOT / "Tests/Fixtures/corpus").glob("*.png")):
        if path.stat().st_size <= MAX_SEED_BYTES:
            seeds["lut"].append((".png", path.read_bytes()))
    seeds["recipe"] += [(".yaml", text.encode()) for text in RECIPES]
    for size, layout in [(4, "tiled"), (5, "strip"), (16, "hald"), (16, "tiled")]:
        out = scratch / f"identity-{size}-{layout}.png"
        subprocess.run([binary, "generate", "--size", str(size), "--layout", layout, "-o", str(out)],
                       check=True, capture_output=True)
        seeds["lut"].append((".png", out.read_bytes()))
    return seeds


def mutate(data, rng, others):
    """One to four mutations of `data`; `others` are seeds of the same kind to splice with."""
    data = bytearray(data)
    for _ in range(rng.choice([1, 1, 1, 2, 2, 3, 4])):
        choice = rng.randrange(9)
        at = rng.randrange(len(data) + 1)
        if choice == 0 and data:
            i = min(at, len(data) - 1)
            data[i] ^= 1 << rng.randrange(8)
        elif choice == 1 and data:
            data[min(at, len(data) - 1)] = rng.choice(INTERESTING_BYTES)
        elif choice == 2:
            data[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 16)))
        elif choice == 3 and data:
            del data[at:at + rng.randint(1, 64)]
        elif choice == 4 and len(data) > 1:
            del data[rng.randrange(1, len(data)):]
        elif choice == 5 and data:
            start = rng.randrange(len(data))
            chunk = data[start:start + rng.randint(1, 512)]
            data[at:at] = chunk * rng.randint(1, 8)
        elif choice == 6:
            data[at:at] = rng.choice(INTERESTING_TEXT)
        elif choice == 7 and others:
            other = rng.choice(others)
            cut = rng.randrange(len(other) + 1)
            data = data[:at] + bytearray(other[cut:])
        elif choice == 8 and data:
            # Replace a run of digits (a size, a count, a value) with an interesting number.
            digits = [i for i in range(len(data)) if 0x30 <= data[i] <= 0x39]
            if digits:
                i = rng.choice(digits)
                j = i
                while j < len(data) and (0x30 <= data[j] <= 0x39 or data[j] in b".-e"):
                    j += 1
                data[i:j] = rng.choice(INTERESTING_TEXT[:12])
    return bytes(data)


def commands(kind, ext, case, binary, fixtures):
    """The commands one input of `kind` may go through: (name, argv, outputs that must not exist after a failure)."""
    f = str(case / ("input" + ext))
    cat = ["--catalog", str(fixtures["catalog"])]
    if kind == "lut":
        recipe = case / "recipe.yaml"
        recipe.write_text(f"size: 9\nsteps:\n  - lut: input{ext}\n    strength: 70\n")
        out_ext = ".png" if ext != ".png" else ".cube"
        return [("inspect", [binary, "inspect", f], []),
                ("import", [binary, *cat, "import", f], []),
                ("convert", [binary, "convert", f, str(case / ("out" + out_ext))], [case / ("out" + out_ext)]),
                ("apply --lut", [binary, *cat, "apply", "--lut", f, str(fixtures["photo"]), str(case / "out.png")],
                 [case / "out.png"]),
                ("compose lut", [binary, *cat, "compose", str(recipe), "-o", str(case / "out.cube")], [case / "out.cube"])]
    if kind == "image":
        return [("info", [binary, "info", f], []),
                ("apply photo", [binary, *cat, "apply", "--lut", str(fixtures["lut"]), f, str(case / "out.png")],
                 [case / "out.png"])]
    return [("compose -o", [binary, *cat, "compose", f, "-o", str(case / "out.cube")], [case / "out.cube"]),
            ("compose --explain", [binary, *cat, "compose", f, "--explain"], [])]


def run_one(index, args, seeds, fixtures, work):
    rng = random.Random(args.seed * 1_000_003 + index)
    kind = rng.choice(sorted(seeds))
    ext, seed = rng.choice(seeds[kind])
    data = mutate(seed, rng, [s for e, s in seeds[kind] if e == ext])
    case = work / f"case-{index}"
    case.mkdir()
    (case / ("input" + ext)).write_bytes(data)
    if kind == "recipe":
        shutil.copy(fixtures["lut"], case / "warm33.cube")
    name, argv, outputs = rng.choice(commands(kind, ext, case, args.binary, fixtures))
    env = dict(os.environ, TMPDIR=str(case), HOME=str(case), XDG_DATA_HOME=str(case))
    start = time.monotonic()
    try:
        done = subprocess.run(argv, cwd=case, env=env, capture_output=True, timeout=args.timeout)
        status, stderr = done.returncode, done.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired as expired:
        status, stderr = None, (expired.stderr or b"").decode("utf-8", "replace")
    elapsed = time.monotonic() - start
    problems = []
    if status is None:
        problems.append(f"timeout after {args.timeout} s")
    elif status < 0 or status > 128:
        problems.append(f"signal (exit status {status})")
    elif status != 0:
        if not any(line.startswith("error: ") for line in stderr.splitlines()):
            problems.append(f"exit {status} without an `error: ` line")
        left = [p.name for p in outputs if p.exists()]
        left += [p.name for p in case.iterdir() if p.name.startswith(".") and ".tmp" in p.name]
        if left:
            problems.append("left behind on failure: " + ", ".join(sorted(left)))
    if problems:
        keep = pathlib.Path(args.findings) / f"case-{index}"
        shutil.rmtree(keep, ignore_errors=True)
        shutil.copytree(case, keep)
        (keep / "command.txt").write_text(" ".join(argv) + "\n" + "\n".join(problems) + "\n--- stderr\n" + stderr)
    shutil.rmtree(case, ignore_errors=True)
    return index, kind, ext, name, status, problems, elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=str(ROOT / ".build/release/lookstudio"))
    parser.add_argument("--count", type=int, default=5000, help="inputs to run (default 5000)")
    parser.add_argument("--seed", type=int, default=56, help="random seed (default 56)")
    parser.add_argument("--timeout", type=float, default=60, help="seconds per command (default 60)")
    parser.add_argument("--jobs", type=int, default=1, help="commands run at once (default 1)")
    parser.add_argument("--findings", default=str(ROOT / ".build/cli-fuzz-findings"),
                        help="folder for the inputs of findings")
    args = parser.parse_args()
    args.binary = str(pathlib.Path(args.binary).resolve())
    if not os.access(args.binary, os.X_OK):
        sys.exit(f"error: no lookstudio binary at {args.binary} (build it first)")
    # A binary outside the package finds the catalog's seed (scenes, shipped looks) here.
    os.environ.setdefault("LOOKSTUDIO_SEED_DIR", str(ROOT))
    work = pathlib.Path(tempfile.mkdtemp(prefix="lookstudio-cli-fuzz-"))
    started = time.monotonic()
    try:
        seeds = collect_seeds(args.binary, work)
        fixtures = {"catalog": work / "catalog.sqlite", "photo": ROOT / "Fuzz/seeds/png/rgba.png",
                    "lut": ROOT / "Fuzz/seeds/cube/tiny.cube"}
        # Made once before the runs, so concurrent commands never race to create it.
        subprocess.run([args.binary, "--catalog", str(fixtures["catalog"]), "looks", "list"], check=True,
                       capture_output=True)
        signals = no_error_line = left_behind = timeouts = failures = 0
        by_command, by_input = {}, {}
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            futures = [pool.submit(run_one, i, args, seeds, fixtures, work) for i in range(args.count)]
            for future in concurrent.futures.as_completed(futures):
                index, kind, ext, name, status, problems, _ = future.result()
                by_command[name] = by_command.get(name, 0) + 1
                by_input[f"{kind} {ext}"] = by_input.get(f"{kind} {ext}", 0) + 1
                failures += status not in (0, None)
                for problem in problems:
                    signals += problem.startswith("signal")
                    no_error_line += "without an" in problem
                    left_behind += problem.startswith("left behind")
                    timeouts += problem.startswith("timeout")
                    print(f"case {index} ({kind} {ext}, {name}): {problem}", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    minutes = (time.monotonic() - started) / 60
    print(f"{args.count} runs (seed {args.seed}) in {minutes:.1f} min: "
          + ", ".join(f"{k} {v}" for k, v in sorted(by_command.items())))
    print("inputs: " + ", ".join(f"{k} {v}" for k, v in sorted(by_input.items())))
    print(f"{failures} failed as expected or not; signals {signals}, failures without an `error: ` line "
          f"{no_error_line}, outputs left behind {left_behind}, timeouts {timeouts}")
    found = signals + no_error_line + left_behind + timeouts
    if found:
        print(f"inputs of the findings in {args.findings}")
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
