#include "recording/snapshot.h"

#include <algorithm>
#include <charconv>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "ir/hlo_parser.h"
#include "ir/hlo_printer.h"
#include "recording/provenance_interner.h"

namespace fusescope::recording {

struct Snapshot::LookupIndex {
  std::once_flag built;
  std::vector<const InstructionRecord*> by_id;    // sorted by id
  std::vector<const InstructionRecord*> by_name;  // sorted by name
};

namespace {

constexpr std::string_view kIdMarker = "/*id=";

// The id the printer wrote after the instruction's name: the first marker on the line,
// since the defined name comes before any operand.
std::optional<int64_t> IdOnLine(std::string_view line) {
  size_t at = line.find(kIdMarker);
  if (at == std::string_view::npos) return std::nullopt;
  const char* begin = line.data() + at + kIdMarker.size();
  const char* end = line.data() + line.size();
  int64_t id = 0;
  auto [next, error] = std::from_chars(begin, end, id);
  if (error != std::errc() || next == end || *next != '*') return std::nullopt;
  return id;
}

std::vector<int64_t> OperandIds(const ir::Instruction& instruction) {
  std::vector<int64_t> ids;
  ids.reserve(instruction.operands().size());
  for (const ir::Instruction* operand : instruction.operands()) ids.push_back(operand->id());
  return ids;
}

bool SameOperandIds(const ir::Instruction& instruction, const std::vector<int64_t>& ids) {
  const auto& operands = instruction.operands();
  if (operands.size() != ids.size()) return false;
  for (size_t i = 0; i < ids.size(); ++i) {
    if (operands[i]->id() != ids[i]) return false;
  }
  return true;
}

// Views, not copies: these are compared for every instruction of every pass.
std::string_view FusedComputationName(const ir::Instruction& instruction) {
  const ir::Computation* fused = instruction.fused_computation();
  return fused ? std::string_view(fused->name()) : std::string_view();
}

std::string_view ComputationName(const ir::Instruction& instruction) {
  return instruction.parent() ? std::string_view(instruction.parent()->name()) : std::string_view();
}

bool RecordMatches(const InstructionRecord& record, const ir::Instruction& instruction,
                   std::string_view line) {
  return record.text == line && record.name == instruction.name() &&
         record.computation == ComputationName(instruction) &&
         record.provenance_set->Equals(instruction.provenance()) &&
         SameOperandIds(instruction, record.operand_ids) &&
         record.fused_computation == FusedComputationName(instruction) &&
         record.constant_bytes == instruction.constant_bytes();
}

InstructionRecordPtr MakeRecord(const ir::Instruction& instruction, std::string_view line,
                                ProvenancePtr provenance) {
  auto record = std::make_shared<InstructionRecord>();
  record->id = instruction.id();
  record->name = instruction.name();
  record->computation = std::string(ComputationName(instruction));
  record->opcode = std::string(instruction.opcode_name());
  record->text = std::string(line);
  record->operand_ids = OperandIds(instruction);
  record->provenance_set = std::move(provenance);
  record->fused_computation = std::string(FusedComputationName(instruction));
  record->constant_bytes = instruction.constant_bytes();
  return record;
}

bool SameComputation(const ComputationSnapshot& a, const ComputationSnapshot& b) {
  return a.name == b.name && a.is_entry == b.is_entry && a.header == b.header &&
         a.footer == b.footer && a.instructions == b.instructions;
}

// Splits `text` after its first line (newline included); the rest may be empty.
std::pair<std::string, std::string> SplitFirstLine(const std::string& text) {
  size_t newline = text.find('\n');
  if (newline == std::string::npos) return {text, std::string()};
  return {text.substr(0, newline + 1), text.substr(newline + 1)};
}

// Splits `text` before its last line; `text` ends with a newline when not empty.
std::pair<std::string, std::string> SplitLastLine(const std::string& text) {
  if (text.size() < 2) return {std::string(), text};
  size_t newline = text.rfind('\n', text.size() - 2);
  if (newline == std::string::npos) return {std::string(), text};
  return {text.substr(0, newline + 1), text.substr(newline + 1)};
}

// Pointers by instruction id. Ids are small integers handed out by the module in order, so
// a vector indexed by id does the work of a hash map at a fraction of the cost; the rare id
// far beyond the rest (text with hand-written ids) goes to a map instead.
template <typename T>
class IdTable {
 public:
  explicit IdTable(size_t expected) : dense_limit_(4 * expected + 1024) {
    slots_.reserve(expected);
  }

  void Put(int64_t id, T* value) {
    if (id >= 0 && static_cast<size_t>(id) < dense_limit_) {
      if (static_cast<size_t>(id) >= slots_.size()) slots_.resize(static_cast<size_t>(id) + 1);
      slots_[static_cast<size_t>(id)] = value;
    } else {
      sparse_[id] = value;
    }
  }
  T* Get(int64_t id) const {
    if (id >= 0 && static_cast<size_t>(id) < slots_.size()) return slots_[static_cast<size_t>(id)];
    auto found = sparse_.find(id);
    return found == sparse_.end() ? nullptr : found->second;
  }

