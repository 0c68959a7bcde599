#ifndef FUSESCOPE_IR_HLO_PRINTER_H_
#define FUSESCOPE_IR_HLO_PRINTER_H_

// Prints a module as HLO text. Three presets:
//  - Parsable: what XLA can read back; follows the module's TextStyle, so printing a parsed
//    XLA file reproduces it modulo whitespace.
//  - Canonical: stable names (computations and instructions renamed in post order), no
//    metadata, for diffs that ignore renaming.
//  - Fingerprint: canonical plus large constants elided; two modules that differ only in
//    names or ids print the same.

#include <cstdint>
#include <optional>
#include <string>

#include "ir/module.h"

namespace fusescope::ir {

struct PrintOptions {
  bool canonical_names = false;
  bool print_metadata = true;
  bool print_backend_config = true;
  bool print_large_constants = true;  // false: constants over 10 elements print as {...}
  bool print_stack_frames = true;
  // `%name /*id=N*/ = ...`: the parser restores these ids instead of assigning fresh ones,
  // which is how recordings keep instruction ids in text. XLA reads it as a comment.
  bool print_ids = false;
  // Overrides the module's TextStyle (sigils, typed operands, index comments). Canonical and
  // Fingerprint fix it so that two texts of one module in different styles print the same.
  std::optional<TextStyle> style;

  static PrintOptions Parsable() { return {}; }
  static PrintOptions Canonical();
  static PrintOptions Fingerprint();
};

std::string PrintModule(const Module& module, const PrintOptions& options = {});
std::string PrintComputation(const Computation& computation, const PrintOptions& options = {});
// One line, `%add.1 = f32[8]{0} add(f32[8]{0} %a, f32[8]{0} %b), metadata={...}`.
std::string PrintInstruction(const Instruction& instruction, const PrintOptions& options = {});

// 64-bit hash of the fingerprint form of a module / computation.
uint64_t Fingerprint(const Module& module);
uint64_t Fingerprint(const Computation& computation);

}  // namespace fusescope::ir

#endif  // FUSESCOPE_IR_HLO_PRINTER_H_
