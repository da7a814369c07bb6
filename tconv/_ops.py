"""tconv's operators: one forward and three backward ops, each with a CUDA and a CPU implementation.

On torch >= 2.4 the ops are registered through torch.library (schemas defined here, fake kernels for
torch.compile / meta tensors, autograd attached to the op). On older torch (down to 1.13) the same
implementations are driven by a torch.autograd.Function. Set TCONV_DISABLE_TORCH_LIBRARY=1 to force
the autograd.Function path (used by the tests to exercise it on new torch too).

CUDA tensors run tconv's kernels; CPU tensors run PyTorch's own implementation (inside a
`tconv.cpu_fallback` profiler range, so verification tools can tell it apart from a solution that
calls torch's convolution itself).
"""
import os
from typing import List, Optional, Sequence

import torch
import torch.nn.functional as F

from . import _args, _autotune, _build, _exact_split, _grouped_dense, _phase_split, _phase_view

OPS = ("conv_transpose", "conv_transpose_grad_input", "conv_transpose_grad_weight", "conv_transpose_grad_bias")
FUSED_OPS = ("act_group_norm", "act_group_norm_backward", "conv_transpose_act_group_norm")
CPU_FALLBACK_RANGE = "tconv.cpu_fallback"
_SUPPORTED_CUDA_DTYPES = (torch.float16, torch.bfloat16, torch.float32, torch.float64)


def _library_supported() -> bool:
    lib = getattr(torch, "library", None)
    return all(hasattr(lib, name) for name in ("Library", "register_fake", "register_autograd"))


USE_TORCH_LIBRARY = _library_supported() and os.environ.get("TCONV_DISABLE_TORCH_LIBRARY", "0") != "1"


# Kernel choice for forward, grad_input and grad_weight: "auto" (the heuristic in C++), or
# "direct" / "igemm" / "grouped" to force one ("grouped": the register-blocked kernels for few
# channels per group, forward, grad_input and grad_weight). The "igemm_*" variants force the GEMMs
# and pin one choice of the gather passes: "igemm_mma" keeps them (and grad_weight) on the mma.sync
# kernels where "igemm" would take the Hopper wgmma ones, "igemm_window" takes the W-tap window (one A tile shared
# by a row's W taps) wherever it is possible, "igemm_nowindow" never; "igemm_phase_split" runs grad_input at W
# stride > 1 as a W-stride-1 GEMM over a strided view of grad_output wherever _phase_split.plan allows (like
# "igemm" elsewhere; Python-side, the C++ layer sees "igemm"); "igemm_fold" runs the forward at W stride > 1 with
# the W phases as GEMM columns and the pixel shuffle in the store wherever it is possible (tconv/_w_fold.py has
# the math; grad_weight folds the same way under "auto" and "igemm_fold" where s divides the W kernel),
# "igemm_nofold" never (like "igemm" elsewhere); "igemm_strip" forces grad_input onto the strip kernel (sm_90a,
# TF32 mode or fp16/bf16 on k16 MMAs, 1D lines at W stride 8/16/32 with whole-stride kernels, or at stride 1 the
# unit-stride forward of grad_output, which also takes fp16/bf16 on k16 MMAs: csrc/conv_transpose.h; an error
# elsewhere) and runs grad_weight on its strip kernel where that can run (W_in a multiple of 4 too; fp16/bf16
# on k16 MMAs; "igemm" elsewhere), and
# the forward on its strip kernels where they can run (1D lines, T = 1, 2 or 4 whole strides, any W stride; or
# stride 1 with a W kernel of 3, 5 or 7; both on fp16/bf16 too, k16; "igemm" elsewhere); "auto" takes grad_input's strip kernel wherever it can run, and the forward's (at W strides
# that are multiples of 8) and grad_weight's where their grids are large enough (csrc/igemm_config.h:
# StripAutoRule, run 143); "grouped_mma" forces the tensor-core kernels for few channels
# per group (forward, grad_input, and grad_weight where its kernel runs, as under "auto" elsewhere); "auto" takes
# their forward for the fp32 forward with 9-16 output channels per group (fam09, run 78) and the lines form where
# the group's channels fill an 8 x 8 block (runs 266-267), their grad_weight there in every mode (runs 270-271),
# and the FFMA kernels elsewhere (csrc/conv_transpose_grouped_mma.cu: grouped_mma_preferred and
# grouped_mma_grad_weight_preferred); "unit_stride_mma" forces the forward and grad_input onto the mma.sync
# unit-stride kernel for few channels (stride 1, groups 1, kernel D 1, C_in a multiple of 32, 16 in TF32:
# csrc/conv_transpose.h; an error elsewhere) and fp16/bf16 grad_weight onto its unit-stride grad_weight kernel where
# that runs ("auto" elsewhere); "auto" takes them where csrc/igemm_config.h UnitStrideMmaAutoRule and
# UnitStrideMmaGradWeightAutoRule say; "igemm_tma" runs the forward and grad_input on the TMA gather wherever it can
# run (sm_90a, fp32 data in TF32 mode, phase grids of one extent per phase: csrc/conv_transpose_igemm_tma.cu;
# "igemm" elsewhere; it alone takes grids that 128-position boxes do not tile exactly, and 64-column tiles), which
# "auto" and "igemm" take where it is planned (exactly tiled grids) and the other "igemm_*" variants never;
# "igemm_tma_window" is "igemm_tma" with the W taps of a (D, H) tap on one box at row shifts where that applies
# (W source step 1, 2-8 W taps; csrc/igemm_config.h TmaWindowTileOf), which "auto" takes for some forwards;
# "igemm_tma_direct" is "igemm_tma" with its boxes taken from the source itself (no channels-last copy: A fragments
# rounded in the MMA threads) wherever it can map them; "auto" and "igemm" take it only where the copy budget refuses
# the copy and the boxes are one row per channel (csrc/conv_transpose_igemm_tma.cu, tma_direct_auto_enabled).
# "grouped_tiled" runs the forward on the grouped FFMA kernel in tiles of 16 output channels (groups 1, at most 32 input
# channels: csrc/conv_transpose.h, grouped_tiled_forward; slower than the GEMM forms wherever run 376 timed it, so
# "auto" never takes it), the backward as "auto". "one_tap" runs the forward on the one-tap kernels (every output
# receives at most one tap: along each dimension dilation x (kernel - 1) < stride; groups 1, a W kernel of at most 4;
# csrc/conv_transpose_one_tap.cu: FFMA for fp32, mma.sync for fp16 / bf16), the backward as "auto" but for grad_input
# and grad_weight, which run their one-tap kernels wherever they can (fp16 / bf16; TCONV_ONE_TAP_GRAD_INPUT=0 and
# TCONV_ONE_TAP_GRAD_WEIGHT=0, development, turn them off).
# tconv's own setting, not torch's; tests and benchmarks use it.
ALGORITHMS = ("auto", "direct", "igemm", "igemm_mma", "igemm_window", "igemm_nowindow", "igemm_phase_split",
              "igemm_fold", "igemm_nofold", "igemm_strip", "igemm_tma", "igemm_tma_window", "igemm_tma_direct",
              "grouped", "grouped_mma", "grouped_tiled", "one_tap", "unit_stride_mma")
