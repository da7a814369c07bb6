"""ConvTranspose -> activation -> GroupNorm as one module (the building block of U-Net/VAE/GAN
decoders and of KernelBench L2-61).

`ConvTransposeActGroupNorm2d/3d` is a tconv.ConvTranspose2d/3d (it owns the conv's weight and bias
under the conv's own names) that also applies an activation and a GroupNorm whose parameters stay
in the original nn.GroupNorm module: `tconv.optimize` leaves that module where it was (its forward
turned into a pass-through), so the model's state_dict keys do not change and state_dicts load both
ways.

The epilogue (activation, then GroupNorm) runs as tconv's own CUDA kernels after the conv's store
(tconv/csrc/group_norm_act.cu) for CUDA tensors in fp32, fp16 or bf16 that are dense in contiguous
or channels_last order: one pass computes Welford statistics of act(y) per (sample, channel, piece),
merged per group in a fixed order (deterministic), one pass writes the normalised output; the
backward recomputes act(y) from the saved conv output (nothing else of full size is saved), reduces
per channel, and writes the input gradient in one elementwise pass. Everything else (CPU, fp64,
other layouts, empty spatial size, parameters of another dtype) runs PyTorch's activation and
F.group_norm. The module runs the whole block as one op, `tconv::conv_transpose_act_group_norm` (autograd: the
epilogue's backward, then the conv's). Where the conv runs as the unit-stride forward's 128-channel wide-rows tiles
(stride 1, a W kernel of 3, 5 or 7, more than 64 output channels: L2-61; groups of whole 8-channel runs; any
activation; csrc/conv_transpose.h, ForwardGroupStats), the conv's store can also make the statistics (the producer
warpgroup reads the staged tile beside the store: Welford partials per tile, sample and group), so that the conv
output is read once (normalisation) instead of twice; CONV_STORE_STATISTICS says where it does (fp32 data, TF32, since
session 111; with its measurements).

On torch >= 2.4 the epilogue is the op pair `tconv::act_group_norm` / `tconv::act_group_norm_backward`
(schemas here, fake kernels, autograd attached, a CPU implementation that follows the kernels' math
step by step), so torch.compile traces it without a graph break; older torch uses an
autograd.Function over the same kernels.
"""
import contextlib
import os
from typing import Callable, Dict, Optional, Tuple

import torch
import torch.nn.functional as F
from torch import nn

from . import _args, _build, _exact_split, _ops
from . import _group_norm_reference as _reference
from .modules import ConvTranspose2d, ConvTranspose3d, _ConvTransposeMixin


def _activation_spec(module: nn.Module) -> Optional[Tuple[str, Dict[str, float]]]:
    """(kind, arguments) of a supported activation module, or None."""
    if type(module) is nn.ReLU:
        return "relu", {}
    if type(module) is nn.LeakyReLU:
        return "leaky_relu", {"negative_slope": module.negative_slope}
    if type(module) is nn.GELU:
        return "gelu", {"approximate": getattr(module, "approximate", "none")}
    if type(module) is nn.SiLU:
        return "silu", {}
    if type(module) is nn.Hardswish:
        return "hardswish", {}
    if type(module) is nn.Tanh:
        return "tanh", {}
    if type(module) is nn.Sigmoid:
        return "sigmoid", {}
    if type(module) in (nn.Hardtanh, nn.ReLU6):
        return "hardtanh", {"min_val": module.min_val, "max_val": module.max_val}
    if type(module) is nn.Identity:
        return "identity", {}
    return None


_ACTIVATIONS: Dict[str, Callable] = {
    "relu": lambda x: F.relu(x),
    "leaky_relu": lambda x, negative_slope: F.leaky_relu(x, negative_slope),
    "gelu": lambda x, approximate: F.gelu(x, approximate=approximate) if approximate != "none" else F.gelu(x),
    "silu": lambda x: F.silu(x),
    "hardswish": lambda x: F.hardswish(x),
    "tanh": torch.tanh,
    "sigmoid": torch.sigmoid,
    "hardtanh": lambda x, min_val, max_val: F.hardtanh(x, min_val, max_val),
    "identity": lambda x: x,
}


# Activation numbering of tconv/csrc/group_norm_act.h (enum class Activation); gelu splits by approximate.
_ACTIVATION_CODES = {"identity": 0, "relu": 1, "leaky_relu": 2, "gelu": 3, "gelu_tanh": 4, "silu": 5, "hardswish": 6,
                     "tanh": 7, "sigmoid": 8, "hardtanh": 9}
