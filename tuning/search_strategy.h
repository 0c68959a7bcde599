#ifndef FUSESCOPE_TUNING_SEARCH_STRATEGY_H_
#define FUSESCOPE_TUNING_SEARCH_STRATEGY_H_

// The order a kernel's candidates are tried in, within a trial budget:
//   grid:          every candidate in grid order (the budget cuts the tail);
//   random:        a seeded shuffle of the candidates;
//   evolutionary:  a seeded random first generation, then children of the fastest candidates
//                  so far, each one knob moved to a neighbouring value (or, one time in five,
//                  to any value), never a candidate tried before.
// Deterministic for a seed: the same seed and the same times give the same order.

#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "ir/status.h"
#include "tuning/search_space.h"

namespace fusescope::tuning {

class SearchStrategy {
 public:
  // "grid", "random" or "evolutionary"; an error names the others.
  static StatusOr<std::unique_ptr<SearchStrategy>> Create(std::string_view name,
                                                          std::vector<Candidate> candidates,
                                                          int64_t budget, uint64_t seed);
  virtual ~SearchStrategy() = default;
  // The index (into the candidates) to try next, or nullopt when the budget is spent or every
  // candidate was tried.
  std::optional<size_t> Next();
  // The median time of the candidate Next() last returned; a failed trial reports nullopt.
  void Report(size_t candidate, std::optional<double> median_us);
  // Whether the order depends on the times reported (evolutionary does; then a plan cannot be
  // made ahead of the trials).
  virtual bool Adaptive() const { return false; }
  const std::vector<Candidate>& candidates() const { return candidates_; }

 protected:
  SearchStrategy(std::vector<Candidate> candidates, int64_t budget, uint64_t seed);
  virtual std::optional<size_t> Choose() = 0;

  std::vector<Candidate> candidates_;
  int64_t budget_;
  std::mt19937_64 random_;
  std::vector<bool> tried_;
  std::vector<std::pair<size_t, double>> results_;  // ok trials: candidate, median
  int64_t issued_ = 0;
};

}  // namespace fusescope::tuning

#endif  // FUSESCOPE_TUNING_SEARCH_STRATEGY_H_
