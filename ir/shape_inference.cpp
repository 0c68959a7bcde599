#include "ir/shape_inference.h"

#include <algorithm>
#include <unordered_set>

#include "ir/shape_inference_internal.h"

namespace fusescope::ir {
namespace inference {

std::string ShapeText(const Shape& shape) { return shape.ToString(/*with_layout=*/false); }

std::string ListText(const std::vector<int64_t>& values) {
  std::string out = "{";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) out += ',';
    out += std::to_string(values[i]);
  }
  return out + "}";
}

std::string TypeText(PrimitiveType type) { return std::string(PrimitiveTypeName(type)); }

std::string InstructionText(const Instruction& instruction) { return "%" + instruction.name(); }

Status ExpectOperandCount(const Instruction& instruction, int64_t count) {
  if (instruction.operand_count() == count) return Status::Ok();
  return Status::Error(std::string(instruction.opcode_name()) + " takes " + std::to_string(count) +
                       " operands, has " + std::to_string(instruction.operand_count()));
}

StatusOr<const Shape*> ArrayOperand(const Instruction& instruction, int64_t index) {
  if (index >= instruction.operand_count()) {
    return Status::Error("operand " + std::to_string(index) + " is missing");
  }
  const Shape& shape = instruction.operand(index)->shape();
  if (!shape.IsArray()) {
    return Status::Error("operand " + std::to_string(index) + " shape " + ShapeText(shape) +
                         " is not an array");
  }
  return &shape;
}

StatusOr<const Shape*> ArrayResult(const Instruction& instruction) {
  const Shape& shape = instruction.shape();
  if (!shape.IsArray()) {
    return Status::Error("shape " + ShapeText(shape) + " is not an array");
  }
  return &shape;
}

StatusOr<std::vector<int64_t>> OptionalIntList(const Instruction& instruction,
                                               std::string_view key) {
  if (!instruction.attribute(key)) return std::vector<int64_t>{};
  std::optional<std::vector<int64_t>> values = instruction.IntListAttribute(key);
  if (!values) {
    return Status::Error("attribute " + std::string(key) + "=" +
                         std::string(*instruction.attribute(key)) + " is not an integer list");
  }
  return *values;
}

StatusOr<std::vector<int64_t>> RequiredIntList(const Instruction& instruction,
                                               std::string_view key) {
  if (!instruction.attribute(key)) {
    return Status::Error("missing attribute " + std::string(key) + "=");
  }
  return OptionalIntList(instruction, key);
}

StatusOr<int64_t> RequiredInt(const Instruction& instruction, std::string_view key) {
  std::optional<std::string_view> raw = instruction.attribute(key);
  if (!raw) return Status::Error("missing attribute " + std::string(key) + "=");
  std::optional<int64_t> value = instruction.IntAttribute(key);
  if (!value) {
    return Status::Error("attribute " + std::string(key) + "=" + std::string(*raw) +
                         " is not an integer");
  }
  return *value;
}

StatusOr<std::string_view> RequiredAttribute(const Instruction& instruction, std::string_view key) {
  std::optional<std::string_view> raw = instruction.attribute(key);
  if (!raw) return Status::Error("missing attribute " + std::string(key) + "=");
  return *raw;
}

Status CheckDimensions(std::string_view what, const std::vector<int64_t>& dims, int64_t rank) {
  std::unordered_set<int64_t> seen;
  for (int64_t dim : dims) {
    if (dim < 0 || dim >= rank) {
      return Status::Error(std::string(what) + "=" + ListText(dims) + ": dimension " +
                           std::to_string(dim) + " out of range for rank " + std::to_string(rank));
    }
    if (!seen.insert(dim).second) {
      return Status::Error(std::string(what) + "=" + ListText(dims) + ": dimension " +
                           std::to_string(dim) + " repeats");
    }
  }
  return Status::Ok();
}

bool SameArrayShape(const Shape& a, const Shape& b) {
  return a.element_type() == b.element_type() && a.dimensions() == b.dimensions();
}

bool SameTypeIgnoringFpPrecision(PrimitiveType a, PrimitiveType b) {
  return a == b || (IsFloatingPointType(a) && IsFloatingPointType(b));
}

Status ExpectOperandShape(const Instruction& instruction, int64_t index, const Shape& expected) {
  const Shape& actual = instruction.operand(index)->shape();
  if (actual.Compatible(expected)) return Status::Ok();
  return Status::Error("operand " + std::to_string(index) + " shape " + ShapeText(actual) +
                       " does not match " + ShapeText(expected));
}

StatusOr<const Computation*> CalledComputation(const Instruction& instruction,
                                               std::string_view key) {
  std::vector<Computation*> called = instruction.CalledComputations(key);
  if (called.size() != 1) {
    return Status::Error(std::string(instruction.opcode_name()) + " needs one computation in " +
                         std::string(key) + "=, has " + std::to_string(called.size()));
  }
  return called.front();
}

