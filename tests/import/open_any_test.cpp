// What a user names, told apart (importers/input_kind.h) and opened (importers/open_any.h) for
// the command line and the workbench alike: every kind on real files from tests/data, and
// inputs that are none of them, or that are one but broken, each one clear error.

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "importers/input_kind.h"
#include "importers/open_any.h"
#include "ir/module.h"
#include "passes/pipeline_options.h"
#include "recording/compile_and_record.h"
#include "recording/recording_store.h"
#include "resources/samples.h"

namespace fusescope::importers {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::StartsWith;

const std::string kData = std::string(FUSESCOPE_SOURCE_DIR) + "/tests/data/";

class TempFolder {
 public:
  TempFolder() {
    path_ = fs::temp_directory_path() /
            ("fusescope_open_any_" + std::to_string(::getpid()) + "_" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempFolder() { fs::remove_all(path_); }
  std::string File(const std::string& name, std::string_view bytes) const {
    const fs::path path = path_ / name;
    std::ofstream(path, std::ios::binary) << bytes;
    return path.string();
  }
  std::string Folder(const std::string& name) const {
    fs::create_directories(path_ / name);
    return (path_ / name).string();
  }
  std::string path() const { return path_.string(); }

 private:
  fs::path path_;
};

// How an input of each kind opens.
enum class Opens {
  kModel,      // a module; the workbench compiles it
  kGraphOnly,  // a module with opaque operations; the workbench shows its graph alone
  kRecord,     // the record of a compile: snapshots, one per pass and the input
  kRefused,    // not alone: an error saying what to do with it
};

struct Case {
  std::string what;  // under tests/data, or `sample:` / `lesson:`
  InputKind kind;
  Opens opens;
  // Something the model text holds, or why there is none (the error's words).
  std::string model_text;
};

std::string PathOf(const Case& c) {
  return c.what.find(':') != std::string::npos ? c.what : kData + c.what;
}

void PrintTo(const Case& c, std::ostream* out) { *out << c.what; }

class OpenAnyTest : public ::testing::TestWithParam<Case> {};

TEST_P(OpenAnyTest, ClassifiesAndOpens) {
  const Case& c = GetParam();
  const std::string what = PathOf(c);
  StatusOr<ClassifiedInput> input = ClassifyInput(what);
  ASSERT_TRUE(input.ok()) << input.message();
  EXPECT_EQ(KindName(input->kind), KindName(c.kind)) << input->reason;
  EXPECT_EQ(input->what, what);
  EXPECT_FALSE(input->reason.empty());
  EXPECT_EQ(input->IsModel(), c.opens == Opens::kModel || c.opens == Opens::kGraphOnly);

  StatusOr<OpenedModules> modules = OpenModules(*input, {std::nullopt, -1});
  StatusOr<OpenedRecording> recording = OpenRecording(*input);
  StatusOr<OpenedModelText> text = OpenModelText(*input);
  switch (c.opens) {
    case Opens::kModel:
    case Opens::kGraphOnly:
      ASSERT_TRUE(modules.ok()) << modules.message();
      ASSERT_EQ(modules->modules.size(), 2u);
      for (const OpenedModule& module : modules->modules) {
        ASSERT_NE(module.module, nullptr);
        EXPECT_GT(module.module->instruction_count(), 0);
        EXPECT_EQ(module.snapshot_index, -1);
      }
      ASSERT_TRUE(recording.ok()) << recording.message();
      if (c.opens == Opens::kModel) {
        EXPECT_FALSE(recording->recording) << "a model is compiled, not shown as it is";
        ASSERT_TRUE(text.ok()) << text.message();
        EXPECT_THAT(text->text, HasSubstr(c.model_text));
      } else {
        EXPECT_THAT(modules->warnings.back(), HasSubstr("kept as opaque nodes"));
        ASSERT_TRUE(recording->recording);
        EXPECT_EQ(recording->recording->passes.size(), 0u);
        EXPECT_THAT(recording->warnings.back(), HasSubstr("shown as a graph, not compiled"));
        ASSERT_FALSE(text.ok());
        EXPECT_THAT(text.message(), HasSubstr(c.model_text));
      }
      break;
    case Opens::kRecord: {
      ASSERT_TRUE(recording.ok()) << recording.message();
      ASSERT_TRUE(recording->recording);
      const recording::Recording& shown = *recording->recording;
      EXPECT_GE(shown.passes.size(), 1u);
      ASSERT_TRUE(modules.ok()) << modules.message();
      ASSERT_EQ(modules->modules.size(), 2u);
      EXPECT_EQ(modules->modules[0].snapshot_index,
                static_cast<int64_t>(shown.snapshots.size()) - 1);
      EXPECT_EQ(modules->modules[1].snapshot_index, 0);
      for (const OpenedModule& module : modules->modules) {
        ASSERT_NE(module.module, nullptr);
        EXPECT_GT(module.module->instruction_count(), 0);
      }
      if (text.ok()) {
        EXPECT_THAT(text->text, StartsWith(c.model_text));
      } else {
        EXPECT_THAT(text.message(), StartsWith(what + ": "));
        EXPECT_THAT(text.message(), HasSubstr(c.model_text));
      }
      break;
    }
    case Opens::kRefused:
      for (const std::string& message : {modules.message(), recording.message(), text.message()}) {
        EXPECT_THAT(message, StartsWith(what + ": "));
        EXPECT_THAT(message, HasSubstr(c.model_text));
      }
      break;
  }
}

const Case kCases[] = {
    {"sample:mlp", InputKind::kSample, Opens::kModel, "HloModule"},
    {"mlp/before_optimizations.hlo", InputKind::kHloText, Opens::kModel, "HloModule"},
    // Named .txt as XLA names its dumps' files, known by its first word.
    {"xla_dump_mlp/module_0000.jit_mlp.0000.async-collective.after_pipeline-start.before_async-"
     "collective-replacer.txt",
     InputKind::kHloText, Opens::kModel, "HloModule"},
    {"mlp/stablehlo.mlir", InputKind::kMlirModel, Opens::kModel, "HloModule"},
    {"mlir/stablehlo_matmul_tanh.mlir", InputKind::kMlirModel, Opens::kModel, "tanh"},
    {"mlir/tosa_mlp.mlir", InputKind::kMlirModel, Opens::kGraphOnly, "cannot be compiled"},
#ifdef FUSESCOPE_HAVE_ONNX
    {"onnx/mlp.onnx", InputKind::kOnnxModel, Opens::kModel, "HloModule"},
#endif
    {"mlir/mlir_opt_tosa_mlp.log", InputKind::kMlirPassLog, Opens::kRecord,
     "an MLIR pass log records another compiler's passes"},
    {"mlir/iree_stablehlo_abi.log", InputKind::kMlirPassLog, Opens::kRecord, "no model"},
    {"kernels/add_reduce_fusion.passes.log", InputKind::kMlirPassLog, Opens::kRecord, "no model"},
    {"mlir/stages", InputKind::kMlirStageFolder, Opens::kRecord,
     "a folder of MLIR stage files records another compiler's passes"},
    {"iree/print_ir_tree", InputKind::kMlirTreeFolder, Opens::kRecord, "no model"},
    {"tvm_dumpir/mlp", InputKind::kTvmDumpFolder, Opens::kRecord, "no model"},
    {"tensorrt/cnn.graph.json", InputKind::kTensorRtLayerInfo, Opens::kRecord,
     "describes an engine TensorRT built"},
    // Its model is the default module as XLA received it.
    {"xla_dump_mlp", InputKind::kXlaDumpFolder, Opens::kRecord, "HloModule jit_mlp"},
    {"xla_dump_attention", InputKind::kXlaDumpFolder, Opens::kRecord, "HloModule"},
    {"xla_gpu_fusion_dump", InputKind::kXlaDumpFolder, Opens::kRecord, "HloModule"},
    {"iree/executables", InputKind::kIreeExecutableFolder, Opens::kRefused, "--iree-executables"},
    {"lesson:mlp_fusion", InputKind::kLesson, Opens::kRefused,
     "fusescope lesson lesson:mlp_fusion"},
};

INSTANTIATE_TEST_SUITE_P(EveryKind, OpenAnyTest, ::testing::ValuesIn(kCases));

#ifndef FUSESCOPE_HAVE_ONNX
TEST(OpenAnyErrors, OnnxWithoutLibonnxSaysSo) {
  auto input = ClassifyInput(kData + "onnx/mlp.onnx");
  ASSERT_TRUE(input.ok()) << input.message();
  EXPECT_EQ(input->kind, InputKind::kOnnxModel);
  EXPECT_THAT(OpenModules(*input, {std::nullopt}).message(), HasSubstr("without libonnx"));
}
#endif

// A recording is known by SQLite's header, whatever its name, and opens as it was saved.
TEST(OpenAnyTest, RecordingOpensWhateverItsName) {
  TempFolder folder;
  passes::PipelineOptions options;
  auto compiled =
      recording::CompileAndRecord(resources::FindSample("mlp").text, options, "sample:mlp");
  ASSERT_TRUE(compiled.ok()) << compiled.message();
  const std::string path = folder.path() + "/run.data";
  ASSERT_TRUE(recording::SaveRecording(*compiled, path).ok());
  auto input = ClassifyInput(path);
  ASSERT_TRUE(input.ok()) << input.message();
  EXPECT_EQ(input->kind, InputKind::kRecording);
  EXPECT_TRUE(IsRecordingFile(path));
  auto opened = OpenRecording(*input);
  ASSERT_TRUE(opened.ok()) << opened.message();
  ASSERT_TRUE(opened->recording);
  EXPECT_EQ(opened->recording->passes.size(), compiled->passes.size());
  auto modules = OpenModules(*input, {2});
  ASSERT_TRUE(modules.ok()) << modules.message();
  EXPECT_EQ(modules->modules.front().snapshot_index, 3);
  auto beyond = OpenModules(*input, {999});
  EXPECT_THAT(beyond.message(), StartsWith(path + ": no pass 999 (the recording has "));
  EXPECT_THAT(OpenModelText(*input).message(), HasSubstr("a recording, not a model"));
}

TEST(OpenAnyErrors, MissingPathIsNamed) {
  TempFolder folder;
  const std::string path = folder.path() + "/nowhere.hlo";
  EXPECT_EQ(ClassifyInput(path).message(), path + ": no such file or folder");
}

TEST(OpenAnyErrors, UnknownFileNamesWhatWasTried) {
  TempFolder folder;
  const std::string path = folder.File("random.bin", std::string("\x00\x01\xff garbage", 12));
  auto input = ClassifyInput(path);
  ASSERT_FALSE(input.ok());
  EXPECT_THAT(input.message(), StartsWith(path + ": not a file fusescope reads: "));
  for (const char* tried :
       {"recording", "MLIR pass log", "TensorRT", "ONNX", "MLIR (.mlir)", "lesson", "HLO text"}) {
    EXPECT_THAT(input.message(), HasSubstr(tried));
  }
  EXPECT_EQ(input.message().find('\n'), std::string::npos);
}

TEST(OpenAnyErrors, UnknownFolderNamesWhatWasTried) {
  TempFolder folder;
  const std::string dir = folder.Folder("notes");
  std::ofstream(dir + "/notes.txt") << "not an HLO dump\n";
  auto input = ClassifyInput(dir);
  ASSERT_FALSE(input.ok());
  EXPECT_THAT(input.message(), StartsWith(dir + ": no XLA HLO dump files"));
  for (const char* tried : {"MLIR tree dump", "TVM DumpIR", "MLIR stage files", "IREE executable"})
    EXPECT_THAT(input.message(), HasSubstr(tried));
  EXPECT_EQ(input.message().find('\n'), std::string::npos);
}

TEST(OpenAnyErrors, UnknownBuiltinsListTheKnownOnes) {
  EXPECT_THAT(ClassifyInput("sample:nope").message(),
              StartsWith("no built-in sample named 'nope' (there are "));
  EXPECT_THAT(ClassifyInput("sample:nope").message(), HasSubstr("mlp"));
  EXPECT_THAT(ClassifyInput("lesson:nope").message(),
              StartsWith("no built-in lesson 'lesson:nope' ("));
  EXPECT_THAT(ClassifyInput("lesson:nope").message(), HasSubstr("mlp_fusion"));
}

// A broken file of a known kind is that kind; opening it says where it breaks.
TEST(OpenAnyErrors, BrokenInputsOfAKnownKindSayWhere) {
  TempFolder folder;
  const std::string hlo = folder.File("broken.hlo", std::string("\x00\x01garbage", 9));
  auto input = ClassifyInput(hlo);
  ASSERT_TRUE(input.ok()) << input.message();
  EXPECT_EQ(input->kind, InputKind::kHloText);
  EXPECT_THAT(OpenModules(*input, {std::nullopt}).message(), StartsWith(hlo + ":1:1: "));

  const std::string truncated =
      folder.File("t", "HloModule m\n\nENTRY main {\n  p = f32[8 parameter(0)\n");
  input = ClassifyInput(truncated);
  ASSERT_TRUE(input.ok()) << input.message();
  EXPECT_EQ(input->kind, InputKind::kHloText);
  EXPECT_THAT(OpenModules(*input, {std::nullopt}).message(), StartsWith(truncated + ":4:"));

  const std::string engine = kData + "tensorrt/malformed/bad_dimensions.graph.json";
  input = ClassifyInput(engine);
  ASSERT_TRUE(input.ok()) << input.message();
  EXPECT_EQ(input->kind, InputKind::kTensorRtLayerInfo);
  EXPECT_THAT(OpenRecording(*input).message(),
              StartsWith(engine + ":7:57: a dimension should be an integer"));

  const std::string fsdb = folder.File("damaged.fsdb", "not SQLite at all");
  input = ClassifyInput(fsdb);
  ASSERT_TRUE(input.ok()) << input.message();
  EXPECT_EQ(input->kind, InputKind::kRecording);
  EXPECT_FALSE(IsRecordingFile(fsdb));
  EXPECT_THAT(OpenRecording(*input).message(), HasSubstr(fsdb));
}

// The pass log's header decides, whatever the file is named.
TEST(OpenAnyTest, ContentComesBeforeTheName) {
  TempFolder folder;
  std::ifstream log(kData + "mlir/mlir_opt_tosa_mlp.log", std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
  auto input = ClassifyInput(folder.File("passes.mlir", text));
  ASSERT_TRUE(input.ok()) << input.message();
  EXPECT_EQ(input->kind, InputKind::kMlirPassLog);
  input = ClassifyInput(folder.File("passes.hlo", text));
  ASSERT_TRUE(input.ok()) << input.message();
  EXPECT_EQ(input->kind, InputKind::kMlirPassLog);
}

}  // namespace
}  // namespace fusescope::importers
