"""The staged weight pack of the gather GEMMs on the GPU (skipped without CUDA).

fp32 weights whose kernel taps are contiguous pack through `tconv_igemm_pack_weight_staged_kernel` unless
`TCONV_PACK_STAGED=0` (development, read once per process); it reads the weight in its own order and stages up to 16
taps of a (k8 step, 32 columns) piece; the per-element kernel reads it in the packed order. Both write the same
layout, so every output that the gather GEMMs compute from it must be bitwise the same either way: forward and
grad_input, on wgmma tiles (128 and 256 columns), mma.sync tiles (32-column fragment order), the TMA forms, in TF32
mode (the weights rounded on the way) and exact fp32 (3xTF32: not rounded), with groups, channels past the tile
(zeros), two tap groups (27 taps) and a weight whose taps are not contiguous (the per-element kernel packs it either
way). fp16/bf16 weights take the staged kernel too (since run 500 passed this file's second test) unless
`TCONV_PACK_STAGED_16BIT=0`.
"""
import pytest

from conftest import assert_bitwise_equal, cuda_ready, run_under_switch

pytestmark = pytest.mark.skipif(not cuda_ready(), reason="needs a CUDA GPU")

STAGED_KERNEL = "tconv_igemm_pack_weight_staged_kernel"

CODE = """
import sys, torch, tconv
from test_conv_transpose_gpu import TCONV_FN
cases = [
    # dims, batch, cin, cout, groups, kernel, stride, padding, spatial, weight layout
    (2, 2, 256, 160, 1, [4, 4], [2, 2], [1, 1], [8, 8], "contiguous"),        # DCGAN-like, a partial column tile
    (2, 2, 96, 320, 1, [3, 3], [1, 1], [1, 1], [9, 16], "contiguous"),        # 256-column tiles where wide enough
    (3, 1, 72, 136, 2, [3, 3, 3], [1, 1, 1], [1, 1, 1], [4, 5, 6], "contiguous"),  # 27 taps (16 + 11), groups of 36
    (1, 2, 128, 64, 1, [16], [8], [4], [40], "contiguous"),                   # 1D, 16 taps
    (2, 2, 64, 128, 1, [3, 5], [1, 2], [1, 2], [10, 12], "taps_strided"),     # taps not contiguous: per-element pack
]
results, names = [], []
for mode in ("tf32", "fp32"):
    torch.backends.cudnn.allow_tf32 = mode == "tf32"
    for algorithm in ("igemm", "igemm_mma", "igemm_tma"):
        for dims, batch, cin, cout, groups, kernel, stride, padding, spatial, layout in cases:
            g = torch.Generator(device="cuda").manual_seed(17)
            x = torch.randn(batch, cin, *spatial, device="cuda", generator=g, requires_grad=True)
            w = torch.randn(cin, cout // groups, *kernel, device="cuda", generator=g)
            if layout == "taps_strided":  # the same values with the last kernel dimension's stride not 1
                w = w.transpose(-1, -2).contiguous().transpose(-1, -2)
            b = torch.randn(cout, device="cuda", generator=g)
            with tconv._ops.use_algorithm(algorithm), \\
                    torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
                out = TCONV_FN[dims](x, w, b, stride, padding, 0, groups)
                (gx,) = torch.autograd.grad(out, [x], torch.randn(out.shape, device="cuda", generator=g))
                torch.cuda.synchronize()
            results += [out.detach().cpu(), gx.cpu()]
            names.append(sum("{staged}" in e.name for e in prof.events()))
torch.save([results, names], sys.argv[1])
""".replace("{staged}", STAGED_KERNEL)


