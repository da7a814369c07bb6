"""Child process of `tconv bench`: times the Model with torch.backends.cudnn.benchmark = True.

Why a separate process: PyTorch keeps the cuDNN execution plan of each convolution in a cache whose
key leaves out the benchmark flag (and the cache is thread-local, with backward convolutions running
on the autograd engine's long-lived device thread). Once the eager baseline or verify has run a
convolution with benchmark off, a later benchmark-on run in the same process silently reuses that
heuristic plan, and the other way round. A fresh process starts with empty caches; the fixed seeds
of bench.prepare_problem give it the same weights, inputs and grad_output as the parent.

    python -m tconv.harness.baseline_worker '{"problem": PATH, "precision": "tf32", "runs": 30, "warmup": 5,
                                              "layout": "contiguous"}'

prints one JSON line {"fwd": TimingStats, "fwdbwd": TimingStats}.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional, Sequence

import torch

from .bench import BenchSettings, prepare_problem, time_model


def main(argv: Optional[Sequence[str]] = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    request = json.loads(arguments[0])
    device = torch.device("cuda", torch.cuda.current_device())
    settings = BenchSettings(runs=request["runs"], warmup=request["warmup"])
    prepared = prepare_problem(Path(request["problem"]), request["precision"], device, cudnn_benchmark=True,
                               layout=request.get("layout", "contiguous"))
    timings = time_model(
        prepared.model, prepared.model, prepared, request["precision"], settings, device, cudnn_benchmark=True
    )
    print(json.dumps({pass_name: stats.to_dict() for pass_name, stats in timings.items()}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
