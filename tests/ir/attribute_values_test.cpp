#include "ir/attribute_values.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace fusescope::ir {
namespace {

using ::testing::HasSubstr;

TEST(AttributeValues, WindowFieldsAndDefaults) {
  auto window = ParseWindow("{size=2x3 stride=2x1 pad=0_1x-1_2 lhs_dilate=1x2 rhs_reversal=0x1}");
  ASSERT_TRUE(window.ok()) << window.message();
  ASSERT_EQ(window->size(), 2u);
  EXPECT_EQ((*window)[0].size, 2);
  EXPECT_EQ((*window)[0].stride, 2);
  EXPECT_EQ((*window)[0].padding_high, 1);
  EXPECT_EQ((*window)[1].padding_low, -1);
  EXPECT_EQ((*window)[1].padding_high, 2);
  EXPECT_EQ((*window)[1].base_dilation, 2);
  EXPECT_EQ((*window)[1].window_dilation, 1);
  EXPECT_FALSE((*window)[0].reversal);
  EXPECT_TRUE((*window)[1].reversal);
  auto empty = ParseWindow("{}");
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());
}

TEST(AttributeValues, WindowErrorsNameTheProblem) {
  EXPECT_EQ(ParseWindow("{size=2x2 stride=2}").message(),
            "window field stride has 1 dimensions, size has 2");
  EXPECT_EQ(ParseWindow("{size=2 wobble=1}").message(), "unknown window field 'wobble'");
  EXPECT_THAT(ParseWindow("{size=2 pad=1}").message(), HasSubstr("malformed window pad"));
}

TEST(AttributeValues, SliceBoundsWithAndWithoutStride) {
  auto bounds = ParseSliceBounds("{[3:200:3], [10:50]}");
  ASSERT_TRUE(bounds.ok()) << bounds.message();
  ASSERT_EQ(bounds->size(), 2u);
  EXPECT_EQ((*bounds)[0].start, 3);
  EXPECT_EQ((*bounds)[0].limit, 200);
  EXPECT_EQ((*bounds)[0].stride, 3);
  EXPECT_EQ((*bounds)[1].stride, 1);
  EXPECT_EQ(ParseSliceBounds("{[1:x]}").message(), "malformed slice '{[1:x]}'");
}

TEST(AttributeValues, PaddingLowHighInterior) {
  auto padding = ParsePadding("1_2x-3_0_4");
  ASSERT_TRUE(padding.ok()) << padding.message();
  ASSERT_EQ(padding->size(), 2u);
  EXPECT_EQ((*padding)[0].high, 2);
  EXPECT_EQ((*padding)[0].interior, 0);
  EXPECT_EQ((*padding)[1].low, -3);
  EXPECT_EQ((*padding)[1].interior, 4);
  EXPECT_EQ(ParsePadding("1_2_3_4").message(), "malformed padding '1_2_3_4'");
}

TEST(AttributeValues, ConvolutionDimensionLabels) {
  auto labels = ParseConvolutionDimensionLabels("b01f_01io->b01f");
  ASSERT_TRUE(labels.ok()) << labels.message();
  EXPECT_EQ(labels->input_batch, 0);
  EXPECT_EQ(labels->input_feature, 3);
  EXPECT_EQ(labels->input_spatial, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(labels->kernel_input_feature, 2);
  EXPECT_EQ(labels->kernel_output_feature, 3);
  EXPECT_EQ(labels->kernel_spatial, (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(labels->output_feature, 3);

  auto nchw = ParseConvolutionDimensionLabels("bf10_oi01->bf01");
  ASSERT_TRUE(nchw.ok()) << nchw.message();
  EXPECT_EQ(nchw->input_spatial, (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(nchw->kernel_output_feature, 0);

  EXPECT_EQ(ParseConvolutionDimensionLabels("b0f_0io->bf").message(),
            "malformed dim_labels 'b0f_0io->bf'");
  EXPECT_EQ(ParseConvolutionDimensionLabels("b00f_01io->b01f").message(),
            "malformed dim_labels 'b00f_01io->b01f'");
}

}  // namespace
}  // namespace fusescope::ir
