// `fusescope print FILE [--canonical] [--pass N] [--hlo]`: parse and print as HLO text. A
// snapshot of an imported MLIR log prints as the log printed it (the whole IR after that
// pass, scoped sections spliced in), unless --hlo asks for our HLO-like rendering.

#include <iostream>

#include "app/cli/command.h"
#include "app/cli/model_loader.h"
#include "ir/hlo_printer.h"
#include "passes/fusion_inliner.h"

namespace fusescope::app {
namespace {

int RunPrint(const std::vector<std::string>& raw_args) {
  auto args = ParseArgs(raw_args, {"--pass", "--dim"},
                        {"--canonical", "--fingerprint", "--inline-fusions", "--hlo"});
  if (!args.ok()) return Fail("print: " + args.message());
  if (args->positional().size() != 1) {
    return Fail(
        "usage: fusescope print FILE [--canonical | --fingerprint] [--pass N] [--inline-fusions]");
  }
  auto pass = args->IntValue("--pass");
  if (!pass.ok()) return Fail(pass.message());
  auto load_options = ModelLoadOptionsFromDims(args->Values("--dim"));
  if (!load_options.ok()) return Fail(load_options.message());
  auto loaded = LoadModel(args->positional()[0], *pass, *load_options);
  if (!loaded.ok()) return Fail(loaded.message());
  const bool as_hlo = args->Has("--hlo") || args->Has("--canonical") ||
                      args->Has("--fingerprint") || args->Has("--inline-fusions");
  if (loaded->source_text && !as_hlo) {
    std::cout << *loaded->source_text;
    return 0;
  }
  if (args->Has("--inline-fusions")) {
    passes::PassContext context;
    auto inlined = passes::FusionInliner().Run(*loaded->module, context);
    if (!inlined.ok()) return Fail("print: " + inlined.message());
  }
  ir::PrintOptions options = ir::PrintOptions::Parsable();
  if (args->Has("--canonical")) options = ir::PrintOptions::Canonical();
  if (args->Has("--fingerprint")) options = ir::PrintOptions::Fingerprint();
  std::cout << ir::PrintModule(*loaded->module, options);
  return 0;
}

const CommandRegistrar kRegistrar({"print",
                                   "print FILE [--canonical | --fingerprint] [--pass N] "
                                   "[--inline-fusions] [--hlo] [--dim NAME=N]",
                                   "parse and print as HLO text (an MLIR log's snapshot as MLIR)",
                                   RunPrint});

}  // namespace
}  // namespace fusescope::app
