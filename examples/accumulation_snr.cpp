// The accumulation experiment: dot products of e4m3-quantized N(0, 0.01^2) vectors summed the
// way an FP8 tensor core sums them, with and without promoting the partial sum to float every N
// elements, and with block scaling. SNR in dB against the float64 dot product of the unquantized
// vectors (10 log10(d^2 / (d_c - d)^2)); then the accumulator's own error, against float64 sums
// of the same quantized products.
//
// The accumulator model (an assumption; see README "The accumulation experiment"):
//   - a product of two e4m3 values is exact (at most 8 significant bits);
//   - the tensor core adds products to its accumulator in groups of 32, one k-step of an FP8 MMA;
//   - the group's products and the accumulator are aligned to the largest exponent among them,
//     each truncated (toward zero) to 14 significant bits relative to that exponent, and the
//     aligned terms summed exactly: the accumulator keeps about 14 bits, as DeepSeek-V3 reports
//     for H800 (the alignment and truncation as measured on earlier tensor cores; the group size
//     of 32 and the exact cut are ours).
// Promotion every N: the tensor core's sum restarts from zero every N elements and is added to
// a float (FP32, round to nearest even) accumulator. Block scaling (blocks of B along the dot
// product, each with its own scale per vector): the same, N = B, each partial sum multiplied by
// its two blocks' inverse scales before it is added (DeepSeek-V3's recipe with B = 128).
//   build/examples/accumulation_snr [plot.svg] [pairs per row, default 1000]
// Seeded (std::mt19937, std::normal_distribution), single-threaded, a few seconds.
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

using minifloat::e4m3;

constexpr int default_trials = 1000;
constexpr float sigma = 0.01f;
constexpr int accumulator_bits = 14;
constexpr std::size_t group = 32; // products per accumulation step

// The ways of summing, in the order of the tables' columns.
struct method {
  const char* name;
  bool limited;        // the 14-bit accumulator (false: float64)
  std::size_t promote; // promotion interval (0: never)
  std::size_t block;   // scale block (0: one scale per vector)
};
const std::vector<method> methods = {
    {"fp64", false, 0, 0},      {"14-bit", true, 0, 0},         {"14b+p512", true, 512, 0},
    {"14b+p128", true, 128, 0}, {"14b+blk512", true, 512, 512}, {"14b+blk128", true, 128, 128},
};

// The model's accumulator: `acc` plus the products a[i] * b[i], i in [begin, end), in groups.
double tensor_core_sum(const std::vector<float>& a, const std::vector<float>& b, std::size_t begin,
                       std::size_t end) {
  double acc = 0;
  double terms[group];
  for (std::size_t g = begin; g < end; g += group) {
    const std::size_t count = std::min(group, end - g);
    double largest = std::fabs(acc);
    for (std::size_t k = 0; k < count; ++k) {
      terms[k] = static_cast<double>(a[g + k]) * b[g + k]; // exact
      largest = std::max(largest, std::fabs(terms[k]));
    }
    if (largest == 0) {
      continue;
    }
    // Keep the multiples of 2^(e_max - 13): 14 bits below and including the leading one.
    const int cut = std::ilogb(largest) - (accumulator_bits - 1);
    const auto truncate = [cut](double x) {
      return std::ldexp(std::trunc(std::ldexp(x, -cut)), cut);
    };
    double sum = truncate(acc);
    for (std::size_t k = 0; k < count; ++k) {
      sum += truncate(terms[k]); // exact: every term is an integer multiple of 2^cut below 2^53
    }
    acc = sum;
  }
  return acc;
}

double exact_dot(const std::vector<float>& a, const std::vector<float>& b, std::size_t begin,
                 std::size_t end) {
  double sum = 0;
  for (std::size_t i = begin; i < end; ++i) {
    sum += static_cast<double>(a[i]) * b[i];
  }
  return sum;
}

// A vector quantized to e4m3: the codes' values (unscaled, as the tensor core reads them) and
// the inverse scale of each block (one block: tensor-wise).
struct quantized {
  std::vector<float> values;
  std::vector<float> scale_inv;
};

quantized quantize(const std::vector<float>& x, std::size_t block) {
  const std::size_t n = x.size();
  std::vector<e4m3> q(n);
  quantized out;
  if (block == 0) {
    const float scale = minifloat::compute_scale<e4m3>(minifloat::amax(x.data(), n));
    minifloat::quantize(x.data(), n, q.data(), scale);
    out.scale_inv = {1.0f / scale};
  } else {
    out.scale_inv.resize(n / block);
    minifloat::quantize_blocks(x.data(), 1, n, minifloat::block_shape{1, block}, q.data(),
                               out.scale_inv.data());
  }
  out.values.resize(n);
  minifloat::convert(q.data(), n, out.values.data());
  return out;
}

struct outcome {
  double value;             // the dot product as the method computes it
  double accumulator_error; // |value - the float64 sum of the same quantized products| / |that|
};

