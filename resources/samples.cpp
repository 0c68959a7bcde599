#include "resources/samples.h"

namespace fusescope::resources {
namespace detail {
struct EmbeddedSample {
  std::string_view file;
  std::string_view text;
};
extern const EmbeddedSample kEmbeddedSamples[];
extern const int kEmbeddedSamplesCount;
}  // namespace detail

std::vector<SampleModel> SampleModels() {
  std::vector<SampleModel> samples;
  for (int i = 0; i < detail::kEmbeddedSamplesCount; ++i) {
    samples.push_back({detail::kEmbeddedSamples[i].file, detail::kEmbeddedSamples[i].text});
  }
  return samples;
}

SampleModel FindSample(std::string_view name) {
  for (const SampleModel& sample : SampleModels()) {
    if (sample.name == name) return sample;
  }
  return {};
}

SampleModel DefaultSample() { return FindSample(kDefaultSampleName); }

}  // namespace fusescope::resources
