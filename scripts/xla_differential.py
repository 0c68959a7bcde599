#!/usr/bin/env python3
"""Differential test against XLA: every snapshot of both built-in pipelines, run by XLA.

For each real jax fixture, the module goes through `fusescope compile` with the cpu and the gpu
pipeline. Every snapshot (after each pass) is printed and
  1. parsed by XLA's own HLO parser, as printed (fusions and all), and
  2. with its fusions put back in place (`fusescope print --inline-fusions`: XLA compiles
     unoptimized modules only) compiled by XLA's CPU client and run on seeded inputs; its
     outputs must match the original module's, run the same way, within --rtol, or be no
     further from the exact answer (the original interpreted in f64, `fusescope run
     --save-exact`) than the original's own run is.
A snapshot XLA refuses or that computes different numbers names its pass. Prints a table of
fixtures x pipelines x passes; exit status 1 on any failure, 77 when jax is not importable
(the test is then skipped, with the reason).

Usage: scripts/xla_differential.py FUSESCOPE [--rtol 1e-5] [--json OUT.json]
"""

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import xla_run  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "tests" / "data"
FIXTURES = [
    "mlp/before_optimizations.hlo",
    "attention/before_optimizations.hlo",
    "convnet/before_optimizations.hlo",
    "variants/control_flow.before_optimizations.hlo",
    "training/bert_train_step.rbg.hlo",
    "training/bert_train_step.threefry.nometa.hlo",
    "training/scan_grad.hlo",
    "training/cond_sort.hlo",
    "training/decoder_grad.hlo",
]
PIPELINES = ["cpu", "gpu"]


