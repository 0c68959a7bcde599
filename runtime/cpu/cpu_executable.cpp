#include "runtime/cpu/cpu_executable.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "ir/computation.h"
#include "ir/verifier.h"
#include "passes/buffer_assignment.h"
#include "passes/cost_analysis.h"
#include "runtime/cpu/blas_convolution.h"
#include "runtime/cpu/blas_dot.h"
#include "runtime/cpu/thread_team.h"
#include "runtime/executable_planning.h"
#include "runtime/interpreter/interpreter.h"
#include "runtime/kernel_emitter.h"
#include "runtime/row_blocks.h"

namespace fusescope::runtime {
namespace {

using ir::Opcode;

enum class StepKind {
  kValue,    // parameter, constant, tuple, get-tuple-element, bitcast: on the host, no kernel
  kMlir,     // a compiled kernel on the operands
  kBlas,     // a dot or convolution through BLAS
  kOutput,   // an output or custom fusion: BLAS on two operands, then a compiled epilogue
  kHost,     // the interpreter
  kControl,  // while, conditional, call: their computations as programs of their own
};

struct Program;
struct FlatLoop;

// Value pointers read in place: a program's arguments, a kernel's inputs (no vector of their
// own at every step of a loop).
struct Values {
  const Literal* const* data = nullptr;
  size_t size = 0;
  Values() = default;
  Values(const std::vector<const Literal*>& values)  // NOLINT: implicit by design
      : data(values.data()), size(values.size()) {}
  Values(const Literal* const* first, size_t count) : data(first), size(count) {}
  const Literal* operator[](size_t i) const { return data[i]; }
};

struct Step {
  StepKind kind = StepKind::kHost;
  const ir::Instruction* instruction = nullptr;
  int64_t record = -1;  // index into the kernel records; -1 for values
  std::shared_ptr<const CompiledKernel> kernel;
  // kOutput: the dot inside the fusion and the fusion operands that are its lhs/rhs.
  const ir::Instruction* dot = nullptr;
  int64_t dot_lhs = -1, dot_rhs = -1;
  // kBlas / kOutput: the library that computes the dot or convolution (KernelConfig::gemm),
  // and a dot's dimension numbers read once.
  GemmConfig gemm;
  std::shared_ptr<const BlasDotPlan> dot_plan;
  // A convolution oneDNN runs itself (its primitive made at plan time); null otherwise.
  std::shared_ptr<const PreparedConvolution> direct_convolution;
  std::vector<size_t> operands;          // value slots of the instruction's operands
  std::vector<ir::Shape> output_shapes;  // kMlir / kOutput: the kernel's outputs (no layouts)
  bool tuple_result = false;             // the kernel's outputs form a tuple value
  // kMlir: the operand whose bytes the output holds on entry (EmittedKernel::in_place_input).
  int in_place_input = -1;
  // kMlir / kOutput: the kernel computes one block of rows (runtime/row_blocks.h) and runs
  // `blocks` times at once, each argument's pointer moved on by its block_bytes (0: the whole
  // argument for every block); 1: the kernel computes everything.
  int64_t blocks = 1;
  std::vector<int64_t> block_bytes;  // inputs, then outputs
  // A get-tuple-element of a program's tuple parameter that may move the element out of it
  // (the only reader of that element; see RunProgram's `state`): the element's index, read
  // once here rather than at every step of a loop; -1 for every other step.
  int64_t takes_element = -1;
  // kControl: while (condition, body), conditional (its branches), call (to_apply).
  std::vector<const Program*> called;
  // A constant: its value, made once at plan time and read in place like a parameter.
  std::optional<Literal> constant;
  // A while loop that runs on buffers of its own (FlatLoop); null: value by value.
  std::shared_ptr<const FlatLoop> flat_loop;
};

// One computation planned as steps, one value slot per instruction.
struct Program {
  const ir::Computation* computation = nullptr;
  std::vector<Step> steps;
  std::unordered_map<const ir::Instruction*, size_t> slot;
  size_t root = 0;               // the root's slot
  std::vector<int64_t> readers;  // per slot: how many operands of later steps it is
  // RunProgram's working vectors, kept between runs: a loop body runs once a step, and
  // making them anew each time was a good part of a small step's cost. Programs do not run
  // re-entrantly (computations call each other without cycles); `in_use` guards that.
  struct Scratch {
    std::vector<Literal> values;
    std::vector<const Literal*> value_of;
    std::vector<int64_t> remaining;
    std::vector<char> live;
    std::vector<const Literal*> operands;
    bool in_use = false;
  };
  mutable Scratch scratch;
};

// A while loop run on buffers of its own, planned once (PlanFlatPart) where its state is an
// array or a tuple of arrays and its condition and body hold only kernels, library calls,
// constants and reads of the state's elements. Each step of the loop writes every output
// into the buffer that output had the step before (or, where the body's new state took that
// buffer, into an element of the old state the new one replaced); an in-place kernel writes
// into the state element it updates, and elements the body passes on unchanged stay where
// they are. No value is made and no shape built, and from the second step on nothing is
// allocated. The general path (RunProgram) makes a value per instruction: on a scan of small
// steps that was most of a step's time.
struct FlatLoop {
  // Where an operand's bytes are.
  struct Location {
    enum class Kind : uint8_t { kState, kOutput, kConstant };
    Kind kind = Kind::kState;
    size_t index = 0;                   // the state element, or the op of the same part
    const Literal* constant = nullptr;  // kConstant
    // kOutput of an op with several outputs (a tuple): which one; kAll: the op's one output,
    // or (for a tuple) all of them, which only a get-tuple-element may read.
    static constexpr size_t kAll = SIZE_MAX;
    size_t element = kAll;
    bool operator==(const Location& other) const {
      return kind == other.kind && index == other.index && constant == other.constant &&
             element == other.element;
    }
  };
  struct Op {
    const Step* step = nullptr;
    std::vector<Location> inputs;
    ir::Shape shape;          // the output's
    int64_t bytes = 0;        // the output's (of all its elements for a tuple)
    // A kernel with several outputs: each one's shape; its output is a tuple of them.
    std::vector<ir::Shape> element_shapes;
    ir::Shape product_shape;  // kOutput: its dot's or convolution's product
    int64_t product_bytes = 0;
    // An in-place kernel whose operand nothing reads afterwards: the operand's buffer
    // becomes the output's. Any other in-place kernel's operand is copied there first.
    bool donated = false;
  };
  // The condition or the body.
  struct Part {
    std::vector<Op> ops;
    std::vector<Location> results;  // the body's new state, element by element; the pred
    // Per result: whether its buffer moves into the new state (no later result is the same
    // buffer) rather than being copied.
    std::vector<char> moves;
  };
  // The bytes at `location`: an element of `state`, an output of the part, or a constant.
  static const Literal& Read(const Location& location, const std::vector<Literal>& state,
                             const std::vector<Literal>& outputs) {
    switch (location.kind) {
      case Location::Kind::kState:
        return state[location.index];
      case Location::Kind::kOutput:
        return location.element == Location::kAll
                   ? outputs[location.index]
                   : outputs[location.index].elements()[location.element];
      case Location::Kind::kConstant:
        break;
    }
    return *location.constant;
  }
  Part condition, body;
  size_t elements = 1;  // of the state
  bool tuple_state = false;
  std::vector<ir::Shape> state_shapes;  // per element
  // The buffers, kept between runs. A loop does not run re-entrantly; `in_use` guards that.
  struct Buffers {
    std::vector<Literal> state, next;
    std::vector<Literal> condition, condition_products, body, body_products;
    bool in_use = false;
  };
  mutable Buffers buffers;
};

bool PlanFlatFusion(const Program& program, const std::vector<FlatLoop::Location>& arguments,
                    FlatLoop::Part& part, std::string& why,
                    std::optional<FlatLoop::Location>& result);

// Whether `location` is all the outputs of an op that has several: only a get-tuple-element
// reads that.
bool ReadsWholeTuple(const FlatLoop::Location& location, const FlatLoop::Part& part) {
  return location.kind == FlatLoop::Location::Kind::kOutput &&
         location.element == FlatLoop::Location::kAll &&
         !part.ops[location.index].element_shapes.empty();
}

// `element` (a get-tuple-element step) as the output of an op with several it reads, or
// nullopt where it reads something else.
std::optional<FlatLoop::Location> ElementOfOp(const Step& element,
                                              const std::optional<FlatLoop::Location>& tuple,
                                              const FlatLoop::Part& part) {
  if (element.instruction->opcode() != Opcode::kGetTupleElement || !tuple ||
      !ReadsWholeTuple(*tuple, part))
    return std::nullopt;
  const int64_t index = element.instruction->tuple_index().value_or(-1);
  if (index < 0 || index >= static_cast<int64_t>(part.ops[tuple->index].element_shapes.size()))
    return std::nullopt;
  FlatLoop::Location location = *tuple;
  location.element = static_cast<size_t>(index);
  return location;
}

// Whether `step` can be an op of a flat loop: a kernel, a library call, a fusion run op by op
// or a bitcast that keeps the bytes in order; otherwise why not.
bool Flattenable(const Step& step, std::string& why) {
  const ir::Instruction& instruction = *step.instruction;
  const bool kernel =
      ((step.kind == StepKind::kMlir || step.kind == StepKind::kOutput) && step.kernel != nullptr &&
       (!step.tuple_result || (step.kind == StepKind::kMlir && step.in_place_input < 0))) ||
      step.kind == StepKind::kBlas;
  const bool fusion = step.kind == StepKind::kControl && instruction.opcode() == Opcode::kFusion &&
                      step.called.size() == 1;
  // A bitcast between row-major layouts (a [1,32] row read as [32]): its bytes copied.
  const bool bitcast = step.kind == StepKind::kValue && instruction.opcode() == Opcode::kBitcast &&
                       instruction.operand_count() == 1 && instruction.shape().IsArray() &&
                       instruction.shape().IsRowMajor() &&
                       instruction.operand(0)->shape().IsRowMajor();
  if (kernel || fusion || bitcast) return true;
  why =
      instruction.name() + " (" + std::string(instruction.opcode_name()) +
      (step.kind == StepKind::kControl ? ") runs a computation of its own" : ") runs on the host");
  return false;
}

// Appends `step` (one Flattenable says a flat loop takes, its operands at `inputs`) to `part`,
// or a fusion run op by op with its ops; where its output is, or nullopt with the reason in
// `why`.
std::optional<FlatLoop::Location> AddFlatOp(const Step& step,
                                            std::vector<FlatLoop::Location> inputs,
                                            FlatLoop::Part& part, std::string& why) {
  using Location = FlatLoop::Location;
  const ir::Instruction& instruction = *step.instruction;
  if (step.kind == StepKind::kControl && instruction.opcode() == Opcode::kFusion &&
      step.called.size() == 1) {
    // A fusion that runs its computation op by op (a dot with a transpose fused into its
    // operand): its ops join the part, its parameters standing for the fusion's operands.
    std::optional<Location> result;
    if (!PlanFlatFusion(*step.called[0], inputs, part, why, result)) return std::nullopt;
    return result;
  }
  FlatLoop::Op op;
  op.step = &step;
  op.inputs = std::move(inputs);
  if (step.tuple_result) {
    // Several outputs (an argmax's value and index): read one by one (get-tuple-element).
    op.element_shapes = step.output_shapes;
    op.shape = ir::Shape::Tuple(step.output_shapes);
  } else {
    op.shape = step.kind == StepKind::kBlas || step.kind == StepKind::kValue
                   ? instruction.shape()
                   : step.output_shapes.at(0);
  }
  op.bytes = ShapeBytes(op.shape);
  if (step.kind == StepKind::kOutput) {
    op.product_shape = step.dot->shape();
    op.product_bytes = ShapeBytes(op.product_shape);
  }
  if (op.bytes < 0 || op.product_bytes < 0) {
    why = instruction.name() + " has a shape of no fixed size";
    return std::nullopt;
  }
  part.ops.push_back(std::move(op));
  return Location{Location::Kind::kOutput, part.ops.size() - 1, nullptr};
}

// Where `step`'s value is once planned into `part`: an element of an op with several outputs
// (a get-tuple-element of it), or a new op reading its operands at `at`; nullopt with the
// reason in `why`.
std::optional<FlatLoop::Location> PlanFlatStep(
    const Step& step, const std::vector<std::optional<FlatLoop::Location>>& at,
    FlatLoop::Part& part, std::string& why) {
  if (step.kind == StepKind::kValue && step.operands.size() == 1) {
    if (std::optional<FlatLoop::Location> element = ElementOfOp(step, at[step.operands[0]], part))
      return element;
  }
  if (!Flattenable(step, why)) return std::nullopt;
  std::vector<FlatLoop::Location> inputs;
  for (size_t slot : step.operands) {
    if (!at[slot] || ReadsWholeTuple(*at[slot], part)) {
      why = step.instruction->name() + " reads a tuple";
      return std::nullopt;
    }
    inputs.push_back(*at[slot]);
  }
  return AddFlatOp(step, std::move(inputs), part, why);
}

// A fused computation's steps appended to `part`, its parameters at `arguments`; `result`
// is where its root's value is.
bool PlanFlatFusion(const Program& program, const std::vector<FlatLoop::Location>& arguments,
                    FlatLoop::Part& part, std::string& why,
                    std::optional<FlatLoop::Location>& result) {
  using Location = FlatLoop::Location;
  std::vector<std::optional<Location>> at(program.steps.size());
  for (size_t i = 0; i < program.steps.size(); ++i) {
    const Step& step = program.steps[i];
    const ir::Instruction& instruction = *step.instruction;
    if (instruction.opcode() == Opcode::kParameter) {
      const int64_t number = instruction.parameter_number();
      if (number < 0 || number >= static_cast<int64_t>(arguments.size())) {
        why = instruction.name() + " stands for no operand of its fusion";
        return false;
      }
      at[i] = arguments[static_cast<size_t>(number)];
      continue;
    }
    if (step.constant && !step.constant->is_tuple()) {
      at[i] = Location{Location::Kind::kConstant, 0, &*step.constant};
      continue;
    }
    at[i] = PlanFlatStep(step, at, part, why);
    if (!at[i]) return false;
  }
  result = at[program.root];
  if (!result || ReadsWholeTuple(*result, part)) {
    why = program.steps[program.root].instruction->name() + " is not an array";
    return false;
  }
  return true;
}

// Plans `program` (the loop's condition, or its body) as a FlatLoop part; false with the
// reason in `why` where a step is not a kernel, a library call, a constant or a read of
// the state.
bool PlanFlatPart(const Program& program, bool body, FlatLoop& loop, FlatLoop::Part& part,
                  std::string& why) {
  using Location = FlatLoop::Location;
  std::vector<std::optional<Location>> at(program.steps.size());
  std::optional<size_t> parameter;
  for (size_t i = 0; i < program.steps.size(); ++i) {
    const Step& step = program.steps[i];
    const ir::Instruction& instruction = *step.instruction;
    const bool value_step = step.kind == StepKind::kValue || step.kind == StepKind::kHost;
    if (instruction.opcode() == Opcode::kParameter) {
      if (instruction.parameter_number() != 0) {
        why = instruction.name() + " is not the loop's one parameter";
        return false;
      }
      parameter = i;
      if (!loop.tuple_state) at[i] = Location{Location::Kind::kState, 0, nullptr};
      continue;
    }
    if (step.constant) {
      if (step.constant->is_tuple()) {
        why = instruction.name() + " is a tuple constant";
        return false;
      }
      at[i] = Location{Location::Kind::kConstant, 0, &*step.constant};
      continue;
    }
    if (instruction.opcode() == Opcode::kGetTupleElement && value_step && loop.tuple_state &&
        step.operands.size() == 1 && parameter && step.operands[0] == *parameter) {
      const int64_t index = instruction.tuple_index().value_or(-1);
      if (index < 0 || index >= static_cast<int64_t>(loop.elements)) {
        why = instruction.name() + " reads no element of the state";
        return false;
      }
      at[i] = Location{Location::Kind::kState, static_cast<size_t>(index), nullptr};
      continue;
    }
    if (body && loop.tuple_state && i == program.root && value_step &&
        instruction.opcode() == Opcode::kTuple) {
      for (size_t slot : step.operands) {
        if (!at[slot] || ReadsWholeTuple(*at[slot], part)) {
          why = instruction.name() + ": an element of the new state is not an array";
          return false;
        }
        part.results.push_back(*at[slot]);
      }
      continue;
    }
    at[i] = PlanFlatStep(step, at, part, why);
    if (!at[i]) return false;
  }
  if (!body || !loop.tuple_state) {
    if (!at[program.root] || ReadsWholeTuple(*at[program.root], part)) {
      why = program.steps[program.root].instruction->name() + " is not an array";
      return false;
    }
    part.results = {*at[program.root]};
  }
  if (body && part.results.size() != loop.elements) {
    why = "the body's result is not the loop's state";
    return false;
  }
  // In place where nothing reads the operand afterwards: not this op's other operands, not a
  // later op, not the new state. The condition leaves the state as it is.
  for (size_t o = 0; o < part.ops.size(); ++o) {
    FlatLoop::Op& op = part.ops[o];
    const int in_place = op.step->in_place_input;
    if (op.step->kind != StepKind::kMlir || in_place < 0 ||
        in_place >= static_cast<int>(op.inputs.size()))
      continue;
    const Location operand = op.inputs[static_cast<size_t>(in_place)];
    if (operand.kind == Location::Kind::kConstant || operand.element != Location::kAll ||
        (operand.kind == Location::Kind::kState && !body))
      continue;
    bool read_again = std::count(op.inputs.begin(), op.inputs.end(), operand) > 1 ||
                      std::count(part.results.begin(), part.results.end(), operand) > 0;
    for (size_t later = o + 1; later < part.ops.size() && !read_again; ++later) {
      const std::vector<Location>& inputs = part.ops[later].inputs;
      read_again = std::find(inputs.begin(), inputs.end(), operand) != inputs.end();
    }
    const ir::Shape& operand_shape = operand.kind == Location::Kind::kState
                                         ? loop.state_shapes[operand.index]
                                         : part.ops[operand.index].shape;
    op.donated = !read_again && operand_shape.Compatible(op.shape);
  }
  part.moves.assign(part.results.size(), 0);
  for (size_t j = 0; j < part.results.size(); ++j) {
    const Location& result = part.results[j];
    // An output among several stays in its tuple: copied.
    part.moves[j] = result.kind != Location::Kind::kConstant && result.element == Location::kAll &&
                    std::find(part.results.begin() + static_cast<std::ptrdiff_t>(j) + 1,
                              part.results.end(), result) == part.results.end();
  }
  return true;
}

// KernelRecord::backend of a library call: the library's name ("openblas", "onednn", "blis",
// or "mlir" for our matmul, beside the "mlir-cpu" of loop kernels). GemmLibraryName returns
// string literals, so the view is null-terminated.
const char* GemmBackendName(GemmLibrary library) { return GemmLibraryName(library).data(); }

LoweringOptions WithoutVectorizer(LoweringOptions options) {
  options.vector = 0;
  return options;
}

int CompileThreads(int requested) {
  if (requested > 0) return requested;
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
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

// How a kernel record's note says its kernel runs in blocks of rows.
constexpr const char* kInBlocksNote = "runs as ";

// Runs a step's compiled kernel on `buffers` (inputs, then outputs): at once, or, for a
// kernel of one block of rows, once per block on the thread team, each argument moved on by
// its block's bytes.
Status RunKernelBlocks(const Step& step, void* const* buffers, size_t count) {
  if (step.blocks <= 1) return step.kernel->Run(buffers, count);
  if (step.block_bytes.size() != count)
    return Status::Error("the kernel's blocks do not match its arguments");
  struct Blocks {
    const Step* step;
    void* const* buffers;
    size_t count;
    std::atomic<bool> failed{false};
    std::string error;
    std::mutex mutex;
  } blocks{&step, buffers, count};
  RunOnTeam(
      step.blocks,
      [](void* data, int64_t index) {
        Blocks& b = *static_cast<Blocks*>(data);
        constexpr size_t kOnStack = 32;
        void* on_stack[kOnStack];
        std::vector<void*> on_heap;
        void** moved = on_stack;
        if (b.count > kOnStack) {
          on_heap.resize(b.count);
          moved = on_heap.data();
        }
        for (size_t i = 0; i < b.count; ++i) {
          moved[i] = static_cast<uint8_t*>(b.buffers[i]) + index * b.step->block_bytes[i];
        }
        Status ran = b.step->kernel->Run(moved, b.count);
        if (!ran.ok() && !b.failed.exchange(true)) {
          std::lock_guard<std::mutex> lock(b.mutex);
          b.error = ran.message();
        }
      },
      &blocks);
  if (blocks.failed) return Status::Error(blocks.error);
  return Status::Ok();
}

}  // namespace

class CpuExecutable::Impl {
 public:
  Impl(const ir::Module& module, CpuExecutableOptions options)
      : module_(module),
        options_(options),
        compilers_(options.compilers ? options.compilers
                                     : std::make_shared<KernelCompilerPool>()),
        host_(HostOptions(options)) {}

