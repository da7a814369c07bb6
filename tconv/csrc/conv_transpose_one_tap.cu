// The one-tap forward (conv_transpose.h: one_tap_forward): calls where every output position receives at most one
// tap, because along each dimension the taps fall within one stride (dilation x (kernel - 1) < stride), so output
// o = i s - p + r takes tap k exactly where r = k d. fam13 (k3 s5 d2) is one: 16 of its 25 phases get no tap at all,
// and its K (the input channels, 32) is too small to feed a GEMM, whose per-tile latency then bounds the pass: run
// 521 (H200, bf16 channels-last, ncu) read the mma.sync gather at 0.49 ms with DRAM at 17 % and 24 % occupancy,
// against a write floor of ~0.09 ms (415 MB of output). This kernel (run 523, forward ms, gather / one-tap): bf16
// 0.500 / 0.463, TF32 2.994 / 0.493, exact fp32 3.007 / 0.493 channels-last; contiguous it loses (run 522: bf16 0.72 /
// 2.27, its stores are 4 channels a position apart). Run 525, with the block-uniform indices in 32 bits: bf16 0.404,
// TF32 0.416. Still far from its floors: run 524's ncu (0.461 ms) read issue slots 60 % busy, the FMA pipe 33 %, DRAM
// 18 %, 289 M warp instructions, about twice the FFMA loop's. Runs 532-533: the bias run (below) held half the
// forward's stall samples; fixed, bf16 0.300 -> 0.200 ms, TF32 0.385 -> 0.335. Tried and removed (run 535, 9b3bddc):
// contiguous outputs written with lanes along the output line (the bias run coalesced, each tap's 32 positions one
// warp store, s apart): fam13 forward bf16 0.657 ms against the gather's 0.723, TF32 1.186 against the W fold's 0.668.
// The runs form (write_run_lines, run 536) stages each channel's whole run in shared memory instead: fam13 contiguous
// bf16 0.720 -> 0.344 ms, TF32 0.667 -> 0.493.
//
// A block owns one output row (n, od, oh), kOneTapInputTile consecutive input W positions and kOneTapOutChannels
// output channels: the row's D and H taps are found once (none: the block writes the bias and leaves), the input
// positions' channels are staged once for all W taps, and each thread accumulates 4 positions x 4 channels for every W
// tap in FFMA from shared memory (exact products, fp32 sums: every precision mode of the contract). The output W run of
// the block, s x kOneTapInputTile positions, is written once: the taps' values, the bias between them.
#include <algorithm>
#include <string>
#include <type_traits>
#include "conv_transpose.h"
#include "dispatch.h"
#include "mma_sm80.h"

