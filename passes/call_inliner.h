#ifndef FUSESCOPE_PASSES_CALL_INLINER_H_
#define FUSESCOPE_PASSES_CALL_INLINER_H_

// "call-inliner": replaces each `call` by the body of the computation it calls, as XLA does
// first thing in its CPU and GPU pipelines, so that later passes (fusion above all) see one
// graph instead of islands behind call boundaries. JAX wraps every jitted helper (relu,
// softmax, one_hot) in such a call.
//
// A body called once moves into the caller (its instructions keep ids and names); a body
// called more than once is copied with fresh ids and names. Copies keep their provenance;
// the call's provenance goes to the inlined root, and each parameter of the body hands its
// provenance to the operand it stood for. Computations left uncalled are removed.

#include <string_view>

#include "passes/pass.h"

namespace fusescope::passes {

class CallInliner : public Pass {
 public:
  std::string_view name() const override { return "call-inliner"; }
  StatusOr<bool> Run(ir::Module& module, PassContext& context) override;
};

}  // namespace fusescope::passes

#endif  // FUSESCOPE_PASSES_CALL_INLINER_H_
