// The compiler's own text of each snapshot: scoped sections spliced into the whole IR, and
// the texts kept by a recording file.

#include "recording/snapshot_source.h"

#include "gtest/gtest.h"
#include "recording/compile_and_record.h"
#include "recording/recording_store.h"
#include "recording_test_util.h"

namespace fusescope::recording {
namespace {

using namespace testutil;  // NOLINT: the temporary folder helpers

constexpr const char* kModule = R"(#map = affine_map<(d0) -> (d0)>
module {
  func.func private @decl(i32)
  func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> attributes {note = "{not a brace"} {
    %0 = arith.addf %arg0, %arg0 : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  func.func @f_extra() {
    return
  }
}
)";

TEST(SnapshotSourceTest, SpliceReplacesTheOperationIndentedAsItWas) {
  auto spliced = SpliceOperation(kModule, "func.func", "f",
                                 "func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
                                 "  return %arg0 : tensor<4xf32>\n}\n\n\n");
  ASSERT_TRUE(spliced.has_value());
  EXPECT_EQ(*spliced, R"(#map = affine_map<(d0) -> (d0)>
module {
  func.func private @decl(i32)
  func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    return %arg0 : tensor<4xf32>
  }
  func.func @f_extra() {
    return
  }
}
)");
  // A symbol that only starts like another is not it; a declaration is one line.
  EXPECT_FALSE(SpliceOperation(kModule, "func.func", "g", "x").has_value());
  auto declaration = SpliceOperation(kModule, "func.func", "decl", "func.func private @decl(i64)");
  ASSERT_TRUE(declaration.has_value());
  EXPECT_NE(declaration->find("  func.func private @decl(i64)\n  func.func @f("), std::string::npos)
      << *declaration;
}

TEST(SnapshotSourceTest, TheWholeTextAfterScopedSections) {
  std::vector<SnapshotSource> sources(4);
  sources[0] = {"mlir", "", "", kModule};
  sources[1] = {"mlir", "func.func", "f_extra",
                "func.func @f_extra() {\n  %c = arith.constant 1 : i32\n  return\n}\n"};
  sources[2] = {"mlir", "func.func", "new", "func.func @new() {\n  return\n}\n"};
  EXPECT_EQ(*FullSourceText(sources, 0), kModule);
  const std::string second = *FullSourceText(sources, 1);
  EXPECT_NE(second.find("  func.func @f_extra() {\n    %c = arith.constant 1 : i32\n"),
            std::string::npos)
      << second;
  EXPECT_NE(second.find("%0 = arith.addf"), std::string::npos);
  // A function the text had not shown before joins it at the end.
  const std::string third = *FullSourceText(sources, 2);
  EXPECT_EQ(third.rfind("func.func @new() {\n  return\n}\n"), third.size() - 30) << third;
  EXPECT_FALSE(FullSourceText(sources, 3).has_value());
  EXPECT_FALSE(FullSourceText(sources, 9).has_value());
}

TEST(SnapshotSourceTest, ARecordingKeepsItsSourceTexts) {
  TemporaryDirectory dir;
  auto compiled = CompileAndRecord("HloModule m\nENTRY e {\n  ROOT p = f32[2] parameter(0)\n}\n",
                                   passes::PipelineOptions());
  ASSERT_TRUE(compiled.ok()) << compiled.message();
  compiled->sources.resize(compiled->snapshots.size());
  compiled->sources[0] = {"mlir", "", "", kModule};
  compiled->sources.back() = {"mlir", "func.func", "f", std::string(2000, 'x') + "\n"};
  compiled->imported = true;
  const std::string path = dir.File("src.fsdb");
  ASSERT_TRUE(SaveRecording(*compiled, path).ok());
  auto loaded = LoadRecording(path);
  ASSERT_TRUE(loaded.ok()) << loaded.message();
  ASSERT_EQ(loaded->sources.size(), loaded->snapshots.size());
  EXPECT_EQ(loaded->sources[0].text, kModule);
  EXPECT_TRUE(loaded->sources[1].empty());
  EXPECT_EQ(loaded->sources.back().scope_symbol, "f");
  EXPECT_EQ(loaded->sources.back().text.size(), 2001u);
  EXPECT_TRUE(loaded->imported);
}

}  // namespace
}  // namespace fusescope::recording
