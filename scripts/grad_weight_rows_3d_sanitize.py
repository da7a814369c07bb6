"""A small workload of the rows grad_weight kernel on 3D problems for compute-sanitizer (memcheck). Run it under
TCONV_GRAD_WEIGHT_ROWS_3D=1 (read once per process): forward and backward of tests/test_grad_weight_rows_3d_gpu.py's
cases in TF32 mode, contiguous (the layout the rows kernel takes), under "igemm"."""
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
import tconv  # noqa: E402
from test_grad_weight_rows_3d_gpu import ROWS_3D_GRID  # noqa: E402

torch.backends.cudnn.allow_tf32 = True
g = torch.Generator(device="cuda").manual_seed(5)
with tconv._ops.use_algorithm("igemm"):
    for dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, bias in \
            ROWS_3D_GRID:
        x = torch.randn(batch, cin, *spatial, device="cuda", generator=g, requires_grad=True)
        w = torch.randn(cin, cout // groups, *kernel, device="cuda", generator=g, requires_grad=True)
        b = torch.randn(cout, device="cuda", generator=g, requires_grad=True) if bias else None
        out = tconv.conv_transpose3d(x, w, b, stride, padding, output_padding, groups, dilation)
        out.backward(torch.randn(out.shape, device="cuda", generator=g))
torch.cuda.synchronize()
print("grad_weight rows 3D sanitize workload: ok")
