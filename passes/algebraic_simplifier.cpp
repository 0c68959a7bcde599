#include "passes/algebraic_simplifier.h"

#include <cmath>
#include <optional>
#include <vector>

#include "ir/attribute_values.h"
#include "passes/hlo_queries.h"
#include "passes/removal_batch.h"
#include "passes/side_effect_analysis.h"

namespace fusescope::passes {
namespace {

using ir::Instruction;
using ir::Opcode;

bool HasValue(const Instruction* instruction, double value) {
  std::optional<double> uniform = UniformValue(*instruction);
  return uniform && *uniform == value;
}

// `candidate` when it may take `instruction`'s place, else nullptr (no rewrite).
Instruction* IfInterchangeable(Instruction* candidate, const Instruction* instruction) {
  return ShapesInterchangeable(candidate->shape(), instruction->shape()) ? candidate : nullptr;
}

// `instruction` now does the work of `absorbed` too, so it answers for it.
void Absorb(Instruction* instruction, const Instruction* absorbed) {
  instruction->mutable_provenance().Union(absorbed->provenance());
}

// Every entry indexes into a list of `size` elements.
bool IndicesWithin(const std::vector<int64_t>& indices, size_t size) {
  for (int64_t index : indices) {
    if (index < 0 || static_cast<size_t>(index) >= size) return false;
  }
  return true;
}

bool SameDimensions(const Instruction* a, const Instruction* b) {
  return a->shape().IsArray() && b->shape().IsArray() &&
         a->shape().dimensions() == b->shape().dimensions();
}

// x + 0, 0 + x, x - 0.
Instruction* AddOrSubtractZero(Instruction* instruction) {
  Instruction* lhs = instruction->operand(0);
  Instruction* rhs = instruction->operand(1);
  if (HasValue(rhs, 0)) return IfInterchangeable(lhs, instruction);
  if (instruction->opcode() == Opcode::kAdd && HasValue(lhs, 0)) {
    return IfInterchangeable(rhs, instruction);
  }
  return nullptr;
}

// x * 1, 1 * x, and x * 0 -> 0 for integers (for floats 0 * inf is nan, so never there).
Instruction* MultiplyByOneOrZero(Instruction* instruction) {
  Instruction* lhs = instruction->operand(0);
  Instruction* rhs = instruction->operand(1);
  if (HasValue(rhs, 1)) return IfInterchangeable(lhs, instruction);
  if (HasValue(lhs, 1)) return IfInterchangeable(rhs, instruction);
  if (!ir::IsIntegralType(instruction->shape().element_type())) return nullptr;
  if (HasValue(rhs, 0)) return IfInterchangeable(rhs, instruction);
  if (HasValue(lhs, 0)) return IfInterchangeable(lhs, instruction);
  return nullptr;
}

// x / 1, pow(x, 1).
Instruction* RightIdentityOne(Instruction* instruction) {
  if (!HasValue(instruction->operand(1), 1)) return nullptr;
  return IfInterchangeable(instruction->operand(0), instruction);
}

// Whether `operand` leaves the other operand of `instruction` unchanged: true for and, 0
// for or/xor, -inf for maximum, +inf for minimum.
bool IsNeutralElement(const Instruction* instruction, const Instruction* operand) {
  const ir::PrimitiveType type = instruction->shape().element_type();
  switch (instruction->opcode()) {
    case Opcode::kAnd:
      return type == ir::PrimitiveType::kPred && HasValue(operand, 1);
    case Opcode::kOr:
    case Opcode::kXor:
      return HasValue(operand, 0);
    case Opcode::kMaximum:
      return ir::IsFloatingPointType(type) && HasValue(operand, -INFINITY);
    case Opcode::kMinimum:
      return ir::IsFloatingPointType(type) && HasValue(operand, INFINITY);
    default:
      return false;
  }
}

// max(x, x), min(x, x), and(x, x), or(x, x); an operand with the neutral element.
Instruction* IdempotentOrNeutral(Instruction* instruction) {
  Instruction* lhs = instruction->operand(0);
  Instruction* rhs = instruction->operand(1);
  if (lhs == rhs && instruction->opcode() != Opcode::kXor) {
    return IfInterchangeable(lhs, instruction);
  }
  if (IsNeutralElement(instruction, rhs)) return IfInterchangeable(lhs, instruction);
  if (IsNeutralElement(instruction, lhs)) return IfInterchangeable(rhs, instruction);
  return nullptr;
}

Instruction* DoubleNegation(Instruction* instruction) {
  Instruction* operand = instruction->operand(0);
  if (operand->opcode() != Opcode::kNegate) return nullptr;
  return IfInterchangeable(operand->operand(0), instruction);
}

// reshape(reshape(x)) -> reshape(x); reshape to the operand's own dimensions -> operand.
Instruction* SimplifyReshape(Instruction* instruction) {
  Instruction* operand = instruction->operand(0);
  if (operand->opcode() == Opcode::kReshape) {
    instruction->ReplaceOperand(0, operand->operand(0));
    Absorb(instruction, operand);
    return instruction;
  }
  if (!SameDimensions(operand, instruction)) return nullptr;
  return IfInterchangeable(operand, instruction);
}

// transpose(transpose(x)) composes; an identity permutation is a no-op.
Instruction* SimplifyTranspose(Instruction* instruction) {
  std::optional<std::vector<int64_t>> outer = instruction->dimensions();
  if (!outer) return nullptr;
  Instruction* operand = instruction->operand(0);
  if (operand->opcode() == Opcode::kTranspose) {
    std::optional<std::vector<int64_t>> inner = operand->dimensions();
    if (!inner || !IndicesWithin(*outer, inner->size())) return nullptr;
    // Output dim i reads inner dim outer[i], which reads x dim inner[outer[i]].
    std::vector<int64_t> composed(outer->size());
    for (size_t i = 0; i < outer->size(); ++i) {
      composed[i] = (*inner)[static_cast<size_t>((*outer)[i])];
    }
    instruction->ReplaceOperand(0, operand->operand(0));
    instruction->SetAttribute("dimensions", IntListText(composed));
    Absorb(instruction, operand);
    return instruction;
  }
  if (!IsIdentityPermutation(*outer)) return nullptr;
  return IfInterchangeable(operand, instruction);
}

// broadcast(broadcast(x)) composes; a broadcast that adds nothing is its operand.
Instruction* SimplifyBroadcast(Instruction* instruction) {
  std::optional<std::vector<int64_t>> outer = instruction->dimensions();
  if (!outer) return nullptr;
  Instruction* operand = instruction->operand(0);
  if (operand->opcode() == Opcode::kBroadcast) {
    std::optional<std::vector<int64_t>> inner = operand->dimensions();
    if (!inner || !IndicesWithin(*inner, outer->size())) return nullptr;
    // x dim i became inner dim inner[i], which became outer dim outer[inner[i]].
    std::vector<int64_t> composed(inner->size());
    for (size_t i = 0; i < inner->size(); ++i) {
      composed[i] = (*outer)[static_cast<size_t>((*inner)[i])];
    }
    instruction->ReplaceOperand(0, operand->operand(0));
    instruction->SetAttribute("dimensions", IntListText(composed));
    Absorb(instruction, operand);
    return instruction;
  }
  if (!SameDimensions(operand, instruction) || !IsIdentityPermutation(*outer)) return nullptr;
  return IfInterchangeable(operand, instruction);
}

Instruction* SimplifyConvert(Instruction* instruction) {
  Instruction* operand = instruction->operand(0);
  if (operand->shape().element_type() != instruction->shape().element_type()) return nullptr;
  return IfInterchangeable(operand, instruction);
}

// A copy or bitcast between identical shapes (layouts included) moves nothing.
Instruction* IdenticalShapeNoOp(Instruction* instruction) {
  Instruction* operand = instruction->operand(0);
  return operand->shape() == instruction->shape() ? operand : nullptr;
}

// A slice with the operand's dimensions can only be the full range with stride 1.
Instruction* SimplifySlice(Instruction* instruction) {
  Instruction* operand = instruction->operand(0);
  if (!SameDimensions(operand, instruction)) return nullptr;
  return IfInterchangeable(operand, instruction);
}

Instruction* SimplifyPad(Instruction* instruction) {
  std::optional<std::string_view> text = instruction->attribute("padding");
  if (!text) return nullptr;
  StatusOr<std::vector<ir::PaddingDimension>> padding = ir::ParsePadding(*text);
  if (!padding.ok()) return nullptr;
  for (const ir::PaddingDimension& dim : *padding) {
    if (dim.low != 0 || dim.high != 0 || dim.interior != 0) return nullptr;
  }
  return IfInterchangeable(instruction->operand(0), instruction);
}

// Reversing only dimensions of size 1 (or none) changes nothing.
Instruction* SimplifyReverse(Instruction* instruction) {
  Instruction* operand = instruction->operand(0);
  std::optional<std::vector<int64_t>> dims = instruction->dimensions();
  if (!dims || !operand->shape().IsArray()) return nullptr;
  for (int64_t dim : *dims) {
    if (dim < 0 || dim >= operand->shape().rank() || operand->shape().dimension(dim) != 1) {
      return nullptr;
    }
  }
  return IfInterchangeable(operand, instruction);
}

Instruction* SimplifyConcatenate(Instruction* instruction) {
  if (instruction->operand_count() != 1) return nullptr;
  return IfInterchangeable(instruction->operand(0), instruction);
}

Instruction* SimplifySelect(Instruction* instruction) {
  Instruction* on_true = instruction->operand(1);
  Instruction* on_false = instruction->operand(2);
  if (on_true == on_false) return IfInterchangeable(on_true, instruction);
  std::optional<double> predicate = UniformValue(*instruction->operand(0));
  if (!predicate) return nullptr;
  return IfInterchangeable(*predicate != 0 ? on_true : on_false, instruction);
}

// A single-input reduce that folds away no elements (no dimensions, or only dimensions of
// size 1) is a reshape of its input; XLA requires the init value to be the identity.
Instruction* SimplifyReduce(Instruction* instruction) {
  if (instruction->operand_count() != 2 || !instruction->shape().IsArray()) return nullptr;
  Instruction* input = instruction->operand(0);
  const int64_t elements = instruction->shape().ElementCount();
  if (!input->shape().IsArray() || elements == 0 || input->shape().ElementCount() != elements) {
    return nullptr;
  }
  if (SameDimensions(input, instruction)) return IfInterchangeable(input, instruction);
  return AddDerivedInstruction(*instruction->parent(), Opcode::kReshape, instruction->shape(),
                               {input}, "reshape", *instruction);
}

Instruction* TupleElement(Instruction* instruction) {
  Instruction* tuple = instruction->operand(0);
  std::optional<int64_t> index = instruction->tuple_index();
  if (tuple->opcode() != Opcode::kTuple || !index || *index < 0 ||
      *index >= tuple->operand_count()) {
    return nullptr;
  }
  return IfInterchangeable(tuple->operand(*index), instruction);
}

// One rewrite step: the instruction that now computes `instruction`'s value (an existing
// one, a new one, or `instruction` itself when rewritten in place), or nullptr.
Instruction* SimplifyOnce(Instruction* instruction) {
  switch (instruction->opcode()) {
    case Opcode::kAdd:
    case Opcode::kSubtract:
      return AddOrSubtractZero(instruction);
    case Opcode::kMultiply:
      return MultiplyByOneOrZero(instruction);
    case Opcode::kDivide:
    case Opcode::kPower:
      return RightIdentityOne(instruction);
    case Opcode::kMaximum:
    case Opcode::kMinimum:
    case Opcode::kAnd:
    case Opcode::kOr:
    case Opcode::kXor:
      return IdempotentOrNeutral(instruction);
    case Opcode::kNegate:
      return DoubleNegation(instruction);
    case Opcode::kReshape:
      return SimplifyReshape(instruction);
    case Opcode::kTranspose:
      return SimplifyTranspose(instruction);
    case Opcode::kBroadcast:
      return SimplifyBroadcast(instruction);
    case Opcode::kConvert:
      return SimplifyConvert(instruction);
    case Opcode::kCopy:
    case Opcode::kBitcast:
      return IdenticalShapeNoOp(instruction);
    case Opcode::kSlice:
      return SimplifySlice(instruction);
    case Opcode::kPad:
      return SimplifyPad(instruction);
    case Opcode::kReverse:
      return SimplifyReverse(instruction);
    case Opcode::kConcatenate:
      return SimplifyConcatenate(instruction);
    case Opcode::kSelect:
      return SimplifySelect(instruction);
    case Opcode::kReduce:
      return SimplifyReduce(instruction);
    case Opcode::kGetTupleElement:
      return TupleElement(instruction);
    default:
      return nullptr;
  }
}

bool SimplifyComputation(ir::Computation& computation, const SideEffectAnalysis& effects) {
  bool changed = false;
  RemovalBatch removed(effects);
  // Operands come first, so a chain collapses in one sweep.
  for (Instruction* instruction : computation.MakePostOrder()) {
    Instruction* current = instruction;
    std::vector<Instruction*> operands = current->operands();
    while (Instruction* replacement = SimplifyOnce(current)) {
      changed = true;
      if (replacement != current) {
        removed.Replace(current, replacement);
        current = replacement;
        operands = current->operands();
        continue;
      }
      // Rewritten in place: an operand it no longer reads may have died (and was absorbed).
      for (Instruction* operand : operands) {
        if (operand->users().empty() && !operand->IsRoot()) removed.Bury(operand, current);
      }
      operands = current->operands();
    }
  }
  removed.RemoveFrom(computation);
  return changed;
}

}  // namespace

StatusOr<bool> AlgebraicSimplifier::Run(ir::Module& module, PassContext& /*context*/) {
  const SideEffectAnalysis effects(module);
  bool changed = false;
  for (ir::Computation* computation : module.MakeComputationPostOrder()) {
    if (computation->fusion_instruction() != nullptr) continue;
    changed |= SimplifyComputation(*computation, effects);
  }
  return changed;
}

}  // namespace fusescope::passes
