// `fusescope import DUMP_DIR -o RUN.fsdb [--module NAME] [--json]` and
// `fusescope import DUMP_DIR --list [--json]`: an XLA dump folder (`--xla_dump_to` with
// `--xla_dump_hlo_pass_re=.*`) becomes a recording whose passes are XLA's own. Files that are
// no HLO snapshot are listed as skipped; a snapshot that does not read or parse is a warning
// on stderr and left out. `fusescope import LOG -o RUN.fsdb`: an MLIR pass log
// (`--mlir-print-ir-after-all`, known by its section headers) becomes a recording of its
// sections; how each section was read (libMLIR or the tolerant reader) is summarised.
// `fusescope import STAGE_DIR -o RUN.fsdb`: a folder of numbered MLIR stage files
// (importers/mlir/mlir_stage_folder.h) becomes a recording of one snapshot per stage, read and
// summarised as a log's sections are. `fusescope import TVM_DUMP_DIR -o RUN.fsdb`: a folder
// TVM's DumpIR instrument wrote (importers/tvm/tvm_dump_folder.h), one snapshot per pass.
// `fusescope import TRACE_DIR -o RUN.fsdb`: PyTorch Inductor's debug trace
// (importers/inductor/inductor_trace.h), one snapshot per stage, a function per graph.
// `fusescope import TREE_DIR -o RUN.fsdb`: a folder of `--mlir-print-ir-tree-dir` dumps
// (importers/mlir/mlir_tree_dir.h), read as the log its files make in run order. With
// `--iree-executables DIR` (iree-compile's --iree-hal-dump-executable-files-to), each
// dispatch's sources, LLVM IR and assembly become the kernel level of the recording, attached
// to the dispatch's node in the last snapshot (importers/iree_executable_dump.h).
// `fusescope import ENGINE_LAYERS.json [--profile P.json]
// [--times T.json] [--onnx MODEL.onnx] [--shape-profile N] -o RUN.fsdb`: TensorRT's exported
// layer information (known by content: a JSON object opening with "Layers") becomes a recording
// of its engine (app/cli/tensorrt_import.h).

#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <system_error>
#include <utility>

#include "app/cli/command.h"
#include "app/cli/common_flags.h"
#include "app/cli/model_loader.h"
#include "app/cli/ort_import.h"
#include "app/cli/tensorrt_import.h"
#include "importers/inductor/inductor_trace.h"
#include "importers/input_kind.h"
#include "importers/iree_executable_dump.h"
#include "importers/mlir/mlir_log_importer.h"
#include "importers/mlir/mlir_stage_folder.h"
#include "importers/mlir/mlir_tree_dir.h"
#include "importers/tvm/tvm_dump_folder.h"
#include "importers/xla_dump_folder.h"
#include "importers/xla_dump_importer.h"
#include "ir/json_writer.h"
#include "recording/kernel_store.h"
#include "recording/operation_counts.h"
#include "recording/recording_store.h"

