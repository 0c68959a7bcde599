#include "importers/xla_fusion_process_dump.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <map>

#include "passes/fusion_decision.h"

namespace fusescope::ir {
namespace {

// A text-format protobuf message read without its schema: fields by name, in order.
struct TextNode {
  std::string name;
  std::string value;  // scalars: the string's contents or the number as written
  bool message = false;
  std::vector<TextNode> fields;
  int64_t line = 0;
};

class TextProtoReader {
 public:
  TextProtoReader(std::string_view text, const std::string& path) : text_(text), path_(path) {}

  StatusOr<std::vector<TextNode>> ReadAll() {
    std::vector<TextNode> fields;
    FS_RETURN_IF_ERROR(ReadFields(fields, '\0', 0));
    return fields;
  }

 private:
  Status Error(const std::string& cause) const {
    return Status::Error(path_ + ":" + std::to_string(line_) + ":" + std::to_string(column_) +
                         ": " + cause);
  }

  void Skip() {
    while (at_ < text_.size()) {
      const char c = text_[at_];
      if (c == '#') {
        while (at_ < text_.size() && text_[at_] != '\n') Step();
      } else if (std::isspace(static_cast<unsigned char>(c)) || c == ',' || c == ';') {
        Step();
      } else {
        break;
      }
    }
  }

  void Step() {
    if (text_[at_] == '\n') {
      ++line_;
      column_ = 1;
    } else {
      ++column_;
    }
    ++at_;
  }

  Status ReadString(std::string& out) {
    const char quote = text_[at_];
    Step();
    while (at_ < text_.size() && text_[at_] != quote) {
      char c = text_[at_];
      if (c == '\n') return Error("line break inside a string");
      if (c == '\\' && at_ + 1 < text_.size()) {
        Step();
        c = text_[at_];
        if (c >= '0' && c <= '7') {
          int value = 0;
          for (int i = 0; i < 3 && at_ < text_.size() && text_[at_] >= '0' && text_[at_] <= '7';
               ++i) {
            value = value * 8 + (text_[at_] - '0');
            Step();
          }
          out += static_cast<char>(value);
          continue;
        }
        out += c == 'n' ? '\n' : c == 't' ? '\t' : c == 'r' ? '\r' : c;
        Step();
        continue;
      }
      out += c;
      Step();
    }
    if (at_ >= text_.size()) return Error("the file ends inside a string");
    Step();
    return Status::Ok();
  }

  Status ReadFields(std::vector<TextNode>& fields, char close, int depth) {
    if (depth > 64) return Error("messages nested too deep");
    for (;;) {
      Skip();
      if (at_ >= text_.size()) {
        if (close != '\0') return Error(std::string("the file ends before '") + close + "'");
        return Status::Ok();
      }
      if (text_[at_] == close) {
        Step();
        return Status::Ok();
      }
      TextNode node;
      node.line = line_;
      while (at_ < text_.size() &&
             (std::isalnum(static_cast<unsigned char>(text_[at_])) || text_[at_] == '_' ||
              text_[at_] == '.' || text_[at_] == '[' || text_[at_] == ']' || text_[at_] == '/')) {
        node.name += text_[at_];
        Step();
      }
      if (node.name.empty())
        return Error(std::string("a field name expected, not '") + text_[at_] + "'");
      Skip();
      if (at_ < text_.size() && text_[at_] == ':') {
        Step();
        Skip();
      }
      if (at_ >= text_.size())
        return Error("the file ends before the value of '" + node.name + "'");
      const char c = text_[at_];
      if (c == '{' || c == '<') {
        Step();
        node.message = true;
        FS_RETURN_IF_ERROR(ReadFields(node.fields, c == '{' ? '}' : '>', depth + 1));
      } else if (c == '"' || c == '\'') {
        // Adjacent strings are one.
        while (at_ < text_.size() && (text_[at_] == '"' || text_[at_] == '\'')) {
          FS_RETURN_IF_ERROR(ReadString(node.value));
          while (at_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[at_]))) Step();
        }
      } else {
        while (at_ < text_.size() && !std::isspace(static_cast<unsigned char>(text_[at_])) &&
               text_[at_] != '}' && text_[at_] != '>' && text_[at_] != ',' && text_[at_] != ';') {
          node.value += text_[at_];
          Step();
        }
        if (node.value.empty()) return Error("no value for '" + node.name + "'");
      }
      fields.push_back(std::move(node));
    }
  }

