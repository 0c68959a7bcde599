#include "importers/mlir/mlir_module_builder.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "ir/computation.h"
#include "importers/mlir/chlo_expansion.h"
#include "importers/mlir/mlir_text_scan.h"
#include "importers/mlir/stablehlo_mapping.h"
#include "ir/instruction.h"

namespace fusescope::ir::mlir_import {
namespace {

// Attribute text is kept for display and diffs; a dense constant of megabytes is not.
constexpr size_t kMaxAttributeText = 2000;

std::string Sanitized(std::string_view text, std::string_view fallback) {
  std::string name;
  for (char c : text) {
    const bool ok = std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-';
    name += ok ? c : '_';
  }
  while (!name.empty() && (name.front() == '.' || name.front() == '-')) name.erase(0, 1);
  if (name.empty()) return std::string(fallback);
  // XLA's HLO parser takes names that start with a letter or '_': an SSA number (%23) gets
  // the fallback before it ("op_23").
  if (std::isdigit(static_cast<unsigned char>(name.front())))
    return std::string(fallback) + "_" + name;
  return name;
}

std::string Quoted(std::string_view text) {
  std::string quoted = "\"";
  for (char c : text.substr(0, kMaxAttributeText)) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += (c == '\n' || c == '\r') ? ' ' : c;
  }
  if (text.size() > kMaxAttributeText) quoted += "...";
  return quoted + "\"";
}

std::optional<PrimitiveType> ElementType(std::string_view type) {
  type = TrimText(type);
  if (type == "index") return PrimitiveType::kS64;
  if (type == "i1") return PrimitiveType::kPred;
  if (type == "complex<f32>") return PrimitiveType::kC64;
  if (type == "complex<f64>") return PrimitiveType::kC128;
  std::string name(type);
  if (name.size() > 1 && name[0] == 'i' && std::isdigit(static_cast<unsigned char>(name[1]))) {
    name[0] = 's';
  } else if (name.rfind("si", 0) == 0) {
    name = name.substr(1);
  } else if (name.rfind("ui", 0) == 0) {
    name = "u" + name.substr(2);
  }
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  auto primitive = PrimitiveTypeFromName(name);
  if (!primitive || *primitive == PrimitiveType::kTuple || *primitive == PrimitiveType::kToken ||
      *primitive == PrimitiveType::kOpaque) {
    return std::nullopt;
  }
  return primitive;
}

std::string SourceMetadataFile(std::string_view location, int64_t& line) {
  // `"file.py":12:3`, possibly inside a name: `"name"("file.py":12:3)`.
  const size_t quote = location.rfind("\":");
  if (quote == std::string_view::npos) return {};
  const size_t open = location.rfind('"', quote - 1 < location.size() ? quote - 1 : 0);
  if (open == std::string_view::npos || open >= quote) return {};
  std::string_view digits = location.substr(quote + 2);
  int64_t value = 0;
  auto parsed = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (parsed.ec != std::errc()) return {};
  line = value;
  return std::string(location.substr(open + 1, quote - open - 1));
}

bool IsFunction(const MlirOperation& operation) {
  return !operation.symbol.empty() && operation.regions.size() == 1 && operation.name.size() >= 5 &&
         operation.name.compare(operation.name.size() - 5, 5, ".func") == 0;
}

class Builder {
 public:
  Builder(const MlirModuleOptions& options) : options_(options) {
    result_.module = std::make_unique<Module>(Sanitized(options.module_name, "mlir"));
  }

  MlirModule Run(const MlirOperationTree& tree) {
    const std::vector<MlirOperation>* top = &tree.operations;
    if (tree.operations.size() == 1 && tree.operations[0].name == "builtin.module" &&
        tree.operations[0].regions.size() == 1 && !tree.operations[0].regions[0].blocks.empty()) {
      if (!tree.operations[0].symbol.empty())
        result_.module->set_name(Sanitized(tree.operations[0].symbol, "mlir"));
      top = &tree.operations[0].regions[0].blocks[0].operations;
    }
    if (options_.layout == MlirModuleOptions::Layout::kModel) {
      BuildModel(*top);
    } else {
      MlirRegion region;
      region.blocks.emplace_back().operations = *top;
      Computation* entry = BuildRegion(region, result_.module->name(), nullptr, nullptr);
      if (entry == nullptr) entry = EmptyComputation(result_.module->name());
      Add(entry, true);
    }
    for (auto& computation : pending_add_) {
      result_.module->AddComputation(std::move(computation.first), computation.second);
    }
    return std::move(result_);
  }

