// The MX formats (docs/spec.md §7): element edge cases, packed layouts against byte vectors
// written from the layouts' definitions, MX blocks of every element type under every scale rule
// against definitions computed in double here, ggml's block order, and NVFP4's recipe.
// (Every float into each element type in every rounding: exhaustive_test; CUDA's conversions:
// nvidia_mx_test; bad arguments: bad_input_test.)
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <random>
#include <vector>

#include <minifloat/minifloat.hpp>

#include "formats_under_test.hpp"
#include "ieee.hpp"
#include "reference.hpp"
#include "supported_paths.hpp"

namespace {

using minifloat::e2m1;
using minifloat::e2m3;
using minifloat::e3m2;
using minifloat::e4m3;
using minifloat::e5m2;
using minifloat::e8m0;
using minifloat::mx_scale_rule;
using minifloat::ue4m3;

// The index of buffer's first element on a 64-byte boundary (the decoders' tests place their
// results at every element offset from one).
template <class T>
std::size_t first_on_line(const std::vector<T>& buffer) {
  return (64 - reinterpret_cast<std::uintptr_t>(buffer.data()) % 64) % 64 / sizeof(T);
}

// The E2M1 midpoints and their float neighbours, nearest-even (docs/spec.md §7): down to the
// even code at 0.25, 1.25, 2.5 and 5; up at 0.75, 1.75 and 3.5 (ROCm/aiter #3992 rounded all up).
TEST(MxElements, E2M1MidpointsAndTheirNeighbours) {
  const reference::narrower ref(reference::e2m1);
  const float midpoints[] = {0.25f, 0.75f, 1.25f, 1.75f, 2.5f, 3.5f, 5.0f};
  const unsigned expected_at_midpoint[] = {0x0, 0x2, 0x2, 0x4, 0x4, 0x6, 0x6};
  for (std::size_t i = 0; i < 7; ++i) {
    for (float sign : {1.0f, -1.0f}) {
      const float m = sign * midpoints[i];
      const unsigned negative = sign < 0 ? 0x8U : 0U;
      EXPECT_EQ(e2m1(m).bits(), expected_at_midpoint[i] | negative) << m;
      for (float neighbour : {std::nextafter(m, 0.0f), std::nextafter(m, 2 * m)}) {
        EXPECT_EQ(e2m1(neighbour).bits(),
                  ref.round(neighbour, reference::mode::nearest_even, false))
            << neighbour;
      }
    }
  }
  // Past the largest: saturation, whatever the mode; NaN gives +max; -0 stays -0.
  EXPECT_EQ(e2m1(7.0f).bits(), 0x7);
  EXPECT_EQ(e2m1(-1e30f).bits(), 0xF);
  EXPECT_EQ(e2m1(-ieee::positive_infinity<float>()).bits(), 0xF);
  EXPECT_EQ(e2m1(ieee::quiet_nan<float>()).bits(), 0x7);
  EXPECT_EQ(e2m1(-ieee::quiet_nan<float>()).bits(), 0x7);
  EXPECT_EQ(e2m1(-0.0f).bits(), 0x8);
  EXPECT_EQ(e2m1(-0.2f).bits(), 0x8);
  EXPECT_EQ(e3m2(26.0f).bits(), 0x1E); // the tie between 24 and 28 goes to the even code (24)
  EXPECT_EQ(e2m3(7.75f).bits(), 0x1F); // the carry past 7.5 saturates
  static_assert(!std::numeric_limits<e2m1>::has_quiet_NaN, "no NaN");
  static_assert(!std::numeric_limits<e2m1>::has_infinity, "no infinity");
  EXPECT_EQ(static_cast<float>(std::numeric_limits<e2m1>::max()), 6.0f);
  EXPECT_EQ(static_cast<float>(std::numeric_limits<e2m3>::max()), 7.5f);
  EXPECT_EQ(static_cast<float>(std::numeric_limits<e3m2>::max()), 28.0f);
  EXPECT_EQ(static_cast<float>(std::numeric_limits<e3m2>::denorm_min()), 0.0625f);
  EXPECT_EQ(static_cast<float>(std::numeric_limits<e2m3>::denorm_min()), 0.125f);
}

// ue4m3, the NVFP4 scale: E4M3 without the sign (docs/spec.md §7).
TEST(MxElements, Ue4m3) {
  EXPECT_EQ(ue4m3(448.0f).bits(), 0x7E);
  EXPECT_EQ(ue4m3(464.0f).bits(), 0x7E); // the tie goes to the even 448
  EXPECT_EQ(ue4m3(480.0f).bits(), 0x7F); // NaN: non-saturating
  EXPECT_EQ(minifloat::saturate_cast<ue4m3>(1e9f).bits(), 0x7E);
  EXPECT_EQ(ue4m3(-1.0f).bits(), 0x7F);
  EXPECT_EQ(ue4m3(-0.0f).bits(), 0x00);
  EXPECT_EQ(ue4m3(ieee::quiet_nan<float>()).bits(), 0x7F);
  EXPECT_EQ(ue4m3::from_bits(0xFE).bits(), 0x7E); // the sign bit is ignored on read (cuBLAS)
  EXPECT_EQ(static_cast<float>(ue4m3::from_bits(0x01)), 0x1p-9f);
  EXPECT_TRUE(minifloat::isnan(ue4m3::from_bits(0x7F)));
}

// e8m0 nearest: ties go up (docs/spec.md §7), as APFloat, PyTorch, ml_dtypes and ONNX.
TEST(MxElements, E8M0NearestTiesGoUp) {
  EXPECT_EQ(e8m0(3.0f).bits(), 127 + 2);
  EXPECT_EQ(e8m0(1.5f).bits(), 127 + 1);
  EXPECT_EQ(e8m0(0.75f).bits(), 127);
  EXPECT_EQ(e8m0(std::nextafter(3.0f, 0.0f)).bits(), 127 + 1);
  EXPECT_EQ(e8m0(0x1.8p127f).bits(), 0xFF);
  EXPECT_EQ(minifloat::saturate_cast<e8m0>(0x1.8p127f).bits(), 0xFE);
  EXPECT_EQ(e8m0(0x1.8p-127f).bits(), 0x01); // 1.5 * 2^-127, a float subnormal
  using namespace minifloat::literals;
  static_assert((3.0_e8m0).bits() == 129, "literals round as the conversions do");
}

// ---------------------------------------------------------------------------------------------
// Packed layouts, written out bit by bit here.

// Element i's code at bits [width * i, width * (i + 1)) of a little-endian bit stream.
std::vector<std::uint8_t> bit_stream(const std::vector<unsigned>& codes, int width) {
  std::vector<std::uint8_t> bytes(codes.size() * static_cast<std::size_t>(width) / 8);
  for (std::size_t i = 0; i < codes.size(); ++i) {
    for (int b = 0; b < width; ++b) {
      const std::size_t bit = i * static_cast<std::size_t>(width) + static_cast<std::size_t>(b);
      if (((codes[i] >> b) & 1U) != 0) {
        bytes[bit / 8] = static_cast<std::uint8_t>(bytes[bit / 8] | (1U << (bit % 8)));
      }
    }
  }
  return bytes;
}

template <class T>
void check_layout(const std::vector<unsigned>& codes, const std::vector<std::uint8_t>& expected) {
  std::vector<T> values;
  for (unsigned c : codes) {
    values.push_back(T::from_bits(static_cast<std::uint8_t>(c)));
  }
  std::vector<std::uint8_t> packed(minifloat::packed_bytes<T>(codes.size()), 0xEE);
  minifloat::pack(values.data(), values.size(), packed.data());
  EXPECT_EQ(packed, expected);
  std::vector<T> back(values.size(), T::from_bits(0x1));
  minifloat::unpack(packed.data(), back.size(), back.data());
  for (std::size_t i = 0; i < values.size(); ++i) {
    EXPECT_EQ(back[i].bits(), values[i].bits()) << i;
  }
}

TEST(Packed, Fp4TwoPerByteLowNibbleFirst) {
  // PyTorch float4_e2m1fn_x2 / ONNX / __nv_fp4x2: {1.0, -6.0} is 0xF2; the codes 0 .. 15 in
  // order are 0x10, 0x32, ..., 0xFE.
  check_layout<e2m1>({e2m1(1.0f).bits(), e2m1(-6.0f).bits()}, {0xF2});
  std::vector<unsigned> codes;
  for (unsigned c = 0; c < 16; ++c) {
    codes.push_back(c);
  }
  check_layout<e2m1>(codes, {0x10, 0x32, 0x54, 0x76, 0x98, 0xBA, 0xDC, 0xFE});
  EXPECT_EQ(bit_stream(codes, 4),
            (std::vector<std::uint8_t>{0x10, 0x32, 0x54, 0x76, 0x98, 0xBA, 0xDC, 0xFE}));
}

TEST(Packed, Fp4PackingOnEveryPathAtEveryLengthAndOffset) {
  // Each path packs FP4 with its own instructions, its main loop 32 or 64 codes at a time: every
  // even length up to 300 at offsets 0 to 3 in both arrays, against the bit stream written out
  // above, and nothing written past the packed bytes.
  std::mt19937 rng(5);
  std::vector<unsigned> all_codes(300 + 3);
  for (unsigned& c : all_codes) {
    c = rng() % 16;
  }
  std::vector<e2m1> all_values;
  for (unsigned c : all_codes) {
    all_values.push_back(e2m1::from_bits(static_cast<std::uint8_t>(c)));
  }
  for (minifloat::simd_path path : supported_paths()) {
    const minifloat::scoped_path chosen(path);
    for (std::size_t offset = 0; offset < 4; ++offset) {
      for (std::size_t n = 0; n <= 300; n += 2) {
        const std::vector<unsigned> codes(all_codes.begin() + static_cast<std::ptrdiff_t>(offset),
                                          all_codes.begin() +
                                              static_cast<std::ptrdiff_t>(offset + n));
        std::vector<std::uint8_t> expected = bit_stream(codes, 4);
        std::vector<std::uint8_t> packed(offset + n / 2 + 1, 0xEE);
        minifloat::pack(all_values.data() + offset, n, packed.data() + offset);
        expected.insert(expected.begin(), offset, 0xEE);
        expected.push_back(0xEE);
        ASSERT_EQ(packed, expected)
            << minifloat::to_string(path) << " n " << n << " offset " << offset;
      }
    }
  }
}

TEST(Packed, Fp6FourPerThreeBytesLittleEndian) {
  // ONNX: {1, 2, 3, 63} is 0b111111'000011'000010'000001 = 0xFC3081, bytes 81 30 FC.
  check_layout<e2m3>({1, 2, 3, 63}, {0x81, 0x30, 0xFC});
  std::mt19937 rng(3);
  std::vector<unsigned> codes(64);
  for (unsigned& c : codes) {
    c = rng() % 64;
  }
  check_layout<e2m3>(codes, bit_stream(codes, 6));
  check_layout<e3m2>(codes, bit_stream(codes, 6));
}

// convert_to_packed / convert_from_packed: pack() of the scalar conversions, on every path.
template <class T, class From>
void check_packed_conversions(const std::vector<From>& src) {
  const std::size_t n = src.size();
  std::vector<T> scalar(n);
  for (std::size_t i = 0; i < n; ++i) {
    scalar[i] = minifloat::convert<T>(src[i]);
  }
  std::vector<std::uint8_t> expected(minifloat::packed_bytes<T>(n));
  minifloat::pack(scalar.data(), n, expected.data());
  for (minifloat::simd_path path : supported_paths()) {
    const minifloat::scoped_path chosen(path);
    std::vector<std::uint8_t> packed(expected.size());
    minifloat::convert_to_packed<T>(src.data(), n, packed.data());
    EXPECT_EQ(packed, expected) << minifloat::to_string(path);
    std::vector<float> widened(n);
    minifloat::convert_from_packed<T>(packed.data(), n, widened.data());
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(ieee::to_bits(widened[i]), ieee::to_bits(static_cast<float>(scalar[i]))) << i;
    }
  }
}

