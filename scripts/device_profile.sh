#!/usr/bin/env bash
# One GPU call for deciding what to work on: build, then the per-kernel time of every solution
# (scripts/kernel_breakdown.py, TF32 fwd+bwd) and Nsight Compute on the kernels behind the biggest
# misses (scripts/ncu_core.sh). Logs are packed into $OUT/profile.tgz (the device tool returns few files).
# Usage: OUT=dir bash scripts/device_profile.sh      (PROFILE_NCU=false skips ncu)
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
WORK="$(mktemp -d)"
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST="${TORCH_CUDA_ARCH_LIST:-9.0}" TCONV_BUILD_DIR="${TCONV_BUILD_DIR:-/tmp/tconv_build}"
pack() { tar czf "$OUT/profile.tgz" -C "$WORK" . 2>/dev/null; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee "$WORK/gpu.txt"
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
python3 -m tconv build --break-lock > "$WORK/build.log" 2>&1 || { tail -40 "$WORK/build.log"; pack; echo BUILD FAILED; exit 1; }
ALL=$(python3 -c "import sys; sys.path.insert(0, 'problems'); import suites; print(' '.join(suites.ALL + suites.BLOCKS))")
timeout 240 python3 scripts/kernel_breakdown.py $ALL --precision tf32 --iters 3 --json "$WORK/breakdown_tf32.json" 2>&1 | tee "$WORK/breakdown_tf32.log"
pack
if ${PROFILE_NCU:-true}; then OUT="$WORK" timeout 300 bash scripts/ncu_core.sh 2>&1 | tee "$WORK/ncu_summary.log"; fi
pack