 private:
  struct Scope {
    Computation* computation = nullptr;
    Scope* parent = nullptr;
    Instruction* owner = nullptr;  // the instruction whose region this is
    std::unordered_map<std::string, Instruction*> values;
    // `%values, %indices = chlo.top_k(...)`: names of the elements of a tuple-shaped result.
    std::unordered_map<std::string, std::pair<Instruction*, int64_t>> elements;
    std::vector<Instruction*> captured;  // outer values, in parameter order after block arguments
    int64_t next_parameter = 0;
    Instruction* last_operation = nullptr;  // the last operation's instruction
  };

  void Warn(const MlirOperation& operation, const std::string& cause) {
    result_.warnings.push_back(options_.file + ":" + std::to_string(operation.line) + ":" +
                               std::to_string(operation.column) + ": " + cause);
  }

  void Add(Computation* computation, bool entry) {
    for (auto& pending : pending_add_) {
      if (pending.first.get() == computation) pending.second = entry;
    }
  }

  Computation* NewComputation(std::string_view base) {
    auto computation =
        std::make_unique<Computation>(result_.module->UniqueName(Sanitized(base, "region")));
    Computation* raw = computation.get();
    pending_add_.emplace_back(std::move(computation), false);
    return raw;
  }

  Computation* EmptyComputation(std::string_view base) {
    Computation* computation = NewComputation(base);
    Instruction* root = computation->AddInstruction(Instruction::Create(
        Opcode::kTuple, Shape::Tuple({}), {}, result_.module->UniqueName("empty")));
    computation->set_root(root);
    return computation;
  }

  Shape ShapeOf(const std::string& type) {
    if (auto shape = ShapeFromMlirType(type)) return *shape;
    Shape opaque;
    opaque.set_element_type(PrimitiveType::kOpaque);
    return opaque;
  }

  Instruction* AddParameter(Scope& scope, const std::string& value, const std::string& type) {
    auto parameter =
        Instruction::Create(Opcode::kParameter, ShapeOf(type), {},
                            result_.module->UniqueName(Sanitized(value.substr(1), "arg")));
    parameter->set_parameter_number(scope.next_parameter++);
    if (!type.empty() && !ShapeFromMlirType(type)) parameter->SetAttribute("type", Quoted(type));
    Instruction* added = scope.computation->AddInstruction(std::move(parameter));
    scope.values[value] = added;
    return added;
  }

  // The instruction for SSA value `name` seen from `scope`: a result, a get-tuple-element
  // of one result of several, or a parameter capturing a value of an enclosing region.
  Instruction* Lookup(Scope& scope, const std::string& name) {
    if (auto found = scope.values.find(name); found != scope.values.end()) return found->second;
    const size_t hash = name.find('#');
    if (hash != std::string::npos) {
      auto tuple = scope.values.find(name.substr(0, hash));
      int64_t index = 0;
      std::from_chars(name.data() + hash + 1, name.data() + name.size(), index);
      if (tuple != scope.values.end()) {
        if (Instruction* element = ElementOf(scope, name, tuple->second, index)) return element;
      }
    }
    if (auto named = scope.elements.find(name); named != scope.elements.end()) {
      if (Instruction* element = ElementOf(scope, name, named->second.first, named->second.second))
        return element;
    }
    if (scope.parent == nullptr) return nullptr;
    Instruction* outer = Lookup(*scope.parent, name);
    if (outer == nullptr) return nullptr;
    auto parameter =
        Instruction::Create(Opcode::kParameter, outer->shape(), {},
                            result_.module->UniqueName(Sanitized(name.substr(1), "capture")));
    parameter->set_parameter_number(scope.next_parameter++);
    Instruction* added = scope.computation->AddInstruction(std::move(parameter));
    scope.values[name] = added;
    scope.captured.push_back(outer);
    return added;
  }

  // Element `index` of tuple-shaped `tuple` as the value `name`; nullptr when there is none.
  Instruction* ElementOf(Scope& scope, const std::string& name, Instruction* tuple, int64_t index) {
    if (!tuple->shape().IsTuple()) return nullptr;
    const auto& elements = tuple->shape().tuple_shapes();
    if (index < 0 || index >= static_cast<int64_t>(elements.size())) return nullptr;
    auto element =
        Instruction::Create(Opcode::kGetTupleElement, elements[static_cast<size_t>(index)], {tuple},
                            result_.module->UniqueName(Sanitized(name.substr(1), "value")));
    element->SetAttribute("index", std::to_string(index));
    Instruction* added = scope.computation->AddInstruction(std::move(element));
    scope.values[name] = added;
    return added;
  }

