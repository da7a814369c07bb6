"""Development probe for "igemm_tma_direct" (run 345 saw an illegal instruction): one case per process, given as
dims batch cin cout kernel stride padding spatial (comma lists), forward then grad_input, each synchronized, so the
failing pass is named. Compared against torch in float64 on the CPU-side copy when both passes run."""
import sys

import torch

import tconv

dims, batch, cin, cout = (int(v) for v in sys.argv[1:5])
kernel, stride, padding, spatial = ([int(v) for v in s.split(",")] for s in sys.argv[5:9])
algorithm = sys.argv[9] if len(sys.argv) > 9 else "igemm_tma_direct"
fn = {1: tconv.conv_transpose1d, 2: tconv.conv_transpose2d, 3: tconv.conv_transpose3d}[dims]
ref = {1: torch.nn.functional.conv_transpose1d, 2: torch.nn.functional.conv_transpose2d,
       3: torch.nn.functional.conv_transpose3d}[dims]
g = torch.Generator(device="cuda").manual_seed(5)
x = torch.randn(batch, cin, *spatial, device="cuda", generator=g, requires_grad=True)
w = torch.randn(cin, cout, *kernel, device="cuda", generator=g)
tag = " ".join(sys.argv[1:])
with tconv._ops.use_algorithm(algorithm):
    try:
        out = fn(x, w, None, stride, padding)
        torch.cuda.synchronize()
    except Exception as e:  # noqa: BLE001 - the probe reports any failure
        print(f"{tag}: forward FAILED {type(e).__name__}: {str(e).splitlines()[0]}")
        sys.exit(1)
    try:
        grad = torch.randn(out.shape, device="cuda", generator=g)
        (gx,) = torch.autograd.grad(out, [x], grad)
        torch.cuda.synchronize()
    except Exception as e:  # noqa: BLE001
        print(f"{tag}: grad_input FAILED {type(e).__name__}: {str(e).splitlines()[0]}")
        sys.exit(1)
x64, w64 = x.detach().double(), w.double()
want = ref(x64, w64, None, stride, padding)
(gx64,) = torch.autograd.grad(ref(x64.requires_grad_(), w64, None, stride, padding), [x64], grad.double())
err = lambda a, b: ((a.double() - b).abs().max() / b.abs().max()).item()  # noqa: E731
print(f"{tag}: ok  forward rel err {err(out, want):.2e}  grad_input rel err {err(gx, gx64):.2e}")