 private:
  size_t dense_limit_;
  std::vector<T*> slots_;
  std::unordered_map<int64_t, T*> sparse_;
};

// Walks the printed module line by line and cuts it into computations of instruction
// records, reusing the previous snapshot's objects wherever they are equal.
class SnapshotBuilder {
 public:
  SnapshotBuilder(const ir::Module& module, const Snapshot* previous)
      : module_(module),
        previous_(previous),
        instructions_(static_cast<size_t>(module.instruction_count())),
        previous_records_(previous ? static_cast<size_t>(previous->instruction_count()) : 0) {
    for (const auto& computation : module.computations()) {
      for (const auto& instruction : computation->instructions()) {
        instructions_.Put(instruction->id(), instruction.get());
      }
    }
    if (previous) IndexPrevious(*previous);
  }

  void AddLine(std::string_view line, std::string_view line_with_newline) {
    std::optional<int64_t> id = IdOnLine(line);
    const ir::Instruction* found = id ? instructions_.Get(*id) : nullptr;
    if (!found) {
      glue_.append(line_with_newline);
      return;
    }
    const ir::Instruction& instruction = *found;
    if (!current_ || current_->name != ComputationName(instruction) || !glue_.empty()) {
      StartComputation(instruction);
    }
    current_->instructions.push_back(RecordFor(instruction, line));
  }

  std::pair<std::string, std::vector<ComputationSnapshotPtr>> Finish() {
    if (current_) {
      current_->footer = std::move(glue_);
      FinishComputation();
    } else {
      prologue_ = std::move(glue_);
    }
    return {std::move(prologue_), std::move(computations_)};
  }

 private:
  void IndexPrevious(const Snapshot& previous) {
    for (const ComputationSnapshotPtr& computation : previous.computations()) {
      previous_computations_.emplace(computation->name, computation);
      for (const InstructionRecordPtr& record : computation->instructions) {
        previous_records_.Put(record->id, &record);
      }
    }
  }

  void StartComputation(const ir::Instruction& instruction) {
    auto next = std::make_shared<ComputationSnapshot>();
    if (current_) {
      auto [footer, header] = SplitFirstLine(glue_);
      current_->footer = std::move(footer);
      next->header = std::move(header);
      FinishComputation();
    } else {
      auto [prologue, header] = SplitLastLine(glue_);
      prologue_ = std::move(prologue);
      next->header = std::move(header);
    }
    glue_.clear();
    next->name = std::string(ComputationName(instruction));
    next->is_entry = instruction.parent() && instruction.parent() == module_.entry();
    current_ = std::move(next);
  }

  void FinishComputation() {
    auto previous = previous_computations_.find(current_->name);
    if (previous != previous_computations_.end() && SameComputation(*previous->second, *current_)) {
      computations_.push_back(previous->second);
    } else {
      computations_.push_back(std::move(current_));
    }
    current_.reset();
  }

  InstructionRecordPtr RecordFor(const ir::Instruction& instruction, std::string_view line) {
    const InstructionRecordPtr* found = previous_records_.Get(instruction.id());
    const InstructionRecord* previous = found ? found->get() : nullptr;
    if (previous && RecordMatches(*previous, instruction, line)) return *found;
    return MakeRecord(instruction, line, ProvenanceFor(instruction, previous));
  }

  ProvenancePtr ProvenanceFor(const ir::Instruction& instruction,
                              const InstructionRecord* previous) {
    if (previous && previous->provenance_set->Equals(instruction.provenance())) {
      return previous->provenance_set;
    }
    if (!interner_ready_) {
      // Built on first need: passes that only edit text never pay for it.
      if (previous_) {
        for (const ComputationSnapshotPtr& computation : previous_->computations()) {
          for (const InstructionRecordPtr& record : computation->instructions) {
            interner_.Add(record->provenance_set);
          }
        }
      }
      interner_ready_ = true;
    }
    return interner_.Intern(instruction.provenance());
  }