namespace tconv {
namespace {

constexpr int kOneTapInputTile = 64;  // input W positions a block (s x 64 output positions)
constexpr int kOneTapOutChannels = 64;
constexpr int kOneTapChunk = 32;  // input channels staged at a time
constexpr int kOneTapThreads = (kOneTapInputTile / 4) * (kOneTapOutChannels / 4);
constexpr int kOneTapMaxKernelW = 4;  // accumulators: 16 per W tap and thread

// The one tap (k, i) along D or H through which output o receives an input, if any (in 32 bits:
// one_tap_shape_possible keeps every extent, and the weight's offsets, below 2^31).
__device__ __forceinline__ bool row_tap(int o, int kernel, int s, int pad, int d, int in_size, int& k, int& i) {
  for (k = 0; k < kernel; ++k)
    if (input_index_for_tap(o, k, s, pad, d, in_size, &i)) return true;
  return false;
}

int64_t blocks_of(int64_t count, int64_t per_block) { return (count + per_block - 1) / per_block; }

// Two 16-bit values as one 32-bit word, lo in the low half (the order of a k16 MMA fragment's channel pair).
template <typename T>
__device__ __forceinline__ uint32_t pack_pair(T lo, T hi) {
  static_assert(sizeof(T) == 2, "16-bit values");
  uint16_t a, b;
  memcpy(&a, &lo, 2);
  memcpy(&b, &hi, 2);
  return uint32_t(a) | (uint32_t(b) << 16);
}

// 8 channels from src (channel stride cs) as 16-bit pairs, `count` of them real (zeros after); one 16-byte load where
// vector (the caller then guarantees count is 0 or 8 and the alignment).
template <typename T>
__device__ __forceinline__ uint4 load_octet(const T* src, int64_t cs, int count, bool vector) {
  if (vector) return count > 0 ? *reinterpret_cast<const uint4*>(src) : make_uint4(0, 0, 0, 0);
  const T zero = from_acc<T>(0.f);
  T h[8];
#pragma unroll
  for (int e = 0; e < 8; ++e) h[e] = e < count ? src[e * cs] : zero;
  return make_uint4(pack_pair(h[0], h[1]), pack_pair(h[2], h[3]), pack_pair(h[4], h[5]), pack_pair(h[6], h[7]));
}

template <typename T>
__device__ __forceinline__ void store_channels(T* dst, int64_t channel_stride, const float (&v)[4], int count,
                                               bool vector) {
  if (vector && count == 4) {
    store_pack<T, 4>(dst, v);
    return;
  }
#pragma unroll
  for (int j = 0; j < 4; ++j)
    if (j < count) dst[j * channel_stride] = from_acc<T>(v[j]);
}

// What a block owns (grid: x = row (n, od, oh) x W tile, y = output channel tile) and its row's D and H taps.
struct OneTapBlock {
  int n, od, oh, kd, id, kh, ih, channels;
  bool tapped;  // the row has a D and an H tap
  int64_t co0, iw0, ow_begin, ow_end;
};

__device__ __forceinline__ OneTapBlock one_tap_block(const ConvTransposeParams& p, int64_t w_tiles) {
  OneTapBlock b;
  const int tiles = int(w_tiles), tile = int(blockIdx.x) % tiles;
  int row = int(blockIdx.x) / tiles;
  b.oh = row % int(p.out_size[1]);
  row /= int(p.out_size[1]);
  b.od = row % int(p.out_size[0]);
  b.n = row / int(p.out_size[0]);
  b.co0 = int64_t(blockIdx.y) * kOneTapOutChannels;
  b.channels = int(min(int64_t(kOneTapOutChannels), p.out_channels - b.co0));
  b.iw0 = int64_t(tile) * kOneTapInputTile;
  b.ow_begin = max(b.iw0 * p.stride[2] - p.padding[2], int64_t(0));
  b.ow_end = min((b.iw0 + kOneTapInputTile) * p.stride[2] - p.padding[2], p.out_size[2]);
  b.tapped = row_tap(b.od, int(p.kernel[0]), int(p.stride[0]), int(p.padding[0]), int(p.dilation[0]),
                     int(p.in_size[0]), b.kd, b.id) &&
             row_tap(b.oh, int(p.kernel[1]), int(p.stride[1]), int(p.padding[1]), int(p.dilation[1]),
                     int(p.in_size[1]), b.kh, b.ih);
  return b;
}

// The phase r = (ow + p) mod s of run positions `step` apart, one compare a step, and whether a tap lands there (r = k
// dil for some W tap k of a tapped row): the walk both run writers take.
template <int KW>
struct RunPhase {
  int r, r_step, s, dil;
  bool tapped;
  __device__ __forceinline__ RunPhase(const ConvTransposeParams& p, const OneTapBlock& blk, int first, int step)
      : r(int(blk.ow_begin + first + p.padding[2]) % int(p.stride[2])), r_step(step % int(p.stride[2])),
        s(int(p.stride[2])), dil(int(p.dilation[2])), tapped(blk.tapped) {}
  __device__ __forceinline__ bool tap() const {
    bool hit = false;
#pragma unroll
    for (int k = 0; k < KW; ++k) hit |= tapped && r == k * dil;
    return hit;
  }
  __device__ __forceinline__ void advance() {
    r += r_step;
    if (r >= s) r -= s;
  }
};

// The bias at the block's run positions no tap reaches (all of them where the row has no D or H tap), kPiece channels
// a thread with the channels innermost, so that a channels-last row is written in whole lines: 16-byte pieces of 8
// channels where `octets` (16-bit data), else 4 channels (one access where vector). A thread keeps its piece and walks
// the positions kPositionStep apart; the position's phase r = (ow + p) mod s advances by kPositionStep mod s, one
// compare a step. Why: run 532's source counters (fam13 bf16 channels-last forward) put half of the kernel's stall
// samples in this loop when it subtracted s until r fell below it (3 rounds a position at s 5) and stored 8 bytes.
template <typename T, int KW, int kPiece>
__device__ __forceinline__ void write_bias_run(const ConvTransposeParams& p, const OneTapBlock& blk,
                                               const float* bs, T* out_row, bool vector) {
  constexpr int kPieces = kOneTapOutChannels / kPiece, kPositionStep = kOneTapThreads / kPieces;
  static_assert(kPieces * kPiece == kOneTapOutChannels && kOneTapThreads % kPieces == 0, "whole pieces");
  const int piece = threadIdx.x % kPieces, count = min(kPiece, blk.channels - piece * kPiece);
  const int positions = int(blk.ow_end - blk.ow_begin);
  int j = threadIdx.x / kPieces;
  if (count <= 0 || j >= positions) return;
  float b[kPiece];
#pragma unroll
  for (int e = 0; e < kPiece; ++e) b[e] = bs[piece * kPiece + e];  // (zero beyond the channels)
  const int64_t* os = p.output_strides;
  RunPhase<KW> phase(p, blk, j, kPositionStep);
  T* dst = out_row + (blk.ow_begin + j) * os[4] + piece * kPiece * os[1];
  const int64_t dst_step = kPositionStep * os[4];
  for (; j < positions; j += kPositionStep, dst += dst_step, phase.advance()) {
    if (phase.tap()) continue;
    if constexpr (kPiece == 4)
      store_channels(dst, os[1], b, count, vector);
    else
      store_pack<T, kPiece>(dst, b);  // (octets: every piece whole and aligned)
  }
}

// 8 16-bit output channels one 16-byte access: vector's conditions at 8 channels (fp32 data: never, its quads are 16
// bytes already).
template <typename T>
__device__ __forceinline__ bool one_tap_octets(const ConvTransposeParams& p, const T* output, bool vector) {
  const int64_t* os = p.output_strides;
  return sizeof(T) == 2 && vector && p.out_channels % 8 == 0 && os[0] % 8 == 0 && os[2] % 8 == 0 &&
         os[3] % 8 == 0 && os[4] % 8 == 0 && reinterpret_cast<uintptr_t>(output) % 16 == 0;
}

// The runs form (one_tap_runs_enabled: the default since run 536) for W-innermost outputs (contiguous NC(D)HW): a
// tapped block assembles its taps' values in shared memory as [channel][run position], kOneTapRunChannels channels
// at a time, and writes each channel's whole run (bias where no tap lands) with lanes along the line, one full
// sector a 32-lane store of fp32 (two of 16-bit), in the same loop as an untapped block's bias. Why: the channels-last
// form's stores are 4 or 8 channels a position, on a contiguous output one sector each (run 522: fam13 bf16 2.27 ms
// against the gather's 0.72), and writing each tap's positions straight from a tile, 32 positions s apart a warp
// store, lost too (run 535: TF32 1.186 against the W fold's 0.668). Runs of at most kOneTapMaxRun positions
// (s x kOneTapInputTile: stride <= 5 along W).
constexpr int kOneTapMaxRun = 320;
template <typename T>
constexpr int kOneTapRunChannels = sizeof(T) == 2 ? 64 : 32;  // ~41 KB of [channel][position] either way
template <typename T>
constexpr int kOneTapRunPitch = sizeof(T) == 2 ? kOneTapMaxRun + 10 : kOneTapMaxRun + 1;  // odd word pitches
template <typename T>
constexpr int kOneTapRunBytes = kOneTapRunChannels<T> * kOneTapRunPitch<T> * int(sizeof(T));

// Channels c0.. of the block's run (kChannels of them, or fewer at the tile's end) with lanes along the positions,
// warps along the channels: the assembled value at a tap position of a tapped row (run: the tile, its channel c0 at
// row 0), the bias elsewhere. A position's tap test is made once for its channels.
template <typename T, int KW, int kChannels>
__device__ __forceinline__ void write_run_lines(const ConvTransposeParams& p, const OneTapBlock& blk, int c0,
                                                const float* bs, const T* run, T* out_row) {
  constexpr int kWarps = kOneTapThreads / 32, kPerWarp = kChannels / kWarps;
  static_assert(kPerWarp * kWarps == kChannels, "whole channels a warp");
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int positions = int(blk.ow_end - blk.ow_begin);
  T b[kPerWarp];
#pragma unroll
  for (int e = 0; e < kPerWarp; ++e) b[e] = from_acc<T>(bs[c0 + warp + e * kWarps]);  // (zero beyond the channels)
  const int64_t cs = p.output_strides[1];
  RunPhase<KW> phase(p, blk, lane, 32);
  T* dst = out_row + blk.ow_begin + lane + (c0 + warp) * cs;
  for (int q = lane; q < positions; q += 32, dst += 32, phase.advance()) {
    const bool tap = phase.tap();
#pragma unroll
    for (int e = 0; e < kPerWarp; ++e) {
      const int c = warp + e * kWarps;
      if (c0 + c < blk.channels) dst[e * kWarps * cs] = tap ? run[c * kOneTapRunPitch<T> + q] : b[e];
    }
  }
}

// The run position of input position iw0 + j through W tap k, if it lies in the block's run.
__device__ __forceinline__ bool run_position(const ConvTransposeParams& p, const OneTapBlock& blk, int j, int k,
                                             int& q) {
  int64_t ow;
  if (!output_index_for_tap(blk.iw0 + j, k, p.stride[2], p.padding[2], p.dilation[2], p.out_size[2], &ow))
    return false;
  q = int(ow - blk.ow_begin);
  return q >= 0 && ow < blk.ow_end;
}

// Every forward block's start, after it issues its first chunk's loads: its bias values in bs, and the bias written
// over its run. Returns the block's output row.
template <typename T, int KW, bool kRuns = false>
__device__ __forceinline__ T* one_tap_begin(const ConvTransposeParams& p, const OneTapBlock& blk, const T* bias,
                                            T* output, bool vector, float* bs) {
  const int c = threadIdx.x;
  if (c < kOneTapOutChannels)
    bs[c] = bias != nullptr && c < blk.channels ? to_acc<T>(bias[(blk.co0 + c) * p.bias_stride]) : 0.f;
  __syncthreads();
  const int64_t* os = p.output_strides;
  T* out_row = output + blk.n * os[0] + blk.co0 * os[1] + blk.od * os[2] + blk.oh * os[3];
  if constexpr (kRuns) {  // a tapped row's run is written after its K loop; an untapped one's needs no tile
    if (!blk.tapped) write_run_lines<T, KW, kOneTapOutChannels>(p, blk, 0, bs, nullptr, out_row);
    return out_row;
  }
  if constexpr (sizeof(T) == 2) {
    if (one_tap_octets(p, output, vector)) {
      write_bias_run<T, KW, 8>(p, blk, bs, out_row, vector);
      return out_row;
    }
  }
  write_bias_run<T, KW, 4>(p, blk, bs, out_row, vector);
  return out_row;
}

// A chunk of the block's staging held in registers: input channels ci0.. of its positions and the row's W taps'
// weights (zero beyond the channels and the input). Every load of a chunk is issued before any is waited on, and the
// next chunk's loads overlap this chunk's arithmetic: run 526 read the one-tap kernels as bound by the latency of
// staging loads issued one after another (the mma.sync forms ran slower than the FFMA form they were to beat).
template <typename T, int KW>
struct OneTapChunk {
  static constexpr int kInputs = kOneTapChunk * kOneTapInputTile / kOneTapThreads;
  static constexpr int kWeights = KW * kOneTapChunk * kOneTapOutChannels / kOneTapThreads;
  static_assert(kInputs * kOneTapThreads == kOneTapChunk * kOneTapInputTile &&
                    kWeights * kOneTapThreads == KW * kOneTapChunk * kOneTapOutChannels &&
                    kOneTapThreads % kOneTapChunk == 0 && kOneTapThreads % kOneTapInputTile == 0 &&
                    kOneTapThreads % kOneTapOutChannels == 0,
                "every thread stages the same number of elements, its thread index fixing all but one coordinate");
  T x[kInputs], w[kWeights];

  // The staged coordinates of element it of this thread, affine in it (so that the compiler keeps one base address
  // and no per-element index): inputs (c, j), consecutive threads along the innermost of channels and positions;
  // weights (k, o, c), consecutive threads along the output channels.
  __device__ static void input_at(bool channels_innermost, int it, int& c, int& j) {
    const int t = threadIdx.x;
    c = channels_innermost ? t % kOneTapChunk : t / kOneTapInputTile + it * (kOneTapThreads / kOneTapInputTile);
    j = channels_innermost ? t / kOneTapChunk + it * (kOneTapThreads / kOneTapChunk) : t % kOneTapInputTile;
  }
  __device__ static void weight_at(int it, int& k, int& o, int& c) {
    const int t = threadIdx.x;
    k = it % KW, o = t % kOneTapOutChannels;
    c = t / kOneTapOutChannels + (it / KW) * (kOneTapThreads / kOneTapOutChannels);
  }

