"""grad_weight of channels-last fp16/bf16 data by window (conv_transpose_igemm_tma.cu, tconv_grad_weight_window_kernel:
one stage per input line segment feeds every tap; igemm_config.h, WindowWeightGradTile). "auto" takes it for at most
64 input and 128 output channels per group at W stride 1 (64 output under TCONV_GRAD_WEIGHT_WINDOW_WIDE_OUT=0), unless
TCONV_GRAD_WEIGHT_WINDOW=0 (=1: only below 64 channels a side, where the per-tap TMA grad_weight is not preferred;
read once per process).

Channels-last input and grad_output (as autograd hands on a channels-last output's gradient): every case meets the
16-bit contract (float64 and torch in the same dtype, outputs and every gradient, poisoned outputs) under the switch,
and the kernel runs once per backward by default and never under 0 or for contiguous tensors.
"""
import pytest
import torch

from conftest import cuda_ready, run_under_switch, sixteen_bit_script_head
from test_gather_specialized_gpu import hopper_wgmma

pytestmark = pytest.mark.skipif(not cuda_ready(), reason="needs a CUDA GPU")

KERNEL = "tconv_grad_weight_window_kernel"

# dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, bias
CASES = {
    # L1-71-like: 32 channels a side, 3 x 3 (9 taps: 5 tiles of two atoms, the last half empty), W 300 (segments of
    # 64: the last one partial, zeros past the line)
    "l1_71_like": (2, 2, 32, 32, 1, [3, 3], [1, 1], [0, 0], [0, 0], [1, 1], [6, 300], False),
    # fam11-like: 3 x 7 (21 taps: 11 tiles in two chunks of 6 blocks), padding cropping every edge
    "fam11_like": (2, 2, 32, 32, 1, [3, 7], [1, 1], [1, 3], [0, 0], [1, 1], [5, 140], False),
    # partial planes: 24 input channels (zeros past them), 40 output channels (two planes: tiles of one tap's
    # planes), W 37 (one segment of 64)
    "odd_channels": (2, 2, 24, 40, 1, [3, 3], [1, 1], [1, 1], [0, 0], [1, 1], [7, 37], True),
    # 48 input channels (n64: two x planes), dilation 2 both ways (W shifts of 2 rows, lines at traversal step 2)
    "n64_dilated": (2, 2, 48, 64, 1, [2, 3], [1, 1], [0, 2], [0, 0], [2, 2], [6, 50], False),
    # two groups of 32 channels a side (boxes at the group's first channel)
    "groups": (2, 2, 64, 64, 2, [3, 3], [1, 1], [1, 1], [0, 0], [1, 1], [5, 33], False),
    # H stride 2 with output padding (W stride 1): the lines at h x 2 - padding
    "stride_h": (2, 2, 32, 16, 1, [3, 3], [2, 1], [1, 1], [1, 0], [1, 1], [6, 70], False),
    # 3D, 9 (kd, kh) lines per stage, 16 input channels
    "three_d": (3, 2, 16, 32, 1, [3, 3, 3], [1, 1, 1], [1, 0, 1], [0, 0, 0], [1, 1, 1], [4, 5, 40], True),
    # 45 taps: 23 tiles in 3 chunks of 8 (the last tile past the call's); 4 stages of 41 KB (9 lines of 68 positions)
    "many_taps": (3, 1, 32, 32, 1, [3, 3, 5], [1, 1, 1], [0, 0, 0], [0, 0, 0], [1, 1, 1], [3, 4, 20], False),
    # a line of 5 positions (one segment of 64, zeros past it)
    "short_lines": (2, 3, 32, 32, 1, [3, 3], [1, 1], [0, 0], [0, 0], [1, 1], [4, 5], False),
    # 512 units (4 images x 64 lines x 2 segments): 5 tiles in 2 chunks of 4 x 5 splits, the workspace's bound at one
    # partial sum a split (2 at two a split), which the sum of the splits adds
    "two_splits": (2, 4, 32, 32, 1, [3, 3], [1, 1], [1, 1], [0, 0], [1, 1], [64, 128], True),
}
# 64 channels a side: the per-tap TMA grad_weight's under 1, the window's under 2 (unset)
WIDE_CASES = {
    "fam05_like": (2, 1, 64, 64, 1, [3, 7], [1, 1], [0, 0], [0, 0], [1, 1], [4, 70], False),
}

