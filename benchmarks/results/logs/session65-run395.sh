#!/usr/bin/env bash
# Session 65, run 395 (one H200): unit_stride_mma with dynamic tiles (TCONV_UNIT_STRIDE_MMA_DYNAMIC_TILES=1,
# development, off): blocks past their first tile take the next from a zeroed counter, so that a persistent grid
# whose blocks start behind another pass's (the concurrent backward) takes fewer tiles on the late blocks.
# 1. Tests: the bitwise static-against-dynamic test (subprocesses), and the unit_stride_mma grids and the concurrent
#    backward tests with the switch on.
# 2. concurrent_ab.py --persistent with the switch off and on (one build): fam08, fam11, L1-71 in TF32, fam08 bf16.
#    The question: does the concurrent backward beside a dynamic grad_input beat serial where the static one lost
#    (fam08 TF32: 3.525 against 2.930 in run 390)?
# 3. quick_timing of the same rows' forwards (the kernel alone, either way).
# Pass TCONV_COMMIT=<sha>.
source scripts/device_prelude.sh
left() { [ $(( $(date +%s) - start )) -lt "$1" ]; }
timeout 60 python3 -m pytest -q tests/test_conv_transpose_gpu.py -k "unit_stride_mma_dynamic" 2>&1 | tail -3 \
  | tee "$LOG/pytest_dynamic_test.log"
TCONV_UNIT_STRIDE_MMA_DYNAMIC_TILES=1 timeout 100 python3 -m pytest -q tests/test_conv_transpose_gpu.py \
  tests/test_fused_gpu.py -k "unit_stride_mma or concurrent_backward or persistent_grad_input" 2>&1 | tail -3 \
  | tee "$LOG/pytest_dynamic_on.log"
echo "== concurrent A/B at $(( $(date +%s) - start )) s"
for dynamic in 1 0; do
  for precision in tf32 bf16; do
    left 470 && (cd scripts && TCONV_UNIT_STRIDE_MMA_DYNAMIC_TILES=$dynamic timeout 70 python3 concurrent_ab.py \
      fam08_convt1d_k5_d3_131072 $([ $precision = tf32 ] && echo fam11_convt2d_k3x7_p1x3_512x1024 \
      l1_71_convt2d_asym_input_square_kernel) --precision $precision --rounds 2 --runs 10 --persistent 2>&1 \
      | grep -v Warn | sed "s/^/DYNAMIC=$dynamic /") | tee -a "$LOG/concurrent_ab.log"
  done
done
echo "== timing at $(( $(date +%s) - start )) s"
for dynamic in 1 0; do
  left 540 && (cd scripts && TCONV_UNIT_STRIDE_MMA_DYNAMIC_TILES=$dynamic timeout 40 python3 quick_timing.py \
    fam08_convt1d_k5_d3_131072 fam11_convt2d_k3x7_p1x3_512x1024 l1_71_convt2d_asym_input_square_kernel \
    --precision tf32 --runs 10 --warmup 2 --json "$LOG/dynamic_$dynamic.json" 2>&1 | grep -v Warn \
    | sed "s/^/DYNAMIC=$dynamic /") | tee -a "$LOG/timing_dynamic.log"
done
device_finish
