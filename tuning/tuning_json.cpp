#include "tuning/tuning_json.h"

#include <cmath>

#include "ir/json_reader.h"

namespace fusescope::tuning {
namespace {

std::string Where(std::string_view text, const std::string& file, const JsonValue& value) {
  JsonLocation at = JsonLineColumn(text, value.offset());
  return file + ":" + std::to_string(at.line) + ":" + std::to_string(at.column) + ": ";
}

double NumberOr(const JsonValue& object, std::string_view key, double fallback) {
  const JsonValue* value = object.Find(key);
  return value && value->is_number() ? value->number() : fallback;
}

// A count or an index: a whole number in int64 range, else `fallback`.
int64_t IntOr(const JsonValue& object, std::string_view key, int64_t fallback) {
  const double value = NumberOr(object, key, static_cast<double>(fallback));
  if (!std::isfinite(value) || value < -0x1p62 || value > 0x1p62) return fallback;
  return static_cast<int64_t>(value);
}

}  // namespace

void WriteTrialJson(JsonWriter& json, const Trial& trial) {
  json.BeginObject();
  json.Key("kernel").String(trial.kernel);
  json.Key("config").String(trial.config);
  json.Key("default").Bool(trial.is_default);
  json.Key("status").String(trial.ok ? "ok" : "error");
  json.Key("error").String(trial.error);
  json.Key("median_us").Double(trial.median_us);
  json.Key("min_us").Double(trial.min_us);
  json.Key("max_us").Double(trial.max_us);
  json.Key("baseline_us").Double(trial.baseline_us);
  json.Key("module_us").Double(trial.module_us);
  json.Key("module_baseline_us").Double(trial.module_baseline_us);
  json.Key("samples_us").BeginArray();
  for (double sample : trial.samples_us) json.Double(sample);
  json.EndArray();
  json.Key("baseline_samples_us").BeginArray();
  for (double sample : trial.baseline_samples_us) json.Double(sample);
  json.EndArray();
  json.Key("win").Bool(trial.IsWin());
  json.Key("verdict").String(trial.verdict);
  json.Key("max_abs_error").Double(trial.max_abs_error);
  json.Key("compile_seconds").Double(trial.compile_seconds);
  json.Key("worker").String(trial.worker);
  json.Key("attempts").Int(trial.attempts);
  json.EndObject();
}

void WriteRunJson(JsonWriter& json, const TuningRun& run) {
  json.BeginObject();
  json.Key("run_id").Int(run.run_id);
  json.Key("snapshot").Int(run.snapshot_index);
  json.Key("strategy").String(run.strategy);
  json.Key("space").String(run.space);
  json.Key("executor").String(run.executor);
  json.Key("machine").String(run.machine);
  json.Key("settings").String(run.settings);
  json.Key("created_at").String(run.created_at);
  json.Key("trials").BeginArray();
  for (const Trial& trial : run.trials) WriteTrialJson(json, trial);
  json.EndArray();
  json.Key("composed").Bool(run.composed);
  json.Key("module_speedup").Double(run.module_speedup);
  json.Key("composition").BeginArray();
  for (const CompositionStep& step : run.composition) {
    json.BeginObject();
    json.Key("kernel").String(step.kernel);
    json.Key("config").String(step.config);
    json.Key("kernel_gain_us").Double(step.kernel_gain_us);
    json.Key("status").String(step.ok ? "ok" : "error");
    json.Key("error").String(step.error);
    json.Key("module_us").Double(step.module_us);
    json.Key("module_before_us").Double(step.module_before_us);
    json.Key("pairs").Int(step.pairs);
    json.Key("pairs_faster").Int(step.pairs_faster);
    json.Key("kept").Bool(step.kept);
    json.EndObject();
  }
  json.EndArray();
  json.EndObject();
}

StatusOr<TuningRun> ParseRunJson(std::string_view text, const std::string& file_name) {
  auto document = ParseJson(text);
  if (!document.ok()) return Status::Error(file_name + ": " + document.message());
  if (!document->is_object())
    return Status::Error(Where(text, file_name, *document) + "a tuning run must be a JSON object");
  TuningRun run;
  run.snapshot_index = IntOr(*document, "snapshot", -1);
  if (run.snapshot_index < 0)
    return Status::Error(Where(text, file_name, *document) + "the run names no snapshot");
  run.strategy = document->Text("strategy");
  run.space = document->Text("space");
  run.executor = document->Text("executor");
  if (run.executor.empty()) run.executor = "local";
  run.machine = document->Text("machine");
  run.settings = document->Text("settings");
  run.created_at = document->Text("created_at");
  const JsonValue* trials = document->Find("trials");
  if (!trials || !trials->is_array())
    return Status::Error(Where(text, file_name, *document) + "the run has no \"trials\" array");
  for (size_t i = 0; i < trials->array().size(); ++i) {
    const JsonValue& item = trials->array()[i];
    const std::string at = Where(text, file_name, item) + "trial " + std::to_string(i) + " ";
    if (!item.is_object()) return Status::Error(at + "is not an object");
    Trial trial;
    trial.kernel = item.Text("kernel");
    if (trial.kernel.empty()) return Status::Error(at + "has no kernel");
    trial.config = item.Text("config");
    const JsonValue* is_default = item.Find("default");
    trial.is_default = is_default && is_default->kind() == JsonValue::Kind::kBool &&
                       is_default->boolean();
    const std::string status = item.Text("status");
    if (status != "ok" && status != "error")
      return Status::Error(at + "has status '" + status + "' (ok or error)");
    trial.ok = status == "ok";
    trial.error = item.Text("error");
    if (const JsonValue* samples = item.Find("samples_us"); samples && samples->is_array()) {
      for (const JsonValue& sample : samples->array()) {
        if (!sample.is_number()) return Status::Error(at + "has a sample that is not a number");
        trial.samples_us.push_back(sample.number());
      }
    }
    if (const JsonValue* samples = item.Find("baseline_samples_us");
        samples && samples->is_array()) {
      for (const JsonValue& sample : samples->array()) {
        if (!sample.is_number())
          return Status::Error(at + "has a baseline sample that is not a number");
        trial.baseline_samples_us.push_back(sample.number());
      }
    }
    trial.median_us = NumberOr(item, "median_us", 0);
    trial.min_us = NumberOr(item, "min_us", 0);
    trial.max_us = NumberOr(item, "max_us", 0);
    trial.baseline_us = NumberOr(item, "baseline_us", 0);
    trial.module_us = NumberOr(item, "module_us", 0);
    trial.module_baseline_us = NumberOr(item, "module_baseline_us", 0);
    if (trial.ok && (trial.samples_us.empty() || trial.median_us <= 0))
      return Status::Error(at + "is ok but has no times");
    trial.verdict = item.Text("verdict");
    trial.max_abs_error = NumberOr(item, "max_abs_error", 0);
    trial.compile_seconds = NumberOr(item, "compile_seconds", 0);
    trial.worker = item.Text("worker");
    if (trial.worker.empty()) trial.worker = item.Text("host");
    trial.attempts = IntOr(item, "attempts", 1);
    run.trials.push_back(std::move(trial));
  }
  // A run merged from a sweep elsewhere is composed where it is stored (tune --merge); what it
  // says of its own composition is read back for the JSON round trip.
  if (const JsonValue* composed = document->Find("composed");
      composed && composed->kind() == JsonValue::Kind::kBool)
    run.composed = composed->boolean();
  run.module_speedup = NumberOr(*document, "module_speedup", 1);
  if (const JsonValue* steps = document->Find("composition"); steps && steps->is_array()) {
    for (size_t i = 0; i < steps->array().size(); ++i) {
      const JsonValue& item = steps->array()[i];
      if (!item.is_object())
        return Status::Error(Where(text, file_name, item) + "composition step " +
                             std::to_string(i) + " is not an object");
      CompositionStep step;
      step.kernel = item.Text("kernel");
      step.config = item.Text("config");
      step.kernel_gain_us = NumberOr(item, "kernel_gain_us", 0);
      step.ok = item.Text("status") == "ok";
      step.error = item.Text("error");
      step.module_us = NumberOr(item, "module_us", 0);
      step.module_before_us = NumberOr(item, "module_before_us", 0);
      step.pairs = IntOr(item, "pairs", 0);
      step.pairs_faster = IntOr(item, "pairs_faster", 0);
      const JsonValue* kept = item.Find("kept");
      step.kept = kept && kept->kind() == JsonValue::Kind::kBool && kept->boolean();
      run.composition.push_back(std::move(step));
    }
  }
  return run;
}

}  // namespace fusescope::tuning
