// The unit-stride forward on mma.sync for few channels (UnitStrideMmaTile, igemm_config.h), and grad_input at unit
// stride as that forward of grad_output (conv_params.h: unit_stride_grad_input_as_forward).
//
//   out[n, co, d, y, x] = bias[co] + sum_{ci, ky, kx} in[n, ci, d, y + p_h - ky dil_h, x + p_w - kx dil_w] w[ci, co, ky, kx]
//
// Why a kernel of its own: at 32 channels (L1-71: C 32 -> 32, k3, 8 x 512 x 1024) the GEMM is M = 4.2 M positions,
// N = 32, K = 288, and the wgmma strip form ran at 81 TFLOP/s in bf16 (0.95 ms, slower than cuDNN) with its tensor
// pipe 12 % busy: it loads each input row once per (kd, kh) tap as scalars and its N = 32 tiles are mostly idle
// (notes/perf.md, run 233). Here a block stages a window of the input once per tile (every tap reads it at a shifted
// position through ldmatrix), keeps the C_out tile's weights resident, and issues m16n8 MMAs whose N is exactly the
// 32 channels. The floor on an H200 is about 0.13 ms in bf16 (540 MB moved; 77 GFLOP). Run 282 (H200): L1-71 bf16
// forward 0.957 -> 0.519 ms (150 TFLOP/s, 25 % of the floor's speed), fwd+bwd 3.297 -> 2.605 with grad_input here too;
// 64 channels lost, and TF32 beyond 9 taps (igemm_config.h: UnitStrideMmaAutoRule has the rows).
//
// Per tile and stage of kChannels input channels:
//   1. cp.async copies the window [channel][row][position] as the tensor holds it (16-byte pieces where rows are
//      16-byte aligned, else 4-byte ones), for the next step while this one computes;
//   2. the block transposes it to [row][position][channel] (16-bit: two channels per 32-bit word, as the k16 MMA
//      wants its K pairs; fp32: rounded to TF32), 16-byte chunks swizzled so that ldmatrix's eight rows (eight
//      consecutive positions) hit distinct banks;
//   3. each warp runs its row's kMTiles x 4 fragments over every (ky, kx) tap and K step.
// The store stages each warp's outputs as [channel][position] in the transposed window's memory (dead by then) and
// writes whole rows of 128 bytes per channel.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <type_traits>
#include "conv_transpose.h"
#include "dispatch.h"
#include "igemm_config.h"
#include "mma_sm80.h"
#include "wgmma_sm90.h"

namespace tconv {
namespace {

// n / d for the staging's small operands (n * d < 2^32) by one multiply-high: magic = ceil(2^32 / d), 0 for d = 1.
// Why: each runtime division is ~20 instructions, and the staging of every tile ran five of them per thread.
struct SmallDivisor {
  uint32_t magic;
};
inline SmallDivisor small_divisor(int d) {
  SmallDivisor s;
  s.magic = d == 1 ? 0u : uint32_t(((uint64_t(1) << 32) + uint64_t(d) - 1) / uint64_t(d));
  return s;
}
__device__ __forceinline__ int small_div(int n, SmallDivisor s) {
  return s.magic ? int(__umulhi(uint32_t(n), s.magic)) : n;
}

struct UnitStrideMmaArgs {
  const void* x;     // scalar_t [N, C_in, D, H_in, W_in], W contiguous
  void* y;           // scalar_t [N, C_out, D, H_out, W_out], W contiguous
  const void* w;     // scalar_t [C_in, C_out, 1, kH, kW] through w_stride (negative for grad_input's flipped taps)
  const void* bias;  // scalar_t [C_out] or null
  int64_t x_stride[5], y_stride[5], w_stride[5], bias_stride;
  int depth, in_h, in_w, out_h, out_w;
  int c_in, c_out, kernel_h, kernel_w, pad_h, pad_w, dil_h, dil_w;
  int tiles_x, tiles_y, planes;  // planes = N x D
  int64_t tiles;                 // tiles_x x tiles_y x planes x C_out tiles (C_out tiles slowest)
  int fold;                      // the warps side by side along x in one row (UnitStrideMmaPlan::fold)
  int tile_rows, tile_w;         // output rows and positions per tile: kRows x kWarpM, or folded 1 x kRows kWarpM
  int window_rows;               // tile_rows + (kH - 1) dil_h
  int part_rows, raw_parts;      // window rows per raw part, and the parts (at most UnitStrideMmaTile::kRawParts)
  int window_chunks;             // 16-byte chunks per window row
  int x_shift;                   // window start minus its 16-byte aligned start, in positions
  int raw_channel_pitch;         // elements between two channels of the raw window
  int pair_stores;               // 16-bit output: two positions per 4-byte store (even strides, aligned)
  // Channels-last (kChannelsLast): window positions copied per row (x_shift + tile_w + the taps' span), and whether
  // the output takes 16-byte stores (every stride a multiple of 16 bytes, the base 16-byte aligned).
  int window_span, vector_stores;
  SmallDivisor by_window_span;
  // The window copy (issue_window): pieces per window row, (row, piece) places per channel and part, and the copy
  // groups, kThreads / places (at least 1) threads per place, each taking every copy_groups-th channel.
  int row_pieces, places, copy_groups;
  SmallDivisor by_row_pieces, by_window_chunks;
  // Dynamic tiles (unit_stride_mma_dynamic_tiles): a zeroed counter; a block's first tile is blockIdx.x, each later
  // one gridDim.x plus the counter's next value, so blocks that start late (behind another pass's blocks) take fewer
  // tiles. Null: the static shares, tiles blockIdx.x + k gridDim.x.
  int* tile_counter;
};

// Where raw channel `channel`'s window starts, in elements from the raw window's start. 16-bit: channels 16-31 start
// 64 bytes later, so that the transpose's 8-byte reads (four 8-channel groups, the odd groups reading the other half
// of their 16-byte chunks first) fall on 32 distinct banks per 16-lane phase; without it (run 287's ncu) they were
// 4-way conflicts, since 8 channel pitches are a multiple of 128 bytes. Modelled offline: 1.00 wavefronts per
// phase for L1-71, fam11 and fam08's windows. fp32 (16 channels, four 4-channel groups): channels 8-15 start 32
// bytes later and the pitch is an odd number of 16-byte chunks (UnitStrideMmaPlan), so that a transpose phase's eight
// 16-byte reads (groups 0-3 at two consecutive chunks) land in chunks 4 (g & 1) + 2 (g >> 1) + {0, 1} mod 8 of a
// bank line, all eight distinct; with an even spacing of 4-channel groups they were 2-way (4-way at 32 channels).
template <int kElemBytes>
__host__ __device__ __forceinline__ int raw_channel_start(int channel, int raw_pitch) {
  return channel * raw_pitch + (kElemBytes == 2 ? ((channel >> 4) & 1) * 32 : ((channel >> 3) & 1) * 8);
}

// Shared memory of a launch, in bytes: [stage][tap][C_out tile row] weights, then the transposed window (which the
// store reuses), then the raw window.
struct UnitStrideMmaSmem {
  int weight_bytes, window_bytes, raw_bytes;
  __host__ __device__ int total() const { return weight_bytes + window_bytes + raw_bytes; }
};
// Channels-last: no raw window; in 16-bit its place holds a second window, so that the next step's copy lands beside
// the one being read (the copy goes straight to the MMAs' layout, with no transpose between to separate them). fp32
// keeps one window: a second would take L1-71's block from 80 to 124 KB, one block an SM (run 303's ncu: one block's
// 8 warps kept the issue slots 29-35 % busy), so the SM's other block covers the copy's wait instead.
template <int kElemBytes>
__host__ __device__ __forceinline__ UnitStrideMmaSmem unit_stride_mma_smem(int c_in, int taps, int window_rows,
                                                                         int window_chunks, int raw_pitch,
                                                                         bool channels_last) {
  using Tile = UnitStrideMmaTile<kElemBytes>;
  UnitStrideMmaSmem s;
  s.weight_bytes = c_in * taps * Tile::kBlockN * kElemBytes;
  const int positions = window_chunks * Tile::kChunkElems;
  const int window = window_rows * positions * Tile::kChannels * kElemBytes;
  s.window_bytes = window > Tile::kOutBytes ? window : Tile::kOutBytes;
  // The last channel's start plus a pitch: channel kChannels would carry no skew (run 289's overrun).
  s.raw_bytes = channels_last ? (kElemBytes == 2 ? s.window_bytes : 0)
                              : (raw_channel_start<kElemBytes>(Tile::kChannels - 1, raw_pitch) + raw_pitch) * kElemBytes;
  return s;
}

// The 16-byte chunk where logical chunk `chunk` of shared row `row` lives. Rows of 4 chunks (64 bytes, two per
// 128-byte bank line) XOR with bits 1-2 of the row, rows of 8 with bits 0-2: eight consecutive rows at one logical
// chunk then cover all eight 16-byte bank groups (ldmatrix reads eight rows per phase).
__device__ __forceinline__ int swizzle_term(int row, int row_chunks) { return row_chunks == 4 ? (row >> 1) & 3 : row & 7; }
__device__ __forceinline__ int swizzle_chunk(int row, int chunk, int row_chunks) {
  return chunk ^ swizzle_term(row, row_chunks);
}
// Rows 16 apart share the XOR term (it reads bits 0-2 of the row), and chunk 2 s + c (c in 0, 1) lies at chunk
// (c ^ term) ^ 2 s: one XOR per tap and K step addresses a lane's fragments in every 16-row tile (run 287's source
// page: the per-fragment swizzle was 61 of the MMA loop's 105 instructions per tap).

// One piece of the raw window: the first src_bytes of kBytes from global memory, zeros after them (src-size 0 reads
// nothing: a piece outside the input, or the part of a piece past the row's end).
template <int kBytes>
__device__ __forceinline__ void copy_piece(unsigned dst, const void* gmem, int src_bytes) {
  if constexpr (kBytes == 16) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(gmem), "r"(src_bytes));
  } else {
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(dst), "l"(gmem), "r"(src_bytes));
  }
}
__device__ __forceinline__ void copy_commit() { asm volatile("cp.async.commit_group;\n" ::); }
__device__ __forceinline__ void copy_wait_all() { asm volatile("cp.async.wait_all;\n" ::: "memory"); }

template <typename scalar_t>
__device__ __forceinline__ uint32_t weight_bits(const scalar_t* w, int64_t at, bool valid) {
  if constexpr (sizeof(scalar_t) == 2) {
    return valid ? uint32_t(reinterpret_cast<const unsigned short*>(w)[at]) : 0u;
  } else {
    return valid ? to_tf32(w[at]) : 0u;
  }
}

struct TileAt {
  int x0, y0, n, d, co0;
};
template <class Tile>
__device__ __forceinline__ TileAt tile_at(const UnitStrideMmaArgs& a, int t) {  // 32-bit: the host bounds tiles
  TileAt at;
  at.x0 = int(t % a.tiles_x) * a.tile_w;
  t /= a.tiles_x;
  at.y0 = int(t % a.tiles_y) * a.tile_rows;
  t /= a.tiles_y;
  const int plane = int(t % a.planes);
  at.co0 = int(t / a.planes) * Tile::kBlockN;
  at.n = plane / a.depth;
  at.d = plane % a.depth;
  return at;
}

// Two 16-bit values as one word, `lo` in the low half (a pair of consecutive channels in memory order).
template <typename scalar_t>
__device__ __forceinline__ uint32_t pair_bits(float lo, float hi) {
  const scalar_t l = from_acc<scalar_t>(lo), h = from_acc<scalar_t>(hi);
  return uint32_t(*reinterpret_cast<const unsigned short*>(&l)) |
         (uint32_t(*reinterpret_cast<const unsigned short*>(&h)) << 16);
}

