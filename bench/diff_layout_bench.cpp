// Costs of the graph diff and of Graphviz layout at scale, next to plain `dot`.
//
//   diff_layout_bench [--sizes 1000,5000,20000] [--diff-size 10000] [--diff-runs 5]
//                     [--dot-timeout 60] [--first-picture 3500,100000] [--no-dot]
//
// Modules are generated: layers of a transformer-like block (dot, bias, relu, softmax,
// residual) whose instructions carry jax-style op_name scopes ("jit(model)/block_7/exp").
//  - diff: our CPU pipeline compiles a module of --diff-size instructions with recording; the
//    snapshots around its fusion pass are rebuilt and diffed (ids and provenance), and diffed
//    again as unrelated modules (names and structure only); each diff --diff-runs times, the
//    first run and the best one reported.
//  - layout: per size, the first picture (boxes collapsed, expanded breadth-first up to 150
//    visible nodes), everything expanded, and everything expanded again from the layout cache;
//    then `dot -Tplain` on the same flat instruction graph written as DOT, allowed
//    --dot-timeout CPU seconds.
//  - first picture: from a parsed module to a finished layout (display graph + layout).
// Times are CPU seconds (of this process, or of the `dot` child), steadier than wall time on a
// shared machine, on a fresh layout cache unless marked cached; the first-picture lines also
// give wall seconds.

#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "bench/generated_module.h"
#include "ir/graph_diff.h"
#include "ir/hlo_parser.h"
#include "recording/compile_and_record.h"
#include "views/display_graph.h"
#include "views/dot_writer.h"
#include "views/graph_layout.h"
#include "views/graphviz_engine.h"
#include "views/layout_cache.h"
#include "views/pass_diff.h"

