#!/usr/bin/env bash
# Prepared in session 24 for the next session's first device calls (not run): the complete TF32 suite at the session's
# final commit. The last complete one is d1a5c19's (runs 160-161); since then only fam13, fam12 and fam10 were
# re-benched (run 167, the W fold at any stride), and the W fold's store changed for every folded forward (U-Net, VAE,
# HiFi-GAN's gather path, bf16 included), which no bench has timed since. Two calls: the first runs as far as its
# budget goes (rows kept in /tmp/bench_tf32 on the device), the second, on the machine the first left warm (within
# ~30 s), resumes: SKIP_BUILD=1 RESUME_FROM=<the first call's JSON, copied into the repository> bash <this script>.
# Run from the repository root on the device.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
t0=$SECONDS
if [ "${SKIP_BUILD:-0}" != 1 ]; then
  python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
  python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
  echo "build $((SECONDS-t0)) s"
fi
mkdir -p /tmp/bench_tf32
prev=$(ls /tmp/bench_tf32/bench_*.json 2>/dev/null | head -1)
[ -z "$prev" ] && [ -n "${RESUME_FROM:-}" ] && cp "$RESUME_FROM" /tmp/bench_tf32/ && prev=/tmp/bench_tf32/$(basename "$RESUME_FROM")
resume=(); [ -n "$prev" ] && resume=(--resume "$prev")
python3 -m tconv bench --suite all --precision tf32 --no-compile --runs 20 --warmup 3 \
  --time-budget $((560-SECONDS+t0)) --out /tmp/bench_tf32 "${resume[@]}" > $OUT/bench.log 2>&1
echo "bench rc $?"; cp /tmp/bench_tf32/bench_*.json $OUT/; tail -26 $OUT/bench.log | cut -c1-220
echo "done $((SECONDS-t0)) s"
