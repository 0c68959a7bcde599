#include "views/pass_diff_html.h"

#include <vector>

#include "views/markup.h"

namespace fusescope::views {

namespace {

constexpr std::string_view kPictureStyle =
    R"CSS(.picture { overflow: auto; border: 1px solid #e3e6e9; background: #fff; cursor: zoom-in; }
.picture svg { max-width: 100%; height: auto; display: block; }
.picture.actual { cursor: zoom-out; max-height: 85vh; }
.picture.actual svg { max-width: none; }
)CSS";

constexpr std::string_view kPictureScript =
    R"JS(  document.querySelectorAll('.picture').forEach(function (picture) {
    picture.addEventListener('click', function () { picture.classList.toggle('actual'); });
  });
)JS";

}  // namespace

std::string_view PassPictureStyle() { return kPictureStyle; }

std::string_view PassPictureScript() { return kPictureScript; }

std::string PassDiffSummaryHtml(const recording::Recording& recording, const PassDiff& diff) {
  std::string out = "<p class=\"counts\">" + EscapeXml(diff.diff().CountsLine()) + "</p>\n";
  std::vector<std::string> statements = diff.diff().Statements();
  if (!statements.empty()) {
    out += "<ul class=\"statements\">";
    for (const std::string& statement : statements) out += "<li>" + EscapeXml(statement) + "</li>";
    out += "</ul>\n";
  }
  out += "<details><summary>all changes as text</summary><pre>" + EscapeXml(diff.Text(recording)) +
         "</pre></details>\n";
  return out;
}

StatusOr<std::string> InlinePassSvg(const recording::Recording& recording, const PassDiff& diff,
                                    DiffViewOptions options, const std::string& id_prefix) {
  options.svg.standalone = false;
  options.svg.id_prefix = id_prefix;
  return diff.RenderSvg(recording, options);
}

std::string PassPictureHtml(const StatusOr<std::string>& svg, const std::string& box_id) {
  if (!svg.ok()) return "<p class=\"muted\">No picture: " + EscapeXml(svg.message()) + "</p>\n";
  std::string id = box_id.empty() ? "" : " id=\"" + EscapeXml(box_id) + "\"";
  return "<div class=\"picture\"" + id + " title=\"click to toggle actual size\">\n" + *svg +
         "</div>\n";
}

}  // namespace fusescope::views
