#ifndef FUSESCOPE_IR_COMPUTATION_H_
#define FUSESCOPE_IR_COMPUTATION_H_

// A computation owns its instructions. Adding one hands over ownership and returns a plain
// pointer that stays valid until the instruction is removed.

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ir/instruction.h"
#include "ir/status.h"

namespace fusescope::ir {

class Module;

class Computation {
 public:
  explicit Computation(std::string name);
  Computation(const Computation&) = delete;
  Computation& operator=(const Computation&) = delete;

  const std::string& name() const { return name_; }
  void set_name(std::string name) { name_ = std::move(name); }
  Module* parent() const { return parent_; }
  bool IsEntry() const;

  // Removing a fusion instruction (by any of the Remove*/Replace* calls below) also removes
  // its fused computation from the module: a fused computation belongs to exactly one fusion
  // and must never outlive it.

  // Takes ownership. Assigns a module-unique id (when the instruction has none and the
  // computation belongs to a module), registers the instruction as a user of its operands,
  // and records parameters by number.
  Instruction* AddInstruction(std::unique_ptr<Instruction> instruction);
  // Precondition: `instruction` has no users and is not the root.
  void RemoveInstruction(Instruction* instruction);
  // Removes all of `instructions` in one sweep; removing them one at a time costs a scan of
  // the computation each. Precondition: none is the root, and every user of each is in the
  // list too.
  void RemoveInstructions(const std::vector<Instruction*>& instructions);
  // Redirects all uses of `old_instruction` (and the root) to `replacement`, then removes
  // `old_instruction`. The replacement inherits its provenance.
  void ReplaceInstruction(Instruction* old_instruction, Instruction* replacement);
  // Removes instructions with no users that are not the root, parameters or side-effecting,
  // repeatedly. Returns how many were removed.
  int64_t RemoveDeadInstructions();

  // Instructions in stored order (the order they were parsed or added).
  const std::vector<std::unique_ptr<Instruction>>& instructions() const { return instructions_; }
  int64_t instruction_count() const { return static_cast<int64_t>(instructions_.size()); }
  // Def-before-use order that keeps the stored order where it already is one; includes
  // instructions unreachable from the root.
  std::vector<Instruction*> MakePostOrder() const;
  // Stores the instructions in `order` (a schedule). Precondition: `order` holds each of
  // this computation's instructions exactly once. Returns false, changing nothing, when not.
  bool SetInstructionOrder(const std::vector<Instruction*>& order);

  Instruction* root() const { return root_; }
  void set_root(Instruction* root) { root_ = root; }
  // Parameters ordered by parameter number (gaps are nullptr).
  const std::vector<Instruction*>& parameters() const { return parameters_; }
  Instruction* parameter(int64_t number) const;
  int64_t parameter_count() const { return static_cast<int64_t>(parameters_.size()); }

  // The fusion instruction whose body this is, or nullptr.
  Instruction* fusion_instruction() const { return fusion_instruction_; }
  void set_fusion_instruction(Instruction* fusion) { fusion_instruction_ = fusion; }

  // Whether the text wrote a `(params) -> result` signature; printers keep the choice.
  bool print_signature() const { return print_signature_; }
  void set_print_signature(bool print) { print_signature_ = print; }
  // Text after the closing brace (e.g. `, execution_thread="x"`), verbatim.
  const std::string& trailing_attributes() const { return trailing_attributes_; }
  void set_trailing_attributes(std::string text) { trailing_attributes_ = std::move(text); }

  Instruction* FindInstruction(std::string_view name) const;

 private:
  friend class Module;
  // Removes from the module the fused computations whose fusion is among `removed`.
  void RemoveFusedBodiesOf(const std::vector<Instruction*>& removed);
  std::string name_;
  Module* parent_ = nullptr;
  std::vector<std::unique_ptr<Instruction>> instructions_;
  std::vector<Instruction*> parameters_;
  Instruction* root_ = nullptr;
  Instruction* fusion_instruction_ = nullptr;
  bool print_signature_ = true;
  std::string trailing_attributes_;
};

}  // namespace fusescope::ir

#endif  // FUSESCOPE_IR_COMPUTATION_H_
