#include "passes/rename_fusions.h"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "passes/fusion_utils.h"

namespace fusescope::passes {
namespace {

using ir::Instruction;

std::string KindWord(FusionKind kind) {
  switch (kind) {
    case FusionKind::kLoop:
      return "loop";
    case FusionKind::kInput:
      return "input";
    case FusionKind::kOutput:
      return "output";
    case FusionKind::kCustom:
      return "custom";
  }
  return "loop";
}

std::string HeroNames(const Instruction& fusion) {
  const Instruction* root = fusion.fused_computation()->root();
  std::vector<const Instruction*> roots;
  if (root->opcode() == ir::Opcode::kTuple) {
    roots.assign(root->operands().begin(), root->operands().end());
  } else {
    roots.push_back(root);
  }
  std::set<std::string> heroes;
  for (const Instruction* output : roots) {
    const Instruction* hero = FindHero(*output);
    heroes.insert(std::string(ir::OpcodeName((hero ? hero : output)->opcode())));
  }
  std::string joined;
  for (const std::string& hero : heroes) {
    if (!joined.empty()) joined += '_';
    joined += hero;
  }
  std::replace(joined.begin(), joined.end(), '-', '_');
  return joined;
}

}  // namespace

StatusOr<bool> RenameFusions::Run(ir::Module& module, PassContext& context) {
  int64_t renamed = 0;
  for (ir::Computation* computation : FusibleComputations(module)) {
    for (const auto& instruction : computation->instructions()) {
      if (!IsFusion(*instruction) || instruction->fused_computation() == nullptr) continue;
      const std::optional<FusionKind> kind = FusionKindOf(*instruction);
      if (!kind || *kind == FusionKind::kCustom) continue;
      const std::string heroes = HeroNames(*instruction);
      const std::string name = KindWord(*kind) + "_" + heroes + "_fusion";
      // Already named so (a module that went through this pass before) stays as it is.
      const auto named = [](const std::string& current, const std::string& wanted) {
        return current == wanted || current.rfind(wanted + ".", 0) == 0;
      };
      if (!named(instruction->name(), name)) {
        instruction->set_name(module.UniqueName(name));
        ++renamed;
      }
      ir::Computation* body = instruction->fused_computation();
      if (!named(body->name(), "fused_" + heroes)) {
        body->set_name(module.UniqueName("fused_" + heroes));
      }
    }
  }
  context.AddStat("renamed_fusions", std::to_string(renamed));
  // Names are not structure: the pipeline measures change by fingerprint, which ignores
  // names, so this pass reports none; the renames show in the pass's diff and in its stat.
  return false;
}

}  // namespace fusescope::passes
