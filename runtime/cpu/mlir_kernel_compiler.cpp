// The MLIR side of the kernel compiler: parse, lower pass by pass (each pass run alone so its
// output and its failure are both recorded; where no stage is kept, consecutive passes run in
// one pass manager), translate to LLVM IR, print the host assembly, JIT. Only the dialects and
// passes the lowering uses are included: the InitAll* headers would make this file take a minute to
// compile.

#include <dlfcn.h>
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "llvm/Config/llvm-config.h"
#include "llvm/ExecutionEngine/JITEventListener.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/RTDyldObjectLinkingLayer.h"
#include "llvm/ExecutionEngine/SectionMemoryManager.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/BufferDeallocationOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Linalg/Transforms/SubsetInsertionOpInterfaceImpl.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/AllocationOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/Transforms/SubsetInsertionOpInterfaceImpl.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"
#include "runtime/cpu/kernel_compiler.h"
#include "runtime/cpu/kernel_disk_cache.h"

namespace fusescope::runtime {
namespace {

// The cost up to which LLVM's O3 unroller unrolls a loop whole (its own default is 300, 150 at
// O2). Our kernels' loops have constant trip counts, and at 300 a vectorized loop of four
// trips around a sine's polynomial, or a small convolution's window, came out unrolled whole:
// a GPT block's two rotary-embedding kernels took 90 ms each to optimize and generate. At 60
// its kernels took a third less time in LLVM, cnn.onnx's 45 % less, and no model of
// bench/cpu_vs_peers.py ran slower beyond the machine's noise (runtime.md, "Build time").
constexpr unsigned kFullUnrollThreshold = 60;

// LLVM's O3 unroller also unrolls the loops it does not unroll whole by a few trips (partial
// unrolling), and loops of unknown trip count with a remainder loop (runtime unrolling). Our
// innermost loops are vectorized by MLIR already; unrolling them again took 8 % of a kernel
// build (fresh profiles, median of ten: GPT block 150 -> 136 ms, U-Net block 134 -> 126 ms),
// while run times moved -5 % to +6 % across eleven models, within the machine's noise for most.
// A kernel that wants its loops unrolled gets it from the tuner (unroll=N, unrolled in MLIR).
constexpr const char* kUnrollsOff[] = {"unroll-allow-partial", "unroll-runtime"};

// LLVM's options for this process: FUSESCOPE_LLVM_OPTIONS ("-unroll-threshold-aggressive=150
// -debug-pass-manager", as XLA's --xla_backend_extra_options) first, then our unroll threshold
// and no partial or runtime unrolling, each where it did not set it.
void SetLlvmOptions() {
  if (const char* own = std::getenv("FUSESCOPE_LLVM_OPTIONS"); own != nullptr && *own != '\0') {
    const char* argv[] = {"fusescope"};
    std::string errors;
    llvm::raw_string_ostream error_stream(errors);
    // With a stream for its errors LLVM says what it did not understand and goes on.
    if (!llvm::cl::ParseCommandLineOptions(1, argv, "", &error_stream, "FUSESCOPE_LLVM_OPTIONS"))
      std::fprintf(stderr, "fusescope: warning: FUSESCOPE_LLVM_OPTIONS: %s", errors.c_str());
  }
  llvm::StringMap<llvm::cl::Option*>& options = llvm::cl::getRegisteredOptions();
  auto threshold = options.find("unroll-threshold-aggressive");
  if (threshold != options.end() && threshold->second->getNumOccurrences() == 0)
    static_cast<llvm::cl::opt<unsigned>*>(threshold->second)->setValue(kFullUnrollThreshold);
  // As if given on a command line: LLVM's unroller reads these only where they were.
  for (const char* name : kUnrollsOff) {
    auto option = options.find(name);
    if (option != options.end() && option->second->getNumOccurrences() == 0)
      option->second->addOccurrence(0, name, "false");
  }
}

void InitializeOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    mlir::registerConversionPasses();
    mlir::registerLinalgPasses();
    mlir::bufferization::registerBufferizationPasses();
    mlir::affine::registerAffinePasses();
    mlir::memref::registerMemRefPasses();
    mlir::registerTransformsPasses();
    SetLlvmOptions();
  });
}

void RegisterDialects(mlir::DialectRegistry& registry) {
  registry
      .insert<mlir::affine::AffineDialect, mlir::arith::ArithDialect,
              mlir::bufferization::BufferizationDialect, mlir::cf::ControlFlowDialect,
              mlir::func::FuncDialect, mlir::index::IndexDialect, mlir::LLVM::LLVMDialect,
              mlir::linalg::LinalgDialect, mlir::math::MathDialect, mlir::memref::MemRefDialect,
              mlir::scf::SCFDialect, mlir::tensor::TensorDialect, mlir::vector::VectorDialect>();
  mlir::arith::registerBufferizableOpInterfaceExternalModels(registry);
  mlir::arith::registerBufferDeallocationOpInterfaceExternalModels(registry);
  mlir::linalg::registerBufferizableOpInterfaceExternalModels(registry);
  mlir::linalg::registerSubsetOpInterfaceExternalModels(registry);
  mlir::tensor::registerBufferizableOpInterfaceExternalModels(registry);
  mlir::tensor::registerSubsetOpInterfaceExternalModels(registry);
  mlir::memref::registerAllocationOpInterfaceExternalModels(registry);
  mlir::registerBuiltinDialectTranslation(registry);
  mlir::registerLLVMDialectTranslation(registry);
}

std::string Print(mlir::Operation* op) {
  std::string text;
  llvm::raw_string_ostream stream(text);
  op->print(stream);
  return text;
}

// The largest value `index` takes: a constant, or an affine.for induction variable with
// constant bounds; nothing when it may be negative or is not known.
std::optional<int64_t> LargestIndex(mlir::Value index) {
  if (std::optional<int64_t> constant = mlir::getConstantIntValue(index))
    return *constant >= 0 ? constant : std::nullopt;
  mlir::affine::AffineForOp loop = mlir::affine::getForInductionVarOwner(index);
  if (!loop || !loop.hasConstantBounds()) return std::nullopt;
  const int64_t lower = loop.getConstantLowerBound();
  const int64_t upper = loop.getConstantUpperBound();
  const int64_t step = loop.getStepAsInt();
  if (lower < 0 || upper <= lower || step <= 0) return std::nullopt;
  return lower + (upper - lower - 1) / step * step;
}

// The super-vectorizer leaves its vector transfers "possibly out of bounds", and the LLVM
// lowering turns every such transfer into a masked load or store (vmaskmov on x86, several
// times slower than a plain vector load, and far slower for stores on some cores). Where the
// memref's dimension is static and every index the transfer's loop gives it keeps the whole
// vector inside, the transfer is marked in bounds: a plain vector load or store. (Loops whose
// trip count is not a multiple of the vector width keep their masks.) Pred (i1) transfers
// keep theirs too: a plain load of a vector of i1 reads one bit per element, where our
// buffers hold a byte per pred.
void MarkTransfersInBounds(mlir::ModuleOp module) {
  module.walk([](mlir::VectorTransferOpInterface transfer) {
    auto memref = mlir::dyn_cast<mlir::MemRefType>(transfer.getSource().getType());
    if (!memref || transfer.getMask() || !memref.getElementType().isIntOrFloat() ||
        memref.getElementType().getIntOrFloatBitWidth() % 8 != 0)
      return;
    const mlir::AffineMap map = transfer.getPermutationMap();
    const mlir::VectorType vector = transfer.getVectorType();
    llvm::SmallVector<bool> in_bounds;
    bool changed = false;
    for (unsigned i = 0; i < map.getNumResults(); ++i) {
      bool inside = transfer.isDimInBounds(i);
      auto dim = mlir::dyn_cast<mlir::AffineDimExpr>(map.getResult(i));
      if (!inside && dim) {
        const unsigned d = dim.getPosition();
        const int64_t size = memref.getDimSize(d);
        const std::optional<int64_t> largest = LargestIndex(transfer.getIndices()[d]);
        inside = !mlir::ShapedType::isDynamic(size) && largest &&
                 *largest + vector.getDimSize(i) <= size;
        changed = changed || inside;
      }
      in_bounds.push_back(inside);
    }
    if (changed) {
      transfer->setAttr(transfer.getInBoundsAttrName(),
                        mlir::Builder(transfer->getContext()).getBoolArrayAttr(in_bounds));
    }
  });
}

