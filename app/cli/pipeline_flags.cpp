#include "app/cli/pipeline_flags.h"

#include <algorithm>
#include <iomanip>

#include "ir/json_writer.h"
#include "passes/pipeline_option_table.h"

namespace fusescope::app {
namespace {

// --fusion-limit names the fusion options without their "fusion." prefix.
Status ApplyFusionLimit(passes::PipelineOptions& options, const std::string& assignment) {
  const size_t eq = assignment.find('=');
  if (eq == std::string::npos) {
    return Status::Error("--fusion-limit needs KEY=VALUE, got '" + assignment + "'");
  }
  const std::string key = "fusion." + assignment.substr(0, eq);
  if (passes::FindPipelineOption(key) == nullptr) {
    std::string known;
    for (const passes::PipelineOption& option : passes::PipelineOptionTable()) {
      if (option.key.rfind("fusion.", 0) != 0) continue;
      known += (known.empty() ? "" : ", ") + std::string(option.key.substr(7));
    }
    return Status::Error("unknown fusion limit '" + assignment.substr(0, eq) + "' (" + known + ")");
  }
  return passes::SetPipelineOption(options, key, assignment.substr(eq + 1));
}

std::string Default(const passes::PipelineOption& option) {
  return passes::PipelineOptionValue(passes::PipelineOptions{}, option) +
         (option.unit.empty() ? "" : " " + std::string(option.unit));
}

}  // namespace

const std::vector<Flag>& PipelineFlags() {
  static const std::vector<Flag> flags = {
      Text("--pipeline", "cpu|gpu", "the built-in pipeline").Default("cpu"),
      Text("--disable-pass", "NAME", "leave this pass out").Repeats(),
      Text("--stop-after", "NAME", "stop after this pass"),
      Text("--set", "KEY=VALUE", "set a pipeline option, one of those compile --list-options lists")
          .Repeats(),
      Text("--fusion-limit", "KEY=VALUE", "the same as --set fusion.KEY=VALUE").Repeats(),
      Switch("--no-verify", "do not verify the module between passes"),
  };
  return flags;
}

StatusOr<passes::PipelineOptions> PipelineOptionsFromArgs(const ParsedArgs& args) {
  passes::PipelineOptions options;
  options.target = *args.Value("--pipeline");
  if (options.target != "cpu" && options.target != "gpu") {
    return Status::Error("unknown pipeline '" + options.target + "' (cpu or gpu)");
  }
  for (const std::string& name : args.Values("--disable-pass")) {
    options.disabled_passes.insert(name);
  }
  options.stop_after = args.Value("--stop-after").value_or("");
  options.verify_between_passes = !args.Has("--no-verify");
  for (const std::string& assignment : args.Values("--fusion-limit")) {
    FS_RETURN_IF_ERROR(ApplyFusionLimit(options, assignment));
  }
  for (const std::string& assignment : args.Values("--set")) {
    FS_RETURN_IF_ERROR(passes::ApplyPipelineOptionAssignment(options, assignment));
  }
  return options;
}

void PrintPipelineOptions(std::ostream& out, bool json) {
  const auto& table = passes::PipelineOptionTable();
  if (json) {
    JsonWriter writer;
    writer.BeginObject();
    writer.Key("options").BeginArray();
    for (const passes::PipelineOption& option : table) {
      writer.BeginObject();
      writer.Key("key").String(std::string(option.key));
      writer.Key("alias").String(std::string(option.alias));
      writer.Key("default").String(passes::PipelineOptionValue(passes::PipelineOptions{}, option));
      writer.Key("unit").String(std::string(option.unit));
      writer.Key("accepts").String(passes::AcceptedValues(option));
      writer.Key("meaning").String(std::string(option.meaning));
      writer.EndObject();
    }
    writer.EndArray();
    writer.EndObject();
    out << writer.str() << '\n';
    return;
  }
  size_t key_width = 0, default_width = 0;
  for (const passes::PipelineOption& option : table) {
    key_width = std::max(key_width, option.key.size());
    default_width = std::max(default_width, Default(option).size());
  }
  for (const passes::PipelineOption& option : table) {
    out << std::left << std::setw(static_cast<int>(key_width + 2)) << option.key
        << std::setw(static_cast<int>(default_width + 2)) << Default(option) << option.meaning;
    if (!option.alias.empty()) out << "; also " << option.alias;
    out << '\n';
  }
}

}  // namespace fusescope::app
