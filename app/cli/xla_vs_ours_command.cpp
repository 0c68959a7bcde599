// `fusescope xla-vs-ours DUMP_DIR|RUN.fsdb [--module NAME] [--pipeline cpu|gpu] [--all]
// [--json]`: XLA's own fusion of a model next to ours. The dump (or a recording imported
// from one) gives XLA's passes; our pipeline compiles the module XLA's fusion passes saw
// (its snapshot before the first pass that formed fusions); every producer -> consumer pair
// of that module is then fused by both, by XLA only (with our recorded reason for refusing
// it), by us only, or by neither.

#include <cstdio>
#include <iostream>

#include "app/cli/command.h"
#include "app/cli/common_flags.h"
#include "app/cli/model_loader.h"
#include "importers/xla_dump_folder.h"
#include "importers/xla_dump_importer.h"
#include "ir/json_writer.h"
#include "recording/compile_and_record.h"
#include "recording/fusion_comparison.h"
#include "recording/recording_store.h"

namespace fusescope::app {
namespace {

StatusOr<recording::Recording> LoadXla(const std::string& what,
                                       const std::optional<std::string>& module_name,
                                       std::string* platform) {
  if (LooksLikeRecording(what)) return recording::LoadRecording(what);
  auto folder = ir::ScanXlaDumpFolder(what);
  if (!folder.ok()) return folder.status();
  const ir::XlaDumpModule* module = folder->Default();
  if (module_name) {
    auto found = folder->Find(*module_name);
    if (!found.ok()) return found.status();
    module = *found;
  }
  if (module == nullptr) return Status::Error(what + ": no module");
  *platform = module->platform;
  auto imported = ir::ImportXlaDumpModule(*module, folder->path);
  if (!imported.ok()) return imported.status();
  for (const std::string& warning : imported->warnings) {
    std::fprintf(stderr, "warning: %s\n", warning.c_str());
  }
  return std::move(imported->recording);
}

void PairsJson(JsonWriter& json, const std::string& key,
               const std::vector<recording::FusedPair>& pairs) {
  json.Key(key).BeginArray();
  for (const recording::FusedPair& pair : pairs) {
    json.BeginObject();
    json.Key("producer").String(pair.producer);
    json.Key("consumer").String(pair.consumer);
    json.Key("xla_fusion").String(pair.first_fusion);
    json.Key("our_fusion").String(pair.second_fusion);
    if (!pair.first_fusion.empty() && pair.second_fusion.empty()) {
      json.Key("our_reason").String(pair.second_reason);
      json.Key("our_explanation").String(pair.second_explanation);
    }
    json.EndObject();
  }
  json.EndArray();
}

int RunXlaVsOurs(const ParsedArgs& args) {
  std::string platform;
  auto xla = LoadXla(args.positional()[0], args.Value("--module"), &platform);
  if (!xla.ok()) return Fail(xla.message());
  passes::PipelineOptions options;
  options.target = args.Value("--pipeline").value_or(platform == "gpu" ? "gpu" : "cpu");
  // What XLA's fusion passes saw: the module before its first fusing pass.
  const int64_t base = recording::SnapshotBeforeFirstFusion(*xla);
  auto input = xla->snapshots[static_cast<size_t>(base)].ToModule();
  if (!input.ok()) return Fail("XLA's module before fusion: " + input.message());
  auto ours = recording::CompileAndRecord(**input, options);
  if (!ours.ok()) return Fail("our " + options.target + " pipeline: " + ours.message());
  auto comparison = recording::CompareFusion(*xla, base, *ours);
  if (!comparison.ok()) return Fail(comparison.message());

  if (args.Has("--json")) {
    JsonWriter json;
    json.BeginObject();
    json.Key("module").String(xla->model_name);
    json.Key("pipeline").String(options.target);
    json.Key("base_snapshot").Int(base);
    json.Key("edges").Int(comparison->edges);
    json.Key("fused_by_both").Int(static_cast<int64_t>(comparison->both.size()));
    json.Key("fused_by_xla_only").Int(static_cast<int64_t>(comparison->only_first.size()));
    json.Key("fused_by_us_only").Int(static_cast<int64_t>(comparison->only_second.size()));
    json.Key("fused_by_neither").Int(comparison->neither);
    PairsJson(json, "xla_only", comparison->only_first);
    PairsJson(json, "ours_only", comparison->only_second);
    if (args.Has("--all")) PairsJson(json, "both", comparison->both);
    json.EndObject();
    std::cout << json.str() << '\n';
    return 0;
  }
  std::printf("%s: XLA's fusion against our %s pipeline, both from XLA's module before its "
              "first fusing pass (%s)\n",
              xla->model_name.c_str(), options.target.c_str(),
              base == 0 ? "the input"
                        : ("after pass " + std::to_string(base - 1) + " " +
                           xla->passes[static_cast<size_t>(base - 1)].name)
                              .c_str());
  std::printf("%lld producer->consumer pairs: %zu fused by both, %zu by XLA only, %zu by us only, "
              "%lld by neither\n",
              static_cast<long long>(comparison->edges), comparison->both.size(),
              comparison->only_first.size(), comparison->only_second.size(),
              static_cast<long long>(comparison->neither));
  std::printf("\nfused by XLA only (XLA's fusion; our reason):\n");
  for (const recording::FusedPair& pair : comparison->only_first) {
    std::printf("  %s -> %s  [%s]  %s\n", pair.producer.c_str(), pair.consumer.c_str(),
                pair.first_fusion.c_str(),
                pair.second_explanation.empty() ? "(no decision recorded: never considered)"
                                                : pair.second_explanation.c_str());
  }
  std::printf("\nfused by us only (our fusion):\n");
  for (const recording::FusedPair& pair : comparison->only_second) {
    std::printf("  %s -> %s  [%s]\n", pair.producer.c_str(), pair.consumer.c_str(),
                pair.second_fusion.c_str());
  }
  if (args.Has("--all")) {
    std::printf("\nfused by both (XLA's / ours):\n");
    for (const recording::FusedPair& pair : comparison->both) {
      std::printf("  %s -> %s  [%s / %s]\n", pair.producer.c_str(), pair.consumer.c_str(),
                  pair.first_fusion.c_str(), pair.second_fusion.c_str());
    }
  }
  return 0;
}

const CommandRegistrar kRegistrar({
    .name = "xla-vs-ours",
    .summary =
        "XLA's fusion next to ours, pair by pair, with our reasons where XLA fused and we did not",
    .positionals = {{"DUMP_DIR|RUN.fsdb", "an XLA dump folder, or a recording imported from one"}},
    .flags =
        {
            Text("--module", "NAME", "the dump's module (default: its main one)"),
            Text("--pipeline", "cpu|gpu",
                 "our pipeline (default: the dump's platform: gpu for a GPU dump, else cpu)"),
            Switch("--all", "also list the pairs fused by both"),
            JsonFlag(),
        },
    .run = RunXlaVsOurs,
    .runs_kernels = false,
});

}  // namespace
}  // namespace fusescope::app
