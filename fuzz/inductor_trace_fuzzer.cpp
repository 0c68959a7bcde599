// Feeds arbitrary bytes to the Inductor debug trace importer as one graph's files: the input
// is cut at NUL bytes into fx_graph_readable.py, fx_graph_transformed.py, ir_pre_fusion.txt,
// ir_post_fusion.txt, output_code.py and inductor_provenance_tracking_node_mappings.json (in
// that order; missing pieces are missing files), written into a scratch folder and imported.
// The import may fail with a message, never crash; every snapshot it records must load back
// as a module (a snapshot is stored as HLO text that parses). Anything else aborts.

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "importers/inductor/inductor_trace.h"

namespace {

namespace fs = std::filesystem;

[[noreturn]] void Die(std::string_view what, std::string_view detail) {
  std::fprintf(stderr, "%.*s\n%.*s\n", static_cast<int>(what.size()), what.data(),
               static_cast<int>(detail.size()), detail.data());
  std::abort();
}

const fs::path& Scratch() {
  static const fs::path path = [] {
    fs::path folder = fs::temp_directory_path() /
                      ("fusescope_inductor_fuzz_" + std::to_string(::getpid())) / "torchinductor" /
                      "model__0_inference_0.0";
    fs::create_directories(folder);
    return folder;
  }();
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const char* kFiles[] = {
      "fx_graph_readable.py", "fx_graph_transformed.py",
      "ir_pre_fusion.txt",    "ir_post_fusion.txt",
      "output_code.py",       "inductor_provenance_tracking_node_mappings.json"};
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const fs::path& folder = Scratch();
  size_t start = 0;
  for (const char* file : kFiles) {
    std::error_code error;
    fs::remove(folder / file, error);
    if (start > input.size()) continue;
    size_t end = input.find('\0', start);
    if (end == std::string_view::npos) end = input.size();
    std::ofstream(folder / file, std::ios::binary) << input.substr(start, end - start);
    start = end + 1;
  }
  const std::string root = folder.parent_path().parent_path().string();
  auto imported = fusescope::ir::inductor_import::ImportInductorTrace(root);
  if (!imported.ok()) {
    if (imported.message().empty()) Die("an error without a message", "");
    return 0;
  }
  for (const auto& snapshot : imported->recording.snapshots) {
    auto module = snapshot.ToModule();
    if (!module.ok()) Die("a recorded snapshot does not load back: " + module.message(), "");
  }
  return 0;
}
