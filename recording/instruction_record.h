#ifndef FUSESCOPE_RECORDING_INSTRUCTION_RECORD_H_
#define FUSESCOPE_RECORDING_INSTRUCTION_RECORD_H_

// One instruction as it was after one pass. Records are immutable and shared between
// snapshots: a pass that leaves an instruction alone (same text, operands and provenance)
// hands the previous snapshot's record on, so recording every pass costs little more than
// the instructions that changed.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ir/constant_bytes.h"
#include "ir/provenance.h"
#include "recording/compact_provenance.h"

namespace fusescope::recording {

struct InstructionRecord {
  int64_t id = -1;
  std::string name;
  std::string computation;
  std::string opcode;
  // The line as the module prints it (indentation and ROOT included), parsable, with
  // `/*id=N*/` after the name.
  std::string text;
  std::vector<int64_t> operand_ids;
  // Compact, and shared between records with equal sets: after fusion and CSE many
  // instructions carry the same large set (every fused copy of one merged constant, say).
  // Never null.
  std::shared_ptr<const CompactProvenance> provenance_set;
  // For a fusion: its fused computation's name; empty otherwise.
  std::string fused_computation;
  // A constant's bytes (ir::ConstantBytes), shared with the module it was captured from and
  // every other record of it; null for constants known by their text alone.
  ir::ConstantBytesPtr constant_bytes;

  // Decoded; for a membership test alone, provenance_set->Contains(id) is cheaper.
  ir::ProvenanceSet provenance() const { return provenance_set->Decode(); }

  // Equal content, provenance compared by value.
  bool operator==(const InstructionRecord& other) const {
    return id == other.id && name == other.name && computation == other.computation &&
           opcode == other.opcode && text == other.text && operand_ids == other.operand_ids &&
           *provenance_set == *other.provenance_set &&
           fused_computation == other.fused_computation && SameConstant(other);
  }
  bool SameConstant(const InstructionRecord& other) const {
    if (constant_bytes == other.constant_bytes) return true;
    return constant_bytes && other.constant_bytes &&
           constant_bytes->fingerprint() == other.constant_bytes->fingerprint() &&
           constant_bytes->bytes() == other.constant_bytes->bytes();
  }
};

using InstructionRecordPtr = std::shared_ptr<const InstructionRecord>;

}  // namespace fusescope::recording

#endif  // FUSESCOPE_RECORDING_INSTRUCTION_RECORD_H_
