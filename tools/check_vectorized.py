#!/usr/bin/env python3
"""Checks that the compiler vectorizes the portable path's encode loop (lanes.inc, the loop after
the line marked "compilers vectorize: tools/check_vectorized.py"): compiles
tests/vectorization/portable_encode.cpp, whose encoders instantiate it, with the compiler's
vectorization remarks (GCC -O3 -fopt-info-vec-optimized, Clang -O2 -Rpass=loop-vectorize) and
looks for a remark at that loop, compiling each encoder alone.

  tools/check_vectorized.py CXX [FLAGS...]   exit 1 if a loop was left scalar (or, with
                                             Clang, narrower than 4 lanes)
"""
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
LANES = ROOT / "include" / "minifloat" / "detail" / "lanes.inc"
SOURCE = ROOT / "tests" / "vectorization" / "portable_encode.cpp"
MARK = "compilers vectorize: tools/check_vectorized.py"


def loop_line():
    lines = LANES.read_text().splitlines()
    for number, line in enumerate(lines, start=1):
        if MARK in line:
            for following in range(number, len(lines)):
                if lines[following].lstrip().startswith("for ("):
                    return following + 1
    raise SystemExit(f"{LANES}: no loop after the mark '{MARK}'")


def main(argv):
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    compiler, flags = argv[0], argv[1:]
    version = subprocess.run([compiler, "--version"], capture_output=True, text=True,
                             check=False).stdout
    clang = "clang" in version
    remarks = ["-O2", "-Rpass=loop-vectorize"] if clang else ["-O3", "-fopt-info-vec-optimized"]
    line = loop_line()
    encoders = len(re.findall(r"^#if !defined\(ENCODER\)", SOURCE.read_text(), re.M))
    pattern = re.compile(rf"lanes\.inc:{line}:\d+: (optimized|remark): (loop )?vectorized")
    failed = 0
    for encoder in range(encoders):
        command = [compiler, *flags, *remarks, f"-DENCODER={encoder}", f"-I{ROOT / 'include'}",
                   "-c", str(SOURCE), "-o", "/dev/null"]
        result = subprocess.run(command, capture_output=True, text=True, check=False)
        if result.returncode != 0:
            print(result.stderr, file=sys.stderr)
            return 1
        found = [remark for remark in result.stderr.splitlines() if pattern.search(remark)]
        # Clang names its width: fewer than 4 lanes (two doubles per SSE2 vector, as its double
        # encoder once had) is a loop left half as fast.
        widths = [re.search(r"width: (?:vscale x )?(\d+)", remark) for remark in found]
        narrow = [remark for remark, width in zip(found, widths)
                  if width is not None and int(width.group(1)) < 4]
        if narrow:
            print(f"encoder {encoder}: fewer than 4 lanes: {narrow[0]}")
            failed += 1
            continue
        print(f"encoder {encoder}: " + ("; ".join(remark.split(": ", 1)[1] for remark in found)
                                        if found else "NOT VECTORIZED"))
        failed += 0 if found else 1
    print(f"{encoders - failed} of {encoders} encode loops vectorized at lanes.inc:{line} "
          f"({compiler} {' '.join(flags + remarks)})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
