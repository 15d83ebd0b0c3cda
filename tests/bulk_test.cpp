// The array functions (bulk.hpp), on every path this CPU supports: each element equals the
// scalar conversion, for every length 0..257 at odd alignments, every code, every binary16 and
// bfloat16 input; the bytes around the output are never touched; the generator is
// reproducible across paths and splits; amax (outputs streamed past the caches:
// bulk_streaming_test; bad input: bad_input_test; threads: concurrency_test).
#include <gtest/gtest.h>

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <minifloat/bulk.hpp>
#include <minifloat/minifloat.hpp>

#include "supported_paths.hpp"

#include "bulk_inputs.hpp"
#include "double_sweep.hpp"
#include "formats_under_test.hpp"
#include "sweep.hpp"

#if defined(__SSE__)
#include <xmmintrin.h>

#include "ieee.hpp"
#endif

namespace {

using minifloat::overflow;
using minifloat::simd_path;
using minifloat::detail::rounding_rule;

using bulk_inputs::guard;
using bulk_inputs::scalar_code;
using bulk_inputs::sources_from;
using bulk_inputs::test_floats;

// The public narrowing on `path` of src[offset, offset + n) into dst[offset, offset + n) equals the
// scalar conversion element by element, and writes nothing else.
// (Not inlined: GCC 12 reports a false -Wfree-nonheap-object for the vector once inlined.)
template <class T, rounding_rule Rule, overflow O, class Source, class Random>
[[gnu::noinline]] void expect_narrowing_matches(simd_path path, const std::vector<Source>& src,
                                                const std::vector<std::uint32_t>& bits,
                                                const Random& random, std::size_t offset,
                                                std::size_t n) {
  std::vector<T> dst(src.size() + 2, T::from_bits(guard));
  narrow_on<Rule, O>(path, src.data() + offset, n, dst.data() + offset, random);
  for (std::size_t i = 0; i < dst.size(); ++i) {
    const bool inside = i >= offset && i < offset + n;
    unsigned expected = T::from_bits(guard).bits(); // (e2m1 keeps the guard's low 4 bits)
    if (inside) {
      std::uint32_t r = 0;
      if constexpr (std::is_same<Random, minifloat::counter_generator>::value) {
        r = random(i - offset);
      } else if constexpr (std::is_same<Random, random_bits_array>::value) {
        r = bits[i];
      }
      expected = scalar_code<T, Rule, O>(src[i], r);
    }
    ASSERT_EQ(dst[i].bits(), expected)
        << minifloat::to_string(path) << " n=" << n << " offset=" << offset << " i=" << i;
  }
}

template <class T, rounding_rule Rule, overflow O, class Source>
void check_lengths_and_alignments() {
  const auto floats = test_floats(340);
  const auto src = sources_from<Source>(floats);
  std::vector<std::uint32_t> bits(src.size());
  for (std::size_t i = 0; i < bits.size(); ++i) {
    bits[i] = sweep::mix(i);
  }
  const auto check = [&](simd_path path, std::size_t offset, std::size_t n) {
    if constexpr (Rule == rounding_rule::stochastic) {
      expect_narrowing_matches<T, Rule, O>(path, src, bits, random_bits_array{bits.data() + offset},
                                           offset, n);
      expect_narrowing_matches<T, Rule, O>(path, src, bits,
                                           minifloat::counter_generator{n, n * 1000}, offset, n);
      // A seed with bits set in every 16-bit quarter (the kernels fold its halves: lanes.inc
      // counter_bits_lanes).
      expect_narrowing_matches<T, Rule, O>(
          path, src, bits, minifloat::counter_generator{0x9E3779B97F4A7C15U * (n + 1), n}, offset,
          n);
    } else {
      expect_narrowing_matches<T, Rule, O>(path, src, bits, no_random_bits{}, offset, n);
    }
  };
  // From 256 elements on, the x86 paths first convert those before the source's first 64-byte
  // boundary (lanes.inc elements_before_line): every offset from such a boundary.
  const auto address = reinterpret_cast<std::uintptr_t>(src.data());
  const std::size_t aligned = (64 - address % 64) % 64 / sizeof(Source);
  for (simd_path path : supported_paths()) {
    for (std::size_t n = 0; n <= 257; ++n) {
      check(path, 1 + n % 7, n); // odd and even, never 64-byte aligned
    }
    for (std::size_t k = 0; k < 64 / sizeof(Source); ++k) {
      check(path, aligned + k, 256 + k % 3);
    }
  }
}

template <class T>
class BulkNarrowing : public ::testing::Test {};
TYPED_TEST_SUITE(BulkNarrowing, under_test::every_format, under_test::format_names);

TYPED_TEST(BulkNarrowing, EveryLengthAndAlignmentInEveryMode) {
  using T = TypeParam;
  check_lengths_and_alignments<T, rounding_rule::nearest_even, overflow::non_saturating, float>();
  check_lengths_and_alignments<T, rounding_rule::nearest_even, overflow::saturate, float>();
  check_lengths_and_alignments<T, rounding_rule::toward_zero, overflow::non_saturating, float>();
  check_lengths_and_alignments<T, rounding_rule::toward_zero, overflow::saturate, float>();
  check_lengths_and_alignments<T, rounding_rule::upward, overflow::non_saturating, float>();
  check_lengths_and_alignments<T, rounding_rule::upward, overflow::saturate, float>();
  check_lengths_and_alignments<T, rounding_rule::stochastic, overflow::non_saturating, float>();
  check_lengths_and_alignments<T, rounding_rule::stochastic, overflow::saturate, float>();
}

TYPED_TEST(BulkNarrowing, OtherSourcesEveryLength) {
  using T = TypeParam;
  check_lengths_and_alignments<T, rounding_rule::nearest_even, overflow::non_saturating, double>();
  check_lengths_and_alignments<T, rounding_rule::toward_zero, overflow::saturate, double>();
  check_lengths_and_alignments<T, rounding_rule::upward, overflow::non_saturating, double>();
  check_lengths_and_alignments<T, rounding_rule::nearest_even, overflow::non_saturating,
                               minifloat::binary16_bits>();
  check_lengths_and_alignments<T, rounding_rule::upward, overflow::saturate,
                               minifloat::binary16_bits>();
  check_lengths_and_alignments<T, rounding_rule::nearest_even, overflow::saturate,
                               minifloat::bfloat16_bits>();
  check_lengths_and_alignments<T, rounding_rule::toward_zero, overflow::non_saturating,
                               minifloat::bfloat16_bits>();
}

// Every edge double (double_sweep.hpp: zeros, subnormals, float's edges, NaNs, ties) through
// every path in every mode, all of them in one array: the AVX-512 kernel raises tiny magnitudes
// to 2^-126 before its conversion, and only a zero (under upward rounding) or a NaN tells
// whether it raised the right lanes.
template <class T, rounding_rule Rule, overflow O>
void check_edge_doubles(simd_path path) {
  const std::vector<double> src = double_sweep::edge_doubles();
  std::vector<std::uint32_t> bits(src.size());
  for (std::size_t i = 0; i < src.size(); ++i) {
    bits[i] = sweep::mix(i);
  }
  std::vector<T> dst(src.size());
  narrow_on<Rule, O>(path, src.data(), src.size(), dst.data(), random_bits_array{bits.data()});
  for (std::size_t i = 0; i < src.size(); ++i) {
    ASSERT_EQ(dst[i].bits(), (scalar_code<T, Rule, O>(src[i], bits[i])))
        << minifloat::to_string(path) << " " << src[i] << " (element " << i << ")";
  }
}
TYPED_TEST(BulkNarrowing, EveryEdgeDoubleOnEveryPathInEveryMode) {
  using T = TypeParam;
  for (simd_path path : supported_paths()) {
    check_edge_doubles<T, rounding_rule::nearest_even, overflow::non_saturating>(path);
    check_edge_doubles<T, rounding_rule::nearest_even, overflow::saturate>(path);
    check_edge_doubles<T, rounding_rule::toward_zero, overflow::non_saturating>(path);
    check_edge_doubles<T, rounding_rule::toward_zero, overflow::saturate>(path);
    check_edge_doubles<T, rounding_rule::upward, overflow::non_saturating>(path);
    check_edge_doubles<T, rounding_rule::upward, overflow::saturate>(path);
    check_edge_doubles<T, rounding_rule::stochastic, overflow::non_saturating>(path);
  }
}

// Doubles through `path` against the scalar conversion, element by element.
template <class T, rounding_rule Rule, overflow O>
void check_doubles(simd_path path, const std::vector<double>& src) {
  std::vector<T> dst(src.size());
  narrow_on<Rule, O>(path, src.data(), src.size(), dst.data(), no_random_bits{});
  for (std::size_t i = 0; i < src.size(); ++i) {
    ASSERT_EQ(dst[i].bits(), (scalar_code<T, Rule, O>(src[i], 0)))
        << minifloat::to_string(path) << " " << std::hexfloat << src[i] << " (element " << i << ")";
  }
}

// About 200,000 doubles at and around every midpoint of the format's grid, and random ones
// between (double_sweep::inputs, as the scalar sweep of exhaustive_test), through every path:
// the AVX-512 path rounds them in double lanes (kernels_avx512.hpp, encode_doubles_by_addition)
// for nearest-even and toward zero, the other paths through float once rounded to odd.
TYPED_TEST(BulkNarrowing, MidpointDoublesOnEveryPath) {
  using T = TypeParam;
  const reference::narrower ref(under_test::format_of<T>::get());
  std::vector<double> src = double_sweep::inputs(ref, 200000);
  const std::vector<double> edges = double_sweep::edge_doubles();
  src.insert(src.end(), edges.begin(), edges.end());
  for (simd_path path : supported_paths()) {
    check_doubles<T, rounding_rule::nearest_even, overflow::non_saturating>(path, src);
    check_doubles<T, rounding_rule::nearest_even, overflow::saturate>(path, src);
    check_doubles<T, rounding_rule::toward_zero, overflow::non_saturating>(path, src);
    check_doubles<T, rounding_rule::toward_zero, overflow::saturate>(path, src);
  }
}

// Each edge double alone among ordinary ones (normal in float, not on any format's boundary),
// 63 of them between two edges: the AVX2 path tests four vectors of doubles for doubt at once
// (kernels_avx2.hpp, load_doubles4_as_float_bits), and among the other edge doubles a lane's
// doubt could hide behind a neighbour's (a zero's, say), which sends the group to the test by
// vectors anyway.
TYPED_TEST(BulkNarrowing, EachEdgeDoubleAloneAmongOrdinaryOnes) {
  using T = TypeParam;
  const std::vector<double> edges = double_sweep::edge_doubles();
  std::vector<double> src;
  for (std::size_t e = 0; e < edges.size(); ++e) {
    for (std::size_t k = 0; k < 64; ++k) {
      const double ordinary = (1.2345678901 + 0.001 * static_cast<double>(k)) *
                              std::ldexp(1.0, static_cast<int>(k % 24) - 12);
      src.push_back(k == 32 ? edges[e] : (k % 3 == 0 ? -ordinary : ordinary));
    }
  }
  for (simd_path path : supported_paths()) {
    check_doubles<T, rounding_rule::nearest_even, overflow::non_saturating>(path, src);
    check_doubles<T, rounding_rule::nearest_even, overflow::saturate>(path, src);
    check_doubles<T, rounding_rule::toward_zero, overflow::non_saturating>(path, src);
    check_doubles<T, rounding_rule::toward_zero, overflow::saturate>(path, src);
    check_doubles<T, rounding_rule::upward, overflow::non_saturating>(path, src);
    check_doubles<T, rounding_rule::upward, overflow::saturate>(path, src);
  }
}

// All 65,536 binary16 and bfloat16 inputs through every path, in every mode.
template <class T, rounding_rule Rule, overflow O, class Source>
void check_every_16bit_input(simd_path path) {
  std::vector<Source> src(65536);
  std::vector<std::uint32_t> bits(src.size());
  for (std::size_t i = 0; i < src.size(); ++i) {
    src[i] = Source{static_cast<std::uint16_t>(i)};
    bits[i] = sweep::mix(i);
  }
  std::vector<T> dst(src.size());
  narrow_on<Rule, O>(path, src.data(), src.size(), dst.data(), random_bits_array{bits.data()});
  for (std::size_t i = 0; i < src.size(); ++i) {
    ASSERT_EQ(dst[i].bits(), (scalar_code<T, Rule, O>(src[i], bits[i])))
        << minifloat::to_string(path) << " input 0x" << std::hex << i;
  }
}
template <class T, class Source>
void check_every_16bit_input_every_mode(simd_path path) {
  check_every_16bit_input<T, rounding_rule::nearest_even, overflow::non_saturating, Source>(path);
  check_every_16bit_input<T, rounding_rule::nearest_even, overflow::saturate, Source>(path);
  check_every_16bit_input<T, rounding_rule::toward_zero, overflow::non_saturating, Source>(path);
  check_every_16bit_input<T, rounding_rule::upward, overflow::non_saturating, Source>(path);
  check_every_16bit_input<T, rounding_rule::stochastic, overflow::non_saturating, Source>(path);
  check_every_16bit_input<T, rounding_rule::stochastic, overflow::saturate, Source>(path);
}
TYPED_TEST(BulkNarrowing, EveryBinary16AndBfloat16Input) {
  for (simd_path path : supported_paths()) {
    check_every_16bit_input_every_mode<TypeParam, minifloat::binary16_bits>(path);
    check_every_16bit_input_every_mode<TypeParam, minifloat::bfloat16_bits>(path);
  }
}

// Every kernel gives the same codes whatever the floating-point environment: the rounding mode
// (AVX2's addition kernel checks MXCSR and falls back to the integer one; AVX-512's addition
// carries its rounding in the instruction) and, on x86, flush-to-zero and denormals-are-zero
// (which F16C's binary16 conversion ignores, and which the addition kernels never meet in a
// value that matters). The expected codes are computed, and compared, in the default one.
// On x86, MXCSR's rounding can also change alone (_MM_SET_ROUNDING_MODE), which glibc's
// fegetround does not see on x86-64: it reads the x87 control word.
struct fp_environment {
  const char* name;
  int rounding;       // set by fesetround
  unsigned csr_flags; // then set in MXCSR
};
#if defined(__SSE__)
constexpr unsigned flush_and_denormals_are_zero = 0x8040U; // FTZ (bit 15) and DAZ (bit 6)
#endif
constexpr fp_environment changed_environments[] = {
    {"upward", FE_UPWARD, 0},
    {"downward", FE_DOWNWARD, 0},
    {"toward zero", FE_TOWARDZERO, 0},
#if defined(__SSE__)
    {"FTZ and DAZ", FE_TONEAREST, flush_and_denormals_are_zero},
    {"toward zero, FTZ and DAZ", FE_TOWARDZERO, flush_and_denormals_are_zero},
    {"MXCSR alone toward zero", FE_TONEAREST, 0x6000U}, // rounding control, bits 13-14
#endif
};

template <class T, rounding_rule Rule, overflow O, class Source>
void check_in_every_environment(simd_path path, const std::vector<Source>& src) {
  // Random bits for stochastic rounding (the other rules ignore them).
  std::vector<std::uint32_t> random_bits(src.size());
  std::vector<std::uint8_t> expected(src.size());
  for (std::size_t i = 0; i < src.size(); ++i) {
    random_bits[i] = sweep::mix(i);
    expected[i] = scalar_code<T, Rule, O>(src[i], random_bits[i]);
  }
  for (const fp_environment& environment : changed_environments) {
    std::vector<T> dst(src.size());
    const int saved_rounding = std::fegetround();
    ASSERT_EQ(std::fesetround(environment.rounding), 0) << environment.name;
#if defined(__SSE__)
    const unsigned saved_csr = _mm_getcsr();
    _mm_setcsr(saved_csr | environment.csr_flags);
#endif
    narrow_on<Rule, O>(path, src.data(), src.size(), dst.data(),
                       random_bits_array{random_bits.data()});
#if defined(__SSE__)
    _mm_setcsr(saved_csr);
#endif
    std::fesetround(saved_rounding);
    for (std::size_t i = 0; i < src.size(); ++i) {
      ASSERT_EQ(dst[i].bits(), expected[i])
          << minifloat::to_string(path) << ", " << environment.name << ", input " << i;
    }
  }
}
TYPED_TEST(BulkNarrowing, ResultsIgnoreTheFloatingPointEnvironment) {
  // Floats: the mixed test set, every binary16 value (ties and subnormals of most formats) and
  // float subnormals; every binary16 and bfloat16 pattern.
  std::vector<float> floats = test_floats(4096);
  std::vector<minifloat::binary16_bits> halves(65536);
  std::vector<minifloat::bfloat16_bits> brains(65536);
  for (std::size_t i = 0; i < 65536; ++i) {
    halves[i] = minifloat::binary16_bits{static_cast<std::uint16_t>(i)};
    brains[i] = minifloat::bfloat16_bits{static_cast<std::uint16_t>(i)};
    floats.push_back(minifloat::convert<float>(halves[i]));
    floats.push_back(sweep::float_from_bits(static_cast<std::uint32_t>(i * 127 % 0x800000U) |
                                            (i % 2 != 0 ? 0x80000000U : 0U)));
  }
  // Doubles: the mixed set between floats, double subnormals, the edges of float's range.
  const std::vector<double> doubles = sources_from<double>(floats);
  for (simd_path path : supported_paths()) {
    check_in_every_environment<TypeParam, rounding_rule::nearest_even, overflow::non_saturating>(
        path, floats);
    check_in_every_environment<TypeParam, rounding_rule::toward_zero, overflow::saturate>(path,
                                                                                          floats);
    // (Upward is where DAZ could bite: it reads a float subnormal as 0, which is exact. Both
    // overflow rules: each clamps |x| at its own limit before the AVX-512 addition.)
    check_in_every_environment<TypeParam, rounding_rule::upward, overflow::non_saturating>(path,
                                                                                           floats);
    check_in_every_environment<TypeParam, rounding_rule::upward, overflow::saturate>(path, floats);
    check_in_every_environment<TypeParam, rounding_rule::stochastic, overflow::non_saturating>(
        path, floats);
    check_in_every_environment<TypeParam, rounding_rule::nearest_even, overflow::saturate>(path,
                                                                                           halves);
    check_in_every_environment<TypeParam, rounding_rule::toward_zero, overflow::non_saturating>(
        path, halves);
    check_in_every_environment<TypeParam, rounding_rule::nearest_even, overflow::non_saturating>(
        path, brains);
    check_in_every_environment<TypeParam, rounding_rule::upward, overflow::non_saturating>(path,
                                                                                           doubles);
    check_in_every_environment<TypeParam, rounding_rule::toward_zero, overflow::saturate>(path,
                                                                                          doubles);
  }
}

// Widening: every code, at every length 0..257, into float, binary16, bfloat16, with either
// kind of store. dst starts at every element offset from a 64-byte boundary in turn (where
// non-temporal stores begin, and where the vector stores fall), src at odd ones.
template <class T, class To>
void check_widening(simd_path path, bool non_temporal) {
  std::vector<T> src(300);
  for (std::size_t i = 0; i < src.size(); ++i) {
    src[i] = T::from_bits(static_cast<std::uint8_t>(i * 37 + i / 256));
  }
  constexpr std::size_t per_line = 64 / sizeof(To);
  for (std::size_t n = 0; n <= 257; ++n) {
    const std::size_t offset = 1 + n % 5;
    std::vector<To> storage(src.size() + 2 + per_line);
    // dst: storage from its first element on a 64-byte boundary.
    const auto address = reinterpret_cast<std::uintptr_t>(storage.data());
    To* dst = storage.data() + (64 - address % 64) % 64 / sizeof(To);
    const std::size_t dst_offset = n % per_line;
    std::memset(storage.data(), guard, storage.size() * sizeof(To));
    const std::vector<To> untouched = storage;
    widen_on(path, src.data() + offset, n, dst + dst_offset, non_temporal);
    for (std::size_t i = 0; i < storage.size(); ++i) {
      const auto k = static_cast<std::size_t>(&storage[i] - (dst + dst_offset)); // wraps below
      const To expected = k < n ? minifloat::convert<To>(src[offset + k]) : untouched[i];
      ASSERT_EQ(std::memcmp(&storage[i], &expected, sizeof(To)), 0)
          << minifloat::to_string(path) << " n=" << n << " element " << k
          << (non_temporal ? " non-temporal" : "");
    }
  }
}

// The byte-lookup decoders take the 7-bit lookup (half the permutes) exactly where -x is x with
// the sign bit flipped for every code: every signed format but the fnuz ones (0x80 is their
// NaN). A wrong flag either gives wrong results (the test below) or silently the slower path
// (this one).
TYPED_TEST(BulkNarrowing, SignSymmetricTablesAreTheSignedFormatsWithNegativeZero) {
  using format = typename TypeParam::format;
  // (A format narrower than 8 bits reads 0x80 | c as c: not symmetric.)
  constexpr bool expected = minifloat::format_info<format>::is_signed &&
                            minifloat::format_info<format>::total_bits == 8 &&
                            !under_test::is_fnuz<TypeParam>;
  using minifloat::detail::byte_planes_for;
  EXPECT_EQ((byte_planes_for<format, minifloat::formats::bfloat16>.sign_symmetric), expected);
  EXPECT_EQ((byte_planes_for<format, minifloat::formats::binary16>.sign_symmetric), expected);
  // And the planes are the code table's bytes.
  const auto& results = minifloat::detail::code_table_for<format, minifloat::formats::binary16>;
  const auto& planes = byte_planes_for<format, minifloat::formats::binary16>;
  for (std::size_t code = 0; code < 256; ++code) {
    EXPECT_EQ(planes.low[code] | planes.high[code] << 8, results[code]) << code;
  }
}

#if MINIFLOAT_X86_PATHS
// The AVX2 decoders take the byte planes (kernels_avx2.hpp decode_by_byte_planes) for the 8-bit
// signed formats whose 16-bit results are linear in the magnitude but for at most 16 magnitudes
// at the bottom (zero and the subnormals: 2^M) and 16 at the top (IEEE-style: infinity and the
// NaNs, 2^M; fn: one NaN; fnuz: none, their NaN is 0x80). A wrong answer either gives wrong
// results (the test below) or silently a slower decoder (this one).
TYPED_TEST(BulkNarrowing, AvxTwoByteDecodersTakeTheNearlyLinearFormats) {
  using format = typename TypeParam::format;
  using info = minifloat::format_info<format>;
  constexpr int bottom = 1 << info::mantissa_bits;
  constexpr int top = info::special_values == minifloat::specials::ieee ? 1 << info::mantissa_bits
                      : info::special_values == minifloat::specials::fn ? 1
                                                                        : 0;
  constexpr bool expected = info::is_signed && info::total_bits == 8 && bottom <= 16 && top <= 16;
  using minifloat::detail::avx2::decodes_by_byte_planes;
  EXPECT_EQ((decodes_by_byte_planes<format, float>()), expected);
  EXPECT_EQ((decodes_by_byte_planes<format, minifloat::bfloat16_bits>()), expected);
  EXPECT_EQ((decodes_by_byte_planes<format, minifloat::binary16_bits>()), expected);
}
#endif

TYPED_TEST(BulkNarrowing, WideningEveryCodeEveryLength) {
  for (simd_path path : supported_paths()) {
    for (const bool non_temporal : {false, true}) {
      check_widening<TypeParam, float>(path, non_temporal);
      check_widening<TypeParam, minifloat::binary16_bits>(path, non_temporal);
      check_widening<TypeParam, minifloat::bfloat16_bits>(path, non_temporal);
    }
  }
}

// Arrays of T filled with raw bytes (memcpy: any byte, the bits above a narrower format's code
// included): every decoder reads a byte's code bits alone (fp8.hpp from_bits: e2m1 reads 0xF7
// as 0x7, ue4m3 drops its sign bit, as cuBLAS does), on every path, into float and the 16-bit
// types, at a length that leaves a tail. Expected: the reference's value of the masked code.
template <class To>
bool equals_exact(To result, double exact) {
  if constexpr (std::is_same<To, float>::value) {
    return ieee::isnan(exact) ? ieee::isnan(result)
                              : ieee::to_bits(result) == ieee::to_bits(ieee::to_float(exact));
  } else {
    const bool bfloat16 = std::is_same<To, minifloat::bfloat16_bits>::value;
    const unsigned infinity = bfloat16 ? 0x7F80U : 0x7C00U;
    return ieee::isnan(exact) ? (result.bits & 0x7FFFU) > infinity
                              : result.bits == minifloat::convert<To>(exact).bits;
  }
}
template <class T, class To>
void check_widening_raw_bytes(simd_path path) {
  std::uint8_t bytes[256 + 3];
  for (std::size_t i = 0; i < sizeof bytes; ++i) {
    bytes[i] = static_cast<std::uint8_t>(i * 151 + 7); // 151 is odd: every byte in 256
  }
  T src[sizeof bytes];
  static_assert(sizeof(T) == 1, "one byte per value");
  std::memcpy(src, bytes, sizeof bytes);
  To dst[sizeof bytes];
  widen_on(path, src, sizeof bytes, dst, false);
  const auto& fmt = under_test::format_of<T>::get();
  for (std::size_t i = 0; i < sizeof bytes; ++i) {
    const unsigned code = bytes[i] & (under_test::code_count<T> - 1);
    ASSERT_TRUE(equals_exact(dst[i], reference::decode(fmt, code)))
        << minifloat::to_string(path) << " byte " << unsigned{bytes[i]};
  }
}
TYPED_TEST(BulkNarrowing, WideningReadsOnlyTheCodeBitsOfEachByte) {
  for (simd_path path : supported_paths()) {
    check_widening_raw_bytes<TypeParam, float>(path);
    check_widening_raw_bytes<TypeParam, minifloat::binary16_bits>(path);
    check_widening_raw_bytes<TypeParam, minifloat::bfloat16_bits>(path);
  }
}

// The public entry points, through the active path.
TEST(BulkApi, PointerFormsEqualScalarCasts) {
  const auto x = test_floats(1000);
  std::vector<minifloat::e4m3> q(x.size());
  minifloat::convert(x.data(), x.size(), q.data());
  std::vector<minifloat::e5m2> r(x.size());
  minifloat::convert<minifloat::rounding::toward_zero, overflow::saturate>(x.data(), x.size(),
                                                                           r.data());
  std::vector<float> back(x.size());
  minifloat::convert(q.data(), q.size(), back.data());
  std::vector<std::uint32_t> bits(x.size());
  for (std::size_t i = 0; i < bits.size(); ++i) {
    bits[i] = sweep::mix(i);
  }
  std::vector<minifloat::e4m3> s(x.size());
  minifloat::stochastic_convert(x.data(), x.size(), bits.data(), s.data());
  std::vector<minifloat::e4m3> g(x.size());
  const minifloat::counter_generator generator{12345, 678};
  minifloat::stochastic_convert(x.data(), x.size(), g.data(), generator);
  for (std::size_t i = 0; i < x.size(); ++i) {
    ASSERT_EQ(q[i].bits(), minifloat::convert<minifloat::e4m3>(x[i]).bits());
    ASSERT_EQ(
        r[i].bits(),
        (minifloat::convert<minifloat::e5m2, minifloat::rounding::toward_zero, overflow::saturate>(
             x[i])
             .bits()));
    ASSERT_EQ(std::memcmp(&back[i], &minifloat::decode_table<minifloat::e4m3>[q[i].bits()], 4), 0);
    ASSERT_EQ(s[i].bits(), minifloat::stochastic_cast<minifloat::e4m3>(x[i], bits[i]).bits());
    ASSERT_EQ(g[i].bits(), minifloat::stochastic_cast<minifloat::e4m3>(x[i], generator(i)).bits());
  }
}

// Outputs from MINIFLOAT_NON_TEMPORAL_THRESHOLD bytes on take non-temporal stores: the public
// function at the threshold and one element below it, into a dst one element past a 64-byte
// boundary, gives the scalar results and writes nothing past them.
TEST(BulkApi, WideningAtTheNonTemporalThreshold) {
  using minifloat::detail::stores;
  constexpr std::size_t threshold = MINIFLOAT_NON_TEMPORAL_THRESHOLD;
  EXPECT_EQ(minifloat::detail::stores_for(threshold), stores::non_temporal);
  EXPECT_EQ(minifloat::detail::stores_for(threshold - 1), stores::cached);
  for (const std::size_t n : {threshold / sizeof(float), threshold / sizeof(float) - 1}) {
    std::vector<minifloat::e5m2> src(n);
    for (std::size_t i = 0; i < n; ++i) {
      src[i] = minifloat::e5m2::from_bits(static_cast<std::uint8_t>(sweep::mix(i)));
    }
    std::vector<float> storage(n + 32, -1.0f);
    const auto address = reinterpret_cast<std::uintptr_t>(storage.data());
    float* dst = storage.data() + (64 - address % 64) % 64 / sizeof(float) + 1;
    minifloat::convert(src.data(), n, dst);
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(std::memcmp(&dst[i], &minifloat::decode_table<minifloat::e5m2>[src[i].bits()], 4),
                0)
          << "n=" << n << " i=" << i;
    }
    for (const float* p = dst + n; p != storage.data() + storage.size(); ++p) {
      ASSERT_EQ(*p, -1.0f);
    }
  }
}

