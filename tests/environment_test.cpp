// docs/spec.md §8: no result depends on the floating-point environment or on fast-math flags.
// The library's decisions about NaN, infinity and subnormals read bits; this file checks them
// where they used to read values: under flush-to-zero and denormals-are-zero (set here, as any
// program linked with -ffast-math runs), and, when CI builds the suite with -ffast-math or
// -Ofast, with NaNs and infinities the compiler is allowed to assume away. Expected values come
// from the definitions, computed in the default environment before it is changed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#if defined(__SSE__) || defined(_M_X64)
#include <xmmintrin.h>
#endif

#include <minifloat/minifloat.hpp>

#include "formats_under_test.hpp"
#include "ieee.hpp"
#include "supported_paths.hpp"

namespace {

using minifloat::e2m5;
using minifloat::e4m3;
using minifloat::e5m2;
using minifloat::e8m0;

// Flush-to-zero and denormals-are-zero while it lives: MXCSR's FTZ and DAZ bits on x86, FPCR's
// FZ bit on AArch64. Elsewhere (x87-only i686, s390x) there is no such mode: `available` is false.
class flushing_subnormals {
public:
  explicit flushing_subnormals(bool enable = true) {
    if (!enable) {
      return;
    }
#if defined(__SSE__)
    saved_ = _mm_getcsr();
    _mm_setcsr(static_cast<std::uint32_t>(saved_) | 0x8040U); // FTZ (bit 15), DAZ (bit 6)
    available = true;
#elif defined(__aarch64__)
    std::uint64_t fpcr = 0;
    __asm__ volatile("mrs %0, fpcr" : "=r"(fpcr));
    saved_ = fpcr;
    fpcr |= std::uint64_t{1} << 24; // FZ
    __asm__ volatile("msr fpcr, %0" : : "r"(fpcr));
    available = true;
#endif
  }
  ~flushing_subnormals() {
    if (!available) {
      return;
    }
#if defined(__SSE__)
    _mm_setcsr(static_cast<std::uint32_t>(saved_));
#elif defined(__aarch64__)
    __asm__ volatile("msr fpcr, %0" : : "r"(saved_));
#endif
  }
  flushing_subnormals(const flushing_subnormals&) = delete;
  flushing_subnormals& operator=(const flushing_subnormals&) = delete;

  bool available = false;

private:
  std::uint64_t saved_ = 0;
};

// A value the optimizer cannot see through: the run-time case of every check below.
template <class T>
T opaque(T x) {
  volatile T copy = x;
  return copy;
}
template <class Format>
minifloat::basic_fp8<Format> opaque(minifloat::basic_fp8<Format> x) {
  return minifloat::basic_fp8<Format>::from_bits(opaque(x.bits()));
}

// clang 17 and later mark every float argument and result nofpclass(nan inf) under
// -ffinite-math-only: a NaN or infinite float passed by value is then undefined by the compiler's
// own rules, in the caller's code as much as in the library. The checks that pass one by value
// run where the compiler gives them a meaning; NaN and infinity in arrays (memory) and in 8-bit
// codes are checked everywhere.
#if defined(__clang__) && defined(__FINITE_MATH_ONLY__) && __FINITE_MATH_ONLY__
#pragma clang diagnostic push
#pragma clang diagnostic warning "-W#pragma-messages" // a message, not an error under -Werror
#pragma message("environment_test: clang -ffinite-math-only: NaN and infinite float arguments "    \
                "passed by value are not checked (nofpclass); arrays and codes are")
#pragma clang diagnostic pop
constexpr bool float_arguments_may_be_nan = false;
#else
constexpr bool float_arguments_may_be_nan = true;
#endif

// Writes a float's bits into memory: how the array checks below put NaN and infinity into
// their inputs, with no float value that clang's -ffinite-math-only may assume is neither.
void store_bits(float* where, std::uint32_t bits) { std::memcpy(where, &bits, sizeof bits); }
constexpr std::uint32_t nan_bits = 0x7FC00000U;
constexpr std::uint32_t infinity_bits = 0x7F800000U;

