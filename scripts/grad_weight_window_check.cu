// Standalone check of the channels-last 16-bit window grad_weight (conv_transpose_igemm_tma.cu: grad_weight_window)
// against a float64 reference of the same 16-bit values, without torch: for a device call whose time cannot take the
// extension's whole build (run 463: its two translation units and this file build in about a minute). Every case is
// run in bf16 and fp16 with the output and workspace poisoned (NaN bytes); exits 1 on any failure or refusal.
// Build (from the repository root; the flags of tconv's own build):
//   nvcc -std=c++17 -O3 --expt-relaxed-constexpr -DTCONV_WGMMA -D__CUDA_NO_HALF_OPERATORS__
//     -D__CUDA_NO_HALF_CONVERSIONS__ -D__CUDA_NO_BFLOAT16_CONVERSIONS__ -D__CUDA_NO_HALF2_OPERATORS__
//     -gencode=arch=compute_90a,code=sm_90a -Itconv/csrc scripts/grad_weight_window_check.cu
//     tconv/csrc/conv_transpose_igemm_tma.cu tconv/csrc/conv_transpose_direct.cu -o /tmp/gw_check
//     -Xlinker --unresolved-symbols=ignore-all
// (the TMA unit's other entry points call into the gather units, never reached here).
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>
#include "conv_transpose.h"

using namespace tconv;

struct Case {
  const char* name;
  int batch, cin, cout, groups;
  int kernel[3], stride[3], padding[3], output_padding[3], dilation[3], in[3];
};

// The cases of tests/test_grad_weight_window_gpu.py (2-D ones with D = 1), and two at 64 channels a side.
const Case kCases[] = {
    {"l1_71_like", 2, 32, 32, 1, {1, 3, 3}, {1, 1, 1}, {0, 0, 0}, {0, 0, 0}, {1, 1, 1}, {1, 6, 300}},
    {"fam11_like", 2, 32, 32, 1, {1, 3, 7}, {1, 1, 1}, {0, 1, 3}, {0, 0, 0}, {1, 1, 1}, {1, 5, 140}},
    {"odd_channels", 2, 24, 40, 1, {1, 3, 3}, {1, 1, 1}, {0, 1, 1}, {0, 0, 0}, {1, 1, 1}, {1, 7, 37}},
    {"n64_dilated", 2, 48, 64, 1, {1, 2, 3}, {1, 1, 1}, {0, 0, 2}, {0, 0, 0}, {1, 2, 2}, {1, 6, 50}},
    {"groups", 2, 64, 64, 2, {1, 3, 3}, {1, 1, 1}, {0, 1, 1}, {0, 0, 0}, {1, 1, 1}, {1, 5, 33}},
    {"stride_h", 2, 32, 16, 1, {1, 3, 3}, {1, 2, 1}, {0, 1, 1}, {0, 1, 0}, {1, 1, 1}, {1, 6, 70}},
    {"three_d", 2, 16, 32, 1, {3, 3, 3}, {1, 1, 1}, {1, 0, 1}, {0, 0, 0}, {1, 1, 1}, {4, 5, 40}},
    {"many_taps", 1, 32, 32, 1, {3, 3, 5}, {1, 1, 1}, {0, 0, 0}, {0, 0, 0}, {1, 1, 1}, {3, 4, 20}},
    {"short_lines", 3, 32, 32, 1, {1, 3, 3}, {1, 1, 1}, {0, 0, 0}, {0, 0, 0}, {1, 1, 1}, {1, 4, 5}},
    {"fam05_like", 1, 64, 64, 1, {1, 3, 7}, {1, 1, 1}, {0, 0, 0}, {0, 0, 0}, {1, 1, 1}, {1, 4, 70}},
    {"fam01_like", 2, 64, 64, 1, {1, 3, 3}, {1, 1, 1}, {0, 0, 0}, {0, 0, 0}, {1, 1, 1}, {1, 9, 200}},
};

// Channels-last element strides [N, C, D, H, W] of a (batch, channels, D, H, W) tensor.
void channels_last_strides(int64_t channels, const int64_t (&size)[3], int64_t (&strides)[5]) {
  strides[1] = 1;
  strides[4] = channels;
  strides[3] = channels * size[2];
  strides[2] = channels * size[2] * size[1];
  strides[0] = channels * size[2] * size[1] * size[0];
}

template <typename T>
T from_float(float v);
template <>
__nv_bfloat16 from_float<__nv_bfloat16>(float v) { return __float2bfloat16(v); }
template <>
__half from_float<__half>(float v) { return __float2half(v); }
float to_float(__nv_bfloat16 v) { return __bfloat162float(v); }
float to_float(__half v) { return __half2float(v); }

