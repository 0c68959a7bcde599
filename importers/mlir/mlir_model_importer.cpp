#include "importers/mlir/mlir_model_importer.h"

#include <filesystem>

#include "importers/mlir/mlir_library_reader.h"
#include "importers/mlir/mlir_log_importer.h"
#include "importers/mlir/mlir_module_builder.h"
#include "importers/mlir/mlir_tolerant_reader.h"
#include "recording/recorder.h"

namespace fusescope::ir::mlir_import {

std::string MlirModelImport::UnmappedSummary() const {
  int64_t total = 0;
  std::string list;
  for (const auto& [name, count] : unmapped) {
    total += count;
    list += (list.empty() ? "" : ", ") + name + " (" + std::to_string(count) + ")";
  }
  return std::to_string(total) + " operation" + (total == 1 ? " has" : "s have") +
         " no HLO counterpart: " + list;
}

bool IsMlirPath(std::string_view path) {
  return path.size() >= 5 && path.substr(path.size() - 5) == ".mlir";
}

StatusOr<MlirModelImport> ImportMlirModelText(std::string_view text, const std::string& path) {
  MlirModelImport result;
  MlirOperationTree tree;
  auto parsed = MlirLibraryAvailable() ? ReadMlirWithLibrary(text, path)
                                       : StatusOr<MlirOperationTree>(Status::Error("no libMLIR"));
  if (parsed.ok()) {
    tree = std::move(parsed).value();
    result.read_by_mlir = true;
  } else {
    result.mlir_error = parsed.message();
    TolerantReadResult tolerant = ReadMlirTolerantly(text, path);
    result.warnings = std::move(tolerant.warnings);
    tree = std::move(tolerant.tree);
  }
  if (CountOperations(tree) == 0) {
    return Status::Error(
        path + ": no MLIR operation could be read" +
        (result.mlir_error.empty() ? "" : " (libMLIR: " + result.mlir_error + ")"));
  }
  MlirModuleOptions options;
  options.layout = MlirModuleOptions::Layout::kModel;
  options.module_name = std::filesystem::path(path).stem().string();
  options.file = path;
  options.map_stablehlo = true;
  MlirModule built = BuildModule(tree, options);
  result.module = std::move(built.module);
  result.warnings.insert(result.warnings.end(), built.warnings.begin(), built.warnings.end());
  result.unmapped = std::move(built.unmapped);
  result.mapped = built.mapped;
  return result;
}

recording::Recording GraphOnlyRecording(MlirModelImport& imported, const std::string& path) {
  recording::Recorder recorder("mlir-graph", passes::PipelineOptions{});
  recorder.set_model(imported.module->name(), path);
  recorder.BeforePipeline(*imported.module);
  recorder.AfterPipeline(*imported.module);
  recording::Recording recording = recorder.TakeRecording();
  recording.total_seconds = 0;
  recording.imported = true;
  return recording;
}

StatusOr<MlirModelImport> ImportMlirModelFile(const std::string& path, int64_t max_file_bytes) {
  auto text = ReadTextFile(path, max_file_bytes);
  if (!text.ok()) return text.status();
  return ImportMlirModelText(*text, path);
}

}  // namespace fusescope::ir::mlir_import
