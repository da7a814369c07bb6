"""The phase-aware tap walks of conv_params.h (forward_taps, grad_input_taps) against the per-tap
tests input_index_for_tap / output_index_for_tap, exhaustively over small parameters. The header is
plain C++ (no CUDA, no torch), so a host compiler checks it without a GPU."""
import os
import shutil
import subprocess

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
CSRC = os.path.join(HERE, "..", "tconv", "csrc")


@pytest.mark.skipif(shutil.which(os.environ.get("CXX", "g++")) is None, reason="needs a C++ compiler")
def test_tap_walks_match_per_tap_tests(tmp_path):
    exe = tmp_path / "tap_walk_check"
    subprocess.run([os.environ.get("CXX", "g++"), "-std=c++17", "-O1", "-I", CSRC,
                    os.path.join(HERE, "cpp", "tap_walk_check.cpp"), "-o", str(exe)], check=True)
    result = subprocess.run([str(exe)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "bad 0" in result.stdout
