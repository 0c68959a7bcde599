#include "views/pass_diff.h"

#include <fstream>
#include <unordered_set>

#include "ir/json_writer.h"
#include "views/diff_layout.h"

namespace fusescope::views {

namespace {

constexpr size_t kMaxRefusedLines = 50;

std::string PassTitle(const recording::Recording& recording, int64_t pass) {
  return "#" + std::to_string(pass) + " " + recording.passes[static_cast<size_t>(pass)].name;
}

void AnnotateRefusals(const recording::Recording& recording, int64_t pass, DisplayGraph& graph) {
  for (const passes::FusionDecisionRecord* decision : recording.DecisionsOf(pass)) {
    if (decision->accepted()) continue;
    std::string text = "not fused: " + decision->explanation;
    graph.AnnotateEdge(decision->producer_id, decision->consumer_id, text, true);
  }
}

DisplayGraph SideGraph(const ir::Module& module, const ir::GraphDiff& diff, bool left,
                       const DiffViewOptions& options) {
  DisplayGraph graph = DisplayGraph::Build(module, options.display);
  graph.AttachDiff(diff, left);
  return graph;
}

// Both sides show the same boxes open: those the budget opens on either side.
void Expand(DisplayGraph& left, DisplayGraph& right, const DiffViewOptions& options) {
  if (options.budget <= 0) {
    left.ExpandAll();
    right.ExpandAll();
    return;
  }
  std::unordered_set<std::string> keys;
  for (DisplayGraph* graph : {&left, &right}) {
    graph->ExpandToBudget(options.budget);
    for (const DisplayNode& node : graph->nodes()) {
      if (node.expanded || (options.expand_fusions && node.kind == DisplayNodeKind::kFusion)) {
        keys.insert(node.key);
      }
    }
  }
  left.ApplyExpandedKeys(keys);
  right.ApplyExpandedKeys(keys);
}

}  // namespace

StatusOr<PassDiff> PassDiff::Compute(const recording::Recording& recording, int64_t pass) {
  const recording::Snapshot* before = recording.SnapshotBefore(pass);
  const recording::Snapshot* after = recording.SnapshotAfter(pass);
  if (pass < 0 || pass >= static_cast<int64_t>(recording.passes.size()) || before == nullptr ||
      after == nullptr) {
    return Status::Error("pass " + std::to_string(pass) + " is out of range (the recording has " +
                         std::to_string(recording.passes.size()) + " passes)");
  }
  StatusOr<std::unique_ptr<ir::Module>> left = before->ToModule();
  if (!left.ok()) return left.status();
  StatusOr<std::unique_ptr<ir::Module>> right = after->ToModule();
  if (!right.ok()) return right.status();
  PassDiff result;
  result.pass_ = pass;
  result.before_ = std::move(left).value();
  result.after_ = std::move(right).value();
  result.diff_ =
      std::make_unique<ir::GraphDiff>(ir::GraphDiff::Compute(*result.before_, *result.after_));
  return result;
}

StatusOr<std::string> PassDiff::RenderSvg(const recording::Recording& recording,
                                          const DiffViewOptions& options) const {
  DisplayGraph left = SideGraph(*before_, *diff_, true, options);
  DisplayGraph right = SideGraph(*after_, *diff_, false, options);
  if (options.decisions_on_edges) {
    AnnotateRefusals(recording, pass_, left);
    AnnotateRefusals(recording, pass_, right);
  }
  Expand(left, right, options);
  StatusOr<DiffLayout> layout = LayoutDiff(left, right, *diff_, options.layout);
  if (!layout.ok()) return layout.status();
  SvgOptions svg = options.svg;
  if (svg.left_title == SvgOptions().left_title) {
    svg.left_title = "before " + PassTitle(recording, pass_);
  }
  if (svg.right_title == SvgOptions().right_title) {
    svg.right_title = "after " + PassTitle(recording, pass_);
  }
  return SvgWriter(svg).RenderSideBySide(left, layout->left, right, layout->right);
}

std::string PassDiff::Text(const recording::Recording& recording, int max_lines) const {
  const recording::PassRecord& record = recording.passes[static_cast<size_t>(pass_)];
  std::string text = "pass " + PassTitle(recording, pass_) + ": " +
                     (record.changed ? "changed" : "unchanged") + ", " +
                     std::to_string(before_->instruction_count()) + " -> " +
                     std::to_string(after_->instruction_count()) + " instructions\n";
  text += diff_->ToText(max_lines);
  if (record.changed && !diff_->counts().any_difference()) {
    text += "no instruction differs: the pass changed instruction order or module attributes\n";
  }
  std::vector<const passes::FusionDecisionRecord*> decisions = recording.DecisionsOf(pass_);
  if (decisions.empty()) return text;
  size_t refused = 0;
  for (const auto* decision : decisions) refused += decision->accepted() ? 0 : 1;
  text += "fusion decisions: " + std::to_string(decisions.size() - refused) + " accepted, " +
          std::to_string(refused) + " refused\n";
  size_t listed = 0;
  for (const auto* decision : decisions) {
    if (decision->accepted() || listed++ == kMaxRefusedLines) continue;
    text += "  refused %" + decision->producer_name + " -> %" + decision->consumer_name + " [" +
            std::string(passes::FusionReasonCode(decision->reason)) +
            "]: " + decision->explanation + "\n";
  }
  if (refused > kMaxRefusedLines) {
    text += "  ... and " + std::to_string(refused - kMaxRefusedLines) + " more refused\n";
  }
  return text;
}

std::string PassDiff::Json(const recording::Recording& recording) const {
  const recording::PassRecord& record = recording.passes[static_cast<size_t>(pass_)];
  const ir::DiffCounts& c = diff_->counts();
  JsonWriter json;
  json.BeginObject();
  json.Key("pass").Int(pass_).Key("name").String(record.name).Key("changed").Bool(record.changed);
  json.Key("instructions_before").Int(before_->instruction_count());
  json.Key("instructions_after").Int(after_->instruction_count());
  json.Key("counts").BeginObject();
  json.Key("unchanged").Int(c.unchanged).Key("changed").Int(c.changed);
  json.Key("added").Int(c.added).Key("removed").Int(c.removed);
  json.Key("fused").Int(c.fused).Key("replaced").Int(c.replaced);
  json.EndObject();
  json.Key("statements").BeginArray();
  for (const std::string& statement : diff_->Statements()) json.String(statement);
  json.EndArray();
  json.Key("entries").BeginArray();
  for (const ir::InstructionDiff& entry : diff_->entries()) {
    if (entry.status == ir::DiffStatus::kUnchanged) continue;
    json.BeginObject().Key("status").String(ir::DiffStatusName(entry.status));
    if (entry.left != nullptr) json.Key("before").String(entry.left->name());
    if (entry.right != nullptr) json.Key("after").String(entry.right->name());
    if (entry.target != nullptr) json.Key("target").String(entry.target->name());
    if (entry.changes != 0) json.Key("changes").String(ir::DescribeChanges(entry.changes));
    json.EndObject();
  }
  json.EndArray();
  json.EndObject();
  return json.str() + "\n";
}

Status WriteDiffText(const recording::Recording& recording, int64_t pass, std::ostream& out) {
  StatusOr<PassDiff> diff = PassDiff::Compute(recording, pass);
  if (!diff.ok()) return diff.status();
  out << diff->Text(recording);
  return Status::Ok();
}

Status WriteDiffJson(const recording::Recording& recording, int64_t pass, std::ostream& out) {
  StatusOr<PassDiff> diff = PassDiff::Compute(recording, pass);
  if (!diff.ok()) return diff.status();
  out << diff->Json(recording);
  return Status::Ok();
}

Status WriteDiffSvg(const recording::Recording& recording, int64_t pass, const std::string& path,
                    const DiffViewOptions& options) {
  StatusOr<PassDiff> diff = PassDiff::Compute(recording, pass);
  if (!diff.ok()) return diff.status();
  StatusOr<std::string> svg = diff->RenderSvg(recording, options);
  if (!svg.ok()) return svg.status();
  std::ofstream file(path, std::ios::binary);
  file << *svg;
  file.close();
  if (!file) return Status::Error(path + ": cannot write file");
  return Status::Ok();
}

}  // namespace fusescope::views
