#include "importers/input_kind.h"

#include <filesystem>
#include <fstream>

#include "importers/inductor/inductor_trace.h"
#include "importers/iree_executable_dump.h"
#include "importers/mlir/mlir_log_splitter.h"
#include "importers/mlir/mlir_stage_folder.h"
#include "importers/mlir/mlir_tree_dir.h"
#include "importers/tensorrt_layer_info.h"
#include "importers/tvm/tvm_dump_folder.h"
#include "importers/xla_dump_folder.h"
#include "resources/lessons.h"
#include "resources/samples.h"

namespace fusescope::importers {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kSamplePrefix = "sample:";
constexpr size_t kPrefixBytes = 64 * 1024;
constexpr std::string_view kSqliteMagic("SQLite format 3\0", 16);

bool HasExtension(const std::string& path, std::string_view extension) {
  return fs::path(path).extension() == extension;
}

// Skips white space and `/* ... */` comments as the HLO lexer does, then looks for the word.
bool StartsAsHloText(std::string_view text) {
  size_t at = 0;
  while (at < text.size()) {
    if (std::isspace(static_cast<unsigned char>(text[at]))) {
      ++at;
    } else if (text.substr(at, 2) == "/*") {
      const size_t end = text.find("*/", at + 2);
      if (end == std::string_view::npos) return false;
      at = end + 2;
    } else {
      break;
    }
  }
  constexpr std::string_view kWord = "HloModule";
  return text.substr(at, kWord.size()) == kWord &&
         (at + kWord.size() == text.size() ||
          !std::isalnum(static_cast<unsigned char>(text[at + kWord.size()])));
}

template <typename Names>
std::string NameList(const Names& names) {
  std::string list;
  for (const auto& entry : names) list += (list.empty() ? "" : ", ") + std::string(entry.name);
  return list;
}

StatusOr<ClassifiedInput> ClassifySample(const std::string& what) {
  const std::string name = what.substr(kSamplePrefix.size());
  if (resources::FindSample(name).text.empty()) {
    return Status::Error("no built-in sample named '" + name + "' (there are " +
                         NameList(resources::SampleModels()) + ")");
  }
  return ClassifiedInput{InputKind::kSample, what, "a built-in sample"};
}

StatusOr<ClassifiedInput> ClassifyBuiltinLesson(const std::string& what) {
  if (resources::FindLesson(what).text.empty()) {
    return Status::Error("no built-in lesson '" + what + "' (" +
                         NameList(resources::BuiltinLessons()) + ")");
  }
  return ClassifiedInput{InputKind::kLesson, what, "a built-in lesson"};
}

StatusOr<ClassifiedInput> ClassifyFolder(const std::string& what) {
  auto found = [&](InputKind kind, std::string reason) {
    return ClassifiedInput{kind, what, std::move(reason)};
  };
  if (ir::mlir_import::LooksLikeMlirTreeDir(what))
    return found(InputKind::kMlirTreeFolder,
                 "holds N_pass.mlir files that open with an IR Dump header");
  if (ir::tvm_import::LooksLikeTvmDumpFolder(what))
    return found(InputKind::kTvmDumpFolder, "holds NNN_Pass.py files of TVMScript");
  if (ir::inductor_import::LooksLikeInductorTrace(what))
    return found(InputKind::kInductorTrace,
                 "holds torchinductor/model__* folders of FX graphs and scheduler dumps");
  if (ir::mlir_import::LooksLikeStageFolder(what))
    return found(InputKind::kMlirStageFolder, "holds numbered N_name.mlir stage files");
  if (ir::LooksLikeIreeExecutableDump(what))
    return found(InputKind::kIreeExecutableFolder, "holds module_*.mlir with their .ll or .s");
  StatusOr<ir::XlaDumpFolder> dump = ir::ScanXlaDumpFolder(what);
  if (dump.ok()) return found(InputKind::kXlaDumpFolder, "holds module_NNNN.NAME...txt files");
  // The scan's own message says what the folder holds instead.
  return Status::Error(dump.message() +
                       "; nor is it an MLIR tree dump (N_pass.mlir files opening with an IR "
                       "Dump header), a TVM DumpIR folder (NNN_Pass.py), a folder of MLIR stage "
                       "files (N_name.mlir) or IREE executable files (module_*.mlir with .ll/.s)");
}

StatusOr<std::string> ReadPrefix(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return Status::Error(path + ": cannot read the file");
  std::string prefix(kPrefixBytes, '\0');
  file.read(prefix.data(), static_cast<std::streamsize>(prefix.size()));
  prefix.resize(static_cast<size_t>(file.gcount()));
  return prefix;
}

StatusOr<ClassifiedInput> ClassifyFile(const std::string& what) {
  auto found = [&](InputKind kind, std::string reason) {
    return ClassifiedInput{kind, what, std::move(reason)};
  };
  StatusOr<std::string> prefix = ReadPrefix(what);
  if (!prefix.ok()) return prefix.status();
  if (prefix->starts_with(kSqliteMagic))
    return found(InputKind::kRecording, "starts with SQLite's header");
  if (ir::mlir_import::LooksLikeMlirLog(*prefix))
    return found(InputKind::kMlirPassLog, "has an `// -----// IR Dump` header in its first 64 KiB");
  if (ir::LooksLikeTensorRtLayerInfo(*prefix))
    return found(InputKind::kTensorRtLayerInfo,
                 "a JSON object opening with \"Layers\" or \"Bindings\"");
  if (HasExtension(what, ".lesson")) return found(InputKind::kLesson, "named .lesson");
  if (HasExtension(what, ".onnx")) return found(InputKind::kOnnxModel, "named .onnx");
  if (HasExtension(what, ".mlir")) return found(InputKind::kMlirModel, "named .mlir");
  // A damaged recording is better told so by the recording reader than by the HLO parser.
  if (HasExtension(what, ".fsdb"))
    return found(InputKind::kRecording, "named .fsdb (without SQLite's header)");
  if (StartsAsHloText(*prefix)) return found(InputKind::kHloText, "starts with HloModule");
  if (HasExtension(what, ".hlo") || HasExtension(what, ".txt"))
    return found(InputKind::kHloText, "named " + fs::path(what).extension().string());
  return Status::Error(
      what +
      ": not a file fusescope reads: no recording (SQLite header), MLIR pass log (`// -----// "
      "IR Dump` header in the first 64 KiB), TensorRT layer information (JSON object opening "
      "with \"Layers\"), ONNX (.onnx), MLIR (.mlir), lesson (.lesson) or HLO text (.hlo, .txt, "
      "or HloModule first)");
}

}  // namespace

