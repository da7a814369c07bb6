"""The phase-aware tap walks of conv_params.h (forward_taps, grad_input_taps) against the per-tap
tests input_index_for_tap / output_index_for_tap, exhaustively over small parameters. The header is
plain C++ (no CUDA, no torch), so a host compiler checks it without a GPU."""
import pytest

from conftest import host_cpp_compiler_missing, run_host_cpp


@pytest.mark.skipif(host_cpp_compiler_missing(), reason="needs a C++ compiler")
def test_tap_walks_match_per_tap_tests(tmp_path):
    assert "bad 0" in run_host_cpp("tap_walk_check", tmp_path).stdout


@pytest.mark.skipif(host_cpp_compiler_missing(), reason="needs a C++ compiler")
def test_interleaved_rows_place_each_channel_once(tmp_path):
    """The channel-tile grad_weight's interleaved grad_output rows: each tile channel in one row, loaded by the box its
    channel belongs to, one box per warp, and rows gid and gid + 8 holding channels 8 R apart (the epilogue's step)."""
    assert "bad 0" in run_host_cpp("interleaved_rows_check", tmp_path).stdout
