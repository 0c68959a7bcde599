#include "views/display_graph.h"

#include <algorithm>
#include <deque>
#include <functional>
#include <memory>
#include <utility>

namespace fusescope::views {

std::vector<std::string> ScopePath(std::string_view op_name) {
  std::vector<std::string> parts;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < op_name.size(); ++i) {
    char c = op_name[i];
    if (c == '(') ++depth;
    if (c == ')' && depth > 0) --depth;
    if (c == '/' && depth == 0) {
      if (i > start) parts.emplace_back(op_name.substr(start, i - start));
      start = i + 1;
    }
  }
  // The last part names the op itself, not a scope.
  return parts;
}

namespace {

constexpr size_t kMaxSubtitle = 48;

std::string Clip(std::string text) {
  if (text.size() > kMaxSubtitle) text = text.substr(0, kMaxSubtitle - 3) + "...";
  return text;
}

// A name-scope tree under construction. Items are display node ids (>= 0) or sub-scopes
// (encoded as -1 - index into the scope arena), in first-appearance order.
struct Scope {
  std::string name;
  std::string path;
  std::vector<int> items;
  std::unordered_map<std::string, int> sub;
};

int EncodeScope(int index) { return -1 - index; }
int DecodeScope(int item) { return -1 - item; }

}  // namespace

// Turns one computation into nodes, boxes and edges.
class DisplayGraphBuilder {
 public:
  DisplayGraphBuilder(const DisplayOptions& options, DisplayGraph& graph)
      : options_(options), graph_(graph) {}

  void Build(const ir::Computation& computation) {
    graph_.top_ = AddComputationNodes(computation, -1);
    if (options_.scope_boxes) graph_.top_ = GroupIntoScopes(graph_.top_);
    graph_.top_ = SplitLarge(graph_.top_, -1, "top");
    for (int id : graph_.top_) SetParent(id, -1);
    AddEdges();
    for (int id : graph_.top_) CountInstructions(id);
    graph_.Index();
  }

 private:
  bool Hidden(const ir::Instruction& instruction) const {
    switch (instruction.opcode()) {
      case ir::Opcode::kConstant:
        return options_.hide_constants;
      case ir::Opcode::kParameter:
        return options_.hide_parameters;
      case ir::Opcode::kTuple:
        return options_.hide_tuples;
      case ir::Opcode::kGetTupleElement:
        return options_.hide_get_tuple_elements;
      default:
        return false;
    }
  }
  bool IsFusionBox(const ir::Instruction& instruction) const {
    return options_.fusion_boxes && instruction.opcode() == ir::Opcode::kFusion &&
           instruction.fused_computation() != nullptr;
  }
  // An operation that only holds a body (an MLIR function, executable or nested module): no
  // operands, no users, one region. Its body is what a reader wants to see, so it is a box
  // the first picture may open, not an opaque node.
  static bool IsBodyBox(const ir::Instruction& instruction) {
    return instruction.opcode() == ir::Opcode::kUnknown &&
           instruction.called_computations().size() == 1 && instruction.operand_count() == 0 &&
           instruction.user_count() == 0 &&
           !instruction.called_computations().front()->instructions().empty();
  }
  DisplayNode& Node(int id) { return graph_.nodes_[static_cast<size_t>(id)]; }

  int NewNode(DisplayNode node) {
    node.id = static_cast<int>(graph_.nodes_.size());
    graph_.nodes_.push_back(std::move(node));
    return graph_.nodes_.back().id;
  }