TEST(Packed, ConversionsEqualThePackedScalarCodesOnEveryPath) {
  std::mt19937 rng(11);
  std::normal_distribution<float> normal(0.0f, 3.0f);
  std::vector<float> floats(2048 + 4); // more than one piece, and a partial one
  for (float& x : floats) {
    x = normal(rng);
  }
  floats[5] = ieee::quiet_nan<float>();
  floats[6] = -ieee::positive_infinity<float>();
  std::vector<minifloat::bfloat16_bits> halves;
  for (float x : floats) {
    halves.push_back(minifloat::convert<minifloat::bfloat16_bits>(x));
  }
  check_packed_conversions<e2m1>(floats);
  check_packed_conversions<e2m3>(floats);
  check_packed_conversions<e3m2>(floats);
  check_packed_conversions<e2m1>(halves);
  check_packed_conversions<e3m2>(halves);
}

// ---------------------------------------------------------------------------------------------
// MX blocks.

// The scale exponent k of docs/spec.md §7 for amax > 0, computed in double (every float and
// every max(T) * 2^j is exact there): floor, ceil, even and nearest by their definitions.
int scale_exponent_by_definition(double amax, double max, int mantissa_bits, mx_scale_rule rule) {
  const int emax = std::ilogb(max);
  switch (rule) {
  case mx_scale_rule::floor:
    return std::ilogb(amax) - emax;
  case mx_scale_rule::ceil: {
    int k = std::ilogb(amax) - emax - 1;
    while (amax / std::ldexp(1.0, k) > max) {
      ++k;
    }
    return k;
  }
  case mx_scale_rule::even: {
    // amax rounded to mantissa_bits (ties away from zero), then floor.
    const int e = std::ilogb(amax);
    const double unit = std::ldexp(1.0, e - mantissa_bits);
    const double rounded = std::floor(amax / unit + 0.5) * unit;
    return std::ilogb(rounded) - emax;
  }
  case mx_scale_rule::nearest: {
    // 2^k nearest to amax / max in the sense of docs/spec.md §7: with 2^j <= amax / max <
    // 2^(j + 1), up from 1.5 * 2^j on.
    const double ratio = amax / max;
    const int j = std::ilogb(ratio);
    return ratio >= 1.5 * std::ldexp(1.0, j) ? j + 1 : j;
  }
  }
  return 0;
}