// kPieceBytes: 16 where every window row starts 16-byte aligned (UnitStrideMmaPlan), else 4.
// kChannelsLast (16-byte pieces): input and output channels innermost. Each window position's kChannels channels are
// 64 contiguous bytes of the input, copied by cp.async straight into the MMAs' [row][position][channel] layout (no
// raw window, no transpose; in 16-bit two windows alternate by step), and the store writes whole positions along the
// channels, 16 bytes a lane. Why: the NCHW form reads and writes W-contiguous lines, and channels-last L1-71 (bf16)
// ran its forward on the TMA window at 0.748 ms against this kernel's 0.327 on contiguous data (runs 466, 342a43b).
// fp32 (TF32; session 112, default since run 563; TCONV_UNIT_STRIDE_MMA_CHANNELS_LAST_FP32=0 turns it off): one
// window (unit_stride_mma_smem), each thread rounding to TF32 the chunks it copied once its copies land (its own
// cp.async writes are visible to it after the wait, so no barrier more), the next step's copy issued once every warp
// is past the MMAs (or the store) of this one; the store stages a half of the warp's positions at a time as
// [position][channel] rows of 128 bytes. Why: channels-last L1-71 TF32 ran its forward and grad_input on the
// cp.async gather kernel, 3.5 ms each (run 562, H100; contiguous: 0.70 ms on this kernel; eager 0.708); on this
// form its forward took 0.683 ms and fwd+bwd 3.237 against 3.592 / 8.912 (run 563, H100).
template <typename scalar_t, int kPieceBytes, bool kChannelsLast = false>
__global__ void __launch_bounds__(UnitStrideMmaTile<int(sizeof(scalar_t))>::kThreads,
                                  UnitStrideMmaTile<int(sizeof(scalar_t))>::kBlocksPerSm)
    tconv_unit_stride_mma_kernel(const UnitStrideMmaArgs a) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  using Tile = UnitStrideMmaTile<int(sizeof(scalar_t))>;
  static_assert(!kChannelsLast || kPieceBytes == 16, "channels-last: 16-byte pieces");
  using mma_t = scalar_t;
  constexpr int kElem = int(sizeof(scalar_t)), E = Tile::kChunkElems, PC = Tile::kPositionChunks;
  // Channels-last windows: two alternating in 16-bit, one in fp32 (unit_stride_mma_smem).
  constexpr bool kTwoWindows = kChannelsLast && kElem == 2, kOneWindow = kChannelsLast && kElem == 4;
  constexpr int kPieceElems = kPieceBytes / kElem;
  extern __shared__ __align__(16) unsigned char smem[];
  const int taps = a.kernel_h * a.kernel_w;
  const int stages = a.c_in / Tile::kChannels;
  const int positions = a.window_chunks * E;  // per window row
  const UnitStrideMmaSmem layout =
      unit_stride_mma_smem<kElem>(a.c_in, taps, a.window_rows, a.window_chunks, a.raw_channel_pitch, kChannelsLast);
  unsigned char* const w_s = smem;
  unsigned char* const xt_s = smem + layout.weight_bytes;
  const unsigned w_address = static_cast<unsigned>(__cvta_generic_to_shared(w_s));
  const unsigned xt_address = static_cast<unsigned>(__cvta_generic_to_shared(xt_s));
  scalar_t* const raw_s = reinterpret_cast<scalar_t*>(xt_s + layout.window_bytes);
  const scalar_t* const x = static_cast<const scalar_t*>(a.x);
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  // This warp's output row and first position within the tile.
  const int warp_row = a.fold ? 0 : warp, warp_x = a.fold ? warp * Tile::kWarpM : 0;

  // The block's steps: its tiles (blockIdx.x, then as a.tile_counter says), each in `stages` channel stages; the tile
  // and stage of a step are tracked as the steps go (a 64-bit division per step cost ~2 % of the instructions).
  const int tiles = int(a.tiles);  // the host bounds tiles to 32 bits, tile + gridDim.x included
  if (int(blockIdx.x) >= tiles || stages == 0) return;
  // The tile after the current one, claimed by thread 0 in the tile's first step and read by every thread after the
  // first barrier of its last step (the second barrier of that step separates the read from the next claim).
  __shared__ int claimed_tile;

  // This thread's places (window row, piece) are the same in every step: place tid % places (and + kThreads where
  // the window has more places than threads), channels tid / places + k copy_groups. Where and whether a place
  // reads the input is worked out once per place and step, and each channel's piece then costs a pointer step and
  // the copy (run 287's source page: ~35 instructions per piece when the walk moved through rows and channels).
  const int copy_group = tid / a.places, first_place = tid % a.places;
  const unsigned raw_address = static_cast<unsigned>(__cvta_generic_to_shared(raw_s));
  constexpr int kStride = Tile::kThreads;
  // Channels-last: `part` is the window buffer (0 or 1), and each thread copies every kThreads-th 16-byte chunk of
  // the window's rows of window_span positions.
  auto issue_window = [&](const TileAt& at, int stage, int part) {
    if constexpr (kChannelsLast) {
      const scalar_t* const plane = x + at.n * a.x_stride[0] + at.d * a.x_stride[2] + stage * Tile::kChannels;
      const int row0 = at.y0 + a.pad_h - (a.kernel_h - 1) * a.dil_h;
      const int col0 = at.x0 + a.pad_w - (a.kernel_w - 1) * a.dil_w - a.x_shift;
      const unsigned base = xt_address + unsigned(part * layout.window_bytes);
      const int total = a.window_rows * a.window_span * PC;
      for (int i = tid; i < total; i += kStride) {
        const int chunk = i % PC, place = i / PC;
        const int r = small_div(place, a.by_window_span), position = place - r * a.window_span;
        const int iy = row0 + r, ix = col0 + position;
        const bool valid = iy >= 0 && iy < a.in_h && ix >= 0 && ix < a.in_w;
        const scalar_t* src = valid ? plane + iy * a.x_stride[3] + ix * a.x_stride[4] + chunk * E : x;
        const int staged = r * positions + position;
        copy_piece<16>(base + unsigned((staged * PC + swizzle_chunk(staged, chunk, PC)) * 16), src, valid ? 16 : 0);
      }
      copy_commit();
      return;
    }
    const scalar_t* const tile_x = x + at.n * a.x_stride[0] + at.d * a.x_stride[2] +
                                   int64_t(stage * Tile::kChannels + copy_group) * a.x_stride[1];
    const int row0 = at.y0 + a.pad_h - (a.kernel_h - 1) * a.dil_h + part * a.part_rows;
    const int row_end = Tile::kRawParts > 1 ? min(a.part_rows, a.window_rows - part * a.part_rows) : a.part_rows;
    const int col0 = at.x0 + a.pad_w - (a.kernel_w - 1) * a.dil_w - a.x_shift;
    if (copy_group < a.copy_groups) {
      for (int place = first_place; place < a.places; place += kStride) {
        const int r = small_div(place, a.by_row_pieces), piece = place - r * a.row_pieces;
        const int iy = row0 + r, ix = col0 + piece * kPieceElems;
        // Pieces start at multiples of their size from the row's start (the window start is 16-byte aligned), so a
        // piece lies wholly left of the row or starts inside it; one at the row's end reads only what is inside.
        const int inside = iy >= 0 && iy < a.in_h && ix >= 0 && (Tile::kRawParts == 1 || r < row_end)
                               ? min(a.in_w - ix, kPieceElems)
                               : 0;
        const bool valid = inside > 0;
        const scalar_t* src = valid ? tile_x + iy * a.x_stride[3] + ix : x;
        const int64_t src_step = valid ? a.copy_groups * a.x_stride[1] : 0;
        const unsigned dst = raw_address + unsigned((r * positions + piece * kPieceElems) * kElem);
        for (int channel = copy_group; channel < Tile::kChannels; channel += a.copy_groups, src += src_step)
          copy_piece<kPieceBytes>(dst + raw_channel_start<kElem>(channel, a.raw_channel_pitch) * kElem, src,
                                  valid ? inside * kElem : 0);
      }
    }
    copy_commit();
  };

  // fp32 channels-last: the chunks this thread copied (issue_window's walk), rounded to TF32 in place once its copies
  // have landed.
  auto round_own_window = [&]() {
    const int total = a.window_rows * a.window_span * PC;
    for (int i = tid; i < total; i += kStride) {
      const int chunk = i % PC, place = i / PC;
      const int r = small_div(place, a.by_window_span), position = place - r * a.window_span;
      const int staged = r * positions + position;
      uint4* const v = reinterpret_cast<uint4*>(xt_s + (staged * PC + swizzle_chunk(staged, chunk, PC)) * 16);
      const uint4 raw = *v;
      *v = make_uint4(to_tf32(__uint_as_float(raw.x)), to_tf32(__uint_as_float(raw.y)),
                      to_tf32(__uint_as_float(raw.z)), to_tf32(__uint_as_float(raw.w)));
    }
  };

  // The C_out tile's weights for every stage and tap, row (stage, tap, channel) of PC chunks in K order.
  auto load_weights = [&](int co0) {
    const scalar_t* w = static_cast<const scalar_t*>(a.w);
    const int total = stages * taps * Tile::kBlockN * PC;
    for (int i = tid; i < total; i += Tile::kThreads) {
      const int chunk = i % PC, row = i / PC;
      const int co = row % Tile::kBlockN, tap = (row / Tile::kBlockN) % taps, stage = row / Tile::kBlockN / taps;
      const bool inside = co0 + co < a.c_out;
      const int64_t at = int64_t(co0 + co) * a.w_stride[1] + (tap / a.kernel_w) * a.w_stride[3] +
                         (tap % a.kernel_w) * a.w_stride[4] +
                         int64_t(stage * Tile::kChannels + chunk * E) * a.w_stride[0];
      uint32_t word[4];
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        if constexpr (kElem == 2) {
          word[k] = weight_bits(w, at + (2 * k) * a.w_stride[0], inside) |
                    (weight_bits(w, at + (2 * k + 1) * a.w_stride[0], inside) << 16);
        } else {
          word[k] = weight_bits(w, at + k * a.w_stride[0], inside);
        }
      }
      *reinterpret_cast<uint4*>(w_s + (row * PC + swizzle_chunk(row, chunk, PC)) * 16) =
          make_uint4(word[0], word[1], word[2], word[3]);
    }
  };

  // Raw [channel][row][position] -> [row][position][channel]: a unit is E channels x E positions (one chunk each),
  // 16-bit units in two halves of four positions (8-byte reads) so that 128 registers hold the kernel without spills.
  auto transpose_window = [&](int part) {
    const int units = a.part_rows * a.window_chunks * PC;
    for (int u = tid; u < units; u += Tile::kThreads) {
      const int group = u % PC, rest = u / PC;
      const int r = small_div(rest, a.by_window_chunks), chunk = rest - r * a.window_chunks;
      if constexpr (Tile::kRawParts > 1) {
        if (part * a.part_rows + r >= a.window_rows) break;  // units grow with r: the rest lie past the window too
      }
      const scalar_t* const from = raw_s + raw_channel_start<kElem>(group * E, a.raw_channel_pitch) + r * positions + chunk * E;
      const int position0 = (part * a.part_rows + r) * positions + chunk * E;
      if constexpr (kElem == 2) {
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          const int half = h ^ (group & 1);  // raw_channel_start: the odd groups read the other half first
          uint2 v[E];
#pragma unroll
          for (int c = 0; c < E; ++c) v[c] = *reinterpret_cast<const uint2*>(from + c * a.raw_channel_pitch + 4 * half);
#pragma unroll
          for (int j = 0; j < 4; ++j) {
            // Position 4 half + j of channels 2k and 2k + 1: halves j % 2 of their words j / 2.
            const uint32_t selector = j % 2 ? 0x7632u : 0x5410u;
            uint32_t word[4];
#pragma unroll
            for (int k = 0; k < 4; ++k) {
              const uint32_t lo = j / 2 ? v[2 * k].y : v[2 * k].x, hi = j / 2 ? v[2 * k + 1].y : v[2 * k + 1].x;
              word[k] = __byte_perm(lo, hi, selector);
            }
            const int position = position0 + 4 * half + j;
            *reinterpret_cast<uint4*>(xt_s + (position * PC + swizzle_chunk(position, group, PC)) * 16) =
                make_uint4(word[0], word[1], word[2], word[3]);
          }
        }
      } else {
        // Odd units store their positions in the order 1 0 3 2: a phase's two units then fill both 64-byte halves
        // of the bank line (positions of either parity) instead of one twice (scripts/smem_bank_model.py --fp32
        // --order: 2x -> 1x; run 307's ncu counted these stores at 2x). Not in 16-bit: the two extra live values
        // spill its 128 registers.
        const int odd = rest & 1;
        uint4 v[E];
#pragma unroll
        for (int c = 0; c < E; ++c) v[c] = *reinterpret_cast<const uint4*>(from + c * a.raw_channel_pitch);
        uint32_t rounded[E][E];
#pragma unroll
        for (int k = 0; k < E; ++k)
#pragma unroll
          for (int i = 0; i < E; ++i) rounded[k][i] = to_tf32(reinterpret_cast<const float*>(&v[k])[i]);
#pragma unroll
        for (int i = 0; i < E; ++i) {
          uint32_t word[4];
#pragma unroll
          for (int k = 0; k < 4; ++k) word[k] = odd ? rounded[k][i ^ 1] : rounded[k][i];
          const int position = position0 + (i ^ odd);
          *reinterpret_cast<uint4*>(xt_s + (position * PC + swizzle_chunk(position, group, PC)) * 16) =
              make_uint4(word[0], word[1], word[2], word[3]);
        }
      }
    }
  };

  float acc[Tile::kMTiles][4][4];
  int weights_for = -1;
  // A tile's place is worked out once, when its first stage is issued (run 307's source page: tile_at's three
  // divisions, twice per 16-channel fp32 step, were ~10 % of the instructions).
  TileAt at = tile_at<Tile>(a, int(blockIdx.x)), next_at = at;
  issue_window(at, 0, 0);
  int tile = int(blockIdx.x), stage = 0, next_tile = tile, next_stage = 0;
  int buffer = 0;  // channels-last: the window this step reads
  for (bool more = true; more; tile = next_tile, stage = next_stage, at = next_at, buffer ^= int(kTwoWindows)) {
    next_stage = stage + 1 == stages ? 0 : stage + 1;
    if (a.tile_counter != nullptr && stage == 0 && tid == 0)
      claimed_tile = int(gridDim.x) + atomicAdd(a.tile_counter, 1);
    copy_wait_all();
    if constexpr (kOneWindow) round_own_window();
    __syncthreads();  // the window landed for every thread; every warp is done with the previous step's shared data
    if (next_stage == 0) {
      next_tile = a.tile_counter != nullptr ? claimed_tile : tile + int(gridDim.x);
      if (next_tile < tiles) next_at = tile_at<Tile>(a, next_tile);
    }
    more = next_tile < tiles;
    bool weights_loaded = false;
    if (at.co0 != weights_for) {
      load_weights(at.co0);
      weights_for = at.co0;
      weights_loaded = true;
    }
    if constexpr (kChannelsLast) {
      if (weights_loaded) __syncthreads();  // the weights' plain stores, before any warp reads them
    } else {
      transpose_window(0);
      __syncthreads();
    }
    // fp32: the window's later rows, through the same raw buffer; this copy's wait is covered by the SM's other block.
#pragma unroll 1
    for (int part = 1; !kChannelsLast && Tile::kRawParts > 1 && part < a.raw_parts; ++part) {
      issue_window(at, stage, part);
      copy_wait_all();
      __syncthreads();
      transpose_window(part);
      __syncthreads();
    }
    if (more && !kOneWindow) issue_window(next_at, next_stage, kTwoWindows ? buffer ^ 1 : 0);
    const unsigned window_address = xt_address + unsigned(kTwoWindows ? buffer * layout.window_bytes : 0);
    if (stage == 0) {
#pragma unroll
      for (int mt = 0; mt < Tile::kMTiles; ++mt)
#pragma unroll
        for (int nt = 0; nt < 4; ++nt)
#pragma unroll
          for (int e = 0; e < 4; ++e) acc[mt][nt][e] = 0.f;
    }
    // ldmatrix lanes: A rows = positions (lane % 8, + 8 for lanes 8-15 and 24-31), chunk + 1 for lanes 16-31;
    // B rows = channels (lane % 8, + 8 for lanes 16-31), chunk + 1 for lanes 8-15 and 24-31. Addresses in bytes of
    // shared memory, rows of kRowBytes; fragment tiles 16 rows apart add 16 kRowBytes (swizzle_term).
    constexpr int kRowBytes = PC * 16;
    const int a_row = (lane & 7) + (((lane >> 3) & 1) << 3), a_chunk = lane >> 4;
    const int b_row = (lane & 7) + ((lane >> 4) << 3), b_chunk = (lane >> 3) & 1;
    // B rows (stage, tap, channel): tap rows start at multiples of kBlockN = 32, so the term is the lane's.
    const unsigned b_lane = w_address + b_row * kRowBytes;
    const int b_chunk_bytes = (b_chunk ^ swizzle_term(b_row, PC)) << 4;
    unsigned b_tap = b_lane + unsigned(stage * taps * Tile::kBlockN * kRowBytes);
    // The lane's A row at tap (ky, kx): window row warp_row + (kH - 1 - ky) dil_h, position warp_x + (kW - 1 - kx)
    // dil_w + x_shift + a_row.
    int a_ky = (warp_row + (a.kernel_h - 1) * a.dil_h) * positions + warp_x + (a.kernel_w - 1) * a.dil_w + a.x_shift +
               a_row;
    for (int ky = 0; ky < a.kernel_h; ++ky, a_ky -= a.dil_h * positions) {
      int a_at = a_ky;
      for (int kx = 0; kx < a.kernel_w; ++kx, a_at -= a.dil_w, b_tap += Tile::kBlockN * kRowBytes) {
        const unsigned a_lane = window_address + a_at * kRowBytes;
        const int a_chunk_bytes = (a_chunk ^ swizzle_term(a_at, PC)) << 4;
#pragma unroll
        for (int s = 0; s < Tile::kKSteps; ++s) {
          uint32_t b[4][2];
#pragma unroll
          for (int np = 0; np < 2; ++np)
            ldmatrix_x4(b_tap + np * 16 * kRowBytes + (b_chunk_bytes ^ (32 * s)), b[2 * np][0], b[2 * np][1],
                        b[2 * np + 1][0], b[2 * np + 1][1]);
          const unsigned a_step = a_lane + (a_chunk_bytes ^ (32 * s));
#pragma unroll
          for (int mt = 0; mt < Tile::kMTiles; ++mt) {
            uint32_t av[4];
            ldmatrix_x4(a_step + mt * 16 * kRowBytes, av[0], av[1], av[2], av[3]);
#pragma unroll
            for (int nt = 0; nt < 4; ++nt) mma_m16n8<mma_t>(acc[mt][nt], av, b[nt]);
          }
        }
      }
    }
    if (stage != stages - 1) {
      if constexpr (kOneWindow) {
        __syncthreads();  // every warp is past this step's MMAs: the window may take the next step's copy
        issue_window(next_at, next_stage, 0);  // (more: the tile's next stage)
      }
      continue;
    }

    // Store: the accumulators (position gid / gid + 8, channels 2 tig / + 1 of each n8) to this warp's rows of the
    // staging area, then channel rows of kWarpM / kOutHalves positions to the output, half the m-tiles at a time.
    __syncthreads();  // the staging area is the transposed window, which other warps may still be reading
    const int gid = lane >> 2, tig = lane & 3;
    const scalar_t* bias = static_cast<const scalar_t*>(a.bias);
    // The bias of the tile's channels c and c + 1 (zero past C_out or without bias), for either store.
    auto bias_pair = [&](int c) {
      float2 b = make_float2(0.f, 0.f);
      if (bias != nullptr) {
        if (at.co0 + c < a.c_out) b.x = to_acc(bias[(at.co0 + c) * a.bias_stride]);
        if (at.co0 + c + 1 < a.c_out) b.y = to_acc(bias[(at.co0 + c + 1) * a.bias_stride]);
      }
      return b;
    };
    // The accumulators of half oh of the warp's m-tiles (fp32's kOutHalves; 16-bit stores whole tiles), bias added:
    // put(position, channel c, values of c and c + 1) for positions gid and gid + 8 of each m16 tile and channel pairs
    // 2 tig of each n8 fragment.
    constexpr int kHalfTiles = Tile::kMTiles / Tile::kOutHalves, kHalfWidth = Tile::kWarpM / Tile::kOutHalves;
    auto stage_half = [&](int oh, auto&& put) {
#pragma unroll
      for (int nt = 0; nt < 4; ++nt) {
        const int c = nt * 8 + 2 * tig;
        const float2 b = bias_pair(c);
#pragma unroll
        for (int m = 0; m < kHalfTiles; ++m) {
          const int mt = oh * kHalfTiles + m, position = m * 16 + gid;
          put(position, c, acc[mt][nt][0] + b.x, acc[mt][nt][1] + b.y);
          put(position + 8, c, acc[mt][nt][2] + b.x, acc[mt][nt][3] + b.y);
        }
      }
    };
    if constexpr (kOneWindow) {
      // fp32: half the warp's positions at a time (kHalfWidth, its m-tiles kHalfTiles) as [position][channel] rows
      // of kBlockN floats, 16-byte chunks XOR-swizzled by bits 0-2 of the position: a fragment store (gid: 8
      // positions, tig: 4 channel pairs, 8 bytes a lane) takes the two wavefronts its 256 bytes need, and a
      // quarter-warp's 16-byte reads (one position's 8 chunks) fall on 32 distinct banks. Lanes then store 16 bytes
      // each, 4 positions of 128 bytes a warp store.
      constexpr int kRowChunks = Tile::kBlockN / 4;
      static_assert(kRowChunks == 8 && kHalfWidth * Tile::kBlockN * 4 * Tile::kWarps <= Tile::kOutBytes,
                    "a staged position is eight 16-byte chunks, and the warps' halves fit the staging area");
      float* const staged = reinterpret_cast<float*>(xt_s) + warp * kHalfWidth * Tile::kBlockN;
      auto float_at = [](int position, int c) {
        return position * Tile::kBlockN + (((c >> 2) ^ (position & 7)) << 2) + (c & 3);
      };
      const int oy = at.y0 + warp_row;
      const int channels = min(Tile::kBlockN, a.c_out - at.co0), chunk = lane & 7;
      const int chunk_channels = min(4, channels - 4 * chunk);
      scalar_t* const row_out = static_cast<scalar_t*>(a.y) + at.n * a.y_stride[0] + at.d * a.y_stride[2] +
                                int64_t(oy) * a.y_stride[3] + at.co0 + 4 * chunk;
#pragma unroll
      for (int oh = 0; oh < Tile::kOutHalves; ++oh) {
        if (oh > 0) __syncwarp();  // every lane has read the previous half's positions
        stage_half(oh, [&](int position, int c, float v0, float v1) {
          *reinterpret_cast<float2*>(staged + float_at(position, c)) = make_float2(v0, v1);
        });
        __syncwarp();
        if (oy < a.out_h && chunk_channels > 0) {
#pragma unroll 2
          for (int position = lane >> 3; position < kHalfWidth; position += 4) {
            const int ox = at.x0 + warp_x + oh * kHalfWidth + position;
            if (ox >= a.out_w) continue;
            const float4 v = *reinterpret_cast<const float4*>(staged + float_at(position, 4 * chunk));
            float* const out = reinterpret_cast<float*>(row_out + int64_t(ox) * a.y_stride[4]);
            if (a.vector_stores && chunk_channels == 4) {
              *reinterpret_cast<float4*>(out) = v;
            } else {
              const float values[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
              for (int k = 0; k < 4; ++k)  // (unrolled: a runtime index into v put it on the stack)
                if (k < chunk_channels) out[k] = values[k];
            }
          }
        }
      }
      __syncthreads();  // every warp has read its staged outputs: the window may take the next tile's copy
      if (more) issue_window(next_at, next_stage, 0);
      continue;
    } else if constexpr (kChannelsLast) {
      // The warp's kWarpM positions x kBlockN channels as [position][channel] words (a channel pair each), 16-byte
      // chunks XOR-swizzled by bits 1-2 of the position: the fragment stores (gid: 8 positions, tig: 4 pairs) and a
      // quarter-warp's 16-byte reads (two whole positions) both fall on 32 distinct banks.
      static_assert(Tile::kBlockN == 32 && Tile::kOutHalves == 1, "a staged position is four 16-byte chunks");
      constexpr int kWords = Tile::kBlockN / 2;
      uint32_t* const staged = reinterpret_cast<uint32_t*>(xt_s + buffer * layout.window_bytes) +
                               warp * Tile::kWarpM * kWords;
      auto word_at = [](int position, int chunk) { return position * kWords + ((chunk ^ ((position >> 1) & 3)) << 2); };
      stage_half(0, [&](int position, int c, float v0, float v1) {  // (c = 8 nt + 2 tig)
        staged[word_at(position, c >> 3) + tig] = pair_bits<scalar_t>(v0, v1);
      });
      __syncwarp();
      const int oy = at.y0 + warp_row;
      if (oy < a.out_h) {
        const int channels = min(Tile::kBlockN, a.c_out - at.co0), chunk = lane & 3;
        const int chunk_channels = min(8, channels - 8 * chunk);
        scalar_t* const row_out = static_cast<scalar_t*>(a.y) + at.n * a.y_stride[0] + at.d * a.y_stride[2] +
                                  int64_t(oy) * a.y_stride[3] + at.co0 + 8 * chunk;
#pragma unroll 2
        for (int position = lane >> 2; position < Tile::kWarpM; position += 8) {
          const int ox = at.x0 + warp_x + position;
          if (ox >= a.out_w || chunk_channels <= 0) continue;
          const uint4 v = *reinterpret_cast<const uint4*>(staged + word_at(position, chunk));
          scalar_t* const out = row_out + int64_t(ox) * a.y_stride[4];
          if (a.vector_stores && chunk_channels == 8) {
            *reinterpret_cast<uint4*>(out) = v;
          } else {
            const uint32_t words[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
            for (int c = 0; c < 8; ++c)  // (unrolled: a runtime index into v put it on the stack)
              if (c < chunk_channels)
                reinterpret_cast<unsigned short*>(out)[c] = static_cast<unsigned short>(words[c / 2] >> (16 * (c % 2)));
          }
        }
      }
      continue;
    }
    scalar_t* const staged = reinterpret_cast<scalar_t*>(xt_s) + warp * Tile::kBlockN * Tile::kOutPitch;
    constexpr int kPer = kHalfWidth / 32;  // positions per lane and channel row
    static_assert(kPer * 32 == kHalfWidth && (kPer == 1 || kPer == 2), "a staged row is one or two positions a lane");
#pragma unroll
    for (int oh = 0; oh < Tile::kOutHalves; ++oh) {
      if (oh > 0) __syncwarp();  // every lane has read the previous half's rows
      stage_half(oh, [&](int position, int c, float v0, float v1) {
        staged[c * Tile::kOutPitch + position] = from_acc<scalar_t>(v0);
        staged[(c + 1) * Tile::kOutPitch + position] = from_acc<scalar_t>(v1);
      });
      __syncwarp();
      const int oy = at.y0 + warp_row;
      const int position = kPer * lane;
      const int ox = at.x0 + warp_x + oh * kHalfWidth + position;
      if (oy < a.out_h && ox < a.out_w) {
        scalar_t* out = static_cast<scalar_t*>(a.y) + at.n * a.y_stride[0] + at.d * a.y_stride[2] +
                        int64_t(oy) * a.y_stride[3] + int64_t(at.co0) * a.y_stride[1] + ox;
        const scalar_t* from = staged + position;
        const int channels = min(Tile::kBlockN, a.c_out - at.co0);
        // Channel rows a y_stride[1] apart; the lane's conditions are the same in every row.
        if (kPer == 2 && a.pair_stores && ox + 1 < a.out_w) {
          for (int c = 0; c < channels; ++c, out += a.y_stride[1], from += Tile::kOutPitch)
            *reinterpret_cast<uint32_t*>(out) = *reinterpret_cast<const uint32_t*>(from);
        } else {
          const bool second = kPer == 2 && ox + 1 < a.out_w;
          for (int c = 0; c < channels; ++c, out += a.y_stride[1], from += Tile::kOutPitch) {
            out[0] = from[0];
            if (second) out[1] = from[1];
          }
        }
      }
    }
  }
#endif
}

// Which launches the kernel can serve, and their geometry.
struct UnitStrideMmaPlan {
  bool possible = false;
  // fold: the tile is one output row of kRows x kWarpM positions, one warp per kWarpM of them, instead of kRows rows
  // of kWarpM (unit_stride_mma_folds).
  bool fold = false;
  int tile_rows = 0, tile_w = 0;
  int piece_bytes = 0, window_rows = 0, part_rows = 0, window_chunks = 0, x_shift = 0, raw_pitch = 0, smem_bytes = 0;
  bool pair_stores = false;
  // Channels-last (16-bit; fp32 under unit_stride_mma_channels_last_fp32): input and output channels innermost (the
  // kernel's kChannelsLast form); window_span positions of each window row are copied; vector_stores: 16-byte output
  // stores.
  bool channels_last = false, vector_stores = false;
  int window_span = 0;
};

// Whether one row of folded_width positions stores a larger share of the positions it computes than tiles of rows x
// width do.
bool folded_stores_more(int64_t out_h, int64_t out_w, int64_t rows, int64_t width, int64_t folded_width) {
  if (out_h < 1 || out_w < 1) return false;
  auto padded = [](int64_t n, int64_t unit) { return (n + unit - 1) / unit * unit; };
  const double rows_used = double(out_h * out_w) / double(padded(out_h, rows) * padded(out_w, width));
  const double folded_used = double(out_w) / double(padded(out_w, folded_width));
  return folded_used > rows_used;
}
// Whether the warps go side by side along x: where a tile of kRows rows would leave more of its outputs outside the
// output than a folded one (1D calls have one row, so seven of eight warps would compute nothing).
template <class Tile>
bool unit_stride_mma_folds(int64_t out_h, int64_t out_w) {
  return folded_stores_more(out_h, out_w, Tile::kRows, Tile::kWarpM, int64_t(Tile::kRows) * Tile::kWarpM);
}

// The largest dynamic shared memory a block may opt into on the current device; 0 below compute capability 8.0
// (mma.sync k16 on bf16 and cp.async need sm_80) or where the device cannot be asked.
int shared_optin_bytes() {
  int device = 0, bytes = 0, major = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, device) != cudaSuccess ||
      cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess)
    return 0;
  return major >= 8 ? bytes : 0;
}

