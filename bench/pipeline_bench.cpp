// What recording every pass costs: a built-in pipeline over a generated module of about N
// instructions (default 10,000), run with and without the Recorder, each in its own child
// process so that peak RSS belongs to one run. Also saves and loads the recording.
//
//   pipeline_bench [--instructions N] [--pipeline cpu|gpu] [--repeat R]
//
// Times are CPU seconds of the run, steadier than wall time on a shared machine. Heap figures
// come from mallinfo2 (bytes in use); peak RSS is read right after the pipeline, before the
// store. "observed" runs the pipeline with an instrumentation that does nothing: the
// pipeline's own price for being watched (fingerprints, the copy kept for a reproducer),
// apart from what the Recorder adds.

#include <malloc.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ir/hlo_parser.h"
#include "ir/module.h"
#include "passes/pipeline.h"
#include "recording/recorder.h"
#include "recording/recording_store.h"

namespace fusescope {
namespace {

double CpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

int64_t PeakRss() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<int64_t>(usage.ru_maxrss) * 1024;
}

// Small blocks from the arenas plus large ones malloc maps directly.
int64_t HeapInUse() {
  struct mallinfo2 info = mallinfo2();
  return static_cast<int64_t>(info.uordblks + info.hblkhd);
}

// One layer of a small transformer-like block: matmul, bias, relu, softmax, residual, tanh.
// Constants are repeated per layer as frontends emit them, so CSE and folding have work.
constexpr int kInstructionsPerLayer = 21;

void AppendLayer(std::string& text, int layer, std::string& x) {
  const std::string i = std::to_string(layer);
  const std::string t = "f32[8,64]{1,0}";
  auto meta = [&](std::string_view op) {
    return ", metadata={op_type=\"" + std::string(op) + "\" op_name=\"block_" + i + "/" +
           std::string(op) +
           "\" source_file=\"model.py\" source_line=" + std::to_string(100 + layer) + "}\n";
  };
  text += "  w." + i + " = f32[64,64]{1,0} parameter(" + std::to_string(layer + 2) + ")\n";
  text += "  dot." + i + " = " + t + " dot(" + x + ", w." + i +
          "), lhs_contracting_dims={1}, rhs_contracting_dims={0}" + meta("MatMul");
  text += "  bb." + i + " = " + t + " broadcast(bias), dimensions={1}" + meta("BiasAdd");
  text += "  add." + i + " = " + t + " add(dot." + i + ", bb." + i + ")" + meta("BiasAdd");
  text += "  zero." + i + " = f32[] constant(0)\n";
  text += "  zb." + i + " = " + t + " broadcast(zero." + i + "), dimensions={}" + meta("Relu");
  text += "  relu." + i + " = " + t + " maximum(add." + i + ", zb." + i + ")" + meta("Relu");
  text += "  ninf." + i + " = f32[] constant(-inf)\n";
  text += "  rmax." + i + " = f32[8]{0} reduce(relu." + i + ", ninf." + i +
          "), dimensions={1}, to_apply=max_f32" + meta("Max");
  text += "  bmax." + i + " = " + t + " broadcast(rmax." + i + "), dimensions={0}" + meta("Sub");
  text += "  sub." + i + " = " + t + " subtract(relu." + i + ", bmax." + i + ")" + meta("Sub");
  text += "  exp." + i + " = " + t + " exponential(sub." + i + ")" + meta("Exp");
  text += "  zsum." + i + " = f32[] constant(0)\n";
  text += "  rsum." + i + " = f32[8]{0} reduce(exp." + i + ", zsum." + i +
          "), dimensions={1}, to_apply=add_f32" + meta("Sum");
  text += "  bsum." + i + " = " + t + " broadcast(rsum." + i + "), dimensions={0}" + meta("Div");
  text += "  div." + i + " = " + t + " divide(exp." + i + ", bsum." + i + ")" + meta("Div");
  text += "  res." + i + " = " + t + " multiply(div." + i + ", " + x + ")" + meta("Mul");
  text += "  tanh." + i + " = " + t + " tanh(res." + i + ")" + meta("Tanh");
  text += "  one." + i + " = f32[] constant(1)\n";
  text += "  bone." + i + " = " + t + " broadcast(one." + i + "), dimensions={}" + meta("Add");
  text += "  out." + i + " = " + t + " add(tanh." + i + ", bone." + i + ")" + meta("Add");
  x = "out." + i;
}

std::string GenerateModule(int64_t instructions) {
  const int layers = static_cast<int>(std::max<int64_t>(1, instructions / kInstructionsPerLayer));
  std::string text = "HloModule generated\n\n";
  text +=
      "max_f32 {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
      "  ROOT m = f32[] maximum(a, b)\n}\n\n";
  text +=
      "add_f32 {\n  c = f32[] parameter(0)\n  d = f32[] parameter(1)\n"
      "  ROOT s = f32[] add(c, d)\n}\n\n";
  text +=
      "ENTRY main {\n  input = f32[8,64]{1,0} parameter(0)\n"
      "  bias = f32[64]{0} parameter(1)\n";
  std::string x = "input";
  for (int layer = 0; layer < layers; ++layer) AppendLayer(text, layer, x);
  text += "  ROOT result = f32[8,64]{1,0} copy(" + x + ")\n}\n";
  return text;
}

// Figures one child process sends back through a pipe, hence plain data.
struct RunFigures {
  double parse_seconds = 0;
  double pipeline_seconds = 0;
  int64_t module_heap_bytes = 0;  // the parsed input module alone
  int64_t peak_rss = 0;           // right after the pipeline
  int64_t instructions_in = 0;
  int64_t instructions_out = 0;
  int64_t passes = 0;
  int64_t recording_heap_bytes = 0;  // held by the recording once the module is gone
  int64_t recording_estimate_bytes = 0;
  int64_t decisions = 0;
  int64_t decision_heap_bytes = 0;
  int64_t input_snapshot_bytes = 0;
  int64_t unique_records = 0;
  int64_t record_references = 0;
  double save_seconds = 0;
  double load_seconds = 0;
  int64_t file_bytes = 0;
  bool failed = false;
  char error[512] = {};
};

void Fail(RunFigures& figures, const std::string& message) {
  figures.failed = true;
  std::snprintf(figures.error, sizeof(figures.error), "%s", message.c_str());
}

void MeasureStore(const recording::Recording& recording, RunFigures& figures) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("pipeline_bench_" + std::to_string(getpid()) + ".fsdb"))
                               .string();
  double start = CpuSeconds();
  Status saved = recording::SaveRecording(recording, path);
  figures.save_seconds = CpuSeconds() - start;
  if (!saved.ok()) return Fail(figures, saved.message());
  figures.file_bytes = static_cast<int64_t>(std::filesystem::file_size(path));
  start = CpuSeconds();
  StatusOr<recording::Recording> loaded = recording::LoadRecording(path);
  figures.load_seconds = CpuSeconds() - start;
  std::filesystem::remove(path);
  if (!loaded.ok()) Fail(figures, loaded.message());
}

