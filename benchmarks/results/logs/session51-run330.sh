#!/usr/bin/env bash
# Run 330 (no build): the host time of tconv's layers above the extension (every entry point a no-op), per fwd+bwd and
# per no-grad forward, with a cProfile over 200 iterations; against the original models' host time (run 329: DCGAN tconv
# 0.793 ms per fwd+bwd with 0.112 inside the entry points; the original model 0.364).
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
export PYTHONUNBUFFERED=1
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
(cd scripts && timeout 150 python3 host_overhead.py real_dcgan_up --precision tf32 --iters 200 --cprofile 45 \
  --noop-extension 2>&1 | grep -v Warning | tee "$OUT/host_noop.log")
(cd scripts && timeout 150 python3 host_overhead.py real_unet3d_up l1_72_convt3d_asym_kernel_strided_padded_grouped \
  --precision tf32 --iters 200 --noop-extension 2>&1 | grep -v Warning | tee -a "$OUT/host_noop.log")
python3 - <<'PY' 2>&1 | tee -a "$OUT/host_noop.log"
import time, torch
x = torch.empty(1, device="cuda")
for label, fn in [("torch.empty 1 MB", lambda: torch.empty(1 << 18, device="cuda")),
                  ("x.unsqueeze(2)", lambda: x.unsqueeze(2)),
                  ("x.view(1, 1)", lambda: x.view(1, 1)),
                  ("torch.backends.cudnn.allow_tf32", lambda: torch.backends.cudnn.allow_tf32),
                  ("x.zero_() launch", lambda: x.zero_())]:
    for _ in range(100): fn()
    torch.cuda.synchronize(); t = time.perf_counter()
    for _ in range(2000): fn()
    print(f"{label}: {1e6 * (time.perf_counter() - t) / 2000:.2f} us", flush=True)
    torch.cuda.synchronize()
PY
