// `fusescope print FILE [--canonical] [--pass N] [--hlo]`: parse and print as HLO text. A
// snapshot of an imported MLIR log prints as the log printed it (the whole IR after that
// pass, scoped sections spliced in), unless --hlo asks for our HLO-like rendering.

#include <iostream>

#include "app/cli/command.h"
#include "app/cli/common_flags.h"
#include "app/cli/model_loader.h"
#include "ir/hlo_printer.h"
#include "passes/fusion_inliner.h"

namespace fusescope::app {
namespace {

int RunPrint(const ParsedArgs& args) {
  auto load_options = ModelLoadOptionsFromDims(args.Values("--dim"));
  if (!load_options.ok()) return Fail(load_options.message());
  auto loaded = LoadModel(args.positional()[0], args.IntValue("--pass"), *load_options);
  if (!loaded.ok()) return Fail(loaded.message());
  const bool as_hlo = args.Has("--hlo") || args.Has("--canonical") || args.Has("--fingerprint") ||
                      args.Has("--inline-fusions");
  if (loaded->source_text && !as_hlo) {
    std::cout << *loaded->source_text;
    return 0;
  }
  if (args.Has("--inline-fusions")) {
    passes::PassContext context;
    auto inlined = passes::FusionInliner().Run(*loaded->module, context);
    if (!inlined.ok()) return Fail("print: " + inlined.message());
  }
  ir::PrintOptions options = ir::PrintOptions::Parsable();
  if (args.Has("--canonical")) options = ir::PrintOptions::Canonical();
  if (args.Has("--fingerprint")) options = ir::PrintOptions::Fingerprint();
  std::cout << ir::PrintModule(*loaded->module, options);
  return 0;
}

const CommandRegistrar kRegistrar({
    .name = "print",
    .summary = "parse and print as HLO text (an MLIR log's snapshot as MLIR)",
    .positionals = {{"FILE", "a model, a recording, a compiler's dump or sample:NAME"}},
    .flags =
        {
            Switch("--canonical", "canonical form: stable names, for diffs"),
            Switch("--fingerprint", "fingerprint form: no ids or large constants"),
            PassFlag(),
            Switch("--inline-fusions", "put every fusion's ops back in place"),
            Switch("--hlo",
                   "an imported MLIR log's or TVM folder's snapshot as HLO text, not as the "
                   "compiler printed it"),
            DimFlag(),
        },
    .run = RunPrint,
    .runs_kernels = false,
});

}  // namespace
}  // namespace fusescope::app