outcome dot_by(const method& m, const quantized& a, const quantized& b) {
  const std::size_t n = a.values.size();
  const std::size_t interval = m.promote == 0 ? n : std::min(m.promote, n);
  float promoted = 0;   // the FP32 accumulator of the promoted partial sums
  double reference = 0; // the same partial sums, each exact
  for (std::size_t begin = 0; begin < n; begin += interval) {
    const std::size_t end = begin + interval;
    const double partial = m.limited ? tensor_core_sum(a.values, b.values, begin, end)
                                     : exact_dot(a.values, b.values, begin, end);
    const double exact = exact_dot(a.values, b.values, begin, end);
    const std::size_t j = m.block == 0 ? 0 : begin / m.block;
    const double scale = static_cast<double>(a.scale_inv[j]) * b.scale_inv[j];
    if (m.promote == 0) {
      reference = exact * scale;
      const double value = partial * scale;
      return {value, reference == 0 ? 0 : std::fabs(value - reference) / std::fabs(reference)};
    }
    promoted += static_cast<float>(partial * scale);
    reference += exact * scale;
  }
  return {promoted, reference == 0 ? 0 : std::fabs(promoted - reference) / std::fabs(reference)};
}

struct summary {
  double median;
  double p5;
  double below_zero_percent;
  double error_median; // the accumulator's relative error
  double error_max;
};

double percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v[static_cast<std::size_t>(p * static_cast<double>(v.size() - 1))];
}

struct row {
  std::size_t length;
  double rho;
  std::vector<summary> by_method;
  std::vector<std::vector<double>> snr; // for the plot
};

row run(std::mt19937& generator, int trials, std::size_t length, double rho) {
  std::normal_distribution<float> normal(0.0f, sigma);
  std::vector<float> a(length);
  std::vector<float> b(length);
  row r{length, rho, {}, std::vector<std::vector<double>>(methods.size())};
  std::vector<std::vector<double>> errors(methods.size());
  for (int t = 0; t < trials; ++t) {
    for (std::size_t i = 0; i < length; ++i) {
      a[i] = normal(generator);
      b[i] = static_cast<float>(rho * a[i] + std::sqrt(1 - rho * rho) * normal(generator));
    }
    const double exact = exact_dot(a, b, 0, length);
    for (std::size_t k = 0; k < methods.size(); ++k) {
      const std::size_t block =
          methods[k].block != 0 && methods[k].block <= length ? methods[k].block : 0;
      const quantized qa = quantize(a, block);
      const quantized qb = quantize(b, block);
      method m = methods[k];
      m.block = block;
      const outcome o = dot_by(m, qa, qb);
      const double error = o.value - exact;
      r.snr[k].push_back(error == 0 ? 300.0 : 10 * std::log10(exact * exact / (error * error)));
      errors[k].push_back(o.accumulator_error);
    }
  }
  for (std::size_t k = 0; k < methods.size(); ++k) {
    const auto below =
        std::count_if(r.snr[k].begin(), r.snr[k].end(), [](double v) { return v < 0; });
    r.by_method.push_back({percentile(r.snr[k], 0.5), percentile(r.snr[k], 0.05),
                           100.0 * static_cast<double>(below) / trials, percentile(errors[k], 0.5),
                           percentile(errors[k], 1.0)});
  }
  return r;
}