bool aligned_to(const void* p, int bytes) { return reinterpret_cast<uintptr_t>(p) % uintptr_t(bytes) == 0; }

// TCONV_UNIT_STRIDE_MMA_CHANNELS_LAST_FP32 (development only, read once per process): unset or 1 lets fp32 (TF32)
// data whose input and output channels are innermost plan the kernel's channels-last form (kChannelsLast, one
// window); 0 (or anything else) leaves it to 16-bit data. On since run 563 (H100: its tests passed, channels-last
// L1-71 TF32 forward 3.592 -> 0.683 ms); run 564 passed them under the default, with memcheck and racecheck clean.
bool unit_stride_mma_channels_last_fp32() {
  static const bool enabled = development_switch("TCONV_UNIT_STRIDE_MMA_CHANNELS_LAST_FP32", 1) == 1;
  return enabled;
}

template <int kElemBytes>
UnitStrideMmaPlan plan_typed(const ConvTransposeParams& p, const void* input, const void* output) {
  using Tile = UnitStrideMmaTile<kElemBytes>;
  UnitStrideMmaPlan plan;
  if (p.groups != 1 || p.in_channels % Tile::kChannels != 0 || p.in_channels == 0 || p.out_channels < 1) return plan;
  for (int i = 0; i < 3; ++i)
    if (p.stride[i] != 1) return plan;
  // One D tap and no D padding: output plane d reads input plane d.
  if (p.kernel[0] != 1 || p.padding[0] != 0 || p.out_size[0] != p.in_size[0]) return plan;
  // W-contiguous lines, or (16-bit; fp32 under unit_stride_mma_channels_last_fp32) channels innermost on both sides.
  // An empty batch reads and writes nothing, and its tensors' strides may follow either layout (PyTorch calls an empty
  // tensor contiguous in every format, so a channels_last input's output comes back contiguous): it plans as lines,
  // alignment aside (run 468's failures).
  const bool empty = p.batch == 0;
  const bool lines = empty || (p.input_strides[4] == 1 && p.output_strides[4] == 1);
  plan.channels_last = !lines && (kElemBytes == 2 || unit_stride_mma_channels_last_fp32()) &&
                       p.input_strides[1] == 1 && p.output_strides[1] == 1;
  if (!lines && !plan.channels_last) return plan;
  const int64_t limits[] = {p.in_size[1], p.in_size[2], p.out_size[1], p.out_size[2], p.in_channels, p.out_channels,
                            p.kernel[1], p.kernel[2], p.dilation[1], p.dilation[2]};
  for (int64_t v : limits)
    if (v > (1 << 20)) return plan;
  if (std::abs(p.padding[1]) > (1 << 20) || std::abs(p.padding[2]) > (1 << 20)) return plan;
  // Window pieces: 16 bytes where every input row starts 16-byte aligned, else 4 where rows start 4-byte aligned
  // (fp32: any; 16-bit: even strides and an aligned start).
  const int64_t* xs = p.input_strides;
  auto rows_aligned = [&](int elems) {
    return xs[0] % elems == 0 && xs[1] % elems == 0 && xs[2] % elems == 0 && xs[3] % elems == 0 &&
           aligned_to(input, elems * kElemBytes);
  };
  // Channels-last: every position's channel run 16-byte aligned (one plane: its D stride is never used).
  auto positions_aligned = [&](const int64_t* strides, int64_t depth, const void* base, int elems) {
    return strides[0] % elems == 0 && (depth == 1 || strides[2] % elems == 0) && strides[3] % elems == 0 &&
           strides[4] % elems == 0 && aligned_to(base, elems * kElemBytes);
  };
  if (plan.channels_last) {
    if (!positions_aligned(xs, p.in_size[0], input, Tile::kChunkElems)) return plan;
    plan.piece_bytes = 16;
    plan.vector_stores = positions_aligned(p.output_strides, p.out_size[0], output, Tile::kChunkElems);
  } else if (empty || rows_aligned(Tile::kChunkElems))
    plan.piece_bytes = 16;
  else if (rows_aligned(4 / kElemBytes))
    plan.piece_bytes = 4;
  else
    return plan;
  const int64_t* ys = p.output_strides;
  plan.pair_stores = kElemBytes == 2 && ys[0] % 2 == 0 && ys[1] % 2 == 0 && ys[2] % 2 == 0 && ys[3] % 2 == 0 &&
                     aligned_to(output, 4);
  constexpr int E = Tile::kChunkElems;
  const int64_t start = p.padding[2] - (p.kernel[2] - 1) * p.dilation[2];  // window start for x0 = 0
  plan.x_shift = plan.channels_last ? 0 : int(((start % E) + E) % E);  // (channels-last copies need no W alignment)
  // The geometry of folded or row tiles; the other one where the preferred one's shared memory does not fit (a
  // folded fp32 k3x7 tile needs 289 KB).
  const int optin = shared_optin_bytes();
  auto set_geometry = [&](bool fold) {
    plan.fold = fold;
    plan.tile_rows = fold ? 1 : Tile::kRows;
    plan.tile_w = fold ? Tile::kRows * Tile::kWarpM : Tile::kWarpM;
    plan.window_rows = int(plan.tile_rows + (p.kernel[1] - 1) * p.dilation[1]);
    const int64_t span = plan.x_shift + plan.tile_w + (p.kernel[2] - 1) * p.dilation[2];
    plan.window_chunks = int((span + E - 1) / E);
    plan.window_span = int(span);
    plan.part_rows = (plan.window_rows + Tile::kRawParts - 1) / Tile::kRawParts;  // the raw buffer holds one part
    // Raw channel pitch: a part's rows plus 16 bytes, so that consecutive channels' rows start in other banks; fp32
    // rounds it up to an odd number of chunks (raw_channel_start).
    const int window_chunks_total = plan.part_rows * plan.window_chunks;
    plan.raw_pitch = (window_chunks_total + (kElemBytes == 4 && window_chunks_total % 2 == 1 ? 2 : 1)) * E;
    const UnitStrideMmaSmem smem = unit_stride_mma_smem<kElemBytes>(
        int(p.in_channels), int(p.kernel[1] * p.kernel[2]), plan.window_rows, plan.window_chunks, plan.raw_pitch,
        plan.channels_last);
    plan.smem_bytes = smem.total();
    plan.possible = plan.smem_bytes <= optin;
  };
  const bool fold = unit_stride_mma_folds<Tile>(p.out_size[1], p.out_size[2]);
  set_geometry(fold);
  if (!plan.possible) set_geometry(!fold);
  return plan;
}

