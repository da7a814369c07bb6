"""Opt-in autotune of tconv's kernel choice, per call signature (like torch.backends.cudnn.benchmark).

Off by default: the C++ heuristic ("auto") picks the kernels. When on (`tconv.set_autotune(True)`, the
`tconv.autotune()` context manager, or TCONV_AUTOTUNE=1 in the environment), the first call of each
signature (op, device, dtype, TF32 mode, every tensor's sizes and strides, stride/padding/dilation/groups,
bias or not) runs every candidate algorithm that supports the call, keeps the fastest, and caches it; later
calls with that signature run the winner directly.

What a user should know:
- Tuning synchronises the current stream (CUDA events) and costs a few runs of each candidate, once per
  signature; candidates whose first two runs are both far slower than the best so far are not timed further.
- Each candidate's result is compared with the heuristic's result before it is timed; one that disagrees
  beyond the precision mode's tolerance is refused with a warning (that would be a tconv bug), so a broken
  kernel cannot win on speed.
- While tuning, one extra tensor the size of the op's result exists (the heuristic's result, kept for the
  comparison).
- Candidates keep tconv's memory contract: one that allocates more during its run than the heuristic does and
  more than a tenth of the transposed convolution's output (grad_weight: or its own size, as the heuristic's
  split-K budget) is refused. The forced gather forms copy without the heuristic's budget (run 371: "igemm_tma" ran
  DCGAN's TF32 grad_input on a channels-last copy of twice the output's bytes); the count is the caching
  allocator's own allocated-bytes counter, read before and after the candidate's first run.
- Under CUDA graph capture nothing is tuned: a cached winner is used, otherwise the heuristic.
- A forced algorithm (tconv._ops.use_algorithm) takes precedence over the autotune.
- Like cudnn.benchmark, the winner may differ between processes when two candidates run equally fast; all
  candidates meet the same precision contract, but their rounding differs in the last bits.
"""
import os
import statistics
import threading
import warnings
from dataclasses import dataclass, field
from typing import Callable, Dict, Hashable, Optional, Sequence, Tuple

import torch

# Candidates per op, the heuristic first (it is the baseline the others are checked against). The
# igemm_* variants are listed only where they can differ: grad_weight has no window and no phase split (and
# folds under "auto" wherever "igemm_fold" would), grad_input does not fold. "igemm_strip" (the strip and unit-stride
# kernels; where they cannot run, the forward and grad_weight fall back to the gathers and grad_input refuses) was
# missing until session 59: run 318's autotune never timed fam04's unit-stride forward, which run 367 measured at
# 2.36 ms against the 3.18 of the gather "auto" ran.
CANDIDATES = {
    "forward": ("auto", "igemm", "igemm_mma", "igemm_window", "igemm_nowindow", "igemm_fold", "igemm_nofold",
                "igemm_tma", "igemm_strip", "grouped", "grouped_mma", "unit_stride_mma", "direct"),
    "grad_input": ("auto", "igemm", "igemm_mma", "igemm_window", "igemm_nowindow", "igemm_phase_split", "igemm_tma",
                   "igemm_strip", "grouped", "grouped_mma", "unit_stride_mma", "direct"),
    "grad_weight": ("auto", "igemm", "igemm_mma", "igemm_nofold", "igemm_strip", "grouped", "grouped_mma",
                    "unit_stride_mma", "direct"),
}
# The direct (FFMA gather) kernels are the reference path: hundreds of milliseconds on the suite's GEMM
# shapes (L1-68 bf16 forward took 418 ms there, logs/run12-quick_half.log), so they are timed only on
# problems small enough that their warm-up run costs little.
DIRECT_MAX_FLOPS = 2e9
REPEATS = 5
# A candidate whose warm-up run is this many times slower than the best median so far is not timed further.
GIVE_UP_RATIO = 4.0
# Normalised max error (max |x - ref| / max |ref|) allowed between a candidate and the heuristic's result:
# TF32 and 16-bit modes round operands (two different TF32 summations differ by ~1e-3 at worst on
# the test shapes); exact fp32/fp64 agree to fp32 rounding. A wrong kernel is off by O(1) or NaN.
TOLERANCE_ROUNDED = 3e-2
TOLERANCE_EXACT = 1e-4

_lock = threading.Lock()
_enabled = os.environ.get("TCONV_AUTOTUNE", "0") == "1"


