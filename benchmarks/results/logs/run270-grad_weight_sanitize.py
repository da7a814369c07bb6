"""compute-sanitizer target for the tensor-core grouped grad_weight (run 270): fp32 in TF32 and 3xTF32, bf16
channels_last, fp16 misaligned, 16 x 16 channels, a 5-tap W phase split over two items, several tiles per block."""
import torch
import tconv
from tconv.harness.precision import precision_mode

CASES = [  # input shape, weight shape, stride, padding, dilation, groups, dtype, layout, precision
    ((2, 32, 5, 9, 20), (32, 8, 3, 3, 3), (2, 2, 2), (1, 1, 1), (1, 1, 1), 4, torch.float32, "contiguous", "tf32"),
    ((2, 32, 5, 9, 20), (32, 8, 3, 3, 3), (2, 2, 2), (1, 1, 1), (1, 1, 1), 4, torch.float32, "contiguous", "fp32"),
    ((1, 32, 3, 5, 9), (32, 8, 3, 5, 7), (2, 2, 2), (1, 2, 3), (1, 1, 1), 4, torch.bfloat16, "channels_last", "tf32"),
    ((2, 32, 1, 13, 37), (32, 16, 1, 3, 5), (1, 2, 3), (0, 1, 2), (1, 2, 1), 4, torch.float16, "misaligned", "tf32"),
    ((2, 32, 1, 19, 45), (32, 32, 1, 3, 5), (1, 1, 1), (0, 1, 2), (1, 1, 2), 2, torch.float32, "contiguous", "tf32"),
]
for shape, wshape, stride, padding, dilation, groups, dtype, layout, precision in CASES:
    x = torch.randn(*shape, device="cuda").to(dtype)
    if layout == "channels_last":
        x = x.contiguous(memory_format=torch.channels_last_3d)
    elif layout == "misaligned":
        x = torch.randn(x.numel() + 1, device="cuda").to(dtype)[1:].view(shape)
    out_spatial = [(i - 1) * s - 2 * p + d * (k - 1) + 1
                   for i, s, p, d, k in zip(shape[2:], stride, padding, dilation, wshape[2:])]
    grad = torch.randn(shape[0], wshape[1] * groups, *out_spatial, device="cuda").to(dtype)
    with precision_mode(precision), tconv._ops.use_algorithm("grouped_mma"):
        got = tconv._ops.conv_transpose_grad_weight(grad, x, list(wshape), list(stride), list(padding),
                                                    list(dilation), groups)
    torch.cuda.synchronize()
    print(shape, wshape, dtype, layout, precision, "ok", float(got.float().abs().sum()))
print(f"grad_weight_sanitize: {len(CASES)} cases")
