#ifndef FUSESCOPE_IMPORTERS_TENSORRT_ENGINE_GRAPH_H_
#define FUSESCOPE_IMPORTERS_TENSORRT_ENGINE_GRAPH_H_

// A TensorRT engine's final graph, from its layer information, as two modules of our IR:
//
//  - `engine`: one custom-call per layer of one optimization profile
//    (custom_call_target="tensorrt.<LayerType>", metadata op_type=<LayerType>
//    op_name=<TensorRT's layer name>, backend_config holding the tactic), shaped from its output
//    tensors' Dimensions and Format/Datatype (a tuple when it has several; `()` when the form or
//    the file does not say); an edge wherever a layer reads a tensor another layer writes; the
//    tensors no layer writes become parameters (bindings first, in their order), and the output
//    bindings the root. Names are TensorRT's, made HLO names ("/fc1/MatMul + /act/Relu" becomes
//    "fc1_MatMul_act_Relu").
//  - `input`: the ONNX side the engine answers for. With the ONNX model (imported by the
//    caller), that model; without it, one node per ONNX node name the layers' Metadata gives
//    (custom_call_target="onnx.node", metadata op_name=<name>), with no edges: the layer
//    information does not say how ONNX nodes were connected.
//
// Each layer's provenance is the input instructions of the ONNX nodes it holds, so a fused
// layer shows the nodes it was made of and its time reaches them. The names-only form (an
// engine built without `--profilingVerbosity=detailed`) gives neither shapes, edges nor
// Metadata: layers are nodes by name only, said in a warning; with an ONNX model, a layer named
// "A + B" (TensorRT's name for a fusion) is linked to the model's nodes A and B when the model
// has both.
//
// Engine ids start after the input's, so no engine node is taken for an input node by id.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "importers/tensorrt_layer_info.h"
#include "ir/module.h"
#include "ir/status.h"

namespace fusescope::ir {

struct TensorRtGraphOptions {
  std::string model_name = "engine";
  // Before each layer's type in its custom_call_target; another compiler's layers (ONNX
  // Runtime's optimized graph) carry that compiler's name.
  std::string target_prefix = "tensorrt.";
  int64_t profile = 0;                 // the optimization profile to build
  const Module* onnx_model = nullptr;  // cloned as the input when given
};

struct TensorRtLayerNode {
  size_t layer = 0;  // index into TensorRtLayerInfo::layers
  int64_t instruction_id = -1;
  std::string instruction_name;
  std::vector<std::string> onnx_nodes_linked;  // of its ONNX nodes, those the input has
};

struct TensorRtEngineGraph {
  std::unique_ptr<Module> input;
  std::unique_ptr<Module> engine;
  std::vector<TensorRtLayerNode> layers;  // of the profile, in the file's order
  int64_t edges = 0;                      // operands that are another layer's output
  int64_t engine_inputs = 0;
  int64_t engine_outputs = 0;
  int64_t fused_layers = 0;                     // layers linked to 2 or more ONNX nodes
  int64_t onnx_nodes_linked = 0;                // distinct ONNX nodes some layer is linked to
  std::vector<std::string> onnx_nodes_missing;  // in Metadata, not in the ONNX model
  int64_t tensors_without_shape = 0;
  std::vector<std::string> warnings;
};

// Fails when the profile has no layer.
StatusOr<TensorRtEngineGraph> BuildTensorRtEngineGraph(const TensorRtLayerInfo& info,
                                                       const TensorRtGraphOptions& options);

}  // namespace fusescope::ir

#endif  // FUSESCOPE_IMPORTERS_TENSORRT_ENGINE_GRAPH_H_