  std::string_view text_;
  const std::string& path_;
  size_t at_ = 0;
  int64_t line_ = 1;
  int64_t column_ = 1;
};

const TextNode* Field(const TextNode& node, std::string_view name) {
  for (const TextNode& field : node.fields) {
    if (field.name == name) return &field;
  }
  return nullptr;
}

std::string Text(const TextNode& node, std::string_view name) {
  const TextNode* field = Field(node, name);
  return field ? field->value : std::string();
}

double Number(const TextNode& node, std::string_view name) {
  const TextNode* field = Field(node, name);
  if (!field) return 0;
  double value = 0;
  std::from_chars(field->value.data(), field->value.data() + field->value.size(), value);
  return value;
}

// XLA's sentences carry no code: the nearest of ours, by what they say.
passes::FusionReason ReasonOf(const std::string& sentence) {
  std::string lower;
  for (char c : sentence) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  using R = passes::FusionReason;
  const auto has = [&lower](std::string_view word) {
    return lower.find(word) != std::string::npos;
  };
  if (has("cycle")) return R::kWouldCreateCycle;
  if (has("operand") || has("parameters")) return R::kTooManyOperands;
  if (has("shared memory") || has("code duplication") || has("too large") || has("register") ||
      has("too many instructions"))
    return R::kSizeLimit;
  if (has("slower") || has("not profitable") || has("not beneficial") || has("cost") ||
      has("performance"))
    return R::kNotProfitable;
  if (has("custom")) return R::kOpaqueCustomCall;
  if (has("side effect")) return R::kSideEffect;
  if (has("reduction") || has("reduce")) return R::kProducerIsReduction;
  if (has("transpose") || has("layout") || has("shape")) return R::kIncompatibleIterationSpace;
  if (has("consumer")) return R::kConsumerNotFusible;
  return R::kProducerNotFusible;
}

std::string Microseconds(double us) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", us);
  return text;
}

}  // namespace

StatusOr<XlaFusionProcessDump> ParseXlaFusionProcessDump(std::string_view text,
                                                         const std::string& path) {
  auto fields = TextProtoReader(text, path).ReadAll();
  if (!fields.ok()) return fields.status();
  XlaFusionProcessDump dump;
  for (const TextNode& field : *fields) {
    if (field.name == "hlo_module_before_fusion") dump.has_module_before_fusion = true;
    if (field.name != "fusion_steps" || !field.message) continue;
    for (const TextNode& step_node : field.fields) {
      XlaFusionStep step;
      step.line = step_node.line;
      step.producer_name = Text(step_node, "producer_name");
      if (step_node.name == "fusion") {
        step.kind = XlaFusionStep::Kind::kFusion;
        step.fusion_name = Text(step_node, "fusion_name");
        step.consumer_name = Text(step_node, "consumer_name");
      } else if (step_node.name == "producer_ineligible") {
        step.kind = XlaFusionStep::Kind::kProducerIneligible;
        step.reason = Text(step_node, "reason");
      } else if (step_node.name == "update_priority") {
        step.kind = XlaFusionStep::Kind::kUpdatePriority;
        for (const TextNode& consumer : step_node.fields) {
          if (consumer.name == "consumer_names") step.consumer_names.push_back(consumer.value);
        }
        step.us_fused = Number(step_node, "us_fused");
        step.us_unfused = Number(step_node, "us_unfused");
      } else {
        continue;  // a step kind this reader does not know
      }
      if (step.producer_name.empty()) {
        return Status::Error(path + ":" + std::to_string(step.line) + ":1: '" + step_node.name +
                             "' step without a producer_name");
      }
      dump.steps.push_back(std::move(step));
    }
  }
  if (dump.steps.empty() && !dump.has_module_before_fusion) {
    return Status::Error(path + ": no fusion_steps (not an XLA fusion process dump)");
  }
  return dump;
}

