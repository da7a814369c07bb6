#!/usr/bin/env bash
# Session 55, run 352 (the session's last device time): "auto" takes the direct TMA form where the copy budget refuses
# the copy (TCONV_TMA_DIRECT_AUTO defaults to 1). The selection tests (copy budget, the switch, which kernel runs, the
# window rule) and the direct contract and bitwise tests; a verified TF32 row of DCGAN at the defaults (no TCONV_*
# switch set); then one profiled TF32 fwd+bwd of every suite problem: which launch the direct kernel (only DCGAN is
# expected to: run 343 found no other problem taking a per-tap TMA gather even without a budget).
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
LOG="$OUT/logs"; mkdir -p "$LOG"
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build
start=$(date +%s)
left() { echo $(( 545 - ($(date +%s) - start) )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
python3 -m tconv build --break-lock > "$LOG/build.log" 2>&1 || { tail -30 "$LOG/build.log"; exit 1; }
echo "built after $(( $(date +%s) - start )) s"
timeout 170 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_gather_tma_gpu.py \
  -k "keeps_the_copy_budget or direct_auto_switch or is_what_runs or window_auto_rule or direct_meets or agrees_bitwise" \
  2>&1 | tee "$LOG/pytest_tma.log" | tail -4
echo "tests after $(( $(date +%s) - start )) s"
TCONV_COMMIT="${TCONV_COMMIT:-unknown}" timeout 110 python3 -m tconv bench real_dcgan_up --precision tf32 --no-compile \
  --runs 20 --warmup 3 --time-budget 100 --out "$OUT/bench" 2>&1 | grep -v Warning | tee "$LOG/bench.log" \
  | grep -E "verified|left|FAIL|rror|x "
echo "bench after $(( $(date +%s) - start )) s"
ALL=$(python3 -c "import sys; sys.path.insert(0, 'problems'); import suites; print(' '.join(suites.ALL + suites.BLOCKS))")
(cd scripts
 [ "$(left)" -gt 40 ] && timeout $(( $(left) - 10 )) python3 kernel_breakdown.py $ALL --precision tf32 --iters 1 \
   --json "$LOG/kernels_default.json" > "$LOG/kernels_default.log" 2>&1
 python3 - "$LOG/kernels_default.json" <<'PY' 2>&1 | tee "$LOG/tma_use.log"
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
print(f"{len(rows)} problems profiled")
for r in rows:
    tma = [(k["name"].split("<")[0].split("::")[-1], k["launches"], round(k["ms"], 3)) for k in r["kernels"]
           if "gather_tma" in k["name"]]
    print(r["problem"], round(r["total_ms"], 3), tma or "no TMA kernel")
PY
)
rm -f "$OUT"/bench/*.png "$LOG/build.log"
tar -czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$LOG"
echo "total $(( $(date +%s) - start )) s"
