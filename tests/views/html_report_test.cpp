#include "views/html_report.h"

#include <gtest/gtest.h>

#include <string>

#include "recording/compile_and_record.h"
#include "recording/operation_counts.h"
#include "resources/samples.h"
#include "tests/views/xml_check.h"

namespace fusescope::views {
namespace {

using testing::XmlDocument;
using testing::XmlReader;

const recording::Recording& Mlp() {
  static const recording::Recording recording = [] {
    StatusOr<recording::Recording> result = recording::CompileAndRecord(
        resources::FindSample("mlp").text, passes::PipelineOptions{}, "mlp.hlo");
    EXPECT_TRUE(result.ok()) << result.message();
    return result.ok() ? std::move(result).value() : recording::Recording{};
  }();
  return recording;
}

int Occurrences(const std::string& text, const std::string& needle) {
  int count = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
    ++count;
  }
  return count;
}

TEST(HtmlReportTest, HasTheSectionsAndFilters) {
  std::string html = HtmlReport::Render(Mlp());
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  for (const char* needle :
       {"<section id=\"passes\"", "<section id=\"diffs\"", "<section id=\"decisions\"",
        "id=\"filter-pass\"", "id=\"filter-outcome\"", "id=\"filter-reason\"", "id=\"filter-text\"",
        "id=\"only-changed\"", "<script>", "Fusescope report: "}) {
    EXPECT_NE(html.find(needle), std::string::npos) << needle;
  }
  EXPECT_EQ(html.find("id=\"failure\""), std::string::npos);
}

TEST(HtmlReportTest, OneRowPerPassAndDecisionAndOneSectionPerChangedPass) {
  const recording::Recording& recording = Mlp();
  std::string html = HtmlReport::Render(recording);
  int changed = 0;
  for (const recording::PassRecord& pass : recording.passes) changed += pass.changed ? 1 : 0;
  ASSERT_GT(changed, 0);
  EXPECT_EQ(Occurrences(html, "<article class=\"pass-diff\""), changed);
  EXPECT_EQ(Occurrences(html, "<tr class=\"changed"), changed);
  EXPECT_EQ(Occurrences(html, "data-outcome="), static_cast<int>(recording.decisions.size()));
  EXPECT_GT(Occurrences(html, "<td class=\"refused\">refused</td>"), 0);
}

// The report counts as `fusescope passes` does: operations outside fusion bodies, and what
// the fusions hold, so a fusion pass reads as fewer operations, not more instructions.
TEST(HtmlReportTest, CountsOperationsAsThePassTableDoes) {
  const recording::Recording& recording = Mlp();
  const std::vector<recording::OperationCounts> counts = recording::CountSnapshots(recording);
  std::string html = HtmlReport::Render(recording);
  EXPECT_NE(html.find(recording::DescribeCounts(counts.front(), counts.back())), std::string::npos);
  EXPECT_NE(html.find("<th>operations</th>"), std::string::npos);
  for (const recording::PassRecord& pass : recording.passes) {
    if (pass.name != "fusion") continue;
    const auto& before = counts[static_cast<size_t>(pass.index)];
    const auto& after = counts[static_cast<size_t>(pass.index + 1)];
    ASSERT_LT(after.operations, before.operations);
    const std::string cells = "<td class=\"num\">" + std::to_string(before.operations) +
                              " &rarr; " + std::to_string(after.operations) +
                              "</td><td class=\"num\">" +
                              std::to_string(after.operations - before.operations) +
                              "</td><td class=\"num\">" + std::to_string(after.fusions) + "</td>";
    EXPECT_NE(html.find(cells), std::string::npos) << cells;
  }
}

TEST(HtmlReportTest, PicturesAreInlineWellFormedSvg) {
  std::string html = HtmlReport::Render(Mlp());
  int pictures = 0;
  for (size_t start = html.find("<svg"); start != std::string::npos;
       start = html.find("<svg", start + 1)) {
    size_t end = html.find("</svg>", start);
    ASSERT_NE(end, std::string::npos);
    XmlDocument document = XmlReader::Read(html.substr(start, end + 6 - start));
    EXPECT_TRUE(document.ok()) << document.error;
    ++pictures;
  }
  EXPECT_GT(pictures, 0);
}

TEST(HtmlReportTest, NeedsNothingOutsideThePage) {
  std::string html = HtmlReport::Render(Mlp());
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(html.find(" src="), std::string::npos);
  EXPECT_EQ(html.find("@import"), std::string::npos);
  size_t at = html.find("http");
  while (at != std::string::npos) {
    EXPECT_EQ(html.compare(at, 26, "http://www.w3.org/2000/svg"), 0) << html.substr(at, 60);
    at = html.find("http", at + 1);
  }
}

TEST(HtmlReportTest, FailedRecordingShowsTheReproducer) {
  recording::Recording recording = Mlp();
  recording.reproducer =
      recording::Reproducer{2, "cse", "HloModule broken_module", "operand <1> has no users"};
  std::string html = HtmlReport::Render(recording);
  EXPECT_NE(html.find("<section id=\"failure\""), std::string::npos);
  EXPECT_NE(html.find("operand &lt;1&gt; has no users"), std::string::npos);
  EXPECT_NE(html.find("HloModule broken_module"), std::string::npos);
}

TEST(HtmlReportTest, UnwritablePathIsAnError) {
  Status status = WriteReport(Mlp(), "/nonexistent-dir/report.html");
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "/nonexistent-dir/report.html: cannot write file");
}

}  // namespace
}  // namespace fusescope::views
