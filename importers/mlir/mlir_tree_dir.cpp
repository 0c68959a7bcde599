#include "importers/mlir/mlir_tree_dir.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <tuple>
#include <utility>

#include "importers/mlir/mlir_log_splitter.h"

namespace fusescope::ir::mlir_import {
namespace {

namespace fs = std::filesystem;

// "17_2_canonicalize" -> counters {17, 2}, pass "canonicalize"; nullopt for other names.
std::optional<TreeDumpFile> ParseDumpStem(const std::string& stem) {
  TreeDumpFile dump;
  size_t at = 0;
  while (at < stem.size() && std::isdigit(static_cast<unsigned char>(stem[at]))) {
    size_t end = at;
    while (end < stem.size() && std::isdigit(static_cast<unsigned char>(stem[end]))) ++end;
    // A scope never dumped counts as -1, which MLIR prints as 4294967295.
    if (end - at > 10 || end >= stem.size() || stem[end] != '_') return std::nullopt;
    dump.counters.push_back(std::stoll(stem.substr(at, end - at)));
    at = end + 1;
  }
  if (dump.counters.empty() || at >= stem.size()) return std::nullopt;
  dump.pass = stem.substr(at);
  return dump;
}

bool EndsWith(const std::string& text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(),
                                                      suffix.data(), suffix.size()) == 0;
}

std::string ReadHead(const std::string& path, size_t bytes) {
  std::ifstream in(path, std::ios::binary);
  std::string head(bytes, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(in.gcount()));
  return head;
}

bool StartsWithDumpHeader(const std::string& path) {
  const std::string head = ReadHead(path, 512);
  MlirLogSection section;
  return ParseMlirLogHeader(std::string_view(head).substr(0, head.find('\n')), section);
}

void Walk(const fs::path& folder, std::vector<std::string>& folders,
          std::vector<TreeDumpFile>& files, int depth) {
  std::error_code error;
  fs::directory_iterator it(folder, error);
  if (error) return;
  std::vector<fs::path> subfolders;
  for (const fs::directory_entry& entry : it) {
    if (entry.is_symlink(error)) continue;  // a link could lead back up the tree
    if (entry.is_directory(error)) {
      subfolders.push_back(entry.path());
      continue;
    }
    if (!entry.is_regular_file(error) || entry.path().extension() != ".mlir") continue;
    std::optional<TreeDumpFile> dump = ParseDumpStem(entry.path().stem().string());
    if (!dump) continue;
    dump->path = entry.path().string();
    dump->folders = folders;
    files.push_back(std::move(*dump));
  }
  if (depth >= kMaxTreeDepth) return;
  for (const fs::path& subfolder : subfolders) {
    folders.push_back(subfolder.filename().string());
    Walk(subfolder, folders, files, depth + 1);
    folders.pop_back();
  }
}

// The operation a dump holds: its first line that is no alias, header or blank.
struct DumpedOperation {
  std::string name;    // `util.func`; `builtin.module` for `module`
  std::string symbol;  // without `@`; empty when it has none
  size_t offset = 0;   // where its line starts in the body
};

std::optional<DumpedOperation> FirstOperation(std::string_view body) {
  size_t start = 0;
  while (start < body.size()) {
    size_t end = body.find('\n', start);
    if (end == std::string_view::npos) end = body.size();
    std::string_view line = body.substr(start, end - start);
    size_t i = 0;
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    if (i < line.size() && line[i] != '#' && line.substr(i, 2) != "//") {
      DumpedOperation operation;
      operation.offset = start;
      size_t name_end = i;
      while (name_end < line.size() && (std::isalnum(static_cast<unsigned char>(line[name_end])) ||
                                        line[name_end] == '.' || line[name_end] == '_'))
        ++name_end;
      operation.name = std::string(line.substr(i, name_end - i));
      if (operation.name == "module") operation.name = "builtin.module";
      const size_t at = line.find('@', name_end);
      if (at != std::string_view::npos) {
        size_t symbol_end = at + 1;
        while (symbol_end < line.size() &&
               (std::isalnum(static_cast<unsigned char>(line[symbol_end])) ||
                line[symbol_end] == '_' || line[symbol_end] == '$' || line[symbol_end] == '.' ||
                line[symbol_end] == '-'))
          ++symbol_end;
        operation.symbol = std::string(line.substr(at + 1, symbol_end - at - 1));
      }
      if (operation.name.empty()) return std::nullopt;
      return operation;
    }
    start = end + 1;
  }
  return std::nullopt;
}

// The folder MLIR writes an operation's dumps to: its name with '.' made '_', then '_' and its
// symbol.
std::string ScopeFolder(const std::string& operation, const std::string& symbol) {
  std::string folder = operation;
  std::replace(folder.begin(), folder.end(), '.', '_');
  return folder + "_" + symbol;
}

// `module {` / `module attributes {...} {` lines of modules nested in operations with symbols
// get the symbol `@<scope folders of those operations, joined by '.'>.module`; `outer`: the
// scope folders enclosing the dump itself (a module at the top of a dump is nested when
// `outer` is not empty). Folder names, not symbols, because a dump's folders say where it is
// even where no dump of an enclosing operation was kept. Region nesting is read from
// indentation, as MLIR prints it.
std::string NameNestedModules(const std::string& body, const std::vector<std::string>& outer) {
  std::string named;
  named.reserve(body.size() + 64);
  std::vector<std::pair<size_t, std::string>> open;  // indentation, scope folder ("" for none)
  size_t start = 0;
  while (start < body.size()) {
    size_t end = body.find('\n', start);
    if (end == std::string::npos) end = body.size();
    std::string line = body.substr(start, end - start);
    start = end + 1;
    size_t indent = 0;
    while (indent < line.size() && line[indent] == ' ') ++indent;
    const std::string_view text = std::string_view(line).substr(indent);
    while (!open.empty() && open.back().first >= indent && !text.empty() && text.front() == '}')
      open.pop_back();
    const bool opens = !text.empty() && text.back() == '{';
    std::string scope;
    const bool module = (text.rfind("module ", 0) == 0 || text.rfind("builtin.module ", 0) == 0) &&
                        text.find('@') == std::string_view::npos && opens;
    if (module) {
      std::vector<std::string> path = outer;
      for (const auto& [at, folder] : open) {
        if (!folder.empty()) path.push_back(folder);
      }
      if (!path.empty()) {
        std::string symbol;
        for (const std::string& part : path) symbol += part + ".";
        symbol += "module";
        const size_t keyword = indent + text.find("module") + 6;
        line.insert(keyword, " @" + symbol);
      }
    } else if (opens) {
      auto operation = FirstOperation(text);
      if (operation && !operation->symbol.empty())
        scope = ScopeFolder(operation->name, operation->symbol);
    }
    if (opens) open.emplace_back(indent, scope);
    named += line;
    if (end < body.size()) named += '\n';
  }
  return named;
}

// Where a line of the joined log came from: from `log_line` on, `file` from `file_line` on.
struct Origin {
  int64_t log_line = 0;
  std::string file;
  int64_t file_line = 0;
};

class TreeImporter {
 public:
  TreeImporter(const std::string& folder, const MlirLogImportOptions& options)
      : folder_(folder), options_(options) {}

