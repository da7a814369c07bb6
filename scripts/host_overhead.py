"""How long the host takes to issue one forward+backward of a problem's model, against how long the GPU takes to run
it: when the host takes longer, a timed loop without synchronisation (tconv bench, quick_timing.py) measures the host,
not the kernels. A development tool: it prints, per model (the solution's ModelNew and the original Model),
  - host ms per fwd+bwd: perf_counter over `--iters` back-to-back calls issued behind a long GPU sleep (so the launch
    queue never makes the host wait), divided by the count;
  - GPU ms per fwd+bwd: CUDA events around the same calls with the host far ahead;
  - host ms per no-grad forward, measured like the first;
and, with --cprofile N, the top N functions of a cProfile of the host side; with --entry-points, the host time of each
call into the C++ extension (its entry points timed by wrappers on the loaded module: planning, allocation and
launches, not the kernels); with --host-api N, the top N host-side events of a torch.profiler trace (CPU and CUDA
activities) by self time per fwd+bwd: ATen calls, the CUDA runtime calls the profiler records (launches, attribute
and occupancy queries, allocations), and each entry point as a record_function range (its self time: the C++ not
spent in recorded calls); with --noop-extension, tconv's model runs with every entry point replaced by a no-op (no
build needed, no kernels, wrong results): the host time of everything but the extension (Python, autograd, allocation).

    python3 scripts/host_overhead.py real_dcgan_up --precision tf32 --iters 20 --cprofile 25 --entry-points
"""
import argparse
import cProfile
import io
import pstats
import time

import torch

from dev_common import build_model, fwd_bwd_step
from tconv.harness.precision import precision_mode
from tconv.harness.tensors import LAYOUTS, to_layout


class EntryPointTimer:
    """Wraps every callable of the loaded extension with a perf_counter timer (host time per call)."""

    def __init__(self, module):
        self.module, self.saved, self.totals = module, {}, {}
        for name in dir(module):
            fn = getattr(module, name)
            if name.startswith("_") or not callable(fn):
                continue
            self.saved[name] = fn
            setattr(module, name, self._wrap(name, fn))

    def _wrap(self, name, fn):
        def timed(*args, **kwargs):
            begin = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                total = self.totals.setdefault(name, [0.0, 0])
                total[0] += time.perf_counter() - begin
                total[1] += 1
        return timed

    def restore(self):
        for name, fn in self.saved.items():
            setattr(self.module, name, fn)

    def report(self, iters: int) -> str:
        rows = sorted(self.totals.items(), key=lambda item: -item[1][0])
        return "\n".join(f"  {name:34s} {1e3 * seconds / iters:8.3f} ms per fwd+bwd ({count // iters} calls)"
                         for name, (seconds, count) in rows)


class NoOpExtension:
    """Stands in for the loaded extension: every entry point returns None, the one query False."""

    def __getattr__(self, name):
        return (lambda *args: False) if name.endswith("_possible") else (lambda *args: None)


def install_noop_extension() -> None:
    import tconv._build
    stub = NoOpExtension()
    tconv._build.load = lambda: stub


class EntryPointRanges(EntryPointTimer):
    """Wraps every callable of the loaded extension in a torch.profiler record_function range of its name."""

    def _wrap(self, name, fn):
        def ranged(*args, **kwargs):
            with torch.profiler.record_function(f"tconv_C.{name}"):
                return fn(*args, **kwargs)
        return ranged