  __device__ void load(const ConvTransposeParams& p, const OneTapBlock& blk, int64_t ci0, const T* input,
                       const T* weight) {
    const int64_t* is = p.input_strides;
    const int64_t* wstr = p.weight_strides;
    const T* in_row = input + blk.n * is[0] + blk.id * is[2] + blk.ih * is[3];
    const T* w_taps = weight + blk.co0 * wstr[1] + blk.kd * wstr[2] + blk.kh * wstr[3];
    const int w_ci = int(wstr[0]), w_co = int(wstr[1]), w_kw = int(wstr[4]);
    const bool channels_innermost = is[1] == 1;
    const T zero = from_acc<T>(0.f);
#pragma unroll
    for (int it = 0; it < kInputs; ++it) {
      int c, j;
      input_at(channels_innermost, it, c, j);
      const int64_t ci = ci0 + c, iw = blk.iw0 + j;
      x[it] = ci < p.in_channels && iw < p.in_size[2] ? in_row[ci * is[1] + iw * is[4]] : zero;
    }
#pragma unroll
    for (int it = 0; it < kWeights; ++it) {
      int k, o, c;
      weight_at(it, k, o, c);
      const int64_t ci = ci0 + c;
      w[it] = ci < p.in_channels && o < blk.channels ? w_taps[int(ci) * w_ci + o * w_co + k * w_kw] : zero;
    }
  }

