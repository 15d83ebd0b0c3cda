// The bad-input contract (README "Bad input"), one case per row: a call that must be refused,
// the exact message it must give, and every array it could touch. The same table is run with
// exceptions (bad_input_test: the exception and its what()), under -fno-exceptions with the
// default handler (bad_input_abort_test: the message on stderr, then SIGABRT) and with a
// MINIFLOAT_ERROR_HANDLER (bad_input_handler_test); each checks that no array was written.
// The header has no GoogleTest in it and uses no exceptions, so all three can include it.
#ifndef MINIFLOAT_TESTS_BAD_INPUT_CASES_HPP
#define MINIFLOAT_TESTS_BAD_INPUT_CASES_HPP

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include <minifloat/minifloat.hpp>

#include "ieee.hpp"

namespace bad_input {

// Half the bits of std::size_t (32 on 64-bit targets, 16 on 32-bit ones).
constexpr unsigned half_word = sizeof(std::size_t) * 4;

using minifloat::e4m3;
using minifloat::e8m0;

// Every array a case may read or write, filled with patterns no refused call could leave by
// accident, and a copy of their bytes to compare with afterwards.
struct arrays {
  std::vector<float> x =
      pattern<float>(256, [](std::size_t i) { return static_cast<float>(i) * 0.75f - 40.0f; });
  std::vector<e4m3> q = pattern<e4m3>(
      256, [](std::size_t i) { return e4m3::from_bits(static_cast<std::uint8_t>(0x5A ^ i)); });
  std::vector<float> out =
      pattern<float>(256, [](std::size_t i) { return 7.0f + static_cast<float>(i); });
  std::vector<float> scale_inv =
      pattern<float>(8, [](std::size_t i) { return 9.0f + static_cast<float>(i); });
  std::vector<e8m0> scales = pattern<e8m0>(
      8, [](std::size_t i) { return e8m0::from_bits(static_cast<std::uint8_t>(0x33 + i)); });
  std::vector<std::uint32_t> random_bits = pattern<std::uint32_t>(
      256, [](std::size_t i) { return static_cast<std::uint32_t>(0x9E3779B9U * (i + 1)); });
  // A refused delayed_scaling::quantize must record nothing.
  minifloat::delayed_scaling<e4m3> scaling{4};

  std::vector<unsigned char> snapshot = bytes();

