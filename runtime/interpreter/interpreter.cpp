#include "runtime/interpreter/interpreter.h"

#include <chrono>
#include <cstring>
#include <unordered_map>

#include "ir/module.h"
#include "ir/verifier.h"
#include "passes/literal_value.h"
#include "runtime/executable_planning.h"
#include "runtime/interpreter/float_widening.h"
#include "runtime/interpreter/interpreter_ops.h"

namespace fusescope::runtime {
namespace internal {

Status InstructionError(const ir::Instruction& instruction, const std::string& message) {
  return Status::Error(instruction.name() + ": " + message);
}

std::vector<int64_t> Strides(const std::vector<int64_t>& dims) {
  std::vector<int64_t> strides(dims.size(), 1);
  for (size_t i = dims.size(); i-- > 1;) strides[i - 1] = strides[i] * dims[i];
  return strides;
}

bool NextIndex(std::vector<int64_t>& index, const std::vector<int64_t>& dims) {
  for (size_t i = index.size(); i-- > 0;) {
    if (++index[i] < dims[i]) return true;
    index[i] = 0;
  }
  return false;
}

StatusOr<Literal> NewArray(const ir::Instruction& instruction) {
  if (!instruction.shape().IsArray())
    return InstructionError(instruction, "expected an array result");
  StatusOr<Literal> literal = Literal::Create(instruction.shape());
  if (!literal.ok()) return InstructionError(instruction, literal.message());
  return literal;
}

void CopyElement(const Literal& source, int64_t from, Literal& target, int64_t to) {
  const int bytes = ElementByteSize(target.type());
  if (source.type() != target.type()) {
    if (target.is_floating())
      target.SetDouble(to, source.GetDouble(from));
    else
      target.SetInt(to, source.GetInt(from));
    return;
  }
  std::memcpy(target.data() + to * bytes, source.data() + from * bytes, static_cast<size_t>(bytes));
}

}  // namespace internal

namespace {

using internal::InstructionError;
using internal::Operands;
using ir::Opcode;

Literal Copy(const Literal& literal) { return literal; }

}  // namespace

class Interpreter::Impl {
 public:
  explicit Impl(InterpreterOptions options) : options_(std::move(options)) {}

  bool widen_floats_to_f64() const { return options_.widen_floats_to_f64; }

  StatusOr<Literal> Evaluate(const ir::Computation& computation, std::vector<Literal> arguments) {
    ++depth_;
    StatusOr<Literal> result = EvaluateComputation(computation, std::move(arguments));
    --depth_;
    return result;
  }

  StatusOr<Literal> EvaluateOne(const ir::Instruction& instruction, const Operands& operands) {
    if (instruction.opcode() == Opcode::kParameter)
      return InstructionError(instruction, "a parameter has no value of its own");
    if (static_cast<int64_t>(operands.size()) != instruction.operand_count())
      return InstructionError(instruction, "needs one value per operand");
    Status limit = CheckLimit(instruction);
    if (!limit.ok()) return limit;
    ++depth_;
    std::vector<Literal> no_arguments;
    StatusOr<Literal> result = EvaluateInstruction(instruction, operands, no_arguments);
    --depth_;
    return result;
  }

 private:
  StatusOr<Literal> EvaluateComputation(const ir::Computation& computation,
                                        std::vector<Literal> arguments);
  StatusOr<Literal> EvaluateInstruction(const ir::Instruction& instruction,
                                        const Operands& operands, std::vector<Literal>& arguments);
  StatusOr<Literal> EvaluateConstant(const ir::Instruction& instruction);
  StatusOr<Literal> EvaluateWhile(const ir::Instruction& instruction, const Literal& init);
  StatusOr<Literal> EvaluateConditional(const ir::Instruction& instruction,
                                        const Operands& operands);
  StatusOr<Literal> CallSingle(const ir::Instruction& instruction, std::string_view key,
                               const Operands& operands);
  Status CheckLimit(const ir::Instruction& instruction);

  internal::CallComputation Caller() {
    return [this](const ir::Computation& computation, std::vector<Literal> args) {
      return Evaluate(computation, std::move(args));
    };
  }

