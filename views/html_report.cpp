#include "views/html_report.h"

#include <cstdio>
#include <fstream>
#include <set>

#include "recording/operation_counts.h"
#include "views/markup.h"
#include "views/pass_diff_html.h"

namespace fusescope::views {

namespace {

constexpr const char* kStyle = R"CSS(
body { font-family: "DejaVu Sans", Verdana, sans-serif; margin: 0; color: #1f1f1f;
       background: #fbfbfb; font-size: 14px; }
header { background: #24323f; color: #fff; padding: 14px 24px; }
header h1 { margin: 0 0 4px 0; font-size: 22px; }
header .meta { margin: 0; color: #c9d3dc; font-size: 13px; }
nav { padding: 8px 24px; background: #e9eef2; border-bottom: 1px solid #d0d7de; }
nav a { margin-right: 18px; color: #24323f; text-decoration: none; font-weight: bold; }
section { padding: 6px 24px 18px 24px; }
h2 { font-size: 18px; border-bottom: 2px solid #24323f; padding-bottom: 4px; }
h3 { font-size: 15px; margin: 18px 0 6px 0; }
table { border-collapse: collapse; background: #fff; font-size: 13px; }
th, td { border: 1px solid #d8dde2; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #eef1f4; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.changed td:first-child { border-left: 4px solid #c58a00; }
tr.failed td { background: #fde8e8; }
.mark-changed { color: #c58a00; font-weight: bold; }
.flag { display: inline-block; padding: 0 6px; border-radius: 8px; font-size: 11px;
        background: #eee; margin-right: 4px; }
.flag.lies { background: #ffe8a8; } .flag.failed { background: #f9d0d0; }
.flag.skipped { background: #e0e0e0; }
.pass-diff { background: #fff; border: 1px solid #d8dde2; border-radius: 6px; padding: 8px 14px;
             margin-bottom: 16px; }
.counts { color: #444; margin: 4px 0; }
ul.statements { margin: 4px 0 8px 0; }
)CSS";

// After the pictures' rules (PassPictureStyle).
constexpr const char* kStyleEnd =
    R"CSS(.filters { margin: 8px 0; display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
.filters select, .filters input { font-size: 13px; padding: 2px 4px; }
td.accepted { color: #2e8b3a; font-weight: bold; } td.refused { color: #c62828; font-weight: bold; }
pre { background: #f4f6f8; padding: 8px; overflow: auto; font-size: 12px; }
.muted { color: #777; }
)CSS";

constexpr const char* kScript = R"JS(
(function () {
  function byId(id) { return document.getElementById(id); }
  var rows = Array.prototype.slice.call(document.querySelectorAll('#decision-table tbody tr'));
  var pass = byId('filter-pass'), outcome = byId('filter-outcome');
  var reason = byId('filter-reason'), text = byId('filter-text'), count = byId('filter-count');
  function applyDecisionFilters() {
    var needle = text ? text.value.toLowerCase() : '';
    var shown = 0;
    rows.forEach(function (row) {
      var ok = (!pass.value || row.getAttribute('data-pass') === pass.value) &&
               (!outcome.value || row.getAttribute('data-outcome') === outcome.value) &&
               (!reason.value || row.getAttribute('data-reason') === reason.value) &&
               (!needle || row.textContent.toLowerCase().indexOf(needle) >= 0);
      row.style.display = ok ? '' : 'none';
      if (ok) shown++;
    });
    count.textContent = shown + ' of ' + rows.length + ' decisions shown';
  }
  if (pass) {
    [pass, outcome, reason].forEach(function (e) { e.addEventListener('change', applyDecisionFilters); });
    text.addEventListener('input', applyDecisionFilters);
    applyDecisionFilters();
  }
  var onlyChanged = byId('only-changed');
  if (onlyChanged) {
    onlyChanged.addEventListener('change', function () {
      document.querySelectorAll('#pass-table tbody tr').forEach(function (row) {
        row.style.display = onlyChanged.checked && !row.classList.contains('changed') ? 'none' : '';
      });
    });
  }
)JS";

// After the pictures' toggles (PassPictureScript).
constexpr const char* kScriptEnd = R"JS(})();
)JS";

std::string Esc(std::string_view text) { return EscapeXml(text); }

std::string Seconds(double seconds) {
  char buffer[32];
  if (seconds < 1) {
    std::snprintf(buffer, sizeof(buffer), "%.2f ms", seconds * 1000);
  } else {
    std::snprintf(buffer, sizeof(buffer), "%.2f s", seconds);
  }
  return buffer;
}

std::string PassName(const recording::Recording& recording, int64_t index) {
  if (index < 0 || index >= static_cast<int64_t>(recording.passes.size())) {
    return "#" + std::to_string(index);
  }
  return "#" + std::to_string(index) + " " + recording.passes[static_cast<size_t>(index)].name;
}

// Writes the page section by section.
class ReportBuilder {
 public:
  ReportBuilder(const recording::Recording& recording, const ReportOptions& options)
      : recording_(recording), options_(options), counts_(recording::CountSnapshots(recording)) {}

  std::string Build() {
    std::string title =
        options_.title.empty() ? "Fusescope report: " + recording_.model_name : options_.title;
    out_ = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" +
           Esc(title) + "</title>\n<style>" + kStyle + std::string(PassPictureStyle()) + kStyleEnd +
           "</style>\n</head>\n<body>\n";
    Header(title);
    out_ +=
        "<nav><a href=\"#passes\">Passes</a><a href=\"#diffs\">Changed passes</a>"
        "<a href=\"#decisions\">Fusion decisions</a>" +
        std::string(recording_.failed() ? "<a href=\"#failure\">Failure</a>" : "") +
        (options_.extra_sections.empty() ? "" : "<a href=\"#compare\">Compilers compared</a>") +
        "</nav>\n";
    PassTable();
    Diffs();
    Decisions();
    Failure();
    out_ += options_.extra_sections;
    out_ += "<script>" + std::string(kScript) + std::string(PassPictureScript()) + kScriptEnd +
            "</script>\n</body>\n</html>\n";
    return std::move(out_);
  }

 private:
  int64_t ChangedCount() const {
    int64_t changed = 0;
    for (const recording::PassRecord& pass : recording_.passes) changed += pass.changed ? 1 : 0;
    return changed;
  }

  void Header(const std::string& title) {
    int64_t refused = 0;
    for (const auto& decision : recording_.decisions) refused += decision.accepted() ? 0 : 1;
    std::string meta = "pipeline " + Esc(recording_.pipeline_name);
    if (!recording_.source_path.empty()) meta += " &middot; " + Esc(recording_.source_path);
    meta += " &middot; " + std::to_string(recording_.passes.size()) + " passes, " +
            std::to_string(ChangedCount()) + " changed &middot; ";
    if (!counts_.empty()) meta += Esc(recording::DescribeCounts(counts_.front(), counts_.back()));
    meta += " &middot; " + std::to_string(recording_.decisions.size()) + " fusion decisions (" +
            std::to_string(refused) + " refused) &middot; " + Seconds(recording_.total_seconds);
    out_ += "<header><h1>" + Esc(title) + "</h1><p class=\"meta\">" + meta + "</p></header>\n";
  }

  void PassTable() {
    out_ += "<section id=\"passes\"><h2>Passes</h2>\n";
    out_ +=
        "<label><input type=\"checkbox\" id=\"only-changed\"> changed passes only</label>\n"
        "<table id=\"pass-table\"><thead><tr><th>#</th><th>pass</th><th>changed</th>"
        "<th>operations</th><th>&Delta;</th><th>fusions</th><th>fused instructions</th>"
        "<th>time</th><th>notes</th></tr></thead><tbody>\n";
    for (const recording::PassRecord& pass : recording_.passes) PassRow(pass);
    out_ += "</tbody></table></section>\n";
  }

  void PassRow(const recording::PassRecord& pass) {
    std::string classes = std::string(pass.changed ? "changed" : "") +
                          (pass.failed ? (pass.changed ? " failed" : "failed") : "");
    std::string name = pass.changed ? "<a href=\"#pass-" + std::to_string(pass.index) + "\">" +
                                          Esc(pass.name) + "</a>"
                                    : Esc(pass.name);
    // Counted as `fusescope passes` counts (recording/operation_counts.h).
    const size_t at = static_cast<size_t>(pass.index);
    const recording::OperationCounts before =
        at < counts_.size() ? counts_[at] : recording::OperationCounts{};
    const recording::OperationCounts after =
        at + 1 < counts_.size() ? counts_[at + 1] : recording::OperationCounts{};
    const int64_t delta = after.operations - before.operations;
    std::string notes;
    if (pass.change_flag_lies) notes += "<span class=\"flag lies\">change flag lies</span>";
    if (pass.skipped) notes += "<span class=\"flag skipped\">skipped</span>";
    if (pass.failed) notes += "<span class=\"flag failed\">" + Esc(pass.error) + "</span>";
    out_ += "<tr class=\"" + classes + "\" data-pass=\"" + std::to_string(pass.index) +
            "\"><td class=\"num\">" + std::to_string(pass.index) + "</td><td>" + name +
            "</td><td>" + (pass.changed ? "<span class=\"mark-changed\">changed</span>" : "") +
            "</td><td class=\"num\">" + std::to_string(before.operations) + " &rarr; " +
            std::to_string(after.operations) + "</td><td class=\"num\">" + (delta > 0 ? "+" : "") +
            std::to_string(delta) + "</td><td class=\"num\">" + std::to_string(after.fusions) +
            "</td><td class=\"num\">" + std::to_string(after.fused_instructions) +
            "</td><td class=\"num\">" + Seconds(pass.wall_seconds) + "</td><td>" + notes +
            "</td></tr>\n";
  }

  void Diffs() {
    out_ += "<section id=\"diffs\"><h2>Changed passes</h2>\n";
    if (ChangedCount() == 0) out_ += "<p class=\"muted\">No pass changed the module.</p>\n";
    int pictures = 0;
    for (const recording::PassRecord& pass : recording_.passes) {
      if (!pass.changed) continue;
      PassSection(pass, pictures++ < options_.max_pictures);
    }
    out_ += "</section>\n";
  }

  void PassSection(const recording::PassRecord& pass, bool with_picture) {
    out_ += "<article class=\"pass-diff\" id=\"pass-" + std::to_string(pass.index) + "\"><h3>" +
            Esc(PassName(recording_, pass.index)) + "</h3>\n";
    StatusOr<PassDiff> diff = PassDiff::Compute(recording_, pass.index);
    if (!diff.ok()) {
      out_ += "<p class=\"muted\">No diff: " + Esc(diff.message()) + "</p></article>\n";
      return;
    }
    out_ += PassDiffSummaryHtml(recording_, *diff);
    if (with_picture) {
      out_ += PassPictureHtml(
          InlinePassSvg(recording_, *diff, options_.diff, "p" + std::to_string(pass.index)));
    }
    out_ += "</article>\n";
  }

  void Decisions() {
    out_ += "<section id=\"decisions\"><h2>Fusion decisions</h2>\n";
    if (recording_.decisions.empty()) {
      out_ += "<p class=\"muted\">No fusion decisions were recorded.</p></section>\n";
      return;
    }
    DecisionFilters();
    out_ +=
        "<table id=\"decision-table\"><thead><tr><th>pass</th><th>producer</th>"
        "<th>consumer</th><th>outcome</th><th>reason</th><th>explanation</th><th>fusion</th>"
        "</tr></thead><tbody>\n";
    for (const passes::FusionDecisionRecord& decision : recording_.decisions) {
      DecisionRow(decision);
    }
    out_ += "</tbody></table></section>\n";
  }

  void DecisionFilters() {
    std::set<int64_t> passes;
    std::set<std::string> reasons;
    for (const auto& decision : recording_.decisions) {
      passes.insert(decision.pass_index);
      reasons.insert(std::string(passes::FusionReasonCode(decision.reason)));
    }
    out_ +=
        "<div class=\"filters\"><select id=\"filter-pass\"><option value=\"\">all passes"
        "</option>";
    for (int64_t pass : passes) {
      out_ += "<option value=\"" + std::to_string(pass) + "\">" + Esc(PassName(recording_, pass)) +
              "</option>";
    }
    out_ +=
        "</select><select id=\"filter-outcome\"><option value=\"\">accepted and refused"
        "</option><option value=\"accepted\">accepted</option><option value=\"refused\">"
        "refused</option></select><select id=\"filter-reason\"><option value=\"\">all reasons"
        "</option>";
    for (const std::string& reason : reasons) {
      out_ += "<option value=\"" + Esc(reason) + "\">" + Esc(reason) + "</option>";
    }
    out_ +=
        "</select><input id=\"filter-text\" type=\"search\" placeholder=\"filter by name or "
        "text\"><span id=\"filter-count\" class=\"muted\"></span></div>\n";
  }

  void DecisionRow(const passes::FusionDecisionRecord& decision) {
    std::string outcome = decision.accepted() ? "accepted" : "refused";
    std::string reason(passes::FusionReasonCode(decision.reason));
    out_ += "<tr data-pass=\"" + std::to_string(decision.pass_index) + "\" data-outcome=\"" +
            outcome + "\" data-reason=\"" + Esc(reason) + "\"><td>" +
            Esc(PassName(recording_, decision.pass_index)) + "</td><td>%" +
            Esc(decision.producer_name) + " <span class=\"muted\">" +
            Esc(decision.producer_opcode) + "</span></td><td>%" + Esc(decision.consumer_name) +
            " <span class=\"muted\">" + Esc(decision.consumer_opcode) + "</span></td><td class=\"" +
            outcome + "\">" + outcome + "</td><td>" + Esc(reason) + "</td><td>" +
            Esc(decision.explanation) + "</td><td>" + Esc(decision.fusion_name) + "</td></tr>\n";
  }

  void Failure() {
    if (!recording_.failed()) return;
    const recording::Reproducer& reproducer = *recording_.reproducer;
    out_ += "<section id=\"failure\"><h2>Failure</h2><p>Pass " +
            Esc(PassName(recording_, reproducer.pass_index)) + " failed: " + Esc(reproducer.error) +
            "</p><p>Reproducer: run this pass alone on the module below.</p><pre>" +
            Esc(reproducer.module_text) + "</pre></section>\n";
  }

  const recording::Recording& recording_;
  const ReportOptions& options_;
  const std::vector<recording::OperationCounts> counts_;  // [0] the input, [i + 1] after pass i
  std::string out_;
};

}  // namespace

std::string HtmlReport::Render(const recording::Recording& recording,
                               const ReportOptions& options) {
  return ReportBuilder(recording, options).Build();
}

Status WriteReport(const recording::Recording& recording, const std::string& path,
                   const ReportOptions& options) {
  std::string html = HtmlReport::Render(recording, options);
  std::ofstream file(path, std::ios::binary);
  file << html;
  file.close();
  if (!file) return Status::Error(path + ": cannot write file");
  return Status::Ok();
}

}  // namespace fusescope::views
