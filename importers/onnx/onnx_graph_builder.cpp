#include <charconv>
#include <cmath>
#include <limits>

#include "importers/onnx/onnx_internal.h"
#include "ir/shape_inference.h"

namespace fusescope::ir::onnx_import {
namespace {

std::string IntList(const std::vector<int64_t>& values) {
  std::string out = "{";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ",";
    out += std::to_string(values[i]);
  }
  return out + "}";
}

std::string Quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      out += ' ';
      continue;
    }
    out += c;
  }
  return out + "\"";
}

std::string ScalarText(PrimitiveType type, double value) {
  if (type == PrimitiveType::kPred) return value != 0 ? "true" : "false";
  if (IsFloatingPointType(type) || IsComplexType(type)) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
    char buffer[64];
    auto result = type == PrimitiveType::kF64
                      ? std::to_chars(buffer, buffer + sizeof buffer, value)
                      : std::to_chars(buffer, buffer + sizeof buffer, static_cast<float>(value));
    const std::string text(buffer, result.ptr);
    return IsComplexType(type) ? "(" + text + ", 0)" : text;
  }
  // Values come from the model and may not fit the type: clamp to what it holds (NaN as 0).
  if (std::isnan(value)) return "0";
  if (type == PrimitiveType::kU64) {
    if (value <= 0) return "0";
    if (value >= 0x1p64) return std::to_string(UINT64_MAX);
    return std::to_string(static_cast<uint64_t>(value));
  }
  const double low = LowestValue(type);
  const double high = HighestValue(type);
  if (value <= low) value = low;
  if (value >= high) value = high;
  if (value >= 0x1p63) return std::to_string(INT64_MAX);
  return std::to_string(static_cast<int64_t>(value));
}

}  // namespace

std::string IntListText(const std::vector<int64_t>& values) { return IntList(values); }

std::optional<std::vector<int64_t>> BroadcastDims(const std::vector<int64_t>& a,
                                                  const std::vector<int64_t>& b) {
  const size_t rank = std::max(a.size(), b.size());
  std::vector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) return std::nullopt;
    out[i] = da == 1 ? db : da;
  }
  return out;
}

double LowestValue(PrimitiveType type) {
  if (IsFloatingPointType(type)) return -std::numeric_limits<double>::infinity();
  if (type == PrimitiveType::kPred || !IsSignedIntegralType(type)) return 0;
  return -std::ldexp(1.0, PrimitiveTypeBitWidth(type) - 1);
}

double HighestValue(PrimitiveType type) {
  if (IsFloatingPointType(type)) return std::numeric_limits<double>::infinity();
  if (type == PrimitiveType::kPred) return 1;
  const int bits = PrimitiveTypeBitWidth(type) - (IsSignedIntegralType(type) ? 1 : 0);
  // 2^63-1 and 2^64-1 are not doubles; the nearest below is what a literal can say.
  return bits >= 53 ? std::ldexp(1.0, bits) - std::ldexp(1.0, bits - 53)
                    : std::ldexp(1.0, bits) - 1;
}

GraphBuilder::GraphBuilder(std::string entry_name) {
  entry_ = std::make_unique<Computation>(UniqueName(entry_name));
}

std::string SanitizedName(std::string_view base_name) {
  std::string base;
  for (char c : base_name) {
    const bool ok = std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
    base += ok ? c : '_';
  }
  while (!base.empty() && (base.back() == '.' || base.back() == '-')) base.pop_back();
  if (base.empty() || std::isdigit(static_cast<unsigned char>(base.front())) ||
      base.front() == '.' || base.front() == '-') {
    base = "v" + base;
  }
  // A trailing `.N` would collide with the suffixes handed out below.
  const size_t dot = base.rfind('.');
  if (dot != std::string::npos &&
      base.find_first_not_of("0123456789", dot + 1) == std::string::npos) {
    base[dot] = '_';
  }
  return base;
}

std::string GraphBuilder::UniqueName(std::string_view base_name) {
  const std::string base = SanitizedName(base_name);
  if (names_.insert(base).second) return base;
  int64_t& next = next_suffix_[base];
  if (next == 0) next = 1;
  std::string candidate;
  do {
    candidate = base + "." + std::to_string(next++);
  } while (!names_.insert(candidate).second);
  return candidate;
}