UnitStrideMmaPlan plan_for(const ConvTransposeParams& p, DType dtype, bool split_tf32, const void* input,
                           const void* output) {
  if (is_16bit(dtype)) return plan_typed<2>(p, input, output);
  if (dtype == DType::kFloat32 && !split_tf32) return plan_typed<4>(p, input, output);
  return UnitStrideMmaPlan{};
}

template <typename scalar_t, int kPieceBytes, bool kChannelsLast>
cudaError_t launch_typed(const ConvTransposeParams& p, const UnitStrideMmaPlan& plan, const void* input,
                         const void* weight, const void* bias, void* output, int* tile_counter, int sm_count,
                         cudaStream_t stream) {
  using Tile = UnitStrideMmaTile<int(sizeof(scalar_t))>;
  UnitStrideMmaArgs a{};
  a.x = input;
  a.y = output;
  a.w = weight;
  a.bias = bias;
  for (int i = 0; i < 5; ++i) {
    a.x_stride[i] = p.input_strides[i];
    a.y_stride[i] = p.output_strides[i];
    a.w_stride[i] = p.weight_strides[i];
  }
  a.bias_stride = p.bias_stride;
  a.depth = int(p.out_size[0]);
  a.in_h = int(p.in_size[1]);
  a.in_w = int(p.in_size[2]);
  a.out_h = int(p.out_size[1]);
  a.out_w = int(p.out_size[2]);
  a.c_in = int(p.in_channels);
  a.c_out = int(p.out_channels);
  a.kernel_h = int(p.kernel[1]);
  a.kernel_w = int(p.kernel[2]);
  a.pad_h = int(p.padding[1]);
  a.pad_w = int(p.padding[2]);
  a.dil_h = int(p.dilation[1]);
  a.dil_w = int(p.dilation[2]);
  a.fold = plan.fold ? 1 : 0;
  a.tile_rows = plan.tile_rows;
  a.tile_w = plan.tile_w;
  a.tiles_x = int((p.out_size[2] + plan.tile_w - 1) / plan.tile_w);
  a.tiles_y = int((p.out_size[1] + plan.tile_rows - 1) / plan.tile_rows);
  const int64_t planes = p.batch * p.out_size[0];
  const int64_t co_tiles = (p.out_channels + Tile::kBlockN - 1) / Tile::kBlockN;
  a.tiles = int64_t(a.tiles_x) * a.tiles_y * planes * co_tiles;
  if (a.tiles == 0) return cudaSuccess;
  // Tile indices are 32-bit in the kernel (tile + gridDim.x included).
  if (planes > INT32_MAX || a.tiles > INT32_MAX / 2) return cudaErrorInvalidValue;
  a.planes = int(planes);
  a.window_rows = plan.window_rows;
  a.window_chunks = plan.window_chunks;
  a.x_shift = plan.x_shift;
  a.raw_channel_pitch = plan.raw_pitch;
  a.pair_stores = plan.pair_stores ? 1 : 0;
  a.row_pieces = plan.window_chunks * Tile::kChunkElems / (kPieceBytes / int(sizeof(scalar_t)));
  a.part_rows = plan.part_rows;
  a.raw_parts = (plan.window_rows + plan.part_rows - 1) / plan.part_rows;  // one where a window has one row
  a.places = plan.part_rows * a.row_pieces;
  a.copy_groups = std::max(1, Tile::kThreads / a.places);
  // Exact where n x d < 2^32: places and units are bounded by the window, which fits shared memory (< 2^14).
  a.by_row_pieces = small_divisor(a.row_pieces);
  a.by_window_chunks = small_divisor(a.window_chunks);
  a.window_span = plan.window_span;
  a.by_window_span = small_divisor(plan.window_span);
  a.vector_stores = plan.vector_stores ? 1 : 0;
  auto kernel = tconv_unit_stride_mma_kernel<scalar_t, kPieceBytes, kChannelsLast>;
  cudaError_t err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, plan.smem_bytes);
  if (err != cudaSuccess) return err;
  int resident = 0;
  err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, kernel, Tile::kThreads, plan.smem_bytes);
  if (err != cudaSuccess) return err;
  const int64_t blocks = std::min<int64_t>(a.tiles, int64_t(std::max(resident, 1)) * sm_count);
  a.tile_counter = blocks < a.tiles ? tile_counter : nullptr;  // one tile a block needs no counter
  if (a.tile_counter != nullptr) {
    err = cudaMemsetAsync(a.tile_counter, 0, sizeof(int), stream);
    if (err != cudaSuccess) return err;
  }
  kernel<<<unsigned(blocks), Tile::kThreads, plan.smem_bytes, stream>>>(a);
  return cudaGetLastError();
}

cudaError_t launch(const ConvTransposeParams& p, DType dtype, const UnitStrideMmaPlan& plan, const void* input,
                   const void* weight, const void* bias, void* output, int* tile_counter, int sm_count,
                   cudaStream_t stream) {
  if (!plan.possible) return cudaErrorInvalidValue;
  return TCONV_FLOAT_DTYPE_SWITCH(dtype, scalar_t, [&] {
    if (plan.channels_last)
      return launch_typed<scalar_t, 16, true>(p, plan, input, weight, bias, output, tile_counter, sm_count, stream);
    return plan.piece_bytes == 16
               ? launch_typed<scalar_t, 16, false>(p, plan, input, weight, bias, output, tile_counter, sm_count, stream)
               : launch_typed<scalar_t, 4, false>(p, plan, input, weight, bias, output, tile_counter, sm_count, stream);
  });
}


// ---- grad_weight (UnitStrideMmaGradWeightTile) ----

// A staged block of kChannels channels x rows x (row_chunks 16-byte chunks) positions: the cp.async copy into raw
// [channel][row][position] (raw_channel_start pitches) and the transpose to [row][position][channel], rows of 64
// bytes swizzled as the forward's window.
struct StagedRows {
  int rows, row_chunks, raw_pitch;
  int row_pieces, places, copy_groups;  // (row, piece) places per channel; kThreads / places threads per place
  SmallDivisor by_row_pieces, by_places, by_row_chunks;
};
template <int kElemBytes, int kPieceBytes>
StagedRows staged_rows(int rows, int row_chunks, int raw_pitch, int threads) {
  StagedRows s;
  s.rows = rows;
  s.row_chunks = row_chunks;
  s.raw_pitch = raw_pitch;
  s.row_pieces = row_chunks * 16 / kPieceBytes;
  s.places = rows * s.row_pieces;
  s.copy_groups = std::max(1, threads / s.places);
  s.by_row_pieces = small_divisor(s.row_pieces);
  s.by_places = small_divisor(s.places);
  s.by_row_chunks = small_divisor(s.row_chunks);
  return s;
}
__host__ __device__ __forceinline__ int staged_raw_bytes(int raw_pitch) {
  return (raw_channel_start<2>(31, raw_pitch) + raw_pitch) * 2;
}

// Copies rows row0.. and positions col0.. (col0 + piece offsets: whole pieces from a 16-byte aligned start) of
// channels [0, channels) from `base` (channel 0 of the plane), zeros outside [0, h) x [0, w) and past `channels`.
template <typename scalar_t, int kThreads, int kPieceBytes>
__device__ __forceinline__ void stage_copy(const StagedRows& g, const scalar_t* base, int64_t channel_stride,
                                           int64_t row_stride, int row0, int col0, int h, int w, int channels,
                                           unsigned raw_address, const scalar_t* any, int tid) {
  constexpr int kElem = int(sizeof(scalar_t)), kPieceElems = kPieceBytes / kElem;
  const int copy_group = small_div(tid, g.by_places);
  if (copy_group >= g.copy_groups) return;
  const int positions = g.row_chunks * (16 / kElem);
  for (int place = tid - copy_group * g.places; place < g.places; place += kThreads) {
    const int r = small_div(place, g.by_row_pieces), piece = place - r * g.row_pieces;
    const int iy = row0 + r, ix = col0 + piece * kPieceElems;
    const int inside = iy >= 0 && iy < h && ix >= 0 ? min(w - ix, kPieceElems) : 0;
    const bool valid = inside > 0;
    const scalar_t* src = valid ? base + iy * row_stride + ix + copy_group * channel_stride : any;
    const int64_t src_step = valid ? g.copy_groups * channel_stride : 0;
    const unsigned dst = raw_address + unsigned((r * positions + piece * kPieceElems) * kElem);
    for (int channel = copy_group; channel < 32; channel += g.copy_groups, src += src_step)
      copy_piece<kPieceBytes>(dst + raw_channel_start<kElem>(channel, g.raw_pitch) * kElem, src,
                              valid && channel < channels ? inside * kElem : 0);
  }
}

// Raw [channel][row][position] -> [row][position][channel] (16-bit: 32 channels = 4 chunks per position), as the
// forward's transpose_window.
template <int kThreads>
__device__ __forceinline__ void stage_transpose(const StagedRows& g, const uint16_t* raw, unsigned char* out) {
  constexpr int E = 8, PC = 4;
  const int positions = g.row_chunks * E;
  const int units = g.rows * g.row_chunks * PC;
  for (int u = threadIdx.x; u < units; u += kThreads) {
    const int group = u % PC, rest = u / PC;
    const int r = small_div(rest, g.by_row_chunks), chunk = rest - r * g.row_chunks;
    const uint16_t* const from = raw + raw_channel_start<2>(group * E, g.raw_pitch) + r * positions + chunk * E;
    const int position0 = r * positions + chunk * E;
    // Odd units store their four positions in the order 1 0 3 2, so the two units of a quarter-warp's 16-byte stores
    // fill both 64-byte halves of a bank line: in order they took twice the wavefronts (run 298's ncu; modelled
    // offline: L1-71's window 432 -> 216 store wavefronts per tile, reads unchanged).
    const int odd = rest & 1;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int half = h ^ (group & 1);
      uint2 v[E];
#pragma unroll
      for (int c = 0; c < E; ++c) v[c] = *reinterpret_cast<const uint2*>(from + c * g.raw_pitch + 4 * half);
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const uint32_t selector = (j % 2) ^ odd ? 0x7632u : 0x5410u;
        uint32_t word[4];
#pragma unroll
        for (int k = 0; k < 4; ++k) {
          const uint32_t lo = j / 2 ? v[2 * k].y : v[2 * k].x, hi = j / 2 ? v[2 * k + 1].y : v[2 * k + 1].x;
          word[k] = __byte_perm(lo, hi, selector);
        }
        const int position = position0 + 4 * half + (j ^ odd);
        *reinterpret_cast<uint4*>(out + (position * PC + swizzle_chunk(position, group, PC)) * 16) =
            make_uint4(word[0], word[1], word[2], word[3]);
      }
    }
  }
}

struct UnitStrideMmaGradWeightArgs {
  const void* x;   // scalar_t [N, C_in, D, H_in, W_in], W contiguous
  const void* dy;  // scalar_t [N, C_out, D, H_out, W_out], W contiguous
  float* partial;  // fp32 [splits][taps][C_in][C_out]
  int64_t x_stride[5], dy_stride[5];
  int depth, in_h, in_w, out_h, out_w;
  int c_in, c_out, kernel_h, kernel_w, pad_h, pad_w, dil_h, dil_w, taps;
  int tiles_x, tiles_y, spatial_tiles, tile_rows, tile_w;
  int stages, jobs, splits;  // jobs = stages x C_out tiles; block b: job b % jobs, split b / jobs
  int x_shift;               // the window's start minus its 16-byte aligned start, in positions
  StagedRows window, grad;   // the input window (with the taps' halo, transposed) and the grad_output tile (raw)
  int window_bytes, window_raw_bytes;  // shared layout: transposed window, window raw, grad raw
};

// Where spatial tile t of a grad_weight split lies: its first output position and row, its batch and depth index.
struct GradWeightTileWhere {
  int x0, y0, n, d;
};
__device__ __forceinline__ GradWeightTileWhere grad_weight_tile_where(const UnitStrideMmaGradWeightArgs& a, int t) {
  GradWeightTileWhere w;
  w.x0 = (t % a.tiles_x) * a.tile_w;
  t /= a.tiles_x;
  w.y0 = (t % a.tiles_y) * a.tile_rows;
  const int plane = t / a.tiles_y;
  w.n = plane / a.depth;
  w.d = plane % a.depth;
  return w;
}
// The cp.async copy of a tile's input window (32 channels from ci0, the taps' halo, raw), as one commit group.
template <typename scalar_t, int kThreads, int kXPieceBytes>
__device__ __forceinline__ void issue_grad_weight_window(const UnitStrideMmaGradWeightArgs& a,
                                                         const GradWeightTileWhere& w, int ci0, unsigned x_raw_address,
                                                         int tid) {
  const scalar_t* const x = static_cast<const scalar_t*>(a.x);
  stage_copy<scalar_t, kThreads, kXPieceBytes>(
      a.window, x + w.n * a.x_stride[0] + w.d * a.x_stride[2] + int64_t(ci0) * a.x_stride[1], a.x_stride[1],
      a.x_stride[3], w.y0 + a.pad_h - (a.kernel_h - 1) * a.dil_h,
      w.x0 + a.pad_w - (a.kernel_w - 1) * a.dil_w - a.x_shift, a.in_h, a.in_w, UnitStrideMmaGradWeightTile::kChannels,
      x_raw_address, x, tid);
  copy_commit();
}

