#!/usr/bin/env bash
# Run 159: session 22's prepared call (benchmarks/results/logs/session22-next_run.sh: the four patches, build,
# strip tests, memcheck, racecheck, the unit-stride sweeps with and without weights-as-A), plus in the background,
# once the build's object exists, the unit-stride forward's SASS counts (R2UR and HGMMA per kernel instance) to
# see whether uniform_slot gave uniform-register descriptors.
set -uo pipefail
(
  for i in $(seq 1 120); do
    so=$(find /tmp/tconv_build -name "*.so" 2>/dev/null | head -1); [ -n "$so" ] && break; sleep 5
  done
  o=$(find /tmp/tconv_build -name "conv_transpose_igemm*.o" | head -1)
  cuobjdump -sass "$o" 2>/dev/null | awk '
    /Function :/ { name=$3; keep = (name ~ /unit_stride_forward_kernel/) }
    keep && /R2UR/ { r2ur[name]++ } keep && /HGMMA/ { hg[name]++ } keep && /STL|LDL/ { local_[name]++ }
    END { for (n in hg) printf "%s R2UR=%d HGMMA=%d LOCAL=%d\n", n, r2ur[n], hg[n], local_[n] }' > $OUT/sass_counts.txt
) &
bash benchmarks/results/logs/session22-next_run.sh
wait
cat $OUT/sass_counts.txt | cut -c1-60,200- | head -20
