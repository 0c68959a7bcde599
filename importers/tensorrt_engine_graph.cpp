#include "importers/tensorrt_engine_graph.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <utility>

#include "ir/hlo_lexer.h"

namespace fusescope::ir {
namespace {

constexpr size_t kMaxNameLength = 64;

std::string Quoted(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    // Metadata separators and other control bytes would end the HLO string; a space keeps the
    // words apart.
    out += static_cast<unsigned char>(c) < 0x20 ? ' ' : c;
  }
  return out + "\"";
}

// An HLO name for TensorRT's: runs of other characters become one '_', and the name starts
// with a letter or '_' so that it never reads as a number.
std::string HloName(std::string_view text, std::string_view fallback) {
  std::string out;
  bool gap = false;
  for (char c : text) {
    if (!HloLexer::IsNameChar(c)) {
      gap = true;
      continue;
    }
    if (gap && !out.empty()) out += '_';
    gap = false;
    out += c;
    if (out.size() >= kMaxNameLength) break;
  }
  while (!out.empty() && (out.back() == '_' || out.back() == '.' || out.back() == '-')) {
    out.pop_back();
  }
  size_t lead = 0;
  while (lead < out.size() && (out[lead] == '.' || out[lead] == '-')) ++lead;
  out.erase(0, lead);
  if (out.empty()) return std::string(fallback);
  if (!std::isalpha(static_cast<unsigned char>(out[0])) && out[0] != '_') {
    out = std::string(fallback) + "_" + out;
  }
  return out;
}

std::string BaseName(const std::string& name) {
  std::string base;
  TensorRtProfileOf(name, &base);
  return base;
}

std::vector<std::string> SplitFusedName(const std::string& name) {
  std::vector<std::string> parts;
  constexpr std::string_view kJoin = " + ";
  size_t start = 0;
  for (;;) {
    const size_t end = name.find(kJoin, start);
    parts.push_back(name.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) break;
    start = end + kJoin.size();
  }
  return parts;
}

class GraphBuilder {
 public:
  GraphBuilder(const TensorRtLayerInfo& info, const TensorRtGraphOptions& options)
      : info_(info), options_(options) {}

  StatusOr<TensorRtEngineGraph> Build() {
    for (size_t i = 0; i < info_.layers.size(); ++i) {
      if (info_.layers[i].profile == options_.profile) chosen_.push_back(i);
    }
    if (chosen_.empty()) {
      return Status::Error("the engine has no layer of optimization profile " +
                           std::to_string(options_.profile));
    }
    BuildInput();
    BuildEngine();
    SummarizeLinks();
    return std::move(graph_);
  }

 private:
  // Per layer, the ONNX node names it says it holds: its Metadata; in the names-only form, the
  // parts of a name "A + B" (TensorRT's name for a fusion) when every part is a node of the
  // ONNX model. Only all of them: a reformat TensorRT added is named "Reformatting CopyNode
  // for Input Tensor 0 to A + B" and holds neither A nor B.
  std::vector<std::string> OnnxNodesOf(const TensorRtLayer& layer) const {
    if (info_.detailed || options_.onnx_model == nullptr) return layer.onnx_nodes;
    std::vector<std::string> parts = SplitFusedName(BaseName(layer.name));
    for (const std::string& part : parts) {
      if (!node_ids_.count(part)) return {};
    }
    return parts;
  }