void MeasureRecording(recording::Recording recording, int64_t heap_at_start, RunFigures& figures) {
  figures.recording_heap_bytes = HeapInUse() - heap_at_start;
  recording::RecordingFootprint footprint = recording.Footprint();
  figures.recording_estimate_bytes = footprint.bytes;
  figures.unique_records = footprint.unique_instruction_records;
  figures.record_references = footprint.instruction_references;
  recording::Recording input_only;
  input_only.snapshots.push_back(recording.input());
  figures.input_snapshot_bytes = input_only.Footprint().bytes;
  MeasureStore(recording, figures);
  // Decisions are the passes' own records, kept as they come; shown apart from the
  // snapshots, which are what sharing keeps small.
  figures.decisions = static_cast<int64_t>(recording.decisions.size());
  const int64_t with_decisions = HeapInUse();
  std::vector<passes::FusionDecisionRecord>().swap(recording.decisions);
  figures.decision_heap_bytes = with_decisions - HeapInUse();
}

enum class Watch { kNone, kObserved, kRecorded };

void RunOnce(const std::string& text, const std::string& target, Watch watch, RunFigures& figures) {
  const int64_t heap_at_start = HeapInUse();
  double start = CpuSeconds();
  StatusOr<std::unique_ptr<ir::Module>> module = ir::ParseHloModule(text, "generated.hlo");
  figures.parse_seconds = CpuSeconds() - start;
  if (!module.ok()) return Fail(figures, module.message());
  figures.module_heap_bytes = HeapInUse() - heap_at_start;
  figures.instructions_in = (*module)->instruction_count();

  passes::PipelineOptions options;
  options.target = target;
  StatusOr<std::unique_ptr<passes::Pipeline>> pipeline = passes::MakeBuiltinPipeline(options);
  if (!pipeline.ok()) return Fail(figures, pipeline.message());
  auto recorder = std::make_unique<recording::Recorder>(**pipeline);
  passes::PassInstrumentation bystander;
  if (watch == Watch::kRecorded) (*pipeline)->AddInstrumentation(recorder.get());
  if (watch == Watch::kObserved) (*pipeline)->AddInstrumentation(&bystander);
  start = CpuSeconds();
  Status status = (*pipeline)->Run(**module);
  figures.pipeline_seconds = CpuSeconds() - start;
  figures.peak_rss = PeakRss();
  if (!status.ok()) return Fail(figures, status.message());
  figures.instructions_out = (*module)->instruction_count();
  figures.passes = static_cast<int64_t>((*pipeline)->passes().size());
  if (watch != Watch::kRecorded) return;

  recording::Recording recording = recorder->TakeRecording();
  recorder.reset();
  pipeline->reset();
  module->reset();
  MeasureRecording(std::move(recording), heap_at_start, figures);
}

