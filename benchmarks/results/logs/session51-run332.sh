#!/usr/bin/env bash
# Run 332: verified TF32 rows of the five core problems and DCGAN at this session's code (the last core TF32 rows are
# session 48's suite and session 49's L2-61/L1-71): `tconv bench` with a time budget so the call ends inside the
# device's 10 minutes (rows left over are resumable with --resume).
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build
start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
python3 -m tconv build --break-lock > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
built=$(( $(date +%s) - start ))
echo "built after $built s"
budget=$(( 470 - built ))
TCONV_COMMIT="${TCONV_COMMIT:-unknown}" timeout $(( 585 - built )) python3 -m tconv bench real_dcgan_up \
  l1_73_convt3d_strided_padded_grouped l1_72_convt3d_asym_kernel_strided_padded_grouped \
  l1_71_convt2d_asym_input_square_kernel l2_61_convt3d_relu_groupnorm l1_68_convt3d_square_input_asym_kernel \
  --precision tf32 --no-compile --runs 20 --warmup 3 --time-budget $budget --out "$OUT/bench" 2>&1 \
  | grep -v Warning | tee "$OUT/bench.log" | grep -E "verified|  tf32 |geomean|left"
rm -f "$OUT"/bench/*.png
echo "total $(( $(date +%s) - start )) s"
