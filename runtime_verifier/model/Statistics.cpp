//===- Statistics.cpp - Median and spread of repeated runs ----------------===//

#include "Statistics.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace cuda_async_verify {

double Summary::relativeSpread() const {
  return Median > 0 ? (Max - Min) / Median : 0;
}

Summary summarize(std::vector<double> Samples) {
  Summary S;
  S.Samples = Samples;
  if (Samples.empty())
    return S;
  std::sort(Samples.begin(), Samples.end());
  size_t N = Samples.size();
  S.Median = N % 2 ? Samples[N / 2] : (Samples[N / 2 - 1] + Samples[N / 2]) / 2;
  S.Min = Samples.front();
  S.Max = Samples.back();
  return S;
}

Interval medianInterval(std::vector<double> Samples, double Confidence) {
  Samples.erase(std::remove_if(Samples.begin(), Samples.end(),
                               [](double X) { return std::isnan(X); }),
                Samples.end());
  Interval I;
  I.Samples = Samples.size();
  if (Samples.empty()) {
    I.Median = I.Low = I.High = std::numeric_limits<double>::quiet_NaN();
    return I;
  }
  I.Median = summarize(Samples).Median;
  std::sort(Samples.begin(), Samples.end());
  size_t N = Samples.size();
  // Tail[k] = P(X <= k) for X ~ Binomial(N, 1/2).
  std::vector<double> Tail(N + 1);
  double Term = std::pow(0.5, static_cast<double>(N)), Sum = 0;
  for (size_t K = 0; K <= N; ++K) {
    Sum += Term;
    Tail[K] = Sum;
    Term = Term * (N - K) / (K + 1);
  }
  double Alpha = (1 - Confidence) / 2;
  // The largest k (1-based, at most N/2) with P(X <= k - 1) <= Alpha; too
  // few samples for the confidence asked leave min..max.
  size_t K = 1;
  for (size_t C = 2; C <= N / 2; ++C)
    if (Tail[C - 1] <= Alpha)
      K = C;
  I.Low = Samples[K - 1];
  I.High = Samples[N - K];
  I.Confidence = 1 - 2 * Tail[K - 1];
  return I;
}

std::vector<double> pairedRatios(const std::vector<double> &Num,
                                 const std::vector<double> &Den) {
  std::vector<double> Ratios;
  if (Num.size() == Den.size()) {
    for (size_t I = 0; I < Num.size(); ++I)
      Ratios.push_back(Num[I] / Den[I]);
    return Ratios;
  }
  for (double N : Num)
    for (double D : Den)
      Ratios.push_back(N / D);
  return Ratios;
}

} // namespace cuda_async_verify