  Instruction* CreateInstruction(const MlirOperation& operation, Scope& scope) {
    Shape shape;
    std::vector<Shape> results;
    for (const std::string& type : operation.result_types) results.push_back(ShapeOf(type));
    if (results.size() == 1) {
      shape = results.front();
    } else {
      shape = Shape::Tuple(results);
    }
    std::string base;
    if (!operation.results.empty()) {
      const std::string& first = operation.results.front();
      base = first.substr(
          1, first.find('#') == std::string::npos ? std::string::npos : first.find('#') - 1);
    } else if (!operation.symbol.empty()) {
      base = operation.symbol;
    } else {
      base = operation.name.substr(operation.name.rfind('.') + 1);
    }
    const std::string name = result_.module->UniqueName(Sanitized(base, "op"));
    std::optional<HloMapping> mapping;
    if (options_.map_stablehlo) {
      std::vector<Shape> operand_shapes;
      for (const std::string& operand : operation.operands) {
        Instruction* value = Lookup(scope, operand);
        operand_shapes.push_back(value != nullptr ? value->shape() : Shape());
      }
      std::string why;
      mapping = MapStablehloOperation(operation, operand_shapes, shape, &why);
      if (mapping) {
        ++result_.mapped;
      } else {
        ++result_.unmapped[operation.name];
        if (!why.empty()) Warn(operation, "'" + operation.name + "' kept opaque: " + why);
      }
    }
    auto instruction =
        mapping ? Instruction::Create(mapping->opcode, shape, {}, name)
                : Instruction::CreateUnknown(Sanitized(operation.name, "unknown"), shape, {}, name);
    if (mapping) {
      for (auto& [key, value] : mapping->attributes) instruction->SetAttribute(key, value);
      if (!mapping->literal.empty()) instruction->set_literal(mapping->literal);
      if (!mapping->constant_bytes.empty())
        instruction->set_constant_bytes(ir::MakeConstantBytes(std::move(mapping->constant_bytes)));
    } else if (!operation.text.empty()) {
      instruction->SetAttribute("mlir", Quoted(operation.text));
    }
    if (results.size() == 1 && !operation.result_types.front().empty() &&
        !ShapeFromMlirType(operation.result_types.front())) {
      instruction->SetAttribute("type", Quoted(operation.result_types.front()));
    }
    if (!operation.callee.empty() && !mapping)
      instruction->SetAttribute("callee", Quoted("@" + operation.callee));
    if (!operation.location.empty() && operation.location != "unknown") {
      int64_t line = 0;
      std::string file = SourceMetadataFile(operation.location, line);
      if (!file.empty()) {
        instruction->mutable_metadata().Set("source_file", Quoted(file));
        instruction->mutable_metadata().Set("source_line", std::to_string(line));
      }
      // A name location `"jit(f)/add"(...)` names the op; other locations are kept whole.
      std::string_view location = operation.location;
      bool named = false;
      if (!location.empty() && location.front() == '"') {
        const size_t end = SkipStringLiteral(location, 0);
        named = end == location.size() || location[end] == '(';
        if (named) location = location.substr(1, end >= 2 ? end - 2 : 0);
      }
      if (file.empty() || named) {
        instruction->mutable_metadata().Set("op_name", Quoted(location));
      }
    }
    Instruction* added = scope.computation->AddInstruction(std::move(instruction));
    order_[added] = next_order_++;
    scope.last_operation = added;
    if (operation.results.size() == 1 ||
        (!operation.results.empty() && !added->shape().IsTuple())) {
      scope.values[operation.results.front()] = added;
    } else {
      for (size_t i = 0; i < operation.results.size(); ++i) {
        const std::string& result = operation.results[i];
        if (result.find('#') != std::string::npos) {
          scope.values[result.substr(0, result.find('#'))] = added;
        } else {
          scope.elements[result] = {added, static_cast<int64_t>(i)};
        }
      }
    }
    if (mapping) {
      mappings_[added] = *mapping;
      if (!mapping->expansion.empty())
        added->AddCalledComputation("to_apply", Expansion(mapping->expansion, shape));
      if (mapping->opcode == Opcode::kCall) {
        const std::string& callee = mapping->callee.empty() ? operation.callee : mapping->callee;
        if (!callee.empty()) pending_calls_.emplace_back(added, callee);
      }
      if (mapping->reduction) AddReducer(added, *mapping->reduction);
      if (mapping->reshape_operand) operand_reshapes_[added] = *mapping->reshape_operand;
      if (mapping->square) squares_.insert(added);
    }
    return added;
  }

