#ifndef FUSESCOPE_RUNTIME_INTERPRETER_INTERPRETER_H_
#define FUSESCOPE_RUNTIME_INTERPRETER_INTERPRETER_H_

// The reference interpreter: executes a module's computations instruction by instruction on
// literals, with XLA's semantics, to check the numbers a compiled module produces. It favours
// plainness over speed: floating-point arithmetic is done in double and rounded back to the
// element type once per instruction, which keeps f32 results within a few ulps of XLA's.
//
// What it refuses, with an error naming the instruction: opcodes and custom-calls it cannot
// run, complex and sub-byte element types, dynamic shapes, values beyond the live-byte limit
// (checked before allocating), while loops past the iteration limit, and rng-bit-generator
// (see interpreter.cpp for why its bits cannot be reproduced here).

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "ir/status.h"
#include "runtime/literal.h"

namespace fusescope::ir {
class Computation;
class Instruction;
class Module;
}  // namespace fusescope::ir

namespace fusescope::runtime {

struct InterpreterOptions {
  // Refuse an instruction whose result would take the bytes held by live values past this.
  int64_t max_live_bytes = int64_t{4} << 30;
  // Refuse a while loop that has not ended after this many iterations.
  int64_t max_while_iterations = 1'000'000;
  // Checked between instructions; when it reads true the run stops with an error.
  const std::atomic<bool>* cancel = nullptr;
  // Called after each instruction of the entry computation with (done, total).
  std::function<void(int64_t, int64_t)> progress;
  // When set, called after each instruction of the entry computation with the seconds it
  // took (a while or call counts whole): what profiling with the interpreter measures.
  std::function<void(const ir::Instruction&, double)> entry_instruction_time;
  // Run() computes on a copy of the module with every f16, bf16 and f32 value made f64
  // (runtime/float_widening.h): the exact answer that rounded results are judged by. Its
  // float results are then f64; Evaluate and EvaluateInstruction are not affected.
  bool widen_floats_to_f64 = false;
};

class Interpreter {
 public:
  explicit Interpreter(InterpreterOptions options = {});
  ~Interpreter();
  Interpreter(const Interpreter&) = delete;
  Interpreter& operator=(const Interpreter&) = delete;

  // Runs the entry computation on one argument per parameter (widened to f64 with
  // InterpreterOptions::widen_floats_to_f64, the arguments too).
  StatusOr<Literal> Run(const ir::Module& module, std::vector<Literal> arguments);
  // Runs any computation of a module on one argument per parameter. Both refuse a module that
  // does not verify (ir::VerifyModule).
  StatusOr<Literal> Evaluate(const ir::Computation& computation, std::vector<Literal> arguments);
  // Runs one instruction (not a parameter) on its operands' values, in operand order; what it
  // calls runs through the interpreter. For executables that run most instructions
  // elsewhere. Precondition: the instruction's module verifies (checked once by the caller,
  // not on every call).
  StatusOr<Literal> EvaluateInstruction(const ir::Instruction& instruction,
                                        const std::vector<const Literal*>& operands);

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace fusescope::runtime

#endif  // FUSESCOPE_RUNTIME_INTERPRETER_INTERPRETER_H_
