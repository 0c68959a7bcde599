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
    } else if (parsed.name == "ThunkExecutor::Execute") {
      trace.execution_events.push_back(std::move(parsed));
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
  // Per op, the time of each run (an op can run several times in one run: loops).
  std::map<std::string, std::map<std::string, double>> per_op_run;
  std::vector<const TraceEvent*> ours;
  for (const TraceEvent& event : trace.op_events) {
    if (event.hlo_module != module.name()) continue;
    ours.push_back(&event);
    per_op_run[event.hlo_op][event.run_id] += event.duration_us;
  }
  if (ours.empty()) {
    std::string held;
    for (const std::string& name : trace.modules) held += (held.empty() ? "" : ", ") + name;
    return Status::Error(
        "the trace holds no run of module " + module.name() +
        (held.empty() ? std::string(" (it names no HLO ops at all)") : " (it holds " + held + ")"));
  }
  // A run's latency: the executor event that contains the run's ops.
  std::vector<double> latencies;
  for (const TraceEvent& execution : trace.execution_events) {
    const double end = execution.start_us + execution.duration_us;
    const bool holds_ours = std::any_of(ours.begin(), ours.end(), [&](const TraceEvent* op) {
      return op->tid == execution.tid && op->pid == execution.pid &&
             op->start_us >= execution.start_us && op->start_us <= end;
    });
    if (holds_ours) latencies.push_back(execution.duration_us);
  }
  std::set<std::string> runs;
  for (const TraceEvent* op : ours) runs.insert(op->run_id);
  profile.runs = static_cast<int64_t>(runs.size());
  profile.module_latency_us = Summarize(latencies);
  profile.run_latency_us = latencies;
  const double module_total =
      profile.module_latency_us.mean * static_cast<double>(latencies.size());

  int64_t matched = 0;
  double ops_total = 0;
  for (const auto& [name, by_run] : per_op_run) {
    const ir::Instruction* instruction = module.FindInstruction(name);
    if (instruction == nullptr) {
      profile.unmatched_ops.push_back(name);
      continue;
    }
    ++matched;
    OpProfile op;
    op.instruction = instruction;
    op.name = name;
    std::vector<double> samples;
    for (const auto& [run, micros] : by_run) samples.push_back(micros);
    op.duration_us = Summarize(samples);
    for (double sample : samples) op.total_us += sample;
    op.samples_us = std::move(samples);
    ops_total += op.total_us;
    CollectAttribution(module, *instruction, op);
    profile.ops.push_back(std::move(op));
  }
  if (matched * 2 < static_cast<int64_t>(per_op_run.size())) {
    return Status::Error(
        "the trace's ops of " + module.name() + " are mostly not in this module (" +
        std::to_string(profile.unmatched_ops.size()) + " of " + std::to_string(per_op_run.size()) +
        " unknown, e.g. " + profile.unmatched_ops.front() + "): a trace of another compilation?");
  }
  const double denominator = module_total > 0 ? module_total : ops_total;
  for (OpProfile& op : profile.ops) op.share = denominator > 0 ? op.total_us / denominator : 0;
  profile.covered_share = denominator > 0 ? ops_total / denominator : 0;
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
