"""Timing of one callable: warm-up, then one event pair per run, median and p20/p80 (DESIGN.md section 5).

On CUDA every run is bracketed by its own pair of CUDA events on the current stream. Before each run
(outside the timed region) `before_each` runs (e.g. resetting gradients) and the L2 cache is flushed
by overwriting a buffer larger than L2, so a small problem is not timed from a warm cache and the
flush kernel gives the CPU a head start on the launches of the timed region. The device is
synchronised before the first and after the last run; not between runs.
"""

from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass
from typing import Callable, Dict, List, Optional, Tuple

import torch

# Larger than the L2 of any current GPU (H100/H200: 50 MB).
L2_FLUSH_BYTES = 256 << 20


# A CUDA timing whose host took at least this share of the GPU's median to issue a run (before_each, flush, events
# and the call) followed the host: the queue ran dry between launches and the events timed the gaps. Runs 490-493
# (H200, channels-last bf16 fwd+bwd, sub-millisecond rows): the same code timed VAE 0.65-0.90 ms and U-Net 3D
# 0.44-0.80 ms as the machine's host per run moved between 0.33 and 0.9 ms.
HOST_BOUND_FRACTION = 0.9


@dataclass
class TimingStats:
    median_ms: float
    p20_ms: float
    p80_ms: float
    runs: int
    # CUDA timings: the median host ms the loop took to issue one timed run (None on CPU, where the time is the host's)
    host_ms: Optional[float] = None

    @classmethod
    def from_samples(cls, samples_ms: List[float], host_samples_ms: Optional[List[float]] = None) -> "TimingStats":
        if not samples_ms:
            raise ValueError("no timing samples")
        ordered = sorted(samples_ms)
        return cls(
            median_ms=percentile(ordered, 50),
            p20_ms=percentile(ordered, 20),
            p80_ms=percentile(ordered, 80),
            runs=len(ordered),
            host_ms=percentile(sorted(host_samples_ms), 50) if host_samples_ms else None,
        )

    @property
    def host_bound(self) -> bool:
        """Whether the timing followed the host (HOST_BOUND_FRACTION): its median is then an upper bound of the GPU's
        time, set by how fast this machine's CPU issued the calls."""
        return self.host_ms is not None and self.host_ms >= HOST_BOUND_FRACTION * self.median_ms

    def to_dict(self) -> Dict[str, float]:
        return asdict(self)


def percentile(ordered: List[float], q: float) -> float:
    """q-th percentile of sorted values, linear interpolation between closest ranks."""
    if len(ordered) == 1:
        return ordered[0]
    position = (len(ordered) - 1) * q / 100.0
    lower = math.floor(position)
    upper = min(lower + 1, len(ordered) - 1)
    fraction = position - lower
    return ordered[lower] * (1.0 - fraction) + ordered[upper] * fraction


class _L2Flusher:
    def __init__(self, device: torch.device) -> None:
        self.buffer = torch.empty(L2_FLUSH_BYTES // 4, dtype=torch.int32, device=device)

    def __call__(self) -> None:
        self.buffer.zero_()


def time_cuda(
    run: Callable[[], object],
    runs: int,
    warmup: int,
    before_each: Optional[Callable[[], None]] = None,
    flush_l2: bool = True,
    trace: Optional[List[Tuple[float, float]]] = None,
) -> TimingStats:
    """Median/p20/p80 milliseconds of `run` on the current CUDA device, one event pair per run. trace, where given,
    gets (host ms, GPU ms) per timed run in order: the host's time to issue the run (before_each, flush, events and
    the call) beside its events' time. Where the first approaches the second, the events time launch gaps
    (scripts/bench_host_trace.py)."""
    if runs < 1:
        raise ValueError("runs must be at least 1")
    flush = _L2Flusher(torch.device("cuda", torch.cuda.current_device())) if flush_l2 else None
    for _ in range(warmup):
        if before_each is not None:
            before_each()
        run()
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(runs)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(runs)]
    host_ms = []
    torch.cuda.synchronize()
    for start, end in zip(starts, ends):
        begin = time.perf_counter()
        if before_each is not None:
            before_each()
        if flush is not None:
            flush()
        start.record()
        run()
        end.record()
        host_ms.append((time.perf_counter() - begin) * 1e3)
    torch.cuda.synchronize()
    gpu_ms = [start.elapsed_time(end) for start, end in zip(starts, ends)]
    if trace is not None:
        trace.extend(zip(host_ms, gpu_ms))
    return TimingStats.from_samples(gpu_ms, host_ms)


def time_cpu(
    run: Callable[[], object],
    runs: int,
    warmup: int,
    before_each: Optional[Callable[[], None]] = None,
) -> TimingStats:
    """Wall-clock counterpart of `time_cuda` for CPU execution (used by tests without a GPU)."""
    if runs < 1:
        raise ValueError("runs must be at least 1")
    for _ in range(warmup):
        if before_each is not None:
            before_each()
        run()
    samples = []
    for _ in range(runs):
        if before_each is not None:
            before_each()
        start = time.perf_counter()
        run()
        samples.append((time.perf_counter() - start) * 1e3)
    return TimingStats.from_samples(samples)


def time_on(
    device: torch.device,
    run: Callable[[], object],
    runs: int,
    warmup: int,
    before_each: Optional[Callable[[], None]] = None,
) -> TimingStats:
    if torch.device(device).type == "cuda":
        return time_cuda(run, runs, warmup, before_each)
    return time_cpu(run, runs, warmup, before_each)
