#include "tuning/search_strategy.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace fusescope::tuning {
namespace {

class GridStrategy : public SearchStrategy {
 public:
  GridStrategy(std::vector<Candidate> candidates, int64_t budget, uint64_t seed)
      : SearchStrategy(std::move(candidates), budget, seed) {}

 private:
  std::optional<size_t> Choose() override {
    for (size_t i = 0; i < candidates_.size(); ++i)
      if (!tried_[i]) return i;
    return std::nullopt;
  }
};

class RandomStrategy : public SearchStrategy {
 public:
  RandomStrategy(std::vector<Candidate> candidates, int64_t budget, uint64_t seed)
      : SearchStrategy(std::move(candidates), budget, seed), order_(candidates_.size()) {
    std::iota(order_.begin(), order_.end(), size_t{0});
    // Fisher-Yates with our own draws, so the order does not depend on the standard library.
    for (size_t i = order_.size(); i > 1; --i) {
      const size_t j = static_cast<size_t>(random_() % i);
      std::swap(order_[i - 1], order_[j]);
    }
  }

 private:
  std::optional<size_t> Choose() override {
    for (size_t index : order_)
      if (!tried_[index]) return index;
    return std::nullopt;
  }
  std::vector<size_t> order_;
};

class EvolutionaryStrategy : public SearchStrategy {
 public:
  EvolutionaryStrategy(std::vector<Candidate> candidates, int64_t budget, uint64_t seed)
      : SearchStrategy(std::move(candidates), budget, seed) {
    for (size_t i = 0; i < candidates_.size(); ++i) index_of_[candidates_[i].point] = i;
    const int64_t effective = std::min<int64_t>(budget_, static_cast<int64_t>(candidates_.size()));
    first_generation_ = std::max<int64_t>(2, std::min<int64_t>(6, effective / 3 + 1));
  }
  bool Adaptive() const override { return true; }

 private:
  std::optional<size_t> RandomUntried() {
    std::vector<size_t> open;
    for (size_t i = 0; i < candidates_.size(); ++i)
      if (!tried_[i]) open.push_back(i);
    if (open.empty()) return std::nullopt;
    return open[static_cast<size_t>(random_() % open.size())];
  }
  std::optional<size_t> Choose() override {
    if (issued_ < first_generation_ || results_.empty()) return RandomUntried();
    std::vector<std::pair<size_t, double>> ranked = results_;
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const auto& a, const auto& b) { return a.second < b.second; });
    const size_t parents = std::min<size_t>(3, ranked.size());
    for (int attempt = 0; attempt < 32; ++attempt) {
      const Candidate& parent = candidates_[ranked[static_cast<size_t>(random_() % parents)].first];
      std::vector<size_t> knobs;
      for (size_t k = 0; k < parent.point.size(); ++k)
        if (parent.point[k] >= 0) knobs.push_back(k);
      if (knobs.empty()) break;
      std::vector<int> child = parent.point;
      const size_t k = knobs[static_cast<size_t>(random_() % knobs.size())];
      const int values = ValuesOf(k);
      if (values < 2) continue;
      if (random_() % 5 == 0) {
        child[k] = static_cast<int>(random_() % static_cast<uint64_t>(values));
      } else {
        const int step = random_() % 2 == 0 ? -1 : 1;
        child[k] += (child[k] + step < 0 || child[k] + step >= values) ? -step : step;
      }
      auto found = index_of_.find(child);
      if (found != index_of_.end() && !tried_[found->second]) return found->second;
    }
    return RandomUntried();
  }
  int ValuesOf(size_t knob) const {
    int most = 0;
    for (const Candidate& candidate : candidates_) most = std::max(most, candidate.point[knob] + 1);
    return most;
  }
  std::map<std::vector<int>, size_t> index_of_;
  int64_t first_generation_ = 2;
};

}  // namespace

SearchStrategy::SearchStrategy(std::vector<Candidate> candidates, int64_t budget, uint64_t seed)
    : candidates_(std::move(candidates)),
      budget_(budget),
      random_(seed),
      tried_(candidates_.size(), false) {}

StatusOr<std::unique_ptr<SearchStrategy>> SearchStrategy::Create(std::string_view name,
                                                                  std::vector<Candidate> candidates,
                                                                  int64_t budget, uint64_t seed) {
  if (budget <= 0) budget = static_cast<int64_t>(candidates.size());
  if (name == "grid")
    return std::unique_ptr<SearchStrategy>(new GridStrategy(std::move(candidates), budget, seed));
  if (name == "random")
    return std::unique_ptr<SearchStrategy>(new RandomStrategy(std::move(candidates), budget, seed));
  if (name == "evolutionary")
    return std::unique_ptr<SearchStrategy>(
        new EvolutionaryStrategy(std::move(candidates), budget, seed));
  return Status::Error("unknown search strategy '" + std::string(name) +
                       "' (grid, random, evolutionary)");
}

std::optional<size_t> SearchStrategy::Next() {
  if (issued_ >= budget_) return std::nullopt;
  std::optional<size_t> next = Choose();
  if (!next) return std::nullopt;
  tried_[*next] = true;
  ++issued_;
  return next;
}

void SearchStrategy::Report(size_t candidate, std::optional<double> median_us) {
  if (median_us) results_.emplace_back(candidate, *median_us);
}

}  // namespace fusescope::tuning
