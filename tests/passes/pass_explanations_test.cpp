// The pass explanations (resources/explanations/passes.txt) cover both built-in pipelines
// and are found under the spellings compilers print.

#include "resources/explanations.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "passes/pipeline.h"

namespace fusescope::resources {
namespace {

TEST(PassExplanationsTest, EveryEntryIsCompleteAndEverySpellingNamesOnePass) {
  const auto& all = PassExplanations();
  ASSERT_GE(all.size(), 60u);
  std::set<std::string> keys;
  for (const PassExplanation& pass : all) {
    EXPECT_TRUE(keys.insert(pass.key).second) << "twice: " << pass.key;
    EXPECT_FALSE(pass.compiler.empty()) << pass.key;
    EXPECT_FALSE(pass.does.empty()) << pass.key;
    EXPECT_FALSE(pass.looks_for.empty()) << pass.key;
    EXPECT_FALSE(pass.cannot.empty()) << pass.key;
    EXPECT_FALSE(pass.docs.empty()) << pass.key;
    // Each spelling finds its own entry, not another one's.
    EXPECT_EQ(ExplainPass(pass.key)->key, pass.key);
    for (const std::string& name : pass.names) {
      ASSERT_TRUE(ExplainPass(name).has_value()) << name;
      EXPECT_EQ(ExplainPass(name)->key, pass.key) << name;
    }
  }
}

TEST(PassExplanationsTest, EveryPassOfBothBuiltinPipelinesIsExplained) {
  for (const char* target : {"cpu", "gpu"}) {
    passes::PipelineOptions options;
    options.target = target;
    auto pipeline = passes::MakeBuiltinPipeline(options);
    ASSERT_TRUE(pipeline.ok()) << pipeline.message();
    for (const auto& pass : (*pipeline)->passes()) {
      EXPECT_TRUE(ExplainPass(pass->name()).has_value()) << target << ": " << pass->name();
    }
  }
}

TEST(PassExplanationsTest, PrintedSpellingsFindTheirPass) {
  const std::map<std::string, std::string> printed = {
      {"Canonicalizer (canonicalize)", "canonicalize"},
      {"CanonicalizerPass (canonicalize)", "canonicalize"},
      {"CSEPass: cse", "cse"},
      {"InlinerPass: inline{default-pipeline=canonicalize max-iterations=4 }", "inline"},
      {"mlir::iree_compiler::IREE::ABI::WrapEntryPointsPass", "iree-abi-wrap-entry-points"},
      {"layout_assignment", "layout-assignment"},
      {"TosaToLinalgNamed (tosa-to-linalg-named)", "tosa-to-linalg-named"},
      {"SymbolDCEPass", "symbol-dce"},
  };
  for (const auto& [spelling, key] : printed) {
    std::optional<PassExplanation> found = ExplainPass(spelling);
    ASSERT_TRUE(found.has_value()) << spelling;
    EXPECT_EQ(found->key, key) << spelling;
  }
  EXPECT_FALSE(ExplainPass("no-such-pass").has_value());
  EXPECT_FALSE(ExplainPass("").has_value());
  EXPECT_FALSE(ExplainPass("()").has_value());
}

}  // namespace
}  // namespace fusescope::resources
