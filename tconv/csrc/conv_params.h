// Shape and index math of a transposed convolution, written once for every kernel.
//
// Every problem is normalised to three spatial dimensions: a 1D or 2D convolution gets leading
// spatial dims of size 1 with kernel 1, stride 1, padding 0, dilation 1, so one set of kernels
// serves 1D/2D/3D. Tensors are addressed through their element strides (NCDHW logical order),
// which makes every kernel layout-agnostic: contiguous, channels_last(_3d), sliced or expanded
// (stride-0) tensors are read in place without copies.
#pragma once
#include <cstdint>

#if defined(__CUDACC__)
#define TCONV_HOST_DEVICE __host__ __device__ __forceinline__
#else
#define TCONV_HOST_DEVICE inline
#endif

namespace tconv {

constexpr int kSpatialDims = 3;

enum class DType : int { kFloat16 = 0, kBFloat16 = 1, kFloat32 = 2, kFloat64 = 3 };

struct ConvTransposeParams {
  int64_t batch = 0;
  int64_t in_channels = 0;   // C_in (all groups)
  int64_t out_channels = 0;  // C_out (all groups)
  int64_t groups = 1;
  int64_t in_size[kSpatialDims] = {1, 1, 1};   // D, H, W of the conv-transpose input
  int64_t out_size[kSpatialDims] = {1, 1, 1};  // D, H, W of the conv-transpose output
  int64_t kernel[kSpatialDims] = {1, 1, 1};
  int64_t stride[kSpatialDims] = {1, 1, 1};
  int64_t padding[kSpatialDims] = {0, 0, 0};
  int64_t dilation[kSpatialDims] = {1, 1, 1};
  // Element strides in logical order [N, C, D, H, W]; weight is [C_in, C_out/groups, kD, kH, kW].
  int64_t input_strides[5] = {0, 0, 0, 0, 0};
  int64_t output_strides[5] = {0, 0, 0, 0, 0};
  int64_t weight_strides[5] = {0, 0, 0, 0, 0};
  int64_t bias_stride = 0;

  TCONV_HOST_DEVICE int64_t in_per_group() const { return in_channels / groups; }
  TCONV_HOST_DEVICE int64_t out_per_group() const { return out_channels / groups; }
  TCONV_HOST_DEVICE int64_t kernel_volume() const { return kernel[0] * kernel[1] * kernel[2]; }
  TCONV_HOST_DEVICE int64_t in_spatial() const { return in_size[0] * in_size[1] * in_size[2]; }
  TCONV_HOST_DEVICE int64_t out_spatial() const { return out_size[0] * out_size[1] * out_size[2]; }
};

// Output position o receives input position i through tap k when o = i*s - p + k*d.
// Forward (gather) inverts that: i = (o + p - k*d) / s, valid only when divisible and in range.
TCONV_HOST_DEVICE bool input_index_for_tap(int64_t o, int64_t k, int64_t s, int64_t p, int64_t d,
                                           int64_t in_size, int64_t* i) {
  const int64_t t = o + p - k * d;
  if (t < 0) return false;
  const int64_t q = t / s;
  if (q * s != t || q >= in_size) return false;
  *i = q;
  return true;
}

// grad_input (scatter inverted into a gather over taps): o = i*s - p + k*d.
TCONV_HOST_DEVICE bool output_index_for_tap(int64_t i, int64_t k, int64_t s, int64_t p, int64_t d,
                                            int64_t out_size, int64_t* o) {
  const int64_t q = i * s - p + k * d;
  if (q < 0 || q >= out_size) return false;
  *o = q;
  return true;
}

// Largest element offset reachable in a tensor of `sizes` with `strides` (for choosing 32-bit
// indexing): sum of (size-1)*|stride|.
inline int64_t max_offset(const int64_t* sizes, const int64_t* strides, int n) {
  int64_t m = 0;
  for (int i = 0; i < n; ++i) {
    if (sizes[i] == 0) return 0;
    m += (sizes[i] - 1) * (strides[i] < 0 ? -strides[i] : strides[i]);
  }
  return m;
}

}  // namespace tconv
