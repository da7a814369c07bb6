"""A small TF32 channels-last workload of the unit-stride forward for compute-sanitizer (memcheck, racecheck;
--kernel-name kns=unit_stride_forward), under the kernel's channels-last access (the default since session 112: the
16-byte K-group loads and the channel-run staged store; TCONV_UNIT_STRIDE_CL_ACCESS=0 for the per-channel form):
"igemm_strip" forces the kernel on a 64-channel tile (weights as A) with a partial last row tile, on the 128-channel
wide-rows tile (the warp-specialized form, an L2-61-like k3 block at 130 channels: a partial second channel tile),
and on grad_input through the same kernel. Prints each output's and input gradient's largest error against a float64
reference, relative to its largest value (TF32 products: ~1e-3), and fails above 1e-2.
    python3 scripts/unit_stride_cl_sanitize.py"""
import torch

import tconv

g = torch.Generator(device="cuda").manual_seed(13)
torch.backends.cudnn.allow_tf32 = True  # this process's own setting: the TF32 path is the one under test


def channels_last(t):
    return t.contiguous(memory_format=torch.channels_last if t.dim() == 4 else torch.channels_last_3d)


cases = [
    (torch.randn(2, 16, 9, 70, device="cuda", generator=g), torch.randn(16, 64, 3, 5, device="cuda", generator=g),
     dict(padding=(1, 2))),
    (torch.randn(1, 32, 3, 5, 20, device="cuda", generator=g),
     torch.randn(32, 130, 3, 3, 3, device="cuda", generator=g), dict(padding=(0, 1, 0))),
]
with tconv._ops.use_algorithm("igemm_strip"):
    for x, w, kw in cases:
        x = channels_last(x).requires_grad_()
        fn = tconv.conv_transpose2d if x.dim() == 4 else tconv.conv_transpose3d
        y = fn(x, w, None, **kw)
        dy = channels_last(torch.randn(y.shape, device="cuda", generator=g))
        (grad_x,) = torch.autograd.grad(y, x, dy)
        x64 = x.detach().double().requires_grad_()
        ref_fn = torch.nn.functional.conv_transpose2d if x.dim() == 4 else torch.nn.functional.conv_transpose3d
        ref_y = ref_fn(x64, w.double(), None, **kw)
        (ref_x,) = torch.autograd.grad(ref_y, x64, dy.double())
        for name, got, ref in (("output", y, ref_y), ("grad_input", grad_x, ref_x)):
            err = ((got.double() - ref).abs().max() / ref.abs().max()).item()
            print("unit-stride channels-last sanitize workload:", tuple(x.shape), name, f"max error / max {err:.2e}")
            assert err < 1e-2, (name, err)
torch.cuda.synchronize()
