#!/usr/bin/env bash
# Compile-checks tconv's C++/CUDA sources without a GPU: every .cu for sm_80 and sm_90 with nvcc
# (they are torch-free), and the torch-facing .cpp with the host compiler against the installed
# torch's headers. Used by CI so a broken kernel cannot land.
set -euo pipefail
cd "$(dirname "$0")/.."
NVCC="${NVCC:-nvcc}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# sm_90 (without the Hopper-only wgmma kernels) and sm_90a with them (TCONV_WGMMA), as _build.py builds.
for src in tconv/csrc/*.cu; do
  echo "nvcc sm_80+sm_90: $src"
  "$NVCC" -std=c++17 -O3 -Xptxas -warn-spills \
    -gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_90,code=sm_90 \
    -c "$src" -o "$work/$(basename "$src").o"
  echo "nvcc sm_90a (wgmma): $src"
  "$NVCC" -std=c++17 -O3 -Xptxas -warn-spills -DTCONV_WGMMA \
    -gencode=arch=compute_90a,code=sm_90a -c "$src" -o "$work/$(basename "$src").90a.o"
done
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
