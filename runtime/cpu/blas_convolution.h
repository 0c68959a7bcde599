#ifndef FUSESCOPE_RUNTIME_CPU_BLAS_CONVOLUTION_H_
#define FUSESCOPE_RUNTIME_CPU_BLAS_CONVOLUTION_H_

// convolution through im2col and a GEMM library (runtime/cpu/gemm.h; OpenBLAS unless told
// otherwise): for each feature group, the input patches
// under every output position are copied into rows of a matrix (zeros where the window
// reaches padding or between dilated input elements), the kernel into a matrix of one column
// per output feature, and one GEMM gives the output features at every position, which are
// then written into the output's dimension order (dim_labels). With oneDNN, an f32
// convolution runs as oneDNN's own convolution primitive instead, where it has fast kernels.

#include <memory>
#include <string>

#include "ir/instruction.h"
#include "ir/status.h"
#include "runtime/cpu/blas_dot.h"
#include "runtime/literal.h"

namespace fusescope::runtime {

// Whether `convolution` can run this way through `library` at `precision` (f32/f64,
// batch_group_count 1, readable dim_labels and window, an im2col matrix under the size
// limit, the library available for the GEMM's type); otherwise the reason.
Status CheckBlasConvolution(const ir::Instruction& convolution,
                            GemmLibrary library = GemmLibrary::kOpenBlas,
                            BlasPrecision precision = BlasPrecision::kWidened);

// Precondition: CheckBlasConvolution(convolution) is ok and the operands have its operand
// shapes.
// `storage` (optional) becomes the result's bytes when it has the result's size. With oneDNN,
// an f32 convolution at native precision runs as oneDNN's own convolution (`direct`, from
// PrepareDirectConvolution, else looked up) where oneDNN has fast kernels for it, else as
// im2col and dnnl_sgemm. Errors: the library's.
StatusOr<Literal> RunBlasConvolution(const ir::Instruction& convolution, const Literal& input,
                                     const Literal& kernel,
                                     BlasPrecision precision = BlasPrecision::kWidened,
                                     std::vector<uint8_t> storage = {}, const GemmConfig& gemm = {},
                                     const PreparedConvolution* direct = nullptr);

// oneDNN's convolution primitive for `convolution` (created once for the process), or why
// it does not run it that way: another library, f64 or widened precision, a transposed or
// reversed window, negative padding, only reference kernels.
StatusOr<std::shared_ptr<const PreparedConvolution>> PrepareDirectConvolution(
    const ir::Instruction& convolution, BlasPrecision precision, const GemmConfig& gemm);

// As PrepareBlasDot: for the MLIR matmul, compiles the GEMM the convolution will call, so
// that its first run does not; its stages and compile time go to `record` when given.
Status PrepareBlasConvolution(const ir::Instruction& convolution, BlasPrecision precision,
                              const GemmConfig& gemm, recording::KernelRecord* record = nullptr);

// "im2col + cblas_dgemm 2048x64x576 (2 groups)", "im2col + bli_sgemm 2048x64x576",
// "oneDNN convolution brgconv:avx512_core".
std::string BlasConvolutionDescription(const ir::Instruction& convolution, BlasPrecision precision,
                                       const GemmConfig& gemm = {});

}  // namespace fusescope::runtime

#endif  // FUSESCOPE_RUNTIME_CPU_BLAS_CONVOLUTION_H_
