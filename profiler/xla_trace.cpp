#include "profiler/xla_trace.h"

#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "ir/json_reader.h"

namespace fusescope::profiler {
namespace {

bool IsGzip(const std::string& bytes) {
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
         static_cast<unsigned char>(bytes[1]) == 0x8b;
}

StatusOr<std::string> Gunzip(const std::string& compressed, const std::string& path,
                             int64_t max_bytes) {
  z_stream stream{};
  if (inflateInit2(&stream, 15 + 32) != Z_OK) return Status::Error(path + ": cannot inflate");
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
  stream.avail_in = static_cast<uInt>(compressed.size());
  std::string out;
  char buffer[1 << 16];
  int result = Z_OK;
  while (result != Z_STREAM_END) {
    stream.next_out = reinterpret_cast<Bytef*>(buffer);
    stream.avail_out = sizeof(buffer);
    result = inflate(&stream, Z_NO_FLUSH);
    if (result != Z_OK && result != Z_STREAM_END) {
      inflateEnd(&stream);
      return Status::Error(path + ": corrupt gzip data at compressed byte " +
                           std::to_string(stream.total_in));
    }
    out.append(buffer, sizeof(buffer) - stream.avail_out);
    if (static_cast<int64_t>(out.size()) > max_bytes) {
      inflateEnd(&stream);
      return Status::Error(path + ": decompresses to more than " + std::to_string(max_bytes) +
                           " bytes; refused");
    }
    if (result == Z_OK && stream.avail_in == 0 && stream.avail_out != 0) {
      inflateEnd(&stream);
      return Status::Error(path + ": gzip data ends early (truncated file?)");
    }
  }
  inflateEnd(&stream);
  return out;
}

double Number(const JsonValue& event, std::string_view key) {
  const JsonValue* value = event.Find(key);
  return value && value->is_number() ? value->number() : 0;
}

// Thread and process ids as written; anything not an integer in range (a corrupt file) is 0.
int64_t Id(const JsonValue& event, std::string_view key) {
  const double value = Number(event, key);
  if (!std::isfinite(value) || value < -9.2e18 || value > 9.2e18) return 0;
  return static_cast<int64_t>(value);
}

std::string MetadataOpName(const ir::Instruction& instruction) {
  return instruction.metadata().String("op_name");
}

void CollectAttribution(const ir::Module& module, const ir::Instruction& instruction,
                        OpProfile& profile) {
  std::vector<const ir::Instruction*> held;
  if (instruction.opcode() == ir::Opcode::kFusion && instruction.fused_computation()) {
    for (const auto& inner : instruction.fused_computation()->instructions()) {
      if (inner->opcode() != ir::Opcode::kParameter) held.push_back(inner.get());
    }
  } else {
    held.push_back(&instruction);
  }
  std::set<std::string> names;
  std::set<std::pair<std::string, int64_t>> lines;
  for (const ir::Instruction* op : held) {
    const std::string op_name = MetadataOpName(*op);
    if (!op_name.empty() && names.insert(op_name).second) profile.op_names.push_back(op_name);
    std::optional<ir::SourceLocation> where = module.ResolveSource(op->metadata());
    if (where && !where->file.empty() && lines.insert({where->file, where->line}).second) {
      profile.source_lines.push_back({where->file, where->line, where->function});
    }
  }
}

// One run of the module: its op events on every thread.
struct Run {
  std::vector<const TraceEvent*> ops;
  double start_us = 0;
  double end_us = 0;
};

// The module's op events by run_id, runs in the order they started (run ids are not ordered).
std::vector<Run> GroupByRun(const std::vector<const TraceEvent*>& ours) {
  std::map<std::string, Run> by_id;
  for (const TraceEvent* op : ours) {
    const double end = op->start_us + op->duration_us;
    auto [it, fresh] = by_id.try_emplace(op->run_id);
    Run& run = it->second;
    run.start_us = fresh ? op->start_us : std::min(run.start_us, op->start_us);
    run.end_us = fresh ? end : std::max(run.end_us, end);
    run.ops.push_back(op);
  }
  std::vector<Run> runs;
  for (auto& [id, run] : by_id) runs.push_back(std::move(run));
  std::stable_sort(runs.begin(), runs.end(),
                   [](const Run& a, const Run& b) { return a.start_us < b.start_us; });
  return runs;
}

// The time at least one of the run's ops was running: concurrent ops count once.
double BusyUs(const Run& run) {
  std::vector<std::pair<double, double>> spans;
  for (const TraceEvent* op : run.ops) {
    spans.push_back({op->start_us, op->start_us + op->duration_us});
  }
  std::sort(spans.begin(), spans.end());
  double busy = 0;
  double from = spans.front().first;
  double to = spans.front().second;
  for (const auto& [start, end] : spans) {
    if (start > to) {
      busy += to - from;
      from = start;
    }
    to = std::max(to, end);
  }
  return busy + (to - from);
}

int64_t ThreadCount(const Run& run) {
  std::set<std::pair<int64_t, int64_t>> threads;
  for (const TraceEvent* op : run.ops) threads.insert({op->pid, op->tid});
  return static_cast<int64_t>(threads.size());
}

struct WallTimes {
  double span_us = 0;     // the runs' latencies summed
  double busy_us = 0;     // of that, when some op ran
  double op_time_us = 0;  // the ops' durations summed, concurrent ones each
};

// Fills the profile's per-run figures; the sums are the denominators and numerators of its
// shares.
WallTimes MeasureRuns(const std::vector<Run>& runs, TraceProfile& profile) {
  WallTimes times;
  for (const Run& run : runs) {
    profile.run_latency_us.push_back(run.end_us - run.start_us);
    times.span_us += run.end_us - run.start_us;
    times.busy_us += BusyUs(run);
    for (const TraceEvent* op : run.ops) times.op_time_us += op->duration_us;
    profile.max_threads = std::max(profile.max_threads, ThreadCount(run));
  }
  profile.runs = static_cast<int64_t>(runs.size());
  profile.module_latency_us = Summarize(profile.run_latency_us);
  return times;
}

// Per op, one sample per run it ran in (its events there summed: loops run an op many
// times), in run order.
std::map<std::string, std::vector<double>> SamplesByOp(const std::vector<Run>& runs) {
  std::map<std::string, std::vector<double>> samples;
  for (const Run& run : runs) {
    std::map<std::string, double> in_run;
    for (const TraceEvent* op : run.ops) in_run[op->hlo_op] += op->duration_us;
    for (const auto& [name, micros] : in_run) samples[name].push_back(micros);
  }
  return samples;
}

}  // namespace

StatusOr<XlaTrace> ParseXlaTrace(std::string_view json, const std::string& source_name) {
  StatusOr<JsonValue> document = ParseJson(json);
  if (!document.ok()) return Status::Error(source_name + ": " + document.message());
  const JsonValue* events = nullptr;
  if (document->is_array()) {
    events = &*document;
  } else if (document->is_object()) {
    events = document->Find("traceEvents");
  }
  if (events == nullptr || !events->is_array()) {
    return Status::Error(source_name + ": not a Chrome/Perfetto trace (no traceEvents array)");
  }
  XlaTrace trace;
  std::set<std::string> modules;
  for (const JsonValue& event : events->array()) {
    if (!event.is_object() || event.Text("ph") != "X") continue;
    ++trace.event_count;
    TraceEvent parsed;
    parsed.name = event.Text("name");
    parsed.pid = Id(event, "pid");
    parsed.tid = Id(event, "tid");
    parsed.start_us = Number(event, "ts");
    parsed.duration_us = Number(event, "dur");
    if (const JsonValue* args = event.Find("args"); args && args->is_object()) {
      parsed.hlo_module = args->Text("hlo_module");
      parsed.hlo_op = args->Text("hlo_op");
      parsed.run_id = args->Text("run_id");
    }
    if (!parsed.hlo_op.empty()) {
      if (modules.insert(parsed.hlo_module).second) trace.modules.push_back(parsed.hlo_module);
      trace.op_events.push_back(std::move(parsed));
    }
  }
  return trace;
}

StatusOr<XlaTrace> ReadXlaTrace(const std::string& path, int64_t max_bytes) {
  std::error_code error;
  const auto size = std::filesystem::file_size(path, error);
  if (error) return Status::Error(path + ": " + error.message());
  if (static_cast<int64_t>(size) > max_bytes) {
    return Status::Error(path + ": " + std::to_string(size) + " bytes, more than the " +
                         std::to_string(max_bytes) + " a trace may have");
  }
  std::ifstream file(path, std::ios::binary);
  if (!file) return Status::Error(path + ": cannot open");
  std::string bytes(static_cast<size_t>(size), '\0');
  if (!file.read(bytes.data(), static_cast<std::streamsize>(size))) {
    return Status::Error(path + ": cannot read");
  }
  return DecodeXlaTrace(std::move(bytes), path, max_bytes);
}

StatusOr<XlaTrace> DecodeXlaTrace(std::string bytes, const std::string& source_name,
                                  int64_t max_bytes) {
  if (IsGzip(bytes)) {
    StatusOr<std::string> text = Gunzip(bytes, source_name, max_bytes);
    if (!text.ok()) return text.status();
    bytes = std::move(*text);
  }
  return ParseXlaTrace(bytes, source_name);
}

StatusOr<TraceProfile> MapTraceOntoModule(const XlaTrace& trace, const ir::Module& module) {
  TraceProfile profile;
  profile.module_name = module.name();
  std::vector<const TraceEvent*> ours;
  for (const TraceEvent& event : trace.op_events) {
    if (event.hlo_module == module.name()) ours.push_back(&event);
  }
  if (ours.empty()) {
    std::string held;
    for (const std::string& name : trace.modules) held += (held.empty() ? "" : ", ") + name;
    return Status::Error(
        "the trace holds no run of module " + module.name() +
        (held.empty() ? std::string(" (it names no HLO ops at all)") : " (it holds " + held + ")"));
  }
  const std::vector<Run> runs = GroupByRun(ours);
  const WallTimes times = MeasureRuns(runs, profile);
  const std::map<std::string, std::vector<double>> samples_by_op = SamplesByOp(runs);
  int64_t matched = 0;
  for (const auto& [name, samples] : samples_by_op) {
    const ir::Instruction* instruction = module.FindInstruction(name);
    if (instruction == nullptr) {
      profile.unmatched_ops.push_back(name);
      continue;
    }
    ++matched;
    OpProfile op;
    op.instruction = instruction;
    op.name = name;
    op.samples_us = samples;
    op.duration_us = Summarize(samples);
    for (double sample : samples) op.total_us += sample;
    CollectAttribution(module, *instruction, op);
    profile.ops.push_back(std::move(op));
  }
  if (matched * 2 < static_cast<int64_t>(samples_by_op.size())) {
    return Status::Error("the trace's ops of " + module.name() +
                         " are mostly not in this module (" +
                         std::to_string(profile.unmatched_ops.size()) + " of " +
                         std::to_string(samples_by_op.size()) + " unknown, e.g. " +
                         profile.unmatched_ops.front() + "): a trace of another compilation?");
  }
  const auto over_span = [&](double micros) {
    return times.span_us > 0 ? micros / times.span_us : 0;
  };
  for (OpProfile& op : profile.ops) op.share = over_span(op.total_us);
  profile.op_time_share = over_span(times.op_time_us);
  profile.covered_share = over_span(times.busy_us);
  std::sort(profile.ops.begin(), profile.ops.end(),
            [](const OpProfile& a, const OpProfile& b) { return a.total_us > b.total_us; });
  return profile;
}

Profile ToProfile(const TraceProfile& trace, int64_t snapshot_index, std::string label) {
  Profile profile;
  profile.label = std::move(label);
  profile.source = "xla-trace";
  profile.device = "XLA (its own trace of " + trace.module_name + ")";
  profile.settings = "runs=" + std::to_string(trace.runs);
  profile.created_at = UtcNow();
  profile.snapshot_index = snapshot_index;
  profile.run_latency_us = trace.run_latency_us;
  for (const OpProfile& op : trace.ops) {
    KernelTime kernel;
    kernel.instruction_id = op.instruction ? op.instruction->id() : -1;
    kernel.name = op.name;
    kernel.samples_us = op.samples_us;
    kernel.total_us = op.total_us;
    kernel.share = op.share;
    profile.kernels.push_back(std::move(kernel));
  }
  return profile;
}

}  // namespace fusescope::profiler