namespace fusescope {
namespace {

constexpr int kFirstPictureBudget = 150;

double CpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

// CPU seconds of this process (steadier than wall time on a shared machine); the wall time
// goes to `wall` when given.
double Seconds(const std::function<void()>& work, double* wall = nullptr) {
  auto start = std::chrono::steady_clock::now();
  double cpu = CpuSeconds();
  work();
  cpu = CpuSeconds() - cpu;
  if (wall != nullptr) {
    *wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  return cpu;
}

double ChildCpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_CHILDREN, &usage);
  auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6;
  };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

std::unique_ptr<ir::Module> Parse(const std::string& text) {
  StatusOr<std::unique_ptr<ir::Module>> module = ir::ParseHloModule(text);
  if (!module.ok()) {
    std::fprintf(stderr, "generated module does not parse: %s\n", module.message().c_str());
    std::exit(1);
  }
  return std::move(module).value();
}

// Lays out on a fresh cache (or the given one) and reports the time; exits on error.
double TimedLayout(const views::DisplayGraph& graph, views::LayoutCache& cache, int* calls,
                   bool use_cache = true) {
  views::LayoutOptions options;
  options.cache = &cache;
  options.use_cache = use_cache;
  StatusOr<views::GraphLayout> layout = views::GraphLayout{};
  double seconds = Seconds([&] { layout = views::LayoutGraph(graph, options); });
  if (!layout.ok()) {
    std::fprintf(stderr, "layout failed: %s\n", layout.message().c_str());
    std::exit(1);
  }
  if (calls != nullptr) *calls = layout->graphviz_calls();
  return seconds;
}

// Runs `dot -Tplain` on `path` in a child process and returns its CPU seconds; negative when
// it ran out of its `limit` CPU seconds (or failed). The limit is on CPU time, like the
// figures, so a busy machine does not cut it short; a wall-clock limit of ten times as much
// guards against a stuck child.
double PlainDot(const std::string& path, int limit) {
  std::string command = "timeout " + std::to_string(10 * limit) + " bash -c 'ulimit -t " +
                        std::to_string(limit) + "; exec dot -Tplain " + path + "' > /dev/null 2>&1";
  double before = ChildCpuSeconds();
  int status = std::system(command.c_str());
  double cpu = ChildCpuSeconds() - before;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? cpu : -1;
}

struct DiffTimes {
  double first = 0;
  double best = 0;
};

DiffTimes TimeDiff(int runs, const std::function<void()>& diff) {
  DiffTimes times;
  times.first = times.best = Seconds(diff);
  for (int run = 1; run < runs; ++run) times.best = std::min(times.best, Seconds(diff));
  return times;
}

void DiffSection(int size, int runs) {
  std::printf("== diff of two %d-instruction snapshots (fusion pass of the cpu pipeline)\n", size);
  std::string text = bench::GeneratedModule(size);
  StatusOr<recording::Recording> run = recording::Recording{};
  double compile = Seconds(
      [&] { run = recording::CompileAndRecord(text, passes::PipelineOptions{}, "generated"); });
  if (!run.ok()) {
    std::fprintf(stderr, "compile failed: %s\n", run.message().c_str());
    std::exit(1);
  }
  int64_t pass = -1;
  for (const recording::PassRecord& record : run->passes) {
    if (pass < 0 && record.changed && record.name.find("fusion") != std::string::npos) {
      pass = record.index;
    }
  }
  if (pass < 0) {
    std::printf("  no fusion pass changed the module\n");
    return;
  }
  std::unique_ptr<ir::Module> before;
  std::unique_ptr<ir::Module> after;
  double rebuild = Seconds([&] {
    before = std::move(run->SnapshotBefore(pass)->ToModule()).value();
    after = std::move(run->SnapshotAfter(pass)->ToModule()).value();
  });
  std::unique_ptr<ir::GraphDiff> diff;
  DiffTimes by_ids = TimeDiff(runs, [&] {
    diff = std::make_unique<ir::GraphDiff>(ir::GraphDiff::Compute(*before, *after));
  });
  std::unique_ptr<ir::GraphDiff> unrelated;
  DiffTimes by_structure = TimeDiff(runs, [&] {
    unrelated = std::make_unique<ir::GraphDiff>(
        ir::GraphDiff::Compute(*before, *after, ir::DiffOptions::Unrelated()));
  });
  std::printf("  compile and record (not part of the diff): %.2f s\n", compile);
  std::printf("  pass #%lld %s: %lld -> %lld instructions\n", static_cast<long long>(pass),
              run->passes[static_cast<size_t>(pass)].name.c_str(),
              static_cast<long long>(before->instruction_count()),
              static_cast<long long>(after->instruction_count()));
  std::printf("  rebuild both snapshots:          %.3f s\n", rebuild);
  std::printf("  diff by ids and provenance:      %.3f s first, %.3f s best of %d  (%s)\n",
              by_ids.first, by_ids.best, runs, diff->CountsLine().c_str());
  std::printf("  diff by names and structure:     %.3f s first, %.3f s best of %d  (%s)\n",
              by_structure.first, by_structure.best, runs, unrelated->CountsLine().c_str());
  std::printf("  fusion groups: %zu by ids, %zu by structure\n", diff->fusion_groups().size(),
              unrelated->fusion_groups().size());
}

void LayoutSection(int size, int dot_timeout, bool run_dot) {
  std::unique_ptr<ir::Module> module = Parse(bench::GeneratedModule(size));
  views::DisplayGraph graph;
  double build = Seconds([&] { graph = views::DisplayGraph::Build(*module); });
  std::printf("== layout, %lld instructions (%lld instruction nodes, %zu edges)\n",
              static_cast<long long>(module->instruction_count()),
              static_cast<long long>(graph.instruction_node_count()), graph.edges().size());
  std::printf("  display graph:                   %.3f s\n", build);

  graph.ExpandToBudget(kFirstPictureBudget);
  int calls = 0;
  views::LayoutCache collapsed_cache;
  double collapsed = TimedLayout(graph, collapsed_cache, &calls);
  std::printf("  collapsed (%lld visible):        %.3f s  (%d dot pieces)\n",
              static_cast<long long>(graph.VisibleNodeCount()), collapsed, calls);

  graph.ExpandAll();
  views::LayoutCache expanded_cache;
  double expanded = TimedLayout(graph, expanded_cache, &calls);
  std::printf("  expanded (%lld visible):         %.3f s  (%d dot pieces)\n",
              static_cast<long long>(graph.VisibleNodeCount()), expanded, calls);
  double cached = TimedLayout(graph, expanded_cache, &calls);
  std::printf("  expanded again, cached:          %.3f s  (%d dot pieces)\n", cached, calls);
  // Equal blocks share piece layouts within one run; without the cache every piece is laid
  // out.
  double uncached = TimedLayout(graph, expanded_cache, &calls, false);
  std::printf("  expanded, cache off:             %.3f s  (%d dot pieces)\n", uncached, calls);

  if (!run_dot) return;
  views::DotOptions flat;
  flat.flat = true;
  std::string path = (std::filesystem::temp_directory_path() /
                      ("diff_layout_bench_" + std::to_string(size) + ".dot"))
                         .string();
  std::ofstream(path) << views::DotWriter::Write(graph, flat);
  double plain = PlainDot(path, dot_timeout);
  if (plain < 0) {
    std::printf("  dot -Tplain, same flat graph:    did not finish in %d s (CPU)\n", dot_timeout);
  } else {
    std::printf("  dot -Tplain, same flat graph:    %.3f s\n", plain);
  }
  std::filesystem::remove(path);
}

void FirstPictureSection(int size) {
  std::string text = bench::GeneratedModule(size);
  std::unique_ptr<ir::Module> module;
  double parse = Seconds([&] { module = Parse(text); });
  views::LayoutCache cache;
  int calls = 0;
  double wall = 0;
  int64_t visible = 0;
  double picture = Seconds(
      [&] {
        views::DisplayGraph graph = views::DisplayGraph::Build(*module);
        graph.ExpandToBudget(kFirstPictureBudget);
        visible = graph.VisibleNodeCount();
        TimedLayout(graph, cache, &calls);
      },
      &wall);
  std::printf(
      "== first picture, %lld instructions: %.3f s CPU, %.3f s wall (display graph + layout, "
      "%lld visible, %d dot pieces); parsing took %.3f s\n",
      static_cast<long long>(module->instruction_count()), picture, wall,
      static_cast<long long>(visible), calls, parse);
}

std::vector<int> ParseList(const std::string& text) {
  std::vector<int> values;
  std::stringstream stream(text);
  std::string item;
  while (std::getline(stream, item, ',')) values.push_back(std::stoi(item));
  return values;
}

int Main(int argc, char** argv) {
  // Each figure shows as soon as it is measured, also when the output goes to a file.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  std::vector<int> sizes = {1000, 5000, 20000};
  std::vector<int> first_pictures = {3500, 100000};
  int diff_size = 10000;
  int diff_runs = 5;
  int dot_timeout = 60;
  bool run_dot = true;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    bool has_value = i + 1 < argc;
    if (arg == "--sizes" && has_value) {
      sizes = ParseList(argv[++i]);
    } else if (arg == "--first-picture" && has_value) {
      first_pictures = ParseList(argv[++i]);
    } else if (arg == "--diff-size" && has_value) {
      diff_size = std::stoi(argv[++i]);
    } else if (arg == "--diff-runs" && has_value) {
      diff_runs = std::max(1, std::stoi(argv[++i]));
    } else if (arg == "--dot-timeout" && has_value) {
      dot_timeout = std::stoi(argv[++i]);
    } else if (arg == "--no-dot") {
      run_dot = false;
    } else {
      std::fprintf(stderr,
                   "usage: diff_layout_bench [--sizes A,B,..] [--diff-size N] [--diff-runs R] "
                   "[--dot-timeout S] [--first-picture A,B,..] [--no-dot]\n");
      return 2;
    }
  }
  if (diff_size > 0) DiffSection(diff_size, diff_runs);
  for (int size : sizes) LayoutSection(size, dot_timeout, run_dot);
  for (int size : first_pictures) FirstPictureSection(size);
  return 0;
}

}  // namespace
}  // namespace fusescope

int main(int argc, char** argv) { return fusescope::Main(argc, argv); }
