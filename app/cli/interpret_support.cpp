#include "app/cli/interpret_support.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "runtime/interpreter.h"
#include "runtime/npy.h"
#include "runtime/seeded_inputs.h"

namespace fusescope::app {

StatusOr<std::vector<runtime::Literal>> ChooseInputs(const ir::Module& module,
                                                     const std::optional<std::string>& dir,
                                                     uint64_t seed) {
  if (module.entry() == nullptr) return Status::Error("the module has no entry computation");
  if (!dir) return runtime::SeededInputs(*module.entry(), seed);
  namespace fs = std::filesystem;
  fs::path folder(*dir);
  std::error_code error;
  if (!fs::exists(folder / "arg_000.npy", error) &&
      fs::exists(folder / "inputs" / "arg_000.npy", error)) {
    folder /= "inputs";
  }
  std::vector<runtime::Literal> inputs;
  for (int64_t i = 0; i < module.entry()->parameter_count(); ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "arg_%03lld.npy", static_cast<long long>(i));
    if (!fs::exists(folder / name, error)) {
      return Status::Error("no input for parameter " + std::to_string(i) + ": " +
                           (folder / name).string() + " does not exist");
    }
    StatusOr<runtime::Literal> input = runtime::ReadNpyFile((folder / name).string());
    if (!input.ok()) return input.status();
    inputs.push_back(std::move(input).value());
  }
  return inputs;
}

StatusOr<InterpretedRun> Interpret(const ir::Module& module, std::vector<runtime::Literal> inputs,
                                   const runtime::InterpreterOptions& options) {
  runtime::Interpreter interpreter(options);
  const auto start = std::chrono::steady_clock::now();
  StatusOr<runtime::Literal> result = interpreter.Run(module, std::move(inputs));
  InterpretedRun run;
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!result.ok()) return result.status();
  if (result->is_tuple()) {
    run.outputs = std::move(result->elements());
  } else {
    run.outputs.push_back(std::move(result).value());
  }
  return run;
}

std::vector<runtime::LiteralDifference> CompareOutputs(
    const std::vector<runtime::Literal>& actual, const std::vector<runtime::Literal>& expected,
    double rtol, double atol) {
  std::vector<runtime::LiteralDifference> differences;
  for (size_t i = 0; i < expected.size(); ++i) {
    if (i >= actual.size()) {
      runtime::LiteralDifference missing;
      missing.same_shape = false;
      differences.push_back(missing);
      continue;
    }
    differences.push_back(runtime::CompareLiterals(actual[i], expected[i], rtol, atol));
  }
  return differences;
}

void PrintProgress(std::string_view kind, int64_t index, int64_t total, std::string_view name) {
  std::fprintf(stderr, "progress: %.*s %lld/%lld %.*s\n", static_cast<int>(kind.size()),
               kind.data(), static_cast<long long>(index), static_cast<long long>(total),
               static_cast<int>(name.size()), name.data());
  std::fflush(stderr);
}

std::function<void(int64_t, int64_t)> InstructionProgress(std::string name) {
  return [name = std::move(name), last_step = int64_t{-1}](int64_t done, int64_t total) mutable {
    const int64_t step = total > 0 ? done * 100 / total : 0;
    if (step == last_step && done != total) return;
    last_step = step;
    PrintProgress("instruction", done, total, name);
  };
}

StatusOr<double> DoubleOption(const std::optional<std::string>& text, double fallback,
                              const std::string& flag) {
  if (!text) return fallback;
  char* end = nullptr;
  const double value = std::strtod(text->c_str(), &end);
  if (text->empty() || end != text->c_str() + text->size() || !(value >= 0)) {
    return Status::Error("option " + flag + " needs a non-negative number, got '" + *text + "'");
  }
  return value;
}

}  // namespace fusescope::app
