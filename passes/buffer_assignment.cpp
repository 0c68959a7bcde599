#include "passes/buffer_assignment.h"

#include <algorithm>
#include <functional>
#include <map>
#include <queue>
#include <utility>

namespace fusescope::passes {
namespace {

// Packs buffers, in order of their first step, into allocations; frees an allocation the
// step after its holder's last read.
void AssignAllocations(const BufferValues& values, const BufferLiveness& liveness,
                       BufferAssignmentResult& result) {
  std::vector<size_t> by_start(values.buffers().size());
  for (size_t i = 0; i < by_start.size(); ++i) by_start[i] = i;
  std::stable_sort(by_start.begin(), by_start.end(), [&](size_t a, size_t b) {
    return liveness.intervals()[a].start < liveness.intervals()[b].start;
  });
  using Release = std::pair<int64_t, int64_t>;  // (last step, allocation)
  std::priority_queue<Release, std::vector<Release>, std::greater<>> busy;
  std::multimap<int64_t, int64_t> free_by_size;  // bytes -> allocation
  for (size_t index : by_start) {
    const LogicalBuffer& logical = values.buffers()[index];
    BufferAssignmentResult::Buffer& buffer = result.buffers[index];
    while (!busy.empty() && busy.top().first < buffer.live.start) {
      const int64_t allocation = busy.top().second;
      free_by_size.emplace(result.allocation_bytes[static_cast<size_t>(allocation)], allocation);
      busy.pop();
    }
    if (logical.bytes == 0) continue;
    const auto reusable =
        logical.lives_throughout ? free_by_size.end() : free_by_size.find(logical.bytes);
    if (reusable != free_by_size.end()) {
      buffer.allocation = reusable->second;
      buffer.reused = true;
      ++result.reused_buffers;
      free_by_size.erase(reusable);
    } else {
      buffer.allocation = static_cast<int64_t>(result.allocation_bytes.size());
      result.allocation_bytes.push_back(logical.bytes);
      result.allocated_bytes += logical.bytes;
    }
    if (!logical.lives_throughout && !logical.live_out) {
      busy.emplace(buffer.live.end, buffer.allocation);
    }
  }
}

}  // namespace

BufferAssignmentResult BufferAssignment::Analyze(const ir::Computation& computation) {
  const BufferValues values(computation);
  // The stored order when it is a valid schedule, the nearest one otherwise.
  const std::vector<ir::Instruction*> order = computation.MakePostOrder();
  const BufferLiveness liveness(values, order);
  BufferAssignmentResult result;
  result.peak_bytes = liveness.peak_bytes();
  if (liveness.peak_step() >= 0) {
    result.peak_instruction = order[static_cast<size_t>(liveness.peak_step())]->name();
  }
  for (size_t i = 0; i < values.buffers().size(); ++i) {
    const LogicalBuffer& logical = values.buffers()[i];
    BufferAssignmentResult::Buffer buffer;
    buffer.instruction = logical.defined_by->name();
    buffer.bytes = logical.bytes;
    buffer.live = liveness.intervals()[i];
    result.buffers.push_back(std::move(buffer));
    result.total_bytes_no_reuse += logical.bytes;
  }
  AssignAllocations(values, liveness, result);
  return result;
}

StatusOr<bool> BufferAssignment::Run(ir::Module& module, PassContext& context) {
  if (module.entry() == nullptr) {
    return Status::Error("module " + module.name() + " has no entry computation");
  }
  result_ = Analyze(*module.entry());
  context.AddStat("peak_bytes", std::to_string(result_.peak_bytes));
  context.AddStat("total_bytes_no_reuse", std::to_string(result_.total_bytes_no_reuse));
  context.AddStat("allocated_bytes", std::to_string(result_.allocated_bytes));
  context.AddStat("buffers", std::to_string(result_.buffers.size()));
  context.AddStat("reused_buffers", std::to_string(result_.reused_buffers));
  return false;
}

}  // namespace fusescope::passes