StatusOr<std::vector<PrimitiveType>> ScalarResults(const Computation& computation,
                                                   std::string_view key, size_t count) {
  const Shape& result = computation.root()->shape();
  std::vector<const Shape*> leaves;
  if (result.IsTuple()) {
    for (const Shape& element : result.tuple_shapes()) leaves.push_back(&element);
  } else {
    leaves.push_back(&result);
  }
  bool scalars = leaves.size() == count;
  std::vector<PrimitiveType> types;
  for (const Shape* leaf : leaves) {
    scalars = scalars && leaf->IsScalar();
    types.push_back(leaf->element_type());
  }
  if (!scalars) {
    return Status::Error(std::string(key) + " computation " + computation.name() + " returns " +
                         ShapeText(result) + ", expected " + std::to_string(count) + " scalar" +
                         (count == 1 ? "" : "s"));
  }
  return types;
}

namespace {

Status CheckScalarParameters(const Computation& computation, std::string_view key,
                             const std::vector<PrimitiveType>& types, bool exact) {
  if (computation.parameter_count() != static_cast<int64_t>(types.size())) {
    return Status::Error(std::string(key) + " computation " + computation.name() + " takes " +
                         std::to_string(computation.parameter_count()) + " parameters, expected " +
                         std::to_string(types.size()));
  }
  for (size_t i = 0; i < types.size(); ++i) {
    const Shape& param = computation.parameter(static_cast<int64_t>(i))->shape();
    const bool type_ok = exact ? param.element_type() == types[i]
                               : SameTypeIgnoringFpPrecision(param.element_type(), types[i]);
    if (!param.IsScalar() || !type_ok) {
      return Status::Error(std::string(key) + " computation " + computation.name() + " parameter " +
                           std::to_string(i) + " is " + ShapeText(param) + ", expected " +
                           TypeText(types[i]) + "[]");
    }
  }
  return Status::Ok();
}

}  // namespace

StatusOr<std::vector<PrimitiveType>> CheckReducer(const Instruction& instruction,
                                                  std::string_view key,
                                                  const std::vector<PrimitiveType>& init_types,
                                                  const std::vector<PrimitiveType>& input_types) {
  auto reducer = CalledComputation(instruction, key);
  if (!reducer.ok()) return reducer.status();
  std::vector<PrimitiveType> params = init_types;
  params.insert(params.end(), input_types.begin(), input_types.end());
  FS_RETURN_IF_ERROR(CheckScalarParameters(**reducer, key, params, /*exact=*/false));
  auto results = ScalarResults(**reducer, key, init_types.size());
  if (!results.ok()) return results.status();
  for (size_t i = 0; i < init_types.size(); ++i) {
    const PrimitiveType accumulator =
        (*reducer)->parameter(static_cast<int64_t>(i))->shape().element_type();
    if ((*results)[i] != accumulator ||
        !SameTypeIgnoringFpPrecision((*results)[i], init_types[i])) {
      return Status::Error(std::string(key) + " computation " + (*reducer)->name() + " result " +
                           std::to_string(i) + " is " + TypeText((*results)[i]) +
                           "[], its accumulator parameter is " + TypeText(accumulator) +
                           "[] and the initial value " + TypeText(init_types[i]) + "[]");
    }
  }
  return results;
}

Status CheckComparator(const Instruction& instruction, std::string_view key,
                       const std::vector<PrimitiveType>& types) {
  auto comparator = CalledComputation(instruction, key);
  if (!comparator.ok()) return comparator.status();
  FS_RETURN_IF_ERROR(CheckScalarParameters(**comparator, key, types, /*exact=*/true));
  auto results = ScalarResults(**comparator, key, 1);
  if (!results.ok()) return results.status();
  if (results->front() != PrimitiveType::kPred) {
    return Status::Error(std::string(key) + " computation " + (*comparator)->name() + " returns " +
                         TypeText(results->front()) + "[], expected pred[]");
  }
  return Status::Ok();
}

namespace {

Status Overflow() { return Status::Error("size arithmetic overflows int64"); }

// (size - 1) * dilation + 1, with 0 staying 0; false on overflow.
bool Dilate(int64_t size, int64_t dilation, int64_t* out) {
  if (size == 0) {
    *out = 0;
    return true;
  }
  return !__builtin_mul_overflow(size - 1, dilation, out) && !__builtin_add_overflow(*out, 1, out);
}

}  // namespace

StatusOr<int64_t> CheckedSum(int64_t a, int64_t b) {
  int64_t sum = 0;
  if (__builtin_add_overflow(a, b, &sum)) return Overflow();
  return sum;
}