// A NaN and an infinity known at compile time (no NAN macro: clang warns at it under fast-math).
constexpr float compile_time_nan = minifloat::detail::bit_cast<float>(0x7FC00000U);
constexpr float compile_time_infinity = minifloat::detail::bit_cast<float>(0x7F800000U);

// The environment really flushes: a subnormal compares equal to zero.
TEST(FlushToZero, TheModeIsSet) {
  const flushing_subnormals flushing;
  if (!flushing.available) {
    GTEST_SKIP() << "no flush-to-zero mode on this target";
  }
  EXPECT_TRUE(opaque(1e-40f) == 0.0f);
}

template <class T>
class EveryFormat : public ::testing::Test {};
TYPED_TEST_SUITE(EveryFormat, under_test::every_format, under_test::format_names);

// Widening is exact: to float and to double, every code, flushed or not (e8m0's 0x00 is 2^-127,
// a float subnormal, whose double a float -> double conversion flushes to 0).
TYPED_TEST(EveryFormat, DecodingIgnoresFlushToZero) {
  std::vector<std::uint32_t> as_float(256);
  std::vector<std::uint64_t> as_double(256);
  for (unsigned code = 0; code < 256; ++code) {
    const auto x = TypeParam::from_bits(static_cast<std::uint8_t>(code));
    as_float[code] = ieee::to_bits(static_cast<float>(x));
    as_double[code] = ieee::to_bits(static_cast<double>(x));
  }
  const flushing_subnormals flushing;
  for (unsigned code = 0; code < 256; ++code) {
    const auto x = opaque(TypeParam::from_bits(static_cast<std::uint8_t>(code)));
    EXPECT_EQ(ieee::to_bits(static_cast<float>(x)), as_float[code]) << code;
    EXPECT_EQ(ieee::to_bits(static_cast<double>(x)), as_double[code]) << code;
  }
}

// The array functions' widening, on every path, flushed: the codes of the scalar casts.
TYPED_TEST(EveryFormat, ArrayDecodingIgnoresFlushToZero) {
  std::vector<TypeParam> codes(256 * 3);
  for (std::size_t i = 0; i < codes.size(); ++i) {
    codes[i] = TypeParam::from_bits(static_cast<std::uint8_t>(i * 7 % 256));
  }
  for (minifloat::simd_path path : supported_paths()) {
    for (bool non_temporal : {false, true}) {
      std::vector<float> floats(codes.size());
      std::vector<minifloat::bfloat16_bits> brains(codes.size());
      {
        const flushing_subnormals flushing;
        widen_on(path, codes.data(), codes.size(), floats.data(), non_temporal);
        widen_on(path, codes.data(), codes.size(), brains.data(), non_temporal);
      }
      for (std::size_t i = 0; i < codes.size(); ++i) {
        ASSERT_EQ(ieee::to_bits(floats[i]), ieee::to_bits(static_cast<float>(codes[i])))
            << minifloat::to_string(path) << " " << i;
        ASSERT_EQ(brains[i].bits, static_cast<minifloat::bfloat16_bits>(codes[i]).bits)
            << minifloat::to_string(path) << " " << i;
      }
    }
  }
}

TEST(FlushToZero, SmallestE8m0IsTwoToTheMinus127) {
  const flushing_subnormals flushing;
  const e8m0 smallest = opaque(e8m0::from_bits(0x00));
  EXPECT_EQ(ieee::to_bits(static_cast<double>(smallest)), 0x3800000000000000U); // 2^-127
  EXPECT_TRUE(smallest != 0.0);
  EXPECT_TRUE(smallest > 0.0f);
  EXPECT_TRUE(smallest < e8m0::from_bits(0x01));
}

