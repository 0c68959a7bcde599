#ifndef FUSESCOPE_RUNTIME_ROW_BLOCKS_H_
#define FUSESCOPE_RUNTIME_ROW_BLOCKS_H_

// Cutting a fused kernel into blocks of rows that run on several threads, as XLA:CPU's
// parallel task assignment cuts a loop fusion's outer loop.
//
// A fused computation splits into row blocks where its output's outer dimension (the first
// with more than one element, every one before it of one) can be cut into equal blocks and
// block i of the output depends only on block i of some inputs (the same rows of a matrix of
// activations) and on the whole of the others (a bias, a scale, a scalar). Then a kernel
// emitted for one block, run once per block with each cut argument's pointer moved on by a
// block, computes the whole output. What propagates rows, from the output back to the inputs:
// elementwise ops, broadcasts (a dimension they add is the whole of what they broadcast),
// reductions over other dimensions, reshapes and transposes that keep the row dimension
// outermost, iotas over other dimensions. Anything else on the way (a slice, a gather, a
// dot, a reduction over the rows) leaves the kernel whole.

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/module.h"
#include "ir/status.h"

namespace fusescope::runtime {

struct RowSplit {
  int64_t rows = 0;  // the extent of the cut dimension
  // The instructions of the fused computation cut into rows (by id): the dimension of each
  // that holds the rows. Instructions not listed are computed whole in every block.
  std::unordered_map<int64_t, int64_t> row_dimension;
};

// Whether `fused` (a fused computation, or a contraction fusion's epilogue with `leaf`, its
// dot or convolution, taken as an input) splits into row blocks; the error says what stops
// it.
StatusOr<RowSplit> FindRowSplit(const ir::Computation& fused,
                                const ir::Instruction* leaf = nullptr);

// Gives every instruction `split` cuts the shape of one block of `block_rows` rows. `fused` is
// a copy of the analysed computation (the same ids).
void ShrinkToBlock(ir::Computation& fused, const RowSplit& split, int64_t block_rows);

// Bytes from one block of `instruction`'s value to the next (its row dimension cut into
// blocks of `block_rows`); 0 for an instruction `split` leaves whole.
int64_t BlockBytes(const ir::Instruction& instruction, const RowSplit& split, int64_t block_rows);

// How many blocks to cut `rows` into for `threads` threads: the most, up to `threads`, that
// divide `rows` evenly; 1 when none above one does.
int64_t BlockCount(int64_t rows, int64_t threads);

}  // namespace fusescope::runtime

#endif  // FUSESCOPE_RUNTIME_ROW_BLOCKS_H_
