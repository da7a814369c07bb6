// Fused "activation -> GroupNorm" epilogue, forward and backward (see group_norm_act.h).
//
// Every pass walks the tensor as (n, channel) slices of S elements, cut into `splits` pieces so
// the GPU is full even when N x C is small (L2-61: 2048 slices of 39304 elements):
//   channels-first (NC(D)HW): one warp per (n, c, split); a slice is contiguous, so lanes stream
//     16-byte packs along it and the channel (hence mean/rstd/gamma/beta) is fixed per warp;
//   channels-last (N(D)HWC): one block per (n, channel tile, split); a thread owns one pack of
//     consecutive channels and walks positions, so its per-channel constants load once.
// Reductions write one partial per (n, c, split) (no atomics) and tiny kernels merge them in a
// fixed order, so results are bitwise reproducible.
//
// Forward:  stats partials (Welford count/mean/M2 of act(y)) -> per-(n, g) Chan merge in fp64
//           -> mean, rstd -> one elementwise pass z = (act(y) - mean) * rstd * gamma + beta.
// Backward: per-(n, c, split) sums of dz and dz * (act(y) - mean) -> per-(n, g) coefficients and
//           per-(n, c) sums -> gamma/beta grads (sum over n) and one elementwise pass for grad_y.
#include "group_norm_act.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <type_traits>
#include "activation.h"
#include "dispatch.h"

