#!/usr/bin/env bash
# Run 333: same-machine A/B of the host-time cuts: `tconv bench real_dcgan_up` (TF32) alternating this tree and
# 018f13d's Python (ab_old: git archive 018f13d tconv problems solutions, carried), two rounds. The C++/CUDA sources
# are identical between the two, so both load the one build (the old tree's _build.CSRC points at this tree's csrc).
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
REPO="$PWD"
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build
start=$(date +%s)
diff -r ab_old/tconv/csrc tconv/csrc > /dev/null || { echo "the two trees' CUDA sources differ"; exit 2; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
python3 -m tconv build --break-lock > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "built after $(( $(date +%s) - start )) s"
ARGS="'bench', 'real_dcgan_up', '--precision', 'tf32', '--no-compile', '--runs', '30', '--warmup', '5'"
for round in 1 2; do
  TCONV_COMMIT=new timeout 100 python3 -c "import sys, tconv; assert tconv.__file__.startswith('$REPO/tconv'); \
from tconv.__main__ import main; sys.exit(main([$ARGS, '--out', '$OUT/new$round']))" 2>&1 | grep -E "^\[1/1\]" \
    | sed "s/^/new round $round: /" | tee -a "$OUT/ab.log"
  (cd ab_old && TCONV_COMMIT=018f13d PYTHONPATH="$REPO/ab_old" timeout 100 python3 -c "import sys, tconv, tconv._build; \
assert tconv.__file__.startswith('$REPO/ab_old/'), tconv.__file__; tconv._build.CSRC = '$REPO/tconv/csrc'; \
from tconv.__main__ import main; sys.exit(main([$ARGS, '--out', '$OUT/old$round']))" 2>&1 | grep -E "^\[1/1\]|Error|error" \
    | sed "s/^/old round $round: /" | tee -a "$OUT/ab.log")
done
cd "$OUT" && rm -f */*.png && tar czf ab_json.tgz new1 new2 old1 old2 && rm -rf new1 new2 old1 old2
echo "total $(( $(date +%s) - start )) s"
