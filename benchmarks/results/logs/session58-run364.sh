#!/usr/bin/env bash
# Session 58, run 364 (one H200): the 16-bit rows grad_weight kernel's test again (run 363: every contract passed,
# but the first shape's input W of 20 elements, 40 bytes per row, is no TMA map's stride and was rightly left to the
# mma.sync kernel; the grid's W sizes are now multiples of 8), then the rows tests of test_conv_transpose_gpu.py in
# every mode, layout and algorithm (fp16/bf16 cases now take the 16-bit kernel; the fp32 rows kernels' stage issuer
# was generalized for it), the 3D rows test, and a verified bf16 row of the U-Net block. Pass TCONV_COMMIT.
source scripts/device_prelude.sh
timeout 120 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_grad_weight_rows16_gpu.py \
  tests/test_grad_weight_rows_3d_gpu.py 2>&1 | tee "$LOG/pytest_rows16.log" | tail -3
timeout 200 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "grad_weight_rows" 2>&1 \
  | tee "$LOG/pytest_rows.log" | tail -3
echo "bench at $(( $(date +%s) - start )) s"
timeout 80 python3 -m tconv bench real_unet3d_up_block --precision bf16 --no-compile \
  --runs 20 --warmup 3 --out "$OUT" 2>&1 | grep -vE "^\s*$" | tee "$LOG/bench.log" | grep -v "^chart\|^results"
rm -f "$OUT"/*.png
device_finish