  void BuildInput() {
    if (options_.onnx_model != nullptr) {
      graph_.input = options_.onnx_model->Clone();
      for (const auto& instruction : graph_.input->entry()->instructions()) {
        const std::string op_name = instruction->metadata().String("op_name");
        if (!op_name.empty()) node_ids_[op_name].push_back(instruction->id());
      }
      return;
    }
    graph_.input = std::make_unique<Module>(HloName(options_.model_name, "engine"));
    Computation* main = graph_.input->AddComputation(std::make_unique<Computation>("main"), true);
    std::set<std::string> names{"main"};
    std::vector<Instruction*> nodes;
    for (size_t index : chosen_) {
      for (const std::string& node : info_.layers[index].onnx_nodes) {
        if (node_ids_.count(node)) continue;
        auto instruction = Instruction::Create(Opcode::kCustomCall, Shape::Tuple({}), {},
                                               Unique(HloName(node, "node"), names));
        instruction->SetAttribute("custom_call_target", Quoted("onnx.node"));
        instruction->mutable_metadata().Set("op_name", Quoted(node));
        Instruction* added = main->AddInstruction(std::move(instruction));
        node_ids_[node].push_back(added->id());
        nodes.push_back(added);
      }
    }
    std::vector<Shape> shapes(nodes.size(), Shape::Tuple({}));
    main->set_root(main->AddInstruction(Instruction::Create(
        Opcode::kTuple, Shape::Tuple(std::move(shapes)), nodes, Unique("onnx_nodes", names))));
  }

  static std::string Unique(std::string name, std::set<std::string>& names) {
    if (names.insert(name).second) return name;
    for (int64_t suffix = 1;; ++suffix) {
      std::string candidate = name + "." + std::to_string(suffix);
      if (names.insert(candidate).second) return candidate;
    }
  }

  Shape ShapeOf(const TensorRtTensor& tensor) {
    const std::string type = TensorRtElementType(tensor.format);
    std::optional<PrimitiveType> element = PrimitiveTypeFromName(type);
    if (!tensor.has_dimensions || !element) {
      ++graph_.tensors_without_shape;
      return Shape::Tuple({});
    }
    Shape shape(*element, tensor.dimensions);
    for (size_t i = 0; i < tensor.dimensions.size(); ++i) {
      if (tensor.dimensions[i] < 0) shape.set_dynamic_dimension(static_cast<int64_t>(i), true);
    }
    return shape;
  }

  Shape LayerShape(const TensorRtLayer& layer) {
    if (layer.outputs.size() == 1) return ShapeOf(layer.outputs.front());
    std::vector<Shape> elements;
    for (const TensorRtTensor& output : layer.outputs) elements.push_back(ShapeOf(output));
    return Shape::Tuple(std::move(elements));
  }

  // Where a tensor comes from: a parameter, a single-output layer, or output `index` of a
  // layer with several.
  struct Producer {
    Instruction* instruction = nullptr;
    int64_t index = -1;
  };

  Instruction* Value(const Producer& producer) {
    if (producer.index < 0) return producer.instruction;
    auto key = std::make_pair(producer.instruction, producer.index);
    if (auto found = elements_.find(key); found != elements_.end()) return found->second;
    const Shape& tuple = producer.instruction->shape();
    auto element = Instruction::Create(
        Opcode::kGetTupleElement, tuple.tuple_shapes()[static_cast<size_t>(producer.index)],
        {producer.instruction},
        Unique(producer.instruction->name() + "_out" + std::to_string(producer.index), names_));
    element->SetAttribute("index", std::to_string(producer.index));
    Instruction* added = main_->AddInstruction(std::move(element));
    added->mutable_provenance() = producer.instruction->provenance();
    elements_[key] = added;
    return added;
  }

  // Tensors read before any layer of the profile writes them: the engine's inputs, bindings
  // first in their order, then the rest in the order first read.
  std::vector<const TensorRtTensor*> EngineInputs() const {
    std::set<std::string> written_before;
    std::map<std::string, const TensorRtTensor*> read_first;
    std::vector<std::string> order;
    std::set<std::string> written;
    for (size_t index : chosen_) {
      for (const TensorRtTensor& output : info_.layers[index].outputs) written.insert(output.name);
    }
    for (size_t index : chosen_) {
      for (const TensorRtTensor& input : info_.layers[index].inputs) {
        if (written.count(input.name) || read_first.count(input.name)) continue;
        read_first[input.name] = &input;
        order.push_back(input.name);
      }
    }
    std::vector<const TensorRtTensor*> inputs;
    std::set<std::string> taken;
    for (const std::string& binding : info_.bindings) {
      auto found = read_first.find(binding);
      if (found != read_first.end() && taken.insert(binding).second) {
        inputs.push_back(found->second);
      }
    }
    for (const std::string& name : order) {
      if (taken.insert(name).second) inputs.push_back(read_first[name]);
    }
    return inputs;
  }

