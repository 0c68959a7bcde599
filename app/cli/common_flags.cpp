#include "app/cli/common_flags.h"

namespace fusescope::app {

Flag JsonFlag() { return Switch("--json", "print JSON"); }

Flag PassFlag(const std::string& fallback) {
  return Integer(
      "--pass", "N",
      "a recording's snapshot after pass N (-1: the input; without it: " + fallback + ")");
}

Flag DimFlag() {
  return Text("--dim", "NAME=N",
              "the size of an ONNX model's symbolic dimension (else 1, with a warning)")
      .Repeats();
}

Flag ProgressFlag() {
  return Switch("--progress", "one 'progress: KIND INDEX/TOTAL NAME' line on stderr per step");
}

Flag SeedFlag() { return Integer("--seed", "S", "the seed of the generated inputs").Default("0"); }

Flag InputsFlag() {
  return Text("--inputs", "DIR",
              "inputs from .npy files (arg_000.npy, ... or one .npz) instead of seeded ones");
}

}  // namespace fusescope::app
