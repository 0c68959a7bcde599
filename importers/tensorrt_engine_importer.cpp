#include "importers/tensorrt_engine_importer.h"

#include <deque>
#include <filesystem>
#include <map>
#include <system_error>
#include <unordered_map>

#include "ir/hlo_printer.h"
#include "importers/tensorrt_json.h"
#include "recording/recorder.h"

namespace fusescope::ir {
namespace {

constexpr const char* kLayerInfoSuffixes[] = {".graph.json", ".layers.json", ".layer_info.json",
                                              ".layerinfo.json", ".json"};

bool EndsWith(const std::string& text, std::string_view suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// "dir/X" for "dir/X.graph.json" and the like; "" when the name has none of the suffixes.
std::string Stem(const std::string& path) {
  for (std::string_view suffix : kLayerInfoSuffixes) {
    if (EndsWith(path, suffix) && path.size() > suffix.size()) {
      return path.substr(0, path.size() - suffix.size());
    }
  }
  return "";
}

std::string Beside(const std::string& layer_info_path,
                   std::initializer_list<std::string_view> suffixes) {
  const std::string stem = Stem(layer_info_path);
  if (stem.empty()) return "";
  for (std::string_view suffix : suffixes) {
    const std::string candidate = stem + std::string(suffix);
    std::error_code error;
    if (candidate != layer_info_path && std::filesystem::is_regular_file(candidate, error)) {
      return candidate;
    }
  }
  return "";
}

// The optimization profile to build: the one asked for; else the one whose layers the layer
// profile names most; else the first.
int64_t ChooseProfile(const TensorRtLayerInfo& info, const TensorRtImportOptions& options,
                      const std::optional<TensorRtLayerProfile>& layer_profile) {
  if (options.profile) return *options.profile;
  if (layer_profile) {
    std::map<int64_t, int64_t> named;
    for (const TensorRtLayerTime& time : layer_profile->layers) {
      ++named[TensorRtProfileOf(time.name, nullptr)];
    }
    int64_t best = -1;
    int64_t most = 0;
    for (int64_t profile : info.profiles) {
      if (named[profile] > most) {
        most = named[profile];
        best = profile;
      }
    }
    if (best >= 0) return best;
  }
  return info.profiles.empty() ? 0 : info.profiles.front();
}

Status MatchTimes(TensorRtImport& result) {
  std::unordered_map<std::string, std::deque<const TensorRtLayerNode*>> by_name;
  for (const TensorRtLayerNode& node : result.graph.layers) {
    by_name[result.info.layers[node.layer].name].push_back(&node);
  }
  for (const TensorRtLayerTime& time : result.layer_profile->layers) {
    auto found = by_name.find(time.name);
    if (found == by_name.end() || found->second.empty()) {
      result.unmatched_layers.push_back(time.name);
      continue;
    }
    const TensorRtLayerNode* node = found->second.front();
    found->second.pop_front();
    result.node_times.push_back({node->instruction_id, node->instruction_name, time.name,
                                 time.total_ms, time.average_ms, time.median_ms, time.percentage});
  }
  const size_t records = result.layer_profile->layers.size();
  if (records > 0 && result.node_times.size() * 2 < records) {
    return Status::Error(result.profile_path +
                         ": most layers of this profile are not in the "
                         "engine's optimization profile " +
                         std::to_string(result.profile) + " (" +
                         std::to_string(result.unmatched_layers.size()) + " of " +
                         std::to_string(records) + " unknown, e.g. " +
                         result.unmatched_layers.front() + "): a profile of another engine?");
  }
  if (!result.unmatched_layers.empty()) {
    result.warnings.push_back(
        result.profile_path + ": " + std::to_string(result.unmatched_layers.size()) +
        " layer(s) are not in the engine graph, e.g. " + result.unmatched_layers.front());
  }
  return Status::Ok();
}

std::vector<std::pair<std::string, std::string>> PassStats(const TensorRtImport& result,
                                                           const std::string& layer_info_path) {
  const TensorRtEngineGraph& graph = result.graph;
  std::vector<std::pair<std::string, std::string>> stats;
  stats.emplace_back("layers", std::to_string(graph.layers.size()));
  stats.emplace_back("fused layers", std::to_string(graph.fused_layers));
  stats.emplace_back("ONNX nodes linked", std::to_string(graph.onnx_nodes_linked));
  stats.emplace_back("edges", std::to_string(graph.edges));
  stats.emplace_back("optimization profile", std::to_string(result.profile) + " of " +
                                                 std::to_string(result.info.profiles.size()));
  stats.emplace_back("form", result.info.detailed ? "detailed" : "layer names only");
  stats.emplace_back("file", std::filesystem::path(layer_info_path).filename().string());
  return stats;
}

Status ReadOptionalFiles(const std::string& layer_info_path, const TensorRtImportOptions& options,
                         TensorRtImport& result) {
  result.profile_path = options.profile_path;
  if (result.profile_path.empty() && options.find_beside) {
    result.profile_path = Beside(layer_info_path, {".profile.json"});
  }
  result.times_path = options.times_path;
  if (result.times_path.empty() && options.find_beside) {
    result.times_path = Beside(layer_info_path, {".times.json", ".timing.json"});
  }
  if (!result.profile_path.empty()) {
    auto text = ReadTensorRtFile(result.profile_path, options.max_file_bytes);
    if (!text.ok()) return text.status();
    auto profile = ParseTensorRtLayerProfile(*text, result.profile_path);
    if (!profile.ok()) return profile.status();
    result.layer_profile = std::move(*profile);
  }
  if (!result.times_path.empty()) {
    auto text = ReadTensorRtFile(result.times_path, options.max_file_bytes);
    if (!text.ok()) return text.status();
    auto times = ParseTensorRtInferenceTimes(*text, result.times_path);
    if (!times.ok()) return times.status();
    result.times = std::move(*times);
  }
  return Status::Ok();
}

}  // namespace

std::string TensorRtModelName(const std::string& layer_info_path) {
  const std::string stem = Stem(layer_info_path);
  const std::string name =
      std::filesystem::path(stem.empty() ? layer_info_path : stem).filename().string();
  return name.empty() ? "engine" : name;
}

StatusOr<TensorRtImport> ImportTensorRtEngine(const std::string& layer_info_path,
                                              const TensorRtImportOptions& options) {
  TensorRtImport result;
  auto text = ReadTensorRtFile(layer_info_path, options.max_file_bytes);
  if (!text.ok()) return text.status();
  auto info = ParseTensorRtLayerInfo(*text, layer_info_path);
  if (!info.ok()) return info.status();
  result.info = std::move(*info);
  if (result.info.layers.empty())
    return Status::Error(layer_info_path + ": the engine has no layer");
  FS_RETURN_IF_ERROR(ReadOptionalFiles(layer_info_path, options, result));
  result.profile = ChooseProfile(result.info, options, result.layer_profile);

  TensorRtGraphOptions graph_options;
  graph_options.model_name = TensorRtModelName(layer_info_path);
  graph_options.profile = result.profile;
  graph_options.onnx_model = options.onnx_model;
  auto graph = BuildTensorRtEngineGraph(result.info, graph_options);
  if (!graph.ok()) {
    std::string held;
    for (int64_t profile : result.info.profiles)
      held += (held.empty() ? "" : ", ") + std::to_string(profile);
    return Status::Error(layer_info_path + ": " + graph.message() + " (it has " + held + ")");
  }
  result.graph = std::move(*graph);
  if (result.info.profiles.size() > 1) {
    result.warnings.push_back(
        layer_info_path + ": the engine has " + std::to_string(result.info.profiles.size()) +
        " optimization profiles; this recording holds profile " + std::to_string(result.profile) +
        " (choose another with --shape-profile N)");
  }
  for (const std::string& warning : result.graph.warnings) {
    result.warnings.push_back(layer_info_path + ": " + warning);
  }
  if (result.layer_profile) FS_RETURN_IF_ERROR(MatchTimes(result));

  passes::PipelineOptions pipeline_options;
  pipeline_options.target = "gpu";
  recording::Recorder recorder("tensorrt", pipeline_options);
  recorder.set_model(graph_options.model_name,
                     options.onnx_path.empty() ? layer_info_path : options.onnx_path);
  recorder.BeforePipeline(*result.graph.input);
  passes::PassRunInfo pass;
  pass.index = 0;
  pass.name = "tensorrt-engine-build";
  pass.fingerprint_before = Fingerprint(*result.graph.input);
  pass.fingerprint_after = Fingerprint(*result.graph.engine);
  // TensorRT does not say; the measured change stands in so that no flag is called a lie.
  pass.reported_changed = pass.changed();
  pass.stats = PassStats(result, layer_info_path);
  recorder.BeforePass(pass, *result.graph.input);
  recorder.AfterPass(pass, *result.graph.engine);
  recorder.AfterPipeline(*result.graph.engine);
  result.recording = recorder.TakeRecording();
  result.recording.total_seconds = 0;
  result.recording.imported = true;
  return result;
}

StatusOr<LayerGraphRecord> RecordLayerGraph(const TensorRtLayerInfo& info,
                                            const LayerGraphRecordOptions& options) {
  TensorRtGraphOptions graph_options;
  graph_options.model_name = options.model_name;
  graph_options.target_prefix = options.target_prefix;
  graph_options.onnx_model = options.onnx_model;
  auto graph = BuildTensorRtEngineGraph(info, graph_options);
  if (!graph.ok()) return graph.status();
  LayerGraphRecord result;
  result.layers = static_cast<int64_t>(graph->layers.size());
  result.fused_layers = graph->fused_layers;
  result.onnx_nodes_linked = graph->onnx_nodes_linked;
  result.edges = graph->edges;
  result.warnings = graph->warnings;
  recording::Recorder recorder(options.compiler, passes::PipelineOptions());
  recorder.set_model(options.model_name, options.model_path);
  recorder.BeforePipeline(*graph->input);
  passes::PassRunInfo pass;
  pass.index = 0;
  pass.name = options.pass_name;
  pass.fingerprint_before = Fingerprint(*graph->input);
  pass.fingerprint_after = Fingerprint(*graph->engine);
  // The compiler does not say; the measured change stands in.
  pass.reported_changed = pass.changed();
  pass.stats = {{"layers", std::to_string(result.layers)},
                {"fused layers", std::to_string(result.fused_layers)},
                {"ONNX nodes linked", std::to_string(result.onnx_nodes_linked)}};
  recorder.BeforePass(pass, *graph->input);
  recorder.AfterPass(pass, *graph->engine);
  recorder.AfterPipeline(*graph->engine);
  result.recording = recorder.TakeRecording();
  result.recording.total_seconds = 0;
  result.recording.imported = true;
  return result;
}

}  // namespace fusescope::ir
