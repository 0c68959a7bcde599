#include "app/cli/model_loader.h"

#include <charconv>
#include <fstream>
#include <iostream>
#include <sstream>

#include "ir/hlo_parser.h"
#include "ir/hlo_printer.h"
#ifdef FUSESCOPE_HAVE_ONNX
#include "ir/import/onnx/onnx_importer.h"
#endif
#include "recording/recording_store.h"
#include "resources/samples.h"

namespace fusescope::app {
namespace {

bool IsOnnxPath(const std::string& path) {
  return path.size() >= 5 && path.compare(path.size() - 5, 5, ".onnx") == 0;
}

StatusOr<std::unique_ptr<ir::Module>> ImportOnnx(const std::string& path,
                                                 const ModelLoadOptions& options) {
#ifdef FUSESCOPE_HAVE_ONNX
  ir::onnx_import::OnnxImportOptions import_options;
  import_options.dimension_sizes = options.dimension_sizes;
  auto imported = ir::onnx_import::ImportOnnxFile(path, import_options);
  if (!imported.ok()) return imported.status();
  for (const std::string& warning : imported->warnings) {
    std::cerr << "fusescope: warning: " << path << ": " << warning << '\n';
  }
  return std::move(imported->module);
#else
  (void)options;
  return Status::Error(path + ": this fusescope was built without libonnx and cannot read ONNX models");
#endif
}

}  // namespace

StatusOr<ModelLoadOptions> ModelLoadOptionsFromDims(const std::vector<std::string>& dims) {
  ModelLoadOptions options;
  for (const std::string& dim : dims) {
    const size_t equals = dim.find('=');
    int64_t size = 0;
    const char* begin = equals == std::string::npos ? nullptr : dim.data() + equals + 1;
    const char* end = dim.data() + dim.size();
    if (equals == 0 || equals == std::string::npos ||
        std::from_chars(begin, end, size).ptr != end || begin == end || size < 1) {
      return Status::Error("--dim " + dim + ": expected NAME=N with N a positive integer");
    }
    options.dimension_sizes[dim.substr(0, equals)] = size;
  }
  return options;
}

bool LooksLikeRecording(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  char magic[16] = {};
  file.read(magic, sizeof magic);
  return file.gcount() == sizeof magic && std::string(magic, 15) == "SQLite format 3";
}

StatusOr<ModelText> ReadModelText(const std::string& what, const ModelLoadOptions& options) {
  constexpr std::string_view kSamplePrefix = "sample:";
  if (what.rfind(kSamplePrefix, 0) == 0) {
    const std::string name = what.substr(kSamplePrefix.size());
    const resources::SampleModel sample = resources::FindSample(name);
    if (sample.text.empty()) return Status::Error("no built-in sample named '" + name + "'");
    return ModelText{std::string(sample.text), what};
  }
  if (IsOnnxPath(what)) {
    auto module = ImportOnnx(what, options);
    if (!module.ok()) return module.status();
    return ModelText{ir::PrintModule(**module), what};
  }
  std::ifstream file(what, std::ios::binary);
  if (!file) return Status::Error(what + ": cannot open file");
  std::ostringstream text;
  text << file.rdbuf();
  return ModelText{text.str(), what};
}

StatusOr<LoadedModel> LoadModel(const std::string& what, std::optional<int64_t> pass,
                                const ModelLoadOptions& options) {
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
    return LoadedModel{std::move(module).value(), what, index};
  }
  if (IsOnnxPath(what)) {
    auto module = ImportOnnx(what, options);
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
