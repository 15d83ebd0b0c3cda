#!/usr/bin/env python3
"""Writes the fuzzers' seed corpus (tests/fuzz/corpus/{narrow,scaling}/): inputs that start
the fuzzers at the edges docs/spec.md cares about (every format's largest value, the midpoints and
the first value past it, subnormal boundaries, zeros of both signs, infinities, NaNs) and at
sizes that reach the vector kernels and their tails. Deterministic: rerunning it rewrites the
same files. Usage: tests/fuzz/make_corpus.py"""
import math
import os
import random
import struct

here = os.path.dirname(os.path.abspath(__file__))


def write(kind, name, data):
    folder = os.path.join(here, "corpus", kind)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def f32(x):
    if math.isfinite(x) and abs(x) > 3.4028234663852886e38:
        x = math.copysign(math.inf, x)  # past float's range
    return struct.pack("<f", x)


# (exponent bits, mantissa bits, bias, largest finite) of the nine formats, in narrow_fuzz's order.
formats = [(4, 3, 7, 448.0), (5, 2, 15, 57344.0), (3, 4, 3, 15.5), (2, 5, 1, 7.875),
           (4, 3, 7, 240.0), (4, 3, 8, 240.0), (5, 2, 16, 57344.0), (4, 3, 11, 30.0),
           (8, 0, 127, 2.0**127)]


def edge_values(rng):
    values = [0.0, -0.0, 1.0, -1.0, math.inf, -math.inf, math.nan, 3.4028234663852886e38,
              1.401298464324817e-45, 1.1754943508222875e-38]
    for e, m, bias, largest in formats:
        step = 2.0 ** (math.floor(math.log2(largest)) - m)
        smallest = 2.0 ** (1 - bias - m) if m else 2.0 ** -bias
        for v in (largest, largest + step / 2, largest + step, smallest, smallest / 2,
                  smallest * 1.5, 2.0 ** (1 - bias), 1.0 + 2.0 ** -(m + 1)):
            values += [v, -v]
    values += [rng.gauss(0, 100) for _ in range(40)]
    return values


rng = random.Random(2026)
sources = ["float", "double", "binary16", "bfloat16"]
for source_index, source in enumerate(sources):
    for format_index in range(9):
        header = bytes([source_index | (format_index << 2)]) + rng.randbytes(8)
        values = edge_values(rng)
        if source == "float":
            body = b"".join(f32(v) for v in values)
        elif source == "double":
            # Doubles between floats too: one rounding, not two.
            body = b"".join(struct.pack("<d", v * (1 + 2.0**-40)) for v in values)
        elif source == "binary16":
            body = b"".join(struct.pack("<e", v) if abs(v) < 65504 or not math.isfinite(v)
                            else struct.pack("<H", 0x7BFF) for v in values)
            body += rng.randbytes(64)
        else:  # bfloat16: the high half of the float
            body = b"".join(f32(v)[2:] for v in values) + rng.randbytes(64)
        write("narrow", f"{source}-{format_index}", header + body)

# scaling_fuzz: byte 0 format / MX rule / power-of-two / amax rule; rows, cols; block; margin;
# scale bits; history; floats.
shapes = [  # rows, cols, block rows, block cols
    (16, 96, 8, 32), (4, 64, 1, 32), (16, 32, 16, 1), (3, 96, 3, 3), (16, 16, 5, 1),
    (8, 8, 0, 8), (0, 32, 1, 32), (1, 1, 1, 1), (2, 48, 2, 16), (12, 40, 4, 8),
    (5, 48, 1, 16)]  # (the last: 15 NVFP4 blocks, an odd count)
scales = [1.0, 0.0, -1.0, math.nan, math.inf, 2.0**-130, 3.4028234663852886e38, 0.75, 2.0**20]
for k in range(24):
    rows, cols, block_rows, block_cols = shapes[k % len(shapes)]
    flags = (k % 8) | ((k % 3) << 3) | ((k & 1) << 5) | (((k >> 1) & 1) << 6)
    margin = [0, 3, -1, 0, 1, 200][k % 6]
    header = bytes([flags, rows, cols, block_rows, block_cols, margin & 0xFF])
    header += f32(scales[k % len(scales)]) + bytes([[4, 0, 1, 7][k % 4]])
    count = [300, 40, 17, 129, 1000][k % 5]
    values = [rng.gauss(0, 100) * (1e-30 if k % 7 == 3 else 1) for _ in range(count)]
    if k % 4 == 1:
        values[count // 2] = math.nan
    if k % 5 == 2:
        values[0] = math.inf
    write("scaling", f"seed-{k:02d}", header + b"".join(f32(v) for v in values))

# text_fuzz: byte 0 the format (mod 9), then the text.
texts = ["448", "464", "464.00000000000000000000000001", "480", "-1.5e-3", "inf", "-Infinity",
         "nan", "-nan(abc_1)", "nan(", "1e400", "1e-400", "0.0009765625", "57344", "61440",
         "1.06250000000000000000001", ".5", "5.", "1e", "1e+", "-", "-.e1", "0x1p3", "1'000",
         " 1", "+1", "0.001953125", "2.5e-3", "1" + "0" * 60 + "e-58", "9" * 80,
         "0." + "0" * 40 + "1", "1.7014118346046923e38", "5.877471754111438e-39", "-0", "0e0",
         "240", "248", "7.875", "15.5", "30", "15.75", "0.25"]
for k, text in enumerate(texts):
    write("text", f"seed-{k:02d}", bytes([k % 9]) + text.encode())
