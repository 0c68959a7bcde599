#include "compare/comparison_report.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "ir/computation.h"

namespace fusescope::compare {
namespace {

std::string Fixed(double value, int decimals) {
  if (value < 0) return "-";
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%.*f", decimals, value);
  return buffer;
}

std::string Scientific(double value) {
  if (value < 0) return "-";
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.2e", value);
  return buffer;
}

std::string Mebibytes(int64_t bytes) {
  return bytes < 0 ? "-" : Fixed(static_cast<double>(bytes) / (1 << 20), 1);
}

std::string Pad(const std::string& text, size_t width, bool right = false) {
  if (text.size() >= width) return text;
  const std::string fill(width - text.size(), ' ');
  return right ? fill + text : text + fill;
}

std::string CsvField(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string ShapeList(const Comparison& comparison) {
  std::string text;
  for (const ShapeChoice& shape : comparison.shapes) {
    std::string dims;
    for (const auto& [name, size] : shape.dims)
      dims += (dims.empty() ? "" : " ") + name + "=" + std::to_string(size);
    text += (text.empty() ? "" : ", ") + shape.name + (dims.empty() ? "" : " (" + dims + ")");
  }
  return text;
}

std::string VersionList(const PeerOutcome& peer) {
  std::string text;
  for (const auto& [name, version] : peer.versions)
    text += (text.empty() ? "" : ", ") + name + " " + version;
  return text;
}

void AppendPeers(const Comparison& comparison, std::string& out) {
  out += "\ncompilers:\n";
  for (const PeerOutcome& peer : comparison.peers) {
    out += "  " + Pad(peer.compiler, 9) + " " + peer.status;
    if (!peer.message.empty()) out += ": " + peer.message;
    out += "\n";
    if (peer.status == "not installed" || peer.status == "not applicable") continue;
    if (!peer.input_given.empty()) out += "            given: " + peer.input_given + "\n";
    if (!peer.input_received.empty()) out += "            did: " + peer.input_received + "\n";
    if (!peer.versions.empty()) out += "            versions: " + VersionList(peer) + "\n";
    if (peer.status == "ok" || peer.status == "failed")
      out += std::string("            shapes: ") +
             (peer.dynamic_shapes ? "one build served every shape" : "a build per shape") + "\n";
    for (const auto& op : peer.unsupported_ops)
      out +=
          "            cannot compile " + op.op + (op.error.empty() ? "" : ": " + op.error) + "\n";
    for (const PeerDump& dump : peer.dumps)
      out += "            dump (" + dump.kind + "): " + dump.path + "\n";
  }
}

void AppendRows(const Comparison& comparison, std::string& out) {
  out += "\n" + Pad("compiler", 18) + Pad("shape", 10) + Pad("build s", 9, true) +
         Pad("p50 us", 11, true) + Pad("p95 us", 11, true) + Pad("p99 us", 11, true) +
         Pad("calls", 6, true) + Pad("outl", 6, true) + Pad("items/s", 11, true) +
         Pad("build MiB", 10, true) + Pad("run MiB", 9, true) + Pad("artif MiB", 10, true) +
         Pad("max abs err", 12, true) + Pad("rel err", 10, true) + "  verdict\n";
  for (const ComparisonRow& row : comparison.rows) {
    std::string build = Fixed(row.build_s, 2);
    if (row.shared_build) build += "*";
    out += Pad(row.variant, 18) + Pad(row.shape, 10) + Pad(build, 9, true);
    if (!row.error.empty()) {
      out += "   error: " + row.error.substr(0, 160) + "\n";
      continue;
    }
    const auto& latency = row.latency_us;
    out += Pad(Fixed(latency.median, 1), 11, true) + Pad(Fixed(latency.p95, 1), 11, true) +
           Pad(Fixed(latency.p99, 1), 11, true) + Pad(std::to_string(latency.count), 6, true) +
           Pad(std::to_string(latency.outliers_high + latency.outliers_low), 6, true) +
           Pad(Fixed(row.throughput_per_s, 0), 11, true) +
           Pad(Mebibytes(row.build_peak_rss_bytes), 10, true) +
           Pad(Mebibytes(row.run_peak_rss_bytes), 9, true) +
           Pad(row.artifact_bytes < 0 ? "-" : Fixed(row.artifact_bytes / 1048576.0, 2), 10, true) +
           Pad(Scientific(row.max_abs_error), 12, true) +
           Pad(Scientific(row.max_rel_error), 10, true) + "  " +
           (row.verdict.empty() ? "-" : row.verdict) + "\n";
    if (row.tuning_s > 0 || row.trials > 0)
      out += Pad("", 28) + "tuned: " + std::to_string(row.trials) + " trials in " +
             Fixed(row.tuning_s, 1) + " s (not in build s)\n";
  }
  if (std::any_of(comparison.rows.begin(), comparison.rows.end(),
                  [](const ComparisonRow& row) { return row.shared_build; }))
    out += "\n* one build served several shapes (its time is that one build's)\n";
  const bool untuned_tvm =
      std::any_of(comparison.rows.begin(), comparison.rows.end(),
                  [](const ComparisonRow& row) { return row.variant == "tvm-untuned"; });
  if (untuned_tvm)
    out +=
        "tvm-untuned is TVM's default CPU pipeline, which has no schedules (naive loops); "
        "tvm-metaschedule is TVM as its users run it, after tuning\n";
}

std::string Label(const PeerKernel& kernel, const std::string& compiler) {
  return kernel.variant.empty() || kernel.variant == compiler ? compiler : kernel.variant;
}

std::string Html(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// Horizontal bars, one group per compiler variant: p50 solid, p95 and p99 as ticks past it,
// on one linear scale per shape so that the groups compare at a glance.
std::string LatencySvg(const Comparison& comparison, const std::string& shape) {
  std::vector<const ComparisonRow*> rows;
  double top = 0;
  for (const ComparisonRow& row : comparison.rows) {
    if (row.shape != shape || !row.error.empty()) continue;
    rows.push_back(&row);
    top = std::max(top, row.latency_us.p99);
  }
  if (rows.empty() || top <= 0) return "";
  const int label_width = 150, plot_width = 420, row_height = 22;
  const int height = static_cast<int>(rows.size()) * row_height + 24;
  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
                    std::to_string(label_width + plot_width + 90) + "\" height=\"" +
                    std::to_string(height) + "\" font-family=\"sans-serif\" font-size=\"12\">";
  auto x = [&](double value) { return label_width + value / top * plot_width; };
  for (size_t i = 0; i < rows.size(); ++i) {
    const ComparisonRow& row = *rows[i];
    const double y = static_cast<double>(i) * row_height + 4;
    svg += "<text x=\"0\" y=\"" + Fixed(y + 13, 0) + "\">" + Html(row.variant) + "</text>";
    svg += "<rect x=\"" + std::to_string(label_width) + "\" y=\"" + Fixed(y + 2, 0) +
           "\" width=\"" + Fixed(x(row.latency_us.median) - label_width, 1) +
           "\" height=\"14\" fill=\"#4a7fb5\"><title>p50 " + Fixed(row.latency_us.median, 1) +
           " us</title></rect>";
    for (const auto& [value, name] :
         {std::pair{row.latency_us.p95, "p95"}, std::pair{row.latency_us.p99, "p99"}}) {
      svg += "<line x1=\"" + Fixed(x(value), 1) + "\" x2=\"" + Fixed(x(value), 1) + "\" y1=\"" +
             Fixed(y, 0) + "\" y2=\"" + Fixed(y + 18, 0) + "\" stroke=\"" +
             (std::string(name) == "p95" ? "#d08020" : "#b02020") +
             "\" stroke-width=\"2\"><title>" + name + " " + Fixed(value, 1) + " us</title></line>";
    }
    svg += "<text x=\"" + Fixed(x(row.latency_us.p99) + 6, 0) + "\" y=\"" + Fixed(y + 13, 0) +
           "\">" + Fixed(row.latency_us.median, 1) + " us</text>";
  }
  svg += "<text x=\"" + std::to_string(label_width) + "\" y=\"" + std::to_string(height - 4) +
         "\" fill=\"#555\">bar: p50; orange tick: p95; red tick: p99 (0 to " + Fixed(top, 1) +
         " us)</text></svg>";
  return svg;
}

}  // namespace

std::string FormatComparisonsHtml(const std::vector<Comparison>& comparisons) {
  if (comparisons.empty()) return "";
  std::string out = "<section id=\"compare\"><h2>Compilers compared</h2>\n";
  for (const Comparison& comparison : comparisons) {
    out += "<h3>" + Html(comparison.model) + " (" + Html(comparison.model_format) + ")</h3>\n<p>" +
           Html(comparison.reference_note) + "; " + std::to_string(comparison.reps) +
           " timed calls after " + std::to_string(comparison.warmup) + " warm-up.</p>\n<ul>";
    for (const PeerOutcome& peer : comparison.peers) {
      out += "<li><b>" + Html(peer.compiler) + "</b>: " + Html(peer.status) +
             (peer.message.empty() ? "" : " — " + Html(peer.message));
      if (!peer.input_received.empty()) out += "<br><i>" + Html(peer.input_received) + "</i>";
      for (const auto& op : peer.unsupported_ops)
        out += "<br>cannot compile " + Html(op.op) + ": " + Html(op.error);
      out += "</li>";
    }
    out += "</ul>\n";
    for (const ShapeChoice& shape : comparison.shapes) {
      const std::string svg = LatencySvg(comparison, shape.name);
      if (!svg.empty()) out += "<h4>Latency at " + Html(shape.name) + "</h4>\n" + svg + "\n";
    }
    out += "<pre>" + Html(FormatComparisonText(comparison)) + "</pre>\n";
  }
  return out + "</section>\n";
}

std::string FormatComparisonText(const Comparison& comparison) {
  std::string out = "model: " + comparison.model + " (" + comparison.model_format + ")\n";
  out += "shapes: " + ShapeList(comparison) + "\n";
  out += "timing: " + std::to_string(comparison.reps) + " timed calls after " +
         std::to_string(comparison.warmup) + " warm-up, per compiler and shape; threads " +
         (comparison.threads ? std::to_string(comparison.threads) : std::string("default")) +
         "; latency percentiles over every call, outliers (Tukey's fences) counted, not removed\n";
  out += "accuracy: " + comparison.reference_note + "\n";
  AppendPeers(comparison, out);
  AppendRows(comparison, out);
  return out;
}

std::string FormatComparisonCsv(const Comparison& comparison) {
  std::string out =
      "compiler,variant,shape,batch,build_s,tuning_s,trials,shared_build,p50_us,p95_us,p99_us,"
      "min_us,max_us,calls,outliers,throughput_per_s,build_peak_rss_bytes,run_peak_rss_bytes,"
      "artifact_bytes,max_abs_error,max_rel_error,verdict,error\n";
  auto number = [](double value) { return value < 0 ? std::string() : Fixed(value, 6); };
  auto integer = [](int64_t value) { return value < 0 ? std::string() : std::to_string(value); };
  for (const ComparisonRow& row : comparison.rows) {
    const auto& latency = row.latency_us;
    const bool ran = row.error.empty();
    out += CsvField(row.compiler) + "," + CsvField(row.variant) + "," + CsvField(row.shape) + "," +
           std::to_string(row.batch) + "," + number(row.build_s) + "," + number(row.tuning_s) +
           "," + std::to_string(row.trials) + "," + (row.shared_build ? "1" : "0") + "," +
           (ran ? number(latency.median) + "," + number(latency.p95) + "," + number(latency.p99) +
                      "," + number(latency.min) + "," + number(latency.max) + "," +
                      std::to_string(latency.count) + "," +
                      std::to_string(latency.outliers_high + latency.outliers_low) + "," +
                      number(row.throughput_per_s)
                : std::string(",,,,,,,")) +
           "," + integer(row.build_peak_rss_bytes) + "," + integer(row.run_peak_rss_bytes) + "," +
           integer(row.artifact_bytes) + "," +
           (row.max_abs_error < 0 ? "" : Scientific(row.max_abs_error)) + "," +
           (row.max_rel_error < 0 ? "" : Scientific(row.max_rel_error)) + "," +
           CsvField(row.verdict) + "," + CsvField(row.error) + "\n";
  }
  return out;
}

namespace {

// A constant, or a constant only broadcast, reshaped or converted: common-subexpression
// elimination keeps one of equal constants with one op's name, so such a member says nothing
// about which ops a fusion computes.
bool IsSharedConstant(const ir::Instruction& instruction) {
  switch (instruction.opcode()) {
    case ir::Opcode::kConstant:
      return true;
    case ir::Opcode::kBroadcast:
    case ir::Opcode::kReshape:
    case ir::Opcode::kBitcast:
    case ir::Opcode::kConvert:
      return instruction.operand_count() == 1 && IsSharedConstant(*instruction.operand(0));
    default:
      return false;
  }
}

}  // namespace

std::vector<std::string> ModelOpsOf(const ir::Instruction& instruction) {
  std::vector<std::string> ops;
  auto add = [&](const ir::Instruction& inner) {
    const std::string name = inner.metadata().String("op_name");
    if (!name.empty() && std::find(ops.begin(), ops.end(), name) == ops.end()) ops.push_back(name);
  };
  add(instruction);
  if (const ir::Computation* fused = instruction.fused_computation())
    for (const auto& inner : fused->instructions())
      if (inner->opcode() != ir::Opcode::kParameter && !IsSharedConstant(*inner)) add(*inner);
  return ops;
}

std::vector<OpInKernels> FollowOps(const Comparison& comparison) {
  const std::string first_shape = comparison.shapes.empty() ? "" : comparison.shapes[0].name;
  std::map<std::string, OpInKernels> by_op;
  std::vector<std::string> order;
  for (const PeerOutcome& peer : comparison.peers) {
    for (const PeerKernel& kernel : peer.kernels) {
      if (!kernel.shape.empty() && kernel.shape != first_shape) continue;
      for (const std::string& op : kernel.ops) {
        auto [it, inserted] = by_op.try_emplace(op);
        if (inserted) {
          it->second.op = op;
          order.push_back(op);
        }
        it->second.placements.push_back(
            {Label(kernel, peer.compiler), kernel.name, kernel.time_us});
      }
    }
  }
  std::vector<OpInKernels> ops;
  if (comparison.model_ops.empty()) {
    for (const std::string& op : order) ops.push_back(std::move(by_op[op]));
    return ops;
  }
  for (const std::string& op : comparison.model_ops) {
    auto it = by_op.find(op);
    if (it == by_op.end()) {
      ops.push_back({op, true, {}});
      continue;
    }
    ops.push_back(std::move(it->second));
    by_op.erase(it);
  }
  for (const std::string& op : order) {
    auto it = by_op.find(op);
    if (it == by_op.end()) continue;
    it->second.of_model = false;
    ops.push_back(std::move(it->second));
  }
  return ops;
}

std::string FormatOpsText(const std::vector<OpInKernels>& ops, const Comparison& comparison) {
  std::string out;
  if (!comparison.shapes.empty())
    out += "\neach op of the model in each compiler's kernels (at " + comparison.shapes[0].name +
           "; kernel time where the compiler's profiler gave one):\n";
  // Without op names (a StableHLO module printed without locations) there is nothing common
  // to follow: each compiler names its own instructions.
  if (comparison.model_ops.empty() && !ops.empty())
    out +=
        "  (the model names none of its ops: no op_name metadata or locations, as in a "
        "StableHLO module printed without debug info (jax: lowered.as_text(debug_info=True) "
        "keeps them); the names below are each compiler's own and do not match across "
        "compilers)\n";
  std::map<std::string, std::vector<std::string>> others;  // compiler -> its parts
  for (const OpInKernels& op : ops) {
    if (!op.of_model) {
      for (const auto& placement : op.placements) {
        auto& parts = others[placement.compiler];
        if (std::find(parts.begin(), parts.end(), op.op) == parts.end()) parts.push_back(op.op);
      }
      continue;
    }
    out += "  " + op.op + "\n";
    if (op.placements.empty())
      out += "      (in no kernel a compiler reported: folded away, or not profiled)\n";
    for (const auto& placement : op.placements)
      out += "      " + Pad(placement.compiler, 18) + placement.kernel +
             (placement.time_us >= 0 ? "  " + Fixed(placement.time_us, 1) + " us" : "") + "\n";
  }
  for (const auto& [compiler, parts] : others) {
    out += "  " + compiler + "'s kernels also hold " + std::to_string(parts.size()) +
           " instruction(s) of its own, no op of the model:";
    for (size_t i = 0; i < parts.size() && i < 8; ++i) out += (i ? ", " : " ") + parts[i];
    out += parts.size() > 8 ? ", ...\n" : "\n";
  }
  for (const PeerOutcome& peer : comparison.peers) {
    if (peer.status != "ok") continue;
    if (peer.kernels.empty())
      out += "  " + peer.compiler + ": no kernels" +
             (peer.kernels_note.empty() ? "" : " (" + peer.kernels_note + ")") + "\n";
  }
  return out;
}

}  // namespace fusescope::compare
