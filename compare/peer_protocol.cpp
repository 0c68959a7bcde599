#include "compare/peer_protocol.h"

#include <cmath>

#include "ir/json_reader.h"
#include "ir/json_writer.h"

namespace fusescope::compare {
namespace {

// Reads the members of one object, naming the path of whatever is wrong. Absent optional
// members keep the caller's default; a member of the wrong type is an error, not a default.
class Fields {
 public:
  Fields(const JsonValue& object, std::string path) : object_(object), path_(std::move(path)) {}

  Status Check() const {
    if (!object_.is_object()) return Status::Error(Where("") + "expected an object");
    return Status::Ok();
  }
  const JsonValue* Find(std::string_view key) const {
    const JsonValue* value = object_.Find(key);
    return value && !value->is_null() ? value : nullptr;
  }
  std::string Where(std::string_view key) const {
    std::string where = path_;
    if (!key.empty()) where += (where.empty() ? "" : ".") + std::string(key);
    return where.empty() ? "" : where + ": ";
  }

  Status String(std::string_view key, std::string& out, bool required = false) const {
    const JsonValue* value = Find(key);
    if (!value) return Missing(key, required);
    if (!value->is_string()) return Status::Error(Where(key) + "expected a string");
    out = value->string();
    return Status::Ok();
  }
  Status Bool(std::string_view key, bool& out) const {
    const JsonValue* value = Find(key);
    if (!value) return Status::Ok();
    if (value->kind() != JsonValue::Kind::kBool)
      return Status::Error(Where(key) + "expected true or false");
    out = value->boolean();
    return Status::Ok();
  }
  Status Number(std::string_view key, double& out, bool required = false) const {
    const JsonValue* value = Find(key);
    if (!value) return Missing(key, required);
    if (!value->is_number() || !std::isfinite(value->number()))
      return Status::Error(Where(key) + "expected a number");
    out = value->number();
    return Status::Ok();
  }
  Status Int(std::string_view key, int64_t& out, bool required = false) const {
    double number = static_cast<double>(out);
    FS_RETURN_IF_ERROR(Number(key, number, required));
    if (number != std::floor(number) || std::fabs(number) > 9.0e15)
      return Status::Error(Where(key) + "expected an integer");
    out = static_cast<int64_t>(number);
    return Status::Ok();
  }
  Status Array(std::string_view key, const std::vector<JsonValue>*& out) const {
    static const std::vector<JsonValue> kEmpty;
    out = &kEmpty;
    const JsonValue* value = Find(key);
    if (!value) return Status::Ok();
    if (!value->is_array()) return Status::Error(Where(key) + "expected an array");
    out = &value->array();
    return Status::Ok();
  }
  Status Strings(std::string_view key, std::vector<std::string>& out) const {
    const std::vector<JsonValue>* items = nullptr;
    FS_RETURN_IF_ERROR(Array(key, items));
    for (const JsonValue& item : *items) {
      if (!item.is_string()) return Status::Error(Where(key) + "expected an array of strings");
      out.push_back(item.string());
    }
    return Status::Ok();
  }
  Status Numbers(std::string_view key, std::vector<double>& out) const {
    const std::vector<JsonValue>* items = nullptr;
    FS_RETURN_IF_ERROR(Array(key, items));
    for (const JsonValue& item : *items) {
      if (!item.is_number() || !std::isfinite(item.number()))
        return Status::Error(Where(key) + "expected an array of finite numbers");
      out.push_back(item.number());
    }
    return Status::Ok();
  }
  std::string Child(std::string_view key, size_t index) const {
    return path_ + (path_.empty() ? "" : ".") + std::string(key) + "[" + std::to_string(index) +
           "]";
  }

