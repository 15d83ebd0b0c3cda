// The array functions (bulk.hpp) with their outputs streamed past the caches, on every path
// this CPU supports (a scoped_path's non-temporal threshold 0): the codes of floats (convert,
// quantize, with and without a report), doubles and 16-bit values equal the scalar conversion's
// and those of the same call through the caches, and the bytes around the output are never
// touched. (Apart from bulk_test, whose file compiled in 5 minutes with these: the two build side
// by side.)
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <minifloat/bulk.hpp>
#include <minifloat/minifloat.hpp>

#include "supported_paths.hpp"

#include "bulk_inputs.hpp"
#include "formats_under_test.hpp"
#include "report_expect.hpp"

namespace {

using bulk_inputs::guard;
using bulk_inputs::scalar_code;
using bulk_inputs::sources_from;
using bulk_inputs::test_floats;
using minifloat::conversion_report;
using minifloat::overflow;
using minifloat::simd_path;
using minifloat::detail::rounding_rule;

template <class T>
class BulkStreaming : public ::testing::Test {};
TYPED_TEST_SUITE(BulkStreaming, under_test::every_format, under_test::format_names);

// Narrowing floats (convert, and quantize's scaled floats) with every output streamed (a
// scoped_path's threshold 0: on x86 the codes past dst's first 64-byte boundary go by streaming
// stores, the source then read off its lines) against the cached call's expected codes: lengths
// around the 64-code groups, dst and src at several offsets from a line, and nothing written
// outside dst. With a report too: its call is split at dst's boundary like the others, and its
// loop reads streamed codes back for the groups it looks at; the report must be the one the same
// call makes through the caches (report_test checks those against the definitions).
template <class T, minifloat::rounding R, overflow O>
void check_streaming_narrowing(simd_path path) {
  constexpr rounding_rule Rule = minifloat::detail::rule_of(R);
  const std::vector<float> floats = test_floats(600);
  alignas(64) static float source[600 + 16];
  alignas(64) static std::uint8_t storage[600 + 64 + 2];
  for (const std::size_t n : {0U, 1U, 63U, 64U, 127U, 257U, 300U, 519U}) {
    for (const std::size_t src_offset : {0U, 1U, 4U, 15U}) {
      for (const std::size_t dst_offset : {0U, 1U, 16U, 63U}) {
        std::copy(floats.begin(), floats.begin() + static_cast<std::ptrdiff_t>(n),
                  source + src_offset);
        for (const int kind : {0, 1, 2, 3}) {
          const bool scaled = kind % 2 == 1;
          const bool with_report = kind >= 2;
          if (scaled && (Rule != rounding_rule::nearest_even || O != overflow::saturate ||
                         !minifloat::detail::is_element_type<T>)) {
            continue; // quantize narrows to the signed formats, nearest-even and saturating
          }
          // The call, with every output streamed (threshold 0) or through the caches.
          const auto narrow = [&](T* to, std::size_t threshold, conversion_report* report) {
            const minifloat::scoped_path on(path, threshold);
            if constexpr (minifloat::detail::is_element_type<T>) {
              if (scaled && report != nullptr) {
                minifloat::quantize(source + src_offset, n, to, 0.75f, *report);
              } else if (scaled) {
                minifloat::quantize(source + src_offset, n, to, 0.75f);
              }
            }
            if (!scaled && report != nullptr) {
              minifloat::convert<R, O>(source + src_offset, n, to, *report);
            } else if (!scaled) {
              minifloat::convert<R, O>(source + src_offset, n, to);
            }
          };
          std::memset(storage, guard, sizeof storage);
          T* dst = reinterpret_cast<T*>(storage + 1 + dst_offset);
          conversion_report streamed;
          narrow(dst, 0, with_report ? &streamed : nullptr);
          if (with_report) {
            std::vector<T> cached_codes(n + 1);
            conversion_report cached;
            narrow(cached_codes.data(), SIZE_MAX, &cached);
            const std::string where = std::string(minifloat::to_string(path)) +
                                      " n=" + std::to_string(n) + " src+" +
                                      std::to_string(src_offset) + " dst+" +
                                      std::to_string(dst_offset) + (scaled ? " quantize" : "");
            EXPECT_EQ(streamed.elements, n) << where;
            expect_equal_counts(streamed, cached, where);
            EXPECT_EQ(streamed.max_relative_error, cached.max_relative_error) << where;
          }
          for (std::size_t i = 0; i < sizeof storage; ++i) {
            const auto k = i - 1 - dst_offset; // wraps below dst
            unsigned expected = guard;
            if (k < n) {
              const float x = source[src_offset + k];
              expected = scaled ? minifloat::saturate_cast<T>(x * 0.75f).bits()
                                : scalar_code<T, Rule, O>(x, 0);
            }
            ASSERT_EQ(storage[i], expected)
                << minifloat::to_string(path) << " n=" << n << " src+" << src_offset << " dst+"
                << dst_offset << (scaled ? " quantize" : " convert")
                << (with_report ? " with a report" : "") << " element " << k;
          }
        }
      }
    }
  }
}
TYPED_TEST(BulkStreaming, StreamingNarrowingEveryLengthAndOffset) {
  using T = TypeParam;
  for (simd_path path : supported_paths()) {
    check_streaming_narrowing<T, minifloat::rounding::nearest_even, overflow::non_saturating>(path);
    check_streaming_narrowing<T, minifloat::rounding::nearest_even, overflow::saturate>(path);
    check_streaming_narrowing<T, minifloat::rounding::toward_zero, overflow::saturate>(path);
  }
}

// Narrowing doubles, binary16 and bfloat16 values with every output streamed (on x86 the
// AVX-512 double kernel and the 16-bit word kernel of e4m3 and e5m2 then stream their groups;
// the word kernel falls back to the float lanes, through the caches, for a group holding a value
// below the target's normals): lengths around the groups, src and dst at several offsets, against
// the scalar codes, and nothing written outside dst.
template <class T, overflow O, class Source>
void check_streaming_narrowing_from(simd_path path, const std::vector<Source>& source) {
  const std::size_t count = source.size() - 1;
  // (Room for a line's worth of bytes before the first boundary, dst up to 64 past it, the codes
  // and a guard byte.)
  std::vector<std::uint8_t> storage(count + 2 * 64 + 1);
  for (const std::size_t n : {std::size_t{0}, std::size_t{63}, std::size_t{64}, std::size_t{65},
                              std::size_t{129}, std::size_t{1000}, count - 1, count}) {
    for (const std::size_t src_offset : {0U, 1U}) {
      for (const std::size_t dst_offset : {0U, 1U, 63U}) {
        std::fill(storage.begin(), storage.end(), guard);
        const auto address = reinterpret_cast<std::uintptr_t>(storage.data());
        std::uint8_t* line = storage.data() + (64 - address % 64) % 64;
        T* dst = reinterpret_cast<T*>(line + 1 + dst_offset);
        {
          const minifloat::scoped_path streaming(path, 0);
          minifloat::convert<minifloat::rounding::nearest_even, O>(source.data() + src_offset, n,
                                                                   dst);
        }
        for (std::size_t i = 0; i < storage.size(); ++i) {
          const auto k = static_cast<std::size_t>(storage.data() + i -
                                                  reinterpret_cast<std::uint8_t*>(dst)); // wraps
          const unsigned expected =
              k < n ? scalar_code<T, rounding_rule::nearest_even, O>(source[src_offset + k], 0)
                    : guard;
          ASSERT_EQ(storage[i], expected)
              << minifloat::to_string(path) << " n=" << n << " src+" << src_offset << " dst+"
              << dst_offset << " element " << k;
        }
      }
    }
  }
}
TYPED_TEST(BulkStreaming, StreamingNarrowingOfDoubleAnd16BitSources) {
  using T = TypeParam;
  // Every 16-bit pattern, in blocks of 256 in a scattered order: whole groups of normal values
  // between groups with tiny ones.
  std::vector<minifloat::binary16_bits> halves(65536 + 1);
  std::vector<minifloat::bfloat16_bits> brains(halves.size());
  for (std::size_t i = 0; i < halves.size(); ++i) {
    const auto bits = static_cast<std::uint16_t>((i / 256 * 97 % 256) << 8 | i % 256);
    halves[i] = minifloat::binary16_bits{bits};
    brains[i] = minifloat::bfloat16_bits{bits};
  }
  const std::vector<double> doubles = sources_from<double>(test_floats(4097));
  for (simd_path path : supported_paths()) {
    check_streaming_narrowing_from<T, overflow::non_saturating>(path, halves);
    check_streaming_narrowing_from<T, overflow::saturate>(path, halves);
    check_streaming_narrowing_from<T, overflow::non_saturating>(path, brains);
    check_streaming_narrowing_from<T, overflow::non_saturating>(path, doubles);
    check_streaming_narrowing_from<T, overflow::saturate>(path, doubles);
  }
}

} // namespace