// compute_scale of a subnormal amax: the quotient is past FLT_MAX, so FLT_MAX, flushed or not.
TEST(FlushToZero, ScaleOfASubnormalAmax) {
  const float amaxes[] = {1e-45f, 1e-40f, 1.1754942e-38f};
  for (float amax : amaxes) {
    EXPECT_EQ(minifloat::compute_scale<e4m3>(amax), FLT_MAX) << amax;
    const flushing_subnormals flushing;
    EXPECT_EQ(minifloat::compute_scale<e4m3>(opaque(amax)), FLT_MAX) << amax;
    EXPECT_EQ(minifloat::compute_scale<e2m5>(opaque(amax), 3), FLT_MAX / 8) << amax;
  }
}

// compute_mx_scale: a subnormal amax gives the scale of its binade, flushed or not.
TEST(FlushToZero, MxScaleOfSubnormalAmaxes) {
  for (auto rule : {minifloat::mx_scale_rule::floor, minifloat::mx_scale_rule::ceil,
                    minifloat::mx_scale_rule::nearest}) {
    for (std::uint32_t bits = 1; bits < 0x00800000U; bits = bits * 3 + 1) {
      const float amax = ieee::from_bits<float>(bits);
      // floor(log2 amax) - 8 for e4m3 (max 448 = 1.75 * 2^8), clamped at -127; amax is
      // bits * 2^-149. (From the bits: a -ffast-math program flushes from its start.)
      int top = 0;
      while ((bits >> top) > 1) {
        ++top;
      }
      const int floor_k = top - 149 - 8;
      const e8m0 expected = minifloat::compute_mx_scale<e4m3>(amax, rule);
      if (rule == minifloat::mx_scale_rule::floor) {
        EXPECT_EQ(expected.bits(), floor_k < -127 ? 0 : floor_k + 127) << bits;
      }
      const flushing_subnormals flushing;
      EXPECT_EQ(minifloat::compute_mx_scale<e4m3>(opaque(amax), rule).bits(), expected.bits())
          << bits;
    }
  }
}

// dequantize_mx is exact: float(q) * 2^k, a float subnormal where it is one, flushed or not.
template <class T>
void check_exact_mx_decoding() {
  std::vector<T> q(256);
  for (unsigned code = 0; code < 256; ++code) {
    q[code] = T::from_bits(static_cast<std::uint8_t>(code));
  }
  for (unsigned scale_code : {0U, 1U, 2U, 9U, 20U, 127U, 200U, 240U, 254U}) {
    const std::vector<e8m0> scales(8, e8m0::from_bits(static_cast<std::uint8_t>(scale_code)));
    std::vector<float> expected(256);
    for (unsigned code = 0; code < 256; ++code) {
      // The exact product, in double (every one is a double), then to float: exact or +-inf.
      const double v = static_cast<double>(q[code]);
      expected[code] = ieee::to_float(std::ldexp(v, static_cast<int>(scale_code) - 127));
    }
    std::vector<float> x(256);
    {
      const flushing_subnormals flushing;
      minifloat::dequantize_mx(q.data(), q.size(), scales.data(), x.data());
    }
    for (unsigned code = 0; code < 256; ++code) {
      if (minifloat::isnan(q[code])) {
        EXPECT_TRUE(ieee::isnan(x[code]));
      } else {
        EXPECT_EQ(ieee::to_bits(x[code]), ieee::to_bits(expected[code]))
            << "scale " << scale_code << ", code " << code;
      }
    }
  }
}
TEST(FlushToZero, MxDecodingIsExact) {
  check_exact_mx_decoding<e4m3>();
  check_exact_mx_decoding<e5m2>();
  check_exact_mx_decoding<e2m5>();
}

