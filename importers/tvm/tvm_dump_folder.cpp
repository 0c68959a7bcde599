#include "importers/tvm/tvm_dump_folder.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <utility>

#include "ir/hlo_printer.h"
#include "importers/mlir/mlir_module_builder.h"
#include "importers/tvm/tvmscript_reader.h"
#include "importers/xla_dump_provenance.h"
#include "recording/recorder.h"

namespace fusescope::ir::tvm_import {
namespace {

namespace fs = std::filesystem;
using mlir_import::MlirLogImport;
using mlir_import::MlirLogImportOptions;
using mlir_import::MlirLogSectionReport;

// A garbled file can warn on every line; a few say enough.
constexpr size_t kWarningsPerStage = 5;

// "066_FuseOps" -> {66, "FuseOps"}; nullopt when the stem is not digits, '_', a name.
std::optional<TvmStageFile> ParseStageStem(const std::string& stem) {
  size_t i = 0;
  while (i < stem.size() && std::isdigit(static_cast<unsigned char>(stem[i]))) ++i;
  if (i == 0 || i > 9 || i + 1 >= stem.size() || stem[i] != '_') return std::nullopt;
  TvmStageFile stage;
  stage.number = std::stoll(stem.substr(0, i));
  stage.pass = stem.substr(i + 1);
  return stage;
}

bool StartsAsTvmScript(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string head(4096, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(in.gcount()));
  for (const char* mark :
       {"from tvm.script import", "@I.ir_module", "@R.function", "@T.prim_func"}) {
    if (head.find(mark) != std::string::npos) return true;
  }
  return false;
}

class StageImporter {
 public:
  StageImporter(const std::string& folder, const MlirLogImportOptions& options)
      : folder_(folder), options_(options), recorder_("tvm", passes::PipelineOptions{}) {}

  StatusOr<MlirLogImport> Run() {
    const std::vector<TvmStageFile> stages = FindTvmStageFiles(folder_);
    if (stages.empty())
      return Status::Error(folder_ + ": no TVM DumpIR stage files (NNN_<Pass>.py) in this folder");
    recorder_.set_model(mlir_import::FolderModelName(folder_, "tvm"), folder_);
    for (const TvmStageFile& stage : stages) {
      Status read = ImportStage(stage);
      if (!read.ok()) return read;
    }
    if (!previous_) {
      return Status::Error(folder_ + ": none of the " + std::to_string(stages.size()) +
                           " stage files holds readable TVMScript");
    }
    result_.recording =
        mlir_import::FinishImportedRecording(recorder_, *previous_, std::move(sources_));
    return std::move(result_);
  }

 private:
  void Warn(std::string warning) { result_.warnings.push_back(std::move(warning)); }

  Status ImportStage(const TvmStageFile& stage) {
    auto text = mlir_import::ReadTextFile(stage.path, options_.max_file_bytes);
    if (!text.ok()) return text.status();
    total_bytes_ += static_cast<int64_t>(text->size());
    if (total_bytes_ > options_.max_file_bytes) {
      return Status::Error(folder_ + ": the stage files hold more than " +
                           std::to_string(options_.max_file_bytes) + " bytes");
    }
    MlirLogSectionReport& report = result_.sections.emplace_back();
    report.file = stage.path;
    report.pass = stage.pass;
    TvmScriptReadResult read = ReadTvmScript(*text, stage.path);
    for (size_t i = 0; i < read.warnings.size() && i < kWarningsPerStage; ++i)
      Warn(read.warnings[i]);
    if (read.warnings.size() > kWarningsPerStage) {
      Warn(stage.path + ":1:1: " + std::to_string(read.warnings.size() - kWarningsPerStage) +
           " more warnings in this file");
    }
    report.operations = mlir_import::CountOperations(read.tree);
    if (report.operations == 0) {
      report.skipped = true;
      Warn(stage.path + ":1:1: stage '" + stage.pass + "' holds no readable TVMScript; left out");
      return Status::Ok();
    }
    mlir_import::MlirModuleOptions module_options;
    module_options.file = stage.path;
    module_options.module_name = read.module_name.empty() ? "tvm" : read.module_name;
    mlir_import::MlirModule built = mlir_import::BuildModule(read.tree, module_options);
    for (std::string& warning : built.warnings) {
      if (build_warnings_ < kWarningsPerStage * 20) Warn(std::move(warning));
      ++build_warnings_;
    }
    recording::SnapshotSource source;
    source.language = "tvmscript";
    source.text = std::move(text).value();
    Record(stage, std::move(built.module), std::move(source));
    return Status::Ok();
  }

