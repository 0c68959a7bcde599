#include "importers/tensorrt_layer_info.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>

#include "importers/tensorrt_json.h"

namespace fusescope::ir {
namespace {

constexpr std::string_view kOnnxEntry = "[ONNX Layer: ";
constexpr double kMaxTensorElements = 281474976710656.0;  // 2^48

std::string_view Trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  return text;
}

std::string Lower(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower;
}

StatusOr<TensorRtTensor> ReadTensor(const TensorRtJsonDocument& document, const JsonValue& value) {
  TensorRtTensor tensor;
  if (value.is_string()) {  // some writers list tensors by name only
    tensor.name = value.string();
    return tensor;
  }
  if (!value.is_object()) return document.ErrorAt(value, "a tensor should be an object");
  const JsonValue* name = value.Find("Name");
  if (name == nullptr || !name->is_string()) {
    return document.ErrorAt(name ? *name : value, "a tensor needs a \"Name\" string");
  }
  tensor.name = name->string();
  auto location = document.StringMember(value, "Location");
  if (!location.ok()) return location.status();
  tensor.location = std::move(*location);
  auto format = document.StringMember(value, "Format/Datatype");
  if (!format.ok()) return format.status();
  tensor.format = std::move(*format);
  if (const JsonValue* dims = value.Find("Dimensions")) {
    if (!dims->is_array()) return document.ErrorAt(*dims, "\"Dimensions\" should be an array");
    tensor.has_dimensions = true;
    for (const JsonValue& dim : dims->array()) {
      const bool integral = dim.is_number() && std::isfinite(dim.number()) &&
                            dim.number() == std::floor(dim.number()) && dim.number() >= -1 &&
                            dim.number() < 9.0e15;
      if (!integral) {
        return document.ErrorAt(dim, "a dimension should be an integer >= -1 (-1: dynamic)");
      }
      tensor.dimensions.push_back(static_cast<int64_t>(dim.number()));
    }
    // Bounded so that element and byte counts of the shape stay far from overflowing.
    double elements = 1;
    for (int64_t dim : tensor.dimensions)
      elements *= static_cast<double>(std::max<int64_t>(dim, 1));
    if (elements > kMaxTensorElements) {
      return document.ErrorAt(*dims, "the tensor would hold more than 2^48 elements");
    }
  }
  return tensor;
}

Status ReadTensors(const TensorRtJsonDocument& document, const JsonValue& layer,
                   std::string_view key, std::vector<TensorRtTensor>& out) {
  const JsonValue* list = layer.Find(key);
  if (list == nullptr) return Status::Ok();
  if (!list->is_array()) {
    return document.ErrorAt(*list, "\"" + std::string(key) + "\" should be an array of tensors");
  }
  for (const JsonValue& value : list->array()) {
    auto tensor = ReadTensor(document, value);
    if (!tensor.ok()) return tensor.status();
    out.push_back(std::move(*tensor));
  }
  return Status::Ok();
}

StatusOr<TensorRtLayer> ReadDetailedLayer(const TensorRtJsonDocument& document,
                                          const JsonValue& value) {
  if (!value.is_object()) {
    return document.ErrorAt(value,
                            "a layer should be an object (the detailed form), like the first "
                            "layer, or a name in a list of names only");
  }
  TensorRtLayer layer;
  const JsonValue* name = value.Find("Name");
  if (name == nullptr || !name->is_string()) {
    return document.ErrorAt(name ? *name : value, "a layer needs a \"Name\" string");
  }
  layer.name = name->string();
  auto type = document.StringMember(value, "LayerType");
  if (!type.ok()) return type.status();
  layer.type = std::move(*type);
  FS_RETURN_IF_ERROR(ReadTensors(document, value, "Inputs", layer.inputs));
  FS_RETURN_IF_ERROR(ReadTensors(document, value, "Outputs", layer.outputs));
  layer.tactic = value.Text("TacticName");
  if (layer.tactic.empty()) layer.tactic = value.Text("TacticValue");
  if (const JsonValue* metadata = value.Find("Metadata"); metadata && !metadata->is_null()) {
    if (!metadata->is_string())
      return document.ErrorAt(*metadata, "\"Metadata\" should be a string");
    layer.onnx_nodes = TensorRtOnnxNodes(metadata->string());
  }
  return layer;
}

StatusOr<std::vector<std::string>> ReadBindings(const TensorRtJsonDocument& document,
                                                const JsonValue& root) {
  std::vector<std::string> bindings;
  const JsonValue* list = root.Find("Bindings");
  if (list == nullptr) return bindings;  // older TensorRT wrote none
  if (!list->is_array()) return document.ErrorAt(*list, "\"Bindings\" should be an array");
  for (const JsonValue& binding : list->array()) {
    if (binding.is_string()) {
      bindings.push_back(binding.string());
    } else if (binding.is_object() && binding.Find("Name") && binding.Find("Name")->is_string()) {
      bindings.push_back(binding.Find("Name")->string());
    } else {
      return document.ErrorAt(binding, "a binding should be a tensor name");
    }
  }
  return bindings;
}

}  // namespace

