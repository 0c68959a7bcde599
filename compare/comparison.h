#ifndef FUSESCOPE_COMPARE_COMPARISON_H_
#define FUSESCOPE_COMPARE_COMPARISON_H_

// One model through several compilers, measured the same way (compare/adapters/README.md).
// The harness owns everything that must be equal for all: the shapes, the inputs (seeded once
// per shape and written as .npz, the same bytes for every compiler), the reference answers
// (our interpreter in the model's own types and widened to f64), the statistics (p50/p95/p99
// with outliers counted, never averaged away) and the judgement of every output. Each
// compiler is a system under test in a process of its own with a time limit; what goes wrong
// there (not installed, crashed, timed out, an answer that breaks the protocol, outputs of
// the wrong shape) is a finding about that compiler, and the comparison goes on.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "compare/peer_protocol.h"
#include "ir/module.h"
#include "ir/status.h"
#include "profiler/statistics.h"

namespace fusescope::compare {

struct ShapeChoice {
  std::string name;                     // "b8_s64", or "static"
  std::map<std::string, int64_t> dims;  // symbolic dimension sizes
  int64_t batch = 1;                    // items per call, for throughput
};

// The model at one shape, as our importer reads it; the CLI's one front door provides it.
using ModelAtShape = std::function<StatusOr<std::unique_ptr<ir::Module>>(
    const std::map<std::string, int64_t>& dims)>;

struct ComparisonSpec {
  std::string model_path;
  std::string model_format;              // "onnx", "stablehlo", "hlo"
  std::vector<std::string> input_names;  // the model's inputs in order (.npz keys)
  // The model's ops in its order (an ONNX model's node names, which an op our importer folds
  // away, an Identity, still names); empty: those our import of the model names.
  std::vector<std::string> model_ops;
  std::vector<std::string> compilers;
  std::vector<ShapeChoice> shapes;
  ModelAtShape load;
  int64_t reps = 100;
  int64_t warmup = 10;
  int64_t threads = 0;
  double time_limit_s = 900;  // per compiler, all shapes together
  bool dump = true;
  bool profile = true;
  int64_t tvm_trials = 64;
  uint64_t seed = 0;
  double rtol = 1e-4;  // judging outputs (runtime/output_judgement.h)
  double atol = 1e-5;
  std::string work_dir;         // scratch: inputs, conversions, each peer's files
  std::string executable_path;  // this executable, for our own adapter
  std::function<void(const std::string& line)> progress;
};

// One compiler variant at one shape: the row of the comparison table.
struct ComparisonRow {
  std::string compiler;
  std::string variant;
  std::string shape;
  int64_t batch = 1;
  std::string error;  // the build's or the run's, or the harness's finding; empty when it ran
  double build_s = -1;
  double tuning_s = 0;
  int64_t trials = 0;
  bool shared_build = false;  // one build served several shapes (dynamic shapes)
  int64_t build_peak_rss_bytes = -1;
  int64_t run_peak_rss_bytes = -1;
  int64_t artifact_bytes = -1;
  std::vector<double> times_us;
  profiler::SampleSummary latency_us;
  double throughput_per_s = 0;  // batch items per second at the median latency
  std::string verdict;          // runtime::OutputVerdictName, or "" when not judged
  double max_abs_error = -1;    // against the f64 answer
  double max_rel_error = -1;    // that over the largest |exact| (normwise)
  std::string judgement;        // the verdict's sentence, or why there is none
};

struct PeerOutcome {
  std::string compiler;
  // "ok", "not installed", "not applicable", "crashed", "timed out", "broke the protocol",
  // "failed" (it answered, with an error of the compiler's own).
  std::string status;
  std::string message;  // one line: the install command, the crash, the error
  std::string install;
  std::map<std::string, std::string> versions;
  std::string input_given;     // what the harness gave it ("the ONNX file", "HLO text ...")
  std::string input_received;  // what the adapter says it did with it
  bool dynamic_shapes = false;
  std::vector<PeerBuild::UnsupportedOp> unsupported_ops;
  std::vector<PeerKernel> kernels;
  std::string kernels_note;
  std::vector<PeerDump> dumps;
  double wall_s = 0;
  int64_t process_peak_rss_bytes = -1;
  std::string log_path;  // the adapter's stderr
};

struct Comparison {
  std::string model;
  std::string model_format;
  std::vector<ShapeChoice> shapes;
  int64_t reps = 0;
  int64_t warmup = 0;
  int64_t threads = 0;
  std::string reference_note;  // how the reference answers were made, or why they are missing
  // The model's ops in its order: ComparisonSpec::model_ops, else the op_name metadata our
  // importer gave each instruction at the first shape (an HLO instruction's own name where it
  // has none), constants and parameters left out. The rows of the op-following table.
  std::vector<std::string> model_ops;
  std::vector<PeerOutcome> peers;
  std::vector<ComparisonRow> rows;

  std::string ToJson() const;
  static StatusOr<Comparison> FromJson(std::string_view text);
};

// Runs every compiler of `spec` on every shape. An error only when the comparison cannot
// start (the model does not load at a shape, the scratch folder cannot be written); every
// compiler's failure is in its PeerOutcome and rows.
StatusOr<Comparison> RunComparison(const ComparisonSpec& spec);

// Fills a row's statistics from its times (used when reading back, too).
void SummarizeRow(ComparisonRow& row);

}  // namespace fusescope::compare

#endif  // FUSESCOPE_COMPARE_COMPARISON_H_
