#include "importers/xla_dump_provenance.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace fusescope::ir {

namespace {

enum class Origin { kNone, kName, kStructure, kReplacement, kRewritePart };

// What a copy of an instruction answers for, as our fusion pass has it: all of the
// original's set while small; only its first id when large (a constant that CSE merged from
// thousands, duplicated into every fusion, would otherwise grow provenance quadratically).
constexpr size_t kCopiedProvenanceLimit = 16;

ProvenanceSet CopiedProvenance(const ProvenanceSet& original) {
  if (original.size() <= kCopiedProvenanceLimit) return original;
  return ProvenanceSet({original.ids().front()});
}

// The computation that is not a fused computation and holds (through fusions) `computation`.
const Computation* OuterComputation(const Computation* computation) {
  // Fusions nest only a few levels deep; the bound guards against a malformed cycle.
  for (int depth = 0; depth < 64 && computation->fusion_instruction() != nullptr; ++depth) {
    const Computation* parent = computation->fusion_instruction()->parent();
    if (parent == nullptr) break;
    computation = parent;
  }
  return computation;
}

// The instruction that calls `computation` and whose operands its parameters stand for: the
// fusion of a fused computation, or the only `call` of a called one; nullptr otherwise.
using Callers = std::unordered_map<const Computation*, const Instruction*>;

const Instruction* CallerOf(const Computation* computation, const Callers* callers) {
  if (computation == nullptr) return nullptr;
  if (computation->fusion_instruction() != nullptr) return computation->fusion_instruction();
  if (callers == nullptr) return nullptr;
  auto found = callers->find(computation);
  return found == callers->end() ? nullptr : found->second;
}

// Computations called by exactly one instruction, that one being a `call`: the call
// inliner replaces such a call with a copy of its body.
Callers SingleCallers(const Module& module) {
  Callers callers;
  std::unordered_set<const Computation*> shared;
  for (const auto& computation : module.computations()) {
    for (const auto& instruction : computation->instructions()) {
      for (const Computation* called : instruction->called_computations()) {
        if (instruction->opcode() != Opcode::kCall ||
            !callers.emplace(called, instruction.get()).second) {
          shared.insert(called);
        }
      }
    }
  }
  for (const Computation* computation : shared) callers.erase(computation);
  return callers;
}

// The value an instruction stands for: a parameter of a fused or called computation is the
// caller's operand, seen through any number of levels.
const Instruction* Identity(const Instruction* instruction, const Callers* callers = nullptr) {
  for (int depth = 0; depth < 64 && instruction->opcode() == Opcode::kParameter; ++depth) {
    const Instruction* caller = CallerOf(instruction->parent(), callers);
    const int64_t number = instruction->parameter_number();
    if (caller == nullptr || number < 0 || number >= caller->operand_count()) break;
    instruction = caller->operand(number);
  }
  return instruction;
}

void AppendShapeAndOpcode(std::string& key, const Instruction& instruction) {
  key += instruction.opcode_name();
  key += '|';
  key += instruction.shape().ToString(/*with_layout=*/false);
  key += '|';
}

// Operand-less instructions (constants, iotas, rng) are told apart by what they hold.
void AppendContents(std::string& key, const Instruction& instruction) {
  key += instruction.literal();
  for (const Attribute& attribute : instruction.attributes()) {
    if (attribute.names_computations) continue;
    key += attribute.key;
    key += '=';
    key += attribute.value;
    key += ',';
  }
}

void AppendOperand(std::string& key, const Instruction* operand) {
  key += std::to_string(reinterpret_cast<uintptr_t>(operand));
  key += ',';
}

// Without operands: for an instruction whose operands changed too (a renamed dot with new
// operands). Empty, so never matched, for an instruction without op_name: opcode and shape
// alone would pair unrelated instructions.
std::string LooseKey(const Instruction& instruction) {
  std::string op_name = instruction.metadata().String("op_name");
  if (op_name.empty()) return op_name;
  std::string key;
  AppendShapeAndOpcode(key, instruction);
  if (instruction.operand_count() == 0) AppendContents(key, instruction);
  key += op_name;
  return key;
}

// Instructions of one computation of the module before, with those of the fused computations
// it holds, indexed by what a clone of each looks like.
struct Pool {
  std::unordered_map<std::string, std::vector<const Instruction*>> by_structure;
  std::unordered_map<std::string, std::vector<const Instruction*>> by_loose_key;
};

class Carrier {
 public:
  Carrier(const Module& before, Module& after, int64_t& next_id)
      : before_(before), after_(after), next_id_(next_id), callers_(SingleCallers(before)) {}

