#include "passes/fusion_utils.h"

#include "passes/fusion_decision_recorder.h"
#include "passes/pass.h"

#include <algorithm>
#include <functional>
#include <numeric>
#include <unordered_set>

#include "ir/attribute_values.h"

namespace fusescope::passes {
namespace {

using ir::Instruction;
using ir::Opcode;
using ir::Shape;

// Dimensions from most minor to most major: the layout's order, or the default row-major one.
std::vector<int64_t> MinorToMajor(const Shape& shape) {
  if (shape.layout() &&
      static_cast<int64_t>(shape.layout()->minor_to_major.size()) == shape.rank()) {
    return shape.layout()->minor_to_major;
  }
  std::vector<int64_t> order(static_cast<size_t>(shape.rank()));
  std::iota(order.rbegin(), order.rend(), 0);
  return order;
}

// Physical order without size-1 dimensions, which never affect where bytes are.
std::vector<int64_t> NonDegenerateMinorToMajor(const Shape& shape) {
  std::vector<int64_t> order;
  for (int64_t dim : MinorToMajor(shape)) {
    if (shape.dimension(dim) != 1) order.push_back(dim);
  }
  return order;
}

int64_t ElementBytes(const Shape& shape) {
  return std::max<int64_t>(1, ir::PrimitiveTypeBitWidth(shape.element_type()) / 8);
}

bool IsIntegralScalarConstantOrBroadcastOfOne(const Instruction& instruction) {
  const Instruction* source = &instruction;
  if (source->opcode() == Opcode::kBroadcast) source = source->operand(0);
  return source->opcode() == Opcode::kConstant && IsEffectiveScalar(source->shape());
}

// The reduced dimensions of a reduce, or empty when not a reduce.
std::vector<int64_t> ReducedDimensions(const Instruction& reduce) {
  return reduce.dimensions().value_or(std::vector<int64_t>{});
}

// Whether `dims` occupy consecutive positions in the operand's physical order (size-1
// dimensions ignored).
bool AreConsecutive(const Shape& shape, const std::vector<int64_t>& dims) {
  const std::vector<int64_t> order = NonDegenerateMinorToMajor(shape);
  std::vector<size_t> positions;
  for (int64_t dim : dims) {
    auto it = std::find(order.begin(), order.end(), dim);
    if (it != order.end()) positions.push_back(static_cast<size_t>(it - order.begin()));
  }
  if (positions.empty()) return true;
  std::sort(positions.begin(), positions.end());
  return positions.back() - positions.front() + 1 == positions.size();
}

struct ReductionShape {
  bool is_row = false;
  int64_t reduced = 1;  // elements reduced per output (row) or the reduced major extent (column)
  int64_t kept_minor = 1;
};

std::optional<ReductionShape> ClassifyReduction(const Instruction& reduce) {
  if (reduce.opcode() != Opcode::kReduce || reduce.operand_count() < 2) return std::nullopt;
  const Shape& input = reduce.operand(0)->shape();
  if (!input.IsArray()) return std::nullopt;
  const std::vector<int64_t> reduced = ReducedDimensions(reduce);
  std::vector<int64_t> kept;
  for (int64_t d = 0; d < input.rank(); ++d) {
    if (std::find(reduced.begin(), reduced.end(), d) == reduced.end()) kept.push_back(d);
  }
  if (!AreConsecutive(input, kept) && !AreConsecutive(input, reduced)) return std::nullopt;
  const std::vector<int64_t> order = NonDegenerateMinorToMajor(input);
  ReductionShape shape;
  shape.is_row =
      order.empty() || std::find(reduced.begin(), reduced.end(), order.front()) != reduced.end();
  for (int64_t d : reduced) shape.reduced *= input.dimension(d);
  if (!shape.is_row) {
    for (int64_t d : kept) shape.kept_minor *= input.dimension(d);
  }
  return shape;
}

// XLA's IsUnnestedReductionFasterThanElemental with a warp of 32 threads.
bool ReductionEmitterIsFaster(const ReductionShape& shape) {
  constexpr int64_t kWarp = 32;
  if (shape.is_row) return shape.reduced >= kWarp || kWarp % shape.reduced == 0;
  const int64_t major = shape.reduced;
  const int64_t minor = shape.kept_minor;
  const bool elemental = major < kWarp || (major < 2 * kWarp && minor < kWarp) ||
                         (major < 4 * kWarp && minor < 8) || (major < 8 * kWarp && minor < 3);
  return !elemental;
}

// Transposes and copies: the input dimension that ends up most minor in the output.
std::optional<std::pair<int64_t, int64_t>> TransposeTileDims(const Instruction& instruction) {
  if (instruction.operand_count() != 1 || !instruction.shape().IsArray()) return std::nullopt;
  const Shape& in = instruction.operand(0)->shape();
  const Shape& out = instruction.shape();
  std::vector<int64_t> perm;
  if (instruction.opcode() == Opcode::kTranspose) {
    perm = instruction.dimensions().value_or(std::vector<int64_t>{});
  } else if (instruction.opcode() == Opcode::kCopy) {
    perm.resize(static_cast<size_t>(out.rank()));
    std::iota(perm.begin(), perm.end(), 0);
  } else {
    return std::nullopt;
  }
  if (static_cast<int64_t>(perm.size()) != out.rank() || in.rank() != out.rank()) {
    return std::nullopt;
  }
  const std::vector<int64_t> out_order = NonDegenerateMinorToMajor(out);
  const std::vector<int64_t> in_order = NonDegenerateMinorToMajor(in);
  if (out_order.empty() || in_order.empty()) return std::nullopt;
  const int64_t out_minor_source = perm[static_cast<size_t>(out_order.front())];
  if (out_minor_source == in_order.front()) return std::nullopt;  // minor dim stays minor
  return std::make_pair(in.dimension(in_order.front()), out.dimension(out_order.front()));
}

bool IsReduceIntermediate(const Instruction& instruction) {
  if (instruction.operand_count() > 1 || instruction.user_count() > 1) return false;
  switch (instruction.opcode()) {
    case Opcode::kBitcast:
    case Opcode::kBitcastConvert:
    case Opcode::kConvert:
      return true;
    case Opcode::kReshape:
      return IsBitcastLike(instruction);
    default:
      return false;
  }
}

// Roots of a fused body: the tuple's operands, or the root itself.
std::vector<const Instruction*> FusionRoots(const Instruction& instruction) {
  const Instruction& root = FusedRoot(instruction);
  if (!IsFusion(instruction) || root.opcode() != Opcode::kTuple) return {&root};
  return {root.operands().begin(), root.operands().end()};
}

// Whether some instruction on a path from `start` re-reads the value flowing from it.
bool PathReusesElements(const Instruction& start) {
  std::vector<const Instruction*> work{&start};
  std::unordered_set<const Instruction*> seen{&start};
  while (!work.empty()) {
    const Instruction* current = work.back();
    work.pop_back();
    for (const Instruction* user : current->users()) {
      for (int64_t i = 0; i < user->operand_count(); ++i) {
        if (user->operand(i) == current && ReusesOperandElements(*user, i)) return true;
      }
      if (seen.insert(user).second) work.push_back(user);
    }
  }
  return false;
}

std::string Plural(int64_t count, std::string_view word) {
  return std::to_string(count) + " " + std::string(word) + (count == 1 ? "" : "s");
}

}  // namespace

std::string_view FusionKindName(FusionKind kind) {
  switch (kind) {
    case FusionKind::kLoop:
      return "kLoop";
    case FusionKind::kInput:
      return "kInput";
    case FusionKind::kOutput:
      return "kOutput";
    case FusionKind::kCustom:
      return "kCustom";
  }
  return "kLoop";
}

std::optional<FusionKind> FusionKindOf(const Instruction& instruction) {
  if (instruction.opcode() != Opcode::kFusion) return std::nullopt;
  const std::string kind = instruction.fusion_kind();
  if (kind == "Loop") return FusionKind::kLoop;
  if (kind == "Input") return FusionKind::kInput;
  if (kind == "Output") return FusionKind::kOutput;
  if (kind == "Custom") return FusionKind::kCustom;
  return std::nullopt;
}

FusionLimits ResolveFusionLimits(const FusionLimits& given, FusionTarget target) {
  FusionLimits limits = given;
  if (target != FusionTarget::kCpu) return limits;
  const FusionLimits defaults;
  if (limits.max_operands_and_outputs == defaults.max_operands_and_outputs) {
    limits.max_operands_and_outputs = kCpuMaxOperandsAndOutputs;
  }
  if (limits.max_reductions == defaults.max_reductions) limits.max_reductions = kCpuMaxReductions;
  return limits;
}

std::vector<ir::Computation*> FusibleComputations(const ir::Module& module) {
  std::unordered_set<const ir::Computation*> excluded;
  for (const auto& computation : module.computations()) {
    if (computation->fusion_instruction() != nullptr) excluded.insert(computation.get());
    for (const auto& instruction : computation->instructions()) {
      switch (instruction->opcode()) {
        case Opcode::kWhile:
        case Opcode::kConditional:
        case Opcode::kCall:
          break;
        default:
          for (const ir::Computation* callee : instruction->called_computations()) {
            excluded.insert(callee);
          }
      }
    }
  }
  std::vector<ir::Computation*> result;
  for (ir::Computation* computation : module.MakeComputationPostOrder()) {
    if (!excluded.count(computation)) result.push_back(computation);
  }
  return result;
}

std::string Ref(const Instruction& instruction) { return "%" + instruction.name(); }

bool IsFusion(const Instruction& instruction) {
  return instruction.opcode() == Opcode::kFusion && instruction.fused_computation() != nullptr &&
         instruction.fused_computation()->root() != nullptr;
}

bool IsMultiOutputFusion(const Instruction& instruction) {
  return IsFusion(instruction) &&
         instruction.fused_computation()->root()->opcode() == Opcode::kTuple;
}

const Instruction& FusedRoot(const Instruction& instruction) {
  return IsFusion(instruction) ? *instruction.fused_computation()->root() : instruction;
}

int64_t FusedInstructionCount(const Instruction& instruction) {
  if (!IsFusion(instruction)) return 1;
  int64_t count = 0;
  for (const auto& inner : instruction.fused_computation()->instructions()) {
    if (inner->opcode() != Opcode::kParameter) ++count;
  }
  return count;
}

std::vector<const Instruction*> FusedInstructions(const Instruction& instruction) {
  if (!IsFusion(instruction)) return {&instruction};
  std::vector<const Instruction*> result;
  for (const auto& inner : instruction.fused_computation()->instructions()) {
    if (inner->opcode() != Opcode::kParameter) result.push_back(inner.get());
  }
  return result;
}

int64_t OutputBufferCount(const Shape& shape) {
  if (!shape.IsTuple()) return 1;
  int64_t count = 0;
  for (const Shape& element : shape.tuple_shapes()) count += OutputBufferCount(element);
  return count;
}

bool IsEffectiveScalar(const Shape& shape) { return shape.IsArray() && shape.ElementCount() == 1; }

bool IsElementwise(const Instruction& instruction) {
  return ir::IsElementwiseOpcode(instruction.opcode()) || instruction.opcode() == Opcode::kConstant;
}

bool IsCustomCall(const Instruction& instruction) {
  return instruction.opcode() == Opcode::kCustomCall;
}

bool IsBitcastLike(const Instruction& instruction) {
  switch (instruction.opcode()) {
    case Opcode::kBitcast:
      return true;
    case Opcode::kReshape: {
      const Shape& in = instruction.operand(0)->shape();
      const Shape& out = instruction.shape();
      if (!in.IsArray() || !out.IsArray()) return false;
      // Row-major on both sides keeps linear order; otherwise only size-1 dims may move.
      const auto is_default = [](const Shape& shape) {
        const std::vector<int64_t> order = MinorToMajor(shape);
        return std::is_sorted(order.rbegin(), order.rend());
      };
      if (is_default(in) && is_default(out)) return true;
      std::vector<int64_t> in_sizes;
      std::vector<int64_t> out_sizes;
      for (int64_t d : NonDegenerateMinorToMajor(in)) in_sizes.push_back(in.dimension(d));
      for (int64_t d : NonDegenerateMinorToMajor(out)) out_sizes.push_back(out.dimension(d));
      return in_sizes == out_sizes;
    }
    case Opcode::kTranspose: {
      const std::vector<int64_t> perm = instruction.dimensions().value_or(std::vector<int64_t>{});
      const Shape& in = instruction.operand(0)->shape();
      const Shape& out = instruction.shape();
      if (static_cast<int64_t>(perm.size()) != out.rank()) return false;
      std::vector<int64_t> mapped;
      for (int64_t d : NonDegenerateMinorToMajor(out))
        mapped.push_back(perm[static_cast<size_t>(d)]);
      return mapped == NonDegenerateMinorToMajor(in);
    }
    default:
      return false;
  }
}

bool IsExpensive(const Instruction& instruction) {
  const Opcode opcode = instruction.opcode();
  switch (opcode) {
    case Opcode::kAbs:
    case Opcode::kCos:
    case Opcode::kSign:
    case Opcode::kSin:
      return ir::IsComplexType(instruction.shape().element_type());
    case Opcode::kDivide:
    case Opcode::kRemainder:
      // Integer division by a constant compiles to multiplies and shifts.
      return !ir::IsIntegralType(instruction.shape().element_type()) ||
             !IsIntegralScalarConstantOrBroadcastOfOne(*instruction.operand(1));
    case Opcode::kConvert:
      // Narrowing f32 -> bf16 needs rounding logic on CPUs without native bf16.
      return instruction.operand(0)->shape().element_type() == ir::PrimitiveType::kF32 &&
             instruction.shape().element_type() == ir::PrimitiveType::kBF16;
    case Opcode::kDot:
    case Opcode::kConvolution:
    case Opcode::kReduce:
    case Opcode::kReduceWindow:
    case Opcode::kGather:
    case Opcode::kScatter:
    case Opcode::kSort:
    case Opcode::kFft:
    case Opcode::kFusion:
    case Opcode::kMap:
    case Opcode::kCall:
    case Opcode::kWhile:
    case Opcode::kConditional:
    case Opcode::kCustomCall:
    case Opcode::kParameter:
    case Opcode::kSelectAndScatter:
    case Opcode::kTriangularSolve:
    case Opcode::kCholesky:
    case Opcode::kBatchNormGrad:
    case Opcode::kBatchNormInference:
    case Opcode::kBatchNormTraining:
    case Opcode::kRngBitGenerator:
    case Opcode::kUnknown:
      return true;
    default:
      return ir::IsTranscendental(opcode) || ir::OpcodeHasSideEffect(opcode);
  }
}

bool IsAlwaysDuplicable(const Instruction& instruction) {
  if (instruction.opcode() == Opcode::kBroadcast) return true;
  return instruction.opcode() == Opcode::kConvert &&
         instruction.operand(0)->shape().ByteSize() < instruction.shape().ByteSize();
}

bool EffectivelyAtMostUnary(const Instruction& instruction) {
  int64_t output_rank = 0;
  const std::function<void(const Shape&)> visit = [&](const Shape& shape) {
    if (shape.IsTuple()) {
      for (const Shape& element : shape.tuple_shapes()) visit(element);
    } else if (shape.IsArray()) {
      int64_t true_rank = 0;
      for (int64_t d : shape.dimensions()) true_rank += d != 1 ? 1 : 0;
      output_rank = std::max(output_rank, true_rank);
    }
  };
  visit(instruction.shape());
  int64_t large = 0;
  for (const Instruction* operand : instruction.operands()) {
    if (operand->opcode() == Opcode::kBroadcast || operand->opcode() == Opcode::kIota) continue;
    if (operand->opcode() == Opcode::kConstant && IsEffectiveScalar(operand->shape())) continue;
    int64_t true_rank = 0;
    if (operand->shape().IsArray()) {
      for (int64_t d : operand->shape().dimensions()) true_rank += d != 1 ? 1 : 0;
    }
    if (true_rank >= output_rank) ++large;
  }
  return large <= 1;
}

bool ReadsElementsMultipleTimes(const Instruction& instruction) {
  switch (instruction.opcode()) {
    case Opcode::kGather:
    case Opcode::kBroadcast:
      return instruction.shape().IsArray() && instruction.operand_count() > 0 &&
             instruction.shape().ElementCount() > instruction.operand(0)->shape().ElementCount();
    case Opcode::kReduceWindow: {
      std::optional<std::string_view> text = instruction.attribute("window");
      if (!text) return false;
      StatusOr<std::vector<ir::WindowDimension>> window = ir::ParseWindow(*text);
      if (!window.ok()) return false;
      return std::any_of(window->begin(), window->end(),
                         [](const auto& dim) { return dim.size > dim.stride; });
    }
    default:
      return false;
  }
}

bool ReusesOperandElements(const Instruction& consumer, int64_t operand_index) {
  const Opcode opcode = consumer.opcode();
  if (IsElementwise(consumer)) return false;
  switch (opcode) {
    case Opcode::kBitcast:
    case Opcode::kReshape:
    case Opcode::kTranspose:
    case Opcode::kSlice:
    case Opcode::kDynamicSlice:
    case Opcode::kReverse:
    case Opcode::kConcatenate:
    case Opcode::kCopy:
    case Opcode::kTuple:
    case Opcode::kGetTupleElement:
    case Opcode::kDynamicUpdateSlice:
      return false;
    case Opcode::kPad:
      return operand_index > 0;
    case Opcode::kReduce:
      return operand_index >= consumer.operand_count() / 2;
    case Opcode::kBroadcast:
    case Opcode::kGather:
    case Opcode::kReduceWindow:
      return operand_index > 0 || ReadsElementsMultipleTimes(consumer);
    case Opcode::kFusion: {
      if (!IsFusion(consumer)) return true;
      const Instruction* param = consumer.fused_computation()->parameter(operand_index);
      return param != nullptr && PathReusesElements(*param);
    }
    default:
      return true;
  }
}

bool IsExpensiveToRepeat(const Instruction& instruction) {
  constexpr int64_t kMaxInputsPerOutput = 10;
  if (instruction.opcode() == Opcode::kReduce &&
      !IsReductionFromOrToContiguousDimensions(instruction)) {
    const int64_t out = std::max<int64_t>(
        1, instruction.shape().IsArray() ? instruction.shape().ElementCount() : 1);
    return instruction.operand(0)->shape().ElementCount() / out > kMaxInputsPerOutput;
  }
  if (instruction.opcode() == Opcode::kReduceWindow) {
    std::optional<std::string_view> text = instruction.attribute("window");
    if (!text) return false;
    StatusOr<std::vector<ir::WindowDimension>> window = ir::ParseWindow(*text);
    if (!window.ok()) return false;
    int64_t ratio = 1;
    for (const auto& dim : *window) ratio *= dim.size;
    return ratio > kMaxInputsPerOutput;
  }
  return false;
}

std::string CostClassPhrase(const Instruction& instruction) {
  const Opcode opcode = instruction.opcode();
  if (ir::IsTranscendental(opcode)) return "a transcendental";
  switch (opcode) {
    case Opcode::kDot:
      return "a dot";
    case Opcode::kConvolution:
      return "a convolution";
    case Opcode::kReduce:
    case Opcode::kReduceWindow:
      return "a reduction";
    case Opcode::kGather:
      return "a gather";
    case Opcode::kSort:
      return "a sort";
    case Opcode::kDivide:
    case Opcode::kRemainder:
      return "a division";
    case Opcode::kConvert:
      return "a narrowing convert";
    case Opcode::kFusion:
      return "a fusion";
    default:
      return "an expensive op";
  }
}

bool IsCpuLoopFusible(const Instruction& instruction) {
  if (IsElementwise(instruction)) return true;
  switch (instruction.opcode()) {
    case Opcode::kBitcast:
    case Opcode::kBroadcast:
    case Opcode::kConcatenate:
    case Opcode::kDynamicSlice:
    case Opcode::kDynamicUpdateSlice:
    case Opcode::kGather:
    case Opcode::kIota:
    case Opcode::kPad:
    case Opcode::kReduce:
    case Opcode::kReshape:
    case Opcode::kReverse:
    case Opcode::kSlice:
    case Opcode::kTranspose:
      return true;
    default:
      return false;
  }
}

namespace {

bool IsUniversallyLoopFusible(const Instruction& instruction) {
  const Opcode opcode = instruction.opcode();
  if (opcode == Opcode::kCopy) return !IsTiledTranspose(instruction);
  if (ir::IsElementwiseOpcode(opcode)) return instruction.operand_count() > 0;
  switch (opcode) {
    case Opcode::kBitcast:
    case Opcode::kBroadcast:
    case Opcode::kConcatenate:
    case Opcode::kDynamicSlice:
    case Opcode::kDynamicUpdateSlice:
    case Opcode::kGather:
    case Opcode::kPad:
    case Opcode::kReduceWindow:
    case Opcode::kReshape:
    case Opcode::kReverse:
    case Opcode::kSlice:
    case Opcode::kTranspose:
      return true;
    case Opcode::kFusion:
      return FusionKindOf(instruction) == FusionKind::kLoop;
    default:
      return false;
  }
}

bool IsBasicallyFusible(const Instruction& instruction) {
  return !instruction.HasSideEffect() && instruction.opcode() != Opcode::kParameter &&
         instruction.opcode() != Opcode::kCustomCall;
}

}  // namespace

bool IsGpuLoopFusibleAsProducer(const Instruction& instruction) {
  if (!IsBasicallyFusible(instruction)) return false;
  if (IsUniversallyLoopFusible(instruction)) return true;
  switch (instruction.opcode()) {
    case Opcode::kIota:
    case Opcode::kConstant:
      return true;
    case Opcode::kReduce:
      return !instruction.shape().IsTuple();
    default:
      return false;
  }
}

bool IsGpuLoopFusibleAsConsumer(const Instruction& instruction) {
  if (!IsBasicallyFusible(instruction)) return false;
  return IsUniversallyLoopFusible(instruction) || instruction.opcode() == Opcode::kReduce;
}

bool IsInputFusion(const Instruction& instruction) {
  return FusionKindOf(instruction) == FusionKind::kInput;
}

bool IsReduceInputFusion(const Instruction& instruction) {
  if (!IsFusion(instruction)) return false;
  for (const Instruction* root : FusionRoots(instruction)) {
    const Instruction* hero = FindHero(*root);
    if (hero && hero->opcode() == Opcode::kReduce) return true;
  }
  return false;
}

bool IsGpuFusible(const Instruction& instruction) {
  if (!IsBasicallyFusible(instruction)) return false;
  if (instruction.opcode() == Opcode::kFusion) {
    const std::optional<FusionKind> kind = FusionKindOf(instruction);
    return kind == FusionKind::kLoop || kind == FusionKind::kInput;
  }
  return IsGpuLoopFusibleAsProducer(instruction) || IsGpuLoopFusibleAsConsumer(instruction) ||
         instruction.opcode() == Opcode::kScatter;
}

bool IsReductionFromOrToContiguousDimensions(const Instruction& instruction) {
  const std::optional<ReductionShape> shape = ClassifyReduction(instruction);
  return shape && ReductionEmitterIsFaster(*shape);
}

bool IsTiledTranspose(const Instruction& instruction) {
  const auto dims = TransposeTileDims(instruction);
  if (!dims) return false;
  const auto [in_minor, out_minor] = *dims;
  return (in_minor >= 16 && out_minor >= 16) ||
         (in_minor >= 8 && out_minor >= 8 && in_minor * out_minor >= 64 * 128);
}

bool IsPhysicallyTransposing(const Instruction& instruction) {
  for (const Instruction* inner : FusedInstructions(instruction)) {
    if (inner->opcode() == Opcode::kCopy && TransposeTileDims(*inner)) return true;
    if (inner->opcode() == Opcode::kTranspose && !IsBitcastLike(*inner)) return true;
  }
  return false;
}

const Instruction* FindHero(const Instruction& root) {
  const Instruction* current = &root;
  while (IsReduceIntermediate(*current) && current->operand_count() == 1) {
    const Instruction* operand = current->operand(0);
    if (operand->opcode() == Opcode::kParameter || operand->user_count() > 1) break;
    current = operand;
  }
  if (IsReductionFromOrToContiguousDimensions(*current) || IsTiledTranspose(*current)) {
    return current;
  }
  return nullptr;
}

FusionKind ChooseGpuFusionKind(const Instruction& instruction) {
  for (const Instruction* root : FusionRoots(instruction)) {
    if (FindHero(*root) != nullptr) return FusionKind::kInput;
  }
  return FusionKind::kLoop;
}

bool ContainsSignificantReduce(const Instruction& instruction) {
  for (const Instruction* inner : FusedInstructions(instruction)) {
    if (inner->opcode() != Opcode::kReduce || !inner->shape().IsArray()) continue;
    const int64_t out = std::max<int64_t>(1, inner->shape().ElementCount());
    if (inner->operand(0)->shape().ElementCount() / out >= 16) return true;
  }
  return false;
}

FusionFootprint MeasureFusion(const std::vector<const Instruction*>& members,
                              const std::vector<const Instruction*>& outputs) {
  const std::unordered_set<const Instruction*> inside(members.begin(), members.end());
  std::unordered_set<const Instruction*> operands;
  FusionFootprint footprint;
  for (const Instruction* member : members) {
    for (const Instruction* operand : member->operands()) {
      if (!inside.count(operand)) operands.insert(operand);
    }
    const FusionFootprint own = MeasureInstruction(*member);
    footprint.instructions += own.instructions;
    footprint.reductions += own.reductions;
    footprint.unnested_reductions += own.unnested_reductions;
    footprint.shared_memory_bytes += own.shared_memory_bytes;
  }
  footprint.operands = static_cast<int64_t>(operands.size());
  for (const Instruction* output : outputs) footprint.outputs += OutputBufferCount(output->shape());
  return footprint;
}

FusionFootprint MeasureInstruction(const Instruction& instruction) {
  FusionFootprint footprint;
  std::unordered_set<const Instruction*> operands(instruction.operands().begin(),
                                                  instruction.operands().end());
  footprint.operands = static_cast<int64_t>(operands.size());
  footprint.outputs = OutputBufferCount(instruction.shape());
  for (const Instruction* inner : FusedInstructions(instruction)) {
    ++footprint.instructions;
    if (inner->opcode() == Opcode::kReduce) {
      ++footprint.reductions;
      const std::optional<ReductionShape> shape = ClassifyReduction(*inner);
      if (shape && ReductionEmitterIsFaster(*shape)) {
        ++footprint.unnested_reductions;
        const int64_t bytes = ElementBytes(inner->operand(0)->shape());
        const int64_t variadic = inner->operand_count() / 2;
        footprint.shared_memory_bytes +=
            (shape->is_row ? 32 * bytes : 2 * 32 * 33 * bytes) * std::max<int64_t>(1, variadic);
      }
    } else if (IsTiledTranspose(*inner)) {
      footprint.shared_memory_bytes += 32 * 33 * ElementBytes(inner->shape());
    }
  }
  return footprint;
}

FusionDecision CheckOperandBudget(const FusionFootprint& fused, int64_t current_operands,
                                  int64_t limit) {
  if (fused.operands_and_outputs() <= limit) return FusionDecision::Allow();
  // A fusion that reads no more operands than the consumer already did does not grow.
  if (current_operands >= 0 && fused.operands <= current_operands) return FusionDecision::Allow();
  return FusionDecision::Refuse(FusionReason::kTooManyOperands,
                                "fusion would have " +
                                    std::to_string(fused.operands_and_outputs()) +
                                    " operands+outputs, limit is " + std::to_string(limit));
}

FusionDecision CheckReductionBudget(const FusionFootprint& fused, int64_t limit,
                                    bool unnested_only) {
  const int64_t count = unnested_only ? fused.unnested_reductions : fused.reductions;
  if (count <= limit) return FusionDecision::Allow();
  if (unnested_only) {
    return FusionDecision::Refuse(FusionReason::kTooManyReductions,
                                  "fusion would contain " + std::to_string(count) +
                                      " unnested reductions, limit is " + std::to_string(limit) +
                                      " (each one needs its own registers; more would spill)");
  }
  return FusionDecision::Refuse(
      FusionReason::kTooManyReductions,
      "fusion would contain " + Plural(count, "reduction") + ", limit is " + std::to_string(limit));
}

FusionDecision CheckInstructionBudget(const FusionFootprint& fused, int64_t limit) {
  if (fused.instructions <= limit) return FusionDecision::Allow();
  return FusionDecision::Refuse(FusionReason::kSizeLimit,
                                "fusion would hold " + std::to_string(fused.instructions) +
                                    " instructions, limit is " + std::to_string(limit));
}

FusionDecision CheckSharedMemoryBudget(const FusionFootprint& fused, int64_t limit) {
  if (fused.shared_memory_bytes <= limit) return FusionDecision::Allow();
  return FusionDecision::Refuse(FusionReason::kSizeLimit,
                                "fusion would use " + std::to_string(fused.shared_memory_bytes) +
                                    " bytes of shared memory per block, budget is " +
                                    std::to_string(limit) + " bytes");
}

FusionDecision CheckOpaqueOrSideEffecting(const Instruction& producer,
                                          const Instruction& consumer) {
  for (const Instruction* instruction : {&producer, &consumer}) {
    if (IsCustomCall(*instruction)) {
      const std::string target(instruction->attribute("custom_call_target").value_or("?"));
      return FusionDecision::Refuse(
          FusionReason::kOpaqueCustomCall,
          Ref(*instruction) + " is a custom-call to " + target +
              ", opaque code that fusion cannot see into or emit inside a kernel");
    }
    if (instruction->HasSideEffect()) {
      return FusionDecision::Refuse(
          FusionReason::kSideEffect,
          Ref(*instruction) + " (" + std::string(instruction->opcode_name()) +
              ") has side effects; fusing it could change when or how often they happen");
    }
  }
  return FusionDecision::Allow();
}

FusionDecision CheckTupleShapedMember(const Instruction& instruction) {
  if (!instruction.shape().IsTuple()) return FusionDecision::Allow();
  const std::string shape = instruction.shape().ToString(false);
  if (!IsMultiOutputFusion(instruction)) {
    return FusionDecision::Refuse(
        FusionReason::kMultiOutputNotPossible,
        Ref(instruction) + " produces a tuple " + shape +
            " without being a multi-output fusion; a tuple cannot be one output of a fusion");
  }
  if (instruction.IsRoot()) {
    return FusionDecision::Refuse(FusionReason::kMultiOutputNotPossible,
                                  Ref(instruction) +
                                      " is a multi-output fusion whose tuple is "
                                      "the result of " +
                                      instruction.parent()->name() +
                                      "; the tuple itself would have to stay");
  }
  bool read = false;
  for (const Instruction* user : instruction.users()) {
    if (user->opcode() != Opcode::kGetTupleElement) {
      return FusionDecision::Refuse(FusionReason::kMultiOutputNotPossible,
                                    Ref(instruction) +
                                        " is a multi-output fusion whose tuple is read whole by " +
                                        Ref(*user) + "; the tuple itself would have to stay");
    }
    read = read || user->user_count() > 0 || user->IsRoot();
  }
  // Fusing into a fusion can drop an operand its body never read, which leaves that operand's
  // producer dead until the next clean-up.
  if (!read) {
    return FusionDecision::Refuse(FusionReason::kNoUsers,
                                  Ref(instruction) +
                                      " is a multi-output fusion none of whose "
                                      "elements is read; a fusion of it would "
                                      "have no output");
  }
  return FusionDecision::Allow();
}

bool IsGpuReductionProducer(const Instruction& instruction) {
  return IsReductionFromOrToContiguousDimensions(instruction) || IsReduceInputFusion(instruction);
}

namespace {

bool AllReduceIntermediates(const Instruction& instruction) {
  for (const Instruction* inner : FusedInstructions(instruction)) {
    if (!IsReduceIntermediate(*inner)) return false;
  }
  return true;
}

bool IsInputFusibleConsumer(const Instruction& instruction) {
  return instruction.opcode() == Opcode::kReduce || instruction.opcode() == Opcode::kScatter ||
         IsInputFusion(instruction);
}

std::string NotFusibleOnGpu(const Instruction& instruction) {
  const Opcode opcode = instruction.opcode();
  const std::string what = Ref(instruction) + " (" + std::string(instruction.opcode_name()) + ")";
  if (opcode == Opcode::kDot || opcode == Opcode::kConvolution) {
    return what + " runs as a library call (cuBLAS/cuDNN), not inside a fusion";
  }
  return what + " is not fusible on the GPU";
}

}  // namespace

FusionDecision GpuProducerConsumerFusible(const Instruction& producer,
                                          const Instruction& consumer) {
  if (FusionDecision d = CheckOpaqueOrSideEffecting(producer, consumer); !d) return d;
  if (FusionDecision d = CheckTupleShapedMember(producer); !d) return d;
  if (FusionDecision d = CheckTupleShapedMember(consumer); !d) return d;
  if (!IsGpuFusible(producer)) {
    return FusionDecision::Refuse(FusionReason::kProducerNotFusible, NotFusibleOnGpu(producer));
  }
  if (!IsGpuFusible(consumer)) {
    return FusionDecision::Refuse(FusionReason::kConsumerNotFusible, NotFusibleOnGpu(consumer));
  }
  if (consumer.opcode() == Opcode::kBitcast) {
    return FusionDecision::Refuse(
        FusionReason::kConsumerNotFusible,
        Ref(consumer) + " is a bitcast; not fusing into a single bitcast as consumer");
  }
  if (IsMultiOutputFusion(producer)) {
    return FusionDecision::Refuse(
        FusionReason::kProducerNotFusible,
        Ref(producer) + " is a multi-output fusion; it is not fused into its users");
  }
  if (IsGpuReductionProducer(producer)) {
    if (!AllReduceIntermediates(consumer)) {
      return FusionDecision::Refuse(
          FusionReason::kProducerIsReduction,
          Ref(producer) + " is a reduction; fusing " + Ref(consumer) +
              " into its output would turn the reduction kernel into a loop fusion (reduction "
              "epilogues are not fused)");
    }
    if (producer.user_count() > 1) {
      return FusionDecision::Refuse(FusionReason::kProducerIsReduction,
                                    "reduction output fusion only works for a single user; " +
                                        Ref(producer) + " has " +
                                        std::to_string(producer.user_count()));
    }
  } else if (!IsGpuLoopFusibleAsProducer(producer)) {
    return FusionDecision::Refuse(
        FusionReason::kProducerNotFusible,
        Ref(producer) + " (" + std::string(producer.opcode_name()) + ") is not loop-fusible");
  }
  if (!IsGpuLoopFusibleAsConsumer(consumer) && !IsInputFusibleConsumer(consumer)) {
    return FusionDecision::Refuse(FusionReason::kConsumerNotFusible,
                                  Ref(consumer) + " is neither input-fusible nor loop-fusible");
  }
  if (producer.opcode() == Opcode::kConstant && !IsEffectiveScalar(producer.shape())) {
    return FusionDecision::Refuse(
        FusionReason::kNonScalarConstant,
        Ref(producer) + " is a non-scalar constant (" + producer.shape().ToString(false) +
            "); it stays in memory instead of being emitted into the kernel");
  }
  return CheckInPlaceUpdate(producer, consumer);
}

FusionDecision GpuFusionFitsInBudget(const Instruction& producer, const Instruction& consumer,
                                     const FusionLimits& limits, bool multi_output) {
  const std::vector<const Instruction*> outputs =
      multi_output ? std::vector<const Instruction*>{&consumer, &producer}
                   : std::vector<const Instruction*>{&consumer};
  const FusionFootprint fused = MeasureFusion({&producer, &consumer}, outputs);
  const int64_t current = multi_output ? -1 : MeasureInstruction(consumer).operands;
  for (FusionDecision d :
       {CheckSharedMemoryBudget(fused, kGpuSharedMemoryPerBlock),
        CheckReductionBudget(fused, limits.max_reductions, /*unnested_only=*/true),
        CheckOperandBudget(fused, current, limits.max_operands_and_outputs),
        CheckInstructionBudget(fused, limits.max_instructions)}) {
    if (!d) return d;
  }
  return FusionDecision::Allow();
}

bool CreatesHeavyComputation(const Instruction& producer, const Instruction& consumer) {
  const std::vector<const Instruction*> inside = FusedInstructions(producer);
  const bool heavy = std::any_of(inside.begin(), inside.end(),
                                 [](const Instruction* i) { return IsExpensiveToRepeat(*i); });
  if (!heavy) return false;
  if (!IsFusion(consumer)) return ReadsElementsMultipleTimes(consumer);
  for (int64_t i = 0; i < consumer.operand_count(); ++i) {
    if (consumer.operand(i) != &producer) continue;
    std::vector<const Instruction*> work{consumer.fused_computation()->parameter(i)};
    std::unordered_set<const Instruction*> seen(work.begin(), work.end());
    while (!work.empty()) {
      const Instruction* current = work.back();
      work.pop_back();
      if (current == nullptr) continue;
      if (ReadsElementsMultipleTimes(*current)) return true;
      for (const Instruction* user : current->users()) {
        if (seen.insert(user).second) work.push_back(user);
      }
    }
  }
  return false;
}

namespace {

// The operand of `consumer` that a dynamic-update-slice in it overwrites in place, or null.
const Instruction* InPlaceBuffer(const Instruction& consumer) {
  if (consumer.opcode() == Opcode::kDynamicUpdateSlice) return consumer.operand(0);
  if (!IsFusion(consumer)) return nullptr;
  for (const Instruction* inner : FusedInstructions(consumer)) {
    if (inner->opcode() != Opcode::kDynamicUpdateSlice) continue;
    const Instruction* buffer = inner->operand(0);
    if (buffer->opcode() == Opcode::kParameter) {
      return consumer.operand(buffer->parameter_number());
    }
  }
  return nullptr;
}

}  // namespace

FusionDecision CheckInPlaceUpdate(const Instruction& producer, const Instruction& consumer) {
  const Instruction* buffer = InPlaceBuffer(consumer);
  if (buffer == nullptr || IsElementwise(producer)) return FusionDecision::Allow();
  const auto& operands = producer.operands();
  if (std::find(operands.begin(), operands.end(), buffer) == operands.end()) {
    return FusionDecision::Allow();
  }
  return FusionDecision::Refuse(
      FusionReason::kSideEffect,
      Ref(consumer) + " updates " + Ref(*buffer) + " in place and " + Ref(producer) +
          " reads it too; fused, it could read elements already overwritten");
}

FusionDecisionRecord MakeDecisionRecord(const Instruction& producer, const Instruction& consumer,
                                        const FusionDecision& decision) {
  FusionDecisionRecord record;
  record.producer_id = producer.id();
  record.producer_name = producer.name();
  record.producer_opcode = std::string(producer.opcode_name());
  record.consumer_id = consumer.id();
  record.consumer_name = consumer.name();
  record.consumer_opcode = std::string(consumer.opcode_name());
  record.computation = consumer.parent() ? consumer.parent()->name() : "";
  record.reason = decision.reason();
  record.explanation = decision.explanation();
  return record;
}

std::string FusedSentence(const FusionDecisionRecord& before, bool consumer_was_fusion, bool copy,
                          const Instruction& fusion) {
  std::string sentence =
      std::string(copy ? "fused a copy of %" : "fused %") + before.producer_name + " into %";
  sentence +=
      consumer_was_fusion ? fusion.name() : before.consumer_name + ", forming %" + fusion.name();
  const std::optional<FusionKind> kind = FusionKindOf(fusion);
  return sentence + " (" + std::string(FusionKindName(kind.value_or(FusionKind::kLoop))) + ")";
}

int64_t CountFusions(const ir::Module& module) {
  int64_t count = 0;
  for (const ir::Computation* computation : FusibleComputations(module)) {
    for (const auto& instruction : computation->instructions()) {
      count += instruction->opcode() == Opcode::kFusion ? 1 : 0;
    }
  }
  return count;
}

StatusOr<bool> RunOnFusibleComputations(
    ir::Module& module, PassContext& context, std::string_view count_stat,
    const std::function<StatusOr<int64_t>(ir::Computation&, FusionDecisionRecorder&)>& run_one) {
  FusionDecisionRecorder recorder(context);
  int64_t total = 0;
  for (ir::Computation* computation : FusibleComputations(module)) {
    StatusOr<int64_t> count = run_one(*computation, recorder);
    if (!count.ok()) return count.status();
    total += *count;
  }
  context.AddStat(std::string(count_stat), std::to_string(total));
  context.AddStat("fusions", std::to_string(CountFusions(module)));
  return total > 0;
}

}  // namespace fusescope::passes
