#include "runtime/cpu_executable.h"

#include <chrono>
#include <map>
#include <unordered_map>

#include "ir/computation.h"
#include "ir/verifier.h"
#include "runtime/blas_convolution.h"
#include "runtime/blas_dot.h"
#include "runtime/interpreter.h"
#include "runtime/kernel_emitter.h"

namespace fusescope::runtime {
namespace {

using ir::Opcode;

enum class StepKind {
  kValue,   // parameter, constant, tuple, get-tuple-element, bitcast: on the host, no kernel
  kMlir,    // a compiled kernel on the operands
  kBlas,    // a dot through BLAS
  kOutput,  // an output fusion: BLAS dot on two operands, then a compiled epilogue
  kHost,    // the interpreter
};

struct Step {
  StepKind kind = StepKind::kHost;
  const ir::Instruction* instruction = nullptr;
  int64_t record = -1;  // index into the kernel records; -1 for values
  std::shared_ptr<const CompiledKernel> kernel;
  // kOutput: the dot inside the fusion and the fusion operands that are its lhs/rhs.
  const ir::Instruction* dot = nullptr;
  int64_t dot_lhs = -1, dot_rhs = -1;
  std::vector<size_t> operands;          // value slots of the instruction's operands
  std::vector<ir::Shape> output_shapes;  // kMlir / kOutput: the kernel's outputs
  bool tuple_result = false;             // the kernel's outputs form a tuple value
};

int64_t ShapeBytes(const ir::Shape& shape) {
  if (shape.IsTuple()) {
    int64_t total = 0;
    for (const ir::Shape& element : shape.tuple_shapes()) {
      const int64_t bytes = ShapeBytes(element);
      if (bytes < 0 || __builtin_add_overflow(total, bytes, &total)) return -1;
    }
    return total;
  }
  if (!shape.IsArray()) return 0;
  int64_t bytes = std::max(ElementByteSize(shape.element_type()), 1);
  for (int64_t dim : shape.dimensions()) {
    if (dim < 0 || __builtin_mul_overflow(bytes, dim, &bytes)) return -1;
  }
  return bytes;
}

bool IsValueOpcode(Opcode opcode) {
  return opcode == Opcode::kParameter || opcode == Opcode::kConstant || opcode == Opcode::kTuple ||
         opcode == Opcode::kGetTupleElement || opcode == Opcode::kBitcast;
}

// Why an instruction runs on the host when nothing was tried for it.
std::string HostReason(const ir::Instruction& instruction) {
  switch (instruction.opcode()) {
    case Opcode::kWhile:
    case Opcode::kConditional:
    case Opcode::kCall:
      return "control flow runs through the interpreter";
    case Opcode::kCustomCall:
      return "a custom-call runs through the interpreter";
    default:
      return "opcode " + std::string(instruction.opcode_name()) + " has no CPU kernel";
  }
}

}  // namespace

class CpuExecutable::Impl {
 public:
  Impl(const ir::Module& module, CpuExecutableOptions options)
      : module_(module),
        options_(options),
        compiler_(options.lowering),
        scalar_compiler_(LoweringOptions{options.lowering.tile, 0}),
        host_(HostOptions(options)) {}

  Status Compile();
  StatusOr<Literal> Run(const std::vector<Literal>& arguments);

  std::vector<recording::KernelRecord> records_;
  std::vector<KernelTiming> timings_;
  double compile_seconds_ = 0;
  std::map<std::string, int64_t> host_opcodes_;  // what runs on the host, by opcode

