"""The forward's W fold, in plain Python and torch ops: the math the CUDA path encodes, checked on CPU.

At W stride s > 1 the forward writes output W position o = s*u + v - p (0 <= v < s) from the input positions
u - t of the W taps k with k*d = s*t + v. So the forward is a W-stride-1 transposed convolution with s output
columns per channel (c' = s*c + v, c' within the group's s*C_out/g columns) and T = (K-1)*d // s + 1 W taps,
whose result, read as [.., C_out, s, .., U] and interleaved along W, is the output shifted by p. The CUDA
kernels (conv_transpose_igemm.cu: fold_w, the weight packing and store_folded_tile) run that GEMM and do the
interleave in the store, so each store is a whole run of W instead of every s-th element; this module is the
same description in torch ops, so tests/test_w_fold_cpu.py can check the formulas against PyTorch's forward
in float64 on every parameter corner. Nothing here runs on the GPU path.
"""
from dataclasses import dataclass
from typing import Optional, Sequence

import torch
import torch.nn.functional as F

# Mirror of kFoldMaxWorkRatio (igemm_config.h, with the measurements; tests/test_w_fold_cpu.py checks they
# agree): "auto" folds the forward only where the folded GEMM does at most 3 % more work than the phases
# (empty tap slots times the extra rows of each output line).
AUTO_MAX_WORK_RATIO = 1.03
# Mirror of kFoldMaxFlopsPerOutputByte: for fp32 data "auto" also folds where the folded GEMM is this light per byte
# of output (TF32 FLOPs; 3xTF32 counts three), whatever its extra work (the strided stores bound those shapes).
AUTO_MAX_FLOPS_PER_OUTPUT_BYTE = 120.0


@dataclass(frozen=True)
class FoldPlan:
    stride: int   # s: the original W stride, the columns per output channel
    taps: int     # T: the folded W kernel
    rows: int     # U: GEMM rows per output W line (u with some s*u + v - p inside [0, out_w))
    padding: int  # p: the W shift of the interleaved result

    def mma_ratio(self, kernel_w: int) -> float:
        """MMAs of the folded GEMM relative to the phases' (the s x T grid against the K real taps)."""
        return self.stride * self.taps / kernel_w

    def work_ratio(self, kernel_w: int, out_w: int) -> float:
        """The folded GEMM's work against the phases': mma_ratio times the rows of a line (s * U outputs' worth
        for out_w real ones). "auto" folds at or below AUTO_MAX_WORK_RATIO."""
        return self.mma_ratio(kernel_w) * self.rows * self.stride / out_w


def plan(kernel_w: int, stride_w: int, padding_w: int, dilation_w: int, out_w: int) -> Optional[FoldPlan]:
    """The fold of a forward's W dim (None at stride 1, where there is nothing to fold)."""
    if stride_w == 1:
        return None
    taps = (kernel_w - 1) * dilation_w // stride_w + 1
    rows = (out_w + padding_w + stride_w - 1) // stride_w
    return FoldPlan(stride_w, taps, rows, padding_w)


def tf32_flops_per_output_byte(fold: FoldPlan, cin_per_group: int, kernel: Sequence[int], stride: Sequence[int],
                               out_w: int, split_tf32: bool = False) -> float:
    """Mirror of fold_tf32_flops_per_output_byte: the folded GEMM's TF32 FLOPs per byte of fp32 output (C_in per
    group x the taps an output has on average x the work ratio; 3xTF32 counts three)."""
    taps, strides = 1, 1
    for k, s in zip(kernel, stride):
        taps, strides = taps * int(k), strides * int(s)
    return 2.0 * cin_per_group * taps / strides * fold.work_ratio(int(kernel[-1]), out_w) * (3 if split_tf32 else 1) / 4


def auto_folds(cin_per_group: int, kernel: Sequence[int], stride: Sequence[int], padding_w: int, dilation_w: int,
               out_w: int, split_tf32: bool = False) -> bool:
    """Mirror of use_fold's "auto" rule for fp32 data and a W-contiguous output (the only layout "auto" folds).
    fp16/bf16 data folds only at the work-ratio bound with whole channels per column tile (checked in C++)."""
    fold = plan(int(kernel[-1]), int(stride[-1]), padding_w, dilation_w, out_w)
    if fold is None:
        return False
    return (fold.work_ratio(int(kernel[-1]), out_w) <= AUTO_MAX_WORK_RATIO or
            tf32_flops_per_output_byte(fold, cin_per_group, kernel, stride, out_w, split_tf32) <=
            AUTO_MAX_FLOPS_PER_OUTPUT_BYTE)


def fold_weight(weight: torch.Tensor, fold: FoldPlan, dilation_w: int) -> torch.Tensor:
    """[C_in, C_out/g, .., K] -> [C_in, C_out/g * s, .., T]: column s*c + v, tap t holds tap k where
    k*d = s*t + v, zero where no k does (the packing kernel's mapping)."""
    cin, cout_g = weight.shape[:2]
    inner = list(weight.shape[2:-1])
    folded = weight.new_zeros([cin, cout_g, *inner, fold.taps, fold.stride])  # [.., t, v]
    for k in range(weight.shape[-1]):
        t, v = divmod(k * dilation_w, fold.stride)
        folded[..., t, v] = weight[..., k]
    # [ci, c, .., t, v] -> [ci, c, v, .., t] -> [ci, c*s + v, .., t]
    folded = folded.movedim(-1, 2)
    return folded.reshape(cin, cout_g * fold.stride, *inner, fold.taps)


