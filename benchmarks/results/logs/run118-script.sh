#!/usr/bin/env bash
# Run 118 (session 17): 95371a8 vs b0e89e0 (ab_old) on the short-K wgmma shapes whose suite rows moved up 1-2 %
# across machines (fam13, fam10, fam12), then ncu memory and scheduler sections of the specialized L2-61 forward.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1
cd "$(dirname "$0")"
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1
t0=$SECONDS
OUT=/tmp/ab ROUNDS=0 bash scripts/device_ab.sh ab_old > /tmp/ab_build.log 2>&1 || { cat /tmp/ab_build.log; tail -30 /tmp/ab/build_new.log; exit 1; }
echo "builds $((SECONDS-t0)) s"
OUT=/tmp/ab SKIP_BUILD=1 ROUNDS=2 PRECISIONS=tf32 bash scripts/device_ab.sh ab_old \
  fam13_convt2d_k3_s5_p1_d2_64x128 fam10_convt3d_k3_s2_p1_d2_16x32x32 fam12_convt1d_k3_s2_p1_d2_131072 2>&1 | tee $OUT/ab.log
echo "ab $((SECONDS-t0)) s"
TCONV_BUILD_DIR=/tmp/tconv_build timeout 150 ncu --clock-control none -k "regex:gather_tf32" --launch-skip 0 --launch-count 1 \
  --section SpeedOfLight --section MemoryWorkloadAnalysis --section SchedulerStats --section WarpStateStats --section Occupancy \
  python3 scripts/quick_timing.py l2_61_convt3d_relu_groupnorm --precision tf32 --runs 1 --warmup 1 > $OUT/ncu_l2_61.txt 2>&1
grep -E "Duration|Throughput|Hit Rate|Mem Busy|Max Bandwidth|Issued Warp|No Eligible|Active Warps|Eligible Warps" $OUT/ncu_l2_61.txt | head -30
echo "done $((SECONDS-t0)) s"