// Runs `body` in a child, so that each run's peak RSS is its own.
bool InChild(const std::function<void(RunFigures&)>& body, RunFigures& figures) {
  int fds[2];
  if (pipe(fds) != 0) return false;
  pid_t child = fork();
  if (child == 0) {
    close(fds[0]);
    RunFigures out;
    body(out);
    ssize_t written = write(fds[1], &out, sizeof(out));
    _exit(written == static_cast<ssize_t>(sizeof(out)) ? 0 : 1);
  }
  close(fds[1]);
  ssize_t got = read(fds[0], &figures, sizeof(figures));
  close(fds[0]);
  int status = 0;
  waitpid(child, &status, 0);
  return got == static_cast<ssize_t>(sizeof(figures)) && WIFEXITED(status) &&
         WEXITSTATUS(status) == 0;
}

double Mb(int64_t bytes) { return static_cast<double>(bytes) / (1024.0 * 1024.0); }

struct Options {
  int64_t instructions = 10000;
  std::string pipeline = "cpu";
  int repeat = 3;
};

Options ParseArgs(int argc, char** argv) {
  Options options;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string_view flag = argv[i];
    if (flag == "--instructions") options.instructions = std::atoll(argv[i + 1]);
    if (flag == "--pipeline") options.pipeline = argv[i + 1];
    if (flag == "--repeat") options.repeat = std::max(1, std::atoi(argv[i + 1]));
  }
  return options;
}

// The fastest of `repeat` runs: the least disturbed by other work on the machine.
bool Best(const std::string& text, const Options& options, Watch watch, RunFigures& best) {
  for (int r = 0; r < options.repeat; ++r) {
    RunFigures figures;
    auto body = [&](RunFigures& out) { RunOnce(text, options.pipeline, watch, out); };
    if (!InChild(body, figures) || figures.failed) {
      std::fprintf(stderr, "pipeline_bench: run failed: %s\n", figures.error);
      return false;
    }
    if (r == 0 || figures.pipeline_seconds < best.pipeline_seconds) best = figures;
  }
  return true;
}

