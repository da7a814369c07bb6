"""igemm_config.h's fast_div (n / d by multiply-high, add and shift; the unit-stride forward's set-up divisions) and
decode_row by fast divisors against the hardware division: edge operands for each divisor class and random ones, ~5M
checks. The header is plain C++ (no CUDA, no torch), so a host compiler checks it without a GPU."""
import pytest

from conftest import host_cpp_compiler_missing, run_host_cpp


@pytest.mark.skipif(host_cpp_compiler_missing(), reason="needs a C++ compiler")
def test_fast_div_matches_division(tmp_path):
    result = run_host_cpp("fast_divisor_check", tmp_path)
    assert "bad 0" in result.stdout and "checked 0 " not in result.stdout, result.stdout