void GraphBuilder::SetNode(const std::string& op_type, const std::string& node_name) {
  metadata_ = OpMetadata();
  if (!op_type.empty()) metadata_.Set("op_type", Quoted(op_type));
  if (!node_name.empty()) metadata_.Set("op_name", Quoted(node_name));
}

Status GraphBuilder::TakeError() {
  Status error = std::move(error_);
  error_ = Status::Ok();
  return error;
}

Instruction* GraphBuilder::Emit(Opcode opcode, Shape shape, std::vector<Instruction*> operands,
                                std::vector<std::pair<std::string, std::string>> attributes,
                                std::string_view name, Computation* to_apply) {
  const bool infer = shape.element_type() == PrimitiveType::kInvalid;
  if (!shape.IsTuple() && !CheckedElementCount(shape.dimensions(), max_elements_)) {
    if (error_.ok()) {
      error_ = Status::Error(std::string(OpcodeName(opcode)) + " result " +
                             IntListText(shape.dimensions()) + " is negative or has more than " +
                             std::to_string(max_elements_) + " elements");
    }
    shape = Shape(PrimitiveType::kF32, {});
  }
  auto instruction = Instruction::Create(opcode, shape, std::move(operands),
                                         UniqueName(name.empty() ? OpcodeName(opcode) : name));
  for (auto& [key, value] : attributes) instruction->SetAttribute(key, std::move(value));
  if (to_apply) instruction->AddCalledComputation("to_apply", to_apply);
  instruction->set_metadata(metadata_);
  Instruction* added = entry_->AddInstruction(std::move(instruction));
  StatusOr<std::optional<Shape>> inferred = InferShape(*added);
  if (!inferred.ok()) {
    if (error_.ok()) {
      error_ = Status::Error(std::string(OpcodeName(opcode)) + ": " + inferred.message());
    }
  } else if (inferred->has_value()) {
    if (infer) {
      added->set_shape(**inferred);
    } else if (!(*inferred)->Compatible(shape) && error_.ok()) {
      error_ = Status::Error(std::string(OpcodeName(opcode)) + " gives " +
                             (*inferred)->ToString(false) + ", not " + shape.ToString(false));
    }
  } else if (infer && error_.ok()) {
    error_ = Status::Error(std::string(OpcodeName(opcode)) + ": no shape");
  }
  if (added->shape().element_type() == PrimitiveType::kInvalid) {
    added->set_shape(Shape(PrimitiveType::kF32, {}));  // keeps later nodes well formed
  }
  return added;
}

Instruction* GraphBuilder::Parameter(int64_t number, Shape shape, std::string_view name) {
  auto instruction =
      Instruction::Create(Opcode::kParameter, std::move(shape), {}, UniqueName(name));
  instruction->set_parameter_number(number);
  instruction->set_metadata(metadata_);
  return entry_->AddInstruction(std::move(instruction));
}

Instruction* GraphBuilder::Constant(Shape shape, std::string literal, std::string_view name) {
  auto instruction = Instruction::Create(Opcode::kConstant, std::move(shape), {},
                                         UniqueName(name.empty() ? "constant" : name));
  instruction->set_literal(std::move(literal));
  instruction->set_metadata(metadata_);
  return entry_->AddInstruction(std::move(instruction));
}

Instruction* ConstantOf(GraphBuilder& builder, const TensorData& data, std::string_view name) {
  Instruction* constant = builder.Constant(data.shape, LiteralText(data), name);
  if (data.bytes) constant->set_constant_bytes(data.bytes);
  return constant;
}

Instruction* GraphBuilder::Scalar(PrimitiveType type, double value) {
  return Constant(Shape(type, {}), ScalarText(type, value));
}

Instruction* GraphBuilder::Splat(PrimitiveType type, double value,
                                 const std::vector<int64_t>& dims) {
  Instruction* scalar = Scalar(type, value);
  if (dims.empty()) return scalar;
  return BroadcastInDim(scalar, dims, {});
}