// kGroupTaps: the most taps a warp holds (16 accumulators each); kFewGroupTaps (at most 12 taps) keeps the kernel
// within 128 registers, so two blocks share an SM and one's transpose and copies overlap the other's MMAs.
template <typename scalar_t, int kXPieceBytes, int kDyPieceBytes, int kGroupTaps>
__global__ void __launch_bounds__(UnitStrideMmaGradWeightTile::kThreads, kGroupTaps <= UnitStrideMmaGradWeightTile::kFewGroupTaps ? 2 : 1)
    tconv_unit_stride_mma_grad_weight_kernel(const UnitStrideMmaGradWeightArgs a) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  using G = UnitStrideMmaGradWeightTile;
  constexpr int PC = 4, kRowBytes = PC * 16;
  extern __shared__ __align__(16) unsigned char smem[];
  unsigned char* const xt_s = smem;
  uint16_t* const x_raw = reinterpret_cast<uint16_t*>(smem + a.window_bytes);
  uint16_t* const dy_raw = reinterpret_cast<uint16_t*>(smem + a.window_bytes + a.window_raw_bytes);
  const unsigned xt_address = static_cast<unsigned>(__cvta_generic_to_shared(xt_s));
  const unsigned x_raw_address = static_cast<unsigned>(__cvta_generic_to_shared(x_raw));
  const unsigned dy_raw_address = static_cast<unsigned>(__cvta_generic_to_shared(dy_raw));
  const scalar_t* const dy = static_cast<const scalar_t*>(a.dy);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int job = int(blockIdx.x % unsigned(a.jobs)), split = int(blockIdx.x / unsigned(a.jobs));
  const int stage = job % a.stages, co0 = job / a.stages * G::kBlockN;
  const int ci0 = stage * G::kChannels;
  const int window_positions = a.window.row_chunks * 8;

  using Where = GradWeightTileWhere;
  auto where = [&](int t) { return grad_weight_tile_where(a, t); };
  auto issue_window = [&](const Where& w) {
    issue_grad_weight_window<scalar_t, G::kThreads, kXPieceBytes>(a, w, ci0, x_raw_address, int(threadIdx.x));
  };
  auto issue_grad = [&](const Where& w) {
    stage_copy<scalar_t, G::kThreads, kDyPieceBytes>(
        a.grad, dy + w.n * a.dy_stride[0] + w.d * a.dy_stride[2] + int64_t(co0) * a.dy_stride[1], a.dy_stride[1],
        a.dy_stride[3], w.y0, w.x0, a.out_h, a.out_w, a.c_out - co0, dy_raw_address, dy, int(threadIdx.x));
    copy_commit();
  };

  // This warp: C_in half mt, taps group + kTapGroups i (i < my_taps); per tap its window offset in positions.
  const int mt = warp & 1, group = warp >> 1;
  const int my_taps = a.taps > group ? (a.taps - 1 - group) / G::kTapGroups + 1 : 0;
  int tap_offset[kGroupTaps];
#pragma unroll
  for (int i = 0; i < kGroupTaps; ++i) {
    const int tap = group + G::kTapGroups * i, ky = tap / a.kernel_w, kx = tap % a.kernel_w;
    tap_offset[i] = (a.kernel_h - 1 - ky) * a.dil_h * window_positions + (a.kernel_w - 1 - kx) * a.dil_w + a.x_shift;
  }
  float acc[kGroupTaps][4][4];
#pragma unroll
  for (int i = 0; i < kGroupTaps; ++i)
#pragma unroll
    for (int nt = 0; nt < 4; ++nt)
#pragma unroll
      for (int e = 0; e < 4; ++e) acc[i][nt][e] = 0.f;

  // A (M = C_in, K = positions), ldmatrix.trans from the transposed window: rows = positions (lane % 8, + 8 for
  // lanes 16-31), chunk = C_in group 2 mt (+ 1 for lanes 8-15 and 24-31). B (K = positions, N = C_out), plain
  // ldmatrix from the raw grad tile [channel][row][position]: rows = channels 16 np + lane % 8 (+ 8 for lanes 16-31),
  // positions + 8 for lanes 8-15 and 24-31 (channel rows 16-byte aligned: pitch and raw_channel_start's skew).
  const int a_row = (lane & 7) + ((lane >> 4) << 3), a_chunk = 2 * mt + ((lane >> 3) & 1);
  unsigned b_lane[2];
#pragma unroll
  for (int np = 0; np < 2; ++np)
    b_lane[np] = dy_raw_address +
                 unsigned(raw_channel_start<2>(16 * np + ((lane >> 4) << 3) + (lane & 7), a.grad.raw_pitch) +
                          (((lane >> 3) & 1) << 3)) * 2u;
  int t = split;
  if (t < a.spatial_tiles) {
    const Where w = where(t);
    issue_window(w);
    issue_grad(w);
  }
  for (; t < a.spatial_tiles; t += a.splits) {
    const int next = t + a.splits;
    const Where w_next = where(next < a.spatial_tiles ? next : t);
    copy_wait_all();
    __syncthreads();  // this tile's copies landed for every thread
    stage_transpose<G::kThreads>(a.window, x_raw, xt_s);
    __syncthreads();  // the window is transposed; its raw copy is free
    if (next < a.spatial_tiles) issue_window(w_next);
    if (my_taps > 0) {
      static_assert(G::kWidth % 64 == 0 && G::kFoldedWidth % 64 == 0, "tile rows of whole four-step groups");
      // Per row r, each tap's A address once: K steps of 16 positions move it by 16 rows of the transposed window,
      // which keep the swizzle term (bits 1-2 of the row), so the steps take immediate offsets (no division or
      // address arithmetic per K step; tile_w is 64 or 256, so whole groups of four steps).
      for (int r = 0; r < a.tile_rows; ++r) {
        unsigned a_address[kGroupTaps];
#pragma unroll
        for (int i = 0; i < kGroupTaps; ++i) {
          const int position = r * window_positions + a_row + tap_offset[i];
          a_address[i] = xt_address + position * kRowBytes + (swizzle_chunk(position, a_chunk, PC) << 4);
        }
        unsigned b_row[2];
#pragma unroll
        for (int np = 0; np < 2; ++np) b_row[np] = b_lane[np] + unsigned(r * a.tile_w) * 2u;
        for (int x4 = 0; x4 < a.tile_w; x4 += 64) {
#pragma unroll
          for (int step = 0; step < 4; ++step) {
            uint32_t b[4][2];
#pragma unroll
            for (int np = 0; np < 2; ++np)
              ldmatrix_x4(b_row[np] + unsigned(step * 16 * 2), b[2 * np][0], b[2 * np][1], b[2 * np + 1][0],
                          b[2 * np + 1][1]);
#pragma unroll
            for (int i = 0; i < kGroupTaps; ++i) {
              if (i < my_taps) {
                uint32_t av[4];
                ldmatrix_x4_trans(a_address[i] + unsigned(step * 16 * kRowBytes), av[0], av[1], av[2], av[3]);
#pragma unroll
                for (int nt = 0; nt < 4; ++nt) mma_m16n8<scalar_t>(acc[i][nt], av, b[nt]);
              }
            }
          }
#pragma unroll
          for (int np = 0; np < 2; ++np) b_row[np] += 64u * 2u;
#pragma unroll
          for (int i = 0; i < kGroupTaps; ++i) a_address[i] += 64u * kRowBytes;
        }
      }
    }
    __syncthreads();  // every warp is done with the grad tile and the transposed window
    if (next < a.spatial_tiles) issue_grad(w_next);
  }

  // This split's partial sums: C_in ci0 + 16 mt + gid (+ 8), C_out co0 + 8 nt + 2 tig (+ 1), tap-major so that a
  // lane's two C_out neighbours are one 8-byte store and a quad's four are a whole 32-byte sector (C_out-major with
  // the taps innermost, run 298's ncu counted 4 of 32 bytes used per stored sector).
  const int gid = lane >> 2, tig = lane & 3;
  float* const out = a.partial + int64_t(split) * a.c_in * a.c_out * a.taps;
  const bool pairs = a.c_out % 2 == 0;
#pragma unroll
  for (int i = 0; i < kGroupTaps; ++i) {
    if (i >= my_taps) break;
    const int tap = group + G::kTapGroups * i;
#pragma unroll
    for (int nt = 0; nt < 4; ++nt)
#pragma unroll
      for (int e = 0; e < 4; e += 2) {
        const int ci = ci0 + 16 * mt + gid + (e >= 2 ? 8 : 0), co = co0 + 8 * nt + 2 * tig;
        float* const at = out + (int64_t(tap) * a.c_in + ci) * a.c_out + co;
        if (pairs && co < a.c_out) {
          *reinterpret_cast<float2*>(at) = make_float2(acc[i][nt][e], acc[i][nt][e + 1]);
        } else {
          if (co < a.c_out) at[0] = acc[i][nt][e];
          if (co + 1 < a.c_out) at[1] = acc[i][nt][e + 1];
        }
      }
  }
#endif
}

// grad_weight[ci][co][0][ky][kx] = the splits' partial sums, added in split order.
template <typename scalar_t>
__global__ void tconv_unit_stride_mma_grad_weight_sum(const float* partial, int splits, int c_in, int c_out, int taps,
                                                      int kernel_w, int64_t ws0, int64_t ws1, int64_t ws3,
                                                      int64_t ws4, scalar_t* grad_weight) {
  const int64_t elems = int64_t(c_in) * c_out * taps;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < elems; i += int64_t(gridDim.x) * blockDim.x) {
    float sum = 0.f;
    for (int s = 0; s < splits; ++s) sum += partial[s * elems + i];
    const int co = int(i % c_out);
    const int64_t rest = i / c_out;
    const int ci = int(rest % c_in), tap = int(rest / c_in);
    grad_weight[ci * ws0 + co * ws1 + (tap / kernel_w) * ws3 + (tap % kernel_w) * ws4] = from_acc<scalar_t>(sum);
  }
}

// The splits' partials summed into grad_weight (after either grad_weight kernel, on the same stream).
template <typename scalar_t>
cudaError_t launch_grad_weight_sum(const ConvTransposeParams& p, const UnitStrideMmaGradWeightArgs& a,
                                   void* grad_weight, cudaStream_t stream) {
  const int64_t elems = p.in_channels * p.out_channels * a.taps;
  const int sum_blocks = int(std::min<int64_t>((elems + 255) / 256, 4096));
  tconv_unit_stride_mma_grad_weight_sum<scalar_t><<<sum_blocks, 256, 0, stream>>>(
      a.partial, a.splits, a.c_in, a.c_out, a.taps, a.kernel_w, p.weight_strides[0], p.weight_strides[1],
      p.weight_strides[3], p.weight_strides[4], static_cast<scalar_t*>(grad_weight));
  return cudaGetLastError();
}

struct UnitStrideMmaGradWeightPlan {
  bool possible = false;
  int x_piece_bytes = 0, dy_piece_bytes = 0, x_shift = 0;
  int tile_rows = 0, tile_w = 0, window_rows = 0, window_chunks = 0, window_raw_pitch = 0, grad_raw_pitch = 0;
  int group_taps = 0, blocks_per_sm = 0, smem_bytes = 0;
};

// Shared bytes: the transposed window, then the raw window and the raw grad tile.
UnitStrideMmaGradWeightPlan grad_weight_plan(const ConvTransposeParams& p, DType dtype, const void* input,
                                             const void* grad_output) {
  using G = UnitStrideMmaGradWeightTile;
  UnitStrideMmaGradWeightPlan plan;
  const int64_t taps = p.kernel[1] * p.kernel[2];
  if (!is_16bit(dtype) || taps > G::kMaxTaps) return plan;
  // The forward's conditions on the input (and W-contiguous grad_output), its piece size and window shift.
  const UnitStrideMmaPlan forward = plan_typed<2>(p, input, grad_output);
  if (!forward.possible || forward.channels_last) return plan;  // (its staging reads W-contiguous lines)
  const int64_t* ds = p.output_strides;
  auto rows_aligned = [&](int elems) {
    return ds[0] % elems == 0 && ds[1] % elems == 0 && ds[2] % elems == 0 && ds[3] % elems == 0 &&
           aligned_to(grad_output, elems * 2);
  };
  plan.dy_piece_bytes = rows_aligned(8) ? 16 : rows_aligned(2) ? 4 : 0;
  if (plan.dy_piece_bytes == 0) return plan;
  plan.x_piece_bytes = forward.piece_bytes;
  plan.x_shift = forward.x_shift;
  // Row tiles of kRows x kWidth, or one row of kFoldedWidth where that stores a larger share of what it computes.
  const bool fold = folded_stores_more(p.out_size[1], p.out_size[2], G::kRows, G::kWidth, G::kFoldedWidth);
  plan.tile_rows = fold ? 1 : G::kRows;
  plan.tile_w = fold ? G::kFoldedWidth : G::kWidth;
  plan.window_rows = int(plan.tile_rows + (p.kernel[1] - 1) * p.dilation[1]);
  plan.window_chunks = int((plan.x_shift + plan.tile_w + (p.kernel[2] - 1) * p.dilation[2] + 7) / 8);
  plan.window_raw_pitch = plan.window_rows * plan.window_chunks * 8 + 8;
  plan.grad_raw_pitch = plan.tile_rows * plan.tile_w + 8;
  plan.group_taps = taps <= G::kTapGroups * G::kFewGroupTaps ? G::kFewGroupTaps : G::kGroupTaps;
  const int64_t smem = int64_t(plan.window_rows) * plan.window_chunks * 8 * 64 +
                       staged_raw_bytes(plan.window_raw_pitch) + staged_raw_bytes(plan.grad_raw_pitch);
  if (smem > shared_optin_bytes()) return plan;
  plan.smem_bytes = int(smem);
  plan.blocks_per_sm = plan.group_taps == G::kFewGroupTaps && 2 * smem <= G::kSmBytesForTwo ? 2 : 1;
  plan.possible = true;
  return plan;
}

int64_t grad_weight_splits(const ConvTransposeParams& p, const UnitStrideMmaGradWeightPlan& plan, int sm_count,
                           int64_t max_workspace_elems) {
  using G = UnitStrideMmaGradWeightTile;
  const int64_t spatial = (p.out_size[2] + plan.tile_w - 1) / plan.tile_w *
                          ((p.out_size[1] + plan.tile_rows - 1) / plan.tile_rows) * p.batch * p.out_size[0];
  const int64_t jobs = p.in_channels / G::kChannels * ((p.out_channels + G::kBlockN - 1) / G::kBlockN);
  const int64_t per_split = p.in_channels * p.out_channels * p.kernel[1] * p.kernel[2];
  // At most the resident blocks: run 303's ncu of fam06 (8 jobs, one block per SM) found 136 blocks on 132 SMs, the
  // last four alone in a second wave (SMs active 49 % of the kernel's cycles).
  int64_t splits = std::max<int64_t>(1, int64_t(sm_count) * plan.blocks_per_sm / jobs);
  splits = std::min<int64_t>(splits, std::max<int64_t>(1, max_workspace_elems / per_split));
  return std::max<int64_t>(1, std::min<int64_t>(splits, spatial));
}

