#!/usr/bin/env python3
"""Checks that the folders include only what lies below them (docs/layout.md).

Every `#include "FOLDER/..."` of a source file under one of the core folders must name the
folder itself or one it may depend on. Prints each offending line and exits 1; prints the
include counts per folder with --verbose.

Usage: check_layers.py SOURCE_DIR [--verbose]
"""
import collections
import os
import re
import sys

# What each folder may include, besides itself. Anything not listed here (app/, tests/,
# bench/, fuzz/) sits above everything.
ALLOWED = {
    "ir": set(),
    "resources": set(),
    "passes": {"ir"},
    "recording": {"ir", "passes"},
    # The built-in samples are models a user names like files (importers/open_any.h).
    "importers": {"ir", "passes", "recording", "resources"},
    "runtime": {"ir", "passes", "recording"},
    "profiler": {"ir", "passes", "recording", "importers", "runtime"},
    "compare": {"ir", "passes", "recording", "importers", "runtime", "profiler"},
    "tuning": {"ir", "passes", "recording", "importers", "runtime", "profiler"},
    "views": {"ir", "passes", "recording", "importers", "runtime", "profiler", "compare",
              "tuning", "resources"},
}
INCLUDE = re.compile(r'\s*#\s*include\s+"([A-Za-z_]+)/')


def main():
    source = sys.argv[1]
    verbose = "--verbose" in sys.argv
    bad = []
    counts = collections.defaultdict(collections.Counter)
    for folder, allowed in ALLOWED.items():
        for root, _, files in os.walk(os.path.join(source, folder)):
            for name in files:
                if not name.endswith((".h", ".cpp")):
                    continue
                path = os.path.join(root, name)
                with open(path, errors="replace") as f:
                    for number, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m or m.group(1) == folder:
                            continue
                        target = m.group(1)
                        if target not in ALLOWED and target not in {"app", "tests", "bench",
                                                                    "fuzz"}:
                            continue  # a library's own headers: "mlir/...", "llvm/..."
                        counts[folder][target] += 1
                        if target not in allowed:
                            rel = os.path.relpath(path, source)
                            bad.append(f"{rel}:{number}: {folder}/ includes {target}/, "
                                       f"which lies above it: {line.strip()}")
    if verbose:
        for folder in ALLOWED:
            print(f"{folder}: " + ", ".join(f"{t} {n}" for t, n in sorted(counts[folder].items())))
    for line in bad:
        print(line, file=sys.stderr)
    if not bad:
        print(f"layers: {len(ALLOWED)} core folders include only what lies below them")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