  // Nodes for the instructions of `computation`, fusions as boxes with their bodies inside.
  std::vector<int> AddComputationNodes(const ir::Computation& computation, int parent) {
    std::vector<int> ids;
    for (const ir::Instruction* instruction : computation.MakePostOrder()) {
      if (Hidden(*instruction)) continue;
      DisplayNode node;
      node.instruction = instruction;
      node.parent = parent;
      node.title = instruction->name();
      int id;
      if (IsFusionBox(*instruction)) {
        node.kind = DisplayNodeKind::kFusion;
        node.key = "f" + std::to_string(instruction->id());
        id = NewNode(std::move(node));
        std::vector<int> body = AddComputationNodes(*instruction->fused_computation(), id);
        std::string key = Node(id).key;
        std::vector<int> children = SplitLarge(body, id, key);
        Node(id).children = std::move(children);
        for (int child : Node(id).children) SetParent(child, id);
        Node(id).subtitle = FusionSubtitle(*instruction);
      } else if (IsBodyBox(*instruction)) {
        node.kind = DisplayNodeKind::kScope;
        node.key = "r" + std::to_string(instruction->id());
        id = NewNode(std::move(node));
        std::vector<int> body =
            AddComputationNodes(*instruction->called_computations().front(), id);
        std::vector<int> children = SplitLarge(body, id, Node(id).key);
        Node(id).children = std::move(children);
        for (int child : Node(id).children) SetParent(child, id);
      } else {
        node.key = "i" + std::to_string(instruction->id());
        node.subtitle = Clip(std::string(instruction->opcode_name()) + " " +
                             instruction->shape().ToString(false));
        id = NewNode(std::move(node));
        ++graph_.instruction_nodes_;
      }
      graph_.by_instruction_[instruction] = id;
      ids.push_back(id);
    }
    return ids;
  }

  static std::string FusionSubtitle(const ir::Instruction& fusion) {
    int64_t ops = 0;
    for (const auto& inner : fusion.fused_computation()->instructions()) {
      if (inner->opcode() != ir::Opcode::kParameter) ++ops;
    }
    std::string kind = fusion.fusion_kind();
    std::string count = std::to_string(ops) + (ops == 1 ? " op" : " ops");
    return kind.empty() ? count : "k" + kind + ", " + count;
  }

  void SetParent(int id, int parent) { Node(id).parent = parent; }

  std::vector<int> GroupIntoScopes(const std::vector<int>& ids) {
    std::vector<Scope> arena(1);
    for (int id : ids) {
      std::string op_name = Node(id).instruction->metadata().String("op_name");
      int scope = 0;
      for (std::string& part : ScopePath(op_name)) {
        auto it = arena[static_cast<size_t>(scope)].sub.find(part);
        if (it == arena[static_cast<size_t>(scope)].sub.end()) {
          Scope child;
          child.name = part;
          child.path = arena[static_cast<size_t>(scope)].path.empty()
                           ? part
                           : arena[static_cast<size_t>(scope)].path + "/" + part;
          arena.push_back(std::move(child));
          int index = static_cast<int>(arena.size()) - 1;
          arena[static_cast<size_t>(scope)].sub.emplace(part, index);
          arena[static_cast<size_t>(scope)].items.push_back(EncodeScope(index));
          scope = index;
        } else {
          scope = it->second;
        }
      }
      arena[static_cast<size_t>(scope)].items.push_back(id);
    }
    return EmitScopeItems(arena, 0);
  }

  // The display ids standing for a scope's items; a scope holding a single item dissolves
  // into it, and a scope holding only one sub-scope merges with it ("a/b").
  std::vector<int> EmitScopeItems(std::vector<Scope>& arena, int scope) {
    std::vector<int> out;
    for (int item : arena[static_cast<size_t>(scope)].items) {
      if (item >= 0) {
        out.push_back(item);
        continue;
      }
      int sub = DecodeScope(item);
      std::string name = arena[static_cast<size_t>(sub)].name;
      while (arena[static_cast<size_t>(sub)].items.size() == 1 &&
             arena[static_cast<size_t>(sub)].items[0] < 0) {
        sub = DecodeScope(arena[static_cast<size_t>(sub)].items[0]);
        name += "/" + arena[static_cast<size_t>(sub)].name;
      }
      std::vector<int> inner = EmitScopeItems(arena, sub);
      if (inner.size() == 1) {
        out.push_back(inner[0]);
        continue;
      }
      DisplayNode box;
      box.kind = DisplayNodeKind::kScope;
      box.key = "s:" + arena[static_cast<size_t>(sub)].path;
      box.title = name;
      std::string key = box.key;
      int id = NewNode(std::move(box));
      std::vector<int> children = SplitLarge(inner, id, key);
      Node(id).children = std::move(children);
      for (int child : Node(id).children) SetParent(child, id);
      out.push_back(id);
    }
    return out;
  }

