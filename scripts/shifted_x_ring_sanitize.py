"""A small TF32 workload of the shifted-x grad_weight's row ring for compute-sanitizer (memcheck, racecheck;
--kernel-name kns=shifted_x_ring), run under TCONV_GRAD_WEIGHT_SHIFTED_X_RING=1: a 2D call with 5 (kd, kh) rows (two
row tiles, the second's third row past the kernel) and sweeps of 9 units that slide, a 3D call with kH 2 (chains
across a tile: two heads a unit), and groups of 32 -> 16 (boxes past a group's channels). Prints each grad_weight's
largest error against a float64 reference, relative to its largest value (TF32 products: ~1e-3), and fails above
1e-2. --channels-last: x and grad_output channels_last, for the ring's channels-last form
(TCONV_GRAD_WEIGHT_SHIFTED_X_CHANNELS_LAST=1; kns=shifted_x_ring_channels_last).
    python3 scripts/shifted_x_ring_sanitize.py [--channels-last]"""
import sys

import torch

import tconv

g = torch.Generator(device="cuda").manual_seed(11)
torch.backends.cudnn.allow_tf32 = True  # this process's own setting: the TF32 path is the one under test
cases = [
    (torch.randn(2, 32, 9, 64, device="cuda", generator=g), torch.randn(32, 64, 5, 3, device="cuda", generator=g),
     dict(padding=(2, 1))),
    (torch.randn(2, 32, 3, 4, 64, device="cuda", generator=g),
     torch.randn(32, 64, 2, 2, 3, device="cuda", generator=g), dict(padding=(0, 0, 1))),
    (torch.randn(1, 64, 4, 40, device="cuda", generator=g), torch.randn(64, 16, 3, 3, device="cuda", generator=g),
     dict(padding=(1, 1), groups=2)),
]
channels_last = "--channels-last" in sys.argv[1:]
for x, w, kw in cases:
    if channels_last:
        x = x.contiguous(memory_format=torch.channels_last if x.dim() == 4 else torch.channels_last_3d)
    x.requires_grad_()
    w.requires_grad_()
    fn = tconv.conv_transpose2d if x.dim() == 4 else tconv.conv_transpose3d
    y = fn(x, w, None, **kw)
    dy = torch.randn(y.shape, device="cuda", generator=g)
    if channels_last:
        dy = dy.contiguous(memory_format=torch.channels_last if dy.dim() == 4 else torch.channels_last_3d)
    (grad_w,) = torch.autograd.grad(y, w, dy)
    x64, w64 = x.detach().double().requires_grad_(), w.detach().double().requires_grad_()
    ref_fn = torch.nn.functional.conv_transpose2d if x.dim() == 4 else torch.nn.functional.conv_transpose3d
    (ref_w,) = torch.autograd.grad(ref_fn(x64, w64, None, **kw), w64, dy.double())
    err = ((grad_w.double() - ref_w).abs().max() / ref_w.abs().max()).item()
    print("shifted-x ring sanitize workload:", tuple(x.shape), "grad_weight max error / max", f"{err:.2e}")
    assert err < 1e-2, err
torch.cuda.synchronize()
