#include "app/cli/model_loader.h"

#include <charconv>
#include <iostream>

#include "importers/input_kind.h"
#include "importers/open_any.h"

namespace fusescope::app {
namespace {

void PrintWarnings(const std::vector<std::string>& warnings) {
  for (const std::string& warning : warnings)
    std::cerr << "fusescope: warning: " << warning << '\n';
}

LoadedModel Loaded(importers::OpenedModule opened, const std::string& what) {
  return LoadedModel{std::move(opened.module), what, opened.snapshot_index,
                     std::move(opened.source_text), std::move(opened.source_language)};
}

}  // namespace

bool LooksLikeRecording(const std::string& path) { return importers::IsRecordingFile(path); }

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

StatusOr<ModelText> ReadModelText(const std::string& what, const ModelLoadOptions& options) {
  auto input = importers::ClassifyInput(what);
  if (!input.ok()) return input.status();
  auto opened = importers::OpenModelText(*input, options);
  if (!opened.ok()) return opened.status();
  PrintWarnings(opened->warnings);
  return ModelText{std::move(opened->text), what, std::move(opened->module)};
}

StatusOr<std::vector<LoadedModel>> LoadSnapshots(
    const std::string& what, const std::vector<std::optional<int64_t>>& passes) {
  auto input = importers::ClassifyInput(what);
  if (!input.ok()) return input.status();
  auto opened = importers::OpenModules(*input, passes);
  if (!opened.ok()) return opened.status();
  PrintWarnings(opened->warnings);
  std::vector<LoadedModel> loaded;
  for (importers::OpenedModule& module : opened->modules)
    loaded.push_back(Loaded(std::move(module), what));
  return loaded;
}

StatusOr<LoadedModel> LoadModel(const std::string& what, std::optional<int64_t> pass,
                                const ModelLoadOptions& options) {
  auto input = importers::ClassifyInput(what);
  if (!input.ok()) return input.status();
  auto opened = importers::OpenModules(*input, {pass}, options);
  if (!opened.ok()) return opened.status();
  PrintWarnings(opened->warnings);
  return Loaded(std::move(opened->modules.front()), what);
}

}  // namespace fusescope::app