# More than 64 output channels per group: the window's by default (up to 128), the per-tap TMA grad_weight's under
# TCONV_GRAD_WEIGHT_WINDOW_WIDE_OUT=0 (development). fam06's channels (64 -> 128: four atoms a tap, chunks of two
# taps) and kernel; L2-61's (3 x 3 x 3, 9 lines: the line boxes, a segment past the line's 12 positions); 96 output
# channels (three planes: chunks that split a tap's atoms) with bias; two groups of 64 -> 80 (a partial third plane,
# boxes at the group's channels) with W dilation 2.
WIDE_OUT_CASES = {
    "fam06_like": (2, 2, 64, 128, 1, [3, 5], [1, 1], [0, 0], [0, 0], [1, 1], [5, 70], False),
    "l2_61_like": (3, 2, 64, 128, 1, [3, 3, 3], [1, 1, 1], [0, 0, 0], [0, 0, 0], [1, 1, 1], [4, 5, 12], False),
    "out_96": (2, 2, 64, 96, 1, [3, 3], [1, 1], [1, 1], [0, 0], [1, 1], [6, 40], True),
    "groups_out_80": (2, 2, 128, 160, 2, [2, 3], [1, 1], [0, 2], [0, 0], [1, 2], [5, 33], False),
}

# Deep calls, whose stage of every (kd, kh) line leaves under 4 stages: the line boxes by default (each block's chunk
# of tiles loads the lines its taps lie on), the igemm grad_weight under TCONV_GRAD_WEIGHT_WINDOW_LINES=0. fam02's
# shape, smaller (15 lines of 70 positions; 53 tiles in 9 chunks of 6, 2-3 lines each); with 256 units and the
# workspace's one split (53 tiles in 14 chunks of 4: the plan's count of tiles per block); two grad_output planes (48
# channels: a tap's two atoms), W kernel 4 (span 3: lines of 67 positions, boxes every 80 rows), H dilation 2 and
# padding; 2D with a kernel H of 15 (every line at kd 0).
DEEP_CASES = {
    "fam02_like": (3, 2, 32, 16, 1, [3, 5, 7], [1, 1, 1], [0, 0, 0], [0, 0, 0], [1, 1, 1], [3, 4, 40], False),
    "fam02_chunks_of_4": (3, 4, 32, 16, 1, [3, 5, 7], [1, 1, 1], [0, 0, 0], [0, 0, 0], [1, 1, 1], [4, 16, 64], False),
    # L1-68's kernel (3 x 5 x 5) and two output planes: 75 tiles (more than 64, the argument arrays' former size)
    "l1_68_like": (3, 1, 16, 64, 1, [3, 5, 5], [1, 1, 1], [1, 1, 1], [0, 0, 0], [1, 1, 1], [3, 4, 20], True),
    "two_planes_w4": (3, 1, 24, 48, 1, [3, 3, 4], [1, 1, 1], [1, 0, 1], [0, 0, 0], [1, 2, 1], [3, 6, 45], True),
    "tall_2d": (2, 2, 32, 32, 1, [15, 3], [1, 1], [7, 1], [0, 0], [1, 1], [20, 50], False),
}

LAUNCH_COUNTS = """
def launches(case):
    dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, _ = case
    counts = []
    for fmt in (torch.channels_last if dims == 2 else torch.channels_last_3d, torch.contiguous_format):
        x = torch.randn(batch, cin, *spatial, device="cuda", dtype=dtype).contiguous(memory_format=fmt)
        w = torch.randn(cin, cout // groups, *kernel, device="cuda", dtype=dtype, requires_grad=True)
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            out = TCONV_FN[dims](x, w, None, stride, padding, output_padding, groups, dilation)
            out.backward(torch.randn_like(out))
            torch.cuda.synchronize()
        counts.append(sum(counted(e.name) for e in prof.events()
                          if e.device_type == torch.autograd.DeviceType.CUDA))
    return counts
"""


