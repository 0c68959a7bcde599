#ifndef FUSESCOPE_RESOURCES_SAMPLES_H_
#define FUSESCOPE_RESOURCES_SAMPLES_H_

// The built-in sample models, embedded at build time from resources/samples/*.hlo.

#include <string_view>
#include <vector>

namespace fusescope::resources {

struct SampleModel {
  std::string_view name;  // file name without extension: "mlp", "bert_encoder", ...
  std::string_view text;  // HLO text
};

std::vector<SampleModel> SampleModels();
// nullptr-like empty text when not found.
SampleModel FindSample(std::string_view name);
// The model opened when the user gives none.
SampleModel DefaultSample();
inline constexpr std::string_view kDefaultSampleName = "mlp";

}  // namespace fusescope::resources

#endif  // FUSESCOPE_RESOURCES_SAMPLES_H_
