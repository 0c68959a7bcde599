#include "runtime/cuda/ptx_compiler.h"

#include <chrono>
#include <mutex>
#include <sstream>

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

extern "C" {
void LLVMInitializeNVPTXTargetInfo();
void LLVMInitializeNVPTXTarget();
void LLVMInitializeNVPTXTargetMC();
void LLVMInitializeNVPTXAsmPrinter();
}

namespace fusescope::runtime {
namespace {

void RegisterOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    // The passes the steps name. Registering a pass twice (another lowering does too) is
    // allowed: the registry keeps one allocator per pass.
    mlir::registerTransformsPasses();
    mlir::registerConversionPasses();
    mlir::registerLinalgPasses();
    mlir::registerGPUPasses();
    mlir::registerSCFPasses();
    mlir::bufferization::registerBufferizationPasses();
  });
}

void BuildRegistry(mlir::DialectRegistry& registry) {
  registry.insert<mlir::affine::AffineDialect, mlir::arith::ArithDialect,
                  mlir::bufferization::BufferizationDialect, mlir::cf::ControlFlowDialect,
                  mlir::func::FuncDialect, mlir::gpu::GPUDialect, mlir::index::IndexDialect,
                  mlir::LLVM::LLVMDialect, mlir::NVVM::NVVMDialect, mlir::linalg::LinalgDialect,
                  mlir::math::MathDialect, mlir::memref::MemRefDialect, mlir::scf::SCFDialect,
                  mlir::tensor::TensorDialect>();
  mlir::arith::registerBufferizableOpInterfaceExternalModels(registry);
  mlir::linalg::registerBufferizableOpInterfaceExternalModels(registry);
  mlir::tensor::registerBufferizableOpInterfaceExternalModels(registry);
  mlir::scf::registerBufferizableOpInterfaceExternalModels(registry);
  mlir::bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(registry);
  mlir::NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  mlir::registerBuiltinDialectTranslation(registry);
  mlir::registerLLVMDialectTranslation(registry);
  mlir::registerNVVMDialectTranslation(registry);
  mlir::registerGPUDialectTranslation(registry);
}

std::string Print(mlir::Operation* op) {
  std::string text;
  llvm::raw_string_ostream stream(text);
  op->print(stream);
  return text;
}

// Diagnostics of one step, as text.
class DiagnosticCollector {
 public:
  explicit DiagnosticCollector(mlir::MLIRContext& context)
      : handler_(&context, [this](mlir::Diagnostic& diagnostic) {
          if (!text_.empty()) text_ += "; ";
          text_ += diagnostic.str();
          return mlir::success();
        }) {}
  std::string Take() { return std::exchange(text_, {}); }

 private:
  std::string text_;
  mlir::ScopedDiagnosticHandler handler_;
};

// Tiles every outermost scf.parallel so its innermost dimension is `threads` wide (or its
// whole extent when smaller) and the others one: the tiles become thread blocks.
mlir::LogicalResult TileParallelLoops(mlir::ModuleOp module, int64_t threads) {
  llvm::SmallVector<mlir::scf::ParallelOp> loops;
  module.walk([&](mlir::scf::ParallelOp loop) {
    if (!loop->getParentOfType<mlir::scf::ParallelOp>()) loops.push_back(loop);
  });
  for (mlir::scf::ParallelOp loop : loops) {
    const size_t rank = loop.getNumLoops();
    llvm::SmallVector<int64_t> tiles(rank, 1);
    int64_t extent = threads;
    auto lower = loop.getLowerBound().back().getDefiningOp<mlir::arith::ConstantIndexOp>();
    auto upper = loop.getUpperBound().back().getDefiningOp<mlir::arith::ConstantIndexOp>();
    if (lower && upper) extent = std::max<int64_t>(1, upper.value() - lower.value());
    tiles.back() = std::min(threads, extent);
    mlir::scf::tileParallelLoop(loop, tiles, /*noMinMaxBounds=*/false);
  }
  return mlir::success();
}

Status CheckResultsAreAllocations(mlir::ModuleOp module, const std::string& function) {
  auto host = module.lookupSymbol<mlir::func::FuncOp>(function);
  if (!host) return Status::Error("no function @" + function);
  Status status = Status::Ok();
  host.walk([&](mlir::func::ReturnOp ret) {
    for (mlir::Value value : ret.getOperands()) {
      mlir::Operation* producer = value.getDefiningOp();
      if (producer && mlir::isa<mlir::memref::AllocOp>(producer)) continue;
      status = Status::Error(
          "the kernel returns a buffer it does not compute (" +
          (producer ? producer->getName().getStringRef().str() : std::string("an argument")) +
          "): it moves no data and needs no launch");
    }
  });
  return status;
}

