#include "runtime/cuda/cuda_executable.h"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <map>
#include <optional>
#include <span>
#include <unordered_map>

#include "ir/computation.h"
#include "ir/hlo_parser.h"
#include "ir/verifier.h"
#include "runtime/cuda/cublas_library.h"
#include "runtime/cuda/cuda_driver.h"
#include "runtime/interpreter/interpreter.h"
#include "runtime/kernel_emitter.h"

namespace fusescope::runtime {
namespace {

using ir::Opcode;

enum class StepKind {
  kValue,   // parameter, constant, tuple, get-tuple-element, bitcast: device buffers, no kernel
  kPtx,     // PTX launches on the operands
  kGemm,    // a dot through cuBLAS
  kOutput,  // an output fusion: cuBLAS on two operands, then a PTX epilogue
  kHost,    // the interpreter on the host, operands and result copied
};

struct Step {
  StepKind kind = StepKind::kHost;
  const ir::Instruction* instruction = nullptr;
  int64_t record = -1;  // index into the kernel records; -1 for values
  std::shared_ptr<const PtxKernel> ptx;
  std::shared_ptr<LoadedPtxKernel> loaded;  // at the first run
  std::optional<GemmPlan> gemm;
  // kGemm / kOutput: the kernels transposing the lhs and rhs first where the plan says so
  // (null otherwise), loaded at the first run, and the shapes they write.
  std::shared_ptr<const PtxKernel> transposes[2];
  std::shared_ptr<LoadedPtxKernel> loaded_transposes[2];
  ir::Shape transposed_shapes[2];
  const ir::Instruction* dot = nullptr;  // kOutput: the dot inside the fusion
  int64_t dot_lhs = -1, dot_rhs = -1;    // …and the fusion operands that are its operands
  std::vector<size_t> operands;          // value slots of the instruction's operands
  std::vector<ir::Shape> output_shapes;  // kPtx / kOutput: the kernel's outputs
  bool tuple_result = false;             // the kernel's outputs form a tuple value
};

// Why an instruction runs on the host when nothing was tried for it.
std::string HostReason(const ir::Instruction& instruction) {
  switch (instruction.opcode()) {
    case Opcode::kWhile:
    case Opcode::kConditional:
    case Opcode::kCall:
      return "control flow runs through the interpreter on the host";
    case Opcode::kCustomCall:
      return "a custom-call runs through the interpreter";
    case Opcode::kConvolution:
      return "convolution has no GPU kernel here";
    default:
      return "opcode " + std::string(instruction.opcode_name()) + " has no GPU kernel";
  }
}

// One device buffer; freed when the last value holding it is released.
class DeviceBuffer {
 public:
  DeviceBuffer(CudaDriver& driver, DevicePointer pointer, int64_t bytes, int64_t& live)
      : driver_(driver), pointer_(pointer), bytes_(bytes), live_(live) {
    live_ += bytes_;
  }
  ~DeviceBuffer() {
    driver_.Free(pointer_);
    live_ -= bytes_;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DevicePointer pointer() const { return pointer_; }
  int64_t bytes() const { return bytes_; }

 private:
  CudaDriver& driver_;
  DevicePointer pointer_;
  int64_t bytes_;
  int64_t& live_;
};

// A value on the device: one buffer per array leaf of its shape, depth first.
struct DeviceValue {
  ir::Shape shape;
  std::vector<std::shared_ptr<DeviceBuffer>> leaves;
};

int64_t LeafCount(const ir::Shape& shape) {
  if (!shape.IsTuple()) return 1;
  int64_t count = 0;
  for (const ir::Shape& element : shape.tuple_shapes()) count += LeafCount(element);
  return count;
}

// `shape` with its dimensions in `order` (dimension i = shape's dimension order[i]).
ir::Shape PermutedShape(const ir::Shape& shape, const std::vector<int64_t>& order) {
  std::vector<int64_t> dims;
  for (int64_t d : order) dims.push_back(shape.dimension(d));
  return ir::Shape(shape.element_type(), std::move(dims));
}

// A PTX kernel writing an operand of `shape` with its dimensions in `order`: the transpose a
// GEMM operand needs first, emitted like any transpose instruction.
StatusOr<PtxKernel> TransposeKernel(const ir::Shape& shape, const std::vector<int64_t>& order,
                                    const PtxOptions& options) {
  std::string dimensions;
  for (int64_t d : order) dimensions += (dimensions.empty() ? "" : ",") + std::to_string(d);
  const std::string text =
      "HloModule operand_transpose\n\nENTRY main {\n  p = " + shape.ToString(false) +
      " parameter(0)\n  ROOT t = " + PermutedShape(shape, order).ToString(false) +
      " transpose(p), dimensions={" + dimensions + "}\n}\n";
  StatusOr<std::unique_ptr<ir::Module>> module = ir::ParseHloModule(text);
  if (!module.ok()) return module.status();
  StatusOr<EmittedKernel> emitted = EmitInstructionKernel(*(*module)->entry()->root());
  if (!emitted.ok()) return emitted.status();
  return CompileToPtx(emitted->text, emitted->function_name, options, nullptr, 1);
}

}  // namespace

class CudaExecutable::Impl {
 public:
  Impl(const ir::Module& module, CudaExecutableOptions options)
      : module_(module), options_(std::move(options)), host_(HostOptions(options_)) {}

