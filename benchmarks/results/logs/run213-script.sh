#!/usr/bin/env bash
# Run 213 (session 32): the whole GPU test directory at the final kernel sources (the 1D strip forward and the
# shifted-x grad_weight on fp16/bf16; the shifted-x unit rule: 16-bit 32 always, fp32 32 where it computes at most
# 1.05x the positions of 16), then, in the time left, `tconv bench` of the bf16 rows these change (L1-68, HiFi-GAN).
# Usage: COMMIT=<sha> bash run213.sh   (the call's limit: ~545 s of device budget)
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"; python3 -m tconv digest
timeout $((470 - (SECONDS - t0))) python3 -m pytest -q -rfE -p no:cacheprovider tests > $OUT/pytest.log 2>&1
echo "pytest rc $? ($((SECONDS-t0)) s)"; grep -E "passed|failed|Error" $OUT/pytest.log | tail -12
mkdir -p /tmp/rows
timeout $((535 - (SECONDS - t0))) python3 -m tconv bench --precision bf16 --no-compile --runs 20 --warmup 3 \
  --time-budget $((500 - (SECONDS - t0))) --out /tmp/rows l1_68_convt3d_square_input_asym_kernel real_hifigan_up \
  > /tmp/rows/bench.log 2>&1
echo "bench rc $? (3: rows left)"; cp /tmp/rows/bench_*.json /tmp/rows/bench.log $OUT/ 2>/dev/null
grep -E "^\[" /tmp/rows/bench.log | cut -c1-200 | tail -8
echo "done $((SECONDS-t0)) s"