_KERNEL_DTYPES = (torch.float32, torch.float16, torch.bfloat16)


def _activation_kernel_args(kind: str, args: Dict) -> Tuple[int, float, float]:
    """(code, arg0, arg1) of an activation for the CUDA kernels."""
    if kind == "gelu" and args.get("approximate", "none") == "tanh":
        return _ACTIVATION_CODES["gelu_tanh"], 0.0, 0.0
    if kind == "leaky_relu":
        return _ACTIVATION_CODES[kind], float(args["negative_slope"]), 0.0
    if kind == "hardtanh":
        return _ACTIVATION_CODES[kind], float(args["min_val"]), float(args["max_val"])
    return _ACTIVATION_CODES[kind], 0.0, 0.0


def _kernel_layout(y: torch.Tensor) -> Optional[bool]:
    """False for dense contiguous, True for dense channels_last(_3d), None for anything else."""
    if y.is_contiguous():
        return False
    if y.dim() in (4, 5):
        fmt = torch.channels_last if y.dim() == 4 else torch.channels_last_3d
        if y.is_contiguous(memory_format=fmt):
            return True
    return None


def _kernels_apply(y: torch.Tensor, weight: Optional[torch.Tensor], bias: Optional[torch.Tensor]) -> bool:
    """Whether tconv's CUDA epilogue handles this call (else torch's activation + group_norm run)."""
    if not y.is_cuda or y.dtype not in _KERNEL_DTYPES or y.dim() < 3 or _kernel_layout(y) is None:
        return False
    if y.shape[1] == 0 or any(size == 0 for size in y.shape[2:]):  # torch's own semantics (NaN grads)
        return False
    return all(p is None or (p.device == y.device and p.dtype == y.dtype and p.dim() == 1) for p in (weight, bias))


def _torch_act_group_norm(y, num_groups, weight, bias, eps, kind, args):
    y = _ACTIVATIONS[kind](y, **args)
    return F.group_norm(y, num_groups, weight, bias, eps)


class _ActGroupNormFunction(torch.autograd.Function):
    """torch < 2.4: the same kernel calls as the torch.library ops below, driven by autograd.Function;
    saves only y, mean and rstd (and gamma)."""

    @staticmethod
    def forward(ctx, y, weight, bias, num_groups, eps, kind, args):
        name, arg0, arg1 = _activation_name(kind, args)
        z, mean, rstd = _act_group_norm_cuda(y, weight, bias, num_groups, eps, name, arg0, arg1)
        ctx.save_for_backward(y, weight, mean, rstd)
        ctx.kernel_args = (num_groups, name, arg0, arg1)
        ctx.has_bias = bias is not None
        return z

    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx, grad_z):
        y, weight, mean, rstd = ctx.saved_tensors
        needs = ctx.needs_input_grad
        mask = [bool(needs[0]), bool(needs[1] and weight is not None), bool(needs[2] and ctx.has_bias)]
        grad_y, grad_gamma, grad_beta = _act_group_norm_backward_cuda(grad_z, y, mean, rstd, weight,
                                                                      *ctx.kernel_args, mask)
        return (grad_y if mask[0] else None, grad_gamma if mask[1] else None, grad_beta if mask[2] else None,
                None, None, None, None)


def _memory_format(y: torch.Tensor, channels_last: bool) -> torch.memory_format:
    if not channels_last:
        return torch.contiguous_format
    return torch.channels_last if y.dim() == 4 else torch.channels_last_3d


# ---- torch.library ops (torch >= 2.4) ----------------------------------------------------------
def _activation_name(kind: str, args: Dict) -> Tuple[str, float, float]:
    """(kernel activation name, arg0, arg1): the op's string form of an activation."""
    code, arg0, arg1 = _activation_kernel_args(kind, args)
    return next(name for name, c in _ACTIVATION_CODES.items() if c == code), arg0, arg1


def _activation_from_name(name: str, arg0: float, arg1: float) -> Tuple[str, Dict]:
    """The inverse of _activation_name: (kind, args) for the pure-torch reference."""
    if name in ("gelu", "gelu_tanh"):
        return "gelu", {"approximate": "tanh" if name == "gelu_tanh" else "none"}
    if name == "leaky_relu":
        return name, {"negative_slope": arg0}
    if name == "hardtanh":
        return name, {"min_val": arg0, "max_val": arg1}
    return name, {}