// Empirical distribution functions of the SNR of one row, one curve per
// method.
void write_svg(const std::string& path, const row& r) {
  std::FILE* file = std::fopen(path.c_str(), "w");
  if (file == nullptr) {
    fmt::print(stderr, "cannot write {}\n", path);
    return;
  }
  const double width = 720, height = 440, left = 60, right = 150, top = 30, bottom = 50;
  const double x_low = 10, x_high = 70; // dB
  const auto px = [&](double db) {
    return left +
           (std::clamp(db, x_low, x_high) - x_low) / (x_high - x_low) * (width - left - right);
  };
  const auto py = [&](double fraction) { return top + (1 - fraction) * (height - top - bottom); };
  fmt::print(file,
             "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
             "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" "
             "fill=\"white\"/>\n<text x=\"{}\" y=\"18\" text-anchor=\"middle\">SNR of e4m3 dot "
             "products, length {}, rho {}: share of pairs at or below</text>\n",
             width, height, (left + width - right) / 2, r.length, r.rho);
  for (double x = x_low; x <= x_high; x += 10) {
    fmt::print(file,
               "<line x1=\"{0:.1f}\" x2=\"{0:.1f}\" y1=\"{1}\" y2=\"{2}\" stroke=\"#ddd\"/><text "
               "x=\"{0:.1f}\" y=\"{3}\" text-anchor=\"middle\">{4} dB</text>\n",
               px(x), top, height - bottom, height - bottom + 16, x);
  }
  for (double y = 0; y <= 1.0; y += 0.25) {
    fmt::print(file,
               "<line x1=\"{0}\" x2=\"{1}\" y1=\"{2:.1f}\" y2=\"{2:.1f}\" stroke=\"#ddd\"/><text "
               "x=\"{3}\" y=\"{4:.1f}\" text-anchor=\"end\">{5}</text>\n",
               left, width - right, py(y), left - 6, py(y) + 4, y);
  }
  const char* colours[] = {"#000000", "#d62728", "#ff7f0e", "#2ca02c", "#9467bd", "#1f77b4"};
  for (std::size_t k = 0; k < methods.size(); ++k) {
    std::vector<double> v = r.snr[k];
    std::sort(v.begin(), v.end());
    std::string points;
    // At most 200 points a curve, and its last: the plot stays small.
    const std::size_t step = (v.size() + 199) / 200;
    const auto point = [&](std::size_t i) {
      points += fmt::format("{:.1f},{:.1f} ", px(v[i]),
                            py(static_cast<double>(i + 1) / static_cast<double>(v.size())));
    };
    for (std::size_t i = 0; i + 1 < v.size(); i += step) {
      point(i);
    }
    point(v.size() - 1);
    fmt::print(file,
               "<polyline fill=\"none\" stroke=\"{0}\" stroke-width=\"2\" points=\"{1}\"/>\n<text "
               "x=\"{2}\" y=\"{3}\" fill=\"{0}\">{4}</text>\n",
               colours[k], points, width - right + 10, top + 20 + 16 * static_cast<double>(k),
               methods[k].name);
  }
  fmt::print(file, "</svg>\n");
  std::fclose(file);
}

} // namespace

int main(int argc, char** argv) {
  const std::string svg_path = argc > 1 ? argv[1] : "accumulation_snr.svg";
  const long trials_argument = argc > 2 ? std::strtol(argv[2], nullptr, 10) : default_trials;
  if (trials_argument < 20 || trials_argument > 1'000'000) {
    fmt::print(stderr, "usage: accumulation_snr [svg path] [pairs per row, 20 to 1000000]\n");
    return 2;
  }
  const int trials = static_cast<int>(trials_argument);
  std::mt19937 generator(20261124);
  fmt::print("e4m3 dot products, elements N(0, sd 0.01), {} pairs per row; {}-bit accumulator in "
             "groups of {}\n\nSNR against float64 of the unquantized vectors, dB: median / 5th "
             "percentile (share of pairs below 0 dB)\n\n",
             trials, accumulator_bits, group);
  const std::vector<std::pair<std::size_t, double>> settings = {
      {128, 0.0}, {1024, 0.0}, {4096, 0.0}, {4096, 0.5}, {4096, 0.9}, {4096, 0.99}};
  std::vector<row> rows;
  for (const auto& [length, rho] : settings) {
    rows.push_back(run(generator, trials, length, rho));
  }
  fmt::print("{:<6} {:<5}", "length", "rho");
  for (const method& m : methods) {
    fmt::print(" {:>17}", m.name);
  }
  fmt::print("\n");
  for (const row& r : rows) {
    fmt::print("{:<6} {:<5}", r.length, r.rho);
    for (const summary& s : r.by_method) {
      fmt::print(" {:>17}",
                 fmt::format("{:.1f} / {:.1f} ({:.0f}%)", s.median, s.p5, s.below_zero_percent));
    }
    fmt::print("\n");
  }
  fmt::print("\nThe accumulator's own relative error (against float64 sums of the same quantized "
             "products): median / largest, %\n\n");
  fmt::print("{:<6} {:<5}", "length", "rho");
  for (std::size_t k = 1; k < methods.size(); ++k) {
    fmt::print(" {:>15}", methods[k].name);
  }
  fmt::print("\n");
  for (const row& r : rows) {
    fmt::print("{:<6} {:<5}", r.length, r.rho);
    for (std::size_t k = 1; k < methods.size(); ++k) {
      fmt::print(" {:>15}", fmt::format("{:.3f} / {:.2f}", 100 * r.by_method[k].error_median,
                                        100 * r.by_method[k].error_max));
    }
    fmt::print("\n");
  }
  // One line per figure for tests/check_examples.sh.
  for (const row& r : rows) {
    for (std::size_t k = 0; k < methods.size(); ++k) {
      const summary& s = r.by_method[k];
      fmt::print("result length {} rho {} method {} median {:.3f} p5 {:.3f} below0 {:.2f} "
                 "accumulator_median {:.6f} accumulator_max {:.6f}\n",
                 r.length, r.rho, methods[k].name, s.median, s.p5, s.below_zero_percent,
                 s.error_median, s.error_max);
    }
  }
  write_svg(svg_path, rows[4]); // length 4096, rho 0.9: where the methods part
  fmt::print("plot: {}\n", svg_path);
  return 0;
}
