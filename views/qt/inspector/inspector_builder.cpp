#include "views/qt/inspector/inspector_builder.h"

#include "ir/computation.h"

namespace fusescope::views {
namespace {

InspectorRow Row(std::string key, std::string value) {
  InspectorRow row;
  row.key = std::move(key);
  row.value = std::move(value);
  return row;
}

std::string JoinInts(const std::vector<int64_t>& values) {
  std::string text;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) text += ',';
    text += std::to_string(values[i]);
  }
  return text;
}

std::string FormatBytes(int64_t bytes) {
  if (bytes < 1024) return std::to_string(bytes) + " B";
  if (bytes < 1024 * 1024) return std::to_string(bytes / 1024) + " KiB";
  return std::to_string(bytes / (1024 * 1024)) + " MiB";
}

std::string PassLabel(const recording::Recording& recording, int64_t pass) {
  if (pass < 0 || pass >= static_cast<int64_t>(recording.passes.size())) return "input";
  return "pass " + std::to_string(pass) + " " + recording.passes[static_cast<size_t>(pass)].name;
}

void AddCapped(InspectorSection& section, InspectorRow row) {
  if (section.rows.size() < InspectorBuilder::kMaxListRows) {
    section.rows.push_back(std::move(row));
  } else if (section.rows.size() == InspectorBuilder::kMaxListRows) {
    section.rows.push_back(Row("…", "more not shown"));
  }
}

}  // namespace

InspectorBuilder::InspectorBuilder(const PassView& view, GraphSide side, int64_t instruction_id)
    : view_(view), side_(side), instruction_(view.Find(side, instruction_id)) {}

std::string InspectorBuilder::SideLabel() const {
  const recording::PassRecord* pass = view_.pass();
  if (!pass) return "input module";
  return std::string(side_ == GraphSide::kBefore ? "before " : "after ") + "pass " +
         std::to_string(pass->index) + " " + pass->name;
}

InspectorContent InspectorBuilder::Build() const {
  InspectorContent content;
  if (!instruction_) return content;
  content.heading = instruction_->name();
  content.subheading = std::string(instruction_->opcode_name()) + " " +
                       instruction_->shape().ToString() + " — " + SideLabel();
  content.status = view_.Status(side_, instruction_->id());
  for (InspectorSection section :
       {Identity(), ShapeSection(), Neighbours(true), Neighbours(false), Attributes(), Metadata(),
        Provenance(), History(), Counterparts(), Decisions()}) {
    if (!section.rows.empty()) content.sections.push_back(std::move(section));
  }
  return content;
}

InspectorSection InspectorBuilder::Identity() const {
  InspectorSection section{"Instruction", {}};
  section.rows.push_back(Row("name", instruction_->name()));
  section.rows.push_back(Row("opcode", std::string(instruction_->opcode_name())));
  section.rows.push_back(Row("id", std::to_string(instruction_->id())));
  if (instruction_->parent())
    section.rows.push_back(Row("computation", instruction_->parent()->name()));
  if (!instruction_->fusion_kind().empty()) {
    const ir::Computation* body = instruction_->fused_computation();
    section.rows.push_back(Row("fusion kind", "k" + instruction_->fusion_kind()));
    if (body) {
      section.rows.push_back(Row("fused instructions", std::to_string(body->instruction_count())));
    }
  }
  const ir::DiffStatus status = view_.Status(side_, instruction_->id());
  std::string diff(ir::DiffStatusName(status));
  if (const ir::GraphDiff* graph_diff = view_.diff()) {
    const ir::InstructionDiff* entry = side_ == GraphSide::kBefore
                                           ? graph_diff->ForLeft(instruction_)
                                           : graph_diff->ForRight(instruction_);
    if (entry && entry->changes != 0) diff += ": " + ir::DescribeChanges(entry->changes);
  }
  section.rows.push_back(Row("in this pass", diff));
  return section;
}

InspectorSection InspectorBuilder::ShapeSection() const {
  InspectorSection section{"Shape", {}};
  const ir::Shape& shape = instruction_->shape();
  section.rows.push_back(Row("shape", shape.ToString(false)));
  if (shape.IsArray()) {
    section.rows.push_back(
        Row("element type", std::string(ir::PrimitiveTypeName(shape.element_type()))));
    section.rows.push_back(Row("dimensions", "[" + JoinInts(shape.dimensions()) + "]"));
    section.rows.push_back(Row("elements", std::to_string(shape.ElementCount())));
  } else if (shape.IsTuple()) {
    section.rows.push_back(Row("tuple elements", std::to_string(shape.tuple_shapes().size())));
  }
  if (shape.layout()) section.rows.push_back(Row("layout", shape.layout()->ToString()));
  section.rows.push_back(Row("size", FormatBytes(shape.ByteSize())));
  return section;
}

InspectorSection InspectorBuilder::Neighbours(bool operands) const {
  InspectorSection section{operands ? "Operands" : "Users", {}};
  const auto& list = operands ? instruction_->operands() : instruction_->users();
  for (size_t i = 0; i < list.size(); ++i) {
    const ir::Instruction* other = list[i];
    InspectorRow row = Row(operands ? std::to_string(i) : std::string(other->opcode_name()),
                           other->name() + "  " + other->shape().ToString(false));
    row.link_id = other->id();
    row.link_side = side_;
    AddCapped(section, std::move(row));
  }
  return section;
}

