"""Precision modes and the process-wide torch flags behind them.

A precision mode names what the harness runs and what a solution must honour (DESIGN.md section 3):

    tf32  fp32 tensors, TF32 allowed for convolutions (torch's default flags)
    fp32  fp32 tensors, TF32 off: "exact" fp32
    fp16  models and float inputs converted to float16
    bf16  models and float inputs converted to bfloat16

Matrix-multiply precision stays at torch's default ("highest") in every mode: the modes are about
the convolution flag, which is the one PyTorch's transposed convolutions (and tconv) follow.

Torch keeps these flags twice on newer versions: the legacy ones (`torch.backends.cudnn.allow_tf32`,
`torch.set_float32_matmul_precision`) and the per-backend/per-op `fp32_precision` strings (torch >=
2.9). The legacy getters raise when the two disagree, so this module always sets a mode through
the legacy setters (which keep both consistent), and restores a snapshot legacy-first and then the
exact new-API strings. A new-API parent (e.g. `torch.backends.fp32_precision`) overrides its
children while it is not "none", so setting a mode resets the parents to "none".
"""

from __future__ import annotations

import contextlib
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

import torch

PRECISIONS = ("tf32", "fp32", "fp16", "bf16")

_COMPUTE_DTYPES = {
    "tf32": torch.float32,
    "fp32": torch.float32,
    "fp16": torch.float16,
    "bf16": torch.bfloat16,
}

# New-API precision strings, parents before children. Only those present on the running torch are used.
_FP32_PRECISION_PATHS = (
    "fp32_precision",  # generic parent of everything
    "cudnn.fp32_precision",  # the "cuda" backend parent: cudnn conv/rnn and cuBLAS matmul
    "cudnn.conv.fp32_precision",
    "cudnn.rnn.fp32_precision",
    "cuda.matmul.fp32_precision",
    "mkldnn.fp32_precision",
    "mkldnn.conv.fp32_precision",
    "mkldnn.matmul.fp32_precision",
    "mkldnn.rnn.fp32_precision",
)
# Parents that would override the convolution flag a mode sets.
_FP32_PRECISION_PARENTS = ("fp32_precision", "cudnn.fp32_precision")


def _resolve(path: str) -> Tuple[Any, str]:
    """(owner object, attribute name) for a dotted path under torch.backends."""
    owner: Any = torch.backends
    *parents, attribute = path.split(".")
    for name in parents:
        owner = getattr(owner, name)
    return owner, attribute


def _has(path: str) -> bool:
    try:
        owner, attribute = _resolve(path)
    except AttributeError:
        return False
    return hasattr(owner, attribute)


def _new_api_paths() -> List[str]:
    return [path for path in _FP32_PRECISION_PATHS if _has(path)]


def _read_safely(getter: Callable[[], Any]) -> Any:
    """A flag's value, or a stable marker string when torch refuses to report it (mixed APIs)."""
    try:
        return getter()
    except Exception as error:  # torch raises RuntimeError for legacy/new-API mixes
        return f"<unreadable: {type(error).__name__}>"


def compute_dtype(mode: str) -> torch.dtype:
    """The floating dtype models and inputs are converted to in `mode`."""
    check_mode(mode)
    return _COMPUTE_DTYPES[mode]


def check_mode(mode: str) -> None:
    if mode not in PRECISIONS:
        raise ValueError(f"unknown precision mode {mode!r}; expected one of {', '.join(PRECISIONS)}")


def conv_tf32_allowed(mode: str) -> bool:
    """Whether `mode` allows TF32 for fp32 convolutions (irrelevant for fp16/bf16, left at torch's default)."""
    check_mode(mode)
    return mode != "fp32"


# ---------------------------------------------------------------------------------------------
# Restorable flags


def _restorable_flags() -> Dict[str, Any]:
    """Every flag `precision_mode` may change (or a solution could flip), with its current value."""
    backends = torch.backends
    flags: Dict[str, Any] = {
        "cudnn.benchmark": backends.cudnn.benchmark,
        "cudnn.deterministic": backends.cudnn.deterministic,
        "cudnn.enabled": backends.cudnn.enabled,
        "cudnn.allow_tf32": _read_safely(lambda: backends.cudnn.allow_tf32),
        "cuda.matmul.allow_tf32": _read_safely(lambda: backends.cuda.matmul.allow_tf32),
        "float32_matmul_precision": _read_safely(torch.get_float32_matmul_precision),
        "deterministic_algorithms": torch.are_deterministic_algorithms_enabled(),
        "deterministic_algorithms_warn_only": torch.is_deterministic_algorithms_warn_only_enabled(),
        "mkldnn.enabled": backends.mkldnn.enabled,
        "default_dtype": torch.get_default_dtype(),
    }
    for path in (
        "cudnn.benchmark_limit",
        "cuda.matmul.allow_fp16_reduced_precision_reduction",
        "cuda.matmul.allow_bf16_reduced_precision_reduction",
        "cuda.matmul.allow_fp16_accumulation",
    ):
        if _has(path):
            owner, attribute = _resolve(path)
            flags[path] = _read_safely(lambda: getattr(owner, attribute))
    for path in _new_api_paths():
        owner, attribute = _resolve(path)
        flags[path] = _read_safely(lambda: getattr(owner, attribute))
    return flags


