// `fusescope hot RUN.fsdb [--pass N] [--profile ID] [--top K] [--json] [--list]`: the hot
// nodes of one pass's graph under a profile stored in the recording, with the model's
// instructions they answer for and their source lines. On the profiled snapshot a kernel's
// time is measured; anywhere else it is the measured kernel time split over the model's
// instructions by a roofline estimate (profiler/attribution.h), and says so.

#include <cstdio>
#include <iostream>

#include "app/cli/command.h"
#include "ir/json_writer.h"
#include "profiler/attribution.h"
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

int RunHot(const std::vector<std::string>& raw_args) {
  auto args = ParseArgs(raw_args, {"--pass", "--profile", "--top"}, {"--json", "--list"});
  if (!args.ok()) return Fail("hot: " + args.message());
  if (args->positional().size() != 1) {
    return Fail("usage: fusescope hot RUN.fsdb [--pass N] [--profile ID] [--top K] [--json] [--list]");
  }
  const std::string& path = args->positional()[0];
  auto pass = args->IntValue("--pass");
  if (!pass.ok()) return Fail(pass.message());
  auto wanted = args->IntValue("--profile");
  if (!wanted.ok()) return Fail(wanted.message());
  auto top = args->IntValue("--top");
  if (!top.ok()) return Fail(top.message());
  auto recording = recording::LoadRecording(path);
  if (!recording.ok()) return Fail(recording.message());
  auto profiles = profiler::LoadProfiles(path);
  if (!profiles.ok()) return Fail(profiles.message());
  if (profiles->empty()) {
    return Fail(path + ": the recording holds no profile (add one: fusescope xla-trace TRACE " +
                path + " --save)");
  }
  if (args->Has("--list")) {
    ListProfiles(*profiles, *recording);
    return 0;
  }
  const profiler::Profile* profile = &profiles->back();
  if (*wanted) {
    profile = nullptr;
    for (const profiler::Profile& candidate : *profiles) {
      if (candidate.profile_id == **wanted) profile = &candidate;
    }
    if (profile == nullptr) {
      return Fail(path + ": no profile " + std::to_string(**wanted) + " (--list shows them)");
    }
  }
  const int64_t snapshots = static_cast<int64_t>(recording->snapshots.size());
  int64_t snapshot = profile->snapshot_index;
  if (*pass) {
    snapshot = **pass + 1;
    if (snapshot < 0 || snapshot >= snapshots) {
      return Fail(path + ": no pass " + std::to_string(**pass) + " (the recording has " +
                  std::to_string(recording->passes.size()) + " passes, numbered 0.." +
                  std::to_string(static_cast<int64_t>(recording->passes.size()) - 1) +
                  "; -1 is the input)");
    }
  }
  auto attribution = profiler::AttributeToOriginals(*recording, *profile);
  if (!attribution.ok()) return Fail(path + ": " + attribution.message());
  auto nodes = profiler::HotNodes(*recording, *profile, *attribution, snapshot);
  if (!nodes.ok()) return Fail(path + ": " + nodes.message());
  const size_t limit = static_cast<size_t>(std::max<int64_t>(0, top->value_or(15)));

  if (args->Has("--json")) {
    JsonWriter json;
    json.BeginObject();
    json.Key("profile").Int(profile->profile_id);
    json.Key("label").String(profile->label);
    json.Key("profiled_snapshot").Int(profile->snapshot_index);
    json.Key("snapshot").Int(snapshot);
    json.Key("total_us").Double(attribution->profile_total_us);
    json.Key("nodes").BeginArray();
    for (size_t i = 0; i < nodes->size() && i < limit; ++i) {
      const profiler::HotNode& node = (*nodes)[i];
      json.BeginObject();
      json.Key("name").String(node.name);
      json.Key("opcode").String(node.opcode);
      json.Key("time_us").Double(node.time_us);
      json.Key("share").Double(node.share);
      json.Key("measured").Bool(node.measured);
      json.Key("originals").BeginArray();
      for (const std::string& name : node.originals) json.String(name);
      json.EndArray();
      json.Key("source_lines").BeginArray();
      for (const profiler::SourceLine& line : node.source_lines) {
        json.String(line.file + ":" + std::to_string(line.line));
      }
      json.EndArray();
      json.EndObject();
    }
    json.EndArray();
    json.Key("kernels_not_found").BeginArray();
    for (const std::string& name : attribution->kernels_not_found) json.String(name);
    json.EndArray();
    json.EndObject();
    std::cout << json.str() << '\n';
    return 0;
  }
  std::printf("profile %lld \"%s\" (%s, %s) measured on %s\n",
              static_cast<long long>(profile->profile_id), profile->label.c_str(),
              profile->device.c_str(), profile->settings.c_str(),
              SnapshotName(*recording, profile->snapshot_index).c_str());
  std::printf("hot nodes %s; %s\n\n", SnapshotName(*recording, snapshot).c_str(),
              snapshot == profile->snapshot_index
                  ? "kernel times measured"
                  : "times ESTIMATED: each kernel's measured time split over the model's ops "
                    "by a roofline estimate");
  std::printf("%-34s %-12s %10s %7s  %s\n", "node", "opcode", "time us", "share",
              "answers for (source lines)");
  for (size_t i = 0; i < nodes->size() && i < limit; ++i) {
    const profiler::HotNode& node = (*nodes)[i];
    std::printf("%-34s %-12s %10.2f %6.1f%%%s %s (%s)\n", node.name.c_str(), node.opcode.c_str(),
                node.time_us, 100 * node.share, node.measured ? " " : "~",
                Join(node.originals, 3).c_str(), Lines(node.source_lines, 3).c_str());
  }
  if (!attribution->kernels_not_found.empty()) {
    std::printf("\n%zu measured kernel(s) are not in the profiled snapshot, e.g. %s\n",
                attribution->kernels_not_found.size(),
                attribution->kernels_not_found.front().c_str());
  }
  return 0;
}

const CommandRegistrar kRegistrar(
    {"hot", "hot RUN.fsdb [--pass N] [--profile ID] [--top K] [--json] [--list]",
     "the hot nodes of a pass's graph under a stored profile, with source lines", RunHot});

}  // namespace
}  // namespace fusescope::app
