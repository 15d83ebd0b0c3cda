// Quantization error of e4m3, e5m2 and symmetric INT8 on 10 million N(0, 1) samples: the
// relative noise energy sum (q - x)^2 / sum x^2 (docs/spec.md §6) at the amax scale and at the best
// scale of a sweep, beside the figures an FP8 error-analysis article reports; and the error
// against the scale as a plot, written to an SVG file.
//   build/examples/quantization_error [plot.svg] [samples, default 10^7]
// Seeded (std::mt19937 and std::normal_distribution, so the samples depend on the standard
// library), single-threaded, a few seconds.
#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include <minifloat/minifloat.hpp>

namespace {

constexpr std::size_t default_sample_count = 10'000'000;
// The sweep runs on the first million samples (the error at a scale converges long before
// 10^7), every quarter binade from heavy clipping to heavy underflow; the best point is then
// refined on all samples every 1/32 binade around it.
constexpr std::size_t sweep_sample_count = 1'000'000;
constexpr double sweep_low = -18.0; // log2 of the scale / the amax scale: heavy underflow
constexpr double sweep_high = 6.0;  // heavy clipping
constexpr double sweep_step = 0.25;

// One scheme: q = quantize(x * s), read back as q / s.
struct scheme {
  const char* name;
  double reference_percent; // the article's figure at the best scale
  float max;                // the largest magnitude the scheme stores
  // Relative noise energy of x[0, n) at scale s.
  double (*noise)(const std::vector<float>& x, std::size_t n, float s);
};

template <class T>
double fp8_noise(const std::vector<float>& x, std::size_t n, float s) {
  static std::vector<T> q;
  q.resize(n);
  minifloat::quantize(x.data(), n, q.data(), s);
  double signal = 0;
  double noise = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double back = static_cast<double>(static_cast<float>(q[i])) / s;
    const double d = back - x[i];
    signal += static_cast<double>(x[i]) * x[i];
    noise += d * d;
  }
  return noise / signal;
}

// Symmetric INT8: round to nearest (ties to even), clip to +-127.
double int8_noise(const std::vector<float>& x, std::size_t n, float s) {
  double signal = 0;
  double noise = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double q = std::clamp(std::nearbyint(static_cast<double>(x[i]) * s), -127.0, 127.0);
    const double d = q / s - x[i];
    signal += static_cast<double>(x[i]) * x[i];
    noise += d * d;
  }
  return noise / signal;
}

struct curve {
  std::vector<double> log2_multiplier;
  std::vector<double> noise;
};

// A small SVG line plot: log10 of the relative noise against log2 of the scale multiplier.
void write_svg(const std::string& path, const std::vector<scheme>& schemes,
               const std::vector<curve>& curves) {
  std::FILE* file = std::fopen(path.c_str(), "w");
  if (file == nullptr) {
    fmt::print(stderr, "cannot write {}\n", path);
    return;
  }
  const double width = 720;
  const double height = 440;
  const double left = 70;
  const double right = 20;
  const double top = 30;
  const double bottom = 50;
  const double y_low = -6;
  const double y_high = 1; // log10 of the relative noise energy
  const auto px = [&](double t) {
    return left + (t - sweep_low) / (sweep_high - sweep_low) * (width - left - right);
  };
  const auto py = [&](double noise) {
    const double y = std::clamp(std::log10(noise), y_low, y_high);
    return top + (y_high - y) / (y_high - y_low) * (height - top - bottom);
  };
  fmt::print(file,
             "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
             "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" "
             "fill=\"white\"/>\n",
             width, height);
  fmt::print(file,
             "<text x=\"{}\" y=\"18\" text-anchor=\"middle\">Relative noise energy of N(0,1) "
             "samples against the scale</text>\n",
             width / 2);
  for (double y = y_low; y <= y_high; y += 1) {
    fmt::print(file,
               "<line x1=\"{0}\" x2=\"{1}\" y1=\"{2:.1f}\" y2=\"{2:.1f}\" stroke=\"#ddd\"/>"
               "<text x=\"{3}\" y=\"{4:.1f}\" text-anchor=\"end\">1e{5}</text>\n",
               left, width - right, py(std::pow(10.0, y)), left - 6, py(std::pow(10.0, y)) + 4,
               static_cast<int>(y));
  }
  for (double t = sweep_low; t <= sweep_high; t += 3) {
    fmt::print(file,
               "<line x1=\"{0:.1f}\" x2=\"{0:.1f}\" y1=\"{1}\" y2=\"{2}\" stroke=\"#ddd\"/>"
               "<text x=\"{0:.1f}\" y=\"{3}\" text-anchor=\"middle\">2^{4}</text>\n",
               px(t), top, height - bottom, height - bottom + 16, static_cast<int>(t));
  }
  fmt::print(file,
             "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">scale / amax scale (left: values "
             "underflow, right: values clip)</text>\n",
             (left + width - right) / 2, height - 12);
  const char* colours[] = {"#1f77b4", "#d62728", "#2ca02c"};
  for (std::size_t k = 0; k < curves.size(); ++k) {
    std::string points;
    for (std::size_t i = 0; i < curves[k].noise.size(); ++i) {
      points +=
          fmt::format("{:.1f},{:.1f} ", px(curves[k].log2_multiplier[i]), py(curves[k].noise[i]));
    }
    fmt::print(file, "<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"2\" points=\"{}\"/>\n",
               colours[k], points);
    fmt::print(file, "<text x=\"{}\" y=\"{}\" fill=\"{}\">{}</text>\n", width - right - 60,
               top + 20 + 16 * static_cast<double>(k), colours[k], schemes[k].name);
  }
  fmt::print(file, "</svg>\n");
  std::fclose(file);
}

} // namespace

