#ifndef FUSESCOPE_IMPORTERS_ONNX_ONNX_INTERNAL_H_
#define FUSESCOPE_IMPORTERS_ONNX_ONNX_INTERNAL_H_

// Internal to the ONNX importer: included only by the .cpp files of importers/onnx, the
// one place where ONNX's protobuf headers may be seen.

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ir/computation.h"
#include "ir/constant_bytes.h"
#include "importers/onnx/onnx_importer.h"
#include "ir/instruction.h"
#include "ir/shape.h"
#include "ir/status.h"

namespace fusescope::ir::onnx_import {

// ---- tensors (onnx_tensor.cpp) ----

// ONNX TensorProto.DataType -> our element type; nullopt for strings and unknown codes.
std::optional<PrimitiveType> ElementTypeFromOnnx(int32_t data_type);

// A tensor's contents, decoded. Integers and predicates in `ints` (u64 as its bit pattern),
// floating-point values in `floats` (complex as re, im pairs). Over max_literal_elements
// neither is filled and `bytes` holds the elements instead (ir/constant_bytes.h's layout),
// so that a weight of any size keeps its value without becoming decimal text.
struct TensorData {
  Shape shape;
  bool has_values = false;
  std::vector<int64_t> ints;
  std::vector<double> floats;
  ConstantBytesPtr bytes;
};

// Reads `tensor` (raw_data, the typed fields, or an external data file under `base_dir`).
// `what` names it in errors ("initializer 'w'"). The element count is checked against
// max_tensor_elements before anything is allocated.
StatusOr<TensorData> ReadTensor(const onnx::TensorProto& tensor, const std::string& base_dir,
                                const OnnxImportOptions& options, const std::string& what);

// XLA's literal text for `data` ("5", "{1, 2}", "{ { 1, 2 }, { 3, 4 } }"), or "{...}" when
// its values are held as bytes.
std::string LiteralText(const TensorData& data);

// Element count of `dims`, or nullopt when a dimension is negative or the product of the
// non-zero dimensions exceeds `limit`.
std::optional<int64_t> CheckedElementCount(const std::vector<int64_t>& dims, int64_t limit);

// ---- building instructions (onnx_graph_builder.cpp) ----

// A value of the ONNX graph after lowering: the instruction computing it and, when known at
// import time and small (shape tensors, axes, scalars), its contents.
struct LoweredValue {
  Instruction* instruction = nullptr;
  std::optional<std::vector<double>> known;
  const Shape& shape() const { return instruction->shape(); }
};

// Builds the entry computation and the reducer computations. Every instruction gets the
// metadata of the node being lowered. Shapes are checked against (or, for an element type
// of kInvalid, taken from) the IR's shape inference; the first disagreement is kept as the
// error and reported once the node is lowered.
class GraphBuilder {
 public:
  explicit GraphBuilder(std::string entry_name);

  // Results with more elements (or a negative dimension) are an error, not an instruction.
  void set_max_elements(int64_t max_elements) { max_elements_ = max_elements; }
  void SetNode(const std::string& op_type, const std::string& node_name);
  // Error recorded by Emit since the last call, cleared.
  Status TakeError();

  Instruction* Emit(Opcode opcode, Shape shape, std::vector<Instruction*> operands,
                    std::vector<std::pair<std::string, std::string>> attributes = {},
                    std::string_view name = {}, Computation* to_apply = nullptr);
  Instruction* Parameter(int64_t number, Shape shape, std::string_view name);
  Instruction* Constant(Shape shape, std::string literal, std::string_view name = {});
  // A scalar of `type` holding `value` (rounded as the type does).
  Instruction* Scalar(PrimitiveType type, double value);
  // `value` broadcast to `dims`.
  Instruction* Splat(PrimitiveType type, double value, const std::vector<int64_t>& dims);
  Instruction* CustomCall(const std::string& target, Shape shape,
                          std::vector<Instruction*> operands);

  Instruction* Reshape(Instruction* x, std::vector<int64_t> dims);
  Instruction* Transpose(Instruction* x, std::vector<int64_t> permutation);
  Instruction* Convert(Instruction* x, PrimitiveType type);
  Instruction* Unary(Opcode opcode, Instruction* x);
  // broadcast(x), dimensions={operand_to_output}.
  Instruction* BroadcastInDim(Instruction* x, std::vector<int64_t> dims,
                              std::vector<int64_t> operand_to_output);
  // Numpy broadcasting of `x` to `dims` (trailing dimensions aligned; size-1 dimensions that
  // grow are reshaped away first, as XLA needs). Returns x when it already has `dims`.
  // Precondition: the shapes are broadcast-compatible.
  Instruction* BroadcastTo(Instruction* x, const std::vector<int64_t>& dims);
  // Elementwise binary op after numpy broadcasting; compare when `direction` is given.
  StatusOr<Instruction*> Binary(Opcode opcode, Instruction* a, Instruction* b,
                                std::string_view direction = {});
  Instruction* Select(Instruction* predicate, Instruction* on_true, Instruction* on_false);
  // reduce(x, init) over `dims` with a reducer applying `reducer` to scalars of x's type.
  Instruction* Reduce(Instruction* x, Instruction* init, std::vector<int64_t> dims, Opcode reducer);
  Computation* Reducer(Opcode opcode, PrimitiveType type);
  // The reducer of an argmax / argmin: (value, index) pairs of `type` and s64, keeping the
  // larger (smaller) value, and on a tie the first index (the last with `last_index`).
  Computation* ArgReducer(PrimitiveType type, bool max, bool last_index);
  // iota over `dim` of an s64 array of `dims`.
  Instruction* Iota(const std::vector<int64_t>& dims, int64_t dim);

