#include "app/cli/model_loader.h"

#include <fstream>

#include "ir/hlo_parser.h"
#include "resources/samples.h"

namespace fusescope::app {

bool LooksLikeRecording(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  char magic[16] = {};
  file.read(magic, sizeof magic);
  return file.gcount() == sizeof magic && std::string(magic, 15) == "SQLite format 3";
}

StatusOr<LoadedModel> LoadModel(const std::string& what, std::optional<int> pass) {
  constexpr std::string_view kSamplePrefix = "sample:";
  if (what.rfind(kSamplePrefix, 0) == 0) {
    const std::string name = what.substr(kSamplePrefix.size());
    const resources::SampleModel sample = resources::FindSample(name);
    if (sample.text.empty()) return Status::Error("no built-in sample named '" + name + "'");
    auto module = ir::ParseHloModule(sample.text, what);
    if (!module.ok()) return module.status();
    return LoadedModel{std::move(module).value(), what};
  }
  if (LooksLikeRecording(what)) {
    (void)pass;
    return Status::Error(what + ": recordings are not supported by this build");
  }
  auto module = ir::ParseHloFile(what);
  if (!module.ok()) return module.status();
  return LoadedModel{std::move(module).value(), what};
}

}  // namespace fusescope::app
