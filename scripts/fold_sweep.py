"""Where the W fold pays: tconv's forward alone, "igemm_nofold" (W phases, strided stores) against
"igemm_fold" (W phases as GEMM columns, whole-run stores), over strided shapes: the suite's strided real
shapes, s x T tap grids with and without empty slots (k3 s2: 4/3 the MMAs; d2 s2: 2x), and bf16. A development
sweep for the "auto" boundary (kFoldMaxWorkRatio), not a report; grad_weight alone is timed folded and not
(it folds where s divides the W kernel); PyTorch's forward on the same tensors is
timed as a reference point only (the GPU tests check the fold's results).

    python3 scripts/fold_sweep.py --precision tf32 bf16 [--json OUT]
"""
import sys
from pathlib import Path

import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tconv import _args, _ops, _w_fold  # noqa: E402
from tconv.harness.precision import compute_dtype, precision_mode  # noqa: E402
from tconv.harness.timing import time_cuda  # noqa: E402

from dev_common import finish, selected, sweep_arguments  # noqa: E402

TORCH_FN = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}
# (name, batch, C_in, C_out, spatial, kernel, stride, padding, output_padding, dilation)
SHAPES = [
    ("hifigan_k16s8", 16, 512, 256, [8192], [16], [8], [4], [0], [1]),
    ("dcgan_k4s2", 64, 512, 256, [16, 16], [4, 4], [2, 2], [1, 1], [0, 0], [1, 1]),
    ("unet3d_k2s2", 2, 256, 128, [32, 32, 32], [2, 2, 2], [2, 2, 2], [0, 0, 0], [0, 0, 0], [1, 1, 1]),
    ("vae_k2s2", 16, 256, 128, [128, 128], [2, 2], [2, 2], [0, 0], [0, 0], [1, 1]),
    ("1d_k8s4_c128", 16, 128, 128, [16384], [8], [4], [2], [0], [1]),
    ("1d_k4s2_c64", 16, 64, 64, [65536], [4], [2], [1], [0], [1]),
    ("2d_k3s2_op1", 16, 128, 64, [64, 64], [3, 3], [2, 2], [1, 1], [1, 1], [1, 1]),
    ("3d_k3s2_op1", 4, 64, 64, [24, 24, 24], [3, 3, 3], [2, 2, 2], [1, 1, 1], [1, 1, 1], [1, 1, 1]),
    ("1d_k3s2_op1_c256", 16, 256, 256, [16384], [3], [2], [1], [1], [1]),
    ("fam12_k3s2d2", 16, 32, 64, [131072], [3], [2], [1], [0], [2]),
    ("fam10_k3s2d2_3d", 16, 32, 64, [16, 32, 32], [3, 3, 3], [2, 2, 2], [1, 1, 1], [0, 0, 0], [2, 2, 2]),
    # strides that divide no column tile (partial channels per tile, session 24)
    ("fam13_k3s5d2", 16, 32, 64, [64, 128], [3, 3], [5, 5], [1, 1], [0, 0], [2, 2]),
    ("2d_k3s3_c64", 16, 64, 64, [64, 128], [3, 3], [3, 3], [0, 0], [0, 0], [1, 1]),
    ("1d_k6s3_c128", 16, 128, 96, [16384], [6], [3], [1], [0], [1]),
    ("2d_k5s5_c32", 8, 32, 48, [64, 96], [5, 5], [5, 5], [0, 0], [0, 0], [1, 1]),
]


def main(argv=None) -> int:
    args = sweep_arguments(__doc__, argv)
    rows = []
    for shape in selected(SHAPES, args.only):
        name, batch, cin, cout, spatial, kernel, stride, padding, output_padding, dilation = shape
        dims = len(spatial)
        out_w = _args.output_size(spatial, kernel, stride, padding, output_padding, dilation)[-1]
        fold = _w_fold.plan(kernel[-1], stride[-1], padding[-1], dilation[-1], out_w)
        for precision in args.precision:
            dtype = compute_dtype(precision)
            x = torch.randn(batch, cin, *spatial, device="cuda", dtype=dtype)
            weight = torch.randn(cin, cout, *kernel, device="cuda", dtype=dtype)
            row = {"shape": name, "precision": precision, "taps": fold.taps, "mma_ratio": fold.mma_ratio(kernel[-1])}
            call = (stride, padding, output_padding, dilation, 1)
            # "igemm_window": the fold where auto takes it, with the W-tap window forced on its T taps
            for algorithm in ("igemm_nofold", "igemm_fold", "auto", "igemm_window"):
                with precision_mode(precision), _ops.use_algorithm(algorithm):
                    fn = lambda: _ops.conv_transpose(x, weight, None, *call)
                    row[algorithm] = time_cuda(fn, args.runs, 3).median_ms
            # grad_weight alone: the fold (where s divides the W kernel) against the strided strips
            grad = torch.randn(batch, cout, *_args.output_size(spatial, kernel, stride, padding, output_padding,
                                                              dilation), device="cuda", dtype=dtype)
            row["grad_weight_foldable"] = _w_fold.grad_weight_foldable(kernel, stride[-1], dilation[-1])
            for algorithm in ("igemm_nofold", "igemm_fold"):
                with precision_mode(precision), _ops.use_algorithm(algorithm):
                    fn = lambda: _ops.conv_transpose_grad_weight(grad, x, list(weight.shape), stride, padding,
                                                                 dilation, 1)
                    row["grad_weight_" + algorithm] = time_cuda(fn, args.runs, 3).median_ms
            with precision_mode(precision):
                row["torch"] = time_cuda(lambda: TORCH_FN[dims](x, weight, None, stride, padding, output_padding, 1,
                                                                dilation), args.runs, 3).median_ms
            row["speedup"] = row["igemm_nofold"] / row["igemm_fold"]
            rows.append(row)
            print(f"{name:18s} {precision:5s} T={fold.taps} mma x{row['mma_ratio']:.2f}  nofold "
                  f"{row['igemm_nofold']:8.3f}  fold {row['igemm_fold']:8.3f}  auto {row['auto']:8.3f}  fold+window "
                  f"{row['igemm_window']:8.3f}  torch {row['torch']:8.3f} ms  fold x{row['speedup']:.2f} | grad_weight "
                  f"nofold {row['grad_weight_igemm_nofold']:8.3f} fold {row['grad_weight_igemm_fold']:8.3f} "
                  f"({'folds' if row['grad_weight_foldable'] else 'same kernel'})", flush=True)
    return finish(args.json, rows)


if __name__ == "__main__":
    sys.exit(main())
