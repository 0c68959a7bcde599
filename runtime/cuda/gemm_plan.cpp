#include "runtime/cuda/gemm_plan.h"

#include <algorithm>
#include <vector>

namespace fusescope::runtime {
namespace {

// Where an operand's contracted and free dimensions lie after its batch dimensions.
struct OperandLayout {
  int64_t free = 1;
  int64_t contracted = 1;
  bool contracting_first = false;
};

std::vector<int64_t> Attribute(const ir::Instruction& dot, const char* key) {
  return dot.IntListAttribute(key).value_or(std::vector<int64_t>{});
}

// Without contracted or without free dimensions either order holds: `untransposed` (the
// GEMM's own order for this operand, contracting first for the rhs) is chosen.
StatusOr<OperandLayout> Layout(const ir::Shape& shape, const std::vector<int64_t>& batch,
                               const std::vector<int64_t>& contracting, const std::string& which,
                               bool untransposed_contracting_first) {
  const int64_t rank = shape.rank();
  for (size_t i = 0; i < batch.size(); ++i) {
    if (batch[i] != static_cast<int64_t>(i))
      return Status::Error(which + "'s batch dimensions are not its leading dimensions in order");
  }
  for (size_t i = 0; i < contracting.size(); ++i) {
    const int64_t d = contracting[i];
    if (d < static_cast<int64_t>(batch.size()) || d >= rank ||
        (i > 0 && d != contracting[i - 1] + 1)) {
      return Status::Error(which + "'s contracting dimensions are not adjacent and in order");
    }
  }
  OperandLayout layout;
  const int64_t first_free = static_cast<int64_t>(batch.size());
  if (!contracting.empty() && contracting.back() != rank - 1) {
    if (contracting.front() != first_free)
      return Status::Error(which + "'s contracting dimensions lie between its free dimensions");
    layout.contracting_first = true;
  }
  bool has_free = false;
  for (int64_t d = first_free; d < rank; ++d) {
    const bool contracted =
        std::find(contracting.begin(), contracting.end(), d) != contracting.end();
    (contracted ? layout.contracted : layout.free) *= shape.dimension(d);
    has_free = has_free || !contracted;
  }
  if (contracting.empty() || !has_free) layout.contracting_first = untransposed_contracting_first;
  return layout;
}

// `count` consecutive dimensions from `first`.
std::vector<int64_t> Iota(int64_t first, size_t count) {
  std::vector<int64_t> dims(count);
  for (size_t i = 0; i < count; ++i) dims[i] = first + static_cast<int64_t>(i);
  return dims;
}

// Batch dimensions, then free then contracting ones (or contracting then free): the order a
// transposed operand takes.
StatusOr<std::vector<int64_t>> CanonicalOrder(int64_t rank, const std::vector<int64_t>& batch,
                                              const std::vector<int64_t>& contracting,
                                              bool contracting_first) {
  std::vector<bool> used(static_cast<size_t>(rank), false);
  for (const std::vector<int64_t>* dims : {&batch, &contracting}) {
    for (int64_t d : *dims) {
      if (used[static_cast<size_t>(d)]) return Status::Error("a dimension is used twice");
      used[static_cast<size_t>(d)] = true;
    }
  }
  std::vector<int64_t> free;
  for (int64_t d = 0; d < rank; ++d) {
    if (!used[static_cast<size_t>(d)]) free.push_back(d);
  }
  std::vector<int64_t> order = batch;
  const std::vector<int64_t>& middle = contracting_first ? contracting : free;
  const std::vector<int64_t>& last = contracting_first ? free : contracting;
  order.insert(order.end(), middle.begin(), middle.end());
  order.insert(order.end(), last.begin(), last.end());
  return order;
}

ir::Shape Permuted(const ir::Shape& shape, const std::vector<int64_t>& order) {
  std::vector<int64_t> dims;
  for (int64_t d : order) dims.push_back(shape.dimension(d));
  return ir::Shape(shape.element_type(), std::move(dims));
}

}  // namespace

StatusOr<GemmPlan> PlanGemm(const ir::Instruction& dot) {
  if (dot.opcode() != ir::Opcode::kDot || dot.operand_count() != 2)
    return Status::Error(dot.name() + " is not a dot of two operands");
  const ir::PrimitiveType type = dot.shape().element_type();
  if (type != ir::PrimitiveType::kF32 && type != ir::PrimitiveType::kF64)
    return Status::Error("a dot on " + std::string(ir::PrimitiveTypeName(type)) +
                         " has no cuBLAS GEMM here");
  for (const ir::Instruction* operand : dot.operands()) {
    if (!operand->shape().IsArray() || operand->shape().element_type() != type)
      return Status::Error("a dot mixing element types has no cuBLAS GEMM here");
  }
  const ir::Shape& lhs = dot.operand(0)->shape();
  const ir::Shape& rhs = dot.operand(1)->shape();
  const std::vector<int64_t> lb = Attribute(dot, "lhs_batch_dims");
  const std::vector<int64_t> rb = Attribute(dot, "rhs_batch_dims");
  const std::vector<int64_t> lc = Attribute(dot, "lhs_contracting_dims");
  const std::vector<int64_t> rc = Attribute(dot, "rhs_contracting_dims");
  if (lb.size() != rb.size() || lc.size() != rc.size())
    return Status::Error(dot.name() + ": dot dimension numbers do not pair up");
  for (const std::vector<int64_t>* dims : {&lb, &lc}) {
    for (int64_t d : *dims) {
      if (d < 0 || d >= lhs.rank()) return Status::Error(dot.name() + ": bad lhs dimension");
    }
  }
  for (const std::vector<int64_t>* dims : {&rb, &rc}) {
    for (int64_t d : *dims) {
      if (d < 0 || d >= rhs.rank()) return Status::Error(dot.name() + ": bad rhs dimension");
    }
  }
  GemmPlan plan;
  // An operand the GEMM cannot read as it is is transposed first: batch and contracting
  // dimensions in dimension-number order (so that they pair up), free ones in order.
  StatusOr<OperandLayout> a = Layout(lhs, lb, lc, "the lhs", false);
  if (!a.ok()) {
    StatusOr<std::vector<int64_t>> order = CanonicalOrder(lhs.rank(), lb, lc, false);
    if (!order.ok()) return Status::Error(dot.name() + ": " + order.message());
    plan.lhs_permutation = *order;
    a = Layout(Permuted(lhs, *order), Iota(0, lb.size()),
               Iota(lhs.rank() - static_cast<int64_t>(lc.size()), lc.size()), "the lhs", false);
    if (!a.ok()) return a.status();
  }
  StatusOr<OperandLayout> b = Layout(rhs, rb, rc, "the rhs", true);
  if (!b.ok()) {
    StatusOr<std::vector<int64_t>> order = CanonicalOrder(rhs.rank(), rb, rc, true);
    if (!order.ok()) return Status::Error(dot.name() + ": " + order.message());
    plan.rhs_permutation = *order;
    b = Layout(Permuted(rhs, *order), Iota(0, rb.size()),
               Iota(static_cast<int64_t>(rb.size()), rc.size()), "the rhs", true);
    if (!b.ok()) return b.status();
  }
  for (size_t i = 0; i < lb.size(); ++i) {
    if (lhs.dimension(lb[i]) != rhs.dimension(rb[i]))
      return Status::Error(dot.name() + ": batch dimensions differ in size");
    plan.batch *= lhs.dimension(lb[i]);
  }
  for (size_t i = 0; i < lc.size(); ++i) {
    if (lhs.dimension(lc[i]) != rhs.dimension(rc[i]))
      return Status::Error(dot.name() + ": contracting dimensions differ in size");
  }
  const int64_t rows = a->free, columns = b->free, depth = a->contracted;
  if (plan.batch * rows * columns != dot.shape().ElementCount())
    return Status::Error(dot.name() + ": the result shape disagrees with the dimension numbers");
  const int64_t limit = int64_t{1} << 31;
  if (rows >= limit || columns >= limit || depth >= limit || plan.batch >= limit)
    return Status::Error("a dot dimension exceeds cuBLAS's int range");
  // Column-major C^T (columns x rows) = rhs^T (columns x depth) * lhs^T (depth x rows).
  plan.m = columns;
  plan.n = rows;
  plan.k = depth;
  plan.transpose_a = !b->contracting_first;  // rhs [N, K] reads as K x N
  plan.lda = std::max<int64_t>(1, plan.transpose_a ? depth : columns);
  plan.transpose_b = a->contracting_first;  // lhs [K, M] reads as M x K
  plan.ldb = std::max<int64_t>(1, plan.transpose_b ? rows : depth);
  plan.ldc = std::max<int64_t>(1, columns);
  plan.stride_a = depth * columns;
  plan.stride_b = rows * depth;
  plan.stride_c = rows * columns;
  plan.f64 = type == ir::PrimitiveType::kF64;
  return plan;
}

std::string GemmPlan::Description() const {
  std::string text = f64 ? "cublasDgemmStridedBatched " : "cublasSgemmStridedBatched ";
  text += std::string(transpose_a ? "T" : "N") + "," + (transpose_b ? "T" : "N") +
          " m=" + std::to_string(m) + " n=" + std::to_string(n) + " k=" + std::to_string(k);
  if (batch != 1) text += " batch " + std::to_string(batch);
  auto dims = [](const std::vector<int64_t>& order) {
    std::string list;
    for (int64_t d : order) list += (list.empty() ? "" : ",") + std::to_string(d);
    return "{" + list + "}";
  };
  if (!lhs_permutation.empty()) text += ", lhs transposed " + dims(lhs_permutation);
  if (!rhs_permutation.empty()) text += ", rhs transposed " + dims(rhs_permutation);
  return text;
}

}  // namespace fusescope::runtime
