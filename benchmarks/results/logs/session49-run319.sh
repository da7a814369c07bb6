#!/usr/bin/env bash
# Run 319 (session 49's first call): Next 1 and 2 of session 48, and where DCGAN's grad_input goes.
#  1. the TF32 grad_weight both ways on the 3D rows (shifted-x against igemm_mma; the autotune times each pass's
#     candidates) to set a rule on W_out's padding in units of 16;
#  2. ncu of L1-71's TF32 forward (unit_stride_mma, 64-position tiles): sections and the source page;
#  3. ncu of DCGAN's TF32 grad_input (the 4th gather launch of quick_timing: 2 forwards, then fwd+bwd).
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build
start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
python3 -m tconv build --break-lock > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "built after $(( $(date +%s) - start )) s"
timeout 240 python3 benchmarks/results/logs/session48-run318_autotune.py l2_61_convt3d_relu_groupnorm \
  fam03_convt3d_k3_64x64x64 l1_68_convt3d_square_input_asym_kernel fam07_convt3d_k3_96x96x96 real_unet3d_up \
  > "$OUT/autotune.log" 2>&1
echo "autotune rc $? after $(( $(date +%s) - start )) s"
S="--section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section SchedulerStats --section WarpStateStats --section Occupancy"
timeout 120 ncu --clock-control none --kernel-name regex:"unit_stride_mma_kernel" --launch-count 1 $S \
  python3 scripts/quick_timing.py l1_71_convt2d_asym_input_square_kernel --precision tf32 --runs 1 --warmup 1 \
  > "$OUT/ncu_l1_71_tf32_fwd.txt" 2>&1
echo "ncu l1_71 rc $? after $(( $(date +%s) - start )) s"
KERNEL=unit_stride_mma_kernel CASES="l1_71_tf32:l1_71_convt2d_asym_input_square_kernel:tf32" OUT=/tmp/src \
  timeout 150 bash scripts/ncu_source.sh
python3 scripts/ncu_source_summary.py /tmp/src/src_l1_71_tf32.csv --top 40 > "$OUT/src_l1_71_tf32_summary.txt" 2>&1
gzip -c /tmp/src/src_l1_71_tf32.csv > "$OUT/src_l1_71_tf32.csv.gz"
echo "source page after $(( $(date +%s) - start )) s"
timeout 120 ncu --clock-control none --kernel-name regex:"gather_tf32" --launch-skip 3 --launch-count 1 $S \
  --section LaunchStats python3 scripts/quick_timing.py real_dcgan_up --precision tf32 --runs 1 --warmup 1 \
  > "$OUT/ncu_dcgan_tf32_grad_input.txt" 2>&1
echo "ncu dcgan rc $? after $(( $(date +%s) - start )) s"
grep -vE "^\s*$" "$OUT/autotune.log" | tail -40
for f in "$OUT"/ncu_*.txt; do echo "== $f"; grep -E "Duration|Grid Size|Block Size|Registers Per|Dynamic Shared|Compute \(SM\) Throughput|Memory Throughput|L1/TEX Cache Throughput|Issue Slots Busy|No Eligible|Achieved Active Warps|Warp Cycles Per Issued|Block Limit|Bank Conf" "$f" | cut -c1-140 | head -24; done
head -50 "$OUT/src_l1_71_tf32_summary.txt"
