// Comparison <-> JSON: the form `compare --json` prints and the recording stores, read back
// by the workbench's Compare view. Statistics are not stored: they are recomputed from the
// times, which are (every repetition, never a mean).

#include <cmath>

#include "compare/comparison.h"
#include "ir/json_reader.h"
#include "ir/json_writer.h"

namespace fusescope::compare {
namespace {

void WriteNumberOrNull(JsonWriter& json, std::string_view key, double value) {
  json.Key(key);
  if (value < 0 || !std::isfinite(value))
    json.Null();
  else
    json.Double(value);
}

void WriteSummary(JsonWriter& json, const profiler::SampleSummary& summary) {
  json.BeginObject();
  json.Key("count").Int(summary.count);
  json.Key("min").Double(summary.min);
  json.Key("p50").Double(summary.median);
  json.Key("p95").Double(summary.p95);
  json.Key("p99").Double(summary.p99);
  json.Key("max").Double(summary.max);
  json.Key("mean").Double(summary.mean);
  json.Key("outliers_high").Int(summary.outliers_high);
  json.Key("outliers_low").Int(summary.outliers_low);
  json.EndObject();
}

void WriteRow(JsonWriter& json, const ComparisonRow& row) {
  json.BeginObject();
  json.Key("compiler").String(row.compiler);
  json.Key("variant").String(row.variant);
  json.Key("shape").String(row.shape);
  json.Key("batch").Int(row.batch);
  json.Key("error").String(row.error);
  WriteNumberOrNull(json, "build_s", row.build_s);
  json.Key("tuning_s").Double(row.tuning_s);
  json.Key("trials").Int(row.trials);
  json.Key("shared_build").Bool(row.shared_build);
  WriteNumberOrNull(json, "build_peak_rss_bytes", static_cast<double>(row.build_peak_rss_bytes));
  WriteNumberOrNull(json, "run_peak_rss_bytes", static_cast<double>(row.run_peak_rss_bytes));
  WriteNumberOrNull(json, "artifact_bytes", static_cast<double>(row.artifact_bytes));
  json.Key("latency_us");
  WriteSummary(json, row.latency_us);
  json.Key("throughput_per_s").Double(row.throughput_per_s);
  json.Key("verdict").String(row.verdict);
  WriteNumberOrNull(json, "max_abs_error", row.max_abs_error);
  WriteNumberOrNull(json, "max_rel_error", row.max_rel_error);
  json.Key("judgement").String(row.judgement);
  json.Key("times_us").BeginArray();
  for (double time : row.times_us) json.Double(time);
  json.EndArray();
  json.EndObject();
}

void WritePeer(JsonWriter& json, const PeerOutcome& peer) {
  json.BeginObject();
  json.Key("compiler").String(peer.compiler);
  json.Key("status").String(peer.status);
  json.Key("message").String(peer.message);
  json.Key("install").String(peer.install);
  json.Key("versions").BeginObject();
  for (const auto& [name, version] : peer.versions) json.Key(name).String(version);
  json.EndObject();
  json.Key("input_given").String(peer.input_given);
  json.Key("input_received").String(peer.input_received);
  json.Key("dynamic_shapes").Bool(peer.dynamic_shapes);
  json.Key("unsupported_ops").BeginArray();
  for (const auto& op : peer.unsupported_ops)
    json.BeginObject().Key("op").String(op.op).Key("error").String(op.error).EndObject();
  json.EndArray();
  json.Key("kernels").BeginArray();
  for (const PeerKernel& kernel : peer.kernels) {
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
  json.Key("kernels_note").String(peer.kernels_note);
  json.Key("dumps").BeginArray();
  for (const PeerDump& dump : peer.dumps)
    json.BeginObject().Key("kind").String(dump.kind).Key("path").String(dump.path).EndObject();
  json.EndArray();
  json.Key("wall_s").Double(peer.wall_s);
  WriteNumberOrNull(json, "process_peak_rss_bytes",
                    static_cast<double>(peer.process_peak_rss_bytes));
  json.Key("log").String(peer.log_path);
  json.EndObject();
}

double NumberOr(const JsonValue& object, std::string_view key, double fallback) {
  const JsonValue* value = object.Find(key);
  return value && value->is_number() ? value->number() : fallback;
}

std::string StringOf(const JsonValue& object, std::string_view key) {
  const JsonValue* value = object.Find(key);
  return value && value->is_string() ? value->string() : std::string();
}

bool BoolOf(const JsonValue& object, std::string_view key) {
  const JsonValue* value = object.Find(key);
  return value && value->kind() == JsonValue::Kind::kBool && value->boolean();
}

const std::vector<JsonValue>& ArrayOf(const JsonValue& object, std::string_view key) {
  static const std::vector<JsonValue> kEmpty;
  const JsonValue* value = object.Find(key);
  return value && value->is_array() ? value->array() : kEmpty;
}

ComparisonRow ReadRow(const JsonValue& value) {
  ComparisonRow row;
  row.compiler = StringOf(value, "compiler");
  row.variant = StringOf(value, "variant");
  row.shape = StringOf(value, "shape");
  row.batch = static_cast<int64_t>(NumberOr(value, "batch", 1));
  row.error = StringOf(value, "error");
  row.build_s = NumberOr(value, "build_s", -1);
  row.tuning_s = NumberOr(value, "tuning_s", 0);
  row.trials = static_cast<int64_t>(NumberOr(value, "trials", 0));
  row.shared_build = BoolOf(value, "shared_build");
  row.build_peak_rss_bytes = static_cast<int64_t>(NumberOr(value, "build_peak_rss_bytes", -1));
  row.run_peak_rss_bytes = static_cast<int64_t>(NumberOr(value, "run_peak_rss_bytes", -1));
  row.artifact_bytes = static_cast<int64_t>(NumberOr(value, "artifact_bytes", -1));
  row.verdict = StringOf(value, "verdict");
  row.max_abs_error = NumberOr(value, "max_abs_error", -1);
  row.max_rel_error = NumberOr(value, "max_rel_error", -1);
  row.judgement = StringOf(value, "judgement");
  for (const JsonValue& time : ArrayOf(value, "times_us"))
    if (time.is_number()) row.times_us.push_back(time.number());
  SummarizeRow(row);
  return row;
}

PeerOutcome ReadPeer(const JsonValue& value) {
  PeerOutcome peer;
  peer.compiler = StringOf(value, "compiler");
  peer.status = StringOf(value, "status");
  peer.message = StringOf(value, "message");
  peer.install = StringOf(value, "install");
  if (const JsonValue* versions = value.Find("versions"); versions && versions->is_object())
    for (const auto& [name, version] : versions->object())
      if (version.is_string()) peer.versions[name] = version.string();
  peer.input_given = StringOf(value, "input_given");
  peer.input_received = StringOf(value, "input_received");
  peer.dynamic_shapes = BoolOf(value, "dynamic_shapes");
  for (const JsonValue& op : ArrayOf(value, "unsupported_ops"))
    peer.unsupported_ops.push_back({StringOf(op, "op"), StringOf(op, "error")});
  for (const JsonValue& item : ArrayOf(value, "kernels")) {
    PeerKernel kernel;
    kernel.variant = StringOf(item, "variant");
    kernel.shape = StringOf(item, "shape");
    kernel.name = StringOf(item, "name");
    kernel.time_us = NumberOr(item, "time_us", -1);
    for (const JsonValue& op : ArrayOf(item, "ops"))
      if (op.is_string()) kernel.ops.push_back(op.string());
    kernel.source = StringOf(item, "source");
    peer.kernels.push_back(std::move(kernel));
  }
  peer.kernels_note = StringOf(value, "kernels_note");
  for (const JsonValue& dump : ArrayOf(value, "dumps"))
    peer.dumps.push_back({StringOf(dump, "kind"), StringOf(dump, "path")});
  peer.wall_s = NumberOr(value, "wall_s", 0);
  peer.process_peak_rss_bytes = static_cast<int64_t>(NumberOr(value, "process_peak_rss_bytes", -1));
  peer.log_path = StringOf(value, "log");
  return peer;
}

}  // namespace

std::string Comparison::ToJson() const {
  JsonWriter json;
  json.BeginObject();
  json.Key("model").String(model);
  json.Key("model_format").String(model_format);
  json.Key("reps").Int(reps);
  json.Key("warmup").Int(warmup);
  json.Key("threads").Int(threads);
  json.Key("reference").String(reference_note);
  json.Key("model_ops").BeginArray();
  for (const std::string& op : model_ops) json.String(op);
  json.EndArray();
  json.Key("shapes").BeginArray();
  for (const ShapeChoice& shape : shapes) {
    json.BeginObject().Key("name").String(shape.name).Key("batch").Int(shape.batch);
    json.Key("dims").BeginObject();
    for (const auto& [name, size] : shape.dims) json.Key(name).Int(size);
    json.EndObject().EndObject();
  }
  json.EndArray();
  json.Key("compilers").BeginArray();
  for (const PeerOutcome& peer : peers) WritePeer(json, peer);
  json.EndArray();
  json.Key("rows").BeginArray();
  for (const ComparisonRow& row : rows) WriteRow(json, row);
  json.EndArray();
  json.EndObject();
  return json.str() + "\n";
}

StatusOr<Comparison> Comparison::FromJson(std::string_view text) {
  auto document = ParseJson(text);
  if (!document.ok()) return Status::Error("a stored comparison: " + document.message());
  if (!document->is_object()) return Status::Error("a stored comparison is not a JSON object");
  Comparison comparison;
  comparison.model = StringOf(*document, "model");
  comparison.model_format = StringOf(*document, "model_format");
  comparison.reps = static_cast<int64_t>(NumberOr(*document, "reps", 0));
  comparison.warmup = static_cast<int64_t>(NumberOr(*document, "warmup", 0));
  comparison.threads = static_cast<int64_t>(NumberOr(*document, "threads", 0));
  comparison.reference_note = StringOf(*document, "reference");
  for (const JsonValue& op : ArrayOf(*document, "model_ops"))
    if (op.is_string()) comparison.model_ops.push_back(op.string());
  for (const JsonValue& item : ArrayOf(*document, "shapes")) {
    ShapeChoice shape;
    shape.name = StringOf(item, "name");
    shape.batch = static_cast<int64_t>(NumberOr(item, "batch", 1));
    if (const JsonValue* dims = item.Find("dims"); dims && dims->is_object())
      for (const auto& [name, size] : dims->object())
        if (size.is_number()) shape.dims[name] = static_cast<int64_t>(size.number());
    comparison.shapes.push_back(std::move(shape));
  }
  for (const JsonValue& item : ArrayOf(*document, "compilers"))
    comparison.peers.push_back(ReadPeer(item));
  for (const JsonValue& item : ArrayOf(*document, "rows")) comparison.rows.push_back(ReadRow(item));
  return comparison;
}

}  // namespace fusescope::compare
