#!/usr/bin/env bash
# Prepared in session 37 (no device time left to run it): an A/B of session 37's unapplied patches against the
# committed tree on one machine. The committed tree builds through the editable install; a copy with the patches
# applied builds beside it (its own TCONV_BUILD_DIR, imported through PYTHONPATH), both at once. Then the copy's GPU
# tests for what the patches touch, and quick_timing in alternating processes, two rounds.
# Usage: COMMIT=<sha> PATCHES="benchmarks/results/logs/session37-defer_16bit_pack.patch ..." \
#        SHAPES="fam06_convt2d_k3x5_128x256 fam04_convt1d_k3_65536 l1_68_convt3d_square_input_asym_kernel" \
#        PRECISIONS="bf16" TESTS='tests/test_conv_transpose_gpu.py -k "unit_stride or strip_forward"' \
#        bash benchmarks/results/logs/session37-patch_ab.sh
# (the conv-store statistics patch: TESTS='tests/test_fused_gpu.py -k conv_store', and its timing needs
# TCONV_CONV_STORE_STATISTICS=1 in the environment on both sides.)
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
B=/tmp/tree_b; rm -rf $B; mkdir -p $B; tar -cf - --exclude=./.git . | tar -xf - -C $B
for patch in ${PATCHES:?name the patches}; do (cd $B && git apply "$patch") || { echo "patch $patch does not apply"; exit 1; }; done
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
TCONV_BUILD_DIR=/tmp/tconv_build MAX_JOBS=8 python3 -c "import tconv; tconv._build.load()" > /tmp/build_a.log 2>&1 &
(cd $B && PYTHONPATH=$B TCONV_BUILD_DIR=/tmp/build_b MAX_JOBS=8 python3 -c "import tconv; tconv._build.load()") \
  > /tmp/build_b.log 2>&1 &
wait
grep -E " error|Error" /tmp/build_a.log /tmp/build_b.log | head -20
echo "builds $((SECONDS-t0)) s"; python3 -m tconv digest; (cd $B && PYTHONPATH=$B python3 -m tconv digest)
(cd $B && eval "PYTHONPATH=$B TCONV_BUILD_DIR=/tmp/build_b timeout 150 python3 -m pytest -q -rfE -p no:cacheprovider \
  ${TESTS:?name the tests}") > $OUT/pytest_patched.log 2>&1
echo "patched GPU tests rc $? ($((SECONDS-t0)) s)"; tail -1 $OUT/pytest_patched.log; grep -E "^FAILED|^ERROR" $OUT/pytest_patched.log | head
for round in 1 2; do
  (cd scripts && TCONV_BUILD_DIR=/tmp/tconv_build python3 quick_timing.py $SHAPES --precision ${PRECISIONS:-bf16} \
    --runs 10 --warmup 2 | sed "s/^/committed /")
  (cd $B/scripts && PYTHONPATH=$B TCONV_BUILD_DIR=/tmp/build_b python3 quick_timing.py $SHAPES \
    --precision ${PRECISIONS:-bf16} --runs 10 --warmup 2 | sed "s/^/patched   /")
done 2>&1 | grep -E "fwd" | sed 's/ \+/ /g' | tee $OUT/patch_ab.log
echo "done $((SECONDS-t0)) s"
