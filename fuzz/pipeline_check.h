#ifndef FUSESCOPE_FUZZ_PIPELINE_CHECK_H_
#define FUSESCOPE_FUZZ_PIPELINE_CHECK_H_

// What every valid module must survive: both built-in pipelines with the verifier between
// passes, a compiled module that prints as text the parser reads back into a valid module,
// and fusion-inliner (print --inline-fusions, export) on the input and on both compiled
// modules. A pass that fails on a valid module is a bug, whatever its message says.

#include "ir/module.h"
#include "ir/status.h"

namespace fusescope::fuzz {

struct PipelineCheckOptions {
  // Run the gpu pipeline through CompileAndRecord (recording instrumentation attached) and
  // check that every fusion decision it recorded carries its explanation.
  bool record = false;
};

// Runs "cpu" and "gpu" on copies of `module`. The error names the pipeline and carries its
// message (for a recorded run, the failing pass and the error of the reproducer).
Status CheckBuiltinPipelines(const ir::Module& module, const PipelineCheckOptions& options = {});

}  // namespace fusescope::fuzz

#endif  // FUSESCOPE_FUZZ_PIPELINE_CHECK_H_
