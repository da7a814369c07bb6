#!/usr/bin/env bash
# Session 95, run 509 (one H200, cold; the session's last ~225 s of device time). Run 508: the window grad_weight's
# split form cut fam06's pass 1.843 -> 0.743 ms and L2-61's 0.840 -> 0.560 (bf16 channels-last). Before it becomes the
# default at every n64 call: A/B kernel breakdowns on the suite's other n64 window grad_weights (64 -> 64: fam05,
# fam01; 48 -> 48: fam03), as many as the time allows, each printed as it ends.
source scripts/device_prelude.sh
for problem in fam05_convt2d_k3x7_512x512 fam01_convt2d_k3_1024x1024 fam03_convt3d_k3_64x64x64; do
  breakdowns_ab 205 TCONV_GRAD_WEIGHT_WINDOW_SPLIT_TILES "0 1" "grad_weight_window" bf16 channels_last "$problem" \
    | grep -A1 "$problem"
done
device_finish