template <class T>
void check_scale_rules() {
  const double max = static_cast<double>(std::numeric_limits<T>::max());
  constexpr int mantissa_bits = minifloat::format_info<typename T::format>::mantissa_bits;
  std::vector<float> amaxes;
  std::mt19937 rng(5);
  for (int i = 0; i < 20000; ++i) {
    amaxes.push_back(std::ldexp(1.0f + static_cast<float>(rng() % (1U << 23)) * 0x1p-23f,
                                static_cast<int>(rng() % 200) - 100));
  }
  for (int j = -20; j <= 20; ++j) { // the boundaries: max * 2^j, 1.5 * 2^j, and their neighbours
    for (double v : {max, 1.5, 1.0, 1.75, 1.875, 1.9375}) {
      const auto x = static_cast<float>(std::ldexp(v, j));
      amaxes.insert(amaxes.end(), {x, std::nextafter(x, 0.0f), std::nextafter(x, FLT_MAX)});
      const auto y = static_cast<float>(std::ldexp(v * max, j) / 2);
      amaxes.insert(amaxes.end(), {y, std::nextafter(y, 0.0f), std::nextafter(y, FLT_MAX)});
    }
  }
  for (mx_scale_rule rule :
       {mx_scale_rule::floor, mx_scale_rule::ceil, mx_scale_rule::even, mx_scale_rule::nearest}) {
    for (float amax : amaxes) {
      const int k = scale_exponent_by_definition(amax, max, mantissa_bits, rule);
      const int clamped = k < -127 ? -127 : k > 127 ? 127 : k;
      ASSERT_EQ(minifloat::compute_mx_scale<T>(amax, rule).bits(), clamped + 127)
          << amax << " rule " << static_cast<int>(rule);
    }
  }
  for (mx_scale_rule rule :
       {mx_scale_rule::floor, mx_scale_rule::ceil, mx_scale_rule::even, mx_scale_rule::nearest}) {
    EXPECT_EQ(minifloat::compute_mx_scale<T>(0.0f, rule).bits(), 0x00);
    EXPECT_EQ(minifloat::compute_mx_scale<T>(ieee::quiet_nan<float>(), rule).bits(), 0xFF);
    EXPECT_EQ(minifloat::compute_mx_scale<T>(ieee::positive_infinity<float>(), rule).bits(), 0xFF);
    EXPECT_EQ(minifloat::compute_mx_scale<T>(FLT_MAX, rule).bits() <= 0xFE, true);
  }
}

TEST(Mx, ScaleRulesOfEveryElementType) {
  check_scale_rules<e2m1>();
  check_scale_rules<e2m3>();
  check_scale_rules<e3m2>();
  check_scale_rules<e4m3>();
  check_scale_rules<e5m2>();
  // The floor rule clips the block maximum: an e2m1 block whose amax is 7 stores 6.
  EXPECT_EQ(minifloat::compute_mx_scale<e2m1>(7.0f).bits(), 127);
  EXPECT_EQ(minifloat::compute_mx_scale<e2m1>(7.0f, mx_scale_rule::ceil).bits(), 128);
  EXPECT_EQ(minifloat::compute_mx_scale<e2m1>(7.0f, mx_scale_rule::even).bits(), 128);
  EXPECT_EQ(minifloat::compute_mx_scale<e2m1>(6.5f, mx_scale_rule::even).bits(), 127);
}

// quantize_mx's branch-free scale (detail::mx_scale_code) against compute_mx_scale (checked
// against the definition above) for every exponent field and sign, each with the significands
// whose top 10 bits take every value and whose low 13 bits are all zeros, all ones or just the
// last: every rule's threshold (M, 1.5 M, 0.75 M and the rounding carry of a significand of at
// most 8 bits) and its neighbours are among them.
// Then the same amaxes through each path's kernel (lanes.inc mx_scale_codes, quantize_mx's),
// 64 at a time as quantize_mx calls it: its codes against mx_scale_code's (checked above; bits
// in, no float, which clang-19's -Ofast flushed on its way from a subnormal to -0), its factors
// 2^-k (1 for code 0xFF) and its flag for a code of 254.
template <class T, mx_scale_rule Rule>
void check_branch_free_scale() {
  std::vector<std::uint32_t> all;
  for (std::uint32_t high = 0; high < (1U << 19); ++high) { // sign, exponent, top 10 bits
    for (std::uint32_t low : {0U, 1U, 0x1FFFU}) {
      const std::uint32_t bits = high << 13 | low;
      const float amax = minifloat::detail::bit_cast<float>(bits);
      ASSERT_EQ((minifloat::detail::mx_scale_code<T, Rule>(bits)),
                minifloat::compute_mx_scale<T>(amax, Rule).bits())
          << std::hex << bits << " rule " << static_cast<int>(Rule);
      all.push_back(bits);
    }
  }
  const auto thresholds = minifloat::detail::mx_thresholds<T>(Rule);
  for (minifloat::simd_path path : supported_paths()) {
    for (std::size_t first = 0; first < all.size(); first += 64) {
      std::uint8_t codes[64];
      std::uint32_t factors[64];
      bool subnormal = false;
      minifloat::detail::with_kernels(path, [&](auto kernels) {
        subnormal = decltype(kernels)::mx_scale_codes(all.data() + first, 64, thresholds.low,
                                                      thresholds.above_once, thresholds.above_twice,
                                                      codes, factors);
      });
      bool expected_subnormal = false;
      for (std::size_t b = 0; b < 64; ++b) {
        const unsigned code = minifloat::detail::mx_scale_code<T, Rule>(all[first + b]);
        ASSERT_EQ(codes[b], code) << minifloat::to_string(path) << std::hex << " "
                                  << all[first + b];
        ASSERT_EQ(factors[b], code == 0xFF ? 0x3F800000U : (254U - code) << 23)
            << minifloat::to_string(path) << std::hex << " " << all[first + b];
        expected_subnormal = expected_subnormal || code == 254;
      }
      ASSERT_EQ(subnormal, expected_subnormal) << minifloat::to_string(path) << " " << first;
    }
  }
}
template <class T>
void check_branch_free_scales() {
  check_branch_free_scale<T, mx_scale_rule::floor>();
  check_branch_free_scale<T, mx_scale_rule::ceil>();
  check_branch_free_scale<T, mx_scale_rule::even>();
  check_branch_free_scale<T, mx_scale_rule::nearest>();
}

TEST(Mx, BranchFreeScaleAgreesWithComputeMxScale) {
  check_branch_free_scales<e2m1>();
  check_branch_free_scales<e2m3>();
  check_branch_free_scales<e3m2>();
  check_branch_free_scales<e4m3>();
  check_branch_free_scales<e5m2>();
  check_branch_free_scales<minifloat::e2m5>();
  check_branch_free_scales<minifloat::e4m3fnuz>();
}