  // Cuts a too long list of siblings into group boxes of consecutive nodes, as many levels
  // as needed.
  std::vector<int> SplitLarge(std::vector<int> ids, int parent, const std::string& parent_key) {
    size_t limit = static_cast<size_t>(std::max(options_.max_children, 2));
    int level = 0;
    while (ids.size() > limit) {
      std::vector<int> groups;
      for (size_t start = 0; start < ids.size(); start += limit) {
        size_t end = std::min(ids.size(), start + limit);
        DisplayNode box;
        box.kind = DisplayNodeKind::kGroup;
        box.key =
            "g:" + parent_key + ":" + std::to_string(level) + ":" + std::to_string(groups.size());
        box.title = Node(ids[start]).title + " .. " + Node(ids[end - 1]).title;
        box.parent = parent;
        box.children.assign(ids.begin() + static_cast<std::ptrdiff_t>(start),
                            ids.begin() + static_cast<std::ptrdiff_t>(end));
        int id = NewNode(std::move(box));
        for (int child : Node(id).children) SetParent(child, id);
        groups.push_back(id);
      }
      ids = std::move(groups);
      ++level;
    }
    return ids;
  }

  int64_t CountInstructions(int id) {
    DisplayNode& node = Node(id);
    if (!node.is_box()) return 1;
    int64_t count = 0;
    std::vector<int> children = node.children;
    for (int child : children) count += CountInstructions(child);
    DisplayNode& box = Node(id);
    box.instruction_count = count;
    if (box.kind == DisplayNodeKind::kFusion) return 1;
    box.subtitle = std::to_string(count) + (count == 1 ? " op" : " ops");
    if (box.instruction != nullptr)  // a body box: "func.func, 12 ops"
      box.subtitle = std::string(box.instruction->opcode_name()) + ", " + box.subtitle;
    return count;
  }

  // The instruction nodes that carry the value of `instruction` once hidden nodes are
  // looked through.
  const std::vector<int>& Sources(const ir::Instruction* instruction) {
    auto cached = sources_.find(instruction);
    if (cached != sources_.end()) return cached->second;
    std::vector<int> result = ComputeSources(instruction);
    return sources_.emplace(instruction, std::move(result)).first->second;
  }

  std::vector<int> ComputeSources(const ir::Instruction* instruction) {
    if (IsFusionBox(*instruction)) {
      return Sources(instruction->fused_computation()->root());
    }
    auto node = graph_.by_instruction_.find(instruction);
    if (node != graph_.by_instruction_.end()) return {node->second};
    switch (instruction->opcode()) {
      case ir::Opcode::kGetTupleElement:
        return ElementSources(instruction->operand(0), instruction->tuple_index().value_or(-1));
      case ir::Opcode::kTuple: {
        std::vector<int> all;
        for (const ir::Instruction* operand : instruction->operands()) {
          const std::vector<int>& some = Sources(operand);
          all.insert(all.end(), some.begin(), some.end());
        }
        return all;
      }
      case ir::Opcode::kParameter: {
        const ir::Instruction* fusion = instruction->parent()->fusion_instruction();
        if (fusion == nullptr || !IsFusionBox(*fusion) ||
            instruction->parameter_number() >= fusion->operand_count()) {
          return {};
        }
        return Sources(fusion->operand(instruction->parameter_number()));
      }
      default:
        return {};
    }
  }

  std::vector<int> ElementSources(const ir::Instruction* tuple, int64_t index) {
    if (graph_.by_instruction_.count(tuple) && !IsFusionBox(*tuple)) return Sources(tuple);
    if (IsFusionBox(*tuple)) return ElementSources(tuple->fused_computation()->root(), index);
    if (tuple->opcode() == ir::Opcode::kTuple && index >= 0 && index < tuple->operand_count()) {
      return Sources(tuple->operand(index));
    }
    return Sources(tuple);
  }

