"""Runs every tconv kernel once on small shapes, for compute-sanitizer (memcheck, racecheck):

    compute-sanitizer --tool memcheck python tests/sanitize_small.py
    compute-sanitizer --tool racecheck python tests/sanitize_small.py

TCONV_SANITIZE_DEVICE=cpu runs the same calls through the CPU path: tests/test_sanitize_small_cpu.py does so in CI,
so a call with invalid arguments fails there instead of ending the sanitizer runs early (one did from 8da6381 on:
the fused epilogue's calls after it went unchecked until run 90).
"""
import os

import torch

import tconv
from tconv.harness.precision import precision_mode

DEVICE = os.environ.get("TCONV_SANITIZE_DEVICE", "cuda")

CASES = [
    # dims, dtype, channels_last, batch, groups, stride, padding, output_padding, dilation, bias
    # (auto: fp32/fp16/bf16 run the tensor-core implicit GEMMs where the channels allow, fp64 the direct kernels)
    (1, torch.float32, False, 2, 2, 2, 1, 1, 1, True),
    (2, torch.bfloat16, True, 2, 1, 2, 1, 1, 1, True),
    (2, torch.float16, False, 1, 2, 3, 0, 2, 1, False),
    (3, torch.float32, True, 2, 2, 2, 1, 1, 2, True),
    (3, torch.float64, False, 1, 1, 1, 0, 1, 2, True),
]
FN = {1: tconv.conv_transpose1d, 2: tconv.conv_transpose2d, 3: tconv.conv_transpose3d}

