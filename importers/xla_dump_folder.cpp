#include "importers/xla_dump_folder.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <system_error>
#include <tuple>
#include <utility>
#include <vector>

namespace fusescope::ir {

namespace {

namespace fs = std::filesystem;

// Before-optimizations, passes by ordinal, after-optimizations; the name breaks ties.
auto OrderKey(const XlaDumpSnapshotFile& file) {
  int rank = 1;
  if (file.name.kind == XlaDumpFileName::Kind::kBeforeOptimizations) rank = 0;
  if (file.name.kind == XlaDumpFileName::Kind::kAfterOptimizations) rank = 2;
  return std::make_tuple(rank, file.name.ordinal, std::string_view(file.file_name));
}

std::string ModuleNumber(int64_t id) {
  char digits[32];
  std::snprintf(digits, sizeof digits, "%04lld", static_cast<long long>(id));
  return digits;
}

bool SameId(std::string_view text, int64_t id) {
  if (text.empty() || text.size() > 18) return false;
  int64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    value = value * 10 + (c - '0');
  }
  return value == id;
}

}  // namespace

std::string XlaDumpModule::Label() const { return "module_" + ModuleNumber(id) + "." + name; }

const XlaDumpModule* XlaDumpFolder::Default() const {
  // Helpers jitted at every call site (jax's jit__normal for each weight initialisation) share
  // one name across modules and can outweigh the model; the model's own module has its name
  // to itself. jax's private helpers (`_threefry_split`, `_reduce_sum`: jit__NAME) are never
  // the model either, and one of them can be larger than a small model. So: the largest
  // module with a name of its own that is no private helper, else the largest with a name of
  // its own, else the largest of all.
  std::map<std::string, int64_t> uses;
  for (const XlaDumpModule& module : modules) ++uses[module.name];
  const XlaDumpModule* largest = nullptr;
  const XlaDumpModule* largest_unique = nullptr;
  const XlaDumpModule* largest_public = nullptr;
  const auto larger = [](const XlaDumpModule* best, const XlaDumpModule& module) {
    return !best || module.bytes >= best->bytes;
  };
  for (const XlaDumpModule& module : modules) {
    if (larger(largest, module)) largest = &module;
    if (uses[module.name] != 1) continue;
    if (larger(largest_unique, module)) largest_unique = &module;
    if (!module.name.starts_with("jit__") && larger(largest_public, module))
      largest_public = &module;
  }
  return largest_public ? largest_public : largest_unique ? largest_unique : largest;
}

StatusOr<const XlaDumpModule*> XlaDumpFolder::Find(std::string_view which) const {
  std::string_view number = which;
  if (number.starts_with("module_")) number.remove_prefix(std::string_view("module_").size());
  for (const XlaDumpModule& module : modules) {
    if (module.Label() == which || SameId(number, module.id)) return &module;
  }
  // Helpers such as jit__normal are jitted once per call site: one name, several modules.
  std::vector<const XlaDumpModule*> named;
  for (const XlaDumpModule& module : modules) {
    if (module.name == which) named.push_back(&module);
  }
  if (named.size() == 1) return named.front();
  if (named.size() > 1) {
    std::string labels;
    for (const XlaDumpModule* module : named) {
      labels += (labels.empty() ? "" : ", ") + module->Label();
    }
    return Status::Error(path + ": " + std::to_string(named.size()) + " modules are named '" +
                         std::string(which) + "' (" + labels + "); name one by its number");
  }
  std::string known;
  for (const XlaDumpModule& module : modules) {
    known += (known.empty() ? "" : ", ") + module.Label();
  }
  return Status::Error(path + ": no module '" + std::string(which) + "' (there are " + known + ")");
}

StatusOr<XlaDumpFolder> ScanXlaDumpFolder(const std::string& path) {
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (error || !fs::exists(status)) return Status::Error(path + ": no such folder");
  if (!fs::is_directory(status)) return Status::Error(path + ": not a folder");
  fs::directory_iterator it(path, error);
  if (error) return Status::Error(path + ": cannot list the folder: " + error.message());

  XlaDumpFolder folder;
  folder.path = path;
  std::map<std::pair<int64_t, std::string>, XlaDumpModule> modules;
  for (; it != fs::directory_iterator(); it.increment(error)) {
    const std::string file_name = it->path().filename().string();
    std::error_code entry_error;
    const bool is_folder = it->is_directory(entry_error);
    const bool is_file = !is_folder && it->is_regular_file(entry_error);
    std::optional<XlaDumpFileName> name = ParseXlaDumpFileName(file_name);
    const int64_t module_id = name ? name->module_id : -1;
    if (is_folder) {
      folder.skipped.push_back({file_name, "a folder", module_id});
      continue;
    }
    if (!is_file) {
      folder.skipped.push_back({file_name, "not a regular file", module_id});
      continue;
    }
    if (!name) {
      folder.skipped.push_back({file_name, "not named like an XLA dump file", -1});
      continue;
    }
    if (file_name.ends_with(".priority_fusion_dump.txt")) {
      XlaDumpModule& module = modules[{name->module_id, name->module_name}];
      module.id = name->module_id;
      module.name = name->module_name;
      module.fusion_process_dump = it->path().string();
      continue;
    }
    if (!name->IsHloSnapshot()) {
      folder.skipped.push_back({file_name, name->what, module_id});
      continue;
    }
    XlaDumpModule& module = modules[{name->module_id, name->module_name}];
    module.id = name->module_id;
    module.name = name->module_name;
    const uintmax_t size = it->file_size(entry_error);
    const int64_t bytes = entry_error ? 0 : static_cast<int64_t>(size);
    if (name->kind == XlaDumpFileName::Kind::kAfterOptimizations) module.platform = name->platform;
    module.bytes += bytes;
    module.snapshots.push_back({it->path().string(), file_name, std::move(*name), bytes});
  }
  if (error) return Status::Error(path + ": cannot list the folder: " + error.message());

  for (auto& [key, module] : modules) {
    std::sort(module.snapshots.begin(), module.snapshots.end(),
              [](const XlaDumpSnapshotFile& a, const XlaDumpSnapshotFile& b) {
                return OrderKey(a) < OrderKey(b);
              });
    folder.modules.push_back(std::move(module));
  }
  std::sort(folder.skipped.begin(), folder.skipped.end(),
            [](const XlaDumpSkippedEntry& a, const XlaDumpSkippedEntry& b) {
              return a.file_name < b.file_name;
            });
  if (folder.modules.empty()) {
    return Status::Error(path + ": no XLA HLO dump files (module_NNNN.NAME...txt) in the folder (" +
                         std::to_string(folder.skipped.size()) + " other entries)");
  }
  return folder;
}

}  // namespace fusescope::ir
