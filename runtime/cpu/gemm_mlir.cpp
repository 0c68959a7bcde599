// The MLIR matmul behind runtime/cpu/gemm.h: a linalg matmul on static shapes, compiled by the
// kernel compiler with the caller's lowering options and kept per shape and options.

#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <tuple>

#include "runtime/cpu/gemm_libraries.h"

namespace fusescope::runtime::gemm_libraries {
namespace {

// "12x128x64x": the dimensions of a memref or tensor type, each followed by its "x".
std::string Dims(const std::vector<int64_t>& dims) {
  std::string text;
  for (int64_t d : dims) text += std::to_string(d) + "x";
  return text;
}

std::string TypeName(GemmType type) { return type == GemmType::kF32 ? "f32" : "f64"; }

// The operands' shapes ("12x128x64xf32": batch first where there is one) as stored: A, B, B
// as a matmul reads it (k x n), and C.
struct MatmulShapes {
  std::string a, b, b_read, c;
};
MatmulShapes ShapesOf(const GemmProblem& p, GemmType type) {
  std::vector<int64_t> batch;
  if (p.batch != 1) batch.push_back(p.batch);
  auto shape = [&](int64_t rows, int64_t columns) {
    std::vector<int64_t> dims = batch;
    dims.push_back(rows);
    dims.push_back(columns);
    return Dims(dims) + TypeName(type);
  };
  return {shape(p.transpose_a ? p.k : p.m, p.transpose_a ? p.m : p.k),
          shape(p.transpose_b ? p.n : p.k, p.transpose_b ? p.k : p.n), shape(p.k, p.n),
          shape(p.m, p.n)};
}

// The cache key: the problem, the element type and the lowering options as ToString writes
// them, the form the kernel compiler's own cache keys on, which names every option.
using MatmulKey = std::tuple<int64_t, int64_t, int64_t, int64_t, bool, bool, GemmType, std::string>;

MatmulKey Key(const GemmProblem& p, GemmType type, const LoweringOptions& options) {
  return {p.batch, p.m, p.n, p.k, p.transpose_a, p.transpose_b, type, options.ToString()};
}

// A compiled matmul, or why it did not compile. CompiledKernel::Run may be called from one
// thread at a time: `running` serializes the calls.
struct CompiledMatmul {
  std::shared_ptr<const CompiledKernel> kernel;
  recording::KernelRecord record;
  std::mutex running;
};

std::mutex cache_mutex;
std::map<MatmulKey, std::shared_ptr<CompiledMatmul>>& Cache() {
  static auto* cache = new std::map<MatmulKey, std::shared_ptr<CompiledMatmul>>();
  return *cache;
}

// The cached matmul for the key, compiled on first use. Two threads asking for the same new
// matmul at once may both compile it; the first result is kept.
std::shared_ptr<CompiledMatmul> Lookup(const GemmProblem& p, GemmType type,
                                       const LoweringOptions& options) {
  const MatmulKey key = Key(p, type, options);
  {
    std::lock_guard<std::mutex> lock(cache_mutex);
    auto it = Cache().find(key);
    if (it != Cache().end()) return it->second;
  }
  auto compiled = std::make_shared<CompiledMatmul>();
  KernelCompilation compilation =
      CompileKernelText(MlirMatmulText(p, type, options), "matmul", options);
  compiled->kernel = std::move(compilation.kernel);
  compiled->record = std::move(compilation.record);
  compiled->record.backend = "mlir-cpu";
  std::lock_guard<std::mutex> lock(cache_mutex);
  return Cache().emplace(key, std::move(compiled)).first->second;
}

// The linalg op of the product: B is always read k x n (transposed first when stored n x k).
std::string LinalgMatmul(const GemmProblem& p) {
  return std::string(p.batch == 1 ? "matmul" : "batch_matmul") +
         (p.transpose_a ? "_transpose_a" : "");
}

Status Failure(const CompiledMatmul& matmul) {
  return Status::Error("the MLIR matmul failed to compile at " + matmul.record.failed_stage + ": " +
                       matmul.record.error);
}

}  // namespace

std::string MlirMatmulOpName(const GemmProblem& p) {
  return (p.transpose_b ? "transpose + " : "") + LinalgMatmul(p);
}

Status MlirPrepare(const GemmProblem& problem, GemmType type, const LoweringOptions& options,
                   recording::KernelRecord* record) {
  std::shared_ptr<CompiledMatmul> matmul = Lookup(problem, type, options);
  if (record != nullptr) *record = matmul->record;
  return matmul->kernel ? Status::Ok() : Failure(*matmul);
}

Status MlirGemm(const GemmProblem& problem, GemmType type, const LoweringOptions& options,
                const void* a, const void* b, void* c) {
  std::shared_ptr<CompiledMatmul> matmul = Lookup(problem, type, options);
  if (!matmul->kernel) return Failure(*matmul);
  std::lock_guard<std::mutex> lock(matmul->running);
  return matmul->kernel->Run({const_cast<void*>(a), const_cast<void*>(b), c});
}

}  // namespace fusescope::runtime::gemm_libraries

