#ifndef FUSESCOPE_IR_GRAPH_DIFF_H_
#define FUSESCOPE_IR_GRAPH_DIFF_H_

// The computed difference between two modules, typically the snapshots before ("left") and
// after ("right") one pass. Instructions are matched in stages, each stage only among what
// is still unmatched:
//  1. stable ids: an instruction keeps its id through passes and recording;
//  2. provenance: a right instruction whose provenance equals a left one's is its
//     counterpart; one whose provenance covers it absorbed it (a fusion or its body clone, a
//     CSE survivor, a simplified replacement);
//  3. names, with the same opcode or the same operands (modules parsed from separate files
//     have unrelated ids);
//  4. structure: same opcode, shape and already matched operands, within corresponding
//     computations.
// Each left instruction then is unchanged, changed (with what changed), removed, fused into a
// right fusion, or replaced by a right instruction; each right instruction without a
// counterpart is added. Time and memory are linear in the instruction counts plus the sizes
// of the provenance sets. The diff holds pointers into both modules: they must outlive it.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ir/instruction_index.h"
#include "ir/module.h"

namespace fusescope::ir {

enum class DiffStatus : uint8_t { kUnchanged, kChanged, kAdded, kRemoved, kFused, kReplaced };

// "unchanged", "changed", "added", "removed", "fused", "replaced".
std::string_view DiffStatusName(DiffStatus status);

// What differs between two matched instructions; a bit set.
enum DiffChange : uint32_t {
  kChangeOpcode = 1u << 0,
  kChangeShape = 1u << 1,       // element type or dimensions
  kChangeLayout = 1u << 2,      // same element type and dimensions, another layout
  kChangeOperands = 1u << 3,    // an operand is not the counterpart of the old one
  kChangeAttributes = 1u << 4,  // attributes, literal or parameter number
  kChangeCalled = 1u << 5,      // a called computation (fusion body, reducer) changed
  kChangeName = 1u << 6,
  kChangeMetadata = 1u << 7,
  kChangeUnfused = 1u << 8,  // was inside a fusion body, now outside any
};

// "shape, layout" for the set bits, in the order of the enum.
std::string DescribeChanges(uint32_t changes);

enum class MatchKind : uint8_t { kNone, kId, kProvenance, kName, kStructure };

struct InstructionDiff {
  // Null for an added instruction.
  const Instruction* left = nullptr;
  // The counterpart: the matched instruction (for kFused the one inside the fusion body
  // when the body has one, else the fusion), the replacement for kReplaced, the
  // instruction itself for kAdded; null for kRemoved.
  const Instruction* right = nullptr;
  // kFused: the right fusion instruction that now holds it; kReplaced: the replacement.
  const Instruction* target = nullptr;
  DiffStatus status = DiffStatus::kUnchanged;
  uint32_t changes = 0;  // DiffChange bits, set for kChanged (and kFused pairs that differ)
  MatchKind match = MatchKind::kNone;
};

// "These 7 instructions became fusion.3."
struct FusionGroup {
  const Instruction* fusion = nullptr;  // right side
  bool new_fusion = false;              // no counterpart on the left
  // Left instructions now inside it, outermost only: the body of a left fusion that was
  // merged into it is represented by that fusion. In left order.
  std::vector<const Instruction*> members;
};

// "divide.4 and multiply.5 were replaced by multiply.9."
struct ReplacementGroup {
  const Instruction* replacement = nullptr;  // right side
  std::vector<const Instruction*> replaced;  // left side, in left order
};

// Left instructions count by their status; added counts right instructions, except those
// inside the body of a new fusion (they are part of that fusion).
struct DiffCounts {
  int64_t unchanged = 0;
  int64_t changed = 0;
  int64_t added = 0;
  int64_t removed = 0;
  int64_t fused = 0;
  int64_t replaced = 0;
  bool any_difference() const { return changed + added + removed + fused + replaced > 0; }
};

struct DiffOptions {
  bool match_ids = true;
  bool match_provenance = true;
  bool match_names = true;
  bool match_structure = true;
  // Ids that pair mostly differently named instructions were not kept from one module to the
  // other (each was numbered from scratch): then neither ids nor provenance are used.
  bool check_ids = true;

  // For two modules that do not share ids or provenance (two files parsed separately: the
  // parser numbers instructions from scratch), where equal ids would pair unrelated ones.
  static DiffOptions Unrelated() { return {false, false, true, true, false}; }
};

class GraphDiff {
 public:
  static GraphDiff Compute(const Module& left, const Module& right,
                           const DiffOptions& options = {});

  // One entry per left instruction (callee computations first, def-before-use within one),
  // then one per added right instruction.
  const std::vector<InstructionDiff>& entries() const { return entries_; }
  // The entry of a left instruction; nullptr when it is not in the left module.
  const InstructionDiff* ForLeft(const Instruction* instruction) const;
  // The entry that describes a right instruction: the one whose counterpart it is
  // (unchanged, changed, or fused for a body instruction that came from outside), or its own
  // added entry; nullptr when it is not in the right module.
  const InstructionDiff* ForRight(const Instruction* instruction) const;
  // Status of an instruction seen from its side; kUnchanged for a foreign pointer.
  DiffStatus LeftStatus(const Instruction* instruction) const;
  DiffStatus RightStatus(const Instruction* instruction) const;
  // The left instruction a right instruction stands for (its 1:1 counterpart), or nullptr.
  const Instruction* LeftCounterpart(const Instruction* right) const;

  const DiffCounts& counts() const { return counts_; }
  // False when ids and provenance were not used (not asked for, or found unrelated).
  bool used_ids() const { return used_ids_; }
  const std::vector<FusionGroup>& fusion_groups() const { return fusion_groups_; }
  const std::vector<ReplacementGroup>& replacement_groups() const { return replacements_; }

  // One sentence per fusion group and replacement group: "7 instructions became fusion.3
  // (kLoop): add.1, multiply.2, ...". At most `max_names` names are listed per sentence.
  std::vector<std::string> Statements(int max_names = 8) const;
  // "12 unchanged, 1 changed, 2 added, 0 removed, 7 fused, 1 replaced".
  std::string CountsLine() const;
  // One line about one entry: "changed %x: shape f32[8] -> f32[16]", "added %y (add)".
  static std::string DescribeEntry(const InstructionDiff& entry);
  // The counts line, the statements, then one line per changed, added and removed entry
  // (at most `max_lines` of those; the rest are counted in a last line).
  std::string ToText(int max_lines = 200) const;

 private:
  std::vector<InstructionDiff> entries_;
  InstructionIndex left_index_;   // left instruction -> its entry
  InstructionIndex right_index_;  // right instruction -> the entry that describes it
  DiffCounts counts_;
  bool used_ids_ = false;
  std::vector<FusionGroup> fusion_groups_;
  std::vector<ReplacementGroup> replacements_;

  friend class GraphDiffBuilder;
};

}  // namespace fusescope::ir

#endif  // FUSESCOPE_IR_GRAPH_DIFF_H_