template <typename T>
bool check(const Case& c, DType dtype, const char* dtype_name, uint32_t seed) {
  ConvTransposeParams p;
  p.batch = c.batch;
  p.in_channels = c.cin;
  p.out_channels = c.cout;
  p.groups = c.groups;
  for (int i = 0; i < 3; ++i) {
    p.in_size[i] = c.in[i];
    p.kernel[i] = c.kernel[i];
    p.stride[i] = c.stride[i];
    p.padding[i] = c.padding[i];
    p.dilation[i] = c.dilation[i];
    p.out_size[i] = (int64_t(c.in[i]) - 1) * c.stride[i] - 2 * c.padding[i] + c.dilation[i] * (c.kernel[i] - 1) +
                    c.output_padding[i] + 1;
  }
  channels_last_strides(p.in_channels, p.in_size, p.input_strides);
  channels_last_strides(p.out_channels, p.out_size, p.output_strides);
  const int64_t cin_g = p.in_per_group(), cout_g = p.out_per_group(), taps = p.kernel_volume();
  p.weight_strides[4] = 1;
  p.weight_strides[3] = p.kernel[2];
  p.weight_strides[2] = p.kernel[2] * p.kernel[1];
  p.weight_strides[1] = taps;
  p.weight_strides[0] = taps * cout_g;
  const int64_t x_numel = p.batch * p.in_channels * p.in_spatial();
  const int64_t dy_numel = p.batch * p.out_channels * p.out_spatial();
  const int64_t w_numel = p.in_channels * cout_g * taps;
  std::mt19937 gen(seed);
  std::normal_distribution<float> normal;
  std::vector<T> x(x_numel), dy(dy_numel);
  for (auto& v : x) v = from_float<T>(normal(gen));
  for (auto& v : dy) v = from_float<T>(normal(gen));
  // reference: dW[ci][co][tap] = sum over n and input positions of x . grad_output at o = i s - p + k d
  std::vector<double> ref(w_numel, 0.0);
  for (int64_t n = 0; n < p.batch; ++n)
    for (int64_t id = 0; id < p.in_size[0]; ++id)
      for (int64_t ih = 0; ih < p.in_size[1]; ++ih)
        for (int64_t iw = 0; iw < p.in_size[2]; ++iw)
          for (int64_t kd = 0; kd < p.kernel[0]; ++kd)
            for (int64_t kh = 0; kh < p.kernel[1]; ++kh)
              for (int64_t kw = 0; kw < p.kernel[2]; ++kw) {
                int64_t od, oh, ow;
                if (!output_index_for_tap(id, kd, p.stride[0], p.padding[0], p.dilation[0], p.out_size[0], &od) ||
                    !output_index_for_tap(ih, kh, p.stride[1], p.padding[1], p.dilation[1], p.out_size[1], &oh) ||
                    !output_index_for_tap(iw, kw, p.stride[2], p.padding[2], p.dilation[2], p.out_size[2], &ow))
                  continue;
                const int64_t tap = (kd * p.kernel[1] + kh) * p.kernel[2] + kw;
                const T* xr = &x[n * p.input_strides[0] + id * p.input_strides[2] + ih * p.input_strides[3] +
                                 iw * p.input_strides[4]];
                const T* dr = &dy[n * p.output_strides[0] + od * p.output_strides[2] + oh * p.output_strides[3] +
                                  ow * p.output_strides[4]];
                for (int64_t g = 0; g < p.groups; ++g)
                  for (int64_t ci = 0; ci < cin_g; ++ci) {
                    const double xv = to_float(xr[g * cin_g + ci]);
                    double* out = &ref[((g * cin_g + ci) * cout_g) * taps + tap];
                    for (int64_t co = 0; co < cout_g; ++co) out[co * taps] += xv * to_float(dr[g * cout_g + co]);
                  }
              }
  T *x_dev = nullptr, *dy_dev = nullptr, *w_dev = nullptr;
  float* workspace = nullptr;
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  const int64_t splits = grad_weight_window_splits(p, sms, int64_t(1) << 26);
  cudaMalloc(&x_dev, x_numel * sizeof(T));
  cudaMalloc(&dy_dev, dy_numel * sizeof(T));
  cudaMalloc(&w_dev, w_numel * sizeof(T));
  cudaMalloc(&workspace, 2 * splits * w_numel * sizeof(float));
  cudaMemcpy(x_dev, x.data(), x_numel * sizeof(T), cudaMemcpyHostToDevice);
  cudaMemcpy(dy_dev, dy.data(), dy_numel * sizeof(T), cudaMemcpyHostToDevice);
  cudaMemset(w_dev, 0xFF, w_numel * sizeof(T));
  cudaMemset(workspace, 0xFF, 2 * splits * w_numel * sizeof(float));
  bool ok = grad_weight_window_possible(p, dtype, x_dev, dy_dev);
  cudaError_t err = cudaSuccess;
  double num = 0, den = 0, worst = 0, peak = 0;
  if (ok) {
    err = grad_weight_window(p, dtype, x_dev, dy_dev, w_dev, workspace, splits, 0);
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    std::vector<T> w(w_numel);
    cudaMemcpy(w.data(), w_dev, w_numel * sizeof(T), cudaMemcpyDeviceToHost);
    for (int64_t i = 0; i < w_numel; ++i) {
      const double d = double(to_float(w[i])) - ref[i];
      num += d * d;
      den += ref[i] * ref[i];
      worst = std::isnan(d) ? INFINITY : std::max(worst, std::fabs(d));
      peak = std::max(peak, std::fabs(ref[i]));
    }
  }
  const double rel = den > 0 ? std::sqrt(num / den) : INFINITY;
  // 16-bit output: each element rounded once (2^-8 relative for bf16, 2^-11 for fp16), fp32 sums in between
  const double bound = dtype == DType::kBFloat16 ? 8e-3 : 2e-3;
  const bool pass = ok && err == cudaSuccess && rel < bound && worst <= 2 * bound * peak;
  std::printf("%-14s %s splits %3lld: %s (relative L2 %.2e, worst %.3g of peak %.3g)%s\n", c.name, dtype_name,
              (long long)splits, pass ? "ok" : "FAILED", rel, worst, peak,
              !ok ? " [refused]" : err != cudaSuccess ? cudaGetErrorString(err) : "");
  cudaFree(x_dev);
  cudaFree(dy_dev);
  cudaFree(w_dev);
  cudaFree(workspace);
  return pass;
}

int main() {
  int failures = 0;
  uint32_t seed = 1;
  for (const Case& c : kCases) {
    failures += !check<__nv_bfloat16>(c, DType::kBFloat16, "bf16", seed++);
    failures += !check<__half>(c, DType::kFloat16, "fp16", seed++);
  }
  std::printf("%d failed\n", failures);
  return failures == 0 ? 0 : 1;
}