// The memref a view (subview, reshape, cast) was taken of.
mlir::Value ViewedMemref(mlir::Value memref) {
  while (mlir::Operation* op = memref.getDefiningOp()) {
    auto view = mlir::dyn_cast<mlir::ViewLikeOpInterface>(op);
    if (!view) break;
    memref = view.getViewSource();
  }
  return memref;
}

bool SameAccess(mlir::affine::AffineLoadOp load, mlir::affine::AffineStoreOp store) {
  return load.getMemRef() == store.getMemRef() && load.getAffineMap() == store.getAffineMap() &&
         llvm::equal(load.getMapOperands(), store.getMapOperands());
}

// linalg's reductions lower to loops that load the accumulator, combine and store it back on
// every iteration: a chain through memory that neither the affine super-vectorizer (it
// vectorizes reductions carried in iter_args only) nor LLVM (it does not reorder
// floating-point sums) can vectorize. In an innermost loop whose body reads and writes one
// element at indices the loop does not change, and touches that buffer nowhere else, the
// element is loaded before the loop, carried in an iter_arg, and stored after it. The
// kernels' buffers do not alias (the emitter marks them restrict), so distinct buffers are
// distinct memory.
void CarryReductionsInIterArgs(mlir::ModuleOp module) {
  llvm::SmallVector<mlir::affine::AffineForOp> loops;
  module.walk([&](mlir::affine::AffineForOp loop) { loops.push_back(loop); });
  mlir::IRRewriter rewriter(module.getContext());
  for (mlir::affine::AffineForOp loop : loops) {
    mlir::Block* body = loop.getBody();
    llvm::SmallVector<mlir::affine::AffineLoadOp> loads;
    llvm::SmallVector<mlir::affine::AffineStoreOp> stores;
    bool plain = true;
    for (mlir::Operation& op : body->without_terminator()) {
      if (auto load = mlir::dyn_cast<mlir::affine::AffineLoadOp>(op)) {
        loads.push_back(load);
      } else if (auto store = mlir::dyn_cast<mlir::affine::AffineStoreOp>(op)) {
        stores.push_back(store);
      } else if (op.getNumRegions() > 0 || !mlir::isMemoryEffectFree(&op)) {
        plain = false;
      }
    }
    if (!plain || stores.empty()) continue;
    llvm::SmallVector<std::pair<mlir::affine::AffineLoadOp, mlir::affine::AffineStoreOp>> carried;
    for (mlir::affine::AffineStoreOp store : stores) {
      const mlir::Value buffer = ViewedMemref(store.getMemRef());
      if (!llvm::all_of(store.getMapOperands(),
                        [&](mlir::Value v) { return loop.isDefinedOutsideOfLoop(v); }))
        continue;
      mlir::affine::AffineLoadOp match;
      int touches = 0;
      for (mlir::affine::AffineLoadOp load : loads) {
        if (ViewedMemref(load.getMemRef()) != buffer) continue;
        ++touches;
        if (SameAccess(load, store) && load->isBeforeInBlock(store)) match = load;
      }
      for (mlir::affine::AffineStoreOp other : stores)
        if (ViewedMemref(other.getMemRef()) == buffer) ++touches;
      if (match && touches == 2) carried.emplace_back(match, store);
    }
    if (carried.empty()) continue;
    rewriter.setInsertionPoint(loop);
    llvm::SmallVector<mlir::Value> inits;
    for (auto& [load, store] : carried) {
      inits.push_back(rewriter.create<mlir::affine::AffineLoadOp>(
          load.getLoc(), load.getMemRef(), load.getAffineMap(), load.getMapOperands()));
    }
    const unsigned first = loop.getNumResults();
    mlir::FailureOr<mlir::LoopLikeOpInterface> widened = loop.replaceWithAdditionalYields(
        rewriter, inits, /*replaceInitOperandUsesInLoop=*/false,
        [&](mlir::OpBuilder&, mlir::Location, llvm::ArrayRef<mlir::BlockArgument>) {
          llvm::SmallVector<mlir::Value> yielded;
          for (auto& [load, store] : carried) yielded.push_back(store.getValueToStore());
          return yielded;
        });
    if (mlir::failed(widened)) continue;
    auto carrier = mlir::cast<mlir::affine::AffineForOp>(widened->getOperation());
    rewriter.setInsertionPointAfter(carrier);
    for (size_t i = 0; i < carried.size(); ++i) {
      auto [load, store] = carried[i];
      rewriter.replaceAllUsesWith(load.getResult(), carrier.getRegionIterArgs()[first + i]);
      rewriter.create<mlir::affine::AffineStoreOp>(store.getLoc(), carrier.getResult(first + i),
                                                   store.getMemRef(), store.getAffineMap(),
                                                   store.getMapOperands());
      rewriter.eraseOp(store);
      rewriter.eraseOp(load);
    }
  }
}

// memref.copy lowers to a call of memrefCopy (MLIR's C runner utilities), which copies a
// strided memref one element at a time, a memcpy call each: a concatenation's operand
// copied into its window of the output ran at 2 GB/s. A copy of static shape becomes a loop
// nest here: `vector` elements per step of the innermost loop where that dimension is
// contiguous on both sides and a multiple of `vector` (in-bounds vector transfers), else
// one element per step.
void CopiesToLoops(mlir::ModuleOp module, int64_t vector) {
  llvm::SmallVector<mlir::memref::CopyOp> copies;
  module.walk([&](mlir::memref::CopyOp copy) { copies.push_back(copy); });
  auto unit_inner_stride = [](mlir::MemRefType type) {
    llvm::SmallVector<int64_t> strides;
    int64_t offset = 0;
    return mlir::succeeded(mlir::getStridesAndOffset(type, strides, offset)) && !strides.empty() &&
           strides.back() == 1;
  };
  for (mlir::memref::CopyOp copy : copies) {
    auto source = mlir::dyn_cast<mlir::MemRefType>(copy.getSource().getType());
    auto target = mlir::dyn_cast<mlir::MemRefType>(copy.getTarget().getType());
    if (!source || !target || !source.hasStaticShape() || !target.hasStaticShape() ||
        source.getRank() == 0 || source.getShape() != target.getShape())
      continue;
    const llvm::ArrayRef<int64_t> shape = source.getShape();
    const mlir::Type element = source.getElementType();
    const bool vectorized = vector > 1 && shape.back() % vector == 0 && element.isIntOrFloat() &&
                            element.getIntOrFloatBitWidth() >= 8 && unit_inner_stride(source) &&
                            unit_inner_stride(target);
    llvm::SmallVector<int64_t> lower(shape.size(), 0), steps(shape.size(), 1);
    if (vectorized) steps.back() = vector;
    mlir::OpBuilder builder(copy);
    const mlir::Value from = copy.getSource(), to = copy.getTarget();
    mlir::affine::buildAffineLoopNest(
        builder, copy.getLoc(), lower, shape, steps,
        [&](mlir::OpBuilder& body, mlir::Location loc, mlir::ValueRange indices) {
          if (vectorized) {
            const auto type = mlir::VectorType::get({vector}, element);
            const mlir::Value padding =
                body.create<mlir::arith::ConstantOp>(loc, element, body.getZeroAttr(element));
            const llvm::SmallVector<bool> in_bounds = {true};
            const mlir::Value value = body.create<mlir::vector::TransferReadOp>(
                loc, type, from, indices, padding, llvm::ArrayRef<bool>(in_bounds));
            body.create<mlir::vector::TransferWriteOp>(loc, value, to, indices,
                                                       llvm::ArrayRef<bool>(in_bounds));
          } else {
            const mlir::Value value = body.create<mlir::affine::AffineLoadOp>(loc, from, indices);
            body.create<mlir::affine::AffineStoreOp>(loc, value, to, indices);
          }
        });
    copy.erase();
  }
}

