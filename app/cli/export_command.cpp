// `fusescope export RUN.fsdb [--pass N] -o DIR [--seed S]`: one snapshot ready to run with
// XLA: its HLO text, the same with fusions inlined (XLA's route for unoptimized modules
// refuses fusion instructions), the original module, seeded inputs as .npy files and a
// one-line command that runs both with XLA and compares their outputs.
// `fusescope export RUN.fsdb [--pass N] --model-explorer DIR [--json]`: the snapshot as a
// Model Explorer graph (DIR/graph.json, views/model_explorer_export.h) and, when the
// recording holds a profile of that snapshot (the latest one), its kernel times as Model
// Explorer node data (DIR/node_data.json).

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/cli/command.h"
#include "app/cli/common_flags.h"
#include "app/cli/model_loader.h"
#include "ir/hlo_printer.h"
#include "ir/json_writer.h"
#include "passes/fusion_inliner.h"
#include "passes/literal_value.h"
#include "profiler/profile_store.h"
#include "runtime/npy.h"
#include "runtime/seeded_inputs.h"
#include "views/model_explorer_export.h"

namespace fusescope::app {
namespace {

namespace fs = std::filesystem;

Status WriteText(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) return Status::Error("cannot write " + path.string());
  return Status::Ok();
}

Status WriteInputs(const ir::Module& original, const fs::path& dir, uint64_t seed) {
  fs::create_directories(dir / "inputs");
  auto inputs = runtime::SeededInputs(*original.entry(), seed);
  if (!inputs.ok()) return inputs.status();
  for (size_t i = 0; i < inputs->size(); ++i) {
    StatusOr<std::string> npy = runtime::EncodeNpy((*inputs)[i]);
    if (!npy.ok()) return Status::Error("parameter " + std::to_string(i) + ": " + npy.message());
    char name[32];
    std::snprintf(name, sizeof name, "arg_%03zu.npy", i);
    FS_RETURN_IF_ERROR(WriteText(dir / "inputs" / name, *npy));
  }
  return Status::Ok();
}

int ExportModelExplorer(const std::string& what, std::optional<int64_t> pass, const fs::path& dir,
                        bool json_output) {
  auto model = LoadModel(what, pass);
  if (!model.ok()) return Fail(model.message());
  std::error_code error;
  fs::create_directories(dir, error);
  if (error) return Fail("export: cannot create " + dir.string() + ": " + error.message());
  const int64_t snapshot = model->snapshot_index;
  const std::string graph_id =
      model->module->name() + (snapshot >= 0 ? "@" + std::to_string(snapshot) : "");
  const views::ModelExplorerGraph graph =
      views::ModelExplorerGraphJson(*model->module, graph_id, fs::path(what).filename().string());
  if (Status written = WriteText(dir / "graph.json", graph.json); !written.ok())
    return Fail("export: " + written.message());
  // The latest profile of this snapshot, if the recording holds one.
  std::optional<profiler::Profile> profile;
  if (LooksLikeRecording(what)) {
    auto profiles = profiler::LoadProfiles(what);
    if (!profiles.ok()) return Fail(profiles.message());
    for (profiler::Profile& stored : *profiles) {
      if (stored.snapshot_index == snapshot) profile = std::move(stored);
    }
  }
  std::optional<views::ModelExplorerNodeData> data;
  if (profile) {
    std::vector<std::pair<int64_t, double>> values;
    const double runs = static_cast<double>(std::max<size_t>(profile->run_latency_us.size(), 1));
    for (const profiler::KernelTime& kernel : profile->kernels)
      values.emplace_back(kernel.instruction_id, kernel.total_us / runs);
    data = views::ModelExplorerNodeDataJson(*model->module, values, graph_id);
    if (Status written = WriteText(dir / "node_data.json", data->json); !written.ok())
      return Fail("export: " + written.message());
  }
  if (json_output) {
    JsonWriter json;
    json.BeginObject();
    json.Key("graph").String((dir / "graph.json").string());
    json.Key("graph_id").String(graph_id);
    json.Key("nodes").Int(graph.nodes);
    json.Key("edges").Int(graph.edges);
    if (data) {
      json.Key("node_data").String((dir / "node_data.json").string());
      json.Key("profile_id").Int(profile->profile_id);
      json.Key("values").Int(data->values);
      json.Key("unplaced").Int(data->unplaced);
    }
    json.EndObject();
    std::cout << json.str() << '\n';
    return 0;
  }
  std::cout << "wrote " << (dir / "graph.json").string() << ": graph " << graph_id << ", "
            << graph.nodes << " nodes, " << graph.edges << " edges\n";
  if (data) {
    std::cout << "wrote " << (dir / "node_data.json").string() << ": kernel times of profile "
              << profile->profile_id << " on " << data->values << " nodes";
    if (data->unplaced > 0) std::cout << " (" << data->unplaced << " kernels not on the graph)";
    std::cout << '\n';
  } else {
    std::cout << "no profile of this snapshot in " << what << ": no node data\n";
  }
  return 0;
}

int RunExport(const ParsedArgs& args) {
  const std::optional<int64_t> pass = args.IntValue("--pass");
  if (auto explorer = args.Value("--model-explorer")) {
    if (args.positional().empty()) return FailUsage(args, "missing RUN.fsdb");
    return ExportModelExplorer(args.positional()[0], pass, *explorer, args.Has("--json"));
  }
  const std::optional<std::string> out = args.Value("-o");
  const std::string& what = args.positional()[0];
  // One load: the snapshot and the original share weights. A recording's original is its
  // input; a dump folder's or MLIR log's its final snapshot; a model file's the model itself.
  auto both = LoadSnapshots(
      what, {pass, LooksLikeRecording(what) ? std::optional<int64_t>(-1) : std::nullopt});
  if (!both.ok()) return Fail(both.message());
  std::vector<LoadedModel> loaded = std::move(both).value();
  LoadedModel* snapshot = &loaded[0];
  LoadedModel* original = &loaded[1];

  const fs::path dir(*out);
  std::error_code error;
  fs::create_directories(dir, error);
  if (error) return Fail("export: cannot create " + dir.string() + ": " + error.message());
  // XLA runs what it reads: weights held as bytes are written out in full.
  for (ir::Module* module : {snapshot->module.get(), original->module.get()}) {
    StatusOr<int64_t> spelled = passes::SpellOutConstants(*module);
    if (!spelled.ok()) return Fail("export: " + spelled.message());
  }
  const ir::PrintOptions options = ir::PrintOptions::Parsable();
  Status written = WriteText(dir / "snapshot.hlo", ir::PrintModule(*snapshot->module, options));
  passes::PassContext context;
  auto inlined = passes::FusionInliner().Run(*snapshot->module, context);
  if (!inlined.ok()) return Fail("export: " + inlined.message());
  if (written.ok()) {
    written = WriteText(dir / "snapshot.inlined.hlo", ir::PrintModule(*snapshot->module, options));
  }
  if (written.ok()) {
    written = WriteText(dir / "original.hlo", ir::PrintModule(*original->module, options));
  }
  if (written.ok())
    written = WriteInputs(*original->module, dir, static_cast<uint64_t>(*args.IntValue("--seed")));
  const std::string command = "\"${FUSESCOPE_PYTHON:-python3}\" \"" FUSESCOPE_SCRIPTS_DIR
                              "/xla_run.py\" \"$(dirname \"$0\")\"";
  if (written.ok()) written = WriteText(dir / "run_with_xla.sh", "#!/bin/sh\n" + command + "\n");
  if (!written.ok()) return Fail("export: " + written.message());
  fs::permissions(dir / "run_with_xla.sh",
                  fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                  fs::perm_options::add, error);
  std::cout << "wrote " << dir.string() << ": snapshot.hlo, snapshot.inlined.hlo, original.hlo, "
            << original->module->entry()->parameter_count() << " inputs\n"
            << "run: sh " << (dir / "run_with_xla.sh").string() << "\n";
  return 0;
}

const CommandRegistrar kRegistrar({
    .name = "export",
    .summary = "a snapshot, its inputs and a command that runs it with XLA; or the snapshot as a "
               "Model Explorer graph with its stored profile as node data",
    .positionals = {{"RUN.fsdb", "a recording (or a model file)"}},
    .flags =
        {
            PassFlag(),
            Text("-o", "DIR",
                 "the folder to write: snapshot.hlo, snapshot.inlined.hlo, original.hlo, the "
                 "inputs as .npy and run_with_xla.sh")
                .Required(),
            SeedFlag(),
            Text("--model-explorer", "DIR",
                 "instead of -o: the snapshot as a Model Explorer graph, its stored profile "
                 "as node data")
                .Mode(),
            Switch("--json", "with --model-explorer: print JSON"),
        },
    .run = RunExport,
    .runs_kernels = false,
});

}  // namespace
}  // namespace fusescope::app