# Algorithms that pick a forward kernel only; the backward passes run as under "auto" with them.
FORWARD_ONLY_ALGORITHMS = ("grouped_tiled",)
algorithm = "auto"


class use_algorithm:
    """Context manager: run tconv's gather passes with a given algorithm (restores on exit)."""

    def __init__(self, name: str):
        if name not in ALGORITHMS:
            raise ValueError(f"tconv: unknown algorithm {name!r}; one of {ALGORITHMS}")
        self.name = name

    def __enter__(self):
        global algorithm
        self.previous, algorithm = algorithm, self.name
        return self

    def __exit__(self, *exc):
        global algorithm
        algorithm = self.previous
        return False


def _kernel_algorithm(name: str) -> str:
    """The algorithm name the C++ layer knows (the phase split is decided here, in Python)."""
    return "igemm" if name == "igemm_phase_split" else name


def conv_tf32_allowed() -> bool:
    """Whether PyTorch lets its own convolutions use TF32 right now (read at call time, like cuDNN).
    Newer torch has a per-backend precision setting beside the legacy flag; both must allow it."""
    if _exact_split.inside():
        return True
    allowed = bool(torch.backends.cudnn.allow_tf32)
    conv = getattr(torch.backends.cudnn, "conv", None)
    precision = getattr(conv, "fp32_precision", None) if conv is not None else None
    if precision is not None and precision not in ("tf32", "none"):
        allowed = False
    return allowed


def _pad3(values: Sequence[int], fill: int) -> List[int]:
    return [fill] * (3 - len(values)) + list(values)


def _as_5d(t: torch.Tensor) -> torch.Tensor:
    """[N, C, *spatial] viewed as [N, C, D, H, W] (leading spatial dims of size 1; no copy). unsqueeze, not one
    view(shape): parsing a shape costs more host time than the second unsqueeze of a 1D call (~2.3 against ~0.9 us a
    call on the CI machine's CPU)."""
    dims = t.dim()
    if dims == 4:
        return t.unsqueeze(2)
    if dims == 3:
        return t.unsqueeze(2).unsqueeze(2)
    return t


def _check_cuda_dtype(t: torch.Tensor, op: str) -> None:
    if t.dtype not in _SUPPORTED_CUDA_DTYPES:
        raise RuntimeError(f'"{op}_cuda" not implemented for \'{t.dtype}\' (tconv supports float16, bfloat16, '
                           "float32, float64)")


# ---------------------------------------------------------------------------------------------
# Implementations. Arguments arrive validated (tconv.functional checks them) and batched.
# ---------------------------------------------------------------------------------------------
def _conv_flops(input_shape, weight_shape) -> float:
    """2 x the multiply-adds of the transposed convolution (the same for its three passes)."""
    flops = 2.0 * input_shape[0]
    for size in list(input_shape[2:]) + list(weight_shape):  # spatial x C_in x C_out/g x kernel
        flops *= size
    return flops


def _run(op, launch, result, key_tensors, key_args, tf32, flops_shapes, conv_output,
         phase_split_possible=False, fold_possible=False):
    """Runs a pass: a forced algorithm as given; otherwise the heuristic, or with tconv's autotune on the
    cached/tuned winner (tconv/_autotune.py). flops_shapes: the (input, weight) shapes the FLOP count comes from
    (counted only for the autotune's candidates); conv_output: the transposed convolution's output (the forward's
    result, grad_output in the backward), a tenth of whose bytes bound a candidate's extra memory (grad_weight: or
    its own size, like the heuristic's split-K budget)."""
    if algorithm != "auto" or not _autotune.autotune_enabled():
        launch("auto" if op != "forward" and algorithm in FORWARD_ONLY_ALGORITHMS else algorithm)
        return
    exact = result.dtype == torch.float64 or (result.dtype == torch.float32 and not tf32)
    key = _autotune.signature(op, key_tensors, *key_args, tf32)
    flops = _conv_flops(*flops_shapes)
    memory_bytes = conv_output.numel() * conv_output.element_size() // 10
    if op == "grad_weight":
        memory_bytes = max(memory_bytes, result.numel() * max(4, result.element_size()))
    _autotune.run(op, key, _autotune.candidates_for(op, flops, phase_split_possible, fold_possible), launch, result,
                  exact, torch.cuda.is_current_stream_capturing(), memory_bytes=memory_bytes)


def _pads(stride, padding, dilation):
    """stride, padding and dilation as 3-entry tuples (leading D/H entries 1, 0, 1), made once per argument set."""
    key = (tuple(stride), tuple(padding), tuple(dilation))
    pads = _PADS.get(key)
    if pads is None:
        pads = _args.remember(_PADS, key, (tuple(_pad3(stride, 1)), tuple(_pad3(padding, 0)),
                                           tuple(_pad3(dilation, 1))))
    return pads


_PADS = {}


