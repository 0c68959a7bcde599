#include "compare/peer_catalog.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>

namespace fusescope::compare {

const std::vector<PeerInfo>& KnownPeers() {
  static const std::vector<PeerInfo> peers = {
      {"ours", "Fusescope", {"onnx", "stablehlo", "hlo"}, "(built in)", false},
      {"xla", "XLA CPU (jaxlib)", {"hlo"}, "bash scripts/setup_python.sh", false},
      {"ort", "ONNX Runtime", {"onnx"}, "bash scripts/setup_peers.sh ort", false},
      {"tvm", "TVM (Relax)", {"onnx"}, "bash scripts/setup_peers.sh tvm", false},
      {"iree", "IREE (llvm-cpu)", {"onnx", "stablehlo"}, "bash scripts/setup_peers.sh iree", false},
      {"inductor", "PyTorch Inductor", {"onnx"}, "bash scripts/setup_peers.sh inductor", false},
      {"tensorrt", "TensorRT", {"onnx"}, "pip install tensorrt (needs an NVIDIA GPU)", true},
  };
  return peers;
}

const PeerInfo* FindPeer(const std::string& name) {
  for (const PeerInfo& peer : KnownPeers())
    if (peer.name == name) return &peer;
  return nullptr;
}

StatusOr<std::vector<std::string>> ParseCompilerList(const std::string& text) {
  std::vector<std::string> names;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    std::string name = text.substr(start, comma - start);
    start = comma + 1;
    if (name.empty()) continue;
    if (!FindPeer(name)) {
      std::string known;
      for (const PeerInfo& peer : KnownPeers()) known += (known.empty() ? "" : ",") + peer.name;
      return Status::Error("unknown compiler '" + name + "' (known: " + known + ")");
    }
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  if (names.empty()) return Status::Error("no compiler named");
  return names;
}

std::string AdaptersDir(const std::string& executable_path) {
  if (const char* dir = std::getenv("FUSESCOPE_ADAPTERS_DIR"); dir && *dir) return dir;
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::path installed =
      fs::path(executable_path).parent_path() / ".." / "share" / "fusescope" / "adapters";
  if (!executable_path.empty() && fs::exists(installed / "peer.py", error))
    return fs::weakly_canonical(installed, error).string();
  return FUSESCOPE_ADAPTERS_SOURCE_DIR;
}

std::string PeerPython(const std::string& compiler) {
  std::string upper = compiler;
  std::transform(upper.begin(), upper.end(), upper.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  for (const std::string& variable :
       {"FUSESCOPE_PEER_PYTHON_" + upper, std::string("FUSESCOPE_PEER_PYTHON")}) {
    if (const char* value = std::getenv(variable.c_str()); value && *value) return value;
  }
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::path root = FUSESCOPE_SOURCE_ROOT;
  const fs::path own = root / ".venv-peers" / compiler / "bin" / "python";
  if (fs::exists(own, error)) return own.string();
  const fs::path jax = root / ".venv" / "bin" / "python";
  if (compiler == "xla" && fs::exists(jax, error)) return jax.string();
  return "python3";
}

std::vector<std::string> AdapterCommand(const std::string& compiler,
                                        const std::string& executable_path) {
  if (compiler == "ours") return {executable_path, "compare-peer"};
  return {PeerPython(compiler), AdaptersDir(executable_path) + "/peer.py", compiler};
}

}  // namespace fusescope::compare