  // put_x(c, j, value), put_w(k, o, c, value); callers sync around it
  template <typename PutX, typename PutW>
  __device__ void put(const ConvTransposeParams& p, PutX put_x, PutW put_w) const {
    const bool channels_innermost = p.input_strides[1] == 1;
#pragma unroll
    for (int it = 0; it < kInputs; ++it) {
      int c, j;
      input_at(channels_innermost, it, c, j);
      put_x(c, j, x[it]);
    }
#pragma unroll
    for (int it = 0; it < kWeights; ++it) {
      int k, o, c;
      weight_at(it, k, o, c);
      put_w(k, o, c, w[it]);
    }
  }
};

// vector: 4 channels are one aligned access. kRuns: the runs form (W-innermost outputs; its run tile over xs and ws).
template <typename T, int KW, bool kRuns>
__global__ void __launch_bounds__(kOneTapThreads, 2)
tconv_one_tap_forward_kernel(const ConvTransposeParams p, const T* __restrict__ input, const T* __restrict__ weight,
                             const T* __restrict__ bias, T* __restrict__ output, int64_t w_tiles, bool vector) {
  constexpr int kXsBytes = kOneTapChunk * (kOneTapInputTile + 4) * 4, kWsBytes = KW * kOneTapChunk *
                                                                                   kOneTapOutChannels * 4;
  constexpr int kStagingBytes = kXsBytes + kWsBytes, kRunBytes = kRuns ? kOneTapRunBytes<T> : 0;
  __shared__ __align__(16) unsigned char staging[kStagingBytes > kRunBytes ? kStagingBytes : kRunBytes];
  auto& xs = *reinterpret_cast<float(*)[kOneTapChunk][kOneTapInputTile + 4]>(staging);  // +4: rows 16-byte aligned
  auto& ws = *reinterpret_cast<float(*)[KW][kOneTapChunk][kOneTapOutChannels]>(staging + kXsBytes);
  __shared__ float bs[kOneTapOutChannels];
  const OneTapBlock blk = one_tap_block(p, w_tiles);
  OneTapChunk<T, KW> chunk;
  if (blk.tapped) chunk.load(p, blk, 0, input, weight);  // in flight while the bias run is written
  T* const out_row = one_tap_begin<T, KW, kRuns>(p, blk, bias, output, vector, bs);
  if (!blk.tapped) return;

  constexpr int kQuads = kOneTapOutChannels / 4;
  const int tid = threadIdx.x, quad = tid % kQuads, group = tid / kQuads;  // channels quad*4.., positions group*4..
  const int count = min(4, blk.channels - quad * 4);
  float acc[KW][4][4] = {};
  for (int64_t ci0 = 0; ci0 < p.in_channels; ci0 += kOneTapChunk) {
    if (ci0 > 0) chunk.load(p, blk, ci0, input, weight);
    __syncthreads();  // the previous chunk's reads are done
    chunk.put(
        p, [&](int c, int j, T v) { xs[c][j] = to_acc<T>(v); },
        [&](int k, int o, int c, T v) { ws[k][c][o] = to_acc<T>(v); });
    __syncthreads();
#pragma unroll 4
    for (int c = 0; c < kOneTapChunk; ++c) {
      const float4 x4 = *reinterpret_cast<const float4*>(&xs[c][group * 4]);
      const float x[4] = {x4.x, x4.y, x4.z, x4.w};
#pragma unroll
      for (int k = 0; k < KW; ++k) {
        const float4 w4 = *reinterpret_cast<const float4*>(&ws[k][c][quad * 4]);
        const float w[4] = {w4.x, w4.y, w4.z, w4.w};
#pragma unroll
        for (int i = 0; i < 4; ++i)
#pragma unroll
          for (int o = 0; o < 4; ++o) acc[k][i][o] = fmaf(x[i], w[o], acc[k][i][o]);
      }
    }
  }
  if constexpr (kRuns) {
    T* run = reinterpret_cast<T*>(staging);
    for (int c0 = 0; c0 < kOneTapOutChannels; c0 += kOneTapRunChannels<T>) {
      __syncthreads();  // the K loop's (or the previous channels') reads of the staging are done
      if (quad * 4 >= c0 && quad * 4 < c0 + kOneTapRunChannels<T>) {
#pragma unroll
        for (int k = 0; k < KW; ++k)
#pragma unroll
          for (int i = 0; i < 4; ++i) {
            int q;
            if (!run_position(p, blk, group * 4 + i, k, q)) continue;
#pragma unroll
            for (int o = 0; o < 4; ++o)
              run[(quad * 4 + o - c0) * kOneTapRunPitch<T> + q] = from_acc<T>(acc[k][i][o] + bs[quad * 4 + o]);
          }
      }
      __syncthreads();
      write_run_lines<T, KW, kOneTapRunChannels<T>>(p, blk, c0, bs, run, out_row);
    }
    return;
  }
  if (count <= 0) return;
  const int64_t* os = p.output_strides;
  const int64_t s = p.stride[2], pad = p.padding[2], dil = p.dilation[2];
#pragma unroll
  for (int k = 0; k < KW; ++k)
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      int64_t ow;
      if (!output_index_for_tap(blk.iw0 + group * 4 + i, k, s, pad, dil, p.out_size[2], &ow)) continue;
      const float v[4] = {acc[k][i][0] + bs[quad * 4], acc[k][i][1] + bs[quad * 4 + 1],
                          acc[k][i][2] + bs[quad * 4 + 2], acc[k][i][3] + bs[quad * 4 + 3]};
      store_channels(out_row + ow * os[4] + quad * 4 * os[1], os[1], v, count, vector);
    }
}

// The same block on k16 mma.sync for fp16 / bf16 (TCONV_ONE_TAP_MMA=0, development, keeps them on the FFMA form): the
// positions' channels and the W taps' weights staged as 16-bit words ([position][channel pair], [tap][channel][pair],
// rows padded by 4 words so a fragment's 8 rows x 4 pairs fall on 32 banks), 8 warps of 16 positions x 32 channels,
// each thread's fragments shared by the W taps' MMAs. Written for run 524's reading: the FFMA kernel issues ~2x its
// loop's instructions and the FMA pipe sits at 33 %; here a channel pair of 16 x 8 outputs is one instruction.
// fam13 bf16 channels-last forward ms, FFMA / this form (H200): run 526 0.405 / 0.514 (one staging load after
// another), run 527 0.372 / 0.453 (loads together), run 528 0.373 / 0.300 (outputs in 128-byte lines).
constexpr int kOneTapPairRow = kOneTapChunk / 2 + 4;  // 32-bit words a staged row (16 channel pairs + padding)

template <typename T, int KW, bool kRuns>
__global__ void __launch_bounds__(kOneTapThreads, 2)
tconv_one_tap_forward_mma_kernel(const ConvTransposeParams p, const T* __restrict__ input,
                                 const T* __restrict__ weight, const T* __restrict__ bias, T* __restrict__ output,
                                 int64_t w_tiles, bool vector) {
  static_assert(kOneTapInputTile == 64 && kOneTapOutChannels == 64 && kOneTapChunk == 32 && kOneTapThreads == 256,
                "the warp tiling below: 4 x 2 warps of 16 positions x 32 channels, two k16 steps a chunk");
  // xs and ws, and over them after the K loop the runs form's run tile (kRuns)
  constexpr int kXsBytes = kOneTapInputTile * kOneTapPairRow * 4, kWsBytes = KW * kOneTapOutChannels *
                                                                             kOneTapPairRow * 4;
  constexpr int kStagingBytes = kXsBytes + kWsBytes, kRunBytes = kRuns ? kOneTapRunBytes<T> : 0;
  static_assert(!kRuns || kOneTapRunChannels<T> == kOneTapOutChannels, "one pass over the channels");
  __shared__ __align__(16) unsigned char staging[kStagingBytes > kRunBytes ? kStagingBytes : kRunBytes];
  auto& xs = *reinterpret_cast<uint32_t(*)[kOneTapInputTile][kOneTapPairRow]>(staging);
  auto& ws = *reinterpret_cast<uint32_t(*)[KW][kOneTapOutChannels][kOneTapPairRow]>(staging + kXsBytes);
  __shared__ float bs[kOneTapOutChannels];
  const OneTapBlock blk = one_tap_block(p, w_tiles);
  OneTapChunk<T, KW> chunk;
  if (blk.tapped) chunk.load(p, blk, 0, input, weight);  // in flight while the bias run is written
  T* const out_row = one_tap_begin<T, KW, kRuns>(p, blk, bias, output, vector, bs);
  if (!blk.tapped) return;

  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32, gid = lane / 4, tig = lane % 4;
  const int m0 = (warp % 4) * 16, n0 = (warp / 4) * 32;  // the warp's positions and channels in the block
  const int channels = blk.channels;
  float acc[KW][4][4] = {};
  T* xh = reinterpret_cast<T*>(&xs[0][0]);
  T* wh = reinterpret_cast<T*>(&ws[0][0][0]);
  for (int64_t ci0 = 0; ci0 < p.in_channels; ci0 += kOneTapChunk) {
    if (ci0 > 0) chunk.load(p, blk, ci0, input, weight);
    __syncthreads();  // the previous chunk's reads are done
    chunk.put(
        p, [&](int c, int j, T v) { xh[j * 2 * kOneTapPairRow + c] = v; },
        [&](int k, int o, int c, T v) { wh[(k * kOneTapOutChannels + o) * 2 * kOneTapPairRow + c] = v; });
    __syncthreads();
#pragma unroll
    for (int step = 0; step < kOneTapChunk / 16; ++step) {
      const int word = step * 8 + tig;
      const uint32_t a[4] = {xs[m0 + gid][word], xs[m0 + gid + 8][word], xs[m0 + gid][word + 4],
                             xs[m0 + gid + 8][word + 4]};
#pragma unroll
      for (int k = 0; k < KW; ++k)
#pragma unroll
        for (int f = 0; f < 4; ++f) {
          const uint32_t b[2] = {ws[k][n0 + f * 8 + gid][word], ws[k][n0 + f * 8 + gid][word + 4]};
          mma_m16n8<T>(acc[k][f], a, b);
        }
    }
  }
  if constexpr (kRuns) {
    __syncthreads();  // the K loop's reads of xs and ws are done: the run tile lies over them
    T* run = reinterpret_cast<T*>(staging);
#pragma unroll
    for (int k = 0; k < KW; ++k)
#pragma unroll
      for (int half = 0; half < 2; ++half) {
        int q;
        if (!run_position(p, blk, m0 + gid + half * 8, k, q)) continue;
#pragma unroll
        for (int f = 0; f < 4; ++f) {
          const int o = n0 + f * 8 + tig * 2;  // (bs is zero beyond the channels)
          run[o * kOneTapRunPitch<T> + q] = from_acc<T>(acc[k][f][half * 2] + bs[o]);
          run[(o + 1) * kOneTapRunPitch<T> + q] = from_acc<T>(acc[k][f][half * 2 + 1] + bs[o + 1]);
        }
      }
    __syncthreads();
    write_run_lines<T, KW, kOneTapOutChannels>(p, blk, 0, bs, run, out_row);
  } else {
    // Each tap's outputs pass through shared memory, so that a position's channels leave in 16-byte pieces, a row of
    // 64 channels as one 128-byte line (written from the fragments, 4 bytes a thread at 8 positions a warp instruction,
    // this kernel ran at 0.453 ms against the FFMA form's 0.372 in run 527).
    constexpr int kOctetsPerRow = kOneTapOutChannels / 8, kRowsPerPass = kOneTapThreads / kOctetsPerRow;
    static_assert(kOneTapInputTile % kRowsPerPass == 0, "whole passes over the tile");
    __shared__ __align__(16) uint32_t tile[kOneTapInputTile][kOneTapOutChannels / 2 + 4];  // +4: 8 rows on 32 banks
    const int64_t* os = p.output_strides;
    const bool octets = one_tap_octets(p, output, vector);
    const int64_t s = p.stride[2], pad = p.padding[2], dil = p.dilation[2];
#pragma unroll
    for (int k = 0; k < KW; ++k) {
      __syncthreads();  // the previous tap's rows have left the tile
#pragma unroll
      for (int half = 0; half < 2; ++half)
#pragma unroll
        for (int f = 0; f < 4; ++f) {
          const int o = n0 + f * 8 + tig * 2;  // the fragment's channel pair (bs is zero beyond the channels)
          tile[m0 + gid + half * 8][o / 2] = pack_pair(from_acc<T>(acc[k][f][half * 2] + bs[o]),
                                                       from_acc<T>(acc[k][f][half * 2 + 1] + bs[o + 1]));
        }
      __syncthreads();
#pragma unroll
      for (int pass = 0; pass < kOneTapInputTile / kRowsPerPass; ++pass) {
        const int j = tid / kOctetsPerRow + pass * kRowsPerPass, o = (tid % kOctetsPerRow) * 8;
        int64_t ow;
        if (o >= channels || !output_index_for_tap(blk.iw0 + j, k, s, pad, dil, p.out_size[2], &ow)) continue;
        T* dst = out_row + ow * os[4] + o * os[1];
        if (octets) {
          *reinterpret_cast<uint4*>(dst) = *reinterpret_cast<const uint4*>(&tile[j][o / 2]);
        } else {
          const T* src = reinterpret_cast<const T*>(&tile[j][o / 2]);
#pragma unroll
          for (int e = 0; e < 8; ++e)
            if (o + e < channels) dst[e * os[1]] = src[e];
        }
      }
    }
  }
}

// TCONV_ONE_TAP_MMA=0 (development, read once per process): fp16 / bf16 calls on the FFMA kernel.
bool one_tap_mma_enabled() {
  static const bool enabled = development_switch("TCONV_ONE_TAP_MMA", 1) != 0;
  return enabled;
}

// W-innermost outputs on the runs form (write_run_lines) where a block's run fits its tile, and "auto" prefers the
// one-tap forward for them too. Run 536 (H200, fam13 contiguous forward ms, quick timing, the gather "auto" took
// before / the runs form): bf16 0.720 / 0.344, TF32 0.667 / 0.493, exact fp32 0.719 / 0.492 (fwd+bwd 1.006 / 0.627,
// 1.167 / 0.993, 1.232 / 1.002). TCONV_ONE_TAP_RUNS=0 (development, read once per process) turns it off.
bool one_tap_runs_enabled() {
  static const bool enabled = development_switch("TCONV_ONE_TAP_RUNS", 1) != 0;
  return enabled;
}
bool one_tap_runs(const ConvTransposeParams& p) {
  return one_tap_runs_enabled() && p.output_strides[4] == 1 && p.output_strides[1] != 1 &&
         p.stride[2] * kOneTapInputTile <= kOneTapMaxRun;
}

template <typename T, int KW>
cudaError_t launch_one_tap_forward(const ConvTransposeParams& p, const void* input, const void* weight,
                                   const void* bias, void* output, cudaStream_t stream) {
  const int64_t w_tiles = blocks_of(blocks_of(p.out_size[2] + p.padding[2], p.stride[2]), kOneTapInputTile);
  const int64_t rows = p.batch * p.out_size[0] * p.out_size[1];
  const int64_t* os = p.output_strides;
  // 4 channels one access: channels contiguous, every quad's first element on a 4-element boundary
  const bool vector = os[1] == 1 && p.out_channels % 4 == 0 && os[0] % 4 == 0 && os[2] % 4 == 0 && os[3] % 4 == 0 &&
                      os[4] % 4 == 0 && reinterpret_cast<uintptr_t>(output) % (4 * sizeof(T)) == 0;
  const dim3 grid(unsigned(rows * w_tiles), unsigned(blocks_of(p.out_channels, kOneTapOutChannels)));
  const bool runs = one_tap_runs(p);
  auto kernel = runs ? tconv_one_tap_forward_kernel<T, KW, true> : tconv_one_tap_forward_kernel<T, KW, false>;
  if constexpr (!std::is_same<T, float>::value)
    if (one_tap_mma_enabled())
      kernel = runs ? tconv_one_tap_forward_mma_kernel<T, KW, true> : tconv_one_tap_forward_mma_kernel<T, KW, false>;
  kernel<<<grid, kOneTapThreads, 0, stream>>>(p, static_cast<const T*>(input), static_cast<const T*>(weight),
                                              static_cast<const T*>(bias), static_cast<T*>(output), w_tiles, vector);
  return cudaGetLastError();
}


// ---- grad_input (TCONV_ONE_TAP_GRAD_INPUT=0, development, turns it off) ----
// grad_input of a one-tap call: input position i receives, along each dimension, exactly the outputs i s - p + k d of
// its taps k, each a distinct output. So a block owns an input row (n, id, ih), kOneTapInputTile W positions and
// kOneTapGradInputChannels input channels, and for each of the row's valid (kd, kh) taps and each chunk of output
// channels stages grad_output at the positions' W taps and the taps' weights, as 16-bit pairs; the K loop is (kd, kh,
// kw, output channels) on k16 mma.sync, 8 warps of 16 positions x 16 channels. fp16 / bf16 only. For fam13 (bf16
// channels-last, ~150 MB of grad_output read, ~0.03 ms at the H200's DRAM rate) the mma.sync gather ran this pass at
// 0.247 ms (run 516); this kernel at 0.419 while its stages loaded one element after another (run 526), 0.091 with
// their loads issued together (run 527).
constexpr int kOneTapGradInputChannels = 32;

// One stage of a grad_input block: a (kd, kh) tap of its row whose output row exists, and a chunk of output channels.
struct OneTapGradInputStage {
  int kd, kh;
  int64_t od, oh, co0;
};

// The stage after st (st.co0 = out_channels before the first): the next chunk of the tap, else the next tap's first.
__device__ __forceinline__ bool next_grad_input_stage(const ConvTransposeParams& p, int id, int ih,
                                                      OneTapGradInputStage& st) {
  st.co0 += kOneTapChunk;
  if (st.co0 < p.out_channels) return true;
  st.co0 = 0;
  for (;;) {
    if (++st.kh >= int(p.kernel[1])) {
      st.kh = 0;
      if (++st.kd >= int(p.kernel[0])) return false;
    }
    if (output_index_for_tap(id, st.kd, p.stride[0], p.padding[0], p.dilation[0], p.out_size[0], &st.od) &&
        output_index_for_tap(ih, st.kh, p.stride[1], p.padding[1], p.dilation[1], p.out_size[1], &st.oh))
      return true;
  }
}

// A grad_input stage's loads held in registers (as OneTapChunk: all issued before any is waited on, the next stage's
// overlapping this one's MMAs): grad_output at the positions' W taps, 8 output channels a load (one 16-byte access
// where vector), and the stage's weights.
template <typename T, int KW>
struct OneTapGradInputChunk {
  static constexpr int kOctets = KW * kOneTapInputTile * (kOneTapChunk / 8) / kOneTapThreads;
  static constexpr int kWeights = KW * kOneTapGradInputChannels * kOneTapChunk / kOneTapThreads;
  static_assert(kOctets * kOneTapThreads == KW * kOneTapInputTile * (kOneTapChunk / 8) &&
                    kWeights * kOneTapThreads == KW * kOneTapGradInputChannels * kOneTapChunk,
                "every thread stages the same number of elements");
  uint4 g[kOctets];
  T w[kWeights];