  StatusOr<MlirLogImport> Run() {
    const std::vector<TreeDumpFile> files = FindTreeDumpFiles(folder_);
    if (files.empty()) {
      return Status::Error(folder_ +
                           ": no MLIR dump files (N_pass.mlir, --mlir-print-ir-tree-dir) here");
    }
    top_ = files.front().folders.size();
    for (const TreeDumpFile& file : files) top_ = std::min(top_, file.folders.size());
    for (const TreeDumpFile& file : files) {
      Status added = Add(file, file.folders.size() > top_);
      if (!added.ok()) return added;
    }
    MlirLogImportOptions tree_options = options_;
    auto origins = std::make_shared<std::vector<Origin>>(std::move(origins_));
    tree_options.origin = [origins](int64_t at) {
      auto next =
          std::upper_bound(origins->begin(), origins->end(), at,
                           [](int64_t value, const Origin& o) { return value < o.log_line; });
      if (next == origins->begin()) return std::make_pair(origins->front().file, int64_t{1});
      --next;
      return std::make_pair(next->file, next->file_line + (at - next->log_line));
    };
    auto imported = ImportMlirLogText(log_, folder_, tree_options);
    if (!imported.ok()) return imported.status();
    for (MlirLogSectionReport& section : imported->sections) {
      section.file = tree_options.origin(section.header_line).first;
      section.header_line = 0;
    }
    imported->warnings.insert(imported->warnings.begin(), warnings_.begin(), warnings_.end());
    return imported;
  }

