#include "app/cli/ort_import.h"

#include <filesystem>
#include <iostream>

#include "app/cli/model_loader.h"
#include "importers/tensorrt_engine_importer.h"
#include "ir/json_writer.h"
#include "recording/recording_store.h"
#ifdef FUSESCOPE_HAVE_ONNX
#include "importers/onnx/ort_optimized_graph.h"
#endif

namespace fusescope::app {
namespace {

std::string FileName(const std::string& path) {
  return std::filesystem::path(path).filename().string();
}

}  // namespace

int ImportOrtOptimized(const ParsedArgs& args) {
#ifdef FUSESCOPE_HAVE_ONNX
  const std::string& source = args.positional()[0];
  const std::string model_path = *args.Value("--optimized-from");
  auto info = ir::onnx_import::ReadOrtOptimizedGraph(source, model_path);
  if (!info.ok()) return Fail(info.message());
  auto model = LoadModel(model_path);
  if (!model.ok()) return Fail(model.message());
  ir::LayerGraphRecordOptions options;
  options.compiler = "onnxruntime";
  options.pass_name = "onnxruntime-graph-optimizations";
  options.target_prefix = "onnxruntime.";
  options.model_name = std::filesystem::path(model_path).stem().string();
  options.model_path = model_path;
  options.onnx_model = model->module.get();
  auto recorded = ir::RecordLayerGraph(*info, options);
  if (!recorded.ok()) return Fail(source + ": " + recorded.message());
  for (const std::string& warning : recorded->warnings)
    std::cerr << "warning: " << source << ": " << warning << '\n';
  const std::string output = *args.Value("-o");
  if (Status saved = recording::SaveRecording(recorded->recording, output); !saved.ok())
    return Fail(saved.message());
  if (args.Has("--json")) {
    JsonWriter json;
    json.BeginObject();
    json.Key("recording").String(output);
    json.Key("nodes").Int(recorded->layers);
    json.Key("fused_nodes").Int(recorded->fused_layers);
    json.Key("model_nodes_linked").Int(recorded->onnx_nodes_linked);
    json.Key("edges").Int(recorded->edges);
    json.EndObject();
    std::cout << json.str() << '\n';
  } else {
    std::cout << "imported ONNX Runtime's optimized graph " << FileName(source) << " of "
              << FileName(model_path) << " -> " << output
              << "\n  nodes:        " << recorded->layers << ", " << recorded->fused_layers
              << " of them standing for 2 or more of the model's nodes; " << recorded->edges
              << " edges\n  model nodes:  " << recorded->onnx_nodes_linked
              << " linked to ORT's nodes\n";
  }
  return 0;
#else
  (void)args;
  return Fail("import --optimized-from: this build has no ONNX reader (libonnx)");
#endif
}

}  // namespace fusescope::app