// The operation holding `op` that lies in `block`, or null.
mlir::Operation* AncestorIn(mlir::Block* block, mlir::Operation* op) {
  while (op != nullptr && op->getBlock() != block) op = op->getParentOp();
  return op;
}

// Whether every use of `value`, and of views taken of it, comes before `last` in its block.
bool AllUsesBefore(mlir::Value value, mlir::Operation* last) {
  for (mlir::Operation* user : value.getUsers()) {
    if (user == last) continue;
    if (mlir::isa<mlir::ViewLikeOpInterface>(user)) {
      if (!AllUsesBefore(user->getResult(0), last)) return false;
      continue;
    }
    mlir::Operation* ancestor = AncestorIn(last->getBlock(), user);
    if (ancestor == nullptr || !ancestor->isBeforeInBlock(last)) return false;
  }
  return true;
}

// A fill of a row-major buffer of static shape becomes a fill of the same bytes seen as one
// dimension. Filled as a nest of small loops (a 2x8x8x8 max pool's initial value), the nest
// was fully unrolled by LLVM into 512 stores in the loop around it, and LLVM's loop
// vectorizer then spent 0.3 s of the kernel's 0.45 s compile on that loop; one loop of
// 1,024 is neither unrolled nor slow to vectorize.
void FlattenFills(mlir::ModuleOp module) {
  llvm::SmallVector<mlir::linalg::FillOp> fills;
  module.walk([&](mlir::linalg::FillOp fill) { fills.push_back(fill); });
  for (mlir::linalg::FillOp fill : fills) {
    if (!fill.hasPureBufferSemantics() || fill.getOutputs().size() != 1) continue;
    const mlir::Value output = fill.getOutputs()[0];
    auto type = mlir::dyn_cast<mlir::MemRefType>(output.getType());
    if (!type || !type.hasStaticShape() || type.getRank() < 2 || !type.getLayout().isIdentity())
      continue;
    mlir::ReassociationIndices all;
    for (int64_t dimension = 0; dimension < type.getRank(); ++dimension) all.push_back(dimension);
    mlir::OpBuilder builder(fill);
    auto flat = builder.create<mlir::memref::CollapseShapeOp>(
        fill.getLoc(), output, llvm::ArrayRef<mlir::ReassociationIndices>{all});
    builder.create<mlir::linalg::FillOp>(fill.getLoc(), fill.getInputs()[0], flat.getResult());
    fill.erase();
  }
}

// A buffer nothing reads or writes once the linalg ops are loops: the window operand of a
// reduce-window, which gives the window loops their bounds and is never read, was allocated
// and freed on every call. Each allocation whose only users are deallocations goes, with them.
void DropDeadAllocations(mlir::ModuleOp module) {
  llvm::SmallVector<mlir::memref::AllocOp> allocations;
  module.walk([&](mlir::memref::AllocOp allocation) { allocations.push_back(allocation); });
  for (mlir::memref::AllocOp allocation : allocations) {
    const bool only_freed = llvm::all_of(allocation->getUsers(), [](mlir::Operation* user) {
      return mlir::isa<mlir::memref::DeallocOp>(user);
    });
    if (!only_freed) continue;
    for (mlir::Operation* user : llvm::make_early_inc_range(allocation->getUsers())) user->erase();
    allocation.erase();
  }
}

// The super-vectorizer's width for `module`: `requested`, unless the loop it vectorizes in
// the kernel's main nest (the innermost loop whose operations run the most times, its
// nest's trip counts multiplied) runs fewer times, from 4 up: then the largest power of two
// within that count. A group norm's loops over 4 channels per group, vectorized 8 wide,
// became masked transfers with a branch per lane; 4 wide, a U-Net's normalization ran 1.7
// times as fast.
int64_t VectorWidthFor(mlir::ModuleOp module, int64_t requested) {
  auto trips = [](mlir::affine::AffineForOp loop) -> int64_t {
    if (!loop.hasConstantBounds() || loop.getStepAsInt() <= 0) return -1;
    return (loop.getConstantUpperBound() - loop.getConstantLowerBound() + loop.getStepAsInt() - 1) /
           loop.getStepAsInt();
  };
  mlir::affine::AffineForOp main;
  double most = 0;
  module.walk([&](mlir::affine::AffineForOp loop) {
    bool innermost = true;
    loop.getBody()->walk([&](mlir::affine::AffineForOp) { innermost = false; });
    if (!innermost) return;
    double work = 0;
    loop.getBody()->walk([&](mlir::Operation*) { ++work; });
    for (mlir::affine::AffineForOp enclosing = loop; enclosing;
         enclosing = enclosing->getParentOfType<mlir::affine::AffineForOp>())
      work *= static_cast<double>(std::max<int64_t>(trips(enclosing), 1));
    if (work > most) {
      most = work;
      main = loop;
    }
  });
  if (!main) return requested;
  const int64_t count = trips(main);
  if (count >= requested || count < 4) return requested;
  int64_t width = 4;
  while (width * 2 <= count) width *= 2;
  return width;
}

// One-Shot Bufferize cannot write a result into the output argument when a reshape stands
// between them (the emitter's reshapes, or the ones elementwise fusion moves to the end): the
// result is computed into a new buffer, reshaped, and memref.copy'd into the argument, a heap
// allocation and a second pass over the data on every call. Where the copy's target is a
// function argument nothing else uses and its source is a reshape of a buffer allocated
// here that nothing uses after the copy, both static, row-major and of one element count,
// the buffer becomes a reshaped view of the argument and the copy goes.
void WriteIntoOutputArguments(mlir::ModuleOp module) {
  llvm::SmallVector<mlir::memref::CopyOp> copies;
  module.walk([&](mlir::memref::CopyOp copy) { copies.push_back(copy); });
  for (mlir::memref::CopyOp copy : copies) {
    auto target = mlir::dyn_cast<mlir::BlockArgument>(copy.getTarget());
    if (!target || !target.hasOneUse()) continue;
    mlir::Value source = copy.getSource();
    while (mlir::Operation* view = source.getDefiningOp()) {
      if (!mlir::isa<mlir::memref::CollapseShapeOp, mlir::memref::ExpandShapeOp>(view)) break;
      source = view->getOperand(0);
    }
    auto alloc = source.getDefiningOp<mlir::memref::AllocOp>();
    auto target_type = mlir::dyn_cast<mlir::MemRefType>(target.getType());
    if (!alloc || !target_type || alloc->getBlock() != copy->getBlock()) continue;
    const mlir::MemRefType alloc_type = alloc.getType();
    if (!alloc_type.hasStaticShape() || !target_type.hasStaticShape() ||
        !alloc_type.getLayout().isIdentity() || !target_type.getLayout().isIdentity() ||
        alloc_type.getRank() == 0 || target_type.getRank() == 0 ||
        alloc_type.getElementType() != target_type.getElementType() ||
        alloc_type.getMemorySpace() != target_type.getMemorySpace() ||
        alloc_type.getNumElements() != target_type.getNumElements() ||
        !AllUsesBefore(alloc.getResult(), copy))
      continue;
    mlir::OpBuilder builder(alloc);
    auto all = [](int64_t rank) {
      mlir::ReassociationIndices dims;
      for (int64_t d = 0; d < rank; ++d) dims.push_back(d);
      return llvm::SmallVector<mlir::ReassociationIndices>{dims};
    };
    mlir::Value view = target;
    if (target_type.getRank() != 1)
      view = builder.create<mlir::memref::CollapseShapeOp>(alloc.getLoc(), view,
                                                           all(target_type.getRank()));
    if (alloc_type.getRank() != 1)
      view = builder.create<mlir::memref::ExpandShapeOp>(alloc.getLoc(), alloc_type.getShape(),
                                                         view, all(alloc_type.getRank()));
    copy.erase();
    alloc.getResult().replaceAllUsesWith(view);
    alloc.erase();
  }
}

