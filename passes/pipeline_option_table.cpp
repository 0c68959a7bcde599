#include "passes/pipeline_option_table.h"

#include <charconv>
#include <cmath>
#include <system_error>

namespace fusescope::passes {
namespace {

constexpr double kMaxCount = 1000000;

PipelineOption Integer(std::string_view key, std::string_view alias, double minimum,
                       std::string_view meaning, int64_t& (*field)(PipelineOptions&)) {
  PipelineOption option;
  option.key = key;
  option.alias = alias;
  option.kind = PipelineOptionKind::kInteger;
  option.minimum = minimum;
  option.maximum = kMaxCount;
  option.meaning = meaning;
  option.integer = field;
  return option;
}

PipelineOption Switch(std::string_view key, std::string_view meaning,
                      bool& (*field)(PipelineOptions&)) {
  PipelineOption option;
  option.key = key;
  option.kind = PipelineOptionKind::kSwitch;
  option.meaning = meaning;
  option.flag = field;
  return option;
}

PipelineOption Number(std::string_view key, double minimum, double maximum, std::string_view unit,
                      std::string_view meaning, double& (*field)(PipelineOptions&)) {
  PipelineOption option;
  option.key = key;
  option.kind = PipelineOptionKind::kNumber;
  option.minimum = minimum;
  option.maximum = maximum;
  option.unit = unit;
  option.meaning = meaning;
  option.number = field;
  return option;
}

std::vector<PipelineOption> MakeTable() {
  return {
      Integer("fusion.max_operands", "fusion.max_operands_and_outputs", 1,
              "operands plus outputs one fusion may have (the cpu pipeline uses 256 while this "
              "is 64)",
              [](PipelineOptions& o) -> int64_t& { return o.fusion.max_operands_and_outputs; }),
      Integer("fusion.max_reductions", "", 0,
              "reductions one fusion may hold (the cpu pipeline uses 5 while this is 8)",
              [](PipelineOptions& o) -> int64_t& { return o.fusion.max_reductions; }),
      Integer("fusion.max_instructions", "", 1, "instructions one fused computation may hold",
              [](PipelineOptions& o) -> int64_t& { return o.fusion.max_instructions; }),
      Integer("fusion.max_concat_operands", "", 0,
              "operands of a concatenate that the cpu pipeline still fuses",
              [](PipelineOptions& o) -> int64_t& { return o.fusion.max_concat_operands; }),
      Switch("fusion.allow_duplication",
             "fuse a cheap producer into each of its consumers, computing it in each",
             [](PipelineOptions& o) -> bool& { return o.fusion.allow_duplication; }),
      Switch("fusion.multi_output",
             "gpu pipeline: multi-output fusion of siblings and of producers with several users",
             [](PipelineOptions& o) -> bool& { return o.fusion.multi_output; }),
      Switch("fusion.output_fusion",
             "cpu pipeline: fuse a dot or convolution with its bias and activation epilogue",
             [](PipelineOptions& o) -> bool& { return o.fusion.output_fusion; }),
      Number("gpu.memory_bandwidth_gb_per_s", 1, 1e6, "GB/s",
             "gpu cost model: the device's memory bandwidth",
             [](PipelineOptions& o) -> double& { return o.gpu_device.memory_bandwidth_gb_per_s; }),
      Number("gpu.peak_tflops", 0.001, 1e5, "TFLOP/s", "gpu cost model: the device's peak compute",
             [](PipelineOptions& o) -> double& { return o.gpu_device.peak_tflops; }),
      Number("gpu.kernel_launch_us", 0, 1e4, "us",
             "gpu cost model: what launching one kernel costs, in microseconds",
             [](PipelineOptions& o) -> double& { return o.gpu_device.kernel_launch_us; }),
  };
}

// Whole numbers without an exponent ("100000", not "1e+05"); others as short as reads back.
std::string FormatNumber(double value) {
  if (value == std::floor(value) && std::fabs(value) < 1e15) {
    return std::to_string(static_cast<int64_t>(value));
  }
  char text[64];
  auto [end, ec] = std::to_chars(text, text + sizeof text, value);
  return ec == std::errc() ? std::string(text, end) : std::to_string(value);
}

bool ParseSwitch(std::string_view text, bool& value) {
  if (text == "true" || text == "1" || text == "on") {
    value = true;
    return true;
  }
  if (text == "false" || text == "0" || text == "off") {
    value = false;
    return true;
  }
  return false;
}

template <typename T>
bool ParseInRange(std::string_view text, double minimum, double maximum, T& value) {
  T parsed{};
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), parsed);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return false;
  if (!std::isfinite(static_cast<double>(parsed))) return false;
  if (static_cast<double>(parsed) < minimum || static_cast<double>(parsed) > maximum) return false;
  value = parsed;
  return true;
}

