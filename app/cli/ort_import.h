#ifndef FUSESCOPE_APP_CLI_ORT_IMPORT_H_
#define FUSESCOPE_APP_CLI_ORT_IMPORT_H_

// `fusescope import OPTIMIZED.onnx --optimized-from MODEL.onnx -o RUN.fsdb [--json]`: ONNX
// Runtime's optimized model (optimized_model_filepath) as a recording of one pass from MODEL
// to ORT's graph, each of its nodes answering for MODEL's nodes it replaced
// (importers/onnx/ort_optimized_graph.h).

#include "app/cli/command.h"

namespace fusescope::app {

// `args`: the import command's, the optimized model the one positional.
int ImportOrtOptimized(const ParsedArgs& args);

}  // namespace fusescope::app

#endif  // FUSESCOPE_APP_CLI_ORT_IMPORT_H_
