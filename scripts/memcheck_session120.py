"""One process for compute-sanitizer (session120-run578.sh, session120-next.sh): a fam10-like TF32 fwd+bwd (k3 s2
p1 d2, bias) in both layouts, through the one-residue views (both on by default since session 120; the caller may set
TCONV_PHASE_VIEW_FILL): the stride-1 kernels writing into a strided view of y and reading one of grad_output."""
import torch

import tconv

torch.backends.cudnn.allow_tf32 = True
torch.backends.cuda.matmul.allow_tf32 = True
for layout in ("contiguous", "channels_last"):
    x = torch.randn(2, 32, 4, 8, 16, device="cuda")
    if layout == "channels_last":
        x = x.contiguous(memory_format=torch.channels_last_3d)
    x.requires_grad_()
    w = torch.randn(32, 64, 3, 3, 3, device="cuda", requires_grad=True)
    b = torch.randn(64, device="cuda", requires_grad=True)
    out = tconv.conv_transpose3d(x, w, b, 2, 1, 0, 1, 2)
    out.backward(torch.randn_like(out))
    torch.cuda.synchronize()
    print("view", layout, tuple(out.shape), out.norm().item(), x.grad.norm().item(), w.grad.norm().item(),
          b.grad.norm().item())
