#!/usr/bin/env bash
# Session 60, run 373 (one H200): run 371 again (the same sweep) after two autotune fixes: candidates that allocate
# past the memory contract are refused, and a slow first run is repeated once before a candidate is given up (run 371
# gave up on L1-68's TF32 forward under "igemm" and "igemm_strip" after first runs of ~86 ms, so neither was timed).
# Session 59 found fam04's TF32 forward on a 1.35x slower kernel for want of a re-timed rule (run 367), and found that
# tconv's autotune had no "igemm_strip" candidate, so run 318's autotune sweep could not see it. Now that it has, time
# every pass's candidates on the whole TF32 suite and on the bf16 one (quick_timing --algorithm autotune: each
# candidate of each pass timed once per signature, "auto" among them) and list the passes where another candidate
# beats "auto" by more than 3 %. Each of those is a rule to re-time (or a candidate's error: the sweep also lists
# refusals). Pass TCONV_COMMIT=<sha>.
source scripts/device_prelude.sh
SUITE="l1_68_convt3d_square_input_asym_kernel l1_73_convt3d_strided_padded_grouped
l1_71_convt2d_asym_input_square_kernel l1_72_convt3d_asym_kernel_strided_padded_grouped l2_61_convt3d_relu_groupnorm
fam01_convt2d_k3_1024x1024 fam02_convt3d_k3x5x7_16x32x64 fam03_convt3d_k3_64x64x64 fam04_convt1d_k3_65536
fam05_convt2d_k3x7_512x512 fam06_convt2d_k3x5_128x256 fam07_convt3d_k3_96x96x96 fam08_convt1d_k5_d3_131072
fam09_convt2d_k3x5_s2x3_p1x2_d2x1_g4_128x256 fam10_convt3d_k3_s2_p1_d2_16x32x32 fam11_convt2d_k3x7_p1x3_512x1024
fam12_convt1d_k3_s2_p1_d2_131072 fam13_convt2d_k3_s5_p1_d2_64x128 real_unet3d_up real_dcgan_up real_hifigan_up
real_vae_up"
timeout 60 python3 -m pytest -q -x tests/test_autotune_cpu.py tests/test_conv_transpose_gpu.py -k autotune 2>&1 | tail -5 | tee "$LOG/pytest_autotune.log"
(cd scripts
 for precision in tf32 bf16; do
   echo "== $precision at $(( $(date +%s) - start )) s"
   timeout 165 python3 quick_timing.py $SUITE --precision $precision --algorithm autotune --runs 5 --warmup 1 \
     --json "$LOG/autotune_$precision.json" 2>&1 | grep -v Warn | tee "$LOG/autotune_$precision.log" | cut -c1-220
 done
 echo "== passes where a candidate beats auto by more than 3 %"
 python3 - "$LOG" <<'PY'
import glob, json, sys
for path in sorted(glob.glob(sys.argv[1] + "/autotune_*.json")):
    for row in json.load(open(path)).get("rows", []):
        for entry in row.get("autotune", []):
            times = entry["times_ms"]
            if "auto" in times and entry["winner"] != "auto" and times[entry["winner"]] < 0.97 * times["auto"]:
                print(row["problem"], row["precision"], entry["op"], "auto", round(times["auto"], 3), "->",
                      entry["winner"], round(times[entry["winner"]], 3))
PY
) 2>&1 | tee "$LOG/autotune_sweep.log" | tail -40
device_finish
