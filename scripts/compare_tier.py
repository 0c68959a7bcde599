#!/usr/bin/env python3
"""The comparison with the real peers this machine's set-up installed (scripts/setup_peers.sh).

Runs `fusescope compare` on a small ONNX model at two batch sizes with ours, XLA, ONNX Runtime
and IREE (and TVM and Inductor where their environments were made) and checks that every compiler whose
environment exists built, ran and was judged right against the f64 answer, that one with no
environment is reported as not installed with its install command (never as an error), and
that a peer whose Python lacks its package says so in one line.

Exits 77 (a skip for ctest) when no peer environment exists; with FUSESCOPE_REQUIRE_PEERS=1
(scripts/test.sh sets it once it has made them) that is a failure instead.
Usage: compare_tier.py FUSESCOPE
"""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODEL = ROOT / "tests/data/compare/mlp.onnx"


def environment(compiler):
    if compiler == "xla":
        python = ROOT / ".venv/bin/python"
    else:
        python = ROOT / ".venv-peers" / compiler / "bin/python"
    return python if python.exists() else None


def main():
    fusescope = sys.argv[1]
    present = [c for c in ("xla", "ort", "iree", "tvm", "inductor") if environment(c)]
    if not any(c in present for c in ("ort", "iree", "tvm")):
        message = "no peer environment (.venv-peers/*): run scripts/setup_peers.sh"
        if os.environ.get("FUSESCOPE_REQUIRE_PEERS") == "1":
            print("FAILED: " + message + ", but this machine's peers were set up "
                  "(FUSESCOPE_REQUIRE_PEERS=1): a skipped tier is not a pass")
            return 1
        print("skipped: " + message)
        return 77
    compilers = ["ours", "xla", "ort", "iree"] + [c for c in ("tvm", "inductor") if c in present]
    failures = []
    with tempfile.TemporaryDirectory(prefix="compare-tier-") as scratch:
        args = [fusescope, "compare", str(MODEL), "--compilers", ",".join(compilers),
                "--batch", "1,8", "--reps", "30", "--warmup", "3", "--tvm-trials", "8",
                "--json", "--work", scratch, "-o", str(Path(scratch) / "cmp.fsdb")]
        done = subprocess.run(args, capture_output=True, text=True, timeout=1500)
        if done.returncode != 0:
            print("compare failed:", done.stderr.strip())
            return 1
        report = json.loads(done.stdout)
        by_name = {peer["compiler"]: peer for peer in report["compilers"]}
        for compiler in compilers:
            peer = by_name[compiler]
            rows = [row for row in report["rows"] if row["compiler"] == compiler]
            installed = compiler == "ours" or compiler in present
            print(f"{compiler:6} {peer['status']:14} {peer['message'][:100]}")
            for row in rows:
                latency = row["latency_us"]
                print(f"    {row['variant']:18} {row['shape']:6} p50 {latency['p50']:10.1f} us  "
                      f"build {row['build_s'] if row['build_s'] is not None else -1:6.2f} s  "
                      f"err {row['max_abs_error']}  {row['verdict'] or row['error'][:80]}")
            if not installed:
                if peer["status"] != "not installed" or "setup_peers.sh" not in peer["message"]:
                    failures.append(f"{compiler}: absent, but reported {peer['status']}: {peer['message']}")
                continue
            if peer["status"] != "ok":
                failures.append(f"{compiler}: {peer['status']}: {peer['message']}")
                continue
            if not peer["versions"]:
                failures.append(f"{compiler}: no versions recorded")
            for row in rows:
                if row["error"] or not row["verdict"].startswith("ok"):
                    failures.append(f"{row['variant']} at {row['shape']}: "
                                    f"{row['error'] or row['verdict'] + ' ' + row['judgement']}")
                elif row["latency_us"]["count"] != 30:
                    failures.append(f"{row['variant']} at {row['shape']}: "
                                    f"{row['latency_us']['count']} calls timed, 30 asked")
            if compiler == "tvm" and {r["variant"] for r in rows} != {"tvm-untuned", "tvm-metaschedule"}:
                failures.append("tvm: not measured both untuned and after MetaSchedule")
            # Each op followed into the kernels of the compilers whose profilers this tier
            # drives: both matmuls of the MLP are in a kernel with a time.
            if compiler in ("ours", "ort", "iree", "tvm", "inductor"):
                kernels = [k for k in peer.get("kernels", []) if k["shape"] == "b1"]
                held = {op for k in kernels if k.get("time_us", -1) > 0 for op in k["ops"]}
                # Inductor times its generated kernels only (the ReLU here); its library calls
                # (addmm), which its provenance gives the bias adds, have no time of their own.
                required = (("relu",) if compiler == "inductor" else ("fc1_matmul", "fc2_matmul"))
                if compiler == "inductor":
                    untimed = {op for k in kernels for op in k["ops"]}
                    for op in ("fc1_bias", "fc2_bias"):
                        if op not in untimed:
                            failures.append(f"inductor: no kernel holds {op}")
                print("    kernels: " + "; ".join(f"{k['name']} {k.get('time_us', -1):.1f} us "
                                                 f"{'+'.join(k['ops'])}" for k in kernels))
                for op in required:
                    if op not in held:
                        failures.append(f"{compiler}: no kernel with a time holds {op} "
                                        f"({peer.get('kernels_note', '')})")
        # A Python without the compiler's package: one line saying so, with the install command.
        python = environment("ort") or environment("iree")
        env = dict(os.environ, FUSESCOPE_PEER_PYTHON_TVM=str(python))
        done = subprocess.run([fusescope, "compare", str(MODEL), "--compilers", "tvm", "--reps", "2",
                               "--json", "--work", str(Path(scratch) / "missing")],
                              capture_output=True, text=True, timeout=300, env=env)
        missing = json.loads(done.stdout)["compilers"][0] if done.returncode == 0 else {}
        print(f"tvm without its package: {missing.get('status')}: {missing.get('message')}")
        if missing.get("status") != "not installed" or "setup_peers.sh tvm" not in missing.get("message", ""):
            failures.append(f"a missing TVM was reported as {missing or done.stderr.strip()}")
    for failure in failures:
        print("FAIL:", failure)
    print("compare tier: ok" if not failures else "compare tier: FAILED")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