  ProvenanceCarryCounts Run() {
    PairComputations();
    MatchNames();
    for (Computation* computation : after_.MakeComputationPostOrder()) {
      if (computation->fusion_instruction() == nullptr) Visit(*computation);
    }
    FindReplacements();
    Assign();
    return counts_;
  }

 private:
  // ------------------------------------------------------------------ correspondence

  void Pair(const Computation* after, const Computation* before) {
    if (after == nullptr || before == nullptr) return;
    if (pair_.count(after) || paired_before_.count(before)) return;
    pair_.emplace(after, before);
    paired_before_.insert(before);
  }

  void PairComputations() {
    std::unordered_map<std::string_view, const Computation*> by_name;
    for (const auto& computation : before_.computations()) {
      by_name.emplace(computation->name(), computation.get());
    }
    Pair(after_.entry(), before_.entry());
    for (const auto& computation : after_.computations()) {
      auto found = by_name.find(computation->name());
      if (found != by_name.end()) Pair(computation.get(), found->second);
    }
  }

  // Names within paired computations; called computations of matched instructions pair up
  // in turn, callers first.
  void MatchNames() {
    std::vector<Computation*> order = after_.MakeComputationPostOrder();
    std::reverse(order.begin(), order.end());
    for (Computation* computation : order) {
      auto paired = pair_.find(computation);
      if (paired == pair_.end()) continue;
      std::unordered_map<std::string_view, const Instruction*> names;
      for (const auto& instruction : paired->second->instructions()) {
        names.emplace(instruction->name(), instruction.get());
      }
      for (const auto& instruction : computation->instructions()) {
        auto found = names.find(instruction->name());
        if (found == names.end() || claimed_.count(found->second)) continue;
        SetOrigin(instruction.get(), found->second, Origin::kName);
        claimed_.insert(found->second);
        const auto& mine = instruction->called_computations();
        const auto& theirs = found->second->called_computations();
        if (mine.size() != theirs.size()) continue;
        for (size_t i = 0; i < mine.size(); ++i) Pair(mine[i], theirs[i]);
      }
    }
  }

  void SetOrigin(const Instruction* after, const Instruction* before, Origin origin) {
    value_[after] = before;
    origin_[after] = origin;
  }

  Origin OriginOf(const Instruction* instruction) const {
    auto found = origin_.find(instruction);
    return found == origin_.end() ? Origin::kNone : found->second;
  }

  const Instruction* ValueOf(const Instruction* instruction) const {
    auto found = value_.find(instruction);
    return found == value_.end() ? nullptr : found->second;
  }

  // ------------------------------------------------------------------ structure

  const Pool* PoolFor(const Computation& after_computation) {
    auto paired = pair_.find(OuterComputation(&after_computation));
    if (paired == pair_.end()) return nullptr;
    auto [it, inserted] = pools_.try_emplace(paired->second);
    if (inserted) FillPool(*paired->second, it->second);
    return &it->second;
  }

  void FillPool(const Computation& computation, Pool& pool) {
    for (const auto& instruction : computation.instructions()) {
      const Instruction& x = *instruction;
      if (x.opcode() != Opcode::kParameter) {
        pool.by_structure[BeforeKey(x)].push_back(&x);
        if (std::string loose = LooseKey(x); !loose.empty()) {
          pool.by_loose_key[std::move(loose)].push_back(&x);
        }
      }
      if (const Computation* fused = x.fused_computation(); fused && fused != &computation) {
        FillPool(*fused, pool);
      }
      if (x.opcode() == Opcode::kCall) {
        for (const Computation* called : x.called_computations()) {
          if (called != &computation && CallerOf(called, &callers_) == &x) FillPool(*called, pool);
        }
      }
    }
  }

