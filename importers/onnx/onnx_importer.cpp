#include "importers/onnx/onnx_importer.h"

#include <onnx/checker.h>
#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <set>

#include "importers/onnx/onnx_internal.h"
#include "ir/verifier.h"

namespace fusescope::ir::onnx_import {
namespace {

namespace fs = std::filesystem;

// Where a protobuf that fails to parse goes wrong: the first top-level field of the
// ModelProto (or of its graph) whose tag or length runs past the end. Protobuf itself only
// says that parsing failed.
std::string DescribeBadWireData(std::string_view bytes) {
  auto read_varint = [&](size_t& pos, uint64_t& value) {
    value = 0;
    for (int shift = 0; shift < 64 && pos < bytes.size(); shift += 7) {
      const auto byte = static_cast<uint8_t>(bytes[pos++]);
      value |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if (!(byte & 0x80)) return true;
    }
    return false;
  };
  size_t pos = 0;
  size_t end = bytes.size();
  std::string scope = "model";
  while (pos < end) {
    const size_t field_start = pos;
    uint64_t tag = 0;
    if (!read_varint(pos, tag))
      return "a field tag at byte " + std::to_string(field_start) + " is cut off";
    const uint64_t field = tag >> 3;
    const uint64_t wire = tag & 7;
    uint64_t length = 0;
    switch (wire) {
      case 0:
        if (!read_varint(pos, length)) {
          return scope + " field " + std::to_string(field) + " at byte " +
                 std::to_string(field_start) + " is cut off";
        }
        break;
      case 1:
        pos += 8;
        break;
      case 5:
        pos += 4;
        break;
      case 2:
        if (!read_varint(pos, length) || length > end - pos) {
          return scope + " field " + std::to_string(field) + " at byte " +
                 std::to_string(field_start) + " claims " + std::to_string(length) +
                 " bytes but only " + std::to_string(end - std::min(pos, end)) + " remain";
        }
        // Look inside the graph (ModelProto field 7), where most of a model lives.
        if (scope == "model" && field == 7) {
          scope = "graph";
          end = pos + length;
          continue;
        }
        pos += length;
        break;
      default:
        return scope + " field " + std::to_string(field) + " at byte " +
               std::to_string(field_start) + " has invalid wire type " + std::to_string(wire);
    }
    if (pos > end) {
      return scope + " field " + std::to_string(field) + " at byte " + std::to_string(field_start) +
             " is cut off";
    }
  }
  return "the data is not a valid ONNX ModelProto";
}

std::string DimsText(const std::vector<int64_t>& dims) {
  std::string out = "[";
  for (size_t i = 0; i < dims.size(); ++i) out += (i ? "," : "") + std::to_string(dims[i]);
  return out + "]";
}

class Importer {
 public:
  Importer(std::string display_name, std::string base_dir, const OnnxImportOptions& options)
      : name_(std::move(display_name)), base_dir_(std::move(base_dir)), options_(options) {}

  StatusOr<OnnxImportResult> Run(onnx::ModelProto& model);

 private:
  Status Error(const std::string& message) const { return Status::Error(name_ + ": " + message); }
  Status ResolveSymbolicDims(onnx::GraphProto& graph);
  void FixDims(onnx::TypeProto& type, const std::string& value_name, bool warn);
  // Fills inferred_types_ from ONNX's checker and shape inference, run in a child process.
  void InferOnnxShapes(onnx::ModelProto& model);
  StatusOr<Shape> ShapeOfType(const onnx::TypeProto& type, const std::string& what) const;
  Status AddInputs(const onnx::GraphProto& graph);
  StatusOr<const LoweredValue*> Lookup(const std::string& name, const std::string& user);
  Status LowerGraphNode(const onnx::NodeProto& node, int64_t index);
  Status EmitOpaque(NodeContext& context, const std::string& op_label);
  Status CheckAgainstOnnxShapes(const onnx::NodeProto& node, const NodeContext& context);
  Status SetRoot(const onnx::GraphProto& graph);

