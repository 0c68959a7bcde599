#include "ir/attribute_values.h"

#include <charconv>
#include <optional>
#include <string>

namespace fusescope::ir {
namespace {

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

std::string_view StripBraces(std::string_view text) {
  text = Trim(text);
  if (text.size() >= 2 && text.front() == '{' && text.back() == '}') {
    text = Trim(text.substr(1, text.size() - 2));
  }
  return text;
}

std::optional<int64_t> ToInt(std::string_view text) {
  int64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || text.empty()) return std::nullopt;
  return value;
}

std::vector<std::string_view> Split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  while (true) {
    const size_t at = text.find(separator);
    parts.push_back(text.substr(0, at));
    if (at == std::string_view::npos) return parts;
    text = text.substr(at + 1);
  }
}

Status Malformed(std::string_view what, std::string_view text) {
  return Status::Error("malformed " + std::string(what) + " '" + std::string(text) + "'");
}

// "3x3" -> {3, 3}; "1_1x0_2" with `per_dim` 2 -> {1, 1, 0, 2}.
StatusOr<std::vector<int64_t>> ParseDims(std::string_view what, std::string_view text,
                                         size_t per_dim) {
  std::vector<int64_t> values;
  for (std::string_view dim : Split(text, 'x')) {
    std::vector<std::string_view> parts = Split(dim, '_');
    if (parts.size() != per_dim) return Malformed(what, text);
    for (std::string_view part : parts) {
      std::optional<int64_t> value = ToInt(part);
      if (!value) return Malformed(what, text);
      values.push_back(*value);
    }
  }
  return values;
}

Status ApplyWindowField(std::string_view key, const std::vector<int64_t>& values,
                        std::vector<WindowDimension>& dims) {
  const bool pad = key == "pad";
  const size_t expected = dims.size() * (pad ? 2 : 1);
  if (values.size() != expected) {
    return Status::Error("window field " + std::string(key) + " has " +
                         std::to_string(values.size() / (pad ? 2 : 1)) + " dimensions, size has " +
                         std::to_string(dims.size()));
  }
  for (size_t i = 0; i < dims.size(); ++i) {
    WindowDimension& dim = dims[i];
    if (key == "stride") {
      dim.stride = values[i];
    } else if (pad) {
      dim.padding_low = values[2 * i];
      dim.padding_high = values[2 * i + 1];
    } else if (key == "lhs_dilate") {
      dim.base_dilation = values[i];
    } else if (key == "rhs_dilate") {
      dim.window_dilation = values[i];
    } else {
      dim.reversal = values[i] != 0;
    }
  }
  return Status::Ok();
}

bool IsWindowKey(std::string_view key) {
  return key == "size" || key == "stride" || key == "pad" || key == "lhs_dilate" ||
         key == "rhs_dilate" || key == "rhs_reversal";
}

// Fields in written order; `size` must be among them when any other is.
StatusOr<std::vector<std::pair<std::string_view, std::string_view>>> WindowFields(
    std::string_view body) {
  std::vector<std::pair<std::string_view, std::string_view>> fields;
  for (std::string_view token : Split(body, ' ')) {
    if (token.empty()) continue;
    const size_t eq = token.find('=');
    if (eq == std::string_view::npos) return Malformed("window", body);
    std::string_view key = token.substr(0, eq);
    if (!IsWindowKey(key)) {
      return Status::Error("unknown window field '" + std::string(key) + "'");
    }
    fields.emplace_back(key, token.substr(eq + 1));
  }
  return fields;
}

// One of the three parts of dim_labels: `special` are the two letters in order (b,f or i,o).
struct LabelPart {
  int64_t first = -1;
  int64_t second = -1;
  std::vector<int64_t> spatial;
};

StatusOr<LabelPart> ParseLabelPart(std::string_view part, char first, char second,
                                   std::string_view whole) {
  LabelPart out;
  out.spatial.assign(part.size() >= 2 ? part.size() - 2 : 0, -1);
  for (size_t i = 0; i < part.size(); ++i) {
    const char c = part[i];
    const auto dim = static_cast<int64_t>(i);
    if (c == first && out.first < 0) {
      out.first = dim;
    } else if (c == second && out.second < 0) {
      out.second = dim;
    } else if (c >= '0' && c <= '9' && static_cast<size_t>(c - '0') < out.spatial.size() &&
               out.spatial[static_cast<size_t>(c - '0')] < 0) {
      out.spatial[static_cast<size_t>(c - '0')] = dim;
    } else {
      return Malformed("dim_labels", whole);
    }
  }
  if (out.first < 0 || out.second < 0) return Malformed("dim_labels", whole);
  return out;
}

}  // namespace