Instruction* GraphBuilder::CustomCall(const std::string& target, Shape shape,
                                      std::vector<Instruction*> operands) {
  return Emit(Opcode::kCustomCall, std::move(shape), std::move(operands),
              {{"custom_call_target", Quoted(target)}});
}

Instruction* GraphBuilder::Reshape(Instruction* x, std::vector<int64_t> dims) {
  if (x->shape().dimensions() == dims) return x;
  return Emit(Opcode::kReshape, Shape(x->shape().element_type(), std::move(dims)), {x});
}

Instruction* GraphBuilder::Transpose(Instruction* x, std::vector<int64_t> permutation) {
  bool identity = true;
  for (size_t i = 0; i < permutation.size(); ++i)
    identity &= permutation[i] == static_cast<int64_t>(i);
  if (identity) return x;
  return Emit(Opcode::kTranspose, Shape(), {x}, {{"dimensions", IntList(permutation)}});
}

Instruction* GraphBuilder::Convert(Instruction* x, PrimitiveType type) {
  if (x->shape().element_type() == type) return x;
  return Emit(Opcode::kConvert, Shape(type, x->shape().dimensions()), {x});
}

Instruction* GraphBuilder::Unary(Opcode opcode, Instruction* x) {
  return Emit(opcode, Shape(), {x});
}

Instruction* GraphBuilder::BroadcastInDim(Instruction* x, std::vector<int64_t> dims,
                                          std::vector<int64_t> operand_to_output) {
  return Emit(Opcode::kBroadcast, Shape(x->shape().element_type(), std::move(dims)), {x},
              {{"dimensions", IntList(operand_to_output)}});
}

Instruction* GraphBuilder::BroadcastTo(Instruction* x, const std::vector<int64_t>& dims) {
  const auto& from = x->shape().dimensions();
  if (from == dims) return x;
  const size_t offset = dims.size() - from.size();
  std::vector<int64_t> kept_dims;
  std::vector<int64_t> mapping;
  for (size_t i = 0; i < from.size(); ++i) {
    if (from[i] == dims[offset + i]) {
      kept_dims.push_back(from[i]);
      mapping.push_back(static_cast<int64_t>(offset + i));
    }
  }
  Instruction* operand = Reshape(x, kept_dims);
  return BroadcastInDim(operand, dims, mapping);
}

StatusOr<Instruction*> GraphBuilder::Binary(Opcode opcode, Instruction* a, Instruction* b,
                                            std::string_view direction) {
  std::optional<std::vector<int64_t>> dims =
      BroadcastDims(a->shape().dimensions(), b->shape().dimensions());
  if (!dims) {
    return Status::Error("shapes " + a->shape().ToString(false) + " and " +
                         b->shape().ToString(false) + " do not broadcast");
  }
  if (a->shape().element_type() != b->shape().element_type()) {
    return Status::Error("element types " + a->shape().ToString(false) + " and " +
                         b->shape().ToString(false) + " differ");
  }
  a = BroadcastTo(a, *dims);
  b = BroadcastTo(b, *dims);
  if (opcode == Opcode::kCompare) {
    return Emit(Opcode::kCompare, Shape(PrimitiveType::kPred, *dims), {a, b},
                {{"direction", std::string(direction)}});
  }
  return Emit(opcode, Shape(a->shape().element_type(), *dims), {a, b});
}

Instruction* GraphBuilder::Select(Instruction* predicate, Instruction* on_true,
                                  Instruction* on_false) {
  return Emit(Opcode::kSelect, Shape(), {predicate, on_true, on_false});
}

