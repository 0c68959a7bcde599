#ifndef FUSESCOPE_RESOURCES_EXPLANATIONS_H_
#define FUSESCOPE_RESOURCES_EXPLANATIONS_H_

// What compiler passes do, written down once (resources/explanations/passes.txt, embedded
// at build time; its header documents the format) for the pass table's tooltips, the
// inspector and `fusescope explain`.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fusescope::resources {

struct PassExplanation {
  std::string key;                 // the pass's command-line name: "canonicalize"
  std::vector<std::string> names;  // other spellings: "Canonicalizer", "CanonicalizerPass"
  std::string compiler;            // "MLIR", "XLA, Fusescope"
  std::string does;
  std::string looks_for;
  std::string cannot;
  std::string docs;
};

// Every explanation, in the file's order.
const std::vector<PassExplanation>& PassExplanations();

// The explanation of a pass as a compiler or a recording names it: "canonicalize",
// "Canonicalizer (canonicalize)", "CSEPass:", "mlir::iree_compiler::IREE::ABI::
// WrapEntryPointsPass", "layout_assignment". Case and punctuation do not matter; the argument
// in parentheses, the name before them, the last `::` component and each without a trailing
// "Pass" are tried in that order. nullopt when none is written.
std::optional<PassExplanation> ExplainPass(std::string_view pass_name);

}  // namespace fusescope::resources

#endif  // FUSESCOPE_RESOURCES_EXPLANATIONS_H_