def _op_layout(y: torch.Tensor) -> Tuple[torch.Tensor, bool]:
    """y made dense (channels_last kept when it already is) and whether it is channels_last."""
    channels_last = _kernel_layout(y)
    if channels_last is None:
        return y.contiguous(), False
    return y, channels_last


def _act_group_norm_cuda(y, weight, bias, num_groups, eps, activation, arg0, arg1, partials=None):
    """partials: act(y)'s statistics as the conv's store made them (forward_group_stats_out), else None."""
    y, channels_last = _op_layout(y)
    z = torch.empty(y.shape, dtype=y.dtype, device=y.device, memory_format=_memory_format(y, channels_last))
    mean = torch.empty(y.shape[0] * num_groups, dtype=torch.float32, device=y.device)
    rstd = torch.empty_like(mean)
    _build.load().group_norm_act_forward_out(
        y, weight.contiguous() if weight is not None else None, bias.contiguous() if bias is not None else None,
        num_groups, eps, _ACTIVATION_CODES[activation], arg0, arg1, channels_last, z, mean, rstd, partials)
    return z, mean, rstd


def _act_group_norm_cpu(y, weight, bias, num_groups, eps, activation, arg0, arg1):
    y, channels_last = _op_layout(y)
    kind, args = _activation_from_name(activation, arg0, arg1)
    with torch.profiler.record_function(_ops.CPU_FALLBACK_RANGE):
        z, mean, rstd = _reference.group_norm_act_forward(y, num_groups, weight, bias, eps, kind, args)
    return (z.contiguous(memory_format=_memory_format(y, channels_last)), mean.reshape(-1).float(),
            rstd.reshape(-1).float())


def _act_group_norm_fake(y, weight, bias, num_groups, eps, activation, arg0, arg1):
    channels_last = bool(_kernel_layout(y))
    z = torch.empty(y.shape, dtype=y.dtype, device=y.device, memory_format=_memory_format(y, channels_last))
    mean = y.new_empty([y.shape[0] * num_groups], dtype=torch.float32)
    return z, mean, torch.empty_like(mean)


def _backward_outputs(y, channels_last, output_mask):
    """grad_y (y's layout), grad_gamma [C], grad_beta [C]; an unrequested one is an empty tensor."""
    grad_y = (torch.empty(y.shape, dtype=y.dtype, device=y.device, memory_format=_memory_format(y, channels_last))
              if output_mask[0] else y.new_empty([0]))
    grad_gamma = y.new_empty([y.shape[1]]) if output_mask[1] else y.new_empty([0])
    grad_beta = y.new_empty([y.shape[1]]) if output_mask[2] else y.new_empty([0])
    return grad_y, grad_gamma, grad_beta


def _act_group_norm_backward_cuda(grad_z, y, mean, rstd, weight, num_groups, activation, arg0, arg1, output_mask):
    y, channels_last = _op_layout(y)
    grad_z = grad_z.contiguous(memory_format=_memory_format(y, channels_last))
    outputs = _backward_outputs(y, channels_last, output_mask)
    if any(output_mask):
        _build.load().group_norm_act_backward_out(
            grad_z, y, mean, rstd, weight.contiguous() if weight is not None else None, num_groups,
            _ACTIVATION_CODES[activation], arg0, arg1, channels_last,
            *[out if wanted else None for out, wanted in zip(outputs, output_mask)])
    return outputs


def _act_group_norm_backward_cpu(grad_z, y, mean, rstd, weight, num_groups, activation, arg0, arg1, output_mask):
    y, channels_last = _op_layout(y)
    kind, args = _activation_from_name(activation, arg0, arg1)
    groups_shape = (y.shape[0], num_groups)
    with torch.profiler.record_function(_ops.CPU_FALLBACK_RANGE):
        grad_y, grad_gamma, grad_beta = _reference.group_norm_act_backward(
            grad_z, y, mean.reshape(groups_shape).to(y.dtype), rstd.reshape(groups_shape).to(y.dtype), num_groups,
            weight, kind, args)
    outputs = _backward_outputs(y, channels_last, output_mask)
    for out, value, wanted in zip(outputs, (grad_y, grad_gamma, grad_beta), output_mask):
        if wanted:
            out.copy_(value)
    return outputs