  std::string BeforeKey(const Instruction& instruction) const {
    std::string key;
    AppendShapeAndOpcode(key, instruction);
    if (instruction.operand_count() == 0) AppendContents(key, instruction);
    for (const Instruction* operand : instruction.operands()) {
      AppendOperand(key, Identity(operand, &callers_));
    }
    return key;
  }

  // The same key for an instruction of the module after, its operands replaced by their
  // counterparts before; empty when one has none.
  std::string AfterKey(const Instruction& instruction) const {
    std::string key;
    AppendShapeAndOpcode(key, instruction);
    if (instruction.operand_count() == 0) AppendContents(key, instruction);
    for (const Instruction* operand : instruction.operands()) {
      const Instruction* value = ValueOf(operand);
      if (value == nullptr) return std::string();
      AppendOperand(key, Identity(value, &callers_));
    }
    return key;
  }

  // Inside a fused computation a clone of something still outside is fine (XLA duplicates
  // cheap producers into several fusions); outside, only what is gone can have been renamed.
  const Instruction* Pick(const std::vector<const Instruction*>& candidates,
                          bool allow_duplicate) const {
    for (const Instruction* candidate : candidates) {
      if (!claimed_.count(candidate)) return candidate;
    }
    return allow_duplicate && !candidates.empty() ? candidates.front() : nullptr;
  }

  const Instruction* MatchStructure(const Instruction& instruction, bool in_fusion) {
    const Pool* pool = PoolFor(*instruction.parent());
    if (pool == nullptr) return nullptr;
    if (std::string key = AfterKey(instruction); !key.empty()) {
      auto found = pool->by_structure.find(key);
      if (found != pool->by_structure.end()) {
        if (const Instruction* pick = Pick(found->second, in_fusion)) return pick;
      }
    }
    const std::string loose_key = LooseKey(instruction);
    if (loose_key.empty()) return nullptr;
    auto loose = pool->by_loose_key.find(loose_key);
    if (loose == pool->by_loose_key.end()) return nullptr;
    return Pick(loose->second, /*allow_duplicate=*/false);
  }

  void Visit(const Computation& computation) {
    const Instruction* fusion = computation.fusion_instruction();
    for (const Instruction* instruction : computation.MakePostOrder()) {
      if (OriginOf(instruction) == Origin::kNone) {
        if (instruction->opcode() == Opcode::kParameter) {
          const int64_t number = instruction->parameter_number();
          if (fusion != nullptr && number >= 0 && number < fusion->operand_count()) {
            if (const Instruction* value = ValueOf(fusion->operand(number))) {
              value_[instruction] = value;
            }
          }
        } else if (const Instruction* match = MatchStructure(*instruction, fusion != nullptr)) {
          SetOrigin(instruction, match, Origin::kStructure);
          if (!claimed_.insert(match).second) duplicates_.insert(instruction);
          ++counts_.by_structure;
          if (fusion != nullptr && match->parent() != nullptr &&
              match->parent()->fusion_instruction() == nullptr) {
            ++counts_.into_fusions;
          }
        }
      }
      if (const Computation* fused = instruction->fused_computation()) {
        Visit(*fused);
        if (!value_.count(instruction) && fused->root() != nullptr) {
          // A new fusion stands for its root's value where its users are concerned.
          if (const Instruction* value = ValueOf(fused->root())) value_[instruction] = value;
        }
      }
      if (instruction->opcode() == Opcode::kGetTupleElement &&
          OriginOf(instruction) == Origin::kNone) {
        StandForTupleElement(*instruction);
      }
    }
  }

  // get-tuple-element of a new multi-output fusion: the output it names.
  void StandForTupleElement(const Instruction& element) {
    const Instruction* fusion = element.operand(0);
    const Computation* fused = fusion->fused_computation();
    const std::optional<int64_t> index = element.tuple_index();
    if (fused == nullptr || !index || fused->root() == nullptr) return;
    const Instruction* root = fused->root();
    if (root->opcode() != Opcode::kTuple || *index < 0 || *index >= root->operand_count()) return;
    if (const Instruction* value = ValueOf(root->operand(*index))) {
      SetOrigin(&element, value, Origin::kStructure);
      ++counts_.by_structure;
    }
  }

