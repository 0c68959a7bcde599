#ifndef FUSESCOPE_BENCH_GENERATED_MODULE_H_
#define FUSESCOPE_BENCH_GENERATED_MODULE_H_

// Generated modules for the benchmarks: layers of a transformer-like block (dot, bias, relu,
// softmax, residual) whose instructions carry jax-style op_name scopes
// ("jit(model)/block_7/exp"), so that scope boxes, groups and fusions form as in real models.

#include <algorithm>
#include <string>

namespace fusescope::bench {

inline constexpr int kInstructionsPerBlock = 24;

inline void AppendBlock(std::string& text, int block, std::string& x) {
  const std::string b = std::to_string(block);
  const std::string t = "f32[16,64]{1,0}";
  auto meta = [&](const char* op) {
    return std::string(", metadata={op_name=\"jit(model)/block_") + b + "/" + op + "\"}\n";
  };
  auto line = [&](const std::string& name, const std::string& rest, const char* op) {
    text += "  " + name + "." + b + " = " + rest + meta(op);
  };
  text += "  w." + b + " = f32[64,64]{1,0} parameter(" + std::to_string(block + 1) + ")\n";
  line("dot",
       t + " dot(" + x + ", w." + b + "), lhs_contracting_dims={1}, rhs_contracting_dims={0}",
       "dot_general");
  text += "  c1." + b + " = f32[] constant(0.5)\n";
  line("bias", t + " broadcast(c1." + b + "), dimensions={}", "add");
  line("add", t + " add(dot." + b + ", bias." + b + ")", "add");
  text += "  c0." + b + " = f32[] constant(0)\n";
  line("zero", t + " broadcast(c0." + b + "), dimensions={}", "relu/max");
  line("relu", t + " maximum(add." + b + ", zero." + b + ")", "relu/max");
  // Blocks differ a little, as layers of real models do (gated activations, skipped norms).
  std::string act = "relu." + b;
  if (block % 3 == 1) {
    line("gsq", t + " multiply(relu." + b + ", relu." + b + ")", "gelu/mul");
    line("gate", t + " tanh(gsq." + b + ")", "gelu/tanh");
    line("gated", t + " multiply(relu." + b + ", gate." + b + ")", "gelu/mul");
    act = "gated." + b;
  }
  text += "  ninf." + b + " = f32[] constant(-inf)\n";
  line("rmax", "f32[16]{0} reduce(" + act + ", ninf." + b + "), dimensions={1}, to_apply=max_f32",
       "softmax/reduce_max");
  line("bmax", t + " broadcast(rmax." + b + "), dimensions={0}", "softmax/sub");
  line("sub", t + " subtract(" + act + ", bmax." + b + ")", "softmax/sub");
  line("exp", t + " exponential(sub." + b + ")", "softmax/exp");
  line("rsum", "f32[16]{0} reduce(exp." + b + ", c0." + b + "), dimensions={1}, to_apply=add_f32",
       "softmax/reduce_sum");
  line("bsum", t + " broadcast(rsum." + b + "), dimensions={0}", "softmax/div");
  line("div", t + " divide(exp." + b + ", bsum." + b + ")", "softmax/div");
  line("res", t + " add(" + x + ", div." + b + ")", "residual");
  if (block % 5 == 2) {
    line("out", t + " tanh(res." + b + ")", "tanh");
    x = "out." + b;
    return;
  }
  line("sq", t + " multiply(res." + b + ", res." + b + ")", "norm/square");
  line("msq", "f32[16]{0} reduce(sq." + b + ", c0." + b + "), dimensions={1}, to_apply=add_f32",
       "norm/mean");
  line("bmsq", t + " broadcast(msq." + b + "), dimensions={0}", "norm/rsqrt");
  line("rs", t + " rsqrt(bmsq." + b + ")", "norm/rsqrt");
  line("norm", t + " multiply(res." + b + ", rs." + b + ")", "norm/mul");
  line("out", t + " tanh(norm." + b + ")", "tanh");
  x = "out." + b;
}

// About `instructions` instructions in the entry computation.
inline std::string GeneratedModule(int instructions) {
  int blocks = std::max(1, instructions / kInstructionsPerBlock);
  std::string text = "HloModule generated\n\n";
  text +=
      "max_f32 {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
      "  ROOT m = f32[] maximum(a, b)\n}\n\n";
  text +=
      "add_f32 {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
      "  ROOT s = f32[] add(a, b)\n}\n\n";
  text += "ENTRY main {\n  x = f32[16,64]{1,0} parameter(0), metadata={op_name=\"x\"}\n";
  std::string current = "x";
  for (int block = 0; block < blocks; ++block) AppendBlock(text, block, current);
  text += "  ROOT result = f32[16,64]{1,0} copy(" + current + ")\n}\n";
  return text;
}

}  // namespace fusescope::bench

#endif  // FUSESCOPE_BENCH_GENERATED_MODULE_H_
