#include "passes/provenance_util.h"

#include <string>

namespace fusescope::passes {

std::unordered_set<int64_t> InstructionIds(const ir::Module& module) {
  std::unordered_set<int64_t> ids;
  for (const auto& computation : module.computations()) {
    for (const auto& instruction : computation->instructions()) ids.insert(instruction->id());
  }
  return ids;
}

Status CheckProvenance(const ir::Module& module, const std::unordered_set<int64_t>& original) {
  for (const auto& computation : module.computations()) {
    for (const auto& instruction : computation->instructions()) {
      const std::string where =
          "computation " + computation->name() + ", instruction %" + instruction->name();
      if (instruction->provenance().empty()) {
        return Status::Error(where + ": empty provenance");
      }
      for (int64_t id : instruction->provenance().ids()) {
        if (original.count(id) == 0) {
          return Status::Error(where + ": provenance names id " + std::to_string(id) +
                               ", which the original module does not have");
        }
      }
    }
  }
  return Status::Ok();
}

}  // namespace fusescope::passes