  Computation* entry() { return entry_.get(); }
  // Hands over the computations, reducers first, the entry last.
  std::vector<std::unique_ptr<Computation>> TakeComputations();

  std::string UniqueName(std::string_view base);

 private:
  std::unique_ptr<Computation> entry_;
  std::vector<std::unique_ptr<Computation>> reducers_;
  std::map<std::pair<Opcode, PrimitiveType>, Computation*> reducer_by_kind_;
  std::map<std::tuple<PrimitiveType, bool, bool>, Computation*> arg_reducers_;
  std::set<std::string> names_;
  std::unordered_map<std::string, int64_t> next_suffix_;
  OpMetadata metadata_;
  Status error_;
  int64_t max_elements_ = int64_t{1} << 32;
};

// A constant holding `data`: its literal text, and its bytes when it has them.
Instruction* ConstantOf(GraphBuilder& builder, const TensorData& data, std::string_view name = {});

// `name` with characters HLO names cannot hold replaced by '_' (and no trailing `.N`).
std::string SanitizedName(std::string_view name);

// `{1,2,3}`.
std::string IntListText(const std::vector<int64_t>& values);

// Numpy broadcast of two shapes' dimensions; nullopt when incompatible.
std::optional<std::vector<int64_t>> BroadcastDims(const std::vector<int64_t>& a,
                                                  const std::vector<int64_t>& b);
// Lowest / highest value of `type` as a double (-inf / inf for floating point).
double LowestValue(PrimitiveType type);
double HighestValue(PrimitiveType type);

// ---- lowering nodes (onnx_op_lowering.cpp) ----

// What a node's lowering needs from the importer.
class NodeContext {
 public:
  NodeContext(GraphBuilder& builder, const onnx::NodeProto& node, int64_t opset,
              std::vector<const LoweredValue*> inputs, const std::string& base_dir,
              const OnnxImportOptions& options)
      : builder_(builder),
        node_(node),
        opset_(opset),
        inputs_(std::move(inputs)),
        base_dir_(base_dir),
        options_(options) {}

  GraphBuilder& b() { return builder_; }
  const onnx::NodeProto& node() const { return node_; }
  int64_t opset() const { return opset_; }
  int64_t input_count() const { return static_cast<int64_t>(inputs_.size()); }
  // nullptr for an absent (empty-named or missing) optional input.
  const LoweredValue* input(int64_t i) const {
    return i < input_count() ? inputs_[static_cast<size_t>(i)] : nullptr;
  }
  Instruction* in(int64_t i) const { return input(i)->instruction; }
  int64_t output_count() const { return node_.output_size(); }
  bool WantsOutput(int64_t i) const {
    return i < output_count() && !node_.output(static_cast<int>(i)).empty();
  }

  const onnx::AttributeProto* Attr(const std::string& name) const;
  int64_t Int(const std::string& name, int64_t fallback) const;
  float Float(const std::string& name, float fallback) const;
  std::string String(const std::string& name, const std::string& fallback) const;
  std::optional<std::vector<int64_t>> Ints(const std::string& name) const;
  // Contents of input `i` when known at import time (shapes, axes); error naming it when not.
  StatusOr<std::vector<int64_t>> KnownInts(int64_t i, const std::string& what) const;
  std::optional<std::vector<double>> Known(int64_t i) const;

  // Why a lowering gave up on this node (set when a value it needs at import time, such as a
  // shape, is computed at run time); the node then becomes an opaque custom-call.
  const std::string& opaque_reason() const { return opaque_reason_; }
  const std::string& base_dir() const { return base_dir_; }
  const OnnxImportOptions& options() const { return options_; }

  size_t outputs_size() const { return outputs_.size(); }
  const LoweredValue& output_value(int64_t i) const { return outputs_[static_cast<size_t>(i)]; }
  void SetOutput(int64_t i, Instruction* instruction,
                 std::optional<std::vector<double>> known = std::nullopt);

 private:
  GraphBuilder& builder_;
  const onnx::NodeProto& node_;
  int64_t opset_;
  std::vector<const LoweredValue*> inputs_;
  const std::string& base_dir_;
  const OnnxImportOptions& options_;
  std::vector<LoweredValue> outputs_;
  mutable std::string opaque_reason_;
};

// Lowers one node of the default ONNX domain. true: lowered (outputs set); false: no
// lowering for this op or for this use of it (the caller emits an opaque custom-call);
// an error when the node is malformed (shapes that do not fit, missing required inputs).
StatusOr<bool> LowerNode(NodeContext& context);

// How many elements a known value may have (larger ones are not tracked).
inline constexpr int64_t kMaxKnownElements = 4096;

}  // namespace fusescope::ir::onnx_import

#endif  // FUSESCOPE_IMPORTERS_ONNX_ONNX_INTERNAL_H_
