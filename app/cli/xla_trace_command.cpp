// `fusescope xla-trace TRACE MODULE [--top K] [--json]`: a profile XLA recorded itself
// (jax.profiler's perfetto_trace.json.gz or any Chrome trace JSON) mapped by op name onto
// the module XLA compiled (its after-optimizations text): each run's latency (its span, first
// op's start to last op's end on any thread), time per XLA fusion over the runs, its share of
// the runs' latencies, and what each kernel holds — the model's op names and
// source lines from the metadata of the fused instructions. MODULE may be a recording (an
// imported XLA dump): the trace maps onto its final snapshot, and --save stores it there as
// a profile that `fusescope hot` carries onto every pass's graph.

#include <cstdio>
#include <filesystem>
#include <iostream>

#include "app/cli/command.h"
#include "app/cli/common_flags.h"
#include "app/cli/model_loader.h"
#include "ir/json_writer.h"
#include "profiler/profile_store.h"
#include "profiler/xla_trace.h"

namespace fusescope::app {
namespace {

// What the trace shows of a run: its thunks' span, not jax's dispatch before them nor the
// hand-back after (jax's wall time per call holds both).
constexpr char kLatencyIs[] = "a run's first op's start to its last op's end, on any thread";

std::string Where(const profiler::OpProfile& op, size_t limit) {
  std::string text;
  for (size_t i = 0; i < op.source_lines.size() && i < limit; ++i) {
    text +=
        (i ? ", " : "") + op.source_lines[i].file + ":" + std::to_string(op.source_lines[i].line);
  }
  if (op.source_lines.size() > limit) {
    text += " +" + std::to_string(op.source_lines.size() - limit);
  }
  return text;
}

void PrintJson(const profiler::TraceProfile& profile) {
  JsonWriter json;
  json.BeginObject();
  json.Key("module").String(profile.module_name);
  json.Key("runs").Int(profile.runs);
  json.Key("latency_us").BeginObject();
  json.Key("p50").Double(profile.module_latency_us.median);
  json.Key("p95").Double(profile.module_latency_us.p95);
  json.Key("p99").Double(profile.module_latency_us.p99);
  json.Key("min").Double(profile.module_latency_us.min);
  json.Key("max").Double(profile.module_latency_us.max);
  json.EndObject();
  json.Key("latency_is").String(kLatencyIs);
  json.Key("run_latency_us").BeginArray();
  for (double latency : profile.run_latency_us) json.Double(latency);
  json.EndArray();
  json.Key("max_threads").Int(profile.max_threads);
  json.Key("covered_share").Double(profile.covered_share);
  json.Key("op_time_share").Double(profile.op_time_share);
  json.Key("ops").BeginArray();
  for (const profiler::OpProfile& op : profile.ops) {
    json.BeginObject();
    json.Key("name").String(op.name);
    json.Key("opcode").String(std::string(ir::OpcodeName(op.instruction->opcode())));
    json.Key("median_us").Double(op.duration_us.median);
    json.Key("p95_us").Double(op.duration_us.p95);
    json.Key("total_us").Double(op.total_us);
    json.Key("share").Double(op.share);
    json.Key("op_names").BeginArray();
    for (const std::string& name : op.op_names) json.String(name);
    json.EndArray();
    json.Key("source_lines").BeginArray();
    for (const profiler::SourceLine& line : op.source_lines) {
      json.BeginObject();
      json.Key("file").String(line.file);
      json.Key("line").Int(line.line);
      json.Key("function").String(line.function);
      json.EndObject();
    }
    json.EndArray();
    json.EndObject();
  }
  json.EndArray();
  json.Key("unmatched_ops").BeginArray();
  for (const std::string& name : profile.unmatched_ops) json.String(name);
  json.EndArray();
  json.EndObject();
  std::cout << json.str() << '\n';
}

void PrintSummary(const profiler::TraceProfile& profile) {
  const profiler::SampleSummary& latency = profile.module_latency_us;
  std::printf(
      "%s: %lld runs in the trace, latency p50 %.1f us, p95 %.1f us, p99 %.1f us "
      "(min %.1f, max %.1f)\n",
      profile.module_name.c_str(), static_cast<long long>(profile.runs), latency.median,
      latency.p95, latency.p99, latency.min, latency.max);
  const std::string threads = profile.max_threads == 1
                                  ? std::string("one thread")
                                  : "up to " + std::to_string(profile.max_threads) + " threads";
  std::printf("latency: %s (a run's ops ran on %s)\n", kLatencyIs, threads.c_str());
  // Both figures, since with concurrent thunks thread time and wall time part ways.
  std::printf(
      "ops ran during %.0f%% of it; their time summed over threads is %.0f%% of it, which the "
      "shares below add up to\n\n",
      100 * profile.covered_share, 100 * profile.op_time_share);
}

int RunXlaTrace(const ParsedArgs& args) {
  auto trace = profiler::ReadXlaTrace(args.positional()[0]);
  if (!trace.ok()) return Fail(trace.message());
  const std::string& target = args.positional()[1];
  const bool is_recording = LooksLikeRecording(target);
  if (args.Has("--save") && !is_recording) {
    return Fail("xla-trace: --save stores the profile in a recording; " + target + " is not one");
  }
  auto loaded = LoadModel(target, std::nullopt);
  if (!loaded.ok()) return Fail(loaded.message());
  auto profile = profiler::MapTraceOntoModule(*trace, *loaded->module);
  if (!profile.ok()) return Fail(args.positional()[0] + ": " + profile.message());
  if (args.Has("--save")) {
    // The final snapshot is what LoadModel gave: its instruction ids are the kernels'.
    const int64_t snapshot = loaded->snapshot_index;
    const std::string label = std::filesystem::path(args.positional()[0]).filename().string();
    auto id = profiler::AddProfile(target, profiler::ToProfile(*profile, snapshot, label));
    if (!id.ok()) return Fail(id.message());
    std::fprintf(stderr, "saved as profile %lld of %s (see: fusescope hot %s)\n",
                 static_cast<long long>(*id), target.c_str(), target.c_str());
  }
  if (args.Has("--json")) {
    PrintJson(*profile);
    return 0;
  }
  PrintSummary(*profile);
  std::printf("%-32s %-11s %10s %10s %7s  %s\n", "XLA op", "opcode", "median us", "p95 us", "share",
              "source lines (op names)");
  const int64_t top = *args.IntValue("--top");
  const size_t limit = top > 0 ? static_cast<size_t>(top) : 0;
  for (size_t i = 0; i < profile->ops.size() && i < limit; ++i) {
    const profiler::OpProfile& op = profile->ops[i];
    std::string names = op.op_names.empty() ? "" : op.op_names.front();
    if (op.op_names.size() > 1) names += " +" + std::to_string(op.op_names.size() - 1);
    const std::string where = Where(op, 3);
    const std::string place = where.empty()   ? names
                              : names.empty() ? where
                                              : where + " (" + names + ")";
    std::printf("%-32s %-11s %10.2f %10.2f %6.1f%%  %s\n", op.name.c_str(),
                std::string(ir::OpcodeName(op.instruction->opcode())).c_str(),
                op.duration_us.median, op.duration_us.p95, 100 * op.share, place.c_str());
  }
  if (!profile->unmatched_ops.empty()) {
    std::printf("\n%zu op(s) in the trace are not in the module, e.g. %s\n",
                profile->unmatched_ops.size(), profile->unmatched_ops.front().c_str());
  }
  return 0;
}

const CommandRegistrar kRegistrar({
    .name = "xla-trace",
    .summary = "XLA's own profile mapped onto its fusions, op names and source lines",
    .positionals = {{"TRACE.json[.gz]", "XLA's trace (jax.profiler, Chrome trace format)"},
                    {"MODULE.hlo|RUN.fsdb", "the module the trace ran, or a recording of it"}},
    .flags =
        {
            Switch("--save", "store the profile in the recording (for fusescope hot)"),
            Integer("--top", "K", "how many ops to list").Default("20"),
            JsonFlag(),
        },
    .run = RunXlaTrace,
    .runs_kernels = false,
});

}  // namespace
}  // namespace fusescope::app
