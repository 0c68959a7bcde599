#include "runtime/row_blocks.h"

#include <algorithm>
#include <optional>

namespace fusescope::runtime {
namespace {

using ir::Instruction;
using ir::Opcode;

// The first dimension with more than one element, or nullopt (a scalar or a single element).
std::optional<int64_t> OuterDimension(const ir::Shape& shape) {
  if (!shape.IsArray()) return std::nullopt;
  for (int64_t d = 0; d < shape.rank(); ++d) {
    if (shape.dimension(d) > 1) return d;
  }
  return std::nullopt;
}

// Whether rows of `shape` cut at dimension `d` are contiguous: every dimension before it has
// one element, and `d` holds `rows`.
bool RowsAt(const ir::Shape& shape, int64_t d, int64_t rows) {
  if (!shape.IsArray() || d < 0 || d >= shape.rank() || shape.dimension(d) != rows) return false;
  for (int64_t before = 0; before < d; ++before) {
    if (shape.dimension(before) != 1) return false;
  }
  return true;
}

int64_t ElementsAfter(const ir::Shape& shape, int64_t d) {
  int64_t count = 1;
  for (int64_t after = d + 1; after < shape.rank(); ++after) count *= shape.dimension(after);
  return count;
}

// What each instruction must be in a block: cut at a dimension, or whole.
constexpr int64_t kWhole = -1;

class Finder {
 public:
  Finder(const ir::Computation& fused, const Instruction* leaf) : fused_(fused), leaf_(leaf) {}

  StatusOr<RowSplit> Run() {
    const Instruction* root = fused_.root();
    if (root == nullptr) return Status::Error("no root");
    std::vector<const Instruction*> outputs;
    if (root->opcode() == Opcode::kTuple) {
      outputs.assign(root->operands().begin(), root->operands().end());
    } else {
      outputs.push_back(root);
    }
    for (const Instruction* output : outputs) {
      std::optional<int64_t> d = OuterDimension(output->shape());
      if (!d) return Status::Error(output->name() + " has no dimension to cut");
      if (split_.rows == 0) split_.rows = output->shape().dimension(*d);
      if (!RowsAt(output->shape(), *d, split_.rows))
        return Status::Error("the outputs have different rows");
      FS_RETURN_IF_ERROR(Require(*output, *d));
    }
    // Users before operands: every requirement on an instruction is known when it is
    // visited.
    std::vector<Instruction*> order = fused_.MakePostOrder();
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      const Instruction& instruction = **it;
      if (&instruction == root && root->opcode() == Opcode::kTuple) continue;
      auto found = role_.find(&instruction);
      if (found == role_.end()) continue;  // unused
      FS_RETURN_IF_ERROR(Propagate(instruction, found->second));
    }
    for (const auto& [instruction, d] : role_) {
      if (d != kWhole) split_.row_dimension[instruction->id()] = d;
    }
    return split_;
  }

 private:
  Status Require(const Instruction& instruction, int64_t d) {
    auto [it, inserted] = role_.emplace(&instruction, d);
    if (!inserted && it->second != d) {
      return Status::Error(instruction.name() + " is read both by rows and whole");
    }
    if (d != kWhole && !RowsAt(instruction.shape(), d, split_.rows)) {
      return Status::Error(instruction.name() + " does not hold the rows outermost");
    }
    if (d != kWhole && ir::PrimitiveTypeBitWidth(instruction.shape().element_type()) % 8 != 0) {
      return Status::Error(instruction.name() + " packs elements into bytes");
    }
    return Status::Ok();
  }

  Status RequireWholeOperands(const Instruction& instruction) {
    for (const Instruction* operand : instruction.operands()) {
      FS_RETURN_IF_ERROR(Require(*operand, kWhole));
    }
    return Status::Ok();
  }

