"""Detect a solution that runs PyTorch's own convolution (aten ops, cuDNN/oneDNN kernels).

The solution's forward and backward run under torch.profiler; the event names are matched against
torch's convolution operators and, on CUDA, against name fragments of cuDNN kernels.

Exception, CPU only: tconv documents that CPU tensors run PyTorch's own implementation, inside a
`torch.profiler.record_function("tconv.cpu_fallback")` scope. Convolution events below that scope are
ignored on CPU. On CUDA no exception applies.
"""

from __future__ import annotations

import inspect
from typing import Callable, Iterable, List

import torch
from torch.profiler import ProfilerActivity, profile

CPU_FALLBACK_SCOPE = "tconv.cpu_fallback"

# Operator names (and families, matched as prefixes) of torch's convolutions, forward and backward.
TORCH_CONV_OP_PREFIXES = (
    "aten::convolution",  # also aten::convolution_backward, aten::convolution_overrideable
    "aten::_convolution",  # also aten::_convolution_double_backward, aten::_convolution_mode
    "aten::conv_transpose1d",
    "aten::conv_transpose2d",
    "aten::conv_transpose3d",
    "aten::conv1d",
    "aten::conv2d",
    "aten::conv3d",
    "aten::conv_tbc",
    "aten::cudnn_convolution",  # also aten::cudnn_convolution_transpose, *_relu, *_add_relu
    "aten::mkldnn_convolution",
    "aten::slow_conv",  # slow_conv_transpose2d/3d, slow_conv3d, slow_conv_dilated2d/3d
    "aten::_slow_conv2d",
    "aten::thnn_conv",
    "aten::_conv_depthwise2d",
    "aten::conv_depthwise3d",
    "aten::_nnpack_spatial_convolution",
    "aten::miopen",
)

# Lower-case fragments of cuDNN convolution kernel names (and its layout transposes). tconv's own
# kernels must not use them in their names.
CUDA_CONV_KERNEL_MARKERS = ("cudnn", "xmma", "implicit_convolve", "dgrad", "wgrad", "fprop", "nchwtonhwc")
# cuBLAS names its matrix-product kernels "sm80_xmma_gemm_..._cublas": a GEMM, not a convolution
# (torch.matmul is allowed), so "xmma" alone does not flag a kernel that names cuBLAS.
_CUBLAS_MARKER = "cublas"


def is_torch_conv_op(name: str) -> bool:
    return name.startswith(TORCH_CONV_OP_PREFIXES)


def is_conv_kernel(name: str) -> bool:
    lowered = name.lower()
    markers = [marker for marker in CUDA_CONV_KERNEL_MARKERS if marker in lowered]
    if markers == ["xmma"] and _CUBLAS_MARKER in lowered:
        return False
    return bool(markers)


def _inside_cpu_fallback(event) -> bool:
    parent = event.cpu_parent
    while parent is not None:
        if parent.name == CPU_FALLBACK_SCOPE:
            return True
        parent = parent.cpu_parent
    return False


def _is_device_event(event) -> bool:
    return getattr(event, "device_type", None) not in (None, torch.autograd.DeviceType.CPU)


def torch_conv_event_names(events: Iterable, device_type: str) -> List[str]:
    """Sorted distinct names of convolution events among profiler `events` (FunctionEvents)."""
    found = set()
    for event in events:
        if _is_device_event(event):
            if is_conv_kernel(event.name):
                found.add(event.name)
            continue
        for kernel in getattr(event, "kernels", ()) or ():
            if is_conv_kernel(kernel.name):
                found.add(kernel.name)
        if is_torch_conv_op(event.name):
            if device_type == "cpu" and _inside_cpu_fallback(event):
                continue
            found.add(event.name)
    return sorted(found)


def find_torch_conv_events(run: Callable[[], None], device: torch.device) -> List[str]:
    """Run `run` under the profiler; names of the torch convolution ops/kernels it executed."""
    device = torch.device(device)
    activities = [ProfilerActivity.CPU]
    if device.type == "cuda":
        activities.append(ProfilerActivity.CUDA)
    options = {}
    if "acc_events" in inspect.signature(profile.__init__).parameters:
        options["acc_events"] = True  # newer torch warns without it; there is one cycle either way
    with profile(activities=activities, **options) as profiler:
        run()
        if device.type == "cuda":
            torch.cuda.synchronize(device)
    return torch_conv_event_names(profiler.events(), device.type)