  // Element it of this thread, affine in it as in OneTapChunk: grad_output (W tap k = it, position j, channels 8 c8..),
  // weights (k, input channel i, output channel c), consecutive threads along the output channels.
  __device__ static void octet_at(bool channels_innermost, int it, int& k, int& j, int& c8) {
    constexpr int kOctetsPerRow = kOneTapChunk / 8;
    static_assert(kOneTapInputTile * kOctetsPerRow == kOneTapThreads, "a tap's octets are one per thread");
    const int t = threadIdx.x;
    k = it;
    c8 = channels_innermost ? t % kOctetsPerRow : t / kOneTapInputTile;
    j = channels_innermost ? t / kOctetsPerRow : t % kOneTapInputTile;
  }
  __device__ static void weight_at(int it, int& k, int& i, int& c) {
    static_assert(kOneTapThreads % kOneTapChunk == 0, "whole rows of output channels a pass");
    const int t = threadIdx.x;
    k = it % KW, c = t % kOneTapChunk, i = t / kOneTapChunk + (it / KW) * (kOneTapThreads / kOneTapChunk);
  }

  __device__ void load(const ConvTransposeParams& p, const OneTapGradInputStage& st, int n, int64_t iw0, int64_t ci0,
                       const T* grad_output, const T* weight, bool vector) {
    const int64_t* os = p.output_strides;
    const int64_t* wstr = p.weight_strides;
    const T* go_row = grad_output + n * os[0] + st.od * os[2] + st.oh * os[3];
    const T* w_taps = weight + ci0 * wstr[0] + st.kd * wstr[2] + st.kh * wstr[3];
    const int w_ci = int(wstr[0]), w_co = int(wstr[1]), w_kw = int(wstr[4]);
    const bool channels_innermost = os[1] == 1;
    const T zero = from_acc<T>(0.f);
#pragma unroll
    for (int it = 0; it < kOctets; ++it) {
      int k, j, c8;
      octet_at(channels_innermost, it, k, j, c8);
      const int64_t co = st.co0 + c8 * 8;
      int64_t ow = 0;  // an untapped octet's address is formed, never read
      const bool tapped = output_index_for_tap(iw0 + j, k, p.stride[2], p.padding[2], p.dilation[2], p.out_size[2],
                                               &ow);
      const int count = tapped ? int(max(int64_t(0), min(int64_t(8), p.out_channels - co))) : 0;
      g[it] = load_octet(go_row + co * os[1] + ow * os[4], os[1], count, vector);
    }
#pragma unroll
    for (int it = 0; it < kWeights; ++it) {
      int k, i, c;
      weight_at(it, k, i, c);
      const int64_t ci = ci0 + i, co = st.co0 + c;
      w[it] = ci < p.in_channels && co < p.out_channels ? w_taps[i * w_ci + int(co) * w_co + k * w_kw] : zero;
    }
  }