// A compiled kernel: its wrapper _mlir_<function> (one pointer to the argument pointers),
// and the JIT its object was linked into, which owns the code (and may hold other kernels').
class PackedKernel final : public CompiledKernel {
 public:
  using Packed = void (*)(void**);
  PackedKernel(std::shared_ptr<void> code, Packed entry) : code_(std::move(code)), entry_(entry) {}
  Status Run(void* const* buffers, size_t count) const override {
    // A kernel is called many times a run (a loop body's at every step): its argument
    // pointers live on the stack unless there are many.
    constexpr size_t kOnStack = 16;
    void* pointers_on_stack[kOnStack];
    void* arguments_on_stack[kOnStack];
    std::vector<void*> pointers_on_heap, arguments_on_heap;
    void** pointers = pointers_on_stack;
    void** arguments = arguments_on_stack;
    if (count > kOnStack) {
      pointers_on_heap.resize(count);
      arguments_on_heap.resize(count);
      pointers = pointers_on_heap.data();
      arguments = arguments_on_heap.data();
    }
    for (size_t i = 0; i < count; ++i) {
      pointers[i] = buffers[i];
      arguments[i] = &pointers[i];
    }
    entry_(arguments);
    return Status::Ok();
  }

 private:
  std::shared_ptr<void> code_;
  Packed entry_;
};

// Links `object` (machine code holding one or more kernels, each with its wrapper
// _mlir_<function>) into a JIT of its own, which owns the code. Undefined symbols resolve in
// this process (libm, malloc) and MLIR's C runner utilities (memrefCopy). The JIT tells GDB
// about the code, and perf too when FUSESCOPE_JITDUMP is set.
StatusOr<std::shared_ptr<llvm::orc::LLJIT>> LinkObject(const std::string& object) {
  // LLVM's perf listener writes a jit-PID.dump for every process that loads a kernel (under
  // $JITDUMPDIR or the temporary folder's .debug/jit), left there forever: only when asked,
  // for `perf record -k 1` followed by `perf inject --jit`.
  static const bool jitdump = std::getenv("FUSESCOPE_JITDUMP") != nullptr;
  // The host's description and data layout, found once: left to itself, each JIT detected the
  // host and made two target machines (one for its data layout, one to compile IR, which ours
  // never does: it links objects), 0.8 ms a JIT.
  struct Host {
    std::optional<llvm::orc::JITTargetMachineBuilder> builder;
    std::optional<llvm::DataLayout> layout;
    std::string error;
  };
  static const Host host = [] {
    Host found;
    auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
    if (!builder) {
      found.error = llvm::toString(builder.takeError());
      return found;
    }
    auto layout = builder->getDefaultDataLayoutForTarget();
    if (!layout) {
      found.error = llvm::toString(layout.takeError());
      return found;
    }
    found.builder = std::move(*builder);
    found.layout = std::move(*layout);
    return found;
  }();
  if (!host.builder) return Status::Error(host.error);
  auto jit =
      llvm::orc::LLJITBuilder()
          .setJITTargetMachineBuilder(*host.builder)
          .setDataLayout(*host.layout)
          // Compiles no IR, so makes no target machine up front.
          .setSupportConcurrentCompilation(true)
          .setObjectLinkingLayerCreator(
              [](llvm::orc::ExecutionSession& session,
                 const llvm::Triple&) -> llvm::Expected<std::unique_ptr<llvm::orc::ObjectLayer>> {
                auto layer = std::make_unique<llvm::orc::RTDyldObjectLinkingLayer>(
                    session, [] { return std::make_unique<llvm::SectionMemoryManager>(); });
                layer->registerJITEventListener(
                    *llvm::JITEventListener::createGDBRegistrationListener());
                if (jitdump) {
                  if (llvm::JITEventListener* perf =
                          llvm::JITEventListener::createPerfJITEventListener())
                    layer->registerJITEventListener(*perf);
                }
                return layer;
              })
          .create();
  if (!jit) return Status::Error(llvm::toString(jit.takeError()));
  llvm::orc::JITDylib& library = (*jit)->getMainJITDylib();
  const char prefix = (*jit)->getDataLayout().getGlobalPrefix();
  auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(prefix);
  if (!process) return Status::Error(llvm::toString(process.takeError()));
  library.addGenerator(std::move(*process));
#ifdef FUSESCOPE_MLIR_C_RUNNER_UTILS
  auto utilities =
      llvm::orc::DynamicLibrarySearchGenerator::Load(FUSESCOPE_MLIR_C_RUNNER_UTILS, prefix);
  if (!utilities) return Status::Error(llvm::toString(utilities.takeError()));
  library.addGenerator(std::move(*utilities));
#endif
  if (llvm::Error added =
          (*jit)->addObjectFile(llvm::MemoryBuffer::getMemBufferCopy(object, "kernels.o")))
    return Status::Error(llvm::toString(std::move(added)));
  return std::shared_ptr<llvm::orc::LLJIT>(std::move(*jit));
}

// The kernel whose wrapper is `entry_symbol` in the code `jit` holds (the first lookup links
// the object).
StatusOr<std::shared_ptr<const CompiledKernel>> KernelIn(
    const std::shared_ptr<llvm::orc::LLJIT>& jit, const std::string& entry_symbol) {
  auto entry = jit->lookup(entry_symbol);
  if (!entry) return Status::Error(llvm::toString(entry.takeError()));
  return std::shared_ptr<const CompiledKernel>(
      std::make_shared<PackedKernel>(jit, entry->toPtr<PackedKernel::Packed>()));
}

StatusOr<std::shared_ptr<const CompiledKernel>> LoadKernelObject(const std::string& object,
                                                                 const std::string& function) {
  StatusOr<std::shared_ptr<llvm::orc::LLJIT>> jit = LinkObject(object);
  if (!jit.ok()) return jit.status();
  return KernelIn(*jit, "_mlir_" + function);
}

// Adds `wrapper`(void** arguments), by default _mlir_<function>: the wrapper the kernel is
// called through. Entry i of `arguments` points at argument i's value; the result, if any, is
// stored where the entry after the last argument points.
bool AddPackedWrapper(llvm::Module& module, const std::string& function,
                      const std::string& wrapper_name) {
  llvm::Function* callee = module.getFunction(function);
  if (callee == nullptr || callee->isDeclaration()) return false;
  llvm::LLVMContext& context = module.getContext();
  llvm::IRBuilder<> builder(context);
  llvm::Type* pointer = builder.getPtrTy();
  auto* wrapper =
      llvm::Function::Create(llvm::FunctionType::get(builder.getVoidTy(), {pointer}, false),
                             llvm::GlobalValue::ExternalLinkage, wrapper_name, module);
  builder.SetInsertPoint(llvm::BasicBlock::Create(context, "entry", wrapper));
  llvm::Value* arguments = wrapper->getArg(0);
  auto slot = [&](unsigned index) {
    llvm::Value* address = builder.CreateConstGEP1_64(pointer, arguments, index);
    return builder.CreateLoad(pointer, address);
  };
  llvm::SmallVector<llvm::Value*, 16> values;
  for (llvm::Argument& argument : callee->args())
    values.push_back(builder.CreateLoad(argument.getType(), slot(argument.getArgNo())));
  llvm::Value* result = builder.CreateCall(callee, values);
  if (!callee->getReturnType()->isVoidTy())
    builder.CreateStore(result, slot(static_cast<unsigned>(callee->arg_size())));
  builder.CreateRetVoid();
  return true;
}

bool AddPackedWrapper(llvm::Module& module, const std::string& function) {
  return AddPackedWrapper(module, function, "_mlir_" + function);
}

// Keeps the name of the first pass that failed in a pass manager of several.
class FirstFailedPass final : public mlir::PassInstrumentation {
 public:
  explicit FirstFailedPass(std::string* name) : name_(name) {}
  void runAfterPassFailed(mlir::Pass* pass, mlir::Operation*) override {
    if (name_->empty()) *name_ = pass->getArgument().str();
  }

 private:
  std::string* name_;
};

