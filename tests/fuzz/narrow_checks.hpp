// narrow_fuzz's checks (see narrow_fuzz.cpp), in a header so that the harness compiles as two
// translation units in parallel: narrow_fuzz.cpp (float and double sources) and
// narrow_fuzz_16bit.cpp (binary16 and bfloat16), each instantiating its sources' kernels.
#ifndef MINIFLOAT_TESTS_FUZZ_NARROW_CHECKS_HPP
#define MINIFLOAT_TESTS_FUZZ_NARROW_CHECKS_HPP

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <type_traits>

#include <minifloat/minifloat.hpp>

#include "../reference.hpp"
#include "../supported_paths.hpp"
#include "formats.hpp"

// Internal linkage: each translation unit has its own copy of what it instantiates.
namespace narrow_fuzz {
namespace {

using minifloat::overflow;
using minifloat::rounding;
using minifloat::simd_path;
using minifloat::detail::rounding_rule;

[[noreturn]] void fail(const char* what, const char* path, std::size_t i, unsigned got,
                       unsigned expected) {
  std::fprintf(stderr, "narrow_fuzz: %s on %s: element %zu gives 0x%02X, expected 0x%02X\n", what,
               path, i, got, expected);
  std::abort();
}

// The exact value of an input, for the reference.
inline double value_of(float x) { return static_cast<double>(x); }
inline double value_of(double x) { return x; }
inline double value_of(minifloat::binary16_bits x) { return reference::decode_binary16(x.bits); }
inline double value_of(minifloat::bfloat16_bits x) { return reference::decode_bfloat16(x.bits); }

template <class T>
std::unique_ptr<T[]> exact_array(std::size_t n) {
  return std::unique_ptr<T[]>(new T[n]);
}

constexpr reference::mode reference_mode(rounding_rule rule) {
  return rule == rounding_rule::nearest_even  ? reference::mode::nearest_even
         : rule == rounding_rule::toward_zero ? reference::mode::toward_zero
         : rule == rounding_rule::upward      ? reference::mode::upward
                                              : reference::mode::stochastic;
}

constexpr rounding public_rounding(rounding_rule rule) {
  return rule == rounding_rule::toward_zero ? rounding::toward_zero
         : rule == rounding_rule::upward    ? rounding::upward
                                            : rounding::nearest_even;
}

// Checks one rounding rule and overflow rule: the scalar converter against the reference, then
// the public array function and every path against the scalar converter.
template <class To, rounding_rule Rule, overflow Overflow, class From>
void check_mode(const From* src, std::size_t n, const reference::narrower& ref,
                const std::uint32_t* random_bits, minifloat::counter_generator generator,
                bool use_generator) {
  auto expected = exact_array<std::uint8_t>(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::uint32_t bits = 0;
    if constexpr (Rule == rounding_rule::stochastic) {
      bits = use_generator ? generator(i) : random_bits[i];
      expected[i] = minifloat::stochastic_cast<To, Overflow>(src[i], bits).bits();
    } else {
      expected[i] = minifloat::convert<To, public_rounding(Rule), Overflow>(src[i]).bits();
      // The other spellings of the same conversion.
      if constexpr (Rule == rounding_rule::nearest_even && Overflow == overflow::saturate) {
        if (minifloat::saturate_cast<To>(src[i]).bits() != expected[i]) {
          fail("saturate_cast vs convert", "scalar", i, minifloat::saturate_cast<To>(src[i]).bits(),
               expected[i]);
        }
      } else if constexpr (Rule == rounding_rule::nearest_even) {
        if (To(src[i]).bits() != expected[i]) {
          fail("constructor vs convert", "scalar", i, To(src[i]).bits(), expected[i]);
        }
      }
    }
    const unsigned by_reference =
        ref.round(value_of(src[i]), reference_mode(Rule), Overflow == overflow::saturate, bits);
    if (expected[i] != by_reference) {
      fail("scalar converter vs reference", "scalar", i, expected[i], by_reference);
    }
  }
  auto dst = exact_array<To>(n);
  const auto compare = [&](const char* what, const char* path) {
    for (std::size_t i = 0; i < n; ++i) {
      if (dst[i].bits() != expected[i]) {
        fail(what, path, i, dst[i].bits(), expected[i]);
      }
    }
  };
  // The public entry points.
  if constexpr (Rule == rounding_rule::stochastic) {
    if (use_generator) {
      minifloat::stochastic_convert<Overflow>(src, n, dst.get(), generator);
    } else {
      minifloat::stochastic_convert<Overflow>(src, n, random_bits, dst.get());
    }
  } else {
    minifloat::convert<public_rounding(Rule), Overflow>(src, n, dst.get());
  }
  compare("public array function", minifloat::to_string(minifloat::active_path()));
#if MINIFLOAT_HAS_RANGES
  if constexpr (Rule != rounding_rule::stochastic) {
    minifloat::convert<public_rounding(Rule), Overflow>(std::span<const From>(src, n),
                                                        std::span<To>(dst.get(), n));
    compare("span form", minifloat::to_string(minifloat::active_path()));
  }
#endif
  // Every path the CPU runs.
  for (simd_path path : supported_paths()) {
    if constexpr (Rule == rounding_rule::stochastic) {
      if (use_generator) {
        narrow_on<Rule, Overflow>(path, src, n, dst.get(), generator);
      } else {
        narrow_on<Rule, Overflow>(path, src, n, dst.get(), random_bits_array{random_bits});
      }
    } else {
      narrow_on<Rule, Overflow>(path, src, n, dst.get(), no_random_bits{});
    }
    compare("narrowing path", minifloat::to_string(path));
  }
  // Reports (report.hpp), on the active path (report_test covers every path): the
  // element-by-element definitions' counts.
  minifloat::detail::report_tally recount;
  for (std::size_t i = 0; i < n; ++i) {
    recount.add<typename To::format>(value_of(src[i]), expected[i]);
  }
  recount.report.elements = n;
  {
    const char* path = minifloat::to_string(minifloat::active_path());
    minifloat::conversion_report report;
    if constexpr (Rule == rounding_rule::stochastic) {
      if (use_generator) {
        minifloat::stochastic_convert<Overflow>(src, n, dst.get(), generator, report);
      } else {
        minifloat::stochastic_convert<Overflow>(src, n, random_bits, dst.get(), report);
      }
    } else {
      minifloat::convert<public_rounding(Rule), Overflow>(src, n, dst.get(), report);
    }
    compare("narrowing with a report", path);
    const minifloat::conversion_report& r = recount.report;
    if (report.elements != r.elements || report.nan_inputs != r.nan_inputs ||
        report.infinite_inputs != r.infinite_inputs || report.saturated != r.saturated ||
        report.overflowed != r.overflowed || report.flushed_to_zero != r.flushed_to_zero ||
        report.subnormal != r.subnormal ||
        report.negative_for_unsigned != r.negative_for_unsigned ||
        !(report.max_relative_error == r.max_relative_error)) {
      std::fprintf(stderr, "narrow_fuzz: the report on %s differs from the definitions\n", path);
      std::abort();
    }
  }
}

template <class To, overflow Overflow, class From>
void check_every_rule(const From* src, std::size_t n, const reference::narrower& ref,
                      const std::uint32_t* random_bits, minifloat::counter_generator generator) {
  check_mode<To, rounding_rule::nearest_even, Overflow>(src, n, ref, random_bits, generator, false);
  check_mode<To, rounding_rule::toward_zero, Overflow>(src, n, ref, random_bits, generator, false);
  check_mode<To, rounding_rule::upward, Overflow>(src, n, ref, random_bits, generator, false);
  if constexpr (std::is_same<From, float>::value) {
    check_mode<To, rounding_rule::stochastic, Overflow>(src, n, ref, random_bits, generator, false);
    check_mode<To, rounding_rule::stochastic, Overflow>(src, n, ref, random_bits, generator, true);
  }
}

// The input bytes as codes of To, widened on every path: the exact value (reference::decode),
// NaN for NaN.
template <class To, class Wide>
void check_widening(const std::uint8_t* bytes, std::size_t n, const reference::format& format) {
  auto codes = exact_array<To>(n);
  std::memcpy(codes.get(), bytes, n);
  auto wide = exact_array<Wide>(n);
  const auto compare = [&](const char* path) {
    for (std::size_t i = 0; i < n; ++i) {
      const double expected = reference::decode(format, codes[i].bits());
      const double got = value_of(wide[i]);
      const bool same = std::isnan(expected) ? std::isnan(got) : got == expected;
      // e8m0 -> binary16 is the one widening that rounds (2^-127 .. 2^127 is wider than
      // binary16); it must equal the scalar narrowing of the value.
      bool rounded_ok = false;
      if constexpr (std::is_same<Wide, minifloat::binary16_bits>::value) {
        rounded_ok = static_cast<Wide>(codes[i]).bits == wide[i].bits;
        rounded_ok = rounded_ok && !std::is_same<To, minifloat::e8m0>::value ? same : rounded_ok;
      }
      if (!same && !rounded_ok) {
        fail("widening", path, i, codes[i].bits(), 0);
      }
    }
  };
  minifloat::convert(codes.get(), n, wide.get());
  compare(minifloat::to_string(minifloat::active_path()));
  for (simd_path path : supported_paths()) {
    widen_on(path, codes.get(), n, wide.get(), false);
    compare(minifloat::to_string(path));
  }
}

template <class To, class From>
void check(const std::uint8_t* bytes, std::size_t size, const reference::format& format,
           minifloat::counter_generator generator) {
  const std::size_t n = size / sizeof(From);
  auto src = exact_array<From>(n);
  std::memcpy(static_cast<void*>(src.get()), bytes, n * sizeof(From));
  // The caller's random bits: the input bytes again, rotated so they differ from the values.
  auto random_bits = exact_array<std::uint32_t>(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::uint32_t word = 0;
    for (std::size_t b = 0; b < 4; ++b) {
      word = (word << 8U) | bytes[(i * 4 + b + 1) % size];
    }
    random_bits[i] = word;
  }
  const reference::narrower ref(format);
  check_every_rule<To, overflow::non_saturating>(src.get(), n, ref, random_bits.get(), generator);
  check_every_rule<To, overflow::saturate>(src.get(), n, ref, random_bits.get(), generator);
  check_widening<To, float>(bytes, size, format);
  check_widening<To, minifloat::binary16_bits>(bytes, size, format);
  check_widening<To, minifloat::bfloat16_bits>(bytes, size, format);
}

template <class From>
void check_source(unsigned format_index, const std::uint8_t* bytes, std::size_t size,
                  minifloat::counter_generator generator) {
  fuzz::with_format(format_index, [&](auto target, const reference::format& format) {
    check<decltype(target), From>(bytes, size, format, generator);
  });
}

} // namespace
} // namespace narrow_fuzz

// Defined in narrow_fuzz_16bit.cpp: check_source<binary16_bits> or <bfloat16_bits>.
void check_16bit_source(bool bfloat16, unsigned format_index, const std::uint8_t* bytes,
                        std::size_t size, minifloat::counter_generator generator);
// Defined in narrow_fuzz_between.cpp: the bytes as codes of every 8-bit format, and as
// integers, through the scalar conversions to format number `format_index`.
void check_between_formats(unsigned format_index, const std::uint8_t* bytes, std::size_t size);

#endif // MINIFLOAT_TESTS_FUZZ_NARROW_CHECKS_HPP
