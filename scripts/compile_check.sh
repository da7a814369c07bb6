#!/usr/bin/env bash
# Compile-checks tconv's C++/CUDA sources without a GPU: every .cu for sm_80 and sm_90 with nvcc
# (they are torch-free), and the torch-facing .cpp with the host compiler against the installed
# torch's headers. Used by CI so a broken kernel cannot land.
set -euo pipefail
cd "$(dirname "$0")/.."
NVCC="${NVCC:-nvcc}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# ptxas -v logs of every call, for the register table check at the end (scripts/ptxas_registers.py);
# the compiler's warnings and errors are printed as before.
nvcc_logged() {  # log file, nvcc arguments...
  local log="$1"; shift
  if ! "$NVCC" "$@" -Xptxas -v 2> "$log"; then cat "$log"; return 1; fi
  grep -v -e "ptxas info" -e "bytes stack frame" "$log" || true
}
# The flags torch.utils.cpp_extension adds to every nvcc call: without them a conversion from __half that the real
# build refuses (e.g. static_cast<float>) compiles here (session 33's first device build failed so).
torch_nvcc_flags=(-D__CUDA_NO_HALF_OPERATORS__ -D__CUDA_NO_HALF_CONVERSIONS__ -D__CUDA_NO_BFLOAT16_CONVERSIONS__
  -D__CUDA_NO_HALF2_OPERATORS__ --expt-relaxed-constexpr)
# sm_90 (without the Hopper-only wgmma kernels) and sm_90a with them (TCONV_WGMMA), as _build.py builds.
# CUDA_SOURCES (space-separated) limits the nvcc part to some files, e.g. with PTXAS_TABLE=update.
for src in ${CUDA_SOURCES:-tconv/csrc/*.cu}; do
  name="$(basename "$src")"
  echo "nvcc sm_80+sm_90: $src"
  nvcc_logged "$work/ptxas_$name.log" -std=c++17 -O3 -Xptxas -warn-spills "${torch_nvcc_flags[@]}" \
    -gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_90,code=sm_90 \
    -c "$src" -o "$work/$name.o"
  echo "nvcc sm_90a (wgmma): $src"
  nvcc_logged "$work/ptxas_$name.90a.log" -std=c++17 -O3 -Xptxas -warn-spills "${torch_nvcc_flags[@]}" -DTCONV_WGMMA \
    -gencode=arch=compute_90a,code=sm_90a -c "$src" -o "$work/$name.90a.o"
done
# Registers and spills of every kernel against scripts/ptxas_registers.txt (why: scripts/ptxas_registers.py).
# PTXAS_TABLE=write rewrites the table instead, after an intended change; PTXAS_TABLE=update rewrites only the rows
# of the compiled files (with CUDA_SOURCES).
nvcc_version="$("$NVCC" --version | sed -n 's/.*, V\([0-9][0-9.]*\).*/\1/p')"
python3 scripts/ptxas_registers.py "--${PTXAS_TABLE:-check}" scripts/ptxas_registers.txt \
  --nvcc-version "${nvcc_version:-unknown}" "$work"/ptxas_*.log
torch_include="$(python3 -c 'import os, torch; print(os.path.join(os.path.dirname(torch.__file__), "include"))')"
py_include="$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["include"])')"
# nvcc may be a wrapper script on PATH: ask it where the toolkit is (the directory of cuda_runtime.h).
cuda_include="${CUDA_HOME:-/usr/local/cuda}/include"
[ -f "$cuda_include/cuda_runtime.h" ] || cuda_include="$("$NVCC" --dryrun -c -x cu /dev/null 2>&1 | sed -n 's/.*INCLUDES="-I\([^"]*\)".*/\1/p' | head -1)"
# A CPU wheel of torch ships the c10/cuda headers but not the one CMake generates for CUDA builds.
mkdir -p "$work/stub/c10/cuda/impl"
echo '#pragma once' > "$work/stub/c10/cuda/impl/cuda_cmake_macros.h"
for src in tconv/csrc/*.cpp; do
  echo "c++ syntax: $src"
  "${CXX:-g++}" -std=c++17 -fsyntax-only -Wall -Wno-c++20-extensions -DTORCH_EXTENSION_NAME=tconv_C \
    -I"$work/stub" -I"$torch_include" -I"$torch_include/torch/csrc/api/include" -I"$py_include" \
    -I"$cuda_include" "$src"
done
echo "compile check: ok"
