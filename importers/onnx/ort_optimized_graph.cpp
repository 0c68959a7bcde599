#include "importers/onnx/ort_optimized_graph.h"

#include <onnx/onnx_pb.h>

#include <limits>
#include <map>
#include <set>
#include <vector>

#include "importers/tensorrt_json.h"

namespace fusescope::ir::onnx_import {
namespace {

// Protobuf reads no message of 2 GiB or more.
constexpr int64_t kMaxBytes = (int64_t{2} << 30) - 1;

// Weights stay in their files: only the graph's structure is needed here.
StatusOr<onnx::GraphProto> ParseGraph(std::string_view bytes, const std::string& name) {
  onnx::ModelProto model;
  if (bytes.size() > static_cast<size_t>(std::numeric_limits<int>::max()) ||
      !model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
    return Status::Error(name + ": not a valid ONNX model");
  if (model.graph().node_size() == 0) return Status::Error(name + ": the graph has no node");
  return model.graph();
}

// The model's nodes an optimized node stands for (the header's rule), in the model's order.
// `optimized_producer`: the optimized graph's tensor -> the index of the node that makes it.
std::vector<std::string> Members(int index, const onnx::NodeProto& node,
                                 const onnx::GraphProto& model,
                                 const std::map<std::string, int>& producer,
                                 const std::map<std::string, int>& optimized_producer) {
  const std::set<std::string> inputs(node.input().begin(), node.input().end());
  auto stops = [&](const std::string& tensor) {
    if (inputs.count(tensor)) return true;
    auto made = optimized_producer.find(tensor);
    return made != optimized_producer.end() && made->second != index;
  };
  std::set<int> found;
  std::set<std::string> seen;
  std::vector<std::string> stack(node.output().begin(), node.output().end());
  while (!stack.empty()) {
    const std::string tensor = stack.back();
    stack.pop_back();
    if (stops(tensor) || !seen.insert(tensor).second) continue;
    auto it = producer.find(tensor);
    if (it == producer.end()) continue;
    found.insert(it->second);
    for (const std::string& input : model.node(it->second).input()) stack.push_back(input);
  }
  std::vector<std::string> members;
  for (int member : found)
    if (!model.node(member).name().empty()) members.push_back(model.node(member).name());
  return members;
}

}  // namespace

StatusOr<TensorRtLayerInfo> ReadOrtOptimizedGraph(const std::string& optimized_path,
                                                  const std::string& model_path) {
  auto optimized = ReadTensorRtFile(optimized_path, kMaxBytes);
  if (!optimized.ok()) return optimized.status();
  auto model = ReadTensorRtFile(model_path, kMaxBytes);
  if (!model.ok()) return model.status();
  return ReadOrtOptimizedGraphBytes(*optimized, optimized_path, *model, model_path);
}

StatusOr<TensorRtLayerInfo> ReadOrtOptimizedGraphBytes(std::string_view optimized_bytes,
                                                       const std::string& optimized_name,
                                                       std::string_view model_bytes,
                                                       const std::string& model_name) {
  auto optimized = ParseGraph(optimized_bytes, optimized_name);
  if (!optimized.ok()) return optimized.status();
  auto model = ParseGraph(model_bytes, model_name);
  if (!model.ok()) return model.status();
  std::map<std::string, int> producer;  // the model's tensor -> the node that makes it
  std::map<std::string, std::string> model_types;
  for (int i = 0; i < model->node_size(); ++i) {
    for (const std::string& output : model->node(i).output()) producer[output] = i;
    model_types[model->node(i).name()] = model->node(i).op_type();
  }
  std::set<std::string> weights;
  for (const auto& initializer : optimized->initializer()) weights.insert(initializer.name());
  std::map<std::string, int> optimized_producer;
  for (int i = 0; i < optimized->node_size(); ++i)
    for (const std::string& output : optimized->node(i).output()) optimized_producer[output] = i;
  auto tensor = [](const std::string& name) {
    TensorRtTensor made;
    made.name = name;
    return made;
  };

  TensorRtLayerInfo info;
  info.detailed = true;
  info.profiles = {0};
  for (const auto& input : optimized->input())
    if (!weights.count(input.name())) info.bindings.push_back(input.name());
  for (const auto& output : optimized->output()) info.bindings.push_back(output.name());
  for (int i = 0; i < optimized->node_size(); ++i) {
    const onnx::NodeProto& node = optimized->node(i);
    TensorRtLayer layer;
    layer.name = node.name().empty() ? node.op_type() + "_" + std::to_string(i) : node.name();
    layer.type = node.domain().empty() || node.domain() == "ai.onnx"
                     ? node.op_type()
                     : node.domain() + "." + node.op_type();
    layer.line = i + 1;
    for (const std::string& input : node.input())
      if (!input.empty() && !weights.count(input)) layer.inputs.push_back(tensor(input));
    for (const std::string& output : node.output())
      if (!output.empty()) layer.outputs.push_back(tensor(output));
    auto same = model_types.find(node.name());
    if (!node.name().empty() && same != model_types.end() && same->second == node.op_type()) {
      layer.onnx_nodes = {node.name()};
    } else {
      layer.onnx_nodes = Members(i, node, *model, producer, optimized_producer);
    }
    info.layers.push_back(std::move(layer));
  }
  return info;
}

}  // namespace fusescope::ir::onnx_import
