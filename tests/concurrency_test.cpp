// Many threads at once (CI runs this under ThreadSanitizer too): the first calls race to
// initialise the dispatch; every public array and scaling function is called from many threads
// on their own arrays and must give what one thread gives; one array split between threads with
// counter_generator{seed, offset + k} equals one call over the whole array. Each test runs in a
// process of its own (gtest_discover_tests), so each one's first call really is the first.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include <minifloat/minifloat.hpp>

namespace {

using minifloat::e4m3;
using minifloat::e5m2;

constexpr int thread_count = 8;

// Runs body(t) on thread_count threads released at the same moment, so that their first calls
// into the library overlap as much as the scheduler lets them.
template <class Body>
void on_threads_at_once(Body body) {
  std::atomic<int> waiting{thread_count};
  std::vector<std::thread> threads;
  for (int t = 0; t < thread_count; ++t) {
    threads.emplace_back([&, t] {
      waiting.fetch_sub(1);
      while (waiting.load() != 0) {
        std::this_thread::yield();
      }
      body(t);
    });
  }
  for (auto& thread : threads) {
    thread.join();
  }
}

std::vector<float> test_data(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(0.0f, 100.0f);
  std::vector<float> x(n);
  for (float& v : x) {
    v = normal(rng);
  }
  x[n / 2] = 1e6f; // overflow
  x[n / 3] = -0.0f;
  return x;
}

template <class T>
std::vector<std::uint8_t> bits_of(const std::vector<T>& codes) {
  std::vector<std::uint8_t> bits(codes.size());
  std::memcpy(bits.data(), codes.data(), codes.size());
  return bits;
}
std::vector<std::uint32_t> bits_of(const std::vector<float>& values) {
  std::vector<std::uint32_t> bits(values.size());
  std::memcpy(bits.data(), values.data(), values.size() * sizeof(float));
  return bits;
}
std::uint32_t bits_of(float value) {
  std::uint32_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

TEST(Concurrency, FirstCallsRaceToInitialiseTheDispatch) {
  std::vector<minifloat::simd_path> seen(thread_count);
  on_threads_at_once([&](int t) { seen[static_cast<std::size_t>(t)] = minifloat::active_path(); });
  for (auto path : seen) {
    EXPECT_EQ(path, minifloat::active_path());
  }
}

// Everything one thread computes from its data, through the public entry points.
struct results {
  std::vector<std::uint8_t> nearest, saturated, toward_zero, stochastic, quantized, blocks, mx;
  // Floats as bits, so that NaNs compare equal to themselves.
  std::vector<std::uint32_t> widened, dequantized, block_scales;
  std::uint32_t amax = 0;
  std::uint32_t delayed_scale_inv = 0;

  bool operator==(const results& o) const {
    return nearest == o.nearest && saturated == o.saturated && toward_zero == o.toward_zero &&
           stochastic == o.stochastic && quantized == o.quantized && blocks == o.blocks &&
           mx == o.mx && widened == o.widened && dequantized == o.dequantized &&
           block_scales == o.block_scales && amax == o.amax &&
           delayed_scale_inv == o.delayed_scale_inv;
  }
};

results compute(const std::vector<float>& x) {
  using minifloat::overflow;
  using minifloat::rounding;
  const std::size_t n = x.size();
  results r;
  std::vector<e4m3> q(n);
  minifloat::convert(x.data(), n, q.data());
  r.nearest = bits_of(q);
  minifloat::convert<rounding::nearest_even, overflow::saturate>(x.data(), n, q.data());
  r.saturated = bits_of(q);
  std::vector<e5m2> q5(n);
  minifloat::convert<rounding::toward_zero>(x.data(), n, q5.data());
  r.toward_zero = bits_of(q5);
  minifloat::stochastic_convert(x.data(), n, q.data(), minifloat::counter_generator{42, 7});
  r.stochastic = bits_of(q);
  std::vector<float> wide(n);
  minifloat::convert(q.data(), n, wide.data());
  r.widened = bits_of(wide);
  const float amax = minifloat::amax(x.data(), n);
  r.amax = bits_of(amax);
  minifloat::quantize(x.data(), n, q.data(), minifloat::compute_scale<e4m3>(amax));
  r.quantized = bits_of(q);
  minifloat::dequantize(q.data(), n, wide.data(), 0.5f);
  r.dequantized = bits_of(wide);
  std::vector<float> block_scales(n / 128);
  minifloat::quantize_blocks(x.data(), 1, n, minifloat::tile_1x128, q.data(), block_scales.data());
  r.block_scales = bits_of(block_scales);
  r.blocks = bits_of(q);
  std::vector<minifloat::e8m0> scales(n / 32);
  minifloat::quantize_mx(x.data(), n, q.data(), scales.data());
  r.mx = bits_of(q);
  minifloat::delayed_scaling<e4m3> scaling(4);
  for (int step = 0; step < 3; ++step) {
    r.delayed_scale_inv = bits_of(scaling.quantize(x.data(), n, q.data()));
  }
  return r;
}

TEST(Concurrency, EveryFunctionFromManyThreadsAgreesWithOneThread) {
  std::vector<std::vector<float>> inputs;
  for (int t = 0; t < thread_count; ++t) {
    inputs.push_back(test_data(4096, static_cast<unsigned>(t)));
  }
  std::vector<results> concurrent(thread_count);
  on_threads_at_once([&](int t) {
    const auto i = static_cast<std::size_t>(t);
    for (int round = 0; round < 4; ++round) {
      concurrent[i] = compute(inputs[i]);
    }
  });
  for (std::size_t t = 0; t < inputs.size(); ++t) {
    EXPECT_TRUE(concurrent[t] == compute(inputs[t])) << "thread " << t;
  }
}

TEST(Concurrency, OneArraySplitBetweenThreadsEqualsOneCall) {
  // Stochastic rounding is reproducible however the array is split: the thread converting
  // [k, k + m) uses counter_generator{seed, offset + k}.
  const std::size_t n = 10000; // not a multiple of the split, nor of any vector width
  const auto x = test_data(n, 99);
  const minifloat::counter_generator generator{0xDEADBEEFCAFEULL, 123};
  std::vector<e4m3> whole(n);
  minifloat::stochastic_convert(x.data(), n, whole.data(), generator);
  std::vector<e4m3> split(n);
  const std::size_t share = n / thread_count + 1;
  on_threads_at_once([&](int t) {
    const std::size_t first = static_cast<std::size_t>(t) * share;
    const std::size_t count = first >= n ? 0 : std::min(share, n - first);
    minifloat::stochastic_convert(
        x.data() + first, count, split.data() + first,
        minifloat::counter_generator{generator.seed, generator.offset + first});
  });
  EXPECT_EQ(bits_of(split), bits_of(whole));
}

} // namespace
