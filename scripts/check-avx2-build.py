#!/usr/bin/env python3
"""Checks that the face detector's AVX2 build cannot run on a processor without AVX2 unless asked to.

Sources/C/CFaceDetect/face_detect_avx2.cpp builds dlib's detector for AVX2 under a renamed namespace; the program
picks it only where the processor has AVX2 (variants.h). Two mistakes would break that on an older processor, and
neither shows on a machine that has AVX2, so they are checked in the object file:
  1. an AVX2 instruction in a function outside dlib_avx2/fd_avx2: the linker may merge it with the baseline
     build's copy of the same function (a standard-library template, say) and any code may then call it;
  2. an AVX2 instruction in anything the file's start-up code reaches: it runs on every processor.
Usage: check-avx2-build.py BUILD_DIR   (e.g. .build/debug); exit 1 naming the functions when either is found.
"""
import glob
import re
import subprocess
import sys

# VEX-encoded instructions (v…: AVX, AVX2, FMA) and the BMI instructions AVX2 processors add.
VEX = re.compile(r"\t(v[a-z0-9]+|shlx|shrx|sarx|rorx|bzhi|pdep|pext|andn|blsr|blsi|blsmsk|movbe)\b")
OWN = ("dlib_avx2", "fd_avx2")


def functions(obj):
    """Maps each function (demangled) to (uses VEX, functions it calls) from objdump's disassembly."""
    text = subprocess.run(["objdump", "-d", "-r", "-C", "--no-show-raw-insn", obj], check=True,
                          capture_output=True, text=True).stdout
    found, name = {}, None
    for line in text.splitlines():
        head = re.match(r"^[0-9a-f]+ <(.*)>:$", line)
        if head:
            name = head.group(1)
            found.setdefault(name, [False, set()])
        elif name is not None:
            if VEX.search(line):
                found[name][0] = True
            call = re.search(r"R_X86_64_(?:PLT32|PC32)\s+(.*?)(?:[-+]0x[0-9a-f]+)?$", line)
            if call:
                found[name][1].add(call.group(1))
    return found


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    objects = glob.glob(f"{sys.argv[1]}/CFaceDetect.build/face_detect_avx2.cpp.o")
    if not objects:
        sys.exit(f"check-avx2-build: no CFaceDetect.build/face_detect_avx2.cpp.o under {sys.argv[1]}: build first")
    problems = []
    for obj in objects:
        found = functions(obj)
        mistakes = [f"{obj}: {f} uses AVX2 outside dlib_avx2/fd_avx2"
                    for f, (vex, _) in found.items() if vex and not any(o in f for o in OWN)]
        start = [f for f in found if f.startswith(("_GLOBAL__sub_I", "__cxx_global_var_init"))]
        seen, todo = set(), list(start)
        while todo:
            f = todo.pop()
            if f in seen or f not in found:
                continue
            seen.add(f)
            if found[f][0]:
                mistakes.append(f"{obj}: {f} uses AVX2 and runs at start-up")
            todo += found[f][1]
        problems += mistakes
        if mistakes:
            continue
        vex_total = sum(1 for vex, _ in found.values() if vex)
        print(f"check-avx2-build: {obj}: {vex_total} AVX2 functions, all in dlib_avx2/fd_avx2; "
              f"{len(seen)} start-up functions without AVX2")
    if problems:
        print("\n".join(problems), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
