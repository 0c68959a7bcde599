// The GEMM libraries of runtime/cpu/gemm.h side by side on the shapes that matter to us: the
// dots of the BERT layer fixture (tests/data/bert_layer, read from its HLO), the dots of a
// BERT-base layer at sequence 128, and small shapes where call overhead dominates. Per shape
// and library: f32 GFLOP/s, best of several timed samples after a warm-up, as a fraction of
// this machine's FP32 peak measured now (profiler/machine.h), once on one thread and once on
// every core with the same thread count for each library. Each library's result is checked
// against OpenBLAS's before it is timed.
//
//   gemm_bakeoff [--threads 1,2] [--libraries openblas,onednn,blis,mlir]
//                [--mlir "vector=8" --mlir "tile=512 vector=16 unroll=8" ...]
//                [--seconds 0.3] [--runs 2] [--cached-machine] [--hlo FILE]
//
// The MLIR matmul runs each --mlir lowering and reports the fastest (its options shown);
// compile time is not counted. It has no threads of its own: its multi-threaded column is its
// one-thread figure, marked so.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "ir/computation.h"
#include "ir/hlo_parser.h"
#include "profiler/machine.h"
#include "runtime/cpu/blas_dot.h"
#include "runtime/cpu/gemm.h"

namespace fs = fusescope;
using fs::runtime::GemmConfig;
using fs::runtime::GemmLibrary;
using fs::runtime::GemmProblem;

namespace {

struct Shape {
  std::string label;
  GemmProblem problem;
  int count = 1;  // how many dots of the model have it
};

struct Options {
  std::vector<int> threads;
  std::vector<GemmLibrary> libraries;
  // The register-blocked matmul at 8 and 16 lanes (rows per block 4 and 8), and at 16 lanes
  // with k in blocks of 512 instead of 256.
  std::vector<std::string> mlir = {"vector=8", "vector=16", "tile=512 vector=16"};
  double seconds = 0.3;  // timed per shape and library (per lowering for MLIR) in each run
  int runs = 2;
  bool cached_machine = false;
  std::string hlo =
      std::string(FUSESCOPE_SOURCE_DIR) + "/tests/data/bert_layer/before_optimizations.hlo";
};

double Flops(const GemmProblem& p) { return 2.0 * static_cast<double>(p.batch * p.m * p.n * p.k); }

std::vector<std::string> Split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::stringstream stream(text);
  for (std::string part; std::getline(stream, part, separator);)
    if (!part.empty()) parts.push_back(part);
  return parts;
}

// The dots of the model's entry computation as GEMMs, one row per distinct problem.
std::vector<Shape> ModelShapes(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  auto module = fs::ir::ParseHloModule(text.str());
  if (!module.ok()) {
    std::printf("%s: %s (its shapes are left out)\n", path.c_str(), module.message().c_str());
    return {};
  }
  std::vector<Shape> shapes;
  for (const auto& instruction : (*module)->entry()->instructions()) {
    if (instruction->opcode() != fs::ir::Opcode::kDot) continue;
    auto problem = fs::runtime::DotGemmProblem(*instruction);
    if (!problem.ok()) continue;
    auto same = std::find_if(shapes.begin(), shapes.end(), [&](const Shape& s) {
      return s.problem.ToString() == problem->ToString();
    });
    if (same != shapes.end()) {
      ++same->count;
      continue;
    }
    shapes.push_back({"fixture " + instruction->name(), *problem, 1});
  }
  for (Shape& shape : shapes) {
    if (shape.count > 1) shape.label += " (x" + std::to_string(shape.count) + ")";
  }
  return shapes;
}

std::vector<Shape> Shapes(const Options& options) {
  std::vector<Shape> shapes = ModelShapes(options.hlo);
  // BERT-base (hidden 768, 12 heads of 64, FFN 3072) at sequence 128. Q.K^T reads K [heads,
  // seq, 64] transposed, as the fixture's scores dot does.
  const std::vector<Shape> base = {
      {"bert-base q/k/v/out proj (x4)", {1, 128, 768, 768, false, false}, 4},
      {"bert-base ffn in", {1, 128, 3072, 768, false, false}, 1},
      {"bert-base ffn out", {1, 128, 768, 3072, false, false}, 1},
      {"bert-base scores Q.K^T", {12, 128, 128, 64, false, true}, 1},
      {"bert-base context P.V", {12, 128, 64, 128, false, false}, 1},
      {"small 8^3", {1, 8, 8, 8, false, false}, 1},
      {"small 32^3", {1, 32, 32, 32, false, false}, 1},
      {"small 64^3", {1, 64, 64, 64, false, false}, 1},
  };
  shapes.insert(shapes.end(), base.begin(), base.end());
  return shapes;
}