def _restore_flags(flags: Dict[str, Any]) -> None:
    """Put back a `_restorable_flags()` snapshot: legacy setters first, exact new-API strings last."""
    backends = torch.backends
    backends.cudnn.benchmark = flags["cudnn.benchmark"]
    backends.cudnn.deterministic = flags["cudnn.deterministic"]
    backends.cudnn.enabled = flags["cudnn.enabled"]
    backends.mkldnn.enabled = flags["mkldnn.enabled"]
    torch.use_deterministic_algorithms(
        flags["deterministic_algorithms"], warn_only=flags["deterministic_algorithms_warn_only"]
    )
    torch.set_default_dtype(flags["default_dtype"])
    # Legacy values that were unreadable (a legacy/new mix) are recreated by the new-API strings below.
    if isinstance(flags["cudnn.allow_tf32"], bool):
        backends.cudnn.allow_tf32 = flags["cudnn.allow_tf32"]
    matmul_precision = flags["float32_matmul_precision"]
    if matmul_precision in ("highest", "high", "medium"):
        # Sets cuda.matmul.allow_tf32 too (they are one flag underneath).
        torch.set_float32_matmul_precision(matmul_precision)
    elif isinstance(flags["cuda.matmul.allow_tf32"], bool):
        backends.cuda.matmul.allow_tf32 = flags["cuda.matmul.allow_tf32"]
    for path in (
        "cudnn.benchmark_limit",
        "cuda.matmul.allow_fp16_reduced_precision_reduction",
        "cuda.matmul.allow_bf16_reduced_precision_reduction",
        "cuda.matmul.allow_fp16_accumulation",
    ):
        if path in flags and not _is_unreadable(flags[path]):
            owner, attribute = _resolve(path)
            setattr(owner, attribute, flags[path])
    for path in _FP32_PRECISION_PATHS:
        if path in flags and not _is_unreadable(flags[path]):
            owner, attribute = _resolve(path)
            setattr(owner, attribute, flags[path])


def _is_unreadable(value: Any) -> bool:
    return isinstance(value, str) and value.startswith("<unreadable")


def apply_precision_flags(mode: str, cudnn_benchmark: bool = False) -> None:
    """Set the global flags to torch's defaults adjusted for `mode` (no restore; see precision_mode)."""
    check_mode(mode)
    backends = torch.backends
    backends.cudnn.benchmark = cudnn_benchmark
    backends.cudnn.deterministic = False
    backends.cudnn.enabled = True
    torch.use_deterministic_algorithms(False)
    for path in _FP32_PRECISION_PARENTS:
        if _has(path):
            owner, attribute = _resolve(path)
            if getattr(owner, attribute) != "none":
                setattr(owner, attribute, "none")
    backends.cudnn.allow_tf32 = conv_tf32_allowed(mode)
    if _read_safely(torch.get_float32_matmul_precision) != "highest":
        torch.set_float32_matmul_precision("highest")


@contextlib.contextmanager
def preserved_global_state() -> Iterator[None]:
    """Restore every flag, the grad mode and the current CUDA stream on exit, whatever the block did."""
    saved_flags = _restorable_flags()
    saved_grad_enabled = torch.is_grad_enabled()
    saved_stream = torch.cuda.current_stream() if torch.cuda.is_available() else None
    try:
        yield
    finally:
        _restore_flags(saved_flags)
        torch.set_grad_enabled(saved_grad_enabled)
        if saved_stream is not None:
            torch.cuda.set_stream(saved_stream)


@contextlib.contextmanager
def precision_mode(mode: str, cudnn_benchmark: bool = False) -> Iterator[None]:
    """Run a block with the global flags of `mode`; restore every flag afterwards, even on error."""
    check_mode(mode)
    with preserved_global_state():
        apply_precision_flags(mode, cudnn_benchmark=cudnn_benchmark)
        yield


# ---------------------------------------------------------------------------------------------
# Whole-process state, to catch a solution that changes it


def _current_cuda_stream() -> Optional[Dict[str, int]]:
    if not torch.cuda.is_available():
        return None
    stream = torch.cuda.current_stream()
    return {
        "device": torch.cuda.current_device(),
        "stream_id": int(stream.stream_id),
        "cuda_stream": int(stream.cuda_stream),
    }


def snapshot_global_state() -> Dict[str, Any]:
    """All flags a solution must leave alone, the current CUDA stream, grad and autocast modes."""
    state = _restorable_flags()
    state["default_dtype"] = str(state["default_dtype"])
    state["grad_enabled"] = torch.is_grad_enabled()
    state["inference_mode"] = torch.is_inference_mode_enabled()
    state["autocast_cpu"] = _autocast_enabled("cpu")
    state["cuda_stream"] = _current_cuda_stream()
    if torch.cuda.is_available():
        state["autocast_cuda"] = _autocast_enabled("cuda")
    return state


def _autocast_enabled(device_type: str) -> bool:
    try:
        return torch.is_autocast_enabled(device_type)
    except TypeError:  # torch < 2.4 has no device argument
        return torch.is_autocast_cpu_enabled() if device_type == "cpu" else torch.is_autocast_enabled()


def global_state_differences(before: Dict[str, Any], after: Dict[str, Any]) -> List[str]:
    """'key: before -> after' for every entry that changed between two snapshots."""
    keys = sorted(set(before) | set(after))
    return [
        f"{key}: {before.get(key, '<absent>')!r} -> {after.get(key, '<absent>')!r}"
        for key in keys
        if before.get(key, "<absent>") != after.get(key, "<absent>")
    ]
