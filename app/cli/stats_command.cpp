// `fusescope stats FILE [--json] [--pass N]`: computations, instructions per opcode, fusions.

#include <iomanip>
#include <iostream>
#include <map>

#include "app/cli/command.h"
#include "app/cli/model_loader.h"
#include "ir/json_writer.h"

namespace fusescope::app {
namespace {

struct ModuleStats {
  int64_t computations = 0;
  int64_t instructions = 0;
  int64_t entry_instructions = 0;
  std::map<std::string, int64_t> opcodes;
  std::map<std::string, int64_t> fusion_kinds;
  int64_t fusions = 0;
  int64_t fused_instructions = 0;
};

ModuleStats Collect(const ir::Module& module) {
  ModuleStats stats;
  stats.computations = static_cast<int64_t>(module.computations().size());
  for (const auto& computation : module.computations()) {
    for (const auto& instruction : computation->instructions()) {
      ++stats.instructions;
      ++stats.opcodes[std::string(instruction->opcode_name())];
      if (computation->fusion_instruction()) ++stats.fused_instructions;
      if (instruction->opcode() == ir::Opcode::kFusion) {
        ++stats.fusions;
        const std::string kind = instruction->fusion_kind();
        ++stats.fusion_kinds[kind.empty() ? "Unspecified" : kind];
      }
    }
  }
  if (module.entry()) stats.entry_instructions = module.entry()->instruction_count();
  return stats;
}

void PrintText(const std::string& name, const ir::Module& module, const ModuleStats& stats) {
  std::cout << "module " << module.name() << " (" << name << ")\n"
            << "  computations:       " << stats.computations << '\n'
            << "  instructions:       " << stats.instructions << '\n'
            << "  entry instructions: " << stats.entry_instructions << '\n'
            << "  fusions:            " << stats.fusions;
  if (!stats.fusion_kinds.empty()) {
    std::cout << " (";
    bool first = true;
    for (const auto& [kind, count] : stats.fusion_kinds) {
      std::cout << (first ? "" : ", ") << "k" << kind << " " << count;
      first = false;
    }
    std::cout << ")";
  }
  std::cout << "\n  fused instructions: " << stats.fused_instructions << "\n\n"
            << "  opcode                          count\n";
  for (const auto& [opcode, count] : stats.opcodes) {
    std::cout << "  " << std::left << std::setw(28) << opcode << std::right << std::setw(9)
              << count << '\n';
  }
}

void PrintJson(const std::string& name, const ir::Module& module, const ModuleStats& stats) {
  JsonWriter json;
  json.BeginObject();
  json.Key("file").String(name);
  json.Key("module").String(module.name());
  json.Key("computations").Int(stats.computations);
  json.Key("instructions").Int(stats.instructions);
  json.Key("entry_instructions").Int(stats.entry_instructions);
  json.Key("fusions").Int(stats.fusions);
  json.Key("fused_instructions").Int(stats.fused_instructions);
  json.Key("fusion_kinds").BeginObject();
  for (const auto& [kind, count] : stats.fusion_kinds) json.Key("k" + kind).Int(count);
  json.EndObject();
  json.Key("opcodes").BeginObject();
  for (const auto& [opcode, count] : stats.opcodes) json.Key(opcode).Int(count);
  json.EndObject();
  json.EndObject();
  std::cout << json.str() << '\n';
}

int RunStats(const std::vector<std::string>& raw_args) {
  auto args = ParseArgs(raw_args, {"--pass"}, {"--json"});
  if (!args.ok()) return Fail("stats: " + args.message());
  if (args->positional().size() != 1) return Fail("usage: fusescope stats FILE [--json] [--pass N]");
  auto pass = args->IntValue("--pass");
  if (!pass.ok()) return Fail(pass.message());
  auto loaded = LoadModel(args->positional()[0], *pass);
  if (!loaded.ok()) return Fail(loaded.message());
  const ModuleStats stats = Collect(*loaded->module);
  if (args->Has("--json")) {
    PrintJson(loaded->display_name, *loaded->module, stats);
  } else {
    PrintText(loaded->display_name, *loaded->module, stats);
  }
  return 0;
}

const CommandRegistrar kRegistrar({"stats", "stats FILE [--json] [--pass N]",
                                   "computations, instructions per opcode, fusions", RunStats});

}  // namespace
}  // namespace fusescope::app
