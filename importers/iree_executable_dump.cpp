#include "importers/iree_executable_dump.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <utility>

#include "ir/computation.h"
#include "ir/instruction.h"

namespace fusescope::ir {
namespace {

namespace fs = std::filesystem;

// A stage file's kind by how its name ends, in lowering order.
struct StageKind {
  const char* suffix;
  const char* stage;
  bool per_variant;
};
constexpr StageKind kStageKinds[] = {
    {".mlir", "source", false},
    {".mlir", "configured", false},
    {"_benchmark.mlir", "benchmark", true},
    {".codegen.ll", "llvm-ir", true},
    {".linked.ll", "llvm-ir-linked", true},
    {".optimized.ll", "llvm-ir-optimized", true},
    {".s", "asm", true},
};
constexpr int kSource = 0;
constexpr int kConfigured = 1;

bool EndsWith(const std::string& text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(),
                                                      suffix.data(), suffix.size()) == 0;
}

// One file of the folder: the dispatch (and variant) it belongs to, its stage.
struct StageFile {
  std::string dispatch;
  std::string variant;  // empty for the sources shared by all variants
  int kind = -1;
  std::string path;
};

StatusOr<std::string> ReadText(const std::string& path, int64_t max_bytes) {
  std::error_code error;
  const uintmax_t size = fs::file_size(path, error);
  if (error) return Status::Error(path + ": cannot read: " + error.message());
  if (size > static_cast<uintmax_t>(max_bytes))
    return Status::Error(path + ": " + std::to_string(size) + " bytes, over the limit");
  std::ifstream in(path, std::ios::binary);
  std::string text(static_cast<size_t>(size), '\0');
  in.read(text.data(), static_cast<std::streamsize>(size));
  if (!in) return Status::Error(path + ": read error");
  return text;
}

// Splits `rest` ("main_dispatch_0_embedded_elf_x86_64") into dispatch and variant where the
// dispatch is one of `dispatches` (the longest that fits).
std::optional<std::pair<std::string, std::string>> SplitVariant(
    const std::string& rest, const std::vector<std::string>& dispatches) {
  std::optional<std::pair<std::string, std::string>> best;
  for (const std::string& dispatch : dispatches) {
    if (rest.size() > dispatch.size() + 1 && rest.compare(0, dispatch.size(), dispatch) == 0 &&
        rest[dispatch.size()] == '_' && (!best || dispatch.size() > best->first.size())) {
      best = std::make_pair(dispatch, rest.substr(dispatch.size() + 1));
    }
  }
  return best;
}

std::vector<StageFile> ClassifyFiles(const std::string& folder) {
  std::vector<std::string> names;
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(folder, error)) {
    if (entry.is_regular_file(error)) names.push_back(entry.path().filename().string());
  }
  // The dispatches are named by their source files: module_D.mlir with no variant stage
  // suffix.
  std::vector<std::string> dispatches;
  for (const std::string& name : names) {
    if (name.rfind("module_", 0) == 0 && EndsWith(name, ".mlir") &&
        !EndsWith(name, "_benchmark.mlir"))
      dispatches.push_back(name.substr(7, name.size() - 7 - 5));
  }
  std::vector<StageFile> files;
  for (const std::string& name : names) {
    StageFile file;
    file.path = (fs::path(folder) / name).string();
    if (name.rfind("configured_module_", 0) == 0 && EndsWith(name, ".mlir")) {
      file.dispatch = name.substr(18, name.size() - 18 - 5);
      file.kind = kConfigured;
    } else if (name.rfind("module_", 0) == 0) {
      const std::string rest = name.substr(7);
      for (int kind = 2; kind < static_cast<int>(std::size(kStageKinds)); ++kind) {
        const std::string_view suffix = kStageKinds[kind].suffix;
        if (!EndsWith(rest, suffix)) continue;
        auto split = SplitVariant(rest.substr(0, rest.size() - suffix.size()), dispatches);
        if (!split) continue;
        file.dispatch = split->first;
        file.variant = split->second;
        file.kind = kind;
        break;
      }
      if (file.kind < 0 && EndsWith(rest, ".mlir")) {
        file.dispatch = rest.substr(0, rest.size() - 5);
        file.kind = kSource;
      }
    }
    if (file.kind >= 0) files.push_back(std::move(file));
  }
  return files;
}

}  // namespace

