// Direct (gather) kernels for transposed convolution: forward, grad_input, grad_weight, grad_bias.
// They are the correctness baseline of tconv: every parameter combination, every layout (through
// element strides), fp16/bf16/fp32 with fp32 accumulation and fp64 with fp64 accumulation.
// Faster specialised kernels live beside these and are chosen by the dispatcher in Python/C++.
#include <algorithm>
#include <cstring>
#include "conv_transpose.h"
#include "dispatch.h"

namespace tconv {
namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
// grad_weight tile: a block owns TILE_CI x TILE_CO weights of one tap and reduces over positions.
constexpr int kTileCi = 8;
constexpr int kTileCo = 8;

template <typename T> __host__ __device__ __forceinline__ T ceil_div(T a, T b) { return (a + b - 1) / b; }

// Grid for a grid-stride loop over `total` items: enough blocks to fill the GPU several times over,
// never more than needed.
inline unsigned int flat_grid(int64_t total, int sm_count) {
  const int64_t needed = ceil_div<int64_t>(total, kThreads);
  const int64_t cap = static_cast<int64_t>(std::max(sm_count, 1)) * 32;
  return static_cast<unsigned int>(std::max<int64_t>(1, std::min(needed, cap)));
}

// Splits a flat index in memory order into (n, c, d, h, w).
template <typename index_t>
__device__ __forceinline__ void unflatten(index_t flat, index_t C, index_t D, index_t H, index_t W,
                                          Order order, index_t& n, index_t& c, index_t& d,
                                          index_t& h, index_t& w) {
  if (order == Order::kChannelsInnermost) {
    c = flat % C; flat /= C;
    w = flat % W; flat /= W;
    h = flat % H; flat /= H;
    d = flat % D; n = flat / D;
  } else {
    w = flat % W; flat /= W;
    h = flat % H; flat /= H;
    d = flat % D; flat /= D;
    c = flat % C; n = flat / C;
  }
}

template <typename scalar_t, typename index_t>
__global__ void __launch_bounds__(kThreads)
tconv_direct_forward_kernel(const ConvTransposeParams p, const scalar_t* __restrict__ x,
                            const scalar_t* __restrict__ w, const scalar_t* __restrict__ bias,
                            scalar_t* __restrict__ y, Order order, index_t total) {
  using acc_t = typename AccType<scalar_t>::type;
  const index_t C = p.out_channels, OD = p.out_size[0], OH = p.out_size[1], OW = p.out_size[2];
  const index_t cin_g = p.in_per_group(), cout_g = p.out_per_group();
  const index_t xs0 = p.input_strides[0], xs1 = p.input_strides[1], xs2 = p.input_strides[2],
                xs3 = p.input_strides[3], xs4 = p.input_strides[4];
  const index_t ws0 = p.weight_strides[0], ws1 = p.weight_strides[1], ws2 = p.weight_strides[2],
                ws3 = p.weight_strides[3], ws4 = p.weight_strides[4];
  for (index_t flat = static_cast<index_t>(blockIdx.x) * kThreads + threadIdx.x; flat < total;
       flat += static_cast<index_t>(gridDim.x) * kThreads) {
    index_t n, co, od, oh, ow;
    unflatten<index_t>(flat, C, OD, OH, OW, order, n, co, od, oh, ow);
    const index_t g = co / cout_g, co_local = co - g * cout_g;
    acc_t acc = bias != nullptr ? to_acc(bias[co * static_cast<index_t>(p.bias_stride)]) : acc_t(0);
    const scalar_t* x_group = x + n * xs0 + g * cin_g * xs1;
    const scalar_t* w_group = w + g * cin_g * ws0 + co_local * ws1;
    for (int64_t kd = 0; kd < p.kernel[0]; ++kd) {
      int64_t id;
      if (!input_index_for_tap(od, kd, p.stride[0], p.padding[0], p.dilation[0], p.in_size[0], &id)) continue;
      for (int64_t kh = 0; kh < p.kernel[1]; ++kh) {
        int64_t ih;
        if (!input_index_for_tap(oh, kh, p.stride[1], p.padding[1], p.dilation[1], p.in_size[1], &ih)) continue;
        for (int64_t kw = 0; kw < p.kernel[2]; ++kw) {
          int64_t iw;
          if (!input_index_for_tap(ow, kw, p.stride[2], p.padding[2], p.dilation[2], p.in_size[2], &iw)) continue;
          const scalar_t* xp = x_group + index_t(id) * xs2 + index_t(ih) * xs3 + index_t(iw) * xs4;
          const scalar_t* wp = w_group + index_t(kd) * ws2 + index_t(kh) * ws3 + index_t(kw) * ws4;
          for (index_t ci = 0; ci < cin_g; ++ci) acc += to_acc(xp[ci * xs1]) * to_acc(wp[ci * ws0]);
        }
      }
    }
    y[n * index_t(p.output_strides[0]) + co * index_t(p.output_strides[1]) + od * index_t(p.output_strides[2]) +
      oh * index_t(p.output_strides[3]) + ow * index_t(p.output_strides[4])] = from_acc<scalar_t>(acc);
  }
}

template <typename scalar_t, typename index_t>
__global__ void __launch_bounds__(kThreads)
tconv_direct_grad_input_kernel(const ConvTransposeParams p, const scalar_t* __restrict__ dy,
                               const scalar_t* __restrict__ w, scalar_t* __restrict__ dx,
                               Order order, index_t total) {
  using acc_t = typename AccType<scalar_t>::type;
  const index_t C = p.in_channels, ID = p.in_size[0], IH = p.in_size[1], IW = p.in_size[2];
  const index_t cin_g = p.in_per_group(), cout_g = p.out_per_group();
  const index_t ys0 = p.output_strides[0], ys1 = p.output_strides[1], ys2 = p.output_strides[2],
                ys3 = p.output_strides[3], ys4 = p.output_strides[4];
  const index_t ws0 = p.weight_strides[0], ws1 = p.weight_strides[1], ws2 = p.weight_strides[2],
                ws3 = p.weight_strides[3], ws4 = p.weight_strides[4];
  for (index_t flat = static_cast<index_t>(blockIdx.x) * kThreads + threadIdx.x; flat < total;
       flat += static_cast<index_t>(gridDim.x) * kThreads) {
    index_t n, ci, id, ih, iw;
    unflatten<index_t>(flat, C, ID, IH, IW, order, n, ci, id, ih, iw);
    const index_t g = ci / cin_g;
    acc_t acc = acc_t(0);
    const scalar_t* dy_group = dy + n * ys0 + g * cout_g * ys1;
    const scalar_t* w_channel = w + ci * ws0;
    for (int64_t kd = 0; kd < p.kernel[0]; ++kd) {
      int64_t od;
      if (!output_index_for_tap(id, kd, p.stride[0], p.padding[0], p.dilation[0], p.out_size[0], &od)) continue;
      for (int64_t kh = 0; kh < p.kernel[1]; ++kh) {
        int64_t oh;
        if (!output_index_for_tap(ih, kh, p.stride[1], p.padding[1], p.dilation[1], p.out_size[1], &oh)) continue;
        for (int64_t kw = 0; kw < p.kernel[2]; ++kw) {
          int64_t ow;
          if (!output_index_for_tap(iw, kw, p.stride[2], p.padding[2], p.dilation[2], p.out_size[2], &ow)) continue;
          const scalar_t* dyp = dy_group + index_t(od) * ys2 + index_t(oh) * ys3 + index_t(ow) * ys4;
          const scalar_t* wp = w_channel + index_t(kd) * ws2 + index_t(kh) * ws3 + index_t(kw) * ws4;
          for (index_t co = 0; co < cout_g; ++co) acc += to_acc(dyp[co * ys1]) * to_acc(wp[co * ws1]);
        }
      }
    }
    dx[n * index_t(p.input_strides[0]) + ci * index_t(p.input_strides[1]) + id * index_t(p.input_strides[2]) +
       ih * index_t(p.input_strides[3]) + iw * index_t(p.input_strides[4])] = from_acc<scalar_t>(acc);
  }
}

template <typename acc_t>
__device__ __forceinline__ acc_t warp_sum(acc_t v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

// grid.x: (ci tile, co tile, group, tap) with the tap fastest, so blocks that read the same
// input/grad_output channels run together and share L2; grid.y: split of the reduction range.
template <typename scalar_t, typename index_t>
__global__ void __launch_bounds__(kThreads)
tconv_direct_grad_weight_kernel(const ConvTransposeParams p, const scalar_t* __restrict__ x,
                                const scalar_t* __restrict__ dy,
                                typename AccType<scalar_t>::type* __restrict__ partial,
                                int64_t splits) {
  using acc_t = typename AccType<scalar_t>::type;
  const int64_t taps = p.kernel_volume();
  const int64_t cin_g = p.in_per_group(), cout_g = p.out_per_group();
  const int64_t ci_tiles = ceil_div<int64_t>(cin_g, kTileCi), co_tiles = ceil_div<int64_t>(cout_g, kTileCo);
  int64_t tile = blockIdx.x;
  const int64_t tap = tile % taps; tile /= taps;
  const int64_t g = tile % p.groups; tile /= p.groups;
  const int64_t co_tile = tile % co_tiles;
  const int64_t ci_tile = tile / co_tiles;
  const int64_t kd = tap / (p.kernel[1] * p.kernel[2]);
  const int64_t kh = (tap / p.kernel[2]) % p.kernel[1];
  const int64_t kw = tap % p.kernel[2];
  const int64_t ci0 = g * cin_g + ci_tile * kTileCi;   // absolute input channel
  const int64_t co0 = co_tile * kTileCo;              // channel within the group
  const int ci_count = static_cast<int>(min(int64_t(kTileCi), cin_g - ci_tile * kTileCi));
  const int co_count = static_cast<int>(min(int64_t(kTileCo), cout_g - co0));

  const index_t ID = p.in_size[0], IH = p.in_size[1], IW = p.in_size[2];
  const index_t spatial = ID * IH * IW;
  const index_t reduction = index_t(p.batch) * spatial;
  const index_t chunk = ceil_div<index_t>(reduction, index_t(splits));
  const index_t begin = index_t(blockIdx.y) * chunk;
  const index_t end = begin + chunk < reduction ? begin + chunk : reduction;
  const index_t xs1 = p.input_strides[1], ys1 = p.output_strides[1];
  const scalar_t* x_tile = x + index_t(ci0) * xs1;
  const scalar_t* dy_tile = dy + index_t(g * cout_g + co0) * ys1;

  acc_t acc[kTileCi][kTileCo];
#pragma unroll
  for (int a = 0; a < kTileCi; ++a)
#pragma unroll
    for (int b = 0; b < kTileCo; ++b) acc[a][b] = acc_t(0);

  for (index_t r = begin + threadIdx.x; r < end; r += kThreads) {
    const index_t n = r / spatial;
    index_t s = r - n * spatial;
    const index_t iw = s % IW; s /= IW;
    const index_t ih = s % IH;
    const index_t id = s / IH;
    int64_t od, oh, ow;
    if (!output_index_for_tap(id, kd, p.stride[0], p.padding[0], p.dilation[0], p.out_size[0], &od) ||
        !output_index_for_tap(ih, kh, p.stride[1], p.padding[1], p.dilation[1], p.out_size[1], &oh) ||
        !output_index_for_tap(iw, kw, p.stride[2], p.padding[2], p.dilation[2], p.out_size[2], &ow))
      continue;
    const scalar_t* xp = x_tile + n * index_t(p.input_strides[0]) + id * index_t(p.input_strides[2]) +
                         ih * index_t(p.input_strides[3]) + iw * index_t(p.input_strides[4]);
    const scalar_t* dyp = dy_tile + n * index_t(p.output_strides[0]) + index_t(od) * index_t(p.output_strides[2]) +
                          index_t(oh) * index_t(p.output_strides[3]) + index_t(ow) * index_t(p.output_strides[4]);
    acc_t xv[kTileCi], dyv[kTileCo];
#pragma unroll
    for (int a = 0; a < kTileCi; ++a) xv[a] = a < ci_count ? to_acc(xp[a * xs1]) : acc_t(0);
#pragma unroll
    for (int b = 0; b < kTileCo; ++b) dyv[b] = b < co_count ? to_acc(dyp[b * ys1]) : acc_t(0);
#pragma unroll
    for (int a = 0; a < kTileCi; ++a)
#pragma unroll
      for (int b = 0; b < kTileCo; ++b) acc[a][b] += xv[a] * dyv[b];
  }

  __shared__ acc_t warp_partials[kWarps][kTileCi * kTileCo];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
#pragma unroll
  for (int a = 0; a < kTileCi; ++a)
#pragma unroll
    for (int b = 0; b < kTileCo; ++b) {
      const acc_t v = warp_sum(acc[a][b]);
      if (lane == 0) warp_partials[warp][a * kTileCo + b] = v;
    }
  __syncthreads();
  if (threadIdx.x < kTileCi * kTileCo) {
    const int a = threadIdx.x / kTileCo, b = threadIdx.x % kTileCo;
    if (a < ci_count && b < co_count) {
      acc_t sum = acc_t(0);
#pragma unroll
      for (int w = 0; w < kWarps; ++w) sum += warp_partials[w][threadIdx.x];
      const int64_t weight_numel = p.in_channels * cout_g * taps;
      const int64_t logical = ((ci0 + a) * cout_g + (co0 + b)) * taps + tap;
      partial[int64_t(blockIdx.y) * weight_numel + logical] = sum;
    }
  }
}

// ---- grad_bias: per-channel sum of grad_output over batch and space, at memory bandwidth ----
// Three walks over the collapsed layout (StridedDims, conv_params.h), chosen by plan_grad_bias:
//  kRowsVector   innermost reduction stride 1 and long rows (contiguous NC(D)HW): a block owns a
//                channel and an even share of its rows and walks them with 16-byte loads (scalar
//                head/tail where a row is not 16-byte aligned), kGradBiasUnroll loads in flight.
//  kRowsStrided  any other channel-outer layout (slices, stride 0, short rows): a block owns a
//                channel and an even share of its elements; each thread steps (row, column) by the
//                block width incrementally, so there is no division per element.
//  kChannelsInner channels have the smallest stride (channels_last): a block owns a share of the
//                positions and up to kThreads channel packs; a warp reads consecutive channels, each
//                thread keeps the partial sums of its own pack (16-byte vector when possible).
// Every block writes fp32 (fp64 for double) partials [split][channel]; launch_sum_splits adds the
// splits in a fixed order (above kGradBiasDirectSplits, the channels walk first reduces the
// partials to a few rows). No atomics: repeated calls are bit-identical.
//
// Prediction (H200, fp32, 4.2 TB/s copy; read-only streams run about at copy rate): 3D U-Net
// 2x128x64^3 (268 MB) 0.07 ms, VAE 16x128x256x256 (537 MB) 0.13 ms, HiFi-GAN 16x256x65536
// (1.07 GB) 0.26 ms, each plus ~3 us for the splits sum (the old kernel: 0.21 / 0.45 / 0.87 ms).
enum class GradBiasPath : int { kRowsVector = 0, kRowsStrided = 1, kChannelsInner = 2 };

struct GradBiasPlan {
  GradBiasPath path = GradBiasPath::kRowsStrided;
  int64_t channels = 0, channel_stride = 0;
  StridedDims<int64_t> dims;  // the reduction dims, innermost first
  int64_t reduction = 0;      // elements per channel
  int lanes = 1;              // kChannelsInner: channels per pack (one 16-byte load) or 1
  int columns = 1;            // kChannelsInner: channel packs per block
  int64_t blocks_per_split = 1;
};

constexpr int kGradBiasUnroll = 4;
// Rows shorter than this go through the strided walk: a block-wide walk of a short row leaves most
// threads idle and has a single load in flight per row.
constexpr int64_t kGradBiasMinVectorRow = 2048;
// Resident blocks per SM that the split count plans for: the fp32 row walk takes 38 registers
// (ptxas, sm_90), 6 blocks of 256 threads; 96 KB of 16-byte loads in flight per SM. A bound of 8
// blocks (32 registers) made ptxas spill, so the kernels carry no minimum-blocks bound.
constexpr int kGradBiasBlocksPerSm = 6;
// A block should reduce at least this many elements (its fixed cost: the block reduction and one
// partial per channel).
constexpr int64_t kGradBiasMinBlockElems = 4096;

template <typename scalar_t> __host__ __device__ constexpr int pack_lanes() { return static_cast<int>(16 / sizeof(scalar_t)); }

template <typename scalar_t>
__device__ __forceinline__ typename AccType<scalar_t>::type sum_pack(const uint4& raw) {
  scalar_t v[pack_lanes<scalar_t>()];
  memcpy(v, &raw, sizeof(raw));
  typename AccType<scalar_t>::type s = to_acc(v[0]);
#pragma unroll
  for (int k = 1; k < pack_lanes<scalar_t>(); ++k) s += to_acc(v[k]);
  return s;
}

template <typename scalar_t>
__device__ __forceinline__ void add_pack(const uint4& raw, typename AccType<scalar_t>::type* acc) {
  scalar_t v[pack_lanes<scalar_t>()];
  memcpy(v, &raw, sizeof(raw));
#pragma unroll
  for (int k = 0; k < pack_lanes<scalar_t>(); ++k) acc[k] += to_acc(v[k]);
}

// Sum of the block's per-thread values in a fixed order; the result is valid in thread 0.
template <typename acc_t>
__device__ __forceinline__ acc_t block_sum(acc_t v) {
  __shared__ acc_t warp_partials[kWarps];
  v = warp_sum(v);
  if (threadIdx.x % 32 == 0) warp_partials[threadIdx.x / 32] = v;
  __syncthreads();
  acc_t sum = acc_t(0);
  if (threadIdx.x == 0) {
#pragma unroll
    for (int w = 0; w < kWarps; ++w) sum += warp_partials[w];
  }
  return sum;
}

// This thread's share of count contiguous elements at `row` (any alignment of `row`).
template <typename scalar_t, typename index_t>
__device__ __forceinline__ void add_contiguous(const scalar_t* __restrict__ row, index_t count,
                                               typename AccType<scalar_t>::type& acc) {
  constexpr int kLanes = pack_lanes<scalar_t>();
  const index_t tid = threadIdx.x;
  // Elements before the first 16-byte boundary (data pointers are element-aligned).
  const index_t misaligned = index_t((reinterpret_cast<uintptr_t>(row) & 15) / sizeof(scalar_t));
  const index_t head = min(count, index_t((kLanes - misaligned) % kLanes));
  if (tid < head) acc += to_acc(row[tid]);
  const index_t packs = (count - head) / kLanes;
  const uint4* __restrict__ body = reinterpret_cast<const uint4*>(row + head);
  index_t v = tid;
  for (; v + (kGradBiasUnroll - 1) * kThreads < packs; v += kGradBiasUnroll * kThreads) {
    uint4 raw[kGradBiasUnroll];
#pragma unroll
    for (int u = 0; u < kGradBiasUnroll; ++u) raw[u] = __ldg(body + v + u * kThreads);
#pragma unroll
    for (int u = 0; u < kGradBiasUnroll; ++u) acc += sum_pack<scalar_t>(raw[u]);
  }
  for (; v < packs; v += kThreads) acc += sum_pack<scalar_t>(__ldg(body + v));
  const index_t done = head + packs * kLanes;
  if (tid < count - done) acc += to_acc(row[done + tid]);
}

// This block's share [begin, end) of the elements (positions) per channel: split blockIdx.y of gridDim.y.
struct BlockShare {
  int64_t begin, end;
};
__device__ __forceinline__ BlockShare block_share(const GradBiasPlan& plan) {
  return {split_begin(plan.reduction, gridDim.y, blockIdx.y), split_begin(plan.reduction, gridDim.y, blockIdx.y + 1)};
}

// grid.x: channel; grid.y: split of the channel's rows x columns (an even share of elements).
template <typename scalar_t, typename index_t>
__global__ void __launch_bounds__(kThreads)
tconv_grad_bias_rows_vector_kernel(const scalar_t* __restrict__ dy, const GradBiasPlan plan,
                                   typename AccType<scalar_t>::type* __restrict__ partial) {
  using acc_t = typename AccType<scalar_t>::type;
  const StridedDims<int64_t>& dims = plan.dims;
  const int64_t row_len = plan.dims.size[0];
  const auto [begin, end] = block_share(plan);
  const scalar_t* channel = dy + index_t(blockIdx.x) * index_t(plan.channel_stride);
  acc_t acc = acc_t(0);
  index_t row = index_t(begin / row_len);
  for (int64_t row_start = int64_t(row) * row_len; row_start < end; row_start += row_len, ++row) {
    const index_t first = index_t(max(begin - row_start, int64_t(0)));
    const index_t last = index_t(min(end - row_start, row_len));
    add_contiguous<scalar_t, index_t>(channel + dims.offset<index_t>(row, 1) + first, last - first, acc);
  }
  const acc_t sum = block_sum(acc);
  if (threadIdx.x == 0) partial[int64_t(blockIdx.y) * plan.channels + blockIdx.x] = sum;
}

template <typename scalar_t, typename index_t>
__global__ void __launch_bounds__(kThreads)
tconv_grad_bias_rows_strided_kernel(const scalar_t* __restrict__ dy, const GradBiasPlan plan,
                                    typename AccType<scalar_t>::type* __restrict__ partial) {
  using acc_t = typename AccType<scalar_t>::type;
  const StridedDims<int64_t>& dims = plan.dims;
  const index_t row_len = index_t(dims.size[0]), col_stride = index_t(dims.stride[0]);
  const BlockShare share = block_share(plan);
  const int64_t begin = share.begin + threadIdx.x, end = share.end;
  const scalar_t* channel = dy + index_t(blockIdx.x) * index_t(plan.channel_stride);
  acc_t acc = acc_t(0);
  if (begin < end) {
    // Element f = row * row_len + col; a step of kThreads elements moves by (row_step, col_step).
    index_t row = index_t(begin / row_len), col = index_t(begin - int64_t(row) * row_len);
    const index_t row_step = kThreads / row_len, col_step = kThreads % row_len;
    index_t steps = index_t((end - begin + kThreads - 1) / kThreads);
#pragma unroll 4
    for (; steps > 0; --steps) {
      acc += to_acc(channel[dims.offset<index_t>(row, 1) + col * col_stride]);
      row += row_step;
      if (col >= row_len - col_step) {  // col + col_step >= row_len, without overflow
        col -= row_len - col_step;
        ++row;
      } else {
        col += col_step;
      }
    }
  }
  const acc_t sum = block_sum(acc);
  if (threadIdx.x == 0) partial[int64_t(blockIdx.y) * plan.channels + blockIdx.x] = sum;
}

// grid.x: block of plan.columns channel packs; grid.y: split of the positions. kLanes channels per
// pack: 16 bytes (the plan checked alignment and channel stride 1) or 1 (scalar, any strides).
template <typename scalar_t, typename index_t, int kLanes>
__global__ void __launch_bounds__(kThreads)
tconv_grad_bias_channels_inner_kernel(const scalar_t* __restrict__ dy, const GradBiasPlan plan,
                                      typename AccType<scalar_t>::type* __restrict__ partial) {
  using acc_t = typename AccType<scalar_t>::type;
  __shared__ acc_t column_sums[kThreads * kLanes];
  const StridedDims<int64_t>& dims = plan.dims;
  const int columns = plan.columns, position_lanes = kThreads / columns;
  const int column = threadIdx.x % columns, lane_row = threadIdx.x / columns;
  const int64_t first_channel = (int64_t(blockIdx.x) * columns + column) * kLanes;
  const BlockShare share = block_share(plan);
  const index_t begin = index_t(share.begin), end = index_t(share.end);
  acc_t acc[kLanes];
#pragma unroll
  for (int k = 0; k < kLanes; ++k) acc[k] = acc_t(0);
  if (lane_row < position_lanes && first_channel < plan.channels) {
    const scalar_t* base = dy + index_t(first_channel) * index_t(plan.channel_stride);
    // Positions < 2^30 here (C > 1 and 32-bit indexing only below 2^31 elements): no overflow.
    index_t pos = begin + lane_row;
    const index_t step = position_lanes;
    if constexpr (kLanes > 1) {
      for (; pos + (kGradBiasUnroll - 1) * step < end; pos += kGradBiasUnroll * step) {
        uint4 raw[kGradBiasUnroll];
#pragma unroll
        for (int u = 0; u < kGradBiasUnroll; ++u)
          raw[u] = __ldg(reinterpret_cast<const uint4*>(base + dims.offset<index_t>(pos + u * step, 0)));
#pragma unroll
        for (int u = 0; u < kGradBiasUnroll; ++u) add_pack<scalar_t>(raw[u], acc);
      }
      for (; pos < end; pos += step) add_pack<scalar_t>(__ldg(reinterpret_cast<const uint4*>(base + dims.offset<index_t>(pos, 0))), acc);
    } else {
#pragma unroll 4
      for (; pos < end; pos += step) acc[0] += to_acc(base[dims.offset<index_t>(pos, 0)]);
    }
  }
  // Column sums over the position lanes, in lane order.
  const int width = columns * kLanes;
  if (lane_row < position_lanes) {
#pragma unroll
    for (int k = 0; k < kLanes; ++k) column_sums[lane_row * width + column * kLanes + k] = acc[k];
  }
  __syncthreads();
  for (int e = threadIdx.x; e < width; e += kThreads) {
    const int64_t c = int64_t(blockIdx.x) * width + e;
    if (c >= plan.channels) break;
    acc_t sum = acc_t(0);
    for (int r = 0; r < position_lanes; ++r) sum += column_sums[r * width + e];
    partial[int64_t(blockIdx.y) * plan.channels + c] = sum;
  }
}

// Sums `splits` partial buffers of `numel` logical elements in a fixed order and stores element e
// (logical index over `sizes`, row-major) at its strided place in `out`. A block takes kThreads / lanes columns of
// kSumElems consecutive elements with `lanes` threads each: lane l adds splits l, l + lanes, ... in order, then the
// lanes' sums are added in lane order; the order depends only on `lanes`, which depends only on the sizes
// (sum_splits_lanes), never on the grid or kSumElems.
// A column decodes its first element's index once (in index_t: uint32_t where every logical index and offset fits,
// sum_splits_index32) and steps the others by carries. Why: DCGAN's grad_weight sum (2.1M elements, one split, its
// folded view not row-major: a copy of 8 MB, ~5 us of DRAM traffic) took 24 us with 32-bit decoding (run 355), 29
// with 64-bit (runs 353-355), one element per thread: a decode per element, one load in flight per thread. Four per
// thread: 10 us (run 356).
constexpr int kSumElems = 4;
template <typename scalar_t, typename index_t>
__global__ void __launch_bounds__(kThreads)
tconv_sum_splits_kernel(const typename AccType<scalar_t>::type* __restrict__ partial, int64_t splits,
                        int64_t numel, int lanes, scalar_t* __restrict__ out,
                        int64_t s1, int64_t s2, int64_t s3, int64_t s4, int64_t st0, int64_t st1,
                        int64_t st2, int64_t st3, int64_t st4) {
  using acc_t = typename AccType<scalar_t>::type;
  __shared__ acc_t lane_sums[kThreads * kSumElems];
  const int columns = kThreads / lanes;
  const int column = threadIdx.x % columns, split_lane = threadIdx.x / columns;
  const int64_t step = int64_t(columns) * kSumElems;
  // The block's element loop is uniform (every thread runs every iteration: the barriers below).
  for (int64_t first = int64_t(blockIdx.x) * step; first < numel; first += int64_t(gridDim.x) * step) {
    const int64_t e0 = first + int64_t(column) * kSumElems;
    acc_t sum[kSumElems];
#pragma unroll
    for (int j = 0; j < kSumElems; ++j) sum[j] = acc_t(0);
    for (int64_t s = split_lane; s < splits; s += lanes) {
      const acc_t* split = partial + s * numel + e0;
#pragma unroll
      for (int j = 0; j < kSumElems; ++j)
        if (e0 + j < numel) sum[j] += split[j];
    }
    if (lanes > 1) {
#pragma unroll
      for (int j = 0; j < kSumElems; ++j) lane_sums[threadIdx.x * kSumElems + j] = sum[j];
      __syncthreads();
      if (split_lane == 0)
        for (int l = 1; l < lanes; ++l)
#pragma unroll
          for (int j = 0; j < kSumElems; ++j) sum[j] += lane_sums[(l * columns + column) * kSumElems + j];
    }
    if (split_lane == 0 && e0 < numel) {
      index_t rem = index_t(e0);
      index_t i4 = rem % index_t(s4); rem /= index_t(s4);
      index_t i3 = rem % index_t(s3); rem /= index_t(s3);
      index_t i2 = rem % index_t(s2); rem /= index_t(s2);
      index_t i1 = rem % index_t(s1);
      index_t i0 = rem / index_t(s1);
#pragma unroll
      for (int j = 0; j < kSumElems; ++j) {
        if (e0 + j < numel)
          out[i0 * index_t(st0) + i1 * index_t(st1) + i2 * index_t(st2) + i3 * index_t(st3) + i4 * index_t(st4)] =
              from_acc<scalar_t>(sum[j]);
        if (++i4 == index_t(s4)) {
          i4 = 0;
          if (++i3 == index_t(s3)) {
            i3 = 0;
            if (++i2 == index_t(s2)) {
              i2 = 0;
              if (++i1 == index_t(s1)) {
                i1 = 0;
                ++i0;
              }
            }
          }
        }
      }
    }
    if (lanes > 1) __syncthreads();  // lane_sums is rewritten by the next iteration
  }
}

// Threads per element in the split sum: more than one only where one thread per element leaves the GPU short of
// blocks and each lane still adds several splits. Run 303's ncu: L1-71's TF32 grad_weight sum (9216 elements x 528
// splits, one lane: 36 blocks) took 60.6 us against ~7 us to read its 19.5 MB; with 8 lanes (288 blocks) run 314
// measured 8 us. Run 314 also found eight lanes on DCGAN's 2.1M elements x 1 split at 94 us, against 18 us with one
// (runs 193-224): seven idle lanes per element leave one warp per block for the index divisions.
constexpr int kMaxSumLanes = 8;
constexpr int64_t kSumLanesMaxBlocks = 1024, kSumMinSplitsPerLane = 8;
int sum_splits_lanes(int64_t splits, int64_t numel) {
  int lanes = 1;
  while (lanes < kMaxSumLanes && ceil_div<int64_t>(numel * lanes, kThreads) < kSumLanesMaxBlocks &&
         splits >= 2 * lanes * kSumMinSplitsPerLane)
    lanes *= 2;
  return lanes;
}

bool needs_int64(const ConvTransposeParams& p) {
  const int64_t in_sizes[5] = {p.batch, p.in_channels, p.in_size[0], p.in_size[1], p.in_size[2]};
  const int64_t out_sizes[5] = {p.batch, p.out_channels, p.out_size[0], p.out_size[1], p.out_size[2]};
  const int64_t w_sizes[5] = {p.in_channels, p.out_per_group(), p.kernel[0], p.kernel[1], p.kernel[2]};
  constexpr int64_t kLimit = (int64_t(1) << 31) - 1;
  const int64_t in_numel = in_sizes[0] * in_sizes[1] * p.in_spatial();
  const int64_t out_numel = out_sizes[0] * out_sizes[1] * p.out_spatial();
  return in_numel >= kLimit || out_numel >= kLimit || max_offset(in_sizes, p.input_strides, 5) >= kLimit ||
         max_offset(out_sizes, p.output_strides, 5) >= kLimit || max_offset(w_sizes, p.weight_strides, 5) >= kLimit;
}

// TCONV_SUM_SPLITS_INDEX64=1 (development, read once per process): the 64-bit decoding everywhere (the bitwise test
// of the 32-bit one; calls past 32 bits take it anyway).
bool sum_splits_index64_forced() {
  static const bool forced = development_switch("TCONV_SUM_SPLITS_INDEX64", 0) != 0;
  return forced;
}
// Whether the element count and every offset into `out` (non-negative strides) fit 32 bits.
bool sum_splits_index32(const int64_t sizes[5], const int64_t strides[5]) {
  constexpr int64_t kLimit = int64_t(1) << 31;
  int64_t numel = 1, last_offset = 0;
  for (int i = 0; i < 5; ++i) {
    if (strides[i] < 0) return false;
    numel *= sizes[i];
    last_offset += (sizes[i] - 1) * strides[i];
  }
  return numel < kLimit && last_offset < kLimit && !sum_splits_index64_forced();
}

template <typename scalar_t>
cudaError_t launch_sum_splits(const void* workspace, int64_t splits, const int64_t sizes[5],
                              const int64_t strides[5], void* out, cudaStream_t stream) {
  const int64_t numel = sizes[0] * sizes[1] * sizes[2] * sizes[3] * sizes[4];
  const int lanes = sum_splits_lanes(splits, numel);
  const unsigned int grid = static_cast<unsigned int>(std::max<int64_t>(
      1, std::min<int64_t>(ceil_div<int64_t>(numel, int64_t(kThreads / lanes) * kSumElems), 65535)));
  const auto kernel = sum_splits_index32(sizes, strides) ? tconv_sum_splits_kernel<scalar_t, uint32_t>
                                                         : tconv_sum_splits_kernel<scalar_t, int64_t>;
  kernel<<<grid, kThreads, 0, stream>>>(
      static_cast<const typename AccType<scalar_t>::type*>(workspace), splits, numel, lanes,
      static_cast<scalar_t*>(out), sizes[1], sizes[2], sizes[3], sizes[4], strides[0], strides[1],
      strides[2], strides[3], strides[4]);
  return cudaGetLastError();
}

}  // namespace

cudaError_t direct_forward(const ConvTransposeParams& p, DType dtype, const void* input,
                           const void* weight, const void* bias, void* output, Order order,
                           int sm_count, cudaStream_t stream) {
  const int64_t total = p.batch * p.out_channels * p.out_spatial();
  if (total == 0) return cudaSuccess;
  return TCONV_DTYPE_SWITCH(dtype, scalar_t, [&] {
    return TCONV_INDEX_SWITCH(needs_int64(p), index_t, [&] {
      tconv_direct_forward_kernel<scalar_t, index_t><<<flat_grid(total, sm_count), kThreads, 0, stream>>>(
          p, static_cast<const scalar_t*>(input), static_cast<const scalar_t*>(weight),
          static_cast<const scalar_t*>(bias), static_cast<scalar_t*>(output), order, index_t(total));
      return cudaGetLastError();
    });
  });
}

cudaError_t direct_grad_input(const ConvTransposeParams& p, DType dtype, const void* grad_output,
                              const void* weight, void* grad_input, Order order, int sm_count,
                              cudaStream_t stream) {
  const int64_t total = p.batch * p.in_channels * p.in_spatial();
  if (total == 0) return cudaSuccess;
  return TCONV_DTYPE_SWITCH(dtype, scalar_t, [&] {
    return TCONV_INDEX_SWITCH(needs_int64(p), index_t, [&] {
      tconv_direct_grad_input_kernel<scalar_t, index_t><<<flat_grid(total, sm_count), kThreads, 0, stream>>>(
          p, static_cast<const scalar_t*>(grad_output), static_cast<const scalar_t*>(weight),
          static_cast<scalar_t*>(grad_input), order, index_t(total));
      return cudaGetLastError();
    });
  });
}

int64_t direct_grad_weight_splits(const ConvTransposeParams& p, int sm_count, int64_t max_workspace_elems) {
  const int64_t tiles = p.kernel_volume() * p.groups * ceil_div<int64_t>(p.in_per_group(), kTileCi) *
                        ceil_div<int64_t>(p.out_per_group(), kTileCo);
  const int64_t reduction = p.batch * p.in_spatial();
  const int64_t weight_numel = p.in_channels * p.out_per_group() * p.kernel_volume();
  // Enough blocks for ~4 per SM, but each split keeps >= 2048 positions (8 per thread), and the
  // workspace stays within the caller's budget.
  int64_t splits = ceil_div<int64_t>(4 * std::max(sm_count, 1), std::max<int64_t>(tiles, 1));
  splits = std::min(splits, ceil_div<int64_t>(std::max<int64_t>(reduction, 1), 2048));
  splits = std::min(splits, max_workspace_elems / std::max<int64_t>(weight_numel, 1));
  splits = std::min<int64_t>(splits, 65535);
  return std::max<int64_t>(splits, 1);
}

cudaError_t direct_grad_weight(const ConvTransposeParams& p, DType dtype, const void* input,
                               const void* grad_output, void* grad_weight, void* workspace,
                               int64_t splits, cudaStream_t stream) {
  const int64_t tiles = p.kernel_volume() * p.groups * ceil_div<int64_t>(p.in_per_group(), kTileCi) *
                        ceil_div<int64_t>(p.out_per_group(), kTileCo);
  const int64_t sizes[5] = {p.in_channels, p.out_per_group(), p.kernel[0], p.kernel[1], p.kernel[2]};
  return TCONV_DTYPE_SWITCH(dtype, scalar_t, [&] {
    using acc_t = typename AccType<scalar_t>::type;
    if (p.batch * p.in_spatial() == 0) {
      // Nothing to reduce: the gradient is zero. One split of zeros keeps a single code path.
      cudaError_t err = cudaMemsetAsync(workspace, 0, sizeof(acc_t) * sizes[0] * sizes[1] * p.kernel_volume(), stream);
      if (err != cudaSuccess) return err;
      return launch_sum_splits<scalar_t>(workspace, 1, sizes, p.weight_strides, grad_weight, stream);
    }
    cudaError_t err = TCONV_INDEX_SWITCH(needs_int64(p), index_t, [&] {
      tconv_direct_grad_weight_kernel<scalar_t, index_t><<<dim3(static_cast<unsigned int>(tiles), static_cast<unsigned int>(splits)), kThreads, 0, stream>>>(
          p, static_cast<const scalar_t*>(input), static_cast<const scalar_t*>(grad_output),
          static_cast<acc_t*>(workspace), splits);
      return cudaGetLastError();
    });
    if (err != cudaSuccess) return err;
    return launch_sum_splits<scalar_t>(workspace, splits, sizes, p.weight_strides, grad_weight, stream);
  });
}

namespace {

// `dy_aligned`: the data pointer is 16-byte aligned (the vector channel walk needs it; the row walk
// aligns itself per row).
GradBiasPlan plan_grad_bias(const ConvTransposeParams& p, int element_bytes, bool dy_aligned) {
  GradBiasPlan plan;
  plan.channels = p.out_channels;
  plan.channel_stride = p.output_strides[1];
  const int64_t sizes[4] = {p.batch, p.out_size[0], p.out_size[1], p.out_size[2]};
  const int64_t strides[4] = {p.output_strides[0], p.output_strides[2], p.output_strides[3], p.output_strides[4]};
  plan.dims = collapse_reduction_dims(sizes, strides, 4);
  plan.reduction = plan.dims.numel();
  const int64_t inner_stride = plan.dims.stride[0] < 0 ? -plan.dims.stride[0] : plan.dims.stride[0];
  const int64_t channel_stride = plan.channel_stride < 0 ? -plan.channel_stride : plan.channel_stride;
  if (plan.channels > 1 && channel_stride < inner_stride) {
    plan.path = GradBiasPath::kChannelsInner;
    const int lanes = 16 / element_bytes;
    bool vector = dy_aligned && plan.channel_stride == 1 && plan.channels % lanes == 0;
    for (int d = 0; d < plan.dims.count; ++d) vector = vector && plan.dims.stride[d] % lanes == 0;
    plan.lanes = vector ? lanes : 1;
    const int64_t packs = ceil_div<int64_t>(plan.channels, plan.lanes);
    plan.columns = static_cast<int>(std::min<int64_t>(packs, kThreads));
    plan.blocks_per_split = ceil_div<int64_t>(packs, plan.columns);
  } else {
    plan.path = plan.dims.stride[0] == 1 && plan.dims.size[0] >= kGradBiasMinVectorRow ? GradBiasPath::kRowsVector
                                                                                         : GradBiasPath::kRowsStrided;
    plan.blocks_per_split = plan.channels;
  }
  return plan;
}

// Above this many splits the partials themselves are reduced by the channels walk first (to
// ceil(splits / kGradBiasSplitsPerSum) rows): launch_sum_splits gives at most kMaxSumLanes threads per channel,
// which would read thousands of splits one after another (channels_last, or few channels).
constexpr int64_t kGradBiasDirectSplits = 64;
constexpr int64_t kGradBiasSplitsPerSum = 128;

// The partials [rows][channels] (acc_t) as a channels-innermost tensor for a second pass.
GradBiasPlan plan_partials_sum(int64_t channels, int64_t rows, int element_bytes) {
  GradBiasPlan plan;
  plan.path = GradBiasPath::kChannelsInner;
  plan.channels = channels;
  plan.channel_stride = 1;
  plan.dims.count = 1;
  plan.dims.size[0] = rows;
  plan.dims.stride[0] = channels;
  plan.reduction = rows;
  const int lanes = 16 / element_bytes;
  plan.lanes = channels % lanes == 0 ? lanes : 1;  // the workspace comes from torch's allocator: aligned
  const int64_t packs = ceil_div<int64_t>(channels, plan.lanes);
  plan.columns = static_cast<int>(std::min<int64_t>(packs, kThreads));
  plan.blocks_per_split = ceil_div<int64_t>(packs, plan.columns);
  return plan;
}

template <typename scalar_t, typename index_t>
void launch_grad_bias_channels(const scalar_t* dy, const GradBiasPlan& plan, typename AccType<scalar_t>::type* partial,
                               int64_t splits, cudaStream_t stream) {
  const dim3 grid(static_cast<unsigned int>(plan.blocks_per_split), static_cast<unsigned int>(splits));
  if (plan.lanes > 1)
    tconv_grad_bias_channels_inner_kernel<scalar_t, index_t, pack_lanes<scalar_t>()><<<grid, kThreads, 0, stream>>>(
        dy, plan, partial);
  else
    tconv_grad_bias_channels_inner_kernel<scalar_t, index_t, 1><<<grid, kThreads, 0, stream>>>(dy, plan, partial);
}

}  // namespace

int64_t grad_bias_splits(const ConvTransposeParams& p, int sm_count, int64_t max_workspace_elems) {
  if (p.out_channels == 0 || p.batch * p.out_spatial() == 0) return 1;
  // Element size only moves the vector decision of the channels walk, which does not change the
  // block count by much; fp32 stands for every dtype here.
  const GradBiasPlan plan = plan_grad_bias(p, 4, true);
  // 4 to 8 waves of equal blocks, picking the count that fills the last wave best (uniform blocks:
  // a partial last wave idles the rest of the GPU). H200 (132 SMs, 792 slots): U-Net/VAE (128
  // channels) 24 splits, HiFi-GAN (256 channels) 12 splits, 3.9 waves each; at most 64 splits, so
  // launch_sum_splits adds them in one pass (channels_last takes the two-pass sum below).
  const int64_t slots = static_cast<int64_t>(std::max(sm_count, 1)) * kGradBiasBlocksPerSm;
  int64_t splits = 1;
  double best = 0.0;
  for (int64_t waves = 4; waves <= 8; ++waves) {
    const int64_t candidate = std::max<int64_t>(1, waves * slots / plan.blocks_per_split);
    const int64_t blocks = candidate * plan.blocks_per_split;
    const double fill = double(blocks) / double(ceil_div<int64_t>(blocks, slots) * slots);
    if (fill > best + 1e-9) {
      best = fill;
      splits = candidate;
    }
  }
  const int64_t channels_per_block =
      plan.path == GradBiasPath::kChannelsInner ? std::min<int64_t>(p.out_channels, int64_t(plan.columns) * plan.lanes) : 1;
  splits = std::min(splits, std::max<int64_t>(1, plan.reduction * channels_per_block / kGradBiasMinBlockElems));
  splits = std::min(splits, plan.reduction);
  // Room for the second pass's rows (grad_bias takes ceil(total / kGradBiasSplitsPerSum) of them).
  if (splits > kGradBiasDirectSplits) splits += ceil_div<int64_t>(splits, kGradBiasSplitsPerSum - 1);
  splits = std::min(splits, max_workspace_elems / std::max<int64_t>(p.out_channels, 1));
  splits = std::min<int64_t>(splits, 65535);
  return std::max<int64_t>(splits, 1);
}

cudaError_t grad_bias(const ConvTransposeParams& p, DType dtype, const void* grad_output,
                      void* grad_bias_out, int64_t grad_bias_stride, void* workspace, int64_t splits,
                      cudaStream_t stream) {
  const int64_t sizes[5] = {p.out_channels, 1, 1, 1, 1};
  const int64_t strides[5] = {grad_bias_stride, 0, 0, 0, 0};
  if (p.out_channels == 0) return cudaSuccess;
  return TCONV_DTYPE_SWITCH(dtype, scalar_t, [&] {
    using acc_t = typename AccType<scalar_t>::type;
    if (p.batch * p.out_spatial() == 0) {
      cudaError_t err = cudaMemsetAsync(workspace, 0, sizeof(acc_t) * p.out_channels, stream);
      if (err != cudaSuccess) return err;
      return launch_sum_splits<scalar_t>(workspace, 1, sizes, strides, grad_bias_out, stream);
    }
    const bool aligned = reinterpret_cast<uintptr_t>(grad_output) % 16 == 0;
    const GradBiasPlan plan = plan_grad_bias(p, sizeof(scalar_t), aligned);
    // Workspace: [first_splits][C] partials, then [second_splits][C] when they are summed in two
    // passes; first + second <= splits (the caller's allocation).
    const int64_t second_splits = splits > kGradBiasDirectSplits ? ceil_div<int64_t>(splits, kGradBiasSplitsPerSum) : 0;
    // More splits than elements per channel would leave blocks without work (still correct).
    const int64_t first_splits = std::max<int64_t>(1, std::min(splits - second_splits, plan.reduction));
    const dim3 grid(static_cast<unsigned int>(plan.blocks_per_split), static_cast<unsigned int>(first_splits));
    const scalar_t* dy = static_cast<const scalar_t*>(grad_output);
    acc_t* partial = static_cast<acc_t*>(workspace);
    cudaError_t err = TCONV_INDEX_SWITCH(needs_int64(p), index_t, [&] {
      switch (plan.path) {
        case GradBiasPath::kRowsVector:
          tconv_grad_bias_rows_vector_kernel<scalar_t, index_t><<<grid, kThreads, 0, stream>>>(dy, plan, partial);
          break;
        case GradBiasPath::kRowsStrided:
          tconv_grad_bias_rows_strided_kernel<scalar_t, index_t><<<grid, kThreads, 0, stream>>>(dy, plan, partial);
          break;
        case GradBiasPath::kChannelsInner:
          launch_grad_bias_channels<scalar_t, index_t>(dy, plan, partial, first_splits, stream);
          break;
      }
      return cudaGetLastError();
    });
    if (err != cudaSuccess) return err;
    if (second_splits == 0 || first_splits <= kGradBiasDirectSplits)
      return launch_sum_splits<scalar_t>(workspace, first_splits, sizes, strides, grad_bias_out, stream);
    // Second pass: the partials as [first_splits positions][C channels] of acc_t, a fixed order again.
    const GradBiasPlan sum_plan = plan_partials_sum(p.out_channels, first_splits, sizeof(acc_t));
    acc_t* partial_sums = partial + first_splits * p.out_channels;
    constexpr int64_t kLimit = (int64_t(1) << 31) - 1;
    err = TCONV_INDEX_SWITCH(first_splits * p.out_channels >= kLimit, index_t, [&] {
      launch_grad_bias_channels<acc_t, index_t>(partial, sum_plan, partial_sums, second_splits, stream);
      return cudaGetLastError();
    });
    if (err != cudaSuccess) return err;
    return launch_sum_splits<scalar_t>(partial_sums, second_splits, sizes, strides, grad_bias_out, stream);
  });
}

cudaError_t sum_splits(DType dtype, const void* workspace, int64_t splits, const int64_t sizes[5],
                       const int64_t strides[5], void* out, cudaStream_t stream) {
  return TCONV_DTYPE_SWITCH(dtype, scalar_t, [&] {
    return launch_sum_splits<scalar_t>(workspace, splits, sizes, strides, out, stream);
  });
}

#define TCONV_STRINGIFY_(...) #__VA_ARGS__
#define TCONV_STRINGIFY(...) TCONV_STRINGIFY_(__VA_ARGS__)
const char* compiled_arch_list() {
#ifdef __CUDA_ARCH_LIST__
  return TCONV_STRINGIFY(__CUDA_ARCH_LIST__);
#else
  return "unknown";
#endif
}

int kernel_binary_version(int device) {
  int previous = 0;
  if (cudaGetDevice(&previous) != cudaSuccess) return -1;
  if (cudaSetDevice(device) != cudaSuccess) return -1;
  cudaFuncAttributes attr;
  const cudaError_t err = cudaFuncGetAttributes(&attr, tconv_direct_forward_kernel<float, int32_t>);
  cudaSetDevice(previous);
  return err == cudaSuccess ? attr.binaryVersion : -1;
}

}  // namespace tconv
