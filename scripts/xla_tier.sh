#!/usr/bin/env bash
# Runs one tier of tests that drive XLA through jaxlib (a Python script of scripts/) with the
# Python that has jax, found when the test runs, not when it was configured: $FUSESCOPE_PYTHON,
# else the repository's .venv (scripts/setup_python.sh), else python3. A script exits 77 when
# jax is not importable, which ctest reports as a skip; with FUSESCOPE_REQUIRE_XLA=1
# (scripts/test.sh sets it once it has made the environment) that skip is a failure instead,
# so that a run that could have checked against XLA never passes without doing it.
#   scripts/xla_tier.sh SCRIPT.py [ARGS...]
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
script="$1"
shift
python="${FUSESCOPE_PYTHON:-}"
if [[ -z "$python" ]]; then
  if [[ -x "$root/.venv/bin/python" ]]; then python="$root/.venv/bin/python"; else python=python3; fi
fi
"$python" "$root/scripts/$script" "$@"
status=$?
if [[ $status -eq 77 && "${FUSESCOPE_REQUIRE_XLA:-0}" == 1 ]]; then
  echo "FAILED: $script could not run XLA with $python, but this machine's XLA environment was made" \
    "(FUSESCOPE_REQUIRE_XLA=1): a skipped XLA tier is not a pass"
  exit 1
fi
exit $status
