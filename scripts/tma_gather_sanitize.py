"""A small TMA-gather workload for compute-sanitizer (memcheck): forward and grad_input of a DCGAN-like call under
"igemm_tma" on both tile widths (128 and 256 columns), with bias, a partial column tile and zero-filled box edges;
then a 3D call whose grids no box tiles exactly (partial boxes, rows past the grid not stored) on 64-column tiles;
then the W-tap window ("igemm_tma_window"): a narrow 3D grid (rows in lines of extent_w + span) and a wide 1D one;
then the direct form ("igemm_tma_direct", boxes of the source itself): a 2D stride-2 forward (flat boxes) and a 3D
stride-1 call (boxes of W lines); then 16-bit channels-last calls read in place under "auto" (bf16, forward and
every gradient): a fam01-like 3 x 3 call of 64 channels (the persistent short window tile and the window grad_weight)
and a fam06-like 3 x 5 call of 64 -> 128 channels on wide lines (W 256: the per-tap boxes, the window refusing 128
columns there) with more M tiles than an H200 runs at once, and a DCGAN-like stride-2 call (4 phases); both run the
persistent per-tap kernel (unless TCONV_TMA_GATHER_PERSISTENT=0), its blocks looping over tiles."""
import torch

import tconv

torch.backends.cudnn.allow_tf32 = True
g = torch.Generator(device="cuda").manual_seed(3)
with tconv._ops.use_algorithm("igemm_tma"):
    for cin, cout in [(64, 160), (256, 320)]:
        x = torch.randn(1, cin, 16, 16, device="cuda", generator=g, requires_grad=True)
        w = torch.randn(cin, cout, 4, 4, device="cuda", generator=g)
        b = torch.randn(cout, device="cuda", generator=g)
        out = tconv.conv_transpose2d(x, w, b, 2, 1)
        torch.autograd.grad(out, [x], torch.randn(out.shape, device="cuda", generator=g))
    x = torch.randn(2, 64, 5, 6, 7, device="cuda", generator=g, requires_grad=True)
    w = torch.randn(64, 64, 3, 3, 3, device="cuda", generator=g)
    b = torch.randn(64, device="cuda", generator=g)
    out = tconv.conv_transpose3d(x, w, b, 1, 0)
    torch.autograd.grad(out, [x], torch.randn(out.shape, device="cuda", generator=g))
with tconv._ops.use_algorithm("igemm_tma_window"):
    for shape, weight, pad in [((2, 32, 4, 12, 20), (32, 64, 3, 5, 5), 0), ((2, 32, 700), (32, 32, 5), 2)]:
        x = torch.randn(*shape, device="cuda", generator=g, requires_grad=True)
        w = torch.randn(*weight, device="cuda", generator=g)
        fn = tconv.conv_transpose3d if len(shape) == 5 else tconv.conv_transpose1d
        out = fn(x, w, None, 1, pad)
        torch.autograd.grad(out, [x], torch.randn(out.shape, device="cuda", generator=g))
with tconv._ops.use_algorithm("igemm_tma_direct"):
    for shape, weight, stride, pad in [((2, 64, 16, 16), (64, 160, 4, 4), 2, 1),
                                       ((2, 64, 6, 12, 20), (64, 64, 3, 3, 3), 1, 1)]:
        x = torch.randn(*shape, device="cuda", generator=g, requires_grad=True)
        w = torch.randn(*weight, device="cuda", generator=g)
        fn = tconv.conv_transpose3d if len(shape) == 5 else tconv.conv_transpose2d
        out = fn(x, w, None, stride, pad)
        torch.autograd.grad(out, [x], torch.randn(out.shape, device="cuda", generator=g))
SIXTEEN_BIT_CALLS = [((2, 64, 16, 40), (64, 64, 3, 3), 1, 1), ((4, 64, 32, 256), (64, 128, 3, 5), 1, (1, 2)),
                     ((8, 128, 16, 16), (128, 128, 4, 4), 2, 1)]
for shape, weight, stride, pad in SIXTEEN_BIT_CALLS:
    x = torch.randn(*shape, device="cuda", generator=g).to(torch.bfloat16)
    x = x.contiguous(memory_format=torch.channels_last).requires_grad_()
    w = torch.randn(*weight, device="cuda", generator=g).to(torch.bfloat16).requires_grad_()
    b = torch.randn(weight[1], device="cuda", generator=g).to(torch.bfloat16).requires_grad_()
    out = tconv.conv_transpose2d(x, w, b, stride, pad)
    dy = torch.randn(out.shape, device="cuda", generator=g).to(torch.bfloat16)
    torch.autograd.grad(out, [x, w, b], dy.contiguous(memory_format=torch.channels_last))
torch.cuda.synchronize()
print("tma gather sanitize workload: ok")
