#ifndef FUSESCOPE_PASSES_BUFFER_LIVENESS_H_
#define FUSESCOPE_PASSES_BUFFER_LIVENESS_H_

// When each logical buffer is live for one order of a computation's instructions, and the
// most bytes live at once. A buffer is live from the step that defines it through the last
// step that reads it; an instruction's operands and result are live together during its
// step (no in-place update is assumed). Parameters, constants and live-out buffers are live
// from the first step to the last.

#include <cstdint>
#include <vector>

#include "passes/buffer_values.h"

namespace fusescope::passes {

struct BufferInterval {
  int64_t start = 0;  // first step, inclusive
  int64_t end = 0;    // last step, inclusive
};

class BufferLiveness {
 public:
  // `order` holds every instruction of the computation `values` describes, operands first.
  BufferLiveness(const BufferValues& values, const std::vector<ir::Instruction*>& order);

  // Parallel to values.buffers().
  const std::vector<BufferInterval>& intervals() const { return intervals_; }
  int64_t peak_bytes() const { return peak_bytes_; }
  // The first step at which peak_bytes() are live (-1 for an empty computation).
  int64_t peak_step() const { return peak_step_; }

 private:
  std::vector<BufferInterval> intervals_;
  int64_t peak_bytes_ = 0;
  int64_t peak_step_ = -1;
};

}  // namespace fusescope::passes

#endif  // FUSESCOPE_PASSES_BUFFER_LIVENESS_H_
