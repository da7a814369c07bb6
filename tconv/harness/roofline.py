"""Work of a problem (FLOPs, bytes) and the hardware floor it implies (DESIGN.md section 5).

FLOPs count useful multiply-adds of the transposed convolutions only (for a fused problem such as
KernelBench L2-61 the activation/normalisation is not counted):

    2 * N * input_spatial_positions * C_in * (C_out / groups) * kernel_volume

Bytes: input + output + weight of each transposed convolution, once, at the precision's element
size. Forward + backward runs three such passes (forward, grad_input, grad_weight), each touching
one input-, one output- and one weight-sized tensor, so it counts 3x the forward's FLOPs and bytes.

Floor = max(flops / peak_flops, bytes / peak_bandwidth), with peaks per GPU from `GPU_PEAKS`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence

import torch
import torch.nn as nn
from torch.nn.modules.conv import _ConvTransposeNd

# Measured / spec peaks per GPU (DESIGN.md section 4). FLOP/s per precision mode, bytes/s for copies.
# SGEMM_PEAKS: the measured FFMA SGEMM rate. The "exact" fp32 roof is the faster of that and a third of the
# TF32 rate: 3xTF32 (three TF32 products per multiply-add) meets the exact-mode contract on tensor cores.
# With the SGEMM rate alone as the roof, tconv's 3xTF32 kernels ran at 109-116 % of the "floor" (exact-fp32
# suite at 9ca2807, fam01 and fam05), so the column was no bound.
SGEMM_PEAKS: Dict[str, float] = {"H200": 51e12, "H100 SXM": 51e12}
GPU_PEAKS: Dict[str, Dict[str, float]] = {
    "H200": {"tf32": 408e12, "bf16": 784e12, "fp16": 784e12, "bandwidth": 4.2e12},
    "H100 SXM": {"tf32": 400e12, "bf16": 790e12, "fp16": 790e12, "bandwidth": 3.0e12},
}
for _gpu, _peaks in GPU_PEAKS.items():
    _peaks["fp32"] = max(SGEMM_PEAKS[_gpu], _peaks["tf32"] / 3)

FWDBWD_PASSES = 3


@dataclass
class ConvTransposeCall:
    """Shapes of one nn.ConvTranspose*d call observed during a forward."""

    module: str
    input_shape: List[int]
    output_shape: List[int]
    weight_shape: List[int]
    groups: int

    @property
    def flops(self) -> int:
        batch, in_channels, *spatial = self.input_shape
        out_channels_per_group = self.weight_shape[1]
        kernel_volume = math.prod(self.weight_shape[2:])
        return 2 * batch * math.prod(spatial) * in_channels * out_channels_per_group * kernel_volume

    def bytes(self, element_size: int) -> int:
        elements = math.prod(self.input_shape) + math.prod(self.output_shape) + math.prod(self.weight_shape)
        return elements * element_size


@dataclass
class Work:
    flops_fwd: int
    bytes_fwd: int
    calls: List[ConvTransposeCall]

    @property
    def flops_fwdbwd(self) -> int:
        return FWDBWD_PASSES * self.flops_fwd

    @property
    def bytes_fwdbwd(self) -> int:
        return FWDBWD_PASSES * self.bytes_fwd


def record_conv_transpose_calls(model: nn.Module, inputs: Sequence[Any]) -> List[ConvTransposeCall]:
    """Run one forward (no grad) with hooks on every nn.ConvTranspose1d/2d/3d and record their shapes."""
    calls: List[ConvTransposeCall] = []
    handles = []

    def make_hook(name: str):
        def hook(module: _ConvTransposeNd, args, output) -> None:
            calls.append(
                ConvTransposeCall(
                    module=name,
                    input_shape=list(args[0].shape),
                    output_shape=list(output.shape),
                    weight_shape=list(module.weight.shape),
                    groups=module.groups,
                )
            )

        return hook

    for name, module in model.named_modules():
        if isinstance(module, _ConvTransposeNd):
            handles.append(module.register_forward_hook(make_hook(name or type(module).__name__)))
    try:
        with torch.no_grad():
            model(*inputs)
    finally:
        for handle in handles:
            handle.remove()
    return calls


def measure_work(model: nn.Module, inputs: Sequence[Any], element_size: int) -> Work:
    calls = record_conv_transpose_calls(model, inputs)
    return Work(
        flops_fwd=sum(call.flops for call in calls),
        bytes_fwd=sum(call.bytes(element_size) for call in calls),
        calls=calls,
    )


def peaks_for_gpu(gpu_name: str) -> Optional[Dict[str, float]]:
    """Peak table entry for a CUDA device name (e.g. 'NVIDIA H200', 'NVIDIA H100 80GB HBM3'), or None."""
    upper = gpu_name.upper()
    if "H200" in upper:
        return dict(GPU_PEAKS["H200"])
    # PCIe/NVL H100s have other clocks and memory; only the SXM (HBM3) part is in the table.
    if "H100" in upper and "PCIE" not in upper and "NVL" not in upper:
        return dict(GPU_PEAKS["H100 SXM"])
    return None


def floor_ms(flops: float, nbytes: float, peak_flops: Optional[float], peak_bandwidth: Optional[float]) -> Optional[float]:
    """max(compute time, memory time) at peak, in milliseconds; None without both peaks."""
    if not peak_flops or not peak_bandwidth:
        return None
    return max(flops / peak_flops, nbytes / peak_bandwidth) * 1e3