namespace fusescope::app {
namespace {

void ModulesJson(JsonWriter& json, const ir::XlaDumpFolder& folder) {
  const ir::XlaDumpModule* chosen = folder.Default();
  json.Key("modules").BeginArray();
  for (const ir::XlaDumpModule& module : folder.modules) {
    json.BeginObject();
    json.Key("id").Int(module.id);
    json.Key("name").String(module.name);
    json.Key("label").String(module.Label());
    json.Key("snapshots").Int(static_cast<int64_t>(module.snapshots.size()));
    json.Key("bytes").Int(module.bytes);
    json.Key("platform").String(module.platform);
    json.Key("default").Bool(&module == chosen);
    json.EndObject();
  }
  json.EndArray();
}

// The skipped entries of `module` and of no module, for one line each; entries of other
// modules are only counted.
struct SkipList {
  std::vector<const ir::XlaDumpSkippedEntry*> shown;
  int64_t other_files = 0;
  int64_t other_modules = 0;
};

SkipList SkippedFor(const ir::XlaDumpFolder& folder, const ir::XlaDumpModule* module) {
  SkipList list;
  std::map<int64_t, bool> others;
  for (const ir::XlaDumpSkippedEntry& entry : folder.skipped) {
    if (module == nullptr || entry.module_id < 0 || entry.module_id == module->id) {
      list.shown.push_back(&entry);
    } else {
      ++list.other_files;
      others[entry.module_id] = true;
    }
  }
  for (const ir::XlaDumpModule& other : folder.modules) {
    if (module != nullptr && &other != module) {
      list.other_files += static_cast<int64_t>(other.snapshots.size());
      others[other.id] = true;
    }
  }
  list.other_modules = static_cast<int64_t>(others.size());
  return list;
}

void SkippedJson(JsonWriter& json, const SkipList& list) {
  json.Key("skipped").BeginArray();
  for (const ir::XlaDumpSkippedEntry* entry : list.shown) {
    json.BeginObject();
    json.Key("file").String(entry->file_name);
    json.Key("reason").String(entry->reason);
    json.EndObject();
  }
  json.EndArray();
  json.Key("other_module_files").Int(list.other_files);
}

void PrintSkipped(const SkipList& list) {
  for (const ir::XlaDumpSkippedEntry* entry : list.shown) {
    std::cout << "skipped " << entry->file_name << ": " << entry->reason << '\n';
  }
  if (list.other_files > 0) {
    std::cout << "ignored " << list.other_files << " files of " << list.other_modules
              << " other module" << (list.other_modules == 1 ? "" : "s")
              << " (choose one with --module)\n";
  }
}

int PrintList(const ir::XlaDumpFolder& folder, bool json_output) {
  const SkipList skipped = SkippedFor(folder, nullptr);
  if (json_output) {
    JsonWriter json;
    json.BeginObject();
    json.Key("folder").String(folder.path);
    ModulesJson(json, folder);
    SkippedJson(json, skipped);
    json.EndObject();
    std::cout << json.str() << '\n';
    return 0;
  }
  const ir::XlaDumpModule* chosen = folder.Default();
  std::cout << folder.path << ": " << folder.modules.size() << " module"
            << (folder.modules.size() == 1 ? "" : "s") << ", " << folder.skipped.size()
            << " other entries\n";
  for (const ir::XlaDumpModule& module : folder.modules) {
    std::cout << "  " << module.Label() << "  " << module.snapshots.size() << " snapshots, "
              << module.bytes << " bytes" << (&module == chosen ? "  (default)" : "") << '\n';
  }
  return 0;
}

void PrintSummary(const ir::XlaDumpModule& module, const ir::XlaDumpImport& imported,
                  const SkipList& skipped, const std::string& output, bool json_output) {
  const recording::Recording& recording = imported.recording;
  int64_t changed = 0;
  for (const auto& pass : recording.passes) changed += pass.changed ? 1 : 0;
  // Counted as `passes` counts: operations outside fusion bodies, and what fusions hold.
  const recording::OperationCounts before = recording::CountOperations(recording.input());
  const recording::OperationCounts after = recording::CountOperations(recording.snapshots.back());
  const ir::ProvenanceCarryCounts& carried = imported.carried;
  if (json_output) {
    JsonWriter json;
    json.BeginObject();
    json.Key("recording").String(output);
    json.Key("module").String(module.Label());
    json.Key("snapshot_files").Int(static_cast<int64_t>(module.snapshots.size()));
    json.Key("files_read").Int(imported.files_read);
    json.Key("passes").Int(static_cast<int64_t>(recording.passes.size()));
    json.Key("passes_changed").Int(changed);
    json.Key("operations_before").Int(before.operations);
    json.Key("operations_after").Int(after.operations);
    json.Key("instructions_before").Int(before.instructions());
    json.Key("instructions_after").Int(after.instructions());
    json.Key("fusions").Int(after.fusions);
    // XLA's own priority-fusion decisions, from its fusion process dump.
    json.Key("xla_decisions").Int(static_cast<int64_t>(recording.decisions.size()));
    json.Key("carried").BeginObject();
    json.Key("by_name").Int(carried.by_name);
    json.Key("by_structure").Int(carried.by_structure);
    json.Key("into_fusions").Int(carried.into_fusions);
    json.Key("replacements").Int(carried.replacements);
    json.Key("rewrite_parts").Int(carried.rewrite_parts);
    json.Key("new").Int(carried.new_instructions);
    json.EndObject();
    json.Key("warnings").BeginArray();
    for (const std::string& warning : imported.warnings) json.String(warning);
    json.EndArray();
    SkippedJson(json, skipped);
    json.EndObject();
    std::cout << json.str() << '\n';
    return;
  }
  std::cout << "imported " << module.Label() << " (" << imported.files_read << " of "
            << module.snapshots.size() << " snapshot files) -> " << output << '\n'
            << "  passes:       " << recording.passes.size() << ", " << changed
            << " changed the module\n"
            << "  operations:   " << recording::DescribeCounts(before, after) << '\n'
            << "  provenance:   " << carried.by_name << " by name, " << carried.by_structure
            << " by structure (" << carried.into_fusions << " into fusions), "
            << carried.replacements << " replacements, " << carried.rewrite_parts
            << " parts of rewrites, " << carried.new_instructions << " new\n";
  if (!recording.decisions.empty()) {
    int64_t accepted = 0;
    for (const auto& decision : recording.decisions) accepted += decision.accepted() ? 1 : 0;
    std::cout << "  decisions:    " << recording.decisions.size()
              << " of XLA's own priority fusion (" << accepted << " fused, "
              << recording.decisions.size() - accepted << " refused), from "
              << std::filesystem::path(module.fusion_process_dump).filename().string() << '\n';
  }
  PrintSkipped(skipped);
}

// What an MLIR-like import read: a log's sections, or a folder's stage files.
enum class StageSource { kMlirLog, kMlirStageFolder, kTvmDumpFolder, kMlirTreeDir, kInductorTrace };

// `kernels`: how many kernels an executable dump added, and how many found their dispatch.
void PrintMlirSummary(const ir::mlir_import::MlirLogImport& imported, const std::string& output,
                      bool json_output, StageSource source,
                      const std::optional<std::pair<int64_t, int64_t>>& kernels) {
  const bool stages = source != StageSource::kMlirLog;
  const bool tvm = source == StageSource::kTvmDumpFolder;
  const bool inductor = source == StageSource::kInductorTrace;
  const recording::Recording& recording = imported.recording;
  int64_t changed = 0;
  for (const auto& pass : recording.passes) changed += pass.changed ? 1 : 0;
  int64_t by_mlir = 0;
  int64_t tolerant = 0;
  int64_t skipped = 0;
  for (const auto& section : imported.sections) {
    by_mlir += section.read_by_mlir ? 1 : 0;
    tolerant += !section.read_by_mlir && section.operations > 0 ? 1 : 0;
    skipped += section.skipped ? 1 : 0;
  }
  const recording::OperationCounts before = recording::CountOperations(recording.input());
  const recording::OperationCounts after = recording::CountOperations(recording.snapshots.back());
  if (json_output) {
    JsonWriter json;
    json.BeginObject();
    json.Key("recording").String(output);
    json.Key("sections").Int(static_cast<int64_t>(imported.sections.size()));
    json.Key("passes").Int(static_cast<int64_t>(recording.passes.size()));
    json.Key("passes_changed").Int(changed);
    json.Key("refused_by_mlir").Int(imported.refused_by_mlir);
    json.Key("read_tolerantly").Int(tolerant);
    json.Key("sections_left_out").Int(skipped);
    json.Key("cut_off").Bool(imported.cut_off);
    json.Key("failed").Bool(recording.failed());
    json.Key("instructions_before").Int(before.instructions());
    json.Key("instructions_after").Int(after.instructions());
    json.Key("section_list").BeginArray();
    for (const auto& section : imported.sections) {
      json.BeginObject();
      if (stages) {
        json.Key("file").String(section.file);
      } else {
        json.Key("line").Int(section.header_line);
      }
      json.Key("pass").String(section.pass);
      json.Key("reader").String(section.read_by_mlir     ? "libMLIR"
                                : section.operations > 0 ? (tvm        ? "tvmscript"
                                                            : inductor ? "inductor"
                                                                       : "tolerant")
                                                         : "none");
      json.Key("left_out").Bool(section.skipped);
      json.Key("operations").Int(section.operations);
      json.Key("scoped").Bool(section.scoped);
      if (!section.mlir_error.empty()) json.Key("mlir_error").String(section.mlir_error);
      json.EndObject();
    }
    json.EndArray();
    json.Key("warnings").BeginArray();
    for (const std::string& warning : imported.warnings) json.String(warning);
    json.EndArray();
    if (kernels) {
      json.Key("kernels").Int(kernels->first);
      json.Key("kernels_attached").Int(kernels->second);
    }
    json.EndObject();
    std::cout << json.str() << '\n';
    return;
  }
  const bool tree = source == StageSource::kMlirTreeDir;
  std::cout << (tvm        ? "imported TVM DumpIR folder ("
                : inductor ? "imported Inductor debug trace ("
                : tree     ? "imported MLIR print-ir tree ("
                : stages   ? "imported MLIR stage folder ("
                           : "imported MLIR pass log (")
            << imported.sections.size()
            << (tree     ? " dump files) -> "
                : stages ? " stage files) -> "
                         : " sections) -> ")
            << output << '\n'
            << "  passes:       " << recording.passes.size() << ", " << changed << " changed the IR"
            << (recording.failed() ? ", the last one failed" : "") << '\n';
  if (tvm || inductor) {
    std::cout << "  read:         " << tolerant << (tvm ? " as TVMScript, " : " stages, ")
              << skipped << " left out (unreadable)\n";
  } else {
    std::cout << "  read:         " << by_mlir << " by libMLIR, " << tolerant
              << " by the tolerant reader (libMLIR refused " << imported.refused_by_mlir << "), "
              << skipped << " left out (unreadable, or Before dumps of unchanged IR)\n";
  }
  std::cout << "  operations:   " << recording::DescribeCounts(before, after) << '\n';
  if (kernels) {
    std::cout << "  kernels:      " << kernels->first << ", " << kernels->second
              << " attached to their dispatch\n";
  }
  if (imported.cut_off)
    std::cout << (stages ? "  the last stage file is cut off\n"
                         : "  the log is cut off inside its last section\n");
}

// The kernels of an IREE executable dump, attached to the dispatches of the recording's last
// snapshot and stored in `output`: how many, and how many found their dispatch.
StatusOr<std::pair<int64_t, int64_t>> AddIreeKernels(const recording::Recording& recording,
                                                     const std::string& folder,
                                                     const std::string& output) {
  auto kernels = ir::ReadIreeExecutableDump(folder);
  if (!kernels.ok()) return kernels.status();
  auto module = recording.snapshots.back().ToModule();
  if (!module.ok()) return module.status();
  ir::AttachIreeKernels(**module, *kernels);
  const int snapshot = static_cast<int>(recording.snapshots.size()) - 1;
  if (Status added = recording::AddKernels(output, snapshot, "", *kernels); !added.ok())
    return added;
  int64_t attached = 0;
  for (const recording::KernelRecord& kernel : *kernels) attached += kernel.instruction_id >= 0;
  return std::make_pair(static_cast<int64_t>(kernels->size()), attached);
}

// An MLIR pass log, or a folder of stage files.
int ImportMlirLog(const std::string& path, const std::string& output, bool json_output,
                  StageSource source, const std::optional<std::string>& executables) {
  auto imported =
      source == StageSource::kTvmDumpFolder     ? ir::tvm_import::ImportTvmDumpFolder(path)
      : source == StageSource::kInductorTrace   ? ir::inductor_import::ImportInductorTrace(path)
      : source == StageSource::kMlirStageFolder ? ir::mlir_import::ImportMlirStageFolder(path)
      : source == StageSource::kMlirTreeDir     ? ir::mlir_import::ImportMlirTreeDir(path)
                                                : ir::mlir_import::ImportMlirLogFile(path);
  if (!imported.ok()) return Fail(imported.message());
  for (const std::string& warning : imported->warnings) std::cerr << "warning: " << warning << '\n';
  if (Status saved = recording::SaveRecording(imported->recording, output); !saved.ok()) {
    return Fail(saved.message());
  }
  std::optional<std::pair<int64_t, int64_t>> kernels;
  if (executables) {
    auto added = AddIreeKernels(imported->recording, *executables, output);
    if (!added.ok()) return Fail(added.message());
    kernels = *added;
  }
  PrintMlirSummary(*imported, output, json_output, source, kernels);
  return 0;
}

int RunImport(const ParsedArgs& args) {
  const bool list = args.Has("--list");
  if (args.positional().empty()) return FailUsage(args, "missing SOURCE");
  if (args.Has("--optimized-from")) {
    if (list || args.Has("--module"))
      return Fail(
          "import: --list and --module are for XLA dump folders, not with --optimized-from");
    return ImportOrtOptimized(args);
  }
  const std::string& source = args.positional()[0];
  // What the source is, told once (importers/input_kind.h). A source it cannot tell goes on
  // to the XLA dump scan, whose error says what the folder holds instead.
  const StatusOr<importers::ClassifiedInput> classified = importers::ClassifyInput(source);
  auto is = [&classified](importers::InputKind kind) {
    return classified.ok() && classified->kind == kind;
  };
  const bool tensorrt = is(importers::InputKind::kTensorRtLayerInfo);
  for (const char* flag : {"--profile", "--times", "--onnx", "--shape-profile"}) {
    if (args.Has(flag) && !tensorrt) {
      return Fail(std::string("import: ") + flag + " is for TensorRT layer information (" + source +
                  " is none: no JSON object opening with \"Layers\")");
    }
  }
  if (tensorrt) {
    if (list || args.Has("--module")) {
      return Fail("import: --list and --module are for XLA dump folders; " + source +
                  " is TensorRT layer information");
    }
    return ImportTensorRt(args);
  }
  std::optional<StageSource> stages;
  if (is(importers::InputKind::kMlirPassLog)) stages = StageSource::kMlirLog;
  if (is(importers::InputKind::kTvmDumpFolder)) stages = StageSource::kTvmDumpFolder;
  if (is(importers::InputKind::kInductorTrace)) stages = StageSource::kInductorTrace;
  if (is(importers::InputKind::kMlirTreeFolder)) stages = StageSource::kMlirTreeDir;
  if (is(importers::InputKind::kMlirStageFolder)) stages = StageSource::kMlirStageFolder;
  if (stages) {
    if (list) {
      return Fail("import: --list is for XLA dump folders; " + source + " is a " +
                  std::string(importers::KindName(classified->kind)));
    }
    return ImportMlirLog(source, *args.Value("-o"), args.Has("--json"), *stages,
                         args.Value("--iree-executables"));
  }
  if (is(importers::InputKind::kIreeExecutableFolder)) {
    return Fail("import: " + source +
                " holds IREE executable files: import the MLIR log or tree dump of their "
                "compile, with --iree-executables " +
                source);
  }
  if (std::error_code error; std::filesystem::is_regular_file(source, error)) {
    return Fail(source +
                ": neither an XLA dump folder, an MLIR pass log (no '// -----// IR Dump' "
                "section header in its first 64 KiB) nor TensorRT layer information (no JSON "
                "object opening with \"Layers\")");
  }
  auto folder = ir::ScanXlaDumpFolder(args.positional()[0]);
  if (!folder.ok()) return Fail(folder.message());
  if (list) return PrintList(*folder, args.Has("--json"));

  const ir::XlaDumpModule* module = folder->Default();
  if (auto which = args.Value("--module")) {
    auto found = folder->Find(*which);
    if (!found.ok()) return Fail(found.message());
    module = *found;
  }
  auto imported = ir::ImportXlaDumpModule(*module, folder->path);
  if (!imported.ok()) return Fail(imported.message());
  for (const std::string& warning : imported->warnings) std::cerr << "warning: " << warning << '\n';
  const std::string output = *args.Value("-o");
  if (Status saved = recording::SaveRecording(imported->recording, output); !saved.ok()) {
    return Fail(saved.message());
  }
  PrintSummary(*module, *imported, SkippedFor(*folder, module), output, args.Has("--json"));
  return 0;
}

const CommandRegistrar kRegistrar({
    .name = "import",
    .summary = "an XLA dump folder (--xla_dump_to), an MLIR pass log "
               "(--mlir-print-ir-after-all), a folder of numbered MLIR stage files (N_name.mlir), "
               "a folder of TVM DumpIR files (NNN_Pass.py TVMScript), PyTorch Inductor's debug "
               "trace (torchinductor/model__*: FX graphs, scheduler nodes, generated code), a "
               "folder of MLIR dumps "
               "(--mlir-print-ir-tree-dir, iree-compile) or TensorRT's exported layer information "
               "(trtexec --exportLayerInfo, with its --exportProfile and --exportTimes), or ONNX "
               "Runtime's optimized model (--optimized-from) as a recording of the compiler's own "
               "passes",
    .positionals = {{"SOURCE",
                     "DUMP_DIR (XLA), MLIR_LOG, STAGE_DIR (N_name.mlir files), TVM_DUMP_DIR, "
                     "TRACE_DIR (Inductor's trace.debug_dir or TORCH_COMPILE_DEBUG's folder), "
                     "TREE_DIR (--mlir-print-ir-tree-dir), ENGINE_LAYERS.json (TensorRT) or "
                     "OPTIMIZED.onnx (ONNX Runtime, with --optimized-from)"}},
    .flags =
        {
            Text("-o", "RUN.fsdb", "the recording to write").Required(),
            Text("--module", "NAME", "an XLA dump's module (default: its main one)"),
            Switch("--list", "an XLA dump's modules, instead of importing one").Mode(),
            Text("--iree-executables", "DIR",
                 "an MLIR log's IREE executables (--iree-hal-dump-executable-files-to), "
                 "stored as kernels"),
            Text("--profile", "P.json",
                 "TensorRT: the --exportProfile file (default: beside the layers)"),
            Text("--times", "T.json",
                 "TensorRT: the --exportTimes file (default: beside the layers)"),
            Text("--onnx", "MODEL.onnx", "TensorRT: the model the engine was built from"),
            Text("--optimized-from", "MODEL.onnx",
                 "SOURCE is ONNX Runtime's optimized model (optimized_model_filepath) of "
                 "MODEL: a recording of ORT's graph optimizations"),
            Integer("--shape-profile", "N",
                    "TensorRT: the optimization profile to import (default: the one the "
                    "layer profile names, else 0)"),
            JsonFlag(),
        },
    .run = RunImport,
    .runs_kernels = false,
});

}  // namespace
}  // namespace fusescope::app
