#ifndef FUSESCOPE_IR_INSTRUCTION_H_
#define FUSESCOPE_IR_INSTRUCTION_H_

// One HLO instruction. Owned by its Computation; everything else holds plain pointers.
// Operands and users are kept consistent by the mutators here: never edit one side alone.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ir/constant_bytes.h"
#include "ir/opcode.h"
#include "ir/provenance.h"
#include "ir/shape.h"

namespace fusescope::ir {

class Computation;

// One `key=value` attribute as written in the text, value verbatim (braces, quotes and all).
// Attributes that name computations (calls=, to_apply=, body=, condition=,
// branch_computations=, true_computation=, false_computation=, select=, scatter=) are
// structured: `value` is empty, `names_computations` is true, and the computations are the
// instruction's called computations stored under that key.
struct Attribute {
  std::string key;
  std::string value;
  bool names_computations = false;
  bool operator==(const Attribute& other) const = default;
};

// `metadata={op_type="Mean" op_name="a/Mean" source_file="f.py" source_line=10}`: fields in
// written order, values verbatim (string values keep their quotes).
struct OpMetadata {
  std::vector<std::pair<std::string, std::string>> fields;

  bool empty() const { return fields.empty(); }
  // Raw value of `key` (quotes kept), or nullopt.
  std::optional<std::string_view> Raw(std::string_view key) const;
  // Unquoted, unescaped string value of `key` ("" when absent).
  std::string String(std::string_view key) const;
  // Integer value of `key`, or nullopt.
  std::optional<int64_t> Int(std::string_view key) const;
  void Set(std::string_view key, std::string raw_value);
  bool operator==(const OpMetadata& other) const = default;
};

class Instruction {
 public:
  // A new instruction with no parent yet; hand it to Computation::AddInstruction. Users of
  // `operands` are updated when it is added.
  static std::unique_ptr<Instruction> Create(Opcode opcode, Shape shape,
                                             std::vector<Instruction*> operands,
                                             std::string name);
  // For an opcode we do not know: keeps its spelling.
  static std::unique_ptr<Instruction> CreateUnknown(std::string opcode_name, Shape shape,
                                                    std::vector<Instruction*> operands,
                                                    std::string name);

  Instruction(const Instruction&) = delete;
  Instruction& operator=(const Instruction&) = delete;

  // Stable id, unique within the module; survives cloning and recording.
  int64_t id() const { return id_; }
  void set_id(int64_t id) { id_ = id; }
  const std::string& name() const { return name_; }
  void set_name(std::string name) { name_ = std::move(name); }

  Opcode opcode() const { return opcode_; }
  // The spelling as written: XLA's name for known opcodes, the original text otherwise.
  std::string_view opcode_name() const;

  const Shape& shape() const { return shape_; }
  Shape& mutable_shape() { return shape_; }
  void set_shape(Shape shape) { shape_ = std::move(shape); }

  Computation* parent() const { return parent_; }

  // Operands, in order. The same instruction may appear more than once.
  const std::vector<Instruction*>& operands() const { return operands_; }
  Instruction* operand(int64_t i) const { return operands_[static_cast<size_t>(i)]; }
  int64_t operand_count() const { return static_cast<int64_t>(operands_.size()); }
  void AppendOperand(Instruction* operand);
  void ReplaceOperand(int64_t index, Instruction* new_operand);
  // Replaces every use of `old_operand` among this instruction's operands.
  void ReplaceOperandWith(Instruction* old_operand, Instruction* new_operand);
  // Detaches from all operands (their user lists) and clears the list.
  void DropAllOperands();

  // Distinct users in the order they became users. A snapshot-safe copy is the caller's job.
  const std::vector<Instruction*>& users() const { return users_; }
  int64_t user_count() const { return static_cast<int64_t>(users_.size()); }
  // Makes every user of this instruction use `replacement` instead (root too).
  void ReplaceAllUsesWith(Instruction* replacement);

