#!/usr/bin/env bash
# Session 77, run 442 (one H200; the session's last ~570 s of device time). Run at the commit that adds this name,
# passed as TCONV_COMMIT.
# Run 441 timed the channel-tile grad_weight on fam04 TF32 (fwd+bwd 8.134 -> 7.278 ms; verified 7.282, 1.69x eager)
# and found two defects in the tests, not the kernels: two of the three new channel-pair cases had x rows off 16 bytes
# (no x map: no shifted-x kernel), and test_grad_weight_shifted_x's kernel pattern missed the narrow form (session 76's
# default for <= 32 output channels: s5, s7, s20 failed). Both fixed here; device code as run 441's.
# 1. the channel-tile test; 2. test_grad_weight_shifted_x in TF32 and the other shifted-x tests; 3. with the time
# left, the other grad_weight tests of test_conv_transpose_gpu.py.
source scripts/device_prelude.sh
left 330 && timeout 120 python3 -m pytest -q -p no:cacheprovider tests/test_conv_transpose_gpu.py --tb=short \
  -k "shifted_x_channel_tiles" > "$LOG/pytest.log" 2>&1
grep -E "^(FAILED|ERROR)|^E  |passed|failed" "$LOG/pytest.log" | cut -c1-300 | tail -12
left 420 && timeout $(( 490 - ($(date +%s) - start) )) python3 -m pytest -q -p no:cacheprovider \
  tests/test_conv_transpose_gpu.py --tb=short -k "shifted_x and not channel_tiles" > "$LOG/pytest_shifted_x.log" 2>&1
grep -E "^(FAILED|ERROR)|^E  |passed|failed" "$LOG/pytest_shifted_x.log" 2>/dev/null | cut -c1-300 | tail -8
device_finish
