#include "passes/gpu_performance_model.h"

#include <algorithm>
#include <unordered_set>

#include "passes/fusion_utils.h"

namespace fusescope::passes {
namespace {

using ir::Instruction;
using ir::Opcode;

// Transcendentals take several instructions (and the SFU) per element.
constexpr double kTranscendentalFlops = 4;

double Elements(const ir::Shape& shape) {
  if (!shape.IsTuple()) return shape.IsArray() ? static_cast<double>(shape.ElementCount()) : 0;
  double total = 0;
  for (const ir::Shape& element : shape.tuple_shapes()) total += Elements(element);
  return total;
}

double InstructionFlops(const Instruction& instruction) {
  const Opcode opcode = instruction.opcode();
  if (ir::IsTranscendental(opcode)) return kTranscendentalFlops * Elements(instruction.shape());
  if (ir::IsElementwiseOpcode(opcode)) return Elements(instruction.shape());
  switch (opcode) {
    case Opcode::kReduce:
    case Opcode::kReduceWindow:
      return Elements(instruction.operand(0)->shape());
    case Opcode::kDot: {
      double contracted = 1;
      const ir::Shape& lhs = instruction.operand(0)->shape();
      for (int64_t d :
           instruction.IntListAttribute("lhs_contracting_dims").value_or(std::vector<int64_t>{})) {
        if (d >= 0 && d < lhs.rank()) contracted *= static_cast<double>(lhs.dimension(d));
      }
      return 2 * Elements(instruction.shape()) * contracted;
    }
    case Opcode::kConvolution:
      // An upper bound: every output element meets the whole kernel.
      return 2 * Elements(instruction.shape()) * Elements(instruction.operand(1)->shape());
    default:
      return 0;
  }
}

double Flops(const Instruction& instruction) {
  double total = 0;
  for (const Instruction* inner : FusedInstructions(instruction)) total += InstructionFlops(*inner);
  return total;
}

bool NeedsNoKernel(const Instruction& instruction) {
  switch (instruction.opcode()) {
    case Opcode::kParameter:
    case Opcode::kConstant:
    case Opcode::kBitcast:
    case Opcode::kTuple:
    case Opcode::kGetTupleElement:
      return true;
    default:
      return false;
  }
}

// How many times the consumer evaluates each element of the producer.
double RecomputeFactor(const Instruction& producer, const Instruction& consumer) {
  for (int64_t i = 0; i < consumer.operand_count(); ++i) {
    if (consumer.operand(i) == &producer && ReusesOperandElements(consumer, i)) {
      return std::max(1.0, Elements(consumer.shape()) / std::max(1.0, Elements(producer.shape())));
    }
  }
  return 1;
}

}  // namespace

double GpuPerformanceModel::Seconds(double bytes, double flops) const {
  return device_.kernel_launch_seconds + std::max(bytes / device_.memory_bandwidth_bytes_per_second,
                                                  flops / device_.flops_per_second);
}

double GpuPerformanceModel::KernelSeconds(const Instruction& instruction) const {
  if (NeedsNoKernel(instruction)) return 0;
  std::unordered_set<const Instruction*> operands(instruction.operands().begin(),
                                                  instruction.operands().end());
  double bytes = static_cast<double>(instruction.shape().ByteSize());
  for (const Instruction* operand : operands)
    bytes += static_cast<double>(operand->shape().ByteSize());
  return Seconds(bytes, Flops(instruction));
}

double GpuPerformanceModel::FusedKernelSeconds(const Instruction& producer,
                                               const Instruction& consumer,
                                               bool producer_is_output) const {
  std::unordered_set<const Instruction*> operands(producer.operands().begin(),
                                                  producer.operands().end());
  for (const Instruction* operand : consumer.operands()) {
    if (operand != &producer) operands.insert(operand);
  }
  double bytes = static_cast<double>(consumer.shape().ByteSize());
  if (producer_is_output) bytes += static_cast<double>(producer.shape().ByteSize());
  for (const Instruction* operand : operands) {
    bytes += static_cast<double>(operand->shape().ByteSize());
  }
  const double flops = Flops(consumer) + Flops(producer) * RecomputeFactor(producer, consumer);
  return Seconds(bytes, flops);
}

GpuPerformanceModel::RunTimes GpuPerformanceModel::EstimateRunTimes(
    const Instruction& producer, const std::vector<const Instruction*>& consumers) const {
  RunTimes times;
  times.unfused_seconds = KernelSeconds(producer);
  for (const Instruction* consumer : consumers) {
    times.unfused_seconds += KernelSeconds(*consumer);
    times.fused_seconds += FusedKernelSeconds(producer, *consumer);
  }
  return times;
}

}  // namespace fusescope::passes
