#include "app/cli/model_loader.h"

#include <charconv>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "ir/hlo_parser.h"
#include "ir/hlo_printer.h"
#ifdef FUSESCOPE_HAVE_ONNX
#include "importers/onnx/onnx_importer.h"
#endif
#include "importers/mlir/mlir_log_importer.h"
#include "importers/mlir/mlir_log_splitter.h"
#include "importers/mlir/mlir_model_importer.h"
#include "importers/mlir/mlir_stage_folder.h"
#include "importers/mlir/mlir_tree_dir.h"
#include "importers/tvm/tvm_dump_folder.h"
#include "importers/tensorrt_engine_importer.h"
#include "importers/tensorrt_layer_info.h"
#include "importers/xla_dump_folder.h"
#include "importers/xla_dump_importer.h"
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
  return Status::Error(path +
                       ": this fusescope was built without libonnx and cannot read ONNX models");
#endif
}

void PrintWarnings(const std::vector<std::string>& warnings) {
  for (const std::string& warning : warnings)
    std::cerr << "fusescope: warning: " << warning << '\n';
}

bool IsFolder(const std::string& path) {
  std::error_code error;
  return std::filesystem::is_directory(path, error);
}

std::string FilePrefix(const std::string& path) {
  if (IsFolder(path)) return "";
  std::ifstream file(path, std::ios::binary);
  std::string prefix(64 * 1024, '\0');
  file.read(prefix.data(), static_cast<std::streamsize>(prefix.size()));
  prefix.resize(static_cast<size_t>(file.gcount()));
  return prefix;
}

// An MLIR pass log, a folder of MLIR stage files, a TVM DumpIR folder, a folder of MLIR dumps
// (--mlir-print-ir-tree-dir), an XLA dump folder (its default module) or TensorRT layer
// information as a recording.
StatusOr<recording::Recording> ImportRecording(const std::string& what) {
  if (LooksLikeTensorRtLayerInfoFile(what)) {
    auto imported = ir::ImportTensorRtEngine(what);
    if (!imported.ok()) return imported.status();
    PrintWarnings(imported->warnings);
    return std::move(imported->recording);
  }
  if (IsFolder(what) && ir::mlir_import::LooksLikeMlirTreeDir(what)) {
    auto imported = ir::mlir_import::ImportMlirTreeDir(what);
    if (!imported.ok()) return imported.status();
    PrintWarnings(imported->warnings);
    return std::move(imported->recording);
  }
  if (IsFolder(what) && ir::tvm_import::LooksLikeTvmDumpFolder(what)) {
    auto imported = ir::tvm_import::ImportTvmDumpFolder(what);
    if (!imported.ok()) return imported.status();
    PrintWarnings(imported->warnings);
    return std::move(imported->recording);
  }
  if (IsFolder(what) && ir::mlir_import::LooksLikeStageFolder(what)) {
    auto imported = ir::mlir_import::ImportMlirStageFolder(what);
    if (!imported.ok()) return imported.status();
    PrintWarnings(imported->warnings);
    return std::move(imported->recording);
  }
  if (IsFolder(what)) {
    auto folder = ir::ScanXlaDumpFolder(what);
    if (!folder.ok()) return folder.status();
    const ir::XlaDumpModule* module = folder->Default();
    if (module == nullptr) return Status::Error(what + ": no HLO module in this folder");
    auto imported = ir::ImportXlaDumpModule(*module, folder->path);
    if (!imported.ok()) return imported.status();
    PrintWarnings(imported->warnings);
    return std::move(imported->recording);
  }
  auto imported = ir::mlir_import::ImportMlirLogFile(what);
  if (!imported.ok()) return imported.status();
  PrintWarnings(imported->warnings);
  return std::move(imported->recording);
}

StatusOr<LoadedModel> SnapshotOf(const recording::Recording& recording, const std::string& what,
                                 std::optional<int64_t> pass) {
  const int64_t last = static_cast<int64_t>(recording.snapshots.size()) - 1;
  const int64_t index = pass ? *pass + 1 : last;
  if (index < 0 || index > last) {
    return Status::Error(what + ": no pass " + std::to_string(*pass) + " (the recording has " +
                         std::to_string(recording.passes.size()) + " passes, numbered 0.." +
                         std::to_string(last - 1) + ")");
  }
  auto module = recording.snapshots[static_cast<size_t>(index)].ToModule();
  if (!module.ok()) return module.status();
  LoadedModel loaded{std::move(module).value(), what, index};
  loaded.source_text = recording::FullSourceText(recording.sources, static_cast<size_t>(index));
  if (loaded.source_text)
    loaded.source_language = recording.sources[static_cast<size_t>(index)].language;
  return loaded;
}

