#!/usr/bin/env bash
# Prepared in session 34 for the next session's first call (its device budget ended after the TF32 suite):
#  1. the build (105-167 s on a fresh H100 machine in session 34), and the shifted-x tests (s19 and s20 are new),
#  2. where the time goes now (scripts/kernel_breakdown.py, bf16 fwd+bwd): L2-61 (shifted-x grad_weight ~1.9 ms
#     against 0.8-1.2 predicted), L1-71 (copied grad_output rows: fwd+bwd 3.32 ms against ~2.5 predicted), fam05,
#     DCGAN, the U-Net and VAE k2 s2, HiFi-GAN, and each one's original Model (cuDNN) for comparison,
#  3. the warp-stall breakdown of the shifted-x kernel on L2-61 bf16 and L1-71 bf16 (scripts/ncu_stalls.sh with
#     KERNEL=shifted_x): whether warp 0's copies, the rounders or the consumers bound it,
#  4. DCGAN's TF32 grad_input on the warp-specialized gather tiles (TCONV_GATHER_SPECIALIZED -1 / 2 / 1),
#  5. the bf16 suite with the time left (not rerun since 00b6783); RESUME=device continues it on the warm machine.
# Usage: COMMIT=<sha> bash benchmarks/results/logs/session34-next_run.sh   (then BUDGET=540 RESUME=device ... for the rest)
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"; python3 -m tconv digest; nvidia-smi --query-gpu=name --format=csv,noheader
if [ -z "${RESUME:-}" ]; then
  # the shifted-x tests, with grid cases s19 and s20 (b860a85), which no GPU has run yet
  timeout 120 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py -k shifted_x \
    > $OUT/pytest_shifted_x.log 2>&1
  echo "shifted-x tests rc $? ($((SECONDS-t0)) s)"; grep -E "passed|failed|Error|assert" $OUT/pytest_shifted_x.log | tail -6
  P="l2_61_convt3d_relu_groupnorm l1_71_convt2d_asym_input_square_kernel fam05_convt2d_k3x7_512x512 real_dcgan_up
     real_unet3d_up real_vae_up real_hifigan_up"
  for which in new original; do
    (cd scripts && timeout 120 python3 kernel_breakdown.py $P --precision bf16 --iters 3 --model $which \
      --json $OUT/breakdown_bf16_$which.json) > $OUT/breakdown_bf16_$which.log 2>&1
    echo "breakdown ($which) rc $? ($((SECONDS-t0)) s)"
  done
  grep -A3 "^==" $OUT/breakdown_bf16_new.log | cut -c1-170
  OUT=$OUT KERNEL=shifted_x CASES="l2_61_bf16:l2_61_convt3d_relu_groupnorm:bf16 l1_71_bf16:l1_71_convt2d_asym_input_square_kernel:bf16" \
    timeout 200 bash scripts/ncu_stalls.sh > $OUT/ncu_shifted_x.log 2>&1
  echo "ncu rc $? ($((SECONDS-t0)) s)"; cat $OUT/ncu_shifted_x.log | cut -c1-160
  # DCGAN's TF32 grad_input (W stride 2) on the warp-specialized gather tiles: "auto" refuses them for strided rows
  # (choose_wider_gather's "spread", measured on HiFi-GAN's W stride 8 only); its forward takes the 256-producer tile
  # already, so forcing 2 changes grad_input alone.
  OUT=$OUT SWITCH=TCONV_GATHER_SPECIALIZED VALUES="-1 2 1" ROUNDS=2 PRECISIONS="tf32" timeout 90 \
    bash scripts/device_switch_ab.sh real_dcgan_up > $OUT/switch_dcgan_specialized.log 2>&1
  echo "DCGAN specialized A/B rc $? ($((SECONDS-t0)) s)"; grep fwd $OUT/switch_dcgan_specialized.log | sed 's/ \+/ /g'
  resume=""
elif [ "$RESUME" = device ]; then
  RESUME=$(ls -t /tmp/suite/bench_*.json | head -1); resume="--resume $RESUME"
fi
mkdir -p /tmp/suite
left=$(( ${BUDGET:-540} - (SECONDS - t0) ))
if [ $left -gt 60 ]; then
  timeout $((585 - (SECONDS - t0))) python3 -m tconv bench --suite all --precision bf16 --no-compile --runs 20 \
    --warmup 3 --time-budget $left ${resume:-} --out /tmp/suite > /tmp/suite/bench.log 2>&1
  echo "bench rc $? (3: rows left)"
  if [ -n "${RESUME:-}" ]; then cp $RESUME $OUT/; cp ${RESUME%.json}.png $OUT/ 2>/dev/null; else cp /tmp/suite/bench_*.json $OUT/; fi
  cp /tmp/suite/bench.log $OUT/bench_$(date +%H%M%S).log
  grep -E "^\[" /tmp/suite/bench.log | cut -c1-200 | tail -30
fi
echo "done $((SECONDS-t0)) s"
