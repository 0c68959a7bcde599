#!/usr/bin/env python3
"""The fake peer does what its header promises, so that a harness test that fails points at
the harness. Standard library only: python3 tests/compare/test_fake_peer.py"""

import json
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import fake_peer  # noqa: E402

FAKE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_peer.py")


def npy(shape, descr="<f4"):
    count = 1
    for size in shape:
        count *= size
    width = int(descr[2:])
    return ({"descr": descr, "fortran_order": False, "shape": shape}, bytes(count * width))


class FakePeerTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        root = self.dir.name
        fake_peer.write_npz(os.path.join(root, "in.npz"), {"x": npy((2, 3))})
        fake_peer.write_npz(os.path.join(root, "out.npz"),
                            {"arr_0": npy((2, 3)), "arr_1": npy((4,), "<i8")})
        self.request = {
            "protocol": 1, "compiler": "fake", "work_dir": os.path.join(root, "work"),
            "shapes": [{"name": "b2", "dims": {"batch": 2},
                        "inputs": os.path.join(root, "in.npz")}],
            "reps": 3, "options": {"fake_outputs": os.path.join(root, "out.npz")}}

    def tearDown(self):
        self.dir.cleanup()

    def run_mode(self, mode, timeout=20):
        return subprocess.run([sys.executable, FAKE, mode], input=json.dumps(self.request),
                              capture_output=True, text=True, timeout=timeout)

    def test_ok_copies_the_outputs_and_times_every_rep(self):
        done = self.run_mode("ok")
        self.assertEqual(done.returncode, 0)
        run = json.loads(done.stdout)["runs"][0]
        self.assertEqual(len(run["times_us"]), 3)
        arrays = fake_peer.read_npz(run["outputs"])
        self.assertEqual(arrays["arr_0"][0]["shape"], (2, 3))
        self.assertEqual(arrays["arr_1"][0]["descr"], "<i8")

    def test_wrong_shapes_adds_a_leading_dimension(self):
        run = json.loads(self.run_mode("wrong_shapes").stdout)["runs"][0]
        self.assertEqual(fake_peer.read_npz(run["outputs"])["arr_0"][0]["shape"], (1, 2, 3))

    def test_npy_header_is_padded_to_64_bytes(self):
        data = fake_peer.write_npy(*npy((5, 7)))
        header_length = int.from_bytes(data[8:10], "little")
        self.assertEqual((10 + header_length) % 64, 0)
        self.assertEqual(fake_peer.read_npy(data)[0]["shape"], (5, 7))

    def test_unavailable_and_compile_error_are_answers(self):
        unavailable = json.loads(self.run_mode("unavailable").stdout)
        self.assertFalse(unavailable["available"])
        self.assertTrue(unavailable["install"])
        failed = json.loads(self.run_mode("compile_error").stdout)
        self.assertEqual(failed["builds"][0]["unsupported_ops"][0]["op"], "FakeOp")
        self.assertTrue(failed["runs"][0]["error"])

    def test_the_broken_modes_break(self):
        self.assertNotEqual(self.run_mode("crash").returncode, 0)
        exit3 = self.run_mode("exit3")
        self.assertEqual(exit3.returncode, 3)
        with self.assertRaises(json.JSONDecodeError):
            json.loads(exit3.stdout)
        with self.assertRaises(json.JSONDecodeError):
            json.loads(self.run_mode("garbage").stdout)
        with self.assertRaises(subprocess.TimeoutExpired):
            self.run_mode("timeout", timeout=1)


if __name__ == "__main__":
    unittest.main()
