"""Benchmark verified solutions against PyTorch's baselines on a CUDA GPU.

    tconv bench [PROBLEM ...|--suite core|family|real|all|blocks] [--precision tf32 fp32 bf16 ...]
                [--layout contiguous|channels_last] [--compile|--no-compile] [--runs 30] [--warmup 5] [--out DIR]
                [--peak NAME=VALUE ...] [--autotune] [--time-budget SECONDS] [--resume FILE]

PROBLEM is a problem file or a stem under `<repo>/problems/`; its solution is `<repo>/solutions/<stem>.py`.

For every problem and precision:
  1. `verify` (2 trials). A solution that fails gets `verified: false` and no tconv timings or
     speedups (tconv_* fields null); the baselines are still timed.
  2. On the same inputs, the forward and forward+backward of: the Model in eager mode with torch's
     default flags, the Model with `torch.backends.cudnn.benchmark = True` (warm-up lets cuDNN pick
     its algorithms), `torch.compile(Model)` (default: on for the core suite only) and ModelNew. The
     mode's global flags are re-applied before every measurement. All run in this process except
     the cudnn.benchmark baseline, which runs in a fresh child process with the same seeds (same
     weights, inputs, grad_output): cuDNN's plan cache ignores the flag, so in this process it
     would reuse the plans eager mode already picked (baseline_worker.py).
     - forward: under torch.no_grad() (inference), inputs not requiring grad.
     - forward+backward: inputs require grad; backward with one fixed random grad_output; gradients
       of the inputs and all parameters are set to None before each run, outside the timed region.
     - timing.py: CUDA event pair per run, warm-up, L2 flush, median and p20/p80.
  3. FLOPs/bytes/floor from roofline.py (transposed convolutions only).

--layout channels_last runs all of it (verify included) on inputs whose 4-D and 5-D tensors are in channels-last
memory format, with grad_outputs laid out as their outputs; every variant gets the same tensors (the models' weights
stay as constructed). A row says which layout it ran ("contiguous" where the problem has no 4-D or 5-D input), and a
results file holds one layout (env "layout", absent for contiguous runs; resuming and `tconv summary` keep layouts
apart).

Output: a table on the terminal, `benchmarks/results/bench_<YYYYmmdd-HHMMSS>_<gpu>.json` and a PNG
chart next to it. Exit code: 0 when every solution verified and ran, 1 otherwise, 2 on usage errors
or without a CUDA GPU, 3 when --time-budget stopped the run before every row was measured.

A suite larger than one sitting (all 22 shapes in three precisions take ~30 minutes on an H200):
`--time-budget` starts no new row after that many seconds (the rows so far are in the JSON, marked
incomplete), and `--resume FILE` continues that file: rows it holds are kept, the missing (problem,
precision) pairs are measured and appended, and the file is rewritten in place. Resuming requires the
same GPU, torch/CUDA/cuDNN, tconv commit and timing settings as the file's, so one file never mixes
measurements of different code or methods.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import json
import os
import platform
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import torch
import torch.nn as nn

from .. import _autotune
from . import sources
from .chart import write_speedup_chart
from .precision import PRECISIONS, compute_dtype, precision_mode
from .problem import (
    import_file,
    load_problem_file,
    load_solution_class,
    repo_root,
    resolve_problem_path,
    resolve_solution_path,
)
from .roofline import floor_ms, measure_work, peaks_for_gpu
from .tensors import LAYOUTS, backward_all, layout_applies, make_leaves, strided_like, tensor_list, to_device, to_layout
from .timing import HOST_BOUND_FRACTION, L2_FLUSH_BYTES, TimingStats, time_on
from .verify import describe_error, verify

SUITES = ("core", "family", "real", "all", "blocks")
BASELINES = ("eager", "cudnn_bench", "compile")  # what tconv's speedups are taken against
VARIANTS = BASELINES + ("tconv",)
PASSES = ("fwd", "fwdbwd")
MIN_RUNS = 20
VERIFY_TRIALS = 2
_MODEL_SEED = 0
_INPUT_SEED = 1
_GRAD_SEED = 2


@dataclass
class ProblemSpec:
    stem: str
    problem_path: Path
    solution_path: Path


@dataclass
class BenchSettings:
    runs: int = 30
    warmup: int = 5
    compile_mode: Optional[bool] = None  # None: compile the core suite only
    core_stems: Tuple[str, ...] = ()
    peaks: Optional[Dict[str, float]] = None
    autotune: bool = False  # tconv's opt-in autotune during the tconv timings (the warm-up runs tune)
    layout: str = "contiguous"  # tensors.LAYOUTS: how every variant's inputs are laid out

    def compile_for(self, stem: str) -> bool:
        return self.compile_mode if self.compile_mode is not None else stem in self.core_stems


# -------------------------------------------------------------------------------------------------
# Measuring one (problem, precision)


def _empty_row(spec: ProblemSpec, precision: str) -> Dict[str, Any]:
    row: Dict[str, Any] = {"problem": spec.stem, "precision": precision, "verified": False, "error": None,
                           "layout": "contiguous"}
    for variant in VARIANTS:
        for pass_name in PASSES:
            for suffix in ("ms", "p20_ms", "p80_ms"):
                row[f"{variant}_{pass_name}_{suffix}"] = None
    for pass_name in PASSES:
        for baseline in BASELINES:
            row[f"tconv_{pass_name}_speedup_vs_{baseline}"] = None
        row[f"tconv_{pass_name}_tflops"] = None
        row[f"tconv_{pass_name}_gbs"] = None
        row[f"tconv_{pass_name}_pct_of_floor"] = None
        row[f"floor_{pass_name}_ms"] = None
    row.update(flops=None, bytes=None, flops_fwdbwd=None, bytes_fwdbwd=None, conv_calls=None)
    row.update(verify_failures=None, compile_error=None, cudnn_bench_error=None)
    return row


def _reset_grads(model: nn.Module, leaves: Sequence[Any]) -> None:
    for parameter in model.parameters():
        parameter.grad = None
    for leaf in leaves:
        if isinstance(leaf, torch.Tensor):
            leaf.grad = None


def _store_timings(row: Dict[str, Any], variant: str, timings: Dict[str, TimingStats]) -> None:
    for pass_name, stats in timings.items():
        row[f"{variant}_{pass_name}_ms"] = stats.median_ms
        row[f"{variant}_{pass_name}_p20_ms"] = stats.p20_ms
        row[f"{variant}_{pass_name}_p80_ms"] = stats.p80_ms
        if stats.host_ms is not None:
            row[f"{variant}_{pass_name}_host_ms"] = stats.host_ms
            row[f"{variant}_{pass_name}_host_bound"] = stats.host_bound


def _derive_metrics(row: Dict[str, Any]) -> None:
    """Speedups, throughput and % of floor from the stored medians."""
    for pass_name in PASSES:
        tconv_ms = row[f"tconv_{pass_name}_ms"]
        if not tconv_ms:
            continue
        for baseline in BASELINES:
            baseline_ms = row[f"{baseline}_{pass_name}_ms"]
            if baseline_ms:
                row[f"tconv_{pass_name}_speedup_vs_{baseline}"] = baseline_ms / tconv_ms
        flops = row["flops"] if pass_name == "fwd" else row["flops_fwdbwd"]
        nbytes = row["bytes"] if pass_name == "fwd" else row["bytes_fwdbwd"]
        row[f"tconv_{pass_name}_tflops"] = flops / (tconv_ms * 1e-3) / 1e12
        row[f"tconv_{pass_name}_gbs"] = nbytes / (tconv_ms * 1e-3) / 1e9
        floor = row[f"floor_{pass_name}_ms"]
        if floor:
            row[f"tconv_{pass_name}_pct_of_floor"] = 100.0 * floor / tconv_ms


def benchmark_problem(
    spec: ProblemSpec, precision: str, settings: BenchSettings, device: torch.device
) -> Dict[str, Any]:
    """One result row; exceptions (e.g. out of memory) are recorded in `error`, never raised."""
    row = _empty_row(spec, precision)
    try:
        report = verify(spec.problem_path, spec.solution_path, trials=VERIFY_TRIALS, precision=precision, device=str(device),
                        layout=settings.layout)
        row["verified"] = report.passed
        if not report.passed:
            row["verify_failures"] = {c.name: c.message for c in report.checks if c.status == "FAIL"}
        _measure(spec, precision, settings, device, row)
    except Exception as error:
        row["error"] = describe_error(error)
    finally:
        _release_cached_memory(device)
    _derive_metrics(row)
    return row


@dataclass
class PreparedProblem:
    """Model, inputs and grad_output of a problem, identical in every process for the same seeds."""

    model: nn.Module
    init_inputs: List[Any]
    inputs: List[Any]
    grad_outputs: List[torch.Tensor]


def prepare_problem(
    problem_path: Path, precision: str, device: torch.device, cudnn_benchmark: bool = False, layout: str = "contiguous"
) -> PreparedProblem:
    """Build Model and its data from fixed seeds, the inputs in `layout` (tensors.LAYOUTS) and the grad_outputs laid
    out as their outputs there; its one forward (for output shapes) runs under the flags of the variant about to be
    timed, since cuDNN caches the algorithm of the first call."""
    dtype = compute_dtype(precision)
    problem = load_problem_file(problem_path)
    init_inputs = problem.get_init_inputs()
    torch.manual_seed(_MODEL_SEED)
    model = problem.Model(*init_inputs).to(device=device, dtype=dtype)
    torch.manual_seed(_INPUT_SEED)
    inputs = to_layout(to_device(problem.get_inputs(), device, dtype), layout)
    with precision_mode(precision, cudnn_benchmark=cudnn_benchmark), torch.no_grad():
        outputs = tensor_list(model(*inputs))
    generator = torch.Generator(device=device).manual_seed(_GRAD_SEED)
    grad_outputs = [
        torch.randn(out.shape, generator=generator, device=device, dtype=out.dtype) for out in outputs
    ]
    if layout != "contiguous":
        grad_outputs = strided_like(grad_outputs, outputs)
    return PreparedProblem(model, init_inputs, inputs, grad_outputs)


def time_model(
    model: Callable,
    parameters_of: nn.Module,
    prepared: PreparedProblem,
    precision: str,
    settings: BenchSettings,
    device: torch.device,
    cudnn_benchmark: bool = False,
) -> Dict[str, TimingStats]:
    """Forward (no grad) and forward+backward timings of `model`, each under freshly applied flags.

    `parameters_of` owns the parameters whose gradients are reset between runs (for a compiled
    model, the module it wraps).
    """
    inputs, grad_outputs = prepared.inputs, prepared.grad_outputs
    results = {}
    with precision_mode(precision, cudnn_benchmark=cudnn_benchmark):

        def forward() -> None:
            with torch.no_grad():
                model(*inputs)

        results["fwd"] = time_on(device, forward, settings.runs, settings.warmup)

    leaves = make_leaves(inputs)
    with precision_mode(precision, cudnn_benchmark=cudnn_benchmark):

        def forward_backward() -> None:
            backward_all(tensor_list(model(*leaves)), grad_outputs)

        results["fwdbwd"] = time_on(
            device, forward_backward, settings.runs, settings.warmup,
            before_each=lambda: _reset_grads(parameters_of, leaves),
        )
    _reset_grads(parameters_of, leaves)
    return results


def _release_cached_memory(device: torch.device) -> None:
    gc.collect()
    if device.type == "cuda":
        torch.cuda.empty_cache()


def _time_cudnn_benchmark_in_child(spec: ProblemSpec, precision: str, settings: BenchSettings) -> Dict[str, TimingStats]:
    """Time Model with cudnn.benchmark=True in a fresh process (see baseline_worker.py for why).
    This process's allocator cache is emptied first: after eager's fwd+bwd it can hold most of an 80 GB card,
    and the child then ran out of memory (run 219: fam01 and fam04 in TF32 on an H100)."""
    _release_cached_memory(torch.device("cuda"))
    request = {"problem": str(spec.problem_path), "precision": precision, "runs": settings.runs, "warmup": settings.warmup,
               "layout": settings.layout}
    package_parent = str(Path(__file__).resolve().parents[2])
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_parent, env.get("PYTHONPATH")]))
    completed = subprocess.run(
        [sys.executable, "-m", "tconv.harness.baseline_worker", json.dumps(request)],
        capture_output=True, text=True, env=env,
    )
    if completed.returncode != 0:
        lines = [line for line in completed.stderr.strip().splitlines() if line.strip()]
        raise RuntimeError(f"cudnn-benchmark child process failed: {lines[-1] if lines else completed.returncode}")
    result = json.loads(completed.stdout.strip().splitlines()[-1])
    return {pass_name: TimingStats(**stats) for pass_name, stats in result.items()}


def _measure(
    spec: ProblemSpec, precision: str, settings: BenchSettings, device: torch.device, row: Dict[str, Any]
) -> None:
    prepared = prepare_problem(spec.problem_path, precision, device, layout=settings.layout)
    model = prepared.model
    row["layout"] = settings.layout if layout_applies(prepared.inputs, settings.layout) else "contiguous"

    element_size = torch.empty((), dtype=compute_dtype(precision)).element_size()
    work = measure_work(model, prepared.inputs, element_size)
    row.update(flops=work.flops_fwd, bytes=work.bytes_fwd, flops_fwdbwd=work.flops_fwdbwd, bytes_fwdbwd=work.bytes_fwdbwd)
    row["conv_calls"] = [vars(call) for call in work.calls]
    peaks = settings.peaks or {}
    row["floor_fwd_ms"] = floor_ms(work.flops_fwd, work.bytes_fwd, peaks.get(precision), peaks.get("bandwidth"))
    row["floor_fwdbwd_ms"] = floor_ms(work.flops_fwdbwd, work.bytes_fwdbwd, peaks.get(precision), peaks.get("bandwidth"))

    _store_timings(row, "eager", time_model(model, model, prepared, precision, settings, device))
    if device.type == "cuda":
        try:
            _store_timings(row, "cudnn_bench", _time_cudnn_benchmark_in_child(spec, precision, settings))
        except Exception as error:  # the other numbers stay useful
            row["cudnn_bench_error"] = describe_error(error)
    else:  # no cuDNN: the flag changes nothing, and the plan-cache problem does not exist
        _store_timings(row, "cudnn_bench", time_model(model, model, prepared, precision, settings, device, cudnn_benchmark=True))
    if settings.compile_for(spec.stem):
        try:
            _store_timings(row, "compile", time_model(torch.compile(model), model, prepared, precision, settings, device))
        except Exception as error:  # a compiler failure must not hide the other numbers
            row["compile_error"] = describe_error(error)
        finally:
            _reset_compiler()
    if row["verified"]:
        model_new = load_solution_class(spec.solution_path)(*prepared.init_inputs)
        model_new.load_state_dict(model.state_dict())
        model_new.to(device=device, dtype=compute_dtype(precision))
        with _autotune.autotune(settings.autotune):
            _store_timings(row, "tconv", time_model(model_new, model_new, prepared, precision, settings, device))


def _reset_compiler() -> None:
    """Drop torch.compile's caches (graphs hold the model's memory)."""
    dynamo = getattr(torch, "_dynamo", None)
    if dynamo is not None:
        dynamo.reset()


def run_benchmarks(
    specs: Sequence[ProblemSpec],
    precisions: Sequence[str],
    settings: BenchSettings,
    device: torch.device,
    progress: Callable[[str], None] = lambda line: print(line, flush=True),
    on_row: Callable[[List[Dict[str, Any]]], None] = lambda rows: None,
    done: Sequence[Dict[str, Any]] = (),
    deadline: Optional[float] = None,
) -> List[Dict[str, Any]]:
    """`on_row(rows so far)` runs after every row, so a run cut off by a time limit keeps its rows.
    `done`: rows measured earlier (kept first; their (problem, precision) pairs are not measured again).
    `deadline`: a time.monotonic() value after which no new row starts."""
    rows = list(done)
    have = {(row["problem"], row["precision"]) for row in rows}
    total = len(rows) + sum((spec.stem, precision) not in have for spec in specs for precision in precisions)
    for spec in specs:
        for precision in precisions:
            if (spec.stem, precision) in have:
                continue
            if deadline is not None and time.monotonic() > deadline:
                progress(f"time budget spent: stopping after {len(rows)} of {total} rows")
                return rows
            row = benchmark_problem(spec, precision, settings, device)
            rows.append(row)
            progress(f"[{len(rows)}/{total}] {_progress_summary(row)}")
            on_row(rows)
    return rows


# What must agree between a results file and the run that resumes it.
RESUME_KEYS = ("gpu", "torch", "cuda", "cudnn", "tconv_commit", "tconv_sources", "runs", "warmup", "tconv_autotune",
               "peaks", "tconv_switches", "layout")

# Environment variables that name where the sources or the build live, not what runs.
_NOT_SWITCHES = ("TCONV_COMMIT", "TCONV_BUILD_DIR")


def tconv_switches() -> Optional[Dict[str, str]]:
    """The TCONV_* environment variables set for this run (development switches such as TCONV_TMA_DIRECT_AUTO, which
    change which kernels run), or None: a results file says what it measured (run 349's DCGAN row was taken with a
    switch that its file could not show)."""
    found = {k: v for k, v in os.environ.items() if k.startswith("TCONV_") and k not in _NOT_SWITCHES}
    return dict(sorted(found.items())) or None


def load_resumable(path: Path, env: Dict[str, Any]) -> Tuple[List[Dict[str, Any]], Dict[str, Any]]:
    """The rows and env of a results file written by a run like this one (RESUME_KEYS equal); ValueError
    else."""
    saved = json.loads(Path(path).read_text())
    if not isinstance(saved, dict) or not isinstance(saved.get("rows"), list) or not isinstance(saved.get("env"), dict):
        raise ValueError(f"{path} is not a tconv bench results file")
    differing = [key for key in RESUME_KEYS if saved["env"].get(key) != env.get(key)]
    if differing:
        detail = ", ".join(f"{key}: file {saved['env'].get(key)!r}, now {env.get(key)!r}" for key in differing)
        raise ValueError(f"{path} was measured under different conditions ({detail})")
    return saved["rows"], saved["env"]


def _fmt(value: Optional[float], spec: str = ".3f", suffix: str = "") -> str:
    return "-" if value is None else f"{value:{spec}}{suffix}"


def _progress_summary(row: Dict[str, Any]) -> str:
    head = f"{row['problem']} {row['precision']}{' channels_last' if row.get('layout') == 'channels_last' else ''}:"
    if row["error"]:
        return f"{head} ERROR {row['error']}"
    if not row["verified"]:
        failed = ", ".join(row["verify_failures"] or {})
        return f"{head} NOT VERIFIED ({failed}); eager fwd {_fmt(row['eager_fwd_ms'])} ms"
    def host(key: str) -> str:
        return " host-bound" if row.get(key + "_host_bound") else ""
    return (
        f"{head} verified; tconv fwd {_fmt(row['tconv_fwd_ms'])} ms{host('tconv_fwd')} "
        f"({_fmt(row['tconv_fwd_speedup_vs_eager'], '.2f', 'x')} eager, "
        f"{_fmt(row['tconv_fwd_speedup_vs_cudnn_bench'], '.2f', 'x')} cudnn-bench), "
        f"fwd+bwd {_fmt(row['tconv_fwdbwd_ms'])} ms{host('tconv_fwdbwd')} "
        f"({_fmt(row['tconv_fwdbwd_speedup_vs_eager'], '.2f', 'x')} eager, "
        f"{_fmt(row['tconv_fwdbwd_speedup_vs_cudnn_bench'], '.2f', 'x')} cudnn-bench)"
    )


# -------------------------------------------------------------------------------------------------
# Report: table, JSON, chart

_TABLE_COLUMNS = (
    ("problem", "problem", None),
    ("prec", "precision", None),
    ("ok", "verified", None),
    ("eager", "eager_fwd_ms", ".3f"),
    ("cudnnB", "cudnn_bench_fwd_ms", ".3f"),
    ("compile", "compile_fwd_ms", ".3f"),
    ("tconv", "tconv_fwd_ms", ".3f"),
    ("xEager", "tconv_fwd_speedup_vs_eager", ".2f"),
    ("xCudnnB", "tconv_fwd_speedup_vs_cudnn_bench", ".2f"),
    ("eager", "eager_fwdbwd_ms", ".3f"),
    ("cudnnB", "cudnn_bench_fwdbwd_ms", ".3f"),
    ("compile", "compile_fwdbwd_ms", ".3f"),
    ("tconv", "tconv_fwdbwd_ms", ".3f"),
    ("xEager", "tconv_fwdbwd_speedup_vs_eager", ".2f"),
    ("xCudnnB", "tconv_fwdbwd_speedup_vs_cudnn_bench", ".2f"),
    ("TFLOP/s", "tconv_fwd_tflops", ".1f"),
    ("GB/s", "tconv_fwd_gbs", ".0f"),
    ("%floor", "tconv_fwd_pct_of_floor", ".1f"),
    ("%floor", "tconv_fwdbwd_pct_of_floor", ".1f"),
)


def format_table(rows: Sequence[Dict[str, Any]]) -> str:
    """Terminal table: times in ms (median); columns 4-9 forward, 10-15 forward+backward; throughput of tconv."""
    cells = []
    for row in rows:
        line = []
        for _header, key, spec in _TABLE_COLUMNS:
            value = row.get(key)
            if key == "verified":
                line.append("ERR" if row.get("error") else ("yes" if value else "NO"))
            elif spec is None:
                line.append(str(value))
            else:
                line.append(_fmt(value, spec) + (HOST_BOUND_MARK if _host_bound_cell(row, key) else ""))
        cells.append(line)
    headers = [header for header, _key, _spec in _TABLE_COLUMNS]
    widths = [max([len(h)] + [len(line[i]) for line in cells]) for i, h in enumerate(headers)]
    fwd_start = sum(widths[:3]) + 2 * 3
    fwd_width = sum(widths[3:9]) + 2 * 6
    group = " " * fwd_start + "forward (ms)".ljust(fwd_width) + "forward+backward (ms)".ljust(sum(widths[9:15]) + 2 * 6) + "tconv fwd / fwd / f+b"

    def render(line: List[str]) -> str:
        return "  ".join(cell.rjust(width) if i > 2 else cell.ljust(width) for i, (cell, width) in enumerate(zip(line, widths)))

    lines = [group, render(headers)] + [render(line) for line in cells]
    if any(_host_bound_cell(row, key) for row in rows for _header, key, _spec in _TABLE_COLUMNS):
        lines.append(f"{HOST_BOUND_MARK}: host-bound (the loop took >= {HOST_BOUND_FRACTION:.0%} of the median to "
                     "issue a run): the time follows this machine's CPU, an upper bound of the GPU's")
    return "\n".join(lines)


HOST_BOUND_MARK = "h"


def _host_bound_cell(row: Dict[str, Any], key: str) -> bool:
    """Whether a table cell is a time measured while the host bound the loop (timing.TimingStats.host_bound)."""
    return key.endswith("_ms") and bool(row.get(key[:-len("_ms")] + "_host_bound"))


def checked_commit(named: str, root: Path) -> str:
    """`named` with '-mismatch' where git at root knows that commit and its code (sources.commit_digest) is not the
    tree's (sources.tree_digest); as given where git cannot tell. Why: runs 352-353 passed TCONV_COMMIT from
    `git rev-parse` evaluated on the GPU machine, whose stale copy of the repository named the session's first
    commit, not the code that ran."""
    try:
        named_digest = sources.commit_digest(named, root)
    except (OSError, subprocess.CalledProcessError):
        return named
    tree = sources.tree_digest(root)
    return named if tree is None or tree == named_digest else f"{named}-mismatch"


def git_commit(root: Path) -> str:
    """HEAD of the checkout, with '-dirty' when tracked files differ from it or the code folders
    (tconv/, problems/, solutions/) hold files git does not track.

    The environment variable TCONV_COMMIT, when set, names the commit instead (set it to
    `git rev-parse HEAD` when sending a copy of the tree to a GPU machine); no git: 'unknown'.
    A TCONV_COMMIT whose code the checkout's git knows and which differs from the tree that runs
    is recorded with '-mismatch'.
    """
    # An explicit TCONV_COMMIT wins: on the GPU machine, runs 9 and 10 found a stale repository
    # above the copied tree and recorded its HEAD instead of the code that ran.
    if os.environ.get("TCONV_COMMIT"):
        return checked_commit(os.environ["TCONV_COMMIT"], root)
    git = sources.git_command(root)
    try:
        head = subprocess.run(git + ["rev-parse", "HEAD"], capture_output=True, text=True, check=True)
        tracked = subprocess.run(git + ["status", "--porcelain", "--untracked-files=no"],
                                 capture_output=True, text=True, check=True)
        new_code = subprocess.run(git + ["status", "--porcelain", "--untracked-files=all", "--", "tconv", "problems", "solutions"],
                                  capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return os.environ.get("TCONV_COMMIT", "unknown")
    dirty = bool(tracked.stdout.strip() or new_code.stdout.strip())
    return head.stdout.strip() + ("-dirty" if dirty else "")


def environment(device: torch.device, peaks: Optional[Dict[str, float]], settings: BenchSettings, root: Path) -> Dict[str, Any]:
    gpu = torch.cuda.get_device_name(device) if device.type == "cuda" else platform.processor() or "cpu"
    return {
        "gpu": gpu,
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "cudnn": torch.backends.cudnn.version() if torch.backends.cudnn.is_available() else None,
        "tconv_commit": git_commit(root),
        # From the files themselves: the commit above can be stale on a copied tree (tconv digest --commit REV).
        "tconv_sources": sources.tree_digest(root),
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "peaks": peaks,
        "tconv_autotune": settings.autotune,
        "tconv_switches": tconv_switches(),
        "runs": settings.runs,
        "warmup": settings.warmup,
        "timing": "CUDA event pair per run, median/p20/p80; L2 flushed before each run; *_host_ms: median host ms "
                  f"to issue a run, *_host_bound where it is >= {HOST_BOUND_FRACTION} of the median"
                  if device.type == "cuda" else "perf_counter per run",
        "l2_flush_bytes": L2_FLUSH_BYTES if device.type == "cuda" else 0,
        "forward": "torch.no_grad()",
        "forward_backward": "fixed random grad_output; input and parameter grads set to None before each run, outside the timed region",
        "flops_bytes": "transposed convolutions only; fwd+bwd = 3x fwd",
        # Only where not contiguous, so contiguous files from before the option still resume and merge with new ones
        **({"layout": settings.layout} if settings.layout != "contiguous" else {}),
    }


def gpu_slug(name: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    return re.sub(r"^nvidia-", "", slug) or "unknown"


def results_stem(env: Dict[str, Any], out_dir: Optional[Path] = None) -> str:
    """`bench_<YYYYmmdd-HHMMSS>_<gpu>`; with `out_dir`, the JSON file is created here, exclusively
    (a `-2`, `-3`, ... suffix when taken), so runs started in the same second never overwrite each
    other (run 10 lost a JSON that way: two runs on two GPUs of one machine)."""
    stem = f"bench_{datetime.datetime.now().strftime('%Y%m%d-%H%M%S')}_{gpu_slug(env['gpu'])}"
    if out_dir is None:
        return stem
    out_dir.mkdir(parents=True, exist_ok=True)
    for attempt in range(1, 1000):
        candidate = stem if attempt == 1 else f"{stem}-{attempt}"
        try:
            os.close(os.open(out_dir / f"{candidate}.json", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
            return candidate
        except FileExistsError:
            continue
    raise RuntimeError(f"tconv bench: no free results name for {stem} in {out_dir}")


def write_json(rows: List[Dict[str, Any]], env: Dict[str, Any], json_path: Path, complete: bool = True) -> Path:
    """`complete` is False while the run is still going (rows written so far)."""
    json_path.parent.mkdir(parents=True, exist_ok=True)
    json_path.write_text(json.dumps({"env": env, "complete": complete, "rows": rows}, indent=2) + "\n")
    return json_path


def write_results(rows: List[Dict[str, Any]], env: Dict[str, Any], out_dir: Path,
                  stem: Optional[str] = None) -> Tuple[Path, Optional[Path]]:
    """JSON `bench_<YYYYmmdd-HHMMSS>_<gpu>.json` and the PNG chart next to it."""
    stem = stem or results_stem(env, out_dir)
    json_path = write_json(rows, env, out_dir / f"{stem}.json")
    chart_path = write_speedup_chart(rows, out_dir / f"{stem}.png")
    return json_path, chart_path


# -------------------------------------------------------------------------------------------------
# CLI


def _suite(name: str, root: Path) -> List[str]:
    suites_file = root / "problems" / "suites.py"
    module = import_file(suites_file, "suites")
    stems = getattr(module, name.upper(), None)
    if stems is None:
        raise AttributeError(f"{suites_file} does not define {name.upper()}")
    return list(stems)


def _core_stems(root: Path) -> Tuple[str, ...]:
    try:
        return tuple(_suite("core", root))
    except (OSError, ImportError, AttributeError, SyntaxError):
        return ()


def _parse_peak(text: str) -> Tuple[str, float]:
    name, separator, value = text.partition("=")
    if not separator or name not in PRECISIONS + ("bandwidth",):
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE with NAME in {', '.join(PRECISIONS)}, bandwidth; got {text!r}")
    try:
        return name, float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"peak value is not a number: {value!r}") from None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tconv bench", description="Verify, then time tconv solutions against PyTorch eager, cuDNN benchmark mode and torch.compile."
    )
    parser.add_argument("problems", nargs="*", metavar="PROBLEM", help="problem files or stems under problems/")
    parser.add_argument("--suite", choices=SUITES, help="benchmark a suite from problems/suites.py")
    parser.add_argument("--precision", nargs="+", choices=PRECISIONS, default=["tf32"], help="default: tf32")
    compile_group = parser.add_mutually_exclusive_group()
    compile_group.add_argument("--compile", dest="compile_mode", action="store_const", const=True, help="time torch.compile(Model) for every problem")
    compile_group.add_argument("--no-compile", dest="compile_mode", action="store_const", const=False, help="never time torch.compile")
    parser.set_defaults(compile_mode=None)
    parser.add_argument("--layout", choices=LAYOUTS, default="contiguous",
                        help="channels_last: 4-D and 5-D inputs in channels-last memory format for every variant "
                             "(default: contiguous)")
    parser.add_argument("--runs", type=int, default=30, help=f"timed runs per measurement (at least {MIN_RUNS})")
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--out", type=Path, help="results folder (default: <repo>/benchmarks/results)")
    parser.add_argument("--time-budget", type=float, metavar="SECONDS",
                        help="start no new row after this many seconds (exit code 3 if rows are left; see --resume)")
    parser.add_argument("--resume", type=Path, metavar="FILE",
                        help="continue a results file of an earlier run of the same code and settings: keep its rows, "
                             "measure the missing ones, rewrite it")
    parser.add_argument("--autotune", action="store_true",
                        help="time tconv with its opt-in autotune on (tuned during the warm-up runs; compare with "
                             "the cudnn-bench column, cuDNN's own autotune)")
    parser.add_argument(
        "--peak", action="append", type=_parse_peak, default=[], metavar="NAME=VALUE",
        help="override a peak: tf32/fp32/bf16/fp16 in FLOP/s or bandwidth in B/s (e.g. --peak tf32=400e12)",
    )
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """CLI entry (argv excludes the `bench` subcommand)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_request:
        return int(exit_request.code or 0)
    if not torch.cuda.is_available():
        print(
            "tconv bench: no CUDA GPU available (torch.cuda.is_available() is False); benchmarks need one. "
            "For correctness on CPU use `tconv verify PROBLEM.py --device cpu`.",
            file=sys.stderr,
        )
        return 2
    if args.runs < MIN_RUNS or args.warmup < 1:
        print(f"tconv bench: --runs must be at least {MIN_RUNS} and --warmup at least 1", file=sys.stderr)
        return 2
    if bool(args.problems) == bool(args.suite):
        print("tconv bench: give PROBLEM files/stems or --suite (one of them)", file=sys.stderr)
        return 2
    root = repo_root()
    try:
        names = _suite(args.suite, root) if args.suite else list(args.problems)
    except (OSError, ImportError, AttributeError, SyntaxError) as error:
        print(f"tconv bench: cannot read suite {args.suite!r}: {error}", file=sys.stderr)
        return 2
    specs = []
    for name in names:
        problem_path = resolve_problem_path(name, root)
        solution_path = resolve_solution_path(problem_path, None)
        missing = [str(p) for p in (problem_path, solution_path) if not p.is_file()]
        if missing:
            print(f"tconv bench: {name}: file(s) not found: {', '.join(missing)}", file=sys.stderr)
            return 2
        specs.append(ProblemSpec(problem_path.stem, problem_path, solution_path))

    device = torch.device("cuda", torch.cuda.current_device())
    peaks = peaks_for_gpu(torch.cuda.get_device_name(device)) or {}
    peaks.update(dict(args.peak))
    if not peaks:
        print("tconv bench: no peak table for this GPU; floors stay null (give --peak NAME=VALUE)", flush=True)
    settings = BenchSettings(
        runs=args.runs, warmup=args.warmup, compile_mode=args.compile_mode, core_stems=_core_stems(root), peaks=peaks or None,
        autotune=args.autotune, layout=args.layout,
    )
    env = environment(device, settings.peaks, settings, root)
    print(f"tconv bench on {env['gpu']} (torch {env['torch']}, CUDA {env['cuda']}, cuDNN {env['cudnn']}, tconv {env['tconv_commit']})", flush=True)
    if env.get("tconv_switches"):
        print(f"development switches set: {env['tconv_switches']}", flush=True)
    return bench_to_files(specs, args.precision, settings, device, env,
                          args.out or root / "benchmarks" / "results", args.resume, args.time_budget)


