#!/usr/bin/env python3
"""The IREE adapter's reading of IREE's own output, on real files (tests/data/iree/flow): which
ops each dispatch holds, from the flow-level module before and after IREE merges identical
executables, and each dispatch's times from iree-profile's events. Needs no IREE."""

import os
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "compare", "adapters"))

from peers import iree  # noqa: E402  (after the path that finds it)

DATA = os.path.join(ROOT, "tests", "data", "iree", "flow")
PREFIX = "bert_layer$async_dispatch_"


def read(name):
    with open(os.path.join(DATA, name)) as stream:
        return stream.read()


class DispatchOpsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.holds = iree.dispatch_ops(read("bert_b1_s32.before_merge.mlir"),
                                      read("bert_b1_s32.flow.mlir"))

    def function(self, number):
        names = [name for name in self.holds if name.startswith(f"{PREFIX}{number}_")]
        self.assertEqual(len(names), 1, names)
        return self.holds[names[0]]

    def test_a_merged_executable_holds_the_ops_of_every_site(self):
        # IREE keeps dispatch_0 for the three equal 192x192 projections and drops 2 and 4.
        sites, ops = self.function(0)
        self.assertEqual(sites, 3)
        self.assertEqual(sorted(ops), ["k_matmul", "q_matmul", "v_matmul"])
        self.assertNotIn(f"{PREFIX}2_batch_matmul_1x32x192x192_f32", self.holds)

    def test_elementwise_consumers_fused_into_a_matmul_are_its_ops(self):
        sites, ops = self.function(12)
        self.assertEqual(sites, 1)
        self.assertEqual(ops[0], "ffn_up_matmul")
        for op in ("ffn_up_bias", "gelu_scale", "gelu_erf", "gelu_one_plus", "gelu_mul",
                   "gelu_half"):
            self.assertIn(op, ops)
        # Inputs (located at their producers in another dispatch) and CSE-shared fills are not.
        for op in ("x", "q_matmul", "attn_norm"):
            self.assertNotIn(op, ops)

    def test_every_site_is_counted_once(self):
        self.assertEqual(sum(sites for sites, _ in self.holds.values()), 16)
        self.assertEqual(len(self.holds), 11)

    def test_without_the_module_before_the_merge_the_sites_still_name_their_roots(self):
        holds = iree.dispatch_ops("", read("bert_b1_s32.flow.mlir"))
        sites, ops = holds[f"{PREFIX}0_batch_matmul_1x32x192x192_f32"]
        self.assertEqual(sites, 3)
        for op in ("q_matmul", "k_matmul", "v_matmul"):
            self.assertIn(op, ops)

    def test_a_profiled_name_with_a_suffix_finds_its_function(self):
        sites, ops = iree.ops_of_function(f"{PREFIX}12_batch_matmul_1x32x768x192_f32_x86", self.holds)
        self.assertEqual(ops[0], "ffn_up_matmul")
        self.assertEqual(iree.ops_of_function("other_dispatch_3", self.holds), (0, []))


class LocationsTest(unittest.TestCase):
    def test_fused_aliased_and_file_locations(self):
        aliases = {"#loc3": ["q_bias"]}
        self.assertEqual(iree.located_names('loc(fused["a", "b"])', aliases), ["a", "b"])
        self.assertEqual(iree.located_names("loc(#loc3)", aliases), ["q_bias"])
        self.assertEqual(iree.located_names('loc("model.mlir":12:3)', aliases), [])
        self.assertEqual(iree.located_names('loc("dot"("model.mlir":4:1))', aliases), ["dot"])
        # jax: the op's name, then the Python frames it was traced in.
        jax = ('loc("jit(mlp)/mlp/dense_1/dot_general"(callsite("mlp_model.<locals>.mlp"'
               '("gen.py":60:36 to :41) at callsite("main"("gen.py":591:4 to :22) at '
               '"<module>"("gen.py":596:13 to :19)))))')
        self.assertEqual(iree.located_names(jax, aliases), ["jit(mlp)/mlp/dense_1/dot_general"])


class DispatchTimesTest(unittest.TestCase):
    def test_events_become_microseconds_per_function(self):
        times = iree.dispatch_times(read("dispatch_events.jsonl") + "not json\n")
        self.assertEqual(times[f"{PREFIX}0_batch_matmul_1x32x192x192_f32"],
                         [39.969, 40.62, 36.349, 39.969])
        self.assertEqual(times[f"{PREFIX}12_batch_matmul_1x32x768x192_f32"], [114.825])
        self.assertEqual(iree.dispatch_order(f"{PREFIX}12_x"), (12, f"{PREFIX}12_x"))


if __name__ == "__main__":
    unittest.main()
