#include "importers/tensorrt_inference_times.h"

#include "importers/tensorrt_json.h"

namespace fusescope::ir {
namespace {

// The first of `keys` the record has; {false, 0} when it has none.
StatusOr<TensorRtNumber> FirstOf(const TensorRtJsonDocument& document, const JsonValue& record,
                                 std::initializer_list<std::string_view> keys) {
  for (std::string_view key : keys) {
    auto number = document.NumberMember(record, key);
    if (!number.ok() || number->present) return number;
  }
  return TensorRtNumber{};
}

StatusOr<TensorRtInference> ReadInference(const TensorRtJsonDocument& document,
                                          const JsonValue& record) {
  if (!record.is_object()) return document.ErrorAt(record, "an inference should be an object");
  TensorRtInference inference;
  auto latency = document.NumberMember(record, "latencyMs");
  if (!latency.ok()) return latency.status();
  if (!latency->present) return document.ErrorAt(record, "an inference needs \"latencyMs\"");
  if (latency->value < 0) return document.ErrorAt(*record.Find("latencyMs"), "a negative latency");
  inference.latency_ms = latency->value;
  auto compute = document.NumberMember(record, "computeMs");
  auto start_compute = document.NumberMember(record, "startComputeMs");
  auto end_compute = document.NumberMember(record, "endComputeMs");
  auto h2d = FirstOf(document, record, {"h2dMs", "inMs"});
  auto d2h = FirstOf(document, record, {"d2hMs", "outMs"});
  auto start = FirstOf(document, record, {"startEnqMs", "startComputeMs"});
  for (const auto* read : {&compute, &start_compute, &end_compute, &h2d, &d2h, &start}) {
    if (!read->ok()) return read->status();
  }
  if (compute->present) {
    inference.compute_ms = compute->value;
  } else if (start_compute->present && end_compute->present) {
    inference.compute_ms = end_compute->value - start_compute->value;
  }
  inference.h2d_ms = h2d->value;
  inference.d2h_ms = d2h->value;
  inference.start_ms = start->value;
  return inference;
}

}  // namespace

StatusOr<TensorRtInferenceTimes> ParseTensorRtInferenceTimes(std::string_view text,
                                                             const std::string& path) {
  auto document = TensorRtJsonDocument::Parse(text, path);
  if (!document.ok()) return document.status();
  const JsonValue& root = document->root();
  if (!root.is_array()) {
    return document->ErrorAt(root,
                             "not TensorRT inference times (expected an array of "
                             "inferences, as trtexec --exportTimes writes)");
  }
  TensorRtInferenceTimes times;
  for (const JsonValue& record : root.array()) {
    auto inference = ReadInference(*document, record);
    if (!inference.ok()) return inference.status();
    times.inferences.push_back(*inference);
  }
  return times;
}

}  // namespace fusescope::ir
