// `fusescope stats FILE [--json] [--pass N]`: computations, operations (instructions outside
// fusions), fusions and the instructions they hold, per opcode too.

#include <iomanip>
#include <iostream>
#include <map>

#include "app/cli/command.h"
#include "app/cli/common_flags.h"
#include "app/cli/model_loader.h"
#include "ir/json_writer.h"
#include "recording/operation_counts.h"

namespace fusescope::app {
namespace {

// Opcodes are counted apart for operations and for the instructions inside fusions, like
// the totals (recording::OperationCounts).
struct ModuleStats {
  int64_t computations = 0;
  recording::OperationCounts counts;
  std::map<std::string, int64_t> opcodes;        // every instruction
  std::map<std::string, int64_t> fused_opcodes;  // instructions inside fusions
  std::map<std::string, int64_t> fusion_kinds;   // of the fusion operations
};

ModuleStats Collect(const ir::Module& module) {
  ModuleStats stats;
  stats.computations = static_cast<int64_t>(module.computations().size());
  stats.counts = recording::CountOperations(module);
  for (const auto& computation : module.computations()) {
    const bool fused = computation->fusion_instruction() != nullptr;
    for (const auto& instruction : computation->instructions()) {
      const std::string opcode(instruction->opcode_name());
      ++stats.opcodes[opcode];
      if (fused) {
        ++stats.fused_opcodes[opcode];
      } else if (instruction->opcode() == ir::Opcode::kFusion) {
        const std::string kind = instruction->fusion_kind();
        ++stats.fusion_kinds[kind.empty() ? "Unspecified" : kind];
      }
    }
  }
  return stats;
}

int64_t Lookup(const std::map<std::string, int64_t>& counts, const std::string& key) {
  auto found = counts.find(key);
  return found == counts.end() ? 0 : found->second;
}

void PrintFusionKinds(const ModuleStats& stats) {
  if (stats.fusion_kinds.empty()) return;
  std::cout << " (";
  bool first = true;
  for (const auto& [kind, count] : stats.fusion_kinds) {
    std::cout << (first ? "" : ", ") << "k" << kind << " " << count;
    first = false;
  }
  std::cout << ")";
}

void PrintText(const std::string& name, const ir::Module& module, const ModuleStats& stats) {
  const recording::OperationCounts& counts = stats.counts;
  std::cout << "module " << module.name() << " (" << name << ")\n"
            << "  computations:       " << stats.computations << '\n'
            << "  operations:         " << counts.operations << "  (instructions outside fusions)\n"
            << "  fusions:            " << counts.fusions;
  PrintFusionKinds(stats);
  std::cout << "\n  fused instructions: " << counts.fused_instructions << "  (inside the fusions)\n"
            << "  all instructions:   " << counts.instructions() << "\n\n"
            << "  opcode                      operations    fused\n";
  for (const auto& [opcode, count] : stats.opcodes) {
    const int64_t fused = Lookup(stats.fused_opcodes, opcode);
    std::cout << "  " << std::left << std::setw(28) << opcode << std::right << std::setw(10)
              << count - fused << std::setw(9) << fused << '\n';
  }
}

void PrintJson(const std::string& name, const ir::Module& module, const ModuleStats& stats) {
  const recording::OperationCounts& counts = stats.counts;
  JsonWriter json;
  json.BeginObject();
  json.Key("file").String(name);
  json.Key("module").String(module.name());
  json.Key("computations").Int(stats.computations);
  json.Key("operations").Int(counts.operations);
  json.Key("fusions").Int(counts.fusions);
  json.Key("fused_instructions").Int(counts.fused_instructions);
  json.Key("instructions").Int(counts.instructions());
  json.Key("fusion_kinds").BeginObject();
  for (const auto& [kind, count] : stats.fusion_kinds) json.Key("k" + kind).Int(count);
  json.EndObject();
  json.Key("opcodes").BeginObject();
  for (const auto& [opcode, count] : stats.opcodes) json.Key(opcode).Int(count);
  json.EndObject();
  json.Key("fused_opcodes").BeginObject();
  for (const auto& [opcode, count] : stats.fused_opcodes) json.Key(opcode).Int(count);
  json.EndObject();
  json.EndObject();
  std::cout << json.str() << '\n';
}

int RunStats(const ParsedArgs& args) {
  auto load_options = ModelLoadOptionsFromDims(args.Values("--dim"));
  if (!load_options.ok()) return Fail(load_options.message());
  auto loaded = LoadModel(args.positional()[0], args.IntValue("--pass"), *load_options);
  if (!loaded.ok()) return Fail(loaded.message());
  const ModuleStats stats = Collect(*loaded->module);
  if (args.Has("--json")) {
    PrintJson(loaded->display_name, *loaded->module, stats);
  } else {
    PrintText(loaded->display_name, *loaded->module, stats);
  }
  return 0;
}

const CommandRegistrar kRegistrar({
    .name = "stats",
    .summary = "computations, operations, fusions and what they hold, per opcode",
    .positionals = {{"FILE", "a model, a recording, a compiler's dump or sample:NAME"}},
    .flags =
        {
            JsonFlag(),
            PassFlag(),
            DimFlag(),
        },
    .run = RunStats,
    .runs_kernels = false,
});

}  // namespace
}  // namespace fusescope::app
