#include "recording/store_values.h"

#include <charconv>
#include <set>

#include "passes/pipeline_option_table.h"

namespace fusescope::recording {

namespace {

StatusOr<int64_t> ParseInt(std::string_view text) {
  int64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) {
    return Status::Error("bad integer '" + std::string(text) + "'");
  }
  return value;
}

std::string JoinNames(const std::set<std::string>& names) {
  std::string joined;
  for (const std::string& name : names) {
    if (!joined.empty()) joined += ',';
    joined += name;
  }
  return joined;
}

std::set<std::string> SplitNames(std::string_view text) {
  std::set<std::string> names;
  while (!text.empty()) {
    size_t comma = text.find(',');
    names.emplace(text.substr(0, comma));
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
  }
  return names;
}

Status SetInt(std::string_view value, int64_t& field) {
  StatusOr<int64_t> parsed = ParseInt(value);
  if (!parsed.ok()) return parsed.status();
  field = *parsed;
  return Status::Ok();
}

// "1"/"0", and "true"/"false" as the option table writes switches.
Status SetBool(std::string_view value, bool& field) {
  if (value != "0" && value != "1" && value != "true" && value != "false") {
    return Status::Error("bad flag '" + std::string(value) + "'");
  }
  field = value == "1" || value == "true";
  return Status::Ok();
}

}  // namespace

std::string FormatDouble(double value) {
  char buffer[64];
  auto [end, error] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  return error == std::errc() ? std::string(buffer, end) : std::string("0");
}

StatusOr<double> ParseDouble(std::string_view text) {
  double value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) {
    return Status::Error("bad number '" + std::string(text) + "'");
  }
  return value;
}

std::string FormatIdList(const std::vector<int64_t>& ids) {
  std::string text;
  for (int64_t id : ids) {
    if (!text.empty()) text += ',';
    text += std::to_string(id);
  }
  return text;
}

StatusOr<std::vector<int64_t>> ParseIdList(std::string_view text) {
  std::vector<int64_t> ids;
  while (!text.empty()) {
    size_t comma = text.find(',');
    StatusOr<int64_t> id = ParseInt(text.substr(0, comma));
    if (!id.ok()) return id.status();
    ids.push_back(*id);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
  }
  return ids;
}

std::vector<std::pair<std::string, std::string>> PipelineOptionRows(
    const passes::PipelineOptions& options) {
  std::vector<std::pair<std::string, std::string>> rows = {{"target", options.target}};
  for (const passes::PipelineOption& option : passes::PipelineOptionTable()) {
    rows.emplace_back(option.key, passes::PipelineOptionValue(options, option));
  }
  rows.emplace_back("disabled_passes", JoinNames(options.disabled_passes));
  rows.emplace_back("stop_after", options.stop_after);
  rows.emplace_back("verify_between_passes", options.verify_between_passes ? "1" : "0");
  return rows;
}

Status ApplyPipelineOptionRow(std::string_view key, std::string_view value,
                              passes::PipelineOptions& options) {
  if (key == "target") options.target = std::string(value);
  if (key == "disabled_passes") options.disabled_passes = SplitNames(value);
  if (key == "stop_after") options.stop_after = std::string(value);
  if (key == "verify_between_passes") return SetBool(value, options.verify_between_passes);
  // Older files name fusion.max_operands by its alias. A value is read back as its writer
  // accepted it, in or out of this build's ranges.
  const passes::PipelineOption* option = passes::FindPipelineOption(key);
  if (option == nullptr) return Status::Ok();
  switch (option->kind) {
    case passes::PipelineOptionKind::kInteger:
      return SetInt(value, option->integer(options));
    case passes::PipelineOptionKind::kSwitch:
      return SetBool(value, option->flag(options));
    case passes::PipelineOptionKind::kNumber: {
      StatusOr<double> number = ParseDouble(value);
      if (!number.ok()) return number.status();
      option->number(options) = *number;
      return Status::Ok();
    }
  }
  return Status::Ok();
}

StatusOr<passes::FusionReason> FusionReasonFromCode(std::string_view code) {
  constexpr auto kLast = static_cast<int>(passes::FusionReason::kMultiOutputNotPossible);
  for (int i = 0; i <= kLast; ++i) {
    auto reason = static_cast<passes::FusionReason>(i);
    if (passes::FusionReasonCode(reason) == code) return reason;
  }
  return Status::Error("unknown fusion reason '" + std::string(code) + "'");
}

}  // namespace fusescope::recording
