#ifndef FUSESCOPE_IR_ATTRIBUTE_VALUES_H_
#define FUSESCOPE_IR_ATTRIBUTE_VALUES_H_

// Readers for the structured attribute values XLA writes as text: `window=`, `slice=`,
// `padding=` and `dim_labels=`. Instructions keep these values verbatim; shape inference,
// interpreters and lowerings read them through these functions. Errors name the attribute
// and the offending text.

#include <cstdint>
#include <string_view>
#include <vector>

#include "ir/status.h"

namespace fusescope::ir {

// One dimension of `window={size=3x3 stride=2x2 pad=0_1x0_1 lhs_dilate=1x1 rhs_dilate=1x1
// rhs_reversal=0x0}`. Fields not written take XLA's defaults.
struct WindowDimension {
  int64_t size = 1;
  int64_t stride = 1;
  int64_t padding_low = 0;
  int64_t padding_high = 0;
  int64_t base_dilation = 1;    // lhs_dilate
  int64_t window_dilation = 1;  // rhs_dilate
  bool reversal = false;        // rhs_reversal
};

// `{size=2x4 stride=2x4 pad=1_1x3_3}` (braces optional) -> one entry per dimension.
StatusOr<std::vector<WindowDimension>> ParseWindow(std::string_view text);

// One dimension of `slice={[3:200:3], [10:50]}`; the stride defaults to 1.
struct SliceBounds {
  int64_t start = 0;
  int64_t limit = 0;
  int64_t stride = 1;
};
StatusOr<std::vector<SliceBounds>> ParseSliceBounds(std::string_view text);

// One dimension of `padding=1_2x0_3_1` (low_high or low_high_interior).
struct PaddingDimension {
  int64_t low = 0;
  int64_t high = 0;
  int64_t interior = 0;
};
StatusOr<std::vector<PaddingDimension>> ParsePadding(std::string_view text);

// `dim_labels=b01f_01io->b01f`: which dimension of each of input, kernel and output holds
// the batch / feature and each spatial dimension.
struct ConvolutionDimensionLabels {
  int64_t input_batch = 0;
  int64_t input_feature = 0;
  std::vector<int64_t> input_spatial;  // input_spatial[i]: dimension labelled with digit i
  int64_t kernel_input_feature = 0;
  int64_t kernel_output_feature = 0;
  std::vector<int64_t> kernel_spatial;
  int64_t output_batch = 0;
  int64_t output_feature = 0;
  std::vector<int64_t> output_spatial;
};
StatusOr<ConvolutionDimensionLabels> ParseConvolutionDimensionLabels(std::string_view text);

}  // namespace fusescope::ir

#endif  // FUSESCOPE_IR_ATTRIBUTE_VALUES_H_
