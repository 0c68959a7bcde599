#include "passes/layout_assignment.h"

#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "ir/hlo_parser.h"
#include "passes/hlo_queries.h"

namespace fusescope::passes {
namespace {

using ir::Computation;
using ir::Instruction;
using ir::Opcode;
using ir::Shape;

constexpr std::string_view kEntryLayoutKey = "entry_computation_layout";

ir::Layout DefaultLayout(int64_t rank) {
  ir::Layout layout;
  for (int64_t dim = rank - 1; dim >= 0; --dim) layout.minor_to_major.push_back(dim);
  return layout;
}

bool IsDefaultLayout(const Shape& shape) {
  return !shape.layout() ||
         shape.layout()->minor_to_major == DefaultLayout(shape.rank()).minor_to_major;
}

bool NeedsLayout(const Shape& shape) {
  return shape.IsArray() && shape.rank() > 0 && !shape.layout();
}

// Gives every leaf of `shape` without a layout the matching leaf layout of `source` (when it
// has one and the ranks agree) or the default. Returns whether anything was set.
bool FillLayout(Shape& shape, const Shape* source) {
  if (shape.IsTuple()) {
    bool changed = false;
    for (size_t i = 0; i < shape.tuple_shapes().size(); ++i) {
      const Shape* element = source && source->IsTuple() && i < source->tuple_shapes().size()
                                 ? &source->tuple_shapes()[i]
                                 : nullptr;
      changed |= FillLayout(shape.mutable_tuple_shapes()[i], element);
    }
    return changed;
  }
  if (!NeedsLayout(shape)) return false;
  const bool follow =
      source && source->IsArray() && source->rank() == shape.rank() && source->layout().has_value();
  shape.set_layout(follow ? *source->layout() : DefaultLayout(shape.rank()));
  return true;
}

struct EntryLayout {
  std::vector<Shape> parameters;
  Shape result;
};

// `{(f32[8,16]{1,0}, s32[])->f32[8]{0}}`; nullopt when it does not read as that.
std::optional<EntryLayout> ParseEntryLayout(std::string_view text) {
  if (text.size() < 2 || text.front() != '{' || text.back() != '}') return std::nullopt;
  text = text.substr(1, text.size() - 2);
  int depth = 0;
  size_t arrow = std::string_view::npos;
  for (size_t i = 0; i + 1 < text.size() && arrow == std::string_view::npos; ++i) {
    const char c = text[i];
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    if (depth == 0 && c == '-' && text[i + 1] == '>') arrow = i;
  }
  if (arrow == std::string_view::npos) return std::nullopt;
  StatusOr<Shape> parameters = ir::ParseShape(text.substr(0, arrow));
  StatusOr<Shape> result = ir::ParseShape(text.substr(arrow + 2));
  if (!parameters.ok() || !result.ok() || !parameters->IsTuple()) return std::nullopt;
  return EntryLayout{parameters->tuple_shapes(), *result};
}

std::string EntryLayoutText(const Computation& entry) {
  std::string text = "{(";
  for (int64_t i = 0; i < entry.parameter_count(); ++i) {
    if (i > 0) text += ", ";
    if (const Instruction* parameter = entry.parameter(i)) text += parameter->shape().ToString();
  }
  return text + ")->" + entry.root()->shape().ToString() + "}";
}

class LayoutAssigner {
 public:
  // Fills missing layouts in `computation`, instructions in def-before-use order.
  bool AssignComputation(Computation& computation);

