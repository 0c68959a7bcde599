#ifndef FUSESCOPE_IR_HLO_PARSER_H_
#define FUSESCOPE_IR_HLO_PARSER_H_

// Reads HLO text as XLA writes it (see shared FORMATS notes: sigils or not, typed operands,
// stack-frame tables, tiled layouts, JSON backend_config, nested tuples, index comments,
// elided constants, unknown opcodes as opaque instructions).
//
// On failure the status message is exactly one line: "FILE:LINE:COL: cause". Nothing is
// returned on failure (no partial module). Every instruction gets a fresh id and the
// provenance {own id}, except that an id written as `%name /*id=N*/ = ...` (PrintOptions::
// print_ids) is kept, so a printed recording reads back with the same ids.

#include <memory>
#include <string_view>

#include "ir/module.h"
#include "ir/status.h"

namespace fusescope::ir {

StatusOr<std::unique_ptr<Module>> ParseHloModule(std::string_view text,
                                                 std::string_view file_name = "<text>");
// Reads the file, then parses it. I/O errors are reported as "FILE: cause".
StatusOr<std::unique_ptr<Module>> ParseHloFile(const std::string& path);

// Parses a shape such as "(f32[8]{0}, s32[])"; for tests and tools.
StatusOr<Shape> ParseShape(std::string_view text);

}  // namespace fusescope::ir

#endif  // FUSESCOPE_IR_HLO_PARSER_H_
