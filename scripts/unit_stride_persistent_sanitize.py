"""A small TF32 workload of the persistent warp-specialized unit-stride forward for compute-sanitizer (memcheck,
racecheck; --kernel-name kns=unit_stride_forward), run under TCONV_UNIT_STRIDE_PERSISTENT=3 (three blocks take every
row tile) and, for 64 output channels, TCONV_UNIT_STRIDE_SPECIALIZED_64=1: a 3D call of 36 stages a tile over 7 row
tiles (the store staged through the held slots) and a 2D call of one stage a tile (the store from registers).
    python3 scripts/unit_stride_persistent_sanitize.py C_OUT"""
import sys

import torch

import tconv

c_out = int(sys.argv[1])
g = torch.Generator(device="cuda").manual_seed(7)
torch.backends.cudnn.allow_tf32 = True  # this process's own setting: the TF32 path is the one under test
with tconv._ops.use_algorithm("igemm_strip"):
    x = torch.randn(1, 64, 6, 8, 33, device="cuda", generator=g)
    w = torch.randn(64, c_out, 3, 3, 3, device="cuda", generator=g)
    y3 = tconv.conv_transpose3d(x, w, torch.randn(c_out, device="cuda", generator=g), padding=1)
    x = torch.randn(2, 16, 9, 40, device="cuda", generator=g)
    w = torch.randn(16, c_out, 1, 3, device="cuda", generator=g)
    y2 = tconv.conv_transpose2d(x, w, torch.randn(c_out, device="cuda", generator=g), padding=(0, 1))
torch.cuda.synchronize()
print("persistent unit-stride sanitize workload: ok", tuple(y3.shape), tuple(y2.shape))