  // Computations this instruction calls, in attribute order.
  const std::vector<Computation*>& called_computations() const { return called_; }
  // The computations stored under one key ("calls", "to_apply", ...).
  std::vector<Computation*> CalledComputations(std::string_view key) const;
  // Appends `computation` under `key`, adding the attribute if it is new.
  void AddCalledComputation(std::string_view key, Computation* computation);
  void ReplaceCalledComputation(Computation* old_computation, Computation* new_computation);
  // Key each called computation is stored under, parallel to called_computations().
  const std::vector<std::string>& called_computation_keys() const { return called_keys_; }

  // Attributes in written order.
  const std::vector<Attribute>& attributes() const { return attributes_; }
  std::optional<std::string_view> attribute(std::string_view key) const;
  // Sets `key` (replacing its value in place, or appending it).
  void SetAttribute(std::string_view key, std::string value);
  void RemoveAttribute(std::string_view key);
  // `{1,2}` style lists; nullopt when absent or not such a list.
  std::optional<std::vector<int64_t>> IntListAttribute(std::string_view key) const;
  std::optional<int64_t> IntAttribute(std::string_view key) const;

  const OpMetadata& metadata() const { return metadata_; }
  OpMetadata& mutable_metadata() { return metadata_; }
  void set_metadata(OpMetadata metadata) { metadata_ = std::move(metadata); }

  const ProvenanceSet& provenance() const { return provenance_; }
  ProvenanceSet& mutable_provenance() { return provenance_; }
  void set_provenance(ProvenanceSet provenance) { provenance_ = std::move(provenance); }

  // parameter(N): N. Only meaningful for kParameter.
  int64_t parameter_number() const { return parameter_number_; }
  void set_parameter_number(int64_t n) { parameter_number_ = n; }
  // constant(...): the literal text between the parentheses, verbatim ("{...}" if elided).
  const std::string& literal() const { return literal_; }
  void set_literal(std::string literal) { literal_ = std::move(literal); }
  // constant(...): the elements as bytes (ir/constant_bytes.h) when an importer or a pass
  // made them, shared with every clone; null for a constant known by its text alone. When set,
  // the bytes are the value and literal() may be `{...}`.
  const ConstantBytesPtr& constant_bytes() const { return constant_bytes_; }
  void set_constant_bytes(ConstantBytesPtr bytes) { constant_bytes_ = std::move(bytes); }
  // The bytes' fingerprint, 0 without bytes: with literal(), what tells two constants apart.
  uint64_t constant_fingerprint() const {
    return constant_bytes_ ? constant_bytes_->fingerprint() : 0;
  }

  // Shorthands for common structured attributes.
  std::optional<int64_t> tuple_index() const { return IntAttribute("index"); }
  std::optional<std::vector<int64_t>> dimensions() const { return IntListAttribute("dimensions"); }
  // Fusion kind without the leading 'k' ("Loop", "Input", "Output", "Custom"); "" if none.
  std::string fusion_kind() const;
  // The fused computation of a kFusion instruction, or nullptr.
  Computation* fused_computation() const;
  bool IsRoot() const;
  // Side effects that forbid removal, duplication or reordering (collectives, send/recv,
  // infeed/outfeed, rng, custom-calls marked custom_call_has_side_effect=true).
  bool HasSideEffect() const;

 private:
  friend class Computation;
  friend class Module;  // Clone() copies the private lists wholesale.
  Instruction(Opcode opcode, Shape shape, std::string name);
  void AddUser(Instruction* user);
  void RemoveUser(Instruction* user);

  int64_t id_ = -1;
  std::string name_;
  Opcode opcode_;
  std::string unknown_opcode_name_;
  Shape shape_;
  Computation* parent_ = nullptr;
  std::vector<Instruction*> operands_;
  std::vector<Instruction*> users_;
  std::vector<Computation*> called_;
  std::vector<std::string> called_keys_;
  std::vector<Attribute> attributes_;
  OpMetadata metadata_;
  ProvenanceSet provenance_;
  int64_t parameter_number_ = -1;
  std::string literal_;
  ConstantBytesPtr constant_bytes_;
};

}  // namespace fusescope::ir

#endif  // FUSESCOPE_IR_INSTRUCTION_H_
