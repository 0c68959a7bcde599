// `fusescope explain PASS_NAME [--json]` and `fusescope explain --list [--json]`: what a
// compiler pass does, what it looks for and what it cannot do, with where its own
// documentation is (resources/explanations.h). A pass with no explanation written is an
// error that says so.

#include <iostream>

#include "app/cli/command.h"
#include "app/cli/common_flags.h"
#include "ir/json_writer.h"
#include "resources/explanations.h"

namespace fusescope::app {
namespace {

void ExplanationJson(JsonWriter& json, const resources::PassExplanation& pass) {
  json.BeginObject();
  json.Key("pass").String(pass.key);
  json.Key("names").BeginArray();
  for (const std::string& name : pass.names) json.String(name);
  json.EndArray();
  json.Key("compiler").String(pass.compiler);
  json.Key("does").String(pass.does);
  json.Key("looks_for").String(pass.looks_for);
  json.Key("cannot").String(pass.cannot);
  json.Key("docs").String(pass.docs);
  json.EndObject();
}

int RunExplain(const ParsedArgs& args) {
  const auto& all = resources::PassExplanations();
  if (args.Has("--list")) {
    if (args.Has("--json")) {
      JsonWriter json;
      json.BeginArray();
      for (const auto& pass : all) ExplanationJson(json, pass);
      json.EndArray();
      std::cout << json.str() << '\n';
    } else {
      for (const auto& pass : all) std::cout << pass.key << "  (" << pass.compiler << ")\n";
    }
    return 0;
  }
  const std::string& name = args.positional()[0];
  std::optional<resources::PassExplanation> pass = resources::ExplainPass(name);
  if (!pass) {
    return Fail("explain: no explanation is written for pass '" + name + "' (" +
                std::to_string(all.size()) + " are: fusescope explain --list)");
  }
  if (args.Has("--json")) {
    JsonWriter json;
    ExplanationJson(json, *pass);
    std::cout << json.str() << '\n';
    return 0;
  }
  std::cout << pass->key << " (" << pass->compiler << ")";
  if (!pass->names.empty()) {
    std::cout << ", also";
    for (size_t i = 0; i < pass->names.size(); ++i) std::cout << (i ? ", " : " ") << pass->names[i];
  }
  std::cout << "\n\n  what it does:   " << pass->does << "\n  looks for:      " << pass->looks_for
            << "\n  cannot:         " << pass->cannot << "\n  documentation:  " << pass->docs
            << '\n';
  return 0;
}

const CommandRegistrar kRegistrar({
    .name = "explain",
    .summary = "what a compiler pass (ours, XLA's, MLIR's, IREE's) does, looks for and cannot do",
    .positionals = {{"PASS_NAME", "the pass, by any name a compiler prints it under"}},
    .flags =
        {
            Switch("--list", "every pass with an explanation (instead of PASS_NAME)").Mode(),
            JsonFlag(),
        },
    .run = RunExplain,
    .runs_kernels = false,
});

}  // namespace
}  // namespace fusescope::app
