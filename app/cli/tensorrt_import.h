#ifndef FUSESCOPE_APP_CLI_TENSORRT_IMPORT_H_
#define FUSESCOPE_APP_CLI_TENSORRT_IMPORT_H_

// `fusescope import ENGINE_LAYERS.json [--profile P.json] [--times T.json] [--onnx MODEL.onnx]
// [--shape-profile N] -o RUN.fsdb [--json]`: what trtexec exported about a TensorRT engine
// (importers/tensorrt_engine_importer.h) becomes a recording of TensorRT's build, with its
// layer times and inference latencies stored as a profile of the engine (see: fusescope hot).

#include "app/cli/command.h"

namespace fusescope::app {

// `args`: the import command's, the layer information the one positional.
int ImportTensorRt(const ParsedArgs& args);

}  // namespace fusescope::app

#endif  // FUSESCOPE_APP_CLI_TENSORRT_IMPORT_H_