StatusOr<int64_t> WindowedSize(int64_t base, const WindowDimension& window) {
  int64_t padded = 0;
  int64_t extent = 0;
  if (!Dilate(base, window.base_dilation, &padded) ||
      __builtin_add_overflow(padded, window.padding_low, &padded) ||
      __builtin_add_overflow(padded, window.padding_high, &padded) ||
      !Dilate(window.size, window.window_dilation, &extent)) {
    return Overflow();
  }
  if (extent > padded) return int64_t{0};
  return (padded - extent) / window.stride + 1;
}

}  // namespace inference

namespace {

bool HasUnboundedDimension(const Shape& shape) {
  if (shape.IsTuple()) {
    return std::any_of(shape.tuple_shapes().begin(), shape.tuple_shapes().end(),
                       HasUnboundedDimension);
  }
  const std::vector<int64_t>& dims = shape.dimensions();
  return std::find(dims.begin(), dims.end(), Shape::kUnboundedSize) != dims.end();
}

bool InvolvesUnboundedDimension(const Instruction& instruction) {
  if (HasUnboundedDimension(instruction.shape())) return true;
  return std::any_of(instruction.operands().begin(), instruction.operands().end(),
                     [](const Instruction* op) { return HasUnboundedDimension(op->shape()); });
}

}  // namespace

StatusOr<std::optional<Shape>> InferShape(const Instruction& instruction) {
  using namespace inference;  // NOLINT: the family functions live there
  // Unbounded sizes are only known at run time; XLA's own checks defer them too.
  if (InvolvesUnboundedDimension(instruction)) return std::optional<Shape>();
  switch (instruction.opcode()) {
    case Opcode::kAbs:
    case Opcode::kAdd:
    case Opcode::kAnd:
    case Opcode::kAtan2:
    case Opcode::kCbrt:
    case Opcode::kCeil:
    case Opcode::kClamp:
    case Opcode::kClz:
    case Opcode::kCompare:
    case Opcode::kComplex:
    case Opcode::kCopy:
    case Opcode::kCos:
    case Opcode::kDivide:
    case Opcode::kErf:
    case Opcode::kExp:
    case Opcode::kExpm1:
    case Opcode::kFloor:
    case Opcode::kImag:
    case Opcode::kIsFinite:
    case Opcode::kLog:
    case Opcode::kLog1p:
    case Opcode::kLogistic:
    case Opcode::kMaximum:
    case Opcode::kMinimum:
    case Opcode::kMultiply:
    case Opcode::kNegate:
    case Opcode::kNot:
    case Opcode::kOr:
    case Opcode::kPopulationCount:
    case Opcode::kPower:
    case Opcode::kReal:
    case Opcode::kReducePrecision:
    case Opcode::kRemainder:
    case Opcode::kRoundNearestAfz:
    case Opcode::kRoundNearestEven:
    case Opcode::kRsqrt:
    case Opcode::kSelect:
    case Opcode::kShiftLeft:
    case Opcode::kShiftRightArithmetic:
    case Opcode::kShiftRightLogical:
    case Opcode::kSign:
    case Opcode::kSin:
    case Opcode::kSqrt:
    case Opcode::kSubtract:
    case Opcode::kTan:
    case Opcode::kTanh:
    case Opcode::kXor:
      return InferElementwise(instruction);
    case Opcode::kConvert:
    case Opcode::kBitcastConvert:
    case Opcode::kStochasticConvert:
      return InferConversion(instruction);
    case Opcode::kBroadcast:
    case Opcode::kConcatenate:
    case Opcode::kDynamicSlice:
    case Opcode::kDynamicUpdateSlice:
    case Opcode::kGetDimensionSize:
    case Opcode::kIota:
    case Opcode::kPad:
    case Opcode::kReshape:
    case Opcode::kReverse:
    case Opcode::kSlice:
    case Opcode::kSort:
    case Opcode::kTopK:
    case Opcode::kTranspose:
      return InferDataMovement(instruction);
    case Opcode::kGather:
    case Opcode::kScatter:
      return InferGatherScatter(instruction);
    case Opcode::kAllReduce:
    case Opcode::kMap:
    case Opcode::kReduce:
    case Opcode::kReduceWindow:
    case Opcode::kSelectAndScatter:
      return InferReduction(instruction);
    case Opcode::kBatchNormGrad:
    case Opcode::kBatchNormInference:
    case Opcode::kBatchNormTraining:
    case Opcode::kCholesky:
    case Opcode::kConvolution:
    case Opcode::kDot:
    case Opcode::kTriangularSolve:
      return InferContraction(instruction);
    case Opcode::kAddDependency:
    case Opcode::kCall:
    case Opcode::kConditional:
    case Opcode::kDomain:
    case Opcode::kFusion:
    case Opcode::kGetTupleElement:
    case Opcode::kOptimizationBarrier:
    case Opcode::kTuple:
    case Opcode::kWhile:
      return InferControlFlow(instruction);
    default:
      return std::optional<Shape>();
  }
}

}  // namespace fusescope::ir
