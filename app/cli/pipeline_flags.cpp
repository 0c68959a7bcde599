#include "app/cli/pipeline_flags.h"

#include <charconv>
#include <functional>
#include <map>

namespace fusescope::app {
namespace {

StatusOr<int64_t> ParseLimit(const std::string& key, const std::string& text) {
  int64_t value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || ptr != text.data() + text.size() || value < 0) {
    return Status::Error("--fusion-limit " + key + " needs a non-negative integer, got '" +
                         text + "'");
  }
  return value;
}

StatusOr<bool> ParseSwitch(const std::string& key, const std::string& text) {
  if (text == "true" || text == "1" || text == "on") return true;
  if (text == "false" || text == "0" || text == "off") return false;
  return Status::Error("--fusion-limit " + key + " needs true or false, got '" + text + "'");
}

Status ApplyLimit(passes::FusionLimits& limits, const std::string& assignment) {
  const size_t eq = assignment.find('=');
  if (eq == std::string::npos) {
    return Status::Error("--fusion-limit needs KEY=VALUE, got '" + assignment + "'");
  }
  const std::string key = assignment.substr(0, eq);
  const std::string value = assignment.substr(eq + 1);
  const std::map<std::string, int64_t*> numbers = {
      {"max_operands_and_outputs", &limits.max_operands_and_outputs},
      {"max_reductions", &limits.max_reductions},
      {"max_instructions", &limits.max_instructions},
      {"max_concat_operands", &limits.max_concat_operands}};
  const std::map<std::string, bool*> switches = {{"allow_duplication", &limits.allow_duplication},
                                                 {"multi_output", &limits.multi_output},
                                                 {"output_fusion", &limits.output_fusion}};
  if (auto it = numbers.find(key); it != numbers.end()) {
    auto parsed = ParseLimit(key, value);
    if (!parsed.ok()) return parsed.status();
    *it->second = *parsed;
    return Status::Ok();
  }
  if (auto it = switches.find(key); it != switches.end()) {
    auto parsed = ParseSwitch(key, value);
    if (!parsed.ok()) return parsed.status();
    *it->second = *parsed;
    return Status::Ok();
  }
  return Status::Error("unknown fusion limit '" + key +
                       "' (max_operands_and_outputs, max_reductions, max_instructions, "
                       "max_concat_operands, allow_duplication, multi_output, output_fusion)");
}

}  // namespace

StatusOr<passes::PipelineOptions> PipelineOptionsFromArgs(const ParsedArgs& args) {
  passes::PipelineOptions options;
  options.target = args.Value("--pipeline").value_or("cpu");
  if (options.target != "cpu" && options.target != "gpu") {
    return Status::Error("unknown pipeline '" + options.target + "' (cpu or gpu)");
  }
  for (const std::string& name : args.Values("--disable-pass")) {
    options.disabled_passes.insert(name);
  }
  options.stop_after = args.Value("--stop-after").value_or("");
  options.verify_between_passes = !args.Has("--no-verify");
  for (const std::string& assignment : args.Values("--fusion-limit")) {
    FS_RETURN_IF_ERROR(ApplyLimit(options.fusion, assignment));
  }
  return options;
}

}  // namespace fusescope::app
