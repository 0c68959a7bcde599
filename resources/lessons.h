#ifndef FUSESCOPE_RESOURCES_LESSONS_H_
#define FUSESCOPE_RESOURCES_LESSONS_H_

// The built-in lessons, embedded at build time from resources/lessons/*.lesson (the format is
// documented in docs/lessons.md and parsed by views/lesson.h). A user names one as
// `lesson:NAME`, NAME being the file name without its extension.

#include <string_view>
#include <vector>

namespace fusescope::resources {

struct BuiltinLesson {
  std::string_view name;  // "mlp_fusion"
  std::string_view text;  // the .lesson file
};

std::vector<BuiltinLesson> BuiltinLessons();
// Empty text when there is no such lesson.
BuiltinLesson FindLesson(std::string_view name);

inline constexpr std::string_view kLessonPrefix = "lesson:";

}  // namespace fusescope::resources

#endif  // FUSESCOPE_RESOURCES_LESSONS_H_
