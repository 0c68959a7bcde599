#include "tuning/tuning_run.h"

namespace fusescope::tuning {

double KernelBest::Speedup() const {
  if (!best || best->median_us <= 0) return 1;
  return 1 / RelativeTime(*best, baseline);
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
    if (trial.ok && !trial.SlowsTheModule() &&
        (!entry.best || RelativeTime(trial, entry.baseline) <
                                        RelativeTime(*entry.best, entry.baseline)))
      entry.best = &trial;
  }
  return best;
}

}  // namespace fusescope::tuning
