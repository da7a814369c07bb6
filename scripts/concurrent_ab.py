"""Same-process A/B of the concurrent backward (tconv._ops._CONCURRENT_BACKWARD switched between rounds, so one
import and one model serve both settings; the per-signature decisions are cleared at each switch and remade in the
warm-up): fwd+bwd median ms per round and setting. --kernels also lists, per setting, one fwd+bwd's CUDA kernels with
their durations and start offsets (torch.profiler), to see which pass stretches when the passes share the GPU.
--persistent adds a third setting: concurrent even where grad_input runs on a persistent grid
(_ops._CONCURRENT_PERSISTENT_GRAD_INPUT). A development measurement.

    python3 scripts/concurrent_ab.py fam08_convt1d_k5_d3_131072 [--precision tf32] [--rounds 3] [--runs 10] [--kernels]
        [--persistent]
"""
import argparse

import torch

from dev_common import build_model, clear_grads
import tconv
from tconv.harness.precision import precision_mode
from tconv.harness.tensors import backward_all, make_leaves, tensor_list
from tconv.harness.timing import time_cuda


def print_kernels(label, run, before):
    """One run's CUDA kernels: start (us from the first kernel), duration (us) and name, in start order."""
    before()
    torch.cuda.synchronize()
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        run()
        torch.cuda.synchronize()
    events = sorted((e for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA),
                    key=lambda e: e.time_range.start)
    if not events:
        return
    t0 = events[0].time_range.start
    print(f"-- {label}: {len(events)} kernels", flush=True)
    for e in events:
        print(f"   {e.time_range.start - t0:9.1f} {e.time_range.elapsed_us():9.1f}  {e.name[:110]}", flush=True)


def use_setting(concurrent: bool, beside_persistent: bool):
    tconv._ops._CONCURRENT_BACKWARD = concurrent
    tconv._ops._CONCURRENT_PERSISTENT_GRAD_INPUT = beside_persistent
    tconv._ops._concurrent_fits.clear()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("problems", nargs="+")
    parser.add_argument("--precision", default="tf32")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--kernels", action="store_true", help="one profiled fwd+bwd per setting")
    parser.add_argument("--persistent", action="store_true",
                        help="also concurrent beside a persistent grad_input (_ops._CONCURRENT_PERSISTENT_GRAD_INPUT)")
    args = parser.parse_args(argv)
    # (concurrent, beside a persistent grad_input too): the default, off, and on everywhere the memory rule allows
    settings = [(True, False), (False, False)] + ([(True, True)] if args.persistent else [])
    for stem in args.problems:
        model, inputs = build_model(stem, args.precision)
        with precision_mode(args.precision):
            leaves = make_leaves(inputs)
            grads = [torch.randn_like(t) for t in tensor_list(model(*leaves))]

            def forward_backward():
                backward_all(tensor_list(model(*leaves)), grads)
            for round_ in range(args.rounds):
                for on, persistent in settings:
                    use_setting(on, persistent)
                    stats = time_cuda(forward_backward, args.runs, 2, before_each=lambda: clear_grads(model, leaves))
                    print(f"{stem} {args.precision} round {round_} concurrent={int(on)} persistent={int(persistent)} "
                          f"fwd+bwd {stats.median_ms:.3f} ({stats.p20_ms:.3f}-{stats.p80_ms:.3f}) ms", flush=True)
            if args.kernels:
                for on, persistent in settings:
                    use_setting(on, persistent)
                    forward_backward()  # the signature's first backward, one after the other, remakes the decision
                    print_kernels(f"{stem} concurrent={int(on)} persistent={int(persistent)}", forward_backward,
                                  lambda: clear_grads(model, leaves))
        del model, inputs
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
