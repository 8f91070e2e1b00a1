//===- Statistics.cpp - Median and spread of repeated runs ----------------===//

#include "Statistics.h"

#include <algorithm>

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

} // namespace cuda_async_verify
