// minifloat: the portable path's kernel type, portable_kernels: the lane operations on one
// 32-bit lane in plain constexpr C++, and the lane kernels (lanes.inc) compiled with them. This
// is the portable path of the array functions (a loop that compilers can vectorize: no
// branches, no tables, and for float sources no per-lane shifts, which baseline SSE2 lacks) and
// the scalar float -> fp8 conversion (detail/convert_value.hpp).
#ifndef MINIFLOAT_DETAIL_KERNELS_PORTABLE_HPP
#define MINIFLOAT_DETAIL_KERNELS_PORTABLE_HPP

#include <array>
#include <cfenv>
#include <cfloat>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "../binary16.hpp"
#include "../converter.hpp"
#include "../random.hpp"
#include "../report.hpp"
#include "../tables.hpp"
#include "value_traits.hpp"

#if defined(__SSE_MATH__) && !defined(__CUDACC__)
#include <xmmintrin.h> // _mm_getcsr: float arithmetic rounds as MXCSR says
#endif

namespace minifloat {
namespace detail {

// How many elements at p come before the next 64-byte boundary (a cache line's), where the x86
// paths start their aligned block loads and stores (x86.hpp with_aligned_stores, lanes.inc
// elements_before_line).
template <class T>
std::size_t elements_to_line(const T* p) noexcept {
  return (64 - reinterpret_cast<std::uintptr_t>(p) % 64) % 64 / sizeof(T);
}

namespace portable {

#define MINIFLOAT_LANE_FN MINIFLOAT_HOST_DEVICE constexpr inline
#define MINIFLOAT_ARRAY_FN inline
#define MINIFLOAT_UNROLLED // (lanes.inc says why)
#define MINIFLOAT_ROLLED   // (lanes.inc says why)

// Float addition in the environment's rounding where float arithmetic is evaluated in float
// (checked per array call: rounds_to_nearest below; not on x87), no per-lane shifts (baseline
// vector units lack them), one lane at a time.
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
constexpr float_addition_rounding portable_addition = float_addition_rounding::environment;
#else
constexpr float_addition_rounding portable_addition = float_addition_rounding::none;
#endif
// The running minima of the report's tests (lanes.inc keep_smaller) in the form each compiler
// vectorizes best for baseline x86-64 (SSE2 has no 32-bit minimum): unsigned under g++ 12, which
// leaves a signed minimum of unsigned lanes scalar (CMOVs, and a branch per value); signed under
// clang 14, whose unsigned ones made the reports 5-10 % slower (docs/performance.md, stop 80).
#if defined(__clang__)
constexpr bool portable_unsigned_minima = false;
#else
constexpr bool portable_unsigned_minima = true;
#endif
constexpr lane_capabilities capabilities{
    portable_addition,       // float_addition
    false,                   // per_lane_shifts
    false,                   // binary16_conversion
    false,                   // store4
    false,                   // double_rounding_to_odd
    false,                   // fixup_and_lookup32
    false,                   // code_bytes_outside
    false,                   // signs_on_packed_codes
    false,                   // float_min_keeps_nan
    false,                   // masked_tests
    portable_unsigned_minima // unsigned_minima
};

using u32v = std::uint32_t;
using maskv = bool;
// The rounding is the environment's: callers use this only after checking that it is Rule's.
template <rounding_rule Rule>
MINIFLOAT_LANE_FN u32v add_f32(u32v a, u32v b) {
  return detail::bit_cast<std::uint32_t>(detail::bit_cast<float>(a) + detail::bit_cast<float>(b));
}
// Whether the environment rounds to nearest (the default), so that add_f32 may stand for
// nearest-even. Where float arithmetic is SSE's, MXCSR decides, and it can be changed alone
// (_MM_SET_ROUNDING_MODE), which glibc's fegetround does not see on x86-64 (it reads the x87
// control word): so both are asked.
inline bool rounds_to_nearest() noexcept {
#if defined(__SSE_MATH__) && !defined(__CUDACC__)
  if ((_mm_getcsr() & 0x6000U) != 0) { // rounding control, bits 13-14: 0 is nearest
    return false;
  }
#endif
  return std::fegetround() == FE_TONEAREST;
}

MINIFLOAT_LANE_FN u32v splat(std::uint32_t x) { return x; }
MINIFLOAT_LANE_FN u32v iota() { return 0; }
MINIFLOAT_LANE_FN u32v add(u32v a, u32v b) { return a + b; }
MINIFLOAT_LANE_FN u32v sub(u32v a, u32v b) { return a - b; }
MINIFLOAT_LANE_FN u32v and_(u32v a, u32v b) { return a & b; }
MINIFLOAT_LANE_FN u32v or_(u32v a, u32v b) { return a | b; }
MINIFLOAT_LANE_FN u32v xor_(u32v a, u32v b) { return a ^ b; }
MINIFLOAT_LANE_FN u32v bit_select(u32v m, u32v a, u32v b) { return (a & m) | (b & ~m); }
MINIFLOAT_LANE_FN u32v mul_lo(u32v a, u32v b) { return a * b; }
template <unsigned N>
MINIFLOAT_LANE_FN u32v shr(u32v a) {
  return a >> N;
}
// x >> 16 (lanes.inc counter_bits_lanes; the x86 paths shuffle bytes instead).
MINIFLOAT_LANE_FN u32v shr16_lanes(u32v a) { return a >> 16; }
template <unsigned N>
MINIFLOAT_LANE_FN u32v shl(u32v a) {
  return a << N;
}
// As the vector instructions do: a count of 32 or more shifts everything out.
MINIFLOAT_LANE_FN u32v shrv(u32v a, u32v count) {
  return select(count < 32, a >> (count & 31), u32v{0});
}
MINIFLOAT_LANE_FN u32v shlv(u32v a, u32v count) {
  return select(count < 32, a << (count & 31), u32v{0});
}
// (The min / max pattern, which compilers emit without a branch and vectorize as one
// instruction, where select's mask arithmetic takes three.)
MINIFLOAT_LANE_FN u32v min_u(u32v a, u32v b) { return a < b ? a : b; }
MINIFLOAT_LANE_FN u32v max_u(u32v a, u32v b) { return a > b ? a : b; }
MINIFLOAT_LANE_FN maskv eq(u32v a, u32v b) { return a == b; }
MINIFLOAT_LANE_FN maskv gt_u(u32v a, u32v b) { return a > b; }
// Compared as signed, as the SIMD paths do: a lane of 2^31 or more given here by mistake then
// goes wrong on every path, where the tests against the reference see it.
MINIFLOAT_LANE_FN maskv gt_small(u32v a, u32v b) {
  return static_cast<std::int32_t>(a) > static_cast<std::int32_t>(b);
}
MINIFLOAT_LANE_FN maskv mask_and(maskv a, maskv b) { return a & b; }
MINIFLOAT_LANE_FN maskv mask_or(maskv a, maskv b) { return a | b; }
MINIFLOAT_LANE_FN maskv mask_and_not(maskv a, maskv b) { return a && !b; }
MINIFLOAT_LANE_FN bool any_lane(maskv m) { return m; }
MINIFLOAT_LANE_FN std::uint32_t mask_bits(maskv m) { return m ? 1U : 0U; }
MINIFLOAT_LANE_FN std::size_t count_lanes(maskv m) { return m ? 1U : 0U; }
MINIFLOAT_LANE_FN u32v inc_if(maskv m, u32v a) { return a + u32v{m}; }
MINIFLOAT_LANE_FN u32v dec_if(maskv m, u32v a) { return a - u32v{m}; }
// select(bool, u32v, u32v) is detail::select.
MINIFLOAT_LANE_FN u32v all_ones_where(maskv m, u32v a) { return select(m, 0xFFFFFFFFU, a); }
MINIFLOAT_LANE_FN u32v int_to_float_bits(u32v a) {
  // (Through int32: a signed conversion is one instruction on every vector unit.)
  return detail::bit_cast<std::uint32_t>(static_cast<float>(static_cast<std::int32_t>(a)));
}

// The product of lanes (as float bits) by a float: the scaling functions' x * scale, and the
// kernel without per-lane shifts' exact products by powers of two.
MINIFLOAT_LANE_FN u32v mul_f32(u32v a, float b) {
  return detail::bit_cast<std::uint32_t>(detail::bit_cast<float>(a) * b);
}

// For the kernel without per-lane shifts (lanes_by_fixed_point): a min for lanes below 2^31
// (signed, which baseline vector units compare; written as the min / max pattern, above), a float
// difference that the caller knows to be exact, and a float in [0, 2^31) truncated to an integer
// (a conversion that truncates whatever the rounding mode).
MINIFLOAT_LANE_FN u32v min_small(u32v a, u32v b) { return gt_small(b, a) ? a : b; }
MINIFLOAT_LANE_FN u32v max_small(u32v a, u32v b) { return gt_small(a, b) ? a : b; }
MINIFLOAT_LANE_FN u32v sub_f32(u32v a, u32v b) {
  return detail::bit_cast<std::uint32_t>(detail::bit_cast<float>(a) - detail::bit_cast<float>(b));
}
// a * b for float lanes in the current environment.
MINIFLOAT_LANE_FN u32v product_f32(u32v a, u32v b) {
  return detail::bit_cast<std::uint32_t>(detail::bit_cast<float>(a) * detail::bit_cast<float>(b));
}
// a / b rounded once in the current environment: the empty asm keeps a loop of it scalar, which
// g++ -ffast-math would vectorize with a reciprocal estimate (scaling.hpp quotient_rounded_once).
inline u32v quotient_f32(u32v a, u32v b) { // (not constexpr: the asm)
  float quotient = detail::bit_cast<float>(a) / detail::bit_cast<float>(b);
#if defined(__GNUC__)
  __asm__("" : "+m"(quotient));
#endif
  return detail::bit_cast<std::uint32_t>(quotient);
}
MINIFLOAT_LANE_FN u32v truncate_f32(u32v a) {
  return static_cast<u32v>(static_cast<std::int32_t>(detail::bit_cast<float>(a)));
}

// One element at a time: the loop is left to the compiler to vectorize.
constexpr std::size_t width = 1;
MINIFLOAT_LANE_FN u32v load_float_bits(const float* p) {
  return detail::bit_cast<std::uint32_t>(*p);
}
MINIFLOAT_LANE_FN u32v load_halves(const std::uint16_t* p) { return *p; }
// A double's two 32-bit words (its sign, exponent and top 20 mantissa bits; its low 32 bits).
// Clang reads them as two 32-bit loads where it can: from one 64-bit load its vectorizer took
// two doubles per 16-byte vector (double -> e4m3 0.32 el/ns, SSE2), from the words four (0.72;
// AMD Zen 5, clang 14). GCC 12 vectorizes the 64-bit load better than the words (0.61 against
// 0.21) and keeps it.
MINIFLOAT_LANE_FN void load_double_words(const double* p, u32v& high, u32v& low) {
#if defined(__clang__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  if (!__builtin_is_constant_evaluated()) {
    std::uint32_t words[2] = {};
    __builtin_memcpy(words, p, sizeof words);
    low = words[0];
    high = words[1];
    return;
  }
#endif
  const auto bits = detail::bit_cast<std::uint64_t>(*p);
  high = static_cast<u32v>(bits >> 32);
  low = static_cast<u32v>(bits);
}
MINIFLOAT_LANE_FN void load_double_words_partial(const double* p, std::size_t /*count*/, u32v& high,
                                                 u32v& low) {
  load_double_words(p, high, low);
}
MINIFLOAT_LANE_FN u32v load_halves_partial(const std::uint16_t* p, std::size_t /*count*/) {
  return *p;
}
MINIFLOAT_LANE_FN u32v load_u32(const std::uint32_t* p) { return *p; }
MINIFLOAT_LANE_FN u32v load_codes(const std::uint8_t* p) { return *p; }
MINIFLOAT_LANE_FN void store_u32(std::uint32_t* p, u32v a) { *p = a; }
MINIFLOAT_LANE_FN void store_codes(std::uint8_t* p, u32v code) {
  *p = static_cast<std::uint8_t>(code);
}
// (With one lane there is never a partial vector; these complete the set of operations.)
MINIFLOAT_LANE_FN u32v load_float_bits_partial(const float* p, std::size_t /*count*/) {
  return load_float_bits(p);
}
MINIFLOAT_LANE_FN u32v load_u32_partial(const std::uint32_t* p, std::size_t /*count*/) {
  return *p;
}
MINIFLOAT_LANE_FN void store_codes_partial(std::uint8_t* p, u32v code, std::size_t /*count*/) {
  store_codes(p, code);
}

MINIFLOAT_LANE_FN std::uint32_t reduce_max_u(u32v a) { return a; }
MINIFLOAT_LANE_FN u32v max_of_each(const u32v (&m)[1]) { return m[0]; }
// No software prefetch: one element per iteration, and a compiler's vectorized loop is its own.
constexpr std::size_t prefetch_distance = 0;

#include "lanes.inc"

#undef MINIFLOAT_ARRAY_FN
#undef MINIFLOAT_LANE_FN
#undef MINIFLOAT_UNROLLED
#undef MINIFLOAT_ROLLED

} // namespace portable

// How a decode (or, on x86, a narrowing of floats) writes its results: through the caches,
// or with non-temporal stores where the path has them (x86), for outputs larger than the caches
// (MINIFLOAT_NON_TEMPORAL_THRESHOLD).
enum class stores { cached, non_temporal };

// Packed e2m1 (FP4, element 2j in the low nibble of byte j, or ggml's order: mxfp4_blocks
// below) in blocks of 32 sharing the scale 2^(code - 127), into float or bfloat16 bits, from the
// first block while every product stays a normal number (scale codes 2 to 252: e2m1's values
// lie in [2^-1, 2^3)); returns how many blocks it decoded (the caller takes the next one
// through the exact steps). Each value's bfloat16 pattern from a 16-entry table, the scale added
// to its exponent field (a zero stays zero): exact, and no floating-point operation is
// involved, so no DAZ / FTZ applies.
constexpr std::size_t mx_fp4_block_bytes = 16;
constexpr bool mx_fp4_block_is_normal(std::uint8_t scale_code) noexcept {
  return scale_code >= 2 && scale_code <= 252;
}
// Where the MXFP4 decoders read blocks: block b's 16 element bytes at elements + b * Stride, its
// scale code at scales + b * ScaleStride; and which nibble holds element j: byte j / 2, the low
// nibble for even j (quantize_mx_packed's layout), or, GgmlOrder, byte j % 16, the low nibble for
// j < 16 (ggml's block_mxfp4, 17 bytes: the scale code, then the element bytes).
template <std::size_t Stride, std::size_t ScaleStride, bool GgmlOrder>
struct mxfp4_blocks {
  static constexpr bool ggml_order = GgmlOrder;
  const std::uint8_t* elements;
  const std::uint8_t* scales;
  constexpr const std::uint8_t* bytes(std::size_t b) const noexcept {
    return elements + b * Stride;
  }
  constexpr std::uint8_t scale(std::size_t b) const noexcept { return scales[b * ScaleStride]; }
  // The blocks from block b on.
  constexpr mxfp4_blocks from(std::size_t b) const noexcept {
    return {bytes(b), scales + b * ScaleStride};
  }
};
using packed_mxfp4_blocks = mxfp4_blocks<16, 1, false>;
using ggml_mxfp4_blocks = mxfp4_blocks<17, 17, true>;
// The 16 bfloat16 patterns of e2m1's codes, twice: a 64-byte register's 32 words, so that a
// word permute (VPERMW, 5 index bits) may leave garbage in an index's bit 4.
constexpr std::array<std::uint16_t, 32> make_e2m1_bfloat16_words() noexcept {
  std::array<std::uint16_t, 32> words{};
  for (std::size_t k = 0; k < 32; ++k) {
    words[k] = code_table_for<formats::e2m1, formats::bfloat16>[k % 16];
  }
  return words;
}
alignas(64) inline constexpr std::array<std::uint16_t, 32> e2m1_bfloat16_words =
    make_e2m1_bfloat16_words();
// Each e8m0 scale code's step of a bfloat16 exponent field, (code - 127) << 7, in both halves
// of a dword: one VPBROADCASTD load gives a block's step in every word.
constexpr std::array<std::uint32_t, 256> make_e8m0_bfloat16_steps() noexcept {
  std::array<std::uint32_t, 256> steps{};
  for (std::size_t code = 0; code < 256; ++code) {
    const auto step = static_cast<std::uint16_t>((code - 127U) << 7);
    steps[code] = step | std::uint32_t{step} << 16;
  }
  return steps;
}
alignas(64) inline constexpr std::array<std::uint32_t, 256> e8m0_bfloat16_steps =
    make_e8m0_bfloat16_steps();
// Per block, the 16 results of its codes first (the table with the block's step added to the
// non-zero patterns' exponent fields), then a lookup per element.
template <class To, class Blocks>
std::size_t decode_e2m1_blocks_portable(Blocks in, std::size_t blocks, To* dst) noexcept {
  for (std::size_t b = 0; b < blocks; ++b) {
    const std::uint8_t scale = in.scale(b);
    if (!mx_fp4_block_is_normal(scale)) {
      return b;
    }
    const auto exponent_step = static_cast<std::uint16_t>((scale - 127U) << 7);
    To results[16];
    for (std::size_t code = 0; code < 16; ++code) {
      const std::uint16_t value = e2m1_bfloat16_words[code];
      const auto bits = static_cast<std::uint16_t>(
          value + ((value & 0x7FFFU) != 0 ? exponent_step : std::uint16_t{0}));
      if constexpr (std::is_same<To, float>::value) {
        results[code] = bit_cast<float>(std::uint32_t{bits} << 16);
      } else {
        results[code] = To{bits};
      }
    }
    const std::uint8_t* bytes = in.bytes(b);
    To* out = dst + b * 2 * mx_fp4_block_bytes;
    for (std::size_t j = 0; j < mx_fp4_block_bytes; ++j) {
      const std::size_t low = Blocks::ggml_order ? j : 2 * j;
      const std::size_t high = Blocks::ggml_order ? j + mx_fp4_block_bytes : 2 * j + 1;
      out[low] = results[bytes[j] & 0x0FU];
      out[high] = results[bytes[j] >> 4];
    }
  }
  return blocks;
}

// A float's bits rounded to bfloat16, nearest-even, the float not a NaN (an infinity stays one;
// past the largest finite rounds to infinity, subnormals are kept), on the bits.
constexpr std::uint16_t bfloat16_nearest_even_not_nan(std::uint32_t float_bits) noexcept {
  return static_cast<std::uint16_t>((float_bits + 0x7FFFU + ((float_bits >> 16) & 1U)) >> 16);
}
// The same for any float, as convert<bfloat16_bits> does (a NaN becomes the quiet NaN 0x7FC0
// with its sign): no floating-point operation, so no DAZ / FTZ, and whatever MXCSR says.
constexpr std::uint16_t bfloat16_nearest_even(std::uint32_t float_bits) noexcept {
  return (float_bits & 0x7FFFFFFFU) > 0x7F800000U
             ? static_cast<std::uint16_t>(((float_bits >> 16) & 0x8000U) | 0x7FC0U)
             : bfloat16_nearest_even_not_nan(float_bits);
}

// NVFP4 blocks of 16 (e2m1 elements two per byte, element 2j in the low nibble; a ue4m3 scale
// byte per block) into float, Transformer Engine's order (docs/spec.md §7): (element * byte),
// exact, then times decode, rounded once; into bfloat16_bits (To), that float rounded once more
// (nearest-even). The 16 products of a block are made first, in a table: so the first product
// cannot be reassociated with the second (-ffast-math). decode is positive and finite
// (dequantize_nvfp4 checks): only a NaN byte makes NaNs, set on the bits.
constexpr std::size_t nvfp4_block_bytes = 8;
// From how many blocks the x86 kernels' decode_nvfp4_blocks into bfloat16 make each scale byte's
// results first: all 128 bytes' results take about 60 ns on AVX-512 and 120 ns on AVX2 (an Intel
// Xeon), what they save in about 200 blocks, so for fewer blocks they can cost more than they
// save (docs/performance.md, stop 75).
constexpr std::size_t nvfp4_rows_from_blocks = 1024;
// The scale bytes a decoder's table of each byte's results needs (the x86 kernels'
// decode_nvfp4_blocks for many blocks): from first (even) to last, without their top bits.
struct scale_byte_range {
  std::uint32_t first;
  std::uint32_t last;
};
// Whether an MX rule's scale codes (mx_scale_code_lanes) read only an amax's high 16 bits, so
// that a kernel may gather its blocks' amaxes by 16-bit words: a significand threshold t (A > t)
// decides the same for A with its low 16 bits cleared where t + 1 is a multiple of 2^16, or
// where t is 0 (always) or at least 2^24 - 1 (never). The floor, even and nearest rules;
// not ceil, whose threshold is max(T)'s significand. (The exponent, the clamp and the NaN
// scale read bits 23-31 only; a NaN whose payload lies in the low bits reads as infinity, which
// gets the same NaN scale: docs/spec.md §7.)
constexpr bool mx_threshold_by_high_words(std::uint32_t t) noexcept {
  return t == 0 || t >= 0x00FFFFFFU || ((t + 1) & 0xFFFFU) == 0;
}
inline bool mx_amax_high_words_suffice(const mx_block_scales& rule) noexcept {
  return mx_threshold_by_high_words(rule.above_once) &&
         mx_threshold_by_high_words(rule.above_twice);
}
// The range of the bytes of some lanes' bytewise minima and maxima (`lanes` of each) and of
// `count` more bytes, each without its top bit (ignored when read: docs/spec.md §7).
inline scale_byte_range scale_byte_range_from(const std::uint8_t* minima,
                                              const std::uint8_t* maxima, std::size_t lanes,
                                              const std::uint8_t* rest, std::size_t count) {
  std::uint32_t first = 0x7FU;
  std::uint32_t last = 0;
  const auto take = [&](std::uint32_t low, std::uint32_t high) {
    first = low < first ? low : first;
    last = high > last ? high : last;
  };
  for (std::size_t k = 0; k < lanes; ++k) {
    take(minima[k], maxima[k]);
  }
  for (std::size_t k = 0; k < count; ++k) {
    take(rest[k] & 0x7FU, rest[k] & 0x7FU);
  }
  return {first & ~1U, last};
}
template <class To>
void decode_nvfp4_blocks_portable(const std::uint8_t* packed, const std::uint8_t* scale_codes,
                                  std::size_t blocks, float decode, To* dst) noexcept {
  const auto& values = code_table_for<formats::e2m1, formats::binary32>;
  const auto& bytes_as_floats = code_table_for<formats::ue4m3, formats::binary32>;
  const auto store = [](float value) {
    if constexpr (std::is_same<To, float>::value) {
      return value;
    } else {
      return To{bfloat16_nearest_even_not_nan(bit_cast<std::uint32_t>(value))};
    }
  };
  for (std::size_t b = 0; b < blocks; ++b) {
    const std::uint8_t* bytes = packed + b * nvfp4_block_bytes;
    const std::uint32_t byte_bits = bytes_as_floats[scale_codes[b]];
    To* out = dst + b * 2 * nvfp4_block_bytes;
    if ((byte_bits & 0x7FFFFFFFU) > 0x7F800000U) {
      // A NaN byte: its NaN with each element's sign (docs/spec.md §7), set on the bits
      // (-ffast-math would fold 0 * NaN, a known 0, to 0).
      for (std::size_t j = 0; j < 2 * nvfp4_block_bytes; ++j) {
        // (store's rounding keeps it a NaN: the byte's NaN, 0x7FC00000, has a low half of 0.)
        const std::uint32_t sign = (unsigned{bytes[j / 2]} >> (4 * (j % 2)) & 0x08U) << 28;
        out[j] = store(bit_cast<float>(byte_bits | sign));
      }
      continue;
    }
    const auto byte = bit_cast<float>(byte_bits);
    float times_byte[16];
    for (std::size_t code = 0; code < 16; ++code) {
      times_byte[code] = bit_cast<float>(values[code]) * byte;
    }
    if constexpr (std::is_same<To, float>::value) {
      for (std::size_t j = 0; j < 2 * nvfp4_block_bytes; ++j) {
        const unsigned code = (unsigned{bytes[j / 2]} >> (4 * (j % 2))) & 0x0FU;
        out[j] = times_byte[code] * decode;
      }
    } else {
      // bfloat16: the block's 16 results by code, rounded once each, then one lookup per element
      // (a rounding per element took twice as long). An empty asm keeps the two products apart,
      // as on the vector paths: without it clang 19 -Ofast multiplied each element by
      // byte * decode, another rounding. (For float results the asm made the loop slower, and
      // the products per element need none.)
      __asm__("" : "+m"(times_byte));
      To results[16];
      for (std::size_t code = 0; code < 16; ++code) {
        results[code] = store(times_byte[code] * decode);
      }
      for (std::size_t k = 0; k < nvfp4_block_bytes; ++k) {
        const unsigned pair = bytes[k];
        out[2 * k] = results[pair & 0x0FU];
        out[2 * k + 1] = results[pair >> 4];
      }
    }
  }
}

// Whether a word's lowest byte is the first in memory (then pack_nibble_pairs_portable loads and
// stores words; otherwise it goes byte by byte: s390x).
#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) &&                                    \
    __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
constexpr bool little_endian = false;
#else
constexpr bool little_endian = true;
#endif

// FP4 packing (packed.hpp's layout): the low four bits of codes[2j] into the low nibble of
// packed[j], those of codes[2j + 1] into its high nibble; n even. Eight codes at a time in a
// 64-bit word (byte k = code k): x | x >> 4 puts code 2j + 1 above code 2j in byte 2j, and the
// even bytes are then gathered into four.
inline void pack_nibble_pairs_portable(const std::uint8_t* codes, std::size_t n,
                                       std::uint8_t* packed) noexcept {
  std::size_t i = 0;
  if constexpr (little_endian) {
    for (; i + 8 <= n; i += 8) {
      std::uint64_t x = 0;
      std::memcpy(&x, codes + i, sizeof x);
      x &= 0x0F0F0F0F0F0F0F0FU;
      std::uint64_t y = (x | x >> 4) & 0x00FF00FF00FF00FFU;
      y = (y | y >> 8) & 0x0000FFFF0000FFFFU;
      const auto four = static_cast<std::uint32_t>(y | y >> 16);
      std::memcpy(packed + i / 2, &four, sizeof four);
    }
  }
  for (; i < n; i += 2) {
    packed[i / 2] = static_cast<std::uint8_t>((codes[i] & 0x0FU) | (codes[i + 1] & 0x0FU) << 4);
  }
}

// The portable path: the interface every kernel type has (detail/dispatch.hpp calls them).
struct portable_kernels {
  static constexpr const char* name = "portable";
  static constexpr lane_capabilities capabilities = portable::capabilities;
  // Whether the path has quantize_block_groups<Target, Size>(src, blocks, codes, rule,
  // prefetch_end): one-row blocks of Size floats (32, 128) quantized `width` side by side at a
  // time in one pass (lanes.inc quantize_block_groups), returning the blocks done, and
  // quantize_block_rows<Target, Size>(src, rows, stride, factor, codes, next, after_next,
  // next_amax): one block of several rows narrowed while the next one's amax is read (lanes.inc
  // quantize_block_rows_folding), returning whether it did. Not here: a group of one block
  // narrowed one float at a time, where the encode loop below is vectorized.
  static constexpr bool quantizes_block_groups = false;
  // quantize_block_groups also for FP4 elements, packed two per byte (store_nibble_pairs4).
  static constexpr bool quantizes_fp4_block_groups = false;
  // quantize_ggml_block_groups (ggml's MXFP4 blocks, two per store of 16 lanes) exists.
  static constexpr bool quantizes_ggml_block_groups = false;