namespace fusescope::runtime {

namespace {

// The register-blocked matmul of MlirMatmulText. Index constants are written on lines of their
// own, so each is made before the line that uses it is begun. C's columns go in blocks of
// `vectors_` vectors (the outer loop, so that a block of B's columns is read again from cache for
// every block of rows), its rows in blocks of `rows_`; the last blocks of each are the remainders,
// unrolled as far as they reach, the last vector of a row masked.
class BlockedMatmul {
 public:
  BlockedMatmul(const GemmProblem& p, GemmType type, int lanes, int rows, int64_t k_block)
      : p_(p),
        type_(type),
        element_(gemm_libraries::TypeName(type)),
        lanes_(lanes),
        rows_(rows),
        k_block_(k_block) {}

  std::string Text() {
    const gemm_libraries::MatmulShapes shapes = gemm_libraries::ShapesOf(p_, type_);
    a_type_ = "memref<" + shapes.a + ">";
    const std::string b_stored = "memref<" + shapes.b + ">";
    b_type_ = "memref<" + shapes.b_read + ">";
    c_type_ = "memref<" + shapes.c + ">";
    vector_ = "vector<" + std::to_string(lanes_) + "x" + element_ + ">";
    mask_type_ = "vector<" + std::to_string(lanes_) + "xi1>";
    out_ << "module {\n  func.func @matmul(%a: " << a_type_ << ", %b: " << b_stored
         << ", %c: " << c_type_ << ") attributes {llvm.emit_c_interface} {\n";
    if (p_.transpose_b) {
      // B stored n x k is transposed once into k x n, so that a step reads a row of it.
      const std::string stored_tensor = "tensor" + b_stored.substr(6);
      const std::string read_tensor = "tensor" + b_type_.substr(6);
      out_ << "    %stored_rhs = bufferization.to_tensor %b restrict : " << b_stored << "\n"
           << "    %rhs_empty = tensor.empty() : " << read_tensor << "\n"
           << "    %rhs_tensor = linalg.transpose ins(%stored_rhs : " << stored_tensor
           << ") outs(%rhs_empty : " << read_tensor
           << ") permutation = " << (p_.batch != 1 ? "[0, 2, 1]" : "[1, 0]") << "\n"
           << "    %rhs = bufferization.to_memref %rhs_tensor : " << b_type_ << "\n";
      b_ = "%rhs";
    }
    out_ << "    %zero = arith.constant dense<0.000000e+00> : " << vector_ << "\n";
    if (p_.batch != 1) {
      const std::string from = Index(0), to = Index(p_.batch), step = Index(1);
      out_ << "    scf.for %x = " << from << " to " << to << " step " << step << " {\n";
      Columns("%x");
      out_ << "    }\n";
    } else {
      Columns("");
    }
    out_ << "    return\n  }\n}\n";
    return out_.str();
  }

 private:
  // An index constant, defined where it is used (canonicalization merges them).
  std::string Index(int64_t value) {
    const std::string name = Fresh("i");
    out_ << "    " << name << " = arith.constant " << value << " : index\n";
    return name;
  }
  std::string Fresh(const char* prefix) {
    return "%" + std::string(prefix) + std::to_string(next_++);
  }
  std::string Add(const std::string& base, int64_t offset) {
    if (offset == 0) return base;
    const std::string name = Fresh("o");
    const std::string constant = Index(offset);
    out_ << "    " << name << " = arith.addi " << base << ", " << constant << " : index\n";
    return name;
  }
  std::string At(const std::string& batch, const std::string& row, const std::string& column) {
    return "[" + (batch.empty() ? "" : batch + ", ") + row + ", " + column + "]";
  }

  void Columns(const std::string& batch) {
    const int64_t block = int64_t{2} * lanes_;
    const int64_t full = p_.n / block * block;
    if (full > 0) {
      const std::string j = Fresh("j");
      const std::string from = Index(0), to = Index(full), step = Index(block);
      out_ << "    scf.for " << j << " = " << from << " to " << to << " step " << step << " {\n";
      Depth(batch, j, 2, 0);
      out_ << "    }\n";
    }
    const int64_t rest = p_.n - full;
    if (rest > 0) {
      const int64_t tail = rest % lanes_;
      Depth(batch, Index(full), static_cast<int>(rest / lanes_ + (tail > 0 ? 1 : 0)), tail);
    }
  }

