#!/usr/bin/env python3
"""How many of the pass names real compilers print have an explanation.

Imports the pass dumps kept in tests/data (XLA dump folders made with jax, IREE's
--mlir-print-ir-tree-dir and --mlir-print-ir-after-all logs, mlir-opt logs and stage folders,
TVM DumpIR folders), counts how often each pass name occurs, and asks `fusescope explain` for
each. Prints the coverage and fails when one of the TOP most frequent names has no
explanation.

Usage: explanation_coverage.py FUSESCOPE SOURCE_DIR [--top N] [--json]
"""
import collections
import json
import os
import subprocess
import sys
import tempfile

FIXTURES = [
    "tests/data/xla_dump_mlp",
    "tests/data/xla_dump_attention",
    "tests/data/iree/print_ir_tree",
    "tests/data/mlir/iree_stablehlo_abi.log",
    "tests/data/mlir/mlir_opt_function_passes.log",
    "tests/data/mlir/mlir_opt_tosa_mlp.log",
    "tests/data/mlir/mlir_opt_failed.log",
    "tests/data/mlir/stages",
    "tests/data/tvm_dumpir/mlp",
]


def run(args):
    return subprocess.run(args, capture_output=True, text=True)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    top = 40
    if "--top" in sys.argv:
        top = int(sys.argv[sys.argv.index("--top") + 1])
        args = [a for a in args if a != str(top)]
    fusescope, source = args[0], args[1]
    counts = collections.Counter()
    where = collections.defaultdict(set)
    with tempfile.TemporaryDirectory() as tmp:
        for i, fixture in enumerate(FIXTURES):
            path = os.path.join(source, fixture)
            if not os.path.exists(path):
                print(f"explanation_coverage: fixture {fixture} is missing", file=sys.stderr)
                return 1
            out = os.path.join(tmp, f"{i}.fsdb")
            imported = run([fusescope, "import", path, "-o", out])
            if imported.returncode != 0:
                print(f"explanation_coverage: import {fixture}: {imported.stderr.strip()}",
                      file=sys.stderr)
                return 1
            listed = run([fusescope, "passes", out, "--json"])
            if listed.returncode != 0:
                print(f"explanation_coverage: passes {fixture}: {listed.stderr.strip()}",
                      file=sys.stderr)
                return 1
            for p in json.loads(listed.stdout)["passes"]:
                counts[p["name"]] += 1
                where[p["name"]].add(fixture)
    explained = {}
    for name in counts:
        explained[name] = run([fusescope, "explain", name, "--json"]).returncode == 0
    ranked = counts.most_common()
    top_names = ranked[:top]
    missing_top = [name for name, _ in top_names if not explained[name]]
    distinct = len(counts)
    distinct_ok = sum(1 for n in counts if explained[n])
    total = sum(counts.values())
    total_ok = sum(c for n, c in counts.items() if explained[n])
    result = {
        "fixtures": len(FIXTURES),
        "distinct_names": distinct,
        "distinct_explained": distinct_ok,
        "occurrences": total,
        "occurrences_explained": total_ok,
        "top": top,
        "top_missing": missing_top,
        "unexplained": sorted(n for n in counts if not explained[n]),
    }
    if "--json" in sys.argv:
        print(json.dumps(result, indent=1))
    else:
        print(f"pass names in {len(FIXTURES)} real dumps: {distinct_ok}/{distinct} distinct names "
              f"explained ({total_ok}/{total} occurrences, "
              f"{100.0 * total_ok / max(total, 1):.1f}%)")
        print(f"the {top} most frequent: {top - len(missing_top)}/{min(top, len(ranked))} explained")
        for name, count in ranked[:top]:
            print(f"  {count:4d}  {'ok ' if explained[name] else 'MISSING'}  {name}")
        unexplained = [n for n, _ in ranked[top:] if not explained[n]]
        if unexplained:
            print(f"beyond the top {top}, without an explanation: {len(unexplained)}, e.g. "
                  + ", ".join(unexplained[:10]))
    if missing_top:
        print("explanation_coverage: no explanation for " + ", ".join(missing_top),
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