  const ir::Module& module_;
  const Snapshot* previous_;
  ProvenanceInterner interner_;
  bool interner_ready_ = false;
  IdTable<const ir::Instruction> instructions_;
  IdTable<const InstructionRecordPtr> previous_records_;
  std::unordered_map<std::string_view, ComputationSnapshotPtr> previous_computations_;
  std::string prologue_;
  std::string glue_;  // printed lines since the last instruction line
  std::shared_ptr<ComputationSnapshot> current_;
  std::vector<ComputationSnapshotPtr> computations_;
};

ir::PrintOptions SnapshotPrintOptions() {
  ir::PrintOptions options = ir::PrintOptions::Parsable();
  options.print_ids = true;
  return options;
}

}  // namespace

Snapshot::Snapshot()
    : prologue_(std::make_shared<const std::string>()), index_(std::make_shared<LookupIndex>()) {}

Snapshot::Snapshot(std::shared_ptr<const std::string> prologue,
                   std::vector<ComputationSnapshotPtr> computations, uint64_t fingerprint)
    : prologue_(prologue ? std::move(prologue) : std::make_shared<const std::string>()),
      computations_(std::move(computations)),
      fingerprint_(fingerprint),
      index_(std::make_shared<LookupIndex>()) {}

Snapshot Snapshot::Capture(const ir::Module& module, const Snapshot* previous,
                           uint64_t fingerprint) {
  std::string text = ir::PrintModule(module, SnapshotPrintOptions());
  SnapshotBuilder builder(module, previous);
  size_t start = 0;
  while (start < text.size()) {
    size_t newline = text.find('\n', start);
    size_t end = newline == std::string::npos ? text.size() : newline;
    size_t next = newline == std::string::npos ? text.size() : newline + 1;
    std::string_view all(text);
    builder.AddLine(all.substr(start, end - start), all.substr(start, next - start));
    start = next;
  }
  auto [prologue, computations] = builder.Finish();
  std::shared_ptr<const std::string> shared_prologue;
  if (previous && previous->prologue() == prologue) {
    shared_prologue = previous->shared_prologue();
  } else {
    shared_prologue = std::make_shared<const std::string>(std::move(prologue));
  }
  return Snapshot(std::move(shared_prologue), std::move(computations), fingerprint);
}

Snapshot Snapshot::Capture(const ir::Module& module, const Snapshot* previous) {
  return Capture(module, previous, ir::Fingerprint(module));
}

int64_t Snapshot::instruction_count() const {
  int64_t count = 0;
  for (const ComputationSnapshotPtr& computation : computations_) {
    count += static_cast<int64_t>(computation->instructions.size());
  }
  return count;
}

void Snapshot::MarkBroken(std::string error) {
  broken_ = true;
  error_ = std::move(error);
}

const Snapshot::LookupIndex& Snapshot::Index() const {
  std::call_once(index_->built, [this] {
    for (const ComputationSnapshotPtr& computation : computations_) {
      for (const InstructionRecordPtr& record : computation->instructions) {
        index_->by_id.push_back(record.get());
      }
    }
    index_->by_name = index_->by_id;
    std::stable_sort(index_->by_id.begin(), index_->by_id.end(),
                     [](const auto* a, const auto* b) { return a->id < b->id; });
    std::stable_sort(index_->by_name.begin(), index_->by_name.end(),
                     [](const auto* a, const auto* b) { return a->name < b->name; });
  });
  return *index_;
}

const InstructionRecord* Snapshot::FindInstruction(int64_t id) const {
  const auto& by_id = Index().by_id;
  auto it = std::lower_bound(
      by_id.begin(), by_id.end(), id,
      [](const InstructionRecord* record, int64_t key) { return record->id < key; });
  return it != by_id.end() && (*it)->id == id ? *it : nullptr;
}

const InstructionRecord* Snapshot::FindInstruction(std::string_view name) const {
  const auto& by_name = Index().by_name;
  auto it = std::lower_bound(
      by_name.begin(), by_name.end(), name,
      [](const InstructionRecord* record, std::string_view key) { return record->name < key; });
  return it != by_name.end() && (*it)->name == name ? *it : nullptr;
}

const ComputationSnapshot* Snapshot::FindComputation(std::string_view name) const {
  for (const ComputationSnapshotPtr& computation : computations_) {
    if (computation->name == name) return computation.get();
  }
  return nullptr;
}

std::string Snapshot::Text() const {
  std::string text = *prologue_;
  for (const ComputationSnapshotPtr& computation : computations_) {
    text += computation->header;
    for (const InstructionRecordPtr& record : computation->instructions) {
      text += record->text;
      text += '\n';
    }
    text += computation->footer;
  }
  return text;
}

StatusOr<std::unique_ptr<ir::Module>> Snapshot::ToModule() const {
  std::string name = pass_index_ < 0 ? "<input snapshot>"
                                     : "<snapshot after pass " + std::to_string(pass_index_) + ">";
  StatusOr<std::unique_ptr<ir::Module>> parsed = ir::ParseHloModule(Text(), name);
  if (!parsed.ok()) return parsed.status();
  for (const auto& computation : (*parsed)->computations()) {
    for (const auto& instruction : computation->instructions()) {
      const InstructionRecord* record = FindInstruction(instruction->id());
      if (!record) {
        return Status::Error(name + ": rebuilt instruction %" + instruction->name() + " has id " +
                             std::to_string(instruction->id()) + ", unknown to the snapshot");
      }
      instruction->set_provenance(record->provenance());
      instruction->set_constant_bytes(record->constant_bytes);
    }
  }
  return parsed;
}

SnapshotSharing Snapshot::SharingWith(const Snapshot& other) const {
  std::unordered_set<const void*> theirs;
  for (const ComputationSnapshotPtr& computation : other.computations_) {
    theirs.insert(computation.get());
    for (const InstructionRecordPtr& record : computation->instructions) {
      theirs.insert(record.get());
    }
  }
  SnapshotSharing sharing;
  for (const ComputationSnapshotPtr& computation : computations_) {
    ++sharing.computations;
    sharing.shared_computations += theirs.count(computation.get());
    for (const InstructionRecordPtr& record : computation->instructions) {
      ++sharing.instructions;
      sharing.shared_instructions += theirs.count(record.get());
    }
  }
  return sharing;
}

}  // namespace fusescope::recording