// `warn_unmapped`: say which operations stay opaque (a caller that refuses the module says it
// in its error instead).
StatusOr<ir::mlir_import::MlirModelImport> ImportMlirModel(const std::string& path,
                                                           bool warn_unmapped) {
  auto imported = ir::mlir_import::ImportMlirModelFile(path);
  if (!imported.ok()) return imported.status();
  PrintWarnings(imported->warnings);
  if (warn_unmapped && !imported->compilable() && !imported->unmapped.empty()) {
    std::cerr << "fusescope: warning: " << path << ": " << imported->UnmappedSummary()
              << "; they are kept as opaque nodes\n";
  }
  return imported;
}

}  // namespace

bool LooksLikeMlirLogFile(const std::string& path) {
  return ir::mlir_import::LooksLikeMlirLog(FilePrefix(path));
}

bool LooksLikeTensorRtLayerInfoFile(const std::string& path) {
  return ir::LooksLikeTensorRtLayerInfo(FilePrefix(path));
}

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
    std::string text = ir::PrintModule(**module);
    return ModelText{std::move(text), what, std::move(module).value()};
  }
  if (LooksLikeMlirLogFile(what)) {
    return Status::Error(what +
                         ": an MLIR pass log records another compiler's passes; it is no "
                         "model for our pipeline (view it with `fusescope import`, or compile the "
                         ".mlir model it started from)");
  }
  if (LooksLikeTensorRtLayerInfoFile(what)) {
    return Status::Error(what +
                         ": TensorRT layer information describes an engine TensorRT built; it is "
                         "no model for our pipeline (view it with `fusescope import`, or compile "
                         "the ONNX model it was built from)");
  }
  if (IsFolder(what)) {
    // A dump folder's model is its default module as XLA received it.
    auto recording = ImportRecording(what);
    if (!recording.ok()) return recording.status();
    return ModelText{recording->input_text, what};
  }
  if (ir::mlir_import::IsMlirPath(what)) {
    auto imported = ImportMlirModel(what, /*warn_unmapped=*/false);
    if (!imported.ok()) return imported.status();
    if (!imported->compilable()) {
      return Status::Error(what + ": this MLIR module loads as a graph but cannot be compiled: " +
                           (imported->unmapped.empty()
                                ? std::string("it holds no StableHLO/MHLO operation")
                                : imported->UnmappedSummary()) +
                           " (only StableHLO/MHLO modules compile)");
    }
    std::string text = ir::PrintModule(*imported->module);
    return ModelText{std::move(text), what, std::move(imported->module)};
  }
  std::ifstream file(what, std::ios::binary);
  if (!file) return Status::Error(what + ": cannot open file");
  std::ostringstream text;
  text << file.rdbuf();
  return ModelText{text.str(), what};
}

StatusOr<std::vector<LoadedModel>> LoadSnapshots(
    const std::string& what, const std::vector<std::optional<int64_t>>& passes) {
  auto recording =
      LooksLikeRecording(what) ? recording::LoadRecording(what) : ImportRecording(what);
  if (!recording.ok()) return recording.status();
  std::vector<LoadedModel> loaded;
  for (const std::optional<int64_t>& pass : passes) {
    auto snapshot = SnapshotOf(*recording, what, pass);
    if (!snapshot.ok()) return snapshot.status();
    loaded.push_back(std::move(snapshot).value());
  }
  return loaded;
}

StatusOr<LoadedModel> LoadModel(const std::string& what, std::optional<int64_t> pass,
                                const ModelLoadOptions& options) {
  if (LooksLikeRecording(what)) {
    auto recording = recording::LoadRecording(what);
    if (!recording.ok()) return recording.status();
    return SnapshotOf(*recording, what, pass);
  }
  if (IsOnnxPath(what)) {
    auto module = ImportOnnx(what, options);
    if (!module.ok()) return module.status();
    return LoadedModel{std::move(module).value(), what};
  }
  if (IsFolder(what) || LooksLikeMlirLogFile(what) || LooksLikeTensorRtLayerInfoFile(what)) {
    auto recording = ImportRecording(what);
    if (!recording.ok()) return recording.status();
    return SnapshotOf(*recording, what, pass);
  }
  if (ir::mlir_import::IsMlirPath(what)) {
    auto imported = ImportMlirModel(what, /*warn_unmapped=*/true);
    if (!imported.ok()) return imported.status();
    return LoadedModel{std::move(imported->module), what};
  }
  auto text = ReadModelText(what);
  if (!text.ok()) return text.status();
  auto module = ir::ParseHloModule(text->text, text->display_name);
  if (!module.ok()) return module.status();
  return LoadedModel{std::move(module).value(), what};
}

}  // namespace fusescope::app