def conv_transpose_cuda(input, weight, bias, stride, padding, output_padding, dilation, groups):
    _check_cuda_dtype(input, "conv_transpose")
    if _exact_split.taken(input, conv_tf32_allowed()):
        with _exact_split.tf32_inside():
            return conv_transpose_cuda(
                _exact_split.channels(input, groups, _exact_split.SMALL_SECOND),
                _exact_split.weight(weight, groups, 0, _exact_split.SMALL_THIRD), bias, stride, padding,
                output_padding, dilation, groups)
    shape = _args.output_shape(input.shape, weight.shape, stride, padding, output_padding, dilation, groups)
    out = torch.empty(shape, dtype=input.dtype, device=input.device, memory_format=_args.memory_format_of(input))
    tf32 = conv_tf32_allowed()
    args5 = (_as_5d(input), _as_5d(weight), bias, _as_5d(out)) + _pads(stride, padding, dilation) + (groups, tf32)
    view_plan = _phase_view.taken_plan(args5[0].shape, args5[1].shape, args5[3].shape, *args5[4:7]) \
        if _phase_view.ENABLED else None

    def launch(name):
        if view_plan is not None and name == "auto":
            _forward_through_view(view_plan, args5[0], args5[1], bias, args5[3], groups, tf32)
            return
        _build.load().forward_out(*args5, _kernel_algorithm(name))

    _run("forward", launch, out, (input, weight, bias, out), (stride, padding, dilation, groups), tf32,
         (input.shape, weight.shape), out, fold_possible=int(stride[-1]) > 1)
    return out


def _forward_through_view(view_plan, input5, weight5, bias, out5, groups, tf32) -> None:
    """The forward as the bias on the positions the taps miss and the stride-1 call into the view of the rest
    (tconv/_phase_view.py; the fill as _phase_view.FILL_MODE says)."""
    def stride1_call():
        _build.load().forward_out(input5, weight5, bias, _phase_view.output_view(view_plan, out5), (1, 1, 1),
                                  view_plan.padding, view_plan.dilation, groups, tf32, "auto")

    mode = _phase_view.FILL_MODE
    if mode == "full":
        _phase_view.fill(out5, bias)
        stride1_call()
        return
    untapped = _phase_view.untapped_views(view_plan, out5)
    if mode == "overlap" and not torch.cuda.is_current_stream_capturing():
        # The fill and the call write disjoint positions. out5 was allocated on the current stream, which the side
        # stream waits for first; the current stream waits for the side stream before anything reads out5.
        main = torch.cuda.current_stream(out5.device)
        side = _side_stream(out5.device)
        side.wait_stream(main)
        with torch.cuda.stream(side):
            for view in untapped:
                _phase_view.fill(view, bias)
        stride1_call()
        main.wait_stream(side)
        return
    for view in untapped:
        _phase_view.fill(view, bias)
    stride1_call()


def conv_transpose_grad_input_cuda(grad_output, weight, input_size, stride, padding, dilation, groups):
    _check_cuda_dtype(grad_output, "conv_transpose_grad_input")
    if _exact_split.taken(grad_output, conv_tf32_allowed()):
        with _exact_split.tf32_inside():
            return conv_transpose_grad_input_cuda(
                _exact_split.channels(grad_output, groups, _exact_split.SMALL_SECOND),
                _exact_split.weight(weight, groups, 1, _exact_split.SMALL_THIRD), input_size, stride, padding,
                dilation, groups)
    grad_input = torch.empty(list(input_size), dtype=grad_output.dtype, device=grad_output.device,
                             memory_format=_args.memory_format_of(grad_output))
    if _grad_input_dense_taken(grad_output, weight, grad_input, stride, padding, dilation, groups):
        weight, groups = _grouped_dense.block_diagonal_weight(weight, groups), 1
    grad_output5, weight5, grad_input5 = _as_5d(grad_output), _as_5d(weight), _as_5d(grad_input)
    stride3, padding3, dilation3 = _pads(stride, padding, dilation)
    split, _ = _phase_split.plan(grad_output5.shape, weight5.shape, grad_input5.shape, stride3, padding3, dilation3)
    tf32 = conv_tf32_allowed()

    def launch(name):
        calls = [(grad_input5, grad_output5, weight5, stride3, padding3, dilation3, False)]
        if _takes_phase_split(name, split, grad_output5, weight5, grad_input5, stride3, padding3, dilation3, groups,
                              tf32):
            calls = _phase_split.calls(split, grad_output5, weight5, grad_input5, stride3, padding3, dilation3)
        for gi, go, w, s, p, d, window in calls:
            kernel_algorithm = _kernel_algorithm(name)
            if window and kernel_algorithm in ("auto", "igemm"):
                kernel_algorithm = "igemm_window"
            _build.load().grad_input_out(go, w, gi, s, p, d, groups, tf32, kernel_algorithm)

    _run("grad_input", launch, grad_input, (grad_output, weight, grad_input), (stride, padding, dilation, groups),
         tf32, (input_size, weight.shape), grad_output, phase_split_possible=split is not None)
    return grad_input


def _takes_phase_split(name, split, grad_output5, weight5, grad_input5, stride3, padding3, dilation3, groups,
                       tf32) -> bool:
    """Whether grad_input's pass under algorithm `name` runs as its phase split's calls (split: the plan, or None)."""
    if split is None or grad_input5.numel() == 0:
        return False
    if name == "igemm_phase_split":
        return True
    # Where "auto" runs the whole call on the strip kernel, the split would only hide it.
    return name == "auto" and not _build.load().grad_input_strip_possible(
        grad_output5, weight5, grad_input5, stride3, padding3, dilation3, groups, tf32) and _phase_split.auto_prefers(
        split, grad_output5.shape, weight5.shape, groups, grad_output5.dtype)


def _grad_input_split_taken(grad_output, weight, grad_input, stride, padding, dilation, groups) -> bool:
    """Whether grad_input's pass under "auto" splits this call by phases (what conv_transpose_grad_input_cuda
    decides, for the native backward's plan)."""
    grad_output5, weight5, grad_input5 = _as_5d(grad_output), _as_5d(weight), _as_5d(grad_input)
    stride3, padding3, dilation3 = _pads(stride, padding, dilation)
    split, _ = _phase_split.plan(grad_output5.shape, weight5.shape, grad_input5.shape, stride3, padding3, dilation3)
    return _takes_phase_split("auto", split, grad_output5, weight5, grad_input5, stride3, padding3, dilation3, groups,
                              conv_tf32_allowed())


