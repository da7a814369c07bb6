#!/usr/bin/env bash
# Session 58, run 365 (one H200, the session's last ~4 minutes of device time): TCONV_GRAD_WEIGHT_ROWS16_OVERLAP=1
# (the 16-bit rows grad_weight kernel keeps one stage's wgmmas in flight while it loads the next stage's fragments;
# off by default, written after run 364). A quick check of its bf16 grad_weight (DCGAN's layer at batch 16) against
# float64 and against the default kernel, then a same-build A/B on DCGAN and VAE (bf16, two rounds).
# Pass TCONV_COMMIT=<sha>.
source scripts/device_prelude.sh
for v in 1 0; do
  TCONV_GRAD_WEIGHT_ROWS16_OVERLAP=$v timeout 30 python3 - <<'PY' 2>&1 | tee -a "$LOG/check.log"
import os, torch, tconv
g = torch.Generator(device="cuda").manual_seed(3)
x = torch.randn(16, 512, 16, 16, device="cuda", generator=g).bfloat16()
w = torch.randn(512, 256, 4, 4, device="cuda", generator=g).bfloat16().requires_grad_()
dy = torch.randn(16, 256, 32, 32, device="cuda", generator=g).bfloat16()
tconv.conv_transpose2d(x, w, None, 2, 1).backward(dy)
ref = torch.ops.aten.convolution_backward(dy.double(), x.double(), w.double(), None, [2, 2], [1, 1], [1, 1], True,
                                          [0, 0], 1, [False, True, False])[1]
err = ((w.grad.double() - ref).norm() / ref.norm()).item()
torch.save(w.grad, f"/tmp/gw_{os.environ['TCONV_GRAD_WEIGHT_ROWS16_OVERLAP']}.pt")
print(f"OVERLAP={os.environ['TCONV_GRAD_WEIGHT_ROWS16_OVERLAP']} grad_weight relative error vs float64 {err:.3e}")
PY
done
python3 -c "import torch; a, b = torch.load('/tmp/gw_1.pt'), torch.load('/tmp/gw_0.pt')
print('overlap vs default equal:', torch.equal(a, b), (a.float() - b.float()).abs().max().item())" 2>&1 \
  | tee -a "$LOG/check.log"
OUT="$LOG" SWITCH=TCONV_GRAD_WEIGHT_ROWS16_OVERLAP VALUES="1 0" ROUNDS=2 PRECISIONS=bf16 timeout 60 \
  bash scripts/device_switch_ab.sh real_dcgan_up real_vae_up 2>&1 | cut -c1-170 | tee "$LOG/timing.log"
device_finish