  // gs / ws: [tap][row][kOneTapPairRow words], rows positions / input channels, channel pairs along a row
  __device__ void put(const ConvTransposeParams& p, uint32_t* gs, uint32_t* ws) const {
    const bool channels_innermost = p.output_strides[1] == 1;
#pragma unroll
    for (int it = 0; it < kOctets; ++it) {
      int k, j, c8;
      octet_at(channels_innermost, it, k, j, c8);
      *reinterpret_cast<uint4*>(&gs[(k * kOneTapInputTile + j) * kOneTapPairRow + c8 * 4]) = g[it];
    }
    T* wh = reinterpret_cast<T*>(ws);
#pragma unroll
    for (int it = 0; it < kWeights; ++it) {
      int k, i, c;
      weight_at(it, k, i, c);
      wh[(k * kOneTapGradInputChannels + i) * 2 * kOneTapPairRow + c] = w[it];
    }
  }
};

template <typename T, int KW>
__global__ void __launch_bounds__(kOneTapThreads)
tconv_one_tap_grad_input_kernel(const ConvTransposeParams p, const T* __restrict__ grad_output,
                                const T* __restrict__ weight, T* __restrict__ grad_input, int64_t w_tiles,
                                bool pair_vector, bool octet_vector) {
  static_assert(kOneTapInputTile == 64 && kOneTapGradInputChannels == 32 && kOneTapChunk == 32 &&
                    kOneTapThreads == 256 && kOneTapPairRow % 4 == 0,
                "the warp tiling below: 4 x 2 warps of 16 positions x 16 channels, two k16 steps a chunk; rows of "
                "16-byte octets");
  __shared__ __align__(16) uint32_t gs[KW][kOneTapInputTile][kOneTapPairRow];
  __shared__ __align__(16) uint32_t ws[KW][kOneTapGradInputChannels][kOneTapPairRow];
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32, gid = lane / 4, tig = lane % 4;
  const int m0 = (warp % 4) * 16, n0 = (warp / 4) * 16;  // the warp's positions and input channels in the block
  const int tiles = int(w_tiles), tile = int(blockIdx.x) % tiles;
  int row = int(blockIdx.x) / tiles;
  const int ih = row % int(p.in_size[1]);
  row /= int(p.in_size[1]);
  const int id = row % int(p.in_size[0]), n = row / int(p.in_size[0]);
  const int64_t ci0 = int64_t(blockIdx.y) * kOneTapGradInputChannels, iw0 = int64_t(tile) * kOneTapInputTile;
  float acc[2][4] = {};
  OneTapGradInputStage st{0, -1, 0, 0, p.out_channels};
  OneTapGradInputChunk<T, KW> chunk;
  bool more = next_grad_input_stage(p, id, ih, st);
  if (more) chunk.load(p, st, n, iw0, ci0, grad_output, weight, octet_vector);
  while (more) {
    __syncthreads();  // the previous stage's reads are done
    chunk.put(p, &gs[0][0][0], &ws[0][0][0]);
    __syncthreads();
    more = next_grad_input_stage(p, id, ih, st);
    if (more) chunk.load(p, st, n, iw0, ci0, grad_output, weight, octet_vector);  // in flight during the MMAs
#pragma unroll
    for (int k = 0; k < KW; ++k)
#pragma unroll
      for (int step = 0; step < kOneTapChunk / 16; ++step) {
        const int word = step * 8 + tig;
        const uint32_t a[4] = {gs[k][m0 + gid][word], gs[k][m0 + gid + 8][word], gs[k][m0 + gid][word + 4],
                               gs[k][m0 + gid + 8][word + 4]};
#pragma unroll
        for (int f = 0; f < 2; ++f) {
          const uint32_t b[2] = {ws[k][n0 + f * 8 + gid][word], ws[k][n0 + f * 8 + gid][word + 4]};
          mma_m16n8<T>(acc[f], a, b);
        }
      }
  }
  const int64_t* is = p.input_strides;
  T* gi_row = grad_input + n * is[0] + id * is[2] + ih * is[3];
#pragma unroll
  for (int half = 0; half < 2; ++half) {
    const int64_t iw = iw0 + m0 + gid + half * 8;
    if (iw >= p.in_size[2]) continue;
#pragma unroll
    for (int f = 0; f < 2; ++f) {
      const int64_t ci = ci0 + n0 + f * 8 + tig * 2;  // the fragment's channel pair
      if (ci >= p.in_channels) continue;
      const float v[2] = {acc[f][half * 2], acc[f][half * 2 + 1]};
      T* dst = gi_row + ci * is[1] + iw * is[4];
      if (pair_vector) {
        store_pack<T, 2>(dst, v);
      } else {
        dst[0] = from_acc<T>(v[0]);
        if (ci + 1 < p.in_channels) dst[is[1]] = from_acc<T>(v[1]);
      }
    }
  }
}

template <typename T, int KW>
cudaError_t launch_one_tap_grad_input(const ConvTransposeParams& p, const void* grad_output, const void* weight,
                                      void* grad_input, cudaStream_t stream) {
  const int64_t w_tiles = blocks_of(p.in_size[2], kOneTapInputTile);
  const int64_t* is = p.input_strides;
  // 2 channels one access: channels contiguous, every pair's first element on a 2-element boundary
  const bool pair_vector = is[1] == 1 && p.in_channels % 2 == 0 && is[0] % 2 == 0 && is[2] % 2 == 0 &&
                           is[3] % 2 == 0 && is[4] % 2 == 0 &&
                           reinterpret_cast<uintptr_t>(grad_input) % (2 * sizeof(T)) == 0;
  // 8 output channels one 16-byte load: channels contiguous, a multiple of 8 of them, every octet aligned
  const int64_t* os = p.output_strides;
  const bool octet_vector = os[1] == 1 && p.out_channels % 8 == 0 && os[0] % 8 == 0 && os[2] % 8 == 0 &&
                            os[3] % 8 == 0 && os[4] % 8 == 0 &&
                            reinterpret_cast<uintptr_t>(grad_output) % (8 * sizeof(T)) == 0;
  const dim3 grid(unsigned(p.batch * p.in_size[0] * p.in_size[1] * w_tiles),
                  unsigned(blocks_of(p.in_channels, kOneTapGradInputChannels)));
  tconv_one_tap_grad_input_kernel<T, KW><<<grid, kOneTapThreads, 0, stream>>>(
      p, static_cast<const T*>(grad_output), static_cast<const T*>(weight), static_cast<T*>(grad_input), w_tiles,
      pair_vector, octet_vector);
  return cudaGetLastError();
}

// TCONV_ONE_TAP_GRAD_INPUT=0 (development, read once per process): the one-tap grad_input never runs.
bool one_tap_grad_input_enabled() {
  static const bool enabled = development_switch("TCONV_ONE_TAP_GRAD_INPUT", 1) != 0;
  return enabled;
}

// ---- grad_weight (TCONV_ONE_TAP_GRAD_WEIGHT=0, development, turns it off) ----
// grad_weight of a one-tap call: each output position takes exactly one input position through one tap, so per (kd, kh)
// tap and W tap kw, grad_weight[:, :, kd, kh, kw] is the GEMM of the input (channels x positions) and grad_output at
// those positions' outputs, over every input position. A block owns one (kd, kh) tap, 32 input and 64 output channels
// and one split of the input rows x W tiles of kOneTapInputTile positions; per work item it stages the input tile
// ([position][channel]) and grad_output at the tile's KW W taps ([tap][position][channel]), 16-byte octets through
// registers (loaded during the previous item's MMAs), and accumulates K = positions on k16 mma.sync, the fragments
// from ldmatrix.trans of the position-major tiles; 8 warps of 16 input x 16 output channels x KW taps. The block's
// sums go to its split's fp32 copy of the weight, added in order by sum_splits (deterministic). fp16 / bf16 only.
// For fam13 (bf16 channels-last, ~150 MB of grad_output: ~0.03 ms at the H200's DRAM rate) the gather GEMM's
// grad_weight ran 0.183 ms (run 528), this kernel 0.097 and its sum of splits 0.008 (run 529; predicted 0.05-0.07).
constexpr int kOneTapGradWeightIn = 32, kOneTapGradWeightOut = 64;
constexpr int kOneTapXRow = kOneTapGradWeightIn + 8;   // 16-bit elements a staged input row (80 bytes: ldmatrix's
constexpr int kOneTapGRow = kOneTapGradWeightOut + 8;  // 8 rows on 32 banks), and a grad_output row (144 bytes)

template <typename T, int KW>
struct OneTapGradWeightItem {
  static constexpr int kXOctets = kOneTapInputTile * kOneTapGradWeightIn / 8 / kOneTapThreads;
  static constexpr int kGOctetsPerTap = kOneTapInputTile * kOneTapGradWeightOut / 8 / kOneTapThreads;
  static_assert(kXOctets == 1 && kGOctetsPerTap == 2, "the thread mappings below");
  uint4 x, g[KW][kGOctetsPerTap];

  // this thread's octets, affine in the index: input (position j, channels 8 c8..), grad_output per W tap (j, c8)
  __device__ static void x_at(bool channels_innermost, int& j, int& c8) {
    constexpr int kPerRow = kOneTapGradWeightIn / 8;
    const int t = threadIdx.x;
    c8 = channels_innermost ? t % kPerRow : t / kOneTapInputTile;
    j = channels_innermost ? t / kPerRow : t % kOneTapInputTile;
  }
  __device__ static void g_at(bool channels_innermost, int it, int& j, int& c8) {
    constexpr int kPerRow = kOneTapGradWeightOut / 8, kRowsPerPass = kOneTapThreads / kPerRow;
    const int t = threadIdx.x;
    c8 = channels_innermost ? t % kPerRow : t / kOneTapInputTile + it * (kOneTapThreads / kOneTapInputTile);
    j = channels_innermost ? t / kPerRow + it * kRowsPerPass : t % kOneTapInputTile;
  }

  __device__ void load(const ConvTransposeParams& p, int n, int id, int ih, int64_t od, int64_t oh, int64_t iw0,
                       int64_t ci0, int64_t co0, const T* input, const T* grad_output, bool x_vector, bool g_vector) {
    const int64_t* is = p.input_strides;
    const int64_t* os = p.output_strides;
    int j, c8;
    x_at(is[1] == 1, j, c8);
    const int64_t iw = iw0 + j, ci = ci0 + c8 * 8;
    const int x_count = iw < p.in_size[2] ? int(max(int64_t(0), min(int64_t(8), p.in_channels - ci))) : 0;
    x = load_octet(input + n * is[0] + ci * is[1] + id * is[2] + ih * is[3] + iw * is[4], is[1], x_count, x_vector);
    const T* go_row = grad_output + n * os[0] + od * os[2] + oh * os[3];
#pragma unroll
    for (int k = 0; k < KW; ++k)
#pragma unroll
      for (int it = 0; it < kGOctetsPerTap; ++it) {
        g_at(os[1] == 1, it, j, c8);
        const int64_t co = co0 + c8 * 8;
        int64_t ow = 0;  // an untapped octet's address is formed, never read
        const bool tapped =
            output_index_for_tap(iw0 + j, k, p.stride[2], p.padding[2], p.dilation[2], p.out_size[2], &ow);
        const int count = tapped ? int(max(int64_t(0), min(int64_t(8), p.out_channels - co))) : 0;
        g[k][it] = load_octet(go_row + co * os[1] + ow * os[4], os[1], count, g_vector);
      }
  }

