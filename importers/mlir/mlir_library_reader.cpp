#include "importers/mlir/mlir_library_reader.h"

#include <cctype>
#include <memory>
#include <string>

#include <llvm/Support/raw_ostream.h>
#include <mlir/Dialect/Affine/IR/AffineOps.h>
#include <mlir/Dialect/Arith/IR/Arith.h>
#include <mlir/Dialect/Bufferization/IR/Bufferization.h>
#include <mlir/Dialect/Complex/IR/Complex.h>
#include <mlir/Dialect/ControlFlow/IR/ControlFlow.h>
#include <mlir/Dialect/Func/IR/FuncOps.h>
#include <mlir/Dialect/Index/IR/IndexDialect.h>
#include <mlir/Dialect/LLVMIR/LLVMDialect.h>
#include <mlir/Dialect/Linalg/IR/Linalg.h>
#include <mlir/Dialect/MLProgram/IR/MLProgram.h>
#include <mlir/Dialect/Math/IR/Math.h>
#include <mlir/Dialect/MemRef/IR/MemRef.h>
#include <mlir/Dialect/SCF/IR/SCF.h>
#include <mlir/Dialect/Tensor/IR/Tensor.h>
#include <mlir/Dialect/Tosa/IR/TosaOps.h>
#include <mlir/Dialect/Vector/IR/VectorOps.h>
#include <mlir/IR/AsmState.h>
#include <mlir/IR/Block.h>
#include <mlir/IR/BuiltinAttributes.h>
#include <mlir/IR/Diagnostics.h>
#include <mlir/IR/MLIRContext.h>
#include <mlir/IR/SymbolTable.h>
#include <mlir/Interfaces/FunctionInterfaces.h>
#include <mlir/Parser/Parser.h>

#include "importers/mlir/mlir_text_scan.h"

