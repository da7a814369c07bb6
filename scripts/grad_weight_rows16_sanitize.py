"""A small workload of the 16-bit rows grad_weight kernel for compute-sanitizer (memcheck): forward and backward of
tests/test_grad_weight_rows16_gpu.py's cases in bf16 and fp16, contiguous (the layout the rows kernels take), under
"igemm" at the defaults (TCONV_GRAD_WEIGHT_ROWS16=1)."""
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
import tconv  # noqa: E402
from test_grad_weight_rows16_gpu import ROWS16_GRID  # noqa: E402

FUNCTIONS = {2: tconv.conv_transpose2d, 3: tconv.conv_transpose3d}
g = torch.Generator(device="cuda").manual_seed(7)
with tconv._ops.use_algorithm("igemm"):
    for dtype in (torch.bfloat16, torch.float16):
        for dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, bias in \
                ROWS16_GRID:
            x = torch.randn(batch, cin, *spatial, device="cuda", generator=g).to(dtype).requires_grad_()
            w = torch.randn(cin, cout // groups, *kernel, device="cuda", generator=g).to(dtype).requires_grad_()
            b = torch.randn(cout, device="cuda", generator=g).to(dtype).requires_grad_() if bias else None
            out = FUNCTIONS[dims](x, w, b, stride, padding, output_padding, groups, dilation)
            out.backward(torch.randn(out.shape, device="cuda", generator=g).to(dtype))
torch.cuda.synchronize()
print("grad_weight rows16 sanitize workload: ok")
