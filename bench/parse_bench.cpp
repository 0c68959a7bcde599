// How fast the HLO text parser and printer are on a large module, and how that compares with
// XLA's own parser on the same file.
//
//   parse_bench [--instructions N] [--runs R] [--file PATH] [--keep PATH] [--python PATH]
//
// Without --file it generates a module of about N instructions (default 100,000) in XLA's
// optimized-dump style: dense layers (dot, bias broadcast, add, relu), a kLoop fusion per
// layer with its fused computation and JSON backend_config, row reductions with to_apply,
// metadata with stack frames. It reports the best of R runs (default 5) as MB/s and
// instructions/s. When bench/xla_parse_peer.py runs (it needs jaxlib), the same file is
// timed there and the ratio is printed. The peer runs under --python, else $FUSESCOPE_PYTHON,
// else python3 from PATH: jaxlib usually lives in a virtual environment.

#include <sys/wait.h>
#include <unistd.h>

#include <ctime>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "ir/hlo_parser.h"
#include "ir/hlo_printer.h"

namespace fusescope {
namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  int64_t instructions = 100000;
  int runs = 5;
  std::string file;
  std::string keep;
  std::string python;
};

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

constexpr std::string_view kRow = "f32[128,256]{1,0}";

std::string Metadata(std::string_view op, int64_t layer, int frame) {
  return ", metadata={op_name=\"jit(model)/model/layer_" + std::to_string(layer) + "/" +
         std::string(op) + "\" stack_frame_id=" + std::to_string(frame) + "}";
}

std::string Header() {
  std::string text =
      "HloModule jit_model, is_scheduled=true, entry_computation_layout={(f32[128,256]{1,0}, "
      "f32[256,256]{1,0}, f32[256]{0})->f32[128,256]{1,0}}, "
      "allow_spmd_sharding_propagation_to_output={true}\n\nFileNames\n1 \"model.py\"\n\n"
      "FunctionNames\n1 \"<module>\"\n2 \"model\"\n3 \"layer\"\n\nFileLocations\n";
  for (int i = 1; i <= 6; ++i) {
    text += std::to_string(i) +
            " {file_name_id=1 function_name_id=" + std::to_string(std::min(i, 3)) +
            " line=" + std::to_string(10 * i) + " end_line=" + std::to_string(10 * i) +
            " column=4 end_column=30}\n";
  }
  text += "\nStackFrames\n1 {file_location_id=1 parent_frame_id=0}\n";
  for (int i = 2; i <= 6; ++i) {
    text += std::to_string(i) + " {file_location_id=" + std::to_string(i) +
            " parent_frame_id=" + std::to_string(i == 2 ? 1 : 2) + "}\n";
  }
  text +=
      "\n\n%max_f32 (a: f32[], b: f32[]) -> f32[] {\n  %a = f32[] parameter(0)\n"
      "  %b = f32[] parameter(1)\n  ROOT %m = f32[] maximum(%a, %b)\n}\n\n";
  return text;
}

// The kLoop fusion body of one layer: 8 instructions.
std::string FusedComputation(int64_t layer) {
  const std::string n = "." + std::to_string(layer);
  const std::string row(kRow);
  return "%fused_computation" + n + " (param_0" + n + ": f32[128,256], param_1" + n +
         ": f32[128,256]) -> f32[128,256] {\n" + "  %param_0" + n + " = " + row +
         " parameter(0)\n" + "  %param_1" + n + " = " + row + " parameter(1)\n" + "  %mul" + n +
         " = " + row + " multiply(%param_0" + n + ", %param_1" + n + ")" +
         Metadata("mul", layer, 4) + "\n" + "  %tanh" + n + " = " + row + " tanh(%mul" + n + ")" +
         Metadata("tanh", layer, 5) + "\n" + "  %half" + n + " = f32[] constant(0.5)\n" +
         "  %halves" + n + " = " + row + " broadcast(%half" + n + "), dimensions={}\n" +
         "  %scaled" + n + " = " + row + " multiply(%tanh" + n + ", %halves" + n + ")" +
         Metadata("mul", layer, 5) + "\n" + "  ROOT %sum" + n + " = " + row + " add(%scaled" + n +
         ", %param_0" + n + ")" + Metadata("add", layer, 6) + "\n}\n\n";
}

