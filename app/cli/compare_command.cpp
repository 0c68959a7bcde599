// `fusescope compare MODEL [--compilers LIST] [--batch LIST] [--seq LIST] [--dim NAME=LIST]
// [--reps N] [--warmup N] [--threads N] [--time-limit S] [--tvm-trials N] [--no-dump]
// [--no-profile] [--seed S] [--work DIR] [--csv OUT.csv] [--json] [-o CMP.fsdb]`: the same
// model through several compilers (compare/comparison.h), and `fusescope compare-peer`, our
// own adapter of the comparison protocol (compare/adapters/README.md).

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "app/cli/command.h"
#include "app/cli/common_flags.h"
#include "app/cli/model_loader.h"
#include "compare/comparison.h"
#include "compare/comparison_report.h"
#include "compare/comparison_store.h"
#include "compare/peer_catalog.h"
#include "compare/peer_process.h"
#include "compare/peer_protocol.h"
#include "compare/process_memory.h"
#include "ir/hlo_printer.h"
#include "recording/compile_and_record.h"
#include "runtime/cpu/cpu_executable.h"
#include "runtime/npz.h"

#ifdef FUSESCOPE_HAVE_ONNX
#include "importers/onnx/onnx_importer.h"
#endif

namespace fusescope::app {
extern const char kVersion[];
namespace {

namespace fs = std::filesystem;

StatusOr<std::vector<int64_t>> SizeList(const std::string& flag, const std::string& text) {
  std::vector<int64_t> sizes;
  std::stringstream items(text);
  for (std::string item; std::getline(items, item, ',');) {
    char* end = nullptr;
    const long long value = std::strtoll(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || value < 1 || value > (1 << 20))
      return Status::Error(flag + " " + text + ": expected positive sizes separated by commas");
    sizes.push_back(value);
  }
  if (sizes.empty()) return Status::Error(flag + " needs at least one size");
  return sizes;
}

// What the model is, as the peers must be told, and what our importer says of its inputs.
struct ModelFacts {
  std::string path;    // a file the peers can read
  std::string format;  // "onnx", "stablehlo", "hlo"
  std::vector<std::string> input_names;
  std::vector<std::string> node_names;  // ONNX: its computing nodes (ComparisonSpec::model_ops)
  std::string batch_dim;  // the symbolic dimension on axis 0 of an input, if any
  std::string seq_dim;    // the one on axis 1, if any
  std::vector<std::string> symbolic;
};

StatusOr<ModelFacts> InspectModel(const std::string& what, const fs::path& scratch) {
  ModelFacts facts;
  facts.path = what;
  const std::string extension = fs::path(what).extension().string();
  if (extension == ".onnx") {
#ifdef FUSESCOPE_HAVE_ONNX
    facts.format = "onnx";
    auto inputs = ir::onnx_import::ReadOnnxInputs(what);
    if (!inputs.ok()) return inputs.status();
    facts.input_names = inputs->names;
    facts.node_names = inputs->node_names;
    for (const auto& dim : inputs->symbolic_dimensions) {
      facts.symbolic.push_back(dim.name);
      if (dim.axis == 0 && facts.batch_dim.empty()) facts.batch_dim = dim.name;
      if (dim.axis == 1 && facts.seq_dim.empty() && dim.name != facts.batch_dim)
        facts.seq_dim = dim.name;
    }
    return facts;
#else
    return Status::Error("this build has no ONNX importer (libonnx was not found)");
#endif
  }
  if (extension == ".mlir") {
    facts.format = "stablehlo";
    return facts;
  }
  if (LooksLikeRecording(what) || fs::is_directory(what))
    return Status::Error(
        what +
        " is a recording or a folder: compare takes a model (ONNX, StableHLO .mlir or HLO text)");
  // HLO text or a built-in sample: the peers get a file of HLO text.
  auto loaded = LoadModel(what);
  if (!loaded.ok()) return loaded.status();
  facts.format = "hlo";
  if (!fs::exists(what)) {
    facts.path = (scratch / "model.hlo").string();
    std::ofstream file(facts.path);
    file << ir::PrintModule(*loaded->module, ir::PrintOptions::Parsable());
    if (!file) return Status::Error("cannot write " + facts.path);
  }
  return facts;
}

std::string ShapeName(const std::map<std::string, int64_t>& dims, const ModelFacts& facts) {
  if (dims.empty()) return "static";
  std::string name;
  if (!facts.batch_dim.empty() && dims.count(facts.batch_dim))
    name += "b" + std::to_string(dims.at(facts.batch_dim));
  if (!facts.seq_dim.empty() && dims.count(facts.seq_dim))
    name += std::string(name.empty() ? "" : "_") + "s" + std::to_string(dims.at(facts.seq_dim));
  for (const auto& [dim, size] : dims) {
    if (dim == facts.batch_dim || dim == facts.seq_dim) continue;
    name += std::string(name.empty() ? "" : "_") + dim + std::to_string(size);
  }
  return name;
}

// The shapes to compare at: every combination of the sizes asked for.
StatusOr<std::vector<compare::ShapeChoice>> ChooseShapes(const ParsedArgs& args,
                                                         const ModelFacts& facts) {
  std::vector<std::pair<std::string, std::vector<int64_t>>> axes;
  auto add_axis = [&](const std::string& flag, const std::string& dim) -> Status {
    std::optional<std::string> text = args.Value(flag);
    if (!text) return Status::Ok();
    if (dim.empty())
      return Status::Error(
          flag + ": " + facts.path + " has no symbolic " +
          (flag == "--batch" ? "batch dimension (axis 0 of an input)"
                             : "sequence dimension (axis 1 of an input)") +
          (facts.format == "onnx" ? "" : "; only ONNX models have symbolic sizes"));
    auto sizes = SizeList(flag, *text);
    if (!sizes.ok()) return sizes.status();
    axes.emplace_back(dim, *sizes);
    return Status::Ok();
  };
  FS_RETURN_IF_ERROR(add_axis("--batch", facts.batch_dim));
  FS_RETURN_IF_ERROR(add_axis("--seq", facts.seq_dim));
  for (const std::string& item : args.Values("--dim")) {
    const size_t eq = item.find('=');
    if (eq == std::string::npos) return Status::Error("--dim " + item + ": expected NAME=N[,N...]");
    const std::string name = item.substr(0, eq);
    if (std::find(facts.symbolic.begin(), facts.symbolic.end(), name) == facts.symbolic.end())
      return Status::Error("--dim " + name + ": the model has no symbolic dimension of that name");
    auto sizes = SizeList("--dim " + name, item.substr(eq + 1));
    if (!sizes.ok()) return sizes.status();
    axes.emplace_back(name, *sizes);
  }
  std::vector<std::map<std::string, int64_t>> combinations = {{}};
  for (const auto& [dim, sizes] : axes) {
    std::vector<std::map<std::string, int64_t>> next;
    for (const auto& partial : combinations)
      for (int64_t size : sizes) {
        auto extended = partial;
        extended[dim] = size;
        next.push_back(std::move(extended));
      }
    combinations = std::move(next);
  }
  std::vector<compare::ShapeChoice> shapes;
  for (auto& dims : combinations) {
    compare::ShapeChoice shape;
    // Unnamed symbolic sizes are 1, as the importer's default, for every compiler alike.
    for (const std::string& symbol : facts.symbolic) dims.try_emplace(symbol, 1);
    shape.name = ShapeName(dims, facts);
    shape.batch = !facts.batch_dim.empty() ? dims.at(facts.batch_dim) : 1;
    shape.dims = std::move(dims);
    shapes.push_back(std::move(shape));
  }
  return shapes;
}

// Each compiler's own passes as a recording beside the comparison: its dumps handed to
// `fusescope import`, the one front door for every format (a failure is a line, not an error).
std::map<std::string, std::string> ImportPeerDumps(const compare::Comparison& comparison,
                                                   const std::string& output,
                                                   const std::string& executable) {
  std::map<std::string, std::string> recordings;
  const fs::path folder = fs::path(output).replace_extension(".peers");
  for (const compare::PeerOutcome& peer : comparison.peers) {
    for (const compare::PeerDump& dump : peer.dumps) {
      if (dump.kind != "xla-dump" && dump.kind != "mlir-log" && dump.kind != "mlir-stages" &&
          dump.kind != "tvm-dumpir" && dump.kind != "ort-optimized-model" &&
          dump.kind != "inductor-debug")
        continue;
      std::error_code error;
      fs::create_directories(folder, error);
      const std::string target = (folder / (peer.compiler + ".fsdb")).string();
      compare::ProcessSpec spec;
      spec.argv = {executable, "import", dump.path, "-o", target};
      // ONNX Runtime's optimized graph against the model it was given.
      if (dump.kind == "ort-optimized-model")
        spec.argv.insert(spec.argv.end(),
                         {"--optimized-from", fs::absolute(comparison.model).string()});
      // IREE's pass log with its dispatches' sources: each dispatch's stages in the Kernel view.
      for (const compare::PeerDump& other : peer.dumps)
        if (dump.kind == "mlir-log" && other.kind == "iree-executables")
          spec.argv.insert(spec.argv.end(), {"--iree-executables", other.path});
      spec.stdout_path = (folder / (peer.compiler + ".import.log")).string();
      spec.stderr_path = (folder / (peer.compiler + ".import.err")).string();
      spec.time_limit_s = 600;
      auto ran = compare::RunProcess(spec);
      if (ran.ok() && ran->exited_cleanly()) {
        recordings[peer.compiler] = target;
        std::cerr << "compare: " << peer.compiler << "'s passes (" << dump.kind << ") -> " << target
                  << '\n';
        break;
      }
      std::cerr << "compare: " << peer.compiler << "'s " << dump.kind << " was not imported: "
                << (ran.ok() ? ran->Describe() + ": " + compare::TailOfFile(spec.stderr_path, 1)
                             : ran.message())
                << '\n';
    }
  }
  return recordings;
}

// Our own compile of the model at the first shape, recorded pass by pass: the comparison's
// home file (the workbench opens it, with the comparison stored beside the snapshots).
Status RecordOurs(const ModelFacts& facts, const compare::ShapeChoice& shape,
                  const std::string& output, const std::string& executable,
                  const std::string& scratch) {
  compare::ProcessSpec spec;
  spec.argv = {executable, "compile", facts.path, "--pipeline", "cpu", "-o", output};
  for (const auto& [dim, size] : shape.dims) {
    spec.argv.push_back("--dim");
    spec.argv.push_back(dim + "=" + std::to_string(size));
  }
  spec.stdout_path = scratch + "/compile.log";
  spec.stderr_path = scratch + "/compile.err";
  auto ran = compare::RunProcess(spec);
  if (!ran.ok()) return ran.status();
  if (!ran->exited_cleanly())
    return Status::Error("our compile of the model " + ran->Describe() + ": " +
                         compare::TailOfFile(spec.stderr_path, 1));
  return Status::Ok();
}

Status WriteFile(const std::string& path, const std::string& text) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << text;
  file.close();
  if (!file) return Status::Error("cannot write " + path);
  return Status::Ok();
}

StatusOr<compare::ComparisonSpec> SpecFromArgs(const ParsedArgs& args, const ModelFacts& facts,
                                               const std::string& work) {
  compare::ComparisonSpec spec;
  spec.model_path = facts.path;
  spec.model_format = facts.format;
  spec.input_names = facts.input_names;
  spec.model_ops = facts.node_names;
  auto compilers = compare::ParseCompilerList(*args.Value("--compilers"));
  if (!compilers.ok()) return compilers.status();
  spec.compilers = *compilers;
  auto shapes = ChooseShapes(args, facts);
  if (!shapes.ok()) return shapes.status();
  spec.shapes = *shapes;
  spec.reps = *args.IntValue("--reps");
  spec.warmup = *args.IntValue("--warmup");
  spec.threads = *args.IntValue("--threads");
  spec.tvm_trials = *args.IntValue("--tvm-trials");
  spec.time_limit_s = static_cast<double>(*args.IntValue("--time-limit"));
  spec.seed = static_cast<uint64_t>(*args.IntValue("--seed"));
  spec.dump = !args.Has("--no-dump");
  spec.profile = !args.Has("--no-profile");
  spec.work_dir = work;
  spec.executable_path = ExecutablePath();
  const std::string path = facts.path;
  spec.load =
      [path](const std::map<std::string, int64_t>& dims) -> StatusOr<std::unique_ptr<ir::Module>> {
    ModelLoadOptions options;
    options.dimension_sizes = dims;
    auto loaded = LoadModel(path, std::nullopt, options);
    if (!loaded.ok()) return loaded.status();
    return std::move(loaded->module);
  };
  if (args.Has("--progress") || !args.Has("--json"))
    spec.progress = [](const std::string& line) { std::cerr << "compare: " << line << '\n'; };
  return spec;
}

// A scratch folder compare made for itself (no --work): removed when compare returns, unless
// `keep` (a compiler failed: its request, answer and log are what the user reads next).
struct OwnScratch {
  std::string path;
  bool keep = false;
  ~OwnScratch() {
    if (path.empty() || keep) return;
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
};

int RunCompare(const ParsedArgs& args) {
  std::string work = args.Value("--work").value_or("");
  OwnScratch own;
  if (work.empty()) {
    std::error_code no_temp;
    fs::path temp = fs::temp_directory_path(no_temp);  // $TMPDIR, else /tmp
    if (no_temp) temp = "/tmp";
    std::string pattern = (temp / "fusescope-compare-XXXXXX").string();
    if (!mkdtemp(pattern.data()))
      return Fail("compare: cannot make a scratch folder in " + temp.string());
    work = pattern;
    own.path = work;
  }
  std::error_code error;
  fs::create_directories(work, error);
  auto facts = InspectModel(args.positional()[0], work);
  if (!facts.ok()) return Fail("compare: " + facts.message());
  auto spec = SpecFromArgs(args, *facts, work);
  if (!spec.ok()) return Fail("compare: " + spec.message());
  auto comparison = compare::RunComparison(*spec);
  if (!comparison.ok()) return Fail("compare: " + comparison.message());
  for (const compare::PeerOutcome& peer : comparison->peers) {
    own.keep = own.keep || (peer.status != "ok" && peer.status != "not installed" &&
                            peer.status != "not applicable");
  }
  for (const compare::ComparisonRow& row : comparison->rows)
    own.keep = own.keep || !row.error.empty();
  if (std::optional<std::string> csv = args.Value("--csv")) {
    if (Status written = WriteFile(*csv, compare::FormatComparisonCsv(*comparison)); !written.ok())
      return Fail("compare: " + written.message());
  }
  if (std::optional<std::string> output = args.Value("-o")) {
    if (Status recorded =
            RecordOurs(*facts, spec->shapes.front(), *output, spec->executable_path, work);
        !recorded.ok())
      return Fail("compare: " + recorded.message());
    const auto recordings = ImportPeerDumps(*comparison, *output, spec->executable_path);
    auto stored = compare::AddComparison(*output, *comparison, recordings);
    if (!stored.ok()) return Fail("compare: " + stored.message());
  }
  if (args.Has("--json")) {
    std::cout << comparison->ToJson();
  } else {
    std::cout << compare::FormatComparisonText(*comparison)
              << compare::FormatOpsText(compare::FollowOps(*comparison), *comparison);
    if (own.path.empty() || own.keep)
      std::cout << "scratch (inputs, each compiler's request, answer, log and dumps): " << work
                << '\n';
    else
      std::cout << "scratch removed (no compiler failed); --work DIR keeps the inputs, each "
                   "compiler's request, answer, log and dumps\n";
  }
  return 0;
}

// ---- our adapter -------------------------------------------------------------------------

struct OursAtShape {
  std::unique_ptr<ir::Module> module;
  std::unique_ptr<runtime::CpuExecutable> executable;
};

StatusOr<OursAtShape> BuildOurs(const compare::PeerRequest& request,
                                const compare::RequestShape& shape) {
  ModelLoadOptions options;
  options.dimension_sizes = shape.dims;
  auto loaded = LoadModel(shape.model.empty() ? request.model : shape.model, std::nullopt, options);
  if (!loaded.ok()) return loaded.status();
  passes::PipelineOptions pipeline;
  pipeline.target = "cpu";
  auto compiled = recording::CompileAndRecord(*loaded->module, pipeline);
  if (!compiled.ok()) return compiled.status();
  if (compiled->snapshots.empty() || compiled->snapshots.back().broken())
    return Status::Error("the cpu pipeline did not produce a usable module");
  auto final_module = compiled->snapshots.back().ToModule();
  if (!final_module.ok()) return final_module.status();
  OursAtShape ours;
  ours.module = std::move(final_module).value();
  runtime::CpuExecutableOptions cpu;
  // Single-precision GEMMs, as every peer runs them (the default widens for exact checks).
  cpu.f32_dot_precision = runtime::BlasPrecision::kNative;
  auto executable = runtime::CpuExecutable::Compile(*ours.module, cpu);
  if (!executable.ok()) return executable.status();
  ours.executable = std::move(executable).value();
  return ours;
}

void AddKernels(const OursAtShape& ours, const std::string& shape,
                const std::vector<std::vector<double>>& kernel_seconds,
                compare::PeerResponse& response) {
  std::map<int64_t, const ir::Instruction*> by_id;
  for (const auto& instruction : ours.module->entry()->instructions())
    by_id[instruction->id()] = instruction.get();
  const auto& records = ours.executable->kernels();
  for (size_t k = 0; k < records.size() && k < kernel_seconds.size(); ++k) {
    if (kernel_seconds[k].empty()) continue;
    compare::PeerKernel kernel;
    kernel.variant = "ours";
    kernel.shape = shape;
    kernel.name = records[k].kernel;
    std::vector<double> sorted = kernel_seconds[k];
    std::sort(sorted.begin(), sorted.end());
    kernel.time_us = sorted[sorted.size() / 2] * 1e6;
    kernel.source = "our per-kernel clocks (median over the timed calls)";
    if (auto it = by_id.find(records[k].instruction_id); it != by_id.end())
      kernel.ops = compare::ModelOpsOf(*it->second);
    response.kernels.push_back(std::move(kernel));
  }
}

// One shape: build (timed, its memory peak), then the timed calls (their own peak).
void MeasureShape(const compare::PeerRequest& request, const compare::RequestShape& shape,
                  bool first, compare::PeerResponse& response) {
  compare::PeerBuild build;
  build.variant = "ours";
  build.shapes = {shape.name};
  compare::PeerRun run;
  run.variant = "ours";
  run.shape = shape.name;
  compare::ResetPeakResident();
  build.baseline_rss_bytes = compare::PeakResidentBytes();
  const auto started = std::chrono::steady_clock::now();
  auto ours = BuildOurs(request, shape);
  build.build_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  build.build_peak_rss_bytes = compare::PeakResidentBytes();
  if (!ours.ok()) {
    build.error = ours.message();
    response.builds.push_back(std::move(build));
    return;
  }
  response.builds.push_back(std::move(build));
  auto members = runtime::ReadNpzFile(shape.inputs);
  if (!members.ok()) {
    run.error = members.message();
    response.runs.push_back(std::move(run));
    return;
  }
  std::vector<runtime::Literal> inputs;
  for (auto& member : *members) inputs.push_back(std::move(member.value));
  compare::ResetPeakResident();
  StatusOr<runtime::Literal> result = Status::Error("no call was made");
  std::vector<std::vector<double>> kernel_seconds(ours->executable->kernels().size());
  for (int64_t call = 0; call < request.warmup + request.reps; ++call) {
    const auto begin = std::chrono::steady_clock::now();
    result = ours->executable->Run(inputs);
    const auto end = std::chrono::steady_clock::now();
    if (!result.ok()) break;
    if (call < request.warmup) continue;
    run.times_us.push_back(std::chrono::duration<double, std::micro>(end - begin).count());
    for (const runtime::KernelTiming& timing : ours->executable->last_timings())
      if (timing.kernel < kernel_seconds.size())
        kernel_seconds[timing.kernel].push_back(timing.seconds);
  }
  run.run_peak_rss_bytes = compare::PeakResidentBytes();
  if (!result.ok()) {
    run.error = result.message();
    run.times_us.clear();
    response.runs.push_back(std::move(run));
    return;
  }
  std::vector<runtime::NpzMember> outputs;
  std::vector<runtime::Literal> leaves;
  if (result->is_tuple())
    leaves = std::move(result->elements());
  else
    leaves.push_back(std::move(result).value());
  for (size_t i = 0; i < leaves.size(); ++i)
    outputs.push_back({"arr_" + std::to_string(i), std::move(leaves[i])});
  run.outputs = request.work_dir + "/" + shape.name + ".out.npz";
  if (Status written = runtime::WriteNpzFile(run.outputs, outputs); !written.ok()) {
    run.error = written.message();
    run.times_us.clear();
  }
  if (first && request.profile) AddKernels(*ours, shape.name, kernel_seconds, response);
  response.runs.push_back(std::move(run));
}

int RunComparePeer(const ParsedArgs&) {
  std::ostringstream text;
  text << std::cin.rdbuf();
  auto request = compare::PeerRequest::Parse(text.str());
  if (!request.ok()) return Fail("compare-peer: " + request.message());
  compare::PeerResponse response;
  response.compiler = "ours";
  response.versions["fusescope"] = kVersion;
  response.input_received =
      "the " + request->model_format +
      " file, read by our importer at each shape's sizes, "
      "compiled by our cpu pipeline to MLIR/LLVM kernels and OpenBLAS GEMMs (single precision)";
  response.dynamic_shapes = false;
  response.kernels_note = request->profile ? "" : "profiling was not asked for";
  for (size_t i = 0; i < request->shapes.size(); ++i)
    MeasureShape(*request, request->shapes[i], i == 0, response);
  std::cout << response.ToJson();
  return 0;
}

const compare::ComparisonSpec kDefaults;

const CommandRegistrar kCompare({
    .name = "compare",
    .summary = "the same model through several compilers, each in its own process: build time, "
               "latency p50/p95/p99, throughput, memory, accuracy against the f64 answer, ops "
               "followed into kernels",
    .positionals = {{"MODEL", "an ONNX, StableHLO (.mlir) or HLO text model"}},
    .flags =
        {
            Text("--compilers", "LIST", "the compilers, comma-separated")
                .Default("ours,xla,ort,tvm,iree,inductor,tensorrt"),
            Text("--batch", "LIST", "batch sizes (axis 0 of an input): 1,8,32"),
            Text("--seq", "LIST", "sequence lengths (axis 1 of an input): 32,64,128"),
            Text("--dim", "NAME=N,...", "sizes of a named symbolic dimension").Repeats(),
            Integer("--reps", "N", "timed runs per shape")
                .Default(std::to_string(kDefaults.reps))
                .AtLeast(1),
            Integer("--warmup", "N", "untimed runs first")
                .Default(std::to_string(kDefaults.warmup))
                .AtLeast(0),
            Integer("--threads", "N", "threads per compiler (0: its own choice)")
                .Default(std::to_string(kDefaults.threads))
                .AtLeast(0),
            Integer("--time-limit", "S", "seconds per compiler, all shapes together")
                .Default(std::to_string(static_cast<int64_t>(kDefaults.time_limit_s)))
                .AtLeast(1),
            Integer("--tvm-trials", "N", "TVM's tuning trials")
                .Default(std::to_string(kDefaults.tvm_trials))
                .AtLeast(0),
            Switch("--no-dump", "do not ask the compilers for their dumps"),
            Switch("--no-profile", "do not profile kernels"),
            SeedFlag(),
            Text("--work", "DIR",
                 "the scratch folder, kept (default: a new one in $TMPDIR or /tmp, removed "
                 "afterwards unless a compiler failed)"),
            Text("--csv", "OUT.csv", "also write the table as CSV"),
            JsonFlag(),
            Switch("--progress", "progress lines on stderr also with --json"),
            Text("-o", "CMP.fsdb",
                 "record our compile with the comparison and the peers' imported dumps"),
        },
    .run = RunCompare,
});

const CommandRegistrar kComparePeer({
    .name = "compare-peer",
    .summary = "our own adapter of the comparison protocol (compare/adapters/README.md)",
    .run = RunComparePeer,
    .standard_input = "REQUEST.json",
});

}  // namespace
}  // namespace fusescope::app