// The arguments both grad_weight kernels share, but the window's staging (piece size and block size are the
// kernel's): C_out tiles of c_out_tile, 32-channel C_in stages. False where the grid's counts overflow an int.
bool fill_grad_weight_args(UnitStrideMmaGradWeightArgs& a, const ConvTransposeParams& p,
                           const UnitStrideMmaGradWeightPlan& plan, const void* input, const void* grad_output,
                           float* workspace, int64_t splits, int c_out_tile) {
  a.x = input;
  a.dy = grad_output;
  a.partial = workspace;
  for (int i = 0; i < 5; ++i) {
    a.x_stride[i] = p.input_strides[i];
    a.dy_stride[i] = p.output_strides[i];
  }
  a.depth = int(p.out_size[0]);
  a.in_h = int(p.in_size[1]);
  a.in_w = int(p.in_size[2]);
  a.out_h = int(p.out_size[1]);
  a.out_w = int(p.out_size[2]);
  a.c_in = int(p.in_channels);
  a.c_out = int(p.out_channels);
  a.kernel_h = int(p.kernel[1]);
  a.kernel_w = int(p.kernel[2]);
  a.taps = a.kernel_h * a.kernel_w;
  a.pad_h = int(p.padding[1]);
  a.pad_w = int(p.padding[2]);
  a.dil_h = int(p.dilation[1]);
  a.dil_w = int(p.dilation[2]);
  a.tile_rows = plan.tile_rows;
  a.tile_w = plan.tile_w;
  a.tiles_x = int((p.out_size[2] + plan.tile_w - 1) / plan.tile_w);
  a.tiles_y = int((p.out_size[1] + plan.tile_rows - 1) / plan.tile_rows);
  const int64_t spatial = int64_t(a.tiles_x) * a.tiles_y * p.batch * p.out_size[0];
  a.stages = a.c_in / UnitStrideMmaGradWeightTile::kChannels;
  a.jobs = a.stages * ((a.c_out + c_out_tile - 1) / c_out_tile);
  if (spatial > INT32_MAX / 2 || int64_t(a.jobs) * splits > INT32_MAX || p.batch * p.out_size[0] > INT32_MAX)
    return false;
  a.spatial_tiles = int(spatial);
  a.splits = int(splits);
  a.x_shift = plan.x_shift;
  return true;
}

template <typename scalar_t, int kXPieceBytes, int kDyPieceBytes, int kGroupTaps>
cudaError_t launch_grad_weight_typed(const ConvTransposeParams& p, const UnitStrideMmaGradWeightPlan& plan,
                                     const void* input, const void* grad_output, void* grad_weight, float* workspace,
                                     int64_t splits, cudaStream_t stream) {
  using G = UnitStrideMmaGradWeightTile;
  UnitStrideMmaGradWeightArgs a{};
  if (!fill_grad_weight_args(a, p, plan, input, grad_output, workspace, splits, G::kBlockN))
    return cudaErrorInvalidValue;
  const int64_t blocks = int64_t(a.jobs) * splits;
  a.window = staged_rows<2, kXPieceBytes>(plan.window_rows, plan.window_chunks, plan.window_raw_pitch, G::kThreads);
  a.grad = staged_rows<2, kDyPieceBytes>(plan.tile_rows, plan.tile_w / 8, plan.grad_raw_pitch, G::kThreads);
  a.window_bytes = plan.window_rows * plan.window_chunks * 8 * 64;
  a.window_raw_bytes = staged_raw_bytes(plan.window_raw_pitch);
  auto kernel = tconv_unit_stride_mma_grad_weight_kernel<scalar_t, kXPieceBytes, kDyPieceBytes, kGroupTaps>;
  cudaError_t err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, plan.smem_bytes);
  if (err != cudaSuccess) return err;
  kernel<<<unsigned(blocks), G::kThreads, plan.smem_bytes, stream>>>(a);
  err = cudaGetLastError();
  if (err != cudaSuccess) return err;
  return launch_grad_weight_sum<scalar_t>(p, a, grad_weight, stream);
}


// ---- The unit-stride grad_weight on wgmma (UnitStrideWgmmaGradWeightTile, igemm_config.h; sm_90a) ----

// acc += A (64 x 16, K-major) x B (16 x 32, MN-major: imm-trans-b 1), both by descriptor, fp32 accumulators.
template <typename scalar_t>
__device__ __forceinline__ void wgmma_m64n32k16_b_mn_major(float (&d)[16], uint64_t a, uint64_t b) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define TCONV_UNIT_WGMMA_N32(KIND)                                                                                   \
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"                                                           \
               "wgmma.mma_async.sync.aligned.m64n32k16.f32." KIND                                                 \
               " {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15}, %16, %17, p, 1, 1, 0, 1;\n}\n" \
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),   \
                 "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]),         \
                 "+f"(d[15])                                                                                      \
               : "l"(a), "l"(b))
  if constexpr (std::is_same_v<scalar_t, __half>)
    TCONV_UNIT_WGMMA_N32("f16.f16");
  else
    TCONV_UNIT_WGMMA_N32("bf16.bf16");
#undef TCONV_UNIT_WGMMA_N32
#else
  (void)d, (void)a, (void)b;
#endif
}

// The same with A (64 x 16) from registers, as the m16n8k16 A fragment of each warp's 16 rows (ldmatrix.x4).
template <typename scalar_t>
__device__ __forceinline__ void wgmma_m64n32k16_a_registers(float (&d)[16], const uint32_t (&a)[4], uint64_t b) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define TCONV_UNIT_WGMMA_N32_RS(KIND)                                                                                \
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"                                                           \
               "wgmma.mma_async.sync.aligned.m64n32k16.f32." KIND                                                 \
               " {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15},"                          \
               " {%16, %17, %18, %19}, %20, p, 1, 1, 1;\n}\n"                                                        \
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),   \
                 "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]),         \
                 "+f"(d[15])                                                                                      \
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b))
  if constexpr (std::is_same_v<scalar_t, __half>)
    TCONV_UNIT_WGMMA_N32_RS("f16.f16");
  else
    TCONV_UNIT_WGMMA_N32_RS("bf16.bf16");
#undef TCONV_UNIT_WGMMA_N32_RS
#else
  (void)d, (void)a, (void)b;
#endif
}

struct UnitStrideWgmmaGradWeightArgs {
  UnitStrideMmaGradWeightArgs g;  // jobs = C_in stages x C_out tiles of kBlockM
  int tile_w_log2;
  int window_total;               // window rows x positions: one 8-channel group's positions in the transposed window
  int window_pairs;               // window_total / 2
  SmallDivisor by_window_pairs;
  int xt_bytes;                   // one transposed window: 4 groups x window_total x 16 bytes
};

// The grad_output tile (64 C_out from co0, 256 positions) straight into K-major core matrices [C_out / 8][position /
// 8][8 C_out][8 positions] at `base`: a piece's 16 (or 4) bytes land where A reads them, consecutive threads on
// consecutive 16-byte rows of a core; zeros past C_out and the tensor's edges. One commit group.
template <typename scalar_t, int kDyPieceBytes, int kThreads>
__device__ __forceinline__ void copy_grad_tile_k_major(const UnitStrideWgmmaGradWeightArgs& w,
                                                       const GradWeightTileWhere& wh, int co0, unsigned base, int tid) {
  using G = UnitStrideWgmmaGradWeightTile;
  constexpr int kOctets = G::kPositions / 8, kDyPieceElems = kDyPieceBytes / 2;
  constexpr int kPairs = 8 / kDyPieceElems;  // pieces per core row
  constexpr int kPieces = G::kBlockM * G::kPositions / kDyPieceElems;
  const UnitStrideMmaGradWeightArgs& a = w.g;
  const scalar_t* const dy = static_cast<const scalar_t*>(a.dy);
  const scalar_t* const plane = dy + wh.n * a.dy_stride[0] + wh.d * a.dy_stride[2];
  constexpr int kGroupPieces = 8 * kPairs * kOctets;  // the pieces of 8 C_out
  if constexpr (kGroupPieces % kThreads == 0 && kThreads % (8 * kPairs) == 0) {
    // A thread's pieces sit at the same positions in every 8 C_out: a position's offset and size once, a C_out's
    // offset once a tile, then an add, a select and the copy a piece, where the general loop's index math (some 30
    // instructions by the source) repeats for each: the warp-specialized kernel's producer warpgroup alone copies
    // the grad tile, 64 four-byte pieces a thread, and in run 427 the MMA warps waited for it (ncu: barrier stalls
    // 5.8 an issue, tensor pipe 30 %).
    constexpr int kPer = kGroupPieces / kThreads, kCoGroups = G::kBlockM / 8;
    const int pair = tid % kPairs, co_lo = (tid / kPairs) & 7;
    int co_offset[kCoGroups];  // -1 past C_out; the offsets are below 2^31: wgmma_grad_weight_plan
#pragma unroll
    for (int co_hi = 0; co_hi < kCoGroups; ++co_hi) {
      const int co = co0 + co_hi * 8 + co_lo;
      co_offset[co_hi] = co < a.c_out ? co * int(a.dy_stride[1]) : -1;
    }
    const unsigned first = base + unsigned(((tid / (8 * kPairs)) * 8 + co_lo) * 16 + pair * kDyPieceBytes);
#pragma unroll
    for (int i = 0; i < kPer; ++i) {
      const int k = (tid + kThreads * i) / (8 * kPairs) * 8 + pair * kDyPieceElems;
      const int oy = wh.y0 + (k >> w.tile_w_log2), ox = wh.x0 + (k & (a.tile_w - 1));
      const bool inside = oy < a.out_h && ox < a.out_w;
      const int offset = inside ? oy * int(a.dy_stride[3]) + ox : 0;  // rows past out_h: not formed, may not fit
      const int bytes = inside ? min(a.out_w - ox, kDyPieceElems) * 2 : 0;
#pragma unroll
      for (int co_hi = 0; co_hi < kCoGroups; ++co_hi) {
        const bool valid = inside && co_offset[co_hi] >= 0;
        copy_piece<kDyPieceBytes>(first + unsigned((co_hi * kOctets * 8 + i * kThreads / kPairs) * 16),
                                  valid ? plane + (co_offset[co_hi] + offset) : dy, valid ? bytes : 0);
      }
    }
  } else {
    for (int e = tid; e < kPieces; e += kThreads) {
      const int pair = e % kPairs, co_lo = (e / kPairs) & 7, octet = (e / (8 * kPairs)) % kOctets;
      const int co_hi = e / (8 * kPairs * kOctets);
      const int k = octet * 8 + pair * kDyPieceElems;
      const int oy = wh.y0 + (k >> w.tile_w_log2), ox = wh.x0 + (k & (a.tile_w - 1)), co = co0 + co_hi * 8 + co_lo;
      const bool valid = co < a.c_out && oy < a.out_h && ox < a.out_w;
      const scalar_t* const src = valid ? plane + co * a.dy_stride[1] + oy * a.dy_stride[3] + ox : dy;
      const int bytes = valid ? min(a.out_w - ox, kDyPieceElems) * 2 : 0;
      copy_piece<kDyPieceBytes>(base + unsigned(((co_hi * kOctets + octet) * 8 + co_lo) * 16 + pair * kDyPieceBytes),
                                src, bytes);
    }
  }
  copy_commit();
}
// The raw window [channel][row][position] -> [8-channel group][row][position][8 channels] at `out`: per unit two
// positions of one group, eight 4-byte reads (consecutive lanes on consecutive words) and two 16-byte stores.
template <int kThreads>
__device__ __forceinline__ void transpose_window_mn_major(const UnitStrideWgmmaGradWeightArgs& w, const uint16_t* x_raw,
                                                          unsigned char* out, int tid) {
  const int pitch = w.g.window.raw_pitch;
  for (int u = tid; u < 4 * w.window_pairs; u += kThreads) {
    const int group = small_div(u, w.by_window_pairs), q = u - group * w.window_pairs;
    const uint16_t* const from = x_raw + raw_channel_start<2>(8 * group, pitch) + 2 * q;
    uint32_t v[8];
#pragma unroll
    for (int c = 0; c < 8; ++c) v[c] = *reinterpret_cast<const uint32_t*>(from + c * pitch);
    uint4 lo, hi;
    lo.x = __byte_perm(v[0], v[1], 0x5410);
    lo.y = __byte_perm(v[2], v[3], 0x5410);
    lo.z = __byte_perm(v[4], v[5], 0x5410);
    lo.w = __byte_perm(v[6], v[7], 0x5410);
    hi.x = __byte_perm(v[0], v[1], 0x7632);
    hi.y = __byte_perm(v[2], v[3], 0x7632);
    hi.z = __byte_perm(v[4], v[5], 0x7632);
    hi.w = __byte_perm(v[6], v[7], 0x7632);
    uint4* const to = reinterpret_cast<uint4*>(out + (group * w.window_total + 2 * q) * 16);
    to[0] = lo;
    to[1] = hi;
  }
}

// One MMA warpgroup's taps (g, g + 3, ... of the block's three; past its own, tap 0 again, not stored): their B
// starts in the transposed window, its two descriptors (wgmma_sm90.h), and kWgTaps m64n32 fp32 accumulators.
template <typename scalar_t, int kWgTaps>
struct WgmmaTapGroup {
  int my_taps, window_positions;
  int tap_offset[kWgTaps];  // in positions (16-byte units)
  WgmmaDescriptor a_desc, b_desc;
  float acc[kWgTaps][16];