# What a launch of the split form counts as: 1 (the kernel at all) + 100 (", true>": kSplitTiles) in its name.
SPLIT_AND_ANY = "(t.KERNEL in name) + 100 * (t.KERNEL in name and ', true>' in name)"


def contract_and_launches(tmp_path, mode, cases_name, first_seed, values, switch="TCONV_GRAD_WEIGHT_WINDOW",
                          environ=None, counted="t.KERNEL in name"):
    """Runs every case of t.<cases_name> through the contract and counts the kernel's launches (channels-last,
    contiguous) per case, in one process per value of `switch` (with `environ`'s variables set in each), each CUDA
    kernel of name `name` adding the expression `counted`: {value: [[launches] per case, sorted by name]}."""
    if not hopper_wgmma():
        pytest.skip("the TMA kernels are built for sm_90a and run on compute capability 9.0")
    code = f"import os\nos.environ.update({dict(environ or {})!r})\n"
    code += sixteen_bit_script_head("test_grad_weight_window_gpu", mode) + f"counted = lambda name: {counted}\n"
    code += LAUNCH_COUNTS + f"""
counts = []
cases = t.{cases_name}
for i, name in enumerate(sorted(cases)):
    run_case(*cases[name], mode={mode!r}, layout="channels_last", seed={first_seed} + i,
             poison=poison_cuda_allocator, grad_like_output=True)
    counts.append(launches(cases[name]))
torch.save(counts, sys.argv[1])
"""
    return run_under_switch(code, tmp_path, switch, values=values)


@pytest.mark.parametrize("mode", ["bf16", "fp16"])
def test_grad_weight_window_meets_the_contract(tmp_path, mode):
    saved = contract_and_launches(tmp_path, mode, "CASES", 90, ("2", "0"))
    for name, on, off in zip(sorted(CASES), saved["2"], saved["0"]):
        assert on == [1, 0] and off == [0, 0], (name, on, off)


@pytest.mark.parametrize("mode", ["bf16"])
def test_grad_weight_window_at_64_channels_not_under_1(tmp_path, mode):
    saved = contract_and_launches(tmp_path, mode, "WIDE_CASES", 110, ("2", "1"))
    for name, wide, default in zip(sorted(WIDE_CASES), saved["2"], saved["1"]):
        assert wide == [1, 0] and default == [0, 0], (name, wide, default)


@pytest.mark.parametrize("mode", ["bf16", "fp16"])
def test_grad_weight_window_line_boxes_switch(tmp_path, mode):
    saved = contract_and_launches(tmp_path, mode, "DEEP_CASES", 130, ("1", "0"), "TCONV_GRAD_WEIGHT_WINDOW_LINES")
    for name, on, off in zip(sorted(DEEP_CASES), saved["1"], saved["0"]):
        assert on == [1, 0] and off == [0, 0], (name, on, off)


@pytest.mark.parametrize("mode", ["bf16", "fp16"])
def test_grad_weight_window_wide_out_switch(tmp_path, mode):
    saved = contract_and_launches(tmp_path, mode, "WIDE_OUT_CASES", 190, ("1", "0"),
                                  "TCONV_GRAD_WEIGHT_WINDOW_WIDE_OUT")
    for name, on, off in zip(sorted(WIDE_OUT_CASES), saved["1"], saved["0"]):
        assert on == [1, 0] and off == [0, 0], (name, on, off)


# The split form (the default at 64-channel n; TCONV_GRAD_WEIGHT_WINDOW_SPLIT_TILES=0 keeps the alternating one):
# chunks of 6 or 8 tiles with half of them a warpgroup; the wide-output cases (fam06_like's last chunk past the
# call's tiles, out_96's last tile one atom), 48 input channels with dilation, 64 -> 64: the window kernel once a
# backward, in the split form under 1 (SPLIT_AND_ANY: 101), in the alternating one under 0 (1).
SPLIT_CASES = {**WIDE_OUT_CASES, "n64_dilated": CASES["n64_dilated"], **WIDE_CASES}