// What compiling a kernel sets up before its first pass, and can hand on to the next kernel:
// an MLIR context with the lowering's dialects loaded (1.7 ms to make) and the host's target
// machine (0.8 ms), a tenth of a small kernel's compile. Kernels compile on several threads
// at once; each compile takes a setup nobody else holds and gives it back. A context keeps
// every type and attribute it has seen, so one is replaced after kMaxUses kernels.
struct CompileSetup {
  std::unique_ptr<mlir::MLIRContext> context;
  std::unique_ptr<llvm::TargetMachine> machine;
  int uses = 0;
};

class CompileSetups {
 public:
  static constexpr int kMaxUses = 32;
  // About 1.5 MB each: a machine compiling on 64 threads keeps no more than this many.
  static constexpr size_t kMaxKept = 16;

  // Never destroyed: compile threads may still hand setups back while the process exits.
  static CompileSetups& Get() {
    static CompileSetups* setups = new CompileSetups;
    return *setups;
  }

  StatusOr<std::unique_ptr<CompileSetup>> Take() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!free_.empty()) {
        std::unique_ptr<CompileSetup> setup = std::move(free_.back());
        free_.pop_back();
        return setup;
      }
    }
    auto setup = std::make_unique<CompileSetup>();
    mlir::DialectRegistry registry;
    RegisterDialects(registry);
    setup->context =
        std::make_unique<mlir::MLIRContext>(registry, mlir::MLIRContext::Threading::DISABLED);
    setup->context->loadAllAvailableDialects();
    auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
    if (!builder) return Status::Error(llvm::toString(builder.takeError()));
    builder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
    auto machine = builder->createTargetMachine();
    if (!machine) return Status::Error(llvm::toString(machine.takeError()));
    setup->machine = std::move(*machine);
    return setup;
  }

  void Give(std::unique_ptr<CompileSetup> setup) {
    if (++setup->uses >= kMaxUses) return;
    std::lock_guard<std::mutex> lock(mutex_);
    if (free_.size() < kMaxKept) free_.push_back(std::move(setup));
  }

 private:
  std::mutex mutex_;
  std::vector<std::unique_ptr<CompileSetup>> free_;
};

// What a kernel's machine code depends on besides its compile key: LLVM, the host CPU and
// its features, and this build of the compiler (the file holding this code, by size and time).
const std::string& MachineCodeContext() {
  static const std::string context = [] {
    std::string text = "llvm " LLVM_VERSION_STRING "\ncpu " + llvm::sys::getHostCPUName().str();
    std::vector<std::string> features;
    for (const auto& feature : llvm::sys::getHostCPUFeatures())
      if (feature.second) features.push_back(feature.first().str());
    std::sort(features.begin(), features.end());
    text += "\nfeatures";
    for (const std::string& feature : features) text += " +" + feature;
    if (const char* options = std::getenv("FUSESCOPE_LLVM_OPTIONS"))
      text += "\nllvm options " + std::string(options);
    text += "\nfull unroll threshold " + std::to_string(FullUnrollThreshold());
    text += std::string("\npartial unrolling ") + (LlvmUnrollsPartially() ? "on" : "off");
    Dl_info info{};
    struct stat status {};
    if (dladdr(reinterpret_cast<void*>(&MachineCodeContext), &info) != 0 &&
        info.dli_fname != nullptr && stat(info.dli_fname, &status) == 0) {
      text += "\nbuild " + std::string(info.dli_fname) + " " + std::to_string(status.st_size) +
              " " + std::to_string(status.st_mtim.tv_sec) + "." +
              std::to_string(status.st_mtim.tv_nsec);
    } else {
      text += "\nbuild unknown " + std::to_string(reinterpret_cast<uintptr_t>(&text));
    }
    return text;
  }();
  return context;
}

// The cache key of a kernel's machine code (KernelDiskCache).
std::string CacheKey(const std::string& mlir_text, const std::string& function,
                     const LoweringOptions& options) {
  return options.ToString() + "\n" + function + "\n" + mlir_text + "\n" + MachineCodeContext();
}

double SecondsSince(std::chrono::steady_clock::time_point started) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
}

// Sets the record of a compile that failed at `stage`; returns false.
bool Fail(recording::KernelRecord& record, const std::string& stage, const std::string& error) {
  record.failed_stage = stage;
  record.error = error.empty() ? stage + " failed" : error;
  return false;
}

// Parses `mlir_text` in `context` and lowers it pass by pass to the LLVM dialect, keeping each
// stage's text in `record` with `keep_stages`. `diagnostics` is where the caller's handler on
// `context` collects what MLIR says. On failure the record says where and why, and the module
// is null.
//
// The module is verified after every pass and rewrite where stages are kept or `verify_each`
// asks. Otherwise only after the super-vectorizer (whose invalid IR on some loop nests is a
// failure of its own stage, retried without it) and once at the end: verifying after each of
// 30 passes was a third of a kernel's lowering. Where that last verification fails, the
// lowering runs again verifying each step, so the failure still names the pass or rewrite.
mlir::OwningOpRef<mlir::ModuleOp> LowerToLlvmDialect(
    mlir::MLIRContext& context, const std::string& mlir_text, const std::string& function,
    const LoweringOptions& options, bool keep_stages, std::string& diagnostics,
    recording::KernelRecord& record, bool verify_each = false) {
  verify_each = verify_each || keep_stages;
  auto keep = [&](const std::string& stage, auto&& text) {
    if (keep_stages) record.stages.push_back({stage, text()});
  };
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(mlir_text, mlir::ParserConfig(&context));
  if (!module) {
    Fail(record, "input", diagnostics);
    return nullptr;
  }
  // The JIT calls the kernel through a wrapper of its own (_mlir_<function>, one pointer to
  // the argument pointers). Kept out of line, the kernel is compiled once, as the recorded
  // assembly shows it; inlined, the wrapper got a second copy, unrolled differently, whose
  // code generation took 20 of the 22 s a 129x17x3 matmul tiled by 16 took to compile.
  if (auto entry = module->lookupSymbol<mlir::func::FuncOp>(function)) {
    mlir::Builder builder(&context);
    entry->setAttr("passthrough", builder.getArrayAttr({builder.getStringAttr("noinline")}));
  }

  // The rewrites of our own, by stage name.
  static const std::map<std::string, void (*)(mlir::ModuleOp, const LoweringOptions&)> kRewrites = {
      {"write-into-outputs",
       [](mlir::ModuleOp m, const LoweringOptions&) { WriteIntoOutputArguments(m); }},
      {"flatten-fills", [](mlir::ModuleOp m, const LoweringOptions&) { FlattenFills(m); }},
      {"drop-dead-allocations",
       [](mlir::ModuleOp m, const LoweringOptions&) { DropDeadAllocations(m); }},
      {"copies-to-loops",
       [](mlir::ModuleOp m, const LoweringOptions& o) { CopiesToLoops(m, o.vector); }},
      {"reduction-iter-args",
       [](mlir::ModuleOp m, const LoweringOptions&) { CarryReductionsInIterArgs(m); }},
      {"transfer-in-bounds",
       [](mlir::ModuleOp m, const LoweringOptions&) { MarkTransfersInBounds(m); }},
  };
  // Without stages to record, consecutive MLIR passes run in one pass manager (setting one up
  // and verifying after it, 30 times a kernel, was a tenth of its lowering); a failure still
  // names the pass that failed.
  std::vector<std::string> pending;
  auto run_pending = [&]() -> bool {
    if (pending.empty()) return true;
    mlir::PassManager manager(&context);
    manager.setNesting(mlir::OpPassManager::Nesting::Implicit);
    manager.enableVerifier(verify_each ||
                           std::any_of(pending.begin(), pending.end(), [](const std::string& pass) {
                             return PassStageName(pass) == "affine-super-vectorize";
                           }));
    std::string failed_pass;
    manager.addInstrumentation(std::make_unique<FirstFailedPass>(&failed_pass));
    std::string parse_errors;
    llvm::raw_string_ostream parse_stream(parse_errors);
    for (const std::string& pipeline : pending) {
      if (mlir::failed(mlir::parsePassPipeline(pipeline, manager, parse_stream)))
        return Fail(record, PassStageName(pipeline),
                    "the pass pipeline does not parse: " + parse_errors);
    }
    const std::string last_stage = PassStageName(pending.back());
    pending.clear();
    diagnostics.clear();
    if (mlir::failed(manager.run(*module)))
      return Fail(record, failed_pass.empty() ? last_stage : failed_pass, diagnostics);
    return true;
  };
  for (const std::string& pass : LoweringPasses(options)) {
    const std::string stage = PassStageName(pass);
    const auto rewrite = kRewrites.find(stage);
    if (rewrite == kRewrites.end() && stage != "math-polynomial-approximation" &&
        stage != "affine-super-vectorize") {
      pending.push_back(pass);
      if (keep_stages) {
        if (!run_pending()) return nullptr;
        keep(stage, [&] { return Print(module->getOperation()); });
      }
      continue;
    }
    if (!run_pending()) return nullptr;
    diagnostics.clear();
    if (rewrite != kRewrites.end()) {
      rewrite->second(*module, options);
      if (verify_each && mlir::failed(mlir::verify(*module))) {
        Fail(record, stage, diagnostics);
        return nullptr;
      }
    } else if (stage == "math-polynomial-approximation") {
      mlir::RewritePatternSet patterns(&context);
      mlir::populateMathPolynomialApproximationPatterns(patterns);
      if (mlir::failed(mlir::applyPatternsAndFoldGreedily(*module, std::move(patterns)))) {
        Fail(record, stage, diagnostics.empty() ? "the patterns did not converge" : diagnostics);
        return nullptr;
      }
    } else {
      // The vectorizer's width depends on the loops the passes before it left.
      pending.push_back(SuperVectorizePass(VectorWidthFor(*module, options.vector)));
      if (!run_pending()) return nullptr;
    }
    keep(stage, [&] { return Print(module->getOperation()); });
  }
  if (!run_pending()) return nullptr;
  diagnostics.clear();
  if (!verify_each && mlir::failed(mlir::verify(*module))) {
    module = nullptr;
    diagnostics.clear();
    return LowerToLlvmDialect(context, mlir_text, function, options, keep_stages, diagnostics,
                              record, /*verify_each=*/true);
  }
  return module;
}