// e2m5's largest blocks take the scale 2^127, whose inverse 2^-127 is a float subnormal.
TEST(FlushToZero, MxQuantizeWithTheLargestScale) {
  std::vector<float> x(32);
  for (std::size_t i = 0; i < x.size(); ++i) {
    x[i] = (i % 2 == 0 ? 1.0f : -1.0f) * std::ldexp(1.0f + static_cast<float>(i) / 32.0f, 127);
  }
  x[5] = 1e-30f;                  // far below the grid: 0
  x[31] = std::ldexp(1.99f, 127); // past 3.9375 * 2^126: the scale is 2^127
  std::vector<e2m5> expected(32);
  for (std::size_t i = 0; i < x.size(); ++i) {
    expected[i] = minifloat::saturate_cast<e2m5>(std::ldexp(static_cast<double>(x[i]), -127));
  }
  for (bool flush : {false, true}) {
    std::vector<e2m5> q(32);
    e8m0 scale{};
    {
      const flushing_subnormals flushing(flush);
      minifloat::quantize_mx(x.data(), 32, q.data(), &scale, minifloat::mx_scale_rule::ceil);
    }
    EXPECT_EQ(scale.bits(), 254) << flush;
    for (std::size_t i = 0; i < x.size(); ++i) {
      EXPECT_EQ(q[i].bits(), expected[i].bits()) << i << (flush ? " flushed" : "");
    }
  }
}

// The block quantizers' amaxes come from the bits: a block of float subnormals gets the scale of
// its subnormal amax under denormals-are-zero as without it (a 1 x 128 tile's differs from a zero
// tile's), on every path, in the middle of a group of 16 blocks (the one-pass kernels' unit),
// beside a zero block, from a source on a 64-byte boundary and 16 bytes past one (AVX-512 reads
// 1 x 128 tiles' amaxes by whole lines there). A float maximum would fail it: VRANGEPS reads a
// subnormal as 0 under DAZ (docs/performance.md, stops 61 and 71). Only the scales are compared:
// the codes are x times the factor, which rounds in the caller's environment (docs/spec.md §8).
TEST(FlushToZero, BlockScalesOfSubnormalBlocks) {
  constexpr std::size_t n = 32 * 128; // 32 tiles of 128 (two groups of 16), 128 MX blocks
  constexpr std::size_t subnormal_tile = 19;
  constexpr std::size_t zero_tile = 20;
  std::vector<float> storage(n + 32);
  const auto to_boundary = static_cast<std::size_t>(
      (64 - reinterpret_cast<std::uintptr_t>(storage.data()) % 64) % 64 / sizeof(float));
  for (std::size_t shift : {std::size_t{0}, std::size_t{4}}) {
    float* x = storage.data() + to_boundary + shift;
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t tile = i / 128;
      const float sign = i % 3 == 0 ? -1.0f : 1.0f;
      if (tile == subnormal_tile) {
        store_bits(x + i, (i % 3 == 0 ? 0x80000000U : 0U) |
                              static_cast<std::uint32_t>(1 + i * 2654435761U % 0x7FFFFFU));
      } else {
        x[i] = tile == zero_tile ? 0.0f : sign * static_cast<float>(i % 97 + 1) * 0.25f;
      }
    }
    for (minifloat::simd_path path : supported_paths()) {
      const minifloat::scoped_path on(path);
      const std::string where =
          std::string(minifloat::to_string(path)) + (shift == 0 ? ", on a line " : ", past one ");
      for (bool flush : {false, true}) {
        std::vector<e4m3> q(n);
        std::vector<std::uint8_t> packed(n / 2);
        std::vector<e8m0> mx(n / 32);
        std::vector<e8m0> mx_reported(n / 32);
        std::vector<e8m0> mxfp4(n / 32);
        std::vector<float> tiles(n / 128);
        minifloat::conversion_report report;
        {
          const flushing_subnormals flushing(flush);
          minifloat::quantize_mx(x, n, q.data(), mx.data());
          minifloat::quantize_mx(x, n, q.data(), mx_reported.data(), report);
          minifloat::quantize_mx_packed<minifloat::e2m1>(x, n, packed.data(), mxfp4.data());
          minifloat::quantize_blocks(x, 1, n, minifloat::tile_1x128, q.data(), tiles.data());
        }
        // The definitions: compute_mx_scale and compute_scale of each block's amax (its bits).
        for (std::size_t b = 0; b < n / 32; ++b) {
          std::uint32_t amax = 0;
          for (std::size_t i = 32 * b; i < 32 * b + 32; ++i) {
            amax = std::max(amax, ieee::to_bits(x[i]) & 0x7FFFFFFFU);
          }
          const float a = ieee::from_bits<float>(amax);
          ASSERT_EQ(mx[b].bits(), minifloat::compute_mx_scale<e4m3>(a).bits()) << where << b;
          ASSERT_EQ(mx_reported[b].bits(), mx[b].bits()) << where << b;
          ASSERT_EQ(mxfp4[b].bits(), minifloat::compute_mx_scale<minifloat::e2m1>(a).bits())
              << where << b;
        }
        for (std::size_t t = 0; t < n / 128; ++t) {
          std::uint32_t amax = 0;
          for (std::size_t i = 128 * t; i < 128 * t + 128; ++i) {
            amax = std::max(amax, ieee::to_bits(x[i]) & 0x7FFFFFFFU);
          }
          if (t == subnormal_tile) {
            // 1 / FLT_MAX (compute_scale of a subnormal amax), a float subnormal, which a flushing
            // environment may flush; a block read as zero would have 1.
            ASSERT_LT(ieee::to_bits(tiles[t]), 0x00800000U) << where;
          } else {
            const float scale = minifloat::compute_scale<e4m3>(ieee::from_bits<float>(amax));
            ASSERT_EQ(ieee::to_bits(tiles[t]), ieee::to_bits(1.0f / scale)) << where << t;
          }
        }
        // (A tile of subnormals has a scale that a zero tile has not, so the checks above can
        // fail. An MX block of them has a zero block's: 2^-127, a subnormal amax's floor(log2)
        // less the element's largest exponent clamped at -127.)
        ASSERT_EQ(ieee::to_bits(tiles[zero_tile]), ieee::to_bits(1.0f));
      }
    }
  }
}