def _grad_input_dense_taken(grad_output, weight, grad_input, stride, padding, dilation, groups) -> bool:
    """Whether grad_input's pass runs this grouped call as the dense call on its block-diagonal weight under "auto"
    (tconv/_grouped_dense.py): a candidate by shape whose dense call runs on a persistent grid."""
    if algorithm != "auto" or grad_input.numel() == 0 or not _grouped_dense.dense_grad_input_candidate(
            grad_output.dtype, weight.shape, groups, _args.memory_format_of(grad_output) != torch.contiguous_format):
        return False
    # the queries read the weight's shape only: an uninitialised stand-in spares building the block-diagonal weight
    dense_weight = weight.new_empty(_grouped_dense.dense_weight_shape(weight.shape, groups))
    return not _grad_input_split_taken(grad_output, dense_weight, grad_input, stride, padding, dilation, 1) and \
        _build.load().grad_input_persistent(_as_5d(grad_output), _as_5d(dense_weight), _as_5d(grad_input),
                                            *_pads(stride, padding, dilation), 1, conv_tf32_allowed(), "auto")


def conv_transpose_grad_weight_cuda(grad_output, input, weight_size, stride, padding, dilation, groups):
    _check_cuda_dtype(grad_output, "conv_transpose_grad_weight")
    if _exact_split.taken(grad_output, conv_tf32_allowed()):
        with _exact_split.tf32_inside():
            return conv_transpose_grad_weight_cuda(
                _exact_split.batch(grad_output, _exact_split.SMALL_THIRD),
                _exact_split.batch(input, _exact_split.SMALL_SECOND), weight_size, stride, padding, dilation,
                groups)
    grad_weight = torch.empty(list(weight_size), dtype=grad_output.dtype, device=grad_output.device)
    tf32 = conv_tf32_allowed()
    args5 = (_as_5d(grad_output), _as_5d(input), _as_5d(grad_weight)) + _pads(stride, padding, dilation) + (
        groups, tf32)

    def launch(name):
        _build.load().grad_weight_out(*args5, _kernel_algorithm(name))

    _run("grad_weight", launch, grad_weight, (grad_output, input, grad_weight), (stride, padding, dilation, groups),
         tf32, (input.shape, weight_size), grad_output, fold_possible=int(stride[-1]) > 1)
    return grad_weight


def conv_transpose_grad_bias_cuda(grad_output):
    _check_cuda_dtype(grad_output, "conv_transpose_grad_bias")
    grad_bias = torch.empty(grad_output.shape[1], dtype=grad_output.dtype, device=grad_output.device)
    _build.load().grad_bias_out(_as_5d(grad_output), grad_bias)
    return grad_bias


# Shapes only: the fake kernels (torch.library) and the meta-device implementations (the autograd.Function path).
def conv_transpose_meta(input, weight, bias, stride, padding, output_padding, dilation, groups):
    shape = _args.output_shape(input.shape, weight.shape, stride, padding, output_padding, dilation, groups)
    return torch.empty(shape, dtype=input.dtype, device=input.device, memory_format=_args.memory_format_of(input))


def conv_transpose_grad_input_meta(grad_output, weight, input_size, stride, padding, dilation, groups):
    return torch.empty(list(input_size), dtype=grad_output.dtype, device=grad_output.device,
                       memory_format=_args.memory_format_of(grad_output))


def conv_transpose_grad_weight_meta(grad_output, input, weight_size, stride, padding, dilation, groups):
    return torch.empty(list(weight_size), dtype=grad_output.dtype, device=grad_output.device)


def conv_transpose_grad_bias_meta(grad_output):
    return grad_output.new_empty([grad_output.shape[1]])


_TORCH_CONV_TRANSPOSE = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}
_TORCH_CONV = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}


def conv_transpose_cpu(input, weight, bias, stride, padding, output_padding, dilation, groups):
    with torch.profiler.record_function(CPU_FALLBACK_RANGE):
        return _TORCH_CONV_TRANSPOSE[input.dim() - 2](input, weight, bias, list(stride), list(padding),
                                                      list(output_padding), groups, list(dilation))


def conv_transpose_grad_input_cpu(grad_output, weight, input_size, stride, padding, dilation, groups):
    # The input gradient of a transposed convolution is the plain convolution of grad_output;
    # with output_padding >= stride (allowed when dilation is larger) it is one row too long.
    with torch.profiler.record_function(CPU_FALLBACK_RANGE):
        out = _TORCH_CONV[grad_output.dim() - 2](grad_output, weight, None, list(stride), list(padding),
                                                 list(dilation), groups)
        for dim, size in enumerate(input_size[2:], start=2):
            out = out.narrow(dim, 0, size)
        return out.contiguous(memory_format=_args.memory_format_of(grad_output))


def conv_transpose_grad_weight_cpu(grad_output, input, weight_size, stride, padding, dilation, groups):
    dims = input.dim() - 2
    spatial_out = list(grad_output.shape[2:])
    full = _args.output_size(list(input.shape[2:]), list(weight_size[2:]), stride, padding, [0] * dims, dilation)
    output_padding = [o - f for o, f in zip(spatial_out, full)]
    weight = input.new_empty(list(weight_size))
    with torch.profiler.record_function(CPU_FALLBACK_RANGE):
        _, grad_weight, _ = torch.ops.aten.convolution_backward(
            grad_output, input, weight, None, list(stride), list(padding), list(dilation), True, output_padding,
            groups, [False, True, False])
    return grad_weight.contiguous()


def conv_transpose_grad_bias_cpu(grad_output):
    with torch.profiler.record_function(CPU_FALLBACK_RANGE):
        return grad_output.sum(dim=[0] + list(range(2, grad_output.dim())))


_IMPLS = {name: (globals()[name + "_cuda"], globals()[name + "_cpu"], globals()[name + "_meta"]) for name in OPS}


