"""A small one-tap workload for compute-sanitizer (memcheck, racecheck; --kernel-name kns=one_tap): the forward
(mma.sync form for fp16 / bf16, FFMA for fp32), grad_input and grad_weight (fp16 / bf16) of one-tap calls under
"one_tap", every gradient: a fam13-like 2D call (channels-last, every 16-byte path, bias), a call of 40 -> 70 channels
(two input-channel chunks, a partial output-channel tile, no 16-byte paths) over three 64-position W tiles, and a 3D
call with contiguous tensors (channels not innermost: the scalar staging), each in bf16 and fp16, then the fp32
forward. Small enough to finish under the sanitizer in well under a minute."""
import torch

import tconv

g = torch.Generator(device="cuda").manual_seed(5)
CALLS = [  # input shape, weight shape, stride, padding, dilation, bias, channels-last
    ((2, 32, 6, 9), (32, 64, 3, 3), 5, 1, 2, True, True),
    ((2, 40, 3, 150), (40, 70, 2, 3), (3, 4), (0, 1), 1, True, True),
    ((2, 12, 3, 4, 5), (12, 20, 2, 2, 2), 3, (1, 0, 1), (2, 1, 2), False, False),
]
FUNCTIONS = {4: tconv.conv_transpose2d, 5: tconv.conv_transpose3d}
with tconv._ops.use_algorithm("one_tap"):
    for dtype in (torch.bfloat16, torch.float16, torch.float32):
        for shape, weight, stride, pad, dilation, with_bias, channels_last in CALLS:
            x = torch.randn(*shape, device="cuda", generator=g).to(dtype)
            if channels_last:
                x = x.contiguous(memory_format=torch.channels_last)
            x.requires_grad_()
            w = torch.randn(*weight, device="cuda", generator=g).to(dtype).requires_grad_()
            b = torch.randn(weight[1], device="cuda", generator=g).to(dtype).requires_grad_() if with_bias else None
            out = FUNCTIONS[len(shape)](x, w, b, stride, pad, 0, 1, dilation)
            if dtype == torch.float32:
                continue  # the one-tap backward kernels are 16-bit only
            dy = torch.randn(out.shape, device="cuda", generator=g).to(dtype)
            if channels_last:
                dy = dy.contiguous(memory_format=torch.channels_last)
            torch.autograd.grad(out, [x, w] + ([b] if with_bias else []), dy)
torch.cuda.synchronize()
print("one-tap sanitize workload: ok")
