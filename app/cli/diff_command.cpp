// `fusescope diff RUN.fsdb --pass N [--text | --json | --svg OUT.svg]`: the computed diff of
// one pass (text by default). `fusescope diff A.fsdb B.fsdb [--json]`: two recordings of one
// model (recording_comparison.h), as a what-if experiment compares them: the options that
// differ, the passes side by side, the final fusions matched by their members, and every edge
// fused in one only with the other's reason.

#include <cstdio>
#include <iostream>
#include <set>

#include "app/cli/command.h"
#include "ir/json_writer.h"
#include "recording/recording_comparison.h"
#include "recording/recording_store.h"
#include "views/pass_diff.h"

namespace fusescope::app {
namespace {

std::string Join(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) out += (out.empty() ? "" : ", ") + name;
  return out;
}

void MatchesJson(JsonWriter& json, const std::string& key,
                 const std::vector<recording::FusionMatch>& matches) {
  json.Key(key).BeginArray();
  for (const recording::FusionMatch& match : matches) {
    json.BeginObject();
    json.Key("a").String(match.fusion_a);
    json.Key("b").String(match.fusion_b);
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
    json.Key("other_reason").String(edge.second_reason);
    json.Key("other_explanation").String(edge.second_explanation);
    json.EndObject();
  }
  json.EndArray();
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
  for (const recording::PassComparison& pass : c.passes) {
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
  json.EndArray();
  MatchesJson(json, "same_fusions", c.same);
  MatchesJson(json, "different_fusions", c.different);
  MatchesJson(json, "fusions_only_a", c.only_a);
  MatchesJson(json, "fusions_only_b", c.only_b);
  json.Key("edges").Int(c.edges);
  json.Key("edges_fused_by_both").Int(c.edges_both);
  EdgesJson(json, "edges_fused_only_a", c.edges_only_a);
  EdgesJson(json, "edges_fused_only_b", c.edges_only_b);
  json.EndObject();
  std::cout << json.str() << '\n';
}

void PrintText(const recording::RecordingComparison& c, const std::string& a,
               const std::string& b) {
  std::printf("A: %s\nB: %s\n", a.c_str(), b.c_str());
  if (c.options_a.empty()) {
    std::printf("\nsame pipeline options\n");
  } else {
    std::printf("\noptions that differ:\n");
    for (size_t i = 0; i < c.options_a.size(); ++i) {
      std::printf("  %-28s A: %-14s B: %s\n", c.options_a[i].first.c_str(),
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
  std::set<std::string> differing;
  for (const recording::FusionMatch& match : c.different) differing.insert(match.fusion_a);
  std::printf(
      "\nfinal fusions: %zu the same, %zu of A's hold members B fuses otherwise, %zu only "
      "in A, %zu only in B\n",
      c.same.size(), differing.size(), c.only_a.size(), c.only_b.size());
  // Each fusion of A whose members differ, with the fusions of B that hold some of them.
  for (size_t i = 0; i < c.different.size();) {
    const recording::FusionMatch& first = c.different[i];
    std::printf("  A %s (%zu members) is in B:", first.fusion_a.c_str(),
                first.common.size() + first.only_a.size());
    std::string separator = " ";
    for (; i < c.different.size() && c.different[i].fusion_a == first.fusion_a; ++i) {
      const recording::FusionMatch& match = c.different[i];
      std::printf("%s%s (%zu shared%s)", separator.c_str(), match.fusion_b.c_str(),
                  match.common.size(),
                  match.only_b.empty()
                      ? ""
                      : (", +" + std::to_string(match.only_b.size()) + " of its own").c_str());
      separator = ", ";
    }
    std::printf("\n");
  }
  for (const recording::FusionMatch& match : c.only_a)
    std::printf("  only in A: %s holding %s\n", match.fusion_a.c_str(), Join(match.only_a).c_str());
  for (const recording::FusionMatch& match : c.only_b)
    std::printf("  only in B: %s holding %s\n", match.fusion_b.c_str(), Join(match.only_b).c_str());
  std::printf("\n%lld producer->consumer edges: %lld fused by both, %zu by A only, %zu by B only\n",
              static_cast<long long>(c.edges), static_cast<long long>(c.edges_both),
              c.edges_only_a.size(), c.edges_only_b.size());
  for (const auto& [label, edges] :
       {std::make_pair("fused by A only (A's fusion; B's reason)", &c.edges_only_a),
        std::make_pair("fused by B only (B's fusion; A's reason)", &c.edges_only_b)}) {
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

int RunRecordingDiff(const std::string& a_path, const std::string& b_path, bool json) {
  auto a = recording::LoadRecording(a_path);
  if (!a.ok()) return Fail(a.message());
  auto b = recording::LoadRecording(b_path);
  if (!b.ok()) return Fail(b.message());
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

int RunDiff(const std::vector<std::string>& raw_args) {
  auto args = ParseArgs(raw_args, {"--pass", "--svg"},
                        {"--text", "--json", "--expand-fusions", "--no-decisions"});
  if (!args.ok()) return Fail("diff: " + args.message());
  auto pass = args->IntValue("--pass");
  if (!pass.ok()) return Fail(pass.message());
  if (args->positional().size() == 2 && !*pass && !args->Has("--svg")) {
    return RunRecordingDiff(args->positional()[0], args->positional()[1], args->Has("--json"));
  }
  if (args->positional().size() != 1 || !*pass) {
    return Fail(
        "usage: fusescope diff RUN.fsdb --pass N [--text | --json | --svg OUT.svg] | "
        "fusescope diff A.fsdb B.fsdb [--json]");
  }
  auto recording = recording::LoadRecording(args->positional()[0]);
  if (!recording.ok()) return Fail(recording.message());
  if (auto svg = args->Value("--svg")) {
    views::DiffViewOptions options;
    options.expand_fusions = args->Has("--expand-fusions");
    options.decisions_on_edges = !args->Has("--no-decisions");
    Status written = views::WriteDiffSvg(*recording, **pass, *svg, options);
    if (!written.ok()) return Fail(written.message());
    std::cout << "wrote " << *svg << '\n';
    return 0;
  }
  Status printed = args->Has("--json") ? views::WriteDiffJson(*recording, **pass, std::cout)
                                       : views::WriteDiffText(*recording, **pass, std::cout);
  return printed.ok() ? 0 : Fail(printed.message());
}

const CommandRegistrar kRegistrar(
    {"diff",
     "diff RUN.fsdb --pass N [--text | --json | --svg OUT.svg [--expand-fusions] "
     "[--no-decisions]] | diff A.fsdb B.fsdb [--json]",
     "the computed diff of one pass; or two recordings of one model compared (options, passes, "
     "fusions, the decisions that differ)",
     RunDiff});

}  // namespace
}  // namespace fusescope::app
