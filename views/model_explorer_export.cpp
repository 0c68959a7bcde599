#include "views/model_explorer_export.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "ir/computation.h"
#include "ir/instruction.h"
#include "ir/json_writer.h"

namespace fusescope::views {
namespace {

using ir::Computation;
using ir::Instruction;

// Attribute values past this are cut: a constant's literal or an MLIR op's text can be huge.
constexpr size_t kMaxAttributeValue = 256;

// `jit(f)/block/dense/add` -> `block/dense`: the scopes, without the function wrapper and
// without the op itself.
std::string NameScope(const Instruction& instruction) {
  std::string op_name = instruction.metadata().String("op_name");
  const size_t last = op_name.rfind('/');
  if (last == std::string::npos) return {};
  op_name.resize(last);
  if (op_name.rfind("jit(", 0) == 0 || op_name.rfind("pjit(", 0) == 0) {
    const size_t slash = op_name.find('/');
    op_name = slash == std::string::npos ? std::string() : op_name.substr(slash + 1);
  }
  return op_name;
}

std::string Join(const std::string& outer, const std::string& inner) {
  if (outer.empty()) return inner;
  if (inner.empty()) return outer;
  return outer + "/" + inner;
}

class GraphWriter {
 public:
  explicit GraphWriter(const ir::Module& module) : module_(module) {
    for (const auto& computation : module.computations()) {
      for (const auto& instruction : computation->instructions()) {
        for (const Computation* called : instruction->called_computations()) ++callers_[called];
      }
    }
  }

  ModelExplorerGraph Write(const std::string& graph_id, const std::string& label) {
    json_.BeginObject();
    json_.Key("label").String(label);
    json_.Key("graphs").BeginArray();
    json_.BeginObject();
    json_.Key("id").String(graph_id);
    json_.Key("nodes").BeginArray();
    if (module_.entry() != nullptr) Emit(*module_.entry(), "", nullptr);
    json_.EndArray();
    json_.EndObject();
    json_.EndArray();
    json_.EndObject();
    return {json_.str(), nodes_, edges_};
  }

  // The node that produces `instruction`'s value, after Write; nullptr when none does.
  const Instruction* Source(const Instruction* instruction) const {
    auto found = source_.find(instruction);
    return found == source_.end() ? nullptr : found->second;
  }

 private:
  // A computation drawn as a layer inside its caller: a fusion's, or one only this
  // instruction calls (an MLIR function body, a call).
  const Computation* Layer(const Instruction& instruction) const {
    if (instruction.called_computations().size() != 1) return nullptr;
    const Computation* called = instruction.called_computations().front();
    if (instruction.opcode() == ir::Opcode::kFusion) return called;
    auto callers = callers_.find(called);
    const bool only_caller = callers != callers_.end() && callers->second == 1;
    const bool calls =
        instruction.opcode() == ir::Opcode::kCall || instruction.opcode() == ir::Opcode::kUnknown;
    return only_caller && calls && called->root() != nullptr ? called : nullptr;
  }

  // `parameters`: inside a layer, the node feeding each parameter (by number).
  void Emit(const Computation& computation, const std::string& layer,
            const std::vector<const Instruction*>* parameters) {
    for (const Instruction* instruction : computation.MakePostOrder()) {
      if (instruction->opcode() == ir::Opcode::kParameter && parameters != nullptr) {
        const int64_t number = instruction->parameter_number();
        source_[instruction] = number >= 0 && number < static_cast<int64_t>(parameters->size())
                                   ? (*parameters)[static_cast<size_t>(number)]
                                   : nullptr;
        continue;
      }
      if (const Computation* inner = Layer(*instruction)) {
        std::vector<const Instruction*> sources;
        for (const Instruction* operand : instruction->operands())
          sources.push_back(Source(operand));
        Emit(*inner, Join(layer, instruction->name()), &sources);
        source_[instruction] = Source(inner->root());
        continue;
      }
      Node(*instruction, layer);
      source_[instruction] = instruction;
    }
  }

