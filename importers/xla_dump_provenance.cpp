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

bool AllDigits(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The names `name` may have been cloned from, nearest first; empty when it is no clone's.
// XLA names a clone `NAME.clone` (`.clone2` for a clone's clone, or `.clone.clone` for a
// computation) and the module's name uniquer may append `.N`: `constant.2.clone.2` comes from
// `constant.2`, `region_0.8.clone.clone` from `region_0.8.clone` or `region_0.8`.
std::vector<std::string_view> CloneBases(std::string_view name) {
  std::vector<std::string_view> bases;
  std::string_view base = name;
  while (true) {
    std::string_view rest = base;
    if (const size_t dot = rest.rfind('.');
        dot != std::string_view::npos && AllDigits(rest.substr(dot + 1))) {
      rest = rest.substr(0, dot);  // the uniquer's `.N`
    }
    const size_t dot = rest.rfind('.');
    if (dot == std::string_view::npos || dot == 0) break;
    std::string_view suffix = rest.substr(dot + 1);
    if (suffix.substr(0, 5) != "clone" || (suffix.size() > 5 && !AllDigits(suffix.substr(5)))) {
      break;
    }
    base = rest.substr(0, dot);
    bases.push_back(base);
  }
  return bases;
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

// `tuple_index` stands for the instruction's own where its tuple was renumbered.
void AppendShapeAndOpcode(std::string& key, const Instruction& instruction,
                          std::optional<int64_t> tuple_index = std::nullopt) {
  key += instruction.opcode_name();
  key += '|';
  key += instruction.shape().ToString(/*with_layout=*/false);
  key += '|';
  // Elements of one tuple with the same shape (a loop's four weight matrices) differ only so.
  if (!tuple_index) tuple_index = instruction.tuple_index();
  if (tuple_index) {
    key += std::to_string(*tuple_index);
    key += '|';
  }
}

// For each element of tuple shape `after`, the element of `before` it continues, or -1: the
// longest order-keeping pairing of elements with the same shape (a loop simplifier drops dead
// elements of a loop's state and adds a counter, and keeps the order of the rest).
std::vector<int64_t> AlignElements(const Shape& before, const Shape& after) {
  const auto& old_elements = before.tuple_shapes();
  const auto& new_elements = after.tuple_shapes();
  const size_t n = new_elements.size();
  const size_t m = old_elements.size();
  std::vector<int64_t> map(n, -1);
  // Beyond this the table is too large for what a state this size gains; elements match by
  // position and shape alone then.
  if (n * m > (size_t{1} << 22)) {
    for (size_t i = 0; i < std::min(n, m); ++i) {
      if (new_elements[i].Compatible(old_elements[i])) map[i] = static_cast<int64_t>(i);
    }
    return map;
  }
  // longest[i][j]: pairs among new elements i.. and old elements j..
  std::vector<std::vector<int32_t>> longest(n + 1, std::vector<int32_t>(m + 1, 0));
  for (size_t i = n; i-- > 0;) {
    for (size_t j = m; j-- > 0;) {
      longest[i][j] = std::max(longest[i + 1][j], longest[i][j + 1]);
      if (new_elements[i].Compatible(old_elements[j])) {
        longest[i][j] = std::max(longest[i][j], longest[i + 1][j + 1] + 1);
      }
    }
  }
  for (size_t i = 0, j = 0; i < n && j < m;) {
    if (new_elements[i].Compatible(old_elements[j]) && longest[i][j] == longest[i + 1][j + 1] + 1) {
      map[i++] = static_cast<int64_t>(j++);
    } else if (longest[i + 1][j] >= longest[i][j + 1]) {
      ++i;
    } else {
      ++j;
    }
  }
  return map;
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
    // A cloned computation (a while loop's body and condition after the loop simplifier
    // rewrote it) continues its original where that is not kept under its own name.
    for (const auto& computation : after_.computations()) {
      if (pair_.count(computation.get())) continue;
      for (std::string_view base : CloneBases(computation->name())) {
        auto found = by_name.find(base);
        if (found == by_name.end() || paired_before_.count(found->second)) continue;
        Pair(computation.get(), found->second);
        break;
      }
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
        if (found == names.end()) {
          MatchCloneName(*instruction, names);
          continue;
        }
        if (claimed_.count(found->second)) continue;
        SetOrigin(instruction.get(), found->second, Origin::kName);
        claimed_.insert(found->second);
        const auto& mine = instruction->called_computations();
        const auto& theirs = found->second->called_computations();
        if (mine.size() != theirs.size()) continue;
        for (size_t i = 0; i < mine.size(); ++i) Pair(mine[i], theirs[i]);
      }
    }
  }

  // A clone (`add.0.clone`) continues its original's provenance under an id of its own; the
  // original may still be there too (a loop peeled off its body).
  void MatchCloneName(const Instruction& instruction,
                      const std::unordered_map<std::string_view, const Instruction*>& names) {
    for (std::string_view base : CloneBases(instruction.name())) {
      auto found = names.find(base);
      if (found == names.end() || found->second->opcode() != instruction.opcode()) continue;
      SetOrigin(&instruction, found->second, Origin::kStructure);
      if (!claimed_.insert(found->second).second) duplicates_.insert(&instruction);
      ++counts_.by_clone_name;
      return;
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
    std::optional<int64_t> index = instruction.tuple_index();
    if (index && instruction.operand_count() == 1) {
      auto renumbered = element_map_.find(instruction.operand(0));
      if (renumbered != element_map_.end()) {
        if (*index < 0 || *index >= static_cast<int64_t>(renumbered->second.size())) return key;
        index = renumbered->second[static_cast<size_t>(*index)];
        if (*index < 0) return key;  // an element the state did not have
      }
    }
    AppendShapeAndOpcode(key, instruction, index);
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
        // Reading an element twice costs nothing and reads the same value.
        const bool duplicate = in_fusion || instruction.opcode() == Opcode::kGetTupleElement;
        if (const Instruction* pick = Pick(found->second, duplicate)) return pick;
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
          } else if (const Instruction* same = CorrespondingParameter(*instruction)) {
            // A renamed computation's parameter (a cloned loop body's state) is its
            // original's; where elements were dropped or added, its elements are numbered
            // anew.
            value_[instruction] = same;
            if (!same->shape().Compatible(instruction->shape()) && same->shape().IsTuple() &&
                instruction->shape().IsTuple()) {
              element_map_[instruction] = AlignElements(same->shape(), instruction->shape());
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
        if (!value_.count(instruction)) ForwardTupleElement(*instruction);
      }
    }
  }

  const Instruction* CorrespondingParameter(const Instruction& parameter) const {
    auto paired = pair_.find(parameter.parent());
    if (paired == pair_.end()) return nullptr;
    for (const auto& candidate : paired->second->instructions()) {
      if (candidate->opcode() == Opcode::kParameter &&
          candidate->parameter_number() == parameter.parameter_number()) {
        const bool both_tuples = candidate->shape().IsTuple() && parameter.shape().IsTuple();
        return both_tuples || candidate->shape().Compatible(parameter.shape()) ? candidate.get()
                                                                               : nullptr;
      }
    }
    return nullptr;
  }

  // get-tuple-element of a tuple made in the same computation (a loop rewrite repacks the
  // state) is that operand's value, for the users' keys; it answers for nothing itself.
  void ForwardTupleElement(const Instruction& element) {
    const Instruction* tuple = element.operand(0);
    const std::optional<int64_t> index = element.tuple_index();
    if (tuple->opcode() != Opcode::kTuple || !index || *index < 0 ||
        *index >= tuple->operand_count()) {
      return;
    }
    if (const Instruction* value = ValueOf(tuple->operand(*index))) value_[&element] = value;
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
  // A parameter whose tuple gained or lost elements -> for each element, the one before.
  std::unordered_map<const Instruction*, std::vector<int64_t>> element_map_;
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