struct Step {
  std::string name;      // the stage's name
  std::string pipeline;  // textual pass pipeline; empty: a step done in C++
};

std::vector<Step> Steps(const PtxOptions& options) {
  const std::string target = "nvvm-attach-target{chip=" + options.chip + " features=" +
                             options.features + " O=" + std::to_string(options.opt_level) + "}";
  return {
      {"linalg-fuse-elementwise-ops", "func.func(linalg-fuse-elementwise-ops)"},
      // Outputs written through bufferization.materialize_in_destination: their tensor.empty
      // becomes the destination, so results are computed in place, not copied on the host.
      {"eliminate-empty-tensors", "eliminate-empty-tensors"},
      {"one-shot-bufferize",
       "one-shot-bufferize{bufferize-function-boundaries "
       "function-boundary-type-conversion=identity-layout-map}"},
      {"buffer-results-to-out-params", "buffer-results-to-out-params{hoist-static-allocs=true}"},
      {"canonicalize", "canonicalize"},
      {"convert-linalg-to-parallel-loops", "func.func(convert-linalg-to-parallel-loops)"},
      {"tile-parallel-loops", ""},
      {"gpu-map-parallel-loops", "func.func(gpu-map-parallel-loops)"},
      {"convert-parallel-loops-to-gpu", "func.func(convert-parallel-loops-to-gpu)"},
      {"lower-affine", "lower-affine"},
      {"gpu-kernel-outlining", "canonicalize,gpu-kernel-outlining,canonicalize,cse"},
      {"nvvm-attach-target", target},
      {"convert-gpu-to-nvvm",
       "gpu.module(convert-scf-to-cf,convert-gpu-to-nvvm,canonicalize,cse,reconcile-unrealized-casts)"},
      {"gpu-module-to-binary", "gpu-module-to-binary{format=isa}"},
  };
}

std::optional<int64_t> ConstantIndex(mlir::Value value) {
  if (auto constant = value.getDefiningOp<mlir::arith::ConstantIndexOp>()) return constant.value();
  return std::nullopt;
}

int64_t ElementBytes(mlir::Type type) {
  if (type.isIndex()) return 8;
  return std::max<int64_t>(1, static_cast<int64_t>(type.getIntOrFloatBitWidth()) / 8);
}

