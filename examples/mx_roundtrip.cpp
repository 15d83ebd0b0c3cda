// Round trip of a gpt-oss-shaped MoE weight through MXFP4 (and MXFP6, MXFP8), under each e8m0
// scale rule, and through NVFP4: the stored tensors in the checkpoint's layout, then the error
// against the float source.
//   build/examples/mx_roundtrip
// gpt-oss stores an expert projection as "*_blocks" [experts, out, in / 32, 16] uint8 (two e2m1
// per byte, element 2i in the low nibble: minifloat::pack's FP4 layout) and "*_scales" [experts,
// out, in / 32] uint8, e8m0 codes with bias 127, the 32-element blocks running along `in`. The
// weights here are seeded N(0, 0.02) with a few heavy outliers per row, as trained weights have.
// Seeded, deterministic, a fraction of a second. Lines starting with "result" are checked by
// tests/check_examples.sh.
#include <fmt/core.h>
#include <fmt/ranges.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include <minifloat/minifloat.hpp>

namespace {

constexpr std::size_t experts = 8;
constexpr std::size_t out_features = 256;
constexpr std::size_t in_features = 1024;
constexpr std::size_t count = experts * out_features * in_features;

std::vector<float> moe_weight() {
  std::mt19937 generator(2025);
  std::normal_distribution<float> normal(0.0f, 0.02f);
  std::vector<float> w(count);
  for (float& v : w) {
    v = normal(generator);
  }
  for (std::size_t row = 0; row < experts * out_features; ++row) {
    for (int k = 0; k < 4; ++k) { // outliers: 10-30 sigma
      const std::size_t j = generator() % in_features;
      w[row * in_features + j] *= 10.0f + static_cast<float>(generator() % 20);
    }
  }
  return w;
}

// The share of blocks whose largest element the scale clips (saturates to the element's max).
template <class T>
double clipped_block_share(const std::vector<float>& w,
                           const std::vector<minifloat::e8m0>& scales) {
  const float max = static_cast<float>(std::numeric_limits<T>::max());
  std::size_t clipped = 0;
  for (std::size_t b = 0; b < scales.size(); ++b) {
    const float amax = minifloat::amax(w.data() + 32 * b, 32);
    const double x =
        std::ldexp(static_cast<double>(amax), 127 - static_cast<int>(scales[b].bits()));
    clipped += x > static_cast<double>(max) ? 1 : 0;
  }
  return static_cast<double>(clipped) / static_cast<double>(scales.size());
}

const char* rule_name(minifloat::mx_scale_rule rule) {
  switch (rule) {
  case minifloat::mx_scale_rule::floor:
    return "floor";
  case minifloat::mx_scale_rule::ceil:
    return "ceil";
  case minifloat::mx_scale_rule::even:
    return "even";
  case minifloat::mx_scale_rule::nearest:
    return "nearest";
  }
  return "?";
}

// One MX element type under one rule: the packed tensors (FP4 / FP6) or one code per byte (FP8).
template <class T>
void mx_row(const char* format, const std::vector<float>& w, minifloat::mx_scale_rule rule) {
  std::vector<minifloat::e8m0> scales(count / 32);
  std::vector<float> back(count);
  std::size_t bytes = 0;
  if constexpr (minifloat::is_packable<T>) {
    std::vector<std::uint8_t> blocks(minifloat::packed_bytes<T>(count));
    minifloat::quantize_mx_packed<T>(w.data(), count, blocks.data(), scales.data(), rule);
    minifloat::dequantize_mx_packed<T>(blocks.data(), count, scales.data(), back.data());
    bytes = blocks.size() + scales.size();
  } else {
    std::vector<T> q(count);
    minifloat::quantize_mx(w.data(), count, q.data(), scales.data(), rule);
    minifloat::dequantize_mx(q.data(), count, scales.data(), back.data());
    bytes = q.size() + scales.size();
  }
  fmt::print("result {:<6} {:<8} {:7.2f} {:10.3e} {:8.1f} {:6.3f}\n", format, rule_name(rule),
             minifloat::snr_db(w.data(), back.data(), count),
             minifloat::relative_noise_energy(w.data(), back.data(), count),
             100.0 * clipped_block_share<T>(w, scales),
             8.0 * static_cast<double>(bytes) / static_cast<double>(count));
}

} // namespace

int main() {
  const std::vector<float> w = moe_weight();
  fmt::print("gpt-oss-shaped MoE weight: [{} experts, {} out, {} in], N(0, 0.02) with outliers\n",
             experts, out_features, in_features);
  fmt::print("       format rule        SNR dB  rel. noise  clipped %  bits/el\n");
  using rule = minifloat::mx_scale_rule;
  for (rule r : {rule::floor, rule::ceil, rule::even, rule::nearest}) {
    mx_row<minifloat::e2m1>("mxfp4", w, r);
  }
  for (rule r : {rule::floor, rule::ceil}) {
    mx_row<minifloat::e2m3>("mxfp6", w, r);
    mx_row<minifloat::e4m3>("mxfp8", w, r);
  }

  // gpt-oss's tensors: blocks [experts, out, in / 32, 16] and scales [experts, out, in / 32]
  // are quantize_mx_packed's outputs as they are (blocks along `in`, low nibble first).
  std::vector<std::uint8_t> blocks(count / 2);
  std::vector<minifloat::e8m0> scales(count / 32);
  minifloat::quantize_mx_packed<minifloat::e2m1>(w.data(), count, blocks.data(), scales.data());
  // Expert 3, output row 5, block 7: its 16 bytes and its scale byte.
  const std::size_t block_index = (3 * out_features + 5) * (in_features / 32) + 7;
  fmt::print("gpt-oss blocks[3][5][7] = {:02x}..., scales[3][5][7] = {} (2^{})\n",
             fmt::join(blocks.begin() + static_cast<std::ptrdiff_t>(16 * block_index),
                       blocks.begin() + static_cast<std::ptrdiff_t>(16 * block_index + 4), " "),
             scales[block_index].bits(), static_cast<int>(scales[block_index].bits()) - 127);

  // NVFP4: 16 e2m1 per ue4m3 byte and one float tensor scale (Transformer Engine's recipe).
  const auto tensor_scale =
      minifloat::nvfp4_tensor_scale::from_amax(minifloat::amax(w.data(), count));
  std::vector<std::uint8_t> packed(count / 2);
  std::vector<minifloat::ue4m3> block_scales(count / 16);
  minifloat::quantize_nvfp4(w.data(), count, packed.data(), block_scales.data(), tensor_scale);
  std::vector<float> back(count);
  minifloat::dequantize_nvfp4(packed.data(), count, block_scales.data(), tensor_scale, back.data());
  fmt::print("result {:<6} {:<8} {:7.2f} {:10.3e} {:>8} {:6.3f}\n", "nvfp4", "te",
             minifloat::snr_db(w.data(), back.data(), count),
             minifloat::relative_noise_energy(w.data(), back.data(), count), "-",
             8.0 * static_cast<double>(packed.size() + block_scales.size() + 4) /
                 static_cast<double>(count));
  fmt::print("NVFP4 tensor scale: encode {} (compressed-tensors stores this), decode {} "
             "(ModelOpt stores this)\n",
             tensor_scale.encode, tensor_scale.decode);
  return 0;
}
