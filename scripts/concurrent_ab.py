"""Same-process A/B of the concurrent backward (tconv._ops._CONCURRENT_BACKWARD switched between rounds, so one
import and one model serve both settings): fwd+bwd median ms per round and setting. A development measurement.

    python3 scripts/concurrent_ab.py fam08_convt1d_k5_d3_131072 [--precision tf32] [--rounds 3] [--runs 10]
"""
import argparse

import torch

from dev_common import build_model, clear_grads
import tconv
from tconv.harness.precision import precision_mode
from tconv.harness.tensors import backward_all, make_leaves, tensor_list
from tconv.harness.timing import time_cuda


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("problems", nargs="+")
    parser.add_argument("--precision", default="tf32")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args(argv)
    for stem in args.problems:
        model, inputs = build_model(stem, args.precision)
        with precision_mode(args.precision):
            leaves = make_leaves(inputs)
            grads = [torch.randn_like(t) for t in tensor_list(model(*leaves))]

            def forward_backward():
                backward_all(tensor_list(model(*leaves)), grads)
            for round_ in range(args.rounds):
                for on in (True, False):
                    tconv._ops._CONCURRENT_BACKWARD = on
                    stats = time_cuda(forward_backward, args.runs, 2, before_each=lambda: clear_grads(model, leaves))
                    print(f"{stem} {args.precision} round {round_} concurrent={int(on)} fwd+bwd "
                          f"{stats.median_ms:.3f} ({stats.p20_ms:.3f}-{stats.p80_ms:.3f}) ms", flush=True)
        del model, inputs
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
