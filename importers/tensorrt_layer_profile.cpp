#include "importers/tensorrt_layer_profile.h"

#include "importers/tensorrt_json.h"

namespace fusescope::ir {
namespace {

StatusOr<TensorRtLayerTime> ReadLayerTime(const TensorRtJsonDocument& document,
                                          const JsonValue& record) {
  TensorRtLayerTime time;
  const JsonValue* name = record.Find("name");
  if (!name->is_string()) return document.ErrorAt(*name, "\"name\" should be a layer name");
  time.name = name->string();
  auto total = document.NumberMember(record, "timeMs");
  if (!total.ok()) return total.status();
  auto average = document.NumberMember(record, "averageMs");
  if (!average.ok()) return average.status();
  auto median = document.NumberMember(record, "medianMs");
  if (!median.ok()) return median.status();
  auto percentage = document.NumberMember(record, "percentage");
  if (!percentage.ok()) return percentage.status();
  if (!total->present && !average->present) {
    return document.ErrorAt(record,
                            "layer \"" + time.name + "\" has neither \"timeMs\" nor \"averageMs\"");
  }
  for (const TensorRtNumber* number : {&*total, &*average, &*median}) {
    if (number->value < 0)
      return document.ErrorAt(record, "layer \"" + time.name + "\" has a negative time");
  }
  time.total_ms = total->value;
  time.average_ms = average->value;
  time.has_median = median->present;
  time.median_ms = median->present ? median->value : average->value;
  time.percentage = percentage->value;
  return time;
}

}  // namespace

StatusOr<TensorRtLayerProfile> ParseTensorRtLayerProfile(std::string_view text,
                                                         const std::string& path) {
  auto document = TensorRtJsonDocument::Parse(text, path);
  if (!document.ok()) return document.status();
  const JsonValue& root = document->root();
  if (!root.is_array()) {
    return document->ErrorAt(root,
                             "not a TensorRT layer profile (expected an array of records, "
                             "as trtexec --exportProfile writes)");
  }
  TensorRtLayerProfile profile;
  for (const JsonValue& record : root.array()) {
    if (!record.is_object())
      return document->ErrorAt(record, "a profile record should be an object");
    if (record.Find("name") == nullptr) {
      auto count = document->NumberMember(record, "count");
      if (!count.ok()) return count.status();
      if (!count->present) {
        return document->ErrorAt(record, "a profile record needs \"name\" (a layer) or \"count\"");
      }
      if (count->value < 0 || count->value > 9.0e15) {
        return document->ErrorAt(*record.Find("count"),
                                 "\"count\" should be a number of inferences");
      }
      profile.count = static_cast<int64_t>(count->value);
      continue;
    }
    auto time = ReadLayerTime(*document, record);
    if (!time.ok()) return time.status();
    profile.layers.push_back(std::move(*time));
  }
  return profile;
}

}  // namespace fusescope::ir