 private:
  Status Missing(std::string_view key, bool required) const {
    return required ? Status::Error(Where(key) + "missing") : Status::Ok();
  }
  const JsonValue& object_;
  std::string path_;
};

StatusOr<JsonValue> ParseDocument(std::string_view text, std::string_view what) {
  auto document = ParseJson(text);
  if (!document.ok())
    return Status::Error(std::string(what) + " is no JSON document: " + document.message());
  if (!document->is_object()) return Status::Error(std::string(what) + " is not a JSON object");
  return document;
}

Status CheckProtocol(const Fields& fields) {
  int64_t protocol = -1;
  FS_RETURN_IF_ERROR(fields.Int("protocol", protocol, true));
  if (protocol != kProtocolVersion)
    return Status::Error("protocol " + std::to_string(protocol) + ", expected " +
                         std::to_string(kProtocolVersion));
  return Status::Ok();
}

void WriteOptionalInt(JsonWriter& json, std::string_view key, int64_t value) {
  json.Key(key);
  if (value < 0)
    json.Null();
  else
    json.Int(value);
}

void WriteOptionalString(JsonWriter& json, std::string_view key, const std::string& value) {
  json.Key(key);
  if (value.empty())
    json.Null();
  else
    json.String(value);
}

Status ParseBuild(const JsonValue& value, const std::string& path, PeerBuild& build) {
  Fields fields(value, path);
  FS_RETURN_IF_ERROR(fields.Check());
  FS_RETURN_IF_ERROR(fields.String("variant", build.variant, true));
  FS_RETURN_IF_ERROR(fields.Strings("shapes", build.shapes));
  FS_RETURN_IF_ERROR(fields.Number("build_s", build.build_s));
  FS_RETURN_IF_ERROR(fields.Number("tuning_s", build.tuning_s));
  FS_RETURN_IF_ERROR(fields.Int("trials", build.trials));
  FS_RETURN_IF_ERROR(fields.Int("baseline_rss_bytes", build.baseline_rss_bytes));
  FS_RETURN_IF_ERROR(fields.Int("build_peak_rss_bytes", build.build_peak_rss_bytes));
  FS_RETURN_IF_ERROR(fields.Int("artifact_bytes", build.artifact_bytes));
  FS_RETURN_IF_ERROR(fields.String("artifact", build.artifact));
  FS_RETURN_IF_ERROR(fields.String("error", build.error));
  const std::vector<JsonValue>* ops = nullptr;
  FS_RETURN_IF_ERROR(fields.Array("unsupported_ops", ops));
  for (size_t i = 0; i < ops->size(); ++i) {
    Fields op((*ops)[i], fields.Child("unsupported_ops", i));
    FS_RETURN_IF_ERROR(op.Check());
    PeerBuild::UnsupportedOp entry;
    FS_RETURN_IF_ERROR(op.String("op", entry.op, true));
    FS_RETURN_IF_ERROR(op.String("error", entry.error));
    build.unsupported_ops.push_back(std::move(entry));
  }
  return Status::Ok();
}

Status ParseRun(const JsonValue& value, const std::string& path, PeerRun& run) {
  Fields fields(value, path);
  FS_RETURN_IF_ERROR(fields.Check());
  FS_RETURN_IF_ERROR(fields.String("variant", run.variant, true));
  FS_RETURN_IF_ERROR(fields.String("shape", run.shape, true));
  FS_RETURN_IF_ERROR(fields.Numbers("times_us", run.times_us));
  FS_RETURN_IF_ERROR(fields.Int("run_peak_rss_bytes", run.run_peak_rss_bytes));
  FS_RETURN_IF_ERROR(fields.String("outputs", run.outputs));
  FS_RETURN_IF_ERROR(fields.String("error", run.error));
  for (double time : run.times_us) {
    if (time < 0) return Status::Error(fields.Where("times_us") + "a negative time");
  }
  if (run.error.empty() && (run.times_us.empty() || run.outputs.empty()))
    return Status::Error(fields.Where("") + "a run without an error needs times_us and outputs");
  return Status::Ok();
}

Status ParseKernel(const JsonValue& value, const std::string& path, PeerKernel& kernel) {
  Fields fields(value, path);
  FS_RETURN_IF_ERROR(fields.Check());
  FS_RETURN_IF_ERROR(fields.String("variant", kernel.variant));
  FS_RETURN_IF_ERROR(fields.String("shape", kernel.shape));
  FS_RETURN_IF_ERROR(fields.String("name", kernel.name, true));
  FS_RETURN_IF_ERROR(fields.Number("time_us", kernel.time_us));
  FS_RETURN_IF_ERROR(fields.Strings("ops", kernel.ops));
  FS_RETURN_IF_ERROR(fields.String("source", kernel.source));
  return Status::Ok();
}

}  // namespace

std::string PeerRequest::ToJson() const {
  JsonWriter json;
  json.BeginObject();
  json.Key("protocol").Int(kProtocolVersion);
  json.Key("compiler").String(compiler);
  json.Key("model").String(model);
  json.Key("model_format").String(model_format);
  json.Key("work_dir").String(work_dir);
  json.Key("shapes").BeginArray();
  for (const RequestShape& shape : shapes) {
    json.BeginObject();
    json.Key("name").String(shape.name);
    json.Key("dims").BeginObject();
    for (const auto& [name, size] : shape.dims) json.Key(name).Int(size);
    json.EndObject();
    if (!shape.model.empty()) {
      json.Key("model").String(shape.model);
      json.Key("model_format").String(shape.model_format);
    }
    json.Key("inputs").String(shape.inputs);
    json.EndObject();
  }
  json.EndArray();
  json.Key("reps").Int(reps);
  json.Key("warmup").Int(warmup);
  json.Key("threads").Int(threads);
  json.Key("deadline_s").Double(deadline_s);
  json.Key("options").BeginObject();
  json.Key("dump").Bool(dump);
  json.Key("profile").Bool(profile);
  json.Key("tvm_trials").Int(tvm_trials);
  json.EndObject();
  json.EndObject();
  return json.str() + "\n";
}

StatusOr<PeerRequest> PeerRequest::Parse(std::string_view text) {
  auto document = ParseDocument(text, "the request");
  if (!document.ok()) return document.status();
  Fields fields(*document, "");
  FS_RETURN_IF_ERROR(CheckProtocol(fields));
  PeerRequest request;
  FS_RETURN_IF_ERROR(fields.String("compiler", request.compiler, true));
  FS_RETURN_IF_ERROR(fields.String("model", request.model, true));
  FS_RETURN_IF_ERROR(fields.String("model_format", request.model_format, true));
  FS_RETURN_IF_ERROR(fields.String("work_dir", request.work_dir, true));
  FS_RETURN_IF_ERROR(fields.Int("reps", request.reps));
  FS_RETURN_IF_ERROR(fields.Int("warmup", request.warmup));
  FS_RETURN_IF_ERROR(fields.Int("threads", request.threads));
  FS_RETURN_IF_ERROR(fields.Number("deadline_s", request.deadline_s));
  if (request.reps < 1 || request.warmup < 0)
    return Status::Error("reps must be at least 1 and warmup at least 0");
  const std::vector<JsonValue>* shapes = nullptr;
  FS_RETURN_IF_ERROR(fields.Array("shapes", shapes));
  if (shapes->empty()) return Status::Error("shapes: at least one shape is needed");
  for (size_t i = 0; i < shapes->size(); ++i) {
    Fields shape_fields((*shapes)[i], fields.Child("shapes", i));
    FS_RETURN_IF_ERROR(shape_fields.Check());
    RequestShape shape;
    FS_RETURN_IF_ERROR(shape_fields.String("name", shape.name, true));
    FS_RETURN_IF_ERROR(shape_fields.String("model", shape.model));
    FS_RETURN_IF_ERROR(shape_fields.String("model_format", shape.model_format));
    FS_RETURN_IF_ERROR(shape_fields.String("inputs", shape.inputs, true));
    if (const JsonValue* dims = shape_fields.Find("dims")) {
      if (!dims->is_object())
        return Status::Error(shape_fields.Where("dims") + "expected an object");
      for (const auto& [name, size] : dims->object()) {
        if (!size.is_number() || size.number() < 1 || size.number() != std::floor(size.number()))
          return Status::Error(shape_fields.Where("dims") + name + " must be a positive integer");
        shape.dims[name] = static_cast<int64_t>(size.number());
      }
    }
    request.shapes.push_back(std::move(shape));
  }
  if (const JsonValue* options = fields.Find("options")) {
    Fields option_fields(*options, "options");
    FS_RETURN_IF_ERROR(option_fields.Check());
    FS_RETURN_IF_ERROR(option_fields.Bool("dump", request.dump));
    FS_RETURN_IF_ERROR(option_fields.Bool("profile", request.profile));
    FS_RETURN_IF_ERROR(option_fields.Int("tvm_trials", request.tvm_trials));
  }
  return request;
}

std::string PeerResponse::ToJson() const {
  JsonWriter json;
  json.BeginObject();
  json.Key("protocol").Int(kProtocolVersion);
  json.Key("compiler").String(compiler);
  json.Key("available").Bool(available);
  json.Key("install").String(install);
  json.Key("versions").BeginObject();
  for (const auto& [name, version] : versions) json.Key(name).String(version);
  json.EndObject();
  json.Key("input_received").String(input_received);
  json.Key("dynamic_shapes").Bool(dynamic_shapes);
  json.Key("builds").BeginArray();
  for (const PeerBuild& build : builds) {
    json.BeginObject();
    json.Key("variant").String(build.variant);
    json.Key("shapes").BeginArray();
    for (const std::string& shape : build.shapes) json.String(shape);
    json.EndArray();
    json.Key("build_s").Double(build.build_s);
    json.Key("tuning_s").Double(build.tuning_s);
    json.Key("trials").Int(build.trials);
    WriteOptionalInt(json, "baseline_rss_bytes", build.baseline_rss_bytes);
    WriteOptionalInt(json, "build_peak_rss_bytes", build.build_peak_rss_bytes);
    WriteOptionalInt(json, "artifact_bytes", build.artifact_bytes);
    WriteOptionalString(json, "artifact", build.artifact);
    WriteOptionalString(json, "error", build.error);
    json.Key("unsupported_ops").BeginArray();
    for (const auto& op : build.unsupported_ops) {
      json.BeginObject().Key("op").String(op.op).Key("error").String(op.error).EndObject();
    }
    json.EndArray();
    json.EndObject();
  }
  json.EndArray();
  json.Key("runs").BeginArray();
  for (const PeerRun& run : runs) {
    json.BeginObject();
    json.Key("variant").String(run.variant);
    json.Key("shape").String(run.shape);
    json.Key("times_us").BeginArray();
    for (double time : run.times_us) json.Double(time);
    json.EndArray();
    WriteOptionalInt(json, "run_peak_rss_bytes", run.run_peak_rss_bytes);
    WriteOptionalString(json, "outputs", run.outputs);
    WriteOptionalString(json, "error", run.error);
    json.EndObject();
  }
  json.EndArray();
  json.Key("kernels").BeginArray();
  for (const PeerKernel& kernel : kernels) {
    json.BeginObject();
    json.Key("variant").String(kernel.variant);
    json.Key("shape").String(kernel.shape);
    json.Key("name").String(kernel.name);
    json.Key("time_us").Double(kernel.time_us);
    json.Key("ops").BeginArray();
    for (const std::string& op : kernel.ops) json.String(op);
    json.EndArray();
    json.Key("source").String(kernel.source);
    json.EndObject();
  }
  json.EndArray();
  json.Key("kernels_note").String(kernels_note);
  json.Key("dumps").BeginArray();
  for (const PeerDump& dump : dumps) {
    json.BeginObject().Key("kind").String(dump.kind).Key("path").String(dump.path).EndObject();
  }
  json.EndArray();
  WriteOptionalString(json, "error", error);
  json.EndObject();
  return json.str() + "\n";
}

StatusOr<PeerResponse> PeerResponse::Parse(std::string_view text) {
  auto document = ParseDocument(text, "the answer");
  if (!document.ok()) return document.status();
  Fields fields(*document, "");
  FS_RETURN_IF_ERROR(CheckProtocol(fields));
  PeerResponse response;
  FS_RETURN_IF_ERROR(fields.String("compiler", response.compiler, true));
  FS_RETURN_IF_ERROR(fields.Bool("available", response.available));
  FS_RETURN_IF_ERROR(fields.String("install", response.install));
  FS_RETURN_IF_ERROR(fields.String("input_received", response.input_received));
  FS_RETURN_IF_ERROR(fields.Bool("dynamic_shapes", response.dynamic_shapes));
  FS_RETURN_IF_ERROR(fields.String("kernels_note", response.kernels_note));
  FS_RETURN_IF_ERROR(fields.String("error", response.error));
  if (const JsonValue* versions = fields.Find("versions")) {
    if (!versions->is_object()) return Status::Error("versions: expected an object");
    for (const auto& [name, version] : versions->object()) {
      if (!version.is_string()) return Status::Error("versions." + name + ": expected a string");
      response.versions[name] = version.string();
    }
  }
  const std::vector<JsonValue>* items = nullptr;
  FS_RETURN_IF_ERROR(fields.Array("builds", items));
  for (size_t i = 0; i < items->size(); ++i) {
    PeerBuild build;
    FS_RETURN_IF_ERROR(ParseBuild((*items)[i], fields.Child("builds", i), build));
    response.builds.push_back(std::move(build));
  }
  FS_RETURN_IF_ERROR(fields.Array("runs", items));
  for (size_t i = 0; i < items->size(); ++i) {
    PeerRun run;
    FS_RETURN_IF_ERROR(ParseRun((*items)[i], fields.Child("runs", i), run));
    response.runs.push_back(std::move(run));
  }
  FS_RETURN_IF_ERROR(fields.Array("kernels", items));
  for (size_t i = 0; i < items->size(); ++i) {
    PeerKernel kernel;
    FS_RETURN_IF_ERROR(ParseKernel((*items)[i], fields.Child("kernels", i), kernel));
    response.kernels.push_back(std::move(kernel));
  }
  FS_RETURN_IF_ERROR(fields.Array("dumps", items));
  for (size_t i = 0; i < items->size(); ++i) {
    Fields dump_fields((*items)[i], fields.Child("dumps", i));
    FS_RETURN_IF_ERROR(dump_fields.Check());
    PeerDump dump;
    FS_RETURN_IF_ERROR(dump_fields.String("kind", dump.kind, true));
    FS_RETURN_IF_ERROR(dump_fields.String("path", dump.path, true));
    response.dumps.push_back(std::move(dump));
  }
  if (!response.available && response.install.empty())
    return Status::Error("an unavailable compiler must say how to install it (install)");
  return response;
}

}  // namespace fusescope::compare
