#include "passes/scheduler.h"

#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

#include "passes/buffer_liveness.h"
#include "passes/buffer_values.h"
#include "passes/side_effect_analysis.h"

namespace fusescope::passes {
namespace {

using ir::Instruction;

// One list-scheduling run over a computation. Instructions are referred to by their index in
// the original def-before-use order, which is also the tie-break.
class ListScheduler {
 public:
  ListScheduler(const std::vector<Instruction*>& original, const BufferValues& values,
                const SideEffectAnalysis& effects);
  std::vector<Instruction*> Run();

 private:
  void AddEdge(size_t from, size_t to);
  int64_t Priority(size_t index) const;
  void MakeReady(size_t index);
  void Reprioritize(size_t index);
  void Schedule(size_t index);

  const std::vector<Instruction*>& original_;
  const BufferValues& values_;
  std::unordered_map<const Instruction*, size_t> index_of_;
  std::vector<std::vector<int64_t>> operand_buffers_;
  std::vector<std::vector<size_t>> successors_;
  std::vector<int64_t> predecessors_left_;
  std::vector<int64_t> readers_left_;  // per buffer
  std::vector<bool> scheduled_;
  // Ready instructions, best first: (-priority, original index).
  std::set<std::pair<int64_t, size_t>> ready_;
  std::unordered_map<size_t, int64_t> ready_key_;
  std::vector<Instruction*> schedule_;
};

ListScheduler::ListScheduler(const std::vector<Instruction*>& original, const BufferValues& values,
                             const SideEffectAnalysis& effects)
    : original_(original),
      values_(values),
      successors_(original.size()),
      predecessors_left_(original.size(), 0),
      scheduled_(original.size(), false) {
  for (size_t i = 0; i < original.size(); ++i) index_of_[original[i]] = i;
  int64_t previous_effect = -1;
  for (size_t i = 0; i < original.size(); ++i) {
    const Instruction* instruction = original[i];
    std::set<size_t> operands;
    for (const Instruction* operand : instruction->operands()) {
      const auto it = index_of_.find(operand);
      if (it != index_of_.end()) operands.insert(it->second);
    }
    for (size_t operand : operands) AddEdge(operand, i);
    if (effects.HasSideEffect(*instruction)) {
      if (previous_effect >= 0 && operands.count(static_cast<size_t>(previous_effect)) == 0) {
        AddEdge(static_cast<size_t>(previous_effect), i);
      }
      previous_effect = static_cast<int64_t>(i);
    }
    operand_buffers_.push_back(values.OperandBuffers(instruction));
  }
  for (const LogicalBuffer& buffer : values.buffers()) {
    readers_left_.push_back(static_cast<int64_t>(buffer.readers.size()));
  }
}

void ListScheduler::AddEdge(size_t from, size_t to) {
  successors_[from].push_back(to);
  ++predecessors_left_[to];
}

// Bytes this step would free (buffers it reads last) minus the bytes it defines.
int64_t ListScheduler::Priority(size_t index) const {
  int64_t freed = 0;
  for (int64_t buffer : operand_buffers_[index]) {
    const LogicalBuffer& logical = values_.buffers()[static_cast<size_t>(buffer)];
    if (readers_left_[static_cast<size_t>(buffer)] == 1 && !logical.lives_throughout &&
        !logical.live_out) {
      freed += logical.bytes;
    }
  }
  const int64_t defined = values_.DefinedBuffer(original_[index]);
  const int64_t defined_bytes =
      defined < 0 ? 0 : values_.buffers()[static_cast<size_t>(defined)].bytes;
  return freed - defined_bytes;
}

void ListScheduler::MakeReady(size_t index) {
  const int64_t key = -Priority(index);
  ready_.emplace(key, index);
  ready_key_[index] = key;
}

void ListScheduler::Reprioritize(size_t index) {
  const auto it = ready_key_.find(index);
  if (it == ready_key_.end()) return;  // not ready yet: priced when it becomes ready
  ready_.erase({it->second, index});
  ready_key_.erase(it);
  MakeReady(index);
}

void ListScheduler::Schedule(size_t index) {
  scheduled_[index] = true;
  schedule_.push_back(original_[index]);
  for (int64_t buffer : operand_buffers_[index]) {
    if (--readers_left_[static_cast<size_t>(buffer)] != 1) continue;
    // One reader left: running it now frees the buffer, which raises its priority.
    for (const Instruction* reader : values_.buffers()[static_cast<size_t>(buffer)].readers) {
      const size_t reader_index = index_of_.at(reader);
      if (!scheduled_[reader_index]) Reprioritize(reader_index);
    }
  }
  for (size_t successor : successors_[index]) {
    if (--predecessors_left_[successor] == 0) MakeReady(successor);
  }
}

std::vector<Instruction*> ListScheduler::Run() {
  for (size_t i = 0; i < original_.size(); ++i) {
    if (predecessors_left_[i] == 0) MakeReady(i);
  }
  while (!ready_.empty()) {
    const size_t next = ready_.begin()->second;
    ready_.erase(ready_.begin());
    ready_key_.erase(next);
    Schedule(next);
  }
  return schedule_;
}

struct ComputationSchedule {
  int64_t peak_before = 0;
  int64_t peak_after = 0;
  bool reordered = false;
};

ComputationSchedule ScheduleComputation(ir::Computation& computation,
                                        const SideEffectAnalysis& effects) {
  // The stored order where it is already def-before-use: the order "before".
  const std::vector<Instruction*> current = computation.MakePostOrder();
  const BufferValues values(computation);
  ComputationSchedule result;
  result.peak_before = BufferLiveness(values, current).peak_bytes();
  result.peak_after = result.peak_before;
  std::vector<Instruction*> chosen = current;
  const std::vector<Instruction*> listed = ListScheduler(current, values, effects).Run();
  if (listed.size() == current.size()) {
    const int64_t listed_peak = BufferLiveness(values, listed).peak_bytes();
    if (listed_peak < result.peak_before) {
      chosen = listed;
      result.peak_after = listed_peak;
    }
  }
  // A stored order that was not def-before-use is replaced even when the post order stays:
  // the stored order is what is_scheduled promises. Only a new post order is a change.
  std::vector<Instruction*> stored;
  for (const auto& instruction : computation.instructions()) stored.push_back(instruction.get());
  if (chosen != stored) computation.SetInstructionOrder(chosen);
  result.reordered = chosen != current;
  return result;
}

// Sets `is_scheduled=true` in the module header; returns whether it was not already so.
bool MarkScheduled(ir::Module& module) {
  for (auto& [key, value] : module.header_attributes()) {
    if (key != "is_scheduled") continue;
    if (value == "true") return false;
    value = "true";
    return true;
  }
  // XLA writes it first after the module name.
  auto& header = module.header_attributes();
  header.insert(header.begin(), {"is_scheduled", "true"});
  return true;
}

}  // namespace

StatusOr<bool> Scheduler::Run(ir::Module& module, PassContext& context) {
  if (module.entry() == nullptr) {
    return Status::Error("module " + module.name() + " has no entry computation");
  }
  const SideEffectAnalysis effects(module);
  bool changed = false;
  for (ir::Computation* computation : module.MakeComputationPostOrder()) {
    if (computation->fusion_instruction() != nullptr) continue;
    const ComputationSchedule result = ScheduleComputation(*computation, effects);
    changed |= result.reordered;
    if (computation == module.entry()) {
      context.AddStat("peak_bytes_before", std::to_string(result.peak_before));
      context.AddStat("peak_bytes_after", std::to_string(result.peak_after));
    }
  }
  changed |= MarkScheduled(module);
  return changed;
}

}  // namespace fusescope::passes
