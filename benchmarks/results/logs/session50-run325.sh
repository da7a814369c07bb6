#!/usr/bin/env bash
# Run 325: the TMA gather with the 256-column tile and the K >= 2048 rule: its tests, memcheck on a small workload,
# DCGAN TF32 fwd / fwd+bwd with TCONV_GATHER_TMA=1 (wide on / off) and TCONV_GATHER_TMA=0 in alternating processes
# (two rounds), per-pass autotune timings, and the verified `tconv bench` row of DCGAN (cuDNN-benchmark on this GPU).
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build
start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
python3 -m tconv build --break-lock > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "built after $(( $(date +%s) - start )) s"
timeout 240 python3 -m pytest -q -rfE --maxfail=20 -p no:cacheprovider tests/test_gather_tma_gpu.py \
  tests/test_gather_specialized_gpu.py 2>&1 | tee "$OUT/pytest.log" | tail -15
echo "tests after $(( $(date +%s) - start )) s"
timeout 120 compute-sanitizer --tool memcheck --print-limit 20 python3 scripts/tma_gather_sanitize.py 2>&1 \
  | tail -6 | tee "$OUT/memcheck.log"
echo "memcheck after $(( $(date +%s) - start )) s"
(cd scripts && timeout 90 python3 quick_timing.py real_dcgan_up --precision tf32 --algorithm autotune --runs 10 \
  2>&1 | tee "$OUT/autotune.log")
for round in 1 2; do
  for mode in wide narrow off; do
    case $mode in wide) env="TCONV_GATHER_TMA=1 TCONV_GATHER_TMA_WIDE=1";; narrow) env="TCONV_GATHER_TMA=1 TCONV_GATHER_TMA_WIDE=0";;
      off) env="TCONV_GATHER_TMA=0";; esac
    (cd scripts && env $env timeout 60 python3 quick_timing.py real_dcgan_up --precision tf32 --runs 20 \
      --json "$OUT/ab_${mode}_round${round}.json" 2>&1 | sed "s/^/$mode /" | tee -a "$OUT/ab.log")
  done
done
echo "A/B after $(( $(date +%s) - start )) s"
TCONV_COMMIT="${TCONV_COMMIT:-unknown}" timeout 200 python3 -m tconv bench real_dcgan_up --precision tf32 --no-compile \
  --runs 20 --warmup 3 --out "$OUT/bench" 2>&1 | grep -vE "^\s*$" | tail -8
rm -f "$OUT"/bench/*.png
cd "$OUT" && tar czf logs.tgz pytest.log memcheck.log autotune.log ab.log ab_*.json build.log && rm -f ab_*.json build.log
echo "total $(( $(date +%s) - start )) s"