  InterpreterOptions options_;
  int64_t live_bytes_ = 0;
  int depth_ = 0;
  std::unordered_map<const ir::Instruction*, Literal> constants_;
};

Status Interpreter::Impl::CheckLimit(const ir::Instruction& instruction) {
  const int64_t bytes = ShapeBytes(instruction.shape());
  if (bytes < 0 || bytes > options_.max_live_bytes - live_bytes_) {
    return InstructionError(instruction, "result " + instruction.shape().ToString(false) +
                                             " would take the live values past the limit of " +
                                             std::to_string(options_.max_live_bytes) + " bytes");
  }
  return Status::Ok();
}

StatusOr<Literal> Interpreter::Impl::EvaluateComputation(const ir::Computation& computation,
                                                         std::vector<Literal> arguments) {
  if (static_cast<int64_t>(arguments.size()) != computation.parameter_count()) {
    return Status::Error("computation " + computation.name() + " takes " +
                         std::to_string(computation.parameter_count()) + " arguments, got " +
                         std::to_string(arguments.size()));
  }
  for (int64_t i = 0; i < computation.parameter_count(); ++i) {
    const ir::Instruction* parameter = computation.parameter(i);
    if (parameter == nullptr)
      return Status::Error(computation.name() + ": parameter " + std::to_string(i) + " is missing");
    if (!arguments[static_cast<size_t>(i)].shape().Compatible(parameter->shape())) {
      return Status::Error(parameter->name() + ": argument " +
                           arguments[static_cast<size_t>(i)].shape().ToString(false) +
                           " does not match the parameter's shape " +
                           parameter->shape().ToString(false));
    }
  }
  if (computation.root() == nullptr) return Status::Error(computation.name() + " has no root");
  const std::vector<ir::Instruction*> order = computation.MakePostOrder();
  std::unordered_map<const ir::Instruction*, int64_t> remaining_uses;
  for (const ir::Instruction* instruction : order) {
    for (const ir::Instruction* operand : instruction->operands()) ++remaining_uses[operand];
  }
  std::unordered_map<const ir::Instruction*, Literal> values;
  const int64_t total = static_cast<int64_t>(order.size());
  int64_t done = 0;
  StatusOr<Literal> failure = Status::Error("");
  auto release = [&](const ir::Instruction* instruction) {
    auto it = values.find(instruction);
    if (it == values.end()) return;
    live_bytes_ -= it->second.TotalByteSize();
    values.erase(it);
  };
  for (const ir::Instruction* instruction : order) {
    if (options_.cancel != nullptr && options_.cancel->load()) {
      for (auto& [key, value] : values) live_bytes_ -= value.TotalByteSize();
      return Status::Error("cancelled at " + instruction->name());
    }
    Operands operands;
    for (const ir::Instruction* operand : instruction->operands()) {
      auto it = values.find(operand);
      if (it == values.end())
        return InstructionError(*instruction, "operand " + operand->name() + " has no value");
      operands.push_back(&it->second);
    }
    Status limit = CheckLimit(*instruction);
    const bool timed = depth_ == 1 && options_.entry_instruction_time != nullptr;
    const auto started =
        timed ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point();
    StatusOr<Literal> result = limit.ok() ? EvaluateInstruction(*instruction, operands, arguments)
                                          : StatusOr<Literal>(limit);
    if (timed && result.ok()) {
      options_.entry_instruction_time(
          *instruction,
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
    }
    if (result.ok() && !instruction->shape().IsToken() &&
        !result->shape().Compatible(instruction->shape())) {
      result = InstructionError(*instruction, "computed " + result->shape().ToString(false) +
                                                  " but the instruction has shape " +
                                                  instruction->shape().ToString(false));
    }
    if (!result.ok()) {
      for (auto& [key, value] : values) live_bytes_ -= value.TotalByteSize();
      return result.status();
    }
    live_bytes_ += result->TotalByteSize();
    values[instruction] = std::move(result).value();
    for (const ir::Instruction* operand : instruction->operands()) {
      if (--remaining_uses[operand] == 0 && operand != computation.root()) release(operand);
    }
    if (remaining_uses[instruction] == 0 && instruction != computation.root()) release(instruction);
    ++done;
    if (depth_ == 1 && options_.progress) options_.progress(done, total);
  }
  // Everything held here, the root included, stops counting: the caller counts the root
  // again when it keeps it as an instruction's value.
  for (auto& [key, value] : values) live_bytes_ -= value.TotalByteSize();
  return std::move(values[computation.root()]);
}

StatusOr<Literal> Interpreter::Impl::EvaluateConstant(const ir::Instruction& instruction) {
  auto cached = constants_.find(&instruction);
  if (cached != constants_.end()) return Copy(cached->second);
  const ir::Shape& shape = instruction.shape();
  if (!shape.IsArray()) return InstructionError(instruction, "tuple constants are not supported");
  if (const ir::ConstantBytesPtr& bytes = instruction.constant_bytes()) {
    // Read in place: a weight is not copied, and the copies handed out share it too.
    StatusOr<Literal> shared = Literal::Shared(shape, bytes);
    if (!shared.ok()) return InstructionError(instruction, shared.message());
    constants_.emplace(&instruction, *shared);
    return shared;
  }
  StatusOr<Literal> created = internal::NewArray(instruction);
  if (!created.ok()) return created.status();
  Literal literal = std::move(created).value();
  std::optional<passes::LiteralValue> parsed =
      passes::LiteralValue::Parse(instruction.literal(), shape);
  if (!parsed) {
    return InstructionError(instruction, instruction.literal().find("...") != std::string::npos
                                             ? "the constant's value was elided from the text"
                                             : "the constant's literal is not readable");
  }
  for (int64_t i = 0; i < literal.element_count(); ++i) {
    if (literal.is_floating())
      literal.SetDouble(i, parsed->GetDouble(i));
    else
      literal.SetInt(i, parsed->GetInt(i));
  }
  constants_.emplace(&instruction, Copy(literal));
  return literal;
}

StatusOr<Literal> Interpreter::Impl::CallSingle(const ir::Instruction& instruction,
                                                std::string_view key, const Operands& operands) {
  std::vector<ir::Computation*> called = instruction.CalledComputations(key);
  if (called.size() != 1)
    return InstructionError(instruction, "needs one computation in " + std::string(key) + "=");
  std::vector<Literal> args;
  for (const Literal* operand : operands) args.push_back(Copy(*operand));
  return Evaluate(*called[0], std::move(args));
}

StatusOr<Literal> Interpreter::Impl::EvaluateWhile(const ir::Instruction& instruction,
                                                   const Literal& init) {
  std::vector<ir::Computation*> condition = instruction.CalledComputations("condition");
  std::vector<ir::Computation*> body = instruction.CalledComputations("body");
  if (condition.size() != 1 || body.size() != 1)
    return InstructionError(instruction, "while needs condition= and body=");
  Literal state = Copy(init);
  for (int64_t iteration = 0;; ++iteration) {
    if (options_.cancel != nullptr && options_.cancel->load())
      return InstructionError(instruction, "cancelled");
    std::vector<Literal> args;
    args.push_back(Copy(state));
    StatusOr<Literal> go_on = Evaluate(*condition[0], std::move(args));
    if (!go_on.ok()) return go_on.status();
    if (go_on->is_tuple() || go_on->element_count() != 1)
      return InstructionError(instruction, "condition does not return a pred");
    if (go_on->GetInt(0) == 0) return state;
    if (iteration >= options_.max_while_iterations) {
      return InstructionError(instruction, "while loop still running after " +
                                               std::to_string(options_.max_while_iterations) +
                                               " iterations (the iteration limit)");
    }
    args.clear();
    args.push_back(std::move(state));
    StatusOr<Literal> next = Evaluate(*body[0], std::move(args));
    if (!next.ok()) return next.status();
    state = std::move(next).value();
  }
}

StatusOr<Literal> Interpreter::Impl::EvaluateConditional(const ir::Instruction& instruction,
                                                         const Operands& operands) {
  std::vector<ir::Computation*> branches = instruction.CalledComputations("branch_computations");
  const Literal& selector = *operands[0];
  if (selector.is_tuple() || selector.element_count() != 1)
    return InstructionError(instruction, "selector is not a scalar");
  int64_t branch = 0;
  if (branches.empty()) {
    std::vector<ir::Computation*> on_true = instruction.CalledComputations("true_computation");
    std::vector<ir::Computation*> on_false = instruction.CalledComputations("false_computation");
    if (on_true.size() != 1 || on_false.size() != 1)
      return InstructionError(instruction, "conditional has no branches");
    branches = {on_true[0], on_false[0]};
    branch = selector.GetInt(0) != 0 ? 0 : 1;
  } else {
    branch = selector.GetInt(0);
    if (branch < 0 || branch >= static_cast<int64_t>(branches.size()))
      branch = static_cast<int64_t>(branches.size()) - 1;
  }
  if (operands.size() != branches.size() + 1)
    return InstructionError(instruction, "conditional needs one operand per branch");
  std::vector<Literal> args;
  args.push_back(Copy(*operands[static_cast<size_t>(branch) + 1]));
  return Evaluate(*branches[static_cast<size_t>(branch)], std::move(args));
}

StatusOr<Literal> Interpreter::Impl::EvaluateInstruction(const ir::Instruction& instruction,
                                                         const Operands& operands,
                                                         std::vector<Literal>& arguments) {
  const Opcode opcode = instruction.opcode();
  switch (opcode) {
    // XLA expands rng-bit-generator into a Philox or ThreeFry stream whose bit layout (how
    // the state is split across the output, which algorithm "default" means on each
    // backend) is an implementation detail of XLA's expander; outputs that only look random
    // would pass for XLA's and be wrong, so the interpreter refuses instead.
    case Opcode::kRngBitGenerator:
    case Opcode::kRng:
    case Opcode::kRngGetAndUpdateState:
      return InstructionError(
          instruction, std::string(instruction.opcode_name()) +
                           " cannot be run: the interpreter does not reproduce XLA's random bits");
    default:
      break;
  }
  if (internal::IsDataMovementKind(opcode))
    return internal::EvaluateDataMovement(instruction, operands);
  if (internal::IsElementwiseKind(opcode))
    return internal::EvaluateElementwise(instruction, operands);
  const internal::CallComputation call = Caller();
  switch (opcode) {
    case Opcode::kParameter: {
      const int64_t n = instruction.parameter_number();
      if (n < 0 || n >= static_cast<int64_t>(arguments.size()))
        return InstructionError(instruction, "no such parameter");
      return std::move(arguments[static_cast<size_t>(n)]);
    }
    case Opcode::kConstant:
      return EvaluateConstant(instruction);
    case Opcode::kTuple: {
      std::vector<Literal> elements;
      for (const Literal* operand : operands) elements.push_back(Copy(*operand));
      return Literal::Tuple(std::move(elements));
    }
    case Opcode::kGetTupleElement: {
      const std::optional<int64_t> index = instruction.tuple_index();
      const Literal& tuple = *operands[0];
      if (!index || !tuple.is_tuple() || *index < 0 ||
          *index >= static_cast<int64_t>(tuple.elements().size())) {
        return InstructionError(instruction, "get-tuple-element index is out of range");
      }
      return Copy(tuple.elements()[static_cast<size_t>(*index)]);
    }
    case Opcode::kDot:
      return internal::EvaluateDot(instruction, operands);
    case Opcode::kConvolution:
      return internal::EvaluateConvolution(instruction, operands);
    case Opcode::kReduce:
      return internal::EvaluateReduce(instruction, operands, call);
    case Opcode::kReduceWindow:
      return internal::EvaluateReduceWindow(instruction, operands, call);
    case Opcode::kSelectAndScatter:
      return internal::EvaluateSelectAndScatter(instruction, operands, call);
    case Opcode::kSort:
      return internal::EvaluateSort(instruction, operands, call);
    case Opcode::kTopK:
      return internal::EvaluateTopK(instruction, operands);
    case Opcode::kMap:
      return internal::EvaluateMap(instruction, operands, call);
    case Opcode::kGather:
      return internal::EvaluateGather(instruction, operands);
    case Opcode::kScatter:
      return internal::EvaluateScatter(instruction, operands, call);
    case Opcode::kBatchNormTraining:
    case Opcode::kBatchNormInference:
    case Opcode::kBatchNormGrad:
      return internal::EvaluateBatchNorm(instruction, operands);
    case Opcode::kWhile:
      return EvaluateWhile(instruction, *operands[0]);
    case Opcode::kConditional:
      return EvaluateConditional(instruction, operands);
    case Opcode::kCall:
      return CallSingle(instruction, "to_apply", operands);
    case Opcode::kFusion:
      return CallSingle(instruction, "calls", operands);
    case Opcode::kAfterAll:
      return Literal::Create(ir::Shape::Token());
    case Opcode::kAddDependency:
    case Opcode::kOptimizationBarrier:
    case Opcode::kDomain:
      return Copy(*operands[0]);
    case Opcode::kReplicaId:
    case Opcode::kPartitionId:
      return Literal::ScalarInt(instruction.shape().element_type(), 0);
    case Opcode::kGetDimensionSize: {
      const std::optional<int64_t> dim = instruction.IntAttribute("dimensions");
      const std::vector<int64_t> dims = instruction.dimensions().value_or(std::vector<int64_t>{});
      const int64_t d = dims.size() == 1 ? dims[0] : dim.value_or(-1);
      if (d < 0 || d >= operands[0]->shape().rank())
        return InstructionError(instruction, "bad dimension");
      return Literal::ScalarInt(instruction.shape().element_type(),
                                operands[0]->shape().dimension(d));
    }
    // One replica, one partition: every collective hands its operands back unchanged.
    case Opcode::kAllReduce:
    case Opcode::kAllGather:
    case Opcode::kReduceScatter:
    case Opcode::kAllToAll:
    case Opcode::kCollectivePermute:
    case Opcode::kCollectiveBroadcast: {
      if (operands.size() == 1) return Copy(*operands[0]);
      std::vector<Literal> elements;
      for (const Literal* operand : operands) elements.push_back(Copy(*operand));
      return Literal::Tuple(std::move(elements));
    }
    case Opcode::kCustomCall: {
      std::string target(instruction.attribute("custom_call_target").value_or("?"));
      if (target.size() >= 2 && target.front() == '"' && target.back() == '"')
        target = target.substr(1, target.size() - 2);
      // Sharding annotations are the identity on one device; XLA's TopK custom-call is the
      // topk op with k taken from its result shape.
      if ((target == "Sharding" || target == "SPMDFullToShardShape" ||
           target == "SPMDShardToFullShape") &&
          operands.size() == 1 && operands[0]->shape().Compatible(instruction.shape())) {
        return Copy(*operands[0]);
      }
      if (target == "TopK" && operands.size() == 1) {
        return internal::EvaluateTopK(instruction, operands);
      }
      return InstructionError(instruction,
                              "custom-call " + target + " cannot be run by the interpreter");
    }
    default:
      return InstructionError(instruction, "opcode " + std::string(instruction.opcode_name()) +
                                               " is not supported by the interpreter");
  }
}

Interpreter::Interpreter(InterpreterOptions options)
    : impl_(std::make_unique<Impl>(std::move(options))) {}
Interpreter::~Interpreter() = default;

StatusOr<Literal> Interpreter::Run(const ir::Module& module, std::vector<Literal> arguments) {
  if (module.entry() == nullptr)
    return Status::Error("module " + module.name() + " has no entry computation");
  if (!impl_->widen_floats_to_f64()) return Evaluate(*module.entry(), std::move(arguments));
  StatusOr<std::unique_ptr<ir::Module>> wide = WidenFloatsToF64(module);
  if (!wide.ok()) return Status::Error("widening to f64: " + wide.message());
  for (Literal& argument : arguments) argument = WidenLiteral(argument);
  return Evaluate(*(*wide)->entry(), std::move(arguments));
}

StatusOr<Literal> Interpreter::Evaluate(const ir::Computation& computation,
                                        std::vector<Literal> arguments) {
  // Shapes the interpreter indexes with must agree with the operands; a module that does not
  // verify is refused rather than read out of bounds. A computation outside any module
  // cannot be verified and is refused too.
  if (computation.parent() == nullptr) {
    return Status::Error("computation " + computation.name() + " belongs to no module");
  }
  Status verified = ir::VerifyModule(*computation.parent());
  if (!verified.ok()) return Status::Error("the module does not verify: " + verified.message());
  return impl_->Evaluate(computation, std::move(arguments));
}

StatusOr<Literal> Interpreter::EvaluateInstruction(const ir::Instruction& instruction,
                                                   const std::vector<const Literal*>& operands) {
  return impl_->EvaluateOne(instruction, operands);
}

}  // namespace fusescope::runtime