  // Operands are values defined before their user: a use of a later value (a graph region's
  // cycle, or garbled text) would make a cycle, which our IR cannot hold.
  void ResolveOperands(const std::vector<std::pair<const MlirOperation*, Instruction*>>& created,
                       Scope& scope) {
    for (const auto& [operation, instruction] : created) {
      for (const std::string& operand : operation->operands) {
        Instruction* value = Lookup(scope, operand);
        if (value == nullptr) {
          Warn(*operation,
               "'" + operand + "' used by '" + operation->name + "' is defined nowhere");
          continue;
        }
        if (Order(value) >= Order(instruction)) {
          Warn(*operation, "'" + operand + "' used by '" + operation->name +
                               "' is defined after it; the edge is left out");
          continue;
        }
        if (auto reshape = operand_reshapes_.find(instruction);
            reshape != operand_reshapes_.end()) {
          value = scope.computation->AddInstruction(
              Instruction::Create(Opcode::kReshape, reshape->second, {value},
                                  result_.module->UniqueName(instruction->name() + ".reshape")));
        }
        instruction->AppendOperand(value);
        if (squares_.count(instruction) > 0) instruction->AppendOperand(value);
      }
    }
  }

  // Creation order of operations' instructions; parameters come first, a get-tuple-element
  // with its tuple.
  int64_t Order(const Instruction* instruction) const {
    if (instruction->opcode() == Opcode::kGetTupleElement && instruction->operand_count() == 1) {
      instruction = instruction->operand(0);
    }
    auto found = order_.find(instruction);
    return found == order_.end() ? -1 : found->second;
  }

  // `reduce ... applies stablehlo.add`: the reducer computation the text leaves implicit.
  void AddReducer(Instruction* reduce, Opcode binary) {
    const Shape scalar(
        reduce->shape().IsArray() ? reduce->shape().element_type() : PrimitiveType::kF32, {});
    Computation* reducer = NewComputation(reduce->name() + ".reducer");
    std::vector<Instruction*> parameters;
    for (std::string_view name : {"lhs", "rhs"}) {
      auto parameter =
          Instruction::Create(Opcode::kParameter, scalar, {}, result_.module->UniqueName(name));
      parameter->set_parameter_number(static_cast<int64_t>(parameters.size()));
      parameters.push_back(reducer->AddInstruction(std::move(parameter)));
    }
    Instruction* lhs = parameters[0];
    Instruction* rhs = parameters[1];
    const bool compares = binary == Opcode::kCompare;
    Instruction* root = reducer->AddInstruction(
        Instruction::Create(binary, compares ? Shape(PrimitiveType::kPred, {}) : scalar, {lhs, rhs},
                            result_.module->UniqueName(std::string(OpcodeName(binary)))));
    reducer->set_root(root);
    reduce->AddCalledComputation("to_apply", reducer);
  }

  // The computation a chlo operation of `shape` calls, made once per operation and shape.
  Computation* Expansion(const std::string& name, const Shape& shape) {
    const std::string key = name + " " + shape.ToString(false);
    if (auto found = expansions_.find(key); found != expansions_.end()) return found->second;
    Computation* computation = NewComputation("chlo." + name);
    ExpandChlo(name, shape, *computation,
               [&](std::string_view base) { return result_.module->UniqueName(base); });
    expansions_[key] = computation;
    return computation;
  }

  Instruction* AddTuple(Computation* computation, const std::vector<Instruction*>& values,
                        std::string_view base) {
    std::vector<Shape> shapes;
    for (const Instruction* value : values) shapes.push_back(value->shape());
    return computation->AddInstruction(Instruction::Create(
        Opcode::kTuple, Shape::Tuple(shapes), values, result_.module->UniqueName(base)));
  }

  // HLO passes a while's state or a branch's inputs as one parameter: the parameters of
  // `computation` (block arguments, then captured values) become elements of a tuple of shape
  // `state`, parameter i read as element index[i]. Returns the new parameter.
  Instruction* TupleParameters(Computation* computation, const Shape& state,
                               const std::vector<int64_t>& index) {
    const std::vector<Instruction*> old = computation->parameters();
    std::vector<Instruction*> elements;
    for (size_t i = 0; i < old.size(); ++i) {
      auto element = Instruction::Create(Opcode::kGetTupleElement, old[i]->shape(), {},
                                         result_.module->UniqueName(old[i]->name() + ".element"));
      element->SetAttribute("index", std::to_string(index[i]));
      Instruction* added = computation->AddInstruction(std::move(element));
      const std::string name = old[i]->name();
      old[i]->ReplaceAllUsesWith(added);
      computation->RemoveInstruction(old[i]);
      added->set_name(name);
      elements.push_back(added);
    }
    auto parameter = Instruction::Create(
        Opcode::kParameter, state, {}, result_.module->UniqueName(computation->name() + ".state"));
    parameter->set_parameter_number(0);
    Instruction* added = computation->AddInstruction(std::move(parameter));
    for (Instruction* element : elements) element->AppendOperand(added);
    return added;
  }

