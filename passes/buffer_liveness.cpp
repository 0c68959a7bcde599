#include "passes/buffer_liveness.h"

#include <algorithm>
#include <unordered_map>

namespace fusescope::passes {

BufferLiveness::BufferLiveness(const BufferValues& values,
                               const std::vector<ir::Instruction*>& order) {
  const auto steps = static_cast<int64_t>(order.size());
  std::unordered_map<const ir::Instruction*, int64_t> step_of;
  step_of.reserve(order.size());
  for (int64_t i = 0; i < steps; ++i) step_of[order[static_cast<size_t>(i)]] = i;
  const auto step = [&](const ir::Instruction* instruction) {
    const auto it = step_of.find(instruction);
    return it == step_of.end() ? int64_t{0} : it->second;
  };

  // Bytes live change by +size at a buffer's start and -size after its end.
  std::vector<int64_t> delta(order.size() + 1, 0);
  intervals_.reserve(values.buffers().size());
  for (const LogicalBuffer& buffer : values.buffers()) {
    BufferInterval interval;
    interval.start = buffer.lives_throughout ? 0 : step(buffer.defined_by);
    interval.end = interval.start;
    for (const ir::Instruction* reader : buffer.readers) {
      interval.end = std::max(interval.end, step(reader));
    }
    if (buffer.lives_throughout || buffer.live_out) interval.end = std::max<int64_t>(0, steps - 1);
    intervals_.push_back(interval);
    if (steps == 0) continue;
    delta[static_cast<size_t>(interval.start)] += buffer.bytes;
    delta[static_cast<size_t>(interval.end) + 1] -= buffer.bytes;
  }
  int64_t live = 0;
  for (int64_t i = 0; i < steps; ++i) {
    live += delta[static_cast<size_t>(i)];
    if (live > peak_bytes_) {
      peak_bytes_ = live;
      peak_step_ = i;
    }
  }
  if (steps > 0 && peak_step_ < 0) peak_step_ = 0;
}

}  // namespace fusescope::passes