// Reads the host function after outlining into launches.
Status ExtractPlan(mlir::func::FuncOp host, PtxKernel& kernel) {
  llvm::DenseMap<mlir::Value, int> buffers;
  for (auto [index, argument] : llvm::enumerate(host.getArguments())) {
    buffers[argument] = static_cast<int>(index);
  }
  for (mlir::Operation& op : host.getBody().front()) {
    if (mlir::isa<mlir::arith::ConstantOp, mlir::func::ReturnOp>(op)) continue;
    if (auto alloc = mlir::dyn_cast<mlir::memref::AllocOp>(op)) {
      mlir::MemRefType type = alloc.getType();
      if (!type.hasStaticShape()) return Status::Error("a temporary has a dynamic shape");
      buffers[alloc.getResult()] = -static_cast<int>(kernel.temporaries.size()) - 1;
      kernel.temporaries.push_back(
          {std::vector<int64_t>(type.getShape().begin(), type.getShape().end()),
           ElementBytes(type.getElementType())});
      continue;
    }
    if (mlir::isa<mlir::memref::DeallocOp>(op)) continue;  // temporaries live for the kernel
    // A reshaped view of a contiguous buffer is that buffer, read with the view's shape.
    if (mlir::isa<mlir::memref::ExpandShapeOp, mlir::memref::CollapseShapeOp>(op)) {
      auto source = buffers.find(op.getOperand(0));
      auto type = mlir::cast<mlir::MemRefType>(op.getResult(0).getType());
      if (source == buffers.end() || !type.getLayout().isIdentity()) {
        return Status::Error("the host part reshapes a buffer that is not contiguous");
      }
      buffers[op.getResult(0)] = source->second;
      continue;
    }
    if (auto copy = mlir::dyn_cast<mlir::memref::CopyOp>(op)) {
      PtxLaunch plan;
      plan.is_copy = true;
      for (mlir::Value operand : {copy.getSource(), copy.getTarget()}) {
        auto found = buffers.find(operand);
        auto type = mlir::cast<mlir::MemRefType>(operand.getType());
        if (found == buffers.end() || !type.getLayout().isIdentity() || !type.hasStaticShape()) {
          return Status::Error("the host part copies a buffer that is not a whole argument");
        }
        PtxArgument argument;
        argument.kind = PtxArgument::Kind::kBuffer;
        argument.buffer = found->second;
        argument.shape.assign(type.getShape().begin(), type.getShape().end());
        argument.element_bytes = ElementBytes(type.getElementType());
        plan.arguments.push_back(std::move(argument));
      }
      kernel.launches.push_back(std::move(plan));
      continue;
    }
    auto launch = mlir::dyn_cast<mlir::gpu::LaunchFuncOp>(op);
    if (!launch) {
      return Status::Error("the host part needs " + op.getName().getStringRef().str() +
                           ", which the launch plan cannot run");
    }
    PtxLaunch plan;
    plan.module = launch.getKernelModuleName().str();
    plan.kernel = launch.getKernelName().str();
    const mlir::gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
    const mlir::gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
    const mlir::Value dims[6] = {grid.x, grid.y, grid.z, block.x, block.y, block.z};
    for (int i = 0; i < 6; ++i) {
      std::optional<int64_t> size = ConstantIndex(dims[i]);
      if (!size) return Status::Error("a launch's grid or block size is not a constant");
      (i < 3 ? plan.grid[i] : plan.block[i - 3]) = *size;
    }
    for (mlir::Value operand : launch.getKernelOperands()) {
      PtxArgument argument;
      mlir::Type type = operand.getType();
      if (auto memref = mlir::dyn_cast<mlir::MemRefType>(type)) {
        auto found = buffers.find(operand);
        if (found == buffers.end()) return Status::Error("a launch reads a buffer of unknown origin");
        argument.kind = PtxArgument::Kind::kBuffer;
        argument.buffer = found->second;
        argument.shape.assign(memref.getShape().begin(), memref.getShape().end());
        argument.element_bytes = ElementBytes(memref.getElementType());
      } else if (auto constant = operand.getDefiningOp<mlir::arith::ConstantOp>()) {
        mlir::Attribute value = constant.getValue();
        if (auto integer = mlir::dyn_cast<mlir::IntegerAttr>(value)) {
          argument.kind = type.isIndex() ? PtxArgument::Kind::kIndex : PtxArgument::Kind::kInteger;
          argument.integer = type.isIndex() ? integer.getInt() : integer.getValue().getSExtValue();
          argument.bit_width = type.isIndex() ? 64 : static_cast<int>(type.getIntOrFloatBitWidth());
        } else if (auto real = mlir::dyn_cast<mlir::FloatAttr>(value)) {
          if (!type.isF32() && !type.isF64()) return Status::Error("a launch passes a narrow float");
          argument.kind = type.isF32() ? PtxArgument::Kind::kFloat32 : PtxArgument::Kind::kFloat64;
          argument.real = real.getValueAsDouble();
        } else {
          return Status::Error("a launch passes a constant that is neither integer nor float");
        }
      } else {
        return Status::Error("a launch passes a value computed on the host");
      }
      plan.arguments.push_back(std::move(argument));
    }
    kernel.launches.push_back(std::move(plan));
  }
  return Status::Ok();
}

}  // namespace

std::string PtxOptions::ToString() const {
  return "chip=" + chip + " features=" + features + " O=" + std::to_string(opt_level) +
         " threads=" + std::to_string(threads_per_block);
}

std::string PtxKernel::PlanText() const {
  std::ostringstream out;
  out << inputs << " input(s), " << outputs << " output(s), " << temporaries.size()
      << " temporar" << (temporaries.size() == 1 ? "y" : "ies") << "\n";
  auto shape_text = [](const std::vector<int64_t>& shape) {
    std::string text = "[";
    for (size_t i = 0; i < shape.size(); ++i) text += (i ? "," : "") + std::to_string(shape[i]);
    return text + "]";
  };
  auto buffer_text = [&](const PtxArgument& argument) {
    std::string text;
    if (argument.buffer >= 0) {
      text = (argument.buffer < inputs ? "input " : "output ") +
             std::to_string(argument.buffer < inputs ? argument.buffer : argument.buffer - inputs);
    } else {
      text = "temporary " + std::to_string(-argument.buffer - 1);
    }
    return text + " " + shape_text(argument.shape);
  };
  for (size_t i = 0; i < temporaries.size(); ++i) {
    out << "temporary " << i << ": " << shape_text(temporaries[i].shape) << " x "
        << temporaries[i].element_bytes << " B\n";
  }
  for (const PtxLaunch& launch : launches) {
    if (launch.is_copy) {
      out << "copy " << buffer_text(launch.arguments[0]) << " -> "
          << buffer_text(launch.arguments[1]) << "\n";
      continue;
    }
    out << "launch " << launch.module << "::" << launch.kernel << " grid (" << launch.grid[0]
        << "," << launch.grid[1] << "," << launch.grid[2] << ") block (" << launch.block[0]
        << "," << launch.block[1] << "," << launch.block[2] << ")\n";
    for (const PtxArgument& argument : launch.arguments) {
      switch (argument.kind) {
        case PtxArgument::Kind::kIndex: out << "  index " << argument.integer << "\n"; break;
        case PtxArgument::Kind::kInteger:
          out << "  i" << argument.bit_width << " " << argument.integer << "\n";
          break;
        case PtxArgument::Kind::kFloat32: out << "  f32 " << argument.real << "\n"; break;
        case PtxArgument::Kind::kFloat64: out << "  f64 " << argument.real << "\n"; break;
        case PtxArgument::Kind::kBuffer:
          out << "  " << buffer_text(argument) << "\n";
          break;
      }
    }
  }
  return out.str();
}

