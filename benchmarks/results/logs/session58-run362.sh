#!/usr/bin/env bash
# Session 58, run 362 (one H200). 0. Two defaults changed after run 361: the 256-column gather tile's grid rule
# at half a wave (run 361: 8 x 256->256 32x32 k3 s1, 128 blocks of 128 columns, ran 0.104 ms against 0.075 on 256
# columns) and the rows grad_weight kernel for 3D problems on (U-Net 3D fwd+bwd 1.092 -> 0.822 ms): the rule's test,
# the rows-3D test, the rule's timing script at the default, and verified TF32 rows of U-Net 3D and its block.
# Then session 57's prepared second call:
# bf16 DCGAN and HiFi-GAN fwd+bwd are far below eager (0.36x and ~0.7x; run 360 and a96b82f's suite), and HiFi-GAN's
# bf16 backward (~6.2 ms) is slower than its TF32 one (~5.9). 1. Their bf16 kernel census (where the backward time
# goes). 2. A same-build A/B of TCONV_GRAD_WEIGHT_WGMMA_ANY_DIMS=1: the wgmma grad_weight kernel for 1D/2D shapes,
# which "auto" keeps on mma.sync from run 34's TF32-only measurements (DCGAN 1.17 vs 1.08 ms, HiFi-GAN 12.4 vs 11.2,
# before the ordered split-K); in bf16 the two kernels' MMA rates differ, and it was never timed there. Also on
# L1-71 (1D/2D suite rows with weak bf16 fwd+bwd; fam01 and fam06 dropped for time). Pass TCONV_COMMIT=<sha>.
source scripts/device_prelude.sh
timeout 100 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_gather_widest_gpu.py -k rule_by_grid \
  tests/test_grad_weight_rows_3d_gpu.py 2>&1 | tee "$LOG/pytest_defaults.log" | tail -2
TCONV_GATHER_TMA=0 timeout 60 python3 scripts/widest_rule_timing.py 2>&1 | tee "$LOG/widest_rule_timing.log"
timeout 90 python3 -m tconv bench real_unet3d_up real_unet3d_up_block --precision tf32 --no-compile --runs 20 \
  --warmup 3 --out "$OUT" 2>&1 | grep -vE "^\s*$" | tee "$LOG/bench.log" | grep -v "^chart\|^results"
rm -f "$OUT"/*.png
echo "census at $(( $(date +%s) - start )) s"
(cd scripts
 for stem in real_dcgan_up real_hifigan_up; do
   for switch in 0 1; do
     TCONV_GRAD_WEIGHT_WGMMA_ANY_DIMS=$switch timeout 40 python3 kernel_breakdown.py $stem --precision bf16 --iters 1 \
       --json "$LOG/kernels_${stem}_bf16_any$switch.json" > "$LOG/kernels_${stem}_bf16_any$switch.log" 2>&1
     echo "ANY_DIMS=$switch"; grep -A6 "^== " "$LOG/kernels_${stem}_bf16_any$switch.log" | cut -c1-150
   done
 done)
echo "A/B at $(( $(date +%s) - start )) s"
OUT="$LOG" SWITCH=TCONV_GRAD_WEIGHT_WGMMA_ANY_DIMS VALUES="1 0" ROUNDS=2 PRECISIONS=bf16 timeout 170 \
  bash scripts/device_switch_ab.sh real_dcgan_up real_hifigan_up l1_71_convt2d_asym_input_square_kernel 2>&1 \
  | cut -c1-170 | tee "$LOG/timing.log"
device_finish
