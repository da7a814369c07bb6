#!/usr/bin/env bash
# Run 173 (session 25): the whole GPU test directory at the session's final kernels (= fa4b6c3's: packed taps and the
# 48-wide C_in tile in the wgmma grad_weight), as far as the session's last device time goes.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"
timeout $((480-SECONDS+t0)) python3 -m pytest -q -rfE -p no:cacheprovider tests > $OUT/pytest.log 2>&1
echo "pytest rc $?"; grep -E "passed|failed|Error|assert" $OUT/pytest.log | tail -12
echo "done $((SECONDS-t0)) s"
