"""A small workload of the 256-column plain gather tile for compute-sanitizer (memcheck). Run it under
TCONV_GATHER_WIDEST=2 TCONV_GATHER_TMA=0 (read once per process: the 256-column tile whatever the grid, and the
forwards on the cp.async gather too): forward and grad_input of
tests/test_gather_widest_gpu.py's cases under "igemm" (the W fold over a partial column tile, grad_input's spread
rows, the W-tap window, groups of 256, a single stage), in fp32 data or the dtypes named on the command line:

    TCONV_GATHER_WIDEST=2 TCONV_GATHER_TMA=0 python3 scripts/gather_widest_sanitize.py float32 bfloat16 float16
"""
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
import tconv  # noqa: E402
from test_gather_widest_gpu import CASES  # noqa: E402

FUNCTIONS = {1: tconv.conv_transpose1d, 2: tconv.conv_transpose2d, 3: tconv.conv_transpose3d}
torch.backends.cudnn.allow_tf32 = True
g = torch.Generator(device="cuda").manual_seed(3)
with tconv._ops.use_algorithm("igemm"):
    for dtype in [getattr(torch, name) for name in sys.argv[1:] or ["float32"]]:
        for name in sorted(CASES):
            dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, bias = \
                CASES[name]
            x = torch.randn(batch, cin, *spatial, device="cuda", generator=g).to(dtype).requires_grad_()
            w = torch.randn(cin, cout // groups, *kernel, device="cuda", generator=g).to(dtype)
            b = torch.randn(cout, device="cuda", generator=g).to(dtype) if bias else None
            out = FUNCTIONS[dims](x, w, b, stride, padding, output_padding, groups, dilation)
            torch.autograd.grad(out, [x], torch.randn(out.shape, device="cuda", generator=g).to(dtype))
torch.cuda.synchronize()
print("gather widest sanitize workload: ok")
