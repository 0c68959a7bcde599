#include "passes/buffer_values.h"

#include <algorithm>

namespace fusescope::passes {
namespace {

using ir::Instruction;
using ir::Opcode;

bool AliasesFirstOperand(const Instruction* instruction) {
  switch (instruction->opcode()) {
    case Opcode::kBitcast:
    case Opcode::kOptimizationBarrier:
    case Opcode::kAddDependency:
      return instruction->operand_count() > 0;
    default:
      return false;
  }
}

void AppendUnique(std::vector<int64_t>& to, const std::vector<int64_t>& from) {
  for (int64_t buffer : from) {
    if (std::find(to.begin(), to.end(), buffer) == to.end()) to.push_back(buffer);
  }
}

}  // namespace

BufferValues::BufferValues(const ir::Computation& computation) {
  const std::vector<Instruction*> order = computation.MakePostOrder();
  for (const Instruction* instruction : order) AddInstruction(instruction);
  for (const Instruction* instruction : order) {
    for (int64_t buffer : OperandBuffers(instruction)) {
      buffers_[static_cast<size_t>(buffer)].readers.push_back(instruction);
    }
  }
  if (const Instruction* root = computation.root()) {
    for (int64_t buffer : BuffersOf(root)) buffers_[static_cast<size_t>(buffer)].live_out = true;
  }
}

void BufferValues::AddInstruction(const Instruction* instruction) {
  std::vector<int64_t>& value = values_[instruction];
  if (AliasesFirstOperand(instruction)) {
    value = BuffersOf(instruction->operand(0));
    return;
  }
  if (instruction->opcode() == Opcode::kTuple) {
    for (const Instruction* operand : instruction->operands()) {
      AppendUnique(value, BuffersOf(operand));
    }
    return;
  }
  if (instruction->opcode() == Opcode::kGetTupleElement && instruction->operand_count() == 1) {
    const Instruction* tuple = instruction->operand(0);
    const int64_t index = instruction->tuple_index().value_or(-1);
    // Through a tuple instruction the element is known; otherwise it is somewhere in the
    // producer's one buffer.
    const bool known =
        tuple->opcode() == Opcode::kTuple && index >= 0 && index < tuple->operand_count();
    value = BuffersOf(known ? tuple->operand(index) : tuple);
    return;
  }
  LogicalBuffer buffer;
  buffer.defined_by = instruction;
  buffer.bytes = instruction->shape().ByteSize();
  buffer.lives_throughout =
      instruction->opcode() == Opcode::kParameter || instruction->opcode() == Opcode::kConstant;
  defined_[instruction] = static_cast<int64_t>(buffers_.size());
  value.push_back(static_cast<int64_t>(buffers_.size()));
  buffers_.push_back(std::move(buffer));
}

const std::vector<int64_t>& BufferValues::BuffersOf(const Instruction* instruction) const {
  static const std::vector<int64_t> kNone;
  const auto it = values_.find(instruction);
  return it == values_.end() ? kNone : it->second;
}

int64_t BufferValues::DefinedBuffer(const Instruction* instruction) const {
  const auto it = defined_.find(instruction);
  return it == defined_.end() ? -1 : it->second;
}

std::vector<int64_t> BufferValues::OperandBuffers(const Instruction* instruction) const {
  std::vector<int64_t> buffers;
  for (const Instruction* operand : instruction->operands()) {
    AppendUnique(buffers, BuffersOf(operand));
  }
  return buffers;
}

}  // namespace fusescope::passes
