#include "tf32_split.h"

#include <algorithm>
#include <type_traits>

namespace tconv {
namespace {

struct BigSmall {
  float big, small;
};

__device__ __forceinline__ BigSmall split_tf32(float value) {
  const uint32_t bits = __float_as_uint(value);
  constexpr uint32_t kExponent = 0x7f800000u, kKeptBits = 0xffffe000u, kHalfDropped = 0x1000u;
  if ((bits & kExponent) == kExponent) return {value, 0.f};
  uint32_t rounded = (bits + kHalfDropped) & kKeptBits;
  // rounding up past the largest finite value would make the big part infinite: truncate there instead
  if ((rounded & kExponent) == kExponent) rounded = bits & kKeptBits;
  const float big = __uint_as_float(rounded);
  return {big, value - big};  // exact: the dropped 13 bits, within one TF32 ulp of value
}

template <int kVector>
__global__ void tf32_split_kernel(const float* __restrict__ source, float* __restrict__ out, int64_t rows,
                                  int64_t inner_vectors, int small_copies) {
  using Vector = std::conditional_t<kVector == 4, float4, float>;
  const Vector* src = reinterpret_cast<const Vector*>(source);
  Vector* dst = reinterpret_cast<Vector*>(out);
  const int64_t total = rows * inner_vectors;
  for (int64_t index = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; index < total;
       index += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t row = index / inner_vectors, column = index - row * inner_vectors;
    const Vector value = src[index];
    Vector big, small;
    if constexpr (kVector == 4) {
      const BigSmall x = split_tf32(value.x), y = split_tf32(value.y), z = split_tf32(value.z),
                     w = split_tf32(value.w);
      big = make_float4(x.big, y.big, z.big, w.big);
      small = make_float4(x.small, y.small, z.small, w.small);
    } else {
      const BigSmall x = split_tf32(value);
      big = x.big;
      small = x.small;
    }
    Vector* row_out = dst + row * 3 * inner_vectors + column;
#pragma unroll
    for (int copy = 0; copy < 3; ++copy) row_out[copy * inner_vectors] = (small_copies >> copy & 1) ? small : big;
  }
}

}  // namespace

cudaError_t tf32_split(const float* source, float* out, int64_t rows, int64_t inner, int small_copies,
                       cudaStream_t stream) {
  if (rows * inner == 0) return cudaSuccess;
  const bool vectors = inner % 4 == 0 && reinterpret_cast<uintptr_t>(source) % 16 == 0 &&
                       reinterpret_cast<uintptr_t>(out) % 16 == 0;
  const int64_t inner_vectors = vectors ? inner / 4 : inner;
  constexpr int kThreads = 256;
  // a grid-stride loop over enough blocks to fill any GPU tconv runs on several times over
  const int64_t blocks = std::min<int64_t>((rows * inner_vectors + kThreads - 1) / kThreads, 65536);
  if (vectors)
    tf32_split_kernel<4><<<blocks, kThreads, 0, stream>>>(source, out, rows, inner_vectors, small_copies);
  else
    tf32_split_kernel<1><<<blocks, kThreads, 0, stream>>>(source, out, rows, inner_vectors, small_copies);
  return cudaGetLastError();
}

}  // namespace tconv