int main(int argc, char** argv) {
  const std::string svg_path = argc > 1 ? argv[1] : "quantization_error.svg";
  // Fewer samples make a quicker run (CI runs it under valgrind with a few).
  const long long samples_argument =
      argc > 2 ? std::strtoll(argv[2], nullptr, 10) : static_cast<long long>(default_sample_count);
  if (samples_argument < 1 || samples_argument > 1'000'000'000) {
    fmt::print(stderr, "usage: quantization_error [svg path] [samples, 1 to 10^9]\n");
    return 2;
  }
  const auto sample_count = static_cast<std::size_t>(samples_argument);
  const std::size_t sweep_samples = std::min(sample_count, sweep_sample_count);
  std::mt19937 generator(20261122);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<float> x(sample_count);
  for (float& v : x) {
    v = normal(generator);
  }
  const float amax = minifloat::amax(x.data(), x.size());

  const std::vector<scheme> schemes = {
      {"e4m3", 0.06, 448.0f, fp8_noise<minifloat::e4m3>},
      {"e5m2", 0.2, 57344.0f, fp8_noise<minifloat::e5m2>},
      {"int8", 0.008, 127.0f, int8_noise},
  };
  fmt::print("{} N(0,1) samples, amax {:.3f}\n\n", sample_count, amax);
  fmt::print("{:<6} {:>16} {:>18} {:>16} {:>10}\n", "format", "at amax scale %",
             "best scale / amax", "at best scale %", "article %");
  std::vector<curve> curves;
  for (const scheme& s : schemes) {
    const float amax_scale = s.max / amax;
    curve c;
    double best_t = 0;
    double best = HUGE_VAL;
    for (double t = sweep_low; t <= sweep_high + 1e-9; t += sweep_step) {
      const double noise = s.noise(x, sweep_samples, amax_scale * static_cast<float>(std::exp2(t)));
      c.log2_multiplier.push_back(t);
      c.noise.push_back(noise);
      if (noise < best) {
        best = noise;
        best_t = t;
      }
    }
    // Refine on all samples.
    double refined_t = best_t;
    double refined = HUGE_VAL;
    for (double t = best_t - sweep_step; t <= best_t + sweep_step + 1e-9; t += 1.0 / 32) {
      const double noise = s.noise(x, x.size(), amax_scale * static_cast<float>(std::exp2(t)));
      if (noise < refined) {
        refined = noise;
        refined_t = t;
      }
    }
    const double at_amax = s.noise(x, x.size(), amax_scale);
    fmt::print("{:<6} {:>16.4f} {:>18} {:>16.4f} {:>10}\n", s.name, 100 * at_amax,
               fmt::format("2^{:+.3f}", refined_t), 100 * refined, s.reference_percent);
    // One line per scheme for tests/check_examples.sh.
    fmt::print("result {} amax_scale_noise {:.6e} best_noise {:.6e} best_log2_multiplier "
               "{:.4f}\n",
               s.name, at_amax, refined, refined_t);
    curves.push_back(c);
  }
  write_svg(svg_path, schemes, curves);
  fmt::print("\nplot of the sweep ({:.0f} points per format): {}\n",
             (sweep_high - sweep_low) / sweep_step + 1, svg_path);
  return 0;
}
