#ifndef FUSESCOPE_PASSES_BUFFER_ASSIGNMENT_H_
#define FUSESCOPE_PASSES_BUFFER_ASSIGNMENT_H_

// "buffer-assignment": an analysis of the entry computation (it changes nothing). Walks the
// instructions in their stored order, which is the schedule once "scheduling" ran (the
// def-before-use post order otherwise), computes each logical buffer's live range (fusions,
// whiles and calls count as single ops) and packs buffers into allocations: a buffer takes
// over the allocation of a dead buffer of exactly the same size, or gets a new one.
// Parameters and constants are allocated elsewhere and never shared.
//
// Stats: "peak_bytes" (most bytes live at once), "total_bytes_no_reuse" (every buffer its
// own allocation), "allocated_bytes" (with reuse), "buffers", "reused_buffers".

#include <cstdint>
#include <string>
#include <vector>

#include "passes/buffer_liveness.h"
#include "passes/pass.h"

namespace fusescope::passes {

struct BufferAssignmentResult {
  struct Buffer {
    std::string instruction;  // the defining instruction's name
    int64_t bytes = 0;
    BufferInterval live;
    int64_t allocation = -1;  // index into allocation_bytes; -1 for zero-byte buffers
    bool reused = false;      // took over a dead buffer's allocation
  };
  std::vector<Buffer> buffers;
  std::vector<int64_t> allocation_bytes;
  int64_t peak_bytes = 0;
  std::string peak_instruction;  // the first step at which peak_bytes are live
  int64_t total_bytes_no_reuse = 0;
  int64_t allocated_bytes = 0;
  int64_t reused_buffers = 0;
};

class BufferAssignment : public Pass {
 public:
  std::string_view name() const override { return "buffer-assignment"; }
  StatusOr<bool> Run(ir::Module& module, PassContext& context) override;

  // The analysis of the last Run.
  const BufferAssignmentResult& result() const { return result_; }

  // The analysis itself, for callers that want it without a pipeline.
  static BufferAssignmentResult Analyze(const ir::Computation& computation);

 private:
  BufferAssignmentResult result_;
};

}  // namespace fusescope::passes

#endif  // FUSESCOPE_PASSES_BUFFER_ASSIGNMENT_H_
