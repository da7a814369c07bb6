"""Accuracy metric and the pass/fail rules of the precision contract (DESIGN.md section 3).

Every tensor of a solution (output, input gradients, parameter gradients) is compared with a float64
reference computed from the same (already rounded to the mode's dtype) inputs and parameters.

Error metric, per element ("scaled error"):

    e_i(a) = |a_i - ref_i| / (|ref_i| + rms(ref)),    error(a) = max_i e_i(a)

It is a relative error for large elements and an error relative to the tensor's typical magnitude
for elements near zero. Rounding errors of a sum of products scale with the magnitude of the terms,
not with the (possibly cancelled) result, so a pure relative error would blow up on the near-zero
elements that every randn trial produces, while a pure absolute error would not be comparable across
tensors. A zero reference tensor falls back to the absolute error.

Rules:
  fp32 (exact): allclose(a, ref, atol=1e-4 * max(1, rms(ref)), rtol=1e-4) on every element, i.e.
      DESIGN's allclose(atol=rtol=1e-4) with the absolute tolerance scaled up for tensors whose
      typical magnitude exceeds 1: a weight gradient summed over 10^5-10^6 positions has values of
      10^3 and more, where a near-zero element carries an absolute fp32 rounding error above 1e-4 in
      any exact computation (cuDNN's included). TF32 or half operands still miss it by 5x and more.
      Where the original Model itself misses that bound (measured on KernelBench L2-61: GroupNorm's
      fp32 reductions put a coherent error on the conv weight gradient, 2% of its elements over the
      bound, worst 30x), the bound becomes 2x the original's own |diff|/tol, judged like the
      relative rule below (maximum, bulk quantiles, outliers).
  tf32, fp16, bf16 (relative rule): error(solution) <= 2 * error(baseline) + floor, where the
      baseline is the original Model run in the same precision (and, in tf32 mode, also an ideal
      TF32 computation: float64 on inputs, parameters and grad_output rounded to TF32, since the
      contract allows TF32 whichever algorithm cuDNN happens to pick), and floor = half the machine
      epsilon of the compute dtype (the error of rounding the exact result once to that dtype), so
      that a bit-exact original does not demand a zero error. A floor much above that would let
      e.g. bf16 accumulation (several roundings) pass beside a fp32-accumulating original.
  Bulk (both rules): the same limits (2x the baseline's, at least the exact bound in fp32 mode)
      also apply to the median and the 99th percentile of the per-element errors, so a widespread
      error cannot hide behind a baseline whose maximum is one large outlier.
  Outliers (both rules): across a discontinuity (a ReLU before a normalisation, say) an element whose
      pre-activation lies within rounding error of the kink gets a different gradient in every
      honest computation, so errors there are isolated outliers far above the bulk, and which
      elements they hit, and how high, is chance. When the baseline's errors have such a heavy
      tail (elements above 4x its 99th percentile; rounding errors stay below ~2.5x even over 10^9
      elements), the solution may break the bound on at most as many elements as the baseline has
      outliers, each at most 10x the baseline's largest error (in fp32 mode the baseline is the
      original Model and the bound the allclose tolerance). Without outliers in the baseline
      (every pure convolution problem) the bound is strict, so a single wrong element fails.
  Pooling: a baseline's errors vary from run to run, widely so downstream of reductions and
      discontinuities (L2-61 in fp32 mode: the original's worst |diff|/tol on the conv weight
      gradient ranged from 5x to 125x across trials), so verify judges every run of a tensor
      against the worst baseline statistics over all runs of the same check (`pool_baselines`).
  NaN or Inf anywhere in the solution's tensor fails.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence, Tuple

import torch

FP32_EXACT_ATOL = 1e-4
FP32_EXACT_RTOL = 1e-4
RELATIVE_RULE_FACTOR = 2.0
BULK_QUANTILES = (0.5, 0.99)
# Errors above this multiple of the 99th percentile are outliers (a heavy tail).
TAIL_RATIO = 4.0
# How far above the original's largest error a solution's outlier may reach.
OUTLIER_MAGNITUDE_FACTOR = 10.0
# torch.quantile takes at most 2**24 elements; larger tensors are sampled with an even stride.
_QUANTILE_SAMPLE_LIMIT = 1 << 24
# How many of a solution tensor's largest errors are kept for counting those over a pooled limit.
TOP_ERRORS = 1 << 16

# Machine epsilon of the dtype each mode computes in (TF32 mode's tensors are fp32).
_EPSILON = {
    "tf32": torch.finfo(torch.float32).eps,
    "fp32": torch.finfo(torch.float32).eps,
    "fp16": torch.finfo(torch.float16).eps,
    "bf16": torch.finfo(torch.bfloat16).eps,
}


def error_floor(mode: str) -> float:
    return 0.5 * _EPSILON[mode]


@dataclass
class Comparison:
    """Outcome of comparing one tensor of the solution with the float64 reference."""

    ok: bool
    error: float  # the solution's error in the rule's metric
    limit: float  # the largest error the rule accepts
    message: str

    @property
    def margin(self) -> float:
        """error / limit: below 1 passes; used to report the tightest comparison."""
        if self.limit == 0:
            return 0.0 if self.error == 0 else float("inf")
        return self.error / self.limit


def _as_float64(tensor: torch.Tensor) -> torch.Tensor:
    return tensor.detach().to(torch.float64)


def scaled_errors(candidate: torch.Tensor, reference: torch.Tensor) -> torch.Tensor:
    """Per-element |a_i - ref_i| / (|ref_i| + rms(ref)) in float64, flattened; inf where `a` is NaN/Inf."""
    a = _as_float64(candidate).flatten()
    ref = _as_float64(reference).to(a.device).flatten()
    rms = ref.square().mean().sqrt() if ref.numel() else ref.new_zeros(())
    scale = torch.where(rms > 0, rms, torch.ones_like(rms))
    errors = (a - ref).abs() / (ref.abs() + scale)
    return torch.where(torch.isfinite(a), errors, torch.full_like(errors, float("inf")))


def scaled_error(candidate: torch.Tensor, reference: torch.Tensor) -> float:
    """max_i of `scaled_errors`; 0 for empty tensors."""
    errors = scaled_errors(candidate, reference)
    return float(errors.max()) if errors.numel() else 0.0


def fp32_violations(candidate: torch.Tensor, reference: torch.Tensor) -> torch.Tensor:
    """Per-element |a_i - ref_i| / (atol + rtol * |ref_i|), atol = 1e-4 * max(1, rms(ref)); flattened.

    At most 1 everywhere means the fp32-exact bound holds; inf where `a` is NaN/Inf.
    """
    a = _as_float64(candidate).flatten()
    ref = _as_float64(reference).to(a.device).flatten()
    rms = ref.square().mean().sqrt() if ref.numel() else ref.new_zeros(())
    atol = FP32_EXACT_ATOL * torch.clamp(rms, min=1.0)
    violations = (a - ref).abs() / (atol + FP32_EXACT_RTOL * ref.abs())
    return torch.where(torch.isfinite(a), violations, torch.full_like(violations, float("inf")))


def _worst_element(candidate: torch.Tensor, reference: torch.Tensor) -> str:
    """Where the candidate is furthest off (non-finite first), for failure messages."""
    a = _as_float64(candidate)
    ref = _as_float64(reference).to(a.device)
    non_finite = ~torch.isfinite(a)
    if non_finite.any():
        flat_index = int(non_finite.flatten().nonzero()[0])
        count = int(non_finite.sum())
        prefix = f"{count} of {a.numel()} elements are NaN/Inf; first"
    else:
        flat_index = int((a - ref).abs().flatten().argmax())
        prefix = "worst"
    index = [int(i) for i in torch.unravel_index(torch.tensor(flat_index), a.shape)]
    got, expected = a.flatten()[flat_index].item(), ref.flatten()[flat_index].item()
    return f"{prefix} at {index}: got {got:.6g}, reference {expected:.6g}"


@dataclass
class ErrorStats:
    """What the rules need from one tensor's per-element errors (in its rule's units)."""

    maximum: float
    quantiles: Tuple[float, ...]  # at BULK_QUANTILES
    outliers: int  # elements above TAIL_RATIO x the 99th percentile + floor


@dataclass
class Measurement:
    """One run's errors of a solution tensor and of its baseline, to be judged once all runs are in.

    `failure` is set when the tensor fails outright (shape, NaN/Inf) whatever the baseline.
    """

    mode: str
    candidate: Optional[ErrorStats] = None
    candidate_top: Optional[torch.Tensor] = None  # its TOP_ERRORS largest errors, descending, on the CPU
    candidate_numel: int = 0
    baseline: Optional[ErrorStats] = None
    baseline_name: str = ""
    worst: str = ""
    failure: Optional[str] = None


def _quantiles(errors: torch.Tensor, levels) -> torch.Tensor:
    """Quantiles of per-element errors (of an evenly strided sample of huge tensors)."""
    stride = -(-errors.numel() // _QUANTILE_SAMPLE_LIMIT)
    sample = errors[::stride] if stride > 1 else errors
    return torch.quantile(sample, torch.tensor(levels, dtype=sample.dtype, device=sample.device))


def _error_stats(errors: torch.Tensor, floor: float) -> ErrorStats:
    quantiles = _quantiles(errors, BULK_QUANTILES + (0.99,)).tolist()
    return ErrorStats(
        maximum=float(errors.max()),
        quantiles=tuple(quantiles[: len(BULK_QUANTILES)]),
        outliers=int((errors > TAIL_RATIO * quantiles[-1] + floor).sum()),
    )


def pool_baselines(stats: Sequence[ErrorStats]) -> ErrorStats:
    """The worst of several runs' baseline statistics: a baseline's error varies from run to run
    (which rounding lands where), most of all downstream of reductions and discontinuities."""
    return ErrorStats(
        maximum=max(s.maximum for s in stats),
        quantiles=tuple(max(values) for values in zip(*(s.quantiles for s in stats))),
        outliers=max(s.outliers for s in stats),
    )


def _rule_floor(mode: str) -> float:
    # fp32 mode measures |diff|/tol, where 1 is the exact bound itself; no floor needed there.
    return 0.0 if mode == "fp32" else error_floor(mode)


def measure(
    candidate: torch.Tensor,
    original: torch.Tensor,
    reference: torch.Tensor,
    mode: str,
    ideal_tf32: Optional[torch.Tensor] = None,
) -> Measurement:
    """Errors of the solution's tensor and of the baseline against the float64 reference, in the
    units of `mode`'s rule: |diff|/tol of the exact bound in fp32 mode, scaled errors otherwise.

    `original` is the original Model's tensor in the same precision; `ideal_tf32` (tf32 mode only)
    is the float64 result on TF32-rounded operands, which joins the baseline.
    """
    if tuple(candidate.shape) != tuple(reference.shape):
        return Measurement(mode, failure=f"shape {tuple(candidate.shape)} != expected {tuple(reference.shape)}")
    if candidate.numel() == 0:
        return Measurement(mode)
    if not torch.isfinite(candidate.detach()).all():
        return Measurement(mode, failure=_worst_element(candidate, reference))
    floor = _rule_floor(mode)
    if mode == "fp32":
        candidate_errors = fp32_violations(candidate, reference)
        baseline_errors, baseline_name = fp32_violations(original, reference), "original Model"
    else:
        candidate_errors = scaled_errors(candidate, reference)
        baseline_errors, baseline_name = scaled_errors(original, reference), "original Model"
        if ideal_tf32 is not None:
            ideal_errors = scaled_errors(ideal_tf32, reference)
            if ideal_errors.max() > baseline_errors.max():
                baseline_name = "ideal TF32"
            baseline_errors = torch.maximum(baseline_errors, ideal_errors)
    return Measurement(
        mode,
        candidate=_error_stats(candidate_errors, floor),
        candidate_top=torch.topk(candidate_errors, min(TOP_ERRORS, candidate_errors.numel())).values.cpu(),
        candidate_numel=candidate_errors.numel(),
        baseline=_error_stats(baseline_errors, floor),
        baseline_name=baseline_name,
        worst=_worst_element(candidate, reference),
    )


def judge(measurement: Measurement, baseline: Optional[ErrorStats] = None) -> Comparison:
    """Apply `measurement.mode`'s rule, against `baseline` (e.g. pooled over runs) or the run's own."""
    if measurement.failure:
        return Comparison(False, float("inf"), 0.0, measurement.failure)
    candidate = measurement.candidate
    if candidate is None:
        return Comparison(True, 0.0, 0.0, "empty tensor")
    baseline = baseline or measurement.baseline
    exact = measurement.mode == "fp32"
    floor = _rule_floor(measurement.mode)
    minimum = 1.0 if exact else 0.0  # fp32: never stricter than the exact bound itself
    factor = RELATIVE_RULE_FACTOR
    limit = max(minimum, factor * baseline.maximum) + floor
    error = candidate.maximum
    if exact:
        summary = f"|diff|/tol = {error:.3g} (allclose, atol = 1e-4 x max(1, rms), rtol = 1e-4)"
        if limit > 1.0:
            summary += f"; the original Model misses it too ({baseline.maximum:.3g}x): limit {limit:.3g}"
    else:
        summary = (
            f"scaled error {error:.3g} vs limit {limit:.3g} "
            f"({factor:g} x {measurement.baseline_name} {baseline.maximum:.3g} + floor)"
        )

    # The bulk first: a widespread error must not hide behind a baseline whose maximum is an outlier.
    bulk_limits = [max(minimum, factor * q) + floor for q in baseline.quantiles]
    if any(got > allowed for got, allowed in zip(candidate.quantiles, bulk_limits)):
        levels = "/".join(f"{q:g}" for q in BULK_QUANTILES)
        got = "/".join(f"{v:.3g}" for v in candidate.quantiles)
        allowed = "/".join(f"{v:.3g}" for v in bulk_limits)
        return Comparison(False, error, limit, f"{summary}; bulk (quantiles {levels}) {got} over limits {allowed}; {measurement.worst}")
    if error <= limit:
        return Comparison(True, error, limit, summary)

    # Outliers: a heavy-tailed baseline means which elements go far off, and how far, is chance.
    top = measurement.candidate_top
    over = int((top > limit).sum())
    over_is_exact = over < top.numel() or top.numel() == measurement.candidate_numel
    outlier_limit = OUTLIER_MAGNITUDE_FACTOR * baseline.maximum
    if baseline.outliers and over_is_exact and over <= baseline.outliers and error <= outlier_limit:
        return Comparison(
            True, error, outlier_limit,
            f"{summary}; over on {over} element(s), within the {baseline.outliers} outlier(s) of the baseline "
            f"(a discontinuity or a reduction downstream; each <= {OUTLIER_MAGNITUDE_FACTOR:g}x its largest error)",
        )
    over_text = f"{over}" if over_is_exact else f"{over}+"
    return Comparison(False, error, limit, f"{summary}; over on {over_text} element(s); {measurement.worst}")


def compare_to_reference(
    candidate: torch.Tensor,
    original: torch.Tensor,
    reference: torch.Tensor,
    mode: str,
    ideal_tf32: Optional[torch.Tensor] = None,
) -> Comparison:
    """Judge one run on its own (its own baseline): `judge(measure(...))`."""
    return judge(measure(candidate, original, reference, mode, ideal_tf32))


def round_to_tf32(tensor: torch.Tensor, saturate: bool = False) -> torch.Tensor:
    """Round fp32 values to TF32 (10 explicit mantissa bits), to nearest, ties away from zero.

    Tensor cores read TF32 operands this way (cuBLAS/cuDNN round to nearest); other dtypes pass through. saturate:
    a value that would round past the largest float is truncated instead (the exact split's big part, whose remainder
    must stay finite); otherwise it becomes inf, as a rounding read does.
    """
    if tensor.dtype != torch.float32:
        return tensor
    bits = tensor.detach().contiguous().view(torch.int32)
    dropped_mantissa_bits = 13
    half = 1 << (dropped_mantissa_bits - 1)
    mask = ~((1 << dropped_mantissa_bits) - 1)
    rounded = (bits + half) & mask
    if saturate:
        exponent = 0x7F800000
        rounded = torch.where((rounded & exponent) == exponent, bits & mask, rounded)
    # Inf/NaN must not be rounded into other encodings.
    return torch.where(torch.isfinite(tensor), rounded.view(torch.float32), tensor.detach())
