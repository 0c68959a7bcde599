#include "importers/mlir/mlir_log_importer.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <system_error>
#include <utility>

#include "ir/hlo_printer.h"
#include "importers/mlir/mlir_library_reader.h"
#include "importers/mlir/mlir_log_splitter.h"
#include "importers/mlir/mlir_module_builder.h"
#include "importers/mlir/mlir_text_scan.h"
#include "importers/mlir/mlir_tolerant_reader.h"
#include "recording/recorder.h"

namespace fusescope::ir::mlir_import {
namespace {

// A garbled section can warn on every line; a few say enough.
constexpr size_t kWarningsPerSection = 5;

std::string FirstLine(const std::string& text) { return text.substr(0, text.find('\n')); }

bool IsBlank(std::string_view text) { return TrimText(text).empty(); }

// Replaces the operation with `symbol` (and `operation_name` when given) anywhere in
// `operations`; false when there is none.
bool ReplaceSymbol(std::vector<MlirOperation>& operations, const MlirOperation& replacement,
                   const std::string& operation_name) {
  for (MlirOperation& operation : operations) {
    if (operation.symbol == replacement.symbol &&
        (operation_name.empty() || operation.name == operation_name)) {
      operation = replacement;
      return true;
    }
    for (MlirRegion& region : operation.regions) {
      for (MlirBlock& block : region.blocks) {
        if (ReplaceSymbol(block.operations, replacement, operation_name)) return true;
      }
    }
  }
  return false;
}

// Operations named `name` anywhere in `operations`, nested ones included.
int64_t CountNamed(const std::vector<MlirOperation>& operations, const std::string& name) {
  int64_t count = 0;
  for (const MlirOperation& operation : operations) {
    count += operation.name == name ? 1 : 0;
    for (const MlirRegion& region : operation.regions) {
      for (const MlirBlock& block : region.blocks) count += CountNamed(block.operations, name);
    }
  }
  return count;
}

bool HoldsModule(const MlirOperationTree& tree) {
  for (const MlirOperation& operation : tree.operations) {
    if (operation.name == "builtin.module") return true;
  }
  return false;
}

class LogImporter {
 public:
  LogImporter(std::string_view text, const std::string& path, const MlirLogImportOptions& options)
      : text_(text), path_(path), options_(options), recorder_("mlir", passes::PipelineOptions{}) {}

  StatusOr<MlirLogImport> Run() {
    const MlirLog log = SplitMlirLog(text_);
    if (log.sections.empty()) {
      return Status::Error(path_ + ": not an MLIR pass log (no '// -----// IR Dump' header)");
    }
    std::string stem = std::filesystem::path(path_).stem().string();
    recorder_.set_model(stem.empty() ? "mlir" : stem, path_);
    for (size_t i = 0; i < log.sections.size(); ++i) {
      if (failed_) {
        Warn(At(log.sections[i]) + std::to_string(log.sections.size() - i) +
             " sections after the failed pass are left out");
        break;
      }
      ImportSection(log.sections[i]);
    }
    if (!previous_) {
      return Status::Error(path_ + ": none of the " + std::to_string(log.sections.size()) +
                           " sections holds readable IR");
    }
    for (const std::string& diagnostic : log.trailing_diagnostics) {
      if (!IsBlank(diagnostic)) Warn(path_ + ": after the last section: " + diagnostic);
    }
    result_.recording = FinishImportedRecording(recorder_, *previous_, std::move(sources_));
    return std::move(result_);
  }

 private:
  void Warn(std::string warning) { result_.warnings.push_back(std::move(warning)); }

  // The file and line a line of the text came from (MlirLogImportOptions::origin).
  std::pair<std::string, int64_t> Where(int64_t line) const {
    return options_.origin ? options_.origin(line) : std::make_pair(path_, line);
  }
  // "FILE:LINE:1: " of a section's header.
  std::string At(const MlirLogSection& section) const {
    auto [file, line] = Where(section.header_line);
    return file + ":" + std::to_string(line) + ":1: ";
  }