def forward(x: torch.Tensor, weight: torch.Tensor, bias: Optional[torch.Tensor], stride: Sequence[int],
            padding: Sequence[int], output_padding: Sequence[int], dilation: Sequence[int], groups: int,
            out_w: int) -> torch.Tensor:
    """The forward through the fold (PyTorch's own convolution runs the stride-1 part): what the CUDA path
    computes, for the CPU tests. out_w: the real output's W size."""
    fold = plan(int(weight.shape[-1]), int(stride[-1]), int(padding[-1]), int(dilation[-1]), out_w)
    assert fold is not None
    conv = {3: F.conv_transpose1d, 4: F.conv_transpose2d, 5: F.conv_transpose3d}[x.dim()]
    folded = conv(x, fold_weight(weight, fold, int(dilation[-1])), None, [*stride[:-1], 1], [*padding[:-1], 0],
                  [*output_padding[:-1], 0], groups, [*dilation[:-1], 1])
    length = folded.shape[-1]  # input W + T - 1; rows past U only reach W >= out_w, missing ones are zeros
    folded = F.pad(folded, [0, fold.rows - length]) if length < fold.rows else folded[..., :fold.rows]
    n, channels = folded.shape[:2]
    inner = list(folded.shape[2:-1])
    shuffled = folded.reshape(n, channels // fold.stride, fold.stride, *inner, fold.rows).movedim(2, -1)
    out = shuffled.reshape(n, channels // fold.stride, *inner, fold.rows * fold.stride)
    out = out[..., fold.padding:fold.padding + out_w]
    if bias is not None:
        out = out + bias.reshape(1, -1, *([1] * (out.dim() - 2)))
    return out


def grad_weight_foldable(kernel: Sequence[int], stride_w: int, dilation_w: int) -> bool:
    """Mirror of grad_weight_fold_shape (conv_transpose_igemm.cu): s divides the W kernel at d = 1 (no empty
    slots), and the folded weight [C_in, C_out/g, s, kD, kH, T] is a 5-D strided view (T = 1 or kD = 1). The
    kernels also need s to divide a thread's rows between copies (4 * warps_m), checked there."""
    k = list(kernel)
    return stride_w > 1 and dilation_w == 1 and k[-1] % stride_w == 0 and (k[-1] == stride_w or len(k) < 3 or
                                                                         k[0] == 1)


def grad_weight(grad_output: torch.Tensor, x: torch.Tensor, weight_shape: Sequence[int], stride: Sequence[int],
                padding: Sequence[int], dilation: Sequence[int], groups: int) -> torch.Tensor:
    """grad_weight through the fold (PyTorch's own grad_weight on the folded problem), read back into the real
    weight's layout the way the CUDA path's sum_splits does: the folded result [C_in, C_out/g * s, .., T] is
    row-major [C_in, C_out/g, s, .., T] and element (v, t) is real tap s*t + v."""
    s, p = int(stride[-1]), int(padding[-1])
    out_w, in_w, kernel_w = int(grad_output.shape[-1]), int(x.shape[-1]), int(weight_shape[-1])
    fold = plan(kernel_w, s, p, 1, out_w)
    length = in_w + fold.taps - 1  # the folded output rows any (input, tap) pair reaches
    # dy'[.., c*s + v, .., u] = dy[.., c, .., s*u + v - p], zero outside the real W
    padded = F.pad(grad_output, [p, length * s - p - out_w]) if length * s - p >= out_w else \
        F.pad(grad_output, [p, 0])[..., :length * s]
    n, cout = padded.shape[:2]
    inner = list(padded.shape[2:-1])
    folded_dy = padded.reshape(n, cout, *inner, length, s).movedim(-1, 2).reshape(n, cout * s, *inner, length)
    folded_shape = [int(weight_shape[0]), int(weight_shape[1]) * s, *weight_shape[2:-1], fold.taps]
    # the other dims' output_padding, implicit in grad_output's sizes
    output_padding = [int(o) - ((int(i) - 1) * int(st) - 2 * int(pd) + int(d) * (int(k) - 1) + 1)
                      for o, i, k, st, pd, d in zip(grad_output.shape[2:-1], x.shape[2:-1], weight_shape[2:-1],
                                                    stride[:-1], padding[:-1], dilation[:-1])]
    out = torch.ops.aten.convolution_backward(
        folded_dy, x, x.new_empty(folded_shape), None, [*stride[:-1], 1], [*padding[:-1], 0],
        [*dilation[:-1], 1], True, [*output_padding, 0], groups, [False, True, False])[1]
    cin, cout_g = int(weight_shape[0]), int(weight_shape[1])
    grid = out.reshape(cin, cout_g, s, *inner_kernel(weight_shape), fold.taps)  # [ci, c, v, .., t]
    return grid.movedim(2, -1).reshape(cin, cout_g, *inner_kernel(weight_shape), kernel_w)  # k = s*t + v


def inner_kernel(weight_shape: Sequence[int]):
    return [int(k) for k in weight_shape[2:-1]]


__all__ = ["FoldPlan", "plan", "fold_weight", "forward", "grad_weight", "grad_weight_foldable",
           "AUTO_MAX_WORK_RATIO", "AUTO_MAX_FLOPS_PER_OUTPUT_BYTE", "auto_folds", "tf32_flops_per_output_byte"]
