// `fusescope export RUN.fsdb [--pass N] -o DIR [--seed S]`: one snapshot ready to run with
// XLA: its HLO text, the same with fusions inlined (XLA's route for unoptimized modules
// refuses fusion instructions), the original module, seeded inputs as .npy files and a
// one-line command that runs both with XLA and compares their outputs.

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "app/cli/command.h"
#include "app/cli/model_loader.h"
#include "ir/hlo_printer.h"
#include "passes/fusion_inliner.h"
#include "passes/literal_value.h"
#include "runtime/npy.h"
#include "runtime/seeded_inputs.h"

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

int RunExport(const std::vector<std::string>& raw_args) {
  auto args = ParseArgs(raw_args, {"--pass", "-o", "--seed"}, {});
  if (!args.ok()) return Fail("export: " + args.message());
  const std::optional<std::string> out = args->Value("-o");
  if (args->positional().size() != 1 || !out) {
    return Fail("usage: fusescope export RUN.fsdb [--pass N] -o DIR [--seed S]");
  }
  auto pass = args->IntValue("--pass");
  auto seed = args->IntValue("--seed");
  if (!pass.ok()) return Fail(pass.message());
  if (!seed.ok()) return Fail(seed.message());
  const std::string& what = args->positional()[0];
  // One load: a recording's two snapshots (a model file's one module, twice) share weights.
  std::vector<LoadedModel> loaded;
  if (LooksLikeRecording(what)) {
    auto both = LoadSnapshots(what, {*pass, -1});
    if (!both.ok()) return Fail(both.message());
    loaded = std::move(both).value();
  } else {
    auto model = LoadModel(what, *pass);
    if (!model.ok()) return Fail(model.message());
    // The original of a dump folder or MLIR log is its final snapshot.
    auto original = *pass ? LoadModel(what, std::nullopt)
                          : StatusOr<LoadedModel>(LoadedModel{model->module->Clone(), what});
    if (!original.ok()) return Fail(original.message());
    loaded.push_back(std::move(model).value());
    loaded.push_back(std::move(original).value());
  }
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
    written = WriteInputs(*original->module, dir, static_cast<uint64_t>(seed->value_or(0)));
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

const CommandRegistrar kRegistrar({"export", "export RUN.fsdb [--pass N] -o DIR [--seed S]",
                                   "a snapshot, its inputs and a command that runs it with XLA",
                                   RunExport});

}  // namespace
}  // namespace fusescope::app
