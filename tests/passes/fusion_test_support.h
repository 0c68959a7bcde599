#ifndef FUSESCOPE_TESTS_PASSES_FUSION_TEST_SUPPORT_H_
#define FUSESCOPE_TESTS_PASSES_FUSION_TEST_SUPPORT_H_

// Shared by the fusion pass tests: parse HLO text, run one pass with a decision log, look up
// decisions and fusions, and check the provenance invariants.

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "ir/hlo_parser.h"
#include "ir/hlo_printer.h"
#include "ir/verifier.h"
#include "passes/fusion_decision.h"
#include "passes/pass.h"

namespace fusescope::passes::testing {

inline std::unique_ptr<ir::Module> ParseOrDie(std::string_view text) {
  StatusOr<std::unique_ptr<ir::Module>> module = ir::ParseHloModule(text);
  EXPECT_TRUE(module.ok()) << module.message();
  return module.ok() ? std::move(module).value() : nullptr;
}

struct PassResult {
  std::unique_ptr<ir::Module> module;
  FusionDecisionLog log;
  bool changed = false;
  std::vector<std::pair<std::string, std::string>> stats;
};

// Runs `pass` on `text` with `options`; the module must verify afterwards.
inline std::unique_ptr<PassResult> RunPass(Pass& pass, std::string_view text,
                                           const PipelineOptions& options = {}) {
  auto result = std::make_unique<PassResult>();
  result->module = ParseOrDie(text);
  if (!result->module) return result;
  PassContext context;
  context.decisions = &result->log;
  context.options = &options;
  context.pass_name = std::string(pass.name());
  StatusOr<bool> changed = pass.Run(*result->module, context);
  EXPECT_TRUE(changed.ok()) << changed.message();
  result->changed = changed.ok() && *changed;
  result->stats = context.stats;
  Status verified = ir::VerifyModule(*result->module);
  EXPECT_TRUE(verified.ok()) << verified.message() << "\n" << ir::PrintModule(*result->module);
  return result;
}

// Every decision of a log, one per line ("producer -> consumer: explanation"), for failure
// messages.
inline std::string DescribeDecisions(const FusionDecisionLog& log) {
  std::string text;
  for (const FusionDecisionRecord& record : log.records()) {
    text += record.producer_name + " -> " + record.consumer_name + ": " + record.explanation + "\n";
  }
  return text;
}

// The last decision on producer -> consumer (names as in the input), or null.
inline const FusionDecisionRecord* FindDecision(const FusionDecisionLog& log,
                                                std::string_view producer,
                                                std::string_view consumer) {
  const FusionDecisionRecord* found = nullptr;
  for (const FusionDecisionRecord& record : log.records()) {
    if (record.producer_name == producer && record.consumer_name == consumer) found = &record;
  }
  return found;
}

inline std::vector<const ir::Instruction*> Fusions(const ir::Computation& computation) {
  std::vector<const ir::Instruction*> fusions;
  for (const auto& instruction : computation.instructions()) {
    if (instruction->opcode() == ir::Opcode::kFusion) fusions.push_back(instruction.get());
  }
  return fusions;
}

// Opcode names of a fusion's non-parameter instructions, sorted.
inline std::multiset<std::string> FusedOpcodes(const ir::Instruction& fusion) {
  std::multiset<std::string> opcodes;
  for (const auto& inner : fusion.fused_computation()->instructions()) {
    if (inner->opcode() != ir::Opcode::kParameter)
      opcodes.insert(std::string(inner->opcode_name()));
  }
  return opcodes;
}

inline std::string Dump(const ir::Module& module) { return ir::PrintModule(module); }

// Ids of the instructions of `module` that contribute to the entry's result: reachable
// through operands from the entry root, and into the bodies of control flow and fusions.
// Reducers, comparators and map bodies belong to the instruction that calls them, and
// parameters of fused computations are placeholders for the fusion's operands; neither
// counts on its own.
inline std::set<int64_t> LiveIds(const ir::Module& module) {
  std::set<int64_t> live;
  std::set<const ir::Computation*> fused;
  for (const auto& computation : module.computations()) {
    for (const auto& instruction : computation->instructions()) {
      if (instruction->opcode() == ir::Opcode::kFusion) {
        for (const ir::Computation* callee : instruction->called_computations()) {
          fused.insert(callee);
        }
      }
    }
  }
  std::vector<const ir::Instruction*> work{module.entry()->root()};
  std::set<const ir::Instruction*> seen{module.entry()->root()};
  while (!work.empty()) {
    const ir::Instruction* instruction = work.back();
    work.pop_back();
    const bool placeholder =
        instruction->opcode() == ir::Opcode::kParameter && fused.count(instruction->parent()) > 0;
    if (!placeholder) live.insert(instruction->id());
    std::vector<const ir::Instruction*> next(instruction->operands().begin(),
                                             instruction->operands().end());
    const ir::Opcode opcode = instruction->opcode();
    if (opcode == ir::Opcode::kWhile || opcode == ir::Opcode::kConditional ||
        opcode == ir::Opcode::kCall || opcode == ir::Opcode::kFusion) {
      for (const ir::Computation* callee : instruction->called_computations()) {
        next.push_back(callee->root());
      }
    }
    for (const ir::Instruction* n : next) {
      if (seen.insert(n).second) work.push_back(n);
    }
  }
  return live;
}

// Every instruction of `after` maps to at least one id of `original`.
inline void ExpectMapsBack(const ir::Module& original, const ir::Module& after) {
  std::set<int64_t> original_ids;
  for (const auto& computation : original.computations()) {
    for (const auto& instruction : computation->instructions()) {
      original_ids.insert(instruction->id());
    }
  }
  for (const auto& computation : after.computations()) {
    for (const auto& instruction : computation->instructions()) {
      const std::vector<int64_t>& ids = instruction->provenance().ids();
      const bool maps_back = std::any_of(ids.begin(), ids.end(),
                                         [&](int64_t id) { return original_ids.count(id) > 0; });
      EXPECT_TRUE(maps_back) << "%" << instruction->name() << " in " << computation->name()
                             << " maps to no original instruction";
    }
  }
}

// Every instruction of `after` maps to at least one id `original` answers for, and every
// live instruction of `original` maps forward: each id in its provenance appears in the
// provenance of something in `after`. (For a freshly parsed module provenance is {own id}.)
inline void ExpectProvenanceComplete(const ir::Module& original, const ir::Module& after) {
  std::set<int64_t> known;
  for (const auto& computation : original.computations()) {
    for (const auto& instruction : computation->instructions()) {
      known.insert(instruction->id());
      known.insert(instruction->provenance().ids().begin(), instruction->provenance().ids().end());
    }
  }
  std::set<int64_t> covered;
  for (const auto& computation : after.computations()) {
    for (const auto& instruction : computation->instructions()) {
      bool maps_back = false;
      for (int64_t id : instruction->provenance().ids()) {
        maps_back = maps_back || known.count(id) > 0;
        covered.insert(id);
      }
      EXPECT_TRUE(maps_back) << "%" << instruction->name() << " in " << computation->name()
                             << " maps to no original instruction";
    }
  }
  for (int64_t id : LiveIds(original)) {
    const ir::Instruction* live = original.FindInstructionById(id);
    std::vector<int64_t> ids = live->provenance().ids();
    if (ids.empty()) ids.push_back(id);
    for (int64_t answered : ids) {
      EXPECT_TRUE(covered.count(answered))
          << "live %" << live->name() << " (id " << id << ") answers for id " << answered
          << ", which maps forward to nothing";
    }
  }
}

}  // namespace fusescope::passes::testing

#endif  // FUSESCOPE_TESTS_PASSES_FUSION_TEST_SUPPORT_H_