 private:
  static InterpreterOptions HostOptions(const CpuExecutableOptions& options) {
    InterpreterOptions host;
    host.max_live_bytes = options.max_live_bytes;
    return host;
  }
  recording::KernelRecord NewRecord(const ir::Instruction& instruction) const {
    recording::KernelRecord record;
    record.kernel = instruction.name();
    record.instruction_id = instruction.id();
    record.snapshot = options_.snapshot;
    return record;
  }
  void AddHost(Step& step, const std::string& note, recording::KernelRecord record);
  Status PlanStep(Step& step);
  Status PlanKernel(Step& step, StatusOr<EmittedKernel> emitted, const char* backend,
                    const std::string& note);
  Status PlanOutputFusion(Step& step);
  StatusOr<Literal> RunKernel(const Step& step, const std::vector<const Literal*>& inputs);
  // A dot or convolution through BLAS, and the call it makes.
  StatusOr<Literal> RunLibrary(const ir::Instruction& instruction, const Literal& lhs,
                               const Literal& rhs) {
    if (instruction.opcode() == Opcode::kDot)
      return RunBlasDot(instruction, lhs, rhs, options_.f32_dot_precision);
    return RunBlasConvolution(instruction, lhs, rhs, options_.f32_dot_precision);
  }
  std::string LibraryCall(const ir::Instruction& instruction) const {
    if (instruction.opcode() == Opcode::kDot)
      return BlasCallDescription(instruction, options_.f32_dot_precision);
    return BlasConvolutionDescription(instruction, options_.f32_dot_precision);
  }
  StatusOr<Literal> RunStep(const Step& step, const std::vector<const Literal*>& operands);

