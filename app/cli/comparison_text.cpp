#include "app/cli/comparison_text.h"

#include <cstdio>
#include <set>

namespace fusescope::app {
namespace {

std::string Join(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) out += (out.empty() ? "" : ", ") + name;
  return out;
}

// "B refused add.103 -> fusion.2 in fusion (#7): too_many_operands: ...; keeps out add.103".
std::string Describe(const recording::FusionRefusal& refusal) {
  const std::string side = refusal.refused_by_b ? "B" : "A";
  const std::string members = Join(refusal.members);
  if (refusal.decision_index < 0) {
    return members + ": " + side + " never considered them for this fusion";
  }
  return side + " refused " + refusal.producer + " -> " + refusal.consumer + " in " + refusal.pass +
         " (#" + std::to_string(refusal.pass_index) + "): " + refusal.reason + ": " +
         refusal.explanation + " [keeps out " + members + "]";
}

void PrintRefusals(const recording::FusionMatch& match,
                   std::set<std::pair<bool, int64_t>>& printed) {
  for (const recording::FusionRefusal& refusal : match.refusals) {
    if (refusal.decision_index >= 0 &&
        !printed.emplace(refusal.refused_by_b, refusal.decision_index).second) {
      continue;
    }
    std::printf("      %s\n", Describe(refusal).c_str());
  }
}

}  // namespace

void PrintFinalFusions(const std::vector<recording::FusionMatch>& same,
                  const std::vector<recording::FusionMatch>& different,
                  const std::vector<recording::FusionMatch>& only_a,
                  const std::vector<recording::FusionMatch>& only_b) {
  std::set<int64_t> differing;
  for (const recording::FusionMatch& match : different) {
    if (!match.from_b) differing.insert(match.fusion_a_id);
  }
  std::printf(
      "%zu the same, %zu of A's hold members B fuses otherwise, %zu only in A, %zu only in B\n",
      same.size(), differing.size(), only_a.size(), only_b.size());
  // Each fusion of A whose members differ, with the fusions of B that hold some of them;
  // then the fusions of B that none of those was paired with.
  for (size_t i = 0; i < different.size();) {
    const recording::FusionMatch& first = different[i];
    const auto same_group = [&](const recording::FusionMatch& match) {
      return match.from_b == first.from_b &&
             (first.from_b ? match.fusion_b_id == first.fusion_b_id
                           : match.fusion_a_id == first.fusion_a_id);
    };
    if (first.from_b) {
      std::printf("  B %s (%zu members) holds members of A's", first.fusion_b.c_str(),
                  first.common.size() + first.only_b.size());
    } else {
      std::printf("  A %s (%zu members) is in B's", first.fusion_a.c_str(),
                  first.common.size() + first.only_a.size());
    }
    std::string separator = " ";
    const size_t group = i;
    for (; i < different.size() && same_group(different[i]); ++i) {
      const recording::FusionMatch& match = different[i];
      const size_t own = first.from_b ? match.only_a.size() : match.only_b.size();
      std::printf("%s%s (%zu shared%s)", separator.c_str(),
                  (first.from_b ? match.fusion_a : match.fusion_b).c_str(), match.common.size(),
                  own == 0 ? "" : (", +" + std::to_string(own) + " of its own").c_str());
      separator = ", ";
    }
    std::printf("\n");
    std::set<std::pair<bool, int64_t>> printed;
    for (size_t j = group; j < i; ++j) PrintRefusals(different[j], printed);
  }
  for (const recording::FusionMatch& match : only_a) {
    std::printf("  only in A: %s holding %s\n", match.fusion_a.c_str(), Join(match.only_a).c_str());
    std::set<std::pair<bool, int64_t>> printed;
    PrintRefusals(match, printed);
  }
  for (const recording::FusionMatch& match : only_b) {
    std::printf("  only in B: %s holding %s\n", match.fusion_b.c_str(), Join(match.only_b).c_str());
    std::set<std::pair<bool, int64_t>> printed;
    PrintRefusals(match, printed);
  }
}


}  // namespace fusescope::app