  // While, if, case and optimization_barrier take their operands as HLO does once the
  // operations of a scope have theirs.
  void Restructure(const std::vector<std::pair<const MlirOperation*, Instruction*>>& created,
                   Scope& scope) {
    for (const auto& [operation, instruction] : created) {
      auto mapping = mappings_.find(instruction);
      if (mapping == mappings_.end()) continue;
      const HloMapping& hlo = mapping->second;
      if (hlo.regions == HloMapping::Regions::kPlain && !hlo.tuple_operands) continue;
      std::vector<Instruction*> operands;
      for (const std::string& operand : operation->operands) {
        // As ResolveOperands took them: a later value (garbled text) would make a cycle.
        Instruction* value = Lookup(scope, operand);
        if (value != nullptr && Order(value) < Order(instruction)) operands.push_back(value);
      }
      std::vector<std::vector<Instruction*>> captures = region_captures_[instruction];
      bool later = false;
      for (auto& captured : captures) {
        for (Instruction*& outer : captured) {
          if (auto wider = widened_.find(outer); wider != widened_.end()) outer = wider->second;
          later = later || Order(outer) >= Order(instruction);
        }
      }
      if (later) {
        Warn(*operation, "a region of '" + operation->name +
                             "' uses a value defined after it; its operands are left as read");
        continue;
      }
      if (hlo.tuple_operands) {
        instruction->DropAllOperands();
        instruction->AppendOperand(
            AddTuple(scope.computation, operands, instruction->name() + ".operands"));
        continue;
      }
      if (captures.size() != instruction->called_computations().size()) {
        Warn(*operation, "'" + operation->name + "' has an empty region");
        continue;
      }
      if (hlo.regions == HloMapping::Regions::kWhile) {
        RestructureWhile(*operation, instruction, operands, captures, scope);
      } else {
        RestructureConditional(*operation, instruction, operands, captures, scope);
      }
    }
  }

  // The loop-carried values and the values either region captures make one tuple; the body
  // passes the captured ones through unchanged.
  void RestructureWhile(const MlirOperation& operation, Instruction* loop,
                        const std::vector<Instruction*>& carried,
                        const std::vector<std::vector<Instruction*>>& captures, Scope& scope) {
    Computation* condition = loop->called_computations()[0];
    Computation* body = loop->called_computations()[1];
    const size_t n = carried.size();
    std::vector<Instruction*> state = carried;
    for (const auto& captured : captures)
      state.insert(state.end(), captured.begin(), captured.end());
    if (condition->parameter_count() != static_cast<int64_t>(n + captures[0].size()) ||
        body->parameter_count() != static_cast<int64_t>(n + captures[1].size())) {
      Warn(operation, "the regions of '" + operation.name +
                          "' do not take one argument per loop-carried value");
      return;
    }
    loop->DropAllOperands();
    if (state.size() == 1) {
      loop->AppendOperand(state.front());
      return;
    }
    loop->AppendOperand(AddTuple(scope.computation, state, loop->name() + ".init"));
    std::vector<Shape> shapes;
    for (const Instruction* value : state) shapes.push_back(value->shape());
    const Shape state_shape = Shape::Tuple(shapes);
    std::vector<int64_t> condition_index;
    std::vector<int64_t> body_index;
    for (size_t i = 0; i < n + captures[0].size(); ++i)
      condition_index.push_back(static_cast<int64_t>(i));
    for (size_t i = 0; i < n; ++i) body_index.push_back(static_cast<int64_t>(i));
    for (size_t i = 0; i < captures[1].size(); ++i)
      body_index.push_back(static_cast<int64_t>(n + captures[0].size() + i));
    TupleParameters(condition, state_shape, condition_index);
    Instruction* body_state = TupleParameters(body, state_shape, body_index);
    Instruction* root = body->root();
    std::vector<Instruction*> next = {root};
    if (n > 1 && root->opcode() == Opcode::kTuple &&
        root->operand_count() == static_cast<int64_t>(n))
      next = root->operands();
    for (size_t i = n; i < state.size(); ++i) {
      auto element = Instruction::Create(Opcode::kGetTupleElement, shapes[i], {body_state},
                                         result_.module->UniqueName(body->name() + ".same"));
      element->SetAttribute("index", std::to_string(i));
      next.push_back(body->AddInstruction(std::move(element)));
    }
    body->set_root(AddTuple(body, next, body->name() + ".next"));
    if (root != body->root() && root->opcode() == Opcode::kTuple && root->users().empty())
      body->RemoveInstruction(root);
    const bool was_array = !loop->shape().IsTuple();
    loop->set_shape(state_shape);
    if (was_array) {
      // Users read the one loop-carried value out of the wider state.
      auto element = Instruction::Create(Opcode::kGetTupleElement, shapes[0], {loop},
                                         result_.module->UniqueName(loop->name() + ".value"));
      element->SetAttribute("index", "0");
      Instruction* value = scope.computation->AddInstruction(std::move(element));
      loop->ReplaceAllUsesWith(value);
      widened_[loop] = value;
      for (auto& [name, instruction] : scope.values) {
        if (instruction == loop) instruction = value;
      }
    }
  }

