"""Which cases of tests/test_grad_weight_tma_gpu.py's CASES the TMA grad_weight's development forms fail on, and how
far each form's grad_weight is from float64: every case with x requiring grad and not, under the profiler and not,
each in a try block, one line each (a development probe; the switches are read once per process, so run it once per
form: TCONV_GRAD_WEIGHT_TMA_N128=1 / TCONV_GRAD_WEIGHT_TMA_CI64=1 / neither).

    TCONV_GRAD_WEIGHT_WINDOW=0 TCONV_GRAD_WEIGHT_TMA_N128=1 python3 scripts/grad_weight_tma_forms_probe.py bf16
"""
import contextlib
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
from test_conv_transpose_gpu import TCONV_FN, TORCH_FN  # noqa: E402
from test_grad_weight_tma_gpu import CASES, KERNEL  # noqa: E402


def probe(name, case, dtype, input_grad, profiled):
    dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, _ = case
    fmt = torch.channels_last if dims == 2 else torch.channels_last_3d
    gen = torch.Generator(device="cuda").manual_seed(7)
    x = torch.randn(batch, cin, *spatial, device="cuda", generator=gen).to(dtype).contiguous(memory_format=fmt)
    x.requires_grad_(input_grad)
    w = torch.randn(cin, cout // groups, *kernel, device="cuda", generator=gen).to(dtype).requires_grad_()
    args = (stride, padding, output_padding, groups, dilation)
    profile = (torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) if profiled
               else contextlib.nullcontext())
    try:
        with profile as prof:
            out = TCONV_FN[dims](x, w, None, *args)
            grad = torch.randn(out.shape, device="cuda", generator=gen).to(dtype).contiguous(memory_format=fmt)
            out.backward(grad)
            torch.cuda.synchronize()
    except RuntimeError as error:
        return f"FAIL {str(error).splitlines()[0][:150]}"
    kernels = ""
    if profiled:
        kernels = " ".join(e.name.split("<")[1].split(">")[0] for e in prof.events()
                           if e.device_type == torch.autograd.DeviceType.CUDA and KERNEL in e.name)
    w64 = w.detach().double().requires_grad_()
    TORCH_FN[dims](x.detach().double(), w64, None, *args).backward(grad.double())
    error = ((w.grad.double() - w64.grad).norm() / w64.grad.norm()).item()
    return f"ok rel err {error:.2e} {kernels}"


def main():
    dtype = {"bf16": torch.bfloat16, "fp16": torch.float16}[sys.argv[1] if len(sys.argv) > 1 else "bf16"]
    form = " ".join(f"{k}={v}" for k, v in sorted(os.environ.items()) if k.startswith("TCONV_GRAD_WEIGHT"))
    for profiled in (False, True):
        for input_grad in (True, False):
            for name in sorted(CASES):
                result = probe(name, CASES[name], dtype, input_grad, profiled)
                print(f"{form} | {name:16s} input_grad={int(input_grad)} profiled={int(profiled)}: {result}")


if __name__ == "__main__":
    main()
