#!/usr/bin/env bash
# Prepared in session 58, carried over by session 59 (only one-GPU machines were lent then): on nvidia-h200-x4 (rename
# to sessionNN-runMMM.sh when it runs): the bf16 suite (22 rows, verified, tconv vs eager and cuDNN-benchmark) at
# that session's defaults.
# The last full bf16 suite is a96b82f's (bench_20261127-175636_h200_bf16.json); since then the 256-column gather tile
# (runs 358-360), the rows grad_weight kernel on 3D problems (run 361) and the 16-bit rows grad_weight kernel (run
# 363: DCGAN bf16 fwd+bwd 1.438 -> 0.865 ms, VAE 2.02 -> 1.30, U-Net 3D 1.06 -> 0.92) changed bf16 rows. No preamble.
# Pass TCONV_COMMIT=<sha from the development machine>. On one GPU it also runs, fewer rows per call (rows take
# ~45-60 s each after a ~3-minute build): the rows not started come back in results.tgz as queue_left.txt, which
# the next call takes as its QUEUE_FILE.
OUT="${OUT:-/tmp/tconv_out}" QUEUE_FILE=benchmarks/results/logs/session46-bf16_queue.txt DEADLINE_S=560 MIN_ROW_S=45 \
  bash scripts/device_queue.sh