  const ir::Module& module_;
  CpuExecutableOptions options_;
  KernelCompiler compiler_;
  KernelCompiler scalar_compiler_;  // the same lowering without the vectorizer
  Interpreter host_;
  std::vector<Step> steps_;
  std::unordered_map<const ir::Instruction*, size_t> slot_;
};

void CpuExecutable::Impl::AddHost(Step& step, const std::string& note,
                                  recording::KernelRecord record) {
  step.kind = StepKind::kHost;
  step.kernel = nullptr;
  record.backend = "host";
  record.note = note;
  ++host_opcodes_[std::string(step.instruction->opcode_name())];
  step.record = static_cast<int64_t>(records_.size());
  records_.push_back(std::move(record));
}

Status CpuExecutable::Impl::PlanKernel(Step& step, StatusOr<EmittedKernel> emitted,
                                       const char* backend, const std::string& note) {
  const ir::Instruction& instruction = *step.instruction;
  if (!emitted.ok()) {
    AddHost(step, "the MLIR emitter refused it: " + emitted.message(), NewRecord(instruction));
    return Status::Ok();
  }
  KernelCompiler& compiler = emitted->vectorizable ? compiler_ : scalar_compiler_;
  KernelCompilation compiled = compiler.Compile(emitted->text, emitted->function_name);
  std::string retry_note;
  if (!emitted->vectorizable && options_.lowering.vector > 0)
    retry_note = "a reversed dimension: compiled without vectorization";
  if (!compiled.kernel && compiled.record.failed_stage == "affine-super-vectorize") {
    // MLIR 19's super-vectorizer writes invalid IR for some loop nests (reduce-window's
    // strided window accesses): those kernels are compiled as scalar loops instead.
    retry_note = "affine-super-vectorize failed (" + compiled.record.error +
                 "); compiled without vectorization";
    compiled = scalar_compiler_.Compile(emitted->text, emitted->function_name);
  }
  recording::KernelRecord record = compiled.record;
  if (!retry_note.empty()) record.note = retry_note;
  record.kernel = instruction.name();
  record.instruction_id = instruction.id();
  record.snapshot = options_.snapshot;
  if (!compiled.kernel) {
    if (!options_.host_fallback_on_compile_failure) {
      return Status::Error(instruction.name() + ": compiling its kernel failed at " +
                           record.failed_stage + ": " + record.error);
    }
    const std::string host_note = "compiling its kernel failed at " + record.failed_stage + " (" +
                                  record.error + "); it runs on the host";
    AddHost(step, host_note, std::move(record));
    return Status::Ok();
  }
  record.backend = backend;
  if (!note.empty()) record.note += std::string(record.note.empty() ? "" : "; ") + note;
  if (compiled.cached)
    record.note += std::string(record.note.empty() ? "" : "; ") + "same kernel as an earlier one";
  step.kernel = compiled.kernel;
  step.output_shapes = emitted->output_shapes;
  step.record = static_cast<int64_t>(records_.size());
  records_.push_back(std::move(record));
  return Status::Ok();
}

Status CpuExecutable::Impl::PlanOutputFusion(Step& step) {
  const ir::Instruction& fusion = *step.instruction;
  const ir::Computation* fused = fusion.fused_computation();
  const ir::Instruction* dot = nullptr;
  for (const ir::Instruction* instruction : fused->MakePostOrder()) {
    if (instruction->opcode() == Opcode::kDot || instruction->opcode() == Opcode::kConvolution) {
      if (dot != nullptr) return Status::Error("the output fusion holds more than one dot");
      dot = instruction;
    }
  }
  if (dot == nullptr) return Status::Error("the output fusion holds no dot");
  Status blas = dot->opcode() == Opcode::kDot ? CheckBlasDot(*dot) : CheckBlasConvolution(*dot);
  if (!blas.ok()) return blas;
  for (const ir::Instruction* operand : dot->operands()) {
    if (operand->opcode() != Opcode::kParameter)
      return Status::Error("the dot's operand " + operand->name() +
                           " is computed inside the fusion");
  }
  std::vector<const ir::Instruction*> inputs;
  for (int64_t i = 0; i < fused->parameter_count(); ++i) inputs.push_back(fused->parameter(i));
  inputs.push_back(dot);
  std::vector<const ir::Instruction*> body;
  for (const ir::Instruction* instruction : fused->MakePostOrder()) {
    if (instruction->opcode() == Opcode::kParameter || instruction == dot) continue;
    if (instruction == fused->root() && instruction->opcode() == Opcode::kTuple) continue;
    body.push_back(instruction);
  }
  std::vector<const ir::Instruction*> outputs;
  if (fused->root()->opcode() == Opcode::kTuple) {
    outputs.assign(fused->root()->operands().begin(), fused->root()->operands().end());
    step.tuple_result = true;
  } else {
    outputs.push_back(fused->root());
  }
  StatusOr<EmittedKernel> epilogue = EmitKernel(inputs, body, outputs);
  if (!epilogue.ok()) return epilogue.status();
  step.kind = StepKind::kOutput;
  step.dot = dot;
  step.dot_lhs = dot->operand(0)->parameter_number();
  step.dot_rhs = dot->operand(1)->parameter_number();
  return PlanKernel(step, std::move(epilogue), "openblas",
                    LibraryCall(*dot) + ", then the epilogue as a compiled kernel");
}

Status CpuExecutable::Impl::PlanStep(Step& step) {
  const ir::Instruction& instruction = *step.instruction;
  const Opcode opcode = instruction.opcode();
  if (IsValueOpcode(opcode)) {
    step.kind = StepKind::kValue;
    return Status::Ok();
  }
  if (opcode == Opcode::kDot || opcode == Opcode::kConvolution) {
    Status blas =
        opcode == Opcode::kDot ? CheckBlasDot(instruction) : CheckBlasConvolution(instruction);
    if (!blas.ok()) {
      AddHost(step,
              std::string(instruction.opcode_name()) +
                  " runs through the interpreter: " + blas.message(),
              NewRecord(instruction));
      return Status::Ok();
    }
    step.kind = StepKind::kBlas;
    recording::KernelRecord record = NewRecord(instruction);
    record.backend = "openblas";
    record.note = LibraryCall(instruction);
    step.record = static_cast<int64_t>(records_.size());
    records_.push_back(std::move(record));
    return Status::Ok();
  }
  if (opcode == Opcode::kFusion) {
    const ir::Computation* fused = instruction.fused_computation();
    if (fused == nullptr || fused->root() == nullptr) {
      AddHost(step, "the fusion has no fused computation", NewRecord(instruction));
      return Status::Ok();
    }
    step.tuple_result = fused->root()->shape().IsTuple();
    // Output fusions, and custom ones (XLA's library fusions around a dot), run as a BLAS call
    // plus an epilogue kernel when they hold a dot or convolution; a custom fusion without
    // one is compiled like a loop fusion.
    const std::string kind = instruction.fusion_kind();
    bool holds_contraction = false;
    for (const auto& inner : fused->instructions()) {
      holds_contraction = holds_contraction || inner->opcode() == Opcode::kDot ||
                          inner->opcode() == Opcode::kConvolution;
    }
    if (kind == "Output" || (kind == "Custom" && holds_contraction)) {
      Status planned = PlanOutputFusion(step);
      if (!planned.ok()) {
        step.tuple_result = false;
        AddHost(step, kind + " fusion on the host: " + planned.message(), NewRecord(instruction));
      }
      return Status::Ok();
    }
    if (kind != "Loop" && kind != "Input" && kind != "Custom") {
      step.tuple_result = false;
      AddHost(step, kind + " fusion runs through the interpreter", NewRecord(instruction));
      return Status::Ok();
    }
    step.kind = StepKind::kMlir;
    Status planned = PlanKernel(step, EmitFusionKernel(instruction), "mlir-cpu", "");
    if (step.kind == StepKind::kHost) step.tuple_result = false;
    return planned;
  }
  if (IsEmittableOpcode(opcode)) {
    step.kind = StepKind::kMlir;
    step.tuple_result = instruction.shape().IsTuple();
    Status planned = PlanKernel(step, EmitInstructionKernel(instruction), "mlir-cpu", "");
    if (step.kind == StepKind::kHost) step.tuple_result = false;
    return planned;
  }
  AddHost(step, HostReason(instruction), NewRecord(instruction));
  return Status::Ok();
}

Status CpuExecutable::Impl::Compile() {
  const auto started = std::chrono::steady_clock::now();
  const ir::Computation* entry = module_.entry();
  if (entry == nullptr || entry->root() == nullptr)
    return Status::Error("module " + module_.name() + " has no entry computation");
  Status verified = ir::VerifyModule(module_);
  if (!verified.ok()) return Status::Error("the module does not verify: " + verified.message());
  for (const ir::Instruction* instruction : entry->MakePostOrder()) {
    Step step;
    step.instruction = instruction;
    for (const ir::Instruction* operand : instruction->operands())
      step.operands.push_back(slot_.at(operand));
    Status planned = PlanStep(step);
    if (!planned.ok()) return planned;
    slot_[instruction] = steps_.size();
    steps_.push_back(std::move(step));
  }
  compile_seconds_ =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return Status::Ok();
}

StatusOr<Literal> CpuExecutable::Impl::RunKernel(const Step& step,
                                                 const std::vector<const Literal*>& inputs) {
  std::vector<Literal> outputs;
  std::vector<void*> buffers;
  for (const Literal* input : inputs) {
    if (input->is_tuple())
      return Status::Error(step.instruction->name() + ": a kernel input is a tuple");
    buffers.push_back(const_cast<uint8_t*>(input->data()));
  }
  for (const ir::Shape& shape : step.output_shapes) {
    StatusOr<Literal> output = Literal::Create(shape);
    if (!output.ok()) return Status::Error(step.instruction->name() + ": " + output.message());
    outputs.push_back(std::move(output).value());
  }
  for (Literal& output : outputs) buffers.push_back(output.data());
  Status ran = step.kernel->Run(buffers);
  if (!ran.ok()) return Status::Error(step.instruction->name() + ": " + ran.message());
  if (step.tuple_result) return Literal::Tuple(std::move(outputs));
  return std::move(outputs.front());
}

StatusOr<Literal> CpuExecutable::Impl::RunStep(const Step& step,
                                               const std::vector<const Literal*>& operands) {
  switch (step.kind) {
    case StepKind::kValue:
    case StepKind::kHost:
      return host_.EvaluateInstruction(*step.instruction, operands);
    case StepKind::kMlir:
      return RunKernel(step, operands);
    case StepKind::kBlas:
      return RunLibrary(*step.instruction, *operands[0], *operands[1]);
    case StepKind::kOutput: {
      StatusOr<Literal> product =
          RunLibrary(*step.dot, *operands[static_cast<size_t>(step.dot_lhs)],
                     *operands[static_cast<size_t>(step.dot_rhs)]);
      if (!product.ok()) return product.status();
      std::vector<const Literal*> inputs = operands;
      inputs.push_back(&*product);
      return RunKernel(step, inputs);
    }
  }
  return Status::Error("unknown step");
}

StatusOr<Literal> CpuExecutable::Impl::Run(const std::vector<Literal>& arguments) {
  const ir::Computation& entry = *module_.entry();
  if (static_cast<int64_t>(arguments.size()) != entry.parameter_count()) {
    return Status::Error("the module takes " + std::to_string(entry.parameter_count()) +
                         " arguments, got " + std::to_string(arguments.size()));
  }
  timings_.clear();
  std::vector<int64_t> remaining(steps_.size(), 0);
  for (const Step& step : steps_) {
    for (size_t slot : step.operands) ++remaining[slot];
  }
  const size_t root = slot_.at(entry.root());
  std::vector<Literal> values(steps_.size());
  std::vector<bool> live(steps_.size(), false);
  int64_t live_bytes = 0;
  for (size_t i = 0; i < steps_.size(); ++i) {
    const Step& step = steps_[i];
    const ir::Instruction& instruction = *step.instruction;
    const int64_t bytes = ShapeBytes(instruction.shape());
    if (bytes < 0 || bytes > options_.max_live_bytes - live_bytes) {
      return Status::Error(instruction.name() + ": result " + instruction.shape().ToString(false) +
                           " would take the live values past the limit of " +
                           std::to_string(options_.max_live_bytes) + " bytes");
    }
    StatusOr<Literal> result = Status::Error("");
    const auto started = std::chrono::steady_clock::now();
    if (instruction.opcode() == Opcode::kParameter) {
      const int64_t n = instruction.parameter_number();
      const Literal& argument = arguments[static_cast<size_t>(n)];
      if (!argument.shape().Compatible(instruction.shape())) {
        return Status::Error(instruction.name() + ": argument " + argument.shape().ToString(false) +
                             " does not match the parameter's shape " +
                             instruction.shape().ToString(false));
      }
      result = argument;
    } else {
      std::vector<const Literal*> operands;
      for (size_t slot : step.operands) operands.push_back(&values[slot]);
      result = RunStep(step, operands);
    }
    if (!result.ok()) return result.status();
    if (step.record >= 0) {
      timings_.push_back(
          {static_cast<size_t>(step.record),
           std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count()});
    }
    if (!result->shape().Compatible(instruction.shape())) {
      return Status::Error(instruction.name() + ": computed " + result->shape().ToString(false) +
                           " but the instruction has shape " + instruction.shape().ToString(false));
    }
    live_bytes += result->TotalByteSize();
    values[i] = std::move(result).value();
    live[i] = true;
    for (size_t slot : step.operands) {
      if (--remaining[slot] == 0 && slot != root && live[slot]) {
        live_bytes -= values[slot].TotalByteSize();
        values[slot] = Literal();
        live[slot] = false;
      }
    }
  }
  return std::move(values[root]);
}

CpuExecutable::CpuExecutable(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
CpuExecutable::~CpuExecutable() = default;

StatusOr<std::unique_ptr<CpuExecutable>> CpuExecutable::Compile(const ir::Module& module,
                                                                CpuExecutableOptions options) {
  auto impl = std::make_unique<Impl>(module, options);
  Status compiled = impl->Compile();
  if (!compiled.ok()) return compiled;
  return std::unique_ptr<CpuExecutable>(new CpuExecutable(std::move(impl)));
}

StatusOr<Literal> CpuExecutable::Run(const std::vector<Literal>& arguments) {
  return impl_->Run(arguments);
}

const std::vector<recording::KernelRecord>& CpuExecutable::kernels() const {
  return impl_->records_;
}
const std::vector<KernelTiming>& CpuExecutable::last_timings() const { return impl_->timings_; }
double CpuExecutable::compile_seconds() const { return impl_->compile_seconds_; }

std::string CpuExecutable::KernelSummary() const {
  std::map<std::string, int64_t> by_backend;
  for (const recording::KernelRecord& record : impl_->records_) ++by_backend[record.backend];
  std::string text = std::to_string(impl_->records_.size()) + " kernels";
  const char* separator = ": ";
  for (const auto& [backend, count] : by_backend) {
    text += separator + std::to_string(count) + " " + backend;
    separator = ", ";
    if (backend != "host") continue;
    std::string opcodes;
    for (const auto& [opcode, n] : impl_->host_opcodes_) {
      opcodes += (opcodes.empty() ? "" : ", ") + opcode + (n > 1 ? " x" + std::to_string(n) : "");
    }
    text += " (" + opcodes + ")";
  }
  return text;
}

}  // namespace fusescope::runtime
