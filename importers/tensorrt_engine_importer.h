#ifndef FUSESCOPE_IMPORTERS_TENSORRT_ENGINE_IMPORTER_H_
#define FUSESCOPE_IMPORTERS_TENSORRT_ENGINE_IMPORTER_H_

// Turns what trtexec exports about an engine into a recording of one pass, TensorRT's build:
// snapshot 0 is the ONNX side and snapshot 1 the engine's final graph of one optimization
// profile (tensorrt_engine_graph.h), each layer answering for the ONNX nodes it holds.
//
// Beside the layer information (`--exportLayerInfo`), optionally:
//  - the layer profile (`--exportProfile`): each layer's time, matched to the engine's nodes by
//    TensorRT's layer name (repeated names in order). An engine built with several optimization
//    profiles is profiled in one of them: by default the import builds the profile whose layers
//    the layer profile names, else profile 0; `profile` in the options chooses another;
//  - the inference times (`--exportTimes`): the latency of every inference.
// Not given, they are looked for beside the layer information by name: for "X.graph.json",
// "X.layers.json", "X.layer_info.json" or "X.json", the files "X.profile.json" and
// "X.times.json" (or "X.timing.json", the engine explorer's name).
//
// The times are kept as data here (the core of the import links no profiler); turning them
// into a stored profile is profiler/tensorrt_profile.h. Fusion decisions are not recorded:
// TensorRT's exports say what it fused, not why.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "importers/tensorrt_engine_graph.h"
#include "importers/tensorrt_inference_times.h"
#include "importers/tensorrt_layer_info.h"
#include "importers/tensorrt_layer_profile.h"
#include "ir/module.h"
#include "ir/status.h"
#include "recording/recording.h"

namespace fusescope::ir {

struct TensorRtImportOptions {
  std::string profile_path;        // --exportProfile file; "" to look beside the layer information
  std::string times_path;          // --exportTimes file; "" to look beside it
  bool find_beside = true;         // look for the two beside the layer information when not given
  std::optional<int64_t> profile;  // the optimization profile to build
  const Module* onnx_model = nullptr;  // the model the engine was built from, when known
  std::string onnx_path;
  int64_t max_file_bytes = int64_t{1} << 30;
};

// One layer's time from the layer profile, on the engine's node.
struct TensorRtNodeTime {
  int64_t instruction_id = -1;
  std::string instruction_name;
  std::string layer_name;  // TensorRT's
  double total_ms = 0;     // over the profiled inferences
  double average_ms = 0;
  double median_ms = 0;
  double percentage = 0;
};

struct TensorRtImport {
  recording::Recording recording;  // snapshot 1 is the engine
  TensorRtLayerInfo info;
  TensorRtEngineGraph graph;  // its modules are moved into the recording; counts stay
  int64_t profile = 0;        // the optimization profile built
  std::string profile_path;   // the layer profile read, "" for none
  std::optional<TensorRtLayerProfile> layer_profile;
  std::vector<TensorRtNodeTime> node_times;   // in the profile's order
  std::vector<std::string> unmatched_layers;  // named by the layer profile, not in the graph
  std::string times_path;                     // the inference times read, "" for none
  std::optional<TensorRtInferenceTimes> times;
  std::vector<std::string> warnings;  // one line each
};

StatusOr<TensorRtImport> ImportTensorRtEngine(const std::string& layer_info_path,
                                              const TensorRtImportOptions& options = {});

// The model's name for a layer information file: its name without ".graph.json", ".json", ...
std::string TensorRtModelName(const std::string& layer_info_path);

// Another compiler's final graph given as layers (ONNX Runtime's optimized model,
// importers/onnx/ort_optimized_graph.h), recorded as TensorRT's engine is: one pass from the
// ONNX model (snapshot 0) to the layers (snapshot 1), each answering for the ONNX nodes it
// holds. Profile 0 of `info`.
struct LayerGraphRecordOptions {
  std::string compiler;       // the recording's pipeline name: "onnxruntime"
  std::string pass_name;      // "onnxruntime-graph-optimizations"
  std::string target_prefix;  // before each layer's type in custom_call_target: "onnxruntime."
  std::string model_name;
  std::string model_path;
  const Module* onnx_model = nullptr;  // cloned as snapshot 0 when given
};
struct LayerGraphRecord {
  recording::Recording recording;
  int64_t layers = 0;
  int64_t fused_layers = 0;       // layers answering for 2 or more ONNX nodes
  int64_t onnx_nodes_linked = 0;  // distinct ONNX nodes some layer answers for
  int64_t edges = 0;
  std::vector<std::string> warnings;  // one line each
};
StatusOr<LayerGraphRecord> RecordLayerGraph(const TensorRtLayerInfo& info,
                                            const LayerGraphRecordOptions& options);

}  // namespace fusescope::ir

#endif  // FUSESCOPE_IMPORTERS_TENSORRT_ENGINE_IMPORTER_H_
