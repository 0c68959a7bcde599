#ifndef FUSESCOPE_TESTS_RUNTIME_RUNTIME_TEST_UTIL_H_
#define FUSESCOPE_TESTS_RUNTIME_RUNTIME_TEST_UTIL_H_

// Literals from value lists and one-call interpretation of HLO text, for the runtime tests.

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "ir/hlo_parser.h"
#include "runtime/interpreter/interpreter.h"
#include "runtime/literal.h"

namespace fusescope::runtime::testing {

inline Literal Array(ir::PrimitiveType type, std::vector<int64_t> dims,
                     const std::vector<double>& values) {
  Literal literal = Literal::Create(ir::Shape(type, std::move(dims))).value();
  EXPECT_EQ(literal.element_count(), static_cast<int64_t>(values.size()));
  for (size_t i = 0; i < values.size(); ++i) {
    if (literal.is_floating())
      literal.SetDouble(static_cast<int64_t>(i), values[i]);
    else
      literal.SetInt(static_cast<int64_t>(i), static_cast<int64_t>(values[i]));
  }
  return literal;
}
inline Literal F32(std::vector<int64_t> dims, const std::vector<double>& values) {
  return Array(ir::PrimitiveType::kF32, std::move(dims), values);
}
inline Literal S32(std::vector<int64_t> dims, const std::vector<double>& values) {
  return Array(ir::PrimitiveType::kS32, std::move(dims), values);
}

inline std::vector<double> Values(const Literal& literal) {
  std::vector<double> values;
  for (int64_t i = 0; i < literal.element_count(); ++i) values.push_back(literal.GetDouble(i));
  return values;
}

// Parses `text` and runs its entry computation; the error text when either fails.
inline StatusOr<Literal> RunHlo(const std::string& text, std::vector<Literal> args,
                                InterpreterOptions options = {}) {
  auto module = ir::ParseHloModule(text);
  if (!module.ok()) return module.status();
  Interpreter interpreter(std::move(options));
  return interpreter.Run(**module, std::move(args));
}

// The values of a successful run, failing the test otherwise.
inline std::vector<double> RunValues(const std::string& text, std::vector<Literal> args) {
  StatusOr<Literal> result = RunHlo(text, std::move(args));
  EXPECT_TRUE(result.ok()) << result.message();
  if (!result.ok()) return {};
  return Values(*result);
}

}  // namespace fusescope::runtime::testing

#endif  // FUSESCOPE_TESTS_RUNTIME_RUNTIME_TEST_UTIL_H_
