#!/usr/bin/env bash
# Run 107 (session 16): racecheck at 8abd64f on the warm machine of run 106 (the command as passed to the device tool).
export TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build; python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1; python3 -m tconv build > $OUT/build.log 2>&1; t0=$SECONDS; timeout 540 compute-sanitizer --tool racecheck python3 tests/sanitize_small.py > $OUT/racecheck.log 2>&1; echo rc=$?; tail -4 $OUT/racecheck.log; grep -c "Hazard\|hazard" $OUT/racecheck.log; echo "$((SECONDS-t0)) s"