@dataclass
class Tuning:
    """One signature's outcome: the winner, each timed candidate's median ms, and why others were not timed."""
    winner: str
    times_ms: Dict[str, float] = field(default_factory=dict)
    refused: Dict[str, str] = field(default_factory=dict)


_cache: Dict[Hashable, Tuning] = {}


def set_autotune(enabled: bool) -> None:
    """Turns tconv's autotune on or off for this process (tconv's own flag; torch's are never touched)."""
    global _enabled
    _enabled = bool(enabled)


def autotune_enabled() -> bool:
    return _enabled


class autotune:
    """Context manager: autotune on (or off) inside the block, the previous setting restored after."""

    def __init__(self, enabled: bool = True):
        self.enabled = bool(enabled)

    def __enter__(self):
        self.previous = _enabled
        set_autotune(self.enabled)
        return self

    def __exit__(self, *exc):
        set_autotune(self.previous)
        return False


def autotune_cache() -> Dict[Hashable, Tuning]:
    """A copy of the decisions so far (signature -> Tuning)."""
    with _lock:
        return dict(_cache)


def clear_autotune_cache() -> None:
    with _lock:
        _cache.clear()


def signature(op: str, tensors: Sequence[Optional[torch.Tensor]], *args) -> Tuple:
    """What decides a kernel's speed and support: the op, device, dtype, every tensor's sizes and strides
    (so contiguous and channels_last tune separately), the scalar arguments and the TF32 mode (in args)."""
    described = tuple(None if t is None else (tuple(t.shape), tuple(t.stride())) for t in tensors)
    first = next(t for t in tensors if t is not None)
    return (op, str(first.device), str(first.dtype), described) + tuple(
        tuple(a) if isinstance(a, (list, tuple)) else a for a in args)


def normalised_error(x: torch.Tensor, ref: torch.Tensor) -> float:
    """max |x - ref| / max |ref| over the finite elements of ref; non-finite elements (an fp16 overflow
    in every candidate, NaN inputs) must be the same non-finite value in x, else the error is inf."""
    if x.numel() == 0:
        return 0.0
    x, ref = x.double(), ref.double()
    finite = torch.isfinite(ref)
    if not bool(finite.all()):
        same = (x == ref) | (torch.isnan(x) & torch.isnan(ref))
        if not bool((same | finite).all()):
            return float("inf")
        x, ref = x[finite], ref[finite]
        if x.numel() == 0:
            return 0.0
    if not bool(torch.isfinite(x).all()):
        return float("inf")
    scale = ref.abs().max().item()
    return (x - ref).abs().max().item() / (scale if scale > 0 else 1.0)


def cuda_median_ms(launch: Callable[[], None], repeats: int = REPEATS) -> float:
    """Median of `repeats` runs, each between CUDA events on the current stream (synchronises at the end)."""
    stream = torch.cuda.current_stream()
    events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(repeats)]
    for start, end in events:
        start.record(stream)
        launch()
        end.record(stream)
    events[-1][1].synchronize()
    return statistics.median(start.elapsed_time(end) for start, end in events)


def allocated_bytes_counter(device: torch.device) -> Callable[[], int]:
    """The bytes the caching allocator has handed out on `device` so far (a running total that only grows; reading
    it changes no state); 0 off CUDA."""
    if device.type != "cuda":
        return lambda: 0
    try:  # a pluggable allocator may keep no statistics: then nothing is counted (and nothing refused for memory)
        torch.cuda.memory_stats(device)
    except (RuntimeError, AttributeError):
        return lambda: 0
    return lambda: torch.cuda.memory_stats(device).get("allocated_bytes.all.allocated", 0)