// Whether LLVM's O3 IR pipeline may run on a kernel. LLVM IR lays a vector of i1 out in memory
// one bit per element, while the code generator and our buffers (one byte per pred) use a
// byte; after the IR passes kernels holding pred values stored wrong values
// (CpuExecutableTest.InterpreterCasesMatchTheInterpreter caught it). Those kernels get code
// generation alone, and the recorded IR and assembly say so.
bool OptimizesIr(const std::string& mlir_text) {
  return mlir_text.find("xi1>") == std::string::npos && mlir_text.find(": i1") == std::string::npos;
}

// The lowered `module` as LLVM IR in `llvm_context`, for `machine`'s target (null, with the
// record saying why, when the translation fails).
std::unique_ptr<llvm::Module> TranslateToLlvm(mlir::ModuleOp module,
                                              llvm::LLVMContext& llvm_context,
                                              const llvm::TargetMachine& machine,
                                              const std::string& diagnostics,
                                              recording::KernelRecord& record) {
  std::unique_ptr<llvm::Module> llvm_module = mlir::translateModuleToLLVMIR(module, llvm_context);
  if (!llvm_module) {
    Fail(record, "llvm-ir",
         diagnostics.empty() ? "the translation to LLVM IR failed" : diagnostics);
    return nullptr;
  }
  llvm_module->setDataLayout(machine.createDataLayout());
  llvm_module->setTargetTriple(machine.getTargetTriple().getTriple());
  return llvm_module;
}

// Runs LLVM's O3 pipeline for the host on `module`.
Status OptimizeLlvm(llvm::Module& module, llvm::TargetMachine* machine) {
  auto optimize = mlir::makeOptimizingTransformer(3, 0, machine);
  if (llvm::Error error = optimize(&module)) return Status::Error(llvm::toString(std::move(error)));
  return Status::Ok();
}

// `module` compiled to an ELF object in memory: what the kernel cache keeps and a JIT links.
// (MLIR's ExecutionEngine compiled it before; getting its object back out went through LLVM's
// ToolOutputFile, which installed LLVM's signal handlers from whichever thread compiled first.)
StatusOr<std::string> EmitObject(llvm::Module& module, llvm::TargetMachine& machine) {
  llvm::SmallVector<char, 0> buffer;
  llvm::raw_svector_ostream stream(buffer);
  llvm::legacy::PassManager codegen;
  if (machine.addPassesToEmitFile(codegen, stream, nullptr, llvm::CodeGenFileType::ObjectFile))
    return Status::Error("the target cannot emit an object file");
  codegen.run(module);
  return std::string(buffer.data(), buffer.size());
}

// A compile set-up taken from the pool for as long as this lives.
class TakenSetup {
 public:
  TakenSetup() {
    StatusOr<std::unique_ptr<CompileSetup>> taken = CompileSetups::Get().Take();
    if (taken.ok()) {
      setup_ = std::move(*taken);
    } else {
      error_ = taken.status().message();
    }
  }
  ~TakenSetup() {
    if (setup_) CompileSetups::Get().Give(std::move(setup_));
  }
  TakenSetup(const TakenSetup&) = delete;
  TakenSetup& operator=(const TakenSetup&) = delete;
  bool ok() const { return setup_ != nullptr; }
  const std::string& error() const { return error_; }
  mlir::MLIRContext& context() { return *setup_->context; }
  llvm::TargetMachine& machine() { return *setup_->machine; }

 private:
  std::unique_ptr<CompileSetup> setup_;
  std::string error_;
};

// Collects what MLIR says on `context` while this lives.
class CollectDiagnostics {
 public:
  explicit CollectDiagnostics(mlir::MLIRContext& context)
      : handler_(&context, [this](mlir::Diagnostic& diagnostic) {
          if (!text_.empty()) text_ += "\n";
          llvm::raw_string_ostream stream(text_);
          stream << diagnostic.getLocation() << ": " << diagnostic;
          return mlir::success();
        }) {}
  std::string& text() { return text_; }

 private:
  std::string text_;
  mlir::ScopedDiagnosticHandler handler_;
};

// The wrapper's name of a kernel compiled with others into one module, where kernels of one
// function name meet (the emitter names every kernel's function "kernel"): _mlir_<function>.
// followed by a hash of its cache key (FNV-1a), the same in every process of this build.
std::string LinkedEntry(const std::string& cache_key, const std::string& function) {
  uint64_t hash = 14695981039346656037ull;
  for (unsigned char c : cache_key) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
  return "_mlir_" + function + "." + hex;
}

// The kernel function behind a linked kernel's wrapper `entry`: renamed so that kernels of
// one module, every one of them called `kernel`, keep apart until the wrapper calls it.
std::string LinkedBody(const std::string& entry) { return entry + ".body"; }

// Objects linked once each for the kernels of one CompileKernelTexts found in the cache:
// the kernels of one linked module are stored under each one's key with the same object.
// Thread-safe.
class SharedObjects {
 public:
  StatusOr<std::shared_ptr<llvm::orc::LLJIT>> Link(std::string object) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = jits_.find(object);
    if (found != jits_.end()) return found->second;
    StatusOr<std::shared_ptr<llvm::orc::LLJIT>> jit = LinkObject(object);
    if (jit.ok()) jits_.emplace(std::move(object), *jit);
    return jit;
  }

 private:
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<llvm::orc::LLJIT>> jits_;
};

