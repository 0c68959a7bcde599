#include "app/cli/interpret_support.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "runtime/interpreter/interpreter.h"
#include "runtime/npy.h"
#include "runtime/npz.h"
#include "runtime/seeded_inputs.h"

namespace fusescope::app {

namespace {

// The names an input for parameter `index` may have, in the order they are looked for: ours
// (`fusescope export`), numpy's (np.save per array, np.savez's arr_N) and the parameter's.
std::vector<std::string> InputNames(const ir::Instruction& parameter, int64_t index) {
  char ours[32];
  std::snprintf(ours, sizeof ours, "arg_%03lld", static_cast<long long>(index));
  const std::string n = std::to_string(index);
  return {ours, "arg" + n, "arg_" + n, "arr_" + n, parameter.name()};
}

std::string Describe(const ir::Instruction& parameter, int64_t index) {
  return "parameter " + std::to_string(index) + " (" + parameter.name() + ", " +
         parameter.shape().ToString(false) + ")";
}

StatusOr<std::vector<runtime::Literal>> InputsFromNpz(const ir::Computation& entry,
                                                      const std::string& path) {
  StatusOr<std::vector<runtime::NpzMember>> members = runtime::ReadNpzFile(path);
  if (!members.ok()) return members.status();
  std::vector<runtime::Literal> inputs;
  for (int64_t i = 0; i < entry.parameter_count(); ++i) {
    const std::vector<std::string> names = InputNames(*entry.parameter(i), i);
    auto found = std::find_if(members->begin(), members->end(), [&](const auto& member) {
      return std::find(names.begin(), names.end(), member.name) != names.end();
    });
    if (found == members->end()) {
      return Status::Error("no input for " + Describe(*entry.parameter(i), i) + " in " + path +
                           ": it holds no array named " + names[3] + ", " + names[1] + " or " +
                           names[4]);
    }
    inputs.push_back(std::move(found->value));
  }
  return inputs;
}

// The one .npz file of `folder`, if it holds one and no .npy files.
std::optional<std::string> LoneNpz(const std::filesystem::path& folder) {
  std::optional<std::string> npz;
  std::error_code error;
  for (const auto& item : std::filesystem::directory_iterator(folder, error)) {
    const std::string extension = item.path().extension().string();
    if (extension == ".npy") return std::nullopt;
    if (extension == ".npz") {
      if (npz) return std::nullopt;
      npz = item.path().string();
    }
  }
  return npz;
}

}  // namespace

StatusOr<std::vector<runtime::Literal>> ChooseInputs(const ir::Module& module,
                                                     const std::optional<std::string>& dir,
                                                     uint64_t seed) {
  if (module.entry() == nullptr) return Status::Error("the module has no entry computation");
  const ir::Computation& entry = *module.entry();
  if (!dir) return runtime::SeededInputs(entry, seed);
  namespace fs = std::filesystem;
  fs::path folder(*dir);
  std::error_code error;
  if (fs::is_regular_file(folder, error)) {
    if (folder.extension() != ".npz")
      return Status::Error(*dir +
                           " is a file but not an .npz archive; --inputs takes a folder of "
                           ".npy files or one .npz");
    return InputsFromNpz(entry, *dir);
  }
  if (!fs::is_directory(folder, error)) return Status::Error(*dir + " does not exist");
  if (!fs::exists(folder / "arg_000.npy", error) &&
      fs::exists(folder / "inputs" / "arg_000.npy", error)) {
    folder /= "inputs";
  }
  if (std::optional<std::string> npz = LoneNpz(folder)) return InputsFromNpz(entry, *npz);
  std::vector<runtime::Literal> inputs;
  for (int64_t i = 0; i < entry.parameter_count(); ++i) {
    const std::vector<std::string> names = InputNames(*entry.parameter(i), i);
    auto found = std::find_if(names.begin(), names.end(), [&](const std::string& name) {
      return fs::is_regular_file(folder / (name + ".npy"), error);
    });
    if (found == names.end()) {
      return Status::Error("no input for " + Describe(*entry.parameter(i), i) + ": " +
                           folder.string() + " holds none of " + names[0] + ".npy, " + names[1] +
                           ".npy, " + names[3] + ".npy or " + names[4] + ".npy");
    }
    StatusOr<runtime::Literal> input = runtime::ReadNpyFile((folder / (*found + ".npy")).string());
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

}  // namespace fusescope::app
