// Test helper: the array functions' paths this CPU can run, the portable one first.
#ifndef MINIFLOAT_TESTS_SUPPORTED_PATHS_HPP
#define MINIFLOAT_TESTS_SUPPORTED_PATHS_HPP

#include <vector>

#include <minifloat/bulk.hpp>

inline std::vector<minifloat::simd_path> supported_paths() {
  std::vector<minifloat::simd_path> paths;
  for (auto path : {minifloat::simd_path::portable, minifloat::simd_path::avx2,
                    minifloat::simd_path::avx512, minifloat::simd_path::neon}) {
    if (minifloat::path_supported(path)) {
      paths.push_back(path);
    }
  }
  return paths;
}

#endif // MINIFLOAT_TESTS_SUPPORTED_PATHS_HPP
