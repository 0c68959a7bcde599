#include "app/cli/tensorrt_import.h"

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>

#include "app/cli/model_loader.h"
#include "importers/tensorrt_engine_importer.h"
#include "ir/json_writer.h"
#include "profiler/profile_store.h"
#include "profiler/statistics.h"
#include "profiler/tensorrt_profile.h"
#include "recording/recording_store.h"

namespace fusescope::app {
namespace {

constexpr size_t kLayerRows = 25;

std::string FileName(const std::string& path) {
  return std::filesystem::path(path).filename().string();
}

struct Latency {
  profiler::SampleSummary latency_ms;
  profiler::SampleSummary compute_ms;
};

Latency LatencyOf(const ir::TensorRtInferenceTimes& times) {
  std::vector<double> latency;
  std::vector<double> compute;
  for (const ir::TensorRtInference& inference : times.inferences) {
    latency.push_back(inference.latency_ms);
    compute.push_back(inference.compute_ms);
  }
  return {profiler::Summarize(latency), profiler::Summarize(compute)};
}

const ir::TensorRtNodeTime* TimeOf(const ir::TensorRtImport& imported, int64_t id) {
  for (const ir::TensorRtNodeTime& time : imported.node_times) {
    if (time.instruction_id == id) return &time;
  }
  return nullptr;
}

void SummaryJson(JsonWriter& json, const profiler::SampleSummary& summary) {
  json.BeginObject();
  json.Key("count").Int(summary.count);
  json.Key("p50").Double(summary.median);
  json.Key("p95").Double(summary.p95);
  json.Key("p99").Double(summary.p99);
  json.Key("mean").Double(summary.mean);
  json.Key("min").Double(summary.min);
  json.Key("max").Double(summary.max);
  json.EndObject();
}

void PrintJson(const ir::TensorRtImport& imported, const std::string& output, int64_t profile_id) {
  const ir::TensorRtEngineGraph& graph = imported.graph;
  JsonWriter json;
  json.BeginObject();
  json.Key("recording").String(output);
  json.Key("model").String(imported.recording.model_name);
  json.Key("detailed").Bool(imported.info.detailed);
  json.Key("optimization_profile").Int(imported.profile);
  json.Key("optimization_profiles").Int(static_cast<int64_t>(imported.info.profiles.size()));
  json.Key("layers").Int(static_cast<int64_t>(graph.layers.size()));
  json.Key("fused_layers").Int(graph.fused_layers);
  json.Key("edges").Int(graph.edges);
  json.Key("inputs").Int(graph.engine_inputs);
  json.Key("outputs").Int(graph.engine_outputs);
  json.Key("onnx_nodes_linked").Int(graph.onnx_nodes_linked);
  json.Key("onnx_nodes_missing").Int(static_cast<int64_t>(graph.onnx_nodes_missing.size()));
  json.Key("layer_profile").String(imported.profile_path);
  json.Key("times").String(imported.times_path);
  json.Key("profile_id").Int(profile_id);
  if (imported.times) {
    const Latency latency = LatencyOf(*imported.times);
    json.Key("latency_ms");
    SummaryJson(json, latency.latency_ms);
    json.Key("compute_ms");
    SummaryJson(json, latency.compute_ms);
  }
  json.Key("layer_list").BeginArray();
  for (const ir::TensorRtLayerNode& node : graph.layers) {
    const ir::TensorRtLayer& layer = imported.info.layers[node.layer];
    json.BeginObject();
    json.Key("node").String(node.instruction_name);
    json.Key("layer").String(layer.name);
    json.Key("type").String(layer.type);
    json.Key("onnx_nodes").BeginArray();
    for (const std::string& name : node.onnx_nodes_linked) json.String(name);
    json.EndArray();
    if (const ir::TensorRtNodeTime* time = TimeOf(imported, node.instruction_id)) {
      json.Key("median_ms").Double(time->median_ms);
      json.Key("total_ms").Double(time->total_ms);
      json.Key("percentage").Double(time->percentage);
    }
    json.EndObject();
  }
  json.EndArray();
  json.Key("unmatched_layers").BeginArray();
  for (const std::string& name : imported.unmatched_layers) json.String(name);
  json.EndArray();
  json.Key("warnings").BeginArray();
  for (const std::string& warning : imported.warnings) json.String(warning);
  json.EndArray();
  json.EndObject();
  std::cout << json.str() << '\n';
}

std::string NodesCell(const std::vector<std::string>& nodes) {
  if (nodes.empty()) return "-";
  std::string text = nodes.front();
  if (nodes.size() > 1) text += " +" + std::to_string(nodes.size() - 1);
  return text;
}

void PrintLayers(const ir::TensorRtImport& imported) {
  const bool timed = imported.layer_profile.has_value();
  std::printf("\n%-34s %-18s %6s %10s %7s  %s\n", "node", "layer type", "ONNX",
              timed ? "median ms" : "", timed ? "share" : "", "ONNX nodes it holds");
  const auto& layers = imported.graph.layers;
  for (size_t i = 0; i < layers.size() && i < kLayerRows; ++i) {
    const ir::TensorRtLayer& layer = imported.info.layers[layers[i].layer];
    const ir::TensorRtNodeTime* time = TimeOf(imported, layers[i].instruction_id);
    char median[32] = "";
    char share[32] = "";
    if (time) {
      std::snprintf(median, sizeof(median), "%.4f", time->median_ms);
      std::snprintf(share, sizeof(share), "%.1f%%", time->percentage);
    } else if (timed) {
      std::snprintf(median, sizeof(median), "-");
    }
    std::printf("%-34s %-18s %6zu %10s %7s  %s\n", layers[i].instruction_name.c_str(),
                layer.type.empty() ? "?" : layer.type.c_str(), layers[i].onnx_nodes_linked.size(),
                median, share, NodesCell(layers[i].onnx_nodes_linked).c_str());
  }
  if (layers.size() > kLayerRows) {
    std::printf("... %zu more (fusescope import --json lists all)\n", layers.size() - kLayerRows);
  }
}

void PrintText(const ir::TensorRtImport& imported, const std::string& source,
               const std::string& output, int64_t profile_id) {
  const ir::TensorRtEngineGraph& graph = imported.graph;
  std::printf("imported TensorRT engine %s (%s, optimization profile %lld of %zu) -> %s\n",
              FileName(source).c_str(),
              imported.info.detailed ? "detailed layer information" : "layer names only",
              static_cast<long long>(imported.profile), imported.info.profiles.size(),
              output.c_str());
  std::printf(
      "  layers:       %zu, %lld fused from 2 or more ONNX nodes; %lld edges, %lld "
      "inputs, %lld outputs\n",
      graph.layers.size(), static_cast<long long>(graph.fused_layers),
      static_cast<long long>(graph.edges), static_cast<long long>(graph.engine_inputs),
      static_cast<long long>(graph.engine_outputs));
  std::printf(
      "  ONNX nodes:   %lld linked to layers%s\n", static_cast<long long>(graph.onnx_nodes_linked),
      graph.onnx_nodes_missing.empty()
          ? ""
          : (", " + std::to_string(graph.onnx_nodes_missing.size()) + " not in the model").c_str());
  if (imported.layer_profile) {
    std::printf("  layer times:  %s: %zu of %zu layers timed over %lld inferences\n",
                FileName(imported.profile_path).c_str(), imported.node_times.size(),
                graph.layers.size(), static_cast<long long>(imported.layer_profile->count));
  }
  if (imported.times) {
    const Latency latency = LatencyOf(*imported.times);
    std::printf(
        "  latency:      %s: %lld inferences, p50 %.3f us, p95 %.3f us, p99 %.3f us "
        "(compute p50 %.3f us)\n",
        FileName(imported.times_path).c_str(), static_cast<long long>(latency.latency_ms.count),
        1000 * latency.latency_ms.median, 1000 * latency.latency_ms.p95,
        1000 * latency.latency_ms.p99, 1000 * latency.compute_ms.median);
  }
  if (profile_id >= 0) {
    std::printf("  profile:      stored as profile %lld (see: fusescope hot %s)\n",
                static_cast<long long>(profile_id), output.c_str());
  }
  PrintLayers(imported);
}

}  // namespace

int ImportTensorRt(const ParsedArgs& args) {
  const std::string& source = args.positional()[0];
  ir::TensorRtImportOptions options;
  options.profile = args.IntValue("--shape-profile");
  options.profile_path = args.Value("--profile").value_or("");
  options.times_path = args.Value("--times").value_or("");
  std::unique_ptr<ir::Module> onnx_model;
  if (auto onnx = args.Value("--onnx")) {
    auto loaded = LoadModel(*onnx);
    if (!loaded.ok()) return Fail(loaded.message());
    onnx_model = std::move(loaded->module);
    options.onnx_model = onnx_model.get();
    options.onnx_path = *onnx;
  }
  auto imported = ir::ImportTensorRtEngine(source, options);
  if (!imported.ok()) return Fail(imported.message());
  for (const std::string& warning : imported->warnings) std::cerr << "warning: " << warning << '\n';
  const std::string output = *args.Value("-o");
  if (Status saved = recording::SaveRecording(imported->recording, output); !saved.ok()) {
    return Fail(saved.message());
  }
  int64_t profile_id = -1;
  const std::string label =
      FileName(imported->profile_path.empty() ? imported->times_path : imported->profile_path);
  if (auto profile = profiler::TensorRtProfile(*imported, label)) {
    auto added = profiler::AddProfile(output, *profile);
    if (!added.ok()) return Fail(added.message());
    profile_id = *added;
  }
  if (args.Has("--json")) {
    PrintJson(*imported, output, profile_id);
  } else {
    PrintText(*imported, source, output, profile_id);
  }
  return 0;
}

}  // namespace fusescope::app