bool LooksLikeIreeExecutableDump(const std::string& folder) {
  bool source = false;
  bool lowered = false;
  for (const StageFile& file : ClassifyFiles(folder)) {
    source = source || file.kind == kSource;
    lowered = lowered || file.kind >= 3;
  }
  return source && lowered;
}

StatusOr<std::vector<recording::KernelRecord>> ReadIreeExecutableDump(const std::string& folder,
                                                                      int64_t max_file_bytes) {
  std::error_code error;
  if (!fs::is_directory(folder, error))
    return Status::Error(folder + ": not a folder (--iree-hal-dump-executable-files-to)");
  const std::vector<StageFile> files = ClassifyFiles(folder);
  // Dispatch -> variant -> kind -> file; the shared sources under variant "".
  std::map<std::string, std::map<std::string, std::map<int, const StageFile*>>> by_dispatch;
  for (const StageFile& file : files) by_dispatch[file.dispatch][file.variant][file.kind] = &file;
  std::vector<recording::KernelRecord> kernels;
  for (const auto& [dispatch, variants] : by_dispatch) {
    std::vector<std::string> names;
    for (const auto& [variant, stages] : variants) {
      if (!variant.empty()) names.push_back(variant);
    }
    if (names.empty()) names.push_back("");  // sources only: nothing was lowered
    const auto shared = variants.find("");
    for (const std::string& variant : names) {
      recording::KernelRecord kernel;
      kernel.kernel = names.size() > 1 ? dispatch + "@" + variant : dispatch;
      kernel.backend = variant.empty() ? "iree" : "iree-" + variant;
      kernel.options = "iree-hal-dump-executable-files";
      std::map<int, const StageFile*> stages;
      if (shared != variants.end()) stages = shared->second;
      if (auto own = variants.find(variant); own != variants.end() && !variant.empty())
        stages.insert(own->second.begin(), own->second.end());
      for (const auto& [kind, file] : stages) {
        auto text = ReadText(file->path, max_file_bytes);
        if (!text.ok()) return text.status();
        kernel.stages.push_back({kStageKinds[kind].stage, std::move(text).value()});
      }
      if (variant.empty()) kernel.note = "no lowered files (.ll, .s) for this dispatch";
      kernels.push_back(std::move(kernel));
    }
  }
  if (kernels.empty()) {
    return Status::Error(folder +
                         ": no IREE executable files (module_<dispatch>.mlir, .ll, .s) here");
  }
  return kernels;
}

void AttachIreeKernels(const Module& module, std::vector<recording::KernelRecord>& kernels) {
  for (recording::KernelRecord& kernel : kernels) {
    const std::string dispatch = kernel.kernel.substr(0, kernel.kernel.find('@'));
    const Instruction* found = module.FindInstruction(dispatch);
    if (found == nullptr) {
      // A later stage may have renamed it; the operation still names its symbol.
      for (const auto& computation : module.computations()) {
        for (const auto& instruction : computation->instructions()) {
          const auto text = instruction->attribute("mlir");
          if (found == nullptr && text && text->find("@" + dispatch + " ") != std::string::npos &&
              instruction->opcode_name().find("executable") != std::string_view::npos)
            found = instruction.get();
        }
      }
    }
    if (found != nullptr) {
      kernel.instruction_id = found->id();
    } else {
      kernel.note +=
          (kernel.note.empty() ? "" : "; ") + std::string("dispatch not in the recorded module");
    }
  }
}

}  // namespace fusescope::ir
