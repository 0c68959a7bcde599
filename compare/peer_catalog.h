#ifndef FUSESCOPE_COMPARE_PEER_CATALOG_H_
#define FUSESCOPE_COMPARE_PEER_CATALOG_H_

// The compilers a comparison knows, what each takes as input, and how its adapter is started
// (compare/adapters/README.md): ours is this executable's `compare-peer` subcommand, the
// others `PYTHON compare/adapters/peer.py NAME` with the Python chosen per compiler, so that
// peers whose packages pin different numpy or runtime versions live in environments of their
// own.

#include <string>
#include <vector>

#include "ir/status.h"

namespace fusescope::compare {

struct PeerInfo {
  std::string name;                  // "tvm"
  std::string display_name;          // "TVM (Relax)"
  std::vector<std::string> formats;  // model formats its adapter takes: "onnx", "stablehlo", "hlo"
  std::string install;               // the command that installs it
  bool needs_gpu = false;
};

const std::vector<PeerInfo>& KnownPeers();
const PeerInfo* FindPeer(const std::string& name);
// "xla,ort,..." as the --compilers flag takes it; an unknown name is an error naming the known.
StatusOr<std::vector<std::string>> ParseCompilerList(const std::string& text);

// Where the adapters are: $FUSESCOPE_ADAPTERS_DIR, else share/fusescope/adapters beside an
// installed executable, else the source tree's compare/adapters.
std::string AdaptersDir(const std::string& executable_path);
// The Python for `compiler`: $FUSESCOPE_PEER_PYTHON_<NAME>, $FUSESCOPE_PEER_PYTHON,
// .venv-peers/<name>/bin/python in the source tree, .venv/bin/python (jax, for xla), python3.
std::string PeerPython(const std::string& compiler);
// The command line of `compiler`'s adapter (ours: `executable compare-peer`).
std::vector<std::string> AdapterCommand(const std::string& compiler,
                                        const std::string& executable_path);

}  // namespace fusescope::compare

#endif  // FUSESCOPE_COMPARE_PEER_CATALOG_H_