  void AddParameters() {
    std::set<std::string> bindings(info_.bindings.begin(), info_.bindings.end());
    int64_t unbound = 0;
    for (const TensorRtTensor* tensor : EngineInputs()) {
      auto parameter =
          Instruction::Create(Opcode::kParameter, ShapeOf(*tensor), {},
                              Unique(HloName(BaseName(tensor->name), "input"), names_));
      parameter->set_parameter_number(graph_.engine_inputs++);
      parameter->mutable_metadata().Set("op_name", Quoted(tensor->name));
      producers_[tensor->name] = {main_->AddInstruction(std::move(parameter)), -1};
      if (!info_.bindings.empty() && !bindings.count(tensor->name)) ++unbound;
    }
    if (unbound > 0) {
      graph_.warnings.push_back(std::to_string(unbound) +
                                " tensor(s) are read by a layer but written by none and are no "
                                "binding; they are parameters of the engine graph");
    }
  }

  void SetProvenance(Instruction* instruction, const std::vector<std::string>& nodes,
                     TensorRtLayerNode& node) {
    ProvenanceSet provenance;
    for (const std::string& name : nodes) {
      auto found = node_ids_.find(name);
      if (found == node_ids_.end()) {
        if (missing_.insert(name).second) graph_.onnx_nodes_missing.push_back(name);
        continue;
      }
      node.onnx_nodes_linked.push_back(name);
      linked_.insert(name);
      for (int64_t id : found->second) provenance.Insert(id);
    }
    // A layer TensorRT added (a reformat, a copy) answers for no ONNX node: its own id, which
    // no input node has.
    if (provenance.empty()) provenance.Insert(instruction->id());
    instruction->set_provenance(std::move(provenance));
    if (node.onnx_nodes_linked.size() >= 2) ++graph_.fused_layers;
  }

  Instruction* AddLayer(size_t index) {
    const TensorRtLayer& layer = info_.layers[index];
    std::vector<Instruction*> operands;
    for (const TensorRtTensor& input : layer.inputs) {
      auto found = producers_.find(input.name);
      if (found == producers_.end()) {
        ++back_edges_;  // written by a later layer: a loop's recurrence
        continue;
      }
      if (found->second.instruction->opcode() != Opcode::kParameter) ++graph_.edges;
      operands.push_back(Value(found->second));
    }
    auto instruction = Instruction::Create(Opcode::kCustomCall, LayerShape(layer), operands,
                                           Unique(HloName(BaseName(layer.name), "layer"), names_));
    instruction->SetAttribute(
        "custom_call_target",
        Quoted(options_.target_prefix + (layer.type.empty() ? "layer" : layer.type)));
    if (!layer.tactic.empty()) {
      instruction->SetAttribute("backend_config", Quoted("{\"tactic\":\"" + layer.tactic + "\"}"));
    }
    if (!layer.type.empty()) instruction->mutable_metadata().Set("op_type", Quoted(layer.type));
    instruction->mutable_metadata().Set("op_name", Quoted(layer.name));
    Instruction* added = main_->AddInstruction(std::move(instruction));
    TensorRtLayerNode node{index, added->id(), added->name(), {}};
    SetProvenance(added, OnnxNodesOf(layer), node);
    graph_.layers.push_back(std::move(node));
    for (size_t k = 0; k < layer.outputs.size(); ++k) {
      producers_[layer.outputs[k].name] = {
          added, layer.outputs.size() == 1 ? -1 : static_cast<int64_t>(k)};
    }
    return added;
  }