  __device__ __forceinline__ void init(const UnitStrideWgmmaGradWeightArgs& w, int wg, unsigned xt_address,
                                       unsigned dy_address) {
    using G = UnitStrideWgmmaGradWeightTile;
    const UnitStrideMmaGradWeightArgs& a = w.g;
    window_positions = a.window.row_chunks * 8;
    my_taps = a.taps > wg ? (a.taps - 1 - wg) / G::kWarpgroups + 1 : 0;
#pragma unroll
    for (int i = 0; i < kWgTaps; ++i) {
      const int tap = i < my_taps ? wg + G::kWarpgroups * i : 0, ky = tap / a.kernel_w, kx = tap % a.kernel_w;
      tap_offset[i] = (a.kernel_h - 1 - ky) * a.dil_h * window_positions + (a.kernel_w - 1 - kx) * a.dil_w + a.x_shift;
    }
    // A: leading byte offset = the next 8 positions (one core), stride = the next 8 C_out (kPositions / 8 cores).
    // B: the next 8 positions, and the next 8-channel group (window_total positions).
    a_desc = wgmma_descriptor_at_address(dy_address, 128, G::kPositions / 8 * 128);
    b_desc = wgmma_descriptor_at_address(xt_address, 128, w.window_total * 16);
#pragma unroll
    for (int i = 0; i < kWgTaps; ++i)
#pragma unroll
      for (int e = 0; e < 16; ++e) acc[i][e] = 0.f;
  }
  // K step k0's first window row (position) in B: the tile's rows lie window_positions apart in the window.
  __device__ __forceinline__ uint32_t window_row(const UnitStrideWgmmaGradWeightArgs& w, int k0) const {
    return uint32_t((k0 >> w.tile_w_log2) * window_positions + (k0 & (w.g.tile_w - 1)));
  }
  // All K steps of a tile (window buffer and grad tile `xt_units` and `dy_units` 16-byte units from the first
  // ones), as one wgmma group.
  __device__ __forceinline__ void issue(const UnitStrideWgmmaGradWeightArgs& w, int xt_units, int dy_units) {
    const WgmmaDescriptor a_tile{a_desc.lo + uint32_t(dy_units), a_desc.hi};
    const WgmmaDescriptor b_tile{b_desc.lo + uint32_t(xt_units), b_desc.hi};
    wgmma_fence();
#pragma unroll
    for (int k0 = 0; k0 < UnitStrideWgmmaGradWeightTile::kPositions; k0 += 16) {
      const uint32_t b_row = window_row(w, k0);
#pragma unroll
      for (int i = 0; i < kWgTaps; ++i)
        wgmma_m64n32k16_b_mn_major<scalar_t>(acc[i], a_tile.at(uint32_t(k0)),
                                             b_tile.at(b_row + uint32_t(tap_offset[i])));
    }
    wgmma_commit();
  }
  // All K steps of a tile with A from registers: every tap's wgmma of a K step reads one A fragment, loaded once
  // (ldmatrix.x4: lanes 8 j .. 8 j + 7 address rows of matrix j = rows + 8 (j & 1), positions + 8 (j >> 1)) instead
  // of once per tap from shared memory. Two fragments: a K step's is loaded while the step before it runs (the wait
  // for all but the last group frees the other). Why: the shared-memory form reads 3 KB a wgmma, 1 MB a tile, more
  // than the tensor pipe's time at 128 bytes a cycle; this one reads 9 of its 21 KB a K step and warpgroup.
  __device__ __forceinline__ void issue_register_a(const UnitStrideWgmmaGradWeightArgs& w, int xt_units,
                                                   unsigned dy_tile, int warp_in_wg, int lane) {
    using G = UnitStrideWgmmaGradWeightTile;
    constexpr int kOctets = G::kPositions / 8, kSteps = G::kPositions / 16;
    const WgmmaDescriptor b_tile{b_desc.lo + uint32_t(xt_units), b_desc.hi};
    const int matrix = lane >> 3;
    const unsigned a_lane =
        dy_tile + unsigned(((2 * warp_in_wg + (matrix & 1)) * kOctets + (matrix >> 1)) * 128 + (lane & 7) * 16);
    uint32_t a[2][4];
    ldmatrix_x4(a_lane, a[0][0], a[0][1], a[0][2], a[0][3]);
#pragma unroll
    for (int step = 0; step < kSteps; ++step) {
      const uint32_t b_row = window_row(w, 16 * step);
      wgmma_fence();
#pragma unroll
      for (int i = 0; i < kWgTaps; ++i)
        wgmma_m64n32k16_a_registers<scalar_t>(acc[i], a[step & 1], b_tile.at(b_row + uint32_t(tap_offset[i])));
      wgmma_commit();
      if (step + 1 < kSteps) {
        wgmma_wait<1>();
        const int next = (step + 1) & 1;
        ldmatrix_x4(a_lane + unsigned((step + 1) * 2 * 128), a[next][0], a[next][1], a[next][2], a[next][3]);
      }
    }
  }
  // The split's partials of these taps. Accumulator (row m = C_out, column n = C_in) of m64n32: warp w of the
  // warpgroup rows 16 w + lane / 4 (+ 8 for elements 2-3 of each 4), columns 8 j + 2 (lane % 4) (+ 1).
  __device__ __forceinline__ void store(const UnitStrideWgmmaGradWeightArgs& w, int split, int wg, int ci0, int co0,
                                        int lane, int warp_in_wg) const {
    const UnitStrideMmaGradWeightArgs& a = w.g;
    float* const out = a.partial + int64_t(split) * a.c_in * a.c_out * a.taps;
#pragma unroll
    for (int i = 0; i < kWgTaps; ++i) {
      if (i >= my_taps) break;
      const int tap = wg + UnitStrideWgmmaGradWeightTile::kWarpgroups * i;
#pragma unroll
      for (int e = 0; e < 16; ++e) {
        const int co = co0 + 16 * warp_in_wg + (lane >> 2) + ((e >> 1) & 1) * 8;
        const int ci = ci0 + 8 * (e >> 2) + 2 * (lane & 3) + (e & 1);
        if (co < a.c_out) out[(int64_t(tap) * a.c_in + ci) * a.c_out + co] = acc[i][e];
      }
    }
  }
};

// Per block: C_in ci0 .. + 32 (N), C_out co0 .. + 64 (M), every tap (warpgroup g: taps g, g + 3, ...), over the
// split's tiles; fp32 partials [split][tap][C_in][C_out] as the mma.sync kernel's (the same sum kernel).
// kWgTaps: the wgmmas a warpgroup issues per K step (3, 5 or 7: at most 9, 15 or 21 taps), all of them whatever its
// tap count, since a wgmma issued under a runtime condition had ptxas fence every one (C7519); a warpgroup's taps
// past its own run on tap 0's window (run 424: tap g's, past the window's start with one tap, faulted) and are not
// stored.
// Taken only under TCONV_UNIT_STRIDE_WGMMA_SPECIALIZED=0 since run 429 (the warp-specialized kernel below won).
// An overlap form (the tile's wgmmas in two halves around the next window's transpose and copies, a third grad tile
// buffer; run 426, fam05 bf16 fwd+bwd 3.035, 3.012 ms against 3.042, 3.043) was removed in session 74.
template <typename scalar_t, int kXPieceBytes, int kDyPieceBytes, int kWgTaps>
__global__ void __launch_bounds__(UnitStrideWgmmaGradWeightTile::kThreads, 1)
    tconv_unit_stride_wgmma_grad_weight_kernel(const UnitStrideWgmmaGradWeightArgs w) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  using G = UnitStrideWgmmaGradWeightTile;
  constexpr int kDyBytes = G::kBlockM * G::kPositions * 2;
  const UnitStrideMmaGradWeightArgs& a = w.g;
  extern __shared__ __align__(16) unsigned char smem[];
  // Two transposed windows, two grad_output tiles, the raw window.
  const unsigned xt_address = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  const unsigned dy_address = xt_address + 2u * unsigned(w.xt_bytes);
  const unsigned x_raw_address = dy_address + unsigned(2 * kDyBytes);
  const uint16_t* const x_raw = reinterpret_cast<const uint16_t*>(smem + 2 * w.xt_bytes + 2 * kDyBytes);
  const int tid = threadIdx.x, lane = tid & 31;
  const int wg = __shfl_sync(0xffffffffu, tid / 128, 0), warp_in_wg = (tid / 32) & 3;
  const int job = int(blockIdx.x % unsigned(a.jobs)), split = int(blockIdx.x / unsigned(a.jobs));
  const int stage = job % a.stages, co0 = job / a.stages * G::kBlockM, ci0 = stage * G::kChannels;

  using Where = GradWeightTileWhere;
  auto where = [&](int t) { return grad_weight_tile_where(a, t); };
  auto issue_window = [&](const Where& wh) {
    issue_grad_weight_window<scalar_t, G::kThreads, kXPieceBytes>(a, wh, ci0, x_raw_address, tid);
  };
  auto issue_grad = [&](const Where& wh, int buffer) {
    copy_grad_tile_k_major<scalar_t, kDyPieceBytes, G::kThreads>(w, wh, co0, dy_address + unsigned(buffer) * kDyBytes,
                                                                 tid);
  };
  auto transpose_window = [&](int buffer) {
    transpose_window_mn_major<G::kThreads>(w, x_raw, smem + buffer * w.xt_bytes, tid);
  };

  WgmmaTapGroup<scalar_t, kWgTaps> taps;
  taps.init(w, wg, xt_address, dy_address);

  int t = split;
  if (t < a.spatial_tiles) {
    issue_window(where(t));
    issue_grad(where(t), 0);
    copy_wait_all();
    __syncthreads();  // the raw window landed for every thread
    transpose_window(0);
    fence_generic_to_async_shared();
    if (t + a.splits < a.spatial_tiles) {
      __syncthreads();  // the raw window is transposed: free
      issue_window(where(t + a.splits));
      issue_grad(where(t + a.splits), 1);
    }
  }
  for (int k = 0; t < a.spatial_tiles; t += a.splits, ++k) {
    const int buffer = k & 1;
    __syncthreads();  // this tile's window and grad tile are written and fenced by every thread
    taps.issue(w, buffer * w.xt_bytes / 16, buffer * kDyBytes / 16);
    const int t1 = t + a.splits, t2 = t1 + a.splits;
    if (t1 < a.spatial_tiles) {  // while the wgmmas run: the next window transposed, the raw copy after it issued
      copy_wait_all();
      fence_generic_to_async_shared();  // the next grad tile, read by wgmma
      __syncthreads();
      transpose_window(buffer ^ 1);
      fence_generic_to_async_shared();
      __syncthreads();  // the raw window is free
      if (t2 < a.spatial_tiles) issue_window(where(t2));
    }
    wgmma_wait<0>();
    __syncthreads();  // every warpgroup is done with this buffer's grad tile
    if (t2 < a.spatial_tiles) issue_grad(where(t2), buffer);
  }

  taps.store(w, split, wg, ci0, co0, lane, warp_in_wg);
#else
  (void)w;
#endif
}

// Named barriers (ids 1-15; 0 is __syncthreads'): `count` threads of whole warps, some arriving without waiting.
[[maybe_unused]] __device__ __forceinline__ void unit_named_sync(int id, int count) {
  asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(count) : "memory");
}
[[maybe_unused]] __device__ __forceinline__ void unit_named_arrive(int id, int count) {
  asm volatile("bar.arrive %0, %1;\n" ::"r"(id), "r"(count) : "memory");
}

// The warp-specialized form (the default; TCONV_UNIT_STRIDE_WGMMA_SPECIALIZED=0 takes the form above): the three
// MMA warpgroups only wait for a slot, issue its wgmmas and wait for them, and release the slot; a producer
// warpgroup copies the raw window and the grad tile (into the slot), transposes the window and publishes the slot.
// Slots 0-1: a transposed window and a grad tile each; named barriers full = 1 + slot (producers arrive, MMA warps
// wait) and empty = 3 + slot (the reverse), 5 among the producers. kRegisterA: A fragments from registers
// (issue_register_a; TCONV_UNIT_STRIDE_WGMMA_REGISTER_A=0 reads A from shared memory). Why: run 426's ncu
// of the form above put barrier stalls first and the tensor pipe at 31 %: every warp stages and computes, so each
// tile's end drains the pipe while the block meets at its barriers. fam05 bf16 (H200), grad_weight kernel / fwd+bwd:
//   the form above (run 424-428)                              1.384-1.406 ms / 3.071-3.077 ms
//   this, A from shared memory (run 427)                      1.406 / 3.090 (the producer's copy: index math a piece)
//   this, the producer's copy hoisted (run 428)               - / 2.646-2.647
//   this, A from registers too (run 428; the default)         0.714 / 2.407-2.413 (tensor pipe 61 %; 2.26 TB/s L2)
// and fam11 bf16 (C 32, 21 taps) forced onto it: 1.684 ms fwd+bwd against mma.sync's 2.033.
template <typename scalar_t, int kXPieceBytes, int kDyPieceBytes, int kWgTaps, bool kRegisterA>
__global__ void __launch_bounds__(UnitStrideWgmmaGradWeightTile::kSpecializedThreads, 1)
    tconv_unit_stride_wgmma_grad_weight_specialized_kernel(const UnitStrideWgmmaGradWeightArgs w) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  using G = UnitStrideWgmmaGradWeightTile;
  constexpr int kDyBytes = G::kBlockM * G::kPositions * 2, kAll = G::kSpecializedThreads;
  constexpr int kProducers = G::kSpecializedThreads - G::kThreads;
  const UnitStrideMmaGradWeightArgs& a = w.g;
  extern __shared__ __align__(16) unsigned char smem[];
  const unsigned xt_address = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  const unsigned dy_address = xt_address + 2u * unsigned(w.xt_bytes);
  const unsigned x_raw_address = dy_address + 2u * kDyBytes;
  const uint16_t* const x_raw = reinterpret_cast<const uint16_t*>(smem + 2 * w.xt_bytes + 2 * kDyBytes);
  const int tid = threadIdx.x;
  const int job = int(blockIdx.x % unsigned(a.jobs)), split = int(blockIdx.x / unsigned(a.jobs));
  const int stage = job % a.stages, co0 = job / a.stages * G::kBlockM, ci0 = stage * G::kChannels;
  if (tid >= G::kThreads) {  // the producer warpgroup
    warpgroup_registers_down<G::kProducerRegisters>();
    const int ptid = tid - G::kThreads;
    for (int t = split, k = 0; t < a.spatial_tiles; t += a.splits, ++k) {
      const int slot = k & 1;
      if (k >= 2) unit_named_sync(3 + slot, kAll);  // the MMA warps are done with tile k - 2
      const GradWeightTileWhere wh = grad_weight_tile_where(a, t);
      issue_grad_weight_window<scalar_t, kProducers, kXPieceBytes>(a, wh, ci0, x_raw_address, ptid);
      copy_grad_tile_k_major<scalar_t, kDyPieceBytes, kProducers>(w, wh, co0, dy_address + unsigned(slot) * kDyBytes,
                                                                  ptid);
      copy_wait_all();
      unit_named_sync(5, kProducers);  // every producer's pieces of the raw window landed
      transpose_window_mn_major<kProducers>(w, x_raw, smem + slot * w.xt_bytes, ptid);
      fence_generic_to_async_shared();  // the grad tile's pieces and the transposed window, read by wgmma
      __threadfence_block();
      unit_named_sync(5, kProducers);  // the raw window is free for the next tile
      unit_named_arrive(1 + slot, kAll);
    }
    return;
  }
  warpgroup_registers_up<G::kMmaRegisters>();
  const int lane = tid & 31, warp_in_wg = (tid / 32) & 3;
  const int wg = __shfl_sync(0xffffffffu, tid / 128, 0);
  WgmmaTapGroup<scalar_t, kWgTaps> taps;
  taps.init(w, wg, xt_address, dy_address);
  for (int t = split, k = 0; t < a.spatial_tiles; t += a.splits, ++k) {
    const int slot = k & 1;
    unit_named_sync(1 + slot, kAll);  // tile k's window and grad tile are in the slot
    if constexpr (kRegisterA)
      taps.issue_register_a(w, slot * w.xt_bytes / 16, dy_address + unsigned(slot * kDyBytes), warp_in_wg, lane);
    else
      taps.issue(w, slot * w.xt_bytes / 16, slot * kDyBytes / 16);
    wgmma_wait<0>();
    // the slot is free; the producers wait for that only where they fill it again (tile k + 2)
    if (t + 2 * a.splits < a.spatial_tiles) unit_named_arrive(3 + slot, kAll);
  }
  taps.store(w, split, wg, ci0, co0, lane, warp_in_wg);
#else
  (void)w;
#endif
}

bool unit_stride_wgmma_grad_weight_runs_here() {
#if defined(TCONV_WGMMA)
  int device = 0, major = 0, minor = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess ||
      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) != cudaSuccess)
    return false;
  return major == 9 && minor == 0;
#else
  return false;
#endif
}

