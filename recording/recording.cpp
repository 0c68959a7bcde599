#include "recording/recording.h"

#include <unordered_set>

namespace fusescope::recording {

namespace {

// Heap bytes of a string beyond the object itself (short strings live inline).
int64_t HeapBytes(const std::string& text) {
  constexpr size_t kInlineCapacity = 15;
  return text.capacity() > kInlineCapacity ? static_cast<int64_t>(text.capacity() + 1) : 0;
}

template <typename T>
int64_t HeapBytes(const std::vector<T>& values) {
  return static_cast<int64_t>(values.capacity() * sizeof(T));
}

// make_shared puts the object next to its reference counts.
constexpr int64_t kSharedControlBytes = 16;

int64_t RecordBytes(const InstructionRecord& record) {
  return static_cast<int64_t>(sizeof(InstructionRecord)) + kSharedControlBytes +
         HeapBytes(record.name) + HeapBytes(record.computation) + HeapBytes(record.opcode) +
         HeapBytes(record.text) + HeapBytes(record.operand_ids) +
         HeapBytes(record.fused_computation);
}

int64_t ProvenanceBytes(const CompactProvenance& provenance) {
  return static_cast<int64_t>(sizeof(CompactProvenance)) + kSharedControlBytes +
         HeapBytes(provenance.bytes());
}

int64_t ComputationBytes(const ComputationSnapshot& computation) {
  return static_cast<int64_t>(sizeof(ComputationSnapshot)) + kSharedControlBytes +
         HeapBytes(computation.name) + HeapBytes(computation.header) +
         HeapBytes(computation.footer) + HeapBytes(computation.instructions);
}

int64_t DecisionBytes(const passes::FusionDecisionRecord& decision) {
  return static_cast<int64_t>(sizeof(passes::FusionDecisionRecord)) + HeapBytes(decision.pass) +
         HeapBytes(decision.producer_name) + HeapBytes(decision.producer_opcode) +
         HeapBytes(decision.consumer_name) + HeapBytes(decision.consumer_opcode) +
         HeapBytes(decision.computation) + HeapBytes(decision.explanation) +
         HeapBytes(decision.fusion_name);
}

}  // namespace

const Snapshot* Recording::SnapshotAfter(int64_t pass_index) const {
  if (pass_index < 0 || pass_index + 1 >= static_cast<int64_t>(snapshots.size())) return nullptr;
  return &snapshots[static_cast<size_t>(pass_index + 1)];
}

const Snapshot* Recording::SnapshotBefore(int64_t pass_index) const {
  if (pass_index < 0 || pass_index >= static_cast<int64_t>(snapshots.size())) return nullptr;
  return &snapshots[static_cast<size_t>(pass_index)];
}

std::vector<const passes::FusionDecisionRecord*> Recording::DecisionsOf(int64_t pass_index) const {
  std::vector<const passes::FusionDecisionRecord*> found;
  for (const passes::FusionDecisionRecord& decision : decisions) {
    if (decision.pass_index == pass_index) found.push_back(&decision);
  }
  return found;
}

RecordingFootprint Recording::Footprint() const {
  RecordingFootprint footprint;
  std::unordered_set<const void*> seen;
  for (const Snapshot& snapshot : snapshots) {
    ++footprint.snapshots;
    footprint.bytes += static_cast<int64_t>(sizeof(Snapshot)) + HeapBytes(snapshot.computations()) +
                       HeapBytes(snapshot.error());
    if (seen.insert(snapshot.shared_prologue().get()).second) {
      footprint.bytes += HeapBytes(snapshot.prologue());
    }
    for (const ComputationSnapshotPtr& computation : snapshot.computations()) {
      ++footprint.computation_references;
      footprint.instruction_references += static_cast<int64_t>(computation->instructions.size());
      if (!seen.insert(computation.get()).second) continue;
      ++footprint.unique_computations;
      footprint.bytes += ComputationBytes(*computation);
      for (const InstructionRecordPtr& record : computation->instructions) {
        if (!seen.insert(record.get()).second) continue;
        ++footprint.unique_instruction_records;
        footprint.bytes += RecordBytes(*record);
        if (seen.insert(record->provenance_set.get()).second) {
          footprint.bytes += ProvenanceBytes(*record->provenance_set);
        }
      }
    }
  }
  for (const passes::FusionDecisionRecord& decision : decisions) {
    footprint.bytes += DecisionBytes(decision);
  }
  return footprint;
}

}  // namespace fusescope::recording
