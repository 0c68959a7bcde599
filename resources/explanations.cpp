#include "resources/explanations.h"

#include <cctype>
#include <unordered_map>

namespace fusescope::resources {
namespace detail {
extern const std::string_view kPassExplanationsText;
}  // namespace detail
namespace {

std::string_view Trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
    text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
    text.remove_suffix(1);
  return text;
}

// Lower-case letters and digits only: "Layout_Assignment" and "layout-assignment" meet.
std::string Normalized(std::string_view name) {
  std::string out;
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c)))
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

std::string WithoutPassSuffix(const std::string& normalized) {
  if (normalized.size() > 4 && normalized.compare(normalized.size() - 4, 4, "pass") == 0)
    return normalized.substr(0, normalized.size() - 4);
  return normalized;
}

std::vector<PassExplanation> Parse(std::string_view text) {
  std::vector<PassExplanation> all;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    const std::string_view line = Trim(text.substr(0, end));
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    if (line.empty() || line.front() == '#') continue;
    if (line.front() == '[' && line.back() == ']') {
      all.emplace_back().key = std::string(Trim(line.substr(1, line.size() - 2)));
      continue;
    }
    const size_t colon = line.find(':');
    if (all.empty() || colon == std::string_view::npos) continue;
    const std::string_view field = Trim(line.substr(0, colon));
    const std::string value(Trim(line.substr(colon + 1)));
    PassExplanation& pass = all.back();
    if (field == "names") {
      std::string_view rest = value;
      while (!rest.empty()) {
        const size_t comma = rest.find(',');
        const std::string_view name = Trim(rest.substr(0, comma));
        if (!name.empty()) pass.names.emplace_back(name);
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
      }
    } else if (field == "compiler") {
      pass.compiler = value;
    } else if (field == "does") {
      pass.does = value;
    } else if (field == "looks for") {
      pass.looks_for = value;
    } else if (field == "cannot") {
      pass.cannot = value;
    } else if (field == "docs") {
      pass.docs = value;
    }
  }
  return all;
}

const std::unordered_map<std::string, size_t>& Index() {
  static const auto* index = [] {
    auto* map = new std::unordered_map<std::string, size_t>;
    const std::vector<PassExplanation>& all = PassExplanations();
    for (size_t i = 0; i < all.size(); ++i) {
      std::vector<std::string> spellings = all[i].names;
      spellings.insert(spellings.begin(), all[i].key);
      for (const std::string& spelling : spellings) {
        const std::string normalized = Normalized(spelling);
        map->emplace(normalized, i);
        map->emplace(WithoutPassSuffix(normalized), i);
      }
    }
    return map;
  }();
  return *index;
}

}  // namespace

const std::vector<PassExplanation>& PassExplanations() {
  static const auto* all = new std::vector<PassExplanation>(Parse(detail::kPassExplanationsText));
  return *all;
}

std::optional<PassExplanation> ExplainPass(std::string_view pass_name) {
  std::string_view name = Trim(pass_name);
  while (!name.empty() && name.back() == ':') name.remove_suffix(1);
  // Options as printed after the argument ("inline{max-iterations=4}") are not the name.
  if (const size_t brace = name.find('{'); brace != std::string_view::npos)
    name = Trim(name.substr(0, brace));
  std::vector<std::string_view> candidates;
  const size_t open = name.find(" (");
  const size_t colon = name.find(": ");
  if (colon != std::string_view::npos && name.find("::") != colon) {
    // IREE's form: "CSEPass: cse".
    candidates.push_back(Trim(name.substr(colon + 2)));
    candidates.push_back(name.substr(0, colon));
  } else if (open != std::string_view::npos && name.back() == ')') {
    candidates.push_back(name.substr(open + 2, name.size() - open - 3));
    candidates.push_back(name.substr(0, open));
  } else {
    candidates.push_back(name);
  }
  const size_t scope = candidates.back().rfind("::");
  if (scope != std::string_view::npos) candidates.push_back(candidates.back().substr(scope + 2));
  const auto& index = Index();
  for (std::string_view candidate : candidates) {
    const std::string normalized = Normalized(candidate);
    if (normalized.empty()) continue;
    for (const std::string& key : {normalized, WithoutPassSuffix(normalized)}) {
      if (auto it = index.find(key); it != index.end()) return PassExplanations()[it->second];
    }
  }
  return std::nullopt;
}

}  // namespace fusescope::resources
