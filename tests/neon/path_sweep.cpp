// All 2^32 floats through one path of the array functions, summarised as digests: one hash
// of the codes per 2^26 consecutive inputs, per mode. tests/neon/run.sh runs it natively
// (the expected digests) and under qemu-aarch64 with the NEON path, and compares the two outputs
// line by line, so that every float meets the NEON kernel without the emulator also having to
// run the (slower) scalar converter. A differing line names the mode and the range of inputs.
//   path_sweep PATH [MODE...]   PATH: portable, avx2, avx512, neon, or best (the active path);
//   MODE: e4m3-nearest-even, e5m2-toward-zero-saturating, e4m3-stochastic (default: all three)
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include <minifloat/bulk.hpp>
#include <minifloat/minifloat.hpp>

#include "../supported_paths.hpp"

namespace {

using minifloat::overflow;
using minifloat::simd_path;
using minifloat::detail::rounding_rule;

constexpr std::uint64_t chunk = std::uint64_t{1} << 20;      // floats per call
constexpr std::uint64_t per_digest = std::uint64_t{1} << 26; // floats per digest line
constexpr std::uint64_t digests = (std::uint64_t{1} << 32) / per_digest;

// A 64-bit multiplicative hash over the codes, eight at a time (any change of a code changes
// one word, and the multiply by an odd constant and the rotation spread it).
std::uint64_t hash_codes(std::uint64_t hash, const std::uint8_t* bytes, std::size_t n) {
  for (std::size_t i = 0; i < n; i += 8) {
    std::uint64_t word = 0;
    std::memcpy(&word, bytes + i, sizeof word);
    hash = (hash ^ word) * 0x9E3779B97F4A7C15ULL;
    hash = (hash << 29) | (hash >> 35);
  }
  return hash;
}

// The digests of one mode: digest k covers floats k * per_digest .. (k + 1) * per_digest - 1.
template <class T, rounding_rule Rule, overflow O, class Random>
std::vector<std::uint64_t> sweep(simd_path path, const Random& random) {
  std::vector<std::uint64_t> result(digests);
  auto work = [&](std::uint64_t first, std::uint64_t step) {
    std::vector<float> x(chunk);
    std::vector<T> codes(chunk);
    for (std::uint64_t k = first; k < digests; k += step) {
      std::uint64_t hash = 0xcbf29ce484222325ULL;
      for (std::uint64_t begin = k * per_digest; begin < (k + 1) * per_digest; begin += chunk) {
        for (std::uint64_t i = 0; i < chunk; ++i) {
          const auto bits = static_cast<std::uint32_t>(begin + i);
          std::memcpy(&x[i], &bits, sizeof bits);
        }
        // Element i takes the generator's counter offset + i: offset the generator by `begin`
        // so that every float meets the same random bits whatever the chunking.
        if constexpr (std::is_same<Random, minifloat::counter_generator>::value) {
          const minifloat::counter_generator shifted{random.seed, random.offset + begin};
          narrow_on<Rule, O>(path, x.data(), chunk, codes.data(), shifted);
        } else {
          narrow_on<Rule, O>(path, x.data(), chunk, codes.data(), random);
        }
        hash = hash_codes(hash, reinterpret_cast<const std::uint8_t*>(codes.data()), chunk);
      }
      result[k] = hash;
    }
  };
  const unsigned threads = std::max(1U, std::thread::hardware_concurrency());
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) {
    pool.emplace_back(work, t, threads);
  }
  for (auto& thread : pool) {
    thread.join();
  }
  return result;
}

void print(const std::string& mode, const std::vector<std::uint64_t>& result) {
  for (std::uint64_t k = 0; k < digests; ++k) {
    std::printf("%s floats 0x%08llx..0x%08llx: %016llx\n", mode.c_str(),
                static_cast<unsigned long long>(k * per_digest),
                static_cast<unsigned long long>((k + 1) * per_digest - 1),
                static_cast<unsigned long long>(result[k]));
  }
}

} // namespace

int main(int argc, char** argv) {
  const std::string name = argc > 1 ? argv[1] : "best";
  simd_path path = minifloat::active_path();
  for (simd_path p : {simd_path::portable, simd_path::avx2, simd_path::avx512, simd_path::neon}) {
    if (name == minifloat::to_string(p)) {
      path = p;
    }
  }
  if (name != "best" && name != minifloat::to_string(path)) {
    std::fprintf(stderr, "path_sweep: unknown path %s\n", name.c_str());
    return 2;
  }
  if (!minifloat::path_supported(path)) {
    std::fprintf(stderr, "path_sweep: this CPU cannot run the %s path\n", name.c_str());
    return 2;
  }
  std::fprintf(stderr, "path_sweep: %s path\n", minifloat::to_string(path));
  std::vector<std::string> modes(argv + std::min(argc, 2), argv + argc);
  if (modes.empty()) {
    modes = {"e4m3-nearest-even", "e5m2-toward-zero-saturating", "e4m3-stochastic"};
  }
  const no_random_bits none;
  for (const std::string& mode : modes) {
    if (mode == "e4m3-nearest-even") {
      print(mode, sweep<minifloat::e4m3, rounding_rule::nearest_even, overflow::non_saturating>(
                      path, none));
    } else if (mode == "e5m2-toward-zero-saturating") {
      print(mode,
            sweep<minifloat::e5m2, rounding_rule::toward_zero, overflow::saturate>(path, none));
    } else if (mode == "e4m3-stochastic") { // with counter_generator
      print(mode, sweep<minifloat::e4m3, rounding_rule::stochastic, overflow::non_saturating>(
                      path, minifloat::counter_generator{0x5eed, 0}));
    } else {
      std::fprintf(stderr, "path_sweep: unknown mode %s\n", mode.c_str());
      return 2;
    }
  }
  return 0;
}