Computation* GraphBuilder::Reducer(Opcode opcode, PrimitiveType type) {
  auto [it, added] = reducer_by_kind_.emplace(std::make_pair(opcode, type), nullptr);
  if (!added) return it->second;
  const std::string name = UniqueName(std::string(OpcodeName(opcode)) + "_" +
                                      std::string(PrimitiveTypeName(type)) + ".reducer");
  auto computation = std::make_unique<Computation>(name);
  std::vector<Instruction*> params;
  for (int64_t i = 0; i < 2; ++i) {
    auto param = Instruction::Create(Opcode::kParameter, Shape(type, {}), {},
                                     UniqueName(i == 0 ? "lhs" : "rhs"));
    param->set_parameter_number(i);
    params.push_back(computation->AddInstruction(std::move(param)));
  }
  Instruction* root = computation->AddInstruction(
      Instruction::Create(opcode, Shape(type, {}), params, UniqueName(OpcodeName(opcode))));
  computation->set_root(root);
  it->second = computation.get();
  reducers_.push_back(std::move(computation));
  return it->second;
}

Computation* GraphBuilder::ArgReducer(PrimitiveType type, bool max, bool last_index) {
  auto [it, added] = arg_reducers_.emplace(std::make_tuple(type, max, last_index), nullptr);
  if (!added) return it->second;
  auto computation =
      std::make_unique<Computation>(UniqueName(std::string(max ? "argmax_" : "argmin_") +
                                               std::string(PrimitiveTypeName(type)) + ".reducer"));
  const Shape value(type, {});
  const Shape index(PrimitiveType::kS64, {});
  const Shape flag(PrimitiveType::kPred, {});
  std::vector<Instruction*> p;
  const char* names[] = {"value_a", "index_a", "value_b", "index_b"};
  for (int64_t i = 0; i < 4; ++i) {
    auto param =
        Instruction::Create(Opcode::kParameter, i % 2 ? index : value, {}, UniqueName(names[i]));
    param->set_parameter_number(i);
    p.push_back(computation->AddInstruction(std::move(param)));
  }
  auto add = [&](Opcode opcode, const Shape& shape, std::vector<Instruction*> operands,
                 const char* direction = nullptr) {
    auto instruction =
        Instruction::Create(opcode, shape, std::move(operands), UniqueName(OpcodeName(opcode)));
    if (direction) instruction->SetAttribute("direction", direction);
    return computation->AddInstruction(std::move(instruction));
  };
  Instruction* better = add(Opcode::kCompare, flag, {p[0], p[2]}, max ? "GT" : "LT");
  Instruction* equal = add(Opcode::kCompare, flag, {p[0], p[2]}, "EQ");
  Instruction* earlier = add(Opcode::kCompare, flag, {p[1], p[3]}, last_index ? "GT" : "LT");
  Instruction* tie_wins = add(Opcode::kAnd, flag, {equal, earlier});
  Instruction* keep_a = add(Opcode::kOr, flag, {better, tie_wins});
  Instruction* v = add(Opcode::kSelect, value, {keep_a, p[0], p[2]});
  Instruction* i = add(Opcode::kSelect, index, {keep_a, p[1], p[3]});
  computation->set_root(add(Opcode::kTuple, Shape::Tuple({value, index}), {v, i}));
  it->second = computation.get();
  reducers_.push_back(std::move(computation));
  return it->second;
}

Instruction* GraphBuilder::Iota(const std::vector<int64_t>& dims, int64_t dim) {
  return Emit(Opcode::kIota, Shape(PrimitiveType::kS64, dims), {},
              {{"iota_dimension", std::to_string(dim)}});
}

Instruction* GraphBuilder::Reduce(Instruction* x, Instruction* init, std::vector<int64_t> dims,
                                  Opcode reducer) {
  std::vector<int64_t> kept;
  for (int64_t d = 0; d < x->shape().rank(); ++d) {
    if (std::find(dims.begin(), dims.end(), d) == dims.end())
      kept.push_back(x->shape().dimension(d));
  }
  Computation* to_apply = Reducer(reducer, x->shape().element_type());
  return Emit(Opcode::kReduce, Shape(x->shape().element_type(), kept), {x, init},
              {{"dimensions", IntList(dims)}}, {}, to_apply);
}

std::vector<std::unique_ptr<Computation>> GraphBuilder::TakeComputations() {
  std::vector<std::unique_ptr<Computation>> out = std::move(reducers_);
  reducers_.clear();
  reducer_by_kind_.clear();
  out.push_back(std::move(entry_));
  return out;
}

}  // namespace fusescope::ir::onnx_import