  // ------------------------------------------------------------------ replacements

  void FindReplacements() {
    for (const auto& computation : after_.computations()) {
      std::vector<Instruction*> order = computation->MakePostOrder();
      auto paired = pair_.find(computation.get());
      const Computation* before = paired == pair_.end() ? nullptr : paired->second;
      // Users before operands, so that a chain of new instructions follows a chain of gone ones.
      for (auto it = order.rbegin(); it != order.rend(); ++it) {
        const Instruction* instruction = *it;
        if (OriginOf(instruction) != Origin::kNone) continue;
        if (instruction->opcode() == Opcode::kParameter || instruction->fused_computation()) {
          continue;
        }
        std::vector<const Instruction*> replaced = GoneOperandsFor(*instruction);
        if (computation->root() == instruction && before && before->root() &&
            !claimed_.count(before->root()) && before->root()->opcode() != Opcode::kParameter) {
          replaced.push_back(before->root());
        }
        if (!replaced.empty()) {
          SetOrigin(instruction, replaced.front(), Origin::kReplacement);
          replaced_[instruction] = std::move(replaced);
          ++counts_.replacements;
        } else if (std::vector<const Instruction*> parts = RewriteOf(*instruction);
                   !parts.empty()) {
          origin_[instruction] = Origin::kRewritePart;
          replaced_[instruction] = std::move(parts);
          ++counts_.rewrite_parts;
        }
      }
    }
  }

  // A new instruction that only feeds rewritten instructions (the transpose a dot rewrite
  // puts before the new dot) is part of the rewrite: it answers for what they stand for.
  // Empty when some user kept its name or has no origin.
  std::vector<const Instruction*> RewriteOf(const Instruction& instruction) const {
    std::vector<const Instruction*> replaced;
    auto add = [&replaced](const Instruction* old) {
      if (std::find(replaced.begin(), replaced.end(), old) == replaced.end()) {
        replaced.push_back(old);
      }
    };
    for (const Instruction* user : instruction.users()) {
      const Origin origin = OriginOf(user);
      if (origin == Origin::kStructure) {
        add(ValueOf(user));
      } else if (origin == Origin::kReplacement || origin == Origin::kRewritePart) {
        for (const Instruction* old : replaced_.at(user)) add(old);
      } else {
        return {};
      }
    }
    return replaced;
  }

  // The gone instructions that a corresponding user read where it now reads `instruction`.
  std::vector<const Instruction*> GoneOperandsFor(const Instruction& instruction) const {
    std::vector<const Instruction*> gone;
    for (const Instruction* user : instruction.users()) {
      const Origin origin = OriginOf(user);
      if (origin == Origin::kNone) continue;
      const Instruction* counterpart = ValueOf(user);
      if (counterpart == nullptr || counterpart->operand_count() != user->operand_count()) continue;
      for (int64_t k = 0; k < user->operand_count(); ++k) {
        if (user->operand(k) != &instruction) continue;
        const Instruction* old = counterpart->operand(k);
        if (claimed_.count(old) || old->opcode() == Opcode::kParameter) continue;
        if (std::find(gone.begin(), gone.end(), old) == gone.end()) gone.push_back(old);
      }
    }
    return gone;
  }

  // ------------------------------------------------------------------ ids and provenance

  void Assign() {
    std::unordered_set<int64_t> used;
    // Callees first: a fusion's provenance is made of its fused computation's, which is done
    // when the fusion is reached (AssignComputation).
    for (Computation* computation : after_.MakeComputationPostOrder()) {
      if (computation->fusion_instruction() == nullptr) AssignComputation(*computation, used);
    }
    for (const auto& computation : after_.computations()) {
      for (const auto& instruction : computation->instructions()) {
        after_.NoteUsedId(instruction->id());
      }
    }
  }