// 100 MX blocks of N(0, 1) values, block b scaled by 2^(6 (b mod 20) - 60), with a zero block
// (block 1), a NaN block and an infinite block (blocks nan_block and infinite_block).
std::vector<float> mx_test_blocks(unsigned seed, std::size_t nan_block,
                                  std::size_t infinite_block) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<float> x(32 * 100);
  for (std::size_t i = 0; i < x.size(); ++i) {
    x[i] = normal(rng) * std::ldexp(1.0f, static_cast<int>(i / 32 % 20) * 6 - 60);
  }
  std::fill(x.begin() + 32, x.begin() + 64, 0.0f);
  x[32 * nan_block + 7] = ieee::quiet_nan<float>();
  x[32 * infinite_block + 31] = -ieee::positive_infinity<float>();
  return x;
}

// quantize_mx / dequantize_mx for element type T against the definition: elements are the
// reference's saturating nearest-even rounding of the exact quotient x / 2^k, and decoding is
// the exact product rounded once to float. 100 blocks: a whole piece of quantize_mx's loop and
// part of one, in groups of a vector's width and alone.
template <class T>
void check_blocks_of(const std::vector<float>& x, mx_scale_rule rule,
                     std::vector<e8m0>* scales_out) {
  const reference::narrower ref(under_test::format_of<T>::get());
  const std::size_t n = x.size();
  std::vector<T> q(n);
  std::vector<e8m0> scales(n / 32);
  minifloat::quantize_mx(x.data(), n, q.data(), scales.data(), rule);
  for (minifloat::simd_path path : supported_paths()) {
    const minifloat::scoped_path chosen(path);
    std::vector<T> path_q(n);
    std::vector<e8m0> path_scales(n / 32);
    minifloat::quantize_mx(x.data(), n, path_q.data(), path_scales.data(), rule);
    ASSERT_EQ(std::memcmp(path_q.data(), q.data(), n), 0) << minifloat::to_string(path);
    ASSERT_EQ(std::memcmp(path_scales.data(), scales.data(), n / 32), 0)
        << minifloat::to_string(path);
  }
  *scales_out = scales;
  std::vector<float> back(n);
  std::vector<minifloat::bfloat16_bits> back16(n);
  minifloat::dequantize_mx(q.data(), n, scales.data(), back.data());
  minifloat::dequantize_mx(q.data(), n, scales.data(), back16.data());
  for (std::size_t b = 0; b < n / 32; ++b) {
    const float amax = minifloat::amax(x.data() + 32 * b, 32);
    ASSERT_EQ(scales[b].bits(), minifloat::compute_mx_scale<T>(amax, rule).bits());
    if (scales[b].bits() == 0xFF) {
      for (std::size_t j = 32 * b; j < 32 * b + 32; ++j) {
        EXPECT_TRUE(ieee::isnan(back[j])) << j;
      }
      continue;
    }
    const int k = static_cast<int>(scales[b].bits()) - 127;
    for (std::size_t j = 32 * b; j < 32 * b + 32; ++j) {
      const double quotient = std::ldexp(static_cast<double>(x[j]), -k);
      ASSERT_EQ(q[j].bits(), ref.round(quotient, reference::mode::nearest_even, true)) << j;
      const double product = std::ldexp(reference::decode(ref.fmt(), q[j].bits()), k);
      ASSERT_EQ(ieee::to_bits(back[j]), ieee::to_bits(ieee::to_float(product))) << j;
      ASSERT_EQ(back16[j].bits, minifloat::convert<minifloat::bfloat16_bits>(product).bits) << j;
    }
  }
}
template <class T>
void check_blocks(mx_scale_rule rule) {
  std::vector<e8m0> scales;
  check_blocks_of<T>(mx_test_blocks(9, 2, 3), rule, &scales);
  ASSERT_EQ(scales.size(), 100U);
  EXPECT_EQ(scales[1].bits(), 0x00);
  EXPECT_EQ(scales[2].bits(), 0xFF);
  EXPECT_EQ(scales[3].bits(), 0xFF);
}

TEST(Mx, BlocksOfEveryElementTypeAndRule) {
  for (mx_scale_rule rule :
       {mx_scale_rule::floor, mx_scale_rule::ceil, mx_scale_rule::even, mx_scale_rule::nearest}) {
    check_blocks<e2m1>(rule);
    check_blocks<e2m3>(rule);
    check_blocks<e3m2>(rule);
    check_blocks<e4m3>(rule);
    check_blocks<e5m2>(rule);
  }
}

// quantize_mx_packed<e2m1> (MXFP4) and quantize_mxfp4_ggml, which the one-pass kernel packs as
// it goes on AVX-512: on every path, for every scale rule, quantize_mx's codes packed in each
// layout (checked against the reference by check_blocks_of) and its scales, for the blocks of x.
void expect_packed_fp4_and_ggml_blocks_equal_the_packed_codes(const std::vector<float>& x) {
  const std::size_t n = x.size();
  for (mx_scale_rule rule :
       {mx_scale_rule::floor, mx_scale_rule::ceil, mx_scale_rule::even, mx_scale_rule::nearest}) {
    std::vector<e2m1> q(n);
    std::vector<e8m0> scales(n / 32);
    std::vector<std::uint8_t> expected(n / 2);
    {
      const minifloat::scoped_path portable(minifloat::simd_path::portable);
      minifloat::quantize_mx(x.data(), n, q.data(), scales.data(), rule);
      minifloat::pack(q.data(), n, expected.data());
    }
    for (minifloat::simd_path path : supported_paths()) {
      const minifloat::scoped_path chosen(path);
      std::vector<std::uint8_t> packed(n / 2);
      std::vector<e8m0> packed_scales(n / 32);
      minifloat::quantize_mx_packed<e2m1>(x.data(), n, packed.data(), packed_scales.data(), rule);
      ASSERT_EQ(packed, expected) << minifloat::to_string(path);
      ASSERT_EQ(std::memcmp(packed_scales.data(), scales.data(), n / 32), 0)
          << minifloat::to_string(path);
      std::vector<minifloat::block_mxfp4> blocks(n / 32);
      minifloat::quantize_mxfp4_ggml(x.data(), n, blocks.data(), rule);
      for (std::size_t b = 0; b < n / 32; ++b) {
        ASSERT_EQ(blocks[b].scale, scales[b].bits()) << minifloat::to_string(path) << " " << b;
        for (std::size_t j = 0; j < 16; ++j) {
          const unsigned byte = static_cast<unsigned>(q[32 * b + j].bits()) |
                                static_cast<unsigned>(q[32 * b + j + 16].bits()) << 4U;
          ASSERT_EQ(blocks[b].elements[j], byte) << minifloat::to_string(path) << " " << b;
        }
      }
    }
  }
}
// Over mx_test_blocks (the NaN and infinite blocks in groups of their own) in whole groups of 16
// blocks and a partial one.
TEST(Mx, PackedFp4AndGgmlBlocksEqualThePackedCodesOnEveryPath) {
  expect_packed_fp4_and_ggml_blocks_equal_the_packed_codes(mx_test_blocks(29, 40, 80));
}

