// Compile-time dispatch helpers (flash-attention style): turn a run-time value into a type or a
// constant inside a lambda, so each kernel instantiation is chosen once per launch.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include "conv_params.h"

// Accumulator type: fp32 for every floating type narrower than fp64 (the precision contract).
template <typename T> struct AccType { using type = float; };
template <> struct AccType<double> { using type = double; };

#define TCONV_DTYPE_SWITCH(DTYPE, SCALAR_T, ...)                                   \
  [&]() -> cudaError_t {                                                           \
    switch (DTYPE) {                                                               \
      case ::tconv::DType::kFloat16: { using SCALAR_T = __half; return __VA_ARGS__(); }         \
      case ::tconv::DType::kBFloat16: { using SCALAR_T = __nv_bfloat16; return __VA_ARGS__(); } \
      case ::tconv::DType::kFloat32: { using SCALAR_T = float; return __VA_ARGS__(); }          \
      case ::tconv::DType::kFloat64: { using SCALAR_T = double; return __VA_ARGS__(); }         \
    }                                                                              \
    return cudaErrorInvalidValue;                                                  \
  }()

// The same for the types the tensor-core kernels take (fp32, fp16, bf16); any other refused.
#define TCONV_FLOAT_DTYPE_SWITCH(DTYPE, SCALAR_T, ...)                                       \
  [&]() -> cudaError_t {                                                                     \
    switch (DTYPE) {                                                                         \
      case ::tconv::DType::kFloat16: { using SCALAR_T = __half; return __VA_ARGS__(); }         \
      case ::tconv::DType::kBFloat16: { using SCALAR_T = __nv_bfloat16; return __VA_ARGS__(); } \
      case ::tconv::DType::kFloat32: { using SCALAR_T = float; return __VA_ARGS__(); }          \
      default: return cudaErrorInvalidValue;                                                 \
    }                                                                                        \
  }()

// 32-bit offsets are cheaper; 64-bit is used only when some tensor spans 2^31 elements or more.
#define TCONV_INDEX_SWITCH(USE_INT64, INDEX_T, ...)                                \
  [&]() -> cudaError_t {                                                           \
    if (USE_INT64) { using INDEX_T = int64_t; return __VA_ARGS__(); }              \
    else { using INDEX_T = int32_t; return __VA_ARGS__(); }                        \
  }()

#define TCONV_BOOL_SWITCH(COND, CONST_NAME, ...)                                   \
  [&]() -> cudaError_t {                                                           \
    if (COND) { constexpr bool CONST_NAME = true; return __VA_ARGS__(); }          \
    else { constexpr bool CONST_NAME = false; return __VA_ARGS__(); }              \
  }()

namespace tconv {
template <typename T> __device__ __forceinline__ typename AccType<T>::type to_acc(T v) {
  return static_cast<typename AccType<T>::type>(v);
}
template <> __device__ __forceinline__ float to_acc<__half>(__half v) { return __half2float(v); }
template <> __device__ __forceinline__ float to_acc<__nv_bfloat16>(__nv_bfloat16 v) { return __bfloat162float(v); }

template <typename T> __device__ __forceinline__ T from_acc(typename AccType<T>::type v) { return static_cast<T>(v); }
template <> __device__ __forceinline__ __half from_acc<__half>(float v) { return __float2half_rn(v); }
template <> __device__ __forceinline__ __nv_bfloat16 from_acc<__nv_bfloat16>(float v) { return __float2bfloat16_rn(v); }

// VEC neighbouring elements moved as one aligned access (the caller checks the alignment), converted to or from the
// accumulator type
template <typename T, int VEC> struct alignas(sizeof(T) * VEC) Pack { T v[VEC]; };

template <typename T, int VEC>
__device__ __forceinline__ void load_pack(const T* __restrict__ src, float (&x)[VEC]) {
  const Pack<T, VEC> pack = *reinterpret_cast<const Pack<T, VEC>*>(src);
#pragma unroll
  for (int j = 0; j < VEC; ++j) x[j] = to_acc<T>(pack.v[j]);
}

template <typename T, int VEC>
__device__ __forceinline__ void store_pack(T* __restrict__ dst, const float (&x)[VEC]) {
  Pack<T, VEC> pack;
#pragma unroll
  for (int j = 0; j < VEC; ++j) pack.v[j] = from_acc<T>(x[j]);
  *reinterpret_cast<Pack<T, VEC>*>(dst) = pack;
}

// A development switch (A/B timings of two forms in one build): environment variable `name` as an integer, or
// `fallback` where it is unset or empty. Callers keep the value in a function-local static: read once per process.
inline int development_switch(const char* name, int fallback) {
  const char* value = std::getenv(name);
  return value == nullptr || *value == '\0' ? fallback : std::atoi(value);
}
}  // namespace tconv
