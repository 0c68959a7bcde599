#include "tuning/tuning_run.h"

#include <algorithm>
#include <cmath>

namespace fusescope::tuning {

double KernelBest::Speedup() const {
  if (!best || best->median_us <= 0) return 1;
  return 1 / RelativeTime(*best, baseline);
}

bool PairsShowFaster(int64_t faster, int64_t pairs) {
  if (pairs <= 0 || faster <= 0) return false;
  // P(X >= faster) for X ~ Binomial(pairs, 1/2), summed in logs so that no term overflows.
  double tail = 0;
  for (int64_t k = faster; k <= pairs; ++k) {
    const double log_term = std::lgamma(static_cast<double>(pairs) + 1) -
                            std::lgamma(static_cast<double>(k) + 1) -
                            std::lgamma(static_cast<double>(pairs - k) + 1) -
                            static_cast<double>(pairs) * std::log(2.0);
    tail += std::exp(log_term);
  }
  return tail <= 0.05;
}

int64_t CountFaster(const std::vector<double>& a, const std::vector<double>& b) {
  int64_t faster = 0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i)
    if (a[i] < b[i]) ++faster;
  return faster;
}

bool Trial::IsWin() const {
  if (!ok || is_default || SlowsTheModule() || baseline_us <= 0) return false;
  if (Relative() > 1 - kMinGain) return false;
  if (baseline_samples_us.empty()) return true;
  const int64_t pairs =
      static_cast<int64_t>(std::min(samples_us.size(), baseline_samples_us.size()));
  return PairsShowFaster(CountFaster(samples_us, baseline_samples_us), pairs);
}

std::map<std::string, KernelBest> BestPerKernel(const std::vector<Trial>& trials) {
  std::map<std::string, KernelBest> best;
  for (const Trial& trial : trials) {
    KernelBest& entry = best[trial.kernel];
    if (trial.is_default && !entry.baseline) entry.baseline = &trial;
  }
  for (const Trial& trial : trials) {
    KernelBest& entry = best[trial.kernel];
    ++entry.trials;
    if (!trial.ok) ++entry.failed;
    if (trial.IsWin() && (!entry.best || RelativeTime(trial, entry.baseline) <
                                             RelativeTime(*entry.best, entry.baseline)))
      entry.best = &trial;
  }
  for (auto& [kernel, entry] : best)
    if (!entry.best) entry.best = entry.baseline;
  return best;
}

}  // namespace fusescope::tuning
