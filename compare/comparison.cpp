#include "compare/comparison.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "compare/peer_catalog.h"
#include "compare/peer_process.h"
#include "ir/hlo_printer.h"
#include "passes/literal_value.h"
#include "runtime/interpreter/interpreter.h"
#include "runtime/npz.h"
#include "runtime/output_judgement.h"
#include "runtime/seeded_inputs.h"

namespace fusescope::compare {
namespace {

namespace fs = std::filesystem;

// What the harness keeps of one shape while the compilers run.
struct PreparedShape {
  ShapeChoice choice;
  std::string inputs_path;
  std::string hlo_path;
  std::vector<runtime::Literal> reference;  // the model's own types
  std::vector<runtime::Literal> exact;      // widened to f64
  std::string reference_error;              // why there is no reference
  std::vector<std::string> model_ops;       // Comparison::model_ops
};

Status WriteTextFile(const fs::path& path, const std::string& text) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << text;
  file.close();
  if (!file) return Status::Error("cannot write " + path.string());
  return Status::Ok();
}

std::string ReadTextFile(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

std::vector<runtime::Literal> Leaves(runtime::Literal value) {
  if (!value.is_tuple()) {
    std::vector<runtime::Literal> one;
    one.push_back(std::move(value));
    return one;
  }
  return std::move(value.elements());
}

void Progress(const ComparisonSpec& spec, const std::string& line) {
  if (spec.progress) spec.progress(line);
}

// Comparison::model_ops of our import of the model. The entry's ops first; an HLO instruction
// is named for itself only there (a reducer's `add` is not an op of the model).
std::vector<std::string> ModelOps(const ir::Module& module, const std::string& model_format) {
  const ir::Computation& entry = *module.entry();
  std::vector<std::string> ops;
  std::vector<const ir::Computation*> computations = {&entry};
  for (const auto& computation : module.computations())
    if (computation.get() != &entry) computations.push_back(computation.get());
  for (const ir::Computation* computation : computations)
    for (const auto& instruction : computation->instructions()) {
      // Weights and inputs are no ops: no compiler reports a kernel for them.
      if (instruction->opcode() == ir::Opcode::kConstant ||
          instruction->opcode() == ir::Opcode::kParameter)
        continue;
      std::string op = instruction->metadata().String("op_name");
      if (op.empty() && model_format == "hlo" && computation == &entry) op = instruction->name();
      if (!op.empty() && std::find(ops.begin(), ops.end(), op) == ops.end())
        ops.push_back(std::move(op));
    }
  return ops;
}

// `want_ops`: fill model_ops (the first shape, when the spec names no ops).
StatusOr<PreparedShape> PrepareShape(const ComparisonSpec& spec, const ShapeChoice& choice,
                                     const fs::path& scratch, bool want_ops) {
  PreparedShape shape;
  shape.choice = choice;
  auto module = spec.load(choice.dims);
  if (!module.ok()) return Status::Error("the model at " + choice.name + ": " + module.message());
  const ir::Computation& entry = *(*module)->entry();
  auto inputs = runtime::SeededInputs(entry, spec.seed);
  if (!inputs.ok()) return Status::Error("inputs at " + choice.name + ": " + inputs.message());
  std::vector<runtime::NpzMember> members;
  for (size_t i = 0; i < inputs->size(); ++i) {
    const std::string name =
        i < spec.input_names.size() ? spec.input_names[i] : "arg_" + std::to_string(i);
    members.push_back({name, (*inputs)[i]});
  }
  if (want_ops) shape.model_ops = ModelOps(**module, spec.model_format);
  shape.inputs_path = (scratch / "inputs" / (choice.name + ".npz")).string();
  FS_RETURN_IF_ERROR(runtime::WriteNpzFile(shape.inputs_path, members));
  // XLA reads HLO text: our importer's module at this shape, every constant printed whole
  // (weights held as bytes would print as `{...}`, which XLA reads as values of its choosing).
  auto spelled = passes::SpellOutConstants(**module);
  if (!spelled.ok()) return Status::Error("the model at " + choice.name + ": " + spelled.message());
  shape.hlo_path = (scratch / "converted" / (choice.name + ".hlo")).string();
  FS_RETURN_IF_ERROR(
      WriteTextFile(shape.hlo_path, ir::PrintModule(**module, ir::PrintOptions::Parsable())));
  Progress(spec, "reference answers at " + choice.name + " (interpreter, model types and f64)");
  runtime::Interpreter reference;
  auto rounded = reference.Run(**module, *inputs);
  runtime::InterpreterOptions wide_options;
  wide_options.widen_floats_to_f64 = true;
  runtime::Interpreter wide(wide_options);
  auto exact = wide.Run(**module, std::move(inputs).value());
  if (rounded.ok() && exact.ok()) {
    shape.reference = Leaves(std::move(rounded).value());
    shape.exact = Leaves(std::move(exact).value());
  } else {
    shape.reference_error = !rounded.ok() ? rounded.message() : exact.message();
  }
  return shape;
}

std::string InputGiven(const ComparisonSpec& spec, const std::string& compiler) {
  if (compiler == "xla" && spec.model_format != "hlo")
    return "HLO text our importer made of the " + spec.model_format +
           " model, one file per shape at static sizes";
  return "the " + spec.model_format + " file " + fs::path(spec.model_path).filename().string();
}

PeerRequest MakeRequest(const ComparisonSpec& spec, const std::string& compiler,
                        const std::vector<PreparedShape>& shapes, const fs::path& work) {
  PeerRequest request;
  request.compiler = compiler;
  request.model = fs::absolute(spec.model_path).string();
  request.model_format = spec.model_format;
  request.work_dir = work.string();
  request.reps = spec.reps;
  request.warmup = spec.warmup;
  request.threads = spec.threads;
  request.deadline_s = spec.time_limit_s;
  request.dump = spec.dump;
  request.profile = spec.profile;
  request.tvm_trials = spec.tvm_trials;
  for (const PreparedShape& prepared : shapes) {
    RequestShape shape;
    shape.name = prepared.choice.name;
    shape.dims = prepared.choice.dims;
    shape.inputs = prepared.inputs_path;
    if (compiler == "xla" && spec.model_format != "hlo") {
      shape.model = prepared.hlo_path;
      shape.model_format = "hlo";
    }
    request.shapes.push_back(std::move(shape));
  }
  return request;
}

// Which of a compiler's formats the harness can give it.
bool TakesFormat(const PeerInfo& peer, const std::string& format) {
  if (peer.name == "xla") return true;  // any model our importer reads becomes HLO text
  return std::find(peer.formats.begin(), peer.formats.end(), format) != peer.formats.end();
}

std::string DescribeShape(const runtime::Literal& value) { return value.shape().ToString(false); }

// Judges one run's outputs against the shape's references; fills the row's error figures.
void JudgeRun(const PreparedShape& shape, const std::string& outputs_path, double rtol, double atol,
              ComparisonRow& row) {
  if (!shape.reference_error.empty()) {
    row.judgement = "not judged: the reference did not run (" + shape.reference_error + ")";
    return;
  }
  auto members = runtime::ReadNpzFile(outputs_path);
  if (!members.ok()) {
    row.error = "its outputs cannot be read: " + members.message();
    return;
  }
  std::vector<runtime::Literal> outputs;
  for (runtime::NpzMember& member : *members) outputs.push_back(std::move(member.value));
  if (outputs.size() != shape.reference.size()) {
    row.error = "reported " + std::to_string(outputs.size()) + " outputs, the model has " +
                std::to_string(shape.reference.size());
    return;
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    const ir::Shape& got = outputs[i].shape();
    const ir::Shape& want = shape.reference[i].shape();
    if (got.element_type() != want.element_type() || got.dimensions() != want.dimensions()) {
      row.error = "reported output " + std::to_string(i) + " as " + DescribeShape(outputs[i]) +
                  ", the model's is " + DescribeShape(shape.reference[i]);
      return;
    }
  }
  const auto judgements = runtime::JudgeOutputs(outputs, shape.reference, shape.exact, rtol, atol);
  row.verdict = runtime::OutputVerdictName(runtime::WorstVerdict(judgements));
  row.max_abs_error = 0;
  row.max_rel_error = 0;
  for (const runtime::OutputJudgement& judgement : judgements) {
    row.max_abs_error = std::max(row.max_abs_error, judgement.candidate_to_exact);
    if (judgement.exact_scale > 0)
      row.max_rel_error =
          std::max(row.max_rel_error, judgement.candidate_to_exact / judgement.exact_scale);
    if (!judgement.ok() || row.judgement.empty()) row.judgement = judgement.Explanation();
  }
}

const PeerBuild* BuildFor(const PeerResponse& response, const std::string& variant,
                          const std::string& shape) {
  const PeerBuild* any = nullptr;
  for (const PeerBuild& build : response.builds) {
    if (build.variant != variant) continue;
    if (std::find(build.shapes.begin(), build.shapes.end(), shape) != build.shapes.end())
      return &build;
    if (build.shapes.empty()) any = &build;
  }
  return any;
}

std::vector<std::string> VariantsOf(const PeerResponse& response) {
  std::vector<std::string> variants;
  auto add = [&](const std::string& variant) {
    if (std::find(variants.begin(), variants.end(), variant) == variants.end())
      variants.push_back(variant);
  };
  for (const PeerBuild& build : response.builds) add(build.variant);
  for (const PeerRun& run : response.runs) add(run.variant);
  return variants;
}

const PeerRun* RunFor(const PeerResponse& response, const std::string& variant,
                      const std::string& shape) {
  for (const PeerRun& run : response.runs)
    if (run.variant == variant && run.shape == shape) return &run;
  return nullptr;
}

// One row per variant and shape of an answer; a shape it left out is a row with that error.
void AddRows(const ComparisonSpec& spec, const std::vector<PreparedShape>& shapes,
             const PeerResponse& response, Comparison& comparison) {
  for (const std::string& variant : VariantsOf(response)) {
    for (const PreparedShape& shape : shapes) {
      ComparisonRow row;
      row.compiler = response.compiler;
      row.variant = variant;
      row.shape = shape.choice.name;
      row.batch = shape.choice.batch;
      if (const PeerBuild* build = BuildFor(response, variant, row.shape)) {
        row.build_s = build->build_s;
        row.tuning_s = build->tuning_s;
        row.trials = build->trials;
        row.shared_build = build->shapes.size() > 1;
        row.build_peak_rss_bytes = build->build_peak_rss_bytes;
        row.artifact_bytes = build->artifact_bytes;
        if (!build->error.empty()) row.error = build->error;
      }
      const PeerRun* run = RunFor(response, variant, row.shape);
      if (row.error.empty() && !run) row.error = "no run reported for this shape";
      if (row.error.empty() && run && !run->error.empty()) row.error = run->error;
      if (run) {
        row.run_peak_rss_bytes = run->run_peak_rss_bytes;
        if (row.error.empty()) {
          row.times_us = run->times_us;
          JudgeRun(shape, run->outputs, spec.rtol, spec.atol, row);
        }
      }
      SummarizeRow(row);
      comparison.rows.push_back(std::move(row));
    }
  }
}

std::string FirstLine(const std::string& text) {
  const std::string line = text.substr(0, text.find('\n'));
  return line.size() > 300 ? line.substr(0, 300) + "..." : line;
}

PeerOutcome RunPeer(const ComparisonSpec& spec, const std::string& compiler,
                    const std::vector<PreparedShape>& shapes, const fs::path& scratch,
                    Comparison& comparison) {
  PeerOutcome outcome;
  outcome.compiler = compiler;
  const PeerInfo* info = FindPeer(compiler);
  outcome.install = info ? info->install : "";
  if (info && !TakesFormat(*info, spec.model_format)) {
    outcome.status = "not applicable";
    outcome.message = info->display_name + " takes no " + spec.model_format + " model";
    return outcome;
  }
  outcome.input_given = InputGiven(spec, compiler);
  const fs::path work = scratch / compiler;
  std::error_code ignored;
  fs::create_directories(work, ignored);
  const PeerRequest request = MakeRequest(spec, compiler, shapes, work);
  ProcessSpec process;
  process.argv = AdapterCommand(compiler, spec.executable_path);
  process.stdin_path = (work / "request.json").string();
  process.stdout_path = (work / "response.json").string();
  process.stderr_path = (work / "log.txt").string();
  process.time_limit_s = spec.time_limit_s;
  // Every compiler builds from nothing: ours reads no kernel compiled by an earlier run.
  if (compiler == "ours") process.environment["FUSESCOPE_KERNEL_CACHE"] = "off";
  outcome.log_path = process.stderr_path;
  if (Status written = WriteTextFile(process.stdin_path, request.ToJson()); !written.ok()) {
    outcome.status = "crashed";
    outcome.message = written.message();
    return outcome;
  }
  auto ran = RunProcess(process);
  if (!ran.ok()) {
    outcome.status = "crashed";
    outcome.message = ran.message();
    return outcome;
  }
  outcome.wall_s = ran->wall_s;
  outcome.process_peak_rss_bytes = ran->max_rss_bytes;
  if (!ran->exited_cleanly()) {
    outcome.status = ran->timed_out ? "timed out" : "crashed";
    const std::string tail = TailOfFile(process.stderr_path);
    outcome.message = "the adapter " + ran->Describe() + (tail.empty() ? "" : ": " + tail);
    return outcome;
  }
  auto response = PeerResponse::Parse(ReadTextFile(process.stdout_path));
  if (!response.ok()) {
    outcome.status = "broke the protocol";
    outcome.message = "its answer was refused: " + response.message();
    return outcome;
  }
  if (response->compiler != compiler) {
    outcome.status = "broke the protocol";
    outcome.message = "it answered for '" + response->compiler + "'";
    return outcome;
  }
  outcome.versions = response->versions;
  if (!response->available) {
    outcome.status = "not installed";
    outcome.install = response->install;
    outcome.message = "not installed (" + FirstLine(response->error) + "): " + response->install;
    return outcome;
  }
  outcome.input_received = response->input_received;
  outcome.dynamic_shapes = response->dynamic_shapes;
  outcome.kernels = response->kernels;
  outcome.kernels_note = response->kernels_note;
  outcome.dumps = response->dumps;
  for (const PeerBuild& build : response->builds)
    for (const auto& op : build.unsupported_ops) outcome.unsupported_ops.push_back(op);
  const size_t first_row = comparison.rows.size();
  AddRows(spec, shapes, *response, comparison);
  const bool any_ran = std::any_of(comparison.rows.begin() + static_cast<std::ptrdiff_t>(first_row),
                                   comparison.rows.end(),
                                   [](const ComparisonRow& row) { return row.error.empty(); });
  outcome.status = any_ran ? "ok" : "failed";
  if (!response->error.empty()) {
    outcome.message = FirstLine(response->error);
  } else if (!any_ran && comparison.rows.size() > first_row) {
    outcome.message = FirstLine(comparison.rows[first_row].error);
  } else if (!any_ran) {
    outcome.message = "it reported no build and no run";
  }
  if (!any_ran && outcome.message.empty()) outcome.message = "nothing ran";
  return outcome;
}

}  // namespace

void SummarizeRow(ComparisonRow& row) {
  row.latency_us = profiler::Summarize(row.times_us);
  row.throughput_per_s =
      row.latency_us.median > 0 ? static_cast<double>(row.batch) * 1e6 / row.latency_us.median : 0;
}

StatusOr<Comparison> RunComparison(const ComparisonSpec& spec) {
  if (!spec.load) return Status::Error("no way to load the model");
  if (spec.shapes.empty()) return Status::Error("no shape to compare at");
  const fs::path scratch = fs::absolute(spec.work_dir);
  std::error_code error;
  for (const char* folder : {"inputs", "converted"}) {
    fs::create_directories(scratch / folder, error);
    if (error)
      return Status::Error("cannot make " + (scratch / folder).string() + ": " + error.message());
  }
  Comparison comparison;
  comparison.model = spec.model_path;
  comparison.model_format = spec.model_format;
  comparison.shapes = spec.shapes;
  comparison.reps = spec.reps;
  comparison.warmup = spec.warmup;
  comparison.threads = spec.threads;
  std::vector<PreparedShape> shapes;
  for (const ShapeChoice& choice : spec.shapes) {
    auto prepared = PrepareShape(spec, choice, scratch, shapes.empty() && spec.model_ops.empty());
    if (!prepared.ok()) return prepared.status();
    if (!prepared->reference_error.empty() && comparison.reference_note.empty())
      comparison.reference_note =
          "no reference at " + choice.name + ": " + prepared->reference_error;
    if (shapes.empty())
      comparison.model_ops = spec.model_ops.empty() ? prepared->model_ops : spec.model_ops;
    shapes.push_back(std::move(prepared).value());
  }
  if (comparison.reference_note.empty())
    comparison.reference_note =
        "outputs judged against our interpreter in the model's types and widened to f64, on "
        "seeded inputs (seed " +
        std::to_string(spec.seed) + "), the same .npz for every compiler";
  for (const std::string& compiler : spec.compilers) {
    Progress(spec,
             compiler + ": building and timing " + std::to_string(shapes.size()) + " shape(s)");
    comparison.peers.push_back(RunPeer(spec, compiler, shapes, scratch, comparison));
    const PeerOutcome& outcome = comparison.peers.back();
    Progress(spec, compiler + ": " + outcome.status +
                       (outcome.message.empty() ? "" : " - " + outcome.message));
  }
  return comparison;
}

}  // namespace fusescope::compare