  void ImportSection(const MlirLogSection& section) {
    MlirLogSectionReport& report = result_.sections.emplace_back();
    report.header_line = section.header_line;
    report.pass = section.DisplayName();
    const std::string_view body =
        text_.substr(section.body_begin, section.body_end - section.body_begin);
    const auto [file, first_line] = Where(section.header_line + 1);
    MlirOperationTree tree;
    bool read = false;
    if (options_.use_mlir_library && MlirLibraryAvailable()) {
      auto parsed = ReadMlirWithLibrary(body, file, first_line);
      if (parsed.ok()) {
        tree = std::move(parsed).value();
        report.read_by_mlir = true;
        read = true;
      } else {
        report.mlir_error = FirstLine(parsed.message());
        ++result_.refused_by_mlir;
      }
    }
    if (!read) {
      TolerantReadResult tolerant = ReadMlirTolerantly(body, file, first_line);
      for (size_t i = 0; i < tolerant.warnings.size() && i < kWarningsPerSection; ++i) {
        Warn(tolerant.warnings[i]);
      }
      if (tolerant.warnings.size() > kWarningsPerSection) {
        Warn(At(section) + std::to_string(tolerant.warnings.size() - kWarningsPerSection) +
             " more warnings in this section");
      }
      if (tolerant.cut_off) result_.cut_off = true;
      tree = std::move(tolerant.tree);
    }
    report.operations = CountOperations(tree);
    if (report.operations == 0) {
      report.skipped = true;
      Warn(At(section) + "section '" + report.pass + "' holds no readable IR; left out" +
           (report.mlir_error.empty() ? "" : " (libMLIR: " + report.mlir_error + ")"));
      return;
    }
    pending_source_ = SourceOf(section, body, tree);
    report.scoped = Merge(section, std::move(tree));
    Record(section, report);
  }

  // The section's text as the log prints it, and the operation it holds when it holds one
  // function rather than the whole IR (Merge decides the same way).
  recording::SnapshotSource SourceOf(const MlirLogSection& section, std::string_view body,
                                     const MlirOperationTree& tree) const {
    recording::SnapshotSource source;
    source.language = "mlir";
    source.text = std::string(body);
    source.scope_operation = section.scope_operation;
    source.scope_symbol = section.scope_symbol;
    if (source.scope_operation.empty() && IsScoped(section, tree) && !tree.operations.empty()) {
      source.scope_operation = tree.operations.front().name;
      source.scope_symbol = tree.operations.front().symbol;
    }
    return source;
  }

  // Whether a section replaces part of the IR carried along rather than all of it.
  bool IsScoped(const MlirLogSection& section, const MlirOperationTree& tree) const {
    if (!section.scope_operation.empty()) return !state_.operations.empty();
    if (HoldsModule(tree) || state_.operations.empty()) return false;
    if (HoldsModule(state_)) return true;
    // A log of function passes without module scope prints one function at a time and no
    // module until a module pass runs: each function joins those seen so far.
    return std::all_of(tree.operations.begin(), tree.operations.end(),
                       [](const MlirOperation& operation) { return !operation.symbol.empty(); });
  }

  // Folds a section into the IR carried along; true when it replaced only part of it.
  bool Merge(const MlirLogSection& section, MlirOperationTree tree) {
    if (!IsScoped(section, tree)) {
      state_ = std::move(tree);
      return false;
    }
    const bool functions_only = !HoldsModule(state_);
    for (const MlirOperation& operation : tree.operations) {
      if (functions_only && !operation.symbol.empty() &&
          !ReplaceSymbol(state_.operations, operation, section.scope_operation)) {
        state_.operations.push_back(operation);
        continue;
      }
      // An operation without a symbol is found by its name alone where the header names it
      // (`('util.initializer' operation)`) or where the IR holds one of that name (IREE
      // prints a module's one util.initializer alone); never a module, which would find the
      // module holding everything.
      const bool by_name =
          operation.symbol.empty() && operation.name != "builtin.module" &&
          (section.scope_operation == operation.name ||
           (section.scope_operation.empty() && CountNamed(state_.operations, operation.name) == 1));
      if ((operation.symbol.empty() && !by_name) ||
          !ReplaceSymbol(state_.operations, operation,
                         by_name ? operation.name : section.scope_operation)) {
        Warn(At(section) + "scoped section '" + section.DisplayName() + "': '" + operation.name +
             (operation.symbol.empty() ? "" : " @" + operation.symbol) +
             "' is not in the IR before it; added at the top level");
        if (!state_.operations.empty() && state_.operations.front().name == "builtin.module" &&
            !state_.operations.front().regions.empty() &&
            !state_.operations.front().regions[0].blocks.empty()) {
          state_.operations.front().regions[0].blocks[0].operations.push_back(operation);
        } else {
          state_.operations.push_back(operation);
        }
      }
    }
    return true;
  }

