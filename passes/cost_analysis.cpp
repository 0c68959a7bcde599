#include "passes/cost_analysis.h"

#include <unordered_set>

#include "ir/attribute_values.h"
#include "passes/fusion_utils.h"

namespace fusescope::passes {
namespace {

using ir::Instruction;
using ir::Opcode;

double ConvolutionFlops(const Instruction& convolution) {
  const ir::Shape& kernel = convolution.operand(1)->shape();
  double per_output = ElementCount(kernel);
  const std::optional<std::string_view> labels_text = convolution.attribute("dim_labels");
  if (labels_text) {
    StatusOr<ir::ConvolutionDimensionLabels> labels =
        ir::ParseConvolutionDimensionLabels(*labels_text);
    if (labels.ok() && labels->kernel_output_feature >= 0 &&
        labels->kernel_output_feature < kernel.rank()) {
      const double output_features =
          static_cast<double>(kernel.dimension(labels->kernel_output_feature));
      if (output_features > 0) per_output /= output_features;
    }
  }
  return 2 * ElementCount(convolution.shape()) * per_output;
}

}  // namespace

double ElementCount(const ir::Shape& shape) {
  if (!shape.IsTuple()) return shape.IsArray() ? static_cast<double>(shape.ElementCount()) : 0;
  double total = 0;
  for (const ir::Shape& element : shape.tuple_shapes()) total += ElementCount(element);
  return total;
}

double InstructionFlops(const Instruction& instruction) {
  const Opcode opcode = instruction.opcode();
  if (ir::IsTranscendental(opcode)) return kTranscendentalFlops * ElementCount(instruction.shape());
  if (ir::IsElementwiseOpcode(opcode)) return ElementCount(instruction.shape());
  switch (opcode) {
    case Opcode::kReduce:
    case Opcode::kReduceWindow:
      return ElementCount(instruction.operand(0)->shape());
    case Opcode::kDot: {
      double contracted = 1;
      const ir::Shape& lhs = instruction.operand(0)->shape();
      for (int64_t d :
           instruction.IntListAttribute("lhs_contracting_dims").value_or(std::vector<int64_t>{})) {
        if (d >= 0 && d < lhs.rank()) contracted *= static_cast<double>(lhs.dimension(d));
      }
      return 2 * ElementCount(instruction.shape()) * contracted;
    }
    case Opcode::kConvolution:
      return ConvolutionFlops(instruction);
    default:
      return 0;
  }
}

double KernelFlops(const Instruction& instruction) {
  double total = 0;
  for (const Instruction* inner : FusedInstructions(instruction)) total += InstructionFlops(*inner);
  return total;
}

double KernelBytes(const Instruction& instruction) {
  std::unordered_set<const Instruction*> operands(instruction.operands().begin(),
                                                  instruction.operands().end());
  double bytes = static_cast<double>(instruction.shape().ByteSize());
  for (const Instruction* operand : operands) {
    bytes += static_cast<double>(operand->shape().ByteSize());
  }
  return bytes;
}

}  // namespace fusescope::passes