  // Which steps of k a block sums: [from, to), onto what C holds when `accumulate`.
  struct Steps {
    std::string from, to;
    bool accumulate = false;
  };

  // k in blocks of k_block_ steps, so that the rows of B a block of columns reads stay in
  // the first-level cache while every block of rows passes over them; the first block of k
  // starts the sums from zero, the others from C.
  void Depth(const std::string& batch, const std::string& column, int vectors, int64_t tail) {
    if (p_.k <= k_block_) {
      Rows(batch, column, vectors, tail, {Index(0), Index(p_.k), false});
      return;
    }
    Rows(batch, column, vectors, tail, {Index(0), Index(k_block_), false});
    const int64_t full = p_.k / k_block_ * k_block_;
    if (full > k_block_) {
      const std::string q = Fresh("q");
      const std::string from = Index(k_block_), to = Index(full), step = Index(k_block_);
      out_ << "    scf.for " << q << " = " << from << " to " << to << " step " << step << " {\n";
      Rows(batch, column, vectors, tail, {q, Add(q, k_block_), true});
      out_ << "    }\n";
    }
    if (p_.k > full) Rows(batch, column, vectors, tail, {Index(full), Index(p_.k), true});
  }

  void Rows(const std::string& batch, const std::string& column, int vectors, int64_t tail,
            const Steps& steps) {
    const int64_t full = p_.m / rows_ * rows_;
    if (full > 0) {
      const std::string i = Fresh("r");
      const std::string from = Index(0), to = Index(full), step = Index(rows_);
      out_ << "    scf.for " << i << " = " << from << " to " << to << " step " << step << " {\n";
      Block(batch, i, rows_, column, vectors, tail, steps);
      out_ << "    }\n";
    }
    if (p_.m > full)
      Block(batch, Index(full), static_cast<int>(p_.m - full), column, vectors, tail, steps);
  }

  // rows x vectors sums in registers over k; the last vector masked to `tail` lanes if nonzero.
  void Block(const std::string& batch, const std::string& row, int rows, const std::string& column,
             int vectors, int64_t tail, const Steps& steps) {
    std::vector<std::string> row_at, column_at;
    for (int r = 0; r < rows; ++r) row_at.push_back(Add(row, r));
    for (int v = 0; v < vectors; ++v) column_at.push_back(Add(column, int64_t{v} * lanes_));
    std::string mask;
    if (tail > 0) {
      mask = Fresh("mask");
      out_ << "    " << mask << " = vector.constant_mask [" << tail << "] : " << mask_type_ << "\n";
    }
    const int sums = rows * vectors;
    const std::string result = Fresh("sum");
    const std::string p = Fresh("p");
    std::vector<std::string> carried;
    std::string inits, types;
    for (int s = 0; s < sums; ++s) {
      std::string start = "%zero";
      if (steps.accumulate) {
        const int r = s / vectors, v = s % vectors;
        start = Fresh("partial");
        if (tail > 0 && v == vectors - 1) {
          out_ << "    " << start << " = vector.maskedload %c" << At(batch, row_at[r], column_at[v])
               << ", " << mask << ", %zero : " << c_type_ << ", " << mask_type_ << ", " << vector_
               << " into " << vector_ << "\n";
        } else {
          out_ << "    " << start << " = vector.load %c" << At(batch, row_at[r], column_at[v])
               << " : " << c_type_ << ", " << vector_ << "\n";
        }
      }
      carried.push_back(Fresh("acc"));
      inits += (s ? ", " : "") + carried.back() + " = " + start;
      types += (s ? ", " : "") + vector_;
    }
    const std::string step = Index(1);
    out_ << "    " << result << ":" << sums << " = scf.for " << p << " = " << steps.from << " to "
         << steps.to << " step " << step << " iter_args(" << inits << ") -> (" << types << ") {\n";
    const std::string b = b_.empty() ? "%b" : b_;
    std::vector<std::string> b_row;
    for (int v = 0; v < vectors; ++v) {
      b_row.push_back(Fresh("b"));
      if (tail > 0 && v == vectors - 1) {
        out_ << "      " << b_row.back() << " = vector.maskedload " << b
             << At(batch, p, column_at[v]) << ", " << mask << ", %zero : " << b_type_ << ", "
             << mask_type_ << ", " << vector_ << " into " << vector_ << "\n";
      } else {
        out_ << "      " << b_row.back() << " = vector.load " << b << At(batch, p, column_at[v])
             << " : " << b_type_ << ", " << vector_ << "\n";
      }
    }
    std::vector<std::string> next;
    for (int r = 0; r < rows; ++r) {
      const std::string a = Fresh("a"), broadcast = Fresh("ab");
      out_ << "      " << a << " = memref.load %a"
           << (p_.transpose_a ? At(batch, p, row_at[r]) : At(batch, row_at[r], p)) << " : "
           << a_type_ << "\n";
      out_ << "      " << broadcast << " = vector.broadcast " << a << " : " << element_ << " to "
           << vector_ << "\n";
      for (int v = 0; v < vectors; ++v) {
        next.push_back(Fresh("fma"));
        out_ << "      " << next.back() << " = vector.fma " << broadcast << ", " << b_row[v] << ", "
             << carried[static_cast<size_t>(r * vectors + v)] << " : " << vector_ << "\n";
      }
    }
    out_ << "      scf.yield ";
    for (int s = 0; s < sums; ++s) out_ << (s ? ", " : "") << next[static_cast<size_t>(s)];
    out_ << " : " << types << "\n    }\n";
    for (int r = 0; r < rows; ++r) {
      for (int v = 0; v < vectors; ++v) {
        const std::string sum = result + "#" + std::to_string(r * vectors + v);
        if (tail > 0 && v == vectors - 1) {
          out_ << "    vector.maskedstore %c" << At(batch, row_at[r], column_at[v]) << ", " << mask
               << ", " << sum << " : " << c_type_ << ", " << mask_type_ << ", " << vector_ << "\n";
        } else {
          out_ << "    vector.store " << sum << ", %c" << At(batch, row_at[r], column_at[v])
               << " : " << c_type_ << ", " << vector_ << "\n";
        }
      }
    }
  }

