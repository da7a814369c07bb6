#!/usr/bin/env bash
# Session 57, run 358 (nvidia-h200-x4): the TF32 suite (22 rows, verified, tconv vs eager and cuDNN-benchmark) at
# the new default (the 256-column plain gather tile), longest rows first; GPU 0 first runs the preamble (tests and
# the TCONV_GATHER_WIDEST A/B). Pass TCONV_COMMIT=<sha from the development machine>.
OUT="${OUT:-/tmp/tconv_out}" QUEUE_FILE=benchmarks/results/logs/session48-tf32_queue.txt \
  PREAMBLE="bash benchmarks/results/logs/session57-run358-preamble.sh" DEADLINE_S=560 MIN_ROW_S=45 \
  bash scripts/device_queue.sh
