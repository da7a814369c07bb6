"""Where the gather's "auto" rules pick a slower form: one pass alone (forward or grad_input) under each gather
variant, on the shapes where run 371's autotune sweep found a faster candidate and on neighbours that bound a rule.
A development sweep, not a report (the GPU tests check every form's results):
- small K (input channels x the phase's taps): the TF32 wgmma gather against the mma.sync one ("igemm" vs
  "igemm_mma"); fam13's folded forward has K 32 and ran 0.667 ms on mma.sync against 0.802 on wgmma; the K <= 32
  rule (igemm_config.h kGatherMmaSyncMaxK; TCONV_GATHER_MMA_SYNC_MAX_K=0 turns it off) over column counts of 64-640;
- the W-tap window at 32 input channels (fam10, fam12: "igemm_window" vs "igemm_nowindow");
- grad_input on the TMA gather without the channels-last copy ("igemm_tma_direct") where the copy budget keeps
  "auto" off it (DCGAN: "igemm_tma" with the whole copy, 2x the output's bytes, ran 0.226 ms against 0.417);

    python3 scripts/gather_rule_sweep.py --precision tf32 bf16 [--json OUT] [--only NAME ...]
"""
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tconv import _args, _ops  # noqa: E402
from tconv.harness.precision import compute_dtype, precision_mode  # noqa: E402
from tconv.harness.timing import time_cuda  # noqa: E402

from dev_common import finish, selected, sweep_arguments  # noqa: E402

# (name, pass, batch, C_in, C_out, spatial, kernel, stride, padding, dilation)
SHAPES = [
    ("fam13_k3s5d2_c32", "forward", 16, 32, 64, [64, 128], [3, 3], [5, 5], [1, 1], [2, 2]),
    ("2d_k2s2_c16", "forward", 16, 16, 64, [128, 128], [2, 2], [2, 2], [0, 0], [1, 1]),
    ("2d_k2s2_c32", "forward", 16, 32, 64, [128, 128], [2, 2], [2, 2], [0, 0], [1, 1]),
    ("2d_k2s2_c64", "forward", 16, 64, 64, [128, 128], [2, 2], [2, 2], [0, 0], [1, 1]),
    ("2d_k2s2_c128", "forward", 16, 128, 64, [128, 128], [2, 2], [2, 2], [0, 0], [1, 1]),
    ("3d_k2s2_c32", "forward", 2, 32, 32, [32, 64, 64], [2, 2, 2], [2, 2, 2], [0, 0, 0], [1, 1, 1]),
    ("3d_k2s2_c64", "forward", 2, 64, 32, [32, 64, 64], [2, 2, 2], [2, 2, 2], [0, 0, 0], [1, 1, 1]),
    ("fam13_k3s5d2_c32_co32", "forward", 16, 32, 32, [64, 128], [3, 3], [5, 5], [1, 1], [2, 2]),
    ("fam13_k3s5d2_c32_co128", "forward", 16, 32, 128, [64, 128], [3, 3], [5, 5], [1, 1], [2, 2]),
    ("fam13_k3s5d2_c16", "forward", 16, 16, 64, [64, 128], [3, 3], [5, 5], [1, 1], [2, 2]),
    ("fam13_k3s5d2_c64", "forward", 16, 64, 64, [64, 128], [3, 3], [5, 5], [1, 1], [2, 2]),
    ("2d_k2s2_c32_co128", "forward", 16, 32, 128, [128, 128], [2, 2], [2, 2], [0, 0], [1, 1]),
    ("2d_k2s2_c32_co256", "forward", 16, 32, 256, [64, 64], [2, 2], [2, 2], [0, 0], [1, 1]),
    ("1d_k4s4_c32", "forward", 16, 32, 64, [131072], [4], [4], [0], [1]),
    ("1d_k3s3_c32", "forward", 16, 32, 64, [131072], [3], [3], [0], [1]),
    ("3d_k2s2_c32_co64", "forward", 2, 32, 64, [32, 64, 64], [2, 2, 2], [2, 2, 2], [0, 0, 0], [1, 1, 1]),
    ("3d_k2s2_c16_co128", "forward", 2, 16, 128, [32, 32, 32], [2, 2, 2], [2, 2, 2], [0, 0, 0], [1, 1, 1]),
    ("2d_k4s2_c32", "forward", 16, 32, 64, [128, 128], [4, 4], [2, 2], [1, 1], [1, 1]),
    ("fam10_k3s2d2_c32", "forward", 16, 32, 64, [16, 32, 32], [3, 3, 3], [2, 2, 2], [1, 1, 1], [2, 2, 2]),
    ("fam12_k3s2d2_c32", "forward", 16, 32, 64, [131072], [3], [2], [1], [2]),
    ("1d_k3s2d2_c64", "forward", 16, 64, 64, [65536], [3], [2], [1], [2]),
    ("1d_k3s2d2_c128", "forward", 16, 128, 128, [32768], [3], [2], [1], [2]),
    ("2d_k3s1d2_c32", "forward", 16, 32, 64, [128, 256], [3, 3], [1, 1], [2, 2], [2, 2]),
    ("dcgan_k4s2_grad_input", "grad_input", 64, 512, 256, [16, 16], [4, 4], [2, 2], [1, 1], [1, 1]),
    ("2d_k4s2_c256_grad_input", "grad_input", 16, 256, 256, [32, 32], [4, 4], [2, 2], [1, 1], [1, 1]),
]
ALGORITHMS = ("auto", "igemm", "igemm_mma", "igemm_window", "igemm_nowindow", "igemm_tma", "igemm_tma_direct")


def main(argv=None) -> int:
    args = sweep_arguments(__doc__, argv)
    rows = []
    for shape in selected(SHAPES, args.only):
        name, pass_, batch, cin, cout, spatial, kernel, stride, padding, dilation = shape
        out = _args.output_size(spatial, kernel, stride, padding, [0] * len(spatial), dilation)
        for precision in args.precision:
            dtype = compute_dtype(precision)
            weight = torch.randn(cin, cout, *kernel, device="cuda", dtype=dtype)
            if pass_ == "forward":
                x = torch.randn(batch, cin, *spatial, device="cuda", dtype=dtype)
                fn = lambda: _ops.conv_transpose(x, weight, None, stride, padding, [0] * len(spatial), dilation, 1)
            else:
                grad = torch.randn(batch, cout, *out, device="cuda", dtype=dtype)
                fn = lambda: _ops.conv_transpose_grad_input(grad, weight, [batch, cin, *spatial], stride, padding,
                                                            dilation, 1)
            row = {"shape": name, "pass": pass_, "precision": precision}
            for algorithm in ALGORITHMS:
                try:
                    with precision_mode(precision), _ops.use_algorithm(algorithm):
                        row[algorithm] = time_cuda(fn, args.runs, 3).median_ms
                except RuntimeError as err:
                    row[algorithm] = None
                    row[algorithm + "_refused"] = str(err).splitlines()[0][:160]
            rows.append(row)
            print(f"{name:24s} {precision:5s} " + "  ".join(
                f"{a} {row[a]:.3f}" if row[a] is not None else f"{a} -" for a in ALGORITHMS), flush=True)
    return finish(args.json, rows)


if __name__ == "__main__":
    sys.exit(main())
