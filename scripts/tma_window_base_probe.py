"""What the wgmma descriptor's base offset does for the TMA window (development): the window forward of an L1-68-like
call under "igemm_tma_window" against float64, with TCONV_TMA_WINDOW_BASE as set (1: base offsets, the default; 0:
none). Each W tap's A tile starts inside the 128-byte swizzle's 8-row pattern, so one setting gives TF32-sized errors
and a wrong one errors of the outputs' own size."""
import torch

import tconv

torch.backends.cudnn.allow_tf32 = True
g = torch.Generator(device="cuda").manual_seed(5)
x = torch.randn(2, 32, 4, 12, 20, device="cuda", generator=g)
w = torch.randn(32, 64, 3, 5, 5, device="cuda", generator=g)
with tconv._ops.use_algorithm("igemm_tma_window"):
    out = tconv.conv_transpose3d(x, w)
ref = torch.nn.functional.conv_transpose3d(x.double(), w.double())
err = (out.double() - ref).abs().max().item()
print(f"window forward: max |error| {err:.3e} against max |output| {ref.abs().max().item():.3e}")
