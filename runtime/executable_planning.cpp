#include "runtime/executable_planning.h"

#include <algorithm>

#include "ir/computation.h"
#include "runtime/literal.h"

namespace fusescope::runtime {

using ir::Opcode;

int64_t ShapeBytes(const ir::Shape& shape) {
  if (shape.IsTuple()) {
    int64_t total = 0;
    for (const ir::Shape& element : shape.tuple_shapes()) {
      const int64_t bytes = ShapeBytes(element);
      if (bytes < 0 || __builtin_add_overflow(total, bytes, &total)) return -1;
    }
    return total;
  }
  if (!shape.IsArray()) return 0;
  int64_t bytes = std::max(ElementByteSize(shape.element_type()), 1);
  for (int64_t dim : shape.dimensions()) {
    if (dim < 0 || __builtin_mul_overflow(bytes, dim, &bytes)) return -1;
  }
  return bytes;
}

std::string SummarizeKernels(const std::vector<recording::KernelRecord>& records,
                             const std::map<std::string, int64_t>& host_opcodes) {
  std::map<std::string, int64_t> by_backend;
  for (const recording::KernelRecord& record : records) ++by_backend[record.backend];
  std::string text = std::to_string(records.size()) + " kernels";
  const char* separator = ": ";
  for (const auto& [backend, count] : by_backend) {
    text += separator + std::to_string(count) + " " + backend;
    separator = ", ";
    if (backend != "host") continue;
    std::string opcodes;
    for (const auto& [opcode, n] : host_opcodes) {
      opcodes += (opcodes.empty() ? "" : ", ") + opcode + (n > 1 ? " x" + std::to_string(n) : "");
    }
    text += " (" + opcodes + ")";
  }
  return text;
}

bool IsValueOpcode(Opcode opcode) {
  return opcode == Opcode::kParameter || opcode == Opcode::kConstant || opcode == Opcode::kTuple ||
         opcode == Opcode::kGetTupleElement || opcode == Opcode::kBitcast;
}

bool IsContractionFusion(const ir::Instruction& fusion) {
  const ir::Computation* fused = fusion.fused_computation();
  if (fused == nullptr) return false;
  const std::string kind = fusion.fusion_kind();
  if (kind == "Output") return true;
  if (kind != "Custom") return false;
  for (const auto& inner : fused->instructions()) {
    if (inner->opcode() == Opcode::kDot || inner->opcode() == Opcode::kConvolution) return true;
  }
  return false;
}

StatusOr<ContractionFusion> SplitContractionFusion(
    const ir::Instruction& fusion,
    const std::function<Status(const ir::Instruction&)>& library_check) {
  const ir::Computation* fused = fusion.fused_computation();
  const ir::Instruction* dot = nullptr;
  for (const ir::Instruction* instruction : fused->MakePostOrder()) {
    if (instruction->opcode() == Opcode::kDot || instruction->opcode() == Opcode::kConvolution) {
      if (dot != nullptr) return Status::Error("the output fusion holds more than one dot");
      dot = instruction;
    }
  }
  if (dot == nullptr) return Status::Error("the output fusion holds no dot");
  Status library = library_check(*dot);
  if (!library.ok()) return library;
  for (const ir::Instruction* operand : dot->operands()) {
    if (operand->opcode() != Opcode::kParameter)
      return Status::Error("the dot's operand " + operand->name() +
                           " is computed inside the fusion");
  }
  std::vector<const ir::Instruction*> inputs;
  for (int64_t i = 0; i < fused->parameter_count(); ++i) inputs.push_back(fused->parameter(i));
  inputs.push_back(dot);
  std::vector<const ir::Instruction*> body;
  for (const ir::Instruction* instruction : fused->MakePostOrder()) {
    if (instruction->opcode() == Opcode::kParameter || instruction == dot) continue;
    if (instruction == fused->root() && instruction->opcode() == Opcode::kTuple) continue;
    body.push_back(instruction);
  }
  ContractionFusion split;
  std::vector<const ir::Instruction*> outputs;
  if (fused->root()->opcode() == Opcode::kTuple) {
    outputs.assign(fused->root()->operands().begin(), fused->root()->operands().end());
    split.tuple_result = true;
  } else {
    outputs.push_back(fused->root());
  }
  StatusOr<EmittedKernel> epilogue = EmitKernel(inputs, body, outputs);
  if (!epilogue.ok()) return epilogue.status();
  split.contraction = dot;
  split.lhs = dot->operand(0)->parameter_number();
  split.rhs = dot->operand(1)->parameter_number();
  split.epilogue = std::move(epilogue).value();
  return split;
}

}  // namespace fusescope::runtime