  void Record(const TvmStageFile& stage, std::unique_ptr<Module> current,
              recording::SnapshotSource source) {
    const uint64_t fingerprint = Fingerprint(*current);
    passes::PassRunInfo info;
    info.name = stage.pass;
    info.index = pass_index_++;
    info.stats.emplace_back("file", fs::path(stage.path).filename().string());
    info.stats.emplace_back("reader", "TVMScript");
    if (!previous_) {
      next_id_ = MaxInstructionId(*current) + 1;
      recorder_.set_input_text(source.text);
      recorder_.BeforePipeline(*current);
      sources_.push_back(source);
      // DumpIR writes after each pass: the IR this first pass ran on is not in the folder.
      info.fingerprint_before = info.fingerprint_after = fingerprint;
      info.stats.emplace_back("note",
                              "first stage of the folder: the IR before this pass is not in it");
      info.reported_changed = false;
      recorder_.BeforePass(info, *current);
      recorder_.AfterPass(info, *current);
    } else {
      const ProvenanceCarryCounts counts = CarryOverProvenance(*previous_, *current, next_id_);
      info.fingerprint_before = previous_fingerprint_;
      info.fingerprint_after = fingerprint;
      if (counts.replacements > 0)
        info.stats.emplace_back("replacements", std::to_string(counts.replacements));
      if (counts.new_instructions > 0)
        info.stats.emplace_back("new", std::to_string(counts.new_instructions));
      info.reported_changed = info.changed();
      recorder_.BeforePass(info, *previous_);
      recorder_.AfterPass(info, *current);
    }
    sources_.push_back(std::move(source));
    previous_ = std::move(current);
    previous_fingerprint_ = fingerprint;
  }

  std::string folder_;
  MlirLogImportOptions options_;
  recording::Recorder recorder_;
  MlirLogImport result_;
  std::unique_ptr<Module> previous_;
  uint64_t previous_fingerprint_ = 0;
  int64_t next_id_ = 1;
  int64_t pass_index_ = 0;
  int64_t total_bytes_ = 0;
  size_t build_warnings_ = 0;
  // One per snapshot the recorder took, as it took them.
  std::vector<recording::SnapshotSource> sources_;
};

}  // namespace

std::vector<TvmStageFile> FindTvmStageFiles(const std::string& folder) {
  std::vector<TvmStageFile> stages;
  std::error_code error;
  fs::directory_iterator it(folder, error);
  if (error) return stages;
  for (const fs::directory_entry& entry : it) {
    if (!entry.is_regular_file(error) || entry.path().extension() != ".py") continue;
    std::optional<TvmStageFile> stage = ParseStageStem(entry.path().stem().string());
    if (!stage) continue;
    stage->path = entry.path().string();
    stages.push_back(std::move(*stage));
  }
  std::sort(stages.begin(), stages.end(), [](const TvmStageFile& a, const TvmStageFile& b) {
    return a.number != b.number ? a.number < b.number : a.pass < b.pass;
  });
  return stages;
}

bool LooksLikeTvmDumpFolder(const std::string& folder) {
  const std::vector<TvmStageFile> stages = FindTvmStageFiles(folder);
  for (size_t i = 0; i < stages.size() && i < 3; ++i) {
    if (StartsAsTvmScript(stages[i].path)) return true;
  }
  return false;
}

StatusOr<MlirLogImport> ImportTvmDumpFolder(const std::string& folder,
                                            const MlirLogImportOptions& options) {
  return StageImporter(folder, options).Run();
}

}  // namespace fusescope::ir::tvm_import