def bench_to_files(specs: Sequence[ProblemSpec], precisions: Sequence[str], settings: BenchSettings,
                   device: torch.device, env: Dict[str, Any], out_dir: Path, resume: Optional[Path] = None,
                   time_budget: Optional[float] = None,
                   progress: Callable[[str], None] = lambda line: print(line, flush=True)) -> int:
    """Measures the rows (continuing `resume` when given), writes the JSON (and the chart once complete)
    and returns the CLI's exit code."""
    done: List[Dict[str, Any]] = []
    if resume is not None:
        try:
            done, saved_env = load_resumable(resume, env)
        except (OSError, ValueError) as error:
            print(f"tconv bench: cannot resume: {error}", file=sys.stderr)
            return 2
        out_dir, stem = resume.parent, resume.stem
        # The file keeps its first date; each continuation is listed.
        env = dict(env, date=saved_env["date"], resumed=list(saved_env.get("resumed", [])) + [env["date"]])
        progress(f"resuming {resume}: {len(done)} rows kept")
    else:
        stem = results_stem(env, out_dir)
    deadline = time.monotonic() + time_budget if time_budget is not None else None
    rows = run_benchmarks(specs, precisions, settings, device, progress=progress, done=done, deadline=deadline,
                          on_row=lambda so_far: write_json(so_far, env, out_dir / f"{stem}.json", complete=False))
    wanted = {(spec.stem, precision) for spec in specs for precision in precisions}
    complete = wanted <= {(row["problem"], row["precision"]) for row in rows}
    progress(format_table(rows))
    if not complete:
        json_path = write_json(rows, env, out_dir / f"{stem}.json", complete=False)
        progress(f"results (incomplete): {json_path}\nresume with: tconv bench ... --resume {json_path}")
        return 3
    json_path, chart_path = write_results(rows, env, out_dir, stem)
    progress(f"results: {json_path}" + (f"\nchart:   {chart_path}" if chart_path else "\nchart:   skipped (matplotlib not installed)"))
    all_good = all(row["verified"] and not row["error"] for row in rows)
    return 0 if all_good else 1


if __name__ == "__main__":
    sys.exit(main())