  Status Compile();
  StatusOr<Literal> Run(const std::vector<Literal>& arguments);

  std::vector<recording::KernelRecord> records_;
  std::vector<KernelTiming> timings_;
  bool time_kernels_ = true;
  // Buffer assignment of the entry computation (passes/buffer_assignment): the allocation
  // each value that a kernel or library call writes lives in, and the bytes each allocation
  // holds between runs. A value takes its allocation's bytes when they are free (their last
  // holder has died), and gives them back when it dies, so the entry computation runs in the
  // allocations buffer assignment made; the root's bytes leave with the result.
  std::unordered_map<const ir::Instruction*, int64_t> allocation_of_;
  std::vector<std::vector<uint8_t>> allocations_;
  int64_t reused_values_ = 0;  // values of the last run that took their allocation's bytes
  int64_t reused_products_ = 0;  // output fusions' products of the last run in kept bytes
  // The bytes of values that died in a called program (a loop body's) and of output fusions'
  // products, a few per size, for the next value of that size: a loop's kernels allocate
  // nothing after its first step, and an output fusion's GEMM nothing after the first run.
  std::unordered_map<int64_t, std::vector<std::vector<uint8_t>>> spare_;
  static constexpr size_t kSparePerSize = 4;
  void KeepSpare(Literal& value) {
    if (value.is_tuple() || value.is_shared() || value.byte_size() == 0) return;
    std::vector<std::vector<uint8_t>>& kept = spare_[static_cast<int64_t>(value.byte_size())];
    if (kept.size() < kSparePerSize) kept.push_back(value.TakeStorage());
  }
  // The bytes of a value that died, `bytes` long; none when none was kept.
  std::vector<uint8_t> TakeSpare(int64_t bytes) {
    auto kept = spare_.find(bytes);
    if (kept == spare_.end() || kept->second.empty()) return {};
    std::vector<uint8_t> storage = std::move(kept->second.back());
    kept->second.pop_back();
    return storage;
  }
  std::vector<uint8_t> TakeAllocation(const Step& step) {
    auto found = allocation_of_.find(step.instruction);
    if (found == allocation_of_.end()) return TakeSpare(ShapeBytes(step.instruction->shape()));
    std::vector<uint8_t> bytes = std::move(allocations_[static_cast<size_t>(found->second)]);
    allocations_[static_cast<size_t>(found->second)].clear();
    if (!bytes.empty()) ++reused_values_;
    return bytes;
  }
  void GiveBack(const ir::Instruction* instruction, Literal& value) {
    auto found = allocation_of_.find(instruction);
    if (found == allocation_of_.end() || value.is_tuple()) return;
    std::vector<uint8_t>& slot = allocations_[static_cast<size_t>(found->second)];
    if (slot.empty()) slot = value.TakeStorage();
  }
  double compile_seconds_ = 0;
  std::map<std::string, int64_t> host_opcodes_;  // what runs on the host, by opcode
  // Per while loop, by name: on its own buffers, or value by value and why.
  std::map<std::string, std::string> loop_notes_;