StatusOr<int64_t> AddXlaFusionDecisions(const XlaFusionProcessDump& dump, const std::string& path,
                                        recording::Recording& recording,
                                        std::vector<std::string>& warnings) {
  int64_t pass_index = -1;
  for (const recording::PassRecord& pass : recording.passes) {
    if (pass.name.rfind("priority-fusion", 0) == 0) {
      pass_index = pass.index;
      break;
    }
  }
  if (pass_index < 0) {
    return Status::Error(path + ": the dump has no priority-fusion pass to attach XLA's " +
                         std::to_string(dump.steps.size()) + " fusion steps to");
  }
  const recording::Snapshot* before = recording.SnapshotBefore(pass_index);
  const recording::Snapshot* after = recording.SnapshotAfter(pass_index);
  // A fusion formed during the pass and fused again later is in neither module: it stands
  // for the fusion that finally holds it (followed through the steps that grew it).
  std::map<std::string, std::string> grown_into;
  for (const XlaFusionStep& step : dump.steps) {
    if (step.kind != XlaFusionStep::Kind::kFusion || step.fusion_name.empty()) continue;
    for (const std::string& part : {step.producer_name, step.consumer_name}) {
      if (part != step.fusion_name) grown_into[part] = step.fusion_name;
    }
  }
  const auto find = [&](const std::string& name) -> const recording::InstructionRecord* {
    std::string current = name;
    for (size_t hops = 0; hops <= grown_into.size(); ++hops) {
      for (const recording::Snapshot* snapshot : {before, after}) {
        if (snapshot == nullptr) continue;
        if (const auto* record = snapshot->FindInstruction(current)) return record;
      }
      auto next = grown_into.find(current);
      if (next == grown_into.end()) break;
      current = next->second;
    }
    return nullptr;
  };
  const auto fill = [](passes::FusionDecisionRecord& decision,
                       const recording::InstructionRecord& producer,
                       const recording::InstructionRecord& consumer) {
    decision.producer_id = producer.id;
    decision.producer_name = producer.name;
    decision.producer_opcode = producer.opcode;
    decision.consumer_id = consumer.id;
    decision.consumer_name = consumer.name;
    decision.consumer_opcode = consumer.opcode;
    decision.computation = consumer.computation;
  };
  const auto where = [&path](const XlaFusionStep& step) {
    return path + ":" + std::to_string(step.line) + ":1: ";
  };
  // The cost model's latest estimate per producer, told with the fusion it led to.
  std::map<std::string, const XlaFusionStep*> estimates;
  int64_t added = 0;
  for (const XlaFusionStep& step : dump.steps) {
    if (step.kind == XlaFusionStep::Kind::kUpdatePriority) {
      estimates[step.producer_name] = &step;
      continue;
    }
    const recording::InstructionRecord* producer = find(step.producer_name);
    if (producer == nullptr) {
      warnings.push_back(where(step) + "producer '" + step.producer_name +
                         "' is in neither module around the priority-fusion pass; step left out");
      continue;
    }
    passes::FusionDecisionRecord decision;
    decision.pass = "priority-fusion";
    decision.pass_index = pass_index;
    if (step.kind == XlaFusionStep::Kind::kFusion) {
      const recording::InstructionRecord* consumer = find(step.consumer_name);
      if (consumer == nullptr) {
        warnings.push_back(where(step) + "consumer '" + step.consumer_name +
                           "' is in neither module around the priority-fusion pass; step left out");
        continue;
      }
      fill(decision, *producer, *consumer);
      decision.producer_name = step.producer_name;  // XLA's names, as its log says them
      decision.consumer_name = step.consumer_name;
      decision.reason = passes::FusionReason::kFused;
      decision.fusion_name = step.fusion_name;
      decision.explanation = "XLA fused %" + step.producer_name + " into %" + step.consumer_name +
                             " as %" + step.fusion_name;
      if (auto it = estimates.find(step.producer_name); it != estimates.end()) {
        decision.explanation += " (its cost model: " + Microseconds(it->second->us_fused) +
                                " us fused, " + Microseconds(it->second->us_unfused) +
                                " us unfused)";
      }
      recording.decisions.push_back(std::move(decision));
      ++added;
      continue;
    }
    // Ineligible: refused for every user the producer had.
    const recording::Snapshot& module = before ? *before : *after;
    int64_t users = 0;
    for (const auto& computation : module.computations()) {
      for (const auto& record : computation->instructions) {
        if (std::find(record->operand_ids.begin(), record->operand_ids.end(), producer->id) ==
            record->operand_ids.end())
          continue;
        passes::FusionDecisionRecord refusal = decision;
        fill(refusal, *producer, *record);
        refusal.reason = ReasonOf(step.reason);
        refusal.explanation = "XLA: " + step.reason;
        recording.decisions.push_back(std::move(refusal));
        ++added;
        ++users;
      }
    }
    if (users == 0) {
      warnings.push_back(where(step) + "producer '" + step.producer_name +
                         "' has no users to refuse; step left out");
    }
  }
  return added;
}

}  // namespace fusescope::ir
