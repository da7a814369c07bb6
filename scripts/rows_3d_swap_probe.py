"""Which grad_weight kernel a small channels-last k2 s2 3D call takes (the rows 3D test's case 0, which run 577 found on
the mma.sync kernel where the test expected the rows kernel's channels-last form), for the caller's
TCONV_GRAD_WEIGHT_SWAP: unset (the swap rule), 0 (never swapped). One line per layout: the grad_weight kernels."""
import os

import torch

import tconv

torch.backends.cudnn.allow_tf32 = True
torch.backends.cuda.matmul.allow_tf32 = True
for layout in ("contiguous", "channels_last"):
    x = torch.randn(2, 128, 3, 4, 8, device="cuda")
    if layout == "channels_last":
        x = x.contiguous(memory_format=torch.channels_last_3d)
    w = torch.randn(128, 64, 2, 2, 2, device="cuda", requires_grad=True)
    out = tconv.conv_transpose3d(x, w, None, 2)
    grad = torch.randn_like(out)
    torch.cuda.synchronize()
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        out.backward(grad)
        torch.cuda.synchronize()
    names = sorted({e.name[:110] for e in prof.events() if "grad_weight" in e.name or "shifted" in e.name})
    print("swap", os.environ.get("TCONV_GRAD_WEIGHT_SWAP", "unset"), layout, "grad", grad.stride(), names)
