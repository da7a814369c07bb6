import torch, tconv
torch.backends.cuda.matmul.allow_tf32 = True
torch.backends.cudnn.allow_tf32 = True
cases = 0
for dtype in (torch.float32, torch.bfloat16):
    for spatial, kernel, stride, padding, opad, channels_last in (([3, 9, 20], 3, 2, 1, 0, False),
                                                                  ([2, 5, 12], (3, 5, 7), 2, (1, 2, 3), 1, False),
                                                                  ([3, 9, 21], 3, 2, 1, 0, False),
                                                                  ([3, 9, 20], 3, 2, 1, 0, True)):
        x = torch.randn(2, 32, *spatial, device="cuda", dtype=dtype, requires_grad=True)
        if channels_last:
            x = x.detach().contiguous(memory_format=torch.channels_last_3d).requires_grad_()
        w = torch.randn(32, 8, *(kernel if isinstance(kernel, tuple) else (kernel,) * 3), device="cuda", dtype=dtype)
        with tconv._ops.use_algorithm("grouped_mma"):
            y = tconv.functional.conv_transpose3d(x, w, None, stride, padding, opad, 4)
            y.backward(torch.ones_like(y))
        torch.cuda.synchronize()
        cases += 1
print(f"lines_sanitize: {cases} cases")