bool PtxCompilerAvailable() { return true; }

StatusOr<PtxKernel> CompileToPtx(const std::string& mlir_text, const std::string& function,
                                 const PtxOptions& options, recording::KernelRecord* partial,
                                 int inputs) {
  RegisterOnce();
  const auto started = std::chrono::steady_clock::now();
  PtxKernel kernel;
  recording::KernelRecord& record = kernel.record;
  record.kernel = function;
  record.backend = "nvptx";
  record.options = options.ToString();
  auto fail = [&](const std::string& stage, const std::string& error) -> Status {
    record.failed_stage = stage;
    record.error = error;
    record.compile_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (partial) *partial = record;
    return Status::Error("PTX lowering of " + function + " failed at " + stage + ": " + error);
  };
  if (options.threads_per_block < 1 || options.threads_per_block > 1024) {
    return fail("options", "threads per block must be between 1 and 1024");
  }

  mlir::DialectRegistry registry;
  BuildRegistry(registry);
  mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();
  DiagnosticCollector diagnostics(context);
  record.stages.push_back({"input", mlir_text});
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(mlir_text, mlir::ParserConfig(&context));
  if (!module) return fail("input", "MLIR refused the kernel: " + diagnostics.Take());
  auto host = module->lookupSymbol<mlir::func::FuncOp>(function);
  if (!host) return fail("input", "no function @" + function + " in the kernel");
  const int arguments = static_cast<int>(host.getNumArguments());
  if (host.getNumResults() == 0 && inputs >= 0 && inputs <= arguments) {
    kernel.inputs = inputs;  // destination style: outputs are the trailing arguments
    kernel.outputs = arguments - inputs;
  } else {
    kernel.inputs = arguments;
    kernel.outputs = static_cast<int>(host.getNumResults());
  }

  for (const Step& step : Steps(options)) {
    if (step.pipeline.empty()) {
      if (mlir::failed(TileParallelLoops(*module, options.threads_per_block))) {
        return fail(step.name, diagnostics.Take());
      }
    } else {
      if (step.name == "buffer-results-to-out-params") {
        // MLIR 19's pass crashes on a returned buffer that is not a fresh allocation (an
        // input passed through, or a view of one); such a kernel is refused here instead.
        if (Status owned = CheckResultsAreAllocations(*module, function); !owned.ok()) {
          return fail(step.name, owned.message());
        }
      }
      mlir::PassManager pm(&context);
      if (mlir::failed(mlir::parsePassPipeline(step.pipeline, pm))) {
        return fail(step.name, "bad pass pipeline '" + step.pipeline + "': " + diagnostics.Take());
      }
      if (mlir::failed(pm.run(*module))) return fail(step.name, diagnostics.Take());
    }
    record.stages.push_back({step.name, Print(module->getOperation())});
  }

  host = module->lookupSymbol<mlir::func::FuncOp>(function);
  if (!host) return fail("launch-plan", "the host function disappeared");
  if (Status plan = ExtractPlan(host, kernel); !plan.ok()) return fail("launch-plan", plan.message());
  std::string all_ptx;
  for (auto binary : module->getOps<mlir::gpu::BinaryOp>()) {
    for (mlir::Attribute attribute : binary.getObjects()) {
      auto object = mlir::dyn_cast<mlir::gpu::ObjectAttr>(attribute);
      if (!object) continue;
      // The object ends with the NUL the driver's loader wants; the text here does not
      // (c_str() adds it back), so the PTX can be written out and read by ptxas.
      std::string ptx = object.getObject().getValue().str();
      while (!ptx.empty() && ptx.back() == '\0') ptx.pop_back();
      kernel.ptx.emplace_back(binary.getName().str(), std::move(ptx));
      all_ptx += "// gpu.module @" + binary.getName().str() + "\n" + kernel.ptx.back().second;
    }
  }
  if (kernel.ptx.empty()) return fail("ptx", "no PTX was produced");
  record.stages.push_back({"launch-plan", kernel.PlanText()});
  record.stages.push_back({"ptx", all_ptx});
  record.compile_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return kernel;
}

}  // namespace fusescope::runtime