  std::string name_;
  std::string base_dir_;
  const OnnxImportOptions& options_;
  int64_t opset_ = 1;
  std::unique_ptr<GraphBuilder> builder_;
  std::unordered_map<std::string, LoweredValue> values_;
  // Mutable: a weight's data is released from the proto once it is a constant's bytes.
  std::unordered_map<std::string, onnx::TensorProto*> initializers_;
  std::unordered_map<std::string, const onnx::TypeProto*> inferred_types_;
  std::set<std::string> defaulted_dims_;
  std::set<std::string> opaque_;
  std::vector<std::string> warnings_;
  std::string inference_skipped_;    // why ONNX's shapes are missing, when they are
  onnx::GraphProto inferred_graph_;  // owns the types in inferred_types_
};

void Importer::FixDims(onnx::TypeProto& type, const std::string& value_name, bool warn) {
  if (!type.has_tensor_type() || !type.tensor_type().has_shape()) return;
  for (auto& dim : *type.mutable_tensor_type()->mutable_shape()->mutable_dim()) {
    if (dim.has_dim_value()) continue;
    const std::string param = dim.has_dim_param() ? dim.dim_param() : std::string();
    auto it = options_.dimension_sizes.find(param);
    if (!param.empty() && it != options_.dimension_sizes.end()) {
      dim.set_dim_value(it->second);
      continue;
    }
    if (!warn) {
      // Inner values keep their symbols for ONNX's inference to resolve from the inputs.
      continue;
    }
    const std::string key = param.empty() ? "?" + value_name : param;
    if (defaulted_dims_.insert(key).second) {
      warnings_.push_back(
          (param.empty() ? "an unnamed dimension of input '" + value_name + "'"
                         : "symbolic dimension '" + param + "' (input '" + value_name + "')") +
          " set to " + std::to_string(options_.default_dimension_size) +
          (param.empty() ? "" : "; choose with --dim " + param + "=N"));
    }
    dim.set_dim_value(options_.default_dimension_size);
  }
}

Status Importer::ResolveSymbolicDims(onnx::GraphProto& graph) {
  for (auto& input : *graph.mutable_input()) {
    if (initializers_.count(input.name())) continue;
    FixDims(*input.mutable_type(), input.name(), true);
  }
  // Symbols the inputs fixed have the same size wherever else they are written.
  std::map<std::string, int64_t> known = options_.dimension_sizes;
  for (const auto& key : defaulted_dims_) {
    if (key.empty() || key[0] != '?') known[key] = options_.default_dimension_size;
  }
  auto substitute = [&](onnx::ValueInfoProto& info) {
    if (!info.type().has_tensor_type() || !info.type().tensor_type().has_shape()) return;
    for (auto& dim : *info.mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim()) {
      if (dim.has_dim_param() && known.count(dim.dim_param()))
        dim.set_dim_value(known[dim.dim_param()]);
    }
  };
  for (auto& info : *graph.mutable_value_info()) substitute(info);
  for (auto& info : *graph.mutable_output()) substitute(info);
  return Status::Ok();
}

// ONNX's shape inference trusts each node to match its schema (a Scan without its body
// crashes it), so every node goes through ONNX's checker first; a model that fails is
// imported without ONNX's shapes.
bool NodesPassOnnxChecker(const onnx::ModelProto& model, std::string& problem) {
  onnx::checker::CheckerContext context;
  context.set_ir_version(static_cast<int>(model.ir_version()));
  std::unordered_map<std::string, int> opsets;
  for (const auto& opset : model.opset_import()) {
    opsets[opset.domain()] = static_cast<int>(opset.version());
  }
  context.set_opset_imports(opsets);
  context.set_schema_registry(onnx::OpSchemaRegistry::Instance());
  onnx::checker::LexicalScopeContext scope;
  const onnx::GraphProto& graph = model.graph();
  for (const auto& input : graph.input()) scope.add(input.name());
  for (const auto& init : graph.initializer()) scope.add(init.name());
  try {
    for (const auto& node : graph.node()) {
      onnx::checker::check_node(node, context, scope);
      for (const std::string& output : node.output()) scope.add(output);
    }
  } catch (const std::exception& e) {
    problem = e.what();
    if (const size_t newline = problem.find('\n'); newline != std::string::npos) {
      problem.resize(newline);
    }
    return false;
  } catch (...) {
    problem = "a node does not match its schema";
    return false;
  }
  return true;
}

// ONNX's checker and shape inference on `model`, in this process. Returns "K" followed by a
// GraphProto holding the inferred value_info and outputs, or "W" followed by a warning (and
// then the GraphProto of what was inferred before inference stopped, if anything).
std::string RunOnnxInference(onnx::ModelProto& model) {
  std::string problem;
  if (!NodesPassOnnxChecker(model, problem)) return "S" + problem;
  std::string warning;
  try {
    onnx::shape_inference::InferShapes(model);
  } catch (const std::exception& e) {
    warning = e.what();
    if (const size_t newline = warning.find('\n'); newline != std::string::npos) {
      warning.resize(newline);
    }
    warning = "ONNX shape inference stopped: " + warning;
  } catch (...) {
    warning = "ONNX shape inference stopped";
  }
  onnx::GraphProto types;
  *types.mutable_value_info() = model.graph().value_info();
  *types.mutable_output() = model.graph().output();
  std::string out = warning.empty() ? "K" : "W" + std::to_string(warning.size()) + ":" + warning;
  types.AppendToString(&out);
  return out;
}

// libonnx 1.12's checker and shape inference crash on some malformed models (null
// dereferences in Scan and MaxUnpool inference, found by fuzzing). They run in a child process
// so that such a model costs its inferred shapes, not the program.
constexpr std::chrono::seconds kOnnxInferenceTimeout{60};

std::optional<std::string> RunOnnxInferenceIsolated(onnx::ModelProto& model, std::string& failure) {
  int fds[2];
  if (pipe(fds) != 0) {
    failure = "cannot create a pipe for ONNX shape inference";
    return std::nullopt;
  }
  std::fflush(nullptr);
  const pid_t child = fork();
  if (child < 0) {
    close(fds[0]);
    close(fds[1]);
    failure = "cannot start ONNX shape inference";
    return std::nullopt;
  }
  if (child == 0) {
    close(fds[0]);
    // A crash here ends only this child, quietly: no sanitizer or crash handler report.
    for (int signal_number : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) {
      std::signal(signal_number, SIG_DFL);
    }
    const std::string out = RunOnnxInference(model);
    size_t written = 0;
    while (written < out.size()) {
      const ssize_t n = write(fds[1], out.data() + written, out.size() - written);
      if (n <= 0) _exit(1);
      written += static_cast<size_t>(n);
    }
    _exit(0);
  }
  close(fds[1]);
  std::string result;
  char buffer[65536];
  // Bounded: a child that hangs (forked from a process with other threads, it may wait on a
  // lock no thread of its own will release) is killed after the deadline.
  const auto deadline = std::chrono::steady_clock::now() + kOnnxInferenceTimeout;
  bool timed_out = false;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    pollfd ready{fds[0], POLLIN, 0};
    const int polled = poll(&ready, 1, static_cast<int>(left.count()));
    if (polled < 0 && errno == EINTR) continue;
    if (polled == 0) {
      timed_out = true;
      break;
    }
    const ssize_t n = read(fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    result.append(buffer, static_cast<size_t>(n));
  }
  close(fds[0]);
  if (timed_out) kill(child, SIGKILL);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (timed_out) {
    failure = "ONNX shape inference did not finish in " +
              std::to_string(
                  std::chrono::duration_cast<std::chrono::seconds>(kOnnxInferenceTimeout).count()) +
              " s; stopped";
    return std::nullopt;
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || result.empty()) {
    failure = WIFSIGNALED(status)
                  ? "ONNX shape inference crashed (signal " + std::to_string(WTERMSIG(status)) + ")"
                  : "ONNX shape inference failed";
    return std::nullopt;
  }
  return result;
}

void Importer::InferOnnxShapes(onnx::ModelProto& model) {
  std::string failure;
  std::optional<std::string> result = RunOnnxInferenceIsolated(model, failure);
  if (!result) {
    inference_skipped_ = failure;
    warnings_.push_back(failure);
    return;
  }
  std::string_view rest(*result);
  const char kind = rest.front();
  rest.remove_prefix(1);
  if (kind == 'S') {
    inference_skipped_ = "ONNX shape inference skipped: " + std::string(rest);
    warnings_.push_back(inference_skipped_);
    return;
  }
  if (kind == 'W') {
    const size_t colon = rest.find(':');
    size_t length = 0;
    std::from_chars(rest.data(), rest.data() + colon, length);
    warnings_.emplace_back(rest.substr(colon + 1, length));
    rest.remove_prefix(colon + 1 + length);
  }
  if (!inferred_graph_.ParseFromArray(rest.data(), static_cast<int>(rest.size()))) {
    inference_skipped_ = "ONNX shape inference gave unreadable results";
    warnings_.push_back(inference_skipped_);
    return;
  }
  for (const auto& info : inferred_graph_.value_info()) inferred_types_[info.name()] = &info.type();
  for (const auto& info : inferred_graph_.output()) inferred_types_[info.name()] = &info.type();
}

StatusOr<Shape> Importer::ShapeOfType(const onnx::TypeProto& type, const std::string& what) const {
  if (!type.has_tensor_type()) return Error(what + " is not a tensor");
  const auto& tensor = type.tensor_type();
  std::optional<PrimitiveType> element = ElementTypeFromOnnx(tensor.elem_type());
  if (!element) {
    return Error(what + " has element type " + std::to_string(tensor.elem_type()) +
                 ", which is not supported");
  }
  if (!tensor.has_shape()) return Error(what + " has no known shape");
  std::vector<int64_t> dims;
  for (const auto& dim : tensor.shape().dim()) {
    if (!dim.has_dim_value()) {
      return Error(what + " has dimension '" + dim.dim_param() + "' of unknown size");
    }
    dims.push_back(dim.dim_value());
  }
  if (!CheckedElementCount(dims, options_.max_tensor_elements)) {
    return Error(what + " shape " + DimsText(dims) + " is negative or has more than " +
                 std::to_string(options_.max_tensor_elements) + " elements");
  }
  return Shape(*element, std::move(dims));
}

Status Importer::AddInputs(const onnx::GraphProto& graph) {
  int64_t number = 0;
  for (const auto& input : graph.input()) {
    if (initializers_.count(input.name())) continue;
    auto shape = ShapeOfType(input.type(), "input '" + input.name() + "'");
    if (!shape.ok()) return shape.status();
    builder_->SetNode("", "");
    Instruction* parameter = builder_->Parameter(number++, std::move(shape).value(), input.name());
    values_[input.name()] = LoweredValue{parameter, std::nullopt};
  }
  return Status::Ok();
}

// Initializers become constants the first time a node reads them.
StatusOr<const LoweredValue*> Importer::Lookup(const std::string& name, const std::string& user) {
  if (auto it = values_.find(name); it != values_.end()) return &it->second;
  auto init = initializers_.find(name);
  if (init == initializers_.end()) {
    return Error(user + " reads '" + name + "', which no input, initializer or earlier node gives");
  }
  auto data = ReadTensor(*init->second, base_dir_, options_, "initializer '" + name + "'");
  if (!data.ok()) return Error(data.message());
  builder_->SetNode("", name);
  // Read once (values_ keeps it): the proto's copy of a weight need not outlive its bytes,
  // which halves what a model of hundreds of millions of parameters holds while it imports.
  if (data->bytes && init->second->has_raw_data())
    std::string().swap(*init->second->mutable_raw_data());
  LoweredValue value;
  value.instruction = ConstantOf(*builder_, *data, name);
  if (data->has_values && data->shape.ElementCount() <= kMaxKnownElements &&
      !IsComplexType(data->shape.element_type())) {
    value.known.emplace();
    if (IsFloatingPointType(data->shape.element_type())) {
      value.known->assign(data->floats.begin(), data->floats.end());
    } else {
      for (int64_t v : data->ints) value.known->push_back(static_cast<double>(v));
    }
  }
  return &(values_[name] = std::move(value));
}

Status Importer::EmitOpaque(NodeContext& context, const std::string& op_label) {
  const onnx::NodeProto& node = context.node();
  std::vector<Instruction*> operands;
  for (int64_t i = 0; i < context.input_count(); ++i) {
    if (context.input(i)) operands.push_back(context.in(i));
  }
  std::vector<Shape> shapes;
  for (int i = 0; i < node.output_size(); ++i) {
    if (node.output(i).empty()) {
      shapes.push_back(Shape(PrimitiveType::kPred, {0}));
      continue;
    }
    auto it = inferred_types_.find(node.output(i));
    if (it == inferred_types_.end()) {
      return Error("output '" + node.output(i) + "' of opaque op " + op_label +
                   " has no shape from ONNX's shape inference" +
                   (inference_skipped_.empty() ? "" : " (" + inference_skipped_ + ")"));
    }
    auto shape =
        ShapeOfType(*it->second, "output '" + node.output(i) + "' of opaque op " + op_label);
    if (!shape.ok()) return shape.status();
    shapes.push_back(std::move(shape).value());
  }
  opaque_.insert(op_label);
  GraphBuilder& b = context.b();
  const std::string target = "onnx." + op_label;
  if (shapes.size() == 1) {
    context.SetOutput(0, b.CustomCall(target, shapes[0], operands));
    return Status::Ok();
  }
  Instruction* call = b.CustomCall(target, Shape::Tuple(shapes), operands);
  for (size_t i = 0; i < shapes.size(); ++i) {
    if (!context.WantsOutput(static_cast<int64_t>(i))) continue;
    context.SetOutput(static_cast<int64_t>(i), b.Emit(Opcode::kGetTupleElement, shapes[i], {call},
                                                      {{"index", std::to_string(i)}}));
  }
  return Status::Ok();
}

// ONNX's own inference is a second opinion on every static shape we computed.
Status Importer::CheckAgainstOnnxShapes(const onnx::NodeProto& node, const NodeContext& context) {
  for (int i = 0; i < node.output_size() && i < static_cast<int>(context.outputs_size()); ++i) {
    const LoweredValue& value = context.output_value(i);
    if (!value.instruction) continue;
    auto it = inferred_types_.find(node.output(i));
    if (it == inferred_types_.end() || !it->second->has_tensor_type() ||
        !it->second->tensor_type().has_shape()) {
      continue;
    }
    const auto& dims = it->second->tensor_type().shape().dim();
    if (dims.size() != value.shape().rank()) continue;  // ONNX leaves some ranks open
    for (int d = 0; d < dims.size(); ++d) {
      if (dims[d].has_dim_value() && dims[d].dim_value() != value.shape().dimension(d)) {
        return Status::Error("output '" + node.output(i) + "' is " + value.shape().ToString(false) +
                             " but ONNX infers dimension " + std::to_string(d) + " = " +
                             std::to_string(dims[d].dim_value()));
      }
    }
  }
  return Status::Ok();
}

Status Importer::LowerGraphNode(const onnx::NodeProto& node, int64_t index) {
  const std::string label =
      node.name().empty() ? "#" + std::to_string(index) : "'" + node.name() + "'";
  const std::string where = "node " + label + " (" + node.op_type() + ")";
  std::vector<const LoweredValue*> inputs;
  for (const std::string& input : node.input()) {
    if (input.empty()) {
      inputs.push_back(nullptr);
      continue;
    }
    auto value = Lookup(input, where);
    if (!value.ok()) return value.status();
    inputs.push_back(*value);
  }
  builder_->SetNode(node.op_type(), node.name());
  NodeContext context(*builder_, node, opset_, std::move(inputs), base_dir_, options_);
  const bool default_domain = node.domain().empty() || node.domain() == "ai.onnx";
  const std::string op_label =
      default_domain ? node.op_type() : node.domain() + "." + node.op_type();
  bool lowered = false;
  if (default_domain) {
    StatusOr<bool> result = LowerNode(context);
    Status built = builder_->TakeError();
    if (!result.ok()) return Error(where + ": " + result.message());
    if (!built.ok()) return Error(where + ": " + built.message());
    lowered = *result;
  }
  if (!lowered) {
    if (!context.opaque_reason().empty()) {
      warnings_.push_back(where + " kept as a custom-call: its " + context.opaque_reason());
    }
    Status opaque = EmitOpaque(context, op_label);
    if (!opaque.ok()) return opaque;
    Status built = builder_->TakeError();
    if (!built.ok()) return Error(where + ": " + built.message());
  }
  for (int i = 0; i < node.output_size(); ++i) {
    if (node.output(i).empty()) continue;
    if (i >= static_cast<int>(context.outputs_size()) || !context.output_value(i).instruction) {
      return Error(where + ": output " + std::to_string(i) + " ('" + node.output(i) +
                   "') is not produced by its lowering");
    }
  }
  if (Status checked = CheckAgainstOnnxShapes(node, context); !checked.ok()) {
    return Error(where + ": " + checked.message());
  }
  for (int i = 0; i < node.output_size(); ++i) {
    if (!node.output(i).empty()) values_[node.output(i)] = context.output_value(i);
  }
  return Status::Ok();
}

Status Importer::SetRoot(const onnx::GraphProto& graph) {
  std::vector<Instruction*> outputs;
  for (const auto& output : graph.output()) {
    auto value = Lookup(output.name(), "graph output");
    if (!value.ok()) return value.status();
    outputs.push_back((*value)->instruction);
  }
  if (outputs.empty()) return Error("the graph has no outputs");
  builder_->SetNode("", "");
  Instruction* root =
      outputs.size() == 1 ? outputs[0] : builder_->Emit(Opcode::kTuple, Shape(), outputs);
  builder_->entry()->set_root(root);
  return builder_->TakeError();
}

void SetDefaultLayouts(Shape& shape) {
  if (shape.IsTuple()) {
    for (Shape& element : shape.mutable_tuple_shapes()) SetDefaultLayouts(element);
    return;
  }
  if (!shape.IsArray() || shape.rank() == 0) return;
  Layout layout;
  for (int64_t d = shape.rank() - 1; d >= 0; --d) layout.minor_to_major.push_back(d);
  shape.set_layout(std::move(layout));
}

StatusOr<OnnxImportResult> Importer::Run(onnx::ModelProto& model) {
  for (const auto& opset : model.opset_import()) {
    if (opset.domain().empty() || opset.domain() == "ai.onnx") opset_ = opset.version();
  }
  onnx::GraphProto& graph = *model.mutable_graph();
  for (auto& init : *graph.mutable_initializer()) initializers_[init.name()] = &init;
  if (graph.sparse_initializer_size() > 0) {
    return Error("sparse initializers are not supported");
  }
  FS_RETURN_IF_ERROR(ResolveSymbolicDims(graph));
  if (options_.onnx_shape_inference) {
    InferOnnxShapes(model);
  } else {
    inference_skipped_ = "ONNX shape inference is off";
  }
  std::string module_name = graph.name().empty() ? fs::path(name_).stem().string() : graph.name();
  builder_ = std::make_unique<GraphBuilder>("main");
  builder_->set_max_elements(options_.max_tensor_elements);
  FS_RETURN_IF_ERROR(AddInputs(graph));
  for (int i = 0; i < graph.node_size(); ++i) FS_RETURN_IF_ERROR(LowerGraphNode(graph.node(i), i));
  FS_RETURN_IF_ERROR(SetRoot(graph));
  builder_->entry()->RemoveDeadInstructions();

  std::vector<std::unique_ptr<Computation>> computations = builder_->TakeComputations();
  for (auto& computation : computations) {
    for (const auto& instruction : computation->instructions()) {
      SetDefaultLayouts(instruction->mutable_shape());
    }
  }
  OnnxImportResult result;
  result.module =
      std::make_unique<Module>(SanitizedName(module_name.empty() ? "onnx" : module_name));
  const size_t entry_index = computations.size() - 1;
  result.module->AddComputations(std::move(computations), entry_index);
  result.module->RemoveUnreachableComputations();
  result.module->text_style().sigils = true;
  if (Status verified = VerifyModule(*result.module); !verified.ok()) {
    return Error("the imported module does not verify: " + verified.message());
  }
  result.opaque_ops.assign(opaque_.begin(), opaque_.end());
  if (!opaque_.empty()) {
    std::string list;
    for (const std::string& op : opaque_) list += (list.empty() ? "" : ", ") + op;
    warnings_.push_back("ops without a lowering, kept as custom-calls: " + list);
  }
  result.warnings = std::move(warnings_);
  return result;
}

// Names in a model may hold any bytes; a message stays one printable line.
std::string OneLine(const std::string& text) {
  std::string out;
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) {
      static const char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[byte >> 4];
      out += kHex[byte & 15];
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

bool HasOnnxExtension(std::string_view path) {
  if (path.size() < 5) return false;
  std::string tail(path.substr(path.size() - 5));
  std::transform(tail.begin(), tail.end(), tail.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return tail == ".onnx";
}

static StatusOr<OnnxImportResult> ImportParsed(onnx::ModelProto& model, const std::string& name,
                                               const std::string& base_dir,
                                               const OnnxImportOptions& options) {
  if (!model.has_graph()) return Status::Error(name + ": not an ONNX model (no graph)");
  Importer importer(name, base_dir, options);
  StatusOr<OnnxImportResult> result = importer.Run(model);
  if (!result.ok()) return Status::Error(OneLine(result.message()));
  for (std::string& warning : result->warnings) warning = OneLine(warning);
  return result;
}

StatusOr<OnnxImportResult> ImportOnnxBytes(std::string_view bytes, std::string_view display_name,
                                           const std::string& base_dir,
                                           const OnnxImportOptions& options) {
  const std::string name(display_name);
  if (static_cast<int64_t>(bytes.size()) > options.max_file_bytes) {
    return Status::Error(name + ": " + std::to_string(bytes.size()) + " bytes, over the limit of " +
                         std::to_string(options.max_file_bytes) + " bytes for an ONNX file");
  }
  onnx::ModelProto model;
  if (!model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return Status::Error(name + ": not a valid ONNX model: " + DescribeBadWireData(bytes));
  }
  return ImportParsed(model, name, base_dir, options);
}

StatusOr<OnnxTensorLiteral> ReadOnnxTensorFile(const std::string& path,
                                               const OnnxImportOptions& options) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (ec) return Status::Error(path + ": cannot open file");
  if (static_cast<uint64_t>(options.max_file_bytes) < size) {
    return Status::Error(path + ": over the limit of " + std::to_string(options.max_file_bytes) +
                         " bytes");
  }
  std::ifstream file(path, std::ios::binary);
  std::string bytes(static_cast<size_t>(size), '\0');
  file.read(bytes.data(), static_cast<std::streamsize>(size));
  onnx::TensorProto tensor;
  if (file.gcount() != static_cast<std::streamsize>(size) ||
      !tensor.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return Status::Error(path + ": not a serialized ONNX tensor");
  }
  // Read for comparison as text, whatever its size.
  OnnxImportOptions as_text = options;
  as_text.max_literal_elements = options.max_tensor_elements;
  auto data = ReadTensor(tensor, fs::path(path).parent_path().string(), as_text, "tensor");
  if (!data.ok()) return Status::Error(path + ": " + OneLine(data.message()));
  return OnnxTensorLiteral{data->shape, LiteralText(*data)};
}

StatusOr<OnnxImportResult> ImportOnnxFile(const std::string& path,
                                          const OnnxImportOptions& options) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (ec) return Status::Error(path + ": cannot open file");
  if (static_cast<uint64_t>(options.max_file_bytes) < size) {
    return Status::Error(path + ": " + std::to_string(size) + " bytes, over the limit of " +
                         std::to_string(options.max_file_bytes) +
                         " bytes for an ONNX file (protobuf reads at most 2 GiB; larger models "
                         "keep their weights in external data files)");
  }
  std::ifstream file(path, std::ios::binary);
  if (!file) return Status::Error(path + ": cannot open file");
  // Parsed from the stream, so that the file's bytes are never held beside the model they
  // become (a model's weights are most of both); read whole only to say what is wrong.
  onnx::ModelProto model;
  if (!model.ParseFromIstream(&file)) {
    std::ifstream again(path, std::ios::binary);
    std::string bytes(static_cast<size_t>(size), '\0');
    again.read(bytes.data(), static_cast<std::streamsize>(size));
    if (again.gcount() != static_cast<std::streamsize>(size)) {
      return Status::Error(path + ": cannot read file");
    }
    return Status::Error(path + ": not a valid ONNX model: " + DescribeBadWireData(bytes));
  }
  const std::string base_dir = fs::path(path).parent_path().string();
  return ImportParsed(model, path, base_dir.empty() ? "." : base_dir, options);
}

StatusOr<OnnxModelInputs> ReadOnnxInputs(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return Status::Error(path + ": cannot open file");
  onnx::ModelProto model;
  if (!model.ParseFromIstream(&file)) return Status::Error(path + ": not a valid ONNX model");
  std::set<std::string> initializers;
  for (const auto& initializer : model.graph().initializer())
    initializers.insert(initializer.name());
  OnnxModelInputs inputs;
  for (const auto& input : model.graph().input()) {
    if (initializers.count(input.name())) continue;
    inputs.names.push_back(input.name());
    if (!input.type().has_tensor_type() || !input.type().tensor_type().has_shape()) continue;
    const auto& dims = input.type().tensor_type().shape().dim();
    for (int axis = 0; axis < dims.size(); ++axis) {
      const std::string& name = dims[axis].dim_param();
      if (!dims[axis].has_dim_param() || name.empty()) continue;
      const bool seen =
          std::any_of(inputs.symbolic_dimensions.begin(), inputs.symbolic_dimensions.end(),
                      [&](const SymbolicDimension& dim) { return dim.name == name; });
      if (!seen) inputs.symbolic_dimensions.push_back({name, input.name(), axis});
    }
  }
  for (const auto& node : model.graph().node())
    if (!node.name().empty() && node.op_type() != "Constant")
      inputs.node_names.push_back(node.name());
  return inputs;
}

}  // namespace fusescope::ir::onnx_import
