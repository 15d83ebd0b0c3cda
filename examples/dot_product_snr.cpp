// Dot products of random vectors quantized to e4m3, against float64: the SNR in dB
// (10 log10(d^2 / (d_q - d)^2), d the exact dot product, d_q the one of the dequantized vectors)
// with no scaling, one scale per vector (tensor-wise) and one per 1 x 128 tile (block-wise, as
// DeepSeek-V3 quantizes activations); then pairs of correlated vectors at length 4096.
// Elements are N(0, 0.01^2): standard deviation 0.01 (numpy's normal(0, 0.01), torch's
// 0.01 * randn), so that unscaled values fall among e4m3's subnormals (below 2^-6 = 0.0156).
//   build/examples/dot_product_snr [pairs per row, default 1000]
// Seeded (std::mt19937 and std::normal_distribution), single-threaded, about two seconds.
#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include <minifloat/minifloat.hpp>

namespace {

using minifloat::e4m3;

constexpr int default_trials = 1000;
constexpr float sigma = 0.01f;

enum class scaling { none, tensor, block };
const char* name_of(scaling s) {
  return s == scaling::none ? "none" : s == scaling::tensor ? "tensor" : "1x128";
}

// x quantized to e4m3 with the given scaling and read back.
std::vector<float> round_trip(const std::vector<float>& x, scaling s) {
  std::vector<e4m3> q(x.size());
  std::vector<float> back(x.size());
  if (s == scaling::block) {
    std::vector<float> scale_inv(x.size() / 128);
    minifloat::quantize_blocks(x.data(), 1, x.size(), minifloat::tile_1x128, q.data(),
                               scale_inv.data());
    minifloat::dequantize_blocks(q.data(), 1, x.size(), minifloat::tile_1x128, scale_inv.data(),
                                 back.data());
    return back;
  }
  const float scale = s == scaling::none
                          ? 1.0f
                          : minifloat::compute_scale<e4m3>(minifloat::amax(x.data(), x.size()));
  minifloat::quantize(x.data(), x.size(), q.data(), scale);
  minifloat::dequantize(q.data(), q.size(), back.data(), 1.0f / scale);
  return back;
}

double dot(const std::vector<float>& a, const std::vector<float>& b) {
  double sum = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    sum += static_cast<double>(a[i]) * b[i];
  }
  return sum;
}

struct summary {
  double median;
  double p5;
  double below_zero_percent;
};

summary summarise(std::vector<double> snr) {
  std::sort(snr.begin(), snr.end());
  const auto below = std::count_if(snr.begin(), snr.end(), [](double v) { return v < 0; });
  return {snr[snr.size() / 2], snr[snr.size() / 20],
          100.0 * static_cast<double>(below) / static_cast<double>(snr.size())};
}

// SNR of the dot products of `trials` pairs, b = rho * a + sqrt(1 - rho^2) * z, for each
// scaling in turn on the same pairs.
std::vector<summary> run(std::mt19937& generator, int trials, std::size_t length, double rho,
                         const std::vector<scaling>& schemes) {
  std::normal_distribution<float> normal(0.0f, sigma);
  std::vector<float> a(length);
  std::vector<float> b(length);
  std::vector<std::vector<double>> snr(schemes.size());
  for (int t = 0; t < trials; ++t) {
    for (std::size_t i = 0; i < length; ++i) {
      a[i] = normal(generator);
      b[i] = static_cast<float>(rho * a[i] + std::sqrt(1 - rho * rho) * normal(generator));
    }
    const double exact = dot(a, b);
    for (std::size_t k = 0; k < schemes.size(); ++k) {
      const double error = dot(round_trip(a, schemes[k]), round_trip(b, schemes[k])) - exact;
      snr[k].push_back(error == 0 ? 300.0 : 10 * std::log10(exact * exact / (error * error)));
    }
  }
  std::vector<summary> results;
  for (auto& values : snr) {
    results.push_back(summarise(values));
  }
  return results;
}

void print_row(const std::string& what, double rho, std::size_t length, scaling s,
               const summary& r) {
  fmt::print("{:<12} {:<7} {:>10.2f} {:>10.2f} {:>12.1f}\n", what, name_of(s), r.median, r.p5,
             r.below_zero_percent);
  // One line per row for tests/check_examples.sh.
  fmt::print("result length {} rho {} scales {} median {:.3f} p5 {:.3f} below0 {:.2f}\n", length,
             rho, name_of(s), r.median, r.p5, r.below_zero_percent);
}

} // namespace

int main(int argc, char** argv) {
  // Fewer pairs make a quicker run (CI runs it under valgrind with a few).
  const long trials_argument = argc > 1 ? std::strtol(argv[1], nullptr, 10) : default_trials;
  if (trials_argument < 1 || trials_argument > 1'000'000) {
    fmt::print(stderr, "usage: dot_product_snr [pairs per row, 1 to 1000000]\n");
    return 2;
  }
  const int trials = static_cast<int>(trials_argument);
  std::mt19937 generator(20261122);
  fmt::print("SNR of e4m3 dot products against float64, dB ({} pairs per row; elements "
             "N(0, sd 0.01))\n\n",
             trials);
  fmt::print("{:<12} {:<7} {:>10} {:>10} {:>12}\n", "length", "scales", "median", "5th pct",
             "< 0 dB (%)");
  for (std::size_t length : {std::size_t{128}, std::size_t{1024}, std::size_t{4096}}) {
    const std::vector<scaling> schemes = {scaling::none, scaling::tensor, scaling::block};
    const std::vector<summary> results = run(generator, trials, length, 0.0, schemes);
    for (std::size_t k = 0; k < schemes.size(); ++k) {
      print_row(fmt::format("{}", length), 0.0, length, schemes[k], results[k]);
    }
  }
  fmt::print("\nCorrelated pairs, length 4096\n\n");
  fmt::print("{:<12} {:<7} {:>10} {:>10} {:>12}\n", "rho", "scales", "median", "5th pct",
             "< 0 dB (%)");
  for (double rho : {0.0, 0.5, 0.9, 0.99}) {
    const std::vector<scaling> schemes = {scaling::tensor, scaling::block};
    const std::vector<summary> results = run(generator, trials, 4096, rho, schemes);
    for (std::size_t k = 0; k < schemes.size(); ++k) {
      print_row(fmt::format("{}", rho), rho, 4096, schemes[k], results[k]);
    }
  }
  return 0;
}
