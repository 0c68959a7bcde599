#ifndef FUSESCOPE_PASSES_OUTPUT_FUSION_H_
#define FUSESCOPE_PASSES_OUTPUT_FUSION_H_

// Output fusion: a dot or convolution becomes the primary of a kOutput fusion whose root is
// its epilogue: the bias add, then elementwise activation (relu, tanh, logistic, gelu's
// polynomial). The GEMM/convolution writes through the epilogue instead of storing its
// result and reading it back. Instruction fusion asks this policy whenever a dot or
// convolution meets a consumer.
//
// XLA:CPU restricts output fusion to non-batched matrix-vector products feeding an add; the
// kMatrixVector scope reproduces that. The kEpilogue scope accepts any non-batched dot and
// any convolution, and a consumer that is an add or a loop fusion that begins with an add of
// the dot and is elementwise from there to its root (the bias + activation epilogue).

#include "ir/instruction.h"
#include "passes/fusion_decision.h"

namespace fusescope::passes {

class OutputFusion {
 public:
  enum class Scope { kMatrixVector, kEpilogue };
  explicit OutputFusion(Scope scope) : scope_(scope) {}

  Scope scope() const { return scope_; }

  // Dots and convolutions: the instructions output fusion is about.
  static bool IsPrimaryCandidate(const ir::Instruction& instruction);

  // Whether `producer` (a dot or convolution) can become the primary of an output fusion
  // rooted at `consumer`. Refusals carry kOutputFusionShape and say what is missing.
  FusionDecision CanFuse(const ir::Instruction& producer, const ir::Instruction& consumer) const;

  // `add` is the epilogue of a dot or convolution operand it could still absorb (XLA's
  // "producer can be output-fused into some operand").
  bool CanAbsorbAnOperand(const ir::Instruction& add) const;

  // The dot or convolution inside a kOutput fusion, or null.
  static const ir::Instruction* FindPrimary(const ir::Instruction& fusion);

 private:
  FusionDecision CheckPrimary(const ir::Instruction& producer) const;
  FusionDecision CheckEpilogueFusion(const ir::Instruction& producer,
                                     const ir::Instruction& fusion) const;

  Scope scope_;
};

}  // namespace fusescope::passes

#endif  // FUSESCOPE_PASSES_OUTPUT_FUSION_H_