namespace fusescope::ir::mlir_import {
namespace {

// The dialects a pass log of the upstream pipelines (tosa/linalg -> bufferization -> loops
// -> LLVM) prints; anything else parses in generic form as unregistered.
void RegisterDialects(mlir::MLIRContext& context) {
  mlir::DialectRegistry registry;
  registry.insert<mlir::affine::AffineDialect, mlir::arith::ArithDialect,
                  mlir::bufferization::BufferizationDialect, mlir::complex::ComplexDialect,
                  mlir::cf::ControlFlowDialect, mlir::func::FuncDialect, mlir::index::IndexDialect,
                  mlir::LLVM::LLVMDialect, mlir::linalg::LinalgDialect,
                  mlir::ml_program::MLProgramDialect, mlir::math::MathDialect,
                  mlir::memref::MemRefDialect, mlir::scf::SCFDialect, mlir::tensor::TensorDialect,
                  mlir::tosa::TosaDialect, mlir::vector::VectorDialect>();
  context.appendDialectRegistry(registry);
  context.loadAllAvailableDialects();
}

std::string Print(mlir::Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

class TreeBuilder {
 public:
  TreeBuilder(mlir::Operation* scope_op, std::string_view file, int64_t first_line)
      : state_(scope_op, mlir::OpPrintingFlags().skipRegions()),
        file_(file),
        first_line_(first_line) {}

  MlirOperation Convert(mlir::Operation& op) {
    MlirOperation operation;
    operation.name = op.getName().getStringRef().str();
    for (mlir::OpResult result : op.getResults()) {
      std::string name = Name(result);
      operation.results.push_back(name);
      operation.result_types.push_back(Print(result.getType()));
    }
    for (mlir::Value operand : op.getOperands()) operation.operands.push_back(Name(operand));
    if (auto symbol = op.getAttrOfType<mlir::StringAttr>(mlir::SymbolTable::getSymbolAttrName())) {
      operation.symbol = symbol.getValue().str();
    }
    if (auto callee = op.getAttrOfType<mlir::FlatSymbolRefAttr>("callee")) {
      operation.callee = callee.getValue().str();
    }
    operation.text = Text(op, operation);
    Locate(op.getLoc(), operation);
    // A named linalg op (linalg.matmul, linalg.fill) prints no body: the log does not show
    // one, so neither does the tree.
    const bool hidden_body =
        mlir::isa<mlir::linalg::LinalgOp>(op) && !mlir::isa<mlir::linalg::GenericOp>(op);
    for (mlir::Region& region : op.getRegions()) {
      if (hidden_body) break;
      MlirRegion& converted = operation.regions.emplace_back();
      for (mlir::Block& block : region) {
        MlirBlock& target = converted.blocks.emplace_back();
        for (mlir::BlockArgument argument : block.getArguments()) {
          target.arguments.push_back(Name(argument));
          target.argument_types.push_back(Print(argument.getType()));
        }
        for (mlir::Operation& nested : block) {
          if (!IsElidedTerminator(nested)) target.operations.push_back(Convert(nested));
        }
      }
    }
    return operation;
  }

 private:
  // A terminator the printer leaves out (scf.if's and scf.for's empty scf.yield): one with
  // nothing to show, in a single-block region of an op that is no function.
  static bool IsElidedTerminator(mlir::Operation& op) {
    mlir::Operation* parent = op.getParentOp();
    return op.hasTrait<mlir::OpTrait::IsTerminator>() && op.getNumOperands() == 0 &&
           op.getNumResults() == 0 && op.getNumSuccessors() == 0 && op.getAttrs().empty() &&
           op.getNumRegions() == 0 && parent != nullptr && parent->isRegistered() &&
           !mlir::isa<mlir::FunctionOpInterface>(parent) &&
           op.getBlock()->getParent()->hasOneBlock();
  }

  std::string Name(mlir::Value value) {
    std::string text;
    llvm::raw_string_ostream os(text);
    value.printAsOperand(os, state_);
    return text;
  }

  // The operation as MLIR prints it without regions, results and location: the same text
  // the tolerant reader keeps of the log's line.
  std::string Text(mlir::Operation& op, const MlirOperation& operation) {
    std::string text;
    llvm::raw_string_ostream os(text);
    op.print(os, state_);
    os.flush();
    std::string_view view = text;
    if (!operation.results.empty()) {
      const size_t equals = view.find(" = ");
      if (equals != std::string_view::npos) view.remove_prefix(equals + 3);
    }
    size_t name_end = 0;
    if (!view.empty() && view.front() == '"') {
      name_end = SkipStringLiteral(view, 0);
    } else {
      while (name_end < view.size() &&
             (std::isalnum(static_cast<unsigned char>(view[name_end])) || view[name_end] == '_' ||
              view[name_end] == '.' || view[name_end] == '$')) {
        ++name_end;
      }
    }
    view = view.substr(name_end);
    std::string flat;
    for (char c : view) flat += c == '\n' ? ' ' : c;
    // Regions print as `{...}` when skipped.
    for (size_t at = flat.find("{...}"); at != std::string::npos; at = flat.find("{...}")) {
      flat.erase(at, 5);
    }
    return std::string(TrimText(flat));
  }

  // Locations the text wrote; the position of an op in the section itself is not one.
  void Locate(mlir::Location location, MlirOperation& operation) {
    if (auto file_line = mlir::dyn_cast<mlir::FileLineColLoc>(location)) {
      if (file_line.getFilename().getValue() == file_) {
        operation.line = first_line_ - 1 + file_line.getLine();
        operation.column = file_line.getColumn();
        return;
      }
    }
    if (mlir::isa<mlir::UnknownLoc>(location)) return;
    std::string text;
    llvm::raw_string_ostream os(text);
    location.print(os);
    os.flush();
    std::string_view view = text;
    if (view.substr(0, 4) == "loc(" && view.back() == ')') view = view.substr(4, view.size() - 5);
    operation.location = std::string(view);
  }

  mlir::AsmState state_;
  std::string file_;
  int64_t first_line_;
};

}  // namespace

bool MlirLibraryAvailable() { return true; }

StatusOr<MlirOperationTree> ReadMlirWithLibrary(std::string_view text, std::string_view file,
                                                int64_t first_line) {
  // MLIR's parser recurses per nesting level; a garbled or hostile text must not take the
  // stack down with it.
  constexpr int64_t kMaxDepth = 256;
  if (MaxBracketDepth(text) > kMaxDepth) {
    return Status::Error(std::string(file) + ":" + std::to_string(first_line) +
                         ":1: brackets nested deeper than " + std::to_string(kMaxDepth) +
                         " levels; not given to libMLIR");
  }
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  context.allowUnregisteredDialects();
  RegisterDialects(context);
  std::string first_error;
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic& diagnostic) {
    if (diagnostic.getSeverity() != mlir::DiagnosticSeverity::Error || !first_error.empty()) {
      return mlir::success();
    }
    std::string position = std::string(file);
    if (auto file_line = mlir::dyn_cast<mlir::FileLineColLoc>(diagnostic.getLocation())) {
      position += ":" + std::to_string(first_line - 1 + file_line.getLine()) + ":" +
                  std::to_string(file_line.getColumn());
    }
    first_error = position + ": " + diagnostic.str();
    return mlir::success();
  });
  mlir::ParserConfig config(&context);
  mlir::Block block;
  // MLIR's lexer reads up to a terminating NUL: a view into a larger text needs a copy.
  const std::string source(text);
  if (mlir::failed(mlir::parseSourceString(llvm::StringRef(source.data(), source.size()), &block,
                                           config, llvm::StringRef(file.data(), file.size())))) {
    return Status::Error(first_error.empty() ? std::string(file) + ": MLIR could not parse it"
                                             : first_error);
  }
  MlirOperationTree tree;
  if (block.empty()) return tree;
  // Names are given per isolated scope, as the printer numbers them.
  for (mlir::Operation& op : block) {
    TreeBuilder builder(&op, file, first_line);
    tree.operations.push_back(builder.Convert(op));
  }
  return tree;
}

}  // namespace fusescope::ir::mlir_import
