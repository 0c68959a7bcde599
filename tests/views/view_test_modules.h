#ifndef FUSESCOPE_TESTS_VIEWS_VIEW_TEST_MODULES_H_
#define FUSESCOPE_TESTS_VIEWS_VIEW_TEST_MODULES_H_

// Modules the view tests share: a small one with name scopes, a fusion and tuples, and
// generated large ones.

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <string_view>

#include "ir/hlo_parser.h"
#include "ir/module.h"

namespace fusescope::views::testing {

// jit(f) > dense holds b, m and fusion.1; jit(f) > head holds n, s and r; x, y, c and the
// tuples lie outside any scope.
inline constexpr std::string_view kScopedModule = R"(HloModule scoped

fused_computation.1 {
  param_0 = f32[8]{0} parameter(0)
  param_1 = f32[8]{0} parameter(1)
  add.10 = f32[8]{0} add(param_0, param_1), metadata={op_name="jit(f)/dense/add"}
  ROOT exp.11 = f32[8]{0} exponential(add.10), metadata={op_name="jit(f)/dense/exp"}
}

ENTRY main {
  x = f32[8]{0} parameter(0), metadata={op_name="x"}
  y = f32[8]{0} parameter(1), metadata={op_name="y"}
  c = f32[] constant(1)
  b = f32[8]{0} broadcast(c), dimensions={}, metadata={op_name="jit(f)/dense/broadcast"}
  m = f32[8]{0} multiply(x, b), metadata={op_name="jit(f)/dense/mul"}
  fusion.1 = f32[8]{0} fusion(m, y), kind=kLoop, calls=fused_computation.1, metadata={op_name="jit(f)/dense/exp"}
  n = f32[8]{0} negate(fusion.1), metadata={op_name="jit(f)/head/neg"}
  s = f32[8]{0} sine(n), metadata={op_name="jit(f)/head/sin"}
  t = (f32[8]{0}, f32[8]{0}) tuple(s, m)
  g = f32[8]{0} get-tuple-element(t), index=1
  r = f32[8]{0} cosine(g), metadata={op_name="jit(f)/head/cos"}
  ROOT out = (f32[8]{0}, f32[8]{0}) tuple(r, n)
}
)";

inline std::unique_ptr<ir::Module> ParseOrDie(std::string_view text) {
  StatusOr<std::unique_ptr<ir::Module>> module = ir::ParseHloModule(text);
  EXPECT_TRUE(module.ok()) << module.message();
  return module.ok() ? std::move(module).value() : std::make_unique<ir::Module>("empty");
}

// `layers` scopes ("jit(f)/layer_K/...") of `per_layer` elementwise ops, each reading the
// previous one and every fourth also the one three before; `with_scopes` false drops the
// metadata.
inline std::string LayeredModule(int layers, int per_layer, bool with_scopes = true) {
  std::string text = "HloModule layered\n\nENTRY main {\n  v.0 = f32[16]{0} parameter(0)\n";
  int n = 0;
  for (int layer = 0; layer < layers; ++layer) {
    for (int i = 0; i < per_layer; ++i) {
      ++n;
      std::string op = i % 4 == 0 ? "exponential" : (i % 4 == 1 ? "negate" : "tanh");
      std::string operands = "v." + std::to_string(n - 1);
      if (i % 4 == 3) {
        op = "add";
        operands += ", v." + std::to_string(n >= 4 ? n - 4 : 0);
      }
      text += "  v." + std::to_string(n) + " = f32[16]{0} " + op + "(" + operands + ")";
      if (with_scopes) {
        text += ", metadata={op_name=\"jit(f)/layer_" + std::to_string(layer) + "/" + op + "\"}";
      }
      text += "\n";
    }
  }
  text += "  ROOT out = f32[16]{0} copy(v." + std::to_string(n) + ")\n}\n";
  return text;
}

}  // namespace fusescope::views::testing

#endif  // FUSESCOPE_TESTS_VIEWS_VIEW_TEST_MODULES_H_
