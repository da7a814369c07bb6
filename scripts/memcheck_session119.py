"""One process for compute-sanitizer (session119-next.sh, session119-short.sh): a TF32 channels-last call on each
form session 119 made or kept under test. A k2 s2 3D fwd+bwd (the rows grad_weight's channels-last form), a
fam10-like forward (the unequal phases, under TCONV_TMA_UNEQUAL_PHASES=1 from the caller), and a 64 -> 48
unit-stride forward (the channels-last store with shuffled row offsets)."""

import torch, tconv
torch.backends.cudnn.allow_tf32 = True
torch.backends.cuda.matmul.allow_tf32 = True
x = torch.randn(2, 128, 6, 8, 20, device='cuda').contiguous(memory_format=torch.channels_last_3d)
w = torch.randn(128, 64, 2, 2, 2, device='cuda', requires_grad=True)
out = tconv.conv_transpose3d(x, w, None, 2)
out.backward(torch.randn_like(out))
torch.cuda.synchronize()
print('grad_weight', w.grad.norm().item())
x = torch.randn(2, 32, 4, 8, 16, device='cuda').contiguous(memory_format=torch.channels_last_3d)
w = torch.randn(32, 64, 3, 3, 3, device='cuda')
out = tconv.conv_transpose3d(x, w, torch.randn(64, device='cuda'), 2, 1, 0, 1, 2)
torch.cuda.synchronize()
print('unequal', tuple(out.shape), out.norm().item())
x = torch.randn(3, 64, 7, 61, device='cuda').contiguous(memory_format=torch.channels_last)
w = torch.randn(64, 48, 3, 3, device='cuda')
out = tconv.conv_transpose2d(x, w, torch.randn(48, device='cuda'), 1, 1)
torch.cuda.synchronize()
print('store_rows', tuple(out.shape), out.norm().item())
