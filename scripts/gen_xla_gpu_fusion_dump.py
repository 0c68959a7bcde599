#!/usr/bin/env python3
"""Writes tests/data/xla_gpu_fusion_dump: an XLA:GPU-style dump folder with XLA's own record
of its priority fusion (`module_0000.jit_mlp.priority_fusion_dump.txt`, the text format of
xla.gpu.FusionProcessDumpProto: fusion_steps of `fusion {fusion_name producer_name
consumer_name}`, `producer_ineligible {producer_name reason}`, `update_priority {producer_name
consumer_names us_fused us_unfused}`, and `hlo_module_before_fusion`).

No XLA:GPU dump can be produced on machines without an NVIDIA GPU, so this sample is written
here in that documented layout: the HLO snapshots are our own GPU pipeline's on sample:mlp
(before optimizations, before and after priority-fusion, the final module), named as XLA names
its dump files, and the steps are that pipeline's recorded priority-fusion decisions, with
XLA-style sentences for the refusals and estimates from our GPU cost model.

Usage: scripts/gen_xla_gpu_fusion_dump.py build/app/fusescope
"""

import os
import re
import sqlite3
import subprocess
import sys
import tempfile

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data",
                   "xla_gpu_fusion_dump")


def run(*args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


def quoted(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def main():
    fusescope = sys.argv[1]
    os.makedirs(OUT, exist_ok=True)
    for name in os.listdir(OUT):
        os.remove(os.path.join(OUT, name))
    with tempfile.TemporaryDirectory() as tmp:
        recording = os.path.join(tmp, "mlp.fsdb")
        run(fusescope, "compile", "sample:mlp", "--pipeline", "gpu", "-o", recording)
        db = sqlite3.connect(recording)
        names = [row[0] for row in db.execute("SELECT name FROM passes ORDER BY pass_index")]
        fusion = names.index("priority-fusion")
        snapshots = {
            "before_optimizations": -1,
            "0001.fusion.after_pipeline-start.before_priority-fusion": fusion - 1,
            "0002.fusion.after_priority-fusion.before_multi_output_fusion": fusion,
            "gpu_after_optimizations": len(names) - 1,
        }
        texts = {}
        for suffix, index in snapshots.items():
            texts[suffix] = run(fusescope, "print", recording, "--pass", str(index))
            with open(os.path.join(OUT, f"module_0000.jit_mlp.{suffix}.txt"), "w") as f:
                f.write(texts[suffix])
        steps = []
        refused = set()
        for producer, consumer, reason, explanation, fused_as in db.execute(
                "SELECT producer_name, consumer_name, reason, explanation, fusion_name "
                "FROM decisions WHERE pass_index = ? ORDER BY decision_index", (fusion,)):
            producer, consumer = producer.lstrip("%"), consumer.lstrip("%")
            saved = re.search(r"save ([0-9.]+) us", explanation)
            if reason.startswith("fused"):
                unfused = 2.0 + (float(saved.group(1)) if saved else 0.5)
                steps.append(f"fusion_steps {{\n  update_priority {{\n    producer_name: "
                             f"{quoted(producer)}\n    consumer_names: {quoted(consumer)}\n"
                             f"    us_fused: 2.0\n    us_unfused: {unfused:.2f}\n  }}\n}}")
                steps.append(f"fusion_steps {{\n  fusion {{\n    fusion_name: {quoted(fused_as)}\n"
                             f"    producer_name: {quoted(producer)}\n"
                             f"    consumer_name: {quoted(consumer)}\n  }}\n}}")
            elif reason == "producer_not_fusible" and producer not in refused:
                # XLA's producer_ineligible: the producer fuses into no consumer.
                refused.add(producer)
                steps.append(f"fusion_steps {{\n  producer_ineligible {{\n    producer_name: "
                             f"{quoted(producer)}\n    reason: {quoted(explanation)}\n  }}\n}}")
        before = texts["0001.fusion.after_pipeline-start.before_priority-fusion"]
        with open(os.path.join(OUT, "module_0000.jit_mlp.priority_fusion_dump.txt"), "w") as f:
            f.write("\n".join(steps) + "\nhlo_module_before_fusion: " + quoted(before) + "\n")
    print(f"{OUT}: {len(steps)} fusion steps")


if __name__ == "__main__":
    main()
