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

/// A range that holds the median of the distribution the samples were
/// drawn from with the stated confidence.
struct Interval {
  /// The median of the samples it was taken from.
  double Median = 0;
  double Low = 0;
  double High = 0;
  /// The probability that the range holds the true median: at least the
  /// confidence asked for where the samples allow it, less for few samples
  /// (three runs give min..max, 75%).
  double Confidence = 0;
  unsigned Samples = 0;

  /// Wholly at or above \p Bar: the bar is met for sure.
  bool above(double Bar) const { return Low >= Bar; }
  /// Wholly below \p Bar: the bar is missed for sure. Neither (or NaN):
  /// the samples cannot tell.
  bool below(double Bar) const { return High < Bar; }
};

/// The distribution-free interval of the median: the order statistics
/// x(k) and x(n+1-k) for the largest k whose binomial tail P(X < k) is at
/// most (1 - Confidence) / 2. It assumes nothing about the timing noise's
/// shape (a slow spell of a shared machine is not Gaussian). NaN samples
/// are left out; none left gives an interval of NaN.
Interval medianInterval(std::vector<double> Samples, double Confidence = 0.95);

/// Num[i] / Den[i] for runs taken side by side (the same repeat of an
/// interleaved measurement), so a slow spell that touched both cancels;
/// every pair when the counts differ.
std::vector<double> pairedRatios(const std::vector<double> &Num,
                                 const std::vector<double> &Den);

} // namespace cuda_async_verify

#endif // CUDA_ASYNC_VERIFY_MODEL_STATISTICS_H
