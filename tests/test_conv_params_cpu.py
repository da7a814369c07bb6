"""The phase-aware tap walks of conv_params.h (forward_taps, grad_input_taps) against the per-tap
tests input_index_for_tap / output_index_for_tap, exhaustively over small parameters. The header is
plain C++ (no CUDA, no torch), so a host compiler checks it without a GPU."""
import pytest

from conftest import host_cpp_compiler_missing, run_host_cpp


@pytest.mark.skipif(host_cpp_compiler_missing(), reason="needs a C++ compiler")
def test_tap_walks_match_per_tap_tests(tmp_path):
    assert "bad 0" in run_host_cpp("tap_walk_check", tmp_path).stdout
