#ifndef FUSESCOPE_RECORDING_COMPILE_AND_RECORD_H_
#define FUSESCOPE_RECORDING_COMPILE_AND_RECORD_H_

// Runs a built-in pipeline over a module with a Recorder attached and returns the recording.
//
// A failing pass is part of the recording (Recording::failed(), the broken snapshot and the
// reproducer), not an error: it is what a user most wants to look at. Errors are only what
// prevents recording a run (text that does not parse, an unknown pipeline or option).

#include <string_view>

#include "ir/module.h"
#include "ir/status.h"
#include "passes/pass_instrumentation.h"
#include "passes/pipeline_options.h"
#include "recording/recording.h"

namespace fusescope::recording {

// The built-in pipeline for `options.target`, run on a copy of `module`. `input_text`, when
// given, is what the recording keeps as its input (the module as a file gave it, printed);
// `observer` as below.
StatusOr<Recording> CompileAndRecord(const ir::Module& module,
                                     const passes::PipelineOptions& options,
                                     std::string_view source_path = "",
                                     std::string_view input_text = "",
                                     passes::PassInstrumentation* observer = nullptr);
// Parses `hlo_text` (errors as "FILE:LINE:COL: cause", FILE being `source_path`), then as
// above; the recording keeps the text verbatim as its input. `observer`, when given, watches
// the run after the recorder (progress reports); it is not owned.
StatusOr<Recording> CompileAndRecord(std::string_view hlo_text,
                                     const passes::PipelineOptions& options,
                                     std::string_view source_path = "<text>",
                                     passes::PassInstrumentation* observer = nullptr);

}  // namespace fusescope::recording

#endif  // FUSESCOPE_RECORDING_COMPILE_AND_RECORD_H_
