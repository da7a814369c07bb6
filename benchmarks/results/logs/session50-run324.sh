#!/usr/bin/env bash
# Run 324: the TMA gather (conv_transpose_igemm_tma.cu) first on a GPU: its tests (the precision contract under
# "igemm_tma", kernel names), then TF32 timings of the rows it takes: per pass under tconv's autotune (every candidate
# timed once per signature in one process: "igemm_tma" against the cp.async gather forms), and fwd / fwd+bwd with
# TCONV_GATHER_TMA=1 / 0 in alternating processes.
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build
start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
python3 -m tconv build --break-lock > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "built after $(( $(date +%s) - start )) s"
timeout 200 python3 -m pytest -q -rfE --maxfail=20 -p no:cacheprovider tests/test_gather_tma_gpu.py 2>&1 \
  | tee "$OUT/pytest.log" | tail -25
echo "tests after $(( $(date +%s) - start )) s"
ROWS="real_dcgan_up real_unet3d_up real_vae_up"
(cd scripts && timeout 120 python3 quick_timing.py $ROWS --precision tf32 --algorithm auto autotune --runs 10 \
  --json "$OUT/autotune.json" 2>&1 | tee "$OUT/autotune.log")
echo "autotune after $(( $(date +%s) - start )) s"
for round in 1 2; do
  for tma in 1 0; do
    (cd scripts && TCONV_GATHER_TMA=$tma timeout 60 python3 quick_timing.py $ROWS --precision tf32 --runs 20 \
      --json "$OUT/ab_tma${tma}_round${round}.json" 2>&1 | sed "s/^/tma=$tma /" | tee -a "$OUT/ab.log")
  done
done
echo "total $(( $(date +%s) - start )) s"