int64_t TensorRtProfileOf(std::string_view name, std::string* base) {
  if (base) *base = std::string(name);
  if (name.empty() || name.back() != ']') return 0;
  const size_t open = name.rfind('[');
  if (open == std::string_view::npos) return 0;
  std::string_view inside = name.substr(open + 1, name.size() - open - 2);
  constexpr std::string_view kProfile = "profile";
  if (inside.substr(0, kProfile.size()) != kProfile) return 0;
  inside.remove_prefix(kProfile.size());
  if (inside.empty() || inside.front() != ' ') return 0;
  while (!inside.empty() && inside.front() == ' ') inside.remove_prefix(1);
  if (inside.empty() || inside.size() > 9 ||
      !std::all_of(inside.begin(), inside.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return 0;
  }
  int64_t profile = 0;
  for (char c : inside) profile = profile * 10 + (c - '0');
  if (base) *base = std::string(Trim(name.substr(0, open)));
  return profile;
}

std::vector<std::string> TensorRtOnnxNodes(std::string_view metadata) {
  std::vector<std::string> nodes;
  std::set<std::string> seen;
  auto add = [&](std::string_view node) {
    node = Trim(node);
    if (!node.empty() && seen.insert(std::string(node)).second) nodes.emplace_back(node);
  };
  size_t start = 0;
  while (start <= metadata.size()) {
    size_t end = metadata.find_first_of("\x1e\x1f", start);
    if (end == std::string_view::npos) end = metadata.size();
    std::string_view entry = Trim(metadata.substr(start, end - start));
    // Entries written back to back without a separator ("[ONNX Layer: a][ONNX Layer: b]") are
    // split where the next one begins.
    while (entry.substr(0, kOnnxEntry.size()) == kOnnxEntry) {
      entry.remove_prefix(kOnnxEntry.size());
      const size_t next = entry.find(std::string("]") + std::string(kOnnxEntry));
      if (next != std::string_view::npos) {
        add(entry.substr(0, next));
        entry.remove_prefix(next + 1);
      } else {
        if (!entry.empty() && entry.back() == ']') add(entry.substr(0, entry.size() - 1));
        break;
      }
    }
    start = end + 1;
  }
  return nodes;
}

std::string TensorRtElementType(std::string_view format) {
  // The last type word wins: "Row major linear FP32" and "Channel major FP16 format where
  // channel % 2 == 0" name one each, after the layout words.
  std::string found;
  size_t at = 0;
  while (at < format.size()) {
    while (at < format.size() && !std::isalnum(static_cast<unsigned char>(format[at]))) ++at;
    size_t end = at;
    while (end < format.size() && std::isalnum(static_cast<unsigned char>(format[end]))) ++end;
    const std::string word = Lower(format.substr(at, end - at));
    at = end;
    if (word == "fp32" || word == "float" || word == "float32") {
      found = "f32";
    } else if (word == "fp16" || word == "half" || word == "float16") {
      found = "f16";
    } else if (word == "bf16" || word == "bfloat16") {
      found = "bf16";
    } else if (word == "fp8" || word == "float8") {
      found = "f8e4m3fn";
    } else if (word == "fp4" || word == "float4") {
      found = "f4e2m1fn";
    } else if (word == "int8") {
      found = "s8";
    } else if (word == "uint8") {
      found = "u8";
    } else if (word == "int4") {
      found = "s4";
    } else if (word == "int32") {
      found = "s32";
    } else if (word == "int64") {
      found = "s64";
    } else if (word == "bool") {
      found = "pred";
    }
  }
  return found;
}

bool LooksLikeTensorRtLayerInfo(std::string_view prefix) {
  size_t at = 0;
  auto skip_space = [&] {
    while (at < prefix.size() && std::isspace(static_cast<unsigned char>(prefix[at]))) ++at;
  };
  skip_space();
  if (at >= prefix.size() || prefix[at] != '{') return false;
  ++at;
  skip_space();
  const std::string_view rest = prefix.substr(at);
  return rest.substr(0, 8) == "\"Layers\"" || rest.substr(0, 10) == "\"Bindings\"";
}

StatusOr<TensorRtLayerInfo> ParseTensorRtLayerInfo(std::string_view text, const std::string& path) {
  auto document = TensorRtJsonDocument::Parse(text, path);
  if (!document.ok()) return document.status();
  const JsonValue& root = document->root();
  if (!root.is_object()) {
    return document->ErrorAt(root,
                             "not TensorRT layer information (expected an object with "
                             "\"Layers\", as trtexec --exportLayerInfo writes)");
  }
  const JsonValue* layers = root.Find("Layers");
  if (layers == nullptr) {
    return document->ErrorAt(root, "not TensorRT layer information (no \"Layers\" member)");
  }
  if (!layers->is_array()) return document->ErrorAt(*layers, "\"Layers\" should be an array");
  TensorRtLayerInfo info;
  info.detailed = layers->array().empty() || !layers->array().front().is_string();
  std::set<int64_t> profiles;
  for (const JsonValue& value : layers->array()) {
    TensorRtLayer layer;
    if (info.detailed) {
      auto read = ReadDetailedLayer(*document, value);
      if (!read.ok()) return read.status();
      layer = std::move(*read);
    } else if (value.is_string()) {
      layer.name = value.string();
    } else {
      return document->ErrorAt(value,
                               "a layer should be a name like the layers before it (the "
                               "names-only form holds no layer objects)");
    }
    layer.line = document->LocationOf(value).line;
    layer.profile = TensorRtProfileOf(layer.name, nullptr);
    profiles.insert(layer.profile);
    info.layers.push_back(std::move(layer));
  }
  auto bindings = ReadBindings(*document, root);
  if (!bindings.ok()) return bindings.status();
  info.bindings = std::move(*bindings);
  info.profiles.assign(profiles.begin(), profiles.end());
  return info;
}

}  // namespace fusescope::ir
