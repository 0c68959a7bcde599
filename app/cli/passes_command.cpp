// `fusescope passes RUN.fsdb [--json]`: the pass table of a recording — changed or not
// (measured by fingerprint), Δ operations and the fusions' contents (recording::
// OperationCounts), time, and what looks wrong (a lying change flag, a failure).

#include <algorithm>
#include <cstdio>
#include <iostream>

#include "app/cli/command.h"
#include "app/cli/common_flags.h"
#include "ir/json_writer.h"
#include "recording/operation_counts.h"
#include "recording/recording_store.h"

namespace fusescope::app {
namespace {

std::string Notes(const recording::PassRecord& pass) {
  std::string notes;
  auto add = [&](const std::string& note) { notes += (notes.empty() ? "" : "; ") + note; };
  if (pass.skipped) add("disabled");
  if (pass.failed) add("FAILED: " + pass.error);
  if (pass.change_flag_lies) {
    add(pass.reported_changed ? "reported a change but changed nothing"
                              : "changed the module but reported no change");
  }
  for (const auto& [key, value] : pass.stats) add(key + "=" + value);
  return notes;
}

void PrintText(const recording::Recording& recording) {
  const std::vector<recording::OperationCounts> counts = recording::CountSnapshots(recording);
  std::printf("%s: %s pipeline, %zu passes\n\n", recording.model_name.c_str(),
              recording.pipeline_name.c_str(), recording.passes.size());
  // The width of the longest name, so that the columns after it line up.
  int width = 24;
  for (const auto& pass : recording.passes)
    width = std::max(width, static_cast<int>(pass.name.size()));
  std::printf("%4s  %-*s %-8s %8s %8s %7s %8s %8s %10s  %s\n", "#", width, "pass", "changed", "ops",
              "ops", "delta", "fusions", "fused", "time(ms)", "notes");
  std::printf("%4s  %-*s %-8s %8s %8s %7s %8s %8s %10s\n", "", width, "", "", "before", "after",
              "ops", "after", "instr", "");
  for (const auto& pass : recording.passes) {
    const recording::OperationCounts& before = counts[static_cast<size_t>(pass.index)];
    const recording::OperationCounts& after = counts[static_cast<size_t>(pass.index + 1)];
    // Another compiler's passes were not timed here.
    char time[32] = "-";
    if (!recording.imported) std::snprintf(time, sizeof time, "%.3f", pass.wall_seconds * 1e3);
    std::printf("%4lld  %-*s %-8s %8lld %8lld %+7lld %8lld %8lld %10s  %s\n",
                static_cast<long long>(pass.index), width, pass.name.c_str(),
                pass.changed ? "yes" : "-", static_cast<long long>(before.operations),
                static_cast<long long>(after.operations),
                static_cast<long long>(after.operations - before.operations),
                static_cast<long long>(after.fusions),
                static_cast<long long>(after.fused_instructions), time, Notes(pass).c_str());
  }
}

void CountsJson(JsonWriter& json, const std::string& suffix,
                const recording::OperationCounts& counts) {
  json.Key("operations_" + suffix).Int(counts.operations);
  json.Key("fusions_" + suffix).Int(counts.fusions);
  json.Key("fused_instructions_" + suffix).Int(counts.fused_instructions);
}

void PrintJson(const recording::Recording& recording) {
  const std::vector<recording::OperationCounts> counts = recording::CountSnapshots(recording);
  JsonWriter json;
  json.BeginObject();
  json.Key("model").String(recording.model_name);
  json.Key("pipeline").String(recording.pipeline_name);
  // Another compiler's passes: "seconds" is 0, never measured.
  json.Key("imported").Bool(recording.imported);
  json.Key("passes").BeginArray();
  for (const auto& pass : recording.passes) {
    json.BeginObject();
    json.Key("index").Int(pass.index);
    json.Key("name").String(pass.name);
    json.Key("changed").Bool(pass.changed);
    json.Key("reported_changed").Bool(pass.reported_changed);
    json.Key("change_flag_lies").Bool(pass.change_flag_lies);
    json.Key("skipped").Bool(pass.skipped);
    json.Key("failed").Bool(pass.failed);
    if (pass.failed) json.Key("error").String(pass.error);
    json.Key("instructions_before").Int(pass.instructions_before);
    json.Key("instructions_after").Int(pass.instructions_after);
    CountsJson(json, "before", counts[static_cast<size_t>(pass.index)]);
    CountsJson(json, "after", counts[static_cast<size_t>(pass.index + 1)]);
    json.Key("seconds").Double(pass.wall_seconds);
    json.Key("stats").BeginObject();
    for (const auto& [key, value] : pass.stats) json.Key(key).String(value);
    json.EndObject();
    json.EndObject();
  }
  json.EndArray();
  json.EndObject();
  std::cout << json.str() << '\n';
}

int RunPasses(const ParsedArgs& args) {
  auto recording = recording::LoadRecording(args.positional()[0]);
  if (!recording.ok()) return Fail(recording.message());
  if (args.Has("--json")) {
    PrintJson(*recording);
  } else {
    PrintText(*recording);
  }
  return 0;
}

const CommandRegistrar kRegistrar({
    .name = "passes",
    .summary = "pass table: changed, delta operations, fusions, time",
    .positionals = {{"RUN.fsdb", "a recording"}},
    .flags =
        {
            JsonFlag(),
        },
    .run = RunPasses,
    .runs_kernels = false,
});

}  // namespace
}  // namespace fusescope::app