  // Branches use outer values (StableHLO's regions take no arguments): each branch gets a
  // tuple of the values it uses as its operand.
  void RestructureConditional(const MlirOperation& operation, Instruction* conditional,
                              const std::vector<Instruction*>& operands,
                              const std::vector<std::vector<Instruction*>>& captures,
                              Scope& scope) {
    if (operands.size() != 1) {
      Warn(operation, "'" + operation.name + "' needs one selector operand");
      return;
    }
    const std::vector<Computation*> branches = conditional->called_computations();
    for (size_t i = 0; i < branches.size(); ++i) {
      if (branches[i]->parameter_count() != static_cast<int64_t>(captures[i].size())) {
        Warn(operation, "a branch of '" + operation.name + "' takes arguments");
        return;
      }
    }
    conditional->DropAllOperands();
    conditional->AppendOperand(operands.front());
    for (size_t i = 0; i < branches.size(); ++i) {
      Instruction* inputs = AddTuple(scope.computation, captures[i],
                                     conditional->name() + ".branch" + std::to_string(i));
      conditional->AppendOperand(inputs);
      std::vector<int64_t> index;
      for (size_t k = 0; k < captures[i].size(); ++k) index.push_back(static_cast<int64_t>(k));
      TupleParameters(branches[i], inputs->shape(), index);
    }
  }

  static bool IsReturn(const MlirOperation& operation) {
    return operation.name == "stablehlo.return" || operation.name == "mhlo.return";
  }

  // Converts `region` into a new computation called by `owner`; nullptr for an empty region.
  Computation* BuildRegion(const MlirRegion& region, std::string_view name, Scope* parent,
                           Instruction* owner) {
    bool empty = true;
    for (const MlirBlock& block : region.blocks) {
      empty = empty && block.operations.empty() && block.arguments.empty();
    }
    if (empty) return nullptr;
    Scope scope;
    scope.computation = NewComputation(name);
    scope.parent = parent;
    scope.owner = owner;
    for (const MlirBlock& block : region.blocks) {
      for (size_t i = 0; i < block.arguments.size(); ++i) {
        AddParameter(scope, block.arguments[i],
                     i < block.argument_types.size() ? block.argument_types[i] : "");
      }
    }
    std::vector<std::pair<const MlirOperation*, Instruction*>> created;
    const MlirOperation* terminator = nullptr;
    for (const MlirBlock& block : region.blocks) {
      for (const MlirOperation& operation : block.operations) {
        if (options_.map_stablehlo && IsReturn(operation)) {
          terminator = &operation;
          continue;
        }
        Instruction* instruction = CreateInstruction(operation, scope);
        created.emplace_back(&operation, instruction);
        BuildNestedRegions(operation, instruction, scope);
      }
    }
    ResolveOperands(created, scope);
    Restructure(created, scope);
    if (terminator != nullptr) {
      SetReturnRoot(*terminator, terminator, scope);
    } else {
      scope.computation->set_root(created.empty() ? scope.computation->instructions().back().get()
                                                  : created.back().second);
    }
    if (owner != nullptr) {
      region_captures_[owner].push_back(scope.captured);
      for (Instruction* outer : scope.captured) {
        // A region cannot use what its own operation, or a later one, defines.
        if (Order(outer) < Order(owner)) owner->AppendOperand(outer);
      }
    }
    return scope.computation;
  }

  void BuildNestedRegions(const MlirOperation& operation, Instruction* instruction, Scope& scope) {
    for (size_t i = 0; i < operation.regions.size(); ++i) {
      std::string name = IsFunction(operation) ? operation.symbol : instruction->name() + ".region";
      if (operation.regions.size() > 1) name += "." + std::to_string(i);
      Computation* body = BuildRegion(operation.regions[i], name, &scope, instruction);
      if (body == nullptr) continue;
      std::string key = "calls";
      if (auto mapping = mappings_.find(instruction); mapping != mappings_.end()) {
        const HloMapping& hlo = mapping->second;
        key = i < hlo.region_keys.size() ? hlo.region_keys[i] : hlo.region_key;
      }
      instruction->AddCalledComputation(key, body);
    }
  }