# ---------------------------------------------------------------------------------------------
# Autograd, written once for both registration paths.
# ---------------------------------------------------------------------------------------------
# Where the backward takes the view: CUDA (the CPU path is PyTorch's own; the CPU tests add "cpu" to run the view's
# orchestration through the CPU implementations)
_BACKWARD_VIEW_DEVICES = ("cuda",)


def _backward_view_plan(grad, input, weight, stride, padding, dilation):
    """The one-residue view's plan for a plain eager backward under "auto" on CUDA (TCONV_BACKWARD_PHASE_VIEW), or
    None. (Traced backwards keep the strided call: the plan reads the shapes as Python integers.)"""
    if not _phase_view.BACKWARD_ENABLED or algorithm != "auto" or grad.device.type not in _BACKWARD_VIEW_DEVICES:
        return None
    return _phase_view.taken_plan(_as_5d(input).shape, _as_5d(weight).shape, _as_5d(grad).shape,
                                  *_pads(stride, padding, dilation))


def _backward(grad, input, weight, has_bias, needs_input_grad, stride, padding, dilation, groups, direct=False,
              through_view=True):
    """The three gradients through the ops, or (direct: a plain eager call, _plain_eager_call) through their
    implementations without the dispatcher; through_view=False: never the one-residue view."""
    grad_input_op, grad_weight_op, grad_bias_op = conv_transpose_grad_input, conv_transpose_grad_weight, \
        conv_transpose_grad_bias
    if direct:
        grad_input_op = _impl_for("conv_transpose_grad_input", grad)
        grad_weight_op = _impl_for("conv_transpose_grad_weight", grad)
        grad_bias_op = _impl_for("conv_transpose_grad_bias", grad)
    with_bias = has_bias and needs_input_grad[2]
    view_plan = _backward_view_plan(grad, input, weight, stride, padding, dilation) \
        if direct and through_view else None
    if view_plan is not None:  # the stride-1 problem's gradients on grad_output's tapped positions (_phase_view.py)
        dims = grad.dim() - 2
        taps = _phase_view.grad_output_taps(view_plan, _as_5d(grad), dims)
        stride1 = _phase_view.stride1_arguments(view_plan, dims)
        weight_mode = _phase_view.GRAD_WEIGHT_MODE if needs_input_grad[1] and _phase_view.rows_strided(taps) \
            else "view"
        batches = _phase_view.compact_batches(taps, grad.numel()) if weight_mode == "compact" else None
        if weight_mode == "view" or (weight_mode == "compact" and batches is None):
            grad_input, grad_weight, _ = _backward(taps, input, weight, False, needs_input_grad, *stride1, groups,
                                                   direct=True)
        else:
            grad_input = _backward(taps, input, weight, False, (needs_input_grad[0], False, False), *stride1, groups,
                                   direct=True)[0] if needs_input_grad[0] else None
            if weight_mode == "compact":
                grad_weight = _compact_grad_weight(taps, input, weight, batches, stride1, groups)
            else:  # the strided call's grad_weight on the whole grad_output
                grad_weight = _backward(grad, input, weight, False, (False, True, False), stride, padding, dilation,
                                        groups, direct=True, through_view=False)[1]
        return grad_input, grad_weight, grad_bias_op(grad) if with_bias else None
    native_key = None
    # (the native call runs the exact kernels, not the split's TF32 GEMMs)
    if direct and grad.is_cuda and _NATIVE_BACKWARD and algorithm == "auto" and not _autotune.autotune_enabled() \
            and not _exact_split.taken(grad, conv_tf32_allowed()):
        native_key = (_backward_signature(grad, input, weight, stride, padding, dilation, groups, with_bias),
                      needs_input_grad[0], needs_input_grad[1])
        concurrent = _native_plans.get(native_key)
        if concurrent is not None:
            return _native_backward(grad, input, weight, needs_input_grad, with_bias, stride, padding, dilation,
                                    groups, concurrent)
    grad_input = grad_weight = grad_bias = None
    if direct and grad.is_cuda and needs_input_grad[0] and needs_input_grad[1] and _CONCURRENT_BACKWARD and \
            not _autotune.autotune_enabled() and not torch.cuda.is_current_stream_capturing():
        grad_input, grad_weight, grad_bias = _backward_maybe_concurrent(
            grad_input_op, grad_weight_op, grad_bias_op, grad, input, weight, with_bias, stride, padding, dilation,
            groups)
    else:
        if needs_input_grad[0]:
            grad_input = grad_input_op(grad, weight, list(input.shape), stride, padding, dilation, groups)
        if needs_input_grad[1]:
            grad_weight = grad_weight_op(grad, input, list(weight.shape), stride, padding, dilation, groups)
        if with_bias:
            grad_bias = grad_bias_op(grad)
    if native_key is not None and not torch.cuda.is_current_stream_capturing():
        _remember_native_plan(native_key, grad, weight, grad_input, stride, padding, dilation, groups)
    return grad_input, grad_weight, grad_bias


def _compact_grad_weight(taps, input, weight, batches, stride1, groups):
    """The stride-1 grad_weight summed over compact copies of `taps`, one batch range at a time
    (TCONV_BACKWARD_VIEW_GRAD_WEIGHT=compact); 16-bit partial sums add in fp32, then round once."""
    total = None
    for lo, hi in batches:
        part = _backward(taps[lo:hi].contiguous(), input[lo:hi], weight, False, (False, True, False), *stride1,
                         groups, direct=True)[1]
        if total is None:
            total = part if len(batches) == 1 or part.dtype in (torch.float32, torch.float64) else part.float()
        else:
            total += part
    return total.to(weight.dtype)


# The native backward: after a signature's first backward ran through the Python path above, its later backwards
# run as one call into the C++ layer (`backward`: allocation, the three passes under "auto", the side stream), where
# that path's choices were the C++ layer's own: algorithm "auto", tconv's autotune off, and grad_input as one call
# (not split by phases, a choice made here in Python). Same kernels in the same order: the same bits. Why: the Python
# glue of three passes cost more host time than their kernels on the sub-millisecond rows, and a timed loop
# without synchronisation then measures the host. Run 491 (H200, channels-last bf16, host_overhead.py): host against
# GPU ms per fwd+bwd, DCGAN 0.877 / 0.409, U-Net 3D 0.843 / 0.396, VAE 0.554 / 0.650 (torch's own: 0.37, 0.24, 0.30);
# the extension's entry points took 0.14-0.15 ms of it. TCONV_NATIVE_BACKWARD=0 (read at import) keeps every
# backward on the Python path.
_NATIVE_BACKWARD = os.environ.get("TCONV_NATIVE_BACKWARD", "1") != "0"
# (_backward_signature, needs grad_input, needs grad_weight) -> whether the passes run at once (the Python path's
# choice for the signature), for the signatures the native call reproduces
_native_plans = {}