def _act_group_norm_backward_fake(grad_z, y, mean, rstd, weight, num_groups, activation, arg0, arg1, output_mask):
    return _backward_outputs(y, bool(_kernel_layout(y)), output_mask)


# ---- the whole block as one op: conv -> activation -> GroupNorm ---------------------------------------------
# Whether the conv's store makes the GroupNorm statistics where it can (csrc/conv_transpose.h: ForwardGroupStats):
# True always, False never, None by rule (the data types in _STORE_STATISTICS_DTYPES). The first form (the x-as-A
# tiles, two passes over the staged tile in shared memory) cost the forward kernel as much as the statistics pass it
# replaced (runs 247-256, L2-61: TF32 1.449 against 1.299 ms, bf16 1.008 against 0.865). The second (session 108:
# from the wide-rows accumulators in the MMA warpgroups) did too: run 550 (H100, L2-61) conv kernel 0.887 -> 1.015
# ms against the 0.126 ms pass. The third (session 109, staged_group_stats) gives them to the warp-specialized
# kernel's idle producer warpgroup, beside the MMA warpgroups' store; as first written it lost the most (run 551,
# H100: conv kernel 0.883 -> 1.114 ms, forward TF32 1.268 -> 1.377, bf16 0.765 -> 0.925). With its passes as FFMAs on
# 0/1 row weights with per-row partial sums (session 110, after run 552's source counters) it wins in TF32: run 554
# (H100, L2-61, one build) conv kernel 0.888 -> 0.973 ms against the 0.126 ms pass, forward 1.267 -> 1.237 ms,
# fwd+bwd 4.281 -> 4.213. The tests set it to keep both paths correct; TCONV_CONV_STORE_STATISTICS=1 or 0 in the
# environment (development only, read at import) sets it for A/B timings.
_STORE_STATISTICS_DTYPES = (torch.float32,)
CONV_STORE_STATISTICS = {"1": True, "0": False}.get(os.environ.get("TCONV_CONV_STORE_STATISTICS", ""))


def _store_statistics_wanted(dtype: torch.dtype) -> bool:
    """Whether the block asks the conv's store for the statistics (CONV_STORE_STATISTICS, else the rule); the conv
    itself then decides whether it can make them."""
    return dtype in _STORE_STATISTICS_DTYPES if CONV_STORE_STATISTICS is None else CONV_STORE_STATISTICS


# Returns (z, y, mean, rstd); y, mean and rstd are what the backward needs (non-differentiable outputs).
def _conv_act_group_norm_cuda(input, weight, bias, gamma, beta, stride, padding, output_padding, dilation, groups,
                              num_groups, eps, activation, arg0, arg1):
    _ops._check_cuda_dtype(input, "conv_transpose")
    partials = None
    conv_input, conv_weight, split = input, weight, False
    # Where the conv's store can make the statistics (forward_group_stats_out decides); not under tconv's autotune,
    # which may time another forward.
    algorithm = _ops.algorithm
    if _store_statistics_wanted(input.dtype) and input.dtype in _KERNEL_DTYPES and (
            algorithm == "igemm_strip" or (algorithm == "auto" and not _ops._autotune.autotune_enabled())):
        shape = _args.output_shape(input.shape, weight.shape, stride, padding, output_padding, dilation, groups)
        y = torch.empty(shape, dtype=input.dtype, device=input.device, memory_format=_args.memory_format_of(input))
        split = _exact_split.taken(input, _ops.conv_tf32_allowed())
        if split:  # exact fp32 as the split TF32 GEMM, as conv_transpose_cuda would run it
            conv_input = _exact_split.channels(input, groups, _exact_split.SMALL_SECOND)
            conv_weight = _exact_split.weight(weight, groups, 0, _exact_split.SMALL_THIRD)
        with _exact_split.tf32_inside() if split else contextlib.nullcontext():
            made = _build.load().forward_group_stats_out(
                _ops._as_5d(conv_input), _ops._as_5d(conv_weight), bias, _ops._as_5d(y), _ops._pad3(stride, 1),
                _ops._pad3(padding, 0), _ops._pad3(dilation, 1), groups, _ops.conv_tf32_allowed(), algorithm,
                num_groups, _ACTIVATION_CODES[activation], arg0, arg1)
        partials = made if made.numel() > 0 else None
    if partials is None:  # the operands split above (if any) are reused rather than split again
        # A refused store leaves its y unwritten: released first, so the conv's own output takes its block from the
        # caching allocator instead of standing beside it (two output-sized tensors at once).
        y = None
        with _exact_split.tf32_inside() if split else contextlib.nullcontext():
            y = _ops.conv_transpose_cuda(conv_input, conv_weight, bias, stride, padding, output_padding, dilation,
                                         groups)
    z, mean, rstd = _act_group_norm_cuda(y, gamma, beta, num_groups, eps, activation, arg0, arg1, partials)
    return z, y, mean, rstd