std::string_view KindName(InputKind kind) {
  switch (kind) {
    case InputKind::kSample:
      return "built-in sample";
    case InputKind::kLesson:
      return "lesson";
    case InputKind::kRecording:
      return "recording";
    case InputKind::kHloText:
      return "HLO text";
    case InputKind::kOnnxModel:
      return "ONNX model";
    case InputKind::kMlirModel:
      return "MLIR model";
    case InputKind::kMlirPassLog:
      return "MLIR pass log";
    case InputKind::kTensorRtLayerInfo:
      return "TensorRT layer information";
    case InputKind::kXlaDumpFolder:
      return "XLA dump folder";
    case InputKind::kMlirTreeFolder:
      return "MLIR tree dump folder";
    case InputKind::kMlirStageFolder:
      return "folder of MLIR stage files";
    case InputKind::kTvmDumpFolder:
      return "TVM DumpIR folder";
    case InputKind::kInductorTrace:
      return "PyTorch Inductor debug trace";
    case InputKind::kIreeExecutableFolder:
      return "folder of IREE executable files";
  }
  return "input";
}

bool ClassifiedInput::IsModel() const {
  return kind == InputKind::kSample || kind == InputKind::kHloText ||
         kind == InputKind::kOnnxModel || kind == InputKind::kMlirModel;
}

StatusOr<ClassifiedInput> ClassifyInput(const std::string& what) {
  if (what.starts_with(kSamplePrefix)) return ClassifySample(what);
  if (what.starts_with(resources::kLessonPrefix)) return ClassifyBuiltinLesson(what);
  std::error_code error;
  const fs::file_status status = fs::status(what, error);
  if (error || !fs::exists(status)) return Status::Error(what + ": no such file or folder");
  if (fs::is_directory(status)) return ClassifyFolder(what);
  return ClassifyFile(what);
}

bool IsRecordingFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  char magic[kSqliteMagic.size()] = {};
  file.read(magic, sizeof magic);
  return file.gcount() == sizeof magic && std::string_view(magic, sizeof magic) == kSqliteMagic;
}

}  // namespace fusescope::importers