  Status Propagate(const Instruction& instruction, int64_t d) {
    if (d == kWhole) return RequireWholeOperands(instruction);
    if (&instruction == leaf_) return Status::Ok();  // an input of the epilogue
    const Opcode opcode = instruction.opcode();
    const std::string refused =
        instruction.name() + " (" + std::string(instruction.opcode_name()) + ")";
    if (opcode == Opcode::kParameter) return Status::Ok();
    if (opcode == Opcode::kIota) {
      const std::optional<int64_t> along = instruction.IntAttribute("iota_dimension");
      if (!along || *along == d) return Status::Error(refused + " counts along the rows");
      return Status::Ok();
    }
    if (IsElementwiseOpcode(opcode) || opcode == Opcode::kConvert) {
      for (const Instruction* operand : instruction.operands()) {
        // A scalar operand (clamp's bounds, select's predicate) is read whole.
        FS_RETURN_IF_ERROR(Require(*operand, operand->shape().rank() == 0 ? kWhole : d));
      }
      return Status::Ok();
    }
    if (opcode == Opcode::kBroadcast) {
      const std::optional<std::vector<int64_t>> dims = instruction.dimensions();
      if (!dims || instruction.operand_count() != 1) return Status::Error(refused);
      auto at = std::find(dims->begin(), dims->end(), d);
      // A dimension the broadcast adds: every block reads all of the operand.
      if (at == dims->end()) return Require(*instruction.operand(0), kWhole);
      return Require(*instruction.operand(0), at - dims->begin());
    }
    if (opcode == Opcode::kReduce) {
      const std::optional<std::vector<int64_t>> reduced = instruction.dimensions();
      if (!reduced || instruction.operand_count() != 2 || !instruction.shape().IsArray())
        return Status::Error(refused);
      // The output's dimension d is the input's d-th kept one.
      const Instruction& input = *instruction.operand(0);
      int64_t kept = -1;
      int64_t input_d = -1;
      for (int64_t k = 0; k < input.shape().rank(); ++k) {
        if (std::find(reduced->begin(), reduced->end(), k) != reduced->end()) continue;
        if (++kept == d) {
          input_d = k;
          break;
        }
      }
      if (input_d < 0) return Status::Error(refused);
      FS_RETURN_IF_ERROR(Require(input, input_d));
      return Require(*instruction.operand(1), kWhole);
    }
    if (opcode == Opcode::kTranspose) {
      const std::optional<std::vector<int64_t>> permutation = instruction.dimensions();
      if (!permutation || d >= static_cast<int64_t>(permutation->size()))
        return Status::Error(refused);
      return Require(*instruction.operand(0), (*permutation)[static_cast<size_t>(d)]);
    }
    if (opcode == Opcode::kReshape || opcode == Opcode::kBitcast) {
      const Instruction& operand = *instruction.operand(0);
      std::optional<int64_t> operand_d = OuterDimension(operand.shape());
      // Rows stay rows when what follows them holds as many elements on both sides.
      if (!operand_d || operand.shape().dimension(*operand_d) != split_.rows ||
          ElementsAfter(operand.shape(), *operand_d) != ElementsAfter(instruction.shape(), d))
        return Status::Error(refused + " mixes the rows with other dimensions");
      return Require(operand, *operand_d);
    }
    return Status::Error(refused + " is not cut into rows here");
  }

  const ir::Computation& fused_;
  const Instruction* leaf_;
  RowSplit split_;
  std::unordered_map<const Instruction*, int64_t> role_;
};

}  // namespace

StatusOr<RowSplit> FindRowSplit(const ir::Computation& fused, const ir::Instruction* leaf) {
  return Finder(fused, leaf).Run();
}

void ShrinkToBlock(ir::Computation& fused, const RowSplit& split, int64_t block_rows) {
  for (const auto& instruction : fused.instructions()) {
    auto found = split.row_dimension.find(instruction->id());
    if (found == split.row_dimension.end()) continue;
    std::vector<int64_t> dims = instruction->shape().dimensions();
    dims[static_cast<size_t>(found->second)] = block_rows;
    instruction->mutable_shape().set_dimensions(std::move(dims));
  }
}

int64_t BlockBytes(const ir::Instruction& instruction, const RowSplit& split, int64_t block_rows) {
  auto found = split.row_dimension.find(instruction.id());
  if (found == split.row_dimension.end()) return 0;
  const ir::Shape& shape = instruction.shape();
  return block_rows * ElementsAfter(shape, found->second) *
         ir::PrimitiveTypeBitWidth(shape.element_type()) / 8;
}

int64_t BlockCount(int64_t rows, int64_t threads) {
  for (int64_t blocks = std::min(rows, threads); blocks > 1; --blocks) {
    if (rows % blocks == 0) return blocks;
  }
  return 1;
}

}  // namespace fusescope::runtime
