#include "passes/gpu_performance_model.h"

#include <algorithm>
#include <unordered_set>

#include "passes/cost_analysis.h"
#include "passes/fusion_utils.h"

namespace fusescope::passes {
namespace {

using ir::Instruction;
using ir::Opcode;

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
      return std::max(1.0,
                      ElementCount(consumer.shape()) / std::max(1.0, ElementCount(producer.shape())));
    }
  }
  return 1;
}

}  // namespace

double GpuPerformanceModel::Seconds(double bytes, double flops) const {
  return device_.kernel_launch_us * 1e-6 +
         std::max(bytes / (device_.memory_bandwidth_gb_per_s * 1e9),
                  flops / (device_.peak_tflops * 1e12));
}

double GpuPerformanceModel::KernelSeconds(const Instruction& instruction) const {
  if (NeedsNoKernel(instruction)) return 0;
  return Seconds(KernelBytes(instruction), KernelFlops(instruction));
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
  const double flops =
      KernelFlops(consumer) + KernelFlops(producer) * RecomputeFactor(producer, consumer);
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