struct Operands {
  std::vector<float> a, b, c, reference;
};

Operands MakeOperands(const GemmProblem& p) {
  Operands o;
  std::mt19937 random(7);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  o.a.resize(static_cast<size_t>(p.batch * p.m * p.k));
  o.b.resize(static_cast<size_t>(p.batch * p.k * p.n));
  o.c.resize(static_cast<size_t>(p.batch * p.m * p.n));
  for (float& x : o.a) x = uniform(random);
  for (float& x : o.b) x = uniform(random);
  o.reference = o.c;
  GemmConfig openblas;
  if (!fs::runtime::RunGemm(openblas, p, o.a.data(), o.b.data(), o.reference.data()).ok())
    o.reference.clear();
  return o;
}

// The largest difference from OpenBLAS's result relative to the result's largest magnitude.
double Deviation(const Operands& o) {
  if (o.reference.empty()) return 0;
  double worst = 0, scale = 1e-30;
  for (size_t i = 0; i < o.c.size(); ++i) {
    worst = std::max(worst, std::abs(static_cast<double>(o.c[i]) - o.reference[i]));
    scale = std::max(scale, std::abs(static_cast<double>(o.reference[i])));
  }
  return worst / scale;
}

struct Measurement {
  bool ok = false;
  std::string error;
  double seconds = 0;          // best time of one GEMM
  std::string options;         // MLIR: the lowering that gave it
  double compile_seconds = 0;  // MLIR: compiling its matmul (not timed)
};

// Best time of one call: samples of enough calls to last ~2 ms each, for `budget` seconds.
Measurement Time(const GemmConfig& config, const GemmProblem& p, Operands& o, double budget) {
  Measurement m;
  fs::recording::KernelRecord record;
  fs::Status prepared = fs::runtime::PrepareGemm(config, p, fs::runtime::GemmType::kF32, &record);
  m.compile_seconds = record.compile_seconds;
  if (!prepared.ok()) {
    m.error = prepared.message();
    return m;
  }
  auto run = [&] { return fs::runtime::RunGemm(config, p, o.a.data(), o.b.data(), o.c.data()); };
  fs::Status warm = run();
  if (!warm.ok()) {
    m.error = warm.message();
    return m;
  }
  if (Deviation(o) > 1e-4) {
    m.error = "differs from OpenBLAS by " + std::to_string(Deviation(o));
    return m;
  }
  using Clock = std::chrono::steady_clock;
  auto started = Clock::now();
  (void)run();
  const double once = std::max(1e-7, std::chrono::duration<double>(Clock::now() - started).count());
  const int calls = std::max(1, static_cast<int>(2e-3 / once));
  m.seconds = 1e30;
  const auto end = Clock::now() + std::chrono::duration<double>(budget);
  for (int sample = 0; sample < 5 || Clock::now() < end; ++sample) {
    started = Clock::now();
    for (int i = 0; i < calls; ++i) (void)run();
    m.seconds =
        std::min(m.seconds, std::chrono::duration<double>(Clock::now() - started).count() / calls);
  }
  m.ok = true;
  return m;
}

std::string LoadAverage() {
  std::ifstream in("/proc/loadavg");
  std::string one, five, fifteen;
  in >> one >> five >> fifteen;
  return one + " " + five + " " + fifteen;
}

using Results = std::map<std::pair<size_t, GemmLibrary>, Measurement>;

struct Table {
  int threads = 1;
  std::string thread_counts;  // what each library was set to
  Results results;
};

