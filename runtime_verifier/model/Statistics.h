//===- Statistics.h - Median and spread of repeated runs --------*- C++ -*-===//
//
// Timings are reported as the median of repeated runs with their spread
// (min, max): a difference between two variants smaller than the spread is
// noise.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_VERIFY_MODEL_STATISTICS_H
#define CUDA_ASYNC_VERIFY_MODEL_STATISTICS_H

#include <vector>

namespace cuda_async_verify {

struct Summary {
  double Median = 0;
  double Min = 0;
  double Max = 0;
  /// Every sample, in the order it was taken.
  std::vector<double> Samples;

  /// (max - min) / median, 0 for one sample or a zero median.
  double relativeSpread() const;
};

/// Summarises samples; an empty input gives an all-zero summary.
Summary summarize(std::vector<double> Samples);

} // namespace cuda_async_verify

#endif // CUDA_ASYNC_VERIFY_MODEL_STATISTICS_H
