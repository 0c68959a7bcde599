// fusescope_onnx_survey [FOLDER] [--verbose]: imports every model.onnx under FOLDER (Debian's
// libonnx-testdata by default) and counts the models that map fully, load with opaque
// custom-calls (which ops), or fail (reasons grouped).

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "importers/onnx/onnx_importer.h"

namespace {

namespace fs = std::filesystem;
using fusescope::ir::onnx_import::ImportOnnxFile;

// The reason without what differs from model to model: quoted names and numbers.
std::string ReasonKey(const std::string& message, const std::string& path) {
  std::string text = message.rfind(path, 0) == 0 ? message.substr(path.size()) : message;
  std::string key;
  bool in_quote = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (ch == '\'') {
      in_quote = !in_quote;
      if (in_quote) key += "'…'";
      continue;
    }
    if (in_quote) continue;
    if (std::isdigit(static_cast<unsigned char>(ch))) {
      if (key.empty() || key.back() != 'N') key += 'N';
      continue;
    }
    key += ch;
  }
  return key;
}

template <typename Map>
void PrintCounts(const Map& counts, const std::string& indent) {
  std::vector<std::pair<std::string, int>> sorted(counts.begin(), counts.end());
  std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  for (const auto& [name, count] : sorted) std::cout << indent << count << "  " << name << '\n';
}

}  // namespace

int main(int argc, char** argv) {
  std::string root = "/usr/share/libonnx-testdata/data";
  bool verbose = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--verbose") {
      verbose = true;
    } else {
      root = arg;
    }
  }
  std::error_code ec;
  if (!fs::is_directory(root, ec)) {
    std::cerr << "fusescope_onnx_survey: " << root << ": not a folder\n";
    return 1;
  }
  std::vector<std::string> models;
  for (const auto& entry : fs::recursive_directory_iterator(root, ec)) {
    if (entry.is_regular_file() && entry.path().extension() == ".onnx") {
      models.push_back(entry.path().string());
    }
  }
  std::sort(models.begin(), models.end());
  int full = 0;
  int opaque = 0;
  std::map<std::string, int> opaque_ops;
  std::map<std::string, int> failures;
  for (const std::string& path : models) {
    auto result = ImportOnnxFile(path);
    if (!result.ok()) {
      ++failures[ReasonKey(result.message(), path)];
      if (verbose) std::cout << "FAIL " << result.message() << '\n';
      continue;
    }
    if (result->opaque_ops.empty()) {
      ++full;
      if (verbose) std::cout << "FULL " << path << '\n';
    } else {
      ++opaque;
      for (const std::string& op : result->opaque_ops) ++opaque_ops[op];
      if (verbose) std::cout << "OPAQUE " << path << '\n';
    }
  }
  int failed = 0;
  for (const auto& [reason, count] : failures) failed += count;
  std::cout << models.size() << " models under " << root << "\n"
            << "  " << full << " map fully\n"
            << "  " << opaque << " load with opaque ops\n"
            << "  " << failed << " fail\n";
  if (!opaque_ops.empty()) {
    std::cout << "opaque ops (models using each):\n";
    PrintCounts(opaque_ops, "  ");
  }
  if (!failures.empty()) {
    std::cout << "failure reasons:\n";
    PrintCounts(failures, "  ");
  }
  return 0;
}
