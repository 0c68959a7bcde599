#ifndef FUSESCOPE_RUNTIME_SEEDED_INPUTS_H_
#define FUSESCOPE_RUNTIME_SEEDED_INPUTS_H_

// Reproducible inputs for a module's entry parameters, the same on every platform, that keep
// the model in its working range. What a parameter feeds decides its range, read from the
// graph (never from parameter names):
//   - floats are uniform in [-1, 1), times a scale;
//   - a float contracted by a dot or a convolution kernel is scaled by 1/sqrt(fan-in), as
//     weight initialisers do (fan-in: the contracted dimensions of that operand; for a kernel
//     all dimensions but the output feature). When both operands of a dot come from
//     parameters only the right-hand one (the weights of x @ w) is scaled, else a product of
//     two scaled operands would vanish. Of several such consumers the largest fan-in wins;
//   - a float that reaches sqrt, rsqrt, log, log1p, the base of power, a divisor or a batch
//     norm's variance (through adds, multiplies, maxima, reductions and data movement) is
//     positive and away from zero: uniform in [0.5, 1.5), times its scale;
//   - signed integers are in [0, 4), so that gather and dynamic-slice indices stay in range;
//     unsigned integers cover their whole range (PRNG keys); preds are 0 or 1.
// Data movement (reshape, transpose, broadcast, slices, concatenation, converts, gathers),
// tuples, while loops, calls, conditionals and fusions are looked through, so the weight of
// a scan's recurrence is scaled like the weight of a single layer: with weights uniform in
// [-1, 1) a 128-wide recurrence is chaotic and any rounding flips its signs after a few steps.
// `fusescope run`, `bisect` and `export` all use these inputs, so XLA and the interpreter see
// the same numbers.

#include <cstdint>
#include <string>
#include <vector>

#include "ir/computation.h"
#include "ir/status.h"
#include "runtime/literal.h"

namespace fusescope::runtime {

// splitmix64: the same numbers everywhere, unlike <random>'s distributions.
class SeededBits {
 public:
  explicit SeededBits(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  double Unit() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

 private:
  uint64_t state_;
};

// The range a float parameter's values are drawn from, and why.
struct InputRange {
  double scale = 1;
  bool positive = false;
  std::string reason;  // "contracted by dot.3 (fan-in 128); feeds rsqrt.7", or ""
};

// One range per parameter of `entry`, from what each feeds.
std::vector<InputRange> ChooseInputRanges(const ir::Computation& entry);

// One array of `shape` drawn from `seed` in `range` (floats; other types ignore it).
StatusOr<Literal> SeededArray(const ir::Shape& shape, uint64_t seed, const InputRange& range = {});
// The seed of parameter `index` under the run's `seed`.
uint64_t ParameterSeed(uint64_t seed, int64_t index);
// One input per parameter of `computation`, in the ranges ChooseInputRanges gives; errors
// name the parameter. Refuses, before allocating, inputs that would take more than
// `max_bytes` together.
StatusOr<std::vector<Literal>> SeededInputs(const ir::Computation& computation, uint64_t seed,
                                            int64_t max_bytes = int64_t{4} << 30);

}  // namespace fusescope::runtime

#endif  // FUSESCOPE_RUNTIME_SEEDED_INPUTS_H_