  void Record(const MlirLogSection& section, MlirLogSectionReport& report) {
    MlirModuleOptions module_options;
    module_options.file = Where(section.header_line).first;
    module_options.module_name = "mlir";
    MlirModule built = BuildModule(state_, module_options);
    for (std::string& warning : built.warnings) {
      if (section_warnings_ < kWarningsPerSection * 20) Warn(std::move(warning));
      ++section_warnings_;
    }
    std::unique_ptr<Module> current = std::move(built.module);
    const uint64_t fingerprint = Fingerprint(*current);
    passes::PassRunInfo info;
    info.name = section.DisplayName();
    // Two Before dumps in a row (a log of --mlir-print-ir-before-all): what changed between
    // them is the work of the pass the first one came before.
    if (section.before && previous_before_) {
      MlirLogSection ran = *previous_before_;
      ran.before = false;
      info.name = ran.DisplayName();
    }
    previous_before_.reset();
    if (section.before) previous_before_ = section;
    info.stats = Stats(section, report);
    if (!previous_) {
      next_id_ = MaxInstructionId(*current) + 1;
      recorder_.set_input_text(
          std::string(text_.substr(section.body_begin, section.body_end - section.body_begin)));
      recorder_.BeforePipeline(*current);
      sources_.push_back(pending_source_);
      if (!section.before) {
        // The log starts after this pass: the IR it ran on is not in the log.
        info.index = pass_index_++;
        info.fingerprint_before = info.fingerprint_after = fingerprint;
        info.stats.emplace_back("note",
                                "first section of the log: the IR before this pass is not in it");
        recorder_.BeforePass(info, *current);
        FinishPass(section, info, *current, *current);
      }
    } else {
      if (section.before && fingerprint == previous_fingerprint_ && !section.failed) {
        report.skipped = true;
        return;
      }
      const ProvenanceCarryCounts counts = CarryOverProvenance(*previous_, *current, next_id_);
      Add(counts);
      info.index = pass_index_++;
      info.fingerprint_before = previous_fingerprint_;
      info.fingerprint_after = fingerprint;
      AddCarryStats(info, counts);
      recorder_.BeforePass(info, *previous_);
      FinishPass(section, info, *current, *previous_);
    }
    previous_ = std::move(current);
    previous_fingerprint_ = fingerprint;
  }

  void FinishPass(const MlirLogSection& section, passes::PassRunInfo& info, const Module& current,
                  const Module& before) {
    info.reported_changed = info.changed();
    if (section.failed) {
      std::string error;
      for (const std::string& line : section.diagnostics) {
        if (line.find(": error: ") != std::string::npos)
          error += (error.empty() ? "" : "; ") + line;
      }
      if (error.empty()) error = "the pass failed (the log prints no error line)";
      recorder_.AfterPass(info, current);
      sources_.push_back(pending_source_);
      recorder_.PassFailed(info, current, before, Status::Error(error));
      failed_ = true;
      return;
    }
    recorder_.AfterPass(info, current);
    sources_.push_back(pending_source_);
  }

