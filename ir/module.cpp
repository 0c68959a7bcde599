#include "ir/module.h"

#include <algorithm>
#include <charconv>
#include <functional>
#include <unordered_set>

namespace fusescope::ir {
namespace {

// Splits "fusion.12" into ("fusion", 12); names without a numeric suffix give -1.
std::pair<std::string_view, int64_t> SplitSuffix(std::string_view name) {
  const size_t dot = name.rfind('.');
  if (dot == std::string_view::npos || dot + 1 == name.size()) return {name, -1};
  int64_t suffix = 0;
  const char* begin = name.data() + dot + 1;
  const char* end = name.data() + name.size();
  auto [ptr, ec] = std::from_chars(begin, end, suffix);
  if (ec != std::errc() || ptr != end) return {name, -1};
  return {name.substr(0, dot), suffix};
}

}  // namespace

Module::Module(std::string name) : name_(std::move(name)) {}
Module::~Module() = default;

Computation* Module::AddComputation(std::unique_ptr<Computation> computation, bool is_entry) {
  Computation* added = computation.get();
  added->parent_ = this;
  ReserveName(added->name());
  const auto& instructions = added->instructions_;
  for (size_t i = 0; i < instructions.size(); ++i) {
    // The instructions of a module just read are out of cache: ask for the next ones, and for
    // the name slots of those nearly due, while this one is handled.
    if (i + 8 < instructions.size()) __builtin_prefetch(instructions[i + 8].get());
    if (i + 4 < instructions.size()) name_index_.Prefetch(instructions[i + 4]->name());
    Instruction* instruction = instructions[i].get();
    if (instruction->id() < 0) {
      instruction->set_id(NextInstructionId());
    } else {
      NoteUsedId(instruction->id());
    }
    if (instruction->provenance().empty()) instruction->mutable_provenance().Insert(instruction->id());
    ReserveName(instruction->name());
  }
  computations_.push_back(std::move(computation));
  if (is_entry) entry_ = added;
  return added;
}

void Module::AddComputations(std::vector<std::unique_ptr<Computation>> computations,
                             size_t entry_index) {
  size_t names = names_.size() + computations.size();
  for (const auto& computation : computations) names += computation->instructions().size();
  name_index_.Reserve(names);
  computations_.reserve(computations_.size() + computations.size());
  for (size_t i = 0; i < computations.size(); ++i) {
    AddComputation(std::move(computations[i]), i == entry_index);
  }
}

void Module::RemoveComputation(Computation* computation) { RemoveComputations({computation}); }

void Module::RemoveComputations(const std::vector<Computation*>& computations) {
  if (computations.empty()) return;
  std::unordered_set<const Computation*> doomed(computations.begin(), computations.end());
  // The fused computations of fusions inside a removed computation go with it.
  std::vector<const Computation*> work(computations.begin(), computations.end());
  while (!work.empty()) {
    const Computation* computation = work.back();
    work.pop_back();
    for (const auto& instruction : computation->instructions()) {
      if (instruction->opcode() != Opcode::kFusion) continue;
      for (const Computation* callee : instruction->called_computations()) {
        if (callee->fusion_instruction() == instruction.get() && doomed.insert(callee).second) {
          work.push_back(callee);
        }
      }
    }
  }
  if (doomed.count(entry_)) entry_ = nullptr;
  std::erase_if(computations_, [&](const auto& owned) { return doomed.count(owned.get()) > 0; });
}

int64_t Module::RemoveUnreachableComputations() {
  std::unordered_set<const Computation*> reachable;
  std::vector<const Computation*> work;
  if (entry_) {
    reachable.insert(entry_);
    work.push_back(entry_);
  }
  while (!work.empty()) {
    const Computation* computation = work.back();
    work.pop_back();
    for (const auto& instruction : computation->instructions()) {
      for (Computation* callee : instruction->called_computations()) {
        if (reachable.insert(callee).second) work.push_back(callee);
      }
    }
  }
  const size_t before = computations_.size();
  std::erase_if(computations_, [&](const auto& owned) { return !reachable.count(owned.get()); });
  return static_cast<int64_t>(before - computations_.size());
}

std::vector<Computation*> Module::MakeComputationPostOrder() const {
  std::vector<Computation*> order;
  std::unordered_set<const Computation*> visited;
  std::function<void(Computation*)> visit = [&](Computation* computation) {
    if (!visited.insert(computation).second) return;
    const auto& instructions = computation->instructions();
    for (size_t i = 0; i < instructions.size(); ++i) {
      // Every instruction is visited and most are out of cache: ask for the next ones early.
      if (i + 8 < instructions.size()) __builtin_prefetch(instructions[i + 8].get());
      for (Computation* callee : instructions[i]->called_computations()) visit(callee);
    }
    order.push_back(computation);
  };
  for (const auto& owned : computations_) {
    if (owned.get() != entry_) visit(owned.get());
  }
  if (entry_) {
    // The entry goes last even when something else was visited through it.
    visited.erase(entry_);
    std::erase(order, entry_);
    visit(entry_);
  }
  return order;
}

Computation* Module::FindComputation(std::string_view name) const {
  for (const auto& owned : computations_) {
    if (owned->name() == name) return owned.get();
  }
  return nullptr;
}

Instruction* Module::FindInstruction(std::string_view name) const {
  for (const auto& computation : computations_) {
    if (Instruction* found = computation->FindInstruction(name)) return found;
  }
  return nullptr;
}

Instruction* Module::FindInstructionById(int64_t id) const {
  for (const auto& computation : computations_) {
    for (const auto& instruction : computation->instructions()) {
      if (instruction->id() == id) return instruction.get();
    }
  }
  return nullptr;
}

int64_t Module::instruction_count() const {
  int64_t count = 0;
  for (const auto& computation : computations_) count += computation->instruction_count();
  return count;
}

std::optional<SourceLocation> Module::ResolveSource(const OpMetadata& metadata) const {
  std::string file = metadata.String("source_file");
  if (!file.empty()) {
    SourceLocation location;
    location.file = std::move(file);
    location.line = metadata.Int("source_line").value_or(0);
    location.column = metadata.Int("source_column").value_or(0);
    return location;
  }
  std::optional<int64_t> frame_id = metadata.Int("stack_frame_id");
  const auto& tables = stack_frames_;
  if (!frame_id || *frame_id < 1 || *frame_id > static_cast<int64_t>(tables.frames.size())) {
    return std::nullopt;
  }
  // The innermost frame is the op's own position; its parents are the Python callers.
  const auto& frame = tables.frames[static_cast<size_t>(*frame_id - 1)];
  const int64_t location_id = frame.file_location_id;
  if (location_id < 1 || location_id > static_cast<int64_t>(tables.file_locations.size())) {
    return std::nullopt;
  }
  const auto& location = tables.file_locations[static_cast<size_t>(location_id - 1)];
  SourceLocation result;
  auto lookup = [](const std::vector<std::string>& names, int64_t id) {
    return id >= 1 && id <= static_cast<int64_t>(names.size()) ? names[static_cast<size_t>(id - 1)]
                                                               : std::string();
  };
  result.file = lookup(tables.file_names, location.file_name_id);
  result.function = lookup(tables.function_names, location.function_name_id);
  result.line = location.line;
  result.column = location.column;
  return result;
}

void Module::NoteUsedId(int64_t id) { next_id_ = std::max(next_id_, id + 1); }

void Module::AddName(std::string_view name) {
  // Stored first so that the index can view the stored copy; taken back when it was there.
  names_.emplace_back(name);
  if (!name_index_.Insert(names_.back(), 0).second) names_.pop_back();
}

void Module::ReserveName(std::string_view name) {
  AddName(name);
  auto [base, suffix] = SplitSuffix(name);
  if (suffix >= 0) {
    int64_t& next = next_suffix_[std::string(base)];
    next = std::max(next, suffix + 1);
  }
}

std::string Module::UniqueName(std::string_view base_name) {
  const auto [base, asked_suffix] = SplitSuffix(base_name);
  std::string candidate(base);
  if (!IsNameTaken(candidate)) {
    ReserveName(candidate);
    return candidate;
  }
  int64_t& next = next_suffix_[std::string(base)];
  // As XLA's name uniquer: the second `x` is `x.1` (`x` itself counts as the first); only a
  // caller that asks for `.0` (a duplicate's copy) gets it.
  if (asked_suffix < 0 && next == 0) next = 1;
  do {
    candidate = std::string(base) + "." + std::to_string(next++);
  } while (IsNameTaken(candidate));
  AddName(candidate);
  return candidate;
}

std::unique_ptr<Module> Module::Clone() const {
  auto clone = std::make_unique<Module>(name_);
  clone->header_ = header_;
  clone->stack_frames_ = stack_frames_;
  clone->style_ = style_;
  clone->next_id_ = next_id_;
  clone->names_ = names_;
  clone->name_index_.Reserve(names_.size());
  for (const std::string& name : clone->names_) clone->name_index_.Insert(name, 0);
  clone->next_suffix_ = next_suffix_;

  std::unordered_map<const Computation*, Computation*> computation_map;
  std::unordered_map<const Instruction*, Instruction*> instruction_map;
  for (const auto& computation : computations_) {
    auto copy = std::make_unique<Computation>(computation->name());
    copy->set_print_signature(computation->print_signature());
    copy->set_trailing_attributes(computation->trailing_attributes());
    computation_map[computation.get()] = copy.get();
    clone->computations_.push_back(std::move(copy));
    clone->computations_.back()->parent_ = clone.get();
  }
  for (const auto& computation : computations_) {
    Computation* copy = computation_map[computation.get()];
    for (Instruction* instruction : computation->MakePostOrder()) {
      std::vector<Instruction*> operands;
      operands.reserve(instruction->operands().size());
      for (Instruction* operand : instruction->operands()) {
        operands.push_back(instruction_map.at(operand));
      }
      auto cloned = instruction->opcode() == Opcode::kUnknown
                        ? Instruction::CreateUnknown(std::string(instruction->opcode_name()),
                                                     instruction->shape(), std::move(operands),
                                                     instruction->name())
                        : Instruction::Create(instruction->opcode(), instruction->shape(),
                                              std::move(operands), instruction->name());
      cloned->set_id(instruction->id());
      cloned->attributes_ = instruction->attributes();
      cloned->called_keys_ = instruction->called_computation_keys();
      for (Computation* callee : instruction->called_computations()) {
        cloned->called_.push_back(computation_map.at(callee));
      }
      cloned->set_metadata(instruction->metadata());
      cloned->set_provenance(instruction->provenance());
      cloned->set_parameter_number(instruction->parameter_number());
      cloned->set_literal(instruction->literal());
      cloned->set_constant_bytes(instruction->constant_bytes());
      instruction_map[instruction] = copy->AddInstruction(std::move(cloned));
    }
    if (computation->root()) copy->set_root(instruction_map.at(computation->root()));
  }
  for (const auto& computation : computations_) {
    if (Instruction* fusion = computation->fusion_instruction()) {
      const auto copy = instruction_map.find(fusion);
      if (copy != instruction_map.end()) {
        computation_map[computation.get()]->set_fusion_instruction(copy->second);
      }
    }
  }
  if (entry_) clone->entry_ = computation_map.at(entry_);
  return clone;
}

}  // namespace fusescope::ir