#if MINIFLOAT_HAS_RANGES
TEST(BulkApi, SpanForms) {
  const auto x = test_floats(100);
  std::vector<minifloat::e4m3> q(x.size());
  minifloat::convert(std::span<const float>(x), std::span<minifloat::e4m3>(q));
  std::vector<minifloat::e4m3> q2(x.size());
  minifloat::convert<minifloat::rounding::nearest_even, overflow::saturate>(x, q2);
  std::vector<float> back(x.size());
  minifloat::convert(std::span<const minifloat::e4m3>(q), std::span<float>(back));
  std::vector<minifloat::e4m3> g(x.size());
  minifloat::stochastic_convert(x, g, minifloat::counter_generator{1, 2});
  for (std::size_t i = 0; i < x.size(); ++i) {
    EXPECT_EQ(q[i].bits(), minifloat::convert<minifloat::e4m3>(x[i]).bits());
    EXPECT_EQ(q2[i].bits(), minifloat::saturate_cast<minifloat::e4m3>(x[i]).bits());
    EXPECT_EQ(std::memcmp(&back[i], &minifloat::decode_table<minifloat::e4m3>[q[i].bits()], 4), 0);
    EXPECT_EQ(g[i].bits(), minifloat::stochastic_cast<minifloat::e4m3>(
                               x[i], minifloat::counter_generator{1, 2}(i))
                               .bits());
  }
  // (Compared as bits: test_floats holds NaNs, so both are NaN; without the NaNs and
  // infinities, a finite largest magnitude.)
  const float by_span = minifloat::amax(std::span<const float>(x));
  const float by_pointer = minifloat::amax(x.data(), x.size());
  EXPECT_EQ(std::memcmp(&by_span, &by_pointer, sizeof by_span), 0);
  std::vector<float> finite;
  for (const float v : x) {
    if ((ieee::to_bits(v) & 0x7F800000U) != 0x7F800000U) {
      finite.push_back(v);
    }
  }
  EXPECT_EQ(minifloat::amax(std::span<const float>(finite)),
            minifloat::amax(finite.data(), finite.size()));
}
#endif