 private:
  bool AssignInstruction(Instruction& instruction);
  std::optional<Shape> Source(const Instruction& instruction) const;
  std::unordered_set<const Computation*> done_;
};

bool LayoutAssigner::AssignComputation(Computation& computation) {
  if (!done_.insert(&computation).second) return false;
  bool changed = false;
  for (Instruction* instruction : computation.MakePostOrder()) {
    changed |= AssignInstruction(*instruction);
  }
  return changed;
}

bool LayoutAssigner::AssignInstruction(Instruction& instruction) {
  bool changed = false;
  if (Computation* fused = instruction.fused_computation()) {
    // The body first: its parameters follow this fusion's operands, its root decides ours.
    changed |= AssignComputation(*fused);
  }
  std::optional<Shape> source = Source(instruction);
  Shape shape = instruction.shape();
  if (FillLayout(shape, source ? &*source : nullptr)) {
    instruction.set_shape(std::move(shape));
    changed = true;
  }
  return changed;
}

std::optional<Shape> LayoutAssigner::Source(const Instruction& instruction) const {
  const Computation* parent = instruction.parent();
  switch (instruction.opcode()) {
    case Opcode::kParameter: {
      const Instruction* fusion = parent->fusion_instruction();
      const int64_t number = instruction.parameter_number();
      if (!fusion || number < 0 || number >= fusion->operand_count()) return std::nullopt;
      return fusion->operand(number)->shape();
    }
    case Opcode::kFusion:
      return instruction.fused_computation() ? instruction.fused_computation()->root()->shape()
                                             : std::optional<Shape>();
    case Opcode::kTuple: {
      std::vector<Shape> elements;
      for (const Instruction* operand : instruction.operands()) {
        elements.push_back(operand->shape());
      }
      return Shape::Tuple(std::move(elements));
    }
    case Opcode::kGetTupleElement: {
      const Shape& tuple = instruction.operand(0)->shape();
      const int64_t index = instruction.tuple_index().value_or(-1);
      if (!tuple.IsTuple() || index < 0 ||
          index >= static_cast<int64_t>(tuple.tuple_shapes().size())) {
        return std::nullopt;
      }
      return tuple.tuple_shapes()[static_cast<size_t>(index)];
    }
    default:
      break;
  }
  if (!ir::IsElementwiseOpcode(instruction.opcode())) return std::nullopt;
  for (const Instruction* operand : instruction.operands()) {
    const Shape& shape = operand->shape();
    if (shape.IsArray() && shape.rank() == instruction.shape().rank() && shape.layout()) {
      return shape;
    }
  }
  return std::nullopt;
}

// Entry parameters take the declared layouts before anything follows them.
bool ApplyParameterLayouts(Computation& entry, const EntryLayout& declared) {
  bool changed = false;
  const size_t count =
      std::min(declared.parameters.size(), static_cast<size_t>(entry.parameter_count()));
  for (size_t i = 0; i < count; ++i) {
    Instruction* parameter = entry.parameter(static_cast<int64_t>(i));
    const Shape& wanted = declared.parameters[i];
    if (parameter && parameter->shape().Compatible(wanted) && parameter->shape() != wanted) {
      parameter->set_shape(wanted);
      changed = true;
    }
  }
  return changed;
}

// A copy of `value` in `layout_of`'s layout, on behalf of `origin`.
Instruction* CopyInto(Instruction* value, const Shape& layout_of, const Instruction& origin) {
  Shape shape = value->shape();
  shape.set_layout(*layout_of.layout());
  return AddDerivedInstruction(*value->parent(), Opcode::kCopy, std::move(shape), {value}, "copy",
                               origin);
}

bool NeedsCopy(const Shape& have, const Shape& want) {
  return have.IsArray() && want.IsArray() && have.Compatible(want) && want.layout() &&
         have.layout() != want.layout();
}

// The entry result must leave in the declared layout: copy what differs.
bool ApplyResultLayout(Computation& entry, const Shape& wanted) {
  Instruction* root = entry.root();
  if (NeedsCopy(root->shape(), wanted)) {
    entry.set_root(CopyInto(root, wanted, *root));
    return true;
  }
  if (root->opcode() != Opcode::kTuple || !wanted.IsTuple() ||
      static_cast<size_t>(root->operand_count()) != wanted.tuple_shapes().size()) {
    return false;
  }
  bool changed = false;
  for (int64_t i = 0; i < root->operand_count(); ++i) {
    Instruction* element = root->operand(i);
    const Shape& element_wanted = wanted.tuple_shapes()[static_cast<size_t>(i)];
    if (!NeedsCopy(element->shape(), element_wanted)) continue;
    root->ReplaceOperand(i, CopyInto(element, element_wanted, *root));
    changed = true;
  }
  if (changed) {
    std::vector<Shape> elements;
    for (const Instruction* operand : root->operands()) elements.push_back(operand->shape());
    root->set_shape(Shape::Tuple(std::move(elements)));
  }
  return changed;
}

// Dot operands in a non-row-major layout are copied into row-major first.
bool RowMajorDotOperands(Computation& computation) {
  bool changed = false;
  for (Instruction* instruction : computation.MakePostOrder()) {
    if (instruction->opcode() != Opcode::kDot) continue;
    for (int64_t i = 0; i < instruction->operand_count(); ++i) {
      Instruction* operand = instruction->operand(i);
      if (!operand->shape().IsArray() || IsDefaultLayout(operand->shape())) continue;
      Shape row_major = operand->shape();
      row_major.set_layout(DefaultLayout(row_major.rank()));
      instruction->ReplaceOperand(i, CopyInto(operand, row_major, *instruction));
      changed = true;
    }
  }
  return changed;
}

std::string* FindHeader(ir::Module& module, std::string_view key) {
  for (auto& [name, value] : module.header_attributes()) {
    if (name == key) return &value;
  }
  return nullptr;
}

}  // namespace

StatusOr<bool> LayoutAssignment::Run(ir::Module& module, PassContext& /*context*/) {
  Computation* entry = module.entry();
  if (entry == nullptr || entry->root() == nullptr) {
    return Status::Error("module " + module.name() + " has no entry computation");
  }
  std::string* declared_text = FindHeader(module, kEntryLayoutKey);
  std::optional<EntryLayout> declared =
      declared_text ? ParseEntryLayout(*declared_text) : std::nullopt;
  bool changed = declared && ApplyParameterLayouts(*entry, *declared);

  LayoutAssigner assigner;
  // Callers before callees, so fused parameters see their fusion's operands laid out.
  std::vector<Computation*> order = module.MakeComputationPostOrder();
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    if ((*it)->fusion_instruction() != nullptr) continue;  // reached through its fusion
    changed |= assigner.AssignComputation(**it);
  }
  for (Computation* computation : order) {
    changed |= assigner.AssignComputation(*computation);  // fusions nothing calls any more
    if (computation->fusion_instruction() == nullptr) {
      changed |= RowMajorDotOperands(*computation);
    }
  }
  if (declared) changed |= ApplyResultLayout(*entry, declared->result);
  if (!declared_text) {
    module.header_attributes().emplace_back(std::string(kEntryLayoutKey), EntryLayoutText(*entry));
    changed = true;
  }
  return changed;
}

}  // namespace fusescope::passes