  // Operands before users, and a fused computation after the fusion's operands (its
  // parameters copy theirs) but before the fusion (which answers for its contents).
  void AssignComputation(Computation& computation, std::unordered_set<int64_t>& used) {
    for (Instruction* instruction : computation.MakePostOrder()) {
      if (Computation* fused = instruction->fused_computation(); fused && fused != &computation) {
        AssignComputation(*fused, used);
      }
      AssignOne(*instruction, used);
    }
  }

  void AssignOne(Instruction& instruction, std::unordered_set<int64_t>& used) {
    const Origin origin = OriginOf(&instruction);
    const Instruction* value = ValueOf(&instruction);
    if (origin == Origin::kName && used.insert(value->id()).second) {
      instruction.set_id(value->id());
    } else {
      instruction.set_id(next_id_++);
    }
    if (origin == Origin::kName) ++counts_.by_name;
    ProvenanceSet provenance;
    const Instruction* fusion = instruction.parent()->fusion_instruction();
    const int64_t number = instruction.parameter_number();
    if (instruction.opcode() == Opcode::kParameter && fusion != nullptr && number >= 0 &&
        number < fusion->operand_count()) {
      // As our fusion pass does: a fused parameter stands for the fusion's operand.
      provenance = CopiedProvenance(fusion->operand(number)->provenance());
    } else if (origin == Origin::kReplacement || origin == Origin::kRewritePart) {
      for (const Instruction* old : replaced_.at(&instruction)) provenance.Union(old->provenance());
    } else if (origin == Origin::kStructure && duplicates_.count(&instruction)) {
      provenance = CopiedProvenance(value->provenance());
    } else if (origin != Origin::kNone && value != nullptr) {
      provenance = value->provenance();
    }
    if (origin == Origin::kStructure) provenance.Union(InlinedCallProvenance(*value));
    if (const Computation* fused = instruction.fused_computation()) {
      for (const auto& member : fused->instructions()) {
        if (member->opcode() != Opcode::kParameter) provenance.Union(member->provenance());
      }
    }
    if (provenance.empty()) {
      provenance.Insert(instruction.id());
      if (origin == Origin::kNone && instruction.opcode() != Opcode::kParameter) {
        ++counts_.new_instructions;
      }
    }
    instruction.set_provenance(std::move(provenance));
  }

  // The copy of a called computation's root stands for the call it replaced, if that is gone.
  ProvenanceSet InlinedCallProvenance(const Instruction& value) const {
    const Computation* computation = value.parent();
    if (computation == nullptr || computation->root() != &value) return {};
    const Instruction* caller = CallerOf(computation, &callers_);
    if (caller == nullptr || caller->opcode() != Opcode::kCall || claimed_.count(caller)) return {};
    return caller->provenance();
  }

  const Module& before_;
  Module& after_;
  int64_t& next_id_;
  ProvenanceCarryCounts counts_;
  std::unordered_map<const Computation*, const Computation*> pair_;  // after -> before
  std::unordered_set<const Computation*> paired_before_;
  // After instruction -> the before instruction it continues (or, for a new fusion, whose
  // value it now computes).
  std::unordered_map<const Instruction*, const Instruction*> value_;
  std::unordered_map<const Instruction*, Origin> origin_;
  std::unordered_map<const Instruction*, std::vector<const Instruction*>> replaced_;
  std::unordered_set<const Instruction*>
      claimed_;  // before instructions taken by name or structure
  // After instructions that are a further copy of a claimed one (a producer XLA duplicated
  // into several fusions).
  std::unordered_set<const Instruction*> duplicates_;
  std::unordered_map<const Computation*, Pool> pools_;
  const Callers callers_;  // of the module before
};

}  // namespace

ProvenanceCarryCounts CarryOverProvenance(const Module& before, Module& after, int64_t& next_id) {
  return Carrier(before, after, next_id).Run();
}

int64_t MaxInstructionId(const Module& module) {
  int64_t max_id = 0;
  for (const auto& computation : module.computations()) {
    for (const auto& instruction : computation->instructions()) {
      max_id = std::max(max_id, instruction->id());
    }
  }
  return max_id;
}

}  // namespace fusescope::ir