 private:
  static InterpreterOptions HostOptions(const CpuExecutableOptions& options) {
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
  // A kernel emitted while planning, compiled once planning is done. The step is named by its
  // program and index (steps move while their program is built); its record slot is kept.
  struct PendingKernel {
    Program* program = nullptr;
    size_t step = 0;
    EmittedKernel emitted;
    const char* backend = "";
    std::string note;
    // A kernel for one block of rows: how many blocks, each argument's step, and the whole
    // outputs' shapes (what the step allocates).
    int64_t blocks = 1;
    std::vector<int64_t> block_bytes;
    std::vector<ir::Shape> whole_output_shapes;
  };
  // A fusion's kernel for one block of rows, where its rows split (`leaf`: an output fusion's
  // contraction, an input of its epilogue).
  struct BlockKernel {
    EmittedKernel emitted;
    int64_t blocks = 1;
    int64_t block_rows = 0;
    std::vector<int64_t> block_bytes;
  };
  std::optional<BlockKernel> EmitBlockKernel(const ir::Instruction& fusion,
                                             const ir::Instruction* leaf,
                                             const EmittedKernel& whole);
  void TakeBlockKernel(PendingKernel& pending, BlockKernel block);
  // One compile of a distinct (compiler, function, text).
  struct CompileJob {
    KernelCompiler* compiler = nullptr;
    const EmittedKernel* emitted = nullptr;
    KernelCompilation result;
  };
  void AddHost(Step& step, const std::string& note, recording::KernelRecord record);
  void StoreRecord(Step& step, recording::KernelRecord record);
  Status PlanStep(Step& step);
  Status CompilePending();
  Status FinishKernel(const PendingKernel& pending, KernelCompilation compiled);
  StatusOr<const Program*> PlanProgram(const ir::Computation& computation);
  Status PlanControl(Step& step);
  // `state`, when given, is arguments[0] handed over: the steps that take its elements
  // (Step::takes_element) move them out instead of copying them.
  StatusOr<Literal> RunProgram(const Program& program, Values arguments, Literal* state = nullptr);
  // Every while loop of the module planned as a FlatLoop where it can be, once its kernels
  // are compiled (one that failed runs on the host), and loop_notes_ said.
  void PlanFlatLoops();
  StatusOr<Literal> RunFlatLoop(const Step& step, Values operands, Literal* donor);
  // Runs the ops of `part` once, reading `state` and writing `outputs` (one per op) and, for
  // output fusions, their products.
  Status RunFlatPart(const FlatLoop::Part& part, std::vector<Literal>& state,
                     std::vector<Literal>& outputs, std::vector<Literal>& products);
  // `donor`, for a while loop: its initial state, handed over (nothing reads it afterwards).
  StatusOr<Literal> RunControl(const Step& step, Values operands, Literal* donor = nullptr);
  Status PlanKernel(Step& step, StatusOr<EmittedKernel> emitted, const char* backend,
                    const std::string& note);
  static std::string CompileKey(const KernelCompiler& compiler, const EmittedKernel& emitted);
  Status PlanOutputFusion(Step& step);
  // `donor`, for an in-place kernel: the value of its in-place operand, whose bytes become
  // the output's (nothing reads it afterwards); without one they are copied there.
  StatusOr<Literal> RunKernel(const Step& step, Values inputs, Literal* donor = nullptr);
  // A dot or convolution through BLAS, and the call it makes.
  StatusOr<Literal> RunLibrary(const ir::Instruction& instruction, const GemmConfig& gemm,
                               const Literal& lhs, const Literal& rhs,
                               std::vector<uint8_t> storage = {},
                               const BlasDotPlan* dot_plan = nullptr,
                               const PreparedConvolution* direct = nullptr) {
    if (instruction.opcode() == Opcode::kDot)
      return RunBlasDot(instruction, lhs, rhs, options_.f32_dot_precision, std::move(storage), gemm,
                        dot_plan);
    return RunBlasConvolution(instruction, lhs, rhs, options_.f32_dot_precision, std::move(storage),
                              gemm, direct);
  }
  std::string LibraryCall(const ir::Instruction& instruction, const GemmConfig& gemm) const {
    if (instruction.opcode() == Opcode::kDot)
      return BlasCallDescription(instruction, options_.f32_dot_precision, gemm);
    return BlasConvolutionDescription(instruction, options_.f32_dot_precision, gemm);
  }
  // oneDNN's own convolution for `convolution`, where `gemm` is oneDNN's and oneDNN has fast
  // kernels for it; null otherwise (im2col and a GEMM run).
  std::shared_ptr<const PreparedConvolution> DirectConvolutionOf(const ir::Instruction& convolution,
                                                                 const GemmConfig& gemm) const {
    if (gemm.library != GemmLibrary::kOneDnn) return nullptr;
    auto direct = PrepareDirectConvolution(convolution, options_.f32_dot_precision, gemm);
    return direct.ok() ? *direct : nullptr;
  }
  // A convolution whose kernel configuration names no library runs as oneDNN's own
  // convolution where oneDNN has fast kernels for it (f32 at native precision): about three
  // times im2col and OpenBLAS on two threads at a U-Net's 3x3 convolutions. On every core
  // from kParallelConvolutionMacs multiply-adds (a ResNet block's 75M: the module 1.7x
  // faster than on one thread), else on one: at a U-Net's 4.7M the convolutions gained a
  // third but the kernels reading their outputs, written by the other core, took twice as
  // long, and the module lost 8 %. The tuner tries the other counts.
  void ChooseConvolutionLibrary(Step& step, const ir::Instruction& convolution) const {
    auto found = options_.kernel_configs.find(step.instruction->name());
    if (found != options_.kernel_configs.end() && found->second.gemm) {
      step.direct_convolution = DirectConvolutionOf(convolution, step.gemm);
      return;
    }
    GemmConfig onednn = step.gemm;
    onednn.library = GemmLibrary::kOneDnn;
    if (found == options_.kernel_configs.end() || found->second.threads == 0)
      onednn.threads =
          passes::InstructionFlops(convolution) >= 2 * kParallelConvolutionMacs ? 0 : 1;
    if (auto direct = DirectConvolutionOf(convolution, onednn)) {
      step.gemm = onednn;
      step.direct_convolution = std::move(direct);
    }
  }
  // A dot whose kernel configuration names no library, f32 at native precision, of at least
  // kLargeGemmMacs multiply-adds per GEMM, runs through oneDNN on every core; smaller ones stay
  // with OpenBLAS, which runs GEMMs that small on one thread. So one library's threads
  // (oneDNN's OpenMP team) serve the module's large GEMMs: where OpenBLAS's threads and an
  // OpenMP team both spun on the same cores, whole modules ran several times slower. On this
  // machine's two cores oneDNN ran a BERT layer's GEMMs at 93-98 % of the FP32 peak against
  // OpenBLAS's 61-72 %, and its 4-head attention products at 50-63 % against 29 %
  // (bench/gemm_bakeoff); below 64^3 OpenBLAS was the faster (152 against 84 GFLOP/s at 32^3).
  void ChooseDotLibrary(Step& step, const ir::Instruction& dot) const {
    if (!options_.onednn_for_large_gemms) return;
    auto found = options_.kernel_configs.find(step.instruction->name());
    if (found != options_.kernel_configs.end() && found->second.gemm) return;
    if (options_.f32_dot_precision != BlasPrecision::kNative ||
        dot.shape().element_type() != ir::PrimitiveType::kF32)
      return;
    StatusOr<GemmProblem> problem = DotGemmProblem(dot);
    if (!problem.ok()) return;
    const int64_t macs = problem->m * problem->n * problem->k;
    if (macs < kLargeGemmMacs) return;
    if (!CheckBlasDot(dot, GemmLibrary::kOneDnn, options_.f32_dot_precision).ok()) return;
    step.gemm.library = GemmLibrary::kOneDnn;
    // Below kParallelDotMacs in all (batches together), one thread: oneDNN ran a 64^3 GEMM
    // at 148 GFLOP/s on one thread and 93 on two.
    if ((found == options_.kernel_configs.end() || found->second.threads == 0) &&
        macs * problem->batch < kParallelDotMacs)
      step.gemm.threads = 1;
  }
  // A convolution whose kernel configuration names no library, of at most
  // CpuExecutableOptions::emitted_convolution_max_macs multiply-adds, f32 at native precision
  // or f64, is compiled as a loop nest of our own (KernelWriter::EmitConvolution) with what
  // its fusion holds: a library's call costs more than such a convolution computes (oneDNN
  // took 18 us for the 110k multiply-adds of cnn.onnx's first convolution, and 10 us for its
  // depthwise one's 2.3k).
  bool EmitsConvolution(const ir::Instruction& kernel, const ir::Instruction& convolution) const {
    auto found = options_.kernel_configs.find(kernel.name());
    if (found != options_.kernel_configs.end() && found->second.gemm) return false;
    const ir::PrimitiveType type = convolution.shape().element_type();
    if (type != ir::PrimitiveType::kF64 &&
        (type != ir::PrimitiveType::kF32 || options_.f32_dot_precision != BlasPrecision::kNative))
      return false;
    return passes::InstructionFlops(convolution) <= 2 * options_.emitted_convolution_max_macs;
  }
  // Whether `emitted`, the loop nest EmitsConvolution chose for `convolution`, is kept: one
  // MLIR cannot vectorize only up to its own, smaller bound.
  bool KeepsEmittedConvolution(const EmittedKernel& emitted,
                               const ir::Instruction& convolution) const {
    return emitted.vectorizable || passes::InstructionFlops(convolution) <=
                                       2 * options_.emitted_unvectorized_convolution_max_macs;
  }
  static constexpr int64_t kLargeGemmMacs = int64_t{64} * 64 * 64;
  static constexpr int64_t kParallelDotMacs = int64_t{1} << 20;
  static constexpr int64_t kParallelConvolutionMacs = int64_t{1} << 24;
  Status CheckLibrary(const ir::Instruction& contraction, const GemmConfig& gemm) const {
    return contraction.opcode() == Opcode::kDot
               ? CheckBlasDot(contraction, gemm.library, options_.f32_dot_precision)
               : CheckBlasConvolution(contraction, gemm.library, options_.f32_dot_precision);
  }
  // The GEMM library of `kernel`'s dot or convolution: its KernelConfig's, else OpenBLAS (for
  // a convolution, ChooseConvolutionLibrary may then choose oneDNN); the
  // MLIR matmul lowered as the kernel's configuration says, else as the executable's.
  StatusOr<GemmConfig> GemmOf(const ir::Instruction& kernel) const {
    GemmConfig gemm;
    gemm.lowering = options_.lowering;
    auto found = options_.kernel_configs.find(kernel.name());
    if (found == options_.kernel_configs.end()) return gemm;
    if (found->second.lowering) gemm.lowering = *found->second.lowering;
    gemm.threads = found->second.threads;
    if (found->second.gemm) gemm.library = *found->second.gemm;
    return gemm;
  }
  StatusOr<Literal> RunStep(const Step& step, const std::vector<const Literal*>& operands,
                            Literal* donor = nullptr);

  const ir::Module& module_;
  CpuExecutableOptions options_;
  std::shared_ptr<KernelCompilerPool> compilers_;
  // The lowering of `instruction`'s kernel: its entry in kernel_configs, else the executable's.
  const LoweringOptions& LoweringOf(const ir::Instruction& instruction) const {
    auto found = options_.kernel_configs.find(instruction.name());
    if (found != options_.kernel_configs.end() && found->second.lowering)
      return *found->second.lowering;
    return options_.lowering;
  }
  // The compiler of a pending kernel: its lowering, without the vectorizer where its reads
  // are not vectorizable.
  KernelCompiler& CompilerFor(const PendingKernel& pending) {
    const LoweringOptions& lowering = LoweringOf(*pending.program->steps[pending.step].instruction);
    return compilers_->For(pending.emitted.vectorizable ? lowering : WithoutVectorizer(lowering),
                           options_.keep_lowering_stages);
  }
  Interpreter host_;
  std::unordered_map<const ir::Computation*, std::unique_ptr<Program>> programs_;
  Program* planning_ = nullptr;         // the program whose steps PlanStep is planning
  std::vector<PendingKernel> pending_;  // in plan order
  // Copies of modules whose fusions are emitted for a block of rows (their fused
  // computations' shapes shrunk to a block), by the module copied.
  std::unordered_map<const ir::Module*, std::unique_ptr<ir::Module>> block_copies_;
  const Program* entry_ = nullptr;
  int64_t live_bytes_ = 0;  // held by the values of every program running now
};

void CpuExecutable::Impl::AddHost(Step& step, const std::string& note,
                                  recording::KernelRecord record) {
  step.kind = StepKind::kHost;
  step.kernel = nullptr;
  record.backend = "host";
  record.note = note;
  ++host_opcodes_[std::string(step.instruction->opcode_name())];
  StoreRecord(step, std::move(record));
}

// A step whose kernel is compiled after planning already holds its record slot, so that the
// records stay in plan order whatever order the kernels compile in.
void CpuExecutable::Impl::StoreRecord(Step& step, recording::KernelRecord record) {
  if (step.record >= 0) {
    records_[static_cast<size_t>(step.record)] = std::move(record);
    return;
  }
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
  step.record = static_cast<int64_t>(records_.size());
  records_.push_back(NewRecord(instruction));
  pending_.push_back(
      {planning_, planning_->steps.size(), std::move(emitted).value(), backend, note});
  return Status::Ok();
}

std::string CpuExecutable::Impl::CompileKey(const KernelCompiler& compiler,
                                            const EmittedKernel& emitted) {
  return compiler.options().ToString() + "\n" + emitted.function_name + "\n" + emitted.text;
}

// Each distinct kernel is compiled once, concurrently with the others; then every pending
// kernel takes its result in plan order, "cached" where an earlier one had the same key, as
// compiling them one by one through the compilers' caches would have given.
Status CpuExecutable::Impl::CompilePending() {
  std::vector<CompileJob> jobs;
  std::unordered_map<std::string, size_t> job_of;
  auto add_job = [&](KernelCompiler& compiler, const EmittedKernel& emitted) {
    if (job_of.emplace(CompileKey(compiler, emitted), jobs.size()).second)
      jobs.push_back({&compiler, &emitted, {}});
  };
  // What the compilers made before is taken from them; the rest compile together
  // (CompileKernelTexts: on every compile thread, the longest first, a thread's kernels in one
  // LLVM module where no stages are kept).
  auto compile = [&](size_t first) {
    std::vector<KernelJob> batch;
    std::vector<size_t> batch_jobs;
    for (size_t index = first; index < jobs.size(); ++index) {
      CompileJob& job = jobs[index];
      if (auto found = job.compiler->Find(job.emitted->text, job.emitted->function_name)) {
        job.result = std::move(*found);
        continue;
      }
      batch.push_back({&job.emitted->text, &job.emitted->function_name, job.compiler->options()});
      batch_jobs.push_back(index);
    }
    std::vector<KernelCompilation> compiled = CompileKernelTexts(
        batch, options_.keep_lowering_stages, CompileThreads(options_.compile_threads));
    for (size_t n = 0; n < batch_jobs.size(); ++n) {
      CompileJob& job = jobs[batch_jobs[n]];
      job.compiler->Keep(job.emitted->text, job.emitted->function_name, compiled[n]);
      job.result = std::move(compiled[n]);
    }
  };
  for (const PendingKernel& pending : pending_)
    add_job(CompilerFor(pending), pending.emitted);
  compile(0);
  // MLIR 19's super-vectorizer writes invalid IR for some loop nests (reduce-window's strided
  // window accesses): those kernels are compiled again as scalar loops.
  const size_t retries = jobs.size();
  for (size_t index = 0; index < retries; ++index) {
    if (jobs[index].result.record.failed_stage == "affine-super-vectorize")
      add_job(compilers_->For(WithoutVectorizer(jobs[index].compiler->options()),
                              options_.keep_lowering_stages),
              *jobs[index].emitted);
  }
  compile(retries);

  std::unordered_set<std::string> compiled_before;
  auto take = [&](KernelCompiler& compiler, const EmittedKernel& emitted) {
    std::string key = CompileKey(compiler, emitted);
    KernelCompilation compiled = jobs[job_of.at(key)].result;
    if (!compiled_before.insert(std::move(key)).second) {
      compiled.cached = true;
      compiled.record.compile_seconds = 0;
    }
    return compiled;
  };
  for (const PendingKernel& pending : pending_) {
    const EmittedKernel& emitted = pending.emitted;
    KernelCompiler& compiler = CompilerFor(pending);
    KernelCompilation compiled = take(compiler, emitted);
    std::string retry_note;
    if (!emitted.vectorizable &&
        LoweringOf(*pending.program->steps[pending.step].instruction).vector > 0)
      retry_note =
          "reversed, strided or gathered reads, or a reduction of an iota: compiled without "
          "vectorization";
    if (!compiled.kernel && compiled.record.failed_stage == "affine-super-vectorize") {
      retry_note = "affine-super-vectorize failed (" + compiled.record.error +
                   "); compiled without vectorization";
      compiled = take(
          compilers_->For(WithoutVectorizer(compiler.options()), options_.keep_lowering_stages),
          emitted);
    }
    if (!retry_note.empty()) compiled.record.note = retry_note;
    Status finished = FinishKernel(pending, std::move(compiled));
    if (!finished.ok()) return finished;
  }
  pending_.clear();
  return Status::Ok();
}

Status CpuExecutable::Impl::FinishKernel(const PendingKernel& pending, KernelCompilation compiled) {
  Step& step = pending.program->steps[pending.step];
  const ir::Instruction& instruction = *step.instruction;
  recording::KernelRecord record = std::move(compiled.record);
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
    if (step.kind == StepKind::kMlir) step.tuple_result = false;
    AddHost(step, host_note, std::move(record));
    return Status::Ok();
  }
  record.backend = pending.backend;
  if (!pending.note.empty())
    record.note += std::string(record.note.empty() ? "" : "; ") + pending.note;
  if (compiled.cached)
    record.note += std::string(record.note.empty() ? "" : "; ") + "same kernel as an earlier one";
  if (pending.emitted.in_place_input >= 0) {
    record.note += std::string(record.note.empty() ? "" : "; ") +
                   "in place: writes only the window it updates of operand " +
                   std::to_string(pending.emitted.in_place_input) +
                   ", whose buffer it takes over where nothing reads it afterwards";
  }
  step.kernel = compiled.kernel;
  step.output_shapes =
      pending.blocks > 1 ? pending.whole_output_shapes : pending.emitted.output_shapes;
  step.blocks = pending.blocks;
  step.block_bytes = pending.block_bytes;
  // A value's bytes are in logical order whatever its layout (the interpreter's bitcast and
  // copy read layouts off the instructions): the outputs' shapes go without theirs, which
  // every value a loop body makes would otherwise copy at every step.
  for (ir::Shape& shape : step.output_shapes) shape.clear_layout();
  step.in_place_input = pending.emitted.in_place_input;
  StoreRecord(step, std::move(record));
  return Status::Ok();
}

Status CpuExecutable::Impl::PlanOutputFusion(Step& step) {
  StatusOr<GemmConfig> gemm = GemmOf(*step.instruction);
  if (!gemm.ok()) return gemm.status();
  step.gemm = *gemm;
  StatusOr<ContractionFusion> split = SplitContractionFusion(
      *step.instruction,
      [&](const ir::Instruction& contraction) { return CheckLibrary(contraction, step.gemm); });
  if (!split.ok()) return split.status();
  step.kind = StepKind::kOutput;
  step.tuple_result = split->tuple_result;
  step.dot = split->contraction;
  step.dot_lhs = split->lhs;
  step.dot_rhs = split->rhs;
  // Our MLIR matmul is compiled here, not at the first run (a library has nothing to prepare).
  if (step.dot->opcode() == Opcode::kDot) {
    ChooseDotLibrary(step, *step.dot);
    StatusOr<std::shared_ptr<const BlasDotPlan>> planned = PlanBlasDot(*step.dot);
    if (!planned.ok()) return Status::Error(step.instruction->name() + ": " + planned.message());
    step.dot_plan = *planned;
    Status prepared = PrepareBlasDot(*step.dot, options_.f32_dot_precision, step.gemm);
    if (!prepared.ok()) return Status::Error(step.instruction->name() + ": " + prepared.message());
  } else {
    ChooseConvolutionLibrary(step, *step.dot);
    Status prepared = PrepareBlasConvolution(*step.dot, options_.f32_dot_precision, step.gemm);
    if (!prepared.ok()) return Status::Error(step.instruction->name() + ": " + prepared.message());
  }
  std::optional<BlockKernel> block = EmitBlockKernel(*step.instruction, step.dot, split->epilogue);
  Status planned =
      PlanKernel(step, std::move(split->epilogue), GemmBackendName(step.gemm.library),
                 LibraryCall(*step.dot, step.gemm) + ", then the epilogue as a compiled kernel");
  if (block && !pending_.empty() && pending_.back().step == planning_->steps.size()) {
    TakeBlockKernel(pending_.back(), std::move(*block));
  }
  return planned;
}

// Where the fusion's rows split and its arguments are large enough to share out, its kernel
// (or an output fusion's epilogue) emitted again from a copy of its fused computation
// shrunk to one block of rows.
std::optional<CpuExecutable::Impl::BlockKernel> CpuExecutable::Impl::EmitBlockKernel(
    const ir::Instruction& fusion, const ir::Instruction* leaf, const EmittedKernel& whole) {
  if (options_.row_block_min_bytes <= 0 || whole.in_place_input >= 0) return std::nullopt;
  const int64_t threads =
      options_.row_block_threads > 0 ? options_.row_block_threads : TeamThreads();
  if (threads < 2) return std::nullopt;
  int64_t bytes = 0;
  for (const auto* shapes : {&whole.input_shapes, &whole.output_shapes}) {
    for (const ir::Shape& shape : *shapes) bytes += shape.ByteSize();
  }
  if (bytes < options_.row_block_min_bytes) return std::nullopt;
  const ir::Computation* fused = fusion.fused_computation();
  ir::Module* module = fusion.parent() ? fusion.parent()->parent() : nullptr;
  if (fused == nullptr || module == nullptr) return std::nullopt;
  StatusOr<RowSplit> split = FindRowSplit(*fused, leaf);
  if (!split.ok()) return std::nullopt;
  BlockKernel block;
  block.blocks = BlockCount(split->rows, threads);
  if (block.blocks < 2) return std::nullopt;
  block.block_rows = split->rows / block.blocks;
  // The arguments' steps, in the kernel's order: the fused parameters (an epilogue's product
  // after them), then the outputs.
  for (int64_t i = 0; i < fused->parameter_count(); ++i) {
    block.block_bytes.push_back(BlockBytes(*fused->parameter(i), *split, block.block_rows));
  }
  if (leaf != nullptr) block.block_bytes.push_back(BlockBytes(*leaf, *split, block.block_rows));
  const ir::Instruction* root = fused->root();
  if (root->opcode() == Opcode::kTuple) {
    for (const ir::Instruction* output : root->operands())
      block.block_bytes.push_back(BlockBytes(*output, *split, block.block_rows));
  } else {
    block.block_bytes.push_back(BlockBytes(*root, *split, block.block_rows));
  }
  if (block.block_bytes.size() != whole.input_shapes.size() + whole.output_shapes.size())
    return std::nullopt;
  std::unique_ptr<ir::Module>& copy = block_copies_[module];
  if (!copy) copy = module->Clone();
  ir::Instruction* copied = copy->FindInstructionById(fusion.id());
  if (copied == nullptr || copied->fused_computation() == nullptr) return std::nullopt;
  ShrinkToBlock(*copied->fused_computation(), *split, block.block_rows);
  StatusOr<EmittedKernel> emitted = Status::Error("");
  if (leaf == nullptr) {
    emitted = EmitFusionKernel(*copied, /*in_place=*/true);
  } else {
    StatusOr<ContractionFusion> split_copy =
        SplitContractionFusion(*copied, [](const ir::Instruction&) { return Status::Ok(); });
    if (split_copy.ok()) emitted = std::move(split_copy->epilogue);
  }
  if (!emitted.ok() || emitted->in_place_input >= 0) return std::nullopt;
  block.emitted = std::move(*emitted);
  return block;
}

void CpuExecutable::Impl::TakeBlockKernel(PendingKernel& pending, BlockKernel block) {
  pending.whole_output_shapes = pending.emitted.output_shapes;
  pending.emitted = std::move(block.emitted);
  pending.blocks = block.blocks;
  pending.block_bytes = std::move(block.block_bytes);
  pending.note += std::string(pending.note.empty() ? "" : "; ") + kInBlocksNote +
                  std::to_string(block.blocks) + " blocks of " + std::to_string(block.block_rows) +
                  " rows at once, one per thread";
}

Status CpuExecutable::Impl::PlanStep(Step& step) {
  const ir::Instruction& instruction = *step.instruction;
  const Opcode opcode = instruction.opcode();
  if (IsValueOpcode(opcode)) {
    step.kind = StepKind::kValue;
    if (opcode == Opcode::kConstant) {
      StatusOr<Literal> value = host_.EvaluateInstruction(instruction, {});
      if (value.ok()) step.constant = std::move(value).value();
    }
    return Status::Ok();
  }
  if (opcode == Opcode::kWhile || opcode == Opcode::kConditional || opcode == Opcode::kCall) {
    Status planned = PlanControl(step);
    if (!planned.ok())
      AddHost(step, HostReason(instruction) + ": " + planned.message(), NewRecord(instruction));
    return Status::Ok();
  }
  if (opcode == Opcode::kConvolution && EmitsConvolution(instruction, instruction)) {
    StatusOr<EmittedKernel> emitted = EmitInstructionKernel(instruction, /*in_place=*/true);
    if (emitted.ok() && KeepsEmittedConvolution(*emitted, instruction)) {
      step.kind = StepKind::kMlir;
      return PlanKernel(step, std::move(emitted), "mlir-cpu", kSmallConvolutionNote);
    }
  }
  if (opcode == Opcode::kDot || opcode == Opcode::kConvolution) {
    StatusOr<GemmConfig> gemm = GemmOf(instruction);
    Status blas = gemm.ok() ? CheckLibrary(instruction, *gemm) : gemm.status();
    if (!blas.ok()) {
      AddHost(step,
              std::string(instruction.opcode_name()) +
                  " runs through the interpreter: " + blas.message(),
              NewRecord(instruction));
      return Status::Ok();
    }
    step.kind = StepKind::kBlas;
    step.gemm = *gemm;
    const auto choosing = std::chrono::steady_clock::now();
    if (opcode == Opcode::kConvolution)
      ChooseConvolutionLibrary(step, instruction);
    else
      ChooseDotLibrary(step, instruction);
    recording::KernelRecord record = NewRecord(instruction);
    record.backend = GemmBackendName(step.gemm.library);
    record.note = LibraryCall(instruction, step.gemm);
    // oneDNN generated its convolution's code while choosing (once per shape for the process).
    if (step.direct_convolution)
      record.compile_seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - choosing).count();
    // Our MLIR matmul is compiled here, its stages kept, not at the first run.
    if (opcode == Opcode::kDot) {
      StatusOr<std::shared_ptr<const BlasDotPlan>> planned = PlanBlasDot(instruction);
      if (!planned.ok()) return Status::Error(instruction.name() + ": " + planned.message());
      step.dot_plan = *planned;
      Status prepared = PrepareBlasDot(instruction, options_.f32_dot_precision, step.gemm, &record);
      if (!prepared.ok()) return Status::Error(instruction.name() + ": " + prepared.message());
    } else {
      Status prepared =
          PrepareBlasConvolution(instruction, options_.f32_dot_precision, step.gemm, &record);
      if (!prepared.ok()) return Status::Error(instruction.name() + ": " + prepared.message());
    }
    // A library call's options are its library and thread count (the lowering options, which
    // the kernel view would show otherwise, have nothing to do with it); our MLIR matmul
    // keeps its lowering.
    if (record.options.empty()) {
      record.options = "gemm=" + std::string(GemmLibraryName(step.gemm.library));
      if (step.gemm.threads > 0) record.options += " threads=" + std::to_string(step.gemm.threads);
    }
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
    if (IsContractionFusion(instruction)) {
      // A small convolution's fusion compiled whole, the convolution a loop nest of its own.
      const ir::Instruction* convolution = nullptr;
      for (const auto& op : fused->instructions()) {
        if (op->opcode() == Opcode::kConvolution) convolution = op.get();
      }
      if (convolution != nullptr && EmitsConvolution(instruction, *convolution)) {
        StatusOr<EmittedKernel> emitted = EmitFusionKernel(instruction, /*in_place=*/true);
        if (emitted.ok() && KeepsEmittedConvolution(*emitted, *convolution)) {
          step.kind = StepKind::kMlir;
          Status planned = PlanKernel(step, std::move(emitted), "mlir-cpu", kSmallConvolutionNote);
          if (step.kind == StepKind::kHost) step.tuple_result = false;
          return planned;
        }
      }
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
    // A loop fusion around a dot that is not an output fusion (XLA:CPU fuses a transpose
    // and copy into a dot's operand: a decoder's copy_dot_fusion, two thirds of its time in
    // the interpreter): the emitter has no dot, so the fused computation runs op by op, each
    // op a kernel or a library call, as a call's computation does.
    const auto& fused_ops = fused->instructions();
    const bool holds_contraction =
        std::any_of(fused_ops.begin(), fused_ops.end(), [](const auto& op) {
          return op->opcode() == Opcode::kDot || op->opcode() == Opcode::kConvolution;
        });
    if (holds_contraction) {
      StatusOr<const Program*> program = PlanProgram(*fused);
      if (program.ok()) {
        step.kind = StepKind::kControl;
        step.called = {*program};
        return Status::Ok();
      }
    }
    step.kind = StepKind::kMlir;
    StatusOr<EmittedKernel> emitted = EmitFusionKernel(instruction, /*in_place=*/true);
    std::optional<BlockKernel> block;
    if (emitted.ok()) block = EmitBlockKernel(instruction, nullptr, *emitted);
    Status planned = PlanKernel(step, std::move(emitted), "mlir-cpu", "");
    if (block && !pending_.empty() && pending_.back().step == planning_->steps.size()) {
      TakeBlockKernel(pending_.back(), std::move(*block));
    }
    if (step.kind == StepKind::kHost) step.tuple_result = false;
    return planned;
  }
  if (IsEmittableOpcode(opcode)) {
    step.kind = StepKind::kMlir;
    step.tuple_result = instruction.shape().IsTuple();
    Status planned =
        PlanKernel(step, EmitInstructionKernel(instruction, /*in_place=*/true), "mlir-cpu", "");
    if (step.kind == StepKind::kHost) step.tuple_result = false;
    return planned;
  }
  AddHost(step, HostReason(instruction), NewRecord(instruction));
  return Status::Ok();
}

StatusOr<const Program*> CpuExecutable::Impl::PlanProgram(const ir::Computation& computation) {
  auto found = programs_.find(&computation);
  if (found != programs_.end()) return found->second.get();
  if (computation.root() == nullptr) return Status::Error(computation.name() + " has no root");
  auto program = std::make_unique<Program>();
  program->computation = &computation;
  for (const ir::Instruction* instruction : computation.MakePostOrder()) {
    Step step;
    step.instruction = instruction;
    for (const ir::Instruction* operand : instruction->operands())
      step.operands.push_back(program->slot.at(operand));
    planning_ = program.get();
    Status planned = PlanStep(step);
    if (!planned.ok()) return planned;
    program->slot[instruction] = program->steps.size();
    program->steps.push_back(std::move(step));
  }
  // A tuple parameter read only by get-tuple-elements, each element by one of them: a caller
  // that hands the tuple over (a while loop its state) lets them move the elements out.
  const ir::Instruction* parameter =
      computation.parameter_count() == 1 ? computation.parameter(0) : nullptr;
  if (parameter != nullptr && parameter->shape().IsTuple() && parameter != computation.root()) {
    std::set<int64_t> taken;
    bool only_distinct_elements = true;
    for (const ir::Instruction* user : parameter->users()) {
      std::optional<int64_t> index = user->tuple_index();
      if (user->opcode() != Opcode::kGetTupleElement || !index || !taken.insert(*index).second)
        only_distinct_elements = false;
    }
    if (only_distinct_elements) {
      for (const ir::Instruction* user : parameter->users())
        program->steps[program->slot.at(user)].takes_element = *user->tuple_index();
    }
  }
  program->root = program->slot.at(computation.root());
  program->readers.assign(program->steps.size(), 0);
  for (const Step& step : program->steps)
    for (size_t slot : step.operands) ++program->readers[slot];
  const Program* planned = program.get();
  programs_[&computation] = std::move(program);
  return planned;
}

// The computations a while, conditional or call runs become programs of their own, so that
// their fusions and dots are compiled kernels too; the loop and the branch choice run here.
Status CpuExecutable::Impl::PlanControl(Step& step) {
  const ir::Instruction& instruction = *step.instruction;
  std::vector<ir::Computation*> computations;
  switch (instruction.opcode()) {
    case Opcode::kWhile: {
      std::vector<ir::Computation*> condition = instruction.CalledComputations("condition");
      std::vector<ir::Computation*> body = instruction.CalledComputations("body");
      if (condition.size() != 1 || body.size() != 1 || instruction.operand_count() != 1)
        return Status::Error("while needs one operand, condition= and body=");
      computations = {condition[0], body[0]};
      break;
    }
    case Opcode::kConditional: {
      computations = instruction.CalledComputations("branch_computations");
      if (computations.empty()) {
        std::vector<ir::Computation*> on_true = instruction.CalledComputations("true_computation");
        std::vector<ir::Computation*> on_false =
            instruction.CalledComputations("false_computation");
        if (on_true.size() != 1 || on_false.size() != 1)
          return Status::Error("conditional has no branches");
        computations = {on_true[0], on_false[0]};
      }
      if (instruction.operand_count() != static_cast<int64_t>(computations.size()) + 1)
        return Status::Error("conditional needs one operand per branch");
      break;
    }
    default:
      computations = instruction.CalledComputations("to_apply");
      if (computations.size() != 1) return Status::Error("call needs to_apply=");
      break;
  }
  for (const ir::Computation* computation : computations) {
    StatusOr<const Program*> program = PlanProgram(*computation);
    if (!program.ok()) return program.status();
    step.called.push_back(*program);
  }
  step.kind = StepKind::kControl;
  return Status::Ok();
}

Status CpuExecutable::Impl::Compile() {
  const auto started = std::chrono::steady_clock::now();
  const ir::Computation* entry = module_.entry();
  if (entry == nullptr || entry->root() == nullptr)
    return Status::Error("module " + module_.name() + " has no entry computation");
  Status verified = ir::VerifyModule(module_);
  if (!verified.ok()) return Status::Error("the module does not verify: " + verified.message());
  StatusOr<const Program*> program = PlanProgram(*entry);
  if (!program.ok()) return program.status();
  Status compiled = CompilePending();
  if (!compiled.ok()) return compiled;
  PlanFlatLoops();
  entry_ = *program;
  const passes::BufferAssignmentResult assignment = passes::BufferAssignment::Analyze(*entry);
  allocations_.assign(assignment.allocation_bytes.size(), {});
  for (const passes::BufferAssignmentResult::Buffer& buffer : assignment.buffers) {
    const ir::Instruction* instruction = entry->FindInstruction(buffer.instruction);
    if (instruction == nullptr || buffer.allocation < 0 || !instruction->shape().IsArray()) continue;
    const auto slot = entry_->slot.find(instruction);
    if (slot == entry_->slot.end()) continue;
    const StepKind kind = entry_->steps[slot->second].kind;
    if (kind == StepKind::kMlir || kind == StepKind::kBlas || kind == StepKind::kOutput)
      allocation_of_[instruction] = buffer.allocation;
  }
  compile_seconds_ =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return Status::Ok();
}

StatusOr<Literal> CpuExecutable::Impl::RunKernel(const Step& step, Values inputs, Literal* donor) {
  const int in_place = step.in_place_input;
  if (in_place >= static_cast<int>(inputs.size) ||
      (in_place >= 0 && step.output_shapes.size() != 1))
    return Status::Error(step.instruction->name() + ": its in-place operand is missing");
  for (size_t i = 0; i < inputs.size; ++i) {
    if (inputs[i]->is_tuple())
      return Status::Error(step.instruction->name() + ": a kernel input is a tuple");
  }
  // One output (the common case) needs no vector; a tuple's outputs do.
  Literal single;
  std::vector<Literal> outputs;
  const size_t output_count = step.output_shapes.size();
  for (const ir::Shape& shape : step.output_shapes) {
    // A compiled kernel writes every element of its outputs; an in-place one only the
    // window it updates, so its output starts as the operand it updates.
    std::vector<uint8_t> storage;
    if (in_place >= 0 && donor != nullptr) {
      storage = donor->TakeStorage();
      // CreateInto would zero bytes of another size, and the operand's values with them.
      if (static_cast<int64_t>(storage.size()) != ShapeBytes(shape))
        return Status::Error(step.instruction->name() + ": its in-place operand has another size");
    } else if (!step.tuple_result) {
      storage = TakeAllocation(step);
    }
    StatusOr<Literal> output = Literal::CreateInto(shape, std::move(storage));
    if (!output.ok()) return Status::Error(step.instruction->name() + ": " + output.message());
    if (in_place >= 0 && donor == nullptr) {
      const Literal& start = *inputs[static_cast<size_t>(in_place)];
      if (start.byte_size() != output->byte_size())
        return Status::Error(step.instruction->name() + ": its in-place operand has another size");
      std::memcpy(output->data(), start.data(), start.byte_size());
    }
    if (output_count == 1)
      single = std::move(output).value();
    else
      outputs.push_back(std::move(output).value());
  }
  // The argument pointers: on the stack unless there are many.
  constexpr size_t kOnStack = 32;
  void* on_stack[kOnStack];
  std::vector<void*> on_heap;
  const size_t count = inputs.size + output_count;
  void** buffers = on_stack;
  if (count > kOnStack) {
    on_heap.resize(count);
    buffers = on_heap.data();
  }
  uint8_t* const first_output = output_count == 1 ? single.data() : outputs.front().data();
  for (size_t i = 0; i < inputs.size; ++i) {
    buffers[i] =
        static_cast<int>(i) == in_place ? first_output : const_cast<uint8_t*>(inputs[i]->data());
  }
  if (output_count == 1) {
    buffers[inputs.size] = single.data();
  } else {
    for (size_t o = 0; o < output_count; ++o) buffers[inputs.size + o] = outputs[o].data();
  }
  Status ran = RunKernelBlocks(step, buffers, count);
  if (!ran.ok()) return Status::Error(step.instruction->name() + ": " + ran.message());
  if (step.tuple_result) {
    if (output_count == 1) outputs.push_back(std::move(single));
    return Literal::Tuple(std::move(outputs));
  }
  return single;
}

StatusOr<Literal> CpuExecutable::Impl::RunStep(const Step& step,
                                               const std::vector<const Literal*>& operands,
                                               Literal* donor) {
  switch (step.kind) {
    case StepKind::kValue:
    case StepKind::kHost:
      return host_.EvaluateInstruction(*step.instruction, operands);
    case StepKind::kMlir:
      return RunKernel(step, operands, donor);
    case StepKind::kBlas:
      return RunLibrary(*step.instruction, step.gemm, *operands[0], *operands[1],
                        TakeAllocation(step), step.dot_plan.get(), step.direct_convolution.get());
    case StepKind::kOutput: {
      // The product lives only until the epilogue has read it: its bytes are kept for the next
      // product of its size, not allocated and zeroed again at every run (a BERT FFN's 512 KiB
      // product: 8 % of the instructions of its output fusion's run).
      std::vector<uint8_t> kept = TakeSpare(ShapeBytes(step.dot->shape()));
      if (!kept.empty()) ++reused_products_;
      StatusOr<Literal> product =
          RunLibrary(*step.dot, step.gemm, *operands[static_cast<size_t>(step.dot_lhs)],
                     *operands[static_cast<size_t>(step.dot_rhs)], std::move(kept),
                     step.dot_plan.get(), step.direct_convolution.get());
      if (!product.ok()) return product.status();
      // The epilogue reads the operands, then the product.
      constexpr size_t kOnStack = 32;
      const Literal* on_stack[kOnStack];
      std::vector<const Literal*> on_heap;
      const Literal** inputs = on_stack;
      if (operands.size() + 1 > kOnStack) {
        on_heap.resize(operands.size() + 1);
        inputs = on_heap.data();
      }
      std::copy(operands.begin(), operands.end(), inputs);
      inputs[operands.size()] = &*product;
      StatusOr<Literal> result = RunKernel(step, Values(inputs, operands.size() + 1));
      KeepSpare(*product);
      return result;
    }
    case StepKind::kControl:
      return RunControl(step, operands, donor);
  }
  return Status::Error("unknown step");
}

StatusOr<Literal> CpuExecutable::Impl::RunControl(const Step& step, Values operands,
                                                  Literal* donor) {
  const ir::Instruction& instruction = *step.instruction;
  if (instruction.opcode() == Opcode::kCall || instruction.opcode() == Opcode::kFusion)
    return RunProgram(*step.called[0], operands);
  if (instruction.opcode() == Opcode::kConditional) {
    const Literal& selector = *operands[0];
    if (selector.is_tuple() || selector.element_count() != 1)
      return Status::Error(instruction.name() + ": selector is not a scalar");
    int64_t branch = 0;
    if (selector.type() == ir::PrimitiveType::kPred) {
      branch = selector.GetInt(0) != 0 ? 0 : 1;
    } else {
      branch = selector.GetInt(0);
      const int64_t last = static_cast<int64_t>(step.called.size()) - 1;
      if (branch < 0 || branch > last) branch = last;
    }
    return RunProgram(*step.called[static_cast<size_t>(branch)],
                      Values(&operands.data[static_cast<size_t>(branch) + 1], 1));
  }
  if (step.flat_loop != nullptr) return RunFlatLoop(step, operands, donor);
  Literal state = donor != nullptr ? std::move(*donor) : *operands[0];
  const Literal* const state_pointer = &state;
  for (int64_t iteration = 0;; ++iteration) {
    StatusOr<Literal> go_on = RunProgram(*step.called[0], Values(&state_pointer, 1));
    if (!go_on.ok()) return go_on.status();
    if (go_on->is_tuple() || go_on->element_count() != 1)
      return Status::Error(instruction.name() + ": condition does not return a pred");
    if (go_on->GetInt(0) == 0) return state;
    if (iteration >= options_.max_while_iterations) {
      return Status::Error(instruction.name() + ": while loop still running after " +
                           std::to_string(options_.max_while_iterations) +
                           " iterations (the iteration limit)");
    }
    // The body takes the state's elements over: the state is replaced by what it returns.
    StatusOr<Literal> next = RunProgram(*step.called[1], Values(&state_pointer, 1), &state);
    if (!next.ok()) return next.status();
    state = std::move(next).value();
  }
}

void CpuExecutable::Impl::PlanFlatLoops() {
  for (auto& [computation, program] : programs_) {
    for (Step& step : program->steps) {
      if (step.kind != StepKind::kControl || step.instruction->opcode() != Opcode::kWhile ||
          step.called.size() != 2)
        continue;
      const std::string& name = step.instruction->name();
      if (!options_.flat_loops) {
        loop_notes_[name] = "value by value (flat loops are off)";
        continue;
      }
      const ir::Shape& shape = step.instruction->shape();
      auto loop = std::make_shared<FlatLoop>();
      std::string why;
      bool arrays = true;
      if (shape.IsTuple()) {
        loop->tuple_state = true;
        loop->elements = shape.tuple_shapes().size();
        loop->state_shapes = shape.tuple_shapes();
        for (const ir::Shape& element : shape.tuple_shapes()) arrays = arrays && element.IsArray();
      } else {
        loop->state_shapes = {shape};
        arrays = shape.IsArray();
      }
      if (!arrays) {
        loop_notes_[name] = "value by value: its state holds a tuple";
      } else if (!PlanFlatPart(*step.called[0], /*body=*/false, *loop, loop->condition, why) ||
                 !PlanFlatPart(*step.called[1], /*body=*/true, *loop, loop->body, why)) {
        loop_notes_[name] = "value by value: " + why;
      } else {
        loop_notes_[name] = "on its own buffers";
        step.flat_loop = std::move(loop);
      }
    }
  }
}

Status CpuExecutable::Impl::RunFlatPart(const FlatLoop::Part& part, std::vector<Literal>& state,
                                        std::vector<Literal>& outputs,
                                        std::vector<Literal>& products) {
  using Location = FlatLoop::Location;
  auto read = [&](const Location& location) -> const Literal& {
    return FlatLoop::Read(location, state, outputs);
  };
  // A buffer of `bytes` for `shape`: the one it holds, else a new one.
  auto shaped = [](Literal& buffer, const ir::Shape& shape, int64_t bytes) -> Status {
    if (!buffer.is_tuple() && static_cast<int64_t>(buffer.byte_size()) == bytes)
      return Status::Ok();
    StatusOr<Literal> made = Literal::CreateInto(shape, {});
    if (!made.ok()) return made.status();
    buffer = std::move(made).value();
    return Status::Ok();
  };
  constexpr size_t kOnStack = 32;
  for (size_t o = 0; o < part.ops.size(); ++o) {
    const FlatLoop::Op& op = part.ops[o];
    const Step& step = *op.step;
    const ir::Instruction& instruction = *step.instruction;
    const auto started =
        time_kernels_ ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
    Literal& output = outputs[o];
    const int in_place = step.kind == StepKind::kMlir ? step.in_place_input : -1;
    if (!op.element_shapes.empty()) {
      // Several outputs: a tuple of a buffer each, kept from step to step.
      bool fits = output.is_tuple() && output.elements().size() == op.element_shapes.size();
      for (size_t e = 0; fits && e < op.element_shapes.size(); ++e) {
        fits = !output.elements()[e].is_tuple() &&
               static_cast<int64_t>(output.elements()[e].byte_size()) ==
                   ShapeBytes(op.element_shapes[e]);
      }
      if (!fits) {
        std::vector<Literal> elements;
        for (const ir::Shape& shape : op.element_shapes) {
          StatusOr<Literal> made = Literal::CreateInto(shape, {});
          if (!made.ok()) return Status::Error(instruction.name() + ": " + made.message());
          elements.push_back(std::move(made).value());
        }
        output = Literal::Tuple(std::move(elements));
      }
    } else if (op.donated) {
      const Location& operand = op.inputs[static_cast<size_t>(in_place)];
      std::swap(output, operand.kind == Location::Kind::kState ? state[operand.index]
                                                               : outputs[operand.index]);
    } else {
      Status made = shaped(output, op.shape, op.bytes);
      if (!made.ok()) return Status::Error(instruction.name() + ": " + made.message());
      if (in_place >= 0) {
        const Literal& start = read(op.inputs[static_cast<size_t>(in_place)]);
        if (static_cast<int64_t>(start.byte_size()) != op.bytes)
          return Status::Error(instruction.name() + ": its in-place operand has another size");
        std::memcpy(output.data(), start.data(), start.byte_size());
      }
    }
    if (op.element_shapes.empty() && static_cast<int64_t>(output.byte_size()) != op.bytes)
      return Status::Error(instruction.name() + ": its in-place operand has another size");
    Status ran = Status::Ok();
    if (step.kind == StepKind::kValue) {
      // A bitcast that keeps the bytes in order (Flattenable).
      const Literal& source = read(op.inputs.at(0));
      if (static_cast<int64_t>(source.byte_size()) != op.bytes)
        return Status::Error(instruction.name() + ": its operand has another size");
      std::memcpy(output.data(), source.data(), source.byte_size());
      continue;
    }
    if (step.kind == StepKind::kBlas || step.kind == StepKind::kOutput) {
      const ir::Instruction& contraction = step.kind == StepKind::kBlas ? instruction : *step.dot;
      const size_t lhs = step.kind == StepKind::kBlas ? 0 : static_cast<size_t>(step.dot_lhs);
      const size_t rhs = step.kind == StepKind::kBlas ? 1 : static_cast<size_t>(step.dot_rhs);
      Literal& into = step.kind == StepKind::kBlas ? output : products[o];
      if (step.kind == StepKind::kOutput) {
        Status made = shaped(into, op.product_shape, op.product_bytes);
        if (!made.ok()) return Status::Error(instruction.name() + ": " + made.message());
      }
      if (contraction.opcode() == Opcode::kDot) {
        ran = RunBlasDotInto(contraction, read(op.inputs.at(lhs)), read(op.inputs.at(rhs)),
                             options_.f32_dot_precision, into, step.gemm, step.dot_plan.get());
      } else {
        StatusOr<Literal> computed =
            RunLibrary(contraction, step.gemm, read(op.inputs.at(lhs)), read(op.inputs.at(rhs)),
                       into.TakeStorage(), step.dot_plan.get(), step.direct_convolution.get());
        if (computed.ok())
          into = std::move(computed).value();
        else
          ran = computed.status();
      }
    }
    if (ran.ok() && step.kind != StepKind::kBlas) {
      // The kernel's arguments: its inputs (an output fusion's product after them), then
      // its output.
      void* on_stack[kOnStack];
      std::vector<void*> on_heap;
      const size_t inputs = op.inputs.size() + (step.kind == StepKind::kOutput ? 1 : 0);
      const size_t results = op.element_shapes.empty() ? 1 : op.element_shapes.size();
      void** buffers = on_stack;
      if (inputs + results > kOnStack) {
        on_heap.resize(inputs + results);
        buffers = on_heap.data();
      }
      for (size_t i = 0; i < op.inputs.size(); ++i) {
        buffers[i] = static_cast<int>(i) == in_place
                         ? output.data()
                         : const_cast<uint8_t*>(read(op.inputs[i]).data());
      }
      if (step.kind == StepKind::kOutput) buffers[op.inputs.size()] = products[o].data();
      if (op.element_shapes.empty()) {
        buffers[inputs] = output.data();
      } else {
        for (size_t e = 0; e < results; ++e) buffers[inputs + e] = output.elements()[e].data();
      }
      ran = RunKernelBlocks(step, buffers, inputs + results);
    }
    if (!ran.ok()) return Status::Error(instruction.name() + ": " + ran.message());
    if (step.record >= 0 && time_kernels_) {
      KernelTiming& timing = timings_[static_cast<size_t>(step.record)];
      timing.seconds +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      ++timing.executions;
    }
  }
  return Status::Ok();
}

StatusOr<Literal> CpuExecutable::Impl::RunFlatLoop(const Step& step, Values operands,
                                                   Literal* donor) {
  using Location = FlatLoop::Location;
  const FlatLoop& loop = *step.flat_loop;
  const ir::Instruction& instruction = *step.instruction;
  FlatLoop::Buffers own;
  FlatLoop::Buffers& buffers = loop.buffers.in_use ? own : loop.buffers;
  buffers.in_use = true;
  int64_t held = 0;
  struct Release {
    int64_t& total;
    int64_t& held;
    FlatLoop::Buffers& buffers;
    ~Release() {
      total -= held;
      buffers.state.clear();
      buffers.next.clear();
      buffers.in_use = false;
    }
  } release{live_bytes_, held, buffers};
  // The state, element by element: handed over, or copied.
  const Literal& start = donor != nullptr ? *donor : *operands[0];
  if (loop.tuple_state) {
    if (!start.is_tuple() || start.elements().size() != loop.elements)
      return Status::Error(instruction.name() + ": its operand is not the loop's state");
    buffers.state.resize(loop.elements);
    for (size_t k = 0; k < loop.elements; ++k) {
      buffers.state[k] = donor != nullptr ? std::move(donor->elements()[k]) : start.elements()[k];
    }
  } else {
    if (start.is_tuple())
      return Status::Error(instruction.name() + ": its operand is not the loop's state");
    buffers.state.resize(1);
    buffers.state[0] = donor != nullptr ? std::move(*donor) : start;
  }
  // The state and every buffer count toward the limit while the loop runs.
  for (const Literal& element : buffers.state) held += element.TotalByteSize();
  for (const FlatLoop::Part* part : {&loop.condition, &loop.body})
    for (const FlatLoop::Op& op : part->ops) held += op.bytes + op.product_bytes;
  if (held > options_.max_live_bytes - live_bytes_) {
    const int64_t needed = held;
    held = 0;
    return Status::Error(instruction.name() + ": its state and buffers (" + std::to_string(needed) +
                         " bytes) would take the live values past the limit of " +
                         std::to_string(options_.max_live_bytes) + " bytes");
  }
  live_bytes_ += held;
  buffers.condition.resize(loop.condition.ops.size());
  buffers.condition_products.resize(loop.condition.ops.size());
  buffers.body.resize(loop.body.ops.size());
  buffers.body_products.resize(loop.body.ops.size());
  auto read = [&](const Location& location, const std::vector<Literal>& outputs) -> const Literal& {
    return FlatLoop::Read(location, buffers.state, outputs);
  };
  for (int64_t iteration = 0;; ++iteration) {
    Status checked =
        RunFlatPart(loop.condition, buffers.state, buffers.condition, buffers.condition_products);
    if (!checked.ok()) return checked;
    const Literal& go_on = read(loop.condition.results[0], buffers.condition);
    if (go_on.is_tuple() || go_on.element_count() != 1)
      return Status::Error(instruction.name() + ": condition does not return a pred");
    if (go_on.GetInt(0) == 0) break;
    if (iteration >= options_.max_while_iterations) {
      return Status::Error(instruction.name() + ": while loop still running after " +
                           std::to_string(options_.max_while_iterations) +
                           " iterations (the iteration limit)");
    }
    Status ran = RunFlatPart(loop.body, buffers.state, buffers.body, buffers.body_products);
    if (!ran.ok()) return ran;
    // The new state: buffers move into it where nothing else in it is the same buffer.
    buffers.next.resize(loop.elements);
    for (size_t j = 0; j < loop.elements; ++j) {
      const Location& result = loop.body.results[j];
      if (!loop.body.moves[j]) {
        buffers.next[j] = read(result, buffers.body);
        continue;
      }
      Literal& moved = result.kind == Location::Kind::kState ? buffers.state[result.index]
                                                             : buffers.body[result.index];
      buffers.next[j] = std::move(moved);
      moved = Literal();
    }
    std::swap(buffers.state, buffers.next);
    // An output whose buffer the new state took gets an element of the old state of its
    // shape, to write the next step into.
    for (size_t o = 0; o < loop.body.ops.size(); ++o) {
      if (!buffers.body[o].is_tuple()) continue;
      for (Literal& old : buffers.next) {
        if (!old.is_tuple() && !old.is_shared() && old.shape().Compatible(loop.body.ops[o].shape)) {
          buffers.body[o] = std::move(old);
          old = Literal();
          break;
        }
      }
    }
  }
  if (!loop.tuple_state) return std::move(buffers.state[0]);
  return Literal::Tuple(std::move(buffers.state));
}

StatusOr<Literal> CpuExecutable::Impl::Run(const std::vector<Literal>& arguments) {
  const ir::Computation& entry = *module_.entry();
  if (static_cast<int64_t>(arguments.size()) != entry.parameter_count()) {
    return Status::Error("the module takes " + std::to_string(entry.parameter_count()) +
                         " arguments, got " + std::to_string(arguments.size()));
  }
  timings_.assign(records_.size(), KernelTiming{});
  for (size_t i = 0; i < timings_.size(); ++i) timings_[i].kernel = i;
  live_bytes_ = 0;
  reused_values_ = 0;
  reused_products_ = 0;
  std::vector<const Literal*> pointers;
  for (const Literal& argument : arguments) pointers.push_back(&argument);
  return RunProgram(*entry_, pointers);
}

StatusOr<Literal> CpuExecutable::Impl::RunProgram(const Program& program, Values arguments,
                                                  Literal* state) {
  const std::vector<Step>& steps = program.steps;
  const size_t root = program.root;
  // The program's own working vectors, or (were it ever run re-entrantly) new ones.
  Program::Scratch own;
  Program::Scratch& scratch = program.scratch.in_use ? own : program.scratch;
  scratch.in_use = true;
  std::vector<int64_t>& remaining = scratch.remaining;
  remaining.assign(program.readers.begin(), program.readers.end());
  // Values this program computed, and where each value is: parameters and constants are read
  // where they are held, never copied.
  std::vector<Literal>& values = scratch.values;
  values.resize(steps.size());
  std::vector<const Literal*>& value_of = scratch.value_of;
  value_of.assign(steps.size(), nullptr);
  std::vector<char>& live = scratch.live;
  live.assign(steps.size(), 0);
  // What this program holds counts toward the shared limit until it returns.
  int64_t held = 0;
  // On the way out: what it holds stops counting, values still held are dropped, and the
  // working vectors are free for the next run.
  struct Release {
    int64_t& total;
    int64_t& held;
    Program::Scratch& scratch;
    ~Release() {
      total -= held;
      for (size_t i = 0; i < scratch.live.size(); ++i)
        if (scratch.live[i]) scratch.values[i] = Literal();
      scratch.in_use = false;
    }
  } release{live_bytes_, held, scratch};
  std::vector<const Literal*>& operands = scratch.operands;
  // For a get-tuple-element that reads a tuple this program holds for the last time: the
  // element's index; -1 otherwise.
  auto movable_element = [&](const Step& step, auto& last_read) -> int64_t {
    const ir::Instruction& instruction = *step.instruction;
    if (instruction.opcode() != Opcode::kGetTupleElement ||
        (step.kind != StepKind::kValue && step.kind != StepKind::kHost) ||
        step.operands.size() != 1 || !last_read(step.operands[0]))
      return -1;
    const Literal& tuple = values[step.operands[0]];
    const int64_t index = instruction.tuple_index().value_or(-1);
    if (!tuple.is_tuple() || index < 0 || index >= static_cast<int64_t>(tuple.elements().size()))
      return -1;
    return index;
  };
  for (size_t i = 0; i < steps.size(); ++i) {
    const Step& step = steps[i];
    const ir::Instruction& instruction = *step.instruction;
    StatusOr<Literal> result = Status::Error("");
    const auto started =
        time_kernels_ ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
    if (step.constant) {
      value_of[i] = &*step.constant;
      continue;
    }
    if (instruction.opcode() == Opcode::kParameter) {
      const int64_t n = instruction.parameter_number();
      if (n < 0 || n >= static_cast<int64_t>(arguments.size))
        return Status::Error(instruction.name() + ": no argument for this parameter");
      const Literal& argument = *arguments[static_cast<size_t>(n)];
      if (!argument.shape().Compatible(instruction.shape())) {
        return Status::Error(instruction.name() + ": argument " + argument.shape().ToString(false) +
                             " does not match the parameter's shape " +
                             instruction.shape().ToString(false));
      }
      value_of[i] = &argument;
      continue;
    }
    const int64_t bytes = ShapeBytes(instruction.shape());
    if (bytes < 0 || bytes > options_.max_live_bytes - live_bytes_) {
      return Status::Error(instruction.name() + ": result " + instruction.shape().ToString(false) +
                           " would take the live values past the limit of " +
                           std::to_string(options_.max_live_bytes) + " bytes");
    }
    operands.clear();
    for (size_t slot : step.operands) operands.push_back(value_of[slot]);
    // A value this program holds, read for the last time by this step: its bytes can be moved
    // into the result instead of copied. Its accounting goes with them.
    auto last_read = [&](size_t slot) {
      return live[slot] && slot != root &&
             remaining[slot] == std::count(step.operands.begin(), step.operands.end(), slot);
    };
    auto hand_over = [&](size_t slot) {
      const int64_t size = values[slot].TotalByteSize();
      live_bytes_ -= size;
      held -= size;
      live[slot] = 0;
    };
    if (state != nullptr && step.takes_element >= 0 && state->is_tuple() &&
        step.takes_element < static_cast<int64_t>(state->elements().size())) {
      result = std::move(state->elements()[static_cast<size_t>(step.takes_element)]);
    } else if (const int64_t element = movable_element(step, last_read); element >= 0) {
      // The last read of a tuple this program holds (a while loop's result, most often): the
      // element moves out, and the rest of the tuple is dropped.
      const size_t slot = step.operands[0];
      hand_over(slot);
      result = std::move(values[slot].elements()[static_cast<size_t>(element)]);
      values[slot] = Literal();
    } else if (instruction.opcode() == Opcode::kTuple &&
               (step.kind == StepKind::kValue || step.kind == StepKind::kHost)) {
      // A loop body's new state: its elements are moved where they were last read.
      std::vector<Literal> elements;
      for (size_t j = 0; j < step.operands.size(); ++j) {
        const size_t slot = step.operands[j];
        const bool last = std::find(step.operands.begin() + static_cast<std::ptrdiff_t>(j) + 1,
                                    step.operands.end(), slot) == step.operands.end();
        if (last && last_read(slot)) {
          hand_over(slot);
          elements.push_back(std::move(values[slot]));
        } else {
          elements.push_back(*value_of[slot]);
        }
      }
      result = Literal::Tuple(std::move(elements));
    } else {
      Literal* donor = nullptr;
      // An in-place kernel's operand, or a while loop's initial state, read here for the last
      // time: its bytes become the output's (the loop's state) instead of being copied.
      int64_t donated = -1;
      if (step.in_place_input >= 0 && step.kind == StepKind::kMlir) donated = step.in_place_input;
      if (step.kind == StepKind::kControl && instruction.opcode() == Opcode::kWhile) donated = 0;
      if (donated >= 0) {
        const size_t slot = step.operands[static_cast<size_t>(donated)];
        if (last_read(slot) && !values[slot].is_shared()) {
          hand_over(slot);
          donor = &values[slot];
        }
      }
      result = RunStep(step, operands, donor);
    }
    if (!result.ok()) return result.status();
    if (step.record >= 0 && time_kernels_) {
      KernelTiming& timing = timings_[static_cast<size_t>(step.record)];
      timing.seconds +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      ++timing.executions;
    }
    if (!result->shape().Compatible(instruction.shape())) {
      return Status::Error(instruction.name() + ": computed " + result->shape().ToString(false) +
                           " but the instruction has shape " + instruction.shape().ToString(false));
    }
    const int64_t size = result->TotalByteSize();
    live_bytes_ += size;
    held += size;
    values[i] = std::move(result).value();
    value_of[i] = &values[i];
    live[i] = 1;
    for (size_t slot : step.operands) {
      if (--remaining[slot] == 0 && slot != root && live[slot]) {
        const int64_t freed = values[slot].TotalByteSize();
        live_bytes_ -= freed;
        held -= freed;
        if (&program == entry_)
          GiveBack(steps[slot].instruction, values[slot]);
        else
          KeepSpare(values[slot]);
        values[slot] = Literal();
        live[slot] = 0;
      }
    }
  }
  if (!live[root]) return *value_of[root];  // the root is a parameter or a constant
  live[root] = 0;
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
void CpuExecutable::set_kernel_timing(bool on) { impl_->time_kernels_ = on; }
int64_t CpuExecutable::reused_values() const { return impl_->reused_values_; }
int64_t CpuExecutable::reused_products() const { return impl_->reused_products_; }
int64_t CpuExecutable::assigned_values() const {
  return static_cast<int64_t>(impl_->allocation_of_.size());
}
double CpuExecutable::compile_seconds() const { return impl_->compile_seconds_; }

std::string CpuExecutable::KernelSummary() const {
  std::string summary = SummarizeKernels(impl_->records_, impl_->host_opcodes_);
  int64_t in_blocks = 0;
  for (const recording::KernelRecord& record : impl_->records_) {
    if (record.note.find(kInBlocksNote) != std::string::npos) ++in_blocks;
  }
  if (in_blocks > 0) {
    summary += ", " + std::to_string(in_blocks) + " of them in blocks of rows on every core";
  }
  return summary;
}

std::string CpuExecutable::LoopSummary() const {
  std::string summary;
  for (const auto& [name, note] : impl_->loop_notes_)
    summary += (summary.empty() ? "" : "; ") + name + " " + note;
  return summary;
}

}  // namespace fusescope::runtime