std::string KnownKeys() {
  std::string keys;
  for (const PipelineOption& option : PipelineOptionTable()) {
    keys += (keys.empty() ? "" : ", ") + std::string(option.key);
  }
  return keys;
}

}  // namespace

const std::vector<PipelineOption>& PipelineOptionTable() {
  static const std::vector<PipelineOption> table = MakeTable();
  return table;
}

const PipelineOption* FindPipelineOption(std::string_view key) {
  for (const PipelineOption& option : PipelineOptionTable()) {
    if (option.key == key || (!option.alias.empty() && option.alias == key)) return &option;
  }
  return nullptr;
}

std::string PipelineOptionValue(const PipelineOptions& options, const PipelineOption& option) {
  // The accessors hand out a mutable field; it is only read here.
  auto& fields = const_cast<PipelineOptions&>(options);
  switch (option.kind) {
    case PipelineOptionKind::kInteger:
      return std::to_string(option.integer(fields));
    case PipelineOptionKind::kSwitch:
      return option.flag(fields) ? "true" : "false";
    case PipelineOptionKind::kNumber:
      return FormatNumber(option.number(fields));
  }
  return {};
}

std::string AcceptedValues(const PipelineOption& option) {
  switch (option.kind) {
    case PipelineOptionKind::kInteger:
      return "an integer from " + FormatNumber(option.minimum) + " to " +
             FormatNumber(option.maximum);
    case PipelineOptionKind::kSwitch:
      return "true or false";
    case PipelineOptionKind::kNumber:
      return "a number from " + FormatNumber(option.minimum) + " to " +
             FormatNumber(option.maximum) + (option.unit.empty() ? "" : " (") +
             std::string(option.unit) + (option.unit.empty() ? "" : ")");
  }
  return {};
}

Status SetPipelineOption(PipelineOptions& options, std::string_view key, std::string_view value) {
  const PipelineOption* option = FindPipelineOption(key);
  if (option == nullptr) {
    return Status::Error("unknown pipeline option '" + std::string(key) + "' (" + KnownKeys() +
                         ")");
  }
  bool parsed = false;
  switch (option->kind) {
    case PipelineOptionKind::kInteger:
      parsed = ParseInRange(value, option->minimum, option->maximum, option->integer(options));
      break;
    case PipelineOptionKind::kSwitch:
      parsed = ParseSwitch(value, option->flag(options));
      break;
    case PipelineOptionKind::kNumber:
      parsed = ParseInRange(value, option->minimum, option->maximum, option->number(options));
      break;
  }
  if (parsed) return Status::Ok();
  return Status::Error(std::string(option->key) + " needs " + AcceptedValues(*option) + ", got " +
                       (value.empty() ? "nothing" : "'" + std::string(value) + "'"));
}

Status ApplyPipelineOptionAssignment(PipelineOptions& options, std::string_view assignment) {
  const size_t eq = assignment.find('=');
  if (eq == std::string_view::npos || eq == 0) {
    return Status::Error("--set needs KEY=VALUE, got '" + std::string(assignment) + "'");
  }
  return SetPipelineOption(options, assignment.substr(0, eq), assignment.substr(eq + 1));
}

std::vector<const PipelineOption*> ChangedPipelineOptions(const PipelineOptions& a,
                                                          const PipelineOptions& b) {
  std::vector<const PipelineOption*> changed;
  for (const PipelineOption& option : PipelineOptionTable()) {
    if (PipelineOptionValue(a, option) != PipelineOptionValue(b, option)) {
      changed.push_back(&option);
    }
  }
  return changed;
}

}  // namespace fusescope::passes
