#include "ir/instruction.h"

#include <algorithm>
#include <charconv>

#include "ir/computation.h"

namespace fusescope::ir {
namespace {

std::optional<int64_t> ParseInt(std::string_view text) {
  int64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

std::string_view Trim(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  return text;
}

}  // namespace

std::optional<std::string_view> OpMetadata::Raw(std::string_view key) const {
  for (const auto& [k, v] : fields) {
    if (k == key) return std::string_view(v);
  }
  return std::nullopt;
}

std::string OpMetadata::String(std::string_view key) const {
  std::optional<std::string_view> raw = Raw(key);
  if (!raw) return "";
  std::string_view text = *raw;
  if (text.size() < 2 || text.front() != '"' || text.back() != '"') return std::string(text);
  text = text.substr(1, text.size() - 2);
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size()) {
      const char next = text[++i];
      out += next == 'n' ? '\n' : next == 't' ? '\t' : next;
    } else {
      out += text[i];
    }
  }
  return out;
}

std::optional<int64_t> OpMetadata::Int(std::string_view key) const {
  std::optional<std::string_view> raw = Raw(key);
  return raw ? ParseInt(*raw) : std::nullopt;
}

void OpMetadata::Set(std::string_view key, std::string raw_value) {
  for (auto& [k, v] : fields) {
    if (k == key) {
      v = std::move(raw_value);
      return;
    }
  }
  fields.emplace_back(std::string(key), std::move(raw_value));
}

Instruction::Instruction(Opcode opcode, Shape shape, std::string name)
    : name_(std::move(name)), opcode_(opcode), shape_(std::move(shape)) {}

std::unique_ptr<Instruction> Instruction::Create(Opcode opcode, Shape shape,
                                                 std::vector<Instruction*> operands,
                                                 std::string name) {
  std::unique_ptr<Instruction> instruction(
      new Instruction(opcode, std::move(shape), std::move(name)));
  instruction->operands_ = std::move(operands);
  return instruction;
}

std::unique_ptr<Instruction> Instruction::CreateUnknown(std::string opcode_name, Shape shape,
                                                        std::vector<Instruction*> operands,
                                                        std::string name) {
  auto instruction = Create(Opcode::kUnknown, std::move(shape), std::move(operands),
                            std::move(name));
  instruction->unknown_opcode_name_ = std::move(opcode_name);
  return instruction;
}

std::string_view Instruction::opcode_name() const {
  return opcode_ == Opcode::kUnknown ? std::string_view(unknown_opcode_name_)
                                     : OpcodeName(opcode_);
}

void Instruction::AddUser(Instruction* user) {
  // Callers have already made `user` refer to us. If that is its only reference, it cannot be
  // a user yet, so the common case skips the scan of a possibly huge user list (a broadcast
  // feeding 60k instructions would make building the module quadratic).
  const auto references = std::count(user->operands_.begin(), user->operands_.end(), this);
  if (references <= 1 || std::find(users_.begin(), users_.end(), user) == users_.end()) {
    users_.push_back(user);
  }
}

void Instruction::RemoveUser(Instruction* user) {
  // Only drop the user when it no longer refers to us through any operand slot.
  if (std::find(user->operands_.begin(), user->operands_.end(), this) != user->operands_.end()) {
    return;
  }
  users_.erase(std::remove(users_.begin(), users_.end(), user), users_.end());
}

void Instruction::AppendOperand(Instruction* operand) {
  operands_.push_back(operand);
  if (parent_) operand->AddUser(this);
}

void Instruction::ReplaceOperand(int64_t index, Instruction* new_operand) {
  Instruction* old_operand = operands_[static_cast<size_t>(index)];
  if (old_operand == new_operand) return;
  operands_[static_cast<size_t>(index)] = new_operand;
  if (parent_) {
    old_operand->RemoveUser(this);
    new_operand->AddUser(this);
  }
}

void Instruction::ReplaceOperandWith(Instruction* old_operand, Instruction* new_operand) {
  if (old_operand == new_operand) return;
  bool replaced = false;
  for (Instruction*& operand : operands_) {
    if (operand == old_operand) {
      operand = new_operand;
      replaced = true;
    }
  }
  if (replaced && parent_) {
    old_operand->RemoveUser(this);
    new_operand->AddUser(this);
  }
}

