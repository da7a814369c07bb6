#!/usr/bin/env bash
# Session 83, run 463 (one H200, the session's last ~250 s of device time: no room for the extension's build). Called
# as `bash benchmarks/results/logs/session83-run463.sh`. Run 462's contract test of the window grad_weight hung (its
# "many_taps" case planned 2 stages, where a warpgroup's next stage is its current one: fixed by kMinStages = 4);
# this checks the fixed kernel standalone (scripts/grad_weight_window_check.cu: 11 cases, bf16 and fp16, against
# float64), its three units compiled in parallel.
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
mkdir -p "$OUT"
start=$(date +%s)
flags="-std=c++17 -O3 --expt-relaxed-constexpr -DTCONV_WGMMA -D__CUDA_NO_HALF_OPERATORS__ -D__CUDA_NO_HALF_CONVERSIONS__
 -D__CUDA_NO_BFLOAT16_CONVERSIONS__ -D__CUDA_NO_HALF2_OPERATORS__ -gencode=arch=compute_90a,code=sm_90a -Itconv/csrc"
for src in scripts/grad_weight_window_check.cu tconv/csrc/conv_transpose_igemm_tma.cu tconv/csrc/conv_transpose_direct.cu
do
  nvcc $flags -c "$src" -o "/tmp/$(basename "$src" .cu).o" 2>&1 | grep -v C7519 | grep -E "error|warning" | head -5 &
done
wait
nvcc -gencode=arch=compute_90a,code=sm_90a /tmp/grad_weight_window_check.o /tmp/conv_transpose_igemm_tma.o \
  /tmp/conv_transpose_direct.o -o /tmp/gw_check -Xlinker --unresolved-symbols=ignore-all 2>&1 | tail -3
echo "built after $(( $(date +%s) - start )) s"
timeout 60 /tmp/gw_check 2>&1 | tee "$OUT/gw_check.log"
echo "exit ${PIPESTATUS[0]}; total $(( $(date +%s) - start )) s"
