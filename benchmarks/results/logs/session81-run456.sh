#!/usr/bin/env bash
# Session 81, run 456 (one H200, the session's last device time: ~600 s held); TCONV_COMMIT is this commit's full
# sha, passed by the caller.
# Run 455's ncu of VAE's channels-last bf16 forward (the 16-bit TMA gather, K 256, 8192 blocks, one per SM): 808 us,
# tensor pipe 8 %, DRAM 10 %, no eligible warp 66 % of cycles, 6.45 cycles per issued instruction (2.4 of them
# fixed-latency waits): the blocks' own instructions (64-bit block decode, per-position divisions, 2-byte stores)
# and no second block to overlap them. Since then, untested:
# - the epilogue's tile positions by shifts (tiles are powers of two), 32-bit block decode, channels-last stores of
#   four channels a lane (every TMA gather form: the TF32 copy and direct forms too);
# - two blocks per SM for in-place 16-bit calls: 3-stage 128-column blocks for K loops of <= 8 stages
#   (TCONV_TMA_SHORT_RING), 4-stage 64-column blocks (TCONV_TMA_NARROW_PAIR).
# 1. tests: test_gather_tma_gpu.py, the paired tiles' switch tests and the in-place contract first, then the rest
#    (every TMA gather form) while their limits allow;
# 2. channels-last bf16 timings: five rows by default, and with each pairing switch off where it applies;
# 3. verified channels-last bf16 rows while time lasts.
source scripts/device_prelude.sh
selected="paired or in_place or 16bit or partial or channels_last_output"
left 330 && gpu_tests 110 tma_changed tests/test_gather_tma_gpu.py "$selected"
left 330 && gpu_tests 80 tma_rest tests/test_gather_tma_gpu.py "not ($selected)"
{
  for problem in real_vae_up real_unet3d_up l1_71_convt2d_asym_input_square_kernel l2_61_convt3d_relu_groupnorm \
      real_dcgan_up; do
    left 470 && LAYOUT=channels_last quick_time default "$problem" bf16 auto
  done
  left 480 && LAYOUT=channels_last quick_time short_ring_0 real_vae_up bf16 auto TCONV_TMA_SHORT_RING=0
  left 490 && LAYOUT=channels_last quick_time narrow_pair_0 l1_71_convt2d_asym_input_square_kernel bf16 auto \
    TCONV_TMA_NARROW_PAIR=0
  left 500 && LAYOUT=channels_last quick_time narrow_pair_0 l2_61_convt3d_relu_groupnorm bf16 auto \
    TCONV_TMA_NARROW_PAIR=0
} | tee "$LOG/timing.log"
budget=$(( 540 - ($(date +%s) - start) ))
[ "$budget" -gt 30 ] && timeout $(( budget + 40 )) python3 -m tconv bench real_vae_up real_unet3d_up \
  l1_71_convt2d_asym_input_square_kernel real_dcgan_up l2_61_convt3d_relu_groupnorm --precision bf16 \
  --layout channels_last --no-compile --runs 20 --warmup 3 --time-budget "$budget" --out "$OUT" 2>&1 \
  | grep -vE "^\s*$" | tee "$LOG/bench_channels_last.log" | grep -v "^chart\|^results\|^resume"
find "$OUT" -maxdepth 1 -name 'bench_*.json' -empty -delete
rm -f "$OUT"/*.png
device_finish
