// Exact fp32 as three TF32 products (tconv/_exact_split.py): an fp32 operand split into a TF32 big part (rounded to
// nearest, 10 explicit mantissa bits) and the exact remainder, written three times along a new axis so that one TF32
// GEMM over three times the K sums big*big + small*big + big*small.
#pragma once
#include <cstdint>

#include <cuda_runtime_api.h>

namespace tconv {

// source viewed as [rows, inner] (dense), out as [rows, 3, inner]: out[r, j, i] is the small part of source[r, i]
// where bit j of small_copies is set, its big part otherwise. Non-finite values are their own big part (small 0).
cudaError_t tf32_split(const float* source, float* out, int64_t rows, int64_t inner, int small_copies,
                       cudaStream_t stream);

}  // namespace tconv
