#!/usr/bin/env bash
# Run 331: the host-time cuts of 6ca2686 (cached argument checks and phase-split plans, a cheaper eager-call test)
# measured on the GPU host: DCGAN/U-Net host ms per fwd+bwd with the real extension (run 329: DCGAN 0.793) and with
# no-op entry points (run 330: 0.463); bench's own timing loop traced (host ms against GPU ms per timed run) to see
# whether its DCGAN fwd+bwd waits on the host; `tconv bench` of DCGAN twice and U-Net; GPU tests of the op paths.
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build
start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
python3 -m tconv build --break-lock > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "built after $(( $(date +%s) - start )) s"
(cd scripts && timeout 120 python3 host_overhead.py real_dcgan_up real_unet3d_up --precision tf32 --iters 20 \
   --entry-points 2>&1 | grep -v Warning | tee "$OUT/host_overhead.log"
 timeout 120 python3 host_overhead.py real_dcgan_up real_unet3d_up --precision tf32 --iters 100 --noop-extension 2>&1 \
   | grep -v Warning | grep " new:" | tee -a "$OUT/host_overhead.log"
 timeout 120 python3 bench_host_trace.py real_dcgan_up --precision tf32 --runs 20 2>&1 | grep -v Warning \
   | tee "$OUT/bench_host_trace.log")
echo "host measurements after $(( $(date +%s) - start )) s"
for stem in real_dcgan_up real_dcgan_up real_unet3d_up; do
  TCONV_COMMIT="${TCONV_COMMIT:-unknown}" timeout 150 python3 -m tconv bench $stem --precision tf32 --no-compile \
    --runs 30 --warmup 5 --out "$OUT/bench" 2>&1 | grep -E "verified|  tf32 " | tee -a "$OUT/bench.log"
done
rm -f "$OUT"/bench/*.png
echo "bench after $(( $(date +%s) - start )) s"
timeout 100 python3 -m pytest -q -rfE --maxfail=20 -p no:cacheprovider tests/test_conv_transpose_gpu.py \
  -k "tf32 and igemm" 2>&1 | tee "$OUT/pytest.log" | tail -2
timeout 120 python3 -m pytest -q -rfE --maxfail=20 -p no:cacheprovider tests/test_fused_gpu.py \
  tests/test_gather_tma_gpu.py tests/test_optimize_gpu.py 2>&1 | tee -a "$OUT/pytest.log" | tail -2
echo "total $(( $(date +%s) - start )) s"