namespace tconv {
namespace {

constexpr int kThreads = 256;
constexpr int kWarpSize = 32;
constexpr int kWarpsPerBlock = kThreads / kWarpSize;
constexpr int kFinalizeThreads = 128;
// Below this many elements per piece the fixed cost of a piece (a reduction, a partial) starts
// to show next to the streaming; only that many pieces per slice are worth creating.
constexpr int64_t kMinElementsPerSplit = 2048;
// Per-piece element counts are held in fp32, which is exact up to 2^24.
constexpr int64_t kMaxElementsPerSplit = int64_t(1) << 24;
// Resident warps (channels-first) and blocks (channels-last) per SM the splits aim for.
constexpr int64_t kTargetWarpsPerSm = 64;
constexpr int64_t kTargetBlocksPerSm = 8;
// Occupancy asked of ptxas for the streaming kernels: 6 blocks of 256 threads leave 42 registers
// per thread, enough for the widest pack (fp16 x 8) without spills, and keep >= 48 warps resident
// to hide DRAM latency.
constexpr int kMinBlocksPerSm = 4;

TCONV_HOST_DEVICE int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// x[j] <- act(x[j]).
template <int VEC>
__device__ __forceinline__ void activate(const ActivationSpec& act, float (&x)[VEC]) {
  TCONV_ACTIVATION_SWITCH(act.kind, K, {
    _Pragma("unroll") for (int j = 0; j < VEC; ++j) x[j] = Act<K>::value(x[j], act.arg0, act.arg1);
  })
}

// x[j] <- act(x[j]), slope[j] <- act'(x[j]) (of the input before activation).
template <int VEC>
__device__ __forceinline__ void activate_with_slope(const ActivationSpec& act, float (&x)[VEC], float (&slope)[VEC]) {
  TCONV_ACTIVATION_SWITCH(act.kind, K, {
    _Pragma("unroll") for (int j = 0; j < VEC; ++j) {
      slope[j] = Act<K>::slope(x[j], act.arg0, act.arg1);
      x[j] = Act<K>::value(x[j], act.arg0, act.arg1);
    }
  })
}

// ---------------------------------------------------------------------------------------------
// Packs of VEC elements (dispatch.h: Pack; 16 bytes when VEC = 16 / sizeof(T); VEC = 1 where alignment forbids).
// ---------------------------------------------------------------------------------------------
template <typename T>
__device__ __forceinline__ float param_or(const T* __restrict__ param, int64_t c, float fallback) {
  return param != nullptr ? to_acc<T>(param[c]) : fallback;
}

// ---------------------------------------------------------------------------------------------
// Work decomposition shared by every pass.
// ---------------------------------------------------------------------------------------------
struct Geometry {
  int64_t batch;
  int64_t channels;
  int64_t groups;
  int64_t channels_per_group;
  int64_t spatial;
  int64_t splits;
  int64_t vectors;  // packs per slice (channels-first) or per position (channels-last)
  int64_t chunk;    // packs (channels-first) or positions (channels-last) per split
  int tile_width;   // channels-last: packs of channels per block row, a power of two <= 32
  int64_t tiles;    // channels-last: channel tiles per position
  TCONV_HOST_DEVICE int64_t partials() const { return batch * channels * splits; }
};

// One warp's piece of a channels-first slice: packs [begin, end) of row n * C + c.
struct ChannelsFirstPiece {
  bool valid;
  int64_t n, c, row, split, begin, end;
};

__device__ __forceinline__ ChannelsFirstPiece channels_first_piece(const Geometry& geo) {
  ChannelsFirstPiece piece;
  const int64_t item = static_cast<int64_t>(blockIdx.x) * kWarpsPerBlock + threadIdx.x / kWarpSize;
  piece.valid = item < geo.partials();
  piece.row = item / geo.splits;
  piece.split = item % geo.splits;
  piece.n = piece.row / geo.channels;
  piece.c = piece.row % geo.channels;
  piece.begin = piece.split * geo.chunk;
  piece.end = min(piece.begin + geo.chunk, geo.vectors);
  return piece;
}

// One thread's share of a channels-last block: channel pack `pack` at positions
// begin + row, begin + row + row_step, ... < end of batch n.
struct ChannelsLastPiece {
  bool valid;
  int64_t n, pack, split, begin, end;
  int row, row_step, column;
};

__device__ __forceinline__ ChannelsLastPiece channels_last_piece(const Geometry& geo) {
  ChannelsLastPiece piece;
  const int64_t block = blockIdx.x;
  piece.split = block % geo.splits;
  const int64_t rest = block / geo.splits;
  const int64_t tile = rest % geo.tiles;
  piece.n = rest / geo.tiles;
  piece.column = threadIdx.x % geo.tile_width;
  piece.row = threadIdx.x / geo.tile_width;
  piece.row_step = kThreads / geo.tile_width;
  piece.pack = tile * geo.tile_width + piece.column;
  piece.valid = piece.pack < geo.vectors;
  piece.begin = piece.split * geo.chunk;
  piece.end = min(piece.begin + geo.chunk, geo.spatial);
  return piece;
}

// Merges the states of threads with the same column down to row 0 (a fixed tree: deterministic).
// merge_rows(step) merges row `row + step` into row `row`; the caller has stored its state.
template <typename MergeRows>
__device__ __forceinline__ void merge_block_rows(int row, int row_step, MergeRows merge_rows) {
  for (int step = row_step / 2; step > 0; step /= 2) {
    __syncthreads();
    if (row < step) merge_rows(step);
  }
  __syncthreads();
}

// ---------------------------------------------------------------------------------------------
// Forward statistics: Welford per thread, Chan's formula to merge.
// ---------------------------------------------------------------------------------------------
struct Welford {
  float count;
  float mean;
  float m2;
};

__device__ __forceinline__ Welford merge_welford(const Welford& a, const Welford& b) {
  if (b.count == 0.f) return a;
  if (a.count == 0.f) return b;
  const float count = a.count + b.count;
  const float delta = b.mean - a.mean;
  const float b_share = b.count / count;
  return {count, a.mean + delta * b_share, a.m2 + b.m2 + delta * delta * a.count * b_share};
}

// Partials are three planes (count, mean, m2) of [N * C][splits].
__device__ __forceinline__ void store_welford(float* __restrict__ partials, int64_t plane, int64_t index,
                                              const Welford& w) {
  partials[index] = w.count;
  partials[plane + index] = w.mean;
  partials[2 * plane + index] = w.m2;
}

template <typename T, int VEC>
__global__ void __launch_bounds__(kThreads, kMinBlocksPerSm)
stats_channels_first(Geometry geo, ActivationSpec act, const T* __restrict__ y, float* __restrict__ partials) {
  const ChannelsFirstPiece piece = channels_first_piece(geo);
  if (!piece.valid) return;  // whole warps only: the item index is per warp
  const int lane = threadIdx.x % kWarpSize;
  const T* slice = y + piece.row * geo.spatial;
  Welford state{0.f, 0.f, 0.f};
  for (int64_t v = piece.begin + lane; v < piece.end; v += kWarpSize) {
    float x[VEC];
    load_pack<T, VEC>(slice + v * VEC, x);
    activate<VEC>(act, x);
    // The pack's own mean and M2 in registers, then one Chan merge: one division per pack.
    float sum = 0.f;
#pragma unroll
    for (int j = 0; j < VEC; ++j) sum += x[j];
    const float pack_mean = sum * (1.f / VEC);
    float pack_m2 = 0.f;
#pragma unroll
    for (int j = 0; j < VEC; ++j) pack_m2 += (x[j] - pack_mean) * (x[j] - pack_mean);
    state = merge_welford(state, {static_cast<float>(VEC), pack_mean, pack_m2});
  }
#pragma unroll
  for (int offset = kWarpSize / 2; offset > 0; offset /= 2) {
    const Welford other{__shfl_xor_sync(0xffffffffu, state.count, offset),
                        __shfl_xor_sync(0xffffffffu, state.mean, offset),
                        __shfl_xor_sync(0xffffffffu, state.m2, offset)};
    state = merge_welford(state, other);
  }
  if (lane == 0) store_welford(partials, geo.partials(), piece.row * geo.splits + piece.split, state);
}

template <typename T, int VEC>
__global__ void __launch_bounds__(kThreads, kMinBlocksPerSm)
stats_channels_last(Geometry geo, ActivationSpec act, const T* __restrict__ y, float* __restrict__ partials) {
  __shared__ float shared_count[kThreads];
  __shared__ float shared_mean[kThreads][VEC];
  __shared__ float shared_m2[kThreads][VEC];
  const ChannelsLastPiece piece = channels_last_piece(geo);
  // Every lane of a thread sees the same positions, so the count (and 1/count) is shared.
  float count = 0.f;
  float mean[VEC], m2[VEC];
#pragma unroll
  for (int j = 0; j < VEC; ++j) mean[j] = m2[j] = 0.f;
  if (piece.valid) {
    const T* base = y + piece.n * geo.spatial * geo.channels + piece.pack * VEC;
    for (int64_t s = piece.begin + piece.row; s < piece.end; s += piece.row_step) {
      float x[VEC];
      load_pack<T, VEC>(base + s * geo.channels, x);
      activate<VEC>(act, x);
      count += 1.f;
      const float inv_count = 1.f / count;
#pragma unroll
      for (int j = 0; j < VEC; ++j) {
        const float delta = x[j] - mean[j];
        mean[j] += delta * inv_count;
        m2[j] += delta * (x[j] - mean[j]);
      }
    }
  }
  const int me = threadIdx.x;
  shared_count[me] = count;
#pragma unroll
  for (int j = 0; j < VEC; ++j) {
    shared_mean[me][j] = mean[j];
    shared_m2[me][j] = m2[j];
  }
  merge_block_rows(piece.row, piece.row_step, [&](int step) {
    const int other = me + step * geo.tile_width;
#pragma unroll
    for (int j = 0; j < VEC; ++j) {
      const Welford merged = merge_welford({shared_count[me], shared_mean[me][j], shared_m2[me][j]},
                                           {shared_count[other], shared_mean[other][j], shared_m2[other][j]});
      shared_mean[me][j] = merged.mean;
      shared_m2[me][j] = merged.m2;
    }
    shared_count[me] += shared_count[other];
  });
  if (piece.row == 0 && piece.valid) {
#pragma unroll
    for (int j = 0; j < VEC; ++j) {
      const int64_t c = piece.pack * VEC + j;
      store_welford(partials, geo.partials(), (piece.n * geo.channels + c) * geo.splits + piece.split,
                    {shared_count[me], shared_mean[me][j], shared_m2[me][j]});
    }
  }
}

// Chan's merge in fp64: the group's partials can number thousands and hold up to millions of
// elements each; fp64 keeps the merge itself from adding error to the fp32 partials.
struct WelfordDouble {
  double count, mean, m2;
  __device__ __forceinline__ void merge(double b_count, double b_mean, double b_m2) {
    if (b_count == 0.0) return;
    const double total = count + b_count;
    const double delta = b_mean - mean;
    const double b_share = b_count / total;
    mean += delta * b_share;
    m2 += b_m2 + delta * delta * count * b_share;
    count = total;
  }
};

// One block per (n, g): merges the group's C/G x splits partials in index order (each thread a
// contiguous run, then a fixed tree), writes mean and rstd = 1 / sqrt(biased var + eps).
__global__ void __launch_bounds__(kFinalizeThreads)
finalize_stats(Geometry geo, float eps, const float* __restrict__ partials, float* __restrict__ mean,
               float* __restrict__ rstd) {
  __shared__ double shared[3][kFinalizeThreads];
  const int64_t group_index = blockIdx.x;  // n * G + g
  const int64_t n = group_index / geo.groups;
  const int64_t g = group_index % geo.groups;
  const int64_t count = geo.channels_per_group * geo.splits;
  const int64_t first = (n * geo.channels + g * geo.channels_per_group) * geo.splits;
  const int64_t plane = geo.partials();
  const int64_t per_thread = ceil_div(count, kFinalizeThreads);
  const int64_t begin = min(count, threadIdx.x * per_thread);
  const int64_t end = min(count, begin + per_thread);
  WelfordDouble state{0.0, 0.0, 0.0};
  for (int64_t i = first + begin; i < first + end; ++i) state.merge(partials[i], partials[plane + i], partials[2 * plane + i]);
  const int me = threadIdx.x;
  for (int step = kFinalizeThreads / 2; step > 0; step /= 2) {
    shared[0][me] = state.count;
    shared[1][me] = state.mean;
    shared[2][me] = state.m2;
    __syncthreads();
    if (me < step) state.merge(shared[0][me + step], shared[1][me + step], shared[2][me + step]);
    __syncthreads();
  }
  if (me == 0) {
    const double variance = state.count > 0.0 ? fmax(state.m2 / state.count, 0.0) : 0.0;
    mean[group_index] = static_cast<float>(state.mean);
    rstd[group_index] = static_cast<float>(1.0 / sqrt(variance + static_cast<double>(eps)));
  }
}

// ---------------------------------------------------------------------------------------------
// Forward normalisation: z = (act(y) - mean) * (rstd * gamma) + beta.
// ---------------------------------------------------------------------------------------------
struct NormalizeCoefficients {
  float mean, scale, shift;
};

template <typename T>
__device__ __forceinline__ NormalizeCoefficients normalize_coefficients(const Geometry& geo, int64_t n, int64_t c,
                                                                        const T* gamma, const T* beta,
                                                                        const float* mean, const float* rstd) {
  const int64_t group_index = n * geo.groups + c / geo.channels_per_group;
  return {mean[group_index], rstd[group_index] * param_or(gamma, c, 1.f), param_or(beta, c, 0.f)};
}

template <typename T, int VEC>
__global__ void __launch_bounds__(kThreads, kMinBlocksPerSm)
normalize_channels_first(Geometry geo, ActivationSpec act, const T* __restrict__ y, const T* __restrict__ gamma,
                         const T* __restrict__ beta, const float* __restrict__ mean, const float* __restrict__ rstd,
                         T* __restrict__ z) {
  const ChannelsFirstPiece piece = channels_first_piece(geo);
  if (!piece.valid) return;
  const NormalizeCoefficients k = normalize_coefficients(geo, piece.n, piece.c, gamma, beta, mean, rstd);
  const int64_t offset = piece.row * geo.spatial;
  for (int64_t v = piece.begin + threadIdx.x % kWarpSize; v < piece.end; v += kWarpSize) {
    float x[VEC];
    load_pack<T, VEC>(y + offset + v * VEC, x);
    activate<VEC>(act, x);
#pragma unroll
    for (int j = 0; j < VEC; ++j) x[j] = (x[j] - k.mean) * k.scale + k.shift;
    store_pack<T, VEC>(z + offset + v * VEC, x);
  }
}

template <typename T, int VEC>
__global__ void __launch_bounds__(kThreads, kMinBlocksPerSm)
normalize_channels_last(Geometry geo, ActivationSpec act, const T* __restrict__ y, const T* __restrict__ gamma,
                        const T* __restrict__ beta, const float* __restrict__ mean, const float* __restrict__ rstd,
                        T* __restrict__ z) {
  const ChannelsLastPiece piece = channels_last_piece(geo);
  if (!piece.valid) return;
  NormalizeCoefficients k[VEC];
#pragma unroll
  for (int j = 0; j < VEC; ++j) k[j] = normalize_coefficients(geo, piece.n, piece.pack * VEC + j, gamma, beta, mean, rstd);
  const int64_t offset = piece.n * geo.spatial * geo.channels + piece.pack * VEC;
  for (int64_t s = piece.begin + piece.row; s < piece.end; s += piece.row_step) {
    float x[VEC];
    load_pack<T, VEC>(y + offset + s * geo.channels, x);
    activate<VEC>(act, x);
#pragma unroll
    for (int j = 0; j < VEC; ++j) x[j] = (x[j] - k[j].mean) * k[j].scale + k[j].shift;
    store_pack<T, VEC>(z + offset + s * geo.channels, x);
  }
}

// ---------------------------------------------------------------------------------------------
// Backward reduction: per (n, c, split) sums of dz and dz * (act(y) - mean) (two planes).
// ---------------------------------------------------------------------------------------------
template <typename T, int VEC>
__global__ void __launch_bounds__(kThreads, kMinBlocksPerSm)
backward_sums_channels_first(Geometry geo, ActivationSpec act, const T* __restrict__ grad_z, const T* __restrict__ y,
                             const float* __restrict__ mean, float* __restrict__ partials) {
  const ChannelsFirstPiece piece = channels_first_piece(geo);
  if (!piece.valid) return;
  const int lane = threadIdx.x % kWarpSize;
  const float group_mean = mean[piece.n * geo.groups + piece.c / geo.channels_per_group];
  const int64_t offset = piece.row * geo.spatial;
  float sum_dz = 0.f, sum_dz_centered = 0.f;
  for (int64_t v = piece.begin + lane; v < piece.end; v += kWarpSize) {
    float x[VEC], dz[VEC];
    load_pack<T, VEC>(y + offset + v * VEC, x);
    load_pack<T, VEC>(grad_z + offset + v * VEC, dz);
    activate<VEC>(act, x);
#pragma unroll
    for (int j = 0; j < VEC; ++j) {
      sum_dz += dz[j];
      sum_dz_centered += dz[j] * (x[j] - group_mean);
    }
  }
#pragma unroll
  for (int offset_lanes = kWarpSize / 2; offset_lanes > 0; offset_lanes /= 2) {
    sum_dz += __shfl_xor_sync(0xffffffffu, sum_dz, offset_lanes);
    sum_dz_centered += __shfl_xor_sync(0xffffffffu, sum_dz_centered, offset_lanes);
  }
  if (lane == 0) {
    const int64_t index = piece.row * geo.splits + piece.split;
    partials[index] = sum_dz;
    partials[geo.partials() + index] = sum_dz_centered;
  }
}

template <typename T, int VEC>
__global__ void __launch_bounds__(kThreads, kMinBlocksPerSm)
backward_sums_channels_last(Geometry geo, ActivationSpec act, const T* __restrict__ grad_z, const T* __restrict__ y,
                            const float* __restrict__ mean, float* __restrict__ partials) {
  __shared__ float shared_dz[kThreads][VEC];
  __shared__ float shared_dz_centered[kThreads][VEC];
  const ChannelsLastPiece piece = channels_last_piece(geo);
  float sum_dz[VEC], sum_dz_centered[VEC], group_mean[VEC];
#pragma unroll
  for (int j = 0; j < VEC; ++j) sum_dz[j] = sum_dz_centered[j] = group_mean[j] = 0.f;
  if (piece.valid) {
#pragma unroll
    for (int j = 0; j < VEC; ++j)
      group_mean[j] = mean[piece.n * geo.groups + (piece.pack * VEC + j) / geo.channels_per_group];
    const int64_t offset = piece.n * geo.spatial * geo.channels + piece.pack * VEC;
    for (int64_t s = piece.begin + piece.row; s < piece.end; s += piece.row_step) {
      float x[VEC], dz[VEC];
      load_pack<T, VEC>(y + offset + s * geo.channels, x);
      load_pack<T, VEC>(grad_z + offset + s * geo.channels, dz);
      activate<VEC>(act, x);
#pragma unroll
      for (int j = 0; j < VEC; ++j) {
        sum_dz[j] += dz[j];
        sum_dz_centered[j] += dz[j] * (x[j] - group_mean[j]);
      }
    }
  }
  const int me = threadIdx.x;
#pragma unroll
  for (int j = 0; j < VEC; ++j) {
    shared_dz[me][j] = sum_dz[j];
    shared_dz_centered[me][j] = sum_dz_centered[j];
  }
  merge_block_rows(piece.row, piece.row_step, [&](int step) {
    const int other = me + step * geo.tile_width;
#pragma unroll
    for (int j = 0; j < VEC; ++j) {
      shared_dz[me][j] += shared_dz[other][j];
      shared_dz_centered[me][j] += shared_dz_centered[other][j];
    }
  });
  if (piece.row == 0 && piece.valid) {
#pragma unroll
    for (int j = 0; j < VEC; ++j) {
      const int64_t index = (piece.n * geo.channels + piece.pack * VEC + j) * geo.splits + piece.split;
      partials[index] = shared_dz[me][j];
      partials[geo.partials() + index] = shared_dz_centered[me][j];
    }
  }
}

// One block per (n, g): per-channel totals over splits (in order) -> channel_sums planes
// [sum dz][sum dz * xhat] of [N * C], and the group's coefficients
// coefficients[2 * (n * G + g)] = rstd * mean_g(gamma * dz), [+1] = rstd^2 * mean_g(gamma * dz * xhat).
template <typename T>
__global__ void __launch_bounds__(kFinalizeThreads)
finalize_backward(Geometry geo, const float* __restrict__ partials, const float* __restrict__ rstd,
                  const T* __restrict__ gamma, float* __restrict__ channel_sums, float* __restrict__ coefficients) {
  __shared__ double shared[2][kFinalizeThreads];
  const int64_t group_index = blockIdx.x;
  const int64_t n = group_index / geo.groups;
  const int64_t g = group_index % geo.groups;
  const double group_rstd = rstd[group_index];
  const int64_t plane = geo.partials();
  double weighted_dz = 0.0, weighted_dz_xhat = 0.0;
  for (int64_t local = threadIdx.x; local < geo.channels_per_group; local += kFinalizeThreads) {
    const int64_t c = g * geo.channels_per_group + local;
    const int64_t first = (n * geo.channels + c) * geo.splits;
    double dz = 0.0, dz_centered = 0.0;
    for (int64_t k = 0; k < geo.splits; ++k) {
      dz += partials[first + k];
      dz_centered += partials[plane + first + k];
    }
    const double dz_xhat = dz_centered * group_rstd;
    channel_sums[n * geo.channels + c] = static_cast<float>(dz);
    channel_sums[geo.batch * geo.channels + n * geo.channels + c] = static_cast<float>(dz_xhat);
    const double weight = param_or(gamma, c, 1.f);
    weighted_dz += weight * dz;
    weighted_dz_xhat += weight * dz_xhat;
  }
  const int me = threadIdx.x;
  for (int step = kFinalizeThreads / 2; step > 0; step /= 2) {
    shared[0][me] = weighted_dz;
    shared[1][me] = weighted_dz_xhat;
    __syncthreads();
    if (me < step) {
      weighted_dz += shared[0][me + step];
      weighted_dz_xhat += shared[1][me + step];
    }
    __syncthreads();
  }
  if (me == 0) {
    const double elements = static_cast<double>(geo.channels_per_group) * static_cast<double>(geo.spatial);
    coefficients[2 * group_index] = static_cast<float>(group_rstd * weighted_dz / elements);
    coefficients[2 * group_index + 1] = static_cast<float>(group_rstd * group_rstd * weighted_dz_xhat / elements);
  }
}

// grad_gamma[c] = sum_n sum(dz * xhat), grad_beta[c] = sum_n sum(dz), n in order.
template <typename T>
__global__ void __launch_bounds__(kThreads, kMinBlocksPerSm)
parameter_grads(Geometry geo, const float* __restrict__ channel_sums, T* __restrict__ grad_gamma,
                T* __restrict__ grad_beta) {
  const int64_t c = static_cast<int64_t>(blockIdx.x) * kThreads + threadIdx.x;
  if (c >= geo.channels) return;
  float dz = 0.f, dz_xhat = 0.f;
  for (int64_t n = 0; n < geo.batch; ++n) {
    dz += channel_sums[n * geo.channels + c];
    dz_xhat += channel_sums[geo.batch * geo.channels + n * geo.channels + c];
  }
  if (grad_gamma != nullptr) grad_gamma[c] = from_acc<T>(dz_xhat);
  if (grad_beta != nullptr) grad_beta[c] = from_acc<T>(dz);
}

// ---------------------------------------------------------------------------------------------
// Backward elementwise: grad_y = act'(y) * (A * dz - P - (act(y) - mean) * R) with A = rstd * gamma,
// P = rstd * mean_g(gamma dz), R = rstd^2 * mean_g(gamma dz xhat) (= act' * rstd * (gamma dz -
// mean_g(gamma dz) - xhat * mean_g(gamma dz xhat))).
// ---------------------------------------------------------------------------------------------
struct InputGradCoefficients {
  float mean, scale, offset, centered_scale;
};

template <typename T>
__device__ __forceinline__ InputGradCoefficients input_grad_coefficients(const Geometry& geo, int64_t n, int64_t c,
                                                                         const T* gamma, const float* mean,
                                                                         const float* rstd, const float* coefficients) {
  const int64_t group_index = n * geo.groups + c / geo.channels_per_group;
  return {mean[group_index], rstd[group_index] * param_or(gamma, c, 1.f), coefficients[2 * group_index],
          coefficients[2 * group_index + 1]};
}

__device__ __forceinline__ void input_grad(const InputGradCoefficients& k, const float& x_act, const float& slope,
                                           float& dz) {
  dz = slope * (k.scale * dz - k.offset - (x_act - k.mean) * k.centered_scale);
}

template <typename T, int VEC>
__global__ void __launch_bounds__(kThreads, kMinBlocksPerSm)
input_grad_channels_first(Geometry geo, ActivationSpec act, const T* __restrict__ grad_z, const T* __restrict__ y,
                          const float* __restrict__ mean, const float* __restrict__ rstd, const T* __restrict__ gamma,
                          const float* __restrict__ coefficients, T* __restrict__ grad_y) {
  const ChannelsFirstPiece piece = channels_first_piece(geo);
  if (!piece.valid) return;
  const InputGradCoefficients k = input_grad_coefficients(geo, piece.n, piece.c, gamma, mean, rstd, coefficients);
  const int64_t offset = piece.row * geo.spatial;
  for (int64_t v = piece.begin + threadIdx.x % kWarpSize; v < piece.end; v += kWarpSize) {
    float x[VEC], slope[VEC], dz[VEC];
    load_pack<T, VEC>(y + offset + v * VEC, x);
    load_pack<T, VEC>(grad_z + offset + v * VEC, dz);
    activate_with_slope<VEC>(act, x, slope);
#pragma unroll
    for (int j = 0; j < VEC; ++j) input_grad(k, x[j], slope[j], dz[j]);
    store_pack<T, VEC>(grad_y + offset + v * VEC, dz);
  }
}

template <typename T, int VEC>
__global__ void __launch_bounds__(kThreads, kMinBlocksPerSm)
input_grad_channels_last(Geometry geo, ActivationSpec act, const T* __restrict__ grad_z, const T* __restrict__ y,
                         const float* __restrict__ mean, const float* __restrict__ rstd, const T* __restrict__ gamma,
                         const float* __restrict__ coefficients, T* __restrict__ grad_y) {
  const ChannelsLastPiece piece = channels_last_piece(geo);
  if (!piece.valid) return;
  InputGradCoefficients k[VEC];
#pragma unroll
  for (int j = 0; j < VEC; ++j)
    k[j] = input_grad_coefficients(geo, piece.n, piece.pack * VEC + j, gamma, mean, rstd, coefficients);
  const int64_t offset = piece.n * geo.spatial * geo.channels + piece.pack * VEC;
  for (int64_t s = piece.begin + piece.row; s < piece.end; s += piece.row_step) {
    float x[VEC], slope[VEC], dz[VEC];
    load_pack<T, VEC>(y + offset + s * geo.channels, x);
    load_pack<T, VEC>(grad_z + offset + s * geo.channels, dz);
    activate_with_slope<VEC>(act, x, slope);
#pragma unroll
    for (int j = 0; j < VEC; ++j) input_grad(k[j], x[j], slope[j], dz[j]);
    store_pack<T, VEC>(grad_y + offset + s * geo.channels, dz);
  }
}

// ---------------------------------------------------------------------------------------------
// Host side.
// ---------------------------------------------------------------------------------------------
bool channels_first(const GroupNormActParams& p) { return p.order == Order::kWidthInnermost; }

// Pack bytes per layout. Channels-first streams 16-byte packs along a slice. Channels-last keeps
// per-channel constants for every element of its pack in registers (4 per element in the
// backward), so it uses 8-byte packs: 16-byte fp16 packs spill at the occupancy we ask for.
constexpr int kChannelsFirstPackBytes = 16;
constexpr int kChannelsLastPackBytes = 8;

template <typename T, bool kChannelsFirst>
constexpr int wide_pack() {
  return (kChannelsFirst ? kChannelsFirstPackBytes : kChannelsLastPackBytes) / static_cast<int>(sizeof(T));
}

int64_t wide_pack_of(const GroupNormActParams& p) {
  return (channels_first(p) ? kChannelsFirstPackBytes : kChannelsLastPackBytes) / element_bytes(p.dtype);
}

// Whether a call can use wide packs: every pack must stay inside one slice (channels-first) or one
// position (channels-last), and every streamed pointer must be aligned to the pack.
bool wide_packs_fit(const GroupNormActParams& p, std::initializer_list<const void*> pointers) {
  const int64_t wide = wide_pack_of(p);
  const int64_t extent = channels_first(p) ? p.spatial : p.channels;
  if (extent % wide != 0) return false;
  const uintptr_t alignment = static_cast<uintptr_t>(wide * element_bytes(p.dtype));
  for (const void* ptr : pointers)
    if (reinterpret_cast<uintptr_t>(ptr) % alignment != 0) return false;
  return true;
}

int tile_width_for(int64_t packs_per_position) {
  int width = 1;
  while (width < kWarpSize && width < packs_per_position) width *= 2;
  return width;
}

Geometry make_geometry(const GroupNormActParams& p, int vec) {
  Geometry geo;
  geo.batch = p.batch;
  geo.channels = p.channels;
  geo.groups = p.groups;
  geo.channels_per_group = p.channels / p.groups;
  geo.spatial = p.spatial;
  geo.splits = p.splits;
  if (channels_first(p)) {
    geo.vectors = p.spatial / vec;
    geo.chunk = ceil_div(geo.vectors, p.splits);
    geo.tile_width = 1;
    geo.tiles = 1;
  } else {
    geo.vectors = p.channels / vec;
    geo.chunk = ceil_div(p.spatial, p.splits);
    geo.tile_width = tile_width_for(geo.vectors);
    geo.tiles = ceil_div(geo.vectors, geo.tile_width);
  }
  return geo;
}

bool valid_params(const GroupNormActParams& p) {
  return p.batch > 0 && p.channels > 0 && p.spatial > 0 && p.groups > 0 && p.channels % p.groups == 0 &&
         p.splits > 0 && p.dtype != DType::kFloat64 && static_cast<int>(p.activation) >= 0 &&
         static_cast<int>(p.activation) < kActivationCount;
}

// Launch shape of the streaming passes: 8 warps of pieces (channels-first) or one block per
// (n, channel tile, split) (channels-last).
struct Launch {
  Geometry geo;
  unsigned blocks;
  unsigned group_blocks;  // N * G, for the per-group kernels
  bool fits;
};

template <bool kChannelsFirst>
Launch launch_for(const GroupNormActParams& p, int vec) {
  Launch launch;
  launch.geo = make_geometry(p, vec);
  const int64_t blocks = kChannelsFirst ? ceil_div(launch.geo.partials(), kWarpsPerBlock)
                                        : launch.geo.batch * launch.geo.tiles * launch.geo.splits;
  launch.fits = blocks <= INT_MAX && p.batch * p.groups <= INT_MAX;
  launch.blocks = static_cast<unsigned>(blocks);
  launch.group_blocks = static_cast<unsigned>(p.batch * p.groups);
  return launch;
}

ActivationSpec activation_of(const GroupNormActParams& p) { return {p.activation, p.act_arg0, p.act_arg1}; }

// The geometry finalize_stats reads partials made per (n, g) rather than per (n, c): one "channel" per group.
Geometry group_partials_geometry(const GroupNormActParams& p, int64_t splits) {
  Geometry geo{};
  geo.batch = p.batch;
  geo.channels = p.groups;
  geo.groups = p.groups;
  geo.channels_per_group = 1;
  geo.splits = splits;
  return geo;
}

// group_partials: the statistics' partials made elsewhere (GroupPartials), else null: the stats pass makes them.
template <typename T, int VEC, bool kChannelsFirst>
cudaError_t forward_with(const GroupNormActParams& p, const T* y, const T* gamma, const T* beta, T* z, float* mean,
                         float* rstd, float* workspace, const GroupPartials& group_partials, cudaStream_t stream) {
  const Launch l = launch_for<kChannelsFirst>(p, VEC);
  if (!l.fits) return cudaErrorInvalidConfiguration;
  const ActivationSpec act = activation_of(p);
  cudaError_t err;
  if (group_partials.partials != nullptr) {
    finalize_stats<<<l.group_blocks, kFinalizeThreads, 0, stream>>>(
        group_partials_geometry(p, group_partials.splits), p.eps, group_partials.partials, mean, rstd);
  } else {
    if constexpr (kChannelsFirst)
      stats_channels_first<T, VEC><<<l.blocks, kThreads, 0, stream>>>(l.geo, act, y, workspace);
    else stats_channels_last<T, VEC><<<l.blocks, kThreads, 0, stream>>>(l.geo, act, y, workspace);
    err = cudaGetLastError();
    if (err != cudaSuccess) return err;
    finalize_stats<<<l.group_blocks, kFinalizeThreads, 0, stream>>>(l.geo, p.eps, workspace, mean, rstd);
  }
  err = cudaGetLastError();
  if (err != cudaSuccess) return err;
  if constexpr (kChannelsFirst)
    normalize_channels_first<T, VEC><<<l.blocks, kThreads, 0, stream>>>(l.geo, act, y, gamma, beta, mean, rstd, z);
  else
    normalize_channels_last<T, VEC><<<l.blocks, kThreads, 0, stream>>>(l.geo, act, y, gamma, beta, mean, rstd, z);
  return cudaGetLastError();
}

template <typename T, int VEC, bool kChannelsFirst>
cudaError_t backward_with(const GroupNormActParams& p, const T* grad_z, const T* y, const float* mean,
                          const float* rstd, const T* gamma, T* grad_y, T* grad_gamma, T* grad_beta, float* workspace,
                          cudaStream_t stream) {
  const Launch l = launch_for<kChannelsFirst>(p, VEC);
  if (!l.fits) return cudaErrorInvalidConfiguration;
  const ActivationSpec act = activation_of(p);
  float* partials = workspace;                                    // 2 x N*C*splits
  float* channel_sums = partials + 2 * l.geo.partials();          // 2 x N*C
  float* coefficients = channel_sums + 2 * p.batch * p.channels;  // 2 x N*G
  if constexpr (kChannelsFirst)
    backward_sums_channels_first<T, VEC><<<l.blocks, kThreads, 0, stream>>>(l.geo, act, grad_z, y, mean, partials);
  else
    backward_sums_channels_last<T, VEC><<<l.blocks, kThreads, 0, stream>>>(l.geo, act, grad_z, y, mean, partials);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) return err;
  finalize_backward<T><<<l.group_blocks, kFinalizeThreads, 0, stream>>>(l.geo, partials, rstd, gamma, channel_sums,
                                                                         coefficients);
  err = cudaGetLastError();
  if (err != cudaSuccess) return err;
  if (grad_gamma != nullptr || grad_beta != nullptr) {
    parameter_grads<T><<<static_cast<unsigned>(ceil_div(p.channels, kThreads)), kThreads, 0, stream>>>(
        l.geo, channel_sums, grad_gamma, grad_beta);
    err = cudaGetLastError();
    if (err != cudaSuccess) return err;
  }
  if (grad_y == nullptr) return cudaSuccess;
  if constexpr (kChannelsFirst)
    input_grad_channels_first<T, VEC><<<l.blocks, kThreads, 0, stream>>>(l.geo, act, grad_z, y, mean, rstd, gamma,
                                                                         coefficients, grad_y);
  else
    input_grad_channels_last<T, VEC><<<l.blocks, kThreads, 0, stream>>>(l.geo, act, grad_z, y, mean, rstd, gamma,
                                                                        coefficients, grad_y);
  return cudaGetLastError();
}

// Picks the layout and the pack width at run time, once per call.
template <typename T, typename Run>
cudaError_t with_layout_and_pack(const GroupNormActParams& p, bool wide, Run run) {
  if (channels_first(p)) {
    if (wide) return run(std::integral_constant<int, wide_pack<T, true>()>{}, std::true_type{});
    return run(std::integral_constant<int, 1>{}, std::true_type{});
  }
  if (wide) return run(std::integral_constant<int, wide_pack<T, false>()>{}, std::false_type{});
  return run(std::integral_constant<int, 1>{}, std::false_type{});
}

}  // namespace