for dims, dtype, channels_last, batch, groups, stride, padding, output_padding, dilation, bias in CASES:
    x = torch.randn(batch, 4, *([5] * dims), device=DEVICE, dtype=dtype)
    if channels_last:
        x = x.contiguous(memory_format=torch.channels_last if dims == 2 else torch.channels_last_3d)
    x.requires_grad_()
    w = torch.randn(4, 6 // groups, *([3] * dims), device=DEVICE, dtype=dtype, requires_grad=True)
    b = torch.randn(6, device=DEVICE, dtype=dtype, requires_grad=True) if bias else None
    out = FN[dims](x, w, b, stride, padding, output_padding, groups, dilation)
    out.backward(torch.randn_like(out))
# Several implicit-GEMM tiles along M, N and K, and the same calls through the direct kernels
# ("igemm_phase_split": the 2D stride-2 grad_input on the split view; "igemm_fold": the stride-2 forwards with
# the W phases as GEMM columns and the interleaving store).
for algorithm in ("igemm", "igemm_mma", "igemm_window", "igemm_phase_split", "igemm_fold", "direct"):
    with tconv._ops.use_algorithm(algorithm):
        x = torch.randn(2, 40, 9, 11, device=DEVICE, requires_grad=True)
        for out_channels in (72, 24):  # the 128x64 and the 128x32 gather tiles
            w = torch.randn(40, out_channels, 3, 3, device=DEVICE, requires_grad=True)
            out = tconv.conv_transpose2d(x, w, None, 2, 1, 1)
            out.backward(torch.randn_like(out))
        # W stride 5 (the fold's column tiles split channels: 30 x 5 columns), with bias
        w = torch.randn(40, 30, 3, 3, device=DEVICE, requires_grad=True)
        b = torch.randn(30, device=DEVICE, requires_grad=True)
        out = tconv.conv_transpose2d(x, w, b, 5, 1, 0, 1, 2)
        out.backward(torch.randn_like(out))
        # grad_weight's W tap groups: 5 taps at stride 1 (3 + 2 per block), in TF32 and 3xTF32
        w = torch.randn(40, 24, 3, 5, device=DEVICE, requires_grad=True)
        for tf32 in (True, False):
            old_flag = torch.backends.cudnn.allow_tf32
            torch.backends.cudnn.allow_tf32 = tf32
            try:
                out = tconv.conv_transpose2d(x, w, None, 1, (1, 2), 0, 1, (1, 2))
                out.backward(torch.randn_like(out))
                # 3D (the wgmma grad_weight on Hopper in TF32 mode: 64-wide C_in tile, W groups of 3 + 2, whose
                # 3 x 24 channels it packs in two m64 blocks)
                x3 = torch.randn(2, 40, 3, 4, 9, device=DEVICE, requires_grad=True)
                w3 = torch.randn(40, 24, 2, 3, 5, device=DEVICE, requires_grad=True)
                out = tconv.conv_transpose3d(x3, w3, None, 1, (0, 1, 2))
                out.backward(torch.randn_like(out))
                # the packed wgmma grad_weight: W groups of 4 + 3 taps x 8 channels per group in one m64 block
                xg = torch.randn(2, 80, 3, 4, 9, device=DEVICE, requires_grad=True)
                wg = torch.randn(80, 8, 2, 2, 7, device=DEVICE, requires_grad=True)
                out = tconv.conv_transpose3d(xg, wg, None, 1, (0, 1, 3), 0, 2)
                out.backward(torch.randn_like(out))
                # grad_weight with 24 input channels and 5 W taps: one group on the many-tap tile in TF32,
                # 2 + 2 + 1 on the 32 x 32 tiles in 3xTF32
                x24 = x[:, :24].detach().requires_grad_()
                w5 = torch.randn(24, 40, 3, 5, device=DEVICE, requires_grad=True)
                out = tconv.conv_transpose2d(x24, w5, None, 1, (1, 2))
                out.backward(torch.randn_like(out))
            finally:
                torch.backends.cudnn.allow_tf32 = old_flag
# The GEMMs (gather and grad_weight) on fp16/bf16 data (fp32 accumulation), channels_last bf16 and fp16.
with tconv._ops.use_algorithm("igemm"):
    for dtype, channels_last in ((torch.bfloat16, True), (torch.float16, False)):
        x = torch.randn(2, 40, 9, 11, device=DEVICE, dtype=dtype)
        if channels_last:
            x = x.contiguous(memory_format=torch.channels_last)
        x.requires_grad_()
        w = torch.randn(40, 24, 3, 3, device=DEVICE, dtype=dtype, requires_grad=True)
        b = torch.randn(24, device=DEVICE, dtype=dtype, requires_grad=True)
        out = tconv.conv_transpose2d(x, w, b, 2, 1, 1)
        out.backward(torch.randn_like(out))
        # The wider tiles (on Hopper the 16-bit wgmmas with A from shared memory: 64 and 128 columns, 16- and
        # 32-pair stages with a partial chunk), with the W-tap window (stride 1) and with phases (stride 2).
        for in_channels, out_channels, stride in ((40, 72, 1), (24, 72, 2), (40, 136, 1), (24, 136, 2)):
            xs = x[:, :in_channels].detach().requires_grad_()
            w = torch.randn(in_channels, out_channels, 3, 3, device=DEVICE, dtype=dtype, requires_grad=True)
            b = torch.randn(out_channels, device=DEVICE, dtype=dtype, requires_grad=True)
            out = tconv.conv_transpose2d(xs, w, b, stride, 1, stride - 1)
            out.backward(torch.randn_like(out))
        # grad_weight's many-tap tile on 16-bit data: 24 input channels, 5 W taps in one group
        xs = x[:, :24].detach().requires_grad_()
        w = torch.randn(24, 40, 3, 5, device=DEVICE, dtype=dtype, requires_grad=True)
        out = tconv.conv_transpose2d(xs, w, None, 1, (1, 2))
        out.backward(torch.randn_like(out))
        # 3D, 40 input channels: on Hopper the wgmma grad_weight (64-wide C_in tile, W groups of 3 + 2; 3 x 24
        # channels packed in two m64 blocks) with the
        # 16-bit copies landed after each stage's wgmmas; a partial C_in tile and a partial K chunk
        x3 = torch.randn(2, 40, 3, 4, 9, device=DEVICE, dtype=dtype, requires_grad=True)
        w3 = torch.randn(40, 24, 2, 3, 5, device=DEVICE, dtype=dtype, requires_grad=True)
        out = tconv.conv_transpose3d(x3, w3, None, 1, (0, 1, 2))
        out.backward(torch.randn_like(out))

def run_grouped(algorithm, dims, dtype, channels_last, cin, cout, groups, spatial, stride, precision):
    """Forward and backward of one few-channels-per-group call (kernel 3, padding 1, output_padding 1 where the
    stride allows it: below the stride)."""
    with tconv._ops.use_algorithm(algorithm), precision_mode(precision):
        x = torch.randn(2, cin, *spatial, device=DEVICE, dtype=dtype)
        if channels_last:
            x = x.contiguous(memory_format=torch.channels_last if dims == 2 else torch.channels_last_3d)
        x.requires_grad_()
        w = torch.randn(cin, cout // groups, *([3] * dims), device=DEVICE, dtype=dtype, requires_grad=True)
        b = torch.randn(cout, device=DEVICE, dtype=dtype, requires_grad=True)
        out = FN[dims](x, w, b, stride, 1, 1 if stride > 1 else 0, groups)
        out.backward(torch.randn_like(out))


# The grouped FFMA kernels (few channels per group): fp32 contiguous (scalar channel loads), bf16
# channels_last (vector loads/stores of 8 channels), fp64, padded channel counts (3 -> 4), 1D with
# several W tiles.
for case in [(3, torch.float32, False, 32, 32, 4, [3, 4, 9]), (2, torch.bfloat16, True, 16, 16, 2, [5, 7]),
             (2, torch.float64, False, 6, 9, 3, [4, 5]), (1, torch.float16, False, 3, 5, 1, [300])]:
    run_grouped("grouped", *case, stride=2, precision="tf32")
# The tensor-core grouped kernels (forward, grad_input): fp32 in TF32 and 3xTF32, bf16 channels_last,
# fp16 with padded channels (3 x 5 -> 8 x 8) and W stride 5 (five phases per task, several tasks per
# row), 16 x 16 channels per group.
for case, stride, precision in [((3, torch.float32, False, 32, 32, 4, [3, 4, 9]), 2, "tf32"),
                                ((3, torch.float32, False, 32, 32, 4, [3, 4, 9]), 2, "fp32"),
                                ((2, torch.bfloat16, True, 16, 16, 2, [5, 7]), 2, "tf32"),
                                ((1, torch.float16, False, 3, 5, 1, [70]), 5, "tf32"),
                                ((2, torch.float32, True, 32, 32, 2, [4, 6]), 1, "fp32")]:
    run_grouped("grouped_mma", *case, stride=stride, precision=precision)
# Ordered split-K on a small 3D up-conv (16 -> 16 channels at k3, grad_output 2 x 16 x 10 x 18 x 42), exact fp32 and
# TF32. Meant for several buffers, but run 416's plan log had exact fp32 in one (tiles 3, splits 8); TF32's plan here
# was not logged.
for precision in ("fp32", "tf32"):
    with precision_mode(precision):
        x = torch.randn(2, 16, 8, 16, 40, device=DEVICE, requires_grad=True)
        w = torch.randn(16, 16, 3, 3, 3, device=DEVICE, requires_grad=True)
        out = tconv.conv_transpose3d(x, w)
        out.backward(torch.randn_like(out))
# Ordered split-K grad_weight (the workspace cap leaves one split; the splits add into one buffer in turn): 2D on
# the mma.sync kernel, 3D on Hopper's wgmma one, fp32 exact and bf16. And the edged phase split of grad_input
# (k16 s8 p4: the interior on the strided view, one edge call at each end).
for dims, dtype, precision in ((2, torch.float32, "fp32"), (3, torch.bfloat16, "tf32")):
    with precision_mode(precision):
        spatial, kernel = ([16] * dims, 4) if dims == 2 else ([6] * dims, 3)
        x = torch.randn(4, 128, *spatial, device=DEVICE, dtype=dtype, requires_grad=True)
        w = torch.randn(128, 64, *([kernel] * dims), device=DEVICE, dtype=dtype, requires_grad=True)
        out = FN[dims](x, w, None, 2, 1, kernel % 2)
        out.backward(torch.randn_like(out))
with tconv._ops.use_algorithm("igemm_phase_split"), precision_mode("tf32"):
    x = torch.randn(2, 40, 37, device=DEVICE, requires_grad=True)
    w = torch.randn(40, 24, 16, device=DEVICE, requires_grad=True)
    out = tconv.conv_transpose1d(x, w, None, 8, 4)
    out.backward(torch.randn_like(out))
# The warp-specialized 128-column gather tiles (Hopper, TF32, at least 12 K-loop stages, adjacent rows): k3 at
# stride 1 with 128 channels each side (the W-tap window: 128 producer threads, forward and grad_input), and
# k4 s2 from 256 channels (no window: 256 producers; its grad_input's strided view stays on the plain tile).
with precision_mode("tf32"):
    for cin, kernel, stride, padding in ((128, 3, 1, 1), (256, 4, 2, 1)):
        x = torch.randn(1, cin, 6, 7, device=DEVICE, requires_grad=True)
        w = torch.randn(cin, 128, kernel, kernel, device=DEVICE, requires_grad=True)
        out = tconv.conv_transpose2d(x, w, torch.randn(128, device=DEVICE), stride, padding)
        out.backward(torch.randn_like(out))
# The fused activation -> GroupNorm epilogue (statistics, normalise, backward), both layouts.
from tconv.fused import act_group_norm  # noqa: E402

for channels_last, dtype in ((False, torch.float32), (True, torch.bfloat16)):
    y = torch.randn(2, 12, 3, 5, 7, device=DEVICE, dtype=dtype)
    if channels_last:
        y = y.contiguous(memory_format=torch.channels_last_3d)
    y.requires_grad_()
    gamma = torch.randn(12, device=DEVICE, dtype=dtype, requires_grad=True)
    beta = torch.randn(12, device=DEVICE, dtype=dtype, requires_grad=True)
    z = act_group_norm(y, 3, gamma, beta, 1e-5, "silu")
    z.backward(torch.randn_like(z))
# The strip kernels (Hopper in TF32 mode, and 16-bit data; forced: "auto" takes them only on grids that fill the
# GPU; elsewhere "igemm_strip" runs the other kernels): k16 s8 p4; grad_input over two C_in tiles and two position
# tiles, C_out not a multiple of a stage's channels; grad_weight over two N tiles, its K chunks taken from both
# lines; the forward over two N tiles with a partial K stage. Then the forward at W stride 5 (128-row M tiles across
# channels, a partial one), with bias and output_padding. Then the unit-stride form: 3D k3x5x5 (two row tiles across
# samples, 16-channel stages with a partial one; its grad_input through the same form) and 2D k3x7 over two
# output-channel tiles (8-channel stages), and fp16/bf16 data on it.
with tconv._ops.use_algorithm("igemm_strip"):
    x = torch.randn(2, 136, 260, device=DEVICE, requires_grad=True)
    w = torch.randn(136, 11, 16, device=DEVICE, requires_grad=True)
    out = tconv.conv_transpose1d(x, w, None, 8, 4)
    out.backward(torch.randn_like(out))
    out = tconv.conv_transpose1d(x[:, :40].detach(), torch.randn(40, 30, 10, device=DEVICE),
                                 torch.randn(30, device=DEVICE), 5, 3, 2)
    out = tconv.conv_transpose3d(torch.randn(2, 20, 3, 4, 5, device=DEVICE, requires_grad=True),
                                 torch.randn(20, 40, 3, 5, 5, device=DEVICE), torch.randn(40, device=DEVICE), 1, [1, 2, 0])
    out.backward(torch.randn_like(out))  # grad_input: the unit-stride form on grad_output (40 -> 20 channels)
    tconv.conv_transpose2d(torch.randn(1, 9, 3, 40, device=DEVICE), torch.randn(9, 130, 3, 7, device=DEVICE), None,
                           1, [0, 3])
    # fp16/bf16 data on the 1D strip forward (k16, W stride 5: 128-row M tiles across channels, a partial K stage)
    for dtype in (torch.bfloat16, torch.float16):
        tconv.conv_transpose1d(torch.randn(2, 70, 90, device=DEVICE, dtype=dtype),
                               torch.randn(70, 30, 10, device=DEVICE, dtype=dtype),
                               torch.randn(30, device=DEVICE, dtype=dtype), 5, 3, 2)
    # fp16/bf16 data on grad_input's and grad_weight's strip kernels (k16 MMAs on the values as they are; grad_input
    # loads two 8-byte pieces a strip row, grad_weight copies 8-byte pieces), k16 s8 p4 as above
    for dtype in (torch.bfloat16, torch.float16):
        x = torch.randn(2, 136, 260, device=DEVICE, dtype=dtype, requires_grad=True)
        out = tconv.conv_transpose1d(x, torch.randn(136, 11, 16, device=DEVICE, dtype=dtype, requires_grad=True),
                                     None, 8, 4)
        out.backward(torch.randn_like(out))
    # fp16/bf16 data on the unit-stride form (2-byte loads and stores; the 32-channel tap-pairs tile for bf16, 64 for
    # fp16), forward and grad_input
    for dtype, cout in ((torch.bfloat16, 32), (torch.float16, 64)):
        x = torch.randn(2, 20, 3, 4, 37, device=DEVICE, dtype=dtype, requires_grad=True)
        out = tconv.conv_transpose3d(x, torch.randn(20, cout, 3, 3, 5, device=DEVICE, dtype=dtype),
                                     torch.randn(cout, device=DEVICE, dtype=dtype), 1, [1, 1, 2])
        out.backward(torch.randn_like(out))
    # 48 channels (under TCONV_UNIT_STRIDE_STAGE_48 = 1, 2 or 3 in 48-channel stages): into a tap-pairs half tile
    # (K 1296), the forward at 48 -> 24 in bf16 and grad_input at 32 -> 48 in fp16; 48 -> 48 on the 64-channel tiles
    # (both passes; fp16 with W padding 0 takes x pairs); lines of 39-42 rows cross the blocks
    for dtype, cin, cout, padding, width in ((torch.bfloat16, 48, 24, 1, 37), (torch.float16, 32, 48, 1, 37),
                                             (torch.bfloat16, 48, 48, 1, 38), (torch.float16, 48, 48, (1, 1, 0), 38)):
        x = torch.randn(2, cin, 3, 4, width, device=DEVICE, dtype=dtype, requires_grad=True)
        out = tconv.conv_transpose3d(x, torch.randn(cin, cout, 3, 3, 3, device=DEVICE, dtype=dtype),
                                     torch.randn(cout, device=DEVICE, dtype=dtype), 1, padding)
        out.backward(torch.randn_like(out))
# The rows grad_weight kernel (Hopper, TF32 mode, "auto"): k4 s2 p1 over 160 input channels (a partial C_in tile)
# and 40 output channels (a partial folded C_out tile), W 20 (two 16-position chunks, the second partial).
with tconv._ops.use_algorithm("auto"):
    x = torch.randn(2, 160, 3, 20, device=DEVICE)
    w = torch.randn(160, 40, 4, 4, device=DEVICE, requires_grad=True)
    out = tconv.conv_transpose2d(x, w, None, 2, 1)
    out.backward(torch.randn_like(out))
# The shifted-x grad_weight kernel (Hopper, TF32 mode, "auto"): k3x5x5 over 24 input and 40 output channels (partial
# tiles), W padding 1 (window offset e = 1), W_out 20 (two chunks, the second partial), 15 (kd, kh) rows in 5 row tiles.
# Its tensor maps need rows of a multiple of 16 bytes: x is 18 wide in rows of 20 floats, grad_output 20 wide.
with tconv._ops.use_algorithm("auto"):
    x = torch.randn(2, 24, 3, 4, 20, device=DEVICE)[..., :18]
    w = torch.randn(24, 40, 3, 5, 5, device=DEVICE, requires_grad=True)
    out = tconv.conv_transpose3d(x, w, None, 1, (0, 1, 1))
    out.backward(torch.randn_like(out))
# The same kernel with grad_output rows of 22 floats (no 5-D tensor map), through the flat map (4 x 7 x 22 per
# channel; grad_output rows at D -1 and 4 outside); with TCONV_GRAD_WEIGHT_SHIFTED_X_FLAT_DY=0 the other kernels.
with tconv._ops.use_algorithm("auto"):
    x = torch.randn(2, 32, 4, 5, 20, device=DEVICE)
    w = torch.randn(32, 64, 3, 3, 5, device=DEVICE, requires_grad=True)
    out = tconv.conv_transpose3d(x, w, None, 1, (1, 0, 1))
    out.backward(torch.randn_like(out))
# The same kernel on 16-bit data (one k16 wgmma per unit, a copy per tap): bf16 with x 26 wide in rows of 32 elements,
# W padding 3 (window offset e = 7), W_out 24; and fp16 with grad_output rows of 26 (52 bytes) through the flat map.
with tconv._ops.use_algorithm("auto"):
    x = torch.randn(2, 24, 3, 4, 32, device=DEVICE, dtype=torch.bfloat16)[..., :26]
    w = torch.randn(24, 40, 3, 5, 5, device=DEVICE, dtype=torch.bfloat16, requires_grad=True)
    out = tconv.conv_transpose3d(x, w, None, 1, (0, 1, 3))
    out.backward(torch.randn_like(out))
    x = torch.randn(2, 32, 4, 5, 24, device=DEVICE, dtype=torch.float16)
    w = torch.randn(32, 64, 3, 3, 5, device=DEVICE, dtype=torch.float16, requires_grad=True)
    out = tconv.conv_transpose3d(x, w, None, 1, (1, 0, 1))
    out.backward(torch.randn_like(out))
# The widened kernel: kernel W 7 as two groups of 4 taps (the eighth not stored) over 48 input channels (two C_in tiles,
# the second partial) and 16 output channels per group, in TF32 (2D: no wgmma kernel competes) and bf16; and bf16
# grad_output rows of 10 (20 bytes, 3 x 5 x 10 per channel: no tensor map takes them) that producer warp 0 copies.
with tconv._ops.use_algorithm("auto"):
    for dtype in (torch.float32, torch.bfloat16):
        x = torch.randn(2, 48, 5, 24, device=DEVICE, dtype=dtype)
        w = torch.randn(48, 16, 3, 7, device=DEVICE, dtype=dtype, requires_grad=True)
        out = tconv.conv_transpose2d(x, w, None, 1, (1, 3))
        out.backward(torch.randn_like(out))
    x = torch.randn(2, 32, 3, 5, 16, device=DEVICE, dtype=torch.bfloat16)[..., :10]
    w = torch.randn(32, 64, 3, 3, 3, device=DEVICE, dtype=torch.bfloat16, requires_grad=True)
    out = tconv.conv_transpose3d(x, w, None, 1, 1)
    out.backward(torch.randn_like(out))
# Packed row slots (the lean kernel's: under TCONV_GRAD_WEIGHT_SHIFTED_X_LEAN=4, or 2 in TF32 by rule): 16 output
# channels per group over 15 (kd, kh) rows (k3x5x7: two row tiles of 12, the second with 3; each warp of a consumer
# warpgroup on a row of its own; grad_output rows of 30 through the flat map, 5 x 8 x 30 per channel) in TF32 and
# bf16, in groups of 2; and 24 output channels per group (two slots of 32: the box of group 0 reads group 1's first 8)
# at k3x3x3 in fp16.
with tconv._ops.use_algorithm("auto"):
    for dtype in (torch.float32, torch.bfloat16):
        x = torch.randn(2, 64, 3, 4, 24, device=DEVICE, dtype=dtype)
        w = torch.randn(64, 16, 3, 5, 7, device=DEVICE, dtype=dtype, requires_grad=True)
        out = tconv.conv_transpose3d(x, w, None, 1, 0, 0, 2)
        out.backward(torch.randn_like(out))
    x = torch.randn(2, 32, 3, 4, 16, device=DEVICE, dtype=torch.float16)
    w = torch.randn(32, 24, 3, 3, 3, device=DEVICE, dtype=torch.float16, requires_grad=True)
    out = tconv.conv_transpose3d(x, w, None, 1, 1, 0, 2)
    out.backward(torch.randn_like(out))
# The swapped grad_weight (3D, stride 1, padding 0, 48 -> 24 channels: the shifted-x kernel on the problem with x and
# grad_output exchanged), whose x is grad_output with rows of 34 (no 5-D map; 10 x 10 x 34 per channel): the flat x
# map, windows on 16 bytes that reach into the neighbouring rows; the sums written transposed and flipped. The rule
# swaps it in TF32 (the plain way keeps the wgmma kernel; 0.35 of its shifted-x plan) and in bf16 (0.63 of the plain
# count). W 32, not 20: at W_out 22 TF32 counts 0.78 and stays plain since 9d4cb24.
with tconv._ops.use_algorithm("auto"):
    for dtype in (torch.float32, torch.bfloat16):
        x = torch.randn(2, 48, 8, 8, 32, device=DEVICE, dtype=dtype)
        w = torch.randn(48, 24, 3, 3, 3, device=DEVICE, dtype=dtype, requires_grad=True)
        out = tconv.conv_transpose3d(x, w)
        out.backward(torch.randn_like(out))
# The unit-stride mma.sync kernel, forced: bf16 with 64 channels (two stages, two C_out tiles), x 34 wide in rows of 40
# (16-byte pieces, a partial last one) and grad_output rows of 36 (4-byte pieces); fp32 in TF32 mode on a 1D call
# with 96 output channels (three C_out tiles; grad_input's three stages); 1D calls on folded tiles.
with tconv._ops.use_algorithm("unit_stride_mma"):
    x = torch.randn(2, 64, 9, 40, device=DEVICE, dtype=torch.bfloat16)[..., :34].requires_grad_()
    w = torch.randn(64, 64, 3, 3, device=DEVICE, dtype=torch.bfloat16, requires_grad=True)
    b = torch.randn(64, device=DEVICE, dtype=torch.bfloat16, requires_grad=True)
    out = tconv.conv_transpose2d(x, w, b)
    out.backward(torch.randn_like(out))
    with precision_mode("tf32"):
        x = torch.randn(2, 32, 50, device=DEVICE, requires_grad=True)
        w = torch.randn(32, 96, 5, device=DEVICE, requires_grad=True)
        out = tconv.conv_transpose1d(x, w, None, 1, 2)
        out.backward(torch.randn_like(out))
        # Folded tiles (the warps side by side along x): two of 256 positions, the second partial.
        x = torch.randn(1, 32, 300, device=DEVICE, requires_grad=True)
        w = torch.randn(32, 32, 5, device=DEVICE, requires_grad=True)
        out = tconv.conv_transpose1d(x, w)
        out.backward(torch.randn_like(out))
        # Row tiles with 48 input channels (three 16-channel fp32 stages) and 16 output channels (grad_input: one
        # stage, C_out 48 in two tiles, the second partial).
        x = torch.randn(1, 48, 9, 30, device=DEVICE, requires_grad=True)
        w = torch.randn(48, 16, 3, 3, device=DEVICE, requires_grad=True)
        out = tconv.conv_transpose2d(x, w, None, 1, 1)
        out.backward(torch.randn_like(out))
    # Folded bf16 tiles of 512 positions with dilation 3 and two C_out tiles: x rows of 600 (16-byte pieces),
    # grad_output rows of 612 (4-byte pieces; grad_input's two stages).
    x = torch.randn(2, 32, 600, device=DEVICE, dtype=torch.bfloat16, requires_grad=True)
    w = torch.randn(32, 64, 5, device=DEVICE, dtype=torch.bfloat16, requires_grad=True)
    out = tconv.conv_transpose1d(x, w, None, 1, 0, 0, 1, 3)
    out.backward(torch.randn_like(out))
    # The grad_weight alone with 33 output channels (a second C_out tile of one channel, odd: single partial stores).
    x = torch.randn(2, 32, 10, 50, device=DEVICE, dtype=torch.bfloat16)
    w = torch.randn(32, 33, 3, 3, device=DEVICE, dtype=torch.bfloat16, requires_grad=True)
    out = tconv.conv_transpose2d(x, w, None, 1, 1)
    out.backward(torch.randn_like(out))
    # 21 taps (k3x7; on Hopper the warp-specialized wgmma grad_weight) with 96 output channels (a partial second
    # C_out tile) and grad_output rows of 46 (4-byte pieces).
    x = torch.randn(1, 64, 10, 40, device=DEVICE, dtype=torch.bfloat16)
    w = torch.randn(64, 96, 3, 7, device=DEVICE, dtype=torch.bfloat16, requires_grad=True)
    out = tconv.conv_transpose2d(x, w)
    out.backward(torch.randn_like(out))
if DEVICE == "cuda":
    torch.cuda.synchronize()
print("sanitize_small: ran forward, grad_input, grad_weight, grad_bias on", len(CASES), "cases")
