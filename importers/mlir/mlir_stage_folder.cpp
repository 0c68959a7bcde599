#include "importers/mlir/mlir_stage_folder.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <memory>
#include <optional>
#include <tuple>
#include <utility>

namespace fusescope::ir::mlir_import {
namespace {

namespace fs = std::filesystem;

// "10b_ptx_codegen" -> {10, "b", "ptx_codegen"}; nullopt when the stem is not N[letters]_name.
std::optional<StageFile> ParseStageName(const std::string& stem) {
  size_t i = 0;
  while (i < stem.size() && std::isdigit(static_cast<unsigned char>(stem[i]))) ++i;
  if (i == 0 || i > 9) return std::nullopt;
  const size_t digits = i;
  while (i < stem.size() && std::islower(static_cast<unsigned char>(stem[i]))) ++i;
  if (i >= stem.size() || (stem[i] != '_' && stem[i] != '-') || i + 1 == stem.size())
    return std::nullopt;
  StageFile stage;
  stage.number = std::stoll(stem.substr(0, digits));
  stage.suffix = stem.substr(digits, i - digits);
  stage.name = stem.substr(i + 1);
  return stage;
}

}  // namespace

std::vector<StageFile> FindStageFiles(const std::string& folder) {
  std::vector<StageFile> stages;
  std::error_code error;
  fs::directory_iterator it(folder, error);
  if (error) return stages;
  for (const fs::directory_entry& entry : it) {
    if (!entry.is_regular_file(error) || entry.path().extension() != ".mlir") continue;
    std::optional<StageFile> stage = ParseStageName(entry.path().stem().string());
    if (!stage) continue;
    stage->path = entry.path().string();
    stages.push_back(std::move(*stage));
  }
  std::sort(stages.begin(), stages.end(), [](const StageFile& a, const StageFile& b) {
    return std::tie(a.number, a.suffix, a.name) < std::tie(b.number, b.suffix, b.name);
  });
  return stages;
}

bool LooksLikeStageFolder(const std::string& folder) {
  std::error_code error;
  fs::directory_iterator it(folder, error);
  if (error) return false;
  for (const fs::directory_entry& entry : it) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("module_", 0) == 0 && entry.path().extension() == ".txt") return false;
  }
  return FindStageFiles(folder).size() >= 2;
}

StatusOr<MlirLogImport> ImportMlirStageFolder(const std::string& folder,
                                              const MlirLogImportOptions& options) {
  const std::vector<StageFile> stages = FindStageFiles(folder);
  if (stages.empty()) {
    return Status::Error(folder + ": no stage files (N_name.mlir) in this folder");
  }
  // The stages as one log, a section per file, and where each section's lines came from.
  std::string log;
  auto headers = std::make_shared<std::vector<std::pair<int64_t, std::string>>>();
  int64_t line = 1;
  for (const StageFile& stage : stages) {
    auto text = ReadTextFile(stage.path, options.max_file_bytes);
    if (!text.ok()) return text.status();
    if (static_cast<int64_t>(log.size() + text->size()) > options.max_file_bytes) {
      return Status::Error(folder + ": the stage files hold more than " +
                           std::to_string(options.max_file_bytes) + " bytes");
    }
    std::string name = stage.name;
    std::replace_if(
        name.begin(), name.end(), [](unsigned char c) { return std::isspace(c) || c == '('; }, '_');
    const std::string stem = fs::path(stage.path).stem().string();
    log += "// -----// IR Dump After " + name + " (" + stem + ") //----- //\n";
    headers->emplace_back(line, stage.path);
    log += *text;
    if (log.empty() || log.back() != '\n') log += '\n';
    line += 1 + std::count(text->begin(), text->end(), '\n') +
            (text->empty() || text->back() != '\n' ? 1 : 0);
  }
  MlirLogImportOptions stage_options = options;
  stage_options.origin = [headers](int64_t at) {
    auto next = std::upper_bound(
        headers->begin(), headers->end(), at,
        [](int64_t value, const std::pair<int64_t, std::string>& h) { return value < h.first; });
    if (next == headers->begin()) return std::make_pair(headers->front().second, int64_t{1});
    --next;
    return std::make_pair(next->second, std::max<int64_t>(1, at - next->first));
  };
  auto imported = ImportMlirLogText(log, folder, stage_options);
  if (!imported.ok()) return imported.status();
  for (MlirLogSectionReport& section : imported->sections) {
    section.file = stage_options.origin(section.header_line).first;
    section.header_line = 0;
  }
  return imported;
}

}  // namespace fusescope::ir::mlir_import
