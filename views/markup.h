#ifndef FUSESCOPE_VIEWS_MARKUP_H_
#define FUSESCOPE_VIEWS_MARKUP_H_

// Small helpers for writing XML, SVG and HTML text.

#include <string>
#include <string_view>

namespace fusescope::views {

// Escapes &, <, >, " and ' so the text is safe in element content and in quoted attributes.
std::string EscapeXml(std::string_view text);
// "12.5"; one decimal, no trailing ".0".
std::string FormatNumber(double value);
// Shortens `text` to at most `limit` characters, ending with "..." when cut.
std::string Shorten(std::string_view text, size_t limit);

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_MARKUP_H_