// A kernel found in `cache` (stages too, with keep_stages), loaded (its object linked through
// `shared` where given, else in a JIT of its own); nothing when it is not there or no longer
// links.
bool LoadCached(KernelDiskCache* cache, const std::string& key, const std::string& function,
                bool keep_stages, std::chrono::steady_clock::time_point started,
                KernelCompilation& result, SharedObjects* shared = nullptr) {
  if (cache == nullptr) return false;
  std::optional<CachedKernel> cached = cache->Find(key, keep_stages);
  if (!cached) return false;
  StatusOr<std::shared_ptr<llvm::orc::LLJIT>> jit =
      shared != nullptr ? shared->Link(std::move(cached->object)) : LinkObject(cached->object);
  if (!jit.ok()) return false;
  // Compiled with others in one module, the kernel's wrapper has a name of its own
  // (LinkedEntry); compiled alone, _mlir_<function>.
  auto loaded = KernelIn(*jit, LinkedEntry(key, function));
  if (!loaded.ok()) loaded = KernelIn(*jit, "_mlir_" + function);
  // An object that no longer links is compiled again, and replaced.
  if (!loaded.ok()) return false;
  result.kernel = *loaded;
  recording::KernelRecord& record = result.record;
  if (keep_stages) record.stages = std::move(cached->stages);
  char compiled_in[32];
  std::snprintf(compiled_in, sizeof compiled_in, "%.3f", cached->compile_seconds);
  record.note =
      "loaded from the kernel cache (compiled there in " + std::string(compiled_in) + " s)";
  record.compile_seconds = SecondsSince(started);
  return true;
}

KernelCompilation NewCompilation(const LoweringOptions& options) {
  KernelCompilation result;
  result.record.backend = "mlir-cpu";
  result.record.options = options.ToString();
  return result;
}

// Makes everything `module` defines besides the wrapper `entry` internal (the kernel's
// function, constants, helpers), so that two kernels' symbols of one name do not clash once
// linked together: the linker renames internal ones.
void Internalize(llvm::Module& module, const std::string& entry) {
  for (llvm::GlobalValue& value : module.global_values()) {
    if (value.isDeclaration() || value.hasLocalLinkage() || value.hasAppendingLinkage()) continue;
    if (value.getName() == entry) continue;
    value.setLinkage(llvm::GlobalValue::InternalLinkage);
  }
}

// Kernels lowered on one thread, linked into one LLVM module: one O3 pipeline, one code
// generation and one JIT serve them all, where each kernel alone paid for its own (for a small
// kernel: 1.0 ms of O3's, 1.9 of code generation's, 0.8 of the JIT's, of about 7 ms).
struct LinkedKernels {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module;
  std::vector<size_t> members;          // indices into the caller's jobs
  std::vector<double> member_seconds;   // each one's lowering and translation
  std::vector<std::string> cache_keys;  // each one's
  std::vector<std::string> entries;     // each one's wrapper (LinkedEntry)
  double lowering_seconds = 0;  // the members' in all, shared out by the module's compile time
  // LLVM instructions before O3, what the module's compile scales with: O3 took 20 us an
  // instruction across the U-Net block's modules (17.5 ms for 879, 63.5 ms for 3,233), while
  // their lowering times stood for 0.4 to 1.1 times their compile times.
  size_t instructions = 0;
  bool broken = false;                  // a link failed: the members compile alone
};

KernelCompilation Finished(KernelCompilation&& result,
                           std::chrono::steady_clock::time_point started) {
  result.record.compile_seconds = SecondsSince(started);
  return std::move(result);
}

}  // namespace

bool KernelCompilerAvailable() { return true; }

unsigned FullUnrollThreshold() {
  InitializeOnce();
  llvm::StringMap<llvm::cl::Option*>& options = llvm::cl::getRegisteredOptions();
  auto threshold = options.find("unroll-threshold-aggressive");
  if (threshold == options.end()) return 0;
  return static_cast<llvm::cl::opt<unsigned>*>(threshold->second)->getValue();
}

bool LlvmUnrollsPartially() {
  InitializeOnce();
  llvm::StringMap<llvm::cl::Option*>& options = llvm::cl::getRegisteredOptions();
  for (const char* name : kUnrollsOff) {
    auto option = options.find(name);
    if (option == options.end() || static_cast<llvm::cl::opt<bool>*>(option->second)->getValue())
      return true;
  }
  return false;
}

KernelCompilation CompileKernelText(const std::string& mlir_text, const std::string& function,
                                    const LoweringOptions& options, bool keep_stages) {
  return CompileKernelText(mlir_text, function, options, keep_stages, KernelDiskCache::Default());
}

KernelCompilation CompileKernelText(const std::string& mlir_text, const std::string& function,
                                    const LoweringOptions& options, bool keep_stages,
                                    KernelDiskCache* cache) {
  InitializeOnce();
  const auto started = std::chrono::steady_clock::now();
  KernelCompilation result = NewCompilation(options);
  recording::KernelRecord& record = result.record;
  const std::string cache_key =
      cache == nullptr ? std::string() : CacheKey(mlir_text, function, options);
  if (LoadCached(cache, cache_key, function, keep_stages, started, result)) return result;
  if (keep_stages) record.stages.push_back({"input", mlir_text});
  // Given back when this compile ends, after the module and the diagnostic handler below.
  TakenSetup setup;
  if (!setup.ok()) {
    Fail(record, "input", setup.error());
    return Finished(std::move(result), started);
  }
  CollectDiagnostics diagnostics(setup.context());
  mlir::OwningOpRef<mlir::ModuleOp> module = LowerToLlvmDialect(
      setup.context(), mlir_text, function, options, keep_stages, diagnostics.text(), record);
  if (!module) return Finished(std::move(result), started);

  llvm::TargetMachine& machine = setup.machine();
  llvm::LLVMContext llvm_context;
  std::unique_ptr<llvm::Module> llvm_module =
      TranslateToLlvm(*module, llvm_context, machine, diagnostics.text(), record);
  if (!llvm_module) return Finished(std::move(result), started);
  const bool optimize_ir = OptimizesIr(mlir_text);
  if (optimize_ir) {
    if (Status optimized = OptimizeLlvm(*llvm_module, &machine); !optimized.ok()) {
      Fail(record, "llvm-ir", optimized.message());
      return Finished(std::move(result), started);
    }
  }
  if (keep_stages) {
    std::string text;
    llvm::raw_string_ostream stream(text);
    if (!optimize_ir)
      stream << "; LLVM's IR passes were not run: the kernel holds pred (i1) values\n";
    llvm_module->print(stream, nullptr);
    record.stages.push_back({"llvm-ir", std::move(text)});
    llvm::SmallString<0> assembly;
    llvm::raw_svector_ostream assembly_stream(assembly);
    llvm::legacy::PassManager codegen;
    std::unique_ptr<llvm::Module> copy = llvm::CloneModule(*llvm_module);
    if (machine.addPassesToEmitFile(codegen, assembly_stream, nullptr,
                                    llvm::CodeGenFileType::AssemblyFile)) {
      Fail(record, "asm", "the target cannot emit assembly");
      return Finished(std::move(result), started);
    }
    codegen.run(*copy);
    record.stages.push_back({"asm", std::string(assembly.str())});
  }

  // The object, with the wrapper the kernel is called through, is what the kernel cache keeps
  // and what a JIT of the kernel's own links.
  if (!AddPackedWrapper(*llvm_module, function)) {
    Fail(record, "jit", "the kernel defines no function " + function);
    return Finished(std::move(result), started);
  }
  StatusOr<std::string> object = EmitObject(*llvm_module, machine);
  // Linking and looking the entry up happen now, so that compile time holds them and the
  // first run does not.
  StatusOr<std::shared_ptr<const CompiledKernel>> loaded =
      object.ok() ? LoadKernelObject(*object, function)
                  : StatusOr<std::shared_ptr<const CompiledKernel>>(object.status());
  if (!loaded.ok()) {
    Fail(record, "jit", loaded.message());
    return Finished(std::move(result), started);
  }
  result.kernel = *loaded;
  record.compile_seconds = SecondsSince(started);
  if (cache != nullptr)
    cache->Store(cache_key, {std::move(*object), record.stages, record.compile_seconds});
  return result;
}

std::vector<KernelCompilation> CompileKernelTexts(const std::vector<KernelJob>& jobs,
                                                  bool keep_stages, int threads) {
  return CompileKernelTexts(jobs, keep_stages, threads, KernelDiskCache::Default());
}