// The wgmma form where it can run and UnitStrideWgmmaGradWeightAutoRule admits the call. TCONV_UNIT_STRIDE_WGMMA_
// GRAD_WEIGHT (development only, read once per process): 1 takes it wherever possible, 0 never (the mma.sync kernel).
struct UnitStrideWgmmaGradWeightPlan {
  bool possible = false;
  bool specialized = false;                // the warp-specialized kernel (two slots, as the plain form)
  bool register_a = false;                 // its A fragments from registers (issue_register_a)
  UnitStrideMmaGradWeightPlan base;
  int window_total = 0, xt_bytes = 0, smem_bytes = 0;
};
UnitStrideWgmmaGradWeightPlan wgmma_grad_weight_plan(const ConvTransposeParams& p, DType dtype, const void* input,
                                                     const void* grad_output) {
  using G = UnitStrideWgmmaGradWeightTile;
  static const int rule = development_switch("TCONV_UNIT_STRIDE_WGMMA_GRAD_WEIGHT", -1);
  using Rule = UnitStrideWgmmaGradWeightAutoRule;
  const bool admitted = rule == 1 || (rule != 0 && (p.out_channels >= Rule::kMinOutChannelsFewTaps ||
                                                     (p.out_channels >= Rule::kMinOutChannels &&
                                                      p.kernel[1] * p.kernel[2] >= Rule::kMinTaps)));
  UnitStrideWgmmaGradWeightPlan plan;
  if (!admitted || !is_16bit(dtype) || p.kernel[1] * p.kernel[2] > G::kMaxTaps || p.in_channels % G::kChannels != 0)
    return plan;
  if (!unit_stride_wgmma_grad_weight_runs_here()) return plan;
  plan.base = grad_weight_plan(p, dtype, input, grad_output);
  if (!plan.base.possible || plan.base.tile_rows * plan.base.tile_w != G::kPositions) return plan;
  // copy_grad_tile_k_major's offsets from a grad_output (n, d) plane are 32-bit
  if ((p.out_channels - 1) * p.output_strides[1] + p.out_size[1] * p.output_strides[3] + p.out_size[2] >=
      (int64_t(1) << 31))
    return plan;
  plan.window_total = plan.base.window_rows * plan.base.window_chunks * 8;
  if (plan.window_total >= (1 << 14)) return plan;  // B's stride byte offset field: 14 bits of 16 bytes
  plan.xt_bytes = 4 * plan.window_total * 16;
  static const bool specialized = development_switch("TCONV_UNIT_STRIDE_WGMMA_SPECIALIZED", 1) != 0;
  plan.specialized = specialized;
  static const bool register_a = development_switch("TCONV_UNIT_STRIDE_WGMMA_REGISTER_A", 1) != 0;
  plan.register_a = plan.specialized && register_a;
  const int64_t smem = 2 * int64_t(plan.xt_bytes) + 2 * G::kBlockM * G::kPositions * 2 +
                       staged_raw_bytes(plan.base.window_raw_pitch);
  if (smem > shared_optin_bytes()) return plan;
  plan.smem_bytes = int(smem);
  plan.possible = true;
  return plan;
}

int64_t wgmma_grad_weight_splits(const ConvTransposeParams& p, int sm_count, int64_t max_workspace_elems,
                                 const UnitStrideWgmmaGradWeightPlan& plan) {
  using G = UnitStrideWgmmaGradWeightTile;
  const int64_t spatial = (p.out_size[2] + plan.base.tile_w - 1) / plan.base.tile_w *
                          ((p.out_size[1] + plan.base.tile_rows - 1) / plan.base.tile_rows) * p.batch * p.out_size[0];
  const int64_t jobs = p.in_channels / G::kChannels * ((p.out_channels + G::kBlockM - 1) / G::kBlockM);
  const int64_t per_split = p.in_channels * p.out_channels * p.kernel[1] * p.kernel[2];
  int64_t splits = std::max<int64_t>(1, int64_t(sm_count) / jobs);
  splits = std::min<int64_t>(splits, std::max<int64_t>(1, max_workspace_elems / per_split));
  return std::max<int64_t>(1, std::min<int64_t>(splits, spatial));
}

template <typename scalar_t, int kXPieceBytes, int kDyPieceBytes, int kWgTaps, bool kSpecialized = false,
          bool kRegisterA = false>
cudaError_t launch_wgmma_grad_weight_typed(const ConvTransposeParams& p, const UnitStrideWgmmaGradWeightPlan& plan,
                                           const void* input, const void* grad_output, void* grad_weight,
                                           float* workspace, int64_t splits, cudaStream_t stream) {
  using G = UnitStrideWgmmaGradWeightTile;
  UnitStrideWgmmaGradWeightArgs w{};
  UnitStrideMmaGradWeightArgs& a = w.g;
  if (!fill_grad_weight_args(a, p, plan.base, input, grad_output, workspace, splits, G::kBlockM))
    return cudaErrorInvalidValue;
  const int64_t blocks = int64_t(a.jobs) * splits;
  const int copy_threads = plan.specialized ? G::kSpecializedThreads - G::kThreads : G::kThreads;
  a.window = staged_rows<2, kXPieceBytes>(plan.base.window_rows, plan.base.window_chunks,
                                          plan.base.window_raw_pitch, copy_threads);
  w.tile_w_log2 = a.tile_w == 256 ? 8 : 6;
  w.window_total = plan.window_total;
  w.window_pairs = plan.window_total / 2;
  w.by_window_pairs = small_divisor(w.window_pairs);
  w.xt_bytes = plan.xt_bytes;
  void (*kernel)(UnitStrideWgmmaGradWeightArgs);
  if constexpr (kSpecialized)
    kernel = tconv_unit_stride_wgmma_grad_weight_specialized_kernel<scalar_t, kXPieceBytes, kDyPieceBytes, kWgTaps,
                                                                    kRegisterA>;
  else
    kernel = tconv_unit_stride_wgmma_grad_weight_kernel<scalar_t, kXPieceBytes, kDyPieceBytes, kWgTaps>;
  cudaError_t err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, plan.smem_bytes);
  if (err != cudaSuccess) return err;
  kernel<<<unsigned(blocks), kSpecialized ? G::kSpecializedThreads : G::kThreads, plan.smem_bytes, stream>>>(w);
  err = cudaGetLastError();
  if (err != cudaSuccess) return err;
  return launch_grad_weight_sum<scalar_t>(p, a, grad_weight, stream);
}

}  // namespace

bool unit_stride_mma_forward_possible(const ConvTransposeParams& p, DType dtype, bool split_tf32, const void* input,
                                      const void* output) {
  return plan_for(p, dtype, split_tf32, input, output).possible;
}

bool unit_stride_mma_forward_preferred(const ConvTransposeParams& p, DType dtype) {
  static const int rule = development_switch("TCONV_UNIT_STRIDE_MMA", -1);
  if (rule == 0) return false;
  if (rule == 1) return true;
  using Rule = UnitStrideMmaAutoRule;
  if (!(is_16bit(dtype) ? Rule::k16Bit : Rule::kTf32)) return false;
  const bool fold = is_16bit(dtype) ? unit_stride_mma_folds<UnitStrideMmaTile<2>>(p.out_size[1], p.out_size[2])
                                    : unit_stride_mma_folds<UnitStrideMmaTile<4>>(p.out_size[1], p.out_size[2]);
  const int64_t taps = p.kernel[1] * p.kernel[2];
  if (!is_16bit(dtype) && ((fold && !Rule::kTf32Folded) || taps > Rule::kMaxTf32Taps)) return false;
  if (!is_16bit(dtype) && p.in_channels < Rule::kMinTf32InChannels) return false;
  if (fold)
    return p.in_channels <= Rule::kMaxFoldedChannels && p.out_channels <= Rule::kMaxFoldedChannels &&
           p.in_channels * p.out_channels <= Rule::kMaxFoldedChannelPairs;
  return p.in_channels <= Rule::kMaxInChannels && p.out_channels <= Rule::kMaxOutChannels;
}

// Dynamic tiles by default; TCONV_UNIT_STRIDE_MMA_DYNAMIC_TILES=0 (development only, read once per process) keeps the
// static shares, so one build times both. Run 395 (H200, one build, TF32 quick_timing, static -> dynamic, ms):
// L1-71 fwd 0.659 -> 0.640, fwd+bwd 2.462 -> 2.415; fam08 fwd 0.785 -> 0.766, fwd+bwd 2.963 -> 2.923; fam11 level
// (1.175 / 4.614 against 1.177 / 4.619); bf16 fam08 fwd+bwd 1.634 -> 1.626 (concurrent_ab.py). Why, not profiled:
// the blocks' tiles do not cost the same (edge tiles, an SM's two blocks sharing it unevenly), so static shares end
// in a tail that the counter shortens. Beside the concurrent backward's grad_weight it does not mend fam08 (3.514
// against 2.913 serial), so a grad_input on this grid still keeps the passes serial (grad_input_persistent).
bool unit_stride_mma_dynamic_tiles() {
  static const bool dynamic = development_switch("TCONV_UNIT_STRIDE_MMA_DYNAMIC_TILES", 1) != 0;
  return dynamic;
}

cudaError_t unit_stride_mma_forward(const ConvTransposeParams& p, DType dtype, bool split_tf32, const void* input,
                                    const void* weight, const void* bias, void* output, int* tile_counter,
                                    int sm_count, cudaStream_t stream) {
  const UnitStrideMmaPlan plan = plan_for(p, dtype, split_tf32, input, output);
  return launch(p, dtype, plan, input, weight, bias, output, tile_counter, sm_count, stream);
}

bool unit_stride_mma_grad_input_possible(const ConvTransposeParams& p, DType dtype, bool split_tf32,
                                         const void* grad_output, const void* grad_input) {
  return p.groups == 1 &&
         plan_for(unit_stride_grad_input_as_forward(p), dtype, split_tf32, grad_output, grad_input).possible;
}

bool unit_stride_mma_grad_input_preferred(const ConvTransposeParams& p, DType dtype) {
  return unit_stride_mma_forward_preferred(unit_stride_grad_input_as_forward(p), dtype);
}

cudaError_t unit_stride_mma_grad_input(const ConvTransposeParams& p, DType dtype, bool split_tf32,
                                       const void* grad_output, const void* weight, void* grad_input,
                                       int* tile_counter, int sm_count, cudaStream_t stream) {
  if (p.groups != 1) return cudaErrorInvalidValue;
  const ConvTransposeParams q = unit_stride_grad_input_as_forward(p);
  const UnitStrideMmaPlan plan = plan_for(q, dtype, split_tf32, grad_output, grad_input);
  const void* flipped =
      static_cast<const char*>(weight) + unit_stride_flipped_weight_offset(p) * element_bytes(dtype);
  return launch(q, dtype, plan, grad_output, flipped, nullptr, grad_input, tile_counter, sm_count, stream);
}

bool unit_stride_mma_grad_weight_possible(const ConvTransposeParams& p, DType dtype, const void* input,
                                          const void* grad_output) {
  return grad_weight_plan(p, dtype, input, grad_output).possible;
}

bool unit_stride_mma_grad_weight_preferred(const ConvTransposeParams& p, DType dtype, const void* input,
                                           const void* grad_output) {
  static const int rule = development_switch("TCONV_UNIT_STRIDE_MMA_GRAD_WEIGHT", -1);
  if (rule == 0) return false;
  if (rule == 1) return true;
  using Rule = UnitStrideMmaGradWeightAutoRule;
  using WgmmaRule = UnitStrideWgmmaGradWeightAutoRule;
  if (!is_16bit(dtype) || p.kernel[1] * p.kernel[2] > Rule::kMaxTaps) return false;
  if (p.in_channels <= Rule::kMaxInChannels && p.out_channels <= Rule::kMaxOutChannels) return true;
  return p.in_channels <= WgmmaRule::kMaxChannels && p.out_channels <= WgmmaRule::kMaxChannels &&
         wgmma_grad_weight_plan(p, dtype, input, grad_output).possible;
}

int64_t unit_stride_mma_grad_weight_workspace_elems(const ConvTransposeParams& p, DType dtype, const void* input,
                                                    const void* grad_output, int sm_count,
                                                    int64_t max_workspace_elems) {
  const int64_t per_split = p.in_channels * p.out_channels * p.kernel[1] * p.kernel[2];
  const UnitStrideWgmmaGradWeightPlan wgmma = wgmma_grad_weight_plan(p, dtype, input, grad_output);
  if (wgmma.possible) return wgmma_grad_weight_splits(p, sm_count, max_workspace_elems, wgmma) * per_split;
  const UnitStrideMmaGradWeightPlan plan = grad_weight_plan(p, dtype, input, grad_output);
  if (!plan.possible) return 0;
  return grad_weight_splits(p, plan, sm_count, max_workspace_elems) * per_split;
}

cudaError_t unit_stride_mma_grad_weight(const ConvTransposeParams& p, DType dtype, const void* input,
                                        const void* grad_output, void* grad_weight, float* workspace, int sm_count,
                                        int64_t max_workspace_elems, cudaStream_t stream) {
  const UnitStrideWgmmaGradWeightPlan wgmma = wgmma_grad_weight_plan(p, dtype, input, grad_output);
  if (wgmma.possible) {
    const int64_t splits = wgmma_grad_weight_splits(p, sm_count, max_workspace_elems, wgmma);
    const bool x16 = wgmma.base.x_piece_bytes == 16, dy16 = wgmma.base.dy_piece_bytes == 16;
    const int64_t taps = p.kernel[1] * p.kernel[2];
    const int wg_taps = taps <= 9 ? 3 : taps <= 15 ? 5 : 7;
    auto typed = [&](auto zero) -> cudaError_t {
      using scalar_t = decltype(zero);
      return TCONV_BOOL_SWITCH(x16, kX16, [&] {
        return TCONV_BOOL_SWITCH(dy16, kDy16, [&] {
          constexpr int kX = kX16 ? 16 : 4, kDy = kDy16 ? 16 : 4;
          if (wgmma.specialized) {
            auto specialized = [&](auto taps) {
              return TCONV_BOOL_SWITCH(wgmma.register_a, kRegisterA, [&] {
                return launch_wgmma_grad_weight_typed<scalar_t, kX, kDy, decltype(taps)::value, true, kRegisterA>(
                    p, wgmma, input, grad_output, grad_weight, workspace, splits, stream);
              });
            };
            if (wg_taps == 3) return specialized(std::integral_constant<int, 3>());
            if (wg_taps == 5) return specialized(std::integral_constant<int, 5>());
            return specialized(std::integral_constant<int, 7>());
          }
          if (wg_taps == 3)
            return launch_wgmma_grad_weight_typed<scalar_t, kX, kDy, 3>(p, wgmma, input, grad_output, grad_weight,
                                                                       workspace, splits, stream);
          if (wg_taps == 5)
            return launch_wgmma_grad_weight_typed<scalar_t, kX, kDy, 5>(p, wgmma, input, grad_output, grad_weight,
                                                                       workspace, splits, stream);
          return launch_wgmma_grad_weight_typed<scalar_t, kX, kDy, 7>(p, wgmma, input, grad_output, grad_weight,
                                                                     workspace, splits, stream);
        });
      });
    };
    if (dtype == DType::kFloat16) return typed(__half());
    if (dtype == DType::kBFloat16) return typed(__nv_bfloat16());
    return cudaErrorInvalidValue;
  }
  const UnitStrideMmaGradWeightPlan plan = grad_weight_plan(p, dtype, input, grad_output);
  if (!plan.possible) return cudaErrorInvalidValue;
  const int64_t splits = grad_weight_splits(p, plan, sm_count, max_workspace_elems);
  using G = UnitStrideMmaGradWeightTile;
  const bool x16 = plan.x_piece_bytes == 16, dy16 = plan.dy_piece_bytes == 16;
  const bool few = plan.group_taps == G::kFewGroupTaps;
  auto typed = [&](auto zero) -> cudaError_t {
    using scalar_t = decltype(zero);
    return TCONV_BOOL_SWITCH(x16, kX16, [&] {
      return TCONV_BOOL_SWITCH(dy16, kDy16, [&] {
        return TCONV_BOOL_SWITCH(few, kFew, [&] {
          return launch_grad_weight_typed<scalar_t, kX16 ? 16 : 4, kDy16 ? 16 : 4,
                                          kFew ? G::kFewGroupTaps : G::kGroupTaps>(
              p, plan, input, grad_output, grad_weight, workspace, splits, stream);
        });
      });
    });
  };
  if (dtype == DType::kFloat16) return typed(__half());
  if (dtype == DType::kBFloat16) return typed(__nv_bfloat16());
  return cudaErrorInvalidValue;
}

}  // namespace tconv
