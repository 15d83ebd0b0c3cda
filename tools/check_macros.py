#!/usr/bin/env python3
"""Checks that the headers leak no internal macro: after including every public header, each
MINIFLOAT_* macro still defined is an include guard (MINIFLOAT_..._HPP) or one that config.hpp
names (the user switches it documents and the detection macros it defines). A helper macro that a header
forgets to #undef (a kernel's target attribute, say) fails this.

  tools/check_macros.py CXX [FLAGS...]   preprocess with that compiler and flags; exit 1 on a leak
"""
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
INCLUDE = ROOT / "include"
CONFIG = INCLUDE / "minifloat" / "config.hpp"
SOURCE = "#include <minifloat/minifloat.hpp>\n#include <minifloat/std_format.hpp>\n" \
         "#include <minifloat/cuda.hpp>\n"


def main(argv):
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    compiler, flags = argv[0], argv[1:]
    result = subprocess.run([compiler, *flags, f"-I{INCLUDE}", "-x", "c++", "-dM", "-E", "-"],
                            input=SOURCE, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        print(result.stderr, file=sys.stderr)
        return 1
    defined = set(re.findall(r"^#define (MINIFLOAT_\w+)", result.stdout, re.M))
    configured = set(re.findall(r"\b(MINIFLOAT_\w+)", CONFIG.read_text()))
    leaks = sorted(name for name in defined
                   if not name.endswith("_HPP") and name not in configured)
    for name in leaks:
        print(f"{name} is defined after including the headers, but config.hpp does not name it",
              file=sys.stderr)
    if not leaks:
        print(f"{len(defined)} MINIFLOAT_ macros, none leaked ({compiler} {' '.join(flags)})")
    return 1 if leaks else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
