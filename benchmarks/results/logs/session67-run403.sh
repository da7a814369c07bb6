#!/usr/bin/env bash
# Session 67, run 403 (one H200, right after run 402 on the same machine and commit): the whole GPU test suite at the
# new swap rule (2D rows and fp32 data of the wgmma kernel may now swap), then memcheck of sanitize_small.py's
# shifted-x kernels. Pass TCONV_COMMIT=<literal sha>.
source scripts/device_prelude.sh
timeout 420 python3 -m pytest -q tests -x --tb=short -p no:cacheprovider > "$LOG/pytest_all.log" 2>&1
grep -E "^(FAILED|ERROR)|passed|failed" "$LOG/pytest_all.log" | tail -12
[ $(( $(date +%s) - start )) -lt 470 ] && timeout 110 compute-sanitizer --tool memcheck --kernel-name kns=shifted_x \
  python3 tests/sanitize_small.py > "$LOG/memcheck.log" 2>&1; tail -2 "$LOG/memcheck.log"
device_finish
