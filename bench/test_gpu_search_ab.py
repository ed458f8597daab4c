"""Tests of bench/gpu-search-ab.sh's variants (run by scripts/test.sh), with a stand-in for `kogge`
that answers `benchsmp --json` from its arguments: no GPU needed."""

import os
import subprocess
import tempfile
import unittest

_here = os.path.dirname(os.path.abspath(__file__))
_script = os.path.join(_here, "gpu-search-ab.sh")

# Logs its arguments and kernel options, and takes twice as long under `--finish main`.
FAKE_KOGGE = """#!/usr/bin/env bash
echo "$KOGGE_CUDA_OPTIONS | $*" >> "$(dirname "$0")/calls.log"
seconds=1.0
[[ " $* " == *" --finish main "* ]] && seconds=2.0
echo '{"workers":264,"nodes":1000,"seconds":'$seconds'}'
"""


class GpuSearchAbTest(unittest.TestCase):
    def run_ab(self, tmp, variants):
        fake = os.path.join(tmp, "kogge")
        with open(fake, "w") as f:
            f.write(FAKE_KOGGE)
        os.chmod(fake, 0o755)
        env = dict(os.environ, VARIANTS=variants.replace("K", fake), WORKERS="264", REPS="2",
                   SELFTEST="0")
        done = subprocess.run(["bash", _script], capture_output=True, text=True, timeout=60, env=env)
        self.assertEqual(done.returncode, 0, done.stderr)
        with open(os.path.join(tmp, "calls.log")) as f:
            calls = [line.strip() for line in f if "--depth 12" in line]
        return done.stdout, calls

    def test_mode_and_finisher_fields_reach_benchsmp(self):
        with tempfile.TemporaryDirectory() as tmp:
            out, calls = self.run_ab(tmp, "any=K; main=K|||main; pure=K|-DX=1|abdada|main")
            # Two repetitions of three variants, interleaved.
            self.assertEqual(len(calls), 6)
            any_, main, pure = calls[0], calls[1], calls[2]
            self.assertNotIn("--finish", any_)
            self.assertNotIn("--mode", any_)
            self.assertIn("--finish main", main)
            self.assertNotIn("--mode", main)
            self.assertTrue(pure.startswith("-DX=1 |"), pure)
            self.assertIn("--mode abdada --finish main", pure)
            # The finisher's rows took twice the base's time: +100% in the table.
            self.assertIn("+100.0%", out)


if __name__ == "__main__":
    unittest.main()