// ---- NaN and infinity where -ffinite-math-only lets the compiler assume there are none

TEST(FastMath, MxScaleOfNanAndInfinity) {
  if (!float_arguments_may_be_nan) {
    GTEST_SKIP() << "NaN float arguments are undefined under clang's -ffinite-math-only";
  }
  for (float amax : {compile_time_nan, compile_time_infinity, -compile_time_infinity, -1.0f}) {
    EXPECT_EQ(minifloat::compute_mx_scale<e4m3>(amax).bits(), 0xFF) << amax;
    EXPECT_EQ(minifloat::compute_mx_scale<e4m3>(opaque(amax)).bits(), 0xFF) << amax;
  }
  EXPECT_EQ(minifloat::compute_mx_scale<e4m3>(opaque(0.0f)).bits(), 0x00);
  EXPECT_EQ(minifloat::compute_mx_scale<e4m3>(opaque(-0.0f)).bits(), 0x00);
}

TEST(FastMath, QuantizeMxOfABlockWithANan) {
  for (std::uint32_t special : {nan_bits, infinity_bits}) {
    std::vector<float> x(64, 1.0f);
    store_bits(&x[40], special);
    std::vector<e4m3> q(64);
    e8m0 scales[2] = {};
    minifloat::quantize_mx(x.data(), x.size(), q.data(), scales);
    EXPECT_EQ(scales[0].bits(), 127 - 8); // amax 1: floor(log2 1) - 8, e4m3 max 1.75 * 2^8
    EXPECT_EQ(scales[1].bits(), 0xFF);
    std::vector<float> back(64);
    minifloat::dequantize_mx(q.data(), q.size(), scales, back.data());
    for (std::size_t i = 32; i < 64; ++i) {
      EXPECT_TRUE(ieee::isnan(back[i])) << i;
    }
  }
}

