#ifndef FUSESCOPE_FUZZ_MODULE_GENERATOR_H_
#define FUSESCOPE_FUZZ_MODULE_GENERATOR_H_

// Turns arbitrary bytes into a valid HLO module: one the parser reads and ir::VerifyModule
// accepts. The module is written as HLO text and parsed, so that the parser is exercised too
// and a failing input can be shown as text.
//
// What the bytes choose: element types, shapes, and a sequence of operations drawn from
// everything the verifier checks and the passes handle (elementwise ops, data movement, dot,
// convolution, reductions, gather/scatter, sort and top-k, control flow, custom calls,
// collectives, batch norm, rng, fusions already formed, including multi-output ones), with
// tuple roots, unused side-effecting instructions and input_output_alias in the header.
// Shapes stay small (a few hundred elements) so that constant folding stays cheap.
//
// Deterministic: the same bytes give the same text. Plain C++, no Qt, no libFuzzer: used by
// the pipeline fuzzer and by a gtest over fixed seeds.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ir/module.h"
#include "ir/status.h"

namespace fusescope::fuzz {

// The HLO text the bytes describe.
std::string GenerateModuleText(const uint8_t* data, size_t size);

// GenerateModuleText, parsed and verified. An error means the generator wrote a module it
// should not have (a generator bug); the message carries the cause and the text.
StatusOr<std::unique_ptr<ir::Module>> GenerateModule(const uint8_t* data, size_t size);

// `size` pseudo-random bytes from `seed` (for tests that want many modules without a corpus).
std::vector<uint8_t> SeedBytes(uint64_t seed, size_t size);

}  // namespace fusescope::fuzz

#endif  // FUSESCOPE_FUZZ_MODULE_GENERATOR_H_
