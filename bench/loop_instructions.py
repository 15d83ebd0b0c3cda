#!/usr/bin/env python3
"""Counts the instructions of the array kernels' main loops in a built binary (the benchmark).

For each kernel named below, finds the function in the symbol table (nm -C), disassembles it
(objdump), takes its largest loop (the body between a backward jump and its target with the most vector instructions) and prints
the instructions in it, per 64 elements, and how many are vector instructions. The AVX-512
loops convert 4 x 16 elements per iteration, the AVX2 ones 4 x 8 (so their count is doubled
for 64 elements). A figure, not a test: it depends on the compiler. But a kernel not found is
an error (exit status 1): its pattern no longer matches the template's parameters, as from
stop 78 to stop 80, when CI printed "(not in binary)" for the float kernels.

  bench/loop_instructions.py BUILD_DIR/bench/convert_bench [-v]
"""
import re
import subprocess
import sys

# name, path, elements per iteration, a regular expression on the demangled symbol (the loops
# through the caches: encode_array's NonTemporal argument false)
KERNELS = [
    ("float -> e4m3 nearest-even", "avx512", 64,
     r"avx512::encode_array<minifloat::binary_format<4, 3, 7, \(minifloat::specials\)1, true, "
     r"true>, \(minifloat::detail::rounding_rule\)0, \(minifloat::overflow\)0, "
     r"\(minifloat::detail::step2_variant\)\d, false, false, float const\*, "
     r"minifloat::detail::no_random_bits, "
     r"[a-z_:]*no_tally>"),
    ("float -> e4m3 saturating", "avx512", 64,
     r"avx512::encode_array<minifloat::binary_format<4, 3, 7, \(minifloat::specials\)1, true, "
     r"true>, \(minifloat::detail::rounding_rule\)0, \(minifloat::overflow\)1, "
     r"\(minifloat::detail::step2_variant\)\d, false, false, float const\*, "
     r"minifloat::detail::no_random_bits, "
     r"[a-z_:]*no_tally>"),
    ("float -> e5m2 nearest-even", "avx512", 64,
     r"avx512::encode_array<minifloat::binary_format<5, 2, 15, \(minifloat::specials\)0, true, "
     r"true>, \(minifloat::detail::rounding_rule\)0, \(minifloat::overflow\)0, "
     r"\(minifloat::detail::step2_variant\)\d, false, false, float const\*, "
     r"minifloat::detail::no_random_bits, "
     r"[a-z_:]*no_tally>"),
    ("float -> e5m2 saturating", "avx512", 64,
     r"avx512::encode_array<minifloat::binary_format<5, 2, 15, \(minifloat::specials\)0, true, "
     r"true>, \(minifloat::detail::rounding_rule\)0, \(minifloat::overflow\)1, "
     r"\(minifloat::detail::step2_variant\)\d, false, false, float const\*, "
     r"minifloat::detail::no_random_bits, "
     r"[a-z_:]*no_tally>"),
    ("double -> e4m3 nearest-even", "avx512", 64,
     r"avx512::encode_doubles_by_addition<minifloat::binary_format<4, 3, 7, "
     r"\(minifloat::specials\)1, true, true>, \(minifloat::detail::rounding_rule\)0, "
     r"\(minifloat::overflow\)0, "),
    ("float -> e4m3 nearest-even", "avx2", 32,
     r"avx2::encode_array<minifloat::binary_format<4, 3, 7, \(minifloat::specials\)1, true, "
     r"true>, \(minifloat::detail::rounding_rule\)0, \(minifloat::overflow\)0, "
     r"\(minifloat::detail::step2_variant\)3, false, false, float const\*, "
     r"minifloat::detail::no_random_bits, "
     r"[a-z_:]*no_tally>"),
    ("float -> e4m3 saturating", "avx2", 32,
     r"avx2::encode_array<minifloat::binary_format<4, 3, 7, \(minifloat::specials\)1, true, "
     r"true>, \(minifloat::detail::rounding_rule\)0, \(minifloat::overflow\)1, "
     r"\(minifloat::detail::step2_variant\)3, false, false, float const\*, "
     r"minifloat::detail::no_random_bits, "
     r"[a-z_:]*no_tally>"),
]

JUMP = re.compile(r"^\s*([0-9a-f]+):\s+(j\w+)\s+([0-9a-f]+)")
LINE = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)")


def symbols(binary):
    out = subprocess.run(["nm", "-C", "-S", "--defined-only", binary], check=True,
                         capture_output=True, text=True).stdout
    for line in out.splitlines():
        parts = line.split(" ", 3)
        if len(parts) == 4 and parts[2] in "tTwW":
            yield int(parts[0], 16), int(parts[1], 16), parts[3]


def vector_count(body):
    return sum(1 for t in body if re.search(r"[xyz]mm|^k\w+", t))


def largest_loop(binary, start, size):
    out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", f"--start-address={start}",
                          f"--stop-address={start + size}", binary], check=True,
                         capture_output=True, text=True).stdout
    instructions = []
    for line in out.splitlines():
        m = LINE.match(line)
        if m and m.group(2) not in ("file", "Disassembly"):
            instructions.append((int(m.group(1), 16), line.split("\t", 1)[-1].strip()))
    best = []
    for index, (address, text) in enumerate(instructions):
        m = JUMP.match(f"{address:x}: {text}")
        # (A conditional jump: an unconditional one back is a tail block re-entering setup.)
        if m and m.group(2) != "jmp" and int(m.group(3), 16) < address:
            target = int(m.group(3), 16)
            body = [t for a, t in instructions[:index + 1] if a >= target]
            # A loop, not a jump back into straight-line code; the one with most vector work.
            if not any(t.startswith("ret") for t in body) and vector_count(body) > vector_count(
                    best):
                best = body
    return best


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    binary = sys.argv[1]
    verbose = "-v" in sys.argv[2:]
    table = list(symbols(binary))
    print(f"{'kernel':34} {'path':7} {'per 64 elements':>16} {'vector':>7}")
    missing = 0
    for name, path, elements, pattern in KERNELS:
        regex = re.compile(pattern)
        found = [(a, s) for a, s, n in table if regex.search(n)]
        if not found:
            print(f"{name:34} {path:7} {'(not in binary)':>16}")
            missing += 1
            continue
        address, size = found[0]
        body = largest_loop(binary, address, size)
        scale = 64 / elements
        print(f"{name:34} {path:7} {len(body) * scale:16.0f} {vector_count(body) * scale:7.0f}")
        if verbose:
            print("\n".join("    " + t for t in body))
    if missing:
        sys.exit(f"{missing} kernel(s) not found: update KERNELS to the kernels' template parameters")


if __name__ == "__main__":
    main()
