// `fusescope diff RUN.fsdb --pass N [--text | --json | --svg OUT.svg]`: the computed diff of
// one pass (text by default). `fusescope diff A.fsdb B.fsdb [--pass N] [--json]`: two
// recordings of one model (recording_comparison.h), as a what-if experiment compares them:
// the options that differ, the passes side by side, the final fusions matched by their
// members, each differing one with the edges that decided it (fused by one, the other's
// refusal); with --pass, pass N of both and the fusions it formed.

#include <cstdio>
#include <iostream>
#include <optional>
#include <set>

#include "app/cli/command.h"
#include "app/cli/common_flags.h"
#include "app/cli/comparison_text.h"
#include "ir/json_writer.h"
#include "recording/recording_comparison.h"
#include "recording/recording_store.h"
#include "views/pass_diff.h"

namespace fusescope::app {
namespace {

void MatchesJson(JsonWriter& json, const std::string& key,
                 const std::vector<recording::FusionMatch>& matches) {
  json.Key(key).BeginArray();
  for (const recording::FusionMatch& match : matches) {
    json.BeginObject();
    json.Key("a").String(match.fusion_a);
    json.Key("b").String(match.fusion_b);
    json.Key("a_id").Int(match.fusion_a_id);
    json.Key("b_id").Int(match.fusion_b_id);
    json.Key("from_b").Bool(match.from_b);
    json.Key("refusals").BeginArray();
    for (const recording::FusionRefusal& refusal : match.refusals) {
      json.BeginObject();
      json.Key("refused_by").String(refusal.refused_by_b ? "b" : "a");
      json.Key("decision").Int(refusal.decision_index);
      json.Key("pass").String(refusal.pass);
      json.Key("pass_index").Int(refusal.pass_index);
      json.Key("producer").String(refusal.producer);
      json.Key("consumer").String(refusal.consumer);
      json.Key("reason").String(refusal.reason);
      json.Key("explanation").String(refusal.explanation);
      json.Key("members").BeginArray();
      for (const std::string& member : refusal.members) json.String(member);
      json.EndArray();
      json.EndObject();
    }
    json.EndArray();
    for (const auto& [name, members] :
         {std::make_pair("common", &match.common), std::make_pair("only_a", &match.only_a),
          std::make_pair("only_b", &match.only_b)}) {
      json.Key(name).BeginArray();
      for (const std::string& member : *members) json.String(member);
      json.EndArray();
    }
    json.EndObject();
  }
  json.EndArray();
}

void EdgesJson(JsonWriter& json, const std::string& key,
               const std::vector<recording::FusedPair>& edges) {
  json.Key(key).BeginArray();
  for (const recording::FusedPair& edge : edges) {
    json.BeginObject();
    json.Key("producer").String(edge.producer);
    json.Key("consumer").String(edge.consumer);
    json.Key("fusion").String(edge.first_fusion);
    json.Key("other_pass").String(edge.second_pass);
    json.Key("other_reason").String(edge.second_reason);
    json.Key("other_explanation").String(edge.second_explanation);
    json.EndObject();
  }
  json.EndArray();
}

void PassJson(JsonWriter& json, const recording::PassComparison& pass) {
  json.BeginObject();
  json.Key("index").Int(pass.index);
  json.Key("name_a").String(pass.name_a);
  json.Key("name_b").String(pass.name_b);
  json.Key("skipped_a").Bool(pass.skipped_a);
  json.Key("skipped_b").Bool(pass.skipped_b);
  json.Key("changed_a").Bool(pass.changed_a);
  json.Key("changed_b").Bool(pass.changed_b);
  json.Key("operations_a").Int(pass.operations_a);
  json.Key("operations_b").Int(pass.operations_b);
  json.Key("fusions_a").Int(pass.fusions_a);
  json.Key("fusions_b").Int(pass.fusions_b);
  json.EndObject();
}

void FusionsJson(JsonWriter& json, const std::vector<recording::FusionMatch>& same,
                 const std::vector<recording::FusionMatch>& different,
                 const std::vector<recording::FusionMatch>& only_a,
                 const std::vector<recording::FusionMatch>& only_b,
                 const std::vector<recording::FusedPair>& edges_only_a,
                 const std::vector<recording::FusedPair>& edges_only_b) {
  MatchesJson(json, "same_fusions", same);
  MatchesJson(json, "different_fusions", different);
  MatchesJson(json, "fusions_only_a", only_a);
  MatchesJson(json, "fusions_only_b", only_b);
  EdgesJson(json, "edges_fused_only_a", edges_only_a);
  EdgesJson(json, "edges_fused_only_b", edges_only_b);
}

void PrintJson(const recording::RecordingComparison& c, const std::string& a,
               const std::string& b) {
  JsonWriter json;
  json.BeginObject();
  json.Key("a").String(a);
  json.Key("b").String(b);
  json.Key("options").BeginArray();
  for (size_t i = 0; i < c.options_a.size(); ++i) {
    json.BeginObject();
    json.Key("key").String(c.options_a[i].first);
    json.Key("a").String(c.options_a[i].second);
    json.Key("b").String(c.options_b[i].second);
    json.EndObject();
  }
  json.EndArray();
  json.Key("passes").BeginArray();
  for (const recording::PassComparison& pass : c.passes) PassJson(json, pass);
  json.EndArray();
  json.Key("edges").Int(c.edges);
  json.Key("edges_fused_by_both").Int(c.edges_both);
  FusionsJson(json, c.same, c.different, c.only_a, c.only_b, c.edges_only_a, c.edges_only_b);
  json.EndObject();
  std::cout << json.str() << '\n';
}

// The refusals of the listed fusions, each once.
void PrintEdges(const std::vector<recording::FusedPair>& edges_only_a,
                const std::vector<recording::FusedPair>& edges_only_b) {
  for (const auto& [label, edges] :
       {std::make_pair("fused by A only (A's fusion; B's reason)", &edges_only_a),
        std::make_pair("fused by B only (B's fusion; A's reason)", &edges_only_b)}) {
    if (edges->empty()) continue;
    std::printf("%s:\n", label);
    for (const recording::FusedPair& edge : *edges) {
      std::printf("  %s -> %s  [%s]  %s\n", edge.producer.c_str(), edge.consumer.c_str(),
                  edge.first_fusion.c_str(),
                  edge.second_explanation.empty()
                      ? "(no decision recorded: never considered)"
                      : (edge.second_reason + ": " + edge.second_explanation).c_str());
    }
  }
}

void PrintText(const recording::RecordingComparison& c, const std::string& a,
               const std::string& b) {
  std::printf("A: %s\nB: %s\n", a.c_str(), b.c_str());
  if (c.options_a.empty()) {
    std::printf("\nsame pipeline options\n");
  } else {
    std::printf("\noptions that differ:\n");
    for (size_t i = 0; i < c.options_a.size(); ++i) {
      std::printf("  %-30s A: %-14s B: %s\n", c.options_a[i].first.c_str(),
                  c.options_a[i].second.empty() ? "-" : c.options_a[i].second.c_str(),
                  c.options_b[i].second.empty() ? "-" : c.options_b[i].second.c_str());
    }
  }
  std::printf("\n   #  %-26s %-20s %-20s\n", "pass", "A: ops fusions", "B: ops fusions");
  const auto cell = [](bool skipped, bool changed, int64_t ops, int64_t fusions) {
    char text[64];
    if (skipped) return std::string("skipped");
    std::snprintf(text, sizeof text, "%s %5lld %5lld", changed ? "*" : " ",
                  static_cast<long long>(ops), static_cast<long long>(fusions));
    return std::string(text);
  };
  for (const recording::PassComparison& pass : c.passes) {
    const std::string name =
        pass.name_a == pass.name_b || pass.name_b.empty()
            ? pass.name_a
            : (pass.name_a.empty() ? pass.name_b : pass.name_a + " / " + pass.name_b);
    const bool differs = pass.skipped_a != pass.skipped_b || pass.changed_a != pass.changed_b ||
                         pass.operations_a != pass.operations_b || pass.fusions_a != pass.fusions_b;
    std::printf(
        "%c%3lld  %-26s %-20s %-20s\n", differs ? '>' : ' ', static_cast<long long>(pass.index),
        name.c_str(),
        pass.name_a.empty()
            ? "-"
            : cell(pass.skipped_a, pass.changed_a, pass.operations_a, pass.fusions_a).c_str(),
        pass.name_b.empty()
            ? "-"
            : cell(pass.skipped_b, pass.changed_b, pass.operations_b, pass.fusions_b).c_str());
  }
  std::printf("(* changed the module; > A and B differ after this pass)\n");
  std::printf("\nfinal fusions: ");
  PrintFinalFusions(c.same, c.different, c.only_a, c.only_b);
  std::printf("\n%lld producer->consumer edges: %lld fused by both, %zu by A only, %zu by B only\n",
              static_cast<long long>(c.edges), static_cast<long long>(c.edges_both),
              c.edges_only_a.size(), c.edges_only_b.size());
  PrintEdges(c.edges_only_a, c.edges_only_b);
}

std::string DescribeSide(const char* side, const std::string& name, bool skipped, bool changed,
                         int64_t operations, int64_t fusions, int64_t accepted, int64_t refused) {
  if (name.empty()) return std::string(side) + ": (no such pass: the run ended before it)";
  if (skipped) return std::string(side) + ": " + name + " skipped (disabled)";
  return std::string(side) + ": " + name + (changed ? " changed the module" : " changed nothing") +
         "; after it " + std::to_string(operations) + " operations, " + std::to_string(fusions) +
         " fusions; " + std::to_string(accepted) + " fusion decisions accepted, " +
         std::to_string(refused) + " refused";
}

void PrintPassText(const recording::PassFusionComparison& c, const std::string& a,
                   const std::string& b) {
  const recording::PassComparison& pass = c.pass;
  std::printf("A: %s\nB: %s\n\npass %lld\n  %s\n  %s\n", a.c_str(), b.c_str(),
              static_cast<long long>(pass.index),
              DescribeSide("A", pass.name_a, pass.skipped_a, pass.changed_a, pass.operations_a,
                           pass.fusions_a, c.accepted_a, c.refused_a)
                  .c_str(),
              DescribeSide("B", pass.name_b, pass.skipped_b, pass.changed_b, pass.operations_b,
                           pass.fusions_b, c.accepted_b, c.refused_b)
                  .c_str());
  std::printf("\nfusions this pass formed or changed: ");
  PrintFinalFusions(c.same, c.different, c.only_a, c.only_b);
  std::printf("\nedges this pass fused in one only: %zu by A, %zu by B\n", c.edges_only_a.size(),
              c.edges_only_b.size());
  PrintEdges(c.edges_only_a, c.edges_only_b);
}

void PrintPassJson(const recording::PassFusionComparison& c, const std::string& a,
                   const std::string& b) {
  JsonWriter json;
  json.BeginObject();
  json.Key("a").String(a);
  json.Key("b").String(b);
  json.Key("pass");
  PassJson(json, c.pass);
  json.Key("decisions_accepted_a").Int(c.accepted_a);
  json.Key("decisions_refused_a").Int(c.refused_a);
  json.Key("decisions_accepted_b").Int(c.accepted_b);
  json.Key("decisions_refused_b").Int(c.refused_b);
  FusionsJson(json, c.same, c.different, c.only_a, c.only_b, c.edges_only_a, c.edges_only_b);
  json.EndObject();
  std::cout << json.str() << '\n';
}

// `pass`: compare that pass of both; else the whole recordings.
int RunRecordingDiff(const std::string& a_path, const std::string& b_path,
                     std::optional<int64_t> pass, bool json) {
  auto a = recording::LoadRecording(a_path);
  if (!a.ok()) return Fail(a.message());
  auto b = recording::LoadRecording(b_path);
  if (!b.ok()) return Fail(b.message());
  if (pass) {
    auto comparison = recording::ComparePass(*a, *b, *pass);
    if (!comparison.ok())
      return Fail("diff: " + a_path + " and " + b_path + ": " + comparison.message());
    if (json) {
      PrintPassJson(*comparison, a_path, b_path);
    } else {
      PrintPassText(*comparison, a_path, b_path);
    }
    return 0;
  }
  auto comparison = recording::CompareRecordings(*a, *b);
  if (!comparison.ok())
    return Fail("diff: " + a_path + " and " + b_path + ": " + comparison.message());
  if (json) {
    PrintJson(*comparison, a_path, b_path);
  } else {
    PrintText(*comparison, a_path, b_path);
  }
  return 0;
}

int RunDiff(const ParsedArgs& args) {
  const std::optional<int64_t> pass = args.IntValue("--pass");
  if (args.positional().size() == 2 && !args.Has("--svg")) {
    return RunRecordingDiff(args.positional()[0], args.positional()[1], pass, args.Has("--json"));
  }
  if (args.positional().size() == 2) return FailUsage(args, "--svg draws one recording's pass");
  if (!pass) return FailUsage(args, "one recording's diff needs --pass N");
  auto recording = recording::LoadRecording(args.positional()[0]);
  if (!recording.ok()) return Fail(recording.message());
  if (auto svg = args.Value("--svg")) {
    views::DiffViewOptions options;
    options.expand_fusions = args.Has("--expand-fusions");
    options.decisions_on_edges = !args.Has("--no-decisions");
    Status written = views::WriteDiffSvg(*recording, *pass, *svg, options);
    if (!written.ok()) return Fail(written.message());
    std::cout << "wrote " << *svg << '\n';
    return 0;
  }
  Status printed = args.Has("--json") ? views::WriteDiffJson(*recording, *pass, std::cout)
                                      : views::WriteDiffText(*recording, *pass, std::cout);
  return printed.ok() ? 0 : Fail(printed.message());
}

const CommandRegistrar kRegistrar({
    .name = "diff",
    .summary = "the computed diff of one pass; or two recordings of one model compared (options, "
               "passes, fusions, the decisions that differ), as a whole or at pass N",
    .positionals =
        {{"RUN.fsdb", "a recording (the first of two)"},
         Positional{"B.fsdb", "a second recording of the same model: the two compared"}.Optional()},
    .flags =
        {
            Integer("--pass", "N",
                    "the pass (needed for one recording; of two, that pass of both and the "
                    "fusions it formed)"),
            Switch("--text", "the diff as text (the default)"),
            JsonFlag(),
            Text("--svg", "OUT.svg", "draw the pass's diff as SVG (one recording)"),
            Switch("--expand-fusions", "with --svg: draw fusions open"),
            Switch("--no-decisions", "with --svg: no fusion decisions on the edges"),
        },
    .run = RunDiff,
    .runs_kernels = false,
});

}  // namespace
}  // namespace fusescope::app
