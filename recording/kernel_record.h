#ifndef FUSESCOPE_RECORDING_KERNEL_RECORD_H_
#define FUSESCOPE_RECORDING_KERNEL_RECORD_H_

// The kernel level of a recording: how one kernel of a compiled snapshot was lowered. A
// backend (runtime/) fills these; the recording stores them beside the snapshots; the Kernel
// view and `fusescope kernel` show them. Plain data, no dependencies.

#include <cstdint>
#include <string>
#include <vector>

namespace fusescope::recording {

// One stage of a kernel's lowering: the text after it. Stage names are the lowering passes'
// own (MLIR pass arguments such as "one-shot-bufferize"), with "input" for the IR as first
// emitted, "llvm-ir" for the translated LLVM module and "asm" (CPU) or "ptx" (GPU) last.
struct KernelStage {
  std::string name;
  std::string text;
};

struct KernelRecord {
  // The kernel's name: the name of the instruction it runs in the compiled snapshot
  // (a fusion such as "broadcast_maximum_fusion", or a lone instruction such as "dot.3").
  std::string kernel;
  // The stable id of that instruction, and the snapshot (index in the recording) it was
  // lowered from.
  int64_t instruction_id = -1;
  int snapshot = -1;
  // How it runs: "mlir-cpu" (compiled by MLIR → LLVM), "openblas" (a library call, with the
  // epilogue's stages when one was fused), "host" (run by the reference interpreter on the
  // host: control flow, and what the lowering does not cover yet, with `note` saying why),
  // "nvptx" (CUDA: PTX launches, the PTX and launch plan as stages), "cublas" (a cuBLAS GEMM,
  // with its PTX epilogue's stages when one was fused).
  std::string backend;
  // The lowering options, as one line ("tile=32 vector=8"): the sweep key of tuning later.
  std::string options;
  std::vector<KernelStage> stages;  // in lowering order; empty for a host kernel
  // Where lowering stopped, when it failed: the stage that failed and its error. The stages
  // before it are kept.
  std::string failed_stage;
  std::string error;
  std::string note;  // why a kernel runs on the host, or which library call it makes
  double compile_seconds = 0;
};

}  // namespace fusescope::recording

#endif  // FUSESCOPE_RECORDING_KERNEL_RECORD_H_