// The generator: element i of a call with offset k is counter k + i, so splitting an array
// changes nothing; the value follows the documented formula (written out again here).
TEST(CounterGenerator, FollowsTheDocumentedFormula) {
  const auto mix32 = [](std::uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
  };
  for (std::uint64_t seed : {0ULL, 1ULL, 0x123456789ABCDEFULL}) {
    for (std::uint64_t c : {0ULL, 1ULL, 0xFFFFFFFFULL, 0x100000000ULL, 0xFFFFFFFFFFFFFFFFULL}) {
      const auto lo = [](std::uint64_t v) { return static_cast<std::uint32_t>(v); };
      const auto hi = [](std::uint64_t v) { return static_cast<std::uint32_t>(v >> 32); };
      const std::uint32_t key = mix32(hi(c) ^ mix32(hi(seed) ^ mix32(lo(seed))));
      EXPECT_EQ((minifloat::counter_generator{seed, c}(0)), mix32(mix32(lo(c) ^ lo(seed)) ^ key));
      EXPECT_EQ((minifloat::counter_generator{seed, 0}(c)), mix32(mix32(lo(c) ^ lo(seed)) ^ key));
    }
  }
}

TEST(CounterGenerator, SplitsAndPathsAgreeAcrossTheHighHalfCarry) {
  // Counters that cross 2^32 inside a vector (and 2^64, where the counter wraps to 0): lanes
  // must take the next high half's key.
  const auto x = test_floats(200);
  for (const std::uint64_t offset : {(std::uint64_t{1} << 32) - 37, std::uint64_t{0} - 37}) {
    for (simd_path path : supported_paths()) {
      const minifloat::counter_generator whole{99, offset};
      std::vector<minifloat::e5m2> all(x.size());
      narrow_on<rounding_rule::stochastic, overflow::non_saturating>(path, x.data(), x.size(),
                                                                     all.data(), whole);
      std::vector<minifloat::e5m2> parts(x.size());
      for (std::size_t begin = 0; begin < x.size(); begin += 23) {
        const std::size_t n = std::min<std::size_t>(23, x.size() - begin);
        narrow_on<rounding_rule::stochastic, overflow::non_saturating>(
            path, x.data() + begin, n, parts.data() + begin,
            minifloat::counter_generator{99, offset + begin});
      }
      for (std::size_t i = 0; i < x.size(); ++i) {
        ASSERT_EQ(all[i].bits(), minifloat::stochastic_cast<minifloat::e5m2>(x[i], whole(i)).bits())
            << minifloat::to_string(path) << " i=" << i;
        ASSERT_EQ(parts[i].bits(), all[i].bits()) << minifloat::to_string(path) << " i=" << i;
      }
    }
  }
}

