#ifndef FUSESCOPE_COMPARE_PEER_PROTOCOL_H_
#define FUSESCOPE_COMPARE_PEER_PROTOCOL_H_

// The messages between the comparison harness and one compiler's adapter (protocol version 1,
// compare/adapters/README.md): a request the harness writes, a response the adapter answers.
// Both directions are here so that the harness and our own adapter (`fusescope compare-peer`)
// cannot drift apart. Parsing a response checks every field it uses: an answer that breaks
// the protocol is refused with the place ("runs[2].times_us: expected an array of numbers"),
// so a misbehaving adapter is the harness's finding, never a crash.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ir/status.h"

namespace fusescope::compare {

inline constexpr int kProtocolVersion = 1;

struct RequestShape {
  std::string name;                     // "b8_s64"
  std::map<std::string, int64_t> dims;  // symbolic dimension sizes; empty for a static model
  std::string model;                    // a per-shape conversion, or empty
  std::string model_format;             // its format, when `model` is set
  std::string inputs;                   // .npz, one array per model input, in input order
};

struct PeerRequest {
  std::string compiler;
  std::string model;
  std::string model_format;  // "onnx", "stablehlo", "hlo"
  std::string work_dir;
  std::vector<RequestShape> shapes;
  int64_t reps = 100;
  int64_t warmup = 10;
  int64_t threads = 0;
  double deadline_s = 600;
  bool dump = false;
  bool profile = false;
  int64_t tvm_trials = 64;

  std::string ToJson() const;
  static StatusOr<PeerRequest> Parse(std::string_view text);
};

struct PeerBuild {
  std::string variant;
  std::vector<std::string> shapes;  // the shapes this build served
  double build_s = 0;
  double tuning_s = 0;
  int64_t trials = 0;
  int64_t baseline_rss_bytes = -1;  // -1: not reported
  int64_t build_peak_rss_bytes = -1;
  int64_t artifact_bytes = -1;
  std::string artifact;
  std::string error;  // the compiler's own text; empty when the build succeeded
  struct UnsupportedOp {
    std::string op;
    std::string error;
  };
  std::vector<UnsupportedOp> unsupported_ops;
};

struct PeerRun {
  std::string variant;
  std::string shape;
  std::vector<double> times_us;
  int64_t run_peak_rss_bytes = -1;
  std::string outputs;  // .npz of the outputs in model order
  std::string error;
};

struct PeerKernel {
  std::string variant;
  std::string shape;
  std::string name;
  double time_us = -1;           // -1: the compiler's profiler gave no time for it
  std::vector<std::string> ops;  // input ops the kernel holds, when the compiler says
  std::string source;            // which profiler reported it
};

struct PeerDump {
  std::string kind;  // "xla-dump", "mlir-log", "tvm-dumpir", ...
  std::string path;
};

struct PeerResponse {
  std::string compiler;
  bool available = true;
  std::string install;
  std::map<std::string, std::string> versions;
  std::string input_received;
  bool dynamic_shapes = false;
  std::vector<PeerBuild> builds;
  std::vector<PeerRun> runs;
  std::vector<PeerKernel> kernels;
  std::string kernels_note;
  std::vector<PeerDump> dumps;
  std::string error;

  std::string ToJson() const;
  static StatusOr<PeerResponse> Parse(std::string_view text);
};

}  // namespace fusescope::compare

#endif  // FUSESCOPE_COMPARE_PEER_PROTOCOL_H_
