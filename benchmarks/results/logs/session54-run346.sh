#!/usr/bin/env bash
# Session 54, run 346: which "igemm_tma_direct" calls fault (run 345: an illegal instruction on dcgan_auto, after
# asym_3d passed), one process per case, then compute-sanitizer on the first failing one (kernel and PC).
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build
start=$(date +%s)
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
python3 -m tconv build --break-lock > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
echo "built after $(( $(date +%s) - start )) s"
P="timeout 40 python3 scripts/tma_direct_probe.py"
first_fail=""
while read -r c; do
  $P $c 2>&1 | tail -1
  [ "${PIPESTATUS[0]}" != 0 ] && [ -z "$first_fail" ] && first_fail="$c"
done <<'CASES'
3 1 128 128 2,3,2 2,1,2 0,1,0 4,16,8
3 2 128 128 2,3,2 2,1,2 0,1,0 4,16,8
2 1 128 128 4,4 2,2 1,1 16,16
2 2 128 128 4,4 2,2 1,1 16,16
2 1 512 128 4,4 2,2 1,1 16,16
2 2 512 128 4,4 2,2 1,1 16,16
2 1 32 128 4,4 2,2 1,1 16,16
2 1 128 64 4,4 2,2 1,1 16,16
2 1 128 128 1,1 1,1 0,0 16,16
2 1 128 128 3,3 1,1 1,1 16,32
3 1 128 128 1,1,1 1,1,1 0,0,0 4,16,8
3 1 128 128 2,2,2 2,2,2 0,0,0 4,16,8
3 1 32 128 3,3,3 1,1,1 1,1,1 6,12,20
CASES
echo "first failing: $first_fail"
if [ -n "$first_fail" ]; then
  CUDA_LAUNCH_BLOCKING=1 timeout 60 compute-sanitizer --tool memcheck --print-limit 4 --show-backtrace no \
    python3 scripts/tma_direct_probe.py $first_fail 2>&1 | grep -v "^=========     " | head -40
fi
echo "total $(( $(date +%s) - start )) s"
