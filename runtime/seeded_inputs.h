#ifndef FUSESCOPE_RUNTIME_SEEDED_INPUTS_H_
#define FUSESCOPE_RUNTIME_SEEDED_INPUTS_H_

// Reproducible inputs for a module's entry parameters, the same on every platform:
// floats uniform in [-1, 1); signed integers in [0, 4), so that gather and dynamic-slice
// indices stay in range; unsigned integers over their whole range (PRNG keys); preds 0 or 1.
// `fusescope export` and `fusescope run` both use them, so XLA and the interpreter see the
// same numbers.

#include <cstdint>
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

// One array of `shape` drawn from `seed`.
StatusOr<Literal> SeededArray(const ir::Shape& shape, uint64_t seed);
// The seed of parameter `index` under the run's `seed`.
uint64_t ParameterSeed(uint64_t seed, int64_t index);
// One input per parameter of `computation`; errors name the parameter. Refuses, before
// allocating, inputs that would take more than `max_bytes` together.
StatusOr<std::vector<Literal>> SeededInputs(const ir::Computation& computation, uint64_t seed,
                                            int64_t max_bytes = int64_t{4} << 30);

}  // namespace fusescope::runtime

#endif  // FUSESCOPE_RUNTIME_SEEDED_INPUTS_H_
