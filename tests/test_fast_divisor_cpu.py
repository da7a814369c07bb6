"""igemm_config.h's fast_div (n / d by multiply-high, add and shift; the unit-stride forward's set-up divisions) and
decode_row by fast divisors against the hardware division: edge operands for each divisor class and random ones, ~5M
checks. The header is plain C++ (no CUDA, no torch), so a host compiler checks it without a GPU."""
import os
import shutil
import subprocess

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
CSRC = os.path.join(HERE, "..", "tconv", "csrc")


@pytest.mark.skipif(shutil.which(os.environ.get("CXX", "g++")) is None, reason="needs a C++ compiler")
def test_fast_div_matches_division(tmp_path):
    exe = tmp_path / "fast_divisor_check"
    subprocess.run([os.environ.get("CXX", "g++"), "-std=c++17", "-O2", "-I", CSRC,
                    os.path.join(HERE, "cpp", "fast_divisor_check.cpp"), "-o", str(exe)], check=True)
    result = subprocess.run([str(exe)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "bad 0" in result.stdout and "checked 0 " not in result.stdout, result.stdout