 private:
  Status Add(const TreeDumpFile& file, bool nested) {
    auto text = ReadTextFile(file.path, options_.max_file_bytes);
    if (!text.ok()) return text.status();
    if (static_cast<int64_t>(log_.size() + text->size()) > options_.max_file_bytes) {
      return Status::Error(folder_ + ": the dump files hold more than " +
                           std::to_string(options_.max_file_bytes) + " bytes");
    }
    const size_t header_end = std::min(text->find('\n'), text->size());
    std::string header = text->substr(0, header_end);
    MlirLogSection parsed;
    if (!ParseMlirLogHeader(header, parsed)) {
      warnings_.push_back(file.path + ":1:1: no '// -----// IR Dump' header; left out");
      return Status::Ok();
    }
    std::string body = header_end < text->size() ? text->substr(header_end + 1) : std::string();
    if (!body.empty() && body.back() != '\n') body += '\n';
    // Modules nested in other operations (the one inside each hal.executable.variant) have
    // no symbol, so the dumps of one could not say which it is: every dump names each
    // such module after the scopes enclosing it, the same way in every file.
    std::vector<std::string> outer;
    for (size_t i = top_; nested && i + 1 < file.folders.size(); ++i) {
      if (!EndsWith(file.folders[i], "_no-symbol-name")) outer.push_back(file.folders[i]);
    }
    body = NameNestedModules(body, outer);
    std::optional<DumpedOperation> operation = nested ? FirstOperation(body) : std::nullopt;
    // A nested operation without a symbol (`util.initializer`) is scoped by its name alone.
    if (operation && parsed.scope_operation.empty() &&
        (operation->name != "builtin.module" || !operation->symbol.empty())) {
      const size_t close = header.rfind(" //----- //");
      if (close != std::string::npos) {
        header.insert(close, " ('" + operation->name + "' operation" +
                                 (operation->symbol.empty() ? "" : ": @" + operation->symbol) +
                                 ")");
      }
    }
    origins_.push_back({line_, file.path, 1});
    log_ += header + '\n';
    ++line_;
    Append(body);
    return Status::Ok();
  }

  void Append(std::string_view text) {
    log_ += text;
    line_ += std::count(text.begin(), text.end(), '\n');
  }

  std::string folder_;
  MlirLogImportOptions options_;
  std::string log_;
  int64_t line_ = 1;
  std::vector<Origin> origins_;
  std::vector<std::string> warnings_;
  size_t top_ = 0;  // folders of the outermost module's own dumps
};

}  // namespace

std::vector<TreeDumpFile> FindTreeDumpFiles(const std::string& folder) {
  std::vector<TreeDumpFile> files;
  std::vector<std::string> folders;
  Walk(folder, folders, files, 0);
  std::sort(files.begin(), files.end(), [](const TreeDumpFile& a, const TreeDumpFile& b) {
    return std::tie(a.counters, a.path) < std::tie(b.counters, b.path);
  });
  return files;
}

bool LooksLikeMlirTreeDir(const std::string& folder) {
  std::error_code error;
  if (!fs::is_directory(folder, error)) return false;
  // The first dump in run order is enough, and cheap: a tree has hundreds of files.
  const std::vector<TreeDumpFile> files = FindTreeDumpFiles(folder);
  return !files.empty() && StartsWithDumpHeader(files.front().path);
}

StatusOr<MlirLogImport> ImportMlirTreeDir(const std::string& folder,
                                          const MlirLogImportOptions& options) {
  return TreeImporter(folder, options).Run();
}

}  // namespace fusescope::ir::mlir_import