TEST(CounterGenerator, BitsAreRoughlyUniform) {
  // 2^20 draws into 16 buckets by the top 4 bits, and the low bit's frequency: a generator that
  // ignored its counter, or fixed a bit, fails by far.
  const minifloat::counter_generator generator{2026, 0};
  std::vector<double> buckets(16);
  double low_bits = 0;
  const std::size_t n = 1 << 20;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t r = generator(i);
    buckets[r >> 28] += 1;
    low_bits += r & 1;
  }
  double chi2 = 0;
  for (double b : buckets) {
    chi2 += (b - n / 16.0) * (b - n / 16.0) / (n / 16.0);
  }
  EXPECT_LT(chi2, 50.0); // 15 degrees of freedom: p < 1e-5 beyond 50
  EXPECT_NEAR(low_bits / n, 0.5, 6 * 0.5 / std::sqrt(double(n)));
  EXPECT_NE(generator(0), (minifloat::counter_generator{2027, 0}(0)));
}

TEST(Amax, EveryPathEveryLength) {
  auto x = test_floats(300);
  for (float& v : x) { // finite values only here; NaN and infinity below
    if (!ieee::isfinite(v)) {
      v = 1.0f;
    }
  }
  for (simd_path path : supported_paths()) {
    for (std::size_t n = 0; n <= 257; ++n) {
      const std::size_t offset = n % 5;
      float expected = 0.0f;
      for (std::size_t i = offset; i < offset + n; ++i) {
        expected = std::max(expected, std::fabs(x[i]));
      }
      ASSERT_EQ(amax_with_path(path, x.data() + offset, n), expected)
          << minifloat::to_string(path) << " n=" << n;
    }
  }
}