  void AddEdges() {
    size_t count = graph_.nodes_.size();
    for (size_t id = 0; id < count; ++id) {
      const DisplayNode& node = graph_.nodes_[id];
      if (node.is_box()) continue;
      const ir::Instruction* consumer = node.instruction;
      std::vector<int> seen;
      for (const ir::Instruction* operand : consumer->operands()) {
        AddEdgesFrom(operand, consumer, static_cast<int>(id), seen);
      }
      const ir::Instruction* fusion = consumer->parent()->fusion_instruction();
      if (consumer->opcode() == ir::Opcode::kParameter && fusion != nullptr &&
          IsFusionBox(*fusion) && consumer->parameter_number() < fusion->operand_count()) {
        AddEdgesFrom(fusion->operand(consumer->parameter_number()), fusion, static_cast<int>(id),
                     seen);
      }
    }
  }

  void AddEdgesFrom(const ir::Instruction* value, const ir::Instruction* user, int to,
                    std::vector<int>& seen) {
    // A shown get-tuple-element of a hidden tuple reads one element, not the whole tuple.
    std::vector<int> sources = user->opcode() == ir::Opcode::kGetTupleElement
                                   ? ElementSources(value, user->tuple_index().value_or(-1))
                                   : Sources(value);
    for (int from : sources) {
      if (from == to || std::find(seen.begin(), seen.end(), from) != seen.end()) continue;
      seen.push_back(from);
      DisplayEdge edge;
      edge.from = from;
      edge.to = to;
      edge.value = value;
      edge.user = user;
      if (options_.edge_labels) edge.label = Clip(value->shape().ToString(false));
      graph_.edges_.push_back(std::move(edge));
    }
  }

  const DisplayOptions& options_;
  DisplayGraph& graph_;
  std::unordered_map<const ir::Instruction*, std::vector<int>> sources_;
};

DisplayGraph DisplayGraph::Build(const ir::Module& module, const DisplayOptions& options,
                                 const ir::Computation* computation) {
  DisplayGraph graph;
  if (computation == nullptr) computation = module.entry();
  if (computation == nullptr) return graph;
  DisplayGraphBuilder(options, graph).Build(*computation);
  return graph;
}

void DisplayGraph::Index() {
  by_key_.clear();
  for (const DisplayNode& node : nodes_) by_key_.emplace(node.key, node.id);
}

int DisplayGraph::FindKey(std::string_view key) const {
  auto it = by_key_.find(std::string(key));
  return it == by_key_.end() ? -1 : it->second;
}

int DisplayGraph::FindInstruction(const ir::Instruction* instruction) const {
  auto it = by_instruction_.find(instruction);
  return it == by_instruction_.end() ? -1 : it->second;
}

void DisplayGraph::SetExpanded(int id, bool expanded) {
  DisplayNode& node = nodes_[static_cast<size_t>(id)];
  if (node.is_box()) node.expanded = expanded;
}

void DisplayGraph::CollapseAll() {
  for (DisplayNode& node : nodes_) node.expanded = false;
}

void DisplayGraph::ExpandAll() {
  for (DisplayNode& node : nodes_) node.expanded = node.is_box();
}

std::unordered_set<std::string> DisplayGraph::ExpandedKeys() const {
  std::unordered_set<std::string> keys;
  for (const DisplayNode& node : nodes_) {
    if (node.expanded) keys.insert(node.key);
  }
  return keys;
}

void DisplayGraph::ApplyExpandedKeys(const std::unordered_set<std::string>& keys) {
  for (DisplayNode& node : nodes_) node.expanded = node.is_box() && keys.count(node.key) > 0;
}

void DisplayGraph::ExpandToBudget(int budget) {
  CollapseAll();
  int64_t visible = static_cast<int64_t>(top_.size());
  std::deque<int> queue(top_.begin(), top_.end());
  while (!queue.empty()) {
    DisplayNode& node = nodes_[static_cast<size_t>(queue.front())];
    queue.pop_front();
    if (!node.is_box() || node.kind == DisplayNodeKind::kFusion) continue;
    int64_t grown = visible - 1 + static_cast<int64_t>(node.children.size());
    if (grown > budget) continue;
    node.expanded = true;
    visible = grown;
    queue.insert(queue.end(), node.children.begin(), node.children.end());
  }
}

bool DisplayGraph::IsVisible(int id) const {
  for (int p = nodes_[static_cast<size_t>(id)].parent; p >= 0;
       p = nodes_[static_cast<size_t>(p)].parent) {
    if (!nodes_[static_cast<size_t>(p)].expanded) return false;
  }
  return true;
}