StatusOr<std::vector<WindowDimension>> ParseWindow(std::string_view text) {
  auto fields = WindowFields(StripBraces(text));
  if (!fields.ok()) return fields.status();
  std::vector<WindowDimension> dims;
  for (const auto& [key, value] : *fields) {
    if (key != "size") continue;
    auto sizes = ParseDims("window size", value, 1);
    if (!sizes.ok()) return sizes.status();
    for (int64_t size : *sizes) dims.push_back(WindowDimension{.size = size});
  }
  for (const auto& [key, value] : *fields) {
    if (key == "size") continue;
    auto values = ParseDims("window " + std::string(key), value, key == "pad" ? 2 : 1);
    if (!values.ok()) return values.status();
    FS_RETURN_IF_ERROR(ApplyWindowField(key, *values, dims));
  }
  return dims;
}

StatusOr<std::vector<SliceBounds>> ParseSliceBounds(std::string_view text) {
  std::string_view body = StripBraces(text);
  std::vector<SliceBounds> bounds;
  if (body.empty()) return bounds;
  for (std::string_view item : Split(body, ',')) {
    item = Trim(item);
    if (item.size() < 2 || item.front() != '[' || item.back() != ']') {
      return Malformed("slice", text);
    }
    std::vector<std::string_view> parts = Split(item.substr(1, item.size() - 2), ':');
    if (parts.size() != 2 && parts.size() != 3) return Malformed("slice", text);
    std::optional<int64_t> start = ToInt(Trim(parts[0]));
    std::optional<int64_t> limit = ToInt(Trim(parts[1]));
    std::optional<int64_t> stride = parts.size() == 3 ? ToInt(Trim(parts[2])) : 1;
    if (!start || !limit || !stride) return Malformed("slice", text);
    bounds.push_back(SliceBounds{*start, *limit, *stride});
  }
  return bounds;
}

StatusOr<std::vector<PaddingDimension>> ParsePadding(std::string_view text) {
  std::string_view body = StripBraces(text);
  std::vector<PaddingDimension> dims;
  if (body.empty()) return dims;
  for (std::string_view dim : Split(body, 'x')) {
    std::vector<std::string_view> parts = Split(dim, '_');
    if (parts.size() != 2 && parts.size() != 3) return Malformed("padding", text);
    std::optional<int64_t> low = ToInt(parts[0]);
    std::optional<int64_t> high = ToInt(parts[1]);
    std::optional<int64_t> interior = parts.size() == 3 ? ToInt(parts[2]) : 0;
    if (!low || !high || !interior) return Malformed("padding", text);
    dims.push_back(PaddingDimension{*low, *high, *interior});
  }
  return dims;
}

StatusOr<ConvolutionDimensionLabels> ParseConvolutionDimensionLabels(std::string_view text) {
  text = Trim(text);
  const size_t arrow = text.find("->");
  if (arrow == std::string_view::npos) return Malformed("dim_labels", text);
  std::vector<std::string_view> operands = Split(text.substr(0, arrow), '_');
  if (operands.size() != 2) return Malformed("dim_labels", text);
  auto input = ParseLabelPart(operands[0], 'b', 'f', text);
  if (!input.ok()) return input.status();
  auto kernel = ParseLabelPart(operands[1], 'i', 'o', text);
  if (!kernel.ok()) return kernel.status();
  auto output = ParseLabelPart(text.substr(arrow + 2), 'b', 'f', text);
  if (!output.ok()) return output.status();
  if (input->spatial.size() != kernel->spatial.size() ||
      input->spatial.size() != output->spatial.size()) {
    return Malformed("dim_labels", text);
  }
  ConvolutionDimensionLabels labels;
  labels.input_batch = input->first;
  labels.input_feature = input->second;
  labels.input_spatial = std::move(input->spatial);
  labels.kernel_input_feature = kernel->first;
  labels.kernel_output_feature = kernel->second;
  labels.kernel_spatial = std::move(kernel->spatial);
  labels.output_batch = output->first;
  labels.output_feature = output->second;
  labels.output_spatial = std::move(output->spatial);
  return labels;
}

}  // namespace fusescope::ir
