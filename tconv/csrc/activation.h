// PyTorch's activations (the formulas of its fp32 opmath and the derivatives its autograd uses, boundary conventions
// included) for tconv's fused epilogues: group_norm_act.cu and the unit-stride forward's GroupNorm statistics
// (conv_transpose_igemm.cu). Device code; Activation is group_norm_act.h's numbering.
#pragma once
#include <cuda_runtime.h>
#include "group_norm_act.h"

namespace tconv {
namespace {

struct ActivationSpec {
  Activation kind;
  float arg0;
  float arg1;
};

constexpr float kSqrtHalf = 0.70710678118654752440f;     // 1 / sqrt(2)
constexpr float kInvSqrtTwoPi = 0.39894228040143267794f;  // 1 / sqrt(2 pi)
constexpr float kGeluTanhBeta = 0.79788456080286535588f;  // sqrt(2 / pi)
constexpr float kGeluTanhKappa = 0.044715f;

__device__ __forceinline__ float logistic(float x) { return 1.f / (1.f + expf(-x)); }

template <Activation K> struct Act;

template <> struct Act<Activation::kIdentity> {
  static __device__ __forceinline__ float value(float x, float, float) { return x; }
  static __device__ __forceinline__ float slope(float, float, float) { return 1.f; }
};
template <> struct Act<Activation::kRelu> {
  // Written so NaN propagates like torch's relu; the gradient at 0 is 0 (threshold_backward).
  static __device__ __forceinline__ float value(float x, float, float) { return x < 0.f ? 0.f : x; }
  static __device__ __forceinline__ float slope(float x, float, float) { return x > 0.f ? 1.f : 0.f; }
};
template <> struct Act<Activation::kLeakyRelu> {
  // torch takes the negative branch at 0 for the gradient (x > 0 ? grad : grad * slope).
  static __device__ __forceinline__ float value(float x, float a, float) { return x > 0.f ? x : x * a; }
  static __device__ __forceinline__ float slope(float x, float a, float) { return x > 0.f ? 1.f : a; }
};
template <> struct Act<Activation::kGelu> {
  static __device__ __forceinline__ float value(float x, float, float) {
    return 0.5f * x * (1.f + erff(x * kSqrtHalf));
  }
  static __device__ __forceinline__ float slope(float x, float, float) {
    const float cdf = 0.5f * (1.f + erff(x * kSqrtHalf));
    const float pdf = kInvSqrtTwoPi * expf(-0.5f * x * x);
    return cdf + x * pdf;
  }
};
template <> struct Act<Activation::kGeluTanh> {
  static __device__ __forceinline__ float value(float x, float, float) {
    const float inner = kGeluTanhBeta * (x + kGeluTanhKappa * x * x * x);
    return 0.5f * x * (1.f + tanhf(inner));
  }
  static __device__ __forceinline__ float slope(float x, float, float) {
    const float x_sq = x * x;
    const float t = tanhf(kGeluTanhBeta * (x + kGeluTanhKappa * x_sq * x));
    const float inner_slope = kGeluTanhBeta * (1.f + 3.f * kGeluTanhKappa * x_sq);
    return 0.5f * (1.f + t) + 0.5f * x * (1.f - t * t) * inner_slope;
  }
};
template <> struct Act<Activation::kSilu> {
  static __device__ __forceinline__ float value(float x, float, float) { return x / (1.f + expf(-x)); }
  static __device__ __forceinline__ float slope(float x, float, float) {
    const float s = logistic(x);
    return s * (1.f + x * (1.f - s));
  }
};
template <> struct Act<Activation::kHardswish> {
  static __device__ __forceinline__ float value(float x, float, float) {
    return x * fminf(fmaxf(x + 3.f, 0.f), 6.f) * (1.f / 6.f);
  }
  // torch: 0 for x <= -3, x / 3 + 1/2 for -3 < x < 3, 1 for x >= 3.
  static __device__ __forceinline__ float slope(float x, float, float) {
    return x <= -3.f ? 0.f : (x < 3.f ? x / 3.f + 0.5f : 1.f);
  }
};
template <> struct Act<Activation::kTanh> {
  static __device__ __forceinline__ float value(float x, float, float) { return tanhf(x); }
  static __device__ __forceinline__ float slope(float x, float, float) {
    const float t = tanhf(x);
    return 1.f - t * t;
  }
};
template <> struct Act<Activation::kSigmoid> {
  static __device__ __forceinline__ float value(float x, float, float) { return logistic(x); }
  static __device__ __forceinline__ float slope(float x, float, float) {
    const float s = logistic(x);
    return s * (1.f - s);
  }
};
template <> struct Act<Activation::kHardtanh> {
  // Comparisons rather than fminf/fmaxf so NaN propagates like torch's clamp.
  static __device__ __forceinline__ float value(float x, float lo, float hi) {
    return x < lo ? lo : (x > hi ? hi : x);
  }
  // torch's hardtanh_backward: zero where x <= min_val or x >= max_val (boundaries included).
  static __device__ __forceinline__ float slope(float x, float lo, float hi) {
    return (x <= lo || x >= hi) ? 0.f : 1.f;
  }
};

// Runs BODY with the compile-time activation K; the switch is taken once per pack, not per element.
#define TCONV_ACTIVATION_CASE(KIND_VALUE, K, BODY) \
  case KIND_VALUE: {                               \
    constexpr Activation K = KIND_VALUE;           \
    BODY;                                          \
    break;                                         \
  }
#define TCONV_ACTIVATION_SWITCH(KIND, K, BODY)                 \
  switch (KIND) {                                              \
    TCONV_ACTIVATION_CASE(Activation::kRelu, K, BODY)          \
    TCONV_ACTIVATION_CASE(Activation::kLeakyRelu, K, BODY)     \
    TCONV_ACTIVATION_CASE(Activation::kGelu, K, BODY)          \
    TCONV_ACTIVATION_CASE(Activation::kGeluTanh, K, BODY)      \
    TCONV_ACTIVATION_CASE(Activation::kSilu, K, BODY)          \
    TCONV_ACTIVATION_CASE(Activation::kHardswish, K, BODY)     \
    TCONV_ACTIVATION_CASE(Activation::kTanh, K, BODY)          \
    TCONV_ACTIVATION_CASE(Activation::kSigmoid, K, BODY)       \
    TCONV_ACTIVATION_CASE(Activation::kHardtanh, K, BODY)      \
    default: {                                                 \
      constexpr Activation K = Activation::kIdentity;          \
      BODY;                                                    \
    }                                                          \
  }

}  // namespace
}  // namespace tconv
