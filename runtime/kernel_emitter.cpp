// Emitting one kernel as MLIR text. Every instruction becomes one tensor-level op (mostly a
// linalg.generic whose body is arith/math on scalars); the lowering pipeline fuses the
// elementwise chains afterwards, so the emitter stays one case per opcode.
//
// Numbers follow the reference interpreter: f32/f16 add/multiply reductions accumulate in f64
// and round once (the interpreter computes in double), integer division by zero and
// overflowing conversions take XLA's defined values rather than LLVM's poison.

#include "runtime/kernel_emitter.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <optional>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "ir/attribute_values.h"
#include "ir/computation.h"
#include "passes/literal_value.h"
#include "runtime/interpreter/interpreter_ops.h"
#include "runtime/literal.h"
#include "runtime/mlir_scalar_code.h"

namespace fusescope::runtime {
namespace {

using ir::Opcode;
using ir::PrimitiveType;
using mlir_text::EmitConvert;
using mlir_text::EmitScalarOp;
using mlir_text::FloatConst;
using mlir_text::IdentityMap;
using mlir_text::IsFloat;
using mlir_text::IsLoweredElementwise;
using mlir_text::IsUnsigned;
using mlir_text::Join;
using mlir_text::JoinInts;
using mlir_text::Map;
using mlir_text::Scalar;
using mlir_text::ScalarCode;
using mlir_text::ScalarType;

Status Refuse(const ir::Instruction& instruction, const std::string& why) {
  return Status::Error(instruction.name() + ": " + why);
}

// An element of `type` as f64 inside a generic body, and back.
std::string WidenIn(ScalarCode& c, const std::string& x, PrimitiveType type) {
  if (mlir_text::IsNarrowFloat(type)) return mlir_text::WidenToF64(c, x, type);
  return c.Cast("arith.extf", x, *ScalarType(type), "f64");
}
std::string NarrowOut(ScalarCode& c, const std::string& x, PrimitiveType type) {
  if (mlir_text::IsNarrowFloat(type)) return mlir_text::NarrowFromF64(c, x, type);
  return c.Cast("arith.truncf", x, "f64", *ScalarType(type));
}

class KernelWriter {
 public:
  StatusOr<EmittedKernel> Write(const std::vector<const ir::Instruction*>& inputs,
                                const std::vector<const ir::Instruction*>& body,
                                const std::vector<const ir::Instruction*>& outputs, bool in_place);

 private:
  // Types.
  StatusOr<std::string> TensorType(const ir::Instruction& at, const ir::Shape& shape);
  StatusOr<std::string> MemrefType(const ir::Instruction& at, const ir::Shape& shape);
  std::string Fresh(const char* prefix = "v") {
    return "%" + std::string(prefix) + std::to_string(next_++);
  }
  std::string Value(const ir::Instruction* instruction) { return values_.at(instruction); }

  Status Emit(const ir::Instruction& instruction);
  Status EmitElementwise(const ir::Instruction& instruction);
  Status EmitBroadcast(const ir::Instruction& instruction);
  Status EmitTranspose(const ir::Instruction& instruction);
  Status EmitReshape(const ir::Instruction& instruction);
  Status EmitSlice(const ir::Instruction& instruction);
  Status EmitConcatenate(const ir::Instruction& instruction);
  Status EmitPad(const ir::Instruction& instruction);
  Status EmitIota(const ir::Instruction& instruction);
  Status EmitReduce(const ir::Instruction& instruction);
  Status EmitReduceWindow(const ir::Instruction& instruction);
  Status EmitConvolution(const ir::Instruction& instruction);
  // Any reduce whose reducer is scalar elementwise code (argmax's compare/select pairs):
  // the reducer's body inlined into one generic with an output per reduced operand.
  Status EmitGeneralReduce(const ir::Instruction& instruction);
  Status EmitReverse(const ir::Instruction& instruction);
  Status EmitGather(const ir::Instruction& instruction);
  Status EmitDynamicSlice(const ir::Instruction& instruction);
  // Start indices from operands [first, first + rank), clamped so that a window of `sizes`
  // stays inside `dims` (as XLA clamps them), as index values.
  StatusOr<std::vector<std::string>> ClampedStarts(const ir::Instruction& instruction,
                                                   int64_t first, const std::vector<int64_t>& dims,
                                                   const std::vector<int64_t>& sizes);
  Status EmitConstant(const ir::Instruction& instruction);

  // One linalg.generic producing a tensor of `out_shape` with element `out_scalar`. `maps`
  // are the inputs' indexing maps; `body` emits the scalar computation (lines into `code`)
  // from the block arguments and returns the yielded value.
  using BodyFn =
      std::function<StatusOr<std::string>(const std::vector<Scalar>& args, std::string& code)>;
  StatusOr<std::string> Generic(const ir::Instruction& at, const std::vector<int64_t>& out_dims,
                                const std::string& out_scalar, const std::string& init,
                                const std::vector<std::string>& operands,
                                const std::vector<std::string>& operand_types,
                                const std::vector<std::string>& operand_scalars,
                                const std::vector<std::string>& maps, const std::string& out_map,
                                const std::vector<std::string>& iterators, const BodyFn& body);
  std::string Empty(const std::string& tensor_type) {
    const std::string name = Fresh("e");
    code_ << "    " << name << " = tensor.empty() : " << tensor_type << "\n";
    return name;
  }
  // `x` of a narrow float or f32 type as f64, at function level.
  std::string WidenScalar(const std::string& x, PrimitiveType type) {
    std::string lines;
    ScalarCode c(lines, Fresh("w") + "_", "    ");
    const std::string wide = mlir_text::IsNarrowFloat(type)
                                 ? mlir_text::WidenToF64(c, x, type)
                                 : c.Cast("arith.extf", x, *ScalarType(type), "f64");
    code_ << lines;
    return wide;
  }
  // The element of a rank-0 tensor as a scalar.
  std::string ExtractScalar(const std::string& tensor, const std::string& tensor_type) {
    const std::string name = Fresh("s");
    code_ << "    " << name << " = tensor.extract " << tensor << "[] : " << tensor_type << "\n";
    return name;
  }

  // The input an in-place kernel's output holds on entry (see EmittedKernel::in_place_input):
  // the kernel's one output is a dynamic-update-slice of that input, and nothing else in the
  // kernel reads it. -1 when there is none.
  static int InPlaceInput(const std::vector<const ir::Instruction*>& inputs,
                          const std::vector<const ir::Instruction*>& body,
                          const std::vector<const ir::Instruction*>& outputs);
  // Writes the in-place update's window into a view of the output argument `arg`.
  Status WriteWindow(const std::string& arg, const std::string& memref_type);

