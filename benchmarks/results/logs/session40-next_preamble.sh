#!/usr/bin/env bash
# Prepared in session 40 (no device time left): the next session's first call, as scripts/device_queue.sh's PREAMBLE
# on GPU 0 while the other GPUs run the exact fp32 suite from session40-next_queue.txt (longest rows first):
#   OUT=$OUT TCONV_COMMIT=<sha> QUEUE_FILE=benchmarks/results/logs/session40-next_queue.txt \
#   PREAMBLE="bash benchmarks/results/logs/session40-next_preamble.sh" DEADLINE_S=570 bash scripts/device_queue.sh
# 1. bb4815a's grad_weight rule (3xTF32 at 8 x 8 on tensor cores) and its updated test, never run on a GPU.
# 2. If session40-grad_weight_items.patch is applied (git apply, then commit): its switch test, then grad_weight alone
#    with j parts 1/2, the balanced item order 0/1 and de-interleaved grad_output rows 0/1
#    (TCONV_GROUPED_MMA_GRAD_WEIGHT_JPARTS / _BALANCED / _DEINTERLEAVE).
# 3. If session39-lines_prefetch_a.patch is applied too: the lines tests and the three grouped forwards.
# 4. grad_input's lines form against the FFMA kernel at 8 warps (auto against grouped_mma, fwd+bwd).
# Logs go to $WORK (packed by the queue script).
export OMP_NUM_THREADS=16
t0=$SECONDS
timeout 200 python3 -m pytest -q -rfE --maxfail=6 -p no:cacheprovider tests/test_conv_transpose_gpu.py \
  -k "auto_picks_grouped or grouped_mma_grad_weight or grouped_mma_lines or random_sweep_grouped and auto or grid_grouped and auto" \
  > $WORK/pytest_rule.log 2>&1
echo "rule, grad_weight and lines tests rc $? ($((SECONDS-t0)) s)"; tail -1 $WORK/pytest_rule.log
grep -E "^FAILED|^ERROR" $WORK/pytest_rule.log | head
P="l1_73_convt3d_strided_padded_grouped l1_72_convt3d_asym_kernel_strided_padded_grouped fam09_convt2d_k3x5_s2x3_p1x2_d2x1_g4_128x256"
(cd scripts
 for cfg in "1 0 0" "1 1 0" "2 0 0" "2 1 0" "1 0 1" "2 1 1"; do set -- $cfg
   TCONV_GROUPED_MMA_GRAD_WEIGHT_JPARTS=$1 TCONV_GROUPED_MMA_GRAD_WEIGHT_BALANCED=$2 TCONV_GROUPED_MMA_GRAD_WEIGHT_DEINTERLEAVE=$3 \
     timeout 60 python3 grad_weight_timing.py $P --precision tf32 bf16 --algorithm grouped_mma --runs 10 \
     | sed "s/^/JPARTS=$1 BALANCED=$2 DEINTERLEAVE=$3 /"
 done
 # auto against grouped_mma: the same forward and grad_weight, so fwd+bwd differs by grad_input (FFMA under auto, the
 # lines form forced; run 264 had the lines form slower on L1-73 at 4 warps, and the default is 8 warps since f72f6e6)
 timeout 90 python3 quick_timing.py $P --precision tf32 bf16 --algorithm auto grouped_mma --runs 10 --warmup 2) \
 > $WORK/ab.log 2>&1
grep -E "grad_weight|fwd" $WORK/ab.log | sed 's/ \+/ /g' | cut -c1-170
echo "preamble done $((SECONDS-t0)) s"
