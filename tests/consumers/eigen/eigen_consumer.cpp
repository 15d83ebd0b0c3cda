// A weight matrix stored in e4m3 inside Eigen: one byte per element, quantized with a
// per-tensor scale by .cast<>(), used in float. Prints what it did; exits non-zero if a check
// fails.
#include <cmath>
#include <cstdio>

#include <Eigen/Core>
#include <minifloat/eigen.hpp>
#include <minifloat/minifloat.hpp>

int main() {
  using minifloat::e4m3;
  using weights = Eigen::Matrix<e4m3, Eigen::Dynamic, Eigen::Dynamic>;
  Eigen::MatrixXf w(4, 3);
  w << 0.11f, -2.5f, 3.0f, //
      1.7f, 0.002f, -0.6f, //
      -9.0f, 4.25f, 0.0f,  //
      0.33f, 7.9f, -1.1f;
  // Per-tensor scale: the largest magnitude maps to e4m3's largest finite value, 448.
  const float scale = 448.0f / w.cwiseAbs().maxCoeff();
  const weights q = (w * scale).cast<e4m3>();
  const Eigen::MatrixXf back = q.cast<float>() / scale;
  const Eigen::VectorXf x = Eigen::VectorXf::Ones(3);
  const Eigen::VectorXf y = back * x;
  const Eigen::VectorXf exact = w * x;
  std::printf("e4m3 weights: %ld x %ld, %zu bytes of storage\n", static_cast<long>(q.rows()),
              static_cast<long>(q.cols()), static_cast<std::size_t>(q.size()) * sizeof(e4m3));
  std::printf("largest element error: %.4g, largest row-sum error: %.4g\n",
              static_cast<double>((back - w).cwiseAbs().maxCoeff()),
              static_cast<double>((y - exact).cwiseAbs().maxCoeff()));
  // -448 is e4m3's 0b1'1111'110; every scaled element is a normal e4m3 value (3 mantissa bits),
  // within 2^-4 of itself relatively.
  bool ok = sizeof(e4m3) == 1 && q(2, 0).bits() == 0xFE; // -9 * scale == -448
  for (Eigen::Index i = 0; i < w.size(); ++i) {
    const float error = back(i) - w(i);
    ok = ok && std::fabs(error) <= std::fabs(w(i)) / 16;
  }
  std::printf("%s\n", ok ? "eigen consumer: ok" : "eigen consumer: FAILED");
  return ok ? 0 : 1;
}