@pytest.mark.parametrize("mode", ["bf16", "fp16"])
def test_grad_weight_window_split_tiles_switch(tmp_path, mode):
    saved = contract_and_launches(tmp_path, mode, "SPLIT_CASES", 210, ("1", "0"),
                                  "TCONV_GRAD_WEIGHT_WINDOW_SPLIT_TILES", counted=SPLIT_AND_ANY)
    for name, on, off in zip(sorted(SPLIT_CASES), saved["1"], saved["0"]):
        assert on == [101, 0] and off == [1, 0], (name, on, off)


# The split form at 32-channel n (TCONV_GRAD_WEIGHT_WINDOW_SPLIT_TILES=2, development; 1, the default, only at 64):
# chunks of 8, 12 or 16 tiles, taken only where they are fewer than the alternating form's chunks. Every contract and
# deep case of at most 32 input channels per group runs the window kernel once a backward in one form or the other;
# the cases of 23 tiles or more (fam02's, L1-68's, many_taps, two_planes_w4, tall_2d) in the split form under 2 (at
# these few units the alternating plan takes chunks of 4 tiles, its count of tiles a stage being the cost), none
# under 1.
NARROW_SPLIT_CASES = {name: case for name, case in {**CASES, **DEEP_CASES}.items() if case[2] // case[4] <= 32}
NARROW_SPLIT_EXPECTED = ("fam02_chunks_of_4", "fam02_like", "l1_68_like", "many_taps", "tall_2d", "two_planes_w4")


@pytest.mark.parametrize("mode", ["bf16", "fp16"])
def test_grad_weight_window_narrow_split_tiles_switch(tmp_path, mode):
    saved = contract_and_launches(tmp_path, mode, "NARROW_SPLIT_CASES", 230, ("2", "1"),
                                  "TCONV_GRAD_WEIGHT_WINDOW_SPLIT_TILES", counted=SPLIT_AND_ANY)
    for name, on, off in zip(sorted(NARROW_SPLIT_CASES), saved["2"], saved["1"]):
        assert on in ([1, 0], [101, 0]) and off == [1, 0], (name, on, off)
        if name in NARROW_SPLIT_EXPECTED:
            assert on == [101, 0], (name, on)


# Every contract and deep case under rings of 4 stages (the most wraps of the ring's phases a call) and of 12 (where
# the shared memory holds them; the producer's and the warpgroups' stage counters wrap at the switch's count).
STAGE_CASES = {**CASES, **DEEP_CASES}


@pytest.mark.parametrize("mode", ["bf16"])
def test_grad_weight_window_stages_switch(tmp_path, mode):
    saved = contract_and_launches(tmp_path, mode, "STAGE_CASES", 150, ("4", "12"), "TCONV_GRAD_WEIGHT_WINDOW_STAGES")
    for name, few, many in zip(sorted(STAGE_CASES), saved["4"], saved["12"]):
        assert few == [1, 0] and many == [1, 0], (name, few, many)


# Every contract and deep case under one producer warp and under four over a ring of 6 stages (four do not divide
# it: each producer's stages and phases wrap at different iterations). The default, four over 8, is the contract test's.
@pytest.mark.parametrize("mode", ["bf16"])
def test_grad_weight_window_producers_switch(tmp_path, mode):
    saved = contract_and_launches(tmp_path, mode, "STAGE_CASES", 170, ("1", "4"), "TCONV_GRAD_WEIGHT_WINDOW_PRODUCERS",
                                  environ={"TCONV_GRAD_WEIGHT_WINDOW_STAGES": "6"})
    for name, one, four in zip(sorted(STAGE_CASES), saved["1"], saved["4"]):
        assert one == [1, 0] and four == [1, 0], (name, one, four)
