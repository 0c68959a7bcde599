#ifndef FUSESCOPE_PASSES_FUSION_BUILDER_H_
#define FUSESCOPE_PASSES_FUSION_BUILDER_H_

// Turns a group of instructions of one computation into one fusion instruction: a new fused
// computation (parameters param_0..., named fused_computation[.N]) and a kFusion instruction
// (kind=, calls=) that takes the group's place, named as XLA's instruction fusion names it:
// `<producer opcode>_<consumer opcode>_fusion[.N]` after the pair that created it, or
// `wrapped_<opcode>` (computation `wrapped_<opcode>_computation`) for one instruction. Every fusion shape the
// passes make goes through here: wrapping a consumer, fusing a producer into it (duplicated
// when the producer keeps other users), growing an existing fusion, inlining a producer
// fusion into a consumer fusion, and multi-output fusion (tuple root, get-tuple-element
// users).
//
// Identity and provenance: an instruction that moves into the fusion keeps its id and name
// inside the fused computation; a duplicated one gets a fresh id and a `.N` suffixed name.
// Clones keep the originals' provenance and metadata; the fusion instruction's provenance is
// the union of everything fused and its metadata is its root's. A fused parameter carries
// the provenance of the operand it stands for. A duplicated copy (and a parameter) of an
// instruction answering for more than 16 originals answers for the first only: the original
// still answers for all, and a CSE-merged constant with thousands of users would otherwise
// make provenance quadratic in the size of the model. A fusion that grows keeps its name, id and
// fused computation name.
//
// The caller decides what may be fused (cycles, budgets); the builder only checks that the
// group is well formed.

#include <vector>

#include "ir/module.h"
#include "ir/status.h"
#include "passes/fusion_utils.h"

namespace fusescope::passes {

struct FusionPlan {
  // Instructions of one computation; fusion instructions among them are inlined, and the
  // get-tuple-element users of a multi-output fusion among them are absorbed.
  std::vector<ir::Instruction*> members;
  // Members whose users outside the plan keep reading the original (duplication). Members
  // not listed here hand their outside users over to the fusion (multi-output).
  std::vector<ir::Instruction*> duplicated;
  // The consumer: its value is the fusion's value (or the first tuple element). When it is a
  // fusion, the new fusion keeps its name and id.
  ir::Instruction* primary = nullptr;
  FusionKind kind = FusionKind::kLoop;
};

// Instructions a fusion consumed are detached at once (no operands, no users) but removed
// from the computation in one sweep by Finish() (or on destruction): removing them one at a
// time costs a scan of the computation each, quadratic over a pass on a large module. Until
// then they stay allocated, so pointers a pass still holds to them remain safe to compare.
class FusionBuilder {
 public:
  explicit FusionBuilder(ir::Computation& computation);
  FusionBuilder(const FusionBuilder&) = delete;
  FusionBuilder& operator=(const FusionBuilder&) = delete;
  ~FusionBuilder();

  // Builds the fusion and rewires users. Members that no longer have users are detached for
  // removal (with the fused computations of consumed fusions). Returns the fusion.
  StatusOr<ir::Instruction*> Build(const FusionPlan& plan);

  // Removes everything consumed so far. The module verifies only after this.
  void Finish();

  // Shorthands. Fuse: `producer` into `consumer`; the producer stays for its other users.
  StatusOr<ir::Instruction*> Fuse(ir::Instruction* producer, ir::Instruction* consumer,
                                  FusionKind kind);
  // The producer's other users read its value from the fusion instead (multi-output).
  StatusOr<ir::Instruction*> FuseMultiOutput(ir::Instruction* producer, ir::Instruction* consumer,
                                             FusionKind kind);
  // Two independent instructions reading common operands become one multi-output fusion;
  // `primary`'s outputs come first.
  StatusOr<ir::Instruction*> FuseSiblings(ir::Instruction* primary, ir::Instruction* sibling,
                                          FusionKind kind);

 private:
  ir::Computation& computation_;
  std::vector<ir::Instruction*> consumed_;
};

}  // namespace fusescope::passes

#endif  // FUSESCOPE_PASSES_FUSION_BUILDER_H_