// Blocks whose amax differs from its neighbours' in the low 16 bits of its significand: for
// every significand whose top 8 bits are h (0x80-0xFF), the low 16 bits 0, 1, 0x7FFF, 0xFFFE
// and 0xFFFF. Every rule's threshold on the significand lies at or next to one of these (ceil's
// at max(T)'s significand, whose low bits are 0, one more going up), so each rule's decision in
// the low bits is met, where kernels that read the amaxes' high words alone must not be used.
// Block b's amax at element (7 b) mod 32, negative for b mod 3 == 0, times 2^(b mod 9 - 4); an
// element in the block's other half with the same top bits and low bits one less (from 1 on);
// the others below 3/4 of the amax. 640 blocks and 7 more (a group of 16 in part).
std::vector<float> mx_low_bits_blocks() {
  const std::uint32_t lows[] = {0x0000, 0x0001, 0x7FFF, 0xFFFE, 0xFFFF};
  std::mt19937 rng(53);
  std::uniform_real_distribution<float> below(-0.75f, 0.75f);
  std::vector<float> x;
  for (std::size_t b = 0; b < 647; ++b) {
    const std::uint32_t high = 0x80U + static_cast<std::uint32_t>(b / 5 % 128);
    const std::uint32_t low = lows[b % 5];
    const std::uint32_t significand = high << 16 | low; // in [2^23, 2^24)
    const int exponent = static_cast<int>(b % 9) - 4;
    const auto value = [&](std::uint32_t s) {
      const float magnitude = std::ldexp(static_cast<float>(s), exponent - 23); // exact
      return b % 3 == 0 ? -magnitude : magnitude;
    };
    const float amax = value(significand);
    const std::size_t at = 7 * b % 32;
    for (std::size_t j = 0; j < 32; ++j) {
      x.push_back(j == at                           ? amax
                  : j == (at + 16) % 32 && low != 0 ? value(significand - 1)
                                                    : below(rng) * amax);
    }
  }
  return x;
}

TEST(Mx, ScaleDecisionsInTheAmaxesLowBitsOnEveryPath) {
  const std::vector<float> x = mx_low_bits_blocks();
  for (mx_scale_rule rule :
       {mx_scale_rule::floor, mx_scale_rule::ceil, mx_scale_rule::even, mx_scale_rule::nearest}) {
    SCOPED_TRACE(static_cast<int>(rule));
    std::vector<e8m0> scales;
    check_blocks_of<e2m1>(x, rule, &scales);
    check_blocks_of<e2m3>(x, rule, &scales);
    check_blocks_of<e3m2>(x, rule, &scales);
    check_blocks_of<e4m3>(x, rule, &scales);
    check_blocks_of<e5m2>(x, rule, &scales);
  }
  expect_packed_fp4_and_ggml_blocks_equal_the_packed_codes(x);
}

// Decoding at the scale codes where products leave float's normal range: 0 and 1 (subnormal
// results, exact whatever FTZ says) and 253, 254 (past FLT_MAX: +-inf), and 255 (NaN).
TEST(Mx, DecodeAtTheEdgeScaleCodes) {
  std::vector<e2m1> q(32);
  for (std::size_t j = 0; j < 32; ++j) {
    q[j] = e2m1::from_bits(static_cast<std::uint8_t>(j % 16));
  }
  for (unsigned code : {0U, 1U, 2U, 126U, 127U, 253U, 254U, 255U}) {
    const e8m0 scale = e8m0::from_bits(static_cast<std::uint8_t>(code));
    std::vector<float> x(32);
    std::vector<minifloat::bfloat16_bits> x16(32);
    minifloat::dequantize_mx(q.data(), 32, &scale, x.data());
    minifloat::dequantize_mx(q.data(), 32, &scale, x16.data());
    for (std::size_t j = 0; j < 32; ++j) {
      if (code == 255) {
        EXPECT_TRUE(ieee::isnan(x[j]));
        continue;
      }
      const double exact =
          std::ldexp(reference::decode(reference::e2m1, q[j].bits()), static_cast<int>(code) - 127);
      EXPECT_EQ(ieee::to_bits(x[j]), ieee::to_bits(ieee::to_float(exact))) << code << " " << j;
      EXPECT_EQ(x16[j].bits, minifloat::convert<minifloat::bfloat16_bits>(exact).bits);
    }
  }
  // 6 * 2^127 and 2 * 2^127 overflow; 1 * 2^127 does not; 0.5 * 2^-127 is 2^-128.
  const e8m0 top = e8m0::from_bits(254);
  float y[32];
  minifloat::dequantize_mx(q.data(), 32, &top, y);
  EXPECT_TRUE(ieee::isinf(y[7]) && ieee::isinf(y[4]) && !ieee::isinf(y[2]));
  EXPECT_TRUE(ieee::signbit(y[15]) && ieee::isinf(y[15]));
  const e8m0 bottom = e8m0::from_bits(0);
  minifloat::dequantize_mx(q.data(), 32, &bottom, y);
  EXPECT_EQ(ieee::to_bits(y[1]), 0x00200000U); // 2^-128 = 2^21 * 2^-149
}

