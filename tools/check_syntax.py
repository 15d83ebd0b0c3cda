#!/usr/bin/env python3
"""Compiles every source of a configured CMake build with -fsyntax-only: the compiler's whole
front end (parsing, every template instantiation the sources make, every front-end warning, and
with clang that is nearly all of them) without optimizing, generating code or linking. CI uses it
for the configuration whose tests the other configurations already run (tests/run_all.sh), at a
fraction of a full build's time.

  tools/check_syntax.py BUILD_DIR [JOBS]   BUILD_DIR configured with
                                           -DCMAKE_EXPORT_COMPILE_COMMANDS=ON; exit 1 on an error
"""
import concurrent.futures
import json
import os
import pathlib
import shlex
import subprocess
import sys


def syntax_only(command):
    """The compile command without its output file and -c, with -fsyntax-only."""
    words = shlex.split(command)
    kept = []
    skip = False
    for word in words:
        if skip:
            skip = False
        elif word == "-o":
            skip = True
        elif word != "-c":
            kept.append(word)
    return kept + ["-fsyntax-only"]


def main():
    if len(sys.argv) not in (2, 3):
        raise SystemExit(__doc__)
    build = pathlib.Path(sys.argv[1])
    jobs = int(sys.argv[2]) if len(sys.argv) == 3 else (os.cpu_count() or 1) + 1
    entries = json.loads((build / "compile_commands.json").read_text())
    # Largest sources first: the slowest compile does not start last.
    entries.sort(key=lambda entry: -pathlib.Path(entry["file"]).stat().st_size)

    def check(entry):
        result = subprocess.run(syntax_only(entry["command"]), cwd=entry["directory"],
                                capture_output=True, text=True, check=False)
        return entry["file"], result.returncode, result.stdout + result.stderr

    failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for file, code, output in pool.map(check, entries):
            if code != 0 or output.strip():
                failed += code != 0
                print(f"{file}:\n{output}", end="" if output.endswith("\n") else "\n")
    print(f"{len(entries)} sources checked with -fsyntax-only, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