void Instruction::DropAllOperands() {
  std::vector<Instruction*> old = std::move(operands_);
  operands_.clear();
  if (!parent_) return;
  for (Instruction* operand : old) operand->RemoveUser(this);
}

void Instruction::ReplaceAllUsesWith(Instruction* replacement) {
  if (replacement == this) return;
  const std::vector<Instruction*> users = users_;
  for (Instruction* user : users) {
    if (user != replacement) user->ReplaceOperandWith(this, replacement);
  }
  if (parent_ && parent_->root() == this) parent_->set_root(replacement);
}

std::vector<Computation*> Instruction::CalledComputations(std::string_view key) const {
  std::vector<Computation*> result;
  for (size_t i = 0; i < called_.size(); ++i) {
    if (called_keys_[i] == key) result.push_back(called_[i]);
  }
  return result;
}

void Instruction::AddCalledComputation(std::string_view key, Computation* computation) {
  called_.push_back(computation);
  called_keys_.emplace_back(key);
  const bool has_attribute = std::any_of(attributes_.begin(), attributes_.end(),
                                         [&](const Attribute& a) { return a.key == key; });
  if (!has_attribute) attributes_.push_back({std::string(key), "", true});
}

void Instruction::ReplaceCalledComputation(Computation* old_computation,
                                           Computation* new_computation) {
  std::replace(called_.begin(), called_.end(), old_computation, new_computation);
}

std::optional<std::string_view> Instruction::attribute(std::string_view key) const {
  for (const Attribute& a : attributes_) {
    if (a.key == key) return std::string_view(a.value);
  }
  return std::nullopt;
}

void Instruction::SetAttribute(std::string_view key, std::string value) {
  for (Attribute& a : attributes_) {
    if (a.key == key) {
      a.value = std::move(value);
      a.names_computations = false;
      return;
    }
  }
  attributes_.push_back({std::string(key), std::move(value), false});
}

void Instruction::RemoveAttribute(std::string_view key) {
  attributes_.erase(std::remove_if(attributes_.begin(), attributes_.end(),
                                   [&](const Attribute& a) { return a.key == key; }),
                    attributes_.end());
}

std::optional<std::vector<int64_t>> Instruction::IntListAttribute(std::string_view key) const {
  std::optional<std::string_view> raw = attribute(key);
  if (!raw) return std::nullopt;
  std::string_view text = Trim(*raw);
  if (text.size() < 2 || text.front() != '{' || text.back() != '}') return std::nullopt;
  text = Trim(text.substr(1, text.size() - 2));
  std::vector<int64_t> values;
  while (!text.empty()) {
    const size_t comma = text.find(',');
    std::optional<int64_t> value = ParseInt(Trim(text.substr(0, comma)));
    if (!value) return std::nullopt;
    values.push_back(*value);
    if (comma == std::string_view::npos) break;
    text = text.substr(comma + 1);
  }
  return values;
}

std::optional<int64_t> Instruction::IntAttribute(std::string_view key) const {
  std::optional<std::string_view> raw = attribute(key);
  return raw ? ParseInt(Trim(*raw)) : std::nullopt;
}

std::string Instruction::fusion_kind() const {
  std::optional<std::string_view> kind = attribute("kind");
  if (!kind) return "";
  std::string_view text = *kind;
  if (!text.empty() && text.front() == 'k') text.remove_prefix(1);
  return std::string(text);
}

Computation* Instruction::fused_computation() const {
  if (opcode_ != Opcode::kFusion) return nullptr;
  std::vector<Computation*> calls = CalledComputations("calls");
  return calls.empty() ? nullptr : calls.front();
}

bool Instruction::IsRoot() const { return parent_ && parent_->root() == this; }

bool Instruction::HasSideEffect() const {
  if (OpcodeHasSideEffect(opcode_)) return true;
  if (opcode_ == Opcode::kCustomCall) {
    std::optional<std::string_view> flag = attribute("custom_call_has_side_effect");
    return flag && Trim(*flag) == "true";
  }
  return false;
}

}  // namespace fusescope::ir