  __device__ void put(const ConvTransposeParams& p, T* xs, T* gs) const {
    int j, c8;
    x_at(p.input_strides[1] == 1, j, c8);
    *reinterpret_cast<uint4*>(&xs[j * kOneTapXRow + c8 * 8]) = x;
#pragma unroll
    for (int k = 0; k < KW; ++k)
#pragma unroll
      for (int it = 0; it < kGOctetsPerTap; ++it) {
        g_at(p.output_strides[1] == 1, it, j, c8);
        *reinterpret_cast<uint4*>(&gs[(k * kOneTapInputTile + j) * kOneTapGRow + c8 * 8]) = g[k][it];
      }
  }
};

// The next work item after `item` (advanced by the splits) whose input row has the block's (kd, kh) tap: its row, W
// tile and output row. False when the split has none left.
__device__ __forceinline__ bool next_grad_weight_item(const ConvTransposeParams& p, int kd, int kh, int64_t w_tiles,
                                                      int64_t items, int64_t& item, int& n, int& id, int& ih,
                                                      int64_t& od, int64_t& oh, int64_t& iw0) {
  for (item += gridDim.x; item < items; item += gridDim.x) {
    int64_t row = item / w_tiles;
    iw0 = (item % w_tiles) * kOneTapInputTile;
    ih = int(row % p.in_size[1]);
    row /= p.in_size[1];
    id = int(row % p.in_size[0]);
    n = int(row / p.in_size[0]);
    if (output_index_for_tap(id, kd, p.stride[0], p.padding[0], p.dilation[0], p.out_size[0], &od) &&
        output_index_for_tap(ih, kh, p.stride[1], p.padding[1], p.dilation[1], p.out_size[1], &oh))
      return true;
  }
  return false;
}

template <typename T, int KW>
__global__ void __launch_bounds__(kOneTapThreads)
tconv_one_tap_grad_weight_kernel(const ConvTransposeParams p, const T* __restrict__ input,
                                 const T* __restrict__ grad_output, float* __restrict__ workspace, int64_t w_tiles,
                                 bool x_vector, bool g_vector) {
  static_assert(kOneTapThreads == 256 && kOneTapGradWeightIn == 32 && kOneTapGradWeightOut == 64 &&
                    kOneTapInputTile % 16 == 0,
                "the warp tiling below: 2 x 4 warps of 16 input x 16 output channels, k16 steps over positions");
  __shared__ __align__(16) T xs[kOneTapInputTile * kOneTapXRow];
  __shared__ __align__(16) T gs[KW * kOneTapInputTile * kOneTapGRow];
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32, gid = lane / 4, tig = lane % 4;
  const int ci_w = (warp % 2) * 16, co_w = (warp / 2) * 16;  // the warp's channels in the block's tile
  const int kd = int(blockIdx.y) / int(p.kernel[1]), kh = int(blockIdx.y) % int(p.kernel[1]);
  const int64_t ci_tiles = (p.in_channels + kOneTapGradWeightIn - 1) / kOneTapGradWeightIn;
  const int64_t ci0 = int64_t(blockIdx.z % ci_tiles) * kOneTapGradWeightIn;
  const int64_t co0 = int64_t(blockIdx.z / ci_tiles) * kOneTapGradWeightOut;
  const int64_t items = p.batch * p.in_size[0] * p.in_size[1] * w_tiles;
  // ldmatrix lanes: matrix m = lane / 8 of A (input channels x positions, from the position-major tile) is rows
  // (positions) 8 (m / 2).., channels 8 (m % 2)..; of B (positions x output channels), positions 8 (m % 2)..,
  // channels 8 (m / 2)..
  const int m = lane / 8, r = lane % 8;
  const unsigned x_lane = unsigned(__cvta_generic_to_shared(&xs[(r + (m / 2) * 8) * kOneTapXRow + ci_w + (m % 2) * 8]));
  const unsigned g_lane = unsigned(__cvta_generic_to_shared(&gs[(r + (m % 2) * 8) * kOneTapGRow + co_w + (m / 2) * 8]));
  float acc[KW][2][4] = {};
  OneTapGradWeightItem<T, KW> staged;
  int64_t item = int64_t(blockIdx.x) - gridDim.x, od, oh, iw0;
  int n, id, ih;
  bool more = next_grad_weight_item(p, kd, kh, w_tiles, items, item, n, id, ih, od, oh, iw0);
  if (more) staged.load(p, n, id, ih, od, oh, iw0, ci0, co0, input, grad_output, x_vector, g_vector);
  while (more) {
    __syncthreads();  // the previous item's reads are done
    staged.put(p, xs, gs);
    __syncthreads();
    more = next_grad_weight_item(p, kd, kh, w_tiles, items, item, n, id, ih, od, oh, iw0);
    if (more) staged.load(p, n, id, ih, od, oh, iw0, ci0, co0, input, grad_output, x_vector, g_vector);
#pragma unroll
    for (int step = 0; step < kOneTapInputTile / 16; ++step) {
      uint32_t a[4];
      ldmatrix_x4_trans(x_lane + unsigned(step * 16 * kOneTapXRow * sizeof(T)), a[0], a[1], a[2], a[3]);
#pragma unroll
      for (int k = 0; k < KW; ++k) {
        uint32_t b[2][2];
        ldmatrix_x4_trans(g_lane + unsigned((k * kOneTapInputTile + step * 16) * kOneTapGRow * sizeof(T)), b[0][0],
                          b[0][1], b[1][0], b[1][1]);
        mma_m16n8<T>(acc[k][0], a, b[0]);
        mma_m16n8<T>(acc[k][1], a, b[1]);
      }
    }
  }
  // the split's copy, logical row-major [in][out][kD][kH][kW]
  const int64_t numel = p.in_channels * p.out_channels * p.kernel[0] * p.kernel[1] * KW;
  float* part = workspace + int64_t(blockIdx.x) * numel;
#pragma unroll
  for (int k = 0; k < KW; ++k)
#pragma unroll
    for (int f = 0; f < 2; ++f)
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const int64_t ci = ci0 + ci_w + gid + (e / 2) * 8, co = co0 + co_w + f * 8 + tig * 2 + e % 2;
        if (ci < p.in_channels && co < p.out_channels)
          part[(((ci * p.out_channels + co) * p.kernel[0] + kd) * p.kernel[1] + kh) * KW + k] = acc[k][f][e];
      }
}

template <typename T, int KW>
cudaError_t launch_one_tap_grad_weight(const ConvTransposeParams& p, DType dtype, const void* input,
                                       const void* grad_output, void* grad_weight, float* workspace, int64_t splits,
                                       cudaStream_t stream) {
  const int64_t* is = p.input_strides;
  const int64_t* os = p.output_strides;
  // 8 channels one 16-byte load: channels contiguous, a multiple of 8 of them, every octet aligned
  const bool x_vector = is[1] == 1 && p.in_channels % 8 == 0 && is[0] % 8 == 0 && is[2] % 8 == 0 && is[3] % 8 == 0 &&
                        is[4] % 8 == 0 && reinterpret_cast<uintptr_t>(input) % 16 == 0;
  const bool g_vector = os[1] == 1 && p.out_channels % 8 == 0 && os[0] % 8 == 0 && os[2] % 8 == 0 &&
                        os[3] % 8 == 0 && os[4] % 8 == 0 && reinterpret_cast<uintptr_t>(grad_output) % 16 == 0;
  const dim3 grid(unsigned(splits), unsigned(p.kernel[0] * p.kernel[1]),
                  unsigned(blocks_of(p.in_channels, kOneTapGradWeightIn) *
                           blocks_of(p.out_channels, kOneTapGradWeightOut)));
  tconv_one_tap_grad_weight_kernel<T, KW><<<grid, kOneTapThreads, 0, stream>>>(
      p, static_cast<const T*>(input), static_cast<const T*>(grad_output), workspace,
      blocks_of(p.in_size[2], kOneTapInputTile), x_vector, g_vector);
  const cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) return err;
  const int64_t sizes[5] = {p.in_channels, p.out_channels, p.kernel[0], p.kernel[1], p.kernel[2]};
  return sum_splits(dtype, workspace, splits, sizes, p.weight_strides, grad_weight, stream);
}

// TCONV_ONE_TAP_GRAD_WEIGHT=0 (development, read once per process): the one-tap grad_weight never runs.
bool one_tap_grad_weight_enabled() {
  static const bool enabled = development_switch("TCONV_ONE_TAP_GRAD_WEIGHT", 1) != 0;
  return enabled;
}

}  // namespace

