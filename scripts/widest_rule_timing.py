"""Development timing of the 256-column gather tile's grid rule (conv_transpose_igemm.cu, gather_widest_fills):
forward and grad_input of calls with >= 256 GEMM columns whose 128-column grids are one wave or a few, under
"igemm" with the TMA forms off, so both passes run the cp.async gather. Run it once per value of the switch (read
once per process) and compare the lines; numbers are tconv's alone, for A/B only:

    for v in 0 1 2; do TCONV_GATHER_WIDEST=$v TCONV_GATHER_TMA=0 python3 scripts/widest_rule_timing.py; done
"""
import os

import torch

import tconv
from tconv.harness.timing import time_cuda

# (batch, C_in, C_out, H = W, kernel, stride, padding): a DCGAN generator's first layers (4x4 and 8x8 inputs), then
# grids of about 1, 2 and 4 waves of 128-column blocks on 132 SMs.
SHAPES = [
    (16, 1024, 512, 4, 4, 2, 1),
    (16, 512, 256, 8, 4, 2, 1),
    (8, 256, 256, 32, 3, 1, 1),
    (16, 256, 256, 32, 3, 1, 1),
    (32, 256, 256, 32, 3, 1, 1),
]

torch.backends.cudnn.allow_tf32 = True
mode = os.environ.get("TCONV_GATHER_WIDEST", "1")
g = torch.Generator(device="cuda").manual_seed(0)
for batch, cin, cout, size, kernel, stride, padding in SHAPES:
    x = torch.randn(batch, cin, size, size, device="cuda", generator=g, requires_grad=True)
    w = torch.randn(cin, cout, kernel, kernel, device="cuda", generator=g)
    with tconv._ops.use_algorithm("igemm"):
        out = tconv.conv_transpose2d(x, w, None, stride, padding)
        grad = torch.randn(out.shape, device="cuda", generator=g)

        def forward():
            with torch.no_grad():
                tconv.conv_transpose2d(x, w, None, stride, padding)

        def grad_input():
            torch.autograd.grad(tconv.conv_transpose2d(x, w, None, stride, padding), [x], grad)

        fwd = time_cuda(forward, runs=20, warmup=3)
        fwd_gi = time_cuda(grad_input, runs=20, warmup=3)
    print(f"TCONV_GATHER_WIDEST={mode} batch {batch:2d} {cin:4d}->{cout:3d} {size:2d}x{size:<2d} k{kernel} s{stride}: "
          f"fwd {fwd.median_ms:.4f} ({fwd.p20_ms:.4f}-{fwd.p80_ms:.4f})  fwd+grad_input {fwd_gi.median_ms:.4f} "
          f"({fwd_gi.p20_ms:.4f}-{fwd_gi.p80_ms:.4f}) ms", flush=True)
