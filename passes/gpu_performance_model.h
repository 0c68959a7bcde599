#ifndef FUSESCOPE_PASSES_GPU_PERFORMANCE_MODEL_H_
#define FUSESCOPE_PASSES_GPU_PERFORMANCE_MODEL_H_

// A roofline estimate of GPU kernel times, the quantity XLA's priority fusion, fusion merger
// and multi-output fusion compare: a kernel costs a launch plus the larger of its memory
// time (bytes read and written over bandwidth) and its compute time (flops over peak).
// Fusing a producer into a consumer saves the producer's launch and the round trip of its
// result through memory, and costs re-reading the producer's inputs and recomputing it
// wherever the consumer reads an element more than once.

#include <vector>

#include "ir/instruction.h"
#include "passes/pipeline_options.h"

namespace fusescope::passes {

class GpuPerformanceModel {
 public:
  explicit GpuPerformanceModel(GpuDeviceDescription device = {}) : device_(device) {}

  struct RunTimes {
    double unfused_seconds = 0;
    double fused_seconds = 0;
    double saved_seconds() const { return unfused_seconds - fused_seconds; }
  };

  // `instruction` (a fusion or a single op) as its own kernel; 0 for what needs no kernel
  // (parameters, constants, bitcasts, tuples).
  double KernelSeconds(const ir::Instruction& instruction) const;
  // The kernel `consumer` becomes with `producer` fused into it; with
  // `producer_is_output` (multi-output fusion) the kernel also writes the producer's value.
  double FusedKernelSeconds(const ir::Instruction& producer, const ir::Instruction& consumer,
                            bool producer_is_output = false) const;
  // Producer and consumers as they are, against the producer fused into every consumer.
  RunTimes EstimateRunTimes(const ir::Instruction& producer,
                            const std::vector<const ir::Instruction*>& consumers) const;

 private:
  double Seconds(double bytes, double flops) const;

  GpuDeviceDescription device_;
};

}  // namespace fusescope::passes

#endif  // FUSESCOPE_PASSES_GPU_PERFORMANCE_MODEL_H_