// The one-tap kernels' shared conditions: groups 1, a W kernel of at most kOneTapMaxKernelW, one tap an output along
// every dimension, and their 32-bit indices.
static bool one_tap_shape_possible(const ConvTransposeParams& p) {
  if (p.groups != 1 || p.kernel[2] > kOneTapMaxKernelW) return false;
  // the kernel's 32-bit indices: extents, and the weight's offsets
  int64_t weight_span = 1;
  const int64_t weight_extent[5] = {p.in_channels, p.out_channels, p.kernel[0], p.kernel[1], p.kernel[2]};
  for (int d = 0; d < 5; ++d) weight_span += (weight_extent[d] - 1) * p.weight_strides[d];
  if (weight_span >= (int64_t(1) << 31)) return false;
  for (int d = 0; d < kSpatialDims; ++d)
    if (p.in_size[d] + p.padding[d] >= (int64_t(1) << 30) || p.out_size[d] + p.padding[d] >= (int64_t(1) << 30) ||
        p.stride[d] >= (int64_t(1) << 30))
      return false;
  for (int d = 0; d < kSpatialDims; ++d)
    if (!one_tap_dimension(p.kernel[d], p.stride[d], p.dilation[d])) return false;
  return true;
}

// Some dimension has phases that no tap reaches (kernel < stride), where the GEMM forms' tiles are shallowest.
static bool one_tap_has_empty_phases(const ConvTransposeParams& p) {
  for (int d = 0; d < kSpatialDims; ++d)
    if (p.kernel[d] < p.stride[d]) return true;
  return false;
}

bool one_tap_forward_possible(const ConvTransposeParams& p, DType dtype) {
  if (dtype == DType::kFloat64 || !one_tap_shape_possible(p)) return false;
  const int64_t blocks = p.batch * p.out_size[0] * p.out_size[1] *
                         blocks_of(blocks_of(p.out_size[2] + p.padding[2], p.stride[2]), kOneTapInputTile);
  return blocks < (int64_t(1) << 31) && blocks_of(p.out_channels, kOneTapOutChannels) < 65536;
}

bool one_tap_forward_preferred(const ConvTransposeParams& p, DType dtype) {
  static const bool enabled = development_switch("TCONV_ONE_TAP_AUTO", 1) != 0;
  if (!enabled || !one_tap_forward_possible(p, dtype) || p.in_channels > kOneTapPreferredMaxInChannels ||
      (p.output_strides[1] != 1 && !one_tap_runs(p)) || p.out_channels == 1)
    return false;
  return one_tap_has_empty_phases(p);
}

bool one_tap_grad_input_possible(const ConvTransposeParams& p, DType dtype) {
  if (!is_16bit(dtype) || !one_tap_shape_possible(p)) return false;
  const int64_t blocks = p.batch * p.in_size[0] * p.in_size[1] * blocks_of(p.in_size[2], kOneTapInputTile);
  return blocks < (int64_t(1) << 31) && blocks_of(p.in_channels, kOneTapGradInputChannels) < 65536;
}

bool one_tap_grad_input_taken(const ConvTransposeParams& p, DType dtype, const std::string& algorithm) {
  if (!one_tap_grad_input_enabled() || !one_tap_grad_input_possible(p, dtype)) return false;
  if (algorithm == "one_tap") return true;
  return algorithm == "auto" && p.output_strides[1] == 1 && p.in_channels <= kOneTapPreferredMaxInChannels &&
         p.out_channels <= kOneTapOutChannels && one_tap_has_empty_phases(p);
}

cudaError_t one_tap_grad_input(const ConvTransposeParams& p, DType dtype, const void* grad_output, const void* weight,
                               void* grad_input, cudaStream_t stream) {
  if (p.batch * p.in_channels * p.in_spatial() == 0) return cudaSuccess;
  if (!one_tap_grad_input_possible(p, dtype)) return cudaErrorInvalidValue;
  const auto launch = [&](auto type_tag) -> cudaError_t {
    using T = decltype(type_tag);
    switch (p.kernel[2]) {
      case 1: return launch_one_tap_grad_input<T, 1>(p, grad_output, weight, grad_input, stream);
      case 2: return launch_one_tap_grad_input<T, 2>(p, grad_output, weight, grad_input, stream);
      case 3: return launch_one_tap_grad_input<T, 3>(p, grad_output, weight, grad_input, stream);
      default: return launch_one_tap_grad_input<T, 4>(p, grad_output, weight, grad_input, stream);
    }
  };
  return dtype == DType::kFloat16 ? launch(__half()) : launch(__nv_bfloat16());
}

bool one_tap_grad_weight_possible(const ConvTransposeParams& p, DType dtype) {
  if (!is_16bit(dtype) || !one_tap_shape_possible(p)) return false;
  return p.kernel[0] * p.kernel[1] < 65536 &&
         blocks_of(p.in_channels, kOneTapGradWeightIn) * blocks_of(p.out_channels, kOneTapGradWeightOut) < 65536;
}

bool one_tap_grad_weight_taken(const ConvTransposeParams& p, DType dtype, const std::string& algorithm) {
  if (!one_tap_grad_weight_enabled() || !one_tap_grad_weight_possible(p, dtype)) return false;
  if (algorithm == "one_tap") return true;
  return algorithm == "auto" && p.output_strides[1] == 1 && p.input_strides[1] == 1 &&
         p.in_channels <= kOneTapPreferredMaxInChannels && p.out_channels <= kOneTapGradWeightOut &&
         one_tap_has_empty_phases(p);
}

int64_t one_tap_grad_weight_splits(const ConvTransposeParams& p, int sm_count, int64_t max_workspace_elems) {
  const int64_t numel = p.in_channels * p.out_channels * p.kernel[0] * p.kernel[1] * p.kernel[2];
  const int64_t blocks_a_split = p.kernel[0] * p.kernel[1] * blocks_of(p.in_channels, kOneTapGradWeightIn) *
                                 blocks_of(p.out_channels, kOneTapGradWeightOut);
  const int64_t items = p.batch * p.in_size[0] * p.in_size[1] * blocks_of(p.in_size[2], kOneTapInputTile);
  // about four blocks an SM (two resident at a time), each split within the workspace and its items
  int64_t splits = blocks_of(4 * int64_t(sm_count), blocks_a_split);
  splits = std::min({splits, std::max<int64_t>(1, max_workspace_elems / std::max<int64_t>(numel, 1)),
                     std::max<int64_t>(1, items), int64_t(1) << 30});
  return std::max<int64_t>(splits, 1);
}

cudaError_t one_tap_grad_weight(const ConvTransposeParams& p, DType dtype, const void* input, const void* grad_output,
                                void* grad_weight, float* workspace, int64_t splits, cudaStream_t stream) {
  if (!one_tap_grad_weight_possible(p, dtype) || splits < 1) return cudaErrorInvalidValue;
  const auto launch = [&](auto type_tag) -> cudaError_t {
    using T = decltype(type_tag);
    switch (p.kernel[2]) {
      case 1: return launch_one_tap_grad_weight<T, 1>(p, dtype, input, grad_output, grad_weight, workspace, splits,
                                                      stream);
      case 2: return launch_one_tap_grad_weight<T, 2>(p, dtype, input, grad_output, grad_weight, workspace, splits,
                                                      stream);
      case 3: return launch_one_tap_grad_weight<T, 3>(p, dtype, input, grad_output, grad_weight, workspace, splits,
                                                      stream);
      default: return launch_one_tap_grad_weight<T, 4>(p, dtype, input, grad_output, grad_weight, workspace, splits,
                                                       stream);
    }
  };
  return dtype == DType::kFloat16 ? launch(__half()) : launch(__nv_bfloat16());
}

cudaError_t one_tap_forward(const ConvTransposeParams& p, DType dtype, const void* input, const void* weight,
                            const void* bias, void* output, cudaStream_t stream) {
  if (p.batch * p.out_channels * p.out_spatial() == 0) return cudaSuccess;
  if (!one_tap_forward_possible(p, dtype)) return cudaErrorInvalidValue;
  return TCONV_FLOAT_DTYPE_SWITCH(dtype, scalar_t, [&] {
    switch (p.kernel[2]) {
      case 1: return launch_one_tap_forward<scalar_t, 1>(p, input, weight, bias, output, stream);
      case 2: return launch_one_tap_forward<scalar_t, 2>(p, input, weight, bias, output, stream);
      case 3: return launch_one_tap_forward<scalar_t, 3>(p, input, weight, bias, output, stream);
      default: return launch_one_tap_forward<scalar_t, 4>(p, input, weight, bias, output, stream);
    }
  });
}

}  // namespace tconv
