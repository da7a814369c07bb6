"""The split sum's 32-bit index decoding on the GPU (skipped without CUDA).

`tconv_sum_splits_kernel` decodes each element's index in 32 bits where the count and every offset fit, in 64 bits
otherwise; `TCONV_SUM_SPLITS_INDEX64=1` (development, read once per process) takes the 64-bit decoding everywhere.
The sums are added in the same order and stored at the same places either way, so grad_weight and grad_bias must be
bitwise the same with it on and off: TF32, exact fp32 and bf16, one split and many, groups, 1D to 3D, a weight whose
gradient is not row-major (channels_last_3d) and the folded views of grad_weight (DCGAN-like).
"""
import pytest

from conftest import assert_bitwise_equal, cuda_ready, run_under_switch

pytestmark = pytest.mark.skipif(not cuda_ready(), reason="needs a CUDA GPU")

CODE = """
import sys, torch, tconv
from test_conv_transpose_gpu import TCONV_FN
cases = [
    # dims, batch, cin, cout, groups, kernel, stride, padding, spatial, weight memory format
    (2, 8, 256, 128, 1, [4, 4], [2, 2], [1, 1], [16, 16], "contiguous"),    # DCGAN-like
    (2, 2, 32, 32, 1, [3, 3], [1, 1], [1, 1], [64, 200], "contiguous"),     # L1-71-like: many splits
    (3, 2, 64, 64, 8, [3, 5, 3], [2, 2, 2], [1, 2, 1], [6, 8, 8], "contiguous"),  # grouped, strided
    (1, 4, 64, 32, 1, [7], [1], [3], [500], "contiguous"),
    (3, 2, 32, 48, 1, [3, 3, 3], [1, 1, 1], [1, 1, 1], [8, 8, 8], "channels_last"),  # not row-major
]
results, launches = [], []
for mode, dtype in (("tf32", torch.float32), ("fp32", torch.float32), ("bf16", torch.bfloat16)):
    torch.backends.cudnn.allow_tf32 = mode == "tf32"
    for dims, batch, cin, cout, groups, kernel, stride, padding, spatial, layout in cases:
        g = torch.Generator(device="cuda").manual_seed(23)
        x = torch.randn(batch, cin, *spatial, device="cuda", generator=g).to(dtype)
        w = torch.randn(cin, cout // groups, *kernel, device="cuda", generator=g).to(dtype)
        if layout == "channels_last":
            w = w.contiguous(memory_format=torch.channels_last_3d)
        w.requires_grad_(True)
        b = torch.randn(cout, device="cuda", generator=g).to(dtype).requires_grad_(True)
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            out = TCONV_FN[dims](x, w, b, stride, padding, 0, groups)
            gw, gb = torch.autograd.grad(out, [w, b], torch.randn(out.shape, device="cuda", generator=g).to(dtype))
            torch.cuda.synchronize()
        results += [gw.float().cpu(), gb.float().cpu()]
        launches.append([sum("sum_splits_kernel" in e.name and index in e.name for e in prof.events())
                         for index in ("unsigned int>", "long>")])
torch.save([results, launches], sys.argv[1])
"""


def test_index32_split_sum_agrees_bitwise(tmp_path):
    runs = run_under_switch(CODE, tmp_path, "TCONV_SUM_SPLITS_INDEX64")
    (index64, launches64), (index32, launches32) = runs["1"], runs["0"]
    assert_bitwise_equal(index32, index64)
    # the split sums in 32 bits by default (every case fits), in 64 when forced
    assert any(n32 for n32, _ in launches32) and not any(n64 for _, n64 in launches32), launches32
    assert any(n64 for _, n64 in launches64) and not any(n32 for n32, _ in launches64), launches64
