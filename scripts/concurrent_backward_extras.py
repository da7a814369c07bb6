"""What the concurrent backward's memory rule (tconv/_ops.py, concurrent_backward_fits) decides on each suite row: one
fwd+bwd of the row's ModelNew with TCONV_CONCURRENT_BACKWARD's path switched on, then per backward signature the
extra bytes grad_input and grad_weight allocated beyond their gradients on that first (serial) call, the output's and
the weight's bytes, and whether the two passes may run at once. A development tool:

    python3 scripts/concurrent_backward_extras.py --precision tf32 bf16 [--only STEM ...] [--json OUT]
"""
import argparse
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from problems.suites import ALL  # noqa: E402
from tconv import _ops  # noqa: E402
from tconv.harness.precision import precision_mode  # noqa: E402

from dev_common import build_model, finish, fwd_bwd_step  # noqa: E402

MB = float(1 << 20)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--precision", nargs="+", default=["tf32"], choices=["tf32", "fp32", "fp16", "bf16"])
    parser.add_argument("--only", nargs="+", help="stems (default: the 22-row suite)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    _ops._CONCURRENT_BACKWARD = True
    rows = []
    for stem in args.only or ALL:
        for precision in args.precision:
            _ops._concurrent_fits.clear()
            model, inputs = build_model(stem, precision)
            with precision_mode(precision):
                fwd_bwd_step(model, inputs)()
            torch.cuda.synchronize()
            for key, (fits, grad_input_extra, grad_weight_extra) in _ops._concurrent_fits.items():
                grad_shape, weight_shape = key[2], key[6]
                elem = torch.empty((), dtype=key[1]).element_size()
                output_bytes = elem * torch.Size(grad_shape).numel()
                weight_bytes = elem * torch.Size(weight_shape).numel()
                row = {"stem": stem, "precision": precision, "fits": fits, "grad_input_extra": grad_input_extra,
                       "grad_weight_extra": grad_weight_extra, "output_bytes": output_bytes,
                       "weight_bytes": weight_bytes}
                rows.append(row)
                print(f"{stem:48s} {precision:5s} fits {str(fits):5s}  grad_input +{grad_input_extra / MB:8.2f} MiB  "
                      f"grad_weight +{grad_weight_extra / MB:8.2f} MiB  output {output_bytes / MB:9.1f} MiB  "
                      f"weight {weight_bytes / MB:7.2f} MiB", flush=True)
            del model, inputs
    return finish(args.json, rows)


if __name__ == "__main__":
    sys.exit(main())
