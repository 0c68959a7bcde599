# Writes OUT (a .cpp defining fusescope::app::kVersion) with VERSION and the source tree's git
# revision (`git describe --always --dirty`), rewriting it only when the text changes, so
# that a build after a commit says which commit it is without rebuilding anything else.
execute_process(COMMAND git describe --always --dirty --abbrev=12
                WORKING_DIRECTORY ${SOURCE_DIR}
                OUTPUT_VARIABLE revision OUTPUT_STRIP_TRAILING_WHITESPACE
                ERROR_QUIET RESULT_VARIABLE failed)
if(failed OR revision STREQUAL "")
  set(revision "unknown revision")
else()
  set(revision "git ${revision}")
endif()
set(text "namespace fusescope::app {\nextern const char kVersion[];\nconst char kVersion[] = \"${VERSION} (${revision})\";\n}  // namespace fusescope::app\n")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUT} "${text}")
endif()
