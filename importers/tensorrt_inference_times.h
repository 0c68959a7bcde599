#ifndef FUSESCOPE_IMPORTERS_TENSORRT_INFERENCE_TIMES_H_
#define FUSESCOPE_IMPORTERS_TENSORRT_INFERENCE_TIMES_H_

// The timing of each inference trtexec ran, as `trtexec --exportTimes=FILE` writes it: an
// array with one object per inference,
//
//   {"startEnqMs", "endEnqMs", "startH2dMs", "endH2dMs", "startComputeMs", "endComputeMs",
//    "startD2hMs", "endD2hMs", "h2dMs", "computeMs", "d2hMs", "latencyMs", "endToEndMs"}
//
// all in milliseconds. latencyMs (host-to-device copy, compute and device-to-host copy) is
// what trtexec reports as the latency; it is required. Older trtexec named the copies
// "in"/"out" (startInMs, inMs, ...): read too. A record without latencyMs, or with a value that
// is no finite number, is an error "FILE:LINE:COLUMN: cause".

#include <string>
#include <string_view>
#include <vector>

#include "ir/status.h"

namespace fusescope::ir {

struct TensorRtInference {
  double latency_ms = 0;
  double compute_ms = 0;  // computeMs, else endComputeMs - startComputeMs; 0 when neither
  double h2d_ms = 0;
  double d2h_ms = 0;
  double start_ms = 0;  // startEnqMs (or startComputeMs): when it began
};

struct TensorRtInferenceTimes {
  std::vector<TensorRtInference> inferences;  // in written order
};

StatusOr<TensorRtInferenceTimes> ParseTensorRtInferenceTimes(std::string_view text,
                                                             const std::string& path);

}  // namespace fusescope::ir

#endif  // FUSESCOPE_IMPORTERS_TENSORRT_INFERENCE_TIMES_H_