  std::ostringstream code_;
  std::unordered_map<const ir::Instruction*, std::string> values_;
  bool vectorizable_ = true;
  // The instructions whose values an iota of the kernel feeds (see Emit).
  std::unordered_set<const ir::Instruction*> iota_derived_;
  // The dynamic-update-slice written in place, and its window once emitted.
  const ir::Instruction* in_place_update_ = nullptr;
  struct Window {
    std::string source, source_type;
    std::vector<std::string> starts;
    std::vector<int64_t> sizes;
  } window_;
  // Values of tuple-shaped instructions (a reduce of several operands): one per element.
  std::unordered_map<const ir::Instruction*, std::vector<std::string>> tuple_values_;
  int next_ = 0;
};

StatusOr<std::string> KernelWriter::TensorType(const ir::Instruction& at, const ir::Shape& shape) {
  if (!shape.IsArray())
    return Refuse(at, "only arrays are lowered (got " + shape.ToString(false) + ")");
  std::optional<std::string> scalar = ScalarType(shape.element_type());
  if (!scalar) {
    return Refuse(at, "element type " + std::string(ir::PrimitiveTypeName(shape.element_type())) +
                          " is not lowered to MLIR");
  }
  std::string type = "tensor<";
  for (int64_t d = 0; d < shape.rank(); ++d) {
    if (shape.is_dynamic_dimension(d)) return Refuse(at, "dynamic dimensions are not lowered");
    type += std::to_string(shape.dimension(d)) + "x";
  }
  return type + *scalar + ">";
}

StatusOr<std::string> KernelWriter::MemrefType(const ir::Instruction& at, const ir::Shape& shape) {
  StatusOr<std::string> tensor = TensorType(at, shape);
  if (!tensor.ok()) return tensor.status();
  return "memref" + tensor->substr(std::strlen("tensor"));
}

StatusOr<std::string> KernelWriter::Generic(
    const ir::Instruction& at, const std::vector<int64_t>& out_dims, const std::string& out_scalar,
    const std::string& init, const std::vector<std::string>& operands,
    const std::vector<std::string>& operand_types, const std::vector<std::string>& operand_scalars,
    const std::vector<std::string>& maps, const std::string& out_map,
    const std::vector<std::string>& iterators, const BodyFn& body) {
  std::string out_type = "tensor<";
  for (int64_t d : out_dims) out_type += std::to_string(d) + "x";
  out_type += out_scalar + ">";
  const std::string destination = init.empty() ? Empty(out_type) : init;
  std::vector<Scalar> args;
  std::string block_args;
  for (size_t i = 0; i < operands.size(); ++i) {
    args.push_back({"%in" + std::to_string(i), operand_scalars[i]});
    block_args += args.back().name + ": " + operand_scalars[i] + ", ";
  }
  args.push_back({"%out", out_scalar});
  block_args += "%out: " + out_scalar;
  std::string lines;
  StatusOr<std::string> yielded = body(args, lines);
  if (!yielded.ok()) return Refuse(at, yielded.message());
  std::vector<std::string> all_maps = maps;
  all_maps.push_back(out_map);
  std::vector<std::string> quoted;
  for (const std::string& it : iterators) quoted.push_back("\"" + it + "\"");
  const std::string name = Fresh();
  code_ << "    " << name << " = linalg.generic {indexing_maps = [" << Join(all_maps)
        << "], iterator_types = [" << Join(quoted) << "]}";
  if (!operands.empty()) code_ << " ins(" << Join(operands) << " : " << Join(operand_types) << ")";
  code_ << " outs(" << destination << " : " << out_type << ") {\n    ^bb0(" << block_args << "):\n"
        << lines << "      linalg.yield " << *yielded << " : " << out_scalar << "\n    } -> "
        << out_type << "\n";
  return name;
}

Status KernelWriter::EmitElementwise(const ir::Instruction& instruction) {
  const ir::Shape& shape = instruction.shape();
  std::vector<std::string> operands, types, scalars, maps;
  for (const ir::Instruction* operand : instruction.operands()) {
    StatusOr<std::string> type = TensorType(instruction, operand->shape());
    if (!type.ok()) return type.status();
    operands.push_back(Value(operand));
    types.push_back(*type);
    scalars.push_back(*ScalarType(operand->shape().element_type()));
    if (operand->shape().rank() == shape.rank()) {
      maps.push_back(IdentityMap(shape.rank()));
    } else if (operand->shape().rank() == 0) {
      maps.push_back(Map(shape.rank(), {}));
    } else {
      return Refuse(instruction, "operand " + operand->name() + " has a shape of another rank");
    }
  }
  StatusOr<std::string> out = TensorType(instruction, shape);
  if (!out.ok()) return out.status();
  StatusOr<std::string> name =
      Generic(instruction, shape.dimensions(), *ScalarType(shape.element_type()), "", operands,
              types, scalars, maps, IdentityMap(shape.rank()),
              std::vector<std::string>(static_cast<size_t>(shape.rank()), "parallel"),
              [&](const std::vector<Scalar>& args, std::string& code) {
                ScalarCode c(code);
                return EmitScalarOp(c, instruction, args);
              });
  if (!name.ok()) return name.status();
  values_[&instruction] = *name;
  return Status::Ok();
}

Status KernelWriter::EmitBroadcast(const ir::Instruction& instruction) {
  const ir::Instruction* operand = instruction.operand(0);
  std::vector<int64_t> dims = instruction.dimensions().value_or(std::vector<int64_t>{});
  if (static_cast<int64_t>(dims.size()) != operand->shape().rank())
    return Refuse(instruction, "broadcast needs one dimension per operand dimension");
  std::vector<std::string> results;
  for (int64_t d : dims) {
    if (d < 0 || d >= instruction.shape().rank())
      return Refuse(instruction, "broadcast dimension out of range");
    results.push_back("d" + std::to_string(d));
  }
  StatusOr<std::string> type = TensorType(instruction, operand->shape());
  if (!type.ok()) return type.status();
  const int64_t rank = instruction.shape().rank();
  const std::string scalar = *ScalarType(operand->shape().element_type());
  StatusOr<std::string> name =
      Generic(instruction, instruction.shape().dimensions(), scalar, "", {Value(operand)}, {*type},
              {scalar}, {Map(rank, results)}, IdentityMap(rank),
              std::vector<std::string>(static_cast<size_t>(rank), "parallel"),
              [](const std::vector<Scalar>& args, std::string&) -> StatusOr<std::string> {
                return args[0].name;
              });
  if (!name.ok()) return name.status();
  values_[&instruction] = *name;
  return Status::Ok();
}

Status KernelWriter::EmitTranspose(const ir::Instruction& instruction) {
  const ir::Instruction* operand = instruction.operand(0);
  std::vector<int64_t> perm = instruction.dimensions().value_or(std::vector<int64_t>{});
  const int64_t rank = instruction.shape().rank();
  if (static_cast<int64_t>(perm.size()) != rank)
    return Refuse(instruction, "transpose needs a permutation");
  // Output dimension i is operand dimension perm[i]: the operand's dimension j is indexed by
  // the output dimension that names it.
  std::vector<std::string> results(static_cast<size_t>(rank));
  for (int64_t i = 0; i < rank; ++i) {
    if (perm[i] < 0 || perm[i] >= rank)
      return Refuse(instruction, "transpose permutation out of range");
    results[static_cast<size_t>(perm[i])] = "d" + std::to_string(i);
  }
  StatusOr<std::string> type = TensorType(instruction, operand->shape());
  if (!type.ok()) return type.status();
  const std::string scalar = *ScalarType(operand->shape().element_type());
  StatusOr<std::string> name =
      Generic(instruction, instruction.shape().dimensions(), scalar, "", {Value(operand)}, {*type},
              {scalar}, {Map(rank, results)}, IdentityMap(rank),
              std::vector<std::string>(static_cast<size_t>(rank), "parallel"),
              [](const std::vector<Scalar>& args, std::string&) -> StatusOr<std::string> {
                return args[0].name;
              });
  if (!name.ok()) return name.status();
  values_[&instruction] = *name;
  return Status::Ok();
}

Status KernelWriter::EmitReshape(const ir::Instruction& instruction) {
  const ir::Instruction* operand = instruction.operand(0);
  if (instruction.opcode() == Opcode::kBitcast &&
      (!operand->shape().IsRowMajor() || !instruction.shape().IsRowMajor())) {
    return Refuse(instruction, "a bitcast between layouts other than row-major is not lowered");
  }
  if (operand->shape().element_type() != instruction.shape().element_type() ||
      operand->shape().ElementCount() != instruction.shape().ElementCount()) {
    return Refuse(instruction, "reshape changes the element type or count");
  }
  StatusOr<std::string> in_type = TensorType(instruction, operand->shape());
  StatusOr<std::string> out_type = TensorType(instruction, instruction.shape());
  if (!in_type.ok()) return in_type.status();
  if (!out_type.ok()) return out_type.status();
  std::string current = Value(operand);
  std::string current_type = *in_type;
  const int64_t in_rank = operand->shape().rank();
  const int64_t out_rank = instruction.shape().rank();
  const int64_t count = instruction.shape().ElementCount();
  const std::string scalar = *ScalarType(instruction.shape().element_type());
  const std::string flat_type = "tensor<" + std::to_string(count) + "x" + scalar + ">";
  if (*in_type == *out_type) {
    values_[&instruction] = current;
    return Status::Ok();
  }
  // Through one dimension: collapse everything, then expand to the result.
  if (in_rank == 0) {
    std::vector<int64_t> ones(static_cast<size_t>(out_rank), 1);
    const std::string name = Fresh();
    code_ << "    " << name << " = tensor.expand_shape " << current << " [] output_shape ["
          << JoinInts(ones) << "] : " << current_type << " into " << *out_type << "\n";
    values_[&instruction] = name;
    return Status::Ok();
  }
  if (out_rank == 0) {
    const std::string name = Fresh();
    code_ << "    " << name << " = tensor.collapse_shape " << current << " [] : " << current_type
          << " into " << *out_type << "\n";
    values_[&instruction] = name;
    return Status::Ok();
  }
  if (in_rank > 1) {
    const std::string name = Fresh();
    std::vector<int64_t> all;
    for (int64_t d = 0; d < in_rank; ++d) all.push_back(d);
    code_ << "    " << name << " = tensor.collapse_shape " << current << " [[" << JoinInts(all)
          << "]] : " << current_type << " into " << flat_type << "\n";
    current = name;
    current_type = flat_type;
  }
  if (out_rank > 1) {
    const std::string name = Fresh();
    std::vector<int64_t> all;
    for (int64_t d = 0; d < out_rank; ++d) all.push_back(d);
    code_ << "    " << name << " = tensor.expand_shape " << current << " [[" << JoinInts(all)
          << "]] output_shape [" << JoinInts(instruction.shape().dimensions())
          << "] : " << current_type << " into " << *out_type << "\n";
    current = name;
  }
  values_[&instruction] = current;
  return Status::Ok();
}

Status KernelWriter::EmitSlice(const ir::Instruction& instruction) {
  const ir::Instruction* operand = instruction.operand(0);
  auto bounds = ir::ParseSliceBounds(instruction.attribute("slice").value_or(""));
  if (!bounds.ok() || static_cast<int64_t>(bounds->size()) != operand->shape().rank())
    return Refuse(instruction, "slice needs slice= with one entry per dimension");
  std::vector<int64_t> offsets, sizes, strides;
  for (size_t d = 0; d < bounds->size(); ++d) {
    const ir::SliceBounds& b = (*bounds)[d];
    if (b.stride <= 0 || b.start < 0 ||
        b.limit > operand->shape().dimension(static_cast<int64_t>(d)) || b.start > b.limit)
      return Refuse(instruction, "slice reaches outside the operand");
    offsets.push_back(b.start);
    sizes.push_back((b.limit - b.start + b.stride - 1) / b.stride);
    strides.push_back(b.stride);
  }
  if (sizes != instruction.shape().dimensions())
    return Refuse(instruction, "slice bounds disagree with the shape");
  StatusOr<std::string> in_type = TensorType(instruction, operand->shape());
  StatusOr<std::string> out_type = TensorType(instruction, instruction.shape());
  if (!in_type.ok()) return in_type.status();
  if (!out_type.ok()) return out_type.status();
  const std::string name = Fresh();
  code_ << "    " << name << " = tensor.extract_slice " << Value(operand) << "["
        << JoinInts(offsets) << "] [" << JoinInts(sizes) << "] [" << JoinInts(strides)
        << "] : " << *in_type << " to " << *out_type << "\n";
  values_[&instruction] = name;
  return Status::Ok();
}

Status KernelWriter::EmitConcatenate(const ir::Instruction& instruction) {
  std::vector<int64_t> dims = instruction.dimensions().value_or(std::vector<int64_t>{});
  const int64_t rank = instruction.shape().rank();
  if (dims.size() != 1 || dims[0] < 0 || dims[0] >= rank)
    return Refuse(instruction, "concatenate needs one dimension");
  StatusOr<std::string> out_type = TensorType(instruction, instruction.shape());
  if (!out_type.ok()) return out_type.status();
  std::string current = Empty(*out_type);
  int64_t offset = 0;
  for (const ir::Instruction* operand : instruction.operands()) {
    StatusOr<std::string> in_type = TensorType(instruction, operand->shape());
    if (!in_type.ok()) return in_type.status();
    std::vector<int64_t> offsets(static_cast<size_t>(rank), 0);
    offsets[static_cast<size_t>(dims[0])] = offset;
    const std::string name = Fresh();
    code_ << "    " << name << " = tensor.insert_slice " << Value(operand) << " into " << current
          << "[" << JoinInts(offsets) << "] [" << JoinInts(operand->shape().dimensions()) << "] ["
          << JoinInts(std::vector<int64_t>(static_cast<size_t>(rank), 1)) << "] : " << *in_type
          << " into " << *out_type << "\n";
    current = name;
    offset += operand->shape().dimension(dims[0]);
  }
  if (offset != instruction.shape().dimension(dims[0]))
    return Refuse(instruction, "concatenated sizes disagree with the shape");
  values_[&instruction] = current;
  return Status::Ok();
}

// Negative low/high padding removes elements: the input is padded by the positive parts
// into a wider tensor, and the result sliced out of it.
Status KernelWriter::EmitPad(const ir::Instruction& instruction) {
  const ir::Instruction* operand = instruction.operand(0);
  auto padding = ir::ParsePadding(instruction.attribute("padding").value_or(""));
  if (!padding.ok() || static_cast<int64_t>(padding->size()) != operand->shape().rank())
    return Refuse(instruction, "pad needs padding= with one entry per dimension");
  std::vector<int64_t> offsets, strides, wide_dims, crop;
  bool cropped = false;
  for (size_t d = 0; d < padding->size(); ++d) {
    const ir::PaddingDimension& p = (*padding)[d];
    if (p.interior < 0) return Refuse(instruction, "negative interior padding");
    const int64_t size = operand->shape().dimension(static_cast<int64_t>(d));
    const int64_t spread = size == 0 ? 0 : (size - 1) * (p.interior + 1) + 1;
    offsets.push_back(std::max<int64_t>(p.low, 0));
    strides.push_back(p.interior + 1);
    wide_dims.push_back(spread + std::max<int64_t>(p.low, 0) + std::max<int64_t>(p.high, 0));
    crop.push_back(std::max<int64_t>(-p.low, 0));
    cropped = cropped || p.low < 0 || p.high < 0;
    if (wide_dims.back() - crop.back() - std::max<int64_t>(-p.high, 0) !=
        instruction.shape().dimension(static_cast<int64_t>(d)))
      return Refuse(instruction, "pad shape disagrees with its padding");
  }
  StatusOr<std::string> in_type = TensorType(instruction, operand->shape());
  StatusOr<std::string> value_type = TensorType(instruction, instruction.operand(1)->shape());
  StatusOr<std::string> out_type = TensorType(instruction, instruction.shape());
  if (!in_type.ok()) return in_type.status();
  if (!value_type.ok()) return value_type.status();
  if (!out_type.ok()) return out_type.status();
  const std::string scalar = *ScalarType(instruction.shape().element_type());
  std::string wide_type = "tensor<";
  for (int64_t d : wide_dims) wide_type += std::to_string(d) + "x";
  wide_type += scalar + ">";
  const std::string fill_value = ExtractScalar(Value(instruction.operand(1)), *value_type);
  const std::string empty = Empty(wide_type);
  std::string current = Fresh();
  code_ << "    " << current << " = linalg.fill ins(" << fill_value << " : " << scalar << ") outs("
        << empty << " : " << wide_type << ") -> " << wide_type << "\n";
  if (operand->shape().ElementCount() > 0) {
    const std::string inserted = Fresh();
    code_ << "    " << inserted << " = tensor.insert_slice " << Value(operand) << " into "
          << current << "[" << JoinInts(offsets) << "] [" << JoinInts(operand->shape().dimensions())
          << "] [" << JoinInts(strides) << "] : " << *in_type << " into " << wide_type << "\n";
    current = inserted;
  }
  if (cropped) {
    const std::string sliced = Fresh();
    code_ << "    " << sliced << " = tensor.extract_slice " << current << "[" << JoinInts(crop)
          << "] [" << JoinInts(instruction.shape().dimensions()) << "] ["
          << JoinInts(std::vector<int64_t>(crop.size(), 1)) << "] : " << wide_type << " to "
          << *out_type << "\n";
    current = sliced;
  }
  values_[&instruction] = current;
  return Status::Ok();
}

Status KernelWriter::EmitIota(const ir::Instruction& instruction) {
  std::optional<int64_t> dimension = instruction.IntAttribute("iota_dimension");
  const ir::Shape& shape = instruction.shape();
  if (!dimension || *dimension < 0 || *dimension >= shape.rank())
    return Refuse(instruction, "iota needs iota_dimension=");
  const PrimitiveType type = shape.element_type();
  if (!ScalarType(type) || type == PrimitiveType::kPred)
    return Refuse(instruction, "iota of this element type is not lowered");
  const std::string scalar = *ScalarType(type);
  StatusOr<std::string> name = Generic(
      instruction, shape.dimensions(), scalar, "", {}, {}, {}, {}, IdentityMap(shape.rank()),
      std::vector<std::string>(static_cast<size_t>(shape.rank()), "parallel"),
      [&](const std::vector<Scalar>&, std::string& code) -> StatusOr<std::string> {
        ScalarCode c(code);
        const std::string index = c.Op("linalg.index " + std::to_string(*dimension), "index");
        const std::string wide = c.Cast("arith.index_cast", index, "index", "i64");
        if (mlir_text::IsNarrowFloat(type)) {
          StatusOr<std::string> value =
              EmitConvert(c, wide, PrimitiveType::kS64, PrimitiveType::kF64);
          if (!value.ok()) return value;
          return NarrowOut(c, *value, type);
        }
        return EmitConvert(c, wide, PrimitiveType::kS64, type);
      });
  if (!name.ok()) return name.status();
  values_[&instruction] = *name;
  return Status::Ok();
}

// One step of a reduction inside a generic body: `x` (an element) into `acc`.
struct Reduction;
std::string CombineStep(ScalarCode& c, const Reduction& r, const std::string& x,
                        const std::string& acc);

// How a reduce or reduce-window combines elements: the arith op, and whether f32 values
// accumulate in f64 (sums and products, as the interpreter computes them in double).
struct Reduction {
  PrimitiveType type = PrimitiveType::kInvalid;
  // f16/bf16: each step computes in f64 and rounds back to the type, as the interpreter's
  // (and the reducer's HLO) says.
  bool narrow_steps = false;
  std::string identity;  // the combine's neutral element, as an MLIR constant of `scalar`
  std::string combine;
  bool widen = false;
  std::string scalar;  // the element type
  std::string acc;     // the accumulator's type
};

StatusOr<Reduction> ReductionFor(const ir::Instruction& instruction) {
  std::vector<ir::Computation*> reducer = instruction.CalledComputations("to_apply");
  if (reducer.size() != 1) return Refuse(instruction, "needs to_apply=");
  const internal::ScalarBinaryOp op = internal::RecogniseScalarBinaryOp(*reducer[0]);
  if (!op.valid())
    return Refuse(instruction, "the reducer " + reducer[0]->name() +
                                   " is not one add/multiply/maximum/minimum/and/or");
  const PrimitiveType type = instruction.shape().element_type();
  std::optional<std::string> scalar = ScalarType(type);
  if (!scalar) {
    return Refuse(instruction, "element type " + std::string(ir::PrimitiveTypeName(type)) +
                                   " is not lowered to MLIR");
  }
  const bool is_float = IsFloat(type);
  const bool is_pred = type == PrimitiveType::kPred;
  const bool is_unsigned = IsUnsigned(type) || is_pred;
  Reduction r;
  r.scalar = *scalar;
  // f32 sums and products accumulate in f64 and round once, as the interpreter's.
  r.type = type;
  r.narrow_steps = mlir_text::IsNarrowFloat(type);
  r.widen =
      type == PrimitiveType::kF32 && (op.opcode == Opcode::kAdd || op.opcode == Opcode::kMultiply);
  r.acc = r.widen ? "f64" : r.scalar;
  switch (op.opcode) {
    case Opcode::kAdd:
      r.combine = is_float ? "arith.addf" : (is_pred ? "arith.ori" : "arith.addi");
      break;
    case Opcode::kMultiply:
      r.combine = is_float ? "arith.mulf" : (is_pred ? "arith.andi" : "arith.muli");
      break;
    case Opcode::kMaximum:
      r.combine = is_float ? "arith.maximumf" : (is_unsigned ? "arith.maxui" : "arith.maxsi");
      break;
    case Opcode::kMinimum:
      r.combine = is_float ? "arith.minimumf" : (is_unsigned ? "arith.minui" : "arith.minsi");
      break;
    case Opcode::kAnd:
      r.combine = is_float ? "" : "arith.andi";
      break;
    case Opcode::kOr:
      r.combine = is_float ? "" : "arith.ori";
      break;
    default:
      break;
  }
  if (r.combine.empty()) return Refuse(instruction, "the reducer's op is not lowered on this type");
  const int bits = is_pred ? 1 : ir::PrimitiveTypeBitWidth(type);
  switch (op.opcode) {
    case Opcode::kAdd:
      r.identity = is_float ? "0.0" : (is_pred ? "false" : "0");
      break;
    case Opcode::kMultiply:
      r.identity = is_float ? "1.0" : (is_pred ? "true" : "1");
      break;
    case Opcode::kMaximum:
      r.identity = is_float      ? "0xFFF0000000000000"
                   : is_pred     ? "false"
                   : is_unsigned ? "0"
                                 : mlir_text::SignedLimit(bits, false);
      break;
    case Opcode::kMinimum:
      r.identity = is_float      ? "0x7FF0000000000000"
                   : is_pred     ? "true"
                   : is_unsigned ? "-1"
                                 : mlir_text::SignedLimit(bits, true);
      break;
    case Opcode::kAnd:
      r.identity = is_pred ? "true" : "-1";
      break;
    default:
      r.identity = is_pred ? "false" : "0";
      break;
  }
  if (is_float && (op.opcode == Opcode::kMaximum || op.opcode == Opcode::kMinimum)) {
    const bool lowest = op.opcode == Opcode::kMaximum;  // -inf for maximum, +inf for minimum
    if (type == PrimitiveType::kF16)
      r.identity = lowest ? "0xFC00" : "0x7C00";
    else if (type == PrimitiveType::kBF16)
      r.identity = lowest ? "0xFF80" : "0x7F80";
    else
      r.identity = mlir_text::FloatConst(lowest ? -HUGE_VAL : HUGE_VAL, type);
  }
  return r;
}

std::string CombineStep(ScalarCode& c, const Reduction& r, const std::string& x,
                        const std::string& acc) {
  if (r.narrow_steps) {
    const std::string wide =
        c.Bin(r.combine, WidenIn(c, x, r.type), WidenIn(c, acc, r.type), "f64");
    return NarrowOut(c, wide, r.type);
  }
  return c.Bin(r.combine, r.widen ? WidenIn(c, x, r.type) : x, acc, r.acc);
}

Status KernelWriter::EmitReduce(const ir::Instruction& instruction) {
  if (instruction.operand_count() != 2 || !instruction.shape().IsArray())
    return EmitGeneralReduce(instruction);
  {
    std::vector<ir::Computation*> reducer = instruction.CalledComputations("to_apply");
    if (reducer.size() == 1 && !internal::RecogniseScalarBinaryOp(*reducer[0]).valid())
      return EmitGeneralReduce(instruction);
  }
  const ir::Instruction* input = instruction.operand(0);
  const ir::Instruction* init = instruction.operand(1);
  std::vector<int64_t> dims = instruction.dimensions().value_or(std::vector<int64_t>{});
  const int64_t in_rank = input->shape().rank();
  std::vector<bool> reduced(static_cast<size_t>(in_rank), false);
  for (int64_t d : dims) {
    if (d < 0 || d >= in_rank) return Refuse(instruction, "reduce dimension out of range");
    reduced[static_cast<size_t>(d)] = true;
  }
  StatusOr<Reduction> reduction = ReductionFor(instruction);
  if (!reduction.ok()) return reduction.status();
  StatusOr<std::string> in_type = TensorType(instruction, input->shape());
  StatusOr<std::string> init_type = TensorType(instruction, init->shape());
  if (!in_type.ok()) return in_type.status();
  if (!init_type.ok()) return init_type.status();
  const std::string scalar = reduction->scalar;
  const bool widen = reduction->widen;
  const std::string acc = reduction->acc;
  std::string init_value = ExtractScalar(Value(init), *init_type);
  if (widen) init_value = WidenScalar(init_value, reduction->type);
  std::vector<int64_t> out_dims;
  std::vector<std::string> out_results, iterators;
  for (int64_t d = 0; d < in_rank; ++d) {
    iterators.push_back(reduced[static_cast<size_t>(d)] ? "reduction" : "parallel");
    if (!reduced[static_cast<size_t>(d)]) {
      out_dims.push_back(input->shape().dimension(d));
      out_results.push_back("d" + std::to_string(d));
    }
  }
  if (out_dims != instruction.shape().dimensions())
    return Refuse(instruction, "reduce shape disagrees with its dimensions");
  std::string acc_type = "tensor<";
  for (int64_t d : out_dims) acc_type += std::to_string(d) + "x";
  acc_type += acc + ">";
  const std::string empty = Empty(acc_type);
  const std::string filled = Fresh();
  code_ << "    " << filled << " = linalg.fill ins(" << init_value << " : " << acc << ") outs("
        << empty << " : " << acc_type << ") -> " << acc_type << "\n";
  StatusOr<std::string> reduced_value =
      Generic(instruction, out_dims, acc, filled, {Value(input)}, {*in_type}, {scalar},
              {IdentityMap(in_rank)}, Map(in_rank, out_results), iterators,
              [&](const std::vector<Scalar>& args, std::string& code) -> StatusOr<std::string> {
                ScalarCode c(code);
                return CombineStep(c, *reduction, args[0].name, args[1].name);
              });
  if (!reduced_value.ok()) return reduced_value.status();
  std::string result = *reduced_value;
  if (widen) {
    const int64_t out_rank = static_cast<int64_t>(out_dims.size());
    StatusOr<std::string> narrowed = Generic(
        instruction, out_dims, scalar, "", {result}, {acc_type}, {"f64"}, {IdentityMap(out_rank)},
        IdentityMap(out_rank), std::vector<std::string>(out_dims.size(), "parallel"),
        [&](const std::vector<Scalar>& args, std::string& code) -> StatusOr<std::string> {
          ScalarCode c(code);
          return NarrowOut(c, args[0].name, reduction->type);
        });
    if (!narrowed.ok()) return narrowed.status();
    result = *narrowed;
  }
  values_[&instruction] = result;
  return Status::Ok();
}

Status KernelWriter::EmitGeneralReduce(const ir::Instruction& instruction) {
  const int64_t n = instruction.operand_count() / 2;
  std::vector<ir::Computation*> reducers = instruction.CalledComputations("to_apply");
  if (n < 1 || instruction.operand_count() != 2 * n || reducers.size() != 1)
    return Refuse(instruction, "reduce needs pairs of operands and inits and to_apply=");
  const ir::Computation& reducer = *reducers[0];
  if (reducer.parameter_count() != 2 * n || reducer.root() == nullptr)
    return Refuse(instruction, "the reducer takes another number of parameters");
  std::vector<int64_t> dims = instruction.dimensions().value_or(std::vector<int64_t>{});
  const ir::Shape& in_shape = instruction.operand(0)->shape();
  const int64_t in_rank = in_shape.rank();
  std::vector<bool> reduced(static_cast<size_t>(in_rank), false);
  for (int64_t d : dims) {
    if (d < 0 || d >= in_rank) return Refuse(instruction, "reduce dimension out of range");
    reduced[static_cast<size_t>(d)] = true;
  }
  std::vector<int64_t> out_dims;
  std::vector<std::string> out_results, iterators;
  for (int64_t d = 0; d < in_rank; ++d) {
    iterators.push_back(reduced[static_cast<size_t>(d)] ? "\"reduction\"" : "\"parallel\"");
    if (!reduced[static_cast<size_t>(d)]) {
      out_dims.push_back(in_shape.dimension(d));
      out_results.push_back("d" + std::to_string(d));
    }
  }
  std::vector<std::string> ins, in_types, outs, out_types, scalars, maps;
  for (int64_t i = 0; i < n; ++i) {
    const ir::Instruction* input = instruction.operand(i);
    const ir::Instruction* init = instruction.operand(n + i);
    if (input->shape().dimensions() != in_shape.dimensions())
      return Refuse(instruction, "reduced operands differ in shape");
    StatusOr<std::string> in_type = TensorType(instruction, input->shape());
    StatusOr<std::string> init_type = TensorType(instruction, init->shape());
    if (!in_type.ok()) return in_type.status();
    if (!init_type.ok()) return init_type.status();
    const std::string scalar = *ScalarType(input->shape().element_type());
    std::string out_type = "tensor<";
    for (int64_t d : out_dims) out_type += std::to_string(d) + "x";
    out_type += scalar + ">";
    const std::string init_value = ExtractScalar(Value(init), *init_type);
    const std::string empty = Empty(out_type);
    const std::string filled = Fresh();
    code_ << "    " << filled << " = linalg.fill ins(" << init_value << " : " << scalar << ") outs("
          << empty << " : " << out_type << ") -> " << out_type << "\n";
    ins.push_back(Value(input));
    in_types.push_back(*in_type);
    outs.push_back(filled);
    out_types.push_back(out_type);
    scalars.push_back(scalar);
    maps.push_back(IdentityMap(in_rank));
  }
  for (int64_t i = 0; i < n; ++i) maps.push_back(Map(in_rank, out_results));
  // The reducer's parameters: accumulators first (the outputs' block arguments), then the
  // elements (the inputs').
  std::string lines;
  ScalarCode c(lines);
  std::unordered_map<const ir::Instruction*, Scalar> scalar_values;
  for (int64_t i = 0; i < n; ++i) {
    scalar_values[reducer.parameter(i)] = {"%acc" + std::to_string(i),
                                           scalars[static_cast<size_t>(i)]};
    scalar_values[reducer.parameter(n + i)] = {"%x" + std::to_string(i),
                                               scalars[static_cast<size_t>(i)]};
  }
  std::vector<std::string> yields;
  for (const ir::Instruction* step : reducer.MakePostOrder()) {
    if (step->opcode() == Opcode::kParameter) continue;
    if (step == reducer.root() && step->opcode() == Opcode::kTuple) break;
    if (!step->shape().IsScalar() || !ScalarType(step->shape().element_type()))
      return Refuse(instruction, "the reducer computes " + step->shape().ToString(false));
    if (step->opcode() == Opcode::kConstant) {
      std::optional<passes::LiteralValue> value = passes::LiteralValue::Of(*step);
      if (!value) return Refuse(instruction, "the reducer's constant is not readable");
      const PrimitiveType type = step->shape().element_type();
      const std::string t = *ScalarType(type);
      std::string text;
      if (IsFloat(type))
        text = FloatConst(value->GetDouble(0), type);
      else if (type == PrimitiveType::kPred)
        text = value->GetInt(0) ? "true" : "false";
      else
        text = std::to_string(value->GetInt(0));
      scalar_values[step] = {c.Const(text, t), t};
      continue;
    }
    if (!IsLoweredElementwise(step->opcode()))
      return Refuse(instruction, "the reducer's " + std::string(step->opcode_name()) +
                                     " is not lowered to MLIR");
    std::vector<Scalar> args;
    for (const ir::Instruction* operand : step->operands())
      args.push_back(scalar_values.at(operand));
    StatusOr<std::string> value = EmitScalarOp(c, *step, args);
    if (!value.ok()) return Refuse(instruction, "in the reducer: " + value.message());
    scalar_values[step] = {*value, *ScalarType(step->shape().element_type())};
  }
  if (reducer.root()->opcode() == Opcode::kTuple) {
    if (reducer.root()->operand_count() != n)
      return Refuse(instruction, "the reducer returns another arity");
    for (const ir::Instruction* element : reducer.root()->operands())
      yields.push_back(scalar_values.at(element).name);
  } else {
    if (n != 1) return Refuse(instruction, "the reducer returns another arity");
    yields.push_back(scalar_values.at(reducer.root()).name);
  }
  std::string block_args;
  for (int64_t i = 0; i < n; ++i)
    block_args += "%x" + std::to_string(i) + ": " + scalars[static_cast<size_t>(i)] + ", ";
  for (int64_t i = 0; i < n; ++i)
    block_args += "%acc" + std::to_string(i) + ": " + scalars[static_cast<size_t>(i)] +
                  (i + 1 < n ? ", " : "");
  const std::string name = Fresh();
  code_ << "    " << name << (n > 1 ? ":" + std::to_string(n) : "")
        << " = linalg.generic {indexing_maps = [" << Join(maps) << "], iterator_types = ["
        << Join(iterators) << "]} ins(" << Join(ins) << " : " << Join(in_types) << ") outs("
        << Join(outs) << " : " << Join(out_types) << ") {\n    ^bb0(" << block_args << "):\n"
        << lines << "      linalg.yield " << Join(yields) << " : " << Join(scalars) << "\n    } -> "
        << (n > 1 ? "(" + Join(out_types) + ")" : out_types[0]) << "\n";
  if (instruction.shape().IsTuple()) {
    std::vector<std::string> elements;
    for (int64_t i = 0; i < n; ++i) elements.push_back(name + "#" + std::to_string(i));
    tuple_values_[&instruction] = elements;
  } else {
    values_[&instruction] = name;
  }
  return Status::Ok();
}

// The window's positions become reduction dimensions of one generic; a window tensor of
// their sizes (never read) gives linalg their bounds, as its pooling ops do. Padding and base
// dilation first place the input in a tensor filled with the init value.
Status KernelWriter::EmitReduceWindow(const ir::Instruction& instruction) {
  // Strided window reads (o * stride + k): where MLIR 19's super-vectorizer does not fail on
  // them it reads contiguous vectors instead, so these kernels are lowered without it.
  vectorizable_ = false;
  if (instruction.operand_count() != 2 || !instruction.shape().IsArray())
    return Refuse(instruction, "a reduce-window of several operands is not lowered");
  const ir::Instruction* input = instruction.operand(0);
  const ir::Instruction* init = instruction.operand(1);
  const int64_t rank = input->shape().rank();
  auto window = ir::ParseWindow(instruction.attribute("window").value_or(""));
  if (!window.ok() || static_cast<int64_t>(window->size()) != rank || rank == 0)
    return Refuse(instruction, "reduce-window needs window= with one entry per dimension");
  StatusOr<Reduction> reduction = ReductionFor(instruction);
  if (!reduction.ok()) return reduction.status();
  StatusOr<std::string> in_type = TensorType(instruction, input->shape());
  StatusOr<std::string> init_type = TensorType(instruction, init->shape());
  StatusOr<std::string> out_type = TensorType(instruction, instruction.shape());
  if (!in_type.ok()) return in_type.status();
  if (!init_type.ok()) return init_type.status();
  if (!out_type.ok()) return out_type.status();
  const std::string& scalar = reduction->scalar;
  const std::string init_value = ExtractScalar(Value(init), *init_type);
  std::string source = Value(input);
  std::string source_type = *in_type;
  bool placed = false;
  std::vector<int64_t> padded_dims, offsets, strides;
  std::vector<std::string> input_results, window_results, out_results, iterators;
  std::vector<int64_t> window_dims;
  for (int64_t d = 0; d < rank; ++d) {
    const ir::WindowDimension& w = (*window)[static_cast<size_t>(d)];
    if (w.padding_low < 0 || w.padding_high < 0 || w.stride < 1 || w.base_dilation < 1 ||
        w.window_dilation < 1 || w.size < 1 || w.reversal)
      return Refuse(instruction, "negative padding or a reversed window is not lowered");
    const int64_t size = input->shape().dimension(d);
    const int64_t dilated = size == 0 ? 0 : (size - 1) * w.base_dilation + 1;
    padded_dims.push_back(dilated + w.padding_low + w.padding_high);
    offsets.push_back(w.padding_low);
    strides.push_back(w.base_dilation);
    placed = placed || w.padding_low > 0 || w.padding_high > 0 || w.base_dilation > 1;
    const std::string o = "d" + std::to_string(d);
    const std::string k = "d" + std::to_string(rank + d);
    input_results.push_back(o + " * " + std::to_string(w.stride) + " + " + k + " * " +
                            std::to_string(w.window_dilation));
    window_results.push_back(k);
    out_results.push_back(o);
    window_dims.push_back(w.size);
    const int64_t reach = (w.size - 1) * w.window_dilation + 1;
    const int64_t expected =
        padded_dims.back() < reach ? 0 : (padded_dims.back() - reach) / w.stride + 1;
    if (expected != instruction.shape().dimension(d))
      return Refuse(instruction, "reduce-window shape disagrees with its window");
  }
  if (instruction.shape().ElementCount() == 0 || input->shape().ElementCount() == 0)
    return Refuse(instruction, "an empty reduce-window is not lowered");
  if (placed) {
    std::string padded_type = "tensor<";
    for (int64_t d : padded_dims) padded_type += std::to_string(d) + "x";
    padded_type += scalar + ">";
    const std::string empty = Empty(padded_type);
    const std::string filled = Fresh();
    // Padding adds nothing to a window (the interpreter skips it, starting from init once):
    // it holds the combine's neutral element.
    const std::string identity = Fresh("s");
    code_ << "    " << identity << " = arith.constant " << reduction->identity << " : " << scalar
          << "\n";
    code_ << "    " << filled << " = linalg.fill ins(" << identity << " : " << scalar << ") outs("
          << empty << " : " << padded_type << ") -> " << padded_type << "\n";
    const std::string inserted = Fresh();
    code_ << "    " << inserted << " = tensor.insert_slice " << source << " into " << filled << "["
          << JoinInts(offsets) << "] [" << JoinInts(input->shape().dimensions()) << "] ["
          << JoinInts(strides) << "] : " << source_type << " into " << padded_type << "\n";
    source = inserted;
    source_type = padded_type;
  }
  std::string window_type = "tensor<";
  for (int64_t d : window_dims) window_type += std::to_string(d) + "x";
  window_type += scalar + ">";
  const std::string window_tensor = Empty(window_type);
  std::string acc_init = init_value;
  if (reduction->widen) acc_init = WidenScalar(init_value, reduction->type);
  std::string acc_type = "tensor<";
  for (int64_t d : instruction.shape().dimensions()) acc_type += std::to_string(d) + "x";
  acc_type += reduction->acc + ">";
  const std::string acc_empty = Empty(acc_type);
  const std::string acc_filled = Fresh();
  code_ << "    " << acc_filled << " = linalg.fill ins(" << acc_init << " : " << reduction->acc
        << ") outs(" << acc_empty << " : " << acc_type << ") -> " << acc_type << "\n";
  for (int64_t d = 0; d < rank; ++d) iterators.push_back("parallel");
  for (int64_t d = 0; d < rank; ++d) iterators.push_back("reduction");
  const Reduction r = *reduction;
  StatusOr<std::string> reduced = Generic(
      instruction, instruction.shape().dimensions(), r.acc, acc_filled, {source, window_tensor},
      {source_type, window_type}, {scalar, scalar},
      {Map(2 * rank, input_results), Map(2 * rank, window_results)}, Map(2 * rank, out_results),
      iterators, [&](const std::vector<Scalar>& args, std::string& code) -> StatusOr<std::string> {
        ScalarCode c(code);
        return CombineStep(c, r, args[0].name, args[2].name);
      });
  if (!reduced.ok()) return reduced.status();
  std::string result = *reduced;
  if (r.widen) {
    const int64_t out_rank = instruction.shape().rank();
    StatusOr<std::string> narrowed =
        Generic(instruction, instruction.shape().dimensions(), r.scalar, "", {result}, {acc_type},
                {"f64"}, {IdentityMap(out_rank)}, IdentityMap(out_rank),
                std::vector<std::string>(static_cast<size_t>(out_rank), "parallel"),
                [&](const std::vector<Scalar>& args, std::string& code) -> StatusOr<std::string> {
                  ScalarCode c(code);
                  return NarrowOut(c, args[0].name, r.type);
                });
    if (!narrowed.ok()) return narrowed.status();
    result = *narrowed;
  }
  values_[&instruction] = result;
  return Status::Ok();
}

// convolution as one generic: the output's dimensions but its innermost, then the reduction
// over the input features of a group and the window, then the output's innermost dimension,
// so that the innermost loop runs along a contiguous row of the output (and, stride 1, of
// the input or the kernel), which the super-vectorizer vectorizes. A padded input is first placed
// into a zero-filled tensor; a group's input features are found from the output feature (f floordiv
// per-group outputs). Floats only, summed in their own type (f32 as a convolution library does);
// batch groups, input dilation and reversed windows are refused. For the small convolutions
// a library's call costs more than it computes (CpuExecutable decides which).
Status KernelWriter::EmitConvolution(const ir::Instruction& instruction) {
  if (instruction.operand_count() != 2 || !instruction.shape().IsArray())
    return Refuse(instruction, "a convolution needs an input and a kernel");
  const ir::Instruction* input = instruction.operand(0);
  const ir::Instruction* kernel = instruction.operand(1);
  const PrimitiveType type = instruction.shape().element_type();
  if ((type != PrimitiveType::kF32 && type != PrimitiveType::kF64) ||
      input->shape().element_type() != type || kernel->shape().element_type() != type)
    return Refuse(instruction, "only f32 and f64 convolutions are lowered");
  auto labels =
      ir::ParseConvolutionDimensionLabels(instruction.attribute("dim_labels").value_or(""));
  if (!labels.ok()) return Refuse(instruction, labels.message());
  const int64_t spatial = static_cast<int64_t>(labels->input_spatial.size());
  const int64_t rank = spatial + 2;
  if (static_cast<int64_t>(labels->kernel_spatial.size()) != spatial ||
      static_cast<int64_t>(labels->output_spatial.size()) != spatial ||
      input->shape().rank() != rank || kernel->shape().rank() != rank ||
      instruction.shape().rank() != rank)
    return Refuse(instruction, "dim_labels do not fit the operands");
  std::vector<ir::WindowDimension> window(static_cast<size_t>(spatial));
  if (std::optional<std::string_view> text = instruction.attribute("window")) {
    auto parsed = ir::ParseWindow(*text);
    if (!parsed.ok() || static_cast<int64_t>(parsed->size()) != spatial)
      return Refuse(instruction, "the window does not fit the operands");
    window = *parsed;
  } else {
    for (int64_t i = 0; i < spatial; ++i)
      window[static_cast<size_t>(i)].size =
          kernel->shape().dimension(labels->kernel_spatial[static_cast<size_t>(i)]);
  }
  const int64_t groups = instruction.IntAttribute("feature_group_count").value_or(1);
  if (instruction.IntAttribute("batch_group_count").value_or(1) != 1)
    return Refuse(instruction, "batch groups are not lowered");
  const ir::Shape& out = instruction.shape();
  const int64_t out_features = out.dimension(labels->output_feature);
  const int64_t group_inputs = kernel->shape().dimension(labels->kernel_input_feature);
  if (groups < 1 || out_features % groups != 0 ||
      input->shape().dimension(labels->input_feature) != group_inputs * groups ||
      kernel->shape().dimension(labels->kernel_output_feature) != out_features ||
      input->shape().dimension(labels->input_batch) != out.dimension(labels->output_batch))
    return Refuse(instruction, "feature groups do not fit the operands");
  if (out.ElementCount() == 0 || input->shape().ElementCount() == 0 || group_inputs == 0)
    return Refuse(instruction, "an empty convolution is not lowered");
  StatusOr<std::string> in_type = TensorType(instruction, input->shape());
  StatusOr<std::string> kernel_type = TensorType(instruction, kernel->shape());
  if (!in_type.ok()) return in_type.status();
  if (!kernel_type.ok()) return kernel_type.status();
  const std::string scalar = *ScalarType(type);
  // The generic's dimensions: the output's but its innermost, then the group's input feature
  // and the window (one per spatial dimension), then the output's innermost dimension, along
  // which its rows are contiguous (x for NCHW, the feature for NHWC).
  const int64_t dims = rank + 1 + spatial;
  auto d = [](int64_t index) { return "d" + std::to_string(index); };
  auto output_dim = [&](int64_t j) { return j < rank - 1 ? d(j) : d(rank + spatial); };
  const std::string batch = output_dim(labels->output_batch);
  const std::string feature = output_dim(labels->output_feature);
  const std::string channel = d(rank - 1);
  auto window_dim = [&](int64_t i) { return d(rank + i); };
  auto out_dim = [&](int64_t i) {
    return output_dim(labels->output_spatial[static_cast<size_t>(i)]);
  };
  std::vector<std::string> in_results(static_cast<size_t>(rank)),
      kernel_results(static_cast<size_t>(rank)), out_results(static_cast<size_t>(rank));
  std::vector<int64_t> padded = input->shape().dimensions();
  std::vector<int64_t> offsets(static_cast<size_t>(rank), 0);
  bool placed = false;
  for (int64_t i = 0; i < spatial; ++i) {
    const ir::WindowDimension& w = window[static_cast<size_t>(i)];
    if (w.padding_low < 0 || w.padding_high < 0 || w.stride < 1 || w.window_dilation < 1 ||
        w.base_dilation != 1 || w.reversal || w.size < 1)
      return Refuse(instruction,
                    "negative padding, input dilation or a reversed window is not "
                    "lowered");
    const int64_t in_d = labels->input_spatial[static_cast<size_t>(i)];
    padded[static_cast<size_t>(in_d)] += w.padding_low + w.padding_high;
    offsets[static_cast<size_t>(in_d)] = w.padding_low;
    placed = placed || w.padding_low > 0 || w.padding_high > 0;
    if (w.stride > 1) vectorizable_ = false;  // strided reads (see EmitReduceWindow)
    const int64_t reach = (w.size - 1) * w.window_dilation + 1;
    const int64_t size = padded[static_cast<size_t>(in_d)];
    const int64_t expected = size < reach ? 0 : (size - reach) / w.stride + 1;
    if (expected != out.dimension(labels->output_spatial[static_cast<size_t>(i)]) ||
        kernel->shape().dimension(labels->kernel_spatial[static_cast<size_t>(i)]) != w.size)
      return Refuse(instruction, "the convolution's shape disagrees with its window");
    in_results[static_cast<size_t>(in_d)] = out_dim(i) + " * " + std::to_string(w.stride) + " + " +
                                            window_dim(i) + " * " +
                                            std::to_string(w.window_dilation);
    kernel_results[static_cast<size_t>(labels->kernel_spatial[static_cast<size_t>(i)])] =
        window_dim(i);
    out_results[static_cast<size_t>(labels->output_spatial[static_cast<size_t>(i)])] = out_dim(i);
  }
  in_results[static_cast<size_t>(labels->input_batch)] = batch;
  const int64_t group_outputs = out_features / groups;
  in_results[static_cast<size_t>(labels->input_feature)] =
      groups == 1 ? channel
                  : "(" + feature + " floordiv " + std::to_string(group_outputs) + ") * " +
                        std::to_string(group_inputs) + " + " + channel;
  kernel_results[static_cast<size_t>(labels->kernel_output_feature)] = feature;
  kernel_results[static_cast<size_t>(labels->kernel_input_feature)] = channel;
  out_results[static_cast<size_t>(labels->output_batch)] = batch;
  out_results[static_cast<size_t>(labels->output_feature)] = feature;
  std::string source = Value(input);
  std::string source_type = *in_type;
  if (placed) {
    std::string padded_type = "tensor<";
    for (int64_t size : padded) padded_type += std::to_string(size) + "x";
    padded_type += scalar + ">";
    const std::string zero = Fresh("s");
    code_ << "    " << zero << " = arith.constant 0.0 : " << scalar << "\n";
    const std::string empty = Empty(padded_type);
    const std::string filled = Fresh();
    code_ << "    " << filled << " = linalg.fill ins(" << zero << " : " << scalar << ") outs("
          << empty << " : " << padded_type << ") -> " << padded_type << "\n";
    const std::string inserted = Fresh();
    code_ << "    " << inserted << " = tensor.insert_slice " << source << " into " << filled << "["
          << JoinInts(offsets) << "] [" << JoinInts(input->shape().dimensions()) << "] ["
          << JoinInts(std::vector<int64_t>(static_cast<size_t>(rank), 1)) << "] : " << source_type
          << " into " << padded_type << "\n";
    source = inserted;
    source_type = padded_type;
  }
  std::string out_type = "tensor<";
  for (int64_t size : out.dimensions()) out_type += std::to_string(size) + "x";
  out_type += scalar + ">";
  const std::string zero = Fresh("s");
  code_ << "    " << zero << " = arith.constant 0.0 : " << scalar << "\n";
  const std::string empty = Empty(out_type);
  const std::string acc = Fresh();
  code_ << "    " << acc << " = linalg.fill ins(" << zero << " : " << scalar << ") outs(" << empty
        << " : " << out_type << ") -> " << out_type << "\n";
  std::vector<std::string> iterators(static_cast<size_t>(rank - 1), "parallel");
  for (int64_t i = 0; i <= spatial; ++i) iterators.push_back("reduction");
  iterators.push_back("parallel");
  StatusOr<std::string> result =
      Generic(instruction, out.dimensions(), scalar, acc, {source, Value(kernel)},
              {source_type, *kernel_type}, {scalar, scalar},
              {Map(dims, in_results), Map(dims, kernel_results)}, Map(dims, out_results), iterators,
              [&](const std::vector<Scalar>& args, std::string& code) -> StatusOr<std::string> {
                ScalarCode c(code);
                const std::string product = c.Bin("arith.mulf", args[0].name, args[1].name, scalar);
                return c.Bin("arith.addf", args[2].name, product, scalar);
              });
  if (!result.ok()) return result.status();
  values_[&instruction] = *result;
  return Status::Ok();
}

// gather as a generic over the output: each element reads its index vector from the indices
// and its value from the operand with tensor.extract (starts clamped into the operand, as
// XLA does). Data-dependent reads: lowered without the super-vectorizer.
Status KernelWriter::EmitGather(const ir::Instruction& instruction) {
  auto list = [&](const char* key) {
    return instruction.IntListAttribute(key).value_or(std::vector<int64_t>{});
  };
  auto has = [](const std::vector<int64_t>& values, int64_t v) {
    return std::find(values.begin(), values.end(), v) != values.end();
  };
  const ir::Instruction* operand = instruction.operand(0);
  const ir::Instruction* indices = instruction.operand(1);
  const std::vector<int64_t> offset_dims = list("offset_dims");
  const std::vector<int64_t> collapsed = list("collapsed_slice_dims");
  const std::vector<int64_t> start_index_map = list("start_index_map");
  const std::vector<int64_t> operand_batching = list("operand_batching_dims");
  const std::vector<int64_t> indices_batching = list("start_indices_batching_dims");
  const std::vector<int64_t> slice_sizes = list("slice_sizes");
  const std::optional<int64_t> vector_dim = instruction.IntAttribute("index_vector_dim");
  const std::vector<int64_t>& in_dims = operand->shape().dimensions();
  const ir::Shape& shape = instruction.shape();
  const PrimitiveType index_type = indices->shape().element_type();
  if (!vector_dim || slice_sizes.size() != in_dims.size() ||
      operand_batching.size() != indices_batching.size() || !ir::IsIntegralType(index_type))
    return Refuse(instruction, "gather dimension numbers do not fit the operand");
  std::vector<int64_t> window_operand_dims;
  for (int64_t d = 0; d < static_cast<int64_t>(in_dims.size()); ++d) {
    if (!has(collapsed, d) && !has(operand_batching, d)) window_operand_dims.push_back(d);
  }
  if (window_operand_dims.size() != offset_dims.size())
    return Refuse(instruction, "gather offset_dims do not fit the operand");
  for (int64_t d : start_index_map) {
    if (d < 0 || d >= static_cast<int64_t>(in_dims.size()) ||
        slice_sizes[static_cast<size_t>(d)] > in_dims[static_cast<size_t>(d)])
      return Refuse(instruction, "gather start_index_map does not fit the operand");
  }
  StatusOr<std::string> operand_type = TensorType(instruction, operand->shape());
  StatusOr<std::string> indices_type = TensorType(instruction, indices->shape());
  StatusOr<std::string> out_type = TensorType(instruction, shape);
  if (!operand_type.ok()) return operand_type.status();
  if (!indices_type.ok()) return indices_type.status();
  if (!out_type.ok()) return out_type.status();
  vectorizable_ = false;
  const std::string operand_value = Value(operand);
  const std::string indices_value = Value(indices);
  const std::string it = *ScalarType(index_type);
  const bool is_unsigned = IsUnsigned(index_type);
  const int64_t rank = shape.rank();
  StatusOr<std::string> name = Generic(
      instruction, shape.dimensions(), *ScalarType(shape.element_type()), "", {}, {}, {}, {},
      IdentityMap(rank), std::vector<std::string>(static_cast<size_t>(rank), "parallel"),
      [&](const std::vector<Scalar>&, std::string& code) -> StatusOr<std::string> {
        ScalarCode c(code);
        std::vector<std::string> out, batch;
        for (int64_t d = 0; d < rank; ++d) {
          out.push_back(c.Op("linalg.index " + std::to_string(d), "index"));
          if (!has(offset_dims, d)) batch.push_back(out.back());
        }
        std::vector<std::string> start(in_dims.size());
        for (size_t d = 0; d < in_dims.size(); ++d) start[d] = c.Const("0", "index");
        for (size_t k = 0; k < start_index_map.size(); ++k) {
          std::vector<std::string> at;
          size_t b = 0;
          for (int64_t d = 0; d < indices->shape().rank(); ++d) {
            if (d == *vector_dim) {
              at.push_back(c.Const(std::to_string(k), "index"));
            } else {
              if (b >= batch.size()) return Status::Error("gather indices do not fit the output");
              at.push_back(batch[b++]);
            }
          }
          const std::string raw =
              c.Op("tensor.extract " + indices_value + "[" + Join(at) + "]", *indices_type);
          const auto d = static_cast<size_t>(start_index_map[k]);
          const std::string high = c.Const(std::to_string(in_dims[d] - slice_sizes[d]), it);
          std::string clamped = raw;
          if (!is_unsigned) clamped = c.Bin("arith.maxsi", raw, c.Const("0", it), it);
          clamped = c.Bin(is_unsigned ? "arith.minui" : "arith.minsi", clamped, high, it);
          start[d] =
              c.Cast(is_unsigned ? "arith.index_castui" : "arith.index_cast", clamped, it, "index");
        }
        for (size_t j = 0; j < operand_batching.size(); ++j) {
          const int64_t dim = indices_batching[j];
          const size_t b = static_cast<size_t>(dim < *vector_dim ? dim : dim - 1);
          if (b >= batch.size()) return Status::Error("gather batching dims do not fit");
          start[static_cast<size_t>(operand_batching[j])] = batch[b];
        }
        for (size_t k = 0; k < offset_dims.size(); ++k) {
          const auto d = static_cast<size_t>(window_operand_dims[k]);
          start[d] =
              c.Bin("arith.addi", start[d], out[static_cast<size_t>(offset_dims[k])], "index");
        }
        return c.Op("tensor.extract " + operand_value + "[" + Join(start) + "]", *operand_type);
      });
  if (!name.ok()) return name.status();
  values_[&instruction] = *name;
  return Status::Ok();
}

Status KernelWriter::EmitReverse(const ir::Instruction& instruction) {
  vectorizable_ = false;
  const ir::Instruction* operand = instruction.operand(0);
  const int64_t rank = instruction.shape().rank();
  std::vector<std::string> results;
  for (int64_t d = 0; d < rank; ++d) results.push_back("d" + std::to_string(d));
  for (int64_t d : instruction.dimensions().value_or(std::vector<int64_t>{})) {
    if (d < 0 || d >= rank) return Refuse(instruction, "reverse dimension out of range");
    results[static_cast<size_t>(d)] =
        "-d" + std::to_string(d) + " + " + std::to_string(instruction.shape().dimension(d) - 1);
  }
  StatusOr<std::string> type = TensorType(instruction, operand->shape());
  if (!type.ok()) return type.status();
  const std::string scalar = *ScalarType(operand->shape().element_type());
  StatusOr<std::string> name =
      Generic(instruction, instruction.shape().dimensions(), scalar, "", {Value(operand)}, {*type},
              {scalar}, {Map(rank, results)}, IdentityMap(rank),
              std::vector<std::string>(static_cast<size_t>(rank), "parallel"),
              [](const std::vector<Scalar>& args, std::string&) -> StatusOr<std::string> {
                return args[0].name;
              });
  if (!name.ok()) return name.status();
  values_[&instruction] = *name;
  return Status::Ok();
}

StatusOr<std::vector<std::string>> KernelWriter::ClampedStarts(const ir::Instruction& instruction,
                                                               int64_t first,
                                                               const std::vector<int64_t>& dims,
                                                               const std::vector<int64_t>& sizes) {
  if (instruction.operand_count() != first + static_cast<int64_t>(dims.size()))
    return Refuse(instruction, "needs one scalar start index per dimension");
  std::vector<std::string> starts;
  for (size_t d = 0; d < dims.size(); ++d) {
    const ir::Instruction* start = instruction.operand(first + static_cast<int64_t>(d));
    const PrimitiveType type = start->shape().element_type();
    if (start->shape().rank() != 0 || !ir::IsIntegralType(type))
      return Refuse(instruction, "start indices must be integer scalars");
    if (sizes[d] > dims[d]) return Refuse(instruction, "the slice is larger than its operand");
    StatusOr<std::string> start_type = TensorType(instruction, start->shape());
    if (!start_type.ok()) return start_type.status();
    const std::string t = *ScalarType(type);
    const std::string value = ExtractScalar(Value(start), *start_type);
    const std::string zero = Fresh("s");
    const std::string high = Fresh("s");
    code_ << "    " << zero << " = arith.constant 0 : " << t << "\n";
    code_ << "    " << high << " = arith.constant " << dims[d] - sizes[d] << " : " << t << "\n";
    const bool is_unsigned = IsUnsigned(type);
    std::string clamped = value;
    if (!is_unsigned) {
      const std::string low_clamped = Fresh("s");
      code_ << "    " << low_clamped << " = arith.maxsi " << value << ", " << zero << " : " << t
            << "\n";
      clamped = low_clamped;
    }
    const std::string both = Fresh("s");
    code_ << "    " << both << " = " << (is_unsigned ? "arith.minui " : "arith.minsi ") << clamped
          << ", " << high << " : " << t << "\n";
    const std::string index = Fresh("s");
    code_ << "    " << index << " = " << (is_unsigned ? "arith.index_castui " : "arith.index_cast ")
          << both << " : " << t << " to index\n";
    starts.push_back(index);
  }
  return starts;
}

Status KernelWriter::EmitDynamicSlice(const ir::Instruction& instruction) {
  const ir::Instruction* operand = instruction.operand(0);
  const bool update = instruction.opcode() == Opcode::kDynamicUpdateSlice;
  const std::vector<int64_t>& dims = operand->shape().dimensions();
  const ir::Instruction* source = update ? instruction.operand(1) : nullptr;
  const std::vector<int64_t> sizes =
      update ? source->shape().dimensions() : instruction.shape().dimensions();
  if (sizes.size() != dims.size()) return Refuse(instruction, "slice rank differs from operand's");
  StatusOr<std::vector<std::string>> starts =
      ClampedStarts(instruction, update ? 2 : 1, dims, sizes);
  if (!starts.ok()) return starts.status();
  StatusOr<std::string> in_type = TensorType(instruction, operand->shape());
  StatusOr<std::string> out_type = TensorType(instruction, instruction.shape());
  if (!in_type.ok()) return in_type.status();
  if (!out_type.ok()) return out_type.status();
  const std::string ones = JoinInts(std::vector<int64_t>(dims.size(), 1));
  const std::string name = Fresh();
  if (update) {
    StatusOr<std::string> source_type = TensorType(instruction, source->shape());
    if (!source_type.ok()) return source_type.status();
    if (&instruction == in_place_update_) {
      // Nothing is computed here: Write puts the source into a window of the output.
      window_ = {Value(source), *source_type, *starts, sizes};
      values_[&instruction] = window_.source;
      return Status::Ok();
    }
    code_ << "    " << name << " = tensor.insert_slice " << Value(source) << " into "
          << Value(operand) << "[" << Join(*starts) << "] [" << JoinInts(sizes) << "] [" << ones
          << "] : " << *source_type << " into " << *out_type << "\n";
  } else {
    code_ << "    " << name << " = tensor.extract_slice " << Value(operand) << "[" << Join(*starts)
          << "] [" << JoinInts(sizes) << "] [" << ones << "] : " << *in_type << " to " << *out_type
          << "\n";
  }
  values_[&instruction] = name;
  return Status::Ok();
}

Status KernelWriter::EmitConstant(const ir::Instruction& instruction) {
  const ir::Shape& shape = instruction.shape();
  StatusOr<std::string> type = TensorType(instruction, shape);
  if (!type.ok()) return type.status();
  std::optional<passes::LiteralValue> value = passes::LiteralValue::Of(instruction);
  if (!value) {
    return Refuse(instruction, instruction.literal().find("...") != std::string::npos
                                   ? "the constant's value was elided from the text"
                                   : "the constant's literal is not readable");
  }
  const PrimitiveType element = shape.element_type();
  std::string dense;
  if (element == PrimitiveType::kPred) {
    std::vector<std::string> parts;
    for (int64_t i = 0; i < value->element_count(); ++i)
      parts.push_back(value->GetInt(i) ? "true" : "false");
    dense = shape.rank() == 0 ? parts.at(0) : "[" + Join(parts) + "]";
    if (shape.rank() > 1) {
      // A nested list would be needed; a flat one plus a reshape is simpler.
      const std::string flat_type = "tensor<" + std::to_string(value->element_count()) + "xi1>";
      const std::string flat = Fresh("c");
      code_ << "    " << flat << " = arith.constant dense<" << dense << "> : " << flat_type << "\n";
      std::vector<int64_t> all;
      for (int64_t d = 0; d < shape.rank(); ++d) all.push_back(d);
      const std::string name = Fresh();
      code_ << "    " << name << " = tensor.expand_shape " << flat << " [[" << JoinInts(all)
            << "]] output_shape [" << JoinInts(shape.dimensions()) << "] : " << flat_type
            << " into " << *type << "\n";
      values_[&instruction] = name;
      return Status::Ok();
    }
  } else {
    // The raw little-endian bytes, as MLIR reads a hexadecimal dense literal.
    StatusOr<Literal> literal = Literal::Create(shape);
    if (!literal.ok()) return Refuse(instruction, literal.message());
    for (int64_t i = 0; i < literal->element_count(); ++i) {
      if (literal->is_floating())
        literal->SetDouble(i, value->GetDouble(i));
      else
        literal->SetInt(i, value->GetInt(i));
    }
    dense = "\"0x";
    static const char kHex[] = "0123456789ABCDEF";
    for (size_t i = 0; i < literal->byte_size(); ++i) {
      dense += kHex[literal->data()[i] >> 4];
      dense += kHex[literal->data()[i] & 15];
    }
    dense += "\"";
    if (literal->byte_size() == 0) dense = "[]";
  }
  const std::string name = Fresh("c");
  code_ << "    " << name << " = arith.constant dense<" << dense << "> : " << *type << "\n";
  values_[&instruction] = name;
  return Status::Ok();
}

Status KernelWriter::Emit(const ir::Instruction& instruction) {
  const Opcode opcode = instruction.opcode();
  // MLIR 19's affine super-vectorizer crashes (a segfault verifying the vector.reduction it
  // wrote) on a reduction whose loop body computes with its own induction variable: an iota
  // summed or masked along the reduced dimension, as a causal attention mask's row max does.
  // Values an iota feeds are followed, and a reduce of one is lowered without the vectorizer.
  bool from_iota = opcode == Opcode::kIota;
  for (const ir::Instruction* operand : instruction.operands())
    from_iota = from_iota || iota_derived_.count(operand) > 0;
  if (from_iota) iota_derived_.insert(&instruction);
  if (from_iota && opcode == Opcode::kReduce) vectorizable_ = false;
  if (opcode == Opcode::kGetTupleElement) {
    auto tuple = tuple_values_.find(instruction.operand(0));
    std::optional<int64_t> index = instruction.tuple_index();
    if (tuple == tuple_values_.end() || !index || *index < 0 ||
        *index >= static_cast<int64_t>(tuple->second.size()))
      return Refuse(instruction, "get-tuple-element of a value the kernel does not compute");
    values_[&instruction] = tuple->second[static_cast<size_t>(*index)];
    return Status::Ok();
  }
  for (const ir::Instruction* operand : instruction.operands()) {
    // The in-place update's operand is the output itself, never read as a value.
    if (&instruction == in_place_update_ && operand == instruction.operand(0)) continue;
    if (!values_.count(operand))
      return Refuse(instruction, "operand " + operand->name() + " is computed outside the kernel");
  }
  if (IsLoweredElementwise(opcode)) return EmitElementwise(instruction);
  switch (opcode) {
    case Opcode::kBroadcast:
      return EmitBroadcast(instruction);
    case Opcode::kTranspose:
      return EmitTranspose(instruction);
    case Opcode::kReshape:
    case Opcode::kBitcast:
      return EmitReshape(instruction);
    case Opcode::kSlice:
      return EmitSlice(instruction);
    case Opcode::kConcatenate:
      return EmitConcatenate(instruction);
    case Opcode::kPad:
      return EmitPad(instruction);
    case Opcode::kIota:
      return EmitIota(instruction);
    case Opcode::kReduce:
      return EmitReduce(instruction);
    case Opcode::kReduceWindow:
      return EmitReduceWindow(instruction);
    case Opcode::kConvolution:
      return EmitConvolution(instruction);
    case Opcode::kReverse:
      return EmitReverse(instruction);
    case Opcode::kGather:
      return EmitGather(instruction);
    case Opcode::kDynamicSlice:
    case Opcode::kDynamicUpdateSlice:
      return EmitDynamicSlice(instruction);
    case Opcode::kConstant:
      return EmitConstant(instruction);
    default:
      return Refuse(instruction,
                    "opcode " + std::string(instruction.opcode_name()) + " is not lowered to MLIR");
  }
}

int KernelWriter::InPlaceInput(const std::vector<const ir::Instruction*>& inputs,
                               const std::vector<const ir::Instruction*>& body,
                               const std::vector<const ir::Instruction*>& outputs) {
  if (outputs.size() != 1 || outputs.front()->opcode() != Opcode::kDynamicUpdateSlice ||
      !outputs.front()->shape().IsArray() || outputs.front()->shape().rank() == 0)
    return -1;
  const ir::Instruction* operand = outputs.front()->operand(0);
  if (std::count(inputs.begin(), inputs.end(), operand) != 1) return -1;
  int64_t reads = 0;
  for (const ir::Instruction* instruction : body)
    reads += std::count(instruction->operands().begin(), instruction->operands().end(), operand);
  if (reads != 1) return -1;
  return static_cast<int>(std::find(inputs.begin(), inputs.end(), operand) - inputs.begin());
}

Status KernelWriter::WriteWindow(const std::string& arg, const std::string& memref_type) {
  const ir::Instruction& update = *in_place_update_;
  if (window_.source.empty()) return Refuse(update, "the in-place update was never emitted");
  const std::vector<int64_t>& dims = update.shape().dimensions();
  std::vector<int64_t> strides(dims.size(), 1);
  for (size_t d = dims.size() - 1; d > 0; --d) strides[d - 1] = strides[d] * dims[d];
  // tensor<1x4x128xf32> -> memref<1x4x128xf32, strided<[512, 128, 1], offset: ?>>
  const std::string& source_type = window_.source_type;
  const std::string view_type = "memref" +
                                source_type.substr(std::strlen("tensor"), source_type.size() - 7) +
                                ", strided<[" + JoinInts(strides) + "], offset: ?>>";
  const std::string view = Fresh("window");
  code_ << "    // in place: " << arg << " holds the updated operand on entry; only the window "
        << "is written\n";
  code_ << "    " << view << " = memref.subview " << arg << "[" << Join(window_.starts) << "] ["
        << JoinInts(window_.sizes) << "] [" << JoinInts(std::vector<int64_t>(dims.size(), 1))
        << "] : " << memref_type << " to " << view_type << "\n";
  code_ << "    bufferization.materialize_in_destination " << window_.source
        << " in restrict writable " << view << " : (" << source_type << ", " << view_type
        << ") -> ()\n";
  return Status::Ok();
}

StatusOr<EmittedKernel> KernelWriter::Write(const std::vector<const ir::Instruction*>& inputs,
                                            const std::vector<const ir::Instruction*>& body,
                                            const std::vector<const ir::Instruction*>& outputs,
                                            bool in_place) {
  EmittedKernel kernel;
  kernel.function_name = "kernel";
  if (in_place) kernel.in_place_input = InPlaceInput(inputs, body, outputs);
  if (kernel.in_place_input >= 0) in_place_update_ = outputs.front();
  std::vector<std::string> arguments;
  for (size_t i = 0; i < inputs.size(); ++i) {
    StatusOr<std::string> memref = MemrefType(*inputs[i], inputs[i]->shape());
    if (!memref.ok()) return memref.status();
    const std::string arg = "%arg" + std::to_string(i);
    arguments.push_back(arg + ": " + *memref);
    kernel.input_shapes.push_back(inputs[i]->shape());
    // The in-place input is never read: its bytes are the output's on entry.
    if (static_cast<int>(i) == kernel.in_place_input) continue;
    if (values_.count(inputs[i])) continue;  // passed twice: the first argument is read
    const std::string name = Fresh("p");
    code_ << "    " << name << " = bufferization.to_tensor " << arg << " restrict : " << *memref
          << "\n";
    values_[inputs[i]] = name;
  }
  for (const ir::Instruction* instruction : body) {
    if (values_.count(instruction)) continue;
    Status emitted = Emit(*instruction);
    if (!emitted.ok()) return emitted;
  }
  // A tuple-shaped output (a reduce of several operands) is written element by element.
  std::vector<std::pair<std::string, ir::Shape>> written;
  for (const ir::Instruction* output : outputs) {
    auto tuple = tuple_values_.find(output);
    if (tuple != tuple_values_.end()) {
      for (size_t e = 0; e < tuple->second.size(); ++e)
        written.emplace_back(tuple->second[e], output->shape().tuple_shapes()[e]);
      continue;
    }
    if (!values_.count(output)) return Refuse(*output, "the kernel's output is never computed");
    written.emplace_back(Value(output), output->shape());
  }
  for (size_t i = 0; i < written.size(); ++i) {
    const ir::Instruction& at = *outputs.front();
    StatusOr<std::string> memref = MemrefType(at, written[i].second);
    StatusOr<std::string> tensor = TensorType(at, written[i].second);
    if (!memref.ok()) return memref.status();
    const std::string arg = "%out" + std::to_string(i);
    arguments.push_back(arg + ": " + *memref);
    kernel.output_shapes.push_back(written[i].second);
    if (in_place_update_ != nullptr) {
      Status windowed = WriteWindow(arg, *memref);
      if (!windowed.ok()) return windowed;
      continue;
    }
    code_ << "    bufferization.materialize_in_destination " << written[i].first
          << " in restrict writable " << arg << " : (" << *tensor << ", " << *memref << ") -> ()\n";
  }
  kernel.vectorizable = vectorizable_;
  kernel.text = "module {\n  func.func @kernel(" + Join(arguments) +
                ") attributes {llvm.emit_c_interface} {\n" + code_.str() + "    return\n  }\n}\n";
  return kernel;
}

}  // namespace

bool IsEmittableOpcode(Opcode opcode) {
  switch (opcode) {
    case Opcode::kBroadcast:
    case Opcode::kTranspose:
    case Opcode::kReshape:
    case Opcode::kBitcast:
    case Opcode::kSlice:
    case Opcode::kConcatenate:
    case Opcode::kPad:
    case Opcode::kIota:
    case Opcode::kReduce:
    case Opcode::kReduceWindow:
    case Opcode::kReverse:
    case Opcode::kGather:
    case Opcode::kDynamicSlice:
    case Opcode::kDynamicUpdateSlice:
    case Opcode::kConstant:
      return true;
    default:
      return IsLoweredElementwise(opcode);
  }
}

StatusOr<EmittedKernel> EmitKernel(const std::vector<const ir::Instruction*>& inputs,
                                   const std::vector<const ir::Instruction*>& body,
                                   const std::vector<const ir::Instruction*>& outputs,
                                   bool in_place) {
  KernelWriter writer;
  return writer.Write(inputs, body, outputs, in_place);
}

StatusOr<EmittedKernel> EmitFusionKernel(const ir::Instruction& fusion, bool in_place) {
  const ir::Computation* fused = fusion.fused_computation();
  if (fused == nullptr || fused->root() == nullptr)
    return Refuse(fusion, "the fusion has no fused computation");
  std::vector<const ir::Instruction*> inputs;
  for (int64_t i = 0; i < fused->parameter_count(); ++i) {
    if (fused->parameter(i) == nullptr) return Refuse(fusion, "a fused parameter is missing");
    inputs.push_back(fused->parameter(i));
  }
  std::vector<const ir::Instruction*> body;
  for (const ir::Instruction* instruction : fused->MakePostOrder()) {
    if (instruction->opcode() == Opcode::kParameter) continue;
    if (instruction == fused->root() && instruction->opcode() == Opcode::kTuple) continue;
    body.push_back(instruction);
  }
  std::vector<const ir::Instruction*> outputs;
  if (fused->root()->opcode() == Opcode::kTuple) {
    for (const ir::Instruction* element : fused->root()->operands()) outputs.push_back(element);
  } else {
    outputs.push_back(fused->root());
  }
  return EmitKernel(inputs, body, outputs, in_place);
}

StatusOr<EmittedKernel> EmitInstructionKernel(const ir::Instruction& instruction, bool in_place) {
  std::vector<const ir::Instruction*> inputs(instruction.operands().begin(),
                                             instruction.operands().end());
  return EmitKernel(inputs, {&instruction}, {&instruction}, in_place);
}

}  // namespace fusescope::runtime
