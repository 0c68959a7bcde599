#include "tuning/tuning_run.h"

namespace fusescope::tuning {

double KernelBest::Speedup() const {
  if (!best || !baseline || best->median_us <= 0 || !baseline->ok) return 1;
  return baseline->median_us / best->median_us;
}

std::map<std::string, KernelBest> BestPerKernel(const std::vector<Trial>& trials) {
  std::map<std::string, KernelBest> best;
  for (const Trial& trial : trials) {
    KernelBest& entry = best[trial.kernel];
    ++entry.trials;
    if (!trial.ok) ++entry.failed;
    if (trial.is_default && !entry.baseline) entry.baseline = &trial;
    if (trial.ok && (!entry.best || trial.median_us < entry.best->median_us)) entry.best = &trial;
  }
  return best;
}

}  // namespace fusescope::tuning
