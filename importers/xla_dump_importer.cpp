#include "importers/xla_dump_importer.h"

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <system_error>
#include <utility>

#include "ir/hlo_parser.h"
#include "ir/hlo_printer.h"
#include "importers/xla_fusion_process_dump.h"
#include "recording/recorder.h"

namespace fusescope::ir {

namespace {

StatusOr<std::string> ReadSnapshotFile(const XlaDumpSnapshotFile& file, int64_t max_bytes) {
  std::error_code error;
  const uintmax_t size = std::filesystem::file_size(file.path, error);
  if (error) return Status::Error(file.path + ": cannot read: " + error.message());
  if (size > static_cast<uintmax_t>(max_bytes)) {
    return Status::Error(file.path + ": " + std::to_string(size) + " bytes, over the limit of " +
                         std::to_string(max_bytes));
  }
  std::ifstream in(file.path, std::ios::binary);
  if (!in) return Status::Error(file.path + ": cannot open file");
  std::string text(static_cast<size_t>(size), '\0');
  in.read(text.data(), static_cast<std::streamsize>(size));
  // A file that shrank while being read keeps what was there.
  text.resize(static_cast<size_t>(in.gcount()));
  if (in.bad()) return Status::Error(file.path + ": read error");
  return text;
}

std::vector<std::pair<std::string, std::string>> PassStats(const XlaDumpSnapshotFile& file,
                                                           const ProvenanceCarryCounts& counts,
                                                           int64_t unreadable_before) {
  std::vector<std::pair<std::string, std::string>> stats;
  if (file.name.ordinal >= 0) stats.emplace_back("ordinal", std::to_string(file.name.ordinal));
  if (!file.name.next_pass.empty()) stats.emplace_back("next", file.name.next_pass);
  if (unreadable_before > 0) {
    stats.emplace_back("unreadable files before", std::to_string(unreadable_before));
  }
  if (counts.by_clone_name > 0) stats.emplace_back("clones", std::to_string(counts.by_clone_name));
  if (counts.into_fusions > 0)
    stats.emplace_back("into fusions", std::to_string(counts.into_fusions));
  if (counts.replacements > 0)
    stats.emplace_back("replacements", std::to_string(counts.replacements));
  if (counts.rewrite_parts > 0) {
    stats.emplace_back("rewrite parts", std::to_string(counts.rewrite_parts));
  }
  if (counts.new_instructions > 0)
    stats.emplace_back("new", std::to_string(counts.new_instructions));
  stats.emplace_back("file", file.file_name);
  return stats;
}

void Add(ProvenanceCarryCounts& sum, const ProvenanceCarryCounts& counts) {
  sum.by_name += counts.by_name;
  sum.by_structure += counts.by_structure;
  sum.by_clone_name += counts.by_clone_name;
  sum.into_fusions += counts.into_fusions;
  sum.replacements += counts.replacements;
  sum.rewrite_parts += counts.rewrite_parts;
  sum.new_instructions += counts.new_instructions;
}

}  // namespace

std::string XlaDumpPassName(const XlaDumpFileName& name) {
  switch (name.kind) {
    case XlaDumpFileName::Kind::kBeforeOptimizations:
      return "before_optimizations";
    case XlaDumpFileName::Kind::kAfterOptimizations:
      return name.platform + "_after_optimizations";
    case XlaDumpFileName::Kind::kPass:
      return name.pass + " (" + name.pipeline + ")";
    case XlaDumpFileName::Kind::kNotHlo:
      break;
  }
  return name.what;
}

namespace {

Status NoFileReads(const XlaDumpModule& module, const std::string& folder_path,
                   const std::vector<std::string>& warnings) {
  return Status::Error(folder_path + ": no file of " + module.Label() + " could be read as HLO (" +
                       std::to_string(warnings.size()) + " tried; first: " +
                       (warnings.empty() ? std::string("none") : warnings.front()) + ")");
}

}  // namespace

StatusOr<XlaDumpInputText> ReadXlaDumpInputText(const XlaDumpModule& module,
                                                const std::string& folder_path,
                                                const XlaDumpImportOptions& options) {
  XlaDumpInputText input;
  for (const XlaDumpSnapshotFile& file : module.snapshots) {
    StatusOr<std::string> text = ReadSnapshotFile(file, options.max_file_bytes);
    Status parsed = text.ok() ? ParseHloModule(*text, file.path).status() : text.status();
    if (!parsed.ok()) {
      input.warnings.push_back(parsed.message());
      continue;
    }
    input.text = std::move(*text);
    return input;
  }
  return NoFileReads(module, folder_path, input.warnings);
}

StatusOr<XlaDumpImport> ImportXlaDumpModule(const XlaDumpModule& module,
                                            const std::string& folder_path,
                                            const XlaDumpImportOptions& options) {
  XlaDumpImport result;
  passes::PipelineOptions pipeline_options;
  pipeline_options.target = module.platform == "gpu" ? "gpu" : "cpu";
  recording::Recorder recorder("xla" + (module.platform.empty() ? "" : "-" + module.platform),
                               pipeline_options);
  recorder.set_model(module.name, folder_path);

  std::unique_ptr<Module> previous;
  uint64_t previous_fingerprint = 0;
  int64_t next_id = 0;
  int64_t pass_index = 0;
  int64_t unreadable = 0;
  for (const XlaDumpSnapshotFile& file : module.snapshots) {
    StatusOr<std::string> text = ReadSnapshotFile(file, options.max_file_bytes);
    StatusOr<std::unique_ptr<Module>> parsed =
        text.ok() ? ParseHloModule(*text, file.path)
                  : StatusOr<std::unique_ptr<Module>>(text.status());
    if (!parsed.ok()) {
      result.warnings.push_back(parsed.message());
      ++unreadable;
      continue;
    }
    std::unique_ptr<Module> current = std::move(parsed).value();
    const uint64_t fingerprint = Fingerprint(*current);
    ++result.files_read;
    if (!previous) {
      next_id = MaxInstructionId(*current) + 1;
      recorder.set_input_text(std::move(*text));
      recorder.BeforePipeline(*current);
    } else {
      const ProvenanceCarryCounts counts = CarryOverProvenance(*previous, *current, next_id);
      Add(result.carried, counts);
      passes::PassRunInfo info;
      info.index = pass_index++;
      info.name = XlaDumpPassName(file.name);
      info.fingerprint_before = previous_fingerprint;
      info.fingerprint_after = fingerprint;
      // XLA does not say; the measured change stands in so that no flag is called a lie.
      info.reported_changed = info.changed();
      info.stats = PassStats(file, counts, unreadable);
      recorder.BeforePass(info, *previous);
      recorder.AfterPass(info, *current);
    }
    unreadable = 0;
    previous = std::move(current);
    previous_fingerprint = fingerprint;
  }
  if (!previous) return NoFileReads(module, folder_path, result.warnings);
  recorder.AfterPipeline(*previous);
  result.recording = recorder.TakeRecording();
  result.recording.total_seconds = 0;
  result.recording.imported = true;
  if (!module.fusion_process_dump.empty()) {
    // XLA's own fusion decisions; a dump that does not read costs its decisions, not the
    // recording.
    std::ifstream file(module.fusion_process_dump, std::ios::binary);
    std::ostringstream text;
    text << file.rdbuf();
    auto dump = ParseXlaFusionProcessDump(text.str(), module.fusion_process_dump);
    StatusOr<int64_t> added = dump.ok() ? AddXlaFusionDecisions(*dump, module.fusion_process_dump,
                                                                result.recording, result.warnings)
                                        : StatusOr<int64_t>(dump.status());
    if (!added.ok()) result.warnings.push_back(added.message());
  }
  return result;
}

}  // namespace fusescope::ir
