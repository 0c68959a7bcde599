#ifndef FUSESCOPE_PASSES_BUFFER_VALUES_H_
#define FUSESCOPE_PASSES_BUFFER_VALUES_H_

// The logical buffers of one computation and which instructions read them, independent of
// any order. Most instructions define one buffer holding their whole result (a fusion, a
// while or a call counts as one op: its inside is not looked at). Some only pass a buffer
// on: a bitcast, an optimization barrier and add-dependency alias their operand, a tuple
// holds its operands' buffers, a get-tuple-element picks one of them. Parameters and
// constants live for the whole computation (they are allocated elsewhere); buffers that
// reach the root are live out.
//
// A snapshot: instructions added or removed afterwards are not seen.

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "ir/computation.h"

namespace fusescope::passes {

struct LogicalBuffer {
  const ir::Instruction* defined_by = nullptr;
  int64_t bytes = 0;
  bool lives_throughout = false;  // parameter or constant
  bool live_out = false;          // part of the computation's result
  // Distinct instructions that read this buffer through an operand.
  std::vector<const ir::Instruction*> readers;
};

class BufferValues {
 public:
  explicit BufferValues(const ir::Computation& computation);

  const std::vector<LogicalBuffer>& buffers() const { return buffers_; }
  // Indices into buffers() of what `instruction`'s value may be held in.
  const std::vector<int64_t>& BuffersOf(const ir::Instruction* instruction) const;
  // The buffer `instruction` defines, or -1 when it only aliases.
  int64_t DefinedBuffer(const ir::Instruction* instruction) const;
  // Distinct buffers read by `instruction`'s operands.
  std::vector<int64_t> OperandBuffers(const ir::Instruction* instruction) const;

 private:
  void AddInstruction(const ir::Instruction* instruction);

  std::vector<LogicalBuffer> buffers_;
  std::unordered_map<const ir::Instruction*, std::vector<int64_t>> values_;
  std::unordered_map<const ir::Instruction*, int64_t> defined_;
};

}  // namespace fusescope::passes

#endif  // FUSESCOPE_PASSES_BUFFER_VALUES_H_