TEST(FastMath, ComputeScaleGuards) {
  // From arrays: quantize_per_tensor and delayed_scaling::quantize take the amax of their input.
  for (std::uint32_t special : {nan_bits, infinity_bits}) {
    std::vector<float> x(64, 2.0f);
    store_bits(&x[10], special);
    EXPECT_EQ(minifloat::quantize_per_tensor<e4m3>(x.data(), x.size()).scale_inv, 1.0f);
    minifloat::delayed_scaling<e4m3> scaling(4);
    std::vector<e4m3> q(x.size());
    scaling.quantize(x.data() + 32, 32, q.data()); // amax 2: scale 224
    EXPECT_EQ(scaling.scale(), 224.0f);
    scaling.quantize(x.data(), x.size(), q.data()); // amax NaN or inf: the scale stays
    EXPECT_EQ(scaling.scale(), 224.0f);
  }
  if (!float_arguments_may_be_nan) {
    GTEST_SKIP() << "NaN float arguments are undefined under clang's -ffinite-math-only";
  }
  for (float amax :
       {compile_time_nan, compile_time_infinity, -compile_time_infinity, 0.0f, -0.0f, -1.0f}) {
    EXPECT_EQ(minifloat::compute_scale<e4m3>(amax), 1.0f) << amax;
    EXPECT_EQ(minifloat::compute_scale<e4m3>(opaque(amax)), 1.0f) << amax;
  }
  minifloat::delayed_scaling<e4m3> scaling(4);
  scaling.record(2.0f);
  const float scale = scaling.scale();
  EXPECT_EQ(scale, 224.0f);
  scaling.record(opaque(compile_time_nan));
  EXPECT_EQ(scaling.scale(), scale); // a NaN in the window freezes the scale
}

TEST(FastMath, NanScalesAreRefused) {
  const std::vector<e4m3> q(128, e4m3(1.0f));
  for (std::uint32_t bad : {nan_bits, infinity_bits, 0x00000000U, 0xC0000000U}) { // NaN inf 0 -2
    std::vector<float> scale_inv = {1.0f, 1.0f};
    store_bits(&scale_inv[1], bad);
    std::vector<float> x(128, 5.0f);
    EXPECT_THROW(minifloat::dequantize_blocks(q.data(), 1, 128, minifloat::per_row(64),
                                              scale_inv.data(), x.data()),
                 minifloat::invalid_argument)
        << bad;
    if (float_arguments_may_be_nan) {
      EXPECT_THROW(minifloat::dequantize(q.data(), 128, x.data(), opaque(scale_inv[1])),
                   minifloat::invalid_argument);
      EXPECT_THROW(
          minifloat::quantize(x.data(), 128, std::vector<e4m3>(128).data(), opaque(scale_inv[1])),
          minifloat::invalid_argument);
    }
    for (float v : x) {
      ASSERT_EQ(v, 5.0f); // untouched
    }
  }
}

// IEEE comparisons: NaN is unordered, against every operand type, known or not at compile time.
TYPED_TEST(EveryFormat, NanComparesUnordered) {
  if (!std::numeric_limits<TypeParam>::has_quiet_NaN) {
    GTEST_SKIP() << "the MX elements have no NaN"; // (conversions of NaN: convert_test)
  }
  const auto nan = std::numeric_limits<TypeParam>::quiet_NaN();
  const auto one = TypeParam(1.0f);
  for (const TypeParam a : {nan, opaque(nan)}) {
    EXPECT_FALSE(a == a);
    EXPECT_TRUE(a != a);
    EXPECT_FALSE(a == one);
    EXPECT_FALSE(a < one || a <= one || a > one || a >= one);
    EXPECT_FALSE(a == 1.0f || a == 1.0 || a == 1 || 1.0f == a || 1.0 == a || 1 == a);
    EXPECT_TRUE(a != 1.0f && a != 1.0 && a != 1);
    EXPECT_FALSE(a < 1.0f || a <= 1.0 || a > 1 || a >= 1.0f);
    EXPECT_FALSE(a == 1.0L || a < 2.0L);
    if (float_arguments_may_be_nan) {
      EXPECT_FALSE(one == opaque(compile_time_nan) || one < opaque(compile_time_nan));
      EXPECT_FALSE(one == static_cast<double>(opaque(compile_time_nan)));
      const auto long_nan = static_cast<long double>(opaque(ieee::quiet_nan<double>()));
      EXPECT_FALSE(one == long_nan || one < long_nan || long_nan >= one);
      EXPECT_TRUE(one != long_nan);
    }
  }
  EXPECT_TRUE(one == 1.0f && one == 1.0 && one == 1 && one <= one && !(one < one));
}

} // namespace
