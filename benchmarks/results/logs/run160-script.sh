#!/usr/bin/env bash
# Run 160 (session 23): d1a5c19 (session 22's four patches landed, "auto" unit-stride from K 512). Build, the whole
# GPU test directory, then the TF32 suite as far as the call goes (rows kept in /tmp/bench_tf32 on the device too, so
# a warm follow-up call resumes without the file travelling; otherwise from the repository copy).
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=d1a5c19
cd "$(dirname "$0")"
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"
if [ "${SKIP_TESTS:-0}" != 1 ]; then
  timeout 230 python3 -m pytest -q -rfE -p no:cacheprovider tests > $OUT/pytest.log 2>&1; grep -E "passed|failed|Error|assert" $OUT/pytest.log | tail -12
  echo "tests $((SECONDS-t0)) s"
fi
mkdir -p /tmp/bench_tf32
prev=$(ls /tmp/bench_tf32/bench_*.json 2>/dev/null | head -1)
[ -z "$prev" ] && [ -n "${RESUME_FROM:-}" ] && cp "$RESUME_FROM" /tmp/bench_tf32/ && prev=/tmp/bench_tf32/$(basename "$RESUME_FROM")
resume=(); [ -n "$prev" ] && resume=(--resume "$prev")
python3 -m tconv bench --suite all --precision tf32 --no-compile --runs 20 --warmup 3 \
  --time-budget $((525-SECONDS+t0)) --out /tmp/bench_tf32 "${resume[@]}" > $OUT/bench.log 2>&1
echo "bench rc $?"; cp /tmp/bench_tf32/bench_*.json $OUT/; tail -25 $OUT/bench.log
echo "done $((SECONDS-t0)) s"
