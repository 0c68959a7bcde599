// `fusescope kernel RUN.fsdb [FUSION] [--pass N] [--stage NAME | --asm | --llvm | --diff STAGE]
// [--list] [--json]`: the kernel level of a recording (recording/kernel_store.h). Without
// FUSION, the kernels of the compiled snapshot; with it, the kernel's lowering timeline (each
// stage's lines and how many lines it changed against the stage before), one stage's text,
// or one stage as a unified diff against the one before (--ignore-indentation: lines that
// differ only in leading whitespace are kept, for reading; such a diff does not patch).

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <set>

#include "app/cli/command.h"
#include "app/cli/common_flags.h"
#include "ir/json_writer.h"
#include "recording/kernel_store.h"
#include "views/kernel_timeline.h"

namespace fusescope::app {
namespace {

using recording::KernelRecord;
using recording::KernelSummary;

std::string Join(const std::vector<std::string>& items) {
  std::string text;
  for (const std::string& item : items) text += (text.empty() ? "" : ", ") + item;
  return text;
}

std::string Where(int snapshot) {
  return snapshot == 0 ? std::string("the input")
                       : "the graph after pass " + std::to_string(snapshot - 1);
}

std::string NoKernels(const std::string& path) {
  return path + ": no kernels in this recording: compile and store them with `fusescope profile " +
         path + " --device cpu --save`";
}

void PrintList(const std::vector<KernelSummary>& kernels, int snapshot, bool as_json) {
  if (as_json) {
    JsonWriter json;
    json.BeginObject();
    json.Key("snapshot").Int(snapshot);
    json.Key("kernels").BeginArray();
    for (const KernelSummary& kernel : kernels) {
      json.BeginObject();
      json.Key("name").String(kernel.kernel);
      json.Key("instruction_id").Int(kernel.instruction_id);
      json.Key("backend").String(kernel.backend);
      json.Key("options").String(kernel.options);
      json.Key("stages").BeginArray();
      for (const auto& stage : kernel.stages) {
        json.BeginObject();
        json.Key("name").String(stage.name);
        json.Key("lines").Int(stage.lines);
        json.Key("bytes").Int(stage.bytes);
        json.EndObject();
      }
      json.EndArray();
      json.Key("failed_stage").String(kernel.failed_stage);
      json.Key("error").String(kernel.error);
      json.Key("note").String(kernel.note);
      json.Key("compile_ms").Double(kernel.compile_seconds * 1e3);
      json.EndObject();
    }
    json.EndArray();
    json.EndObject();
    std::cout << json.str() << '\n';
    return;
  }
  std::printf("%zu kernel(s) of %s (snapshot %d)\n\n", kernels.size(), Where(snapshot).c_str(),
              snapshot);
  std::printf("%-32s %-9s %6s  %-18s %10s  %s\n", "kernel", "backend", "stages", "failed stage",
              "compile ms", "options; note");
  for (const KernelSummary& kernel : kernels) {
    std::string extra = kernel.options;
    if (!kernel.note.empty()) extra += (extra.empty() ? "" : "; ") + kernel.note;
    std::printf("%-32s %-9s %6zu  %-18s %10.2f  %s\n", kernel.kernel.c_str(),
                kernel.backend.c_str(), kernel.stages.size(),
                kernel.failed_stage.empty() ? "-" : kernel.failed_stage.c_str(),
                kernel.compile_seconds * 1e3, extra.c_str());
  }
}

void PrintTimeline(const views::KernelTimeline& timeline, bool as_json) {
  const KernelRecord& kernel = timeline.kernel();
  const std::vector<views::KernelTimelineStage>& rows = timeline.stages();
  if (as_json) {
    JsonWriter json;
    json.BeginObject();
    json.Key("name").String(kernel.kernel);
    json.Key("snapshot").Int(kernel.snapshot);
    json.Key("instruction_id").Int(kernel.instruction_id);
    json.Key("backend").String(kernel.backend);
    json.Key("options").String(kernel.options);
    json.Key("compile_ms").Double(kernel.compile_seconds * 1e3);
    json.Key("note").String(kernel.note);
    json.Key("failed_stage").String(kernel.failed_stage);
    json.Key("error").String(kernel.error);
    json.Key("stages").BeginArray();
    for (size_t i = 0; i < rows.size(); ++i) {
      json.BeginObject();
      json.Key("name").String(rows[i].name);
      json.Key("lines").Int(rows[i].lines);
      json.Key("bytes").Int(rows[i].bytes);
      json.Key("added").Int(rows[i].counts.added);
      json.Key("removed").Int(rows[i].counts.removed);
      json.Key("changed").Bool(rows[i].changed);
      json.EndObject();
    }
    json.EndArray();
    json.EndObject();
    std::cout << json.str() << '\n';
    return;
  }
  std::printf("%s: %s, %s%scompiled in %.2f ms\n", kernel.kernel.c_str(), kernel.backend.c_str(),
              kernel.options.c_str(), kernel.options.empty() ? "" : ", ",
              kernel.compile_seconds * 1e3);
  if (!kernel.note.empty()) std::printf("note: %s\n", kernel.note.c_str());
  if (rows.empty()) {
    std::printf("no lowering stages (%s kernel)\n", kernel.backend.c_str());
  } else {
    std::printf("\n%3s  %-30s %6s %7s %7s\n", "#", "stage", "lines", "added", "removed");
    for (size_t i = 0; i < rows.size(); ++i) {
      const views::KernelTimelineStage& row = rows[i];
      if (i == 0) {
        std::printf("%3zu  %-30s %6lld %7s %7s\n", i, row.name.c_str(),
                    static_cast<long long>(row.lines), "", "");
      } else if (!row.changed) {
        std::printf("%3zu  %-30s %6lld %15s\n", i, row.name.c_str(),
                    static_cast<long long>(row.lines), "no change");
      } else {
        std::printf("%3zu  %-30s %6lld %+7d %7d\n", i, row.name.c_str(),
                    static_cast<long long>(row.lines), row.counts.added, -row.counts.removed);
      }
    }
  }
  if (!kernel.failed_stage.empty()) {
    std::printf("\nFAILED at %s: %s\n", kernel.failed_stage.c_str(), kernel.error.c_str());
  }
}

std::string NoStage(const views::KernelTimeline& timeline, const std::string& name) {
  const KernelRecord& kernel = timeline.kernel();
  std::string message = "kernel " + kernel.kernel + " has no stage '" + name + "'";
  if (timeline.stages().empty()) {
    message += ": it has no lowering stages (a " + kernel.backend + " kernel)";
  } else {
    message += " (stages: " + timeline.StageNames() + ")";
  }
  if (!kernel.failed_stage.empty()) message += "; its lowering failed at " + kernel.failed_stage;
  return message;
}

int PrintStage(const KernelRecord& kernel, int index, bool as_json) {
  const recording::KernelStage& stage = kernel.stages[static_cast<size_t>(index)];
  if (as_json) {
    JsonWriter json;
    json.BeginObject();
    json.Key("name").String(kernel.kernel);
    json.Key("stage").String(stage.name);
    json.Key("text").String(stage.text);
    json.EndObject();
    std::cout << json.str() << '\n';
    return 0;
  }
  std::cout << stage.text;
  if (!stage.text.empty() && stage.text.back() != '\n') std::cout << '\n';
  return 0;
}

int PrintDiff(const views::KernelTimeline& timeline, int index, bool ignore_indentation,
              bool as_json) {
  const KernelRecord& kernel = timeline.kernel();
  if (index == 0) {
    return Fail("stage '" + kernel.stages[0].name + "' of kernel " + kernel.kernel +
                " is the first: there is no stage before it to diff against");
  }
  const recording::KernelStage& before = kernel.stages[static_cast<size_t>(index - 1)];
  const recording::KernelStage& after = kernel.stages[static_cast<size_t>(index)];
  const std::vector<views::DiffLine> lines =
      ignore_indentation ? views::DiffTexts(before.text, after.text, {.ignore_indentation = true})
                         : timeline.stages()[static_cast<size_t>(index)].diff;
  const std::string diff = views::UnifiedDiff(lines, kernel.kernel + "/" + before.name,
                                              kernel.kernel + "/" + after.name);
  if (as_json) {
    const views::DiffCounts counts = views::CountChanges(lines);
    JsonWriter json;
    json.BeginObject();
    json.Key("name").String(kernel.kernel);
    json.Key("stage").String(after.name);
    json.Key("previous").String(before.name);
    json.Key("added").Int(counts.added);
    json.Key("removed").Int(counts.removed);
    json.Key("diff").String(diff);
    json.EndObject();
    std::cout << json.str() << '\n';
    return 0;
  }
  if (diff.empty()) {
    std::printf("%s changed nothing (%s is the same as %s)\n", after.name.c_str(),
                after.name.c_str(), before.name.c_str());
  } else {
    std::cout << diff;
  }
  return 0;
}

int ShowKernel(const std::string& path, const std::vector<KernelSummary>& listed, int snapshot,
               const std::string& name, const ParsedArgs& args) {
  auto kernel = recording::LoadKernel(path, snapshot, name);
  if (!kernel.ok()) return Fail(kernel.message());
  if (!kernel->has_value()) {
    std::vector<std::string> names;
    for (const KernelSummary& summary : listed) names.push_back(summary.kernel);
    return Fail(path + ": no kernel '" + name + "' in " + Where(snapshot) +
                " (kernels: " + Join(names) + ")");
  }
  const auto timeline = views::KernelTimeline::Build(std::move(**kernel));
  const KernelRecord& record = timeline->kernel();
  const bool as_json = args.Has("--json");
  std::optional<std::string> stage = args.Value("--stage");
  if (args.Has("--asm")) {
    // The assembly: "asm" on the CPU, "ptx" on the GPU.
    stage = timeline->FindStage("ptx") >= 0 && timeline->FindStage("asm") < 0 ? "ptx" : "asm";
  }
  if (args.Has("--llvm")) stage = "llvm-ir";
  if (stage) {
    const int index = timeline->FindStage(*stage);
    if (index < 0) return Fail(NoStage(*timeline, *stage));
    return PrintStage(record, index, as_json);
  }
  if (auto diff = args.Value("--diff")) {
    const int index = timeline->FindStage(*diff);
    if (index < 0) return Fail(NoStage(*timeline, *diff));
    return PrintDiff(*timeline, index, args.Has("--ignore-indentation"), as_json);
  }
  PrintTimeline(*timeline, as_json);
  return 0;
}

int RunKernel(const ParsedArgs& args) {
  const int choices =
      args.Has("--stage") + args.Has("--asm") + args.Has("--llvm") + args.Has("--diff");
  if (choices > 1) return Fail("kernel: choose one of --stage, --asm, --llvm, --diff");
  const bool list = args.Has("--list") || args.positional().size() == 1;
  if (choices > 0 && list) return Fail("kernel: --stage, --asm, --llvm and --diff need a FUSION");
  if (args.Has("--ignore-indentation") && !args.Has("--diff")) {
    return Fail("kernel: --ignore-indentation goes with --diff");
  }
  const std::optional<int64_t> pass = args.IntValue("--pass");
  const std::string& path = args.positional()[0];
  if (!std::filesystem::exists(path)) return Fail(path + ": no such file");
  auto kernels = recording::ListKernels(path);
  if (!kernels.ok()) return Fail(kernels.message());
  if (kernels->empty()) return Fail(NoKernels(path));
  std::set<int> snapshots;
  for (const KernelSummary& kernel : *kernels) snapshots.insert(kernel.snapshot);
  // The compiled snapshot: the latest one with kernels, unless --pass names another.
  int snapshot = *snapshots.rbegin();
  if (pass) {
    snapshot = static_cast<int>(*pass + 1);
    if (!snapshots.count(snapshot)) {
      std::vector<std::string> passes;
      for (int with : snapshots) passes.push_back(std::to_string(with - 1));
      return Fail(path + ": no kernels of the graph after pass " + std::to_string(*pass) +
                  " (there are kernels after pass " + Join(passes) + "; -1 is the input)");
    }
  }
  std::vector<KernelSummary> shown;
  for (KernelSummary& kernel : *kernels) {
    if (kernel.snapshot == snapshot) shown.push_back(std::move(kernel));
  }
  if (list) {
    PrintList(shown, snapshot, args.Has("--json"));
    return 0;
  }
  return ShowKernel(path, shown, snapshot, args.positional()[1], args);
}

const CommandRegistrar kRegistrar({
    .name = "kernel",
    .summary = "the kernels of a compiled snapshot; one kernel's lowering stages, texts and diffs",
    .positionals = {{"RUN.fsdb", "a recording with kernels (fusescope profile --save)"},
                    Positional{"FUSION", "one kernel, by its fusion's name (without it: the list)"}
                        .Optional()},
    .flags =
        {
            PassFlag("the latest snapshot with kernels"),
            Text("--stage", "NAME", "that lowering stage's text"),
            Switch("--asm", "the assembly (asm on the CPU, ptx on the GPU)"),
            Switch("--llvm", "the LLVM IR"),
            Text("--diff", "STAGE", "what that stage changed, against the stage before it"),
            Switch("--ignore-indentation",
                   "with --diff: lines that differ only in indentation "
                   "are the same"),
            Switch("--list", "the kernels of the snapshot (also without FUSION)"),
            JsonFlag(),
        },
    .run = RunKernel,
    .runs_kernels = false,
});

}  // namespace
}  // namespace fusescope::app
