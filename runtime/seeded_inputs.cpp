#include "runtime/seeded_inputs.h"

#include <algorithm>
#include <climits>
#include <string>

namespace fusescope::runtime {

StatusOr<Literal> SeededArray(const ir::Shape& shape, uint64_t seed) {
  if (!shape.IsArray()) return Status::Error("no seeded inputs for tuple or token parameters yet");
  StatusOr<Literal> created = Literal::Create(shape);
  if (!created.ok()) return created.status();
  Literal literal = std::move(created).value();
  SeededBits bits(seed);
  const ir::PrimitiveType type = shape.element_type();
  for (int64_t i = 0; i < literal.element_count(); ++i) {
    if (ir::IsFloatingPointType(type)) {
      literal.SetDouble(i, bits.Unit() * 2.0 - 1.0);
    } else if (type == ir::PrimitiveType::kPred) {
      literal.SetInt(i, static_cast<int64_t>(bits.Next() & 1));
    } else if (ir::IsSignedIntegralType(type)) {
      literal.SetInt(i, static_cast<int64_t>(bits.Next() % 4));
    } else {
      literal.SetInt(i, static_cast<int64_t>(bits.Next()));
    }
  }
  return literal;
}

uint64_t ParameterSeed(uint64_t seed, int64_t index) {
  return seed * 1000003 + static_cast<uint64_t>(index);
}

StatusOr<std::vector<Literal>> SeededInputs(const ir::Computation& computation, uint64_t seed,
                                            int64_t max_bytes) {
  int64_t total = 0;
  for (int64_t i = 0; i < computation.parameter_count(); ++i) {
    const ir::Instruction* parameter = computation.parameter(i);
    if (parameter == nullptr || !parameter->shape().IsArray()) continue;
    int64_t bytes = std::max(ElementByteSize(parameter->shape().element_type()), 1);
    for (int64_t dim : parameter->shape().dimensions()) {
      if (dim < 0 || __builtin_mul_overflow(bytes, dim, &bytes)) bytes = INT64_MAX;
      if (bytes == INT64_MAX) break;
    }
    if (__builtin_add_overflow(total, bytes, &total) || total > max_bytes) {
      return Status::Error("the inputs would take more than " + std::to_string(max_bytes) +
                           " bytes (parameter " + std::to_string(i) + " is " +
                           parameter->shape().ToString(false) + ")");
    }
  }
  std::vector<Literal> inputs;
  for (int64_t i = 0; i < computation.parameter_count(); ++i) {
    const ir::Instruction* parameter = computation.parameter(i);
    if (parameter == nullptr) {
      return Status::Error("entry parameter " + std::to_string(i) + " is missing");
    }
    StatusOr<Literal> input = SeededArray(parameter->shape(), ParameterSeed(seed, i));
    if (!input.ok())
      return Status::Error("parameter " + std::to_string(i) + ": " + input.message());
    inputs.push_back(std::move(input).value());
  }
  return inputs;
}

}  // namespace fusescope::runtime
