#include "passes/pipeline_option_table.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "ir/hlo_parser.h"
#include "passes/fusion_utils.h"
#include "passes/pipeline.h"
#include "tests/passes/fusion_test_support.h"

namespace fusescope::passes {
namespace {

// Every knob of FusionLimits and GpuDeviceDescription has a key, and setting the key sets
// exactly that field.
TEST(PipelineOptionTableTest, EveryKeySetsItsField) {
  PipelineOptions options;
  for (const auto& [key, value] : {std::pair<std::string, std::string>{"fusion.max_operands", "8"},
                                   {"fusion.max_reductions", "2"},
                                   {"fusion.max_instructions", "40"},
                                   {"fusion.max_concat_operands", "3"},
                                   {"fusion.allow_duplication", "false"},
                                   {"fusion.multi_output", "off"},
                                   {"fusion.output_fusion", "0"},
                                   {"gpu.memory_bandwidth_gb_per_s", "900"},
                                   {"gpu.peak_tflops", "19.5"},
                                   {"gpu.kernel_launch_us", "4"}}) {
    Status set = SetPipelineOption(options, key, value);
    EXPECT_TRUE(set.ok()) << key << ": " << set.message();
  }
  EXPECT_EQ(options.fusion.max_operands_and_outputs, 8);
  EXPECT_EQ(options.fusion.max_reductions, 2);
  EXPECT_EQ(options.fusion.max_instructions, 40);
  EXPECT_EQ(options.fusion.max_concat_operands, 3);
  EXPECT_FALSE(options.fusion.allow_duplication);
  EXPECT_FALSE(options.fusion.multi_output);
  EXPECT_FALSE(options.fusion.output_fusion);
  EXPECT_EQ(options.gpu_device.memory_bandwidth_gb_per_s, 900);
  EXPECT_EQ(options.gpu_device.peak_tflops, 19.5);
  EXPECT_EQ(options.gpu_device.kernel_launch_us, 4);
  EXPECT_EQ(PipelineOptionTable().size(), 10u);
}

// The long name of the operand budget is an alias of the short one.
TEST(PipelineOptionTableTest, AliasNamesTheSameOption) {
  const PipelineOption* option = FindPipelineOption("fusion.max_operands_and_outputs");
  ASSERT_NE(option, nullptr);
  EXPECT_EQ(option->key, "fusion.max_operands");
  PipelineOptions options;
  ASSERT_TRUE(ApplyPipelineOptionAssignment(options, "fusion.max_operands_and_outputs=12").ok());
  EXPECT_EQ(options.fusion.max_operands_and_outputs, 12);
}

// Values print as --set takes them, and reading the printed value back changes nothing.
TEST(PipelineOptionTableTest, ValuesRoundTrip) {
  PipelineOptions options;
  options.gpu_device.peak_tflops = 0.125;
  options.fusion.allow_duplication = false;
  EXPECT_EQ(PipelineOptionValue(options, *FindPipelineOption("gpu.peak_tflops")), "0.125");
  EXPECT_EQ(PipelineOptionValue(options, *FindPipelineOption("fusion.allow_duplication")), "false");
  EXPECT_EQ(PipelineOptionValue(options, *FindPipelineOption("gpu.memory_bandwidth_gb_per_s")),
            "3350");
  PipelineOptions copy;
  for (const PipelineOption& option : PipelineOptionTable()) {
    ASSERT_TRUE(SetPipelineOption(copy, option.key, PipelineOptionValue(options, option)).ok());
  }
  EXPECT_TRUE(ChangedPipelineOptions(options, copy).empty());
}

// An unknown key is named with the keys there are; a bad value with what the key accepts;
// neither changes anything.
TEST(PipelineOptionTableTest, ErrorsNameTheKeyAndWhatItAccepts) {
  PipelineOptions options;
  Status unknown = ApplyPipelineOptionAssignment(options, "fusion.max_operandz=8");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.message().find("unknown pipeline option 'fusion.max_operandz'"),
            std::string::npos)
      << unknown.message();
  EXPECT_NE(unknown.message().find("gpu.kernel_launch_us"), std::string::npos);
  for (const auto& [assignment, expected] :
       {std::pair<std::string, std::string>{
            "fusion.max_operands=eight",
            "fusion.max_operands needs an integer from 1 to 1000000, got 'eight'"},
        {"fusion.max_operands=0", "fusion.max_operands needs an integer from 1 to 1000000"},
        {"fusion.max_operands=8x", "got '8x'"},
        {"fusion.multi_output=maybe", "fusion.multi_output needs true or false, got 'maybe'"},
        {"gpu.peak_tflops=-1", "gpu.peak_tflops needs a number from 0.001 to 100000 (TFLOP/s)"},
        {"gpu.kernel_launch_us=",
         "gpu.kernel_launch_us needs a number from 0 to 10000 (us), got nothing"},
        {"fusion.max_operands", "--set needs KEY=VALUE, got 'fusion.max_operands'"}}) {
    Status status = ApplyPipelineOptionAssignment(options, assignment);
    ASSERT_FALSE(status.ok()) << assignment;
    EXPECT_NE(status.message().find(expected), std::string::npos) << status.message();
  }
  EXPECT_TRUE(ChangedPipelineOptions(options, PipelineOptions{}).empty());
}

TEST(PipelineOptionTableTest, ChangedOptionsInTableOrder) {
  PipelineOptions a, b;
  b.fusion.max_instructions = 4;
  b.fusion.max_operands_and_outputs = 8;
  b.disabled_passes.insert("cse");  // not a table option
  const std::vector<const PipelineOption*> changed = ChangedPipelineOptions(a, b);
  ASSERT_EQ(changed.size(), 2u);
  EXPECT_EQ(changed[0]->key, "fusion.max_operands");
  EXPECT_EQ(changed[1]->key, "fusion.max_instructions");
}

int64_t FusionCount(const std::string& target, const PipelineOptions& given) {
  PipelineOptions options = given;
  options.target = target;
  auto module =
      ir::ParseHloFile(std::string(FUSESCOPE_SOURCE_DIR) + "/resources/samples/bert_encoder.hlo");
  EXPECT_TRUE(module.ok()) << module.message();
  auto pipeline = MakeBuiltinPipeline(options);
  EXPECT_TRUE(pipeline.ok());
  if (!module.ok() || !pipeline.ok()) return -1;
  EXPECT_TRUE((*pipeline)->Run(**module).ok());
  int64_t fusions = 0;
  for (const ir::Computation* computation : FusibleComputations(**module)) {
    fusions += static_cast<int64_t>(testing::Fusions(*computation).size());
  }
  return fusions;
}

// The GPU cost model's device comes from the options: with free kernel launches and a much
// faster memory, fewer fusions pay on the BERT sample. The CPU pipeline has no cost model.
TEST(PipelineOptionTableTest, GpuDeviceReachesTheCostModel) {
  PipelineOptions device;
  ASSERT_TRUE(ApplyPipelineOptionAssignment(device, "gpu.kernel_launch_us=0").ok());
  ASSERT_TRUE(ApplyPipelineOptionAssignment(device, "gpu.memory_bandwidth_gb_per_s=100000").ok());
  EXPECT_NE(FusionCount("gpu", device), FusionCount("gpu", PipelineOptions{}));
  EXPECT_EQ(FusionCount("cpu", device), FusionCount("cpu", PipelineOptions{}));
}

}  // namespace
}  // namespace fusescope::passes