int64_t group_norm_act_splits(const GroupNormActParams& p, int sm_count) {
  if (p.batch <= 0 || p.channels <= 0 || p.spatial <= 0) return 1;
  const int64_t sms = sm_count > 0 ? sm_count : 1;
  int64_t wanted, most;
  if (channels_first(p)) {
    wanted = ceil_div(sms * kTargetWarpsPerSm, p.batch * p.channels);
    most = p.spatial / kMinElementsPerSplit;
  } else {
    // Estimated with the pack width an aligned call gets; a misaligned call only has more blocks.
    const int64_t wide = wide_pack_of(p);
    const int64_t packs = p.channels % wide == 0 ? p.channels / wide : p.channels;
    const int width = tile_width_for(packs);
    wanted = ceil_div(sms * kTargetBlocksPerSm, p.batch * ceil_div(packs, width));
    most = p.spatial / (int64_t(kThreads / width) * 4);  // >= 4 positions per thread
  }
  int64_t splits = std::min(wanted, std::max<int64_t>(most, 1));
  splits = std::max(splits, ceil_div(p.spatial, kMaxElementsPerSplit));
  return std::max<int64_t>(splits, 1);
}

int64_t group_norm_act_forward_workspace(const GroupNormActParams& p) {
  return 3 * p.batch * p.channels * p.splits;
}