TEST(Amax, NanInfinityAndZeros) {
  const float inf = ieee::positive_infinity<float>();
  const float nan = ieee::quiet_nan<float>();
  for (simd_path path : supported_paths()) {
    for (std::size_t where :
         {std::size_t{0}, std::size_t{5}, std::size_t{16}, std::size_t{63}, std::size_t{99}}) {
      std::vector<float> x(100, -2.5f);
      x[where] = -inf;
      EXPECT_EQ(amax_with_path(path, x.data(), x.size()), inf);
      x[(where + 7) % 100] = -nan;
      EXPECT_TRUE(ieee::isnan(amax_with_path(path, x.data(), x.size())));
      EXPECT_FALSE(ieee::signbit(amax_with_path(path, x.data(), x.size())));
    }
    const std::vector<float> zeros(40, -0.0f);
    EXPECT_EQ(amax_with_path(path, zeros.data(), zeros.size()), 0.0f);
    EXPECT_FALSE(ieee::signbit(amax_with_path(path, zeros.data(), zeros.size())));
    EXPECT_EQ(amax_with_path(path, nullptr, 0), 0.0f);
  }
}

TEST(Dispatch, ActivePathIsTheBestSupported) {
  const simd_path active = minifloat::active_path();
  EXPECT_TRUE(minifloat::path_supported(active));
  EXPECT_TRUE(minifloat::path_supported(simd_path::portable));
  if (minifloat::path_supported(simd_path::avx512)) {
    EXPECT_EQ(active, simd_path::avx512);
  }
  if (minifloat::path_supported(simd_path::neon)) {
    EXPECT_EQ(active, simd_path::neon);
  }
  std::printf("[ paths    ] active: %s; supported:", minifloat::to_string(active));
  for (simd_path path : supported_paths()) {
    std::printf(" %s", minifloat::to_string(path));
  }
  std::printf("\n");
}

