// `fusescope compile MODEL [--pipeline cpu|gpu] -o RUN.fsdb [pipeline flags] [--json]
// [--progress] [--source-name NAME]`: runs a built-in pipeline with every pass recorded, and
// saves the recording. The workbench runs this command as its worker process; --progress
// tells it which pass is running. `fusescope compile --list-options` lists what --set takes.

#include <sys/resource.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <new>
#include <thread>
#include <vector>

#include "app/cli/command.h"
#include "app/cli/common_flags.h"
#include "app/cli/model_loader.h"
#include "app/cli/pipeline_flags.h"
#include "ir/json_writer.h"
#include "passes/pipeline.h"
#include "recording/compile_and_record.h"
#include "recording/operation_counts.h"
#include "recording/recording_store.h"

namespace fusescope::app {
namespace {

// Unknown pass names in --disable-pass / --stop-after are mistakes, not no-ops. Returns the
// number of passes in the pipeline.
StatusOr<size_t> CheckPassNames(const passes::PipelineOptions& options) {
  auto pipeline = passes::MakeBuiltinPipeline(options);
  if (!pipeline.ok()) return pipeline.status();
  std::set<std::string> names;
  for (const auto& pass : (*pipeline)->passes()) names.insert(std::string(pass->name()));
  std::string known;
  for (const std::string& name : names) known += (known.empty() ? "" : ", ") + name;
  for (const std::string& name : options.disabled_passes) {
    if (!names.count(name)) return Status::Error("no pass named '" + name + "' (" + known + ")");
  }
  if (!options.stop_after.empty() && !names.count(options.stop_after)) {
    return Status::Error("no pass named '" + options.stop_after + "' (" + known + ")");
  }
  return (*pipeline)->passes().size();
}

// Faults on purpose, for the tests of the workbench's worker handling: the environment
// names the pass at whose start this process crashes for real (SIGSEGV), hangs (also deaf
// to SIGTERM, so that only SIGKILL ends it), or allocates without bound. Deliberately not
// in the usage line.
void InjectTestFault(const std::string& pass) {
  auto named = [&pass](const char* variable) {
    const char* value = std::getenv(variable);
    return value && pass == value;
  };
  if (named("FUSESCOPE_TEST_CRASH_IN_PASS")) std::raise(SIGSEGV);
  if (named("FUSESCOPE_TEST_HANG_IN_PASS") || named("FUSESCOPE_TEST_DEAF_HANG_IN_PASS")) {
    if (named("FUSESCOPE_TEST_DEAF_HANG_IN_PASS")) std::signal(SIGTERM, SIG_IGN);
    for (;;) pause();
  }
  if (named("FUSESCOPE_TEST_EXHAUST_MEMORY_IN_PASS")) {
    // Only under an address-space limit: the allocations then fail in this process long
    // before the machine runs short. The memory is never touched.
    rlimit limit{};
    if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) {
      std::cerr << "FUSESCOPE_TEST_EXHAUST_MEMORY_IN_PASS needs an address-space limit\n";
      std::exit(kExitUsage);
    }
    static std::vector<char*> hoard;
    try {
      for (;;) hoard.push_back(new char[size_t{16} << 20]);
    } catch (const std::bad_alloc&) {
      // What a library's late helper thread does at this point, made certain: OpenBLAS's
      // server threads start on first use and loop in their first buffer allocation until
      // it succeeds, and its exit handler joins them. Here a thread waits for 64 MiB that
      // never come back and a static object joins it on exit, so a process that ran its
      // exit handlers after running out of memory would never end.
      delete[] hoard.back();  // room for the thread's stack
      hoard.pop_back();
      struct LateHelper {
        std::thread thread{[] {
          void* block = nullptr;
          while ((block = std::malloc(size_t{64} << 20)) == nullptr) usleep(1000);
          std::free(block);
        }};
        ~LateHelper() { thread.join(); }
      };
      static LateHelper helper;
      throw;
    }
  }
}

// Observes the run: with --progress, one line per pass as it starts, on stderr and flushed,
// "progress: pass INDEX/TOTAL NAME" (INDEX numbered from 0 as `fusescope passes` lists
// them). A process that dies mid-pass has then already said which pass it was in.
class PassProgress : public passes::PassInstrumentation {
 public:
  PassProgress(bool print, size_t total) : print_(print), total_(total) {}
  void BeforePass(const passes::PassRunInfo& info, const ir::Module&) override {
    if (print_) {
      std::cerr << "progress: pass " << info.index << '/' << total_ << ' ' << info.name
                << std::endl;
    }
    InjectTestFault(info.name);
  }

