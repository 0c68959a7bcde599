#include "importers/open_any.h"

#include <fstream>
#include <sstream>
#include <utility>

#include "importers/inductor/inductor_trace.h"
#include "importers/mlir/mlir_log_importer.h"
#include "importers/mlir/mlir_model_importer.h"
#include "importers/mlir/mlir_stage_folder.h"
#include "importers/mlir/mlir_tree_dir.h"
#include "importers/tensorrt_engine_importer.h"
#include "importers/tvm/tvm_dump_folder.h"
#include "importers/xla_dump_folder.h"
#include "importers/xla_dump_importer.h"
#include "ir/hlo_parser.h"
#include "ir/hlo_printer.h"
#include "recording/recording_store.h"
#include "resources/samples.h"
#ifdef FUSESCOPE_HAVE_ONNX
#include "importers/onnx/onnx_importer.h"
#endif

namespace fusescope::importers {
namespace {

// The recording and warnings of an importer's result, whatever its type.
template <typename Import>
StatusOr<OpenedRecording> Taken(StatusOr<Import> imported) {
  if (!imported.ok()) return imported.status();
  return OpenedRecording{std::move(imported->recording), std::move(imported->warnings)};
}

// The dump folder at `path`, scanned, with a default module (XLA's main one).
StatusOr<ir::XlaDumpFolder> ScanDumpWithModule(const std::string& path) {
  StatusOr<ir::XlaDumpFolder> folder = ir::ScanXlaDumpFolder(path);
  if (folder.ok() && folder->Default() == nullptr)
    return Status::Error(path + ": no HLO module in this folder");
  return folder;
}

StatusOr<OpenedRecording> ImportXlaDump(const std::string& path) {
  StatusOr<ir::XlaDumpFolder> folder = ScanDumpWithModule(path);
  if (!folder.ok()) return folder.status();
  return Taken(ir::ImportXlaDumpModule(*folder->Default(), folder->path));
}

// What a lesson or IREE executable files are for, when something else was asked of them.
Status NotOpenedAlone(const ClassifiedInput& input) {
  if (input.kind == InputKind::kLesson) {
    return Status::Error(input.what + ": a lesson, not a model: `fusescope lesson " + input.what +
                         "` runs it, `fusescope gui --lesson " + input.what + "` shows it");
  }
  return Status::Error(input.what +
                       ": IREE executable files (--iree-hal-dump-executable-files-to) are the "
                       "kernels of a compile, not its passes: import them with the tree dump of "
                       "the same compile (`fusescope import TREE_DIR --iree-executables " +
                       input.what + " -o RUN.fsdb`)");
}

// The record of a compile, read or imported.
StatusOr<OpenedRecording> ReadRecord(const ClassifiedInput& input) {
  const std::string& path = input.what;
  switch (input.kind) {
    case InputKind::kRecording: {
      StatusOr<recording::Recording> loaded = recording::LoadRecording(path);
      if (!loaded.ok()) return loaded.status();
      return OpenedRecording{std::move(loaded).value(), {}};
    }
    case InputKind::kMlirPassLog:
      return Taken(ir::mlir_import::ImportMlirLogFile(path));
    case InputKind::kMlirTreeFolder:
      return Taken(ir::mlir_import::ImportMlirTreeDir(path));
    case InputKind::kMlirStageFolder:
      return Taken(ir::mlir_import::ImportMlirStageFolder(path));
    case InputKind::kTvmDumpFolder:
      return Taken(ir::tvm_import::ImportTvmDumpFolder(path));
    case InputKind::kInductorTrace:
      return Taken(ir::inductor_import::ImportInductorTrace(path));
    case InputKind::kTensorRtLayerInfo:
      return Taken(ir::ImportTensorRtEngine(path));
    case InputKind::kXlaDumpFolder:
      return ImportXlaDump(path);
    case InputKind::kLesson:
    case InputKind::kIreeExecutableFolder:
      return NotOpenedAlone(input);
    case InputKind::kSample:
    case InputKind::kHloText:
    case InputKind::kOnnxModel:
    case InputKind::kMlirModel:
      break;
  }
  return Status::Error(path + ": a " + std::string(KindName(input.kind)) +
                       " is a model, not the record of a compile");
}

StatusOr<OpenedModule> SnapshotOf(const recording::Recording& recording, const std::string& what,
                                  std::optional<int64_t> pass) {
  const int64_t last = static_cast<int64_t>(recording.snapshots.size()) - 1;
  if (last < 0) return Status::Error(what + ": the recording has no snapshot");
  if (pass && (*pass < -1 || *pass >= last)) {
    return Status::Error(what + ": no pass " + std::to_string(*pass) + " (the recording has " +
                         std::to_string(recording.passes.size()) + " passes, numbered 0.." +
                         std::to_string(last - 1) + ")");
  }
  const int64_t index = pass ? *pass + 1 : last;
  auto module = recording.snapshots[static_cast<size_t>(index)].ToModule();
  if (!module.ok()) return module.status();
  OpenedModule opened{std::move(module).value(), index, std::nullopt, ""};
  opened.source_text = recording::FullSourceText(recording.sources, static_cast<size_t>(index));
  if (opened.source_text)
    opened.source_language = recording.sources[static_cast<size_t>(index)].language;
  return opened;
}

StatusOr<std::string> ReadHloFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return Status::Error(path + ": cannot open file");
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

StatusOr<OpenedModelText> ImportOnnx(const std::string& path, const OpenOptions& options) {
#ifdef FUSESCOPE_HAVE_ONNX
  ir::onnx_import::OnnxImportOptions import_options;
  import_options.dimension_sizes = options.dimension_sizes;
  auto imported = ir::onnx_import::ImportOnnxFile(path, import_options);
  if (!imported.ok()) return imported.status();
  OpenedModelText opened;
  opened.module = std::move(imported->module);
  // The importer's warnings name no file.
  for (const std::string& warning : imported->warnings)
    opened.warnings.push_back(path + ": " + warning);
  return opened;
#else
  (void)options;
  return Status::Error(path +
                       ": this fusescope was built without libonnx and cannot read ONNX models");
#endif
}

// A model's one module, the text left empty.
StatusOr<OpenedModelText> ImportModel(const ClassifiedInput& input, const OpenOptions& options) {
  const std::string& what = input.what;
  switch (input.kind) {
    case InputKind::kSample:
    case InputKind::kHloText: {
      auto text = OpenModelText(input, options);
      if (!text.ok()) return text.status();
      auto module = ir::ParseHloModule(text->text, what);
      if (!module.ok()) return module.status();
      text->module = std::move(module).value();
      return text;
    }
    case InputKind::kOnnxModel:
      return ImportOnnx(what, options);
    case InputKind::kMlirModel: {
      auto imported = ir::mlir_import::ImportMlirModelFile(what);
      if (!imported.ok()) return imported.status();
      OpenedModelText opened{"", std::move(imported->module), std::move(imported->warnings)};
      if (!imported->compilable() && !imported->unmapped.empty()) {
        opened.warnings.push_back(what + ": " + imported->UnmappedSummary() +
                                  "; they are kept as opaque nodes");
      }
      return opened;
    }
    default:
      return Status::Error(what + ": not a model");
  }
}

// Why the record of a compile is no model for our pipeline, and what to do instead.
Status NoModel(const ClassifiedInput& input) {
  const std::string& what = input.what;
  switch (input.kind) {
    case InputKind::kMlirPassLog:
      return Status::Error(what +
                           ": an MLIR pass log records another compiler's passes; it is no "
                           "model for our pipeline (view it with `fusescope import`, or compile "
                           "the .mlir model it started from)");
    case InputKind::kTensorRtLayerInfo:
      return Status::Error(what +
                           ": TensorRT layer information describes an engine TensorRT built; it "
                           "is no model for our pipeline (view it with `fusescope import`, or "
                           "compile the ONNX model it was built from)");
    case InputKind::kMlirTreeFolder:
    case InputKind::kMlirStageFolder:
    case InputKind::kTvmDumpFolder:
    case InputKind::kInductorTrace:
      return Status::Error(what + ": a " + std::string(KindName(input.kind)) +
                           " records another compiler's passes; it is no model for our "
                           "pipeline (view it with `fusescope import`)");
    case InputKind::kRecording:
      return Status::Error(what +
                           ": a recording, not a model: compile the model it was made from "
                           "(`fusescope print " +
                           what + " --pass -1` prints its input)");
    default:
      return NotOpenedAlone(input);
  }
}

}  // namespace

StatusOr<OpenedModules> OpenModules(const ClassifiedInput& input,
                                    const std::vector<std::optional<int64_t>>& passes,
                                    const OpenOptions& options) {
  OpenedModules opened;
  if (input.IsModel()) {
    auto model = ImportModel(input, options);
    if (!model.ok()) return model.status();
    opened.warnings = std::move(model->warnings);
    for (size_t i = 0; i < passes.size(); ++i) {
      opened.modules.push_back(
          {i + 1 == passes.size() ? std::move(model->module) : model->module->Clone(), -1,
           std::nullopt, ""});
    }
    return opened;
  }
  auto record = ReadRecord(input);
  if (!record.ok()) return record.status();
  opened.warnings = std::move(record->warnings);
  for (const std::optional<int64_t>& pass : passes) {
    auto snapshot = SnapshotOf(*record->recording, input.what, pass);
    if (!snapshot.ok()) return snapshot.status();
    opened.modules.push_back(std::move(snapshot).value());
  }
  return opened;
}

StatusOr<OpenedModelText> OpenModelText(const ClassifiedInput& input, const OpenOptions& options) {
  const std::string& what = input.what;
  switch (input.kind) {
    case InputKind::kSample: {
      const resources::SampleModel sample =
          resources::FindSample(std::string_view(what).substr(what.find(':') + 1));
      if (sample.text.empty()) return Status::Error("no built-in sample named '" + what + "'");
      return OpenedModelText{std::string(sample.text), nullptr, {}};
    }
    case InputKind::kHloText: {
      auto text = ReadHloFile(what);
      if (!text.ok()) return text.status();
      return OpenedModelText{std::move(text).value(), nullptr, {}};
    }
    case InputKind::kOnnxModel: {
      auto imported = ImportOnnx(what, options);
      if (!imported.ok()) return imported;
      imported->text = ir::PrintModule(*imported->module);
      return imported;
    }
    case InputKind::kMlirModel: {
      auto imported = ir::mlir_import::ImportMlirModelFile(what);
      if (!imported.ok()) return imported.status();
      if (!imported->compilable()) {
        return Status::Error(what + ": this MLIR module loads as a graph but cannot be compiled: " +
                             (imported->unmapped.empty()
                                  ? std::string("it holds no StableHLO/MHLO operation")
                                  : imported->UnmappedSummary()) +
                             " (only StableHLO/MHLO modules compile)");
      }
      std::string text = ir::PrintModule(*imported->module);
      return OpenedModelText{std::move(text), std::move(imported->module),
                             std::move(imported->warnings)};
    }
    case InputKind::kXlaDumpFolder: {
      // A dump folder's model is its default module as XLA received it: its first file, the
      // passes after it left unread.
      StatusOr<ir::XlaDumpFolder> folder = ScanDumpWithModule(input.what);
      if (!folder.ok()) return folder.status();
      auto read = ir::ReadXlaDumpInputText(*folder->Default(), folder->path);
      if (!read.ok()) return read.status();
      return OpenedModelText{std::move(read->text), nullptr, std::move(read->warnings)};
    }
    default:
      return NoModel(input);
  }
}

StatusOr<OpenedRecording> OpenRecording(const ClassifiedInput& input) {
  if (input.kind == InputKind::kMlirModel) {
    auto imported = ir::mlir_import::ImportMlirModelFile(input.what);
    if (!imported.ok()) return imported.status();
    if (imported->compilable()) return OpenedRecording{};
    OpenedRecording opened;
    opened.warnings = std::move(imported->warnings);
    opened.warnings.push_back(input.what + ": shown as a graph, not compiled: " +
                              (imported->unmapped.empty()
                                   ? std::string("no StableHLO/MHLO operation")
                                   : imported->UnmappedSummary()));
    opened.recording = ir::mlir_import::GraphOnlyRecording(*imported, input.what);
    return opened;
  }
  if (input.IsModel()) return OpenedRecording{};
  return ReadRecord(input);
}

}  // namespace fusescope::importers
