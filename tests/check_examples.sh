#!/usr/bin/env bash
# Runs a scaling example and checks its "result" lines for sanity (issue: examples are run in
# CI and their output checked): the figures must sit where the theory puts them, and the
# comparisons the examples exist to show must hold.
#   tests/check_examples.sh quantization_error BINARY SVG
#   tests/check_examples.sh dot_product_snr BINARY
#   tests/check_examples.sh mx_roundtrip BINARY
#   tests/check_examples.sh accumulation_snr BINARY SVG
set -euo pipefail
example=$1
binary=$2
case "$example" in
quantization_error)
  svg=$3
  rm -f "$svg"
  out=$("$binary" "$svg")
  echo "$out"
  # Relative noise energy at the best scale: e4m3 ~ 2^-6/12 over E[x^2] in a binade (~0.06 %),
  # e5m2 four times that, INT8 with a ~3 sigma clip ~0.008 %; best <= the amax scale's.
  echo "$out" | awk '
    $1 == "result" { amax[$2] = $4; best[$2] = $6; n++ }
    END {
      ok = n == 3
      ok = ok && best["e4m3"] > 4e-4 && best["e4m3"] < 1e-3
      ok = ok && best["e5m2"] > 1.5e-3 && best["e5m2"] < 4e-3
      ok = ok && best["int8"] > 5e-5 && best["int8"] < 1.5e-4
      for (k in best) ok = ok && best[k] <= amax[k]
      ok = ok && best["int8"] < best["e4m3"] && best["e4m3"] < best["e5m2"]
      if (!ok) { print "quantization_error: figures out of range"; exit 1 }
    }'
  grep -q "<svg" "$svg" && [ "$(grep -c "<polyline" "$svg")" = 3 ] ||
    { echo "quantization_error: $svg is not a plot of three curves"; exit 1; }
  ;;
dot_product_snr)
  out=$("$binary")
  echo "$out"
  echo "$out" | awk '
    $1 == "result" { median[$3 "/" $5 "/" $7] = $9; n++ }
    END {
      ok = n == 17
      # One tile is the whole vector at length 128: the same quantization, the same figures.
      ok = ok && median["128/0/tensor"] == median["128/0/1x128"]
      # Scaling lifts the unscaled vectors out of the subnormals.
      split("128 1024 4096", lengths, " ")
      for (i in lengths) {
        l = lengths[i]
        ok = ok && median[l "/0/tensor"] > median[l "/0/none"] + 3
        ok = ok && median[l "/0/tensor"] > 20 && median[l "/0/tensor"] < 40
      }
      # Correlated vectors have a large dot product: far higher SNR than independent ones.
      ok = ok && median["4096/0.99/tensor"] > median["4096/0/tensor"] + 15
      ok = ok && median["4096/0.99/1x128"] > median["4096/0/1x128"] + 15
      if (!ok) { print "dot_product_snr: figures out of range"; exit 1 }
    }'
  ;;
mx_roundtrip)
  out=$("$binary")
  echo "$out"
  echo "$out" | awk '
    $1 == "result" { snr[$2 "/" $3] = $4; clip[$2 "/" $3] = $6; bits[$2] = $7; n++ }
    END {
      ok = n == 9
      # The floor rule clips about 41 % of MXFP4 blocks (log-uniform estimate); ceil never
      # clips; even clips fewer than floor, nearest more.
      ok = ok && clip["mxfp4/floor"] > 33 && clip["mxfp4/floor"] < 50
      ok = ok && clip["mxfp4/ceil"] == 0 && clip["mxfp6/ceil"] == 0 && clip["mxfp8/ceil"] == 0
      ok = ok && clip["mxfp4/even"] < clip["mxfp4/floor"]
      ok = ok && clip["mxfp4/nearest"] > clip["mxfp4/floor"]
      # Two more mantissa bits gain about 12 dB; NVFP4 (16-element blocks, a fractional scale)
      # beats every MXFP4 rule.
      ok = ok && snr["mxfp6/floor"] > snr["mxfp4/floor"] + 9
      for (r in snr) if (r ~ /^mxfp4/) ok = ok && snr["nvfp4/te"] > snr[r] + 3
      ok = ok && bits["mxfp4"] == 4.25 && bits["mxfp6"] == 6.25 && bits["mxfp8"] == 8.25
      ok = ok && bits["nvfp4"] == 4.5
      if (!ok) { print "mx_roundtrip: figures out of range"; exit 1 }
    }'
  ;;
accumulation_snr)
  svg=$3
  rm -f "$svg"
  out=$("$binary" "$svg")
  echo "$out"
  echo "$out" | awk '
    $1 == "result" {
      key = $3 "/" $5 "/" $7
      median[key] = $9; below[key] = $13; acc[key] = $15; n++
    }
    END {
      ok = n == 36
      # Independent vectors: quantization dominates (about 28 dB, as dot_product_snr finds), and
      # at length 128 the 14-bit accumulator changes nothing visible.
      ok = ok && median["128/0/fp64"] > 20 && median["128/0/fp64"] < 40
      ok = ok && median["128/0/14-bit"] > median["128/0/fp64"] - 0.5
      # Correlated vectors at 4096: the sum grows, the accumulator drops its low bits (the
      # accumulator alone errs by about 2 %, DeepSeek-V3: "nearly 2 %") and costs over 10 dB;
      # promoting every 128 elements brings it back within 3 dB of float64, every 512 halfway.
      split("0.5 0.9 0.99", rhos, " ")
      for (i in rhos) {
        k = "4096/" rhos[i]
        ok = ok && median[k "/14-bit"] < median[k "/fp64"] - 10
        ok = ok && median[k "/14b+p128"] > median[k "/fp64"] - 3
        ok = ok && median[k "/14b+p512"] > median[k "/14-bit"] + 5
        ok = ok && median[k "/14b+p128"] > median[k "/14b+p512"]
        ok = ok && median[k "/14b+blk128"] > median[k "/fp64"] - 3
        ok = ok && acc[k "/14-bit"] > 0.01 && acc[k "/14-bit"] < 0.2
        ok = ok && acc[k "/14b+p128"] < 0.002 && below[k "/fp64"] == 0
      }
      if (!ok) { print "accumulation_snr: figures out of range"; exit 1 }
    }'
  grep -q "<svg" "$svg" && [ "$(grep -c "<polyline" "$svg")" = 6 ] ||
    { echo "accumulation_snr: $svg is not a plot of six curves"; exit 1; }
  ;;
*)
  echo "unknown example $example"
  exit 2
  ;;
esac