  bool untouched() const {
    return bytes() == snapshot && scaling.amax_history().empty() && scaling.scale() == 1.0f;
  }

private:
  template <class T, class Fill>
  static std::vector<T> pattern(std::size_t n, Fill fill) {
    std::vector<T> values;
    for (std::size_t i = 0; i < n; ++i) {
      values.push_back(fill(i));
    }
    return values;
  }
  template <class T>
  static void append(std::vector<unsigned char>& to, const std::vector<T>& values) {
    const std::size_t old_size = to.size();
    to.resize(old_size + values.size() * sizeof(T));
    std::memcpy(to.data() + old_size, values.data(), values.size() * sizeof(T));
  }
  std::vector<unsigned char> bytes() const {
    std::vector<unsigned char> all;
    append(all, x);
    append(all, q);
    append(all, out);
    append(all, scale_inv);
    append(all, scales);
    append(all, random_bits);
    return all;
  }
};

struct bad_call {
  const char* what;    // what is wrong with the call
  const char* message; // the error's text: what(), or what the default handler prints
  void (*call)(arrays&);
};

// Pointers of the right types with nothing behind them.
inline const float* const no_floats = nullptr;
inline float* const no_float_output = nullptr;
inline const e4m3* const no_codes = nullptr;
inline e4m3* const no_code_output = nullptr;

inline std::vector<bad_call> bad_calls() {
  using minifloat::block_shape;
  std::vector<bad_call> calls = {
      // Arrays (bulk.hpp).
      {"convert: null source, n > 0", "convert: src is null but n is not 0",
       [](arrays& a) { minifloat::convert(no_floats, 4, a.q.data()); }},
      {"convert: null destination, n > 0", "convert: dst is null but n is not 0",
       [](arrays& a) { minifloat::convert(a.x.data(), 4, no_code_output); }},
      {"convert widening: null source, n > 0", "convert: src is null but n is not 0",
       [](arrays& a) { minifloat::convert(no_codes, 4, a.out.data()); }},
      {"convert: the codes written inside the floats read",
       "convert: dst overlaps src (in-place conversion is not supported)",
       [](arrays& a) {
         minifloat::convert(a.x.data(), 16, reinterpret_cast<e4m3*>(a.x.data()) + 8);
       }},
      {"convert: in place (same address)",
       "convert: dst overlaps src (in-place conversion is not supported)",
       [](arrays& a) { minifloat::convert(a.x.data(), 16, reinterpret_cast<e4m3*>(a.x.data())); }},
      {"convert widening: the floats written over the codes read",
       "convert: dst overlaps src (in-place conversion is not supported)",
       [](arrays& a) {
         minifloat::convert(reinterpret_cast<const e4m3*>(a.out.data()) + 4, 16, a.out.data());
       }},
      {"convert<toward_zero, saturate>: null source", "convert: src is null but n is not 0",
       [](arrays& a) {
         minifloat::convert<minifloat::rounding::toward_zero, minifloat::overflow::saturate>(
             static_cast<const double*>(nullptr), 1, a.q.data());
       }},
      {"stochastic_convert: null random bits, n > 0",
       "stochastic_convert: random_bits is null but n is not 0",
       [](arrays& a) { minifloat::stochastic_convert(a.x.data(), 4, nullptr, a.q.data()); }},
      {"stochastic_convert: codes written over the random bits",
       "stochastic_convert: dst overlaps random_bits",
       [](arrays& a) {
         minifloat::stochastic_convert(a.x.data(), 16, a.random_bits.data(),
                                       reinterpret_cast<e4m3*>(a.random_bits.data() + 2));
       }},
      {"stochastic_convert (generator): null destination",
       "stochastic_convert: dst is null but n is not 0",
       [](arrays& a) {
         minifloat::stochastic_convert(a.x.data(), 4, no_code_output,
                                       minifloat::counter_generator{});
       }},
      {"stochastic_convert: codes written inside the floats read",
       "stochastic_convert: dst overlaps src (in-place conversion is not supported)",
       [](arrays& a) {
         minifloat::stochastic_convert(a.x.data(), 16, a.random_bits.data(),
                                       reinterpret_cast<e4m3*>(a.x.data() + 3));
       }},
      {"stochastic_convert (generator): null source",
       "stochastic_convert: src is null but n is not 0",
       [](arrays& a) {
         minifloat::stochastic_convert(no_floats, 4, a.q.data(), minifloat::counter_generator{});
       }},
      {"amax: null source, n > 0", "amax: src is null but n is not 0",
       [](arrays&) { static_cast<void>(minifloat::amax(nullptr, 3)); }},

      // Per-tensor scaling (scaling.hpp).
      {"quantize: null source", "quantize: x or q is null but n is not 0",
       [](arrays& a) { minifloat::quantize(no_floats, 4, a.q.data(), 1.0f); }},
      {"quantize: null destination", "quantize: x or q is null but n is not 0",
       [](arrays& a) { minifloat::quantize(a.x.data(), 4, no_code_output, 1.0f); }},
      {"quantize: codes written inside the floats read", "quantize: q overlaps x",
       [](arrays& a) {
         minifloat::quantize(a.x.data(), 16, reinterpret_cast<e4m3*>(a.x.data() + 2), 1.0f);
       }},
      {"quantize: scale 0", "quantize: scale is not positive and finite",
       [](arrays& a) { minifloat::quantize(a.x.data(), 16, a.q.data(), 0.0f); }},
      {"quantize: scale -1", "quantize: scale is not positive and finite",
       [](arrays& a) { minifloat::quantize(a.x.data(), 16, a.q.data(), -1.0f); }},
      {"quantize: scale NaN", "quantize: scale is not positive and finite",
       [](arrays& a) {
         minifloat::quantize(a.x.data(), 16, a.q.data(), ieee::quiet_nan<float>());
       }},
      {"quantize: scale +inf", "quantize: scale is not positive and finite",
       [](arrays& a) {
         minifloat::quantize(a.x.data(), 16, a.q.data(), ieee::positive_infinity<float>());
       }},
      {"quantize: scale -0", "quantize: scale is not positive and finite",
       [](arrays& a) { minifloat::quantize(a.x.data(), 16, a.q.data(), -0.0f); }},
      {"dequantize: null source", "dequantize: q or x is null but n is not 0",
       [](arrays& a) { minifloat::dequantize(no_codes, 4, a.out.data(), 1.0f); }},
      {"dequantize: floats written over the codes read", "dequantize: x overlaps q",
       [](arrays& a) {
         minifloat::dequantize(reinterpret_cast<const e4m3*>(a.out.data()) + 1, 8, a.out.data(),
                               1.0f);
       }},
      {"dequantize: scale_inv 0", "dequantize: scale_inv is not positive and finite",
       [](arrays& a) { minifloat::dequantize(a.q.data(), 16, a.out.data(), 0.0f); }},
      {"dequantize: scale_inv -2", "dequantize: scale_inv is not positive and finite",
       [](arrays& a) { minifloat::dequantize(a.q.data(), 16, a.out.data(), -2.0f); }},
      {"dequantize: scale_inv NaN", "dequantize: scale_inv is not positive and finite",
       [](arrays& a) {
         minifloat::dequantize(a.q.data(), 16, a.out.data(), ieee::quiet_nan<float>());
       }},
      {"dequantize: scale_inv -inf", "dequantize: scale_inv is not positive and finite",
       [](arrays& a) {
         minifloat::dequantize(a.q.data(), 16, a.out.data(), -ieee::positive_infinity<float>());
       }},
      {"compute_scale: negative margin", "compute_scale: margin is negative",
       [](arrays&) { static_cast<void>(minifloat::compute_scale<e4m3>(3.0f, -1)); }},
      {"quantize_per_tensor: null source", "quantize_per_tensor: x is null but n is not 0",
       [](arrays&) { static_cast<void>(minifloat::quantize_per_tensor<e4m3>(no_floats, 8)); }},
      {"delayed_scaling: amax history of length 0", "delayed_scaling: the history length is 0",
       [](arrays&) { minifloat::delayed_scaling<e4m3> scaling(0); }},
      {"delayed_scaling: negative margin", "delayed_scaling: margin is negative",
       [](arrays&) {
         minifloat::delayed_scaling<e4m3> scaling(16, minifloat::amax_rule::max, -3);
       }},
      {"delayed_scaling::quantize: codes written inside the floats read", "quantize: q overlaps x",
       [](arrays& a) {
         static_cast<void>(a.scaling.quantize(a.x.data(), 16, reinterpret_cast<e4m3*>(a.x.data())));
       }},
      {"delayed_scaling::quantize: null destination", "quantize: x or q is null but n is not 0",
       [](arrays& a) { static_cast<void>(a.scaling.quantize(a.x.data(), 16, no_code_output)); }},

      // Block scaling.
      {"quantize_blocks: 1 x 3 blocks of a 16 x 16 matrix",
       "quantize_blocks: the block does not divide the matrix",
       [](arrays& a) {
         minifloat::quantize_blocks(a.x.data(), 16, 16, block_shape{1, 3}, a.q.data(),
                                    a.scale_inv.data());
       }},
      {"quantize_blocks: 5 x 1 blocks of a 16 x 16 matrix",
       "quantize_blocks: the block does not divide the matrix",
       [](arrays& a) {
         minifloat::quantize_blocks(a.x.data(), 16, 16, block_shape{5, 1}, a.q.data(),
                                    a.scale_inv.data());
       }},
      {"quantize_blocks: a 0 x 1 block", "quantize_blocks: the block does not divide the matrix",
       [](arrays& a) {
         minifloat::quantize_blocks(a.x.data(), 16, 16, block_shape{0, 1}, a.q.data(),
                                    a.scale_inv.data());
       }},
      {"quantize_blocks: rows * cols wraps around", "quantize_blocks: rows * cols is too large",
       [](arrays& a) {
         // 2^(h + 1) x 2^(h - 1) elements, h half of size_t's bits: 0 after wrapping, which would
         // otherwise pass.
         minifloat::quantize_blocks(a.x.data(), std::size_t{1} << (half_word + 1),
                                    std::size_t{1} << (half_word - 1), block_shape{1, 1},
                                    a.q.data(), a.scale_inv.data());
       }},
      {"quantize_blocks: null x", "quantize_blocks: x or q is null but the matrix is not empty",
       [](arrays& a) {
         minifloat::quantize_blocks(no_floats, 16, 16, block_shape{8, 8}, a.q.data(),
                                    a.scale_inv.data());
       }},
      {"quantize_blocks: codes written inside the floats read", "quantize_blocks: q overlaps x",
       [](arrays& a) {
         minifloat::quantize_blocks(a.x.data(), 4, 8, block_shape{4, 4},
                                    reinterpret_cast<e4m3*>(a.x.data() + 4), a.scale_inv.data());
       }},
      {"quantize_blocks: null scale_inv", "quantize_blocks: scale_inv is null",
       [](arrays& a) {
         minifloat::quantize_blocks(a.x.data(), 16, 16, block_shape{8, 8}, a.q.data(),
                                    no_float_output);
       }},
      {"quantize_blocks: scale_inv inside x", "quantize_blocks: scale_inv overlaps x",
       [](arrays& a) {
         minifloat::quantize_blocks(a.x.data(), 16, 16, block_shape{8, 8}, a.q.data(),
                                    a.x.data() + 100);
       }},
      {"quantize_blocks: scale_inv inside q", "quantize_blocks: scale_inv overlaps q",
       [](arrays& a) {
         minifloat::quantize_blocks(a.x.data(), 8, 8, block_shape{4, 4}, a.q.data(),
                                    reinterpret_cast<float*>(a.q.data() + 16));
       }},
      {"quantize_blocks: negative margin", "quantize_blocks: margin is negative",
       [](arrays& a) {
         minifloat::quantize_blocks(a.x.data(), 16, 16, block_shape{8, 8}, a.q.data(),
                                    a.scale_inv.data(), -1);
       }},
      {"dequantize_blocks: 1 x 3 blocks of a 16 x 16 matrix",
       "dequantize_blocks: the block does not divide the matrix",
       [](arrays& a) {
         minifloat::dequantize_blocks(a.q.data(), 16, 16, block_shape{1, 3}, a.scale_inv.data(),
                                      a.out.data());
       }},
      {"dequantize_blocks: rows * cols wraps around", "dequantize_blocks: rows * cols is too large",
       [](arrays& a) {
         minifloat::dequantize_blocks(a.q.data(), std::size_t{1} << (half_word + 8),
                                      std::size_t{1} << (half_word + 8), block_shape{1, 1},
                                      a.scale_inv.data(), a.out.data());
       }},
      {"dequantize_blocks: null q", "dequantize_blocks: q or x is null but the matrix is not empty",
       [](arrays& a) {
         minifloat::dequantize_blocks(no_codes, 16, 16, block_shape{8, 8}, a.scale_inv.data(),
                                      a.out.data());
       }},
      {"dequantize_blocks: floats written over the codes read", "dequantize_blocks: x overlaps q",
       [](arrays& a) {
         minifloat::dequantize_blocks(reinterpret_cast<const e4m3*>(a.out.data() + 1), 4, 4,
                                      block_shape{2, 2}, a.scale_inv.data(), a.out.data());
       }},
      {"dequantize_blocks: a scale_inv of 0",
       "dequantize_blocks: a scale_inv is not positive and finite",
       [](arrays& a) {
         // Blocks 0 and 1 have good scales: the bad one is found before anything is written.
         static const float scale_inv[4] = {1.0f, 2.0f, 0.0f, 1.0f};
         minifloat::dequantize_blocks(a.q.data(), 16, 16, block_shape{8, 8}, scale_inv,
                                      a.out.data());
       }},
      {"dequantize_blocks: a scale_inv of NaN",
       "dequantize_blocks: a scale_inv is not positive and finite",
       [](arrays& a) {
         static const float scale_inv[4] = {1.0f, 2.0f, 4.0f, ieee::quiet_nan<float>()};
         minifloat::dequantize_blocks(a.q.data(), 16, 16, block_shape{8, 8}, scale_inv,
                                      a.out.data());
       }},
      {"dequantize_blocks: null scale_inv", "dequantize_blocks: scale_inv is null",
       [](arrays& a) {
         minifloat::dequantize_blocks(a.q.data(), 16, 16, block_shape{8, 8}, no_floats,
                                      a.out.data());
       }},
      {"dequantize_blocks: x over the scales read", "dequantize_blocks: x overlaps scale_inv",
       [](arrays& a) {
         minifloat::dequantize_blocks(a.q.data(), 4, 4, block_shape{2, 2}, a.out.data() + 3,
                                      a.out.data());
       }},
      {"quantize_mx: n not a multiple of 32", "quantize_mx: n is not a multiple of 32",
       [](arrays& a) { minifloat::quantize_mx(a.x.data(), 100, a.q.data(), a.scales.data()); }},
      {"quantize_mx: null x", "quantize_mx: x or q is null but n is not 0",
       [](arrays& a) { minifloat::quantize_mx(no_floats, 32, a.q.data(), a.scales.data()); }},
      {"quantize_mx: codes written inside the floats read", "quantize_mx: q overlaps x",
       [](arrays& a) {
         minifloat::quantize_mx(a.x.data(), 32, reinterpret_cast<e4m3*>(a.x.data() + 31),
                                a.scales.data());
       }},
      {"quantize_mx: scales inside x", "quantize_mx: scales overlaps x",
       [](arrays& a) {
         minifloat::quantize_mx(a.x.data(), 64, a.q.data(),
                                reinterpret_cast<e8m0*>(a.x.data() + 63) + 3);
       }},
      {"quantize_mx: null scales", "quantize_mx: scales is null",
       [](arrays& a) {
         minifloat::quantize_mx(a.x.data(), 64, a.q.data(), static_cast<e8m0*>(nullptr));
       }},
      {"quantize_mx: scales inside q", "quantize_mx: scales overlaps q",
       [](arrays& a) {
         minifloat::quantize_mx(a.x.data(), 64, a.q.data(),
                                reinterpret_cast<e8m0*>(a.q.data() + 63));
       }},
      {"quantize_mx: a scale rule outside the enumeration",
       "quantize_mx: the scale rule is not one of mx_scale_rule's",
       [](arrays& a) {
         minifloat::quantize_mx(a.x.data(), 64, a.q.data(), a.scales.data(),
                                static_cast<minifloat::mx_scale_rule>(4));
       }},
      {"compute_mx_scale: a scale rule outside the enumeration",
       "compute_mx_scale: the scale rule is not one of mx_scale_rule's",
       [](arrays& a) {
         a.scales[0] =
             minifloat::compute_mx_scale<e4m3>(2.0f, static_cast<minifloat::mx_scale_rule>(-1));
       }},
      // Packed storage and the microscaling layouts (packed.hpp, microscaling.hpp).
      {"pack: odd FP4 count", "pack: n is odd (two FP4 elements fill a byte)",
       [](arrays& a) {
         minifloat::pack(reinterpret_cast<const minifloat::e2m1*>(a.x.data()), 7,
                         reinterpret_cast<std::uint8_t*>(a.q.data()));
       }},
      {"convert_to_packed: FP6 count not a multiple of 4",
       "convert_to_packed: n is not a multiple of 4 (four FP6 elements fill three bytes)",
       [](arrays& a) {
         minifloat::convert_to_packed<minifloat::e2m3>(a.x.data(), 6,
                                                       reinterpret_cast<std::uint8_t*>(a.q.data()));
       }},
      {"convert_to_packed: null packed", "convert_to_packed: packed is null but n is not 0",
       [](arrays& a) {
         minifloat::convert_to_packed<minifloat::e2m1>(a.x.data(), 8,
                                                       static_cast<std::uint8_t*>(nullptr));
       }},
      {"convert_to_packed: packed inside the floats read", "convert_to_packed: packed overlaps src",
       [](arrays& a) {
         minifloat::convert_to_packed<minifloat::e2m1>(
             a.x.data(), 64, reinterpret_cast<std::uint8_t*>(a.x.data() + 10));
       }},
      {"convert_from_packed: null source", "convert_from_packed: packed is null but n is not 0",
       [](arrays& a) {
         minifloat::convert_from_packed<minifloat::e3m2>(static_cast<const std::uint8_t*>(nullptr),
                                                         4, a.out.data());
       }},
      {"quantize_mx_packed: n not a multiple of 32",
       "quantize_mx_packed: n is not a multiple of 32",
       [](arrays& a) {
         minifloat::quantize_mx_packed<minifloat::e2m1>(
             a.x.data(), 48, reinterpret_cast<std::uint8_t*>(a.q.data()), a.scales.data());
       }},
      {"quantize_mx_packed: scales inside packed", "quantize_mx_packed: scales overlaps packed",
       [](arrays& a) {
         auto* packed = reinterpret_cast<std::uint8_t*>(a.q.data());
         minifloat::quantize_mx_packed<minifloat::e2m1>(a.x.data(), 64, packed,
                                                        reinterpret_cast<e8m0*>(packed + 20));
       }},
      {"quantize_mx_packed: a scale rule outside the enumeration",
       "quantize_mx_packed: the scale rule is not one of mx_scale_rule's",
       [](arrays& a) {
         minifloat::quantize_mx_packed<minifloat::e2m1>(
             a.x.data(), 64, reinterpret_cast<std::uint8_t*>(a.q.data()), a.scales.data(),
             static_cast<minifloat::mx_scale_rule>(9));
       }},
      {"quantize_mxfp4_ggml: a scale rule outside the enumeration",
       "quantize_mxfp4_ggml: the scale rule is not one of mx_scale_rule's",
       [](arrays& a) {
         minifloat::quantize_mxfp4_ggml(a.x.data(), 64,
                                        reinterpret_cast<minifloat::block_mxfp4*>(a.q.data()),
                                        static_cast<minifloat::mx_scale_rule>(4));
       }},
      {"dequantize_mx_packed: null scales", "dequantize_mx_packed: scales is null",
       [](arrays& a) {
         minifloat::dequantize_mx_packed<minifloat::e2m1>(
             reinterpret_cast<const std::uint8_t*>(a.q.data()), 32,
             static_cast<const e8m0*>(nullptr), a.out.data());
       }},
      {"quantize_mxfp4_ggml: n not a multiple of 32",
       "quantize_mxfp4_ggml: n is not a multiple of 32",
       [](arrays& a) {
         minifloat::quantize_mxfp4_ggml(a.x.data(), 31,
                                        reinterpret_cast<minifloat::block_mxfp4*>(a.q.data()));
       }},
      {"quantize_mxfp4_ggml: blocks over the floats read", "quantize_mxfp4_ggml: blocks overlaps x",
       [](arrays& a) {
         minifloat::quantize_mxfp4_ggml(a.x.data(), 64,
                                        reinterpret_cast<minifloat::block_mxfp4*>(a.x.data() + 5));
       }},
      {"dequantize_mxfp4_ggml: null blocks",
       "dequantize_mxfp4_ggml: blocks or x is null but n is not 0",
       [](arrays& a) {
         minifloat::dequantize_mxfp4_ggml(static_cast<const minifloat::block_mxfp4*>(nullptr), 32,
                                          a.out.data());
       }},
      {"quantize_nvfp4: n not a multiple of 16", "quantize_nvfp4: n is not a multiple of 16",
       [](arrays& a) {
         minifloat::quantize_nvfp4(a.x.data(), 24, reinterpret_cast<std::uint8_t*>(a.q.data()),
                                   reinterpret_cast<minifloat::ue4m3*>(a.scales.data()),
                                   minifloat::nvfp4_tensor_scale::from_amax(1.0f));
       }},
      {"quantize_nvfp4: a NaN tensor scale",
       "quantize_nvfp4: the encode scale is not positive and finite",
       [](arrays& a) {
         const float nan = ieee::quiet_nan<float>();
         minifloat::quantize_nvfp4(a.x.data(), 32, reinterpret_cast<std::uint8_t*>(a.q.data()),
                                   reinterpret_cast<minifloat::ue4m3*>(a.scales.data()),
                                   minifloat::nvfp4_tensor_scale{nan, nan});
       }},
      {"quantize_nvfp4: scales inside packed", "quantize_nvfp4: scales overlaps packed",
       [](arrays& a) {
         auto* packed = reinterpret_cast<std::uint8_t*>(a.q.data());
         minifloat::quantize_nvfp4(a.x.data(), 32, packed,
                                   reinterpret_cast<minifloat::ue4m3*>(packed + 3),
                                   minifloat::nvfp4_tensor_scale::from_amax(1.0f));
       }},
      {"dequantize_nvfp4: a NaN decode scale",
       "dequantize_nvfp4: the decode scale is not positive and finite",
       [](arrays& a) {
         minifloat::dequantize_nvfp4(
             reinterpret_cast<const std::uint8_t*>(a.q.data()), 16,
             reinterpret_cast<const minifloat::ue4m3*>(a.scales.data()),
             minifloat::nvfp4_tensor_scale::from_decode_scale(ieee::quiet_nan<float>()),
             a.out.data());
       }},
      {"dequantize_nvfp4: a negative decode scale",
       "dequantize_nvfp4: the decode scale is not positive and finite",
       [](arrays& a) {
         minifloat::dequantize_nvfp4(reinterpret_cast<const std::uint8_t*>(a.q.data()), 16,
                                     reinterpret_cast<const minifloat::ue4m3*>(a.scales.data()),
                                     minifloat::nvfp4_tensor_scale::from_decode_scale(-1.0f),
                                     a.out.data());
       }},
      {"dequantize_nvfp4: null x", "dequantize_nvfp4: packed or x is null but n is not 0",
       [](arrays& a) {
         // (Through a volatile: with the null constant, GCC 12 -O2 warns of the loop's writes
         // that the refusal never reaches, -Warray-bounds.)
         float* volatile nowhere = nullptr;
         minifloat::dequantize_nvfp4(reinterpret_cast<const std::uint8_t*>(a.q.data()), 16,
                                     reinterpret_cast<const minifloat::ue4m3*>(a.scales.data()),
                                     minifloat::nvfp4_tensor_scale::from_amax(1.0f), nowhere);
       }},
      {"dequantize_mx: n not a multiple of 32", "dequantize_mx: n is not a multiple of 32",
       [](arrays& a) { minifloat::dequantize_mx(a.q.data(), 33, a.scales.data(), a.out.data()); }},
      {"dequantize_mx: null x", "dequantize_mx: q or x is null but n is not 0",
       [](arrays& a) {
         minifloat::dequantize_mx(a.q.data(), 32, a.scales.data(), no_float_output);
       }},
      {"dequantize_mx: null scales", "dequantize_mx: scales is null",
       [](arrays& a) {
         minifloat::dequantize_mx(a.q.data(), 64, static_cast<const e8m0*>(nullptr), a.out.data());
       }},
      {"dequantize_mx: x over the scales read", "dequantize_mx: x overlaps scales",
       [](arrays& a) {
         minifloat::dequantize_mx(a.q.data(), 64, reinterpret_cast<const e8m0*>(a.out.data() + 2),
                                  a.out.data());
       }},
      {"dequantize_mx: x over the codes read", "dequantize_mx: x overlaps q",
       [](arrays& a) {
         minifloat::dequantize_mx(reinterpret_cast<const e4m3*>(a.out.data()), 32, a.scales.data(),
                                  a.out.data() + 4);
       }},
      {"relative_noise_energy: null x", "relative_noise_energy: x or y is null but n is not 0",
       [](arrays& a) {
         static_cast<void>(minifloat::relative_noise_energy(nullptr, a.x.data(), 3));
       }},
      {"snr_db: null y", "relative_noise_energy: x or y is null but n is not 0",
       [](arrays& a) { static_cast<void>(minifloat::snr_db(a.x.data(), nullptr, 3)); }},
  };
#if MINIFLOAT_HAS_RANGES
  const std::vector<bad_call> range_calls = {
      {"convert (ranges): 10 floats into 9 codes", "convert: src and dst differ in size",
       [](arrays& a) {
         minifloat::convert(std::span<const float>(a.x).first(10), std::span<e4m3>(a.q).first(9));
       }},
      {"convert (ranges): 10 codes into 11 floats", "convert: src and dst differ in size",
       [](arrays& a) {
         minifloat::convert(std::span<const e4m3>(a.q).first(10),
                            std::span<float>(a.out).first(11));
       }},
      {"stochastic_convert (ranges): fewer random bits than floats",
       "stochastic_convert: src, random_bits and dst differ in size",
       [](arrays& a) {
         minifloat::stochastic_convert(std::span<const float>(a.x).first(10),
                                       std::span<const std::uint32_t>(a.random_bits).first(9),
                                       std::span<e4m3>(a.q).first(10));
       }},
      {"stochastic_convert (ranges, generator): sizes differ",
       "stochastic_convert: src and dst differ in size",
       [](arrays& a) {
         minifloat::stochastic_convert(std::span<const float>(a.x).first(10),
                                       std::span<e4m3>(a.q).first(11),
                                       minifloat::counter_generator{});
       }},
      {"quantize (ranges): sizes differ", "quantize: x and q differ in size",
       [](arrays& a) {
         minifloat::quantize(std::span<const float>(a.x).first(10), std::span<e4m3>(a.q), 1.0f);
       }},
      {"dequantize (ranges): sizes differ", "dequantize: q and x differ in size",
       [](arrays& a) {
         minifloat::dequantize(std::span<const e4m3>(a.q).first(10), std::span<float>(a.out), 1.0f);
       }},
      {"snr_db (ranges): sizes differ", "relative_noise_energy: x and y differ in size",
       [](arrays& a) {
         static_cast<void>(minifloat::snr_db(std::span<const float>(a.x).first(3),
                                             std::span<const float>(a.out)));
       }},
  };
  calls.insert(calls.end(), range_calls.begin(), range_calls.end());
#endif
  return calls;
}

// A POSIX extended regular expression that matches `text` literally (for death tests).
inline std::string literal_pattern(const std::string& text) {
  std::string pattern;
  for (char c : text) {
    if (std::string("\\^$.|?*+()[]{}").find(c) != std::string::npos) {
      pattern += '\\';
    }
    pattern += c;
  }
  return pattern;
}

} // namespace bad_input

#endif // MINIFLOAT_TESTS_BAD_INPUT_CASES_HPP
