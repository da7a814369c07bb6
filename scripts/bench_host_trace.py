"""Whether `tconv bench`'s timed loop waits on the host: runs bench's own preparation and timing (bench.prepare_problem,
bench.time_model, the same L2 flush and gradient reset) for a problem's original Model and then its ModelNew in one
process, as `tconv bench` does, and prints per timed run the GPU ms (its event pair) beside the host ms the loop took to
issue that run (before_each, flush, events and the call). Where the host ms per run approach the GPU's, the events
measure the launch gaps; session 50's DCGAN fwd+bwd rows spread 1.07-1.42 ms over kernels that sum to ~0.96. Also
prints the caching allocator's cudaMalloc / cudaFree / retry counts during each timing.
A development tool:

    python3 scripts/bench_host_trace.py real_dcgan_up --precision tf32 --runs 20
"""
import argparse

import torch

from dev_common import ROOT
from tconv.harness import bench, timing
from tconv.harness.problem import import_file
from tconv.harness.tensors import LAYOUTS

_traces = []
_time_cuda = timing.time_cuda


def traced_time_cuda(run, runs, warmup, before_each=None, flush_l2=True):
    """timing.time_cuda keeping each timed run's host ms and GPU ms (its events)."""
    trace = []
    stats = _time_cuda(run, runs, warmup, before_each, flush_l2, trace=trace)
    _traces.append((stats, trace))
    return stats


# The caching allocator's counters that a host stall inside the timed loop would show: cudaMalloc / cudaFree calls
# (a free synchronizes the device) and retries after freeing cached blocks.
ALLOCATOR_COUNTERS = ("num_alloc_retries", "num_device_alloc", "num_device_free", "num_sync_all_streams")


def allocator_counters() -> dict:
    stats = torch.cuda.memory_stats()
    return {k: stats.get(k, 0) for k in ALLOCATOR_COUNTERS}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("problem")
    parser.add_argument("--precision", default="tf32")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--layout", choices=LAYOUTS, default="contiguous")
    args = parser.parse_args(argv)
    timing.time_cuda = traced_time_cuda
    device = torch.device("cuda", torch.cuda.current_device())
    settings = bench.BenchSettings(runs=args.runs, warmup=args.warmup, compile_mode=False,
                                  layout=args.layout)
    prepared = bench.prepare_problem(ROOT / "problems" / f"{args.problem}.py", args.precision, device,
                                     layout=args.layout)
    solution = import_file(ROOT / "solutions" / f"{args.problem}.py", f"solution_{args.problem}")
    model_new = solution.ModelNew(*prepared.init_inputs)
    model_new.load_state_dict(prepared.model.state_dict())
    model_new.to(device=device, dtype=prepared.inputs[0].dtype)
    for label, model in (("original", prepared.model), ("tconv", model_new), ("original", prepared.model),
                         ("tconv", model_new)):
        _traces.clear()
        before = allocator_counters()
        stats = bench.time_model(model, model, prepared, args.precision, settings, device)
        after = allocator_counters()
        print(f"{args.problem} {label} allocator during the timing: "
              + " ".join(f"{k} +{after[k] - before[k]}" for k in before), flush=True)
        for pass_name, (timed, trace) in zip(("fwd", "fwdbwd"), _traces):
            host = sorted(h for h, _ in trace)
            print(f"{args.problem} {label} {pass_name}: median GPU {timed.median_ms:.3f} ms (p20 {timed.p20_ms:.3f}, "
                  f"p80 {timed.p80_ms:.3f}); host per run median {host[len(host) // 2]:.3f} ms; host/GPU ms in run "
                  "order: " + " ".join(f"{h:.2f}/{g:.2f}" for h, g in trace), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