std::vector<KernelCompilation> CompileKernelTexts(const std::vector<KernelJob>& jobs,
                                                  bool keep_stages, int threads,
                                                  KernelDiskCache* cache) {
  InitializeOnce();
  std::vector<KernelCompilation> results(jobs.size());
  if (jobs.empty()) return results;
  // The longest texts first, so that the threads finish together rather than one of them
  // starting a large kernel when the others are done (longest processing time first; a text's
  // length stands for its compile time).
  std::vector<size_t> order(jobs.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return jobs[a].text->size() > jobs[b].text->size(); });
  auto alone = [&](size_t index) {
    const KernelJob& job = jobs[index];
    results[index] = CompileKernelText(*job.text, *job.function, job.options, keep_stages, cache);
  };
  SharedObjects objects;

  // A linked module's compile: O3, code generation, a JIT, then each member's entry.
  auto compile_module = [&](LinkedKernels& linked) {
    if (linked.broken) {
      for (size_t index : linked.members) alone(index);
      return;
    }
    const auto started = std::chrono::steady_clock::now();
    StatusOr<std::string> object = Status::Error("no compile set-up");
    StatusOr<std::shared_ptr<llvm::orc::LLJIT>> jit = Status::Error("no object");
    {
      TakenSetup setup;
      if (setup.ok()) {
        Status optimized = OptimizeLlvm(*linked.module, &setup.machine());
        for (size_t m = 0; optimized.ok() && m < linked.entries.size(); ++m) {
          if (!AddPackedWrapper(*linked.module, LinkedBody(linked.entries[m]), linked.entries[m]))
            optimized = Status::Error("O3 dropped the body of " + linked.entries[m]);
        }
        object = optimized.ok() ? EmitObject(*linked.module, setup.machine())
                                : StatusOr<std::string>(optimized);
      }
    }
    if (object.ok()) jit = LinkObject(*object);
    if (!jit.ok()) {
      // Each kernel alone, to say which of them fails and why.
      for (size_t index : linked.members) alone(index);
      return;
    }
    // The module's compile is shared out in proportion to each kernel's lowering time.
    const double shared = SecondsSince(started);
    std::vector<CachedKernel> stored;  // one transaction for the module's kernels
    stored.reserve(linked.members.size());
    std::vector<std::pair<std::string, const CachedKernel*>> keyed;
    for (size_t m = 0; m < linked.members.size(); ++m) {
      KernelCompilation& result = results[linked.members[m]];
      const double own = linked.member_seconds[m];
      result.record.compile_seconds =
          own + (linked.lowering_seconds > 0 ? shared * own / linked.lowering_seconds : 0);
      auto loaded = KernelIn(*jit, linked.entries[m]);
      if (!loaded.ok()) {
        Fail(result.record, "jit", loaded.message());
        continue;
      }
      result.kernel = *loaded;
      if (linked.members.size() > 1)
        result.record.note = "compiled in one LLVM module with " +
                             std::to_string(linked.members.size() - 1) +
                             " other kernels (its time: its lowering and a share of the module's)";
      if (cache != nullptr) {
        stored.push_back({*object, {}, result.record.compile_seconds});
        keyed.emplace_back(linked.cache_keys[m], &stored.back());
      }
    }
    if (cache != nullptr) cache->Store(keyed);
  };

  // First every thread takes the longest kernel left until none is: with stages to keep it
  // compiles it alone, else it lowers it, translates it and links it into one of its two
  // modules (the one with fewer LLVM instructions so far). Then the threads compile the
  // modules, each taking the one with the most instructions left: a module's O3 and code
  // generation take about twice its lowering, so where each thread compiled its own at the
  // end, one that had lowered many small kernels while another compiled a large kernel alone
  // finished long after it.
  const size_t workers = std::min(jobs.size(), static_cast<size_t>(std::max(threads, 1)));
  std::atomic<size_t> next{0};
  std::mutex modules_mutex;
  std::condition_variable modules_ready;
  std::vector<std::unique_ptr<LinkedKernels>> modules;  // lowered, waiting to be compiled
  size_t lowering = workers;                            // threads still lowering
  auto work = [&] {
    std::unique_ptr<LinkedKernels> own[2];
    for (size_t n = next++; n < order.size(); n = next++) {
      const size_t index = order[n];
      const KernelJob& job = jobs[index];
      if (keep_stages || !OptimizesIr(*job.text)) {
        alone(index);
        continue;
      }
      const std::string key = CacheKey(*job.text, *job.function, job.options);
      const std::string entry = LinkedEntry(key, *job.function);
      // One module where this thread compiles alone: a second would only cost its fixed part.
      std::unique_ptr<LinkedKernels>* target = &own[0];
      if (workers > 1 && own[0] && (!own[1] || own[1]->instructions < own[0]->instructions))
        target = &own[1];
      if (!*target) *target = std::make_unique<LinkedKernels>();
      LinkedKernels& linked = **target;
      if (linked.broken ||
          (linked.module && linked.module->getFunction(LinkedBody(entry)) != nullptr)) {
        alone(index);
        continue;
      }
      const auto started = std::chrono::steady_clock::now();
      KernelCompilation& result = results[index];
      result = NewCompilation(job.options);
      if (LoadCached(cache, key, *job.function, false, started, result, &objects)) continue;
      auto failed = [&] { result.record.compile_seconds = SecondsSince(started); };
      std::unique_ptr<llvm::Module> translated;
      {
        TakenSetup setup;
        if (!setup.ok()) {
          Fail(result.record, "input", setup.error());
          failed();
          continue;
        }
        CollectDiagnostics diagnostics(setup.context());
        mlir::OwningOpRef<mlir::ModuleOp> module =
            LowerToLlvmDialect(setup.context(), *job.text, *job.function, job.options, false,
                               diagnostics.text(), result.record);
        if (module)
          translated = TranslateToLlvm(*module, linked.context, setup.machine(), diagnostics.text(),
                                       result.record);
      }
      if (!translated) {
        failed();
        continue;
      }
      // The wrapper is added after O3 (compile_module): through O3 it was a second function
      // per kernel, and O3's cost goes by functions more than by their size.
      llvm::Function* body = translated->getFunction(*job.function);
      if (body == nullptr || body->isDeclaration()) {
        Fail(result.record, "jit", "the kernel defines no function " + *job.function);
        failed();
        continue;
      }
      body->setName(LinkedBody(entry));
      Internalize(*translated, LinkedBody(entry));
      size_t instructions = 0;
      for (const llvm::Function& function : *translated)
        instructions += function.getInstructionCount();
      if (!linked.module) {
        linked.module = std::move(translated);
      } else if (llvm::Linker::linkModules(*linked.module, std::move(translated))) {
        // Not seen: names are internal or unique. The module may be half linked, so nothing
        // in it is trusted: every kernel in it compiles alone.
        linked.broken = true;
        alone(index);
        continue;
      }
      linked.members.push_back(index);
      linked.member_seconds.push_back(SecondsSince(started));
      linked.lowering_seconds += linked.member_seconds.back();
      linked.instructions += instructions;
      linked.cache_keys.push_back(key);
      linked.entries.push_back(entry);
    }
    std::unique_lock<std::mutex> lock(modules_mutex);
    for (std::unique_ptr<LinkedKernels>& linked : own)
      if (linked && !linked->members.empty()) modules.push_back(std::move(linked));
    --lowering;
    modules_ready.notify_all();
    for (;;) {
      modules_ready.wait(lock, [&] { return !modules.empty() || lowering == 0; });
      if (modules.empty()) return;
      auto largest = std::max_element(
          modules.begin(), modules.end(),
          [](const auto& a, const auto& b) { return a->instructions < b->instructions; });
      std::unique_ptr<LinkedKernels> linked = std::move(*largest);
      modules.erase(largest);
      lock.unlock();
      compile_module(*linked);
      linked.reset();
      lock.lock();
    }
  };
  std::vector<std::thread> pool;
  for (size_t worker = 1; worker < workers; ++worker) pool.emplace_back(work);
  work();
  for (std::thread& thread : pool) thread.join();
  return results;
}

}  // namespace fusescope::runtime
