#!/usr/bin/env bash
# Run 264: the tensor-core grouped kernels' lines form (src lines of a tile of dst rows staged in shared memory by
# cp.async; conv_transpose_grouped_mma.cu), uncommitted on 9509bc4: the grouped GPU tests with
# TCONV_GROUPED_MMA_LINES 1 and the grouped_mma ones with 0, memcheck and racecheck of the lines kernel, then a
# same-build A/B on L1-73, L1-72 and fam09: FFMA "grouped" against "grouped_mma" in the lines form and run 78's form.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
MAX_JOBS=16 python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"; python3 -m tconv digest; nvidia-smi --query-gpu=name --format=csv,noheader
timeout 150 python3 -m pytest -q -rfE -p no:cacheprovider --maxfail=10 tests/test_conv_transpose_gpu.py -k "grouped_mma_lines" \
  > $OUT/pytest_lines.log 2>&1
echo "lines tests rc $? ($((SECONDS-t0)) s)"; tail -1 $OUT/pytest_lines.log; grep -E "^FAILED|^ERROR" $OUT/pytest_lines.log | head
cat > /tmp/lines_sanitize.py <<'PY'
import torch, tconv
torch.backends.cuda.matmul.allow_tf32 = True
torch.backends.cudnn.allow_tf32 = True
cases = 0
for dtype in (torch.float32, torch.bfloat16):
    for spatial, kernel, stride, padding, opad, channels_last in (([3, 9, 20], 3, 2, 1, 0, False),
                                                                  ([2, 5, 12], (3, 5, 7), 2, (1, 2, 3), 1, False),
                                                                  ([3, 9, 21], 3, 2, 1, 0, False),
                                                                  ([3, 9, 20], 3, 2, 1, 0, True)):
        x = torch.randn(2, 32, *spatial, device="cuda", dtype=dtype, requires_grad=True)
        if channels_last:
            x = x.detach().contiguous(memory_format=torch.channels_last_3d).requires_grad_()
        w = torch.randn(32, 8, *(kernel if isinstance(kernel, tuple) else (kernel,) * 3), device="cuda", dtype=dtype)
        with tconv._ops.use_algorithm("grouped_mma"):
            y = tconv.functional.conv_transpose3d(x, w, None, stride, padding, opad, 4)
            y.backward(torch.ones_like(y))
        torch.cuda.synchronize()
        cases += 1
print(f"lines_sanitize: {cases} cases")
PY
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool --kernel-name kns=grouped_mma_lines python3 /tmp/lines_sanitize.py \
    > $OUT/sanitize_$tool.log 2>&1; echo "$tool rc $? ($((SECONDS-t0)) s)"; tail -2 $OUT/sanitize_$tool.log
done
(cd scripts && for lines in 1 0; do
  algos="grouped_mma"; [ $lines = 1 ] && algos="grouped grouped_mma"
  TCONV_GROUPED_MMA_LINES=$lines timeout 120 python3 quick_timing.py l1_73_convt3d_strided_padded_grouped \
    l1_72_convt3d_asym_kernel_strided_padded_grouped fam09_convt2d_k3x5_s2x3_p1x2_d2x1_g4_128x256 \
    --precision tf32 bf16 fp32 --algorithm $algos --runs 10 --warmup 2 --json $OUT/ab_lines$lines.json 2>&1 | sed "s/^/LINES=$lines /"
done) > $OUT/ab.log 2>&1
echo "A/B ($((SECONDS-t0)) s)"; cat $OUT/ab.log | cut -c1-160
left=$(( 560 - (SECONDS - t0) ))
[ $left -gt 40 ] && TCONV_GROUPED_MMA_LINES=1 timeout $left python3 -m pytest -q -rfE -p no:cacheprovider \
  tests/test_conv_transpose_gpu.py -k "grouped" > $OUT/pytest_grouped.log 2>&1
echo "grouped tests rc $? ($((SECONDS-t0)) s)"; tail -1 $OUT/pytest_grouped.log; grep -E "^FAILED|^ERROR" $OUT/pytest_grouped.log | head -20
echo "done $((SECONDS-t0)) s"