// Packed MXFP4 decoding (its own kernels: the nibble lookup with the scale added to the
// exponent field where products stay normal, the exact steps elsewhere) on every path: every
// byte under every scale code, into float and bfloat16, against the exact products. The scale
// codes in order (one run of normal blocks between the others), then scattered (the kernels stop
// at a block that is not normal and start again after it, all along the array). ggml's blocks
// holding the same elements and scales decode to the same bits (the same kernels, in ggml's
// nibble order).
TEST(Mx, PackedFp4DecodeEveryByteUnderEveryScaleOnEveryPath) {
  const std::size_t blocks_per_scale = 16; // 16 blocks of 16 bytes: every byte once
  const std::size_t blocks = 256 * blocks_per_scale;
  std::vector<std::uint8_t> packed(blocks * 16);
  std::vector<e8m0> scales(blocks);
  for (std::size_t b = 0; b < blocks; ++b) {
    for (std::size_t j = 0; j < 16; ++j) {
      packed[16 * b + j] = static_cast<std::uint8_t>((b % blocks_per_scale) * 16 + j);
    }
  }
  const std::size_t n = blocks * 32;
  for (const bool scattered : {false, true}) {
    for (std::size_t b = 0; b < blocks; ++b) {
      // Scattered: group g of 16 blocks takes codes 167 g + r (mod 256) for its blocks r = 0 to
      // 15; 167 is odd, so every code still meets every one of the 16 byte patterns once.
      const std::size_t group = b / blocks_per_scale;
      const std::size_t r = b % blocks_per_scale;
      scales[b] =
          e8m0::from_bits(static_cast<std::uint8_t>(scattered ? (group * 167 + r) % 256 : group));
    }
    // The same elements in ggml's blocks: element j of a block in byte j % 16, the low nibble
    // for j < 16.
    std::vector<minifloat::block_mxfp4> ggml(blocks);
    for (std::size_t b = 0; b < blocks; ++b) {
      ggml[b].scale = scales[b].bits();
      for (std::size_t j = 0; j < 16; ++j) {
        const auto element = [&](std::size_t k) {
          return (packed[16 * b + k / 2] >> (4 * (k % 2))) & 0xFU;
        };
        ggml[b].elements[j] = static_cast<std::uint8_t>(element(j) | element(j + 16) << 4);
      }
    }
    std::vector<float> from_ggml(n);
    std::vector<minifloat::bfloat16_bits> from_ggml16(n);
    // The results at every element offset from a 64-byte boundary too (the AVX-512 kernel
    // stores float results by whole lines, joining vectors where dst is not aligned).
    std::vector<float> x_buffer(n + 32);
    std::vector<minifloat::bfloat16_bits> x16_buffer(n + 64);
    const std::size_t x_aligned = first_on_line(x_buffer);
    const std::size_t x16_aligned = first_on_line(x16_buffer);
    for (minifloat::simd_path path : supported_paths()) {
      for (std::size_t offset = 0; offset < 16; ++offset) {
        const minifloat::scoped_path chosen(path);
        std::fill(x_buffer.begin(), x_buffer.end(), -1.5f); // (no result has these bits)
        std::fill(x16_buffer.begin(), x16_buffer.end(), minifloat::bfloat16_bits{0xFFFF});
        float* x = x_buffer.data() + x_aligned + offset;
        minifloat::bfloat16_bits* x16 = x16_buffer.data() + x16_aligned + offset;
        minifloat::dequantize_mx_packed<e2m1>(packed.data(), n, scales.data(), x);
        minifloat::dequantize_mx_packed<e2m1>(packed.data(), n, scales.data(), x16);
        if (offset % 5 == 0) {
          minifloat::dequantize_mxfp4_ggml(ggml.data(), n, from_ggml.data());
          minifloat::dequantize_mxfp4_ggml(ggml.data(), n, from_ggml16.data());
          for (std::size_t i = 0; i < n; ++i) {
            ASSERT_EQ(ieee::to_bits(from_ggml[i]), ieee::to_bits(x[i]))
                << minifloat::to_string(path) << " ggml, element " << i;
            ASSERT_EQ(from_ggml16[i].bits, x16[i].bits)
                << minifloat::to_string(path) << " ggml, element " << i;
          }
        }
        for (std::size_t i = 0; i < x_buffer.size(); ++i) {
          const bool outside = i < x_aligned + offset || i >= x_aligned + offset + n;
          ASSERT_TRUE(!outside || x_buffer[i] == -1.5f) << "written outside, " << i;
        }
        for (std::size_t i = 0; i < x16_buffer.size(); ++i) {
          const bool outside = i < x16_aligned + offset || i >= x16_aligned + offset + n;
          ASSERT_TRUE(!outside || x16_buffer[i].bits == 0xFFFF) << "written outside, " << i;
        }
        for (std::size_t i = 0; i < n; ++i) {
          const unsigned code = (packed[i / 2] >> (4 * (i % 2))) & 0xFU;
          const unsigned scale = scales[i / 32].bits();
          if (scale == 0xFF) {
            ASSERT_TRUE(ieee::isnan(x[i]) && (x16[i].bits & 0x7FFF) > 0x7F80) << i;
            continue;
          }
          const double exact =
              std::ldexp(reference::decode(reference::e2m1, code), static_cast<int>(scale) - 127);
          ASSERT_EQ(ieee::to_bits(x[i]), ieee::to_bits(ieee::to_float(exact)))
              << minifloat::to_string(path) << " offset " << offset << " scale " << scale
              << " code " << code;
          ASSERT_EQ(x16[i].bits, minifloat::convert<minifloat::bfloat16_bits>(exact).bits)
              << minifloat::to_string(path) << " offset " << offset << " scale " << scale
              << " code " << code;
        }
      }
    }
  }
}

// Packed MX and ggml blocks: the same scales and codes as quantize_mx, in their layouts; ggml's
// element order checked at every element (kekzl/imp #567 read it as pairs: elements 1 and 16
// tell the two orders apart). 150 blocks: the quantizers' pieces of 64 blocks and the decoders'
// of 16, and a last piece that is not full.
TEST(Mx, PackedAndGgmlLayouts) {
  std::mt19937 rng(17);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  const std::size_t n = 32 * 150;
  std::vector<float> x(n);
  for (float& v : x) {
    v = normal(rng);
  }
  std::vector<e2m1> q(n);
  std::vector<e8m0> scales(n / 32);
  minifloat::quantize_mx(x.data(), n, q.data(), scales.data());
  std::vector<std::uint8_t> packed(n / 2);
  std::vector<e8m0> packed_scales(n / 32);
  minifloat::quantize_mx_packed<e2m1>(x.data(), n, packed.data(), packed_scales.data());
  std::vector<std::uint8_t> expected(n / 2);
  minifloat::pack(q.data(), n, expected.data());
  EXPECT_EQ(packed, expected);
  for (std::size_t b = 0; b < n / 32; ++b) {
    EXPECT_EQ(packed_scales[b].bits(), scales[b].bits());
  }
  std::vector<float> from_packed(n);
  std::vector<float> from_codes(n);
  minifloat::dequantize_mx_packed<e2m1>(packed.data(), n, packed_scales.data(), from_packed.data());
  minifloat::dequantize_mx(q.data(), n, scales.data(), from_codes.data());
  EXPECT_EQ(from_packed, from_codes);

  std::vector<minifloat::block_mxfp4> blocks(n / 32);
  minifloat::quantize_mxfp4_ggml(x.data(), n, blocks.data());
  for (std::size_t b = 0; b < n / 32; ++b) {
    EXPECT_EQ(blocks[b].scale, scales[b].bits());
    for (std::size_t j = 0; j < 32; ++j) {
      const unsigned byte = blocks[b].elements[j % 16];
      EXPECT_EQ(j < 16 ? byte & 0xFU : byte >> 4, q[32 * b + j].bits()) << b << " " << j;
    }
  }
  std::vector<float> from_ggml(n);
  minifloat::dequantize_mxfp4_ggml(blocks.data(), n, from_ggml.data());
  EXPECT_EQ(from_ggml, from_codes);
  // One block by hand: element 0 = 1.0 (0x2), element 1 = 0.5 (0x1), element 16 = -6 (0xF),
  // element 31 = 3 (0x5), the rest 0, amax 6: scale 2^(2 - 2) = 0x7F. Byte 0 = 0xF2, byte 1 =
  // 0x01, byte 15 = 0x50.
  float one_block[32] = {};
  one_block[0] = 1.0f;
  one_block[1] = 0.5f;
  one_block[16] = -6.0f;
  one_block[31] = 3.0f;
  minifloat::block_mxfp4 block{};
  minifloat::quantize_mxfp4_ggml(one_block, 32, &block);
  EXPECT_EQ(block.scale, 0x7F);
  EXPECT_EQ(block.elements[0], 0xF2);
  EXPECT_EQ(block.elements[1], 0x01);
  EXPECT_EQ(block.elements[15], 0x50);
}