def tune(candidates: Sequence[str], launch: Callable[[str], None], result: torch.Tensor, tolerance: float,
         measure: Callable[[Callable[[], None], int], float], memory_bytes: Optional[int] = None,
         allocated: Optional[Callable[[], int]] = None) -> Tuning:
    """Runs each candidate (launch(name) writes `result`; a RuntimeError means it cannot run this call),
    checks it against the first candidate's result and its allocations against max(memory_bytes, what the first
    candidate allocates) (allocated(): a running count of bytes allocated; memory_bytes None: no bound), times the
    ones that pass with measure(fn, repeats) and leaves `result` holding the winner's output."""
    allocated = allocated or allocated_bytes_counter(result.device)

    def launch_counted(name: str, used: list) -> None:
        before = allocated()
        launch(name)
        used.append(allocated() - before)

    baseline = candidates[0]
    baseline_used = []
    launch_counted(baseline, baseline_used)
    allowed = None if memory_bytes is None else max(memory_bytes, baseline_used[0])
    reference = result.detach().clone()
    tuning = Tuning(winner=baseline)
    tuning.times_ms[baseline] = measure(lambda: launch(baseline), REPEATS)
    last = baseline
    for name in candidates[1:]:
        result.fill_(float("nan"))  # an element the candidate leaves unwritten fails the comparison
        used = []
        try:
            warm_ms = measure(lambda: launch_counted(name, used), 1)  # also the support check
        except RuntimeError as err:
            tuning.refused[name] = str(err).splitlines()[0] if str(err) else type(err).__name__
            launch(last)  # the refusal comes before any launch, but the result was poisoned above
            continue
        last = name
        if allowed is not None and max(used, default=0) > allowed:
            tuning.refused[name] = (f"allocates {max(used) / 2**20:.3g} MiB in a run, over the "
                                    f"{allowed / 2**20:.3g} MiB tconv's memory contract allows here")
            continue
        error = normalised_error(result, reference)
        if not error <= tolerance:
            tuning.refused[name] = f"result differs from {baseline}'s by {error:.3g} (tolerance {tolerance:g})"
            warnings.warn(f"tconv autotune: algorithm {name!r} {tuning.refused[name]}; not used. Please report "
                          "this: every algorithm should meet the same precision contract.", RuntimeWarning)
            continue
        if warm_ms > GIVE_UP_RATIO * min(tuning.times_ms.values()):
            # A first run can carry one-time costs (lazy module loading, the allocator growing): run 371 gave up on
            # L1-68's TF32 forward under "igemm" (the heuristic's own kernel, 4.7 ms) after a first run of 85.6 ms.
            warm_ms = min(warm_ms, measure(lambda: launch(name), 1))
        if warm_ms > GIVE_UP_RATIO * min(tuning.times_ms.values()):
            tuning.refused[name] = f"first runs {warm_ms:.3g} ms, over {GIVE_UP_RATIO:g}x the best"
            continue
        tuning.times_ms[name] = measure(lambda: launch(name), REPEATS)
    tuning.winner = min(tuning.times_ms, key=tuning.times_ms.get)
    if tuning.winner != last:
        launch(tuning.winner)
    return tuning


def run(op: str, key: Hashable, candidates: Sequence[str], launch: Callable[[str], None], result: torch.Tensor,
        exact: bool, capturing: bool, measure: Optional[Callable[[Callable[[], None], int], float]] = None,
        memory_bytes: Optional[int] = None) -> str:
    """Runs the op: with autotune off (or an empty result) through the heuristic (candidates[0]); with it on,
    through the cached winner for `key`, tuning first on a miss unless the stream is being captured (memory_bytes:
    what a candidate may allocate in a run beyond what the heuristic does, tune's bound). Returns the algorithm that
    produced `result`."""
    if not _enabled or result.numel() == 0:
        launch(candidates[0])
        return candidates[0]
    with _lock:
        cached = _cache.get(key)
    if cached is not None:
        launch(cached.winner)
        return cached.winner
    if capturing:
        launch(candidates[0])
        return candidates[0]
    tuning = tune(candidates, launch, result, TOLERANCE_EXACT if exact else TOLERANCE_ROUNDED,
                  measure if measure is not None else cuda_median_ms, memory_bytes)
    with _lock:
        _cache[key] = tuning
    return tuning.winner


def candidates_for(op: str, flops: float, phase_split_possible: bool = False,
                   fold_possible: bool = False) -> Tuple[str, ...]:
    """fold_possible: the call has a W stride > 1 (elsewhere igemm_fold / igemm_nofold run what igemm runs)."""
    names = CANDIDATES[op]
    if flops > DIRECT_MAX_FLOPS:
        names = tuple(n for n in names if n != "direct")
    if not phase_split_possible:
        names = tuple(n for n in names if n != "igemm_phase_split")
    if not fold_possible:
        names = tuple(n for n in names if n not in ("igemm_fold", "igemm_nofold"))
    return names