  // The output bindings the layers write; else the tensors no layer reads; else (the
  // names-only form) every layer, so that all of them are reachable from the root.
  std::vector<Instruction*> Outputs(const std::vector<Instruction*>& layers) {
    std::vector<Instruction*> outputs;
    for (const std::string& binding : info_.bindings) {
      auto found = producers_.find(binding);
      if (found != producers_.end() && found->second.instruction->opcode() != Opcode::kParameter) {
        outputs.push_back(Value(found->second));
      }
    }
    if (!outputs.empty()) return outputs;
    std::set<std::string> read;
    for (size_t index : chosen_) {
      for (const TensorRtTensor& input : info_.layers[index].inputs) read.insert(input.name);
    }
    for (size_t index : chosen_) {
      for (const TensorRtTensor& output : info_.layers[index].outputs) {
        if (!read.count(output.name)) outputs.push_back(Value(producers_[output.name]));
      }
    }
    if (!outputs.empty()) return outputs;
    for (Instruction* layer : layers) {
      if (layer->user_count() == 0) outputs.push_back(layer);
    }
    return outputs;
  }

  void BuildEngine() {
    graph_.engine = std::make_unique<Module>(HloName(options_.model_name, "engine"));
    int64_t max_input_id = 0;
    for (const auto& computation : graph_.input->computations()) {
      for (const auto& instruction : computation->instructions()) {
        max_input_id = std::max(max_input_id, instruction->id());
      }
    }
    graph_.engine->NoteUsedId(max_input_id);
    main_ = graph_.engine->AddComputation(std::make_unique<Computation>("main"), true);
    names_.insert("main");
    AddParameters();
    std::vector<Instruction*> layers;
    for (size_t index : chosen_) layers.push_back(AddLayer(index));
    std::vector<Instruction*> outputs = Outputs(layers);
    graph_.engine_outputs = static_cast<int64_t>(outputs.size());
    if (outputs.size() == 1) {
      main_->set_root(outputs.front());
    } else {
      std::vector<Shape> shapes;
      for (Instruction* output : outputs) shapes.push_back(output->shape());
      Instruction* root = main_->AddInstruction(Instruction::Create(
          Opcode::kTuple, Shape::Tuple(std::move(shapes)), outputs, Unique("outputs", names_)));
      main_->set_root(root);
    }
    if (back_edges_ > 0) {
      graph_.warnings.push_back(std::to_string(back_edges_) +
                                " input(s) of layers are written only by a later layer (a loop's "
                                "recurrence); those edges are left out");
    }
  }

  void SummarizeLinks() {
    graph_.onnx_nodes_linked = static_cast<int64_t>(linked_.size());
    if (!info_.detailed) {
      graph_.warnings.push_back(
          "the layer information lists layer names only (the engine was built without "
          "--profilingVerbosity=detailed): the graph has no edges, shapes or layer types, and " +
          std::string(options_.onnx_model
                          ? "layers are linked to ONNX nodes only where their names name them"
                          : "no layer is linked to an ONNX node"));
    }
    if (!graph_.onnx_nodes_missing.empty()) {
      graph_.warnings.push_back(std::to_string(graph_.onnx_nodes_missing.size()) +
                                " ONNX node(s) named in the layers' Metadata are not in the ONNX "
                                "model, e.g. " +
                                graph_.onnx_nodes_missing.front() +
                                " (an engine of another model?)");
    }
  }

  const TensorRtLayerInfo& info_;
  const TensorRtGraphOptions& options_;
  std::vector<size_t> chosen_;
  TensorRtEngineGraph graph_;
  std::unordered_map<std::string, std::vector<int64_t>> node_ids_;
  std::set<std::string> linked_;
  std::set<std::string> missing_;
  Computation* main_ = nullptr;
  std::set<std::string> names_;
  std::unordered_map<std::string, Producer> producers_;
  std::map<std::pair<Instruction*, int64_t>, Instruction*> elements_;
  int64_t back_edges_ = 0;
};

}  // namespace

StatusOr<TensorRtEngineGraph> BuildTensorRtEngineGraph(const TensorRtLayerInfo& info,
                                                       const TensorRtGraphOptions& options) {
  return GraphBuilder(info, options).Build();
}

}  // namespace fusescope::ir