def _conv_act_group_norm_cpu(input, weight, bias, gamma, beta, stride, padding, output_padding, dilation, groups,
                             num_groups, eps, activation, arg0, arg1):
    y = _ops.conv_transpose_cpu(input, weight, bias, stride, padding, output_padding, dilation, groups)
    y = y.contiguous(memory_format=_args.memory_format_of(input))
    z, mean, rstd = _act_group_norm_cpu(y, gamma, beta, num_groups, eps, activation, arg0, arg1)
    return z, y, mean, rstd


def _conv_act_group_norm_fake(input, weight, bias, gamma, beta, stride, padding, output_padding, dilation, groups,
                              num_groups, eps, activation, arg0, arg1):
    shape = _args.output_shape(input.shape, weight.shape, stride, padding, output_padding, dilation, groups)
    y = torch.empty(shape, dtype=input.dtype, device=input.device, memory_format=_args.memory_format_of(input))
    mean = input.new_empty([input.shape[0] * num_groups], dtype=torch.float32)
    return torch.empty_like(y), y, mean, torch.empty_like(mean)


def _conv_act_group_norm_backward(grad_z, input, weight, y, mean, rstd, gamma, has_bias, needs, conv_args,
                                  kernel_args, backward_op):
    """Gradients (input, weight, bias, gamma, beta) of the block: the epilogue's backward gives grad_y (and gamma's
    and beta's), then the conv's backward takes grad_y, in a plain eager call (_ops._plain_eager_call) through the
    implementations, so that its grad_weight may run beside grad_input as the conv's own backward does
    (_ops._backward_maybe_concurrent)."""
    mask = [bool(needs[0] or needs[1] or (needs[2] and has_bias)), bool(needs[3] and gamma is not None),
            bool(needs[4])]
    grad_y, grad_gamma, grad_beta = backward_op(grad_z, y, mean, rstd, gamma, *kernel_args, mask)
    grad_input = grad_weight = grad_bias = None
    if mask[0]:
        grad_input, grad_weight, grad_bias = _ops._backward(grad_y, input, weight, has_bias, needs[:3], *conv_args,
                                                            direct=_ops._plain_eager_call(grad_y, input, weight))
    return (grad_input, grad_weight, grad_bias, grad_gamma if mask[1] else None, grad_beta if mask[2] else None)


class _ConvActGroupNormFunction(torch.autograd.Function):
    """torch < 2.4: tconv::conv_transpose_act_group_norm's implementations under autograd.Function."""

    @staticmethod
    def forward(ctx, input, weight, bias, gamma, beta, stride, padding, output_padding, dilation, groups, num_groups,
                eps, activation, arg0, arg1):
        impl = _ops._by_device(_conv_act_group_norm_cuda, _conv_act_group_norm_cpu, input)
        z, y, mean, rstd = impl(input, weight, bias, gamma, beta, stride, padding, output_padding, dilation, groups,
                                num_groups, eps, activation, arg0, arg1)
        ctx.save_for_backward(input, weight, y, mean, rstd, gamma)
        ctx.has_bias, ctx.has_beta = bias is not None, beta is not None
        ctx.conv_args = (stride, padding, dilation, groups)
        ctx.kernel_args = (num_groups, activation, arg0, arg1)
        return z

    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx, grad_z):
        input, weight, y, mean, rstd, gamma = ctx.saved_tensors
        needs = list(ctx.needs_input_grad[:5])
        needs[4] = needs[4] and ctx.has_beta
        backward_op = _ops._by_device(_act_group_norm_backward_cuda, _act_group_norm_backward_cpu, grad_z)
        grads = _conv_act_group_norm_backward(grad_z, input, weight, y, mean, rstd, gamma, ctx.has_bias, needs,
                                              ctx.conv_args, ctx.kernel_args, backward_op)
        return grads + (None,) * 10