  // Functions become computations; the entry is `main`, else the only or last function.
  void BuildModel(const std::vector<MlirOperation>& top) {
    std::unordered_map<std::string, Computation*> functions;
    Computation* entry = nullptr;
    const MlirOperation* entry_operation = nullptr;
    for (const MlirOperation& operation : top) {
      if (!IsFunction(operation)) {
        // A mesh only names the devices sharding annotations refer to.
        if (operation.name != "sdy.mesh") {
          Warn(operation,
               "'" + operation.name + "' at module level is not part of the model graph");
        }
        continue;
      }
      Computation* body = BuildFunction(operation);
      functions[operation.symbol] = body;
      if (entry_operation == nullptr || entry_operation->symbol != "main") {
        entry = body;
        entry_operation = &operation;
      }
    }
    for (auto& [call, callee] : pending_calls_) {
      auto found = functions.find(callee);
      if (found == functions.end()) {
        result_.warnings.push_back(options_.file + ": call to @" + callee +
                                   ", which the file does not define; kept opaque");
        MakeOpaque(call, callee);
      } else if (Reaches(found->second, call->parent())) {
        result_.warnings.push_back(options_.file + ": @" + callee +
                                   " is called recursively, which HLO cannot express; kept opaque");
        MakeOpaque(call, callee);
      } else {
        call->AddCalledComputation("to_apply", found->second);
      }
    }
    if (entry == nullptr) entry = EmptyComputation(result_.module->name());
    Add(entry, true);
  }

  // Whether `from` calls `target`, directly or through other computations.
  static bool Reaches(const Computation* from, const Computation* target) {
    std::vector<const Computation*> stack = {from};
    std::unordered_set<const Computation*> seen;
    while (!stack.empty()) {
      const Computation* computation = stack.back();
      stack.pop_back();
      if (computation == target) return true;
      if (!seen.insert(computation).second) continue;
      for (const auto& instruction : computation->instructions()) {
        for (const Computation* called : instruction->called_computations())
          stack.push_back(called);
      }
    }
    return false;
  }

  // A call that cannot be an HLO call stays the opaque func.call it was written as.
  void MakeOpaque(Instruction* call, const std::string& callee) {
    auto opaque = Instruction::CreateUnknown("func.call", call->shape(), call->operands(),
                                             call->name() + ".opaque");
    opaque->SetAttribute("callee", Quoted("@" + callee));
    const std::string name = call->name();
    Instruction* added = call->parent()->AddInstruction(std::move(opaque));
    call->parent()->ReplaceInstruction(call, added);
    added->set_name(name);
    --result_.mapped;
    ++result_.unmapped["func.call"];
  }

  Computation* BuildFunction(const MlirOperation& function) {
    const MlirRegion& region = function.regions[0];
    Scope scope;
    scope.computation = NewComputation(function.symbol);
    for (const MlirBlock& block : region.blocks) {
      for (size_t i = 0; i < block.arguments.size(); ++i) {
        AddParameter(scope, block.arguments[i],
                     i < block.argument_types.size() ? block.argument_types[i] : "");
      }
    }
    if (region.blocks.size() > 1)
      Warn(function, "@" + function.symbol + " has several blocks; they are read as one");
    std::vector<std::pair<const MlirOperation*, Instruction*>> created;
    const MlirOperation* terminator = nullptr;
    for (const MlirBlock& block : region.blocks) {
      for (const MlirOperation& operation : block.operations) {
        if (operation.name == "func.return" || operation.name == "stablehlo.return" ||
            operation.name == "mhlo.return") {
          terminator = &operation;
          continue;
        }
        Instruction* instruction = CreateInstruction(operation, scope);
        created.emplace_back(&operation, instruction);
        BuildNestedRegions(operation, instruction, scope);
      }
    }
    ResolveOperands(created, scope);
    Restructure(created, scope);
    SetReturnRoot(function, terminator, scope);
    return scope.computation;
  }

  void SetReturnRoot(const MlirOperation& function, const MlirOperation* terminator, Scope& scope) {
    std::vector<Instruction*> returned;
    if (terminator != nullptr) {
      for (const std::string& operand : terminator->operands) {
        if (Instruction* value = Lookup(scope, operand)) returned.push_back(value);
      }
    }
    if (returned.size() == 1) {
      scope.computation->set_root(returned.front());
      return;
    }
    if (returned.empty() && scope.computation->instruction_count() > 0 && terminator == nullptr) {
      Warn(function, "@" + function.symbol + " has no return; its last operation is its result");
      scope.computation->set_root(scope.last_operation != nullptr
                                      ? scope.last_operation
                                      : scope.computation->instructions().back().get());
      return;
    }
    std::vector<Shape> shapes;
    for (Instruction* value : returned) shapes.push_back(value->shape());
    Instruction* tuple = scope.computation->AddInstruction(Instruction::Create(
        Opcode::kTuple, Shape::Tuple(shapes), returned, result_.module->UniqueName("tuple")));
    scope.computation->set_root(tuple);
  }

