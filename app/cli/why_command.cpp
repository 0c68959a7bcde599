// `fusescope why RUN.fsdb PRODUCER CONSUMER [--json]`: every fusion decision on that pair.
// A pair also matches through provenance (recording/decision_lookup.h).

#include <algorithm>
#include <iostream>
#include <optional>

#include "app/cli/command.h"
#include "ir/json_writer.h"
#include "recording/decision_lookup.h"
#include "recording/recording_store.h"

namespace fusescope::app {
namespace {

std::string StripSigil(std::string_view name) {
  if (!name.empty() && name.front() == '%') name.remove_prefix(1);
  return std::string(name);
}

struct Match {
  const passes::FusionDecisionRecord* decision;
  bool direct;  // named exactly; otherwise through provenance
};

std::vector<Match> FindMatches(const recording::Recording& recording, const std::string& producer,
                               const std::string& consumer) {
  std::vector<Match> matches;
  for (const recording::DecisionMatch& match :
       recording::FindDecisions(recording, producer, consumer)) {
    matches.push_back({&recording.decisions[match.index], match.direct});
  }
  return matches;
}

std::string PassLabel(const recording::Recording& recording, int64_t index) {
  std::string name;
  if (index >= 0 && index < static_cast<int64_t>(recording.passes.size())) {
    name = recording.passes[static_cast<size_t>(index)].name;
  }
  return "#" + std::to_string(index) + " " + name;
}

void PrintText(const recording::Recording& recording, const std::vector<Match>& matches,
               const std::string& producer, const std::string& consumer) {
  std::cout << "%" << producer << " -> %" << consumer << ": " << matches.size() << " decision"
            << (matches.size() == 1 ? "" : "s") << '\n';
  for (const Match& match : matches) {
    const auto& d = *match.decision;
    std::cout << "  pass " << PassLabel(recording, d.pass_index) << ": "
              << (d.accepted() ? "fused" : "refused") << " ["
              << passes::FusionReasonCode(d.reason) << "] " << d.explanation;
    if (!match.direct) std::cout << "  (as %" << d.producer_name << " -> %" << d.consumer_name << ")";
    std::cout << '\n';
  }
}

void PrintJson(const recording::Recording& recording, const std::vector<Match>& matches,
               const std::string& producer, const std::string& consumer) {
  JsonWriter json;
  json.BeginObject();
  json.Key("producer").String(producer);
  json.Key("consumer").String(consumer);
  json.Key("decisions").BeginArray();
  for (const Match& match : matches) {
    const auto& d = *match.decision;
    json.BeginObject();
    json.Key("pass_index").Int(d.pass_index);
    json.Key("pass").String(PassLabel(recording, d.pass_index));
    json.Key("accepted").Bool(d.accepted());
    json.Key("reason").String(passes::FusionReasonCode(d.reason));
    json.Key("explanation").String(d.explanation);
    json.Key("producer").String(d.producer_name);
    json.Key("consumer").String(d.consumer_name);
    json.Key("fusion").String(d.fusion_name);
    json.Key("direct").Bool(match.direct);
    json.EndObject();
  }
  json.EndArray();
  json.EndObject();
  std::cout << json.str() << '\n';
}

int RunWhy(const ParsedArgs& args) {
  auto recording = recording::LoadRecording(args.positional()[0]);
  if (!recording.ok()) return Fail(recording.message());
  const std::string producer = StripSigil(args.positional()[1]);
  const std::string consumer = StripSigil(args.positional()[2]);
  for (const std::string& name : {producer, consumer}) {
    const bool known = std::any_of(
        recording->snapshots.begin(), recording->snapshots.end(),
        [&](const recording::Snapshot& snapshot) { return snapshot.FindInstruction(name); });
    if (!known) {
      return Fail("no instruction named %" + name + " in any snapshot of " + args.positional()[0]);
    }
  }
  const std::vector<Match> matches = FindMatches(*recording, producer, consumer);
  if (matches.empty()) {
    return Fail("no fusion pass considered %" + producer + " -> %" + consumer +
                " (not a producer-consumer pair in any fusion pass)");
  }
  if (args.Has("--json")) {
    PrintJson(*recording, matches, producer, consumer);
  } else {
    PrintText(*recording, matches, producer, consumer);
  }
  return 0;
}

const CommandRegistrar kRegistrar({
    .name = "why",
    .summary = "every fusion decision on that pair",
    .positionals = {{"RUN.fsdb", "a recording"},
                    {"PRODUCER", "the producer's instruction name (with or without %)"},
                    {"CONSUMER", "the consumer's instruction name"}},
    .flags =
        {
            Switch("--json", "print JSON"),
        },
    .run = RunWhy,
    .runs_kernels = false,
});

}  // namespace
}  // namespace fusescope::app