def _remember_native_plan(key, grad, weight, grad_input, stride, padding, dilation, groups) -> None:
    """After the Python path's backward for `key`: whether the native call may take the signature's later backwards
    (grad_input, where computed, was one "auto" call on the call's own weight and groups) and whether their passes
    run at once (as _concurrent_fits decided for it; one after the other where it has no entry)."""
    if grad_input is not None and (_grad_input_split_taken(grad, weight, grad_input, stride, padding, dilation,
                                                           groups) or _grad_input_dense_taken(
                                                               grad, weight, grad_input, stride, padding, dilation,
                                                               groups)):
        return  # (the native call runs grad_input as one call on the call's own weight)
    if len(_native_plans) >= _CONCURRENT_FITS_LIMIT:
        _native_plans.clear()
    _native_plans[key] = bool(key[1] and key[2] and _CONCURRENT_BACKWARD and
                              _concurrent_fits.get(key[0], (False,))[0])


def _native_backward(grad, input, weight, needs_input_grad, with_bias, stride, padding, dilation, groups,
                     concurrent):
    stride3, padding3, dilation3 = _pads(stride, padding, dilation)
    return _build.load().backward(grad, input, weight, needs_input_grad[0], needs_input_grad[1], with_bias, stride3,
                                  padding3, dilation3, groups, conv_tf32_allowed(),
                                  concurrent and not torch.cuda.is_current_stream_capturing())


# The concurrent backward (plain eager calls with the autotune off): grad_weight and grad_bias run on a side stream
# beside grad_input where their extra memory together keeps the contract (concurrent_backward_fits, measured on a
# signature's first call, which runs the passes one after the other), so that one pass's last partial wave overlaps
# the other's work. Run 379 (H200, TF32 fwd+bwd, A/B in one build): DCGAN -6.3 %, U-Net 3D -3.8 %, fam13 -2.7 %,
# L1-72 -2.0 %, six more rows -0.6 to -1.9 %, L1-68 level. Run 381, with the memory rule: all 21 suite rows' passes
# fit (their extras 0-77 MiB against outputs of 44-2056 MiB), 222 grid tests and the bitwise test passed, DCGAN
# -6.7 %, fam13 -2.4 %, L1-72 -2.0 %, fam10 -1.4 %. TCONV_CONCURRENT_BACKWARD=0 (read at import) runs them one after
# the other.
_CONCURRENT_BACKWARD = os.environ.get("TCONV_CONCURRENT_BACKWARD", "1") != "0"
# A grad_input on a persistent grid (unit_stride_mma: SM-count blocks) keeps the passes one after the other: beside a
# GPU-filling grad_weight its late-starting blocks finish their tiles afterwards, and either launch order stretches
# one pass. Run 389 (H200, TF32 fwd+bwd, one process, static shares of the tiles): fam08 3.495 ms concurrent against
# 2.959 one after the other (grad_input first: 3.507), L1-71 2.414 against 2.437. Run 395, with the tiles dynamic (a
# counter): fam08 3.514 against 2.913, L1-71 2.404 against 2.414, fam11 level; so the rule stays. Since session 90 the
# TMA gather's persistent per-tap and window kernels count too (grad_input_persistent). Run 489 (H200, channels-last
# bf16 fwd+bwd, quick_timing): VAE 0.654 ms serial against 1.000 beside the persistent grad_input, DCGAN 0.460
# against 0.620, fam06 and fam01 level.
# TCONV_CONCURRENT_PERSISTENT_GRAD_INPUT=1 (development, read at import) runs them at once anyway.
_CONCURRENT_PERSISTENT_GRAD_INPUT = os.environ.get("TCONV_CONCURRENT_PERSISTENT_GRAD_INPUT", "0") == "1"
_side_streams = {}
# _backward_signature -> (whether the passes may run at once, grad_input's extra bytes, grad_weight's), measured on the
# signature's first call
_concurrent_fits = {}
_CONCURRENT_FITS_LIMIT = 4096


def concurrent_backward_fits(grad_input_extra: int, grad_weight_extra: int, output_bytes: int,
                             weight_bytes: int) -> bool:
    """Whether grad_input and grad_weight (with grad_bias) may run at once, from what each allocated beyond its own
    gradient when run alone (its running allocation total: an upper bound of its peak). Together they must stay within
    a tenth of the transposed convolution's output (README "Device memory"), or add at most one weight's bytes to the
    larger of the two: the weight-sized buffers (packed weights, one split-K buffer) are what both passes hold on small
    outputs, where a tenth is less than a weight. A negative extra means the allocator's counter did not see the
    pass's own gradient (no statistics): no concurrency."""
    if grad_input_extra < 0 or grad_weight_extra < 0:
        return False
    return grad_input_extra + grad_weight_extra <= max(output_bytes // 10,
                                                       max(grad_input_extra, grad_weight_extra) + weight_bytes)


def _backward_signature(grad, input, weight, stride, padding, dilation, groups, with_bias):
    """What the passes' plans, and so their workspaces, depend on: shapes, strides, dtype, device, the conv's
    arguments, the algorithm, the TF32 mode and the tensors' 16-byte alignment (the TMA forms need it)."""
    return (grad.device.index, grad.dtype, tuple(grad.shape), grad.stride(), tuple(input.shape), input.stride(),
            tuple(weight.shape), weight.stride(), tuple(stride), tuple(padding), tuple(dilation), groups, with_bias,
            algorithm, conv_tf32_allowed(), grad.data_ptr() % 16, input.data_ptr() % 16, weight.data_ptr() % 16)