int64_t group_norm_act_backward_workspace(const GroupNormActParams& p) {
  return 2 * p.batch * p.channels * p.splits + 2 * p.batch * p.channels + 2 * p.batch * p.groups;
}

cudaError_t group_norm_act_forward(const GroupNormActParams& p, const void* y, const void* gamma, const void* beta,
                                   void* z, float* mean, float* rstd, float* workspace, cudaStream_t stream,
                                   const GroupPartials& group_partials) {
  if (!valid_params(p) || (group_partials.partials != nullptr && group_partials.splits < 1))
    return cudaErrorInvalidValue;
  const bool wide = wide_packs_fit(p, {y, z});
  return TCONV_FLOAT_DTYPE_SWITCH(p.dtype, scalar_t, [&] {
    return with_layout_and_pack<scalar_t>(p, wide, [&](auto vec, auto first) {
      return forward_with<scalar_t, decltype(vec)::value, decltype(first)::value>(
          p, static_cast<const scalar_t*>(y), static_cast<const scalar_t*>(gamma), static_cast<const scalar_t*>(beta),
          static_cast<scalar_t*>(z), mean, rstd, workspace, group_partials, stream);
    });
  });
}

cudaError_t group_norm_act_backward(const GroupNormActParams& p, const void* grad_z, const void* y, const float* mean,
                                    const float* rstd, const void* gamma, void* grad_y, void* grad_gamma,
                                    void* grad_beta, float* workspace, cudaStream_t stream) {
  if (!valid_params(p)) return cudaErrorInvalidValue;
  const bool wide = wide_packs_fit(p, {grad_z, y, grad_y});
  return TCONV_FLOAT_DTYPE_SWITCH(p.dtype, scalar_t, [&] {
    return with_layout_and_pack<scalar_t>(p, wide, [&](auto vec, auto first) {
      return backward_with<scalar_t, decltype(vec)::value, decltype(first)::value>(
          p, static_cast<const scalar_t*>(grad_z), static_cast<const scalar_t*>(y), mean, rstd,
          static_cast<const scalar_t*>(gamma), static_cast<scalar_t*>(grad_y), static_cast<scalar_t*>(grad_gamma),
          static_cast<scalar_t*>(grad_beta), workspace, stream);
    });
  });
}

}  // namespace tconv