  GemmProblem p_;
  GemmType type_;
  std::string element_;
  int lanes_;
  int rows_;
  int64_t k_block_;
  std::string a_type_, b_type_, c_type_, vector_, mask_type_, b_;
  std::ostringstream out_;
  int next_ = 0;
};

}  // namespace

std::string MlirMatmulText(const GemmProblem& p, GemmType type, const LoweringOptions& options) {
  if (options.vector > 0 && p.m > 0 && p.n > 0 && p.k > 0) {
    const int lanes = options.vector;
    const int rows = options.unroll > 1 ? options.unroll : (lanes >= 16 ? 8 : 4);
    const int64_t k_block =
        options.tile >= 16 ? options.tile : (type == GemmType::kF32 ? 256 : 128);
    return BlockedMatmul(p, type, lanes, rows, k_block).Text();
  }
  const std::string element = gemm_libraries::TypeName(type);
  const gemm_libraries::MatmulShapes shapes = gemm_libraries::ShapesOf(p, type);
  const std::string& a = shapes.a;
  const std::string& b = shapes.b;
  const std::string& b_read = shapes.b_read;
  const std::string& c = shapes.c;
  std::ostringstream text;
  text << "module {\n  func.func @matmul(%a: memref<" << a << ">, %b: memref<" << b
       << ">, %c: memref<" << c << ">) attributes {llvm.emit_c_interface} {\n"
       << "    %lhs = bufferization.to_tensor %a restrict : memref<" << a << ">\n"
       << "    %" << (p.transpose_b ? "stored_rhs" : "rhs")
       << " = bufferization.to_tensor %b restrict : memref<" << b << ">\n";
  if (p.transpose_b) {
    // The matmul's vectorized loop runs along n, where a B stored n x k is strided (2 GFLOP/s
    // with batch_matmul_transpose_b on 12x128x128x64 where the same matmul on a k x n B runs at
    // 15): B is transposed once into k x n, n*k copies against m*n*k multiply-adds.
    text << "    %rhs_empty = tensor.empty() : tensor<" << b_read << ">\n"
         << "    %rhs = linalg.transpose ins(%stored_rhs : tensor<" << b
         << ">) outs(%rhs_empty : tensor<" << b_read
         << ">) permutation = " << (p.batch != 1 ? "[0, 2, 1]" : "[1, 0]") << "\n";
  }
  text << "    %zero = arith.constant 0.000000e+00 : " << element << "\n"
       << "    %empty = tensor.empty() : tensor<" << c << ">\n"
       << "    %init = linalg.fill ins(%zero : " << element << ") outs(%empty : tensor<" << c
       << ">) -> tensor<" << c << ">\n";
  text << "    %product = linalg." << gemm_libraries::LinalgMatmul(p) << " ins(%lhs, %rhs : tensor<"
       << a << ">, tensor<" << b_read << ">) outs(%init : tensor<" << c << ">) -> tensor<" << c
       << ">\n"
       << "    bufferization.materialize_in_destination %product in restrict writable %c : (tensor<"
       << c << ">, memref<" << c << ">) -> ()\n"
       << "    return\n  }\n}\n";
  return text.str();
}

}  // namespace fusescope::runtime