  const MlirModuleOptions& options_;
  MlirModule result_;
  std::vector<std::pair<std::unique_ptr<Computation>, bool>> pending_add_;
  std::vector<std::pair<Instruction*, std::string>> pending_calls_;
  std::unordered_map<const Instruction*, HloMapping> mappings_;
  std::unordered_map<std::string, Computation*> expansions_;  // by chlo name and shape
  // A while of one loop-carried value that now carries captured values too: the element
  // that stands for its old result.
  std::unordered_map<const Instruction*, Instruction*> widened_;
  // Per operation with regions: the outer values each region uses, in the order of the
  // parameters they became (after the block arguments).
  std::unordered_map<const Instruction*, std::vector<std::vector<Instruction*>>> region_captures_;
  std::unordered_map<const Instruction*, int64_t> order_;
  std::unordered_map<const Instruction*, Shape> operand_reshapes_;
  std::unordered_set<const Instruction*> squares_;
  int64_t next_order_ = 0;
};

}  // namespace

namespace {

// Tuples nest no deeper than this; deeper text is not a type any program uses, and reading it
// recursively could exhaust the stack.
constexpr int kMaxTupleNesting = 32;

std::optional<Shape> ShapeOfType(std::string_view type, int depth) {
  type = TrimText(type);
  if (auto scalar = ElementType(type)) return Shape(*scalar, {});
  const size_t open = type.find('<');
  if (open == std::string_view::npos || type.back() != '>') return std::nullopt;
  const std::string_view kind = type.substr(0, open);
  if (kind == "tuple") {
    if (depth >= kMaxTupleNesting) return std::nullopt;
    std::vector<Shape> elements;
    for (std::string_view element : SplitTopLevel(type.substr(open + 1, type.size() - open - 2))) {
      auto shape = ShapeOfType(element, depth + 1);
      if (!shape) return std::nullopt;
      elements.push_back(*shape);
    }
    return Shape::Tuple(std::move(elements));
  }
  if (kind != "tensor" && kind != "memref" && kind != "vector") return std::nullopt;
  std::string_view inner = type.substr(open + 1, type.size() - open - 2);
  std::vector<std::string_view> parts = SplitTopLevel(inner);
  if (parts.empty()) return std::nullopt;
  inner = parts.front();
  std::vector<int64_t> dims;
  std::vector<bool> dynamic;
  while (!inner.empty()) {
    size_t end = 0;
    while (end < inner.size() && (std::isdigit(static_cast<unsigned char>(inner[end])) ||
                                  inner[end] == '?' || inner[end] == '[' || inner[end] == ']')) {
      ++end;
    }
    if (end == 0 || end >= inner.size() || inner[end] != 'x') break;
    std::string_view dim = inner.substr(0, end);
    if (dim.front() == '[' && dim.back() == ']') dim = dim.substr(1, dim.size() - 2);
    if (dim == "?") {
      dims.push_back(Shape::kUnboundedSize);
      dynamic.push_back(true);
    } else {
      int64_t value = 0;
      auto parsed = std::from_chars(dim.data(), dim.data() + dim.size(), value);
      if (parsed.ec != std::errc() || parsed.ptr != dim.data() + dim.size() || value < 0)
        return std::nullopt;
      dims.push_back(value);
      dynamic.push_back(false);
    }
    inner.remove_prefix(end + 1);
  }
  auto element = ElementType(inner);
  if (!element) return std::nullopt;
  // Our shapes hold at most 2^40 elements (as the HLO parser checks); a larger type stays
  // text.
  int64_t elements = 1;
  for (int64_t dim : dims) {
    if (dim > 0 && elements > (int64_t{1} << 40) / dim) return std::nullopt;
    elements *= std::max<int64_t>(dim, 1);
  }
  Shape shape(*element, dims);
  for (size_t i = 0; i < dynamic.size(); ++i) {
    if (dynamic[i]) shape.set_dynamic_dimension(static_cast<int64_t>(i), true);
  }
  return shape;
}

}  // namespace

std::optional<Shape> ShapeFromMlirType(std::string_view type) { return ShapeOfType(type, 0); }

MlirModule BuildModule(const MlirOperationTree& tree, const MlirModuleOptions& options) {
  return Builder(options).Run(tree);
}

}  // namespace fusescope::ir::mlir_import