def host_api_table(step, iters: int, top: int, entry_ranges: bool) -> str:
    """The top host-side events of `iters` steps under torch.profiler, by self CPU time, per step (entry_ranges: the
    extension's entry points as ranges; tconv's model only)."""
    import tconv
    ranges = EntryPointRanges(tconv._build.load()) if entry_ranges else None
    activities = [torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA]
    try:
        torch.cuda._sleep(int(2e9))
        with torch.profiler.profile(activities=activities) as prof:
            for _ in range(iters):
                step()
        torch.cuda.synchronize()
    finally:
        if ranges is not None:
            ranges.restore()
    rows = []
    for event in prof.key_averages():
        if event.device_type != torch.autograd.DeviceType.CPU:
            continue
        rows.append((event.self_cpu_time_total / iters, event.cpu_time_total / iters, event.count // iters, event.key))
    rows.sort(key=lambda row: -row[0])
    lines = [f"  {'self us':>9s} {'total us':>9s} {'calls':>5s}  event (per fwd+bwd)"]
    lines += [f"  {self_us:9.1f} {total_us:9.1f} {calls:5d}  {key[:110]}" for self_us, total_us, calls, key in rows[:top]]
    return "\n".join(lines)


def measure(stem: str, precision: str, which: str, iters: int, cprofile_top: int, entry_points: bool = False,
            host_api_top: int = 0, layout: str = "contiguous") -> None:
    model, inputs = build_model(stem, precision, which)
    inputs = to_layout(inputs, layout)
    with precision_mode(precision):
        step = fwd_bwd_step(model, inputs)

        for _ in range(3):
            step()
        torch.cuda.synchronize()
        torch.cuda._sleep(int(2e9))  # ~1 s of GPU time ahead of the calls: the host never waits on the queue
        begin = time.perf_counter()
        for _ in range(iters):
            step()
        host_ms = (time.perf_counter() - begin) * 1e3 / iters
        torch.cuda.synchronize()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        torch.cuda._sleep(int(2e9))
        start.record()
        for _ in range(iters):
            step()
        end.record()
        torch.cuda.synchronize()
        gpu_ms = start.elapsed_time(end) / iters
        torch.cuda._sleep(int(2e9))
        begin = time.perf_counter()
        with torch.no_grad():
            for _ in range(iters):
                model(*inputs)
        forward_host_ms = (time.perf_counter() - begin) * 1e3 / iters
        torch.cuda.synchronize()
        print(f"{stem} {precision} {which}: host {host_ms:.3f} ms per fwd+bwd, GPU {gpu_ms:.3f} ms; "
              f"host {forward_host_ms:.3f} ms per no-grad forward", flush=True)
        if cprofile_top:
            torch.cuda._sleep(int(2e9))
            profiler = cProfile.Profile()
            profiler.enable()
            for _ in range(iters):
                step()
            profiler.disable()
            torch.cuda.synchronize()
            text = io.StringIO()
            pstats.Stats(profiler, stream=text).sort_stats("tottime").print_stats(cprofile_top)
            print(text.getvalue(), flush=True)
        if entry_points:
            import tconv
            timer = EntryPointTimer(tconv._build.load())
            torch.cuda._sleep(int(2e9))
            try:
                for _ in range(iters):
                    step()
            finally:
                timer.restore()
            torch.cuda.synchronize()
            print(f"{stem} {precision} {which}: host time inside the extension's entry points\n{timer.report(iters)}",
                  flush=True)
        if host_api_top:
            print(f"{stem} {precision} {which}: host-side events under torch.profiler (its own overhead included)\n"
                  f"{host_api_table(step, iters, host_api_top, which == 'new')}", flush=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("problems", nargs="+")
    parser.add_argument("--precision", default="tf32", choices=["tf32", "fp32", "fp16", "bf16"])
    parser.add_argument("--iters", type=int, default=20)
    parser.add_argument("--layout", choices=LAYOUTS, default="contiguous")
    parser.add_argument("--cprofile", type=int, default=0, help="print the top N host functions (0: none)")
    parser.add_argument("--entry-points", action="store_true", help="time each call into the C++ extension")
    parser.add_argument("--host-api", type=int, default=0, metavar="N",
                        help="print the top N host-side events of a torch.profiler trace (0: none)")
    parser.add_argument("--noop-extension", action="store_true",
                        help="replace the extension's entry points by no-ops (host time of everything else)")
    args = parser.parse_args(argv)
    if args.noop_extension:
        install_noop_extension()
    for stem in args.problems:
        for which in ("new", "original"):
            measure(stem, args.precision, which, args.iters, args.cprofile if which == "new" else 0,
                    args.entry_points and which == "new", args.host_api, args.layout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
