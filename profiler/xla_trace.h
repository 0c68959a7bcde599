#ifndef FUSESCOPE_PROFILER_XLA_TRACE_H_
#define FUSESCOPE_PROFILER_XLA_TRACE_H_

// Profiles recorded by XLA itself, mapped onto XLA's own module. jax.profiler traces
// (`create_perfetto_trace=True` writes perfetto_trace.json.gz, Chrome trace JSON) from
// XLA:CPU carry one complete event per thunk executed, named after the HLO instruction and
// with args {hlo_module, hlo_op, run_id}; jaxlib 0.10 writes one for every fusion, dot
// library call and copy. Mapped by name onto the after-optimizations module XLA compiled (its
// dump or `compile().as_text()`), each event's time lands on a real XLA fusion, and through
// that fusion's fused instructions' metadata on the model's op names and source lines.
//
// A run is told by its run_id, not by the runtime's events around it: XLA:CPU runs
// independent thunks on several threads, each under a `ThunkExecutor::Execute` event of its
// own, and in real traces a worker's event often goes on past its run's last thunk into the
// next run. The client's `ExecuteHelper` event returns once the thunks are dispatched, so no
// runtime event encloses a run either.

#include <cstdint>
#include <string>
#include <vector>

#include "ir/module.h"
#include "ir/status.h"
#include "profiler/profile.h"
#include "profiler/statistics.h"

namespace fusescope::profiler {

struct TraceEvent {
  std::string name;
  std::string hlo_module;  // args.hlo_module; "" on events of the runtime
  std::string hlo_op;      // args.hlo_op
  std::string run_id;      // args.run_id
  int64_t pid = 0;
  int64_t tid = 0;
  double start_us = 0;
  double duration_us = 0;
};

struct XlaTrace {
  std::vector<TraceEvent> op_events;  // events that name an HLO op
  std::vector<std::string> modules;   // hlo_module values seen, in order
  int64_t event_count = 0;            // all complete events read
};

// Reads a Chrome/Perfetto JSON trace, plain or gzip-compressed (by content, not name).
// Refuses files over `max_bytes` (compressed or not) before reading them whole, and says
// where a corrupt file stops making sense.
StatusOr<XlaTrace> ReadXlaTrace(const std::string& path, int64_t max_bytes = int64_t{1} << 30);
StatusOr<XlaTrace> ParseXlaTrace(std::string_view json, const std::string& source_name);
// The bytes of a trace file, gzip-compressed or not; decompression stops at `max_bytes`.
StatusOr<XlaTrace> DecodeXlaTrace(std::string bytes, const std::string& source_name,
                                  int64_t max_bytes = int64_t{1} << 30);

struct SourceLine {
  std::string file;
  int64_t line = 0;
  std::string function;
};

struct OpProfile {
  const ir::Instruction* instruction = nullptr;
  std::string name;
  std::vector<double> samples_us;        // per run it ran in: its events' time there, summed
  SampleSummary duration_us;             // of samples_us
  double total_us = 0;                   // all runs
  double share = 0;                      // total_us over the runs' latencies summed
  std::vector<std::string> op_names;     // metadata op_name of what the kernel holds
  std::vector<SourceLine> source_lines;  // distinct, in program order of the fused ops
};

// Latency and coverage count wall time, whatever the number of threads: a run's latency is
// its span, from its first op's start to its last op's end on any thread. Thread time, the
// ops' durations summed, can exceed it when thunks run concurrently, so the ops' shares can
// sum to more than 1; covered_share counts each instant once. The run figures count all the
// module's op events in the trace, whether this module text has the op or not.
struct TraceProfile {
  std::string module_name;
  int64_t runs = 0;
  std::vector<double> run_latency_us;  // one per run, in the order the runs started
  SampleSummary module_latency_us;     // of run_latency_us
  std::vector<OpProfile> ops;          // by total time, largest first
  // The time at least one op ran (the union of the ops' intervals) over the runs' spans: at
  // most 1; the rest is the runtime between thunks.
  double covered_share = 0;
  // The ops' summed time over the runs' spans: their shares' sum when all are matched.
  double op_time_share = 0;
  int64_t max_threads = 0;  // the most threads one run's ops ran on
  // Ops the trace names that the module does not have (another compilation?).
  std::vector<std::string> unmatched_ops;
};

// Maps the trace's events of `module` (by its name) onto its instructions. An error when the
// trace holds no run of this module (saying which modules it does hold), or when most of its
// op names are not in the module (a trace of another compilation).
StatusOr<TraceProfile> MapTraceOntoModule(const XlaTrace& trace, const ir::Module& module);

// The mapped trace as a profile of snapshot `snapshot_index` of a recording whose module
// that snapshot is (kernel ids are the module's instruction ids).
Profile ToProfile(const TraceProfile& trace, int64_t snapshot_index, std::string label);

}  // namespace fusescope::profiler

#endif  // FUSESCOPE_PROFILER_XLA_TRACE_H_