// The NEON lane operations one by one against the portable ones (the kernels' tests cannot see
// every difference: in the kernels, a variable shift by 2^32 - k happens to be ORed with the
// same shift the other way). Only where the NEON path is compiled (tests/neon/run.sh).
TEST(LaneOps, NeonEqualsPortable) {
#if MINIFLOAT_NEON_PATHS
  namespace neon = minifloat::detail::neon;
  namespace portable = minifloat::detail::portable;
  const std::uint32_t values[] = {0U,          1U,          2U,         3U,          31U,
                                  32U,         33U,         127U,       128U,        255U,
                                  256U,        0x7FFFFFU,   0x800000U,  0x7F800000U, 0x7FFFFFFFU,
                                  0x80000000U, 0xFFFFFFE0U, 0xFFFFFFFFU};
  for (std::uint32_t a : values) {
    for (std::uint32_t b : values) {
      const neon::u32v va = neon::splat(a);
      const neon::u32v vb = neon::splat(b);
      const auto lane = [](neon::u32v v) { return vgetq_lane_u32(v, 2); };
      EXPECT_EQ(lane(neon::shrv(va, vb)), portable::shrv(a, b)) << a << " >> " << b;
      EXPECT_EQ(lane(neon::shlv(va, vb)), portable::shlv(a, b)) << a << " << " << b;
      EXPECT_EQ(lane(neon::min_u(va, vb)), portable::min_u(a, b));
      EXPECT_EQ(lane(neon::max_u(va, vb)), portable::max_u(a, b));
      EXPECT_EQ(lane(neon::gt_u(va, vb)) != 0, portable::gt_u(a, b));
      EXPECT_EQ(lane(neon::eq(va, vb)) != 0, portable::eq(a, b));
      EXPECT_EQ(lane(neon::inc_if(neon::gt_u(va, vb), va)),
                portable::inc_if(portable::gt_u(a, b), a));
      EXPECT_EQ(lane(neon::select(neon::gt_u(va, vb), va, vb)),
                minifloat::detail::select(portable::gt_u(a, b), a, b));
      EXPECT_EQ(lane(neon::mul_lo(va, vb)), portable::mul_lo(a, b));
    }
    if (a < (1U << 24)) {
      EXPECT_EQ(vgetq_lane_u32(neon::int_to_float_bits(neon::splat(a)), 1),
                portable::int_to_float_bits(a));
    }
  }
  const neon::u32v lanes = neon::iota();
  EXPECT_EQ(vgetq_lane_u32(lanes, 0), 0U);
  EXPECT_EQ(vgetq_lane_u32(lanes, 3), 3U);
#else
  GTEST_SKIP() << "the NEON path is not compiled here (tests/neon/run.sh runs it under qemu)";
#endif
}