if _ops.USE_TORCH_LIBRARY:
    _ops._lib.define("act_group_norm(Tensor y, Tensor? weight, Tensor? bias, int num_groups, float eps, "
                     "str activation, float arg0, float arg1) -> (Tensor, Tensor, Tensor)")
    _ops._lib.define("act_group_norm_backward(Tensor grad_z, Tensor y, Tensor mean, Tensor rstd, Tensor? weight, "
                     "int num_groups, str activation, float arg0, float arg1, bool[3] output_mask) "
                     "-> (Tensor, Tensor, Tensor)")
    _ops._lib.impl("act_group_norm", _act_group_norm_cuda, "CUDA")
    _ops._lib.impl("act_group_norm", _act_group_norm_cpu, "CPU")
    _ops._lib.impl("act_group_norm_backward", _act_group_norm_backward_cuda, "CUDA")
    _ops._lib.impl("act_group_norm_backward", _act_group_norm_backward_cpu, "CPU")
    torch.library.register_fake("tconv::act_group_norm")(_act_group_norm_fake)
    torch.library.register_fake("tconv::act_group_norm_backward")(_act_group_norm_backward_fake)

    def _act_group_norm_setup_context(ctx, inputs, output):
        y, weight, bias, num_groups, eps, activation, arg0, arg1 = inputs
        _, mean, rstd = output
        ctx.save_for_backward(y, weight, mean, rstd)
        ctx.kernel_args = (num_groups, activation, arg0, arg1)
        ctx.has_weight, ctx.has_bias = weight is not None, bias is not None
        ctx.mark_non_differentiable(mean, rstd)
        ctx.set_materialize_grads(False)  # (_conv_act_group_norm_setup_context: why)

    def _act_group_norm_autograd(ctx, grad_z, grad_mean, grad_rstd):
        if grad_z is None:
            return (None,) * 8
        y, weight, mean, rstd = ctx.saved_tensors
        needs = ctx.needs_input_grad
        mask = [bool(needs[0]), bool(needs[1] and ctx.has_weight), bool(needs[2] and ctx.has_bias)]
        grad_y, grad_gamma, grad_beta = torch.ops.tconv.act_group_norm_backward(
            grad_z, y, mean, rstd, weight, *ctx.kernel_args, mask)
        return (grad_y if mask[0] else None, grad_gamma if mask[1] else None, grad_beta if mask[2] else None,
                None, None, None, None, None)

    torch.library.register_autograd("tconv::act_group_norm", _act_group_norm_autograd,
                                    setup_context=_act_group_norm_setup_context)

    _ops._lib.define("conv_transpose_act_group_norm(Tensor input, Tensor weight, Tensor? bias, Tensor? gamma, "
                     "Tensor? beta, SymInt[] stride, SymInt[] padding, SymInt[] output_padding, SymInt[] dilation, "
                     "SymInt groups, int num_groups, float eps, str activation, float arg0, float arg1) "
                     "-> (Tensor, Tensor, Tensor, Tensor)")
    _ops._lib.impl("conv_transpose_act_group_norm", _conv_act_group_norm_cuda, "CUDA")
    _ops._lib.impl("conv_transpose_act_group_norm", _conv_act_group_norm_cpu, "CPU")
    torch.library.register_fake("tconv::conv_transpose_act_group_norm")(_conv_act_group_norm_fake)

    def _conv_act_group_norm_setup_context(ctx, inputs, output):
        (input, weight, bias, gamma, beta, stride, padding, output_padding, dilation, groups, num_groups, eps,
         activation, arg0, arg1) = inputs
        _, y, mean, rstd = output
        ctx.save_for_backward(input, weight, y, mean, rstd, gamma)
        ctx.has_bias, ctx.has_beta = bias is not None, beta is not None
        ctx.conv_args = (stride, padding, dilation, groups)
        ctx.kernel_args = (num_groups, activation, arg0, arg1)
        ctx.mark_non_differentiable(y, mean, rstd)
        # The non-differentiable outputs' gradients would otherwise come as zeros made for every backward: y's is the
        # conv output's size (L2-61 bf16: a 160 MB fill, 0.048 ms of its 2.9 ms fwd+bwd kernels in run 502-503's
        # breakdowns).
        ctx.set_materialize_grads(False)

    def _conv_act_group_norm_autograd(ctx, grad_z, grad_y, grad_mean, grad_rstd):
        if grad_z is None:
            return (None,) * 15
        input, weight, y, mean, rstd, gamma = ctx.saved_tensors
        needs = list(ctx.needs_input_grad[:5])
        needs[4] = needs[4] and ctx.has_beta
        grads = _conv_act_group_norm_backward(grad_z, input, weight, y, mean, rstd, gamma, ctx.has_bias, needs,
                                              ctx.conv_args, ctx.kernel_args,
                                              torch.ops.tconv.act_group_norm_backward)
        return grads + (None,) * 10

    torch.library.register_autograd("tconv::conv_transpose_act_group_norm", _conv_act_group_norm_autograd,
                                    setup_context=_conv_act_group_norm_setup_context)


