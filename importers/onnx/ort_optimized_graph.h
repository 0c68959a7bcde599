#ifndef FUSESCOPE_IMPORTERS_ONNX_ORT_OPTIMIZED_GRAPH_H_
#define FUSESCOPE_IMPORTERS_ONNX_ORT_OPTIMIZED_GRAPH_H_

// ONNX Runtime's optimized model (SessionOptions.optimized_model_filepath, the graph after its
// graph optimizations) read as layers of a final graph (importers/tensorrt_engine_importer.h's
// RecordLayerGraph), each answering for the nodes of the model it was made from:
//
//  - a node the model has under the same name and op type answers for itself;
//  - any other node (a fusion: FusedMatMul, SkipLayerNormalization, a MatMul that took an Add)
//    answers for the model's nodes on the paths inside it: ORT keeps the names of the tensors
//    at a fused region's edges, so walking the model back from the node's outputs, stopping at
//    its inputs (and at tensors other optimized nodes make), finds the nodes it replaced.
//
// A layer's type is the op type, with its domain when not the default one
// ("com.microsoft.FusedMatMul"). Initializers are weights, not inputs: they are left out of
// the layers' inputs. ORT writes no value_info, so tensors have no dimensions.
//
// Errors are one line naming the file.

#include <string>
#include <string_view>

#include "importers/tensorrt_layer_info.h"
#include "ir/status.h"

namespace fusescope::ir::onnx_import {

StatusOr<TensorRtLayerInfo> ReadOrtOptimizedGraph(const std::string& optimized_path,
                                                  const std::string& model_path);
// The same from the two files' bytes; `optimized_name` and `model_name` name them in errors.
StatusOr<TensorRtLayerInfo> ReadOrtOptimizedGraphBytes(std::string_view optimized,
                                                       const std::string& optimized_name,
                                                       std::string_view model,
                                                       const std::string& model_name);

}  // namespace fusescope::ir::onnx_import

#endif  // FUSESCOPE_IMPORTERS_ONNX_ORT_OPTIMIZED_GRAPH_H_
