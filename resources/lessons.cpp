#include "resources/lessons.h"

namespace fusescope::resources {
namespace detail {
struct EmbeddedSample {
  std::string_view file;
  std::string_view text;
};
extern const EmbeddedSample kEmbeddedLessons[];
extern const int kEmbeddedLessonsCount;
}  // namespace detail

std::vector<BuiltinLesson> BuiltinLessons() {
  std::vector<BuiltinLesson> lessons;
  for (int i = 0; i < detail::kEmbeddedLessonsCount; ++i) {
    lessons.push_back({detail::kEmbeddedLessons[i].file, detail::kEmbeddedLessons[i].text});
  }
  return lessons;
}

BuiltinLesson FindLesson(std::string_view name) {
  if (name.starts_with(kLessonPrefix)) name.remove_prefix(kLessonPrefix.size());
  for (const BuiltinLesson& lesson : BuiltinLessons()) {
    if (lesson.name == name) return lesson;
  }
  return {};
}

}  // namespace fusescope::resources