Table Measure(const Options& options, const std::vector<Shape>& shapes, int threads) {
  Table table;
  table.threads = threads;
  for (GemmLibrary library : options.libraries) {
    fs::Status set =
        fs::runtime::SetGemmThreads(library, library == GemmLibrary::kMlir ? 1 : threads);
    table.thread_counts += " " + std::string(GemmLibraryName(library)) + " " +
                           std::to_string(fs::runtime::GemmThreads(library)) +
                           (set.ok() ? "" : " (could not set)");
  }
  // Library by library, so that one library's spinning worker threads have gone idle before
  // the next is timed; `runs` times over, each cell keeping its best, so that a burst of
  // other load on the machine does not decide a cell.
  // Every library reads the same buffers: one OpenBLAS GEMM (128x256x256, one thread) ran at
  // 10 or at 36 GFLOP/s in processes that differed in where its operands were allocated.
  std::vector<Operands> operands;
  for (const Shape& shape : shapes) operands.push_back(MakeOperands(shape.problem));
  for (int run = 0; run < options.runs; ++run) {
    for (GemmLibrary library : options.libraries) {
      for (size_t s = 0; s < shapes.size(); ++s) {
        Measurement& best = table.results[{s, library}];
        std::vector<std::string> lowerings = {""};
        if (library == GemmLibrary::kMlir) lowerings = options.mlir;
        for (const std::string& lowering : lowerings) {
          GemmConfig config;
          config.library = library;
          if (!lowering.empty())
            config.lowering = fs::runtime::LoweringOptions::Parse(lowering).value();
          Measurement m = Time(config, shapes[s].problem, operands[s], options.seconds);
          m.options = lowering;
          if (m.ok && (!best.ok || m.seconds < best.seconds)) best = m;
          if (!m.ok && !best.ok) best = m;
        }
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
    }
  }
  return table;
}

void Print(const Options& options, const std::vector<Shape>& shapes, const Table& table,
           double peak) {
  const int threads = table.threads;
  std::printf(
      "\n== %d thread%s:%s | GFLOP/s and %% of the FP32 peak of %d core%s, %.1f GFLOP/s; "
      "best of %d run%s\n",
      threads, threads == 1 ? "" : "s", table.thread_counts.c_str(), threads,
      threads == 1 ? "" : "s", peak / 1e9, options.runs, options.runs == 1 ? "" : "s");
  Results results = table.results;
  std::printf("%-30s %-36s %8s", "shape", "m x n x k", "MFLOP");
  for (GemmLibrary library : options.libraries)
    std::printf(" %-16s", std::string(GemmLibraryName(library)).c_str());
  std::printf(" best\n");
  for (size_t s = 0; s < shapes.size(); ++s) {
    const GemmProblem& p = shapes[s].problem;
    std::printf("%-30s %-36s %8.3f", shapes[s].label.c_str(), p.ToString().c_str(), Flops(p) / 1e6);
    GemmLibrary winner = options.libraries.front();
    double fastest = 1e30;
    for (GemmLibrary library : options.libraries) {
      const Measurement& m = results[{s, library}];
      if (!m.ok) {
        std::printf(" %-16s", "-");
        continue;
      }
      const double flops = Flops(p) / m.seconds;
      char cell[64];
      std::snprintf(cell, sizeof cell, "%.1f (%.0f%%)%s", flops / 1e9, 100 * flops / peak,
                    library == GemmLibrary::kMlir && threads > 1 ? "*" : "");
      std::printf(" %-16s", cell);
      if (m.seconds < fastest) {
        fastest = m.seconds;
        winner = library;
      }
    }
    std::printf(" %s\n", std::string(GemmLibraryName(winner)).c_str());
  }
  for (size_t s = 0; s < shapes.size(); ++s) {
    for (GemmLibrary library : options.libraries) {
      const Measurement& m = results[{s, library}];
      if (!m.ok)
        std::printf("  %s on %s: %s\n", std::string(GemmLibraryName(library)).c_str(),
                    shapes[s].label.c_str(), m.error.c_str());
    }
  }
  if (std::find(options.libraries.begin(), options.libraries.end(), GemmLibrary::kMlir) !=
      options.libraries.end()) {
    std::printf("  mlir lowering that won per shape:");
    for (size_t s = 0; s < shapes.size(); ++s)
      std::printf("%s %s (compiled in %.2f s)", s ? "," : "",
                  results[{s, GemmLibrary::kMlir}].options.c_str(),
                  results[{s, GemmLibrary::kMlir}].compile_seconds);
    std::printf("\n");
    if (threads > 1) std::printf("  * the MLIR matmul runs on one thread\n");
  }
}

bool ParseArguments(int argc, char** argv, Options& options) {
  bool default_mlir = true;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    auto value = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (flag == "--threads") {
      for (const std::string& t : Split(value(), ','))
        options.threads.push_back(std::atoi(t.c_str()));
    } else if (flag == "--libraries") {
      for (const std::string& name : Split(value(), ',')) {
        auto library = fs::runtime::ParseGemmLibrary(name);
        if (!library.ok()) {
          std::fprintf(stderr, "gemm_bakeoff: %s\n", library.message().c_str());
          return false;
        }
        options.libraries.push_back(*library);
      }
    } else if (flag == "--mlir") {
      if (default_mlir) options.mlir.clear();
      default_mlir = false;
      const std::string lowering = value();
      auto parsed = fs::runtime::LoweringOptions::Parse(lowering);
      if (!parsed.ok()) {
        std::fprintf(stderr, "gemm_bakeoff: --mlir: %s\n", parsed.message().c_str());
        return false;
      }
      options.mlir.push_back(parsed->ToString());
    } else if (flag == "--seconds") {
      options.seconds = std::atof(value().c_str());
    } else if (flag == "--runs") {
      options.runs = std::max(1, std::atoi(value().c_str()));
    } else if (flag == "--cached-machine") {
      options.cached_machine = true;
    } else if (flag == "--hlo") {
      options.hlo = value();
    } else {
      std::fprintf(stderr,
                   "usage: gemm_bakeoff [--threads 1,N] [--libraries openblas,onednn,blis,mlir] "
                   "[--mlir \"tile=T vector=V\"]... [--seconds S] [--runs N] [--cached-machine] "
                   "[--hlo FILE]\n");
      return false;
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  // OpenBLAS with the kernels the CPU runs, as fusescope uses it (runtime/cpu/gemm.h).
  fs::runtime::RestartForBetterOpenBlasKernels(argv);
  Options options;
  if (!ParseArguments(argc, argv, options)) return 2;
  std::string note;
  fs::profiler::CalibrationOptions calibration;
  calibration.seconds_per_probe = 1.0;
  auto machine = options.cached_machine ? fs::profiler::LoadOrCalibrate(
                                              fs::profiler::DefaultCacheDirectory(), {}, &note)
                                        : fs::profiler::Calibrate(calibration);
  if (!machine.ok()) {
    std::printf("machine: %s\n", machine.message().c_str());
    return 1;
  }
  if (options.threads.empty()) options.threads = {1, static_cast<int>(machine->logical_cores)};
  if (options.libraries.empty()) {
    for (GemmLibrary library : fs::runtime::AllGemmLibraries()) {
      fs::Status available = fs::runtime::GemmLibraryAvailable(library);
      if (available.ok())
        options.libraries.push_back(library);
      else
        std::printf("%s: %s\n", std::string(GemmLibraryName(library)).c_str(),
                    available.message().c_str());
    }
  }
  std::printf(
      "%s, %lld logical cores, %s: FP32 peak %.1f GFLOP/s on one core, %.1f on all "
      "(%s)\n",
      machine->cpu_model.c_str(), static_cast<long long>(machine->logical_cores),
      machine->vector_isa.c_str(), machine->peak_flops_one_core / 1e9, machine->peak_flops / 1e9,
      machine->from_cache ? "cached" : "measured now");
  for (GemmLibrary library : options.libraries)
    std::printf("  %-9s %s\n", std::string(GemmLibraryName(library)).c_str(),
                fs::runtime::GemmLibraryVersion(library).c_str());
  std::printf("load average at start: %s\n", LoadAverage().c_str());
  const std::vector<Shape> shapes = Shapes(options);
  std::vector<Table> tables;
  for (int threads : options.threads) tables.push_back(Measure(options, shapes, threads));
  std::printf("load average at end: %s\n", LoadAverage().c_str());
  // The peak probes are short: on a machine other processes share, a probe that met their
  // load reads low. Measured again after the GEMMs, each ceiling is the larger reading; the
  // ceiling for n threads is also at least n times the one-core peak, since an all-core probe
  // that met a core held by another process reads near the one-core figure.
  double one_core = machine->peak_flops_one_core, all_cores = machine->peak_flops;
  if (!options.cached_machine) {
    auto again = fs::profiler::Calibrate(calibration);
    if (again.ok()) {
      std::printf("FP32 peak measured again: %.1f GFLOP/s on one core, %.1f on all\n",
                  again->peak_flops_one_core / 1e9, again->peak_flops / 1e9);
      one_core = std::max(one_core, again->peak_flops_one_core);
      all_cores = std::max(all_cores, again->peak_flops);
    }
  }
  const double cores = static_cast<double>(machine->logical_cores);
  for (const Table& table : tables) {
    const double n = std::min<double>(table.threads, cores);
    Print(options, shapes, table,
          table.threads == 1 ? one_core : std::max(all_cores * n / cores, one_core * n));
  }
  return 0;
}