def fusescope(binary, *args):
    done = subprocess.run([binary, *args], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"fusescope {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout


def first_line(error):
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


class Checker:
    def __init__(self, binary, xla, rtol, atol, work):
        self.binary, self.xla, self.rtol, self.atol, self.work = binary, xla, rtol, atol, work
        self.verdicts = {}
        self.exact = None

    def reference(self, fixture):
        """Inputs and the original module's outputs, from `fusescope export` of the input."""
        self.verdicts = {}
        folder = self.work / fixture.replace("/", "_")
        fusescope(self.binary, "export", str(DATA / fixture), "-o", str(folder))
        inputs = xla_run.read_inputs(self.xla.np, folder)
        executable = self.xla.compile((folder / "original.hlo").read_text())
        self.exact = self.exact_answer(fixture, folder)
        return inputs, self.xla.run(executable, inputs)

    def exact_answer(self, fixture, folder):
        """The original module interpreted in f64 on the same inputs (`fusescope run
        --save-exact`), what an output outside the tolerance is judged by; None when it cannot
        run (the interpreter refuses rng-bit-generator)."""
        done = subprocess.run([self.binary, "run", str(DATA / fixture), "--inputs",
                               str(folder / "inputs"), "--save-exact", str(folder / "exact"),
                               "--json"], capture_output=True, text=True)
        if done.returncode != 0:
            return None
        count = len(json.loads(done.stdout)["outputs"])
        return [self.xla.np.load(folder / "exact" / f"out_{i:03d}.npy") for i in range(count)]

    def check_snapshot(self, recording, index, inputs, want):
        """(parsed, matched, worst relative error, failure text or None) for one snapshot.
        A pass that left the text as it was gets the previous snapshot's verdict."""
        text = fusescope(self.binary, "print", recording, "--pass", str(index))
        if text not in self.verdicts:
            self.verdicts[text] = self.judge(recording, index, text, inputs, want)
        return self.verdicts[text]

    def judge(self, recording, index, text, inputs, want):
        try:
            self.xla.parse(text)
        except Exception as error:  # noqa: BLE001  (XLA raises several types)
            return False, False, None, "XLA's parser refused the snapshot: " + first_line(error)
        inlined = fusescope(self.binary, "print", recording, "--pass", str(index),
                            "--inline-fusions")
        try:
            got = self.xla.run(self.xla.compile(inlined), inputs)
        except Exception as error:  # noqa: BLE001
            return True, False, None, "XLA refused the inlined snapshot: " + first_line(error)
        results = xla_run.compare(self.xla.np, got, want, self.rtol, self.atol)
        worst = max((rel for _, rel, _ in results), default=0.0)
        bad = [i for i, (_, _, ok) in enumerate(results) if not ok and not self.rounding(i, got, want)]
        failure = f"outputs {bad} differ (max rel err {worst:.2e})" if bad else None
        return True, not bad, worst, failure

    def rounding(self, index, got, want):
        """Whether output `index`, outside the tolerance of the original's, is no further from
        the exact answer than the original's own run (or the original is ill-conditioned)."""
        if self.exact is None or index >= len(got) or index >= len(want) or index >= len(self.exact):
            return False
        if got[index].dtype.kind not in "f" or got[index].shape != self.exact[index].shape:
            return False
        rtol = xla_run.effective_rtol(want[index].dtype, self.rtol)
        verdict, _ = xla_run.arbitrate(self.xla.np, got[index], want[index], self.exact[index],
                                       rtol, self.atol, ("snapshot", "original"))
        return verdict != "MISMATCH"

    def check_pipeline(self, fixture, pipeline, inputs, want):
        recording = str(self.work / f"{fixture.replace('/', '_')}.{pipeline}.fsdb")
        fusescope(self.binary, "compile", str(DATA / fixture), "--pipeline", pipeline,
                  "-o", recording)
        passes = json.loads(fusescope(self.binary, "passes", recording, "--json"))["passes"]
        row = {"fixture": fixture, "pipeline": pipeline, "passes": len(passes), "parsed": 0,
               "matched": 0, "worst_rel_err": 0.0, "failures": []}
        for entry in passes:
            parsed, matched, worst, failure = self.check_snapshot(
                recording, entry["index"], inputs, want)
            row["parsed"] += parsed
            row["matched"] += matched
            if worst is not None:
                row["worst_rel_err"] = max(row["worst_rel_err"], worst)
            if failure:
                row["failures"].append(f"pass {entry['index']} {entry['name']}: {failure}")
        return row


def print_table(rows, seconds):
    print(f"{'fixture':48} {'pipeline':8} {'passes':>6} {'parsed':>6} {'matched':>7} "
          f"{'worst rel err':>13}")
    for row in rows:
        print(f"{row['fixture']:48} {row['pipeline']:8} {row['passes']:6} {row['parsed']:6} "
              f"{row['matched']:7} {row['worst_rel_err']:13.2e}")
        for failure in row["failures"]:
            print(f"    FAILED {failure}")
    snapshots = sum(r["passes"] for r in rows)
    matched = sum(r["matched"] for r in rows)
    print(f"{len(rows)} fixture x pipeline runs, {snapshots} snapshots, {matched} matched, "
          f"{snapshots - matched} failed, {seconds:.1f} s")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("fusescope")
    parser.add_argument("--rtol", type=float, default=1e-5)
    parser.add_argument("--atol", type=float, default=1e-6)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    try:
        xla = xla_run.Xla()
    except ImportError as error:
        print(f"SKIP: jax/jaxlib not importable by {sys.executable} ({error}); "
              "scripts/test.sh makes a virtual environment with them")
        return 77
    start = time.monotonic()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        checker = Checker(args.fusescope, xla, args.rtol, args.atol, Path(tmp))
        for fixture in FIXTURES:
            inputs, want = checker.reference(fixture)
            for pipeline in PIPELINES:
                rows.append(checker.check_pipeline(fixture, pipeline, inputs, want))
    print_table(rows, time.monotonic() - start)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))
    failed = sum(r["passes"] - r["matched"] for r in rows)
    print(f"{sum(r['matched'] for r in rows)} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
