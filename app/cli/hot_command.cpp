// `fusescope hot RUN.fsdb [--pass N] [--profile ID] [--top K] [--json] [--list]`: the hot
// nodes of one pass's graph under a profile stored in the recording, with the model's
// instructions they answer for and their source lines. On the profiled snapshot a kernel's
// time is measured; anywhere else it is the measured kernel time split over the model's
// instructions by a roofline estimate (profiler/attribution.h), and says so. --trace writes
// the profile as a Chrome trace; --compare sets it against another profile kernel by kernel.
// Where this machine's figures are cached (`fusescope machine`), the hottest profiled kernels
// are also placed on its roofline (FLOPs and bytes counted from the IR, the median time); not
// those of a TensorRT profile, which its own GPU measured.

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "app/cli/command.h"
#include "app/cli/common_flags.h"
#include "ir/json_writer.h"
#include "passes/cost_analysis.h"
#include "profiler/attribution.h"
#include "profiler/machine.h"
#include "profiler/profile_export.h"
#include "profiler/profile_store.h"
#include "recording/recording_store.h"

namespace fusescope::app {
namespace {

std::string Join(const std::vector<std::string>& items, size_t limit) {
  std::string text;
  for (size_t i = 0; i < items.size() && i < limit; ++i) text += (i ? ", " : "") + items[i];
  if (items.size() > limit) text += " +" + std::to_string(items.size() - limit);
  return text;
}

std::string Lines(const std::vector<profiler::SourceLine>& lines, size_t limit) {
  std::vector<std::string> items;
  for (const profiler::SourceLine& line : lines) {
    items.push_back(line.file + ":" + std::to_string(line.line));
  }
  return Join(items, limit);
}

struct RooflineRow {
  std::string name;
  profiler::RooflinePoint point;
};

// The `limit` hottest kernels of the profile on the profiled snapshot, on the cached machine's
// roofline; `why_not` says why there are none (no cached figures, a snapshot that does not
// load, kernels the IR does not know).
std::vector<RooflineRow> RooflineOfKernels(const recording::Recording& recording,
                                           const profiler::Profile& profile, size_t limit,
                                           std::string* why_not) {
  std::vector<RooflineRow> rows;
  if (profile.source == "tensorrt") {
    *why_not = "no roofline: TensorRT timed these layers on its own GPU, not on this machine";
    return rows;
  }
  auto machine = profiler::LoadCachedMachine(profiler::DefaultCacheDirectory());
  if (!machine.ok()) {
    *why_not = "no roofline: " + machine.message() + " (fusescope machine measures it)";
    return rows;
  }
  if (profile.snapshot_index < 0 ||
      profile.snapshot_index >= static_cast<int64_t>(recording.snapshots.size())) {
    *why_not = "no roofline: the profile's snapshot is not in the recording";
    return rows;
  }
  auto module = recording.snapshots[static_cast<size_t>(profile.snapshot_index)].ToModule();
  if (!module.ok()) {
    *why_not = "no roofline: " + module.message();
    return rows;
  }
  for (const profiler::KernelTime& kernel : profile.kernels) {  // hottest first
    if (rows.size() >= limit) break;
    const ir::Instruction* instruction = (*module)->FindInstructionById(kernel.instruction_id);
    if (!instruction || kernel.samples_us.empty()) continue;
    const double seconds = kernel.Summary().median * 1e-6;
    if (seconds <= 0) continue;
    rows.push_back({kernel.name,
                    profiler::PlaceOnRoofline(*machine, passes::KernelFlops(*instruction),
                                              passes::KernelBytes(*instruction), seconds)});
  }
  if (rows.empty()) *why_not = "no roofline: no profiled kernel is an instruction of its snapshot";
  return rows;
}

std::string SnapshotName(const recording::Recording& recording, int64_t snapshot) {
  if (snapshot == 0) return "the input";
  const size_t pass = static_cast<size_t>(snapshot - 1);
  return "after pass " + std::to_string(pass) + " " +
         (pass < recording.passes.size() ? recording.passes[pass].name : std::string("?"));
}

void ListProfiles(const std::vector<profiler::Profile>& profiles,
                  const recording::Recording& recording) {
  for (const profiler::Profile& profile : profiles) {
    std::printf("%3lld  %-28s %-10s %s; %s; of %s; %s\n",
                static_cast<long long>(profile.profile_id), profile.label.c_str(),
                profile.source.c_str(), profile.device.c_str(), profile.settings.c_str(),
                SnapshotName(recording, profile.snapshot_index).c_str(), profile.created_at.c_str());
  }
}

int ExportTrace(const profiler::Profile& profile, const recording::Recording& recording,
                const std::string& out_path) {
  std::vector<std::string> order;
  const recording::Snapshot& snapshot =
      recording.snapshots[static_cast<size_t>(profile.snapshot_index)];
  for (const auto& computation : snapshot.computations()) {
    for (const auto& record : computation->instructions) order.push_back(record->name);
  }
  std::ostringstream text;
  profiler::WriteChromeTrace(profile, order, text);
  // Written beside and renamed: an existing file is replaced whole or not at all.
  const std::string temporary = out_path + ".tmp";
  {
    std::ofstream file(temporary);
    if (!(file << text.str()) || !file.flush()) {
      std::filesystem::remove(temporary);
      return Fail("cannot write " + out_path);
    }
  }
  std::error_code error;
  std::filesystem::rename(temporary, out_path, error);
  if (error) return Fail("cannot write " + out_path + ": " + error.message());
  std::fprintf(stderr, "wrote %s (profile %lld as a Chrome trace)\n", out_path.c_str(),
               static_cast<long long>(profile.profile_id));
  return 0;
}

// `ID` (same recording) or `RUN2.fsdb[:ID]` (its latest profile without an id).
StatusOr<profiler::Profile> FindOther(const std::vector<profiler::Profile>& profiles,
                                      const std::string& spec) {
  const bool numeric = !spec.empty() && spec.find_first_not_of("0123456789") == std::string::npos;
  std::vector<profiler::Profile> others;
  std::string path = spec;
  std::optional<int64_t> id;
  if (numeric) {
    id = std::stoll(spec);
    others = profiles;
  } else {
    const size_t colon = spec.rfind(':');
    if (colon != std::string::npos && colon + 1 < spec.size() &&
        spec.find_first_not_of("0123456789", colon + 1) == std::string::npos) {
      path = spec.substr(0, colon);
      id = std::stoll(spec.substr(colon + 1));
    }
    auto loaded = profiler::LoadProfiles(path);
    if (!loaded.ok()) return loaded.status();
    others = std::move(*loaded);
    if (others.empty()) return Status::Error(path + ": the recording holds no profile");
    if (!id) return others.back();
  }
  for (const profiler::Profile& profile : others) {
    if (profile.profile_id == *id) return profile;
  }
  return Status::Error("no profile " + std::to_string(*id) + " in " + (numeric ? "this recording" : path));
}

int Compare(const profiler::Profile& after, const std::vector<profiler::Profile>& profiles,
            const std::string& spec, size_t limit, bool as_json) {
  auto before = FindOther(profiles, spec);
  if (!before.ok()) return Fail(before.message());
  const profiler::ProfileComparison comparison = profiler::CompareProfiles(*before, after);
  if (as_json) {
    JsonWriter json;
    json.BeginObject();
    json.Key("before").String(before->label);
    json.Key("after").String(after.label);
    json.Key("before_latency_us").Double(comparison.before_latency_us);
    json.Key("after_latency_us").Double(comparison.after_latency_us);
    json.Key("only_before").Int(comparison.only_before);
    json.Key("only_after").Int(comparison.only_after);
    json.Key("kernels").BeginArray();
    for (const profiler::KernelComparison& row : comparison.kernels) {
      json.BeginObject();
      json.Key("name").String(row.name);
      json.Key("in_before").Bool(row.in_before);
      json.Key("in_after").Bool(row.in_after);
      json.Key("before_median_us").Double(row.before_median_us);
      json.Key("after_median_us").Double(row.after_median_us);
      json.Key("delta_us").Double(row.delta_us());
      json.EndObject();
    }
    json.EndArray();
    json.EndObject();
    std::cout << json.str() << '\n';
    return 0;
  }
  std::printf("before: profile %lld \"%s\"  after: profile %lld \"%s\"\n",
              static_cast<long long>(before->profile_id), before->label.c_str(),
              static_cast<long long>(after.profile_id), after.label.c_str());
  std::printf("median latency %.2f us -> %.2f us (%+.1f%%); %lld kernel(s) gone, %lld new\n\n",
              comparison.before_latency_us, comparison.after_latency_us,
              comparison.before_latency_us > 0
                  ? 100 * (comparison.after_latency_us / comparison.before_latency_us - 1)
                  : 0.0,
              static_cast<long long>(comparison.only_before),
              static_cast<long long>(comparison.only_after));
  std::printf("%-34s %12s %12s %10s\n", "kernel", "before us", "after us", "delta us");
  for (size_t i = 0; i < comparison.kernels.size() && i < limit; ++i) {
    const profiler::KernelComparison& row = comparison.kernels[i];
    auto cell = [](bool present, double value) {
      char text[32];
      if (present) {
        std::snprintf(text, sizeof(text), "%.2f", value);
      } else {
        std::snprintf(text, sizeof(text), "-");
      }
      return std::string(text);
    };
    std::printf("%-34s %12s %12s %+10.2f\n", row.name.c_str(),
                cell(row.in_before, row.before_median_us).c_str(),
                cell(row.in_after, row.after_median_us).c_str(), row.delta_us());
  }
  return 0;
}

// What `hot` found: one profile's hot nodes on one snapshot's graph, what the profile could not
// attribute, and its hottest kernels on this machine's roofline.
struct HotOutcome {
  const recording::Recording* recording = nullptr;
  const profiler::Profile* profile = nullptr;
  int64_t snapshot = 0;  // the graph the nodes are of
  profiler::Attribution attribution;
  std::vector<profiler::HotNode> nodes;  // hottest first
  size_t limit = 0;                      // how many are shown (--top)
  std::vector<RooflineRow> roofline;
  std::string no_roofline;  // why `roofline` is empty
};

// The profile --profile names, else the latest.
StatusOr<const profiler::Profile*> ChooseProfile(const std::vector<profiler::Profile>& profiles,
                                                 std::optional<int64_t> wanted,
                                                 const std::string& path) {
  if (!wanted) return &profiles.back();
  for (const profiler::Profile& candidate : profiles) {
    if (candidate.profile_id == *wanted) return &candidate;
  }
  return Status::Error(path + ": no profile " + std::to_string(*wanted) + " (--list shows them)");
}

// The snapshot after --pass, else the profiled one.
StatusOr<int64_t> ChooseSnapshot(const recording::Recording& recording,
                                 const profiler::Profile& profile, std::optional<int64_t> pass,
                                 const std::string& path) {
  if (!pass) return profile.snapshot_index;
  const int64_t snapshot = *pass + 1;
  if (snapshot < 0 || snapshot >= static_cast<int64_t>(recording.snapshots.size())) {
    return Status::Error(path + ": no pass " + std::to_string(*pass) + " (the recording has " +
                         std::to_string(recording.passes.size()) + " passes, numbered 0.." +
                         std::to_string(static_cast<int64_t>(recording.passes.size()) - 1) +
                         "; -1 is the input)");
  }
  return snapshot;
}

StatusOr<HotOutcome> FindHotNodes(const recording::Recording& recording,
                                  const profiler::Profile& profile, int64_t snapshot, size_t limit,
                                  const std::string& path) {
  auto attribution = profiler::AttributeToOriginals(recording, profile);
  if (!attribution.ok()) return Status::Error(path + ": " + attribution.message());
  auto nodes = profiler::HotNodes(recording, profile, *attribution, snapshot);
  if (!nodes.ok()) return Status::Error(path + ": " + nodes.message());
  HotOutcome outcome;
  outcome.recording = &recording;
  outcome.profile = &profile;
  outcome.snapshot = snapshot;
  outcome.attribution = std::move(attribution).value();
  outcome.nodes = std::move(nodes).value();
  outcome.limit = limit;
  outcome.roofline = RooflineOfKernels(recording, profile, limit, &outcome.no_roofline);
  return outcome;
}

void PrintHotJson(const HotOutcome& outcome) {
  const profiler::Profile& profile = *outcome.profile;
  const profiler::Attribution& attribution = outcome.attribution;
  const std::vector<profiler::HotNode>& nodes = outcome.nodes;
  const int64_t snapshot = outcome.snapshot;
  const size_t limit = outcome.limit;
  const std::string& no_roofline = outcome.no_roofline;
  const std::vector<RooflineRow>& roofline = outcome.roofline;
  JsonWriter json;
  json.BeginObject();
  json.Key("profile").Int(profile.profile_id);
  json.Key("label").String(profile.label);
  json.Key("profiled_snapshot").Int(profile.snapshot_index);
  json.Key("snapshot").Int(snapshot);
  json.Key("total_us").Double(attribution.profile_total_us);
  json.Key("nodes").BeginArray();
  for (size_t i = 0; i < nodes.size() && i < limit; ++i) {
    const profiler::HotNode& node = nodes[i];
    json.BeginObject();
    json.Key("name").String(node.name);
    json.Key("opcode").String(node.opcode);
    json.Key("time_us").Double(node.time_us);
    json.Key("share").Double(node.share);
    json.Key("measured").Bool(node.measured);
    json.Key("originals").BeginArray();
    for (const std::string& name : node.originals) json.String(name);
    json.EndArray();
    json.Key("op_names").BeginArray();
    for (const std::string& name : node.op_names) json.String(name);
    json.EndArray();
    json.Key("source_lines").BeginArray();
    for (const profiler::SourceLine& line : node.source_lines) {
      json.String(line.file + ":" + std::to_string(line.line));
    }
    json.EndArray();
    json.EndObject();
  }
  json.EndArray();
  json.Key("unattributed_us").Double(attribution.unattributed_us);
  json.Key("kernels_without_provenance").BeginArray();
  for (const std::string& name : attribution.kernels_without_provenance) json.String(name);
  json.EndArray();
  json.Key("kernels_not_found").BeginArray();
  for (const std::string& name : attribution.kernels_not_found) json.String(name);
  json.EndArray();
  json.Key("roofline").BeginArray();
  for (const RooflineRow& row : roofline) {
    json.BeginObject();
    json.Key("name").String(row.name);
    json.Key("flops").Double(row.point.flops);
    json.Key("bytes").Double(row.point.bytes);
    json.Key("seconds").Double(row.point.seconds);
    json.Key("intensity").Double(row.point.intensity);
    json.Key("achieved_flops").Double(row.point.achieved_flops);
    json.Key("achieved_bandwidth").Double(row.point.achieved_bandwidth);
    json.Key("roof_flops").Double(row.point.roof_flops);
    json.Key("fraction_of_roof").Double(row.point.fraction_of_roof);
    json.Key("bound").String(row.point.memory_bound ? "memory" : "compute");
    json.EndObject();
  }
  json.EndArray();
  if (!no_roofline.empty()) json.Key("roofline_unavailable").String(no_roofline);
  json.EndObject();
  std::cout << json.str() << '\n';
}

void PrintHotText(const HotOutcome& outcome) {
  const recording::Recording& recording = *outcome.recording;
  const profiler::Profile& profile = *outcome.profile;
  const profiler::Attribution& attribution = outcome.attribution;
  const std::vector<profiler::HotNode>& nodes = outcome.nodes;
  const int64_t snapshot = outcome.snapshot;
  const size_t limit = outcome.limit;
  const std::string& no_roofline = outcome.no_roofline;
  const std::vector<RooflineRow>& roofline = outcome.roofline;
  std::printf("profile %lld \"%s\" (%s, %s) measured on %s\n",
              static_cast<long long>(profile.profile_id), profile.label.c_str(),
              profile.device.c_str(), profile.settings.c_str(),
              SnapshotName(recording, profile.snapshot_index).c_str());
  std::printf("hot nodes %s; %s\n\n", SnapshotName(recording, snapshot).c_str(),
              snapshot == profile.snapshot_index
                  ? "kernel times measured"
                  : "times ESTIMATED: each kernel's measured time split over the model's ops "
                    "by a roofline estimate");
  std::printf("%-34s %-12s %10s %7s  %s\n", "node", "opcode", "time us", "share",
              "answers for (source lines, else op names)");
  for (size_t i = 0; i < nodes.size() && i < limit; ++i) {
    const profiler::HotNode& node = nodes[i];
    // Where the model says it: source lines when it has them, else its op names (ONNX node
    // names, jax name scopes).
    std::string lines = Lines(node.source_lines, 3);
    if (lines.empty()) lines = Join(node.op_names, 3);
    std::printf("%-34s %-12s %10.2f %6.1f%%%s %s%s\n", node.name.c_str(), node.opcode.c_str(),
                node.time_us, 100 * node.share, node.measured ? " " : "~",
                Join(node.originals, 3).c_str(), lines.empty() ? "" : (" (" + lines + ")").c_str());
  }
  if (!attribution.kernels_without_provenance.empty()) {
    // Said, not hidden: e.g. a layout copy XLA inserted answers for no model instruction.
    std::printf(
        "\n%zu measured kernel(s) answer for no model instruction (%.2f us, %.1f%%), "
        "e.g. %s\n",
        attribution.kernels_without_provenance.size(), attribution.unattributed_us,
        attribution.profile_total_us > 0
            ? 100 * attribution.unattributed_us / attribution.profile_total_us
            : 0.0,
        attribution.kernels_without_provenance.front().c_str());
  }
  if (!attribution.kernels_not_found.empty()) {
    std::printf("\n%zu measured kernel(s) are not in the profiled snapshot, e.g. %s\n",
                attribution.kernels_not_found.size(),
                attribution.kernels_not_found.front().c_str());
  }
  if (!roofline.empty()) {
    std::printf("\nroofline of the profiled kernels (this machine's cached figures; median "
                "times):\n%-34s %10s %10s %9s %10s %9s %7s  %s\n",
                "kernel", "MFLOP", "MB", "FLOP/B", "GFLOP/s", "GB/s", "of roof", "bound");
    for (const RooflineRow& row : roofline) {
      const profiler::RooflinePoint& p = row.point;
      std::printf("%-34s %10.2f %10.3f %9.2f %10.2f %9.2f %6.1f%%  %s\n", row.name.c_str(),
                  p.flops / 1e6, p.bytes / 1e6, p.intensity, p.achieved_flops / 1e9,
                  p.achieved_bandwidth / 1e9, 100 * p.fraction_of_roof,
                  p.memory_bound ? "memory" : "compute");
    }
  } else {
    std::printf("\n%s\n", no_roofline.c_str());
  }
}

int RunHot(const ParsedArgs& args) {
  const std::string& path = args.positional()[0];
  const size_t limit = static_cast<size_t>(std::max<int64_t>(0, *args.IntValue("--top")));
  auto recording = recording::LoadRecording(path);
  if (!recording.ok()) return Fail(recording.message());
  auto profiles = profiler::LoadProfiles(path);
  if (!profiles.ok()) return Fail(profiles.message());
  if (profiles->empty()) {
    return Fail(path + ": the recording holds no profile (add one: fusescope xla-trace TRACE " +
                path + " --save)");
  }
  if (args.Has("--list")) {
    ListProfiles(*profiles, *recording);
    return 0;
  }
  auto profile = ChooseProfile(*profiles, args.IntValue("--profile"), path);
  if (!profile.ok()) return Fail(profile.message());
  if (auto out = args.Value("--trace")) return ExportTrace(**profile, *recording, *out);
  if (auto other = args.Value("--compare")) {
    return Compare(**profile, *profiles, *other, limit, args.Has("--json"));
  }
  auto snapshot = ChooseSnapshot(*recording, **profile, args.IntValue("--pass"), path);
  if (!snapshot.ok()) return Fail(snapshot.message());
  auto outcome = FindHotNodes(*recording, **profile, *snapshot, limit, path);
  if (!outcome.ok()) return Fail(outcome.message());
  if (args.Has("--json")) {
    PrintHotJson(*outcome);
  } else {
    PrintHotText(*outcome);
  }
  return 0;
}

const CommandRegistrar kRegistrar({
    .name = "hot",
    .summary = "the hot nodes of a pass's graph under a stored profile, with source lines",
    .positionals = {{"RUN.fsdb", "a recording with a stored profile"}},
    .flags =
        {
            PassFlag("the profiled one"),
            Integer("--profile", "ID", "the stored profile (default: the latest)"),
            Integer("--top", "K", "how many nodes (kernels) to list").Default("15"),
            JsonFlag(),
            Switch("--list", "the stored profiles"),
            Text("--trace", "OUT.json", "write the profile as a Chrome trace"),
            Text("--compare", "ID|RUN2.fsdb[:ID]",
                 "set the profile against another, kernel by kernel (another recording: its "
                 "latest profile without :ID)"),
        },
    .run = RunHot,
    .runs_kernels = false,
});

}  // namespace
}  // namespace fusescope::app
