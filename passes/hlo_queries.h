#ifndef FUSESCOPE_PASSES_HLO_QUERIES_H_
#define FUSESCOPE_PASSES_HLO_QUERIES_H_

// Small questions the graph passes ask about instructions, and the one way they create a
// replacement instruction (fresh id and unique name, metadata and provenance of what it
// replaces).

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/computation.h"
#include "ir/instruction.h"
#include "ir/shape.h"

namespace fusescope::passes {

// Whether a value of shape `a` may stand where one of shape `b` is used: same type and
// dimensions, and the same layout unless either has none yet.
bool ShapesInterchangeable(const ir::Shape& a, const ir::Shape& b);

// The value every element of `instruction` has, for a constant whose elements are all
// equal or a broadcast of one; nullopt otherwise (also for elided constants and for array
// constants of more than 4096 elements, which are not read).
std::optional<double> UniformValue(const ir::Instruction& instruction);

// `{0,1,...,rank-1}`.
bool IsIdentityPermutation(const std::vector<int64_t>& dims);

// `{1,0}`, the way XLA writes integer lists in attributes.
std::string IntListText(const std::vector<int64_t>& values);

// Adds a new instruction to `computation` in place of (or on behalf of) `origin`: named
// uniquely after `base_name`, with origin's metadata and provenance. Returns it.
ir::Instruction* AddDerivedInstruction(ir::Computation& computation, ir::Opcode opcode,
                                       ir::Shape shape, std::vector<ir::Instruction*> operands,
                                       std::string_view base_name, const ir::Instruction& origin);

}  // namespace fusescope::passes

#endif  // FUSESCOPE_PASSES_HLO_QUERIES_H_