  void Node(const Instruction& instruction, const std::string& layer) {
    ++nodes_;
    json_.BeginObject();
    json_.Key("id").String(std::to_string(instruction.id()));
    json_.Key("label").String(instruction.opcode_name());
    json_.Key("namespace").String(Join(NameScope(instruction), layer));
    json_.Key("attrs").BeginArray();
    Attr("name", instruction.name());
    for (const ir::Attribute& attribute : instruction.attributes()) {
      Attr(attribute.key, attribute.value.substr(0, kMaxAttributeValue));
    }
    const std::string source_file = instruction.metadata().String("source_file");
    if (!source_file.empty()) {
      Attr("source", source_file + ":" +
                         std::to_string(instruction.metadata().Int("source_line").value_or(0)));
    }
    json_.EndArray();
    json_.Key("incomingEdges").BeginArray();
    for (size_t i = 0; i < instruction.operands().size(); ++i) {
      const Instruction* source = Source(instruction.operands()[i]);
      if (source == nullptr) continue;
      ++edges_;
      json_.BeginObject();
      json_.Key("sourceNodeId").String(std::to_string(source->id()));
      json_.Key("sourceNodeOutputId").String("0");
      json_.Key("targetNodeInputId").String(std::to_string(i));
      json_.EndObject();
    }
    json_.EndArray();
    json_.Key("outputsMetadata").BeginArray();
    json_.BeginObject();
    json_.Key("id").String("0");
    json_.Key("attrs").BeginArray();
    Attr("shape", instruction.shape().ToString());
    Attr("tensor_name", instruction.name());
    json_.EndArray();
    json_.EndObject();
    json_.EndArray();
    json_.EndObject();
  }

  void Attr(const std::string& key, const std::string& value) {
    json_.BeginObject();
    json_.Key("key").String(key);
    json_.Key("value").String(value);
    json_.EndObject();
  }

  const ir::Module& module_;
  std::unordered_map<const Computation*, int> callers_;
  std::unordered_map<const Instruction*, const Instruction*> source_;
  JsonWriter json_;
  int64_t nodes_ = 0;
  int64_t edges_ = 0;
};

}  // namespace

ModelExplorerGraph ModelExplorerGraphJson(const ir::Module& module, const std::string& graph_id,
                                          const std::string& label) {
  return GraphWriter(module).Write(graph_id, label);
}

ModelExplorerNodeData ModelExplorerNodeDataJson(
    const ir::Module& module, const std::vector<std::pair<int64_t, double>>& values,
    const std::string& graph_id) {
  GraphWriter graph(module);
  graph.Write(graph_id, graph_id);
  std::unordered_map<int64_t, const Instruction*> by_id;
  for (const auto& computation : module.computations()) {
    for (const auto& instruction : computation->instructions())
      by_id[instruction->id()] = instruction.get();
  }
  // A node may answer for several kernels (rarely); their times add up.
  std::map<int64_t, double> results;
  ModelExplorerNodeData data;
  for (const auto& [id, value] : values) {
    auto found = by_id.find(id);
    const Instruction* node = found == by_id.end() ? nullptr : graph.Source(found->second);
    if (node == nullptr) {
      ++data.unplaced;
      continue;
    }
    results[node->id()] += value;
  }
  JsonWriter json;
  json.BeginObject();
  json.Key(graph_id).BeginObject();
  json.Key("name").String("kernel time (µs per run)");
  json.Key("results").BeginObject();
  for (const auto& [id, value] : results) {
    json.Key(std::to_string(id)).BeginObject();
    json.Key("value").Double(value);
    json.EndObject();
  }
  json.EndObject();
  json.Key("gradient").BeginArray();
  json.BeginObject().Key("stop").Int(0).Key("bgColor").String("#ffffff").EndObject();
  json.BeginObject().Key("stop").Double(0.5).Key("bgColor").String("#ffb74d").EndObject();
  json.BeginObject().Key("stop").Int(1).Key("bgColor").String("#d32f2f").EndObject();
  json.EndArray();
  json.EndObject();
  json.EndObject();
  data.json = json.str();
  data.values = static_cast<int64_t>(results.size());
  return data;
}

}  // namespace fusescope::views
