#ifndef FUSESCOPE_IMPORTERS_XLA_DUMP_PROVENANCE_H_
#define FUSESCOPE_IMPORTERS_XLA_DUMP_PROVENANCE_H_

// Ids and provenance for a module read from an XLA dump, continuing those of the module
// read from the file before it. XLA writes text, not ids, so they are inferred:
//
//  - by name: an instruction with the same name in the corresponding computation is the same
//    node (same id, same provenance). Computations correspond by name, or through the
//    called computations of instructions that correspond;
//  - by clone name: XLA names a clone after its original (`add.0.clone.2`, in a computation
//    `region_0.8.clone.clone`); a clone whose original is in the corresponding computation
//    takes its provenance (not its id). A cloned computation corresponds to its original
//    where that is not kept under its own name;
//  - by structure: XLA renames what it clones into a fusion (`add.15` outside becomes
//    `add.8` in the fused computation), so an instruction without a namesake takes the
//    provenance of an instruction of the module before with the same opcode, shape and
//    operands (operands seen through fusion parameters), preferring one that is gone.
//    Outside fusions only instructions that are gone count (a renamed instruction);
//  - as a replacement: an instruction that took the place of a gone one among the operands
//    of a corresponding user (what an algebraic simplification leaves) inherits its
//    provenance;
//    A new instruction that only feeds such replacements or renamed instructions is part
//    of that rewrite;
//  - a fusion answers for everything in its fused computation, so the diff can say "these
//    instructions became fusion X".
// Only name matches keep their id; every other instruction gets a fresh one from `next_id`
// (ids are never reused across the whole dump), and one with no origin at all answers for
// itself. Linear in the instruction counts.

#include <cstdint>

#include "ir/module.h"

namespace fusescope::ir {

struct ProvenanceCarryCounts {
  int64_t by_name = 0;
  int64_t by_structure = 0;
  int64_t by_clone_name = 0;  // `add.0.clone`, in `region_0.8.clone`, continues `add.0`
  int64_t into_fusions = 0;  // of by_structure: now in a fused computation, before outside one
  int64_t replacements = 0;
  int64_t rewrite_parts = 0;  // new instructions that only feed rewritten ones
  int64_t new_instructions = 0;

  bool operator==(const ProvenanceCarryCounts& other) const = default;
};

// `after` must be freshly parsed: its ids and provenance are overwritten. `before` is not
// changed. `next_id` is the first id never used so far in the dump; it is advanced past the
// ids handed out.
ProvenanceCarryCounts CarryOverProvenance(const Module& before, Module& after, int64_t& next_id);

// The largest id of `module`, or 0; where `next_id` starts for the first module of a dump.
int64_t MaxInstructionId(const Module& module);

}  // namespace fusescope::ir

#endif  // FUSESCOPE_IMPORTERS_XLA_DUMP_PROVENANCE_H_