  Status Compile();
  StatusOr<Literal> Run(const std::vector<Literal>& arguments);

  std::vector<recording::KernelRecord> records_;
  std::vector<KernelTiming> timings_;
  std::vector<const Step*> step_of_record_;
  double compile_seconds_ = 0;
  std::map<std::string, int64_t> host_opcodes_;  // what runs on the host, by opcode

 private:
  static InterpreterOptions HostOptions(const CudaExecutableOptions& options) {
    InterpreterOptions host;
    host.max_live_bytes = options.max_live_bytes;
    host.max_while_iterations = options.max_while_iterations;
    return host;
  }
  recording::KernelRecord NewRecord(const ir::Instruction& instruction) const {
    recording::KernelRecord record;
    record.kernel = instruction.name();
    record.instruction_id = instruction.id();
    record.snapshot = options_.snapshot;
    return record;
  }
  void AddRecord(Step& step, recording::KernelRecord record) {
    step.record = static_cast<int64_t>(records_.size());
    records_.push_back(std::move(record));
  }
  void AddHost(Step& step, const std::string& note, recording::KernelRecord record);
  Status PlanStep(Step& step);
  Status PlanFusion(Step& step);
  Status PlanPtx(Step& step, StatusOr<EmittedKernel> emitted, const char* backend,
                 const std::string& note);
  Status PlanOutputFusion(Step& step);
  StatusOr<std::vector<recording::KernelStage>> PlanTransposes(Step& step,
                                                               const ir::Instruction& dot);
  StatusOr<DevicePointer> Transposed(const Step& step, int side, DevicePointer operand,
                                     std::vector<std::shared_ptr<DeviceBuffer>>& temporaries);
  Status RunGemm(const Step& step, DevicePointer lhs, DevicePointer rhs, DevicePointer product);

  Status Prepare();
  StatusOr<std::shared_ptr<DeviceBuffer>> NewBuffer(const ir::Shape& shape);
  StatusOr<DeviceValue> Upload(const Literal& literal);
  Status UploadLeaves(const Literal& literal, DeviceValue& value);
  StatusOr<Literal> Download(const DeviceValue& value);
  StatusOr<Literal> DownloadLeaves(const ir::Shape& shape, const DeviceValue& value, size_t& next);
  StatusOr<DeviceValue> RunValue(const Step& step, const std::vector<const DeviceValue*>& operands);
  StatusOr<DeviceValue> RunHost(const Step& step, const std::vector<const DeviceValue*>& operands);
  StatusOr<DeviceValue> RunKernel(const Step& step, std::vector<DevicePointer> inputs);
  StatusOr<DeviceValue> RunStep(const Step& step, const std::vector<const DeviceValue*>& operands);