 private:
  bool print_;
  size_t total_;
};

struct CompileSummary {
  int64_t passes_run = 0;
  int64_t passes_changed = 0;
  int64_t accepted = 0;
  int64_t refused = 0;
  int64_t fusions = 0;
};

CompileSummary Summarize(const recording::Recording& recording) {
  CompileSummary summary;
  for (const auto& pass : recording.passes) {
    if (!pass.skipped) ++summary.passes_run;
    if (pass.changed) ++summary.passes_changed;
  }
  for (const auto& decision : recording.decisions) {
    ++(decision.accepted() ? summary.accepted : summary.refused);
  }
  for (const auto& computation : recording.snapshots.back().computations()) {
    for (const auto& instruction : computation->instructions) {
      if (instruction->opcode == "fusion") ++summary.fusions;
    }
  }
  return summary;
}

void PrintSummary(const recording::Recording& recording, const std::string& output, bool json) {
  const CompileSummary summary = Summarize(recording);
  // Counted as `passes` counts: operations outside fusion bodies, and what the fusions hold.
  const recording::OperationCounts before = recording::CountOperations(recording.input());
  const recording::OperationCounts after = recording::CountOperations(recording.snapshots.back());
  if (json) {
    JsonWriter out;
    out.BeginObject();
    out.Key("recording").String(output);
    out.Key("model").String(recording.model_name);
    out.Key("pipeline").String(recording.pipeline_name);
    out.Key("passes").Int(static_cast<int64_t>(recording.passes.size()));
    out.Key("passes_run").Int(summary.passes_run);
    out.Key("passes_changed").Int(summary.passes_changed);
    out.Key("operations_before").Int(before.operations);
    out.Key("operations_after").Int(after.operations);
    out.Key("fused_instructions_after").Int(after.fused_instructions);
    out.Key("instructions_before").Int(before.instructions());
    out.Key("instructions_after").Int(after.instructions());
    out.Key("fusions").Int(summary.fusions);
    out.Key("decisions_accepted").Int(summary.accepted);
    out.Key("decisions_refused").Int(summary.refused);
    out.Key("seconds").Double(recording.total_seconds);
    out.Key("failed").Bool(recording.failed());
    out.EndObject();
    std::cout << out.str() << '\n';
    return;
  }
  std::cout << "compiled " << recording.model_name << " with the " << recording.pipeline_name
            << " pipeline -> " << output << '\n'
            << "  passes:       " << summary.passes_run << " run, " << summary.passes_changed
            << " changed the module\n"
            << "  operations:   " << recording::DescribeCounts(before, after) << '\n'
            << "  fusions:      " << summary.fusions << " (" << summary.accepted
            << " fusion decisions accepted, " << summary.refused << " refused)\n"
            << "  time:         " << std::fixed << std::setprecision(3) << recording.total_seconds
            << " s\n";
}

int RunCompile(const ParsedArgs& args) {
  if (args.Has("--list-options")) {
    PrintPipelineOptions(std::cout, args.Has("--json"));
    return 0;
  }
  auto options = PipelineOptionsFromArgs(args);
  if (!options.ok()) return Fail(options.message());
  StatusOr<size_t> pass_count = CheckPassNames(*options);
  if (!pass_count.ok()) return Fail(pass_count.message());
  auto load_options = ModelLoadOptionsFromDims(args.Values("--dim"));
  if (!load_options.ok()) return Fail(load_options.message());
  auto model = ReadModelText(args.positional()[0], *load_options);
  if (!model.ok()) return Fail(model.message());
  PassProgress progress(args.Has("--progress"), *pass_count);
  const std::string source = args.Value("--source-name").value_or(model->display_name);
  auto recording =
      model->module
          ? recording::CompileAndRecord(*model->module, *options, source, model->text, &progress)
          : recording::CompileAndRecord(model->text, *options, source, &progress);
  if (!recording.ok()) return Fail(recording.message());
  const std::string output = *args.Value("-o");
  if (Status saved = recording::SaveRecording(*recording, output); !saved.ok()) {
    return Fail(saved.message());
  }
  if (recording->failed()) {
    const auto& reproducer = *recording->reproducer;
    return Fail("pass " + reproducer.pass_name + " (#" + std::to_string(reproducer.pass_index) +
                ") failed: " + reproducer.error + " (recorded in " + output + ")");
  }
  PrintSummary(*recording, output, args.Has("--json"));
  return 0;
}

const CommandRegistrar kRegistrar({
    .name = "compile",
    .summary = "run a built-in pipeline, recording every pass; --set changes one of the options "
               "that --list-options lists",
    .positionals = {{"MODEL", "a model (HLO text, ONNX, .mlir, a compiler's dump) or sample:NAME"}},
    .flags = Concat({Text("-o", "RUN.fsdb", "the recording to write").Required()},
                    Concat(PipelineFlags(),
                           {
                               JsonFlag(),
                               ProgressFlag(),
                               Text("--source-name", "NAME",
                                    "the model's name in the recording (default: the file's)"),
                               DimFlag(),
                               Switch("--list-options",
                                      "instead of compiling: every option --set takes, with its "
                                      "default and meaning")
                                   .Mode(),
                           })),
    .run = RunCompile,
    .runs_kernels = false,
});

}  // namespace
}  // namespace fusescope::app
