#!/usr/bin/env bash
# Session 115's second call (run 568), one H100, cold; END_S=<seconds it may run>.
# Run 567 (ff42e53): the TF32 channels_last sweep had 17 failures, the first
# test_unit_stride_channels_last_misaligned_inputs[2d_64to64-tf32] with "CUDA error: misaligned address" (async, seen
# at the output check); the 16 after it died of the same sticky error. That test (written in session 114) never ran
# before. This call names the kernel and the pass, and runs the rest in their own processes.
# 1. memcheck of the failing case (the kernel that misaligns); 2. each misaligned case in its own process (tf32, fp32,
# bf16), and the failing one under switches that route its passes elsewhere; 3. the 15 tests after it in run 567.
source scripts/device_prelude.sh
end=${END_S:-420}
t=tests/test_conv_transpose_gpu.py::test_unit_stride_channels_last_misaligned_inputs
one() {  # one test id in its own process: its verdict line, tagged
  local id="$1" tag="$2"; shift 2
  env "$@" timeout 60 python3 -m pytest -q -p no:cacheprovider "$t[$id]" --tb=line 2>&1 \
    | grep -E "passed|failed|error|Error" | tail -2 | cut -c1-200 | sed "s/^/$id $tag: /"
}
left $(( end - 150 )) && timeout 150 compute-sanitizer --tool memcheck --print-limit 4 python3 -m pytest -q \
  -p no:cacheprovider "$t[2d_64to64-tf32]" --tb=line > "$LOG/memcheck_misaligned.log" 2>&1
grep -E "Invalid|isaligned|at 0x|by thread|Address|kernel|SUMMARY|passed|failed" "$LOG/memcheck_misaligned.log" \
  | head -24 | cut -c1-300
for id in 2d_32to32 2d_64to64 3d_64to128; do
  for mode in tf32 fp32 bf16; do left $(( end - 60 )) && one "$id-$mode" default; done
done
for sw in TCONV_UNIT_STRIDE_CL_ACCESS=0 TCONV_GRAD_WEIGHT_SHIFTED_X_CHANNELS_LAST=0 TCONV_UNIT_STRIDE_CL_HALF_TILE=1 \
    TCONV_UNIT_STRIDE_STAGED_STORE=0; do
  left $(( end - 60 )) && one 2d_64to64-tf32 "$sw" "$sw"
done
left $(( end - 120 )) && gpu_tests 120 cl_tf32_rest tests/test_conv_transpose_gpu.py \
  "keeps_256_row_tiles or (one_tap_meets and tf32 and channels_last) or (grouped_tiled_meets and tf32 and channels_last)"
device_finish