// ---------------------------------------------------------------------------------------------
// NVFP4: Transformer Engine's recipe (docs/spec.md §7), each step by the reference.

TEST(Nvfp4, TensorScaleGuardsAndConventions) {
  using minifloat::nvfp4_tensor_scale;
  EXPECT_EQ(nvfp4_tensor_scale::from_amax(2688.0f).encode, 1.0f);
  EXPECT_EQ(nvfp4_tensor_scale::from_amax(10.0f).encode, 268.8f);
  EXPECT_EQ(nvfp4_tensor_scale::from_amax(10.0f).decode, 1.0f / 268.8f);
  EXPECT_EQ(nvfp4_tensor_scale::from_amax(0.0f).encode, 1.0f);
  EXPECT_EQ(nvfp4_tensor_scale::from_amax(ieee::quiet_nan<float>()).encode, 1.0f);
  EXPECT_EQ(nvfp4_tensor_scale::from_amax(1e-44f).encode, FLT_MAX); // 2688 / amax overflows
  EXPECT_EQ(nvfp4_tensor_scale::from_amax(ieee::positive_infinity<float>()).encode, 1.0f);
  // The stored conventions: ModelOpt keeps the decode scale, compressed-tensors the encode one.
  const auto te = nvfp4_tensor_scale::from_amax(10.0f);
  EXPECT_EQ(nvfp4_tensor_scale::from_encode_scale(te.encode).decode, te.decode);
  EXPECT_EQ(nvfp4_tensor_scale::from_decode_scale(te.decode).decode, te.decode);
}

// On every path, over 300 blocks: the piece boundaries of quantize_nvfp4 (128 blocks) and a
// partial last piece; a zero block (byte 0, factor FLT_MAX) and a block holding a NaN (byte NaN,
// factor NaN: its elements carry no meaning and are not checked), each in a group of 16 blocks
// that the one-pass kernel (AVX-512) takes or leaves: a block holding an infinity (byte 448, the
// infinity saturated; its group left to the general steps), blocks whose bytes are ue4m3
// subnormals or 0 while their elements are not (factor FLT_MAX: every element saturates).
TEST(Nvfp4, QuantizeFollowsTheRecipeStepByStep) {
  const reference::narrower e2m1_ref(reference::e2m1);
  const reference::narrower ue4m3_ref(reference::ue4m3);
  std::mt19937 rng(23);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  const std::size_t n = 16 * 300;
  std::vector<float> x(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = normal(rng) * std::ldexp(1.0f, static_cast<int>(i / 16 % 12) - 6);
  }
  std::fill(x.begin() + 16, x.begin() + 32, 0.0f); // a zero block: byte 0, elements 0
  const std::size_t nan_block = 130;
  const auto scale = minifloat::nvfp4_tensor_scale::from_amax(minifloat::amax(x.data(), n));
  x[16 * nan_block + 5] = std::numeric_limits<float>::quiet_NaN();
  const std::size_t infinite_block = 200;
  x[16 * infinite_block + 3] = -std::numeric_limits<float>::infinity();
  for (std::size_t j = 16 * 250; j < 16 * 252; ++j) {
    x[j] = std::ldexp(x[j], j < 16 * 251 ? -14 : -40); // a subnormal byte, then byte 0
  }
  std::vector<std::uint8_t> packed(n / 2);
  std::vector<ue4m3> bytes(n / 16);
  std::vector<e2m1> q(n);
  const float byte_factor = ieee::product(scale.encode, 1.0f / 6.0f);
  for (minifloat::simd_path path : supported_paths()) {
    const minifloat::scoped_path chosen(path);
    minifloat::quantize_nvfp4(x.data(), n, packed.data(), bytes.data(), scale);
    minifloat::unpack(packed.data(), n, q.data());
    for (std::size_t b = 0; b < n / 16; ++b) {
      float amax_b = 0.0f;
      for (std::size_t j = 16 * b; j < 16 * b + 16; ++j) {
        if (ieee::isnan(x[j])) {
          amax_b = x[j];
        } else if (!ieee::isnan(amax_b)) {
          amax_b = std::max(amax_b, std::fabs(x[j]));
        }
      }
      const unsigned byte =
          ue4m3_ref.round(ieee::product(amax_b, byte_factor), reference::mode::nearest_even, true);
      ASSERT_EQ(bytes[b].bits(), byte) << minifloat::to_string(path) << " block " << b;
      if (b == nan_block) {
        continue;
      }
      const float divisor = ieee::product(
          static_cast<float>(reference::decode(reference::ue4m3, byte)), scale.decode);
      const float factor = divisor == 0.0f ? FLT_MAX : ieee::quotient(1.0f, divisor);
      for (std::size_t j = 16 * b; j < 16 * b + 16; ++j) {
        ASSERT_EQ(q[j].bits(),
                  e2m1_ref.round(ieee::product(x[j], factor), reference::mode::nearest_even, true))
            << minifloat::to_string(path) << " element " << j;
      }
    }
  }
  EXPECT_EQ(bytes[nan_block].bits(), 0x7F);
  EXPECT_EQ(bytes[infinite_block].bits(), 0x7E);
  EXPECT_LT(bytes[250].bits(), 0x08);
  EXPECT_NE(bytes[250].bits(), 0x00);
  EXPECT_EQ(bytes[251].bits(), 0x00);
  EXPECT_EQ(q[16 * 251].bits() & 0x7U, 0x7U); // a non-zero element times FLT_MAX: 6
  x[16 * nan_block + 5] = 1.0f;               // (the round trip below checks every element)
  x[16 * infinite_block + 3] = 1.0f;
  minifloat::quantize_nvfp4(x.data(), n, packed.data(), bytes.data(), scale);
  minifloat::unpack(packed.data(), n, q.data());
  EXPECT_EQ(bytes[1].bits(), 0x00);
  std::vector<float> back(n);
  std::vector<minifloat::bfloat16_bits> back16(n);
  minifloat::dequantize_nvfp4(packed.data(), n, bytes.data(), scale, back.data());
  minifloat::dequantize_nvfp4(packed.data(), n, bytes.data(), scale, back16.data());
  for (std::size_t j = 0; j < n; ++j) {
    const float element = static_cast<float>(reference::decode(reference::e2m1, q[j].bits()));
    const float byte =
        static_cast<float>(reference::decode(reference::ue4m3, bytes[j / 16].bits()));
    const float expected = ieee::product(ieee::product(element, byte), scale.decode);
    ASSERT_EQ(back[j], expected) << j;
    ASSERT_EQ(back16[j].bits, minifloat::convert<minifloat::bfloat16_bits>(expected).bits) << j;
  }
}