// MINIFLOAT_SIMD_PATH's cap: that path where the CPU has it, avx2 under avx512, else portable.
TEST(Dispatch, CapTakesThePathOrFallsBack) {
  using minifloat::detail::best_path;
  const simd_path all[] = {simd_path::portable, simd_path::avx2, simd_path::avx512,
                           simd_path::neon};
  for (simd_path cap : all) {
    const simd_path chosen = best_path(cap);
    EXPECT_TRUE(minifloat::path_supported(chosen)) << minifloat::to_string(cap);
    if (minifloat::path_supported(cap)) {
      EXPECT_EQ(chosen, cap) << minifloat::to_string(cap);
    } else if (cap == simd_path::avx512 && minifloat::path_supported(simd_path::avx2)) {
      EXPECT_EQ(chosen, simd_path::avx2);
    } else {
      EXPECT_EQ(chosen, simd_path::portable) << minifloat::to_string(cap);
    }
  }
  EXPECT_EQ(best_path(), minifloat::detail::program_path());
  EXPECT_EQ(best_path(), minifloat::active_path());
  // A path compiled for one architecture is never supported on the other.
  EXPECT_FALSE(minifloat::path_supported(simd_path::neon) &&
               minifloat::path_supported(simd_path::avx2));
  EXPECT_STREQ(minifloat::to_string(simd_path::neon), "neon");
}