// One dense layer of the entry: 11 instructions consuming `input`, producing %x.<layer>.
std::string Layer(int64_t layer, const std::string& input) {
  const std::string n = "." + std::to_string(layer);
  const std::string row(kRow);
  return "  %dot" + n + " = " + row + " dot(" + input +
         ", %w), lhs_contracting_dims={1}, rhs_contracting_dims={0}" +
         Metadata("dot_general", layer, 3) + "\n" + "  %bias" + n + " = " + row +
         " broadcast(%b), dimensions={1}" + Metadata("add", layer, 3) + "\n" + "  %add" + n +
         " = " + row + " add(%dot" + n + ", %bias" + n + ")" + Metadata("add", layer, 3) + "\n" +
         "  %zero" + n + " = f32[] constant(0)\n" + "  %zeros" + n + " = " + row +
         " broadcast(%zero" + n + "), dimensions={}\n" + "  %relu" + n + " = " + row +
         " maximum(%add" + n + ", %zeros" + n + ")" + Metadata("max", layer, 4) + "\n" +
         "  %fusion" + n + " = " + row + " fusion(%relu" + n + ", %add" + n +
         "), kind=kLoop, calls=%fused_computation" + n + Metadata("add", layer, 6) +
         ", backend_config={\"outer_dimension_partitions\":[],\"fusion_config\":{\"kind\":"
         "\"__loop\"}}\n" +
         "  %init" + n + " = f32[] constant(-inf)\n" + "  %rmax" + n +
         " = f32[128]{0} reduce(%fusion" + n + ", %init" + n +
         "), dimensions={1}, to_apply=%max_f32" + Metadata("reduce_max", layer, 4) + "\n" +
         "  %bmax" + n + " = " + row + " broadcast(%rmax" + n + "), dimensions={0}" +
         Metadata("sub", layer, 4) + "\n" + "  %x" + n + " = " + row + " subtract(%fusion" + n +
         ", %bmax" + n + ")" + Metadata("sub", layer, 4) + "\n";
}

std::string GenerateModule(int64_t instructions) {
  constexpr int64_t kPerLayer = 19;  // 11 in the entry, 8 in the fused computation
  const int64_t layers = std::max<int64_t>(1, (instructions - 7) / kPerLayer);
  std::string text = Header();
  std::string entry =
      "ENTRY %main (x: f32[128,256], w: f32[256,256], b: f32[256]) -> "
      "f32[128,256] {\n  %x = f32[128,256]{1,0} parameter(0)\n"
      "  %w = f32[256,256]{1,0} parameter(1)\n  %b = f32[256]{0} parameter(2)\n";
  std::string input = "%x";
  for (int64_t layer = 0; layer < layers; ++layer) {
    text += FusedComputation(layer);
    entry += Layer(layer, input);
    input = "%x." + std::to_string(layer);
  }
  entry += "  ROOT %out = f32[128,256]{1,0} copy(" + input + ")\n}\n\n";
  return text + entry;
}

std::optional<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// Best wall time of `runs` calls of `body`.
template <typename Body>
double BestOf(int runs, Body body) {
  double best = 1e300;
  for (int i = 0; i < runs; ++i) {
    const Clock::time_point start = Clock::now();
    body();
    best = std::min(best, SecondsSince(start));
  }
  return best;
}

std::string PythonFor(const Options& options) {
  if (!options.python.empty()) return options.python;
  const char* from_environment = std::getenv("FUSESCOPE_PYTHON");
  return from_environment != nullptr && *from_environment != '\0' ? from_environment : "python3";
}

// Runs bench/xla_parse_peer.py on `path`; its seconds, or nullopt with the reason printed.
std::optional<double> RunXlaPeer(const std::string& python, const std::string& path) {
  const std::filesystem::path script =
      std::filesystem::path(FUSESCOPE_SOURCE_DIR) / "bench" / "xla_parse_peer.py";
  if (!std::filesystem::exists(script)) {
    std::printf("xla peer: %s not found, skipped\n", script.c_str());
    return std::nullopt;
  }
  const std::string command = "'" + python + "' '" + script.string() + "' '" + path + "' 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) {
    std::printf("xla peer: cannot start %s: %s\n", python.c_str(), std::strerror(errno));
    return std::nullopt;
  }
  std::string output;
  char buffer[4096];
  while (size_t read = std::fread(buffer, 1, sizeof(buffer), pipe)) output.append(buffer, read);
  const int status = pclose(pipe);
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  const size_t at = output.find("xla_parse_seconds=");
  if (code == 0 && at != std::string::npos) {
    return std::strtod(output.c_str() + at + std::strlen("xla_parse_seconds="), nullptr);
  }
  while (!output.empty() && output.back() == '\n') output.pop_back();
  std::printf("xla peer: %s (exit %d): %s\n", code == 3 ? "jaxlib missing, skipped" : "failed",
              code, output.c_str());
  return std::nullopt;
}

