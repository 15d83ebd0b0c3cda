// Test helpers: a parallel sweep over an index range that counts comparisons and mismatches
// and keeps the first few mismatches for the failure message.
#ifndef MINIFLOAT_TESTS_SWEEP_HPP
#define MINIFLOAT_TESTS_SWEEP_HPP

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace sweep {

class tally {
public:
  // Records one comparison; returns whether it matched. Hot loops over billions of inputs use
  // a local_tally instead, which touches the shared counters once per chunk.
  bool check(bool equal, const char* what, std::uint64_t input, unsigned got, unsigned expected) {
    compared_.fetch_add(1, std::memory_order_relaxed);
    if (equal) {
      return true;
    }
    record_mismatch(what, input, got, expected);
    return false;
  }
  void record_mismatch(const char* what, std::uint64_t input, unsigned got, unsigned expected) {
    if (mismatches_.fetch_add(1, std::memory_order_relaxed) < 10) {
      char line[160];
      std::snprintf(line, sizeof line, "%s: input 0x%llx gives 0x%02x, expected 0x%02x\n", what,
                    static_cast<unsigned long long>(input), got, expected);
      const std::lock_guard<std::mutex> lock(mutex_);
      first_.append(line);
    }
  }
  bool check(unsigned got, unsigned expected, const char* what, std::uint64_t input) {
    return check(got == expected, what, input, got, expected);
  }
  // Adds `n` comparisons that were made in bulk and all matched.
  void add_matches(std::uint64_t n) { compared_.fetch_add(n, std::memory_order_relaxed); }
  std::uint64_t compared() const { return compared_.load(); }
  std::uint64_t mismatches() const { return mismatches_.load(); }
  std::string first_mismatches() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return first_;
  }
  void report(const char* name) const {
    std::printf("[ sweep    ] %s: %llu comparisons, %llu mismatches\n", name,
                static_cast<unsigned long long>(compared()),
                static_cast<unsigned long long>(mismatches()));
  }

private:
  friend class local_tally;
  std::atomic<std::uint64_t> compared_{0};
  std::atomic<std::uint64_t> mismatches_{0};
  mutable std::mutex mutex_;
  std::string first_;
};

// A per-thread view of a tally: counts comparisons locally, reports mismatches at once.
class local_tally {
public:
  explicit local_tally(tally& shared) : shared_(shared) {}
  local_tally(const local_tally&) = delete;
  local_tally& operator=(const local_tally&) = delete;
  ~local_tally() { shared_.compared_.fetch_add(compared_, std::memory_order_relaxed); }
  void check(unsigned got, unsigned expected, const char* what, std::uint64_t input) {
    ++compared_;
    if (got != expected) {
      shared_.record_mismatch(what, input, got, expected);
    }
  }
  // Adds `n` comparisons made in bulk; their mismatches go to record_mismatch.
  void add_matches(std::uint64_t n) { compared_ += n; }
  void record_mismatch(const char* what, std::uint64_t input, unsigned got, unsigned expected) {
    shared_.record_mismatch(what, input, got, expected);
  }

private:
  tally& shared_;
  std::uint64_t compared_ = 0;
};

// Calls body(begin, end) on consecutive chunks of [0, count), on every hardware thread.
template <class Body>
void parallel_for(std::uint64_t count, Body body) {
  const std::uint64_t chunk = 1u << 16;
  std::atomic<std::uint64_t> next{0};
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) {
    pool.emplace_back([&] {
      for (;;) {
        const std::uint64_t begin = next.fetch_add(chunk);
        if (begin >= count) {
          return;
        }
        body(begin, std::min(count, begin + chunk));
      }
    });
  }
  for (std::thread& thread : pool) {
    thread.join();
  }
}

// The float whose bits are `bits` (the sweeps enumerate floats by their bits).
inline float float_from_bits(std::uint32_t bits) {
  float x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

// A fixed, well-mixed 32-bit value for an index (splitmix64's finaliser): random bits that are
// the same on every run.
inline std::uint32_t mix(std::uint64_t i) {
  std::uint64_t z = i + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return static_cast<std::uint32_t>((z ^ (z >> 31)) >> 32);
}

} // namespace sweep

#endif // MINIFLOAT_TESTS_SWEEP_HPP