// scoped_path, the door for tests and benchmarks: the calling thread's array functions take the
// chosen path while it lives, nested scopes restore the one before, other threads keep theirs,
// and a path the CPU cannot run is refused.
TEST(Dispatch, ScopedPathChoosesTheCallingThreadsPath) {
  const simd_path program = minifloat::active_path();
  for (simd_path path : supported_paths()) {
    {
      const minifloat::scoped_path outer(path);
      EXPECT_EQ(minifloat::active_path(), path);
      {
        const minifloat::scoped_path inner(simd_path::portable);
        EXPECT_EQ(minifloat::active_path(), simd_path::portable);
        simd_path seen_elsewhere = simd_path::portable;
        std::thread([&] { seen_elsewhere = minifloat::active_path(); }).join();
        EXPECT_EQ(seen_elsewhere, program);
      }
      EXPECT_EQ(minifloat::active_path(), path);
    }
    EXPECT_EQ(minifloat::active_path(), program);
  }
  for (simd_path path : {simd_path::avx2, simd_path::avx512, simd_path::neon}) {
    if (!minifloat::path_supported(path)) {
      EXPECT_THROW(minifloat::scoped_path{path}, minifloat::invalid_argument)
          << minifloat::to_string(path);
      EXPECT_EQ(minifloat::active_path(), program);
    }
  }
}

// The non-temporal threshold a scoped_path sets: 0 streams every widening output, SIZE_MAX none.
TEST(Dispatch, ScopedPathSetsTheNonTemporalThreshold) {
  using minifloat::detail::stores;
  using minifloat::detail::stores_for;
  {
    const minifloat::scoped_path streaming(minifloat::active_path(), 0);
    EXPECT_EQ(stores_for(1), stores::non_temporal);
  }
  {
    const minifloat::scoped_path cached(minifloat::active_path(), SIZE_MAX);
    EXPECT_EQ(stores_for(SIZE_MAX - 1), stores::cached);
  }
  EXPECT_EQ(stores_for(MINIFLOAT_NON_TEMPORAL_THRESHOLD), stores::non_temporal);
}

} // namespace
