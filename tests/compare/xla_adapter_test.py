#!/usr/bin/env python3
"""The XLA adapter's reading of XLA's optimized module, on real output (jaxlib 0.10.2's CPU
client, tests/data/compare/mlp.onnx at batch 1, tests/data/compare/xla): which of the model's
ops each kernel of the entry computation holds. Needs no jax."""

import os
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "compare", "adapters"))

from peers import xla  # noqa: E402  (after the path that finds it)

DATA = os.path.join(ROOT, "tests", "data", "compare", "xla")


class KernelOpsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(os.path.join(DATA, "mlp_b1.cpu_after_optimizations.txt")) as stream:
            cls.kernels = xla.instruction_names_of_text(stream.read())

    def test_a_dot_without_metadata_computes_what_its_reader_views_it_as(self):
        # At batch 1 XLA rewrites each dot into a dot.N without metadata; the fusion reading it
        # holds only a bitcast of it named after the matmul.
        self.assertEqual(self.kernels["dot.2"], ["fc1_matmul"])
        self.assertEqual(self.kernels["dot.3"], ["fc2_matmul"])

    def test_a_fusion_holds_what_it_computes_not_what_it_views(self):
        self.assertEqual(self.kernels["maximum_bitcast_fusion"], ["fc1_bias", "relu"])
        self.assertEqual(self.kernels["add_bitcast_fusion"], ["fc2_bias"])

    def test_constants_and_parameters_hold_no_op(self):
        self.assertNotIn("x.1", self.kernels)
        for name, ops in self.kernels.items():
            if name.startswith("constant"):
                self.assertEqual(ops, [], name)


if __name__ == "__main__":
    unittest.main()