def act_group_norm(y: torch.Tensor, num_groups: int, weight: Optional[torch.Tensor], bias: Optional[torch.Tensor],
                   eps: float, kind: str, args: Optional[Dict] = None) -> torch.Tensor:
    """group_norm(act(y), num_groups, weight, bias, eps) for an activation kind of `_activation_spec`:
    tconv's CUDA kernels where they apply (see the module docstring), PyTorch's ops otherwise."""
    args = dict(args or {})
    if _kernels_apply(y, weight, bias):
        if _ops.USE_TORCH_LIBRARY:
            name, arg0, arg1 = _activation_name(kind, args)
            return torch.ops.tconv.act_group_norm(y, weight, bias, num_groups, float(eps), name, arg0, arg1)[0]
        return _ActGroupNormFunction.apply(y, weight, bias, num_groups, eps, kind, args)
    return _torch_act_group_norm(y, num_groups, weight, bias, eps, kind, args)


def conv_transpose_act_group_norm(input: torch.Tensor, weight: torch.Tensor, bias: Optional[torch.Tensor],
                                  stride, padding, output_padding, dilation, groups: int, num_groups: int,
                                  gamma: Optional[torch.Tensor], beta: Optional[torch.Tensor], eps: float, kind: str,
                                  args: Optional[Dict] = None) -> torch.Tensor:
    """group_norm(act(conv_transpose(input, weight, bias, ...))) for a batched input whose conv output the CUDA
    epilogue takes (`_kernels_apply`): one op, whose conv store makes the statistics where it can. Arguments are
    validated by the caller (the fused modules)."""
    name, arg0, arg1 = _activation_name(kind, dict(args or {}))
    call = (input, weight, bias, gamma, beta, list(stride), list(padding), list(output_padding), list(dilation),
            groups, num_groups, float(eps), name, arg0, arg1)
    if _ops.USE_TORCH_LIBRARY:
        return torch.ops.tconv.conv_transpose_act_group_norm(*call)[0]
    return _ConvActGroupNormFunction.apply(*call)


def conv_act_group_norm_forward(conv: nn.Module, input: torch.Tensor, output_size, norm: nn.GroupNorm, kind: str,
                                args: Optional[Dict] = None) -> torch.Tensor:
    """norm(act(conv(input, output_size))) for a tconv ConvTranspose2d/3d `conv` (or a fused module): the block as
    one op (`conv_transpose_act_group_norm`) for batched CUDA inputs of the kernels' dtypes whose parameters match,
    else tconv's conv forward, then `act_group_norm`."""
    dims = conv._dims
    if (output_size is None and conv.padding_mode == "zeros" and isinstance(input, torch.Tensor)
            and input.dim() == dims + 2 and input.is_cuda and input.dtype in _KERNEL_DTYPES):
        stride, padding, output_padding, dilation = _args.check_conv_transpose_args(
            input, conv.weight, conv.bias, conv.stride, conv.padding, conv.output_padding, conv.dilation,
            conv.groups, dims, f"conv_transpose{dims}d")
        shape = _args.output_shape(input.shape, conv.weight.shape, stride, padding, output_padding, dilation,
                                   conv.groups)
        if (all(size > 0 for size in shape[1:])
                and all(p is None or (p.device == input.device and p.dtype == input.dtype and p.dim() == 1)
                        for p in (norm.weight, norm.bias))):
            return conv_transpose_act_group_norm(input, conv.weight, conv.bias, stride, padding, output_padding,
                                                 dilation, conv.groups, norm.num_groups, norm.weight, norm.bias,
                                                 norm.eps, kind, args)
    y = _ConvTransposeMixin.forward(conv, input, output_size)
    return act_group_norm(y, norm.num_groups, norm.weight, norm.bias, norm.eps, kind, args)


