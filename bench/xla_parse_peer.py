#!/usr/bin/env python3
"""Times XLA's own HLO text parser (from the installed jaxlib) on one file.

Usage: bench/xla_parse_peer.py FILE

Prints one line, `xla_parse_seconds=<best of 3> instructions=<n>`, for side-by-side runs
with Fusescope's parser. Only parsing is timed: XLA's text parser builds the HloModule
without running the verifier or any pass, and the file is read before the clock starts.
Exits with 3 when jaxlib is missing or offers no HLO text parser, with 1 when XLA rejects
the file.
"""

import importlib
import os
import sys
import time

RUNS = 3

# Where jaxlib has kept hlo_module_from_text over the years, newest first.
CANDIDATES = (
    ("jaxlib._hlo", "hlo_module_from_text"),
    ("jaxlib.xla_extension", "hlo_module_from_text"),
    ("jax._src.lib.xla_client", "_xla.hlo_module_from_text"),
)


def find_parser():
    for module_name, attribute_path in CANDIDATES:
        try:
            target = importlib.import_module(module_name)
        except Exception:  # noqa: BLE001  (a broken jaxlib raises more than ImportError)
            continue
        for attribute in attribute_path.split("."):
            target = getattr(target, attribute, None)
        if callable(target):
            return f"{module_name}.{attribute_path}", target
    return None, None


def main():
    if len(sys.argv) != 2:
        print("usage: xla_parse_peer.py FILE", file=sys.stderr)
        return 2
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    name, parse = find_parser()
    if parse is None:
        print("xla_parse_peer: jaxlib is not importable or has no HLO text parser "
              "(tried " + ", ".join(m + "." + a for m, a in CANDIDATES) + ")", file=sys.stderr)
        return 3
    try:
        with open(sys.argv[1], encoding="utf-8") as f:
            text = f.read()
    except OSError as error:
        print(f"xla_parse_peer: {error}", file=sys.stderr)
        return 2
    best = float("inf")
    module = None
    for _ in range(RUNS):
        start = time.perf_counter()
        try:
            module = parse(text)
        except Exception as error:  # noqa: BLE001  (XLA reports parse errors as several types)
            print(f"xla_parse_peer: {name} rejected {sys.argv[1]}: {error}", file=sys.stderr)
            return 1
        best = min(best, time.perf_counter() - start)
    instructions = sum(len(c.instructions()) for c in module.computations())
    print(f"xla_parse_seconds={best:.6f} instructions={instructions}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