def _nbytes(t: Optional[torch.Tensor]) -> int:
    return 0 if t is None else t.numel() * t.element_size()


def _backward_maybe_concurrent(grad_input_op, grad_weight_op, grad_bias_op, grad, input, weight, with_bias, stride,
                               padding, dilation, groups):
    """The passes at once where this signature's first call, run one after the other with the allocator's counter read
    around each pass, found them within concurrent_backward_fits; one after the other elsewhere."""
    key = _backward_signature(grad, input, weight, stride, padding, dilation, groups, with_bias)
    fits = _concurrent_fits.get(key, (None,))[0]
    if fits:
        return _concurrent_backward(grad_input_op, grad_weight_op, grad_bias_op, grad, input, weight, with_bias,
                                    stride, padding, dilation, groups)
    allocated = _autotune.allocated_bytes_counter(grad.device) if fits is None else (lambda: 0)
    before = allocated()
    grad_input = grad_input_op(grad, weight, list(input.shape), stride, padding, dilation, groups)
    between = allocated()
    grad_weight = grad_weight_op(grad, input, list(weight.shape), stride, padding, dilation, groups)
    grad_bias = grad_bias_op(grad) if with_bias else None
    if fits is None:
        after = allocated()
        if len(_concurrent_fits) >= _CONCURRENT_FITS_LIMIT:
            _concurrent_fits.clear()
        extras = (between - before - _nbytes(grad_input),
                  after - between - _nbytes(grad_weight) - _nbytes(grad_bias))
        fits = concurrent_backward_fits(*extras, _nbytes(grad), _nbytes(weight)) and (
            _CONCURRENT_PERSISTENT_GRAD_INPUT or not _grad_input_persistent(grad, weight, grad_input, stride, padding,
                                                                            dilation, groups))
        _concurrent_fits[key] = (fits,) + extras
    return grad_input, grad_weight, grad_bias


def _grad_input_persistent(grad, weight, grad_input, stride, padding, dilation, groups) -> bool:
    """Whether grad_input's pass runs on a persistent grid (the C++ layer's choice for this call, as it just ran: the
    unit-stride mma.sync kernel or the TMA gather's persistent kernels; the dense grouped grad_input runs on one)."""
    if _grad_input_dense_taken(grad, weight, grad_input, stride, padding, dilation, groups):
        return True
    return _build.load().grad_input_persistent(_as_5d(grad), _as_5d(weight), _as_5d(grad_input),
                                               *_pads(stride, padding, dilation), groups, conv_tf32_allowed(),
                                               _kernel_algorithm(algorithm))


def _side_stream(device: torch.device) -> "torch.cuda.Stream":
    """The per-device side stream (made on first use) of the concurrent backward and the overlapped view fill."""
    side = _side_streams.get(device)
    if side is None:
        side = _side_streams.setdefault(device, torch.cuda.Stream(device))
    return side


def _concurrent_backward(grad_input_op, grad_weight_op, grad_bias_op, grad, input, weight, with_bias, stride,
                         padding, dilation, groups):
    """_backward's passes with grad_weight (and grad_bias) on a per-device side stream that waits for the current one,
    which waits for it before returning: the caller sees the ordering of one stream. The side stream's outputs are
    recorded on the current stream, so the caching allocator does not hand their memory to side-stream work while
    the current stream may still read them; inputs the current stream allocated are read on the side stream only
    before the current stream's wait, after which every later use or reuse of their memory is ordered."""
    main = torch.cuda.current_stream(grad.device)
    side = _side_stream(grad.device)
    side.wait_stream(main)  # before grad_input is queued: the side stream waits for none of it
    grad_bias = None
    with torch.cuda.stream(side):
        grad_weight = grad_weight_op(grad, input, list(weight.shape), stride, padding, dilation, groups)
        if with_bias:
            grad_bias = grad_bias_op(grad)
    grad_input = grad_input_op(grad, weight, list(input.shape), stride, padding, dilation, groups)
    main.wait_stream(side)
    for t in (grad_weight, grad_bias):
        if t is not None:
            t.record_stream(main)
    return grad_input, grad_weight, grad_bias


def _impl_for(op: str, t: torch.Tensor):
    """The implementation of one of OPS for t's device (the dispatcher's job where the op is not registered)."""
    cuda_impl, cpu_impl, meta_impl = _IMPLS[op]
    return _by_device(cuda_impl, cpu_impl, t, meta_impl)


def _by_device(cuda_impl, cpu_impl, t: torch.Tensor, meta_impl=None):
    if t.is_cuda:
        return cuda_impl
    if t.device.type == "cpu":
        return cpu_impl
    if t.device.type == "meta" and meta_impl is not None:
        return meta_impl
    raise NotImplementedError(f"tconv: no implementation for device type {t.device.type!r} (CUDA and CPU only)")


class _ConvTransposeFunction(torch.autograd.Function):
    """The forward op under autograd.Function: the only path on torch < 2.4, and plain eager calls' path on newer torch
    (see _plain_eager_call)."""
    @staticmethod
    def forward(ctx, input, weight, bias, stride, padding, output_padding, dilation, groups):
        ctx.save_for_backward(input, weight)
        ctx.has_bias = bias is not None
        ctx.conv_args = (stride, padding, dilation, groups)
        impl = _impl_for("conv_transpose", input)
        return impl(input, weight, bias, stride, padding, output_padding, dilation, groups)

    @staticmethod
    def backward(ctx, grad):
        input, weight = ctx.saved_tensors
        grads = _backward(grad, input, weight, ctx.has_bias, ctx.needs_input_grad, *ctx.conv_args,
                          direct=_plain_eager_call(grad, input, weight))
        return grads + (None,) * 5


def _eager_conv_transpose(input, weight, bias, stride, padding, output_padding, dilation, groups):
    """The forward in eager mode: through the autograd.Function where a gradient will be needed, else the
    implementation directly (inference, torch.no_grad): the Function's apply costs host time on every call and records
    nothing there."""
    if torch.is_grad_enabled() and (input.requires_grad or weight.requires_grad or
                                    (bias is not None and bias.requires_grad)):
        return _ConvTransposeFunction.apply(input, weight, bias, stride, padding, output_padding, dilation, groups)
    impl = _impl_for("conv_transpose", input)
    return impl(input, weight, bias, stride, padding, output_padding, dilation, groups)