InspectorSection InspectorBuilder::Attributes() const {
  InspectorSection section{"Attributes", {}};
  if (instruction_->opcode() == ir::Opcode::kParameter) {
    section.rows.push_back(Row("parameter", std::to_string(instruction_->parameter_number())));
  }
  if (!instruction_->literal().empty())
    section.rows.push_back(Row("literal", instruction_->literal()));
  const auto& keys = instruction_->called_computation_keys();
  const auto& called = instruction_->called_computations();
  for (const ir::Attribute& attribute : instruction_->attributes()) {
    if (!attribute.names_computations) {
      section.rows.push_back(Row(attribute.key, attribute.value));
      continue;
    }
    std::string names;
    for (size_t i = 0; i < called.size() && i < keys.size(); ++i) {
      if (keys[i] != attribute.key) continue;
      if (!names.empty()) names += ", ";
      names += called[i]->name();
    }
    section.rows.push_back(Row(attribute.key, names));
  }
  return section;
}

InspectorSection InspectorBuilder::Metadata() const {
  InspectorSection section{"Metadata and source", {}};
  for (const auto& [key, value] : instruction_->metadata().fields) {
    std::string shown = value;
    if (shown.size() >= 2 && shown.front() == '"' && shown.back() == '"') {
      shown = instruction_->metadata().String(key);
    }
    section.rows.push_back(Row(key, shown));
  }
  const ir::Module* module = view_.module(side_);
  if (module) {
    if (auto source = module->ResolveSource(instruction_->metadata())) {
      std::string where = source->file + ":" + std::to_string(source->line);
      if (source->column > 0) where += ":" + std::to_string(source->column);
      if (!source->function.empty()) where += " in " + source->function;
      section.rows.push_back(Row("source", where));
    }
  }
  return section;
}

InspectorSection InspectorBuilder::Provenance() const {
  InspectorSection section{"Provenance", {}};
  const auto& ids = instruction_->provenance().ids();
  const recording::Snapshot& input = view_.recording().input();
  section.rows.push_back(Row("originals", std::to_string(ids.size()) + " instruction" +
                                              (ids.size() == 1 ? "" : "s") + " of the input"));
  for (int64_t id : ids) {
    const recording::InstructionRecord* original = input.FindInstruction(id);
    InspectorRow row = original ? Row(original->opcode, original->name)
                                : Row("id " + std::to_string(id), "not in the input");
    if (original && view_.Find(GraphSide::kBefore, id)) {
      row.link_id = id;
      row.link_side = GraphSide::kBefore;
    }
    AddCapped(section, std::move(row));
  }
  return section;
}

InspectorSection InspectorBuilder::History() const {
  InspectorSection section{"History across passes", {}};
  const recording::Recording& recording = view_.recording();
  const int64_t id = instruction_->id();
  const recording::InstructionRecord* previous = recording.input().FindInstruction(id);
  if (previous) section.rows.push_back(Row("input", "present as " + previous->name));
  for (size_t k = 1; k < recording.snapshots.size(); ++k) {
    const recording::InstructionRecord* current = recording.snapshots[k].FindInstruction(id);
    if (current == previous) continue;
    std::string what = !previous ? "created as " + current->name : !current ? "removed" : "changed";
    const int64_t pass = static_cast<int64_t>(k) - 1;
    if (pass == view_.pass_index()) what += "  ◀ this pass";
    AddCapped(section, Row(PassLabel(recording, pass), what));
    previous = current;
  }
  return section;
}

InspectorSection InspectorBuilder::Counterparts() const {
  const bool before = side_ == GraphSide::kBefore;
  InspectorSection section{before ? "After this pass" : "Before this pass", {}};
  const GraphSide other = before ? GraphSide::kAfter : GraphSide::kBefore;
  for (int64_t id : view_.Counterparts(side_, instruction_->id())) {
    const ir::Instruction* counterpart = view_.Find(other, id);
    if (!counterpart) continue;
    InspectorRow row = Row(std::string(ir::DiffStatusName(view_.Status(other, id))),
                           counterpart->name() + "  " + std::string(counterpart->opcode_name()));
    row.link_id = id;
    row.link_side = other;
    AddCapped(section, std::move(row));
  }
  return section;
}

InspectorSection InspectorBuilder::Decisions() const {
  InspectorSection section{"Fusion decisions", {}};
  const auto& decisions = view_.recording().decisions;
  const ir::ProvenanceSet& provenance = instruction_->provenance();
  const int64_t id = instruction_->id();
  for (size_t i = 0; i < decisions.size(); ++i) {
    const passes::FusionDecisionRecord& decision = decisions[i];
    const bool involved = decision.producer_id == id || decision.consumer_id == id ||
                          decision.fusion_name == instruction_->name() ||
                          provenance.Contains(decision.producer_id) ||
                          provenance.Contains(decision.consumer_id);
    if (!involved) continue;
    InspectorRow row =
        Row(PassLabel(view_.recording(), decision.pass_index),
            decision.producer_name + " → " + decision.consumer_name + ": " +
                (decision.accepted() ? "accepted" : "refused") + ", " + decision.explanation);
    row.decision_index = static_cast<int64_t>(i);
    row.refused = !decision.accepted();
    AddCapped(section, std::move(row));
  }
  return section;
}

}  // namespace fusescope::views