  const ir::Module& module_;
  CudaExecutableOptions options_;
  Interpreter host_;
  std::vector<Step> steps_;
  std::unordered_map<const ir::Instruction*, size_t> slot_;
  CudaDriver* driver_ = nullptr;
  CublasLibrary* cublas_ = nullptr;
  int64_t live_bytes_ = 0;  // device bytes held by live values
  // Constants, uploaded at the first run and kept (nothing writes a value in place); declared
  // after live_bytes_, which their buffers count in.
  std::unordered_map<const ir::Instruction*, DeviceValue> constants_;
};

void CudaExecutable::Impl::AddHost(Step& step, const std::string& note,
                                   recording::KernelRecord record) {
  step.kind = StepKind::kHost;
  step.ptx = nullptr;
  step.gemm.reset();
  step.transposes[0] = step.transposes[1] = nullptr;
  step.tuple_result = false;
  record.backend = "host";
  record.note = note;
  ++host_opcodes_[std::string(step.instruction->opcode_name())];
  AddRecord(step, std::move(record));
}

Status CudaExecutable::Impl::PlanPtx(Step& step, StatusOr<EmittedKernel> emitted,
                                     const char* backend, const std::string& note) {
  const ir::Instruction& instruction = *step.instruction;
  if (!emitted.ok()) {
    AddHost(step, "the MLIR emitter refused it: " + emitted.message(), NewRecord(instruction));
    return Status::Ok();
  }
  recording::KernelRecord partial;
  StatusOr<PtxKernel> lowered =
      CompileToPtx(emitted->text, emitted->function_name, options_.ptx, &partial,
                   static_cast<int>(emitted->input_shapes.size()));
  recording::KernelRecord record = lowered.ok() ? lowered->record : partial;
  record.kernel = instruction.name();
  record.instruction_id = instruction.id();
  record.snapshot = options_.snapshot;
  if (!lowered.ok()) {
    if (!options_.host_fallback_on_compile_failure) {
      return Status::Error(instruction.name() +
                           ": lowering its kernel to PTX failed: " + lowered.message());
    }
    AddHost(step,
            "lowering its kernel to PTX failed (" + lowered.message() + "); it runs on the host",
            std::move(record));
    return Status::Ok();
  }
  record.backend = backend;
  if (!note.empty()) record.note = note;
  step.ptx = std::make_shared<const PtxKernel>(std::move(lowered).value());
  step.output_shapes = emitted->output_shapes;
  AddRecord(step, std::move(record));
  return Status::Ok();
}

// The transposes `step.gemm` needs first, lowered to PTX; their PTX, as stages for the record.
StatusOr<std::vector<recording::KernelStage>> CudaExecutable::Impl::PlanTransposes(
    Step& step, const ir::Instruction& dot) {
  std::vector<recording::KernelStage> stages;
  const std::vector<int64_t>* permutations[2] = {&step.gemm->lhs_permutation,
                                                 &step.gemm->rhs_permutation};
  for (int side = 0; side < 2; ++side) {
    if (permutations[side]->empty()) continue;
    const ir::Shape& shape = dot.operand(side)->shape();
    StatusOr<PtxKernel> kernel = TransposeKernel(shape, *permutations[side], options_.ptx);
    const std::string name = side == 0 ? "lhs-transpose" : "rhs-transpose";
    if (!kernel.ok()) return Status::Error("the " + name + " does not lower: " + kernel.message());
    for (const recording::KernelStage& stage : kernel->record.stages) {
      if (stage.name == "ptx" || stage.name == "launch-plan")
        stages.push_back({name + " " + stage.name, stage.text});
    }
    step.transposed_shapes[side] = PermutedShape(shape, *permutations[side]);
    step.transposes[side] = std::make_shared<const PtxKernel>(std::move(kernel).value());
  }
  return stages;
}

Status CudaExecutable::Impl::PlanOutputFusion(Step& step) {
  std::optional<GemmPlan> gemm;
  StatusOr<ContractionFusion> split =
      SplitContractionFusion(*step.instruction, [&gemm](const ir::Instruction& contraction) {
        if (contraction.opcode() != Opcode::kDot)
          return Status::Error("convolution has no GPU kernel here");
        StatusOr<GemmPlan> plan = PlanGemm(contraction);
        if (!plan.ok()) return plan.status();
        gemm = *plan;
        return Status::Ok();
      });
  if (!split.ok()) return split.status();
  if (gemm->k == 0) return Status::Error("the dot contracts nothing (an empty dimension)");
  step.gemm = gemm;
  StatusOr<std::vector<recording::KernelStage>> transposes =
      PlanTransposes(step, *split->contraction);
  if (!transposes.ok()) return transposes.status();
  step.kind = StepKind::kOutput;
  step.tuple_result = split->tuple_result;
  step.dot = split->contraction;
  step.dot_lhs = split->lhs;
  step.dot_rhs = split->rhs;
  Status planned = PlanPtx(step, std::move(split->epilogue), "cublas",
                           gemm->Description() + ", then the epilogue as a PTX kernel");
  if (step.kind == StepKind::kOutput) {
    std::vector<recording::KernelStage>& stages = records_[static_cast<size_t>(step.record)].stages;
    stages.insert(stages.end(), transposes->begin(), transposes->end());
  }
  return planned;
}

Status CudaExecutable::Impl::PlanFusion(Step& step) {
  const ir::Instruction& instruction = *step.instruction;
  const ir::Computation* fused = instruction.fused_computation();
  if (fused == nullptr || fused->root() == nullptr) {
    AddHost(step, "the fusion has no fused computation", NewRecord(instruction));
    return Status::Ok();
  }
  const std::string kind = instruction.fusion_kind();
  if (IsContractionFusion(instruction)) {
    Status planned = PlanOutputFusion(step);
    if (!planned.ok())
      AddHost(step, kind + " fusion on the host: " + planned.message(), NewRecord(instruction));
    return Status::Ok();
  }
  if (kind != "Loop" && kind != "Input" && kind != "Custom") {
    AddHost(step, kind + " fusion runs through the interpreter", NewRecord(instruction));
    return Status::Ok();
  }
  step.kind = StepKind::kPtx;
  step.tuple_result = fused->root()->shape().IsTuple();
  return PlanPtx(step, EmitFusionKernel(instruction), "nvptx", "");
}

Status CudaExecutable::Impl::PlanStep(Step& step) {
  const ir::Instruction& instruction = *step.instruction;
  const Opcode opcode = instruction.opcode();
  if (opcode == Opcode::kBitcast &&
      !(instruction.shape().IsRowMajor() && instruction.operand(0)->shape().IsRowMajor())) {
    AddHost(step, "a bitcast between layouts moves elements: it runs on the host",
            NewRecord(instruction));
    return Status::Ok();
  }
  // Our buffers hold values in logical row-major order whatever the layout: a reshape or a
  // copy is the same bytes, an alias of its operand's buffer.
  const bool same_bytes =
      (opcode == Opcode::kReshape || opcode == Opcode::kCopy) && !instruction.shape().IsTuple();
  if (IsValueOpcode(opcode) || same_bytes) {
    step.kind = StepKind::kValue;
    return Status::Ok();
  }
  if (opcode == Opcode::kFusion) return PlanFusion(step);
  if (opcode == Opcode::kDot) {
    StatusOr<GemmPlan> plan = PlanGemm(instruction);
    if (plan.ok() && plan->k == 0)
      plan = Status::Error("it contracts nothing (an empty dimension)");
    if (!plan.ok()) {
      AddHost(step, "dot runs through the interpreter: " + plan.message(), NewRecord(instruction));
      return Status::Ok();
    }
    step.gemm = *plan;
    StatusOr<std::vector<recording::KernelStage>> transposes = PlanTransposes(step, instruction);
    if (!transposes.ok()) {
      AddHost(step, "dot runs through the interpreter: " + transposes.message(),
              NewRecord(instruction));
      return Status::Ok();
    }
    step.kind = StepKind::kGemm;
    recording::KernelRecord record = NewRecord(instruction);
    record.backend = "cublas";
    record.note = plan->Description();
    record.stages = std::move(transposes).value();
    AddRecord(step, std::move(record));
    return Status::Ok();
  }
  if (IsEmittableOpcode(opcode) && opcode != Opcode::kWhile && opcode != Opcode::kConditional &&
      opcode != Opcode::kCall) {
    step.kind = StepKind::kPtx;
    step.tuple_result = instruction.shape().IsTuple();
    return PlanPtx(step, EmitInstructionKernel(instruction), "nvptx", "");
  }
  AddHost(step, HostReason(instruction), NewRecord(instruction));
  return Status::Ok();
}

Status CudaExecutable::Impl::Compile() {
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
  step_of_record_.assign(records_.size(), nullptr);
  for (const Step& step : steps_) {
    if (step.record >= 0) step_of_record_[static_cast<size_t>(step.record)] = &step;
  }
  compile_seconds_ =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return Status::Ok();
}

// The driver, the PTX loaded and cuBLAS, once.
Status CudaExecutable::Impl::Prepare() {
  if (driver_ == nullptr) {
    StatusOr<CudaDriver*> driver = CudaDriver::Get();
    if (!driver.ok()) return driver.status();
    driver_ = *driver;
  }
  for (Step& step : steps_) {
    if (step.gemm && cublas_ == nullptr) {
      StatusOr<CublasLibrary*> cublas = CublasLibrary::Get();
      if (!cublas.ok()) return cublas.status();
      cublas_ = *cublas;
    }
    for (int side = 0; side < 2; ++side) {
      if (!step.transposes[side] || step.loaded_transposes[side]) continue;
      StatusOr<std::unique_ptr<LoadedPtxKernel>> loaded = driver_->Load(*step.transposes[side]);
      if (!loaded.ok()) return Status::Error(step.instruction->name() + ": " + loaded.message());
      step.loaded_transposes[side] = std::move(loaded).value();
    }
    if (step.ptx && !step.loaded) {
      StatusOr<std::unique_ptr<LoadedPtxKernel>> loaded = driver_->Load(*step.ptx);
      if (!loaded.ok()) return Status::Error(step.instruction->name() + ": " + loaded.message());
      step.loaded = std::move(loaded).value();
    }
  }
  return Status::Ok();
}

StatusOr<std::shared_ptr<DeviceBuffer>> CudaExecutable::Impl::NewBuffer(const ir::Shape& shape) {
  const int64_t bytes = ShapeBytes(shape);
  if (bytes < 0 || bytes > options_.max_live_bytes - live_bytes_) {
    return Status::Error("a value " + shape.ToString(false) +
                         " would take the live device buffers past the limit of " +
                         std::to_string(options_.max_live_bytes) + " bytes");
  }
  StatusOr<DevicePointer> pointer = driver_->Allocate(bytes);
  if (!pointer.ok()) return pointer.status();
  return std::make_shared<DeviceBuffer>(*driver_, *pointer, bytes, live_bytes_);
}

Status CudaExecutable::Impl::UploadLeaves(const Literal& literal, DeviceValue& value) {
  if (literal.is_tuple()) {
    for (const Literal& element : literal.elements()) {
      if (Status uploaded = UploadLeaves(element, value); !uploaded.ok()) return uploaded;
    }
    return Status::Ok();
  }
  StatusOr<std::shared_ptr<DeviceBuffer>> buffer = NewBuffer(literal.shape());
  if (!buffer.ok()) return buffer.status();
  const auto* bytes = reinterpret_cast<const std::byte*>(literal.data());
  Status copied = driver_->CopyToDevice(
      (*buffer)->pointer(), std::span(bytes, static_cast<size_t>(literal.TotalByteSize())));
  if (!copied.ok()) return copied;
  value.leaves.push_back(std::move(buffer).value());
  return Status::Ok();
}

StatusOr<DeviceValue> CudaExecutable::Impl::Upload(const Literal& literal) {
  DeviceValue value;
  value.shape = literal.shape();
  if (Status uploaded = UploadLeaves(literal, value); !uploaded.ok()) return uploaded;
  return value;
}

StatusOr<Literal> CudaExecutable::Impl::DownloadLeaves(const ir::Shape& shape,
                                                       const DeviceValue& value, size_t& next) {
  if (shape.IsTuple()) {
    std::vector<Literal> elements;
    for (const ir::Shape& element : shape.tuple_shapes()) {
      StatusOr<Literal> downloaded = DownloadLeaves(element, value, next);
      if (!downloaded.ok()) return downloaded;
      elements.push_back(std::move(downloaded).value());
    }
    return Literal::Tuple(std::move(elements));
  }
  StatusOr<Literal> literal = Literal::Create(shape);
  if (!literal.ok()) return literal;
  if (next >= value.leaves.size()) return Status::Error("a device value lacks a buffer");
  const DeviceBuffer& buffer = *value.leaves[next++];
  if (buffer.bytes() < literal->TotalByteSize())
    return Status::Error("a device buffer is smaller than its value " + shape.ToString(false));
  auto* bytes = reinterpret_cast<std::byte*>(literal->data());
  Status copied = driver_->CopyToHost(
      std::span(bytes, static_cast<size_t>(literal->TotalByteSize())), buffer.pointer());
  if (!copied.ok()) return copied;
  return literal;
}

StatusOr<Literal> CudaExecutable::Impl::Download(const DeviceValue& value) {
  size_t next = 0;
  return DownloadLeaves(value.shape, value, next);
}

StatusOr<DeviceValue> CudaExecutable::Impl::RunValue(
    const Step& step, const std::vector<const DeviceValue*>& operands) {
  const ir::Instruction& instruction = *step.instruction;
  DeviceValue value;
  value.shape = instruction.shape();
  switch (instruction.opcode()) {
    case Opcode::kTuple:
      for (const DeviceValue* operand : operands)
        value.leaves.insert(value.leaves.end(), operand->leaves.begin(), operand->leaves.end());
      return value;
    case Opcode::kGetTupleElement: {
      const ir::Shape& tuple = operands[0]->shape;
      const int64_t index = instruction.tuple_index().value_or(-1);
      if (!tuple.IsTuple() || index < 0 ||
          index >= static_cast<int64_t>(tuple.tuple_shapes().size()))
        return Status::Error(instruction.name() + ": no such tuple element");
      int64_t first = 0;
      for (int64_t i = 0; i < index; ++i)
        first += LeafCount(tuple.tuple_shapes()[static_cast<size_t>(i)]);
      const int64_t count = LeafCount(tuple.tuple_shapes()[static_cast<size_t>(index)]);
      value.leaves.assign(operands[0]->leaves.begin() + first,
                          operands[0]->leaves.begin() + first + count);
      return value;
    }
    case Opcode::kReshape:
    case Opcode::kCopy:
    case Opcode::kBitcast:
      // Planned as values only where the result is the operand's bytes (a bitcast: between
      // row-major layouts).
      if (value.shape.IsTuple() || operands[0]->shape.IsTuple() ||
          ShapeBytes(value.shape) != ShapeBytes(operands[0]->shape))
        return Status::Error(std::string(instruction.opcode_name()) + " changes the byte size");
      value.leaves = operands[0]->leaves;
      return value;
    default: {
      // A constant: its value computed on the host and uploaded once.
      auto cached = constants_.find(&instruction);
      if (cached != constants_.end()) return cached->second;
      StatusOr<Literal> literal = host_.EvaluateInstruction(instruction, {});
      if (!literal.ok()) return literal.status();
      StatusOr<DeviceValue> uploaded = Upload(*literal);
      if (!uploaded.ok()) return uploaded;
      constants_[&instruction] = *uploaded;
      return uploaded;
    }
  }
}

StatusOr<DeviceValue> CudaExecutable::Impl::RunHost(
    const Step& step, const std::vector<const DeviceValue*>& operands) {
  std::vector<Literal> literals;
  for (const DeviceValue* operand : operands) {
    StatusOr<Literal> downloaded = Download(*operand);
    if (!downloaded.ok()) return downloaded.status();
    literals.push_back(std::move(downloaded).value());
  }
  std::vector<const Literal*> pointers;
  for (const Literal& literal : literals) pointers.push_back(&literal);
  StatusOr<Literal> result = host_.EvaluateInstruction(*step.instruction, pointers);
  if (!result.ok()) return result.status();
  return Upload(*result);
}

// The kernel's launches on `inputs`, into new buffers for its outputs.
StatusOr<DeviceValue> CudaExecutable::Impl::RunKernel(const Step& step,
                                                      std::vector<DevicePointer> inputs) {
  DeviceValue value;
  value.shape = step.instruction->shape();
  for (const ir::Shape& shape : step.output_shapes) {
    StatusOr<std::shared_ptr<DeviceBuffer>> output = NewBuffer(shape);
    if (!output.ok()) return output.status();
    inputs.push_back((*output)->pointer());
    value.leaves.push_back(std::move(output).value());
  }
  Status launched = driver_->Launch(*step.loaded, inputs);
  if (!launched.ok()) return launched;
  return value;
}

// `operand` itself, or its transpose into a new temporary where the GEMM needs one.
StatusOr<DevicePointer> CudaExecutable::Impl::Transposed(
    const Step& step, int side, DevicePointer operand,
    std::vector<std::shared_ptr<DeviceBuffer>>& temporaries) {
  if (!step.loaded_transposes[side]) return operand;
  StatusOr<std::shared_ptr<DeviceBuffer>> buffer = NewBuffer(step.transposed_shapes[side]);
  if (!buffer.ok()) return buffer.status();
  Status launched = driver_->Launch(*step.loaded_transposes[side], {operand, (*buffer)->pointer()});
  if (!launched.ok()) return launched;
  temporaries.push_back(*buffer);
  return (*buffer)->pointer();
}

// The step's GEMM into `product`, its operands transposed first where planned; returns once
// the device is done with the temporaries.
Status CudaExecutable::Impl::RunGemm(const Step& step, DevicePointer lhs, DevicePointer rhs,
                                     DevicePointer product) {
  std::vector<std::shared_ptr<DeviceBuffer>> temporaries;
  StatusOr<DevicePointer> b = Transposed(step, 0, lhs, temporaries);
  if (!b.ok()) return b.status();
  StatusOr<DevicePointer> a = Transposed(step, 1, rhs, temporaries);
  if (!a.ok()) return a.status();
  Status ran = cublas_->Gemm(*step.gemm, *a, *b, product);
  if (!ran.ok() || temporaries.empty()) return ran;
  return driver_->Synchronize();
}

StatusOr<DeviceValue> CudaExecutable::Impl::RunStep(
    const Step& step, const std::vector<const DeviceValue*>& operands) {
  std::vector<DevicePointer> inputs;
  for (const DeviceValue* operand : operands) {
    if (step.kind != StepKind::kHost && step.kind != StepKind::kValue &&
        operand->leaves.size() != 1)
      return Status::Error("a kernel input is a tuple");
    if (!operand->leaves.empty()) inputs.push_back(operand->leaves.front()->pointer());
  }
  switch (step.kind) {
    case StepKind::kValue:
      return RunValue(step, operands);
    case StepKind::kHost:
      return RunHost(step, operands);
    case StepKind::kPtx:
      return RunKernel(step, std::move(inputs));
    case StepKind::kGemm: {
      StatusOr<std::shared_ptr<DeviceBuffer>> product = NewBuffer(step.instruction->shape());
      if (!product.ok()) return product.status();
      Status ran = RunGemm(step, inputs[0], inputs[1], (*product)->pointer());
      if (!ran.ok()) return ran;
      DeviceValue value;
      value.shape = step.instruction->shape();
      value.leaves.push_back(std::move(product).value());
      return value;
    }
    case StepKind::kOutput: {
      StatusOr<std::shared_ptr<DeviceBuffer>> product = NewBuffer(step.dot->shape());
      if (!product.ok()) return product.status();
      Status ran = RunGemm(step, inputs.at(static_cast<size_t>(step.dot_lhs)),
                           inputs.at(static_cast<size_t>(step.dot_rhs)), (*product)->pointer());
      if (!ran.ok()) return ran;
      inputs.push_back((*product)->pointer());
      // The product is read by queued launches: released after the device synchronised.
      StatusOr<DeviceValue> result = RunKernel(step, std::move(inputs));
      if (!result.ok()) return result;
      if (Status synchronized = driver_->Synchronize(); !synchronized.ok()) return synchronized;
      return result;
    }
  }
  return Status::Error("unknown step");
}

StatusOr<Literal> CudaExecutable::Impl::Run(const std::vector<Literal>& arguments) {
  const ir::Computation& entry = *module_.entry();
  if (static_cast<int64_t>(arguments.size()) != entry.parameter_count()) {
    return Status::Error("the module takes " + std::to_string(entry.parameter_count()) +
                         " arguments, got " + std::to_string(arguments.size()));
  }
  if (Status prepared = Prepare(); !prepared.ok()) return prepared;
  timings_.assign(records_.size(), KernelTiming{});
  for (size_t i = 0; i < timings_.size(); ++i) timings_[i].kernel = i;
  std::vector<int64_t> remaining(steps_.size(), 0);
  for (const Step& step : steps_) {
    for (size_t slot : step.operands) ++remaining[slot];
  }
  const size_t root = slot_.at(entry.root());
  std::vector<std::optional<DeviceValue>> values(steps_.size());
  for (size_t i = 0; i < steps_.size(); ++i) {
    const Step& step = steps_[i];
    const ir::Instruction& instruction = *step.instruction;
    if (instruction.opcode() == Opcode::kParameter) {
      const int64_t n = instruction.parameter_number();
      if (n < 0 || n >= static_cast<int64_t>(arguments.size()))
        return Status::Error(instruction.name() + ": no argument for this parameter");
      const Literal& argument = arguments[static_cast<size_t>(n)];
      if (!argument.shape().Compatible(instruction.shape())) {
        return Status::Error(instruction.name() + ": argument " + argument.shape().ToString(false) +
                             " does not match the parameter's shape " +
                             instruction.shape().ToString(false));
      }
      StatusOr<DeviceValue> uploaded = Upload(argument);
      if (!uploaded.ok()) return Status::Error(instruction.name() + ": " + uploaded.message());
      uploaded->shape = instruction.shape();
      values[i] = std::move(uploaded).value();
      continue;
    }
    std::vector<const DeviceValue*> operands;
    for (size_t slot : step.operands) operands.push_back(&*values[slot]);
    const size_t record = static_cast<size_t>(std::max<int64_t>(step.record, 0));
    if (step.record >= 0 && options_.before_kernel) options_.before_kernel(record);
    const auto started = std::chrono::steady_clock::now();
    StatusOr<DeviceValue> result = RunStep(step, operands);
    if (result.ok() && step.kind != StepKind::kValue) {
      if (Status synchronized = driver_->Synchronize(); !synchronized.ok()) result = synchronized;
    }
    if (step.record >= 0) {
      KernelTiming& timing = timings_[record];
      timing.seconds +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      ++timing.executions;
      if (options_.after_kernel) options_.after_kernel(record);
    }
    if (!result.ok()) return Status::Error(instruction.name() + ": " + result.message());
    values[i] = std::move(result).value();
    for (size_t slot : step.operands) {
      if (--remaining[slot] == 0 && slot != root) values[slot].reset();
    }
  }
  return Download(*values[root]);
}

CudaExecutable::CudaExecutable(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
CudaExecutable::~CudaExecutable() = default;

StatusOr<std::unique_ptr<CudaExecutable>> CudaExecutable::Compile(const ir::Module& module,
                                                                  CudaExecutableOptions options) {
  auto impl = std::make_unique<Impl>(module, std::move(options));
  Status compiled = impl->Compile();
  if (!compiled.ok()) return compiled;
  return std::unique_ptr<CudaExecutable>(new CudaExecutable(std::move(impl)));
}

StatusOr<Literal> CudaExecutable::Run(const std::vector<Literal>& arguments) {
  return impl_->Run(arguments);
}

const std::vector<recording::KernelRecord>& CudaExecutable::kernels() const {
  return impl_->records_;
}
const std::vector<KernelTiming>& CudaExecutable::last_timings() const { return impl_->timings_; }
double CudaExecutable::compile_seconds() const { return impl_->compile_seconds_; }

const PtxKernel* CudaExecutable::ptx(size_t kernel) const {
  if (kernel >= impl_->step_of_record_.size()) return nullptr;
  return impl_->step_of_record_[kernel]->ptx.get();
}

const GemmPlan* CudaExecutable::gemm(size_t kernel) const {
  if (kernel >= impl_->step_of_record_.size()) return nullptr;
  const std::optional<GemmPlan>& plan = impl_->step_of_record_[kernel]->gemm;
  return plan ? &*plan : nullptr;
}

std::vector<std::string> CudaExecutable::LaunchNames(size_t kernel) const {
  std::vector<std::string> names;
  if (kernel < impl_->step_of_record_.size()) {
    for (const auto& transpose : impl_->step_of_record_[kernel]->transposes) {
      if (!transpose) continue;
      for (const PtxLaunch& launch : transpose->launches) {
        if (!launch.is_copy) names.push_back(launch.kernel);
      }
    }
  }
  if (const PtxKernel* lowered = ptx(kernel)) {
    for (const PtxLaunch& launch : lowered->launches) {
      if (!launch.is_copy) names.push_back(launch.kernel);
    }
  }
  return names;
}

std::string CudaExecutable::KernelSummary() const {
  return SummarizeKernels(impl_->records_, impl_->host_opcodes_);
}

}  // namespace fusescope::runtime
