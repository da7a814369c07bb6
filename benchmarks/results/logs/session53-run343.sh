#!/usr/bin/env bash
# Run 343: which suite problems the copy budget moved. Every problem of the 22-shape suite (plus the U-Net block)
# runs one profiled TF32 fwd+bwd under the default (budget 10 %) and under TCONV_TMA_COPY_BUDGET=0 (the whole-batch
# copy, as before e3dbd2f); the problems whose TMA launches differ are then benched (verified TF32 rows) within the
# call's time.
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
LOG="$OUT/logs"; mkdir -p "$LOG"
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build
start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
python3 -m tconv build --break-lock > "$LOG/build.log" 2>&1 || { tail -30 "$LOG/build.log"; exit 1; }
echo "built after $(( $(date +%s) - start )) s"
ALL=$(python3 -c "import sys; sys.path.insert(0, 'problems'); import suites; print(' '.join(suites.ALL + suites.BLOCKS))")
(cd scripts
 timeout 150 python3 kernel_breakdown.py $ALL --precision tf32 --iters 1 --json "$LOG/kernels_default.json" \
   > "$LOG/kernels_default.log" 2>&1
 TCONV_TMA_COPY_BUDGET=0 timeout 150 python3 kernel_breakdown.py $ALL --precision tf32 --iters 1 \
   --json "$LOG/kernels_unbounded.json" > "$LOG/kernels_unbounded.log" 2>&1)
echo "breakdowns after $(( $(date +%s) - start )) s"
MOVED=$(python3 - "$LOG" <<'PY'
import json, sys
log = sys.argv[1]
def tma(path):
    rows = json.load(open(path))["rows"]
    return {r["problem"]: sorted((k["name"][:60], k["launches"]) for k in r["kernels"] if "gather_tma" in k["name"])
            for r in rows}
default, unbounded = tma(f"{log}/kernels_default.json"), tma(f"{log}/kernels_unbounded.json")
moved = [s for s in unbounded if default.get(s) != unbounded[s]]
for s in unbounded:
    print(f"{s}: default {default.get(s)} | unbounded {unbounded[s]}", file=sys.stderr)
print(" ".join(m for m in moved if m not in ("l1_68_convt3d_square_input_asym_kernel", "real_dcgan_up")))
PY
2> "$LOG/tma_use.log")
cat "$LOG/tma_use.log"
echo "moved (besides L1-68 and DCGAN, benched in run 342): ${MOVED:-none}"
built=$(( $(date +%s) - start ))
if [ -n "$MOVED" ]; then
  TCONV_COMMIT="${TCONV_COMMIT:-unknown}" timeout $(( 530 - built )) python3 -m tconv bench $MOVED --precision tf32 \
    --no-compile --runs 20 --warmup 3 --time-budget $(( 500 - built )) --out "$OUT/bench" 2>&1 | grep -v Warning \
    | tee "$LOG/bench.log" | grep -E "verified|left|FAIL|rror"
  rm -f "$OUT"/bench/*.png
fi
rm -f "$LOG/build.log"
tar -czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$LOG"
echo "total $(( $(date +%s) - start )) s"
