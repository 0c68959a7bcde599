#ifndef FUSESCOPE_PASSES_FUSION_UTILS_H_
#define FUSESCOPE_PASSES_FUSION_UTILS_H_

// Questions every fusion pass asks: which computations to work in, what kind of fusion an
// instruction is, whether an instruction is fusible on a target, what it costs to repeat,
// how large a fusion of several instructions would be. The answers follow XLA's rules
// (instruction_fusion, cpu_instruction_fusion, gpu_fusible) so that our decisions read
// familiar to an XLA engineer. All functions are pure queries; none changes the module.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/module.h"
#include "ir/status.h"
#include "passes/fusion_decision.h"
#include "passes/pipeline_options.h"

namespace fusescope::passes {

enum class FusionKind : uint8_t { kLoop, kInput, kOutput, kCustom };

// "kLoop", as written in `kind=`.
std::string_view FusionKindName(FusionKind kind);
// The kind of a fusion instruction; nullopt for anything else or an unknown spelling.
std::optional<FusionKind> FusionKindOf(const ir::Instruction& instruction);

enum class FusionTarget : uint8_t { kCpu, kGpu };

// The budgets a pass for `target` works with. FusionLimits' defaults are XLA:GPU's; a CPU
// pass that was handed those untouched defaults uses XLA:CPU's instead (a larger operand
// budget, at most 5 reductions). Values the user changed are kept as given.
FusionLimits ResolveFusionLimits(const FusionLimits& given, FusionTarget target);
inline constexpr int64_t kCpuMaxOperandsAndOutputs = 256;
inline constexpr int64_t kCpuMaxReductions = 5;

// The computations fusion works in: not fused computations, and not computations called by
// anything but control flow (reducers, sort comparators, map bodies stay as they are).
std::vector<ir::Computation*> FusibleComputations(const ir::Module& module);

// "%name", the way sentences name an instruction.
std::string Ref(const ir::Instruction& instruction);

// --- Structure -----------------------------------------------------------------------------

bool IsFusion(const ir::Instruction& instruction);
// A fusion whose fused root is a tuple; its users are get-tuple-elements.
bool IsMultiOutputFusion(const ir::Instruction& instruction);
// The fused root of a fusion; the instruction itself otherwise.
const ir::Instruction& FusedRoot(const ir::Instruction& instruction);
// Non-parameter instructions in a fusion; 1 for anything else.
int64_t FusedInstructionCount(const ir::Instruction& instruction);
// The instruction itself, or every non-parameter instruction of a fusion.
std::vector<const ir::Instruction*> FusedInstructions(const ir::Instruction& instruction);
// Array leaves of a shape: 1 for an array, the leaf count for a tuple.
int64_t OutputBufferCount(const ir::Shape& shape);
bool IsEffectiveScalar(const ir::Shape& shape);
bool IsElementwise(const ir::Instruction& instruction);
bool IsCustomCall(const ir::Instruction& instruction);
// A reshape or transpose that leaves the bytes where they are (given layouts), or a bitcast.
bool IsBitcastLike(const ir::Instruction& instruction);

// --- Cost classes --------------------------------------------------------------------------

// XLA's InstructionFusion::IsExpensive: transcendentals, dot, convolution, reduce, gather,
// sort, ...; integer division by a constant is cheap.
bool IsExpensive(const ir::Instruction& instruction);
// Broadcasts and widening converts get cheaper the more they are duplicated into consumers.
bool IsAlwaysDuplicable(const ir::Instruction& instruction);
// At most one operand that is as large as the output (broadcasts, iotas and scalar constants
// do not count): duplicating it does not multiply the memory read.
bool EffectivelyAtMostUnary(const ir::Instruction& instruction);
// Whether `consumer` reads elements of operand `operand_index` more than once (a growing
// broadcast or gather, an overlapping reduce-window, a dot); looks inside fusions.
bool ReusesOperandElements(const ir::Instruction& consumer, int64_t operand_index);
// Reads each input element many times per output (gather/broadcast that grow, reduce-window
// with a window larger than its stride). XLA's IfFusedReadsElementsMultipleTimes.
bool ReadsElementsMultipleTimes(const ir::Instruction& instruction);
// A reduction reading more than 10 inputs per output that is not a fast row/column one, or a
// reduce-window over more than 10 elements: too heavy to recompute per consumer element.
bool IsExpensiveToRepeat(const ir::Instruction& instruction);
// Name of the cost class for sentences: "a transcendental", "a reduction", "a dot", ...
std::string CostClassPhrase(const ir::Instruction& instruction);

// --- Fusibility ----------------------------------------------------------------------------

// XLA:CPU's CanBeLoopFused: elementwise, bitcast, broadcast, concatenate, dynamic-slice,
// dynamic-update-slice, gather, iota, pad, reduce, reshape, reverse, slice, transpose.
bool IsCpuLoopFusible(const ir::Instruction& instruction);
// XLA:GPU's IsFusible for the kinds we model: loop-fusible ops, reductions, kLoop/kInput
// fusions. Side effects, custom-calls, dots, convolutions, sorts, control flow are not.
bool IsGpuFusible(const ir::Instruction& instruction);
bool IsGpuLoopFusibleAsProducer(const ir::Instruction& instruction);
bool IsGpuLoopFusibleAsConsumer(const ir::Instruction& instruction);
// A reduction the GPU emits with its reduction emitter (an "input fusion" hero).
bool IsReductionFromOrToContiguousDimensions(const ir::Instruction& instruction);
// A transpose the GPU emits through shared-memory tiles.
bool IsTiledTranspose(const ir::Instruction& instruction);
// A copy or non-bitcast transpose anywhere in the instruction (or its fused body).
bool IsPhysicallyTransposing(const ir::Instruction& instruction);
// Walks from `root` through convert/bitcast/bitcast-like ops with one user to a reduction or
// tiled transpose; returns it, or nullptr (loop emitter).
const ir::Instruction* FindHero(const ir::Instruction& root);
// kInput when the (fused) roots have a reduction or tiled-transpose hero, else kLoop.
FusionKind ChooseGpuFusionKind(const ir::Instruction& instruction);
bool IsInputFusion(const ir::Instruction& instruction);
bool IsReduceInputFusion(const ir::Instruction& instruction);
// An instruction containing a reduce that reads at least 16 inputs per output.
bool ContainsSignificantReduce(const ir::Instruction& instruction);

// --- Footprint of a fusion that would be formed -------------------------------------------

// What limits look at: distinct operands from outside, output buffers, fused instructions,
// reductions (all / unnested) and GPU shared memory per block.
struct FusionFootprint {
  int64_t operands = 0;
  int64_t outputs = 0;
  int64_t instructions = 0;
  int64_t reductions = 0;
  int64_t unnested_reductions = 0;
  int64_t shared_memory_bytes = 0;
  int64_t operands_and_outputs() const { return operands + outputs; }
};
// `members` become one fusion whose outputs are `outputs` (members whose values leave it).
FusionFootprint MeasureFusion(const std::vector<const ir::Instruction*>& members,
                              const std::vector<const ir::Instruction*>& outputs);
// The footprint of one existing instruction or fusion.
FusionFootprint MeasureInstruction(const ir::Instruction& instruction);

inline constexpr int64_t kGpuSharedMemoryPerBlock = 48 * 1024;

// Budget checks shared by the passes; refusals carry the numbers.
FusionDecision CheckOperandBudget(const FusionFootprint& fused, int64_t current_operands,
                                  int64_t limit);
FusionDecision CheckReductionBudget(const FusionFootprint& fused, int64_t limit,
                                    bool unnested_only);
FusionDecision CheckInstructionBudget(const FusionFootprint& fused, int64_t limit);
FusionDecision CheckSharedMemoryBudget(const FusionFootprint& fused, int64_t limit);
// Side effects and opaque custom-calls on either side.
FusionDecision CheckOpaqueOrSideEffecting(const ir::Instruction& producer,
                                          const ir::Instruction& consumer);
// Whether `instruction` can take part in a fusion as far as its shape goes. Fusing rewires
// the instruction's uses to outputs of the new fusion, one array each; a multi-output fusion
// read only through get-tuple-elements maps onto them element by element. Any other tuple
// has nothing to map onto and is refused (kMultiOutputNotPossible): a tuple-shaped op or
// fusion that is not a multi-output tuple (a variadic sort or reduce, a fusion rooted at one,
// as TPU sort and top-k graphs have), or a multi-output fusion that is the computation's
// result or is read whole. A multi-output fusion none of whose elements is read (left dead
// within a pass) has no output to give a fusion and is refused with kNoUsers.
FusionDecision CheckTupleShapedMember(const ir::Instruction& instruction);

// --- XLA:GPU producer-consumer rules -------------------------------------------------------

// A plain unnested reduction or a reduction input fusion: its output is written by the
// reduction emitter.
bool IsGpuReductionProducer(const ir::Instruction& instruction);
// XLA:GPU's IsProducerConsumerFusible (plus the fusibility of both sides): loop-fusible
// producer, no epilogue after a reduction, fusible consumer, no multi-output producer, no
// non-scalar constant.
FusionDecision GpuProducerConsumerFusible(const ir::Instruction& producer,
                                          const ir::Instruction& consumer);
// XLA:GPU's FusionFitsInBudget for `producer` and `consumer` fused together: shared memory,
// unnested reductions, operands+outputs, and our instruction limit. With `multi_output` both
// keep their outputs.
FusionDecision GpuFusionFitsInBudget(const ir::Instruction& producer,
                                     const ir::Instruction& consumer, const FusionLimits& limits,
                                     bool multi_output);
// A heavy producer (a reduction reading >10 inputs per output, a large reduce-window) whose
// consumer would read its elements more than once: fused, it would be recomputed per read.
bool CreatesHeavyComputation(const ir::Instruction& producer, const ir::Instruction& consumer);

// XLA's ShouldFuseInPlaceOp: a consumer that updates a buffer in place (a
// dynamic-update-slice, possibly inside a fusion) must not take a non-elementwise producer
// that reads the same buffer, which would then see elements already overwritten.
FusionDecision CheckInPlaceUpdate(const ir::Instruction& producer, const ir::Instruction& consumer);

// The record of a considered pair, before anything changed. The caller sets fusion_name
// (and may extend the explanation) once the fusion is formed.
FusionDecisionRecord MakeDecisionRecord(const ir::Instruction& producer,
                                        const ir::Instruction& consumer,
                                        const FusionDecision& decision);

// "fused %exp.1 into %add.2, forming %fusion.3 (kLoop)" when the consumer was a plain
// instruction, "fused %exp.1 into %fusion.3 (kLoop)" when it was already the fusion; with
// `copy` the producer was duplicated ("fused a copy of ...").
std::string FusedSentence(const FusionDecisionRecord& before, bool consumer_was_fusion, bool copy,
                          const ir::Instruction& fusion);

// Fusion instructions in the computations fusion works in.
int64_t CountFusions(const ir::Module& module);

class FusionDecisionRecorder;
struct PassContext;

// The driver every GPU fusion pass shares: runs `run_one` on each fusible computation with one
// decision recorder, adds the per-computation counts, reports them as stat `count_stat` next to
// the module's fusion count, and says whether anything was fused.
StatusOr<bool> RunOnFusibleComputations(
    ir::Module& module, PassContext& context, std::string_view count_stat,
    const std::function<StatusOr<int64_t>(ir::Computation&, FusionDecisionRecorder&)>& run_one);

}  // namespace fusescope::passes

#endif  // FUSESCOPE_PASSES_FUSION_UTILS_H_