int DisplayGraph::Representative(int id) const {
  int representative = id;
  for (int p = nodes_[static_cast<size_t>(id)].parent; p >= 0;
       p = nodes_[static_cast<size_t>(p)].parent) {
    if (!nodes_[static_cast<size_t>(p)].expanded) representative = p;
  }
  return representative;
}

std::vector<int> DisplayGraph::VisibleNodes() const {
  std::vector<int> visible;
  std::vector<int> stack(top_.rbegin(), top_.rend());
  while (!stack.empty()) {
    int id = stack.back();
    stack.pop_back();
    visible.push_back(id);
    const DisplayNode& node = nodes_[static_cast<size_t>(id)];
    if (node.expanded) stack.insert(stack.end(), node.children.rbegin(), node.children.rend());
  }
  return visible;
}

int64_t DisplayGraph::VisibleNodeCount() const {
  return static_cast<int64_t>(VisibleNodes().size());
}

void DisplayGraph::AttachDiff(const ir::GraphDiff& diff, bool left_side) {
  for (DisplayNode& node : nodes_) {
    if (node.instruction == nullptr) continue;
    const ir::InstructionDiff* entry =
        left_side ? diff.ForLeft(node.instruction) : diff.ForRight(node.instruction);
    node.diff = left_side ? diff.LeftStatus(node.instruction) : diff.RightStatus(node.instruction);
    node.diff_changes = entry != nullptr ? entry->changes : 0;
  }
  for (int id : top_) SummariseBoxDiff(id);
}

// A scope or group box takes its children's status when they all agree, else "changed" if
// anything inside differs.
void DisplayGraph::SummariseBoxDiff(int id) {
  DisplayNode& node = nodes_[static_cast<size_t>(id)];
  if (!node.is_box()) return;
  std::vector<int> children = node.children;
  for (int child : children) SummariseBoxDiff(child);
  DisplayNode& box = nodes_[static_cast<size_t>(id)];
  if (box.kind == DisplayNodeKind::kFusion || children.empty()) return;
  ir::DiffStatus first = nodes_[static_cast<size_t>(children[0])].diff;
  bool same = true;
  bool any = false;
  for (int child : children) {
    ir::DiffStatus status = nodes_[static_cast<size_t>(child)].diff;
    same = same && status == first;
    any = any || status != ir::DiffStatus::kUnchanged;
  }
  box.diff = same ? first : (any ? ir::DiffStatus::kChanged : ir::DiffStatus::kUnchanged);
}

int DisplayGraph::AnnotateEdge(int64_t producer_id, int64_t consumer_id, const std::string& text,
                               bool refused) {
  int annotated = 0;
  for (DisplayEdge& edge : edges_) {
    const ir::Instruction* source = nodes_[static_cast<size_t>(edge.from)].instruction;
    bool producer = edge.value->id() == producer_id || source->id() == producer_id;
    // With fused parameters hidden, an edge into a fusion ends at the body instruction that
    // reads the parameter.
    const ir::Instruction* fusion = edge.user->parent()->fusion_instruction();
    bool enters_fusion =
        fusion != nullptr && fusion->id() == consumer_id && source->parent() != edge.user->parent();
    if (!producer || (edge.user->id() != consumer_id && !enters_fusion)) continue;
    // A pair considered twice in one pass says so once.
    if (edge.note.find(text) == std::string::npos) {
      edge.note = edge.note.empty() ? text : edge.note + "; " + text;
    }
    edge.refused = edge.refused || refused;
    ++annotated;
  }
  return annotated;
}

int DisplayGraph::AddNode(DisplayNode node) {
  node.id = static_cast<int>(nodes_.size());
  if (node.parent < 0) {
    top_.push_back(node.id);
  } else {
    nodes_[static_cast<size_t>(node.parent)].children.push_back(node.id);
  }
  by_key_.emplace(node.key, node.id);
  if (node.instruction != nullptr) by_instruction_.emplace(node.instruction, node.id);
  if (!node.is_box()) ++instruction_nodes_;
  nodes_.push_back(std::move(node));
  return nodes_.back().id;
}

void DisplayGraph::AddEdge(DisplayEdge edge) { edges_.push_back(std::move(edge)); }

}  // namespace fusescope::views