// NVFP4 -> bfloat16 rounds the float products on their bits (the portable kernel's
// bfloat16_nearest_even; the vector kernels are checked through the decode test below): the
// same results as the scalar conversion for every float's upper half under the lower halves that
// decide a rounding (exact, just above, below, at and above the tie, the largest), which covers
// ties to even, subnormals, overflow to infinity and NaN payloads.
TEST(Nvfp4, Bfloat16RoundingEqualsTheScalarConversion) {
  for (std::uint32_t upper = 0; upper < 0x10000U; ++upper) {
    for (std::uint32_t lower : {0x0000U, 0x0001U, 0x7FFFU, 0x8000U, 0x8001U, 0xFFFFU}) {
      const std::uint32_t bits = upper << 16 | lower;
      ASSERT_EQ(minifloat::detail::bfloat16_nearest_even(bits),
                minifloat::convert<minifloat::bfloat16_bits>(ieee::from_bits<float>(bits)).bits)
          << std::hex << bits;
    }
  }
}

// Decodes `blocks` NVFP4 blocks on every path at the given element offsets from a 64-byte
// boundary, into float and bfloat16, against the reference: block s holds the 16 codes under the
// stored scale byte first_byte + s % byte_count (mod 256; written as raw bytes, so that bytes
// with the top bit set, which is ignored when read, occur too; docs/spec.md §7), every product of
// TE's order, (element * byte) * decode, for decode scales whose results are normal, rounded,
// subnormal or past FLT_MAX; bit for bit. Into bfloat16, 1 + 2^-8 and 1 + 2^-7 + 2^-8 make ties
// where element * byte is a power of two: 1 + 2^-8 rounds down to the even 1, 1 + 2^-7 + 2^-8 up to
// the even 1 + 2^-6. The NaN byte's block holds the byte's NaN with each element's sign
// (docs/spec.md §7; not IEEE 754's product, whose sign it leaves open), into bfloat16 that NaN
// rounded. (Decode scales that are not positive and finite are refused: bad_input_test.) Block s's
// codes start at s % 16 (element k holds (k + s) % 16), so that no two neighbouring blocks hold the
// same bytes: a kernel that read one block's elements for the other's would fail. Nothing outside
// the results is written.
void expect_nvfp4_decoded(std::size_t blocks, std::initializer_list<std::size_t> offsets,
                          std::size_t first_byte = 0, std::size_t byte_count = 256) {
  std::vector<std::uint8_t> packed;
  std::vector<std::uint8_t> raw_bytes;
  const auto code_of = [](std::size_t j) { return static_cast<unsigned>((j % 16 + j / 16) % 16); };
  for (std::size_t s = 0; s < blocks; ++s) {
    for (std::size_t k = 0; k < 16; k += 2) {
      packed.push_back(
          static_cast<std::uint8_t>(code_of(16 * s + k) | code_of(16 * s + k + 1) << 4));
    }
    raw_bytes.push_back(static_cast<std::uint8_t>((first_byte + s % byte_count) % 256));
  }
  std::vector<ue4m3> bytes(blocks);
  std::memcpy(bytes.data(), raw_bytes.data(), blocks);
  const std::size_t n = 16 * blocks;
  for (float decode : {1.0f, 3.0f, minifloat::nvfp4_tensor_scale::from_amax(10.0f).decode,
                       0x1p-100f, 0x1p120f, 0x1.01p0f, 0x1.03p0f, 0x1p-149f}) {
    const auto scale = minifloat::nvfp4_tensor_scale::from_decode_scale(decode);
    for (minifloat::simd_path path : supported_paths()) {
      const minifloat::scoped_path chosen(path);
      std::vector<float> back_buffer(n + 32);
      std::vector<minifloat::bfloat16_bits> back16_buffer(n + 64);
      const std::size_t aligned = first_on_line(back_buffer);
      const std::size_t aligned16 = first_on_line(back16_buffer);
      for (std::size_t offset : offsets) {
        // (A NaN payload that no result has: the NaN byte's results are 0x7FC00000 with a sign.)
        std::fill(back_buffer.begin(), back_buffer.end(), ieee::from_bits<float>(0x7FC0BEEFU));
        std::fill(back16_buffer.begin(), back16_buffer.end(), minifloat::bfloat16_bits{0xFFFF});
        float* const back = back_buffer.data() + aligned + offset;
        minifloat::bfloat16_bits* const back16 = back16_buffer.data() + aligned16 + offset;
        minifloat::dequantize_nvfp4(packed.data(), n, bytes.data(), scale, back);
        minifloat::dequantize_nvfp4(packed.data(), n, bytes.data(), scale, back16);
        for (std::size_t i = 0; i < back_buffer.size(); ++i) {
          const bool outside = i < aligned + offset || i >= aligned + offset + n;
          ASSERT_TRUE(!outside || ieee::to_bits(back_buffer[i]) == 0x7FC0BEEFU)
              << minifloat::to_string(path) << " written outside, " << i;
        }
        for (std::size_t i = 0; i < back16_buffer.size(); ++i) {
          const bool outside = i < aligned16 + offset || i >= aligned16 + offset + n;
          ASSERT_TRUE(!outside || back16_buffer[i].bits == 0xFFFF)
              << minifloat::to_string(path) << " written outside, " << i;
        }
        for (std::size_t j = 0; j < n; ++j) {
          const float element = static_cast<float>(reference::decode(reference::e2m1, code_of(j)));
          const float byte = static_cast<float>(
              reference::decode(reference::ue4m3, raw_bytes[j / 16] & 0x7FU)); // (top bit ignored)
          float expected = ieee::product(ieee::product(element, byte), decode);
          if (ieee::isnan(byte)) {
            const std::uint32_t sign = code_of(j) >= 8 ? 0x80000000U : 0U; // code_of(j)'s
            expected = ieee::from_bits<float>(ieee::to_bits(byte) | sign);
          }
          ASSERT_EQ(ieee::to_bits(back[j]), ieee::to_bits(expected))
              << minifloat::to_string(path) << " " << j << " decode " << decode << " offset "
              << offset << " blocks " << blocks;
          ASSERT_EQ(back16[j].bits, minifloat::convert<minifloat::bfloat16_bits>(expected).bits)
              << minifloat::to_string(path) << " " << j << " decode " << decode << " offset "
              << offset << " blocks " << blocks;
        }
      }
    }
  }
}

TEST(Nvfp4, DecodeEveryCodeUnderEveryByteOnEveryPath) {
  // 129 blocks, so that a kernel taking blocks in pairs has one left alone; at every element
  // offset from a 64-byte boundary (the AVX-512 kernel stores float results by whole lines).
  expect_nvfp4_decoded(129, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15});
}

TEST(Nvfp4, DecodeManyBlocksOnEveryPath) {
  // Enough blocks (2051: 8 times the 256 bytes, and three) that the kernels take their way for
  // large arrays (the x86 bfloat16 kernels' tables of each byte's results, from 1024 blocks, by
  // two or four blocks at a time: then a pair and a block are left over); every byte, then a few
  // around 1: bytes 0x35 to 0x46 (odd first, even last: the tables are made in pairs) and 0xB5
  // to 0xC6, whose top bits are set.
  expect_nvfp4_decoded(2051, {0, 3, 8});
  expect_nvfp4_decoded(2051, {0, 8}, 0x35, 0x12);
  expect_nvfp4_decoded(2051, {0, 8}, 0xB5, 0x12);
}

} // namespace