  // n values of src (float, double, binary16_bits, bfloat16_bits, scaled_floats or
  // block_scaled_floats) into codes of Target, with rounding Rule and overflow rule Overflow;
  // element i meets random(i).
  template <class Target, rounding_rule Rule, overflow Overflow, class Source, class Random,
            class Tally = no_tally>
  static void encode(Source src, std::size_t n, std::uint8_t* codes, const Random& random,
                     Tally&& tally = Tally{}, stores /*mode*/ = stores::cached) {
    constexpr step2_variant variant = step2_for<formats::binary32, Target, Rule>(capabilities);
    if constexpr (variant == step2_variant::lane_addition_if_nearest) {
      if (portable::rounds_to_nearest()) {
        encode_with<Target, Rule, Overflow, step2_variant::lane_addition>(src, n, codes, random,
                                                                          tally);
      } else {
        encode_with<Target, Rule, Overflow, step2_variant::lane_fixed_point>(src, n, codes, random,
                                                                             tally);
      }
    } else {
      encode_with<Target, Rule, Overflow, variant>(src, n, codes, random, tally);
    }
  }
  // encode's loop for one step-2 variant. The block quantizers' source (block_scaled_floats)
  // goes a block at a time as scaled_floats, x times one factor: a loop that compilers vectorize,
  // where the lookup of factors[i >> shift] per element kept g++ 12 from it (float -> MXFP4 on
  // this path: 12 cycles per element; lanes have no per-block structure here, width being 1).
  template <class Target, rounding_rule Rule, overflow Overflow, step2_variant Variant,
            class Source, class Random, class Tally>
  static void encode_with(Source src, std::size_t n, std::uint8_t* codes, const Random& random,
                          Tally& tally) {
    if constexpr (std::is_same<Source, block_scaled_floats>::value &&
                  std::is_same<Random, no_random_bits>::value) {
      const std::size_t block = std::size_t{1} << src.block_shift;
      for (std::size_t i = 0; i < n;) {
        const block_scaled_floats at = src + i;
        const std::size_t to_block_end = block - at.first % block;
        const std::size_t count = n - i < to_block_end ? n - i : to_block_end;
        portable::encode_array<Target, Rule, Overflow, Variant>(scaled_floats{at.data, at.factor()},
                                                                count, codes + i, random, tally);
        i += count;
      }
    } else {
      portable::encode_array<Target, Rule, Overflow, Variant>(src, n, codes, random, tally);
    }
  }
  // n codes of Format into dst (float, binary16_bits or bfloat16_bits), exactly: a lookup in
  // the compile-time table of results. (No streaming stores: `stores` is a hint.)
  template <class Format, class To>
  static void decode(const std::uint8_t* codes, std::size_t n, To* dst, stores /*mode*/) {
    const auto& table = code_table_for<Format, typename value_traits<To>::format>;
    for (std::size_t i = 0; i < n; ++i) {
      dst[i] = value_traits<To>::from_code(table[codes[i]]);
    }
  }
  // max |src[i]| as bits (amax's rule, bulk.hpp).
  static std::uint32_t max_magnitude_bits(const float* src, std::size_t n) {
    return portable::max_magnitude_bits(src, n);
  }
  // Per block of block_size floats by `rows` rows `stride` floats apart (the block quantizers').
  // One loop over each row of a block, its maximum kept as a signed int (magnitudes lie below
  // 2^31): g++ -O3 and clang -O2 vectorize it with SSE2, which has no unsigned maximum, where
  // lanes.inc's loops, unrolled for vector widths, stayed scalar (float -> MXFP4 on this path
  // spent 1.3 cycles per element there).
  static void block_max_magnitude_bits(const float* src, std::size_t blocks, std::size_t block_size,
                                       std::uint32_t* out, std::size_t rows = 1,
                                       std::size_t stride = 0) {
    for (std::size_t b = 0; b < blocks; ++b) {
      std::int32_t largest = 0;
      for (std::size_t r = 0; r < rows; ++r) {
        const float* row = src + r * stride + b * block_size;
        for (std::size_t j = 0; j < block_size; ++j) {
          const auto magnitude =
              static_cast<std::int32_t>(detail::bit_cast<std::uint32_t>(row[j]) & 0x7FFFFFFFU);
          largest = magnitude > largest ? magnitude : largest;
        }
      }
      out[b] = static_cast<std::uint32_t>(largest);
    }
  }
  // The blocks' scales and their inverses as float bits (blocks [0, count) rounded up to a
  // multiple of the path's width; lanes.inc block_scales).
  static void block_scales(const std::uint32_t* largest, std::size_t count, float max_value,
                           int margin, bool power_of_two, std::uint32_t* scales,
                           std::uint32_t* inverses) {
    portable::block_scales(largest, count, max_value, margin, power_of_two, scales, inverses);
  }
  // quantize_mx's scale codes and factors (lanes.inc mx_scale_codes; blocks [0, count) rounded
  // up to a multiple of the path's width).
  static bool mx_scale_codes(const std::uint32_t* amax_bits, std::size_t count, std::uint32_t low,
                             std::uint32_t above_once, std::uint32_t above_twice,
                             std::uint8_t* codes, std::uint32_t* factors) {
    return portable::mx_scale_codes(amax_bits, count, low, above_once, above_twice, codes, factors);
  }
  // NVFP4's element factors from the scale bytes' values (lanes.inc nvfp4_factors; blocks
  // [0, count) rounded up to a multiple of the path's width).
  static void nvfp4_factors(const float* bytes, std::size_t count, float decode,
                            std::uint32_t* factors) {
    portable::nvfp4_factors(bytes, count, decode, factors);
  }
  // FP4 codes (one per byte) packed two per byte, n even (pack_nibble_pairs_portable above).
  static void pack_nibble_pairs(const std::uint8_t* codes, std::size_t n, std::uint8_t* packed) {
    pack_nibble_pairs_portable(codes, n, packed);
  }
  // NVFP4 blocks into float or bfloat16_bits (decode_nvfp4_blocks_portable above).
  template <class To>
  static void decode_nvfp4_blocks(const std::uint8_t* packed, const std::uint8_t* scale_codes,
                                  std::size_t blocks, float decode, To* dst) {
    decode_nvfp4_blocks_portable(packed, scale_codes, blocks, decode, dst);
  }
  // MXFP4 blocks (Blocks: packed_mxfp4_blocks or ggml_mxfp4_blocks) from the start while their
  // products stay normal, into float or bfloat16_bits; returns how many
  // (decode_e2m1_blocks_portable above).
  template <class To, class Blocks>
  static std::size_t decode_e2m1_blocks(Blocks in, std::size_t blocks, To* dst) {
    return decode_e2m1_blocks_portable<To>(in, blocks, dst);
  }
};

} // namespace detail
} // namespace minifloat

#endif // MINIFLOAT_DETAIL_KERNELS_PORTABLE_HPP
