#ifndef FUSESCOPE_RUNTIME_NPY_H_
#define FUSESCOPE_RUNTIME_NPY_H_

// NumPy's .npy format (version 1.0, little-endian, C order) for array literals, so that
// inputs and outputs can be exchanged with numpy and XLA. bf16 has no numpy type code and is
// refused.

#include <string>
#include <string_view>

#include "ir/status.h"
#include "runtime/literal.h"

namespace fusescope::runtime {

// The whole file's bytes; an error for tuples and types .npy cannot name.
StatusOr<std::string> EncodeNpy(const Literal& literal);
// Reads a file's bytes; errors name what is wrong with the header.
StatusOr<Literal> DecodeNpy(std::string_view bytes);

Status WriteNpyFile(const std::string& path, const Literal& literal);
StatusOr<Literal> ReadNpyFile(const std::string& path);

}  // namespace fusescope::runtime

#endif  // FUSESCOPE_RUNTIME_NPY_H_