def _plain_eager_call(*tensors) -> bool:
    """Whether a forward call may skip torch.library's dispatch for the autograd.Function above, which runs the same
    implementations and backward. Why: the op's Python autograd wrapper, default filling and redispatch cost host
    time on every call. Run 327 (H200) had tconv issue DCGAN's TF32 fwd+bwd in 0.778 ms of host time against 0.954 ms
    of kernels (the original model: 0.308), so unsynchronised timings of it followed the host (runs 325-326: 1.144 to
    1.345 ms). On the CI machine's CPU (a tiny CPU fwd+bwd, session 50): 433-463 us per call through the library,
    379-402 us with this path, 346 us on the Function-only path, 187-203 us for torch's own. On an H200's host (run
    329) DCGAN's fwd+bwd took 0.793 ms with it against run 327's 0.778 without: no gain visible there, within the
    host's run-to-run noise. Only plain tensors outside any tracing, transform or mode: torch.compile / export,
    FakeTensor and other subclasses, functorch transforms and Python dispatch or function modes keep the registered
    op (and its fake kernel)."""
    if _is_compiling() or _is_tracing() or _functorch_transforms_active() or _torch_function_mode_enabled():
        return False
    for t in tensors:  # nn.Parameter is a plain tensor here (its torch function handling is disabled)
        if t is not None and (type(t) not in _PLAIN_TENSOR_TYPES or not (t.is_cuda or t.device.type == "cpu")):
            return False  # meta tensors take the fake kernel
    return _current_dispatch_mode() is None


# The state _plain_eager_call reads, looked up once (it runs on every call; run 330's cProfile had it at ~10 us).
_PLAIN_TENSOR_TYPES = (torch.Tensor, torch.nn.Parameter)
_is_compiling = _args._is_compiling
_is_tracing = torch.jit.is_tracing  # the trace records the registered op
_functorch_transforms_active = getattr(torch._C, "_are_functorch_transforms_active", lambda: False)
_torch_function_mode_enabled = getattr(torch._C, "_is_torch_function_mode_enabled", lambda: False)
try:
    from torch.utils._python_dispatch import _get_current_dispatch_mode as _current_dispatch_mode
except ImportError:  # pragma: no cover - every torch that has torch.library's register_autograd has it
    def _current_dispatch_mode():
        return True  # unknown: keep the registered op


if USE_TORCH_LIBRARY:
    _lib = torch.library.Library("tconv", "DEF")
    _lib.define("conv_transpose(Tensor input, Tensor weight, Tensor? bias, SymInt[] stride, SymInt[] padding, "
                "SymInt[] output_padding, SymInt[] dilation, SymInt groups) -> Tensor")
    _lib.define("conv_transpose_grad_input(Tensor grad_output, Tensor weight, SymInt[] input_size, SymInt[] stride, "
                "SymInt[] padding, SymInt[] dilation, SymInt groups) -> Tensor")
    _lib.define("conv_transpose_grad_weight(Tensor grad_output, Tensor input, SymInt[] weight_size, "
                "SymInt[] stride, SymInt[] padding, SymInt[] dilation, SymInt groups) -> Tensor")
    _lib.define("conv_transpose_grad_bias(Tensor grad_output) -> Tensor")

    for _name in OPS:
        _lib.impl(_name, globals()[_name + "_cuda"], "CUDA")
        _lib.impl(_name, globals()[_name + "_cpu"], "CPU")

    for _name in OPS:
        torch.library.register_fake("tconv::" + _name)(globals()[_name + "_meta"])

    def _setup_context(ctx, inputs, output):
        input, weight, bias, stride, padding, output_padding, dilation, groups = inputs
        ctx.save_for_backward(input, weight)
        ctx.has_bias = bias is not None
        ctx.conv_args = (stride, padding, dilation, groups)

    def _autograd_backward(ctx, grad):
        input, weight = ctx.saved_tensors
        grads = _backward(grad, input, weight, ctx.has_bias, ctx.needs_input_grad, *ctx.conv_args)
        return grads + (None,) * 5

    torch.library.register_autograd("tconv::conv_transpose", _autograd_backward, setup_context=_setup_context)

    _conv_transpose_op = torch.ops.tconv.conv_transpose.default

    def conv_transpose(input, weight, bias, stride, padding, output_padding, dilation, groups):
        if _plain_eager_call(input, weight, bias):
            return _eager_conv_transpose(input, weight, bias, stride, padding, output_padding, dilation, groups)
        return _conv_transpose_op(input, weight, bias, stride, padding, output_padding, dilation, groups)

    conv_transpose_grad_input = torch.ops.tconv.conv_transpose_grad_input.default
    conv_transpose_grad_weight = torch.ops.tconv.conv_transpose_grad_weight.default
    conv_transpose_grad_bias = torch.ops.tconv.conv_transpose_grad_bias.default
else:
    def conv_transpose(input, weight, bias, stride, padding, output_padding, dilation, groups):
        return _eager_conv_transpose(input, weight, bias, stride, padding, output_padding, dilation, groups)

    def conv_transpose_grad_input(grad_output, weight, input_size, stride, padding, dilation, groups):
        impl = _impl_for("conv_transpose_grad_input", grad_output)
        return impl(grad_output, weight, input_size, stride, padding, dilation, groups)

    def conv_transpose_grad_weight(grad_output, input, weight_size, stride, padding, dilation, groups):
        impl = _impl_for("conv_transpose_grad_weight", grad_output)
        return impl(grad_output, input, weight_size, stride, padding, dilation, groups)

    def conv_transpose_grad_bias(grad_output):
        return _impl_for("conv_transpose_grad_bias", grad_output)(grad_output)


def registered_ops() -> List[str]:
    """Names of the ops registered with torch.library (empty on the autograd.Function path)."""
    if not USE_TORCH_LIBRARY:
        return []
    # The fused epilogue's ops are defined by tconv.fused (imported with the package).
    return [f"tconv::{name}" for name in OPS + FUSED_OPS if hasattr(torch.ops.tconv, name)]