int Usage() {
  std::fprintf(stderr,
               "usage: parse_bench [--instructions N] [--runs R] [--file PATH] [--keep PATH] "
               "[--python PATH]\n");
  return 2;
}

bool ParseOptions(int argc, char** argv, Options* options) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (i + 1 >= argc) return false;
    const char* value = argv[++i];
    if (arg == "--instructions") {
      options->instructions = std::atoll(value);
    } else if (arg == "--runs") {
      options->runs = std::max(1, std::atoi(value));
    } else if (arg == "--file") {
      options->file = value;
    } else if (arg == "--keep") {
      options->keep = value;
    } else if (arg == "--python") {
      options->python = value;
    } else {
      return false;
    }
  }
  return true;
}

int Run(const Options& options) {
  std::string text;
  std::string path = options.file;
  if (!path.empty()) {
    std::optional<std::string> read = ReadFile(path);
    if (!read) {
      std::fprintf(stderr, "parse_bench: cannot read %s\n", path.c_str());
      return 1;
    }
    text = std::move(*read);
  } else {
    text = GenerateModule(options.instructions);
    path = !options.keep.empty() ? options.keep
                                 : (std::filesystem::temp_directory_path() /
                                    ("fusescope_parse_bench_" + std::to_string(getpid()) + ".hlo"))
                                       .string();
    std::ofstream(path, std::ios::binary) << text;
  }

  std::unique_ptr<ir::Module> module;
  double parse_seconds = 1e300;
  double parse_cpu_seconds = 1e300;
  for (int run = 0; run < options.runs; ++run) {
    module.reset();  // freeing the last module is not parsing
    const Clock::time_point start = Clock::now();
    const std::clock_t cpu_start = std::clock();
    auto parsed = ir::ParseHloModule(text, path);
    parse_cpu_seconds =
        std::min(parse_cpu_seconds, static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC);
    parse_seconds = std::min(parse_seconds, SecondsSince(start));
    if (!parsed.ok()) {
      std::fprintf(stderr, "parse_bench: %s\n", parsed.message().c_str());
      return 1;
    }
    module = std::move(parsed).value();
  }
  std::string printed;
  const double print_seconds = BestOf(options.runs, [&] { printed = ir::PrintModule(*module); });

  const double megabytes = static_cast<double>(text.size()) / 1e6;
  const auto instructions = static_cast<double>(module->instruction_count());
  std::printf("file: %s (%.1f MB, %.0f instructions, %zu computations)\n", path.c_str(), megabytes,
              instructions, module->computations().size());
  std::printf("fusescope parse: %.3f s best of %d (%.3f s CPU)  %.0f MB/s  %.2f M instructions/s\n",
              parse_seconds, options.runs, parse_cpu_seconds, megabytes / parse_seconds,
              instructions / parse_seconds / 1e6);
  std::printf("fusescope print: %.3f s best of %d  %.0f MB/s\n", print_seconds, options.runs,
              static_cast<double>(printed.size()) / 1e6 / print_seconds);

  if (std::optional<double> xla_seconds = RunXlaPeer(PythonFor(options), path)) {
    std::printf("xla parse:       %.3f s best of 3  %.0f MB/s\n", *xla_seconds,
                megabytes / *xla_seconds);
    std::printf("ratio: fusescope parses %.2fx as fast as XLA\n", *xla_seconds / parse_seconds);
  }
  if (options.file.empty() && options.keep.empty()) std::filesystem::remove(path);
  return 0;
}

}  // namespace
}  // namespace fusescope

int main(int argc, char** argv) {
  fusescope::Options options;
  if (!fusescope::ParseOptions(argc, argv, &options)) return fusescope::Usage();
  return fusescope::Run(options);
}
