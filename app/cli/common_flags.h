#ifndef FUSESCOPE_APP_CLI_COMMON_FLAGS_H_
#define FUSESCOPE_APP_CLI_COMMON_FLAGS_H_

// Flags that many commands take, declared once with their help.

#include <string>

#include "app/cli/command.h"

namespace fusescope::app {

// --json: JSON on stdout instead of text.
Flag JsonFlag();
// --pass N: a recording's snapshot after pass N; `fallback` says which one without it.
Flag PassFlag(const std::string& fallback = "the final one");
// --dim NAME=N (repeatable): an ONNX model's symbolic dimension.
Flag DimFlag();
// --progress: "progress: ..." lines on stderr, for the workbench's worker processes.
Flag ProgressFlag();
// --seed S: the seed of generated inputs.
Flag SeedFlag();
// --inputs DIR: .npy inputs instead of seeded ones.
Flag InputsFlag();

}  // namespace fusescope::app

#endif  // FUSESCOPE_APP_CLI_COMMON_FLAGS_H_
