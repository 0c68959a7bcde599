#include "app/cli/model_loader.h"

#include <fstream>
#include <sstream>

#include "ir/hlo_parser.h"
#include "recording/recording_store.h"
#include "resources/samples.h"

namespace fusescope::app {

bool LooksLikeRecording(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  char magic[16] = {};
  file.read(magic, sizeof magic);
  return file.gcount() == sizeof magic && std::string(magic, 15) == "SQLite format 3";
}

StatusOr<ModelText> ReadModelText(const std::string& what) {
  constexpr std::string_view kSamplePrefix = "sample:";
  if (what.rfind(kSamplePrefix, 0) == 0) {
    const std::string name = what.substr(kSamplePrefix.size());
    const resources::SampleModel sample = resources::FindSample(name);
    if (sample.text.empty()) return Status::Error("no built-in sample named '" + name + "'");
    return ModelText{std::string(sample.text), what};
  }
  std::ifstream file(what, std::ios::binary);
  if (!file) return Status::Error(what + ": cannot open file");
  std::ostringstream text;
  text << file.rdbuf();
  return ModelText{text.str(), what};
}

StatusOr<LoadedModel> LoadModel(const std::string& what, std::optional<int64_t> pass) {
  if (LooksLikeRecording(what)) {
    auto recording = recording::LoadRecording(what);
    if (!recording.ok()) return recording.status();
    const int64_t last = static_cast<int64_t>(recording->snapshots.size()) - 1;
    const int64_t index = pass ? *pass + 1 : last;
    if (index < 0 || index > last) {
      return Status::Error(what + ": no pass " + std::to_string(*pass) + " (the recording has " +
                           std::to_string(recording->passes.size()) + " passes, numbered 0.." +
                           std::to_string(last - 1) + ")");
    }
    auto module = recording->snapshots[static_cast<size_t>(index)].ToModule();
    if (!module.ok()) return module.status();
    return LoadedModel{std::move(module).value(), what};
  }
  auto text = ReadModelText(what);
  if (!text.ok()) return text.status();
  auto module = ir::ParseHloModule(text->text, text->display_name);
  if (!module.ok()) return module.status();
  return LoadedModel{std::move(module).value(), what};
}

}  // namespace fusescope::app
