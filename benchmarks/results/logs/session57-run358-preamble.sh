#!/usr/bin/env bash
# Run 358's preamble on GPU 0 (scripts/device_queue.sh PREAMBLE): the 256-column plain gather tile, now the default
# for fp32 TF32 gather GEMMs with >= 256 columns: its bitwise test and its contract (now run by default), the
# specialized tiles' contract (some of its cases now take the 256-column tile), then a same-build A/B of
# TCONV_GATHER_WIDEST=0 (the 128-column tiles) against the default on the suite's problems with >= 256 GEMM
# columns somewhere (forward folded, or grad_input), two rounds.
set -uo pipefail
timeout 200 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_gather_widest_gpu.py \
  tests/test_gather_specialized_gpu.py 2>&1 | tail -4
OUT="$WORK/ab" SWITCH=TCONV_GATHER_WIDEST VALUES="1 0" ROUNDS=2 PRECISIONS=tf32 timeout 300 \
  bash scripts/device_switch_ab.sh real_dcgan_up real_hifigan_up real_unet3d_up real_unet3d_up_block real_vae_up \
  fam13_convt2d_k3_s5_p1_d2_64x128 2>&1 | cut -c1-170