def assert_staged_matches_plain(code, tmp_path, switch, cases):
    """The outputs under `switch`=1 (the staged pack) bitwise equal those under 0 (the per-element pack); the staged
    kernel runs only under 1, somewhere, and never for the last case (taps not contiguous). `cases`: the script's
    cases per (mode, layout, algorithm) round."""
    runs = run_under_switch(code, tmp_path, switch)
    (staged, staged_launches), (plain, plain_launches) = runs["1"], runs["0"]
    assert_bitwise_equal(staged, plain)
    assert not any(plain_launches), plain_launches
    # every case but the strided-taps one packs through the staged kernel where a gather GEMM runs (some algorithm
    # and case pairs run none, e.g. the TMA forms where their tile does not apply); never the strided one
    assert any(staged_launches), staged_launches
    assert not any(staged_launches[cases - 1::cases]), staged_launches


def test_staged_pack_agrees_bitwise(tmp_path):
    assert_staged_matches_plain(CODE, tmp_path, "TCONV_PACK_STAGED", cases=5)


CODE_16BIT = """
import sys, torch, tconv
from test_conv_transpose_gpu import TCONV_FN
cases = [
    # dims, batch, cin, cout, groups, kernel, stride, padding, spatial, weight layout
    (2, 2, 256, 160, 1, [4, 4], [2, 2], [1, 1], [8, 8], "contiguous"),        # DCGAN-like, a partial column tile
    (2, 2, 96, 320, 1, [3, 3], [1, 1], [1, 1], [9, 16], "contiguous"),        # 256-column tiles where wide enough
    (3, 1, 72, 136, 2, [3, 3, 3], [1, 1, 1], [1, 1, 1], [4, 5, 6], "contiguous"),  # 27 taps: per-element (16-bit)
    (2, 2, 66, 70, 1, [2, 2], [2, 2], [0, 0], [6, 7], "contiguous"),          # odd pairs: channel 65 without a partner
    (1, 2, 128, 64, 1, [16], [8], [4], [40], "contiguous"),                   # 1D, 16 taps
    (2, 2, 64, 128, 1, [3, 5], [1, 2], [1, 2], [10, 12], "taps_strided"),     # taps not contiguous: per-element pack
]
results, names = [], []
for dtype in (torch.bfloat16, torch.float16):
    for layout_x in ("contiguous", "channels_last"):
        for algorithm in ("auto", "igemm", "igemm_tma"):
            for dims, batch, cin, cout, groups, kernel, stride, padding, spatial, layout in cases:
                g = torch.Generator(device="cuda").manual_seed(23)
                x = torch.randn(batch, cin, *spatial, device="cuda", generator=g).to(dtype)
                if layout_x == "channels_last" and dims > 1:
                    x = x.contiguous(memory_format=torch.channels_last if dims == 2 else torch.channels_last_3d)
                x.requires_grad_()
                w = torch.randn(cin, cout // groups, *kernel, device="cuda", generator=g).to(dtype)
                if layout == "taps_strided":
                    w = w.transpose(-1, -2).contiguous().transpose(-1, -2)
                with tconv._ops.use_algorithm(algorithm), \\
                        torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
                    out = TCONV_FN[dims](x, w, None, stride, padding, 0, groups)
                    grad = torch.randn(out.shape, device="cuda", generator=g).to(dtype)
                    (gx,) = torch.autograd.grad(out, [x], grad)
                    torch.cuda.synchronize()
                results += [out.detach().cpu(), gx.cpu()]
                names.append(sum("{staged}" in e.name for e in prof.events()))
torch.save([results, names], sys.argv[1])
""".replace("{staged}", STAGED_KERNEL)


def test_staged_pack_16bit_agrees_bitwise(tmp_path):
    """fp16/bf16 weights through the staged pack (TCONV_PACK_STAGED_16BIT=1; a K row is a channel pair, one 32-bit
    word) and through the per-element kernel (=0): the same packed bits, so every forward and grad_input output is
    bitwise the same, on the cp.async and TMA gathers, contiguous and channels-last, with groups, an odd channel count
    (a pair's second half zero), and two weights that the per-element kernel packs either way: one of more taps than
    a tap group (27: run 502 had L1-68's 105 taps slower staged) and one with non-contiguous taps."""
    assert_staged_matches_plain(CODE_16BIT, tmp_path, "TCONV_PACK_STAGED_16BIT", cases=6)