double Ratio(double a, double b) { return b > 0 ? a / b : 0; }

void ReportRuns(const RunFigures& off, const RunFigures& observed, const RunFigures& on) {
  std::printf("  parse                     %8.3f s, input module heap %.2f MB\n", on.parse_seconds,
              Mb(on.module_heap_bytes));
  std::printf("  pipeline, unobserved      %8.3f s, peak RSS %7.2f MB\n", off.pipeline_seconds,
              Mb(off.peak_rss));
  std::printf("  pipeline, observed        %8.3f s, peak RSS %7.2f MB\n", observed.pipeline_seconds,
              Mb(observed.peak_rss));
  std::printf("  pipeline, recorded        %8.3f s, peak RSS %7.2f MB\n", on.pipeline_seconds,
              Mb(on.peak_rss));
  std::printf("  time recorded/unobserved  %8.2f x (recorded/observed %.2f x)\n",
              Ratio(on.pipeline_seconds, off.pipeline_seconds),
              Ratio(on.pipeline_seconds, observed.pipeline_seconds));
}

void ReportRecording(const RunFigures& on) {
  const int64_t later_snapshots = on.passes;
  std::printf("  recording heap            %8.2f MB = %.2f x the input module (estimate %.2f MB)\n",
              Mb(on.recording_heap_bytes),
              Ratio(static_cast<double>(on.recording_heap_bytes),
                    static_cast<double>(on.module_heap_bytes)),
              Mb(on.recording_estimate_bytes));
  const int64_t without_decisions = on.recording_heap_bytes - on.decision_heap_bytes;
  std::printf("  of which fusion decisions %8.2f MB (%lld decisions)\n", Mb(on.decision_heap_bytes),
              static_cast<long long>(on.decisions));
  std::printf(
      "  without the decisions     %8.2f MB = %.2f x the input module\n", Mb(without_decisions),
      Ratio(static_cast<double>(without_decisions), static_cast<double>(on.module_heap_bytes)));
  std::printf("  input snapshot            %8.2f MB\n", Mb(on.input_snapshot_bytes));
  std::printf("  per later snapshot        %8.1f KB (%lld of them)\n",
              Ratio(static_cast<double>(on.recording_estimate_bytes - on.input_snapshot_bytes),
                    static_cast<double>(later_snapshots)) /
                  1024.0,
              static_cast<long long>(later_snapshots));
  std::printf("  instruction records       %8lld unique of %lld referenced (%.1f%% shared)\n",
              static_cast<long long>(on.unique_records),
              static_cast<long long>(on.record_references),
              100.0 * (1.0 - Ratio(static_cast<double>(on.unique_records),
                                   static_cast<double>(on.record_references))));
  std::printf("  .fsdb save %.3f s, load %.3f s, file %.2f MB\n", on.save_seconds, on.load_seconds,
              Mb(on.file_bytes));
}

}  // namespace
}  // namespace fusescope

int main(int argc, char** argv) {
  using namespace fusescope;
  const Options options = ParseArgs(argc, argv);
  const std::string text = GenerateModule(options.instructions);
  RunFigures off, observed, on;
  if (!Best(text, options, Watch::kNone, off) || !Best(text, options, Watch::kObserved, observed) ||
      !Best(text, options, Watch::kRecorded, on)) {
    return 1;
  }
  std::printf("pipeline %s, %lld instructions in, %lld out, %lld passes\n",
              options.pipeline.c_str(), static_cast<long long>(on.instructions_in),
              static_cast<long long>(on.instructions_out), static_cast<long long>(on.passes));
  ReportRuns(off, observed, on);
  ReportRecording(on);
  return 0;
}
