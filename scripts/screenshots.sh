#!/usr/bin/env bash
# Renders the workbench's main states to PNG files, offscreen, and copies them to
# docs/screenshots/:
#   default_sample        the built-in default sample as a new user first sees it
#   fusion_pass_diff      a fusion pass side by side, a fused node selected, its originals marked
#   refused_decision      a refused fusion decision written on the edge of its pair
#   inspector_fused_node  the inspector on a fused node (provenance, decisions)
#   worker_crashed        a compile whose worker crashed in a pass, reported above the last
#                         good recording, which stays on display
#   stage_strip           four panes over the fusion passes of bert_encoder (gpu pipeline),
#                         rendered by `fusescope gui --strip 4 --strip-filter fusion`
#   lesson_presenter      lesson:mlp_fusion on its refused decision, in presenter mode
#   what_if_bert_max_operands_8  the What If dock: bert_encoder with fusion.max_operands=8
#                         against the default
#   tuning_view           the Tuning dock on a real search over bert_encoder's kernels (compiled,
#                         tuned over tile x vector x unroll, then `fusescope gui --tuning-kernel`
#                         on the tuned kernel with the most trials)
# The originals stay in BUILD_DIR/gui_screenshots/, with gpu_pipeline.png: the default sample
# compiled with the gpu pipeline, rendered by `fusescope gui --screenshot`.
# Usage: scripts/screenshots.sh [BUILD_DIR]   (default: build; configured with the GUI on)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
export QT_QPA_PLATFORM=offscreen
cmake --build "$build" --target fusescope fusescope_gui_tests
"$build/tests/fusescope_gui_tests" --gtest_filter='ScreenshotTest.*'
mkdir -p docs/screenshots
cp "$build"/gui_screenshots/{default_sample,fusion_pass_diff,refused_decision,inspector_fused_node,worker_crashed}.png \
   docs/screenshots/
"$build/app/fusescope" gui --pipeline gpu --screenshot "$build/gui_screenshots/gpu_pipeline.png"
"$build/app/fusescope" gui sample:bert_encoder --pipeline gpu --strip 4 --strip-filter fusion \
  --screenshot docs/screenshots/stage_strip.png
"$build/app/fusescope" gui --lesson lesson:mlp_fusion --lesson-step 4 --presenter \
  --screenshot docs/screenshots/lesson_presenter.png
"$build/app/fusescope" gui sample:bert_encoder --what-if-set fusion.max_operands=8 \
  --screenshot docs/screenshots/what_if_bert_max_operands_8.png
tuned=$(mktemp -d)
trap 'rm -rf "$tuned"' EXIT
"$build/app/fusescope" compile sample:bert_encoder -o "$tuned/bert.fsdb"
"$build/app/fusescope" tune "$tuned/bert.fsdb" --space "tile=0,16,32 vector=4,8,16 unroll=1,2" --reps 5
kernel=$("$build/app/fusescope" tune "$tuned/bert.fsdb" --list |
         awk '$1 != "run" && $2 ~ /^[0-9]+$/ && $2 + 0 > most { most = $2 + 0; name = $1 } END { print name }')
"$build/app/fusescope" gui "$tuned/bert.fsdb" --tuning-kernel "$kernel" \
  --screenshot docs/screenshots/tuning_view.png
ls -l docs/screenshots "$build/gui_screenshots"