  std::vector<std::pair<std::string, std::string>> Stats(const MlirLogSection& section,
                                                         const MlirLogSectionReport& report) {
    std::vector<std::pair<std::string, std::string>> stats;
    if (options_.origin) {
      stats.emplace_back(
          "file", std::filesystem::path(Where(section.header_line).first).filename().string());
    } else {
      stats.emplace_back("log line", std::to_string(section.header_line));
    }
    stats.emplace_back("reader", report.read_by_mlir ? "libMLIR" : "tolerant");
    if (!report.mlir_error.empty()) stats.emplace_back("libMLIR refused", report.mlir_error);
    if (!section.scope_operation.empty()) {
      stats.emplace_back("scope",
                         section.scope_operation +
                             (section.scope_symbol.empty() ? "" : " @" + section.scope_symbol));
    }
    if (!section.pass_options.empty()) stats.emplace_back("options", section.pass_options);
    return stats;
  }

  static void AddCarryStats(passes::PassRunInfo& info, const ProvenanceCarryCounts& counts) {
    if (counts.replacements > 0)
      info.stats.emplace_back("replacements", std::to_string(counts.replacements));
    if (counts.new_instructions > 0)
      info.stats.emplace_back("new", std::to_string(counts.new_instructions));
  }

  void Add(const ProvenanceCarryCounts& counts) {
    ProvenanceCarryCounts& sum = result_.carried;
    sum.by_name += counts.by_name;
    sum.by_structure += counts.by_structure;
    sum.into_fusions += counts.into_fusions;
    sum.replacements += counts.replacements;
    sum.rewrite_parts += counts.rewrite_parts;
    sum.new_instructions += counts.new_instructions;
  }

  std::string_view text_;
  std::string path_;
  MlirLogImportOptions options_;
  recording::Recorder recorder_;
  MlirLogImport result_;
  MlirOperationTree state_;
  std::unique_ptr<Module> previous_;
  uint64_t previous_fingerprint_ = 0;
  int64_t next_id_ = 1;
  int64_t pass_index_ = 0;
  size_t section_warnings_ = 0;
  std::optional<MlirLogSection> previous_before_;
  bool failed_ = false;
  // One per snapshot the recorder took, as it took them.
  std::vector<recording::SnapshotSource> sources_;
  recording::SnapshotSource pending_source_;  // of the section being imported
};

}  // namespace

recording::Recording FinishImportedRecording(recording::Recorder& recorder, const Module& last,
                                             std::vector<recording::SnapshotSource> sources) {
  recorder.AfterPipeline(last);
  recording::Recording recording = recorder.TakeRecording();
  recording.total_seconds = 0;
  recording.imported = true;
  if (sources.size() == recording.snapshots.size()) recording.sources = std::move(sources);
  return recording;
}

std::string FolderModelName(const std::string& folder, const std::string& fallback) {
  std::string model = std::filesystem::path(folder).lexically_normal().filename().string();
  if (model.empty() || model == ".")
    model = std::filesystem::path(folder).parent_path().filename().string();
  return model.empty() ? fallback : model;
}

StatusOr<std::string> ReadTextFile(const std::string& path, int64_t max_bytes) {
  std::error_code error;
  const uintmax_t size = std::filesystem::file_size(path, error);
  if (error) return Status::Error(path + ": cannot read: " + error.message());
  if (size > static_cast<uintmax_t>(max_bytes)) {
    return Status::Error(path + ": " + std::to_string(size) + " bytes, over the limit of " +
                         std::to_string(max_bytes) + " bytes");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Error(path + ": cannot open file");
  std::string text(static_cast<size_t>(size), '\0');
  in.read(text.data(), static_cast<std::streamsize>(size));
  text.resize(static_cast<size_t>(in.gcount()));
  if (in.bad()) return Status::Error(path + ": read error");
  return text;
}

StatusOr<MlirLogImport> ImportMlirLogText(std::string_view text, const std::string& path,
                                          const MlirLogImportOptions& options) {
  return LogImporter(text, path, options).Run();
}

StatusOr<MlirLogImport> ImportMlirLogFile(const std::string& path,
                                          const MlirLogImportOptions& options) {
  auto text = ReadTextFile(path, options.max_file_bytes);
  if (!text.ok()) return text.status();
  return ImportMlirLogText(*text, path, options);
}

}  // namespace fusescope::ir::mlir_import
