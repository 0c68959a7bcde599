#ifndef FUSESCOPE_IR_OPCODE_H_
#define FUSESCOPE_IR_OPCODE_H_

// HLO opcodes with the spelling XLA prints. An opcode we do not know parses as kUnknown and
// the instruction keeps its spelling (Instruction::opcode_name), so unknown ops still load.

#include <optional>
#include <string_view>

namespace fusescope::ir {

// X(enumerator, "text spelling", arity) with arity -1 for variadic.
#define FUSESCOPE_HLO_OPCODES(X)                                  \
  X(kAbs, "abs", 1)                                               \
  X(kAdd, "add", 2)                                               \
  X(kAddDependency, "add-dependency", 2)                          \
  X(kAfterAll, "after-all", -1)                                   \
  X(kAllGather, "all-gather", -1)                                 \
  X(kAllGatherDone, "all-gather-done", 1)                         \
  X(kAllGatherStart, "all-gather-start", -1)                      \
  X(kAllReduce, "all-reduce", -1)                                 \
  X(kAllReduceDone, "all-reduce-done", 1)                         \
  X(kAllReduceStart, "all-reduce-start", -1)                      \
  X(kAllToAll, "all-to-all", -1)                                  \
  X(kAnd, "and", 2)                                               \
  X(kAsyncDone, "async-done", 1)                                  \
  X(kAsyncStart, "async-start", -1)                               \
  X(kAsyncUpdate, "async-update", 1)                              \
  X(kAtan2, "atan2", 2)                                           \
  X(kBatchNormGrad, "batch-norm-grad", 5)                         \
  X(kBatchNormInference, "batch-norm-inference", 5)               \
  X(kBatchNormTraining, "batch-norm-training", 3)                 \
  X(kBitcast, "bitcast", 1)                                       \
  X(kBitcastConvert, "bitcast-convert", 1)                        \
  X(kBroadcast, "broadcast", 1)                                   \
  X(kCall, "call", -1)                                            \
  X(kCbrt, "cbrt", 1)                                             \
  X(kCeil, "ceil", 1)                                             \
  X(kCholesky, "cholesky", 1)                                     \
  X(kClamp, "clamp", 3)                                           \
  X(kClz, "count-leading-zeros", 1)                               \
  X(kCollectiveBroadcast, "collective-broadcast", -1)             \
  X(kCollectivePermute, "collective-permute", -1)                 \
  X(kCollectivePermuteDone, "collective-permute-done", 1)         \
  X(kCollectivePermuteStart, "collective-permute-start", -1)      \
  X(kCompare, "compare", 2)                                       \
  X(kComplex, "complex", 2)                                       \
  X(kConcatenate, "concatenate", -1)                              \
  X(kConditional, "conditional", -1)                              \
  X(kConstant, "constant", 0)                                     \
  X(kConvert, "convert", 1)                                       \
  X(kConvolution, "convolution", 2)                               \
  X(kCopy, "copy", 1)                                             \
  X(kCopyDone, "copy-done", 1)                                    \
  X(kCopyStart, "copy-start", 1)                                  \
  X(kCos, "cosine", 1)                                            \
  X(kCustomCall, "custom-call", -1)                               \
  X(kDivide, "divide", 2)                                         \
  X(kDomain, "domain", 1)                                         \
  X(kDot, "dot", 2)                                               \
  X(kDynamicReshape, "dynamic-reshape", -1)                       \
  X(kDynamicSlice, "dynamic-slice", -1)                           \
  X(kDynamicUpdateSlice, "dynamic-update-slice", -1)              \
  X(kErf, "erf", 1)                                               \
  X(kExp, "exponential", 1)                                       \
  X(kExpm1, "exponential-minus-one", 1)                           \
  X(kFft, "fft", 1)                                               \
  X(kFloor, "floor", 1)                                           \
  X(kFusion, "fusion", -1)                                        \
  X(kGather, "gather", 2)                                         \
  X(kGetDimensionSize, "get-dimension-size", 1)                   \
  X(kGetTupleElement, "get-tuple-element", 1)                     \
  X(kImag, "imag", 1)                                             \
  X(kInfeed, "infeed", 1)                                         \
  X(kIota, "iota", 0)                                             \
  X(kIsFinite, "is-finite", 1)                                    \
  X(kLog, "log", 1)                                               \
  X(kLog1p, "log-plus-one", 1)                                    \
  X(kLogistic, "logistic", 1)                                     \
  X(kMap, "map", -1)                                              \
  X(kMaximum, "maximum", 2)                                       \
  X(kMinimum, "minimum", 2)                                       \
  X(kMultiply, "multiply", 2)                                     \
  X(kNegate, "negate", 1)                                         \
  X(kNot, "not", 1)                                               \
  X(kOptimizationBarrier, "opt-barrier", 1)                       \
  X(kOr, "or", 2)                                                 \
  X(kOutfeed, "outfeed", 2)                                       \
  X(kPad, "pad", 2)                                               \
  X(kParameter, "parameter", 0)                                   \
  X(kPartitionId, "partition-id", 0)                              \
  X(kPopulationCount, "popcnt", 1)                                \
  X(kPower, "power", 2)                                           \
  X(kRaggedAllToAll, "ragged-all-to-all", -1)                     \
  X(kRaggedDot, "ragged-dot", 3)                                  \
  X(kReal, "real", 1)                                             \
  X(kRecv, "recv", 1)                                             \
  X(kRecvDone, "recv-done", 1)                                    \
  X(kReduce, "reduce", -1)                                        \
  X(kReducePrecision, "reduce-precision", 1)                      \
  X(kReduceScatter, "reduce-scatter", -1)                         \
  X(kReduceWindow, "reduce-window", -1)                           \
  X(kRemainder, "remainder", 2)                                   \
  X(kReplicaId, "replica-id", 0)                                  \
  X(kReshape, "reshape", 1)                                       \
  X(kReverse, "reverse", 1)                                       \
  X(kRng, "rng", -1)                                              \
  X(kRngBitGenerator, "rng-bit-generator", 1)                     \
  X(kRngGetAndUpdateState, "rng-get-and-update-state", 0)         \
  X(kRoundNearestAfz, "round-nearest-afz", 1)                     \
  X(kRoundNearestEven, "round-nearest-even", 1)                   \
  X(kRsqrt, "rsqrt", 1)                                           \
  X(kScatter, "scatter", -1)                                      \
  X(kSelect, "select", 3)                                         \
  X(kSelectAndScatter, "select-and-scatter", 3)                   \
  X(kSend, "send", 2)                                             \
  X(kSendDone, "send-done", 1)                                    \
  X(kSetDimensionSize, "set-dimension-size", 2)                   \
  X(kShiftLeft, "shift-left", 2)                                  \
  X(kShiftRightArithmetic, "shift-right-arithmetic", 2)           \
  X(kShiftRightLogical, "shift-right-logical", 2)                 \
  X(kSign, "sign", 1)                                             \
  X(kSin, "sine", 1)                                              \
  X(kSlice, "slice", 1)                                           \
  X(kSort, "sort", -1)                                            \
  X(kSqrt, "sqrt", 1)                                             \
  X(kStochasticConvert, "stochastic-convert", 2)                  \
  X(kSubtract, "subtract", 2)                                     \
  X(kTan, "tan", 1)                                               \
  X(kTanh, "tanh", 1)                                             \
  X(kTopK, "topk", 1)                                             \
  X(kTranspose, "transpose", 1)                                   \
  X(kTriangularSolve, "triangular-solve", 2)                      \
  X(kTuple, "tuple", -1)                                          \
  X(kWhile, "while", 1)                                           \
  X(kXor, "xor", 2)

enum class Opcode : uint16_t {
#define FUSESCOPE_OPCODE_ENUM(e, s, a) e,
  FUSESCOPE_HLO_OPCODES(FUSESCOPE_OPCODE_ENUM)
#undef FUSESCOPE_OPCODE_ENUM
  kUnknown,  // spelling kept on the instruction
};

std::optional<Opcode> OpcodeFromName(std::string_view name);
// The XLA spelling; "unknown" for kUnknown (use Instruction::opcode_name for the real one).
std::string_view OpcodeName(Opcode opcode);
// Fixed operand count, or -1 when variadic (or unknown).
int OpcodeArity(Opcode opcode);

// Elementwise: each output element depends only on the same-index elements of the operands.
bool IsElementwiseOpcode(Opcode opcode);
bool IsElementwiseUnary(Opcode opcode);
bool IsElementwiseBinary(Opcode opcode);
// exp, log, tanh, pow, sqrt, rsqrt, erf, sin, cos, ... (XLA's "transcendental" cost class).
bool IsTranscendental(Opcode opcode);
// Collectives, send/recv, infeed/outfeed, rng, custom-call with side effects are decided
// per instruction; this is the opcode part of that decision.
bool OpcodeHasSideEffect(Opcode opcode);

}  // namespace fusescope::ir

#endif  // FUSESCOPE_IR_OPCODE_H_