def fusion_refusal(conv: nn.Module, activation: nn.Module, norm: nn.Module) -> Optional[str]:
    """Why (conv, activation, norm) cannot be fused, or None when it can (xformers-style)."""
    if not isinstance(conv, (nn.ConvTranspose2d, nn.ConvTranspose3d)):
        return f"{type(conv).__name__} is not a 2D/3D ConvTranspose"
    if type(conv) not in (nn.ConvTranspose2d, nn.ConvTranspose3d, ConvTranspose2d, ConvTranspose3d):
        return f"{type(conv).__name__} subclasses ConvTranspose (its own forward is kept)"
    if conv.padding_mode != "zeros":
        return f"padding_mode={conv.padding_mode!r}"
    if _activation_spec(activation) is None:
        return f"activation {type(activation).__name__} is not one of the fusable activations"
    if type(norm) is not nn.GroupNorm:
        return f"{type(norm).__name__} is not nn.GroupNorm"
    if norm.num_channels != conv.out_channels:
        return f"GroupNorm has {norm.num_channels} channels, the conv produces {conv.out_channels}"
    return None


class GroupNormAppliedUpstream(nn.GroupNorm):
    """The original nn.GroupNorm after fusion: it keeps its parameters (and their names in the
    state_dict) but passes its input through, because the fused module before it applied it."""

    def forward(self, input: torch.Tensor) -> torch.Tensor:
        return input

    @classmethod
    def from_group_norm(cls, norm: nn.GroupNorm) -> "GroupNormAppliedUpstream":
        new = cls.__new__(cls)
        new.__dict__.update(norm.__dict__)
        return new


class _ConvTransposeActGroupNormMixin:
    activation_kind = "identity"
    activation_args: Dict[str, float] = {}

    def _bind(self, activation: nn.Module, norm: nn.GroupNorm) -> None:
        kind, args = _activation_spec(activation)
        self.activation_kind, self.activation_args = kind, dict(args)
        self.bind_group_norm(norm)

    def bind_group_norm(self, norm: nn.GroupNorm) -> None:
        """Not registered as a submodule: its parameters belong to the module that stays in the
        model's tree (and in its state_dict)."""
        object.__setattr__(self, "_norm", norm)

    def _epilogue(self, y: torch.Tensor) -> torch.Tensor:
        norm = self._norm
        return act_group_norm(y, norm.num_groups, norm.weight, norm.bias, norm.eps, self.activation_kind,
                              self.activation_args)

    def forward(self, input: torch.Tensor, output_size=None) -> torch.Tensor:
        return conv_act_group_norm_forward(self, input, output_size, self._norm, self.activation_kind,
                                           self.activation_args)

    def extra_repr(self) -> str:
        norm = self._norm
        return (f"{super().extra_repr()}, activation={self.activation_kind}{self.activation_args or ''}, "
                f"group_norm=(groups={norm.num_groups}, eps={norm.eps}, affine={norm.affine})")

    @classmethod
    def fuse(cls, conv: nn.Module, activation: nn.Module, norm: nn.GroupNorm):
        """The fused module for (conv, activation, norm); shares every parameter."""
        reason = fusion_refusal(conv, activation, norm)
        if reason is not None:
            raise ValueError(f"{cls.__name__}: cannot fuse: {reason}")
        if conv.weight.dim() - 2 != cls._dims:
            raise ValueError(f"{cls.__name__} fuses {cls._dims}D convolutions, got a {conv.weight.dim() - 2}D one")
        new = cls.__new__(cls)
        new.__dict__.update(conv.__dict__)
        new._bind(activation, norm)
        return new


class ConvTransposeActGroupNorm2d(_ConvTransposeActGroupNormMixin, ConvTranspose2d):
    """ConvTranspose2d -> activation -> GroupNorm (see the module docstring)."""


class ConvTransposeActGroupNorm3d(_ConvTransposeActGroupNormMixin, ConvTranspose3d):
    """ConvTranspose3d -> activation -> GroupNorm (see the module docstring)."""


def fused_class_for(conv: nn.Module):
    return ConvTransposeActGroupNorm3d if conv.weight.dim() == 5 else ConvTransposeActGroupNorm2d
