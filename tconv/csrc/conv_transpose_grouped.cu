// Register-blocked direct kernels for transposed convolutions with few channels per group
// (DESIGN.md section 2, KernelBench L1-73 / L1-72: 8 in / 8 out channels per group). The tensor-core
// GEMMs cannot be fed there (a 16x8 MMA fragment is mostly padding) and the problem is memory-bound,
// so the aim is to read each input once per tap from L1/L2, write each output once, and spend the
// rest on FFMAs from registers:
//
//  forward:    a thread owns one output position (n, group, od, oh, ow) and all C_out/g outputs of
//              its group in registers; it walks only the taps that reach this position (phase
//              walk, conv_params.h forward_taps), loads the C_in/g inputs of each tap once and does
//              C_in/g x C_out/g FMAs with the group's weights, held in shared memory as [tap][ci][co].
//  grad_input: a thread owns one input position and all C_in/g gradients; per tap it loads the
//              C_out/g grad_output values once (grad_input_taps walk), weights as [tap][co][ci].
//
// Channel counts are template parameters rounded up to a power of two (1..16); the padding lanes
// carry zero weights and zero inputs, and are never stored. Warps run along W: in the forward pass
// the threads of a warp own outputs of the same W phase (ow = phase + s_w * j, consecutive j), so
// every thread of a warp walks the same taps and reads consecutive inputs; the stores then cover
// one phase per warp and the block's other phases fill the rest of each line in L2.
// Exact FFMA in fp32 accumulation (fp64 for double): satisfies every precision mode of the contract.
//  grad_weight: stages of input positions and the grad_output boxes their taps reach, in shared
//              memory; threads own (tap, ci, co) accumulators (see tconv_grouped_grad_weight_kernel).
//
// The file compiles in two translation units: this one (fp32 and fp64 kernels, every entry point) and
// conv_transpose_grouped_16bit.cu (fp16 and bf16 kernels), to which this one's launching entry points hand 16-bit calls
// (their *_16bit forms). Why: run 486's cold device build had this unit at 120 s, the longest after the three parts of
// conv_transpose_igemm.cu that session 90 split by data type.
#include <algorithm>
#include <vector>
#include "conv_transpose.h"
#include "dispatch.h"

#ifndef TCONV_GROUPED_16BIT
#define TCONV_GROUPED_16BIT 0
#endif
#if TCONV_GROUPED_16BIT
#define TCONV_GROUPED_ENTRY(name) name##_16bit
#define TCONV_GROUPED_DTYPE_SWITCH(DTYPE, SCALAR_T, ...)                                        \
  [&]() -> cudaError_t {                                                                        \
    switch (DTYPE) {                                                                            \
      case ::tconv::DType::kFloat16: { using SCALAR_T = __half; return __VA_ARGS__(); }         \
      case ::tconv::DType::kBFloat16: { using SCALAR_T = __nv_bfloat16; return __VA_ARGS__(); } \
      default: return cudaErrorInvalidValue;                                                    \
    }                                                                                           \
  }()
#else
#define TCONV_GROUPED_ENTRY(name) name
#define TCONV_GROUPED_DTYPE_SWITCH(DTYPE, SCALAR_T, ...)                                  \
  [&]() -> cudaError_t {                                                                  \
    switch (DTYPE) {                                                                      \
      case ::tconv::DType::kFloat32: { using SCALAR_T = float; return __VA_ARGS__(); }    \
      case ::tconv::DType::kFloat64: { using SCALAR_T = double; return __VA_ARGS__(); }   \
      default: return cudaErrorInvalidValue;                                              \
    }                                                                                     \
  }()
#endif

namespace tconv {
namespace {

constexpr int kThreads = 256;
// Resident blocks per SM asked of ptxas (its register cap: 4 -> 64, 3 -> 80 registers). Chosen
// from `nvcc -Xptxas -v` (nvcc 13.0, sm_90) so the fp32 8x8 instantiations do not spill: the
// forward fits 64 registers (1024 threads/SM), grad_input needs 80 (768 threads/SM). Not measured.
constexpr int kForwardMinBlocksPerSm = 4;
// The tiled forward's 32 input channels (grouped_tiled_forward) hold 32 inputs + 16 accumulators + 16 weights a
// thread: 128 registers (two blocks per SM; fp64 one, whose 64-bit values spilled 88-140 bytes at two). Not measured.
constexpr int kTiledForwardMinBlocksPerSm = 2;
constexpr int kGradInputMinBlocksPerSm = 3;
// Forward: row steps per block above which the phases' warps are held together (grouped_forward).
constexpr int kSyncRowsMinSteps = 16;
// Blocks per SM the row split aims for (several waves' worth, so the tail is short). First guess.
constexpr int kBlocksPerSmTarget = 16;

// Largest power-of-two vector width (bytes, <= 16) that tiles `bytes`.
__host__ __device__ constexpr int vector_bytes(int bytes) {
  return bytes % 16 == 0 ? 16 : bytes % 8 == 0 ? 8 : bytes % 4 == 0 ? 4 : bytes % 2 == 0 ? 2 : 1;
}
template <int B> struct VecOf;
template <> struct VecOf<16> { using type = uint4; };
template <> struct VecOf<8> { using type = uint2; };
template <> struct VecOf<4> { using type = unsigned int; };
template <> struct VecOf<2> { using type = unsigned short; };
template <> struct VecOf<1> { using type = unsigned char; };

// Copies N elements of T between memory and a register array in the widest aligned vectors.
template <typename T, int N>
__device__ __forceinline__ void copy_vectors(T* dst, const T* src) {
  constexpr int kBytes = vector_bytes(int(N * sizeof(T)));
  using V = typename VecOf<kBytes>::type;
#pragma unroll
  for (int v = 0; v < int(N * sizeof(T)) / kBytes; ++v)
    reinterpret_cast<V*>(dst)[v] = reinterpret_cast<const V*>(src)[v];
}

// The N channel values of one position (channel stride `stride`, `count` real channels), as acc_t.
// vec: channels are contiguous, count == N and every such address is aligned to the vector width.
template <typename scalar_t, int N>
__device__ __forceinline__ void load_channels(const scalar_t* __restrict__ src, int stride, int count, bool vec,
                                              typename AccType<scalar_t>::type (&out)[N]) {
  if (vec) {
    alignas(16) scalar_t buf[N];
    copy_vectors<scalar_t, N>(buf, src);
#pragma unroll
    for (int c = 0; c < N; ++c) out[c] = to_acc(buf[c]);
  } else {
#pragma unroll
    for (int c = 0; c < N; ++c) out[c] = c < count ? to_acc(src[c * stride]) : typename AccType<scalar_t>::type(0);
  }
}

template <typename scalar_t, int N>
__device__ __forceinline__ void store_channels(scalar_t* __restrict__ dst, int stride, int count, bool vec,
                                               const typename AccType<scalar_t>::type (&v)[N]) {
  if (vec) {
    alignas(16) scalar_t buf[N];
#pragma unroll
    for (int c = 0; c < N; ++c) buf[c] = from_acc<scalar_t>(v[c]);
    copy_vectors<scalar_t, N>(dst, buf);
  } else {
#pragma unroll
    for (int c = 0; c < N; ++c)
      if (c < count) dst[c * stride] = from_acc<scalar_t>(v[c]);
  }
}

// Loop-invariant steps of the forward phase walk per dim (host: s / gcd(s, d), d / gcd(s, d)).
struct PhaseSteps {
  int k_step[kSpatialDims];
  int i_step[kSpatialDims];
};

// Launch geometry shared by both kernels: block = (tile_w threads along W) x (rows_parallel rows);
// blockIdx.x = ((n * groups + g) * w_tiles + w_tile) * row_chunks + chunk.
struct Geometry {
  int tile_w = 32, rows_parallel = 8, w_tiles = 1, row_chunks = 1, rows_per_chunk = 1;
  int64_t blocks = 0;
};

// The group's weights as acc_t in shared memory, zero-padded to CI x CO per tap.
// kForward: [tap][ci][co] (a thread reads CO consecutive values per input channel);
// otherwise   [tap][co][ci] (CI consecutive values per grad_output channel).
template <bool kForward, int CI, int CO, typename scalar_t>
__device__ __forceinline__ void stage_group_weights(const ConvTransposeParams& p, const scalar_t* __restrict__ w,
                                                    int g, typename AccType<scalar_t>::type* ws) {
  using acc_t = typename AccType<scalar_t>::type;
  const int cin = int(p.in_per_group()), cout = int(p.out_per_group());
  const int KH = int(p.kernel[1]), KW = int(p.kernel[2]);
  const int total = int(p.kernel_volume()) * CI * CO;
  const int threads = blockDim.x * blockDim.y;
  for (int e = threadIdx.y * blockDim.x + threadIdx.x; e < total; e += threads) {
    const int tap = e / (CI * CO), r = e % (CI * CO);
    const int ci = kForward ? r / CO : r % CI;
    const int co = kForward ? r % CO : r / CI;
    acc_t v = acc_t(0);
    if (ci < cin && co < cout) {
      const int kd = tap / (KH * KW), kh = (tap / KW) % KH, kw = tap % KW;
      v = to_acc(w[(g * cin + ci) * int(p.weight_strides[0]) + co * int(p.weight_strides[1]) +
                   kd * int(p.weight_strides[2]) + kh * int(p.weight_strides[3]) + kw * int(p.weight_strides[4])]);
    }
    ws[e] = v;
  }
  __syncthreads();
}

// Splits blockIdx.x and threadIdx.y into (n, g, w tile, first row, row end).
struct BlockPlace {
  int n, g, w_tile, row_begin, row_end;
};
__device__ __forceinline__ BlockPlace place_block(const Geometry& geo, int groups, int rows) {
  int b = blockIdx.x;
  BlockPlace bp;
  const int chunk = b % geo.row_chunks;
  b /= geo.row_chunks;
  bp.w_tile = b % geo.w_tiles;
  b /= geo.w_tiles;
  bp.g = b % groups;
  bp.n = b / groups;
  bp.row_begin = chunk * geo.rows_per_chunk + int(threadIdx.y);
  bp.row_end = min(rows, (chunk + 1) * geo.rows_per_chunk);
  return bp;
}

// The inner loops of both kernels: over the walked taps, load the NIN source channels of the tapped
// position once (src + a*s2 + b*s3 + c*s4, channel stride s1) and accumulate them into NOUT values
// with the tap's NIN x NOUT weights (shared memory, [tap][NIN][NOUT]). Forward: NIN = CI, NOUT = CO
// over the input; grad_input: NIN = CO, NOUT = CI over grad_output.
template <typename scalar_t, int NIN, int NOUT>
__device__ __forceinline__ void accumulate_taps(const TapWalk<int>& walk_d, const TapWalk<int>& walk_h,
                                                const TapWalk<int>& walk_w, const scalar_t* __restrict__ src,
                                                int s1, int s2, int s3, int s4, int count, bool vec,
                                                const typename AccType<scalar_t>::type* ws, int KH, int KW,
                                                typename AccType<scalar_t>::type (&acc)[NOUT]) {
  using acc_t = typename AccType<scalar_t>::type;
#pragma unroll
  for (int o = 0; o < NOUT; ++o) acc[o] = acc_t(0);
  int kd = walk_d.k, a = walk_d.idx;
#pragma unroll 1
  for (int td = 0; td < walk_d.count; ++td, kd += walk_d.k_step, a += walk_d.idx_step) {
    int kh = walk_h.k, b = walk_h.idx;
#pragma unroll 1
    for (int th = 0; th < walk_h.count; ++th, kh += walk_h.k_step, b += walk_h.idx_step) {
      const scalar_t* src_row = src + a * s2 + b * s3;
      const acc_t* w_row = ws + (kd * KH + kh) * KW * (NIN * NOUT);
      int kw = walk_w.k, c = walk_w.idx;
#pragma unroll 1
      for (int tw = 0; tw < walk_w.count; ++tw, kw += walk_w.k_step, c += walk_w.idx_step) {
        acc_t v[NIN];
        load_channels<scalar_t, NIN>(src_row + c * s4, s1, count, vec, v);
        const acc_t* w_tap = w_row + kw * (NIN * NOUT);
#pragma unroll
        for (int i = 0; i < NIN; ++i) {
          alignas(16) acc_t wv[NOUT];
          copy_vectors<acc_t, NOUT>(wv, w_tap + i * NOUT);
#pragma unroll
          for (int o = 0; o < NOUT; ++o) acc[o] = fma(v[i], wv[o], acc[o]);
        }
      }
    }
  }
}

// kSyncRows: a barrier per row step (grouped_forward says where); without it the loop is the same as before the
// barrier existed (run 81: the barrier-ready loop with the barrier off was still 5 % slower on L1-72).
template <typename scalar_t, int CI, int CO, bool kSyncRows>
__global__ void __launch_bounds__(kThreads, CI * CO <= 256         ? kForwardMinBlocksPerSm
                                          : sizeof(scalar_t) == 8 ? 1
                                                                  : kTiledForwardMinBlocksPerSm)
tconv_grouped_forward_kernel(const ConvTransposeParams p, const PhaseSteps st, const Geometry geo,
                             const scalar_t* __restrict__ x, const scalar_t* __restrict__ w,
                             const scalar_t* __restrict__ bias, scalar_t* __restrict__ y, bool vec_in, bool vec_out) {
  using acc_t = typename AccType<scalar_t>::type;
  extern __shared__ __align__(16) unsigned char grouped_smem[];
  acc_t* ws = reinterpret_cast<acc_t*>(grouped_smem);
  const int OD = int(p.out_size[0]), OH = int(p.out_size[1]), OW = int(p.out_size[2]);
  const int KH = int(p.kernel[1]), KW = int(p.kernel[2]);
  const int cin = int(p.in_per_group()), cout = int(p.out_per_group());
  const BlockPlace bp = place_block(geo, int(p.groups), OD * OH);
  stage_group_weights<true, CI, CO>(p, w, bp.g, ws);

  // W phase layout of the slots: slot = phase * Wq + j  ->  ow = phase + s_w * j.
  const int sw = int(p.stride[2]);
  const int wq = (OW + sw - 1) / sw;
  const int slot = bp.w_tile * geo.tile_w + int(threadIdx.x);
  const int phase = slot / wq;
  const int ow = phase + sw * (slot - phase * wq);
  const bool active = phase < sw && ow < OW;
  if constexpr (!kSyncRows) {
    if (!active) return;  // no barrier follows
  }
  const TapWalk<int> walk_w = forward_taps<int>(ow, KW, sw, int(p.padding[2]), int(p.dilation[2]), int(p.in_size[2]),
                                                st.k_step[2], st.i_step[2]);

  const int xs1 = int(p.input_strides[1]), xs2 = int(p.input_strides[2]), xs3 = int(p.input_strides[3]),
            xs4 = int(p.input_strides[4]);
  const int ys1 = int(p.output_strides[1]), ys2 = int(p.output_strides[2]), ys3 = int(p.output_strides[3]);
  const scalar_t* x_group = x + bp.n * int(p.input_strides[0]) + bp.g * cin * xs1;
  scalar_t* y_col = y + bp.n * int(p.output_strides[0]) + bp.g * cout * ys1 + ow * int(p.output_strides[4]);
  // Bias is re-read (from L1) at each store rather than held: CO registers less across the loop.
  const scalar_t* bias_group = bias != nullptr ? bias + bp.g * cout * int(p.bias_stride) : nullptr;

  int od = bp.row_begin / OH, oh = bp.row_begin % OH;
  int walked_od = -1;
  TapWalk<int> walk_d{0, 1, 0, 0, 0};
#pragma unroll 1
  // With the barrier, every thread takes the block's row steps (threadIdx.y's own may end one step sooner).
  for (int row = bp.row_begin; (kSyncRows ? row - int(threadIdx.y) : row) < bp.row_end; row += geo.rows_parallel) {
    if (!kSyncRows || (active && row < bp.row_end)) {
      if (od != walked_od) {  // rows advance along H first: the D walk changes rarely
        walk_d = forward_taps<int>(od, int(p.kernel[0]), int(p.stride[0]), int(p.padding[0]), int(p.dilation[0]),
                                   int(p.in_size[0]), st.k_step[0], st.i_step[0]);
        walked_od = od;
      }
      const TapWalk<int> walk_h = forward_taps<int>(oh, KH, int(p.stride[1]), int(p.padding[1]),
                                                    int(p.dilation[1]), int(p.in_size[1]), st.k_step[1], st.i_step[1]);
      acc_t acc[CO];
      accumulate_taps<scalar_t, CI, CO>(walk_d, walk_h, walk_w, x_group, xs1, xs2, xs3, xs4, cin, vec_in, ws, KH,
                                        KW, acc);
      if (bias_group != nullptr) {
#pragma unroll
        for (int co = 0; co < CO; ++co)
          if (co < cout) acc[co] += to_acc(bias_group[co * int(p.bias_stride)]);
      }
      store_channels<scalar_t, CO>(y_col + od * ys2 + oh * ys3, ys1, cout, vec_out, acc);
    }
    if constexpr (kSyncRows) __syncthreads();
    oh += geo.rows_parallel;
    while (oh >= OH) {
      oh -= OH;
      ++od;
    }
  }
}

template <typename scalar_t, int CI, int CO>
__global__ void __launch_bounds__(kThreads, kGradInputMinBlocksPerSm)
tconv_grouped_grad_input_kernel(const ConvTransposeParams p, const Geometry geo, const scalar_t* __restrict__ dy,
                                const scalar_t* __restrict__ w, scalar_t* __restrict__ dx, bool vec_in, bool vec_out) {
  using acc_t = typename AccType<scalar_t>::type;
  extern __shared__ __align__(16) unsigned char grouped_smem[];
  acc_t* ws = reinterpret_cast<acc_t*>(grouped_smem);
  const int ID = int(p.in_size[0]), IH = int(p.in_size[1]), IW = int(p.in_size[2]);
  const int KH = int(p.kernel[1]), KW = int(p.kernel[2]);
  const int cin = int(p.in_per_group()), cout = int(p.out_per_group());
  const BlockPlace bp = place_block(geo, int(p.groups), ID * IH);
  stage_group_weights<false, CI, CO>(p, w, bp.g, ws);

  const int iw = bp.w_tile * geo.tile_w + int(threadIdx.x);
  if (iw >= IW) return;  // no barrier follows
  const TapWalk<int> walk_w = grad_input_taps<int>(iw, KW, int(p.stride[2]), int(p.padding[2]), int(p.dilation[2]),
                                                   int(p.out_size[2]));
  const int ys1 = int(p.output_strides[1]), ys2 = int(p.output_strides[2]), ys3 = int(p.output_strides[3]),
            ys4 = int(p.output_strides[4]);
  const int xs1 = int(p.input_strides[1]), xs2 = int(p.input_strides[2]), xs3 = int(p.input_strides[3]);
  const scalar_t* dy_group = dy + bp.n * int(p.output_strides[0]) + bp.g * cout * ys1;
  scalar_t* dx_col = dx + bp.n * int(p.input_strides[0]) + bp.g * cin * xs1 + iw * int(p.input_strides[4]);

  int id = bp.row_begin / IH, ih = bp.row_begin % IH;
  int walked_id = -1;
  TapWalk<int> walk_d{0, 1, 0, 0, 0};
#pragma unroll 1
  for (int row = bp.row_begin; row < bp.row_end; row += geo.rows_parallel) {
    if (id != walked_id) {
      walk_d = grad_input_taps<int>(id, int(p.kernel[0]), int(p.stride[0]), int(p.padding[0]), int(p.dilation[0]),
                                    int(p.out_size[0]));
      walked_id = id;
    }
    const TapWalk<int> walk_h = grad_input_taps<int>(ih, KH, int(p.stride[1]), int(p.padding[1]), int(p.dilation[1]),
                                                     int(p.out_size[1]));
    acc_t acc[CI];
    accumulate_taps<scalar_t, CO, CI>(walk_d, walk_h, walk_w, dy_group, ys1, ys2, ys3, ys4, cout, vec_in, ws, KH,
                                      KW, acc);
    store_channels<scalar_t, CI>(dx_col + id * xs2 + ih * xs3, xs1, cin, vec_out, acc);
    ih += geo.rows_parallel;
    while (ih >= IH) {
      ih -= IH;
      ++id;
    }
  }
}

// grad_weight: per group a GEMM [CI] x [CO x taps] reduced over batch x input positions (DESIGN.md
// section 2), far too narrow for tensor cores and, per tap, re-reading the inputs once per tap (the
// direct kernel: 27x on L1-73). Here a block walks "stages" of one (n, group): one input plane id,
// rows_h input rows and tile_w input columns. It stages the stage's x (CI x rows_h x tile_w) and the
// grad_output box every tap reaches from it (CO x KD planes x dy_rows x dy_cols, conv_params.h
// output_box_of_inputs) in shared memory as acc_t, zero outside the tensors, so the inner loop needs
// no bounds checks: a pair whose output falls outside multiplies a zero. Each of x and grad_output is
// then read from global memory once per stage that contains it (grad_output's halo: about 1.9x on
// L1-73, see the prediction below).
// Threads own register blocks: a "column" is one tap x CB input channels (CB x CO accumulators,
// at most 64 fp32 / 32 fp64 registers); a block holds block_columns columns (column = tap * ci
// blocks + ci block, so neighbouring lanes take neighbouring kw and read neighbouring grad_output
// words) and position_lanes = 256 / block_columns threads per column, which split the stage's
// positions. Per position a thread reads CB x values (the same address across a warp's lanes of
// one position: a broadcast) and CO grad_output values, then does CB x CO FMAs.
// The reduction is deterministic: position lanes are summed into lane 0 in lane order through
// shared memory, each block writes its partial sums to its own split's slice of the workspace
// ([splits][weight numel], acc_t), and sum_splits adds the splits in order.
//
// Prediction, L1-73 on an H200 (fp32, 8x8 channels per group, 27 taps, tile 2 rows x 32 columns):
// bytes from DRAM: x 134 MB + grad_output 1.04 GB once = 1.17 GB -> 0.28 ms at 4.2 TB/s; from L2 the
// grad_output boxes overlap (3 kd planes for 2 output planes per input plane, 5 rows for 4, 67
// columns for 64): ~2.0 GB L2 -> SM. Instructions: 7.25e9 FMAs; per stage a thread issues ~7 positions
// x (64 FFMA + 16 LDS + ~6) ~ 600 and ~380 for staging (15 grad_output rows of 67 columns per warp),
// 243 of 256 threads compute: ~45% FFMA issue efficiency -> ~5.3e8 warp instructions / (132 SMs x 4
// x 1.98 GHz) = 0.51 ms. Expected 0.5-0.8 ms (instruction and staging-latency bound, 2 blocks per
// SM, one barrier pair per stage), against 2.64 ms for the direct kernel. L1-72 (105 taps, tile 4
// rows x 16 columns, 2 position lanes, 210 threads computing): 2.97e9 FMAs at ~50% -> ~0.2 ms
// (its DRAM floor is 0.03 ms), against 0.88 ms.
// Measured, run 19 (H200, TF32 mode, tconv-only timings): the prediction was wrong by ~9x. With this
// kernel under "auto", L1-73 fwd+bwd went 4.91 -> 7.09 ms (grad_weight ~4.8 ms against 2.64 direct)
// and L1-72 1.89 -> 2.35 ms. Not profiled yet; the staging (no overlap of the next stage's copies with
// the FMAs, one barrier pair per stage) and the 1.9x grad_output halo are the first suspects. Until
// it wins, "auto" keeps the direct kernel and this one runs only when "grouped" is forced (tests).

// Accumulators per thread capped at 64 fp32 (32 fp64) registers: CB input channels of one tap.
__host__ __device__ constexpr int grad_weight_ci_block(int ci, int co, int acc_bytes) {
  return ci < (acc_bytes == 8 ? 32 : 64) / co ? ci : (acc_bytes == 8 ? 32 : 64) / co;
}
// Two resident blocks per SM: ptxas caps registers at 128 (64 accumulators + operands fit).
constexpr int kGradWeightMinBlocksPerSm = 2;
// Blocks the split aims for per SM: two waves of two resident blocks (fewer splits keep
// sum_splits short: it reads splits x weight numel). First guess, not measured.
constexpr int kGradWeightBlocksPerSmTarget = 4;
constexpr int kWarps = kThreads / 32;

// Host-computed stage geometry and work split (conv_transpose_grouped.cu plan_grad_weight).
struct GradWeightPlan {
  int tile_w = 1, tile_w_shift = 0, rows_h = 1;  // input positions of a stage: rows_h x tile_w (tile_w a power of 2)
  int dy_rows = 1, dy_cols = 1, dy_row_pitch = 1;  // grad_output box per kd plane (the pitch spreads banks)
  int x_channel = 0, dy_plane = 0, dy_channel = 0;  // shared-memory pitches in elements
  int h_tiles = 1, w_tiles = 1, stages = 0, stages_per_split = 1;
  int columns = 0, block_columns = 1, column_chunks = 1, position_lanes = 1;
  int64_t splits = 1;  // blocks per (group, column chunk); partial slices in the workspace
  int64_t smem_bytes = 0;  // 0: no stage fits in shared memory
};

template <typename scalar_t, int CI, int CO>
__global__ void __launch_bounds__(kThreads, kGradWeightMinBlocksPerSm)
tconv_grouped_grad_weight_kernel(const ConvTransposeParams p, const GradWeightPlan plan, const scalar_t* __restrict__ x,
                                 const scalar_t* __restrict__ dy, typename AccType<scalar_t>::type* __restrict__ partial) {
  using acc_t = typename AccType<scalar_t>::type;
  constexpr int CB = grad_weight_ci_block(CI, CO, int(sizeof(acc_t)));
  constexpr int kCiBlocks = CI / CB;
  extern __shared__ __align__(16) unsigned char grouped_smem[];
  acc_t* x_stage = reinterpret_cast<acc_t*>(grouped_smem);  // [CI][rows_h][tile_w]
  acc_t* dy_stage = x_stage + CI * plan.x_channel;          // [CO][KD][dy_rows][dy_row_pitch]
  const int ID = int(p.in_size[0]), IH = int(p.in_size[1]), IW = int(p.in_size[2]);
  const int OD = int(p.out_size[0]), OH = int(p.out_size[1]), OW = int(p.out_size[2]);
  const int KD = int(p.kernel[0]), KH = int(p.kernel[1]), KW = int(p.kernel[2]);
  const int sd = int(p.stride[0]), sh = int(p.stride[1]), sw = int(p.stride[2]);
  const int pd = int(p.padding[0]), ph = int(p.padding[1]), pw = int(p.padding[2]);
  const int dd = int(p.dilation[0]), dh = int(p.dilation[1]), dw = int(p.dilation[2]);
  const int cin = int(p.in_per_group()), cout = int(p.out_per_group()), taps = KD * KH * KW;
  const int groups = int(p.groups);

  int b = blockIdx.x;
  const int column_chunk = b % plan.column_chunks;
  b /= plan.column_chunks;
  const int g = b % groups;
  const int split = b / groups;

  const int tid = int(threadIdx.x), warp = tid / 32, lane = tid % 32;
  const int local_column = tid % plan.block_columns, position_lane = tid / plan.block_columns;
  const int column = column_chunk * plan.block_columns + local_column;
  const bool computes = position_lane < plan.position_lanes && column < plan.columns;
  const int tap = column / kCiBlocks, ci_block = column % kCiBlocks;
  const int kd = tap / (KH * KW), kh = (tap / KW) % KH, kw = tap % KW;
  const acc_t* x_block = x_stage + ci_block * CB * plan.x_channel;
  const acc_t* dy_tap = dy_stage + kd * plan.dy_plane + output_box_offset(0, kh, sh, dh) * plan.dy_row_pitch +
                        output_box_offset(0, kw, sw, dw);

  // Channels beyond cin / cout (the power-of-two padding) stay zero: staging never writes them.
  for (int e = tid; e < CI * plan.x_channel + CO * plan.dy_channel; e += kThreads) x_stage[e] = acc_t(0);

  acc_t acc[CB][CO];
#pragma unroll
  for (int c = 0; c < CB; ++c)
#pragma unroll
    for (int o = 0; o < CO; ++o) acc[c][o] = acc_t(0);

  const int xs1 = int(p.input_strides[1]), xs3 = int(p.input_strides[3]), xs4 = int(p.input_strides[4]);
  const int ys1 = int(p.output_strides[1]), ys2 = int(p.output_strides[2]), ys3 = int(p.output_strides[3]),
            ys4 = int(p.output_strides[4]);
  const int positions = plan.rows_h * plan.tile_w;
  const int dy_plane_rows = KD * plan.dy_rows;
  const int stage_end = int(min(int64_t(plan.stages), int64_t(split + 1) * plan.stages_per_split));
#pragma unroll 1
  for (int stage = split * plan.stages_per_split; stage < stage_end; ++stage) {
    const int w_tile = stage % plan.w_tiles;
    int rest = stage / plan.w_tiles;
    const int h_tile = rest % plan.h_tiles;
    rest /= plan.h_tiles;
    const int id = rest % ID, n = rest / ID;
    const int ih0 = h_tile * plan.rows_h, iw0 = w_tile * plan.tile_w;
    __syncthreads();  // the previous stage's reads (or the zero fill) are done

    const scalar_t* x_src = x + n * int(p.input_strides[0]) + g * cin * xs1 + id * int(p.input_strides[2]);
#pragma unroll 1
    for (int row = warp; row < cin * plan.rows_h; row += kWarps) {
      const int ci = row / plan.rows_h, r = row % plan.rows_h, ih = ih0 + r;
      acc_t* dst = x_stage + ci * plan.x_channel + r * plan.tile_w;
      for (int j = lane; j < plan.tile_w; j += 32) {
        const int iw = iw0 + j;
        dst[j] = ih < IH && iw < IW ? to_acc(x_src[ci * xs1 + ih * xs3 + iw * xs4]) : acc_t(0);
      }
    }
    const int od0 = output_box_of_inputs(id, 1, KD, sd, pd, dd).begin;
    const int oh0 = output_box_of_inputs(ih0, plan.rows_h, KH, sh, ph, dh).begin;
    const int ow0 = output_box_of_inputs(iw0, plan.tile_w, KW, sw, pw, dw).begin;
    const scalar_t* dy_src = dy + n * int(p.output_strides[0]) + g * cout * ys1;
#pragma unroll 1
    for (int row = warp; row < cout * dy_plane_rows; row += kWarps) {
      const int co = row / dy_plane_rows, plane = (row % dy_plane_rows) / plan.dy_rows, hh = row % plan.dy_rows;
      const int od = od0 + output_box_offset(0, plane, sd, dd), oh = oh0 + hh;
      const bool row_inside = od >= 0 && od < OD && oh >= 0 && oh < OH;
      const scalar_t* src = dy_src + co * ys1 + (row_inside ? od * ys2 + oh * ys3 : 0);
      acc_t* dst = dy_stage + co * plan.dy_channel + plane * plan.dy_plane + hh * plan.dy_row_pitch;
      for (int w = lane; w < plan.dy_cols; w += 32) {
        const int ow = ow0 + w;
        dst[w] = row_inside && ow >= 0 && ow < OW ? to_acc(src[ow * ys4]) : acc_t(0);
      }
    }
    __syncthreads();

    if (computes) {
#pragma unroll 1
      for (int q = position_lane; q < positions; q += plan.position_lanes) {
        const int r = q >> plan.tile_w_shift, j = q & (plan.tile_w - 1);
        acc_t xv[CB];
#pragma unroll
        for (int c = 0; c < CB; ++c) xv[c] = x_block[c * plan.x_channel + q];
        const acc_t* dy_pos =
            dy_tap + output_box_offset(r, 0, sh, dh) * plan.dy_row_pitch + output_box_offset(j, 0, sw, dw);
#pragma unroll
        for (int o = 0; o < CO; ++o) {
          const acc_t dv = dy_pos[o * plan.dy_channel];
#pragma unroll
          for (int c = 0; c < CB; ++c) acc[c][o] = fma(xv[c], dv, acc[c][o]);
        }
      }
    }
  }

  // Position lanes 1, 2, ... are added into lane 0 in that order (deterministic), through shared
  // memory that the stages no longer need: [block_columns][CB * CO].
  acc_t* exchange = reinterpret_cast<acc_t*>(grouped_smem) + local_column * (CB * CO);
#pragma unroll 1
  for (int source = 1; source < plan.position_lanes; ++source) {
    __syncthreads();
    if (computes && position_lane == source) {
#pragma unroll
      for (int c = 0; c < CB; ++c)
#pragma unroll
        for (int o = 0; o < CO; ++o) exchange[c * CO + o] = acc[c][o];
    }
    __syncthreads();
    if (computes && position_lane == 0) {
#pragma unroll
      for (int c = 0; c < CB; ++c)
#pragma unroll
        for (int o = 0; o < CO; ++o) acc[c][o] += exchange[c * CO + o];
    }
  }
  if (!computes || position_lane != 0) return;
  const int64_t weight_numel = int64_t(p.in_channels) * cout * taps;
  acc_t* out = partial + split * weight_numel;
#pragma unroll
  for (int c = 0; c < CB; ++c) {
    const int ci = ci_block * CB + c;
#pragma unroll
    for (int o = 0; o < CO; ++o)
      if (ci < cin && o < cout) out[(int64_t(g * cin + ci) * cout + o) * taps + tap] = acc[c][o];
  }
}

int round_up_pow2(int64_t v) {
  int r = 1;
  while (r < v) r *= 2;
  return r;
}

// Channels of one position can be moved as vectors: contiguous, all real (count == padded N), and
// every address a multiple of the vector width (base pointer and every other stride).
template <typename scalar_t, int N>
bool channels_vectorizable(const void* base, const int64_t strides[5], int64_t count) {
  constexpr int kBytes = vector_bytes(int(N * sizeof(scalar_t)));
  if (count != N || strides[1] != 1 || reinterpret_cast<uintptr_t>(base) % kBytes != 0) return false;
  for (int i : {0, 2, 3, 4})
    if ((strides[i] * int64_t(sizeof(scalar_t))) % kBytes != 0) return false;
  return true;
}

// rows x slots per (n, g): slots along W in blocks of tile_w threads, rows split into chunks so the
// grid holds about kBlocksPerSmTarget blocks per SM.
Geometry make_geometry(const ConvTransposeParams& p, int64_t rows, int64_t slots, int sm_count) {
  Geometry geo;
  geo.tile_w = std::min(kThreads, std::max(32, round_up_pow2(slots)));
  geo.rows_parallel = kThreads / geo.tile_w;
  geo.w_tiles = static_cast<int>((slots + geo.tile_w - 1) / geo.tile_w);
  const int64_t outer = p.batch * p.groups * geo.w_tiles;
  const int64_t max_chunks = std::max<int64_t>(1, (rows + geo.rows_parallel - 1) / geo.rows_parallel);
  const int64_t want = (int64_t(std::max(sm_count, 1)) * kBlocksPerSmTarget + outer - 1) / std::max<int64_t>(outer, 1);
  const int64_t chunks = std::max<int64_t>(1, std::min(want, max_chunks));
  int64_t per_chunk = (rows + chunks - 1) / chunks;
  per_chunk = (per_chunk + geo.rows_parallel - 1) / geo.rows_parallel * geo.rows_parallel;
  geo.rows_per_chunk = static_cast<int>(std::max<int64_t>(per_chunk, 1));
  geo.row_chunks = static_cast<int>((rows + geo.rows_per_chunk - 1) / geo.rows_per_chunk);
  geo.blocks = outer * geo.row_chunks;
  return geo;
}

int64_t shared_bytes(const ConvTransposeParams& p, DType dtype) {
  return p.kernel_volume() * round_up_pow2(p.in_per_group()) * round_up_pow2(p.out_per_group()) *
         accumulator_bytes(dtype);
}

// Turns a power of two 1..16 into a compile-time constant.
#define TCONV_POW2_SWITCH(VALUE, NAME, ...)                       \
  [&]() -> cudaError_t {                                          \
    switch (VALUE) {                                              \
      case 1: { constexpr int NAME = 1; return __VA_ARGS__(); }   \
      case 2: { constexpr int NAME = 2; return __VA_ARGS__(); }   \
      case 4: { constexpr int NAME = 4; return __VA_ARGS__(); }   \
      case 8: { constexpr int NAME = 8; return __VA_ARGS__(); }   \
      case 16: { constexpr int NAME = 16; return __VA_ARGS__(); } \
    }                                                             \
    return cudaErrorInvalidValue;                                 \
  }()

// Stage geometry of the grad_weight kernel: the W tile is the widest power of two up to 32 (not
// below 8 unless IW is smaller) with the least padding past IW, then the most H rows (4, 2, 1) whose
// stage fits in shared memory. The row pitch that spreads a warp's taps over banks (pitch = KW*d_w
// mod 32, so taps (kh, kw) of one plane land on distinct banks for small kernels) is dropped before
// the tile shrinks below that. False when not even a one-position stage fits: the shapes that
// grouped_supported accepts but grouped_grad_weight_supported refuses (large dilated H x W taps).
bool plan_grad_weight_stage(const ConvTransposeParams& p, DType dtype, GradWeightPlan* plan) {
  const int64_t ci = round_up_pow2(p.in_per_group()), co = round_up_pow2(p.out_per_group());
  const int64_t acc_bytes = accumulator_bytes(dtype);
  const int64_t cb = grad_weight_ci_block(int(ci), int(co), int(acc_bytes));
  const int64_t columns = p.kernel_volume() * (ci / cb);
  const int64_t block_columns = std::min<int64_t>(columns, kThreads);
  const int64_t position_lanes = kThreads / block_columns;
  const int64_t exchange = position_lanes > 1 ? block_columns * cb * co : 0;
  const int64_t IW = p.in_size[2], IH = p.in_size[1];
  const int64_t widest = std::min<int64_t>(32, round_up_pow2(std::max<int64_t>(IW, 1)));
  std::vector<int64_t> tiles;  // preferred first
  for (int64_t t = widest; t >= std::min<int64_t>(8, widest); t /= 2) tiles.push_back(t);
  std::stable_sort(tiles.begin(), tiles.end(), [&](int64_t a, int64_t b) {
    return (IW + a - 1) / a * a < (IW + b - 1) / b * b;
  });
  for (int64_t t = std::min<int64_t>(8, widest) / 2; t >= 1; t /= 2) tiles.push_back(t);
  for (const bool spread_banks : {true, false}) {
    for (const int64_t tile_w : tiles) {
      for (const int64_t rows_h : {4, 2, 1}) {
        if (rows_h > 1 && rows_h > IH) continue;
        const int64_t dy_rows = output_box_of_inputs<int64_t>(0, rows_h, p.kernel[1], p.stride[1], p.padding[1],
                                                              p.dilation[1]).extent;
        const int64_t dy_cols = output_box_of_inputs<int64_t>(0, tile_w, p.kernel[2], p.stride[2], p.padding[2],
                                                              p.dilation[2]).extent;
        const int64_t spread = ((p.kernel[2] * p.dilation[2] - dy_cols) % 32 + 32) % 32;
        const int64_t pitch = dy_cols + (spread_banks ? spread : 0);
        const int64_t x_channel = rows_h * tile_w, dy_plane = dy_rows * pitch, dy_channel = p.kernel[0] * dy_plane;
        const int64_t bytes = std::max(ci * x_channel + co * dy_channel, exchange) * acc_bytes;
        if (bytes > kGroupedMaxSharedBytes) continue;
        plan->tile_w = int(tile_w);
        plan->tile_w_shift = 0;
        while ((int64_t(1) << plan->tile_w_shift) < tile_w) ++plan->tile_w_shift;
        plan->rows_h = int(rows_h);
        plan->dy_rows = int(dy_rows);
        plan->dy_cols = int(dy_cols);
        plan->dy_row_pitch = int(pitch);
        plan->x_channel = int(x_channel);
        plan->dy_plane = int(dy_plane);
        plan->dy_channel = int(dy_channel);
        plan->columns = int(columns);
        plan->block_columns = int(block_columns);
        plan->column_chunks = int((columns + block_columns - 1) / block_columns);
        plan->position_lanes = int(position_lanes);
        plan->smem_bytes = bytes;
        return true;
      }
    }
  }
  return false;
}

// Stage geometry plus the split of the stages over blocks: about kGradWeightBlocksPerSmTarget blocks
// per SM, within the caller's workspace budget (max_workspace_elems acc_t elements).
GradWeightPlan plan_grad_weight(const ConvTransposeParams& p, DType dtype, int sm_count, int64_t max_workspace_elems) {
  GradWeightPlan plan;
  if (!plan_grad_weight_stage(p, dtype, &plan)) return plan;
  plan.h_tiles = int((p.in_size[1] + plan.rows_h - 1) / plan.rows_h);
  plan.w_tiles = int((p.in_size[2] + plan.tile_w - 1) / plan.tile_w);
  // Below 2^31: every stage holds an input position, and grouped_supported bounds their count.
  const int64_t stages = p.batch * p.in_size[0] * plan.h_tiles * plan.w_tiles;
  plan.stages = int(stages);
  const int64_t weight_numel = p.in_channels * p.out_per_group() * p.kernel_volume();
  const int64_t blocks_per_split = p.groups * plan.column_chunks;
  int64_t splits = (int64_t(std::max(sm_count, 1)) * kGradWeightBlocksPerSmTarget + blocks_per_split - 1) /
                   blocks_per_split;
  splits = std::min(splits, std::max<int64_t>(max_workspace_elems / std::max<int64_t>(weight_numel, 1), 1));
  splits = std::max<int64_t>(1, std::min(splits, stages));
  const int64_t per_split = std::max<int64_t>(1, (stages + splits - 1) / splits);
  plan.stages_per_split = int(per_split);
  plan.splits = std::max<int64_t>(1, (stages + per_split - 1) / per_split);
  return plan;
}

// The forward kernel's launch for p, which grouped_supported or grouped_tiled_forward_supported accepted (CI and CO
// the compile-time channel counts: C_in/g and C_out/g rounded up to powers of two, or the tiles').
template <typename scalar_t, int CI, int CO>
cudaError_t launch_grouped_forward(const ConvTransposeParams& p, DType dtype, const void* input, const void* weight,
                                   const void* bias, void* output, int sm_count, cudaStream_t stream) {
  PhaseSteps st;
  for (int i = 0; i < kSpatialDims; ++i) {
    const int64_t g = gcd_of<int64_t>(p.stride[i], p.dilation[i]);
    st.k_step[i] = static_cast<int>(p.stride[i] / g);
    st.i_step[i] = static_cast<int>(p.dilation[i] / g);
  }
  const int64_t wq = (p.out_size[2] + p.stride[2] - 1) / p.stride[2];
  const Geometry geo = make_geometry(p, p.out_size[0] * p.out_size[1], p.stride[2] * wq, sm_count);
  if (geo.blocks > 0x7fffffff) return cudaErrorInvalidConfiguration;
  // At W stride > 1 the warps of different phases write alternate words of the same sectors, and their
  // walks differ in length (L1-73: one W tap at even ow, two at odd). Unsynchronised, they drift apart by
  // up to half a block's rows, and L2 evicts half-written sectors: DRAM then fills and writes them twice
  // (run 74, ncu: 1.49 GB written and 0.84 GB read for a 1.04 GB output and a 0.13 GB input). A barrier
  // per row step bounds the drift to one row. Only where a block has many row steps: otherwise the block's
  // length bounds the drift anyway. Run 80 (H200, TF32 forward, same process): L1-73 (63 steps per block)
  // 1.426 -> 1.288 ms. L1-72 (9 steps) went 0.529 -> 0.555 with the barrier, and run 81 still measured 0.556
  // with the barrier off and the barrier-ready loop. So that loss was the loop's, and it is why the kernel
  // without the barrier is now a separate instantiation (kSyncRows). Whether L1-72 gains from the barrier
  // has not been measured.
  const bool sync_rows = p.stride[2] > 1 && geo.rows_per_chunk / geo.rows_parallel > kSyncRowsMinSteps;
  const size_t smem = size_t(p.kernel_volume()) * CI * CO * size_t(accumulator_bytes(dtype));
  const bool vec_in = channels_vectorizable<scalar_t, CI>(input, p.input_strides, p.in_per_group());
  const bool vec_out = channels_vectorizable<scalar_t, CO>(output, p.output_strides, p.out_per_group());
  return TCONV_BOOL_SWITCH(sync_rows, kSyncRows, [&] {
    tconv_grouped_forward_kernel<scalar_t, CI, CO, kSyncRows>
        <<<static_cast<unsigned int>(geo.blocks), dim3(geo.tile_w, geo.rows_parallel), smem, stream>>>(
            p, st, geo, static_cast<const scalar_t*>(input), static_cast<const scalar_t*>(weight),
            static_cast<const scalar_t*>(bias), static_cast<scalar_t*>(output), vec_in, vec_out);
    return cudaGetLastError();
  });
}

// The tiled forward's channel counts: up to kGroupedTiledMaxInChannels inputs (a power of two 1..32), output channels
// in tiles of kGroupedTileOutChannels.
int64_t tiled_forward_shared_bytes(const ConvTransposeParams& p, DType dtype) {
  return p.kernel_volume() * round_up_pow2(p.in_per_group()) * kGroupedTileOutChannels * accumulator_bytes(dtype);
}

}  // namespace

#if !TCONV_GROUPED_16BIT
bool grouped_supported(const ConvTransposeParams& p, DType dtype) {
  const int64_t cin = p.in_per_group(), cout = p.out_per_group();
  if (cin < 1 || cin > kGroupedMaxChannels || cout < 1 || cout > kGroupedMaxChannels) return false;
  if (shared_bytes(p, dtype) > kGroupedMaxSharedBytes) return false;
  return grouped_offsets_fit(p);
}

bool grouped_offsets_fit(const ConvTransposeParams& p) {
  const int64_t cout = p.out_per_group();
  constexpr int64_t kLimit = (int64_t(1) << 31) - 1;
  const int64_t in_sizes[5] = {p.batch, p.in_channels, p.in_size[0], p.in_size[1], p.in_size[2]};
  const int64_t out_sizes[5] = {p.batch, p.out_channels, p.out_size[0], p.out_size[1], p.out_size[2]};
  const int64_t w_sizes[5] = {p.in_channels, cout, p.kernel[0], p.kernel[1], p.kernel[2]};
  const int64_t counts[3] = {p.batch * p.in_channels * p.in_spatial(), p.batch * p.out_channels * p.out_spatial(),
                             p.in_channels * cout * p.kernel_volume()};
  for (int64_t c : counts)
    if (c >= kLimit) return false;
  return max_offset(in_sizes, p.input_strides, 5) < kLimit && max_offset(out_sizes, p.output_strides, 5) < kLimit &&
         max_offset(w_sizes, p.weight_strides, 5) < kLimit;
}

bool grouped_preferred(const ConvTransposeParams& p) {
  return p.in_per_group() * p.out_per_group() <= kGroupedPreferredMaxChannelProduct;
}

bool grouped_tiled_forward_supported(const ConvTransposeParams& p, DType dtype) {
  const int64_t cin = p.in_per_group(), cout = p.out_per_group();
  if (p.groups != 1 || cin < 1 || cin > kGroupedTiledMaxInChannels || cout <= kGroupedTileOutChannels) return false;
  return tiled_forward_shared_bytes(p, dtype) <= kGroupedMaxSharedBytes && grouped_offsets_fit(p);
}

bool grouped_grad_weight_supported(const ConvTransposeParams& p, DType dtype) {
  GradWeightPlan plan;
  return grouped_supported(p, dtype) && plan_grad_weight_stage(p, dtype, &plan);
}

int64_t grouped_grad_weight_splits(const ConvTransposeParams& p, DType dtype, int sm_count,
                                   int64_t max_workspace_elems) {
  return plan_grad_weight(p, dtype, sm_count, max_workspace_elems).splits;
}

// The fp16 / bf16 forms of the launching entry points (conv_transpose_grouped_16bit.cu).
cudaError_t grouped_tiled_forward_16bit(const ConvTransposeParams& p, DType dtype, const void* input,
                                        const void* weight, const void* bias, void* output, int sm_count,
                                        cudaStream_t stream);
cudaError_t grouped_forward_16bit(const ConvTransposeParams& p, DType dtype, const void* input, const void* weight,
                                  const void* bias, void* output, int sm_count, cudaStream_t stream);
cudaError_t grouped_grad_input_16bit(const ConvTransposeParams& p, DType dtype, const void* grad_output,
                                     const void* weight, void* grad_input, int sm_count, cudaStream_t stream);
cudaError_t grouped_grad_weight_16bit(const ConvTransposeParams& p, DType dtype, const void* input,
                                      const void* grad_output, void* grad_weight, void* workspace, int sm_count,
                                      int64_t max_workspace_elems, cudaStream_t stream);
#endif  // !TCONV_GROUPED_16BIT
// (in this unit: 16-bit calls go to the 16-bit unit)
#if TCONV_GROUPED_16BIT
#define TCONV_GROUPED_ROUTE_16BIT(dtype, name, ...) \
  do {                                              \
  } while (0)
#else
#define TCONV_GROUPED_ROUTE_16BIT(dtype, name, ...) \
  do {                                              \
    if (is_16bit(dtype)) return name##_16bit(__VA_ARGS__); \
  } while (0)
#endif

cudaError_t TCONV_GROUPED_ENTRY(grouped_tiled_forward)(const ConvTransposeParams& p, DType dtype, const void* input,
                                                       const void* weight, const void* bias, void* output,
                                                       int sm_count, cudaStream_t stream) {
  TCONV_GROUPED_ROUTE_16BIT(dtype, grouped_tiled_forward, p, dtype, input, weight, bias, output, sm_count, stream);
  if (p.batch * p.out_channels * p.out_spatial() == 0) return cudaSuccess;
  if (!grouped_tiled_forward_supported(p, dtype)) return cudaErrorInvalidValue;
  const int64_t bytes = element_bytes(dtype);
  for (int64_t co0 = 0; co0 < p.out_channels; co0 += kGroupedTileOutChannels) {
    // One launch per tile: the tile's channels as a call of their own (groups 1), by pointer offsets.
    ConvTransposeParams tile = p;
    tile.out_channels = std::min<int64_t>(kGroupedTileOutChannels, p.out_channels - co0);
    const char* w = static_cast<const char*>(weight) + co0 * p.weight_strides[1] * bytes;
    const char* b = bias != nullptr ? static_cast<const char*>(bias) + co0 * p.bias_stride * bytes : nullptr;
    char* y = static_cast<char*>(output) + co0 * p.output_strides[1] * bytes;
    const cudaError_t err = TCONV_GROUPED_DTYPE_SWITCH(dtype, scalar_t, [&] {
      return TCONV_POW2_SWITCH(std::min(round_up_pow2(p.in_per_group()), 16), CI, [&] {
        return round_up_pow2(p.in_per_group()) == 32
                   ? launch_grouped_forward<scalar_t, 32, kGroupedTileOutChannels>(tile, dtype, input, w, b, y,
                                                                                  sm_count, stream)
                   : launch_grouped_forward<scalar_t, CI, kGroupedTileOutChannels>(tile, dtype, input, w, b, y,
                                                                                  sm_count, stream);
      });
    });
    if (err != cudaSuccess) return err;
  }
  return cudaSuccess;
}

cudaError_t TCONV_GROUPED_ENTRY(grouped_forward)(const ConvTransposeParams& p, DType dtype, const void* input,
                                                 const void* weight, const void* bias, void* output, int sm_count,
                                                 cudaStream_t stream) {
  TCONV_GROUPED_ROUTE_16BIT(dtype, grouped_forward, p, dtype, input, weight, bias, output, sm_count, stream);
  if (p.batch * p.out_channels * p.out_spatial() == 0) return cudaSuccess;
  if (!grouped_supported(p, dtype)) return cudaErrorInvalidValue;
  return TCONV_GROUPED_DTYPE_SWITCH(dtype, scalar_t, [&] {
    return TCONV_POW2_SWITCH(round_up_pow2(p.in_per_group()), CI, [&] {
      return TCONV_POW2_SWITCH(round_up_pow2(p.out_per_group()), CO, [&] {
        return launch_grouped_forward<scalar_t, CI, CO>(p, dtype, input, weight, bias, output, sm_count, stream);
      });
    });
  });
}

cudaError_t TCONV_GROUPED_ENTRY(grouped_grad_input)(const ConvTransposeParams& p, DType dtype,
                                                    const void* grad_output, const void* weight, void* grad_input,
                                                    int sm_count, cudaStream_t stream) {
  TCONV_GROUPED_ROUTE_16BIT(dtype, grouped_grad_input, p, dtype, grad_output, weight, grad_input, sm_count, stream);
  if (p.batch * p.in_channels * p.in_spatial() == 0) return cudaSuccess;
  if (!grouped_supported(p, dtype)) return cudaErrorInvalidValue;
  const Geometry geo = make_geometry(p, p.in_size[0] * p.in_size[1], p.in_size[2], sm_count);
  if (geo.blocks > 0x7fffffff) return cudaErrorInvalidConfiguration;
  const size_t smem = static_cast<size_t>(shared_bytes(p, dtype));
  return TCONV_GROUPED_DTYPE_SWITCH(dtype, scalar_t, [&] {
    return TCONV_POW2_SWITCH(round_up_pow2(p.in_per_group()), CI, [&] {
      return TCONV_POW2_SWITCH(round_up_pow2(p.out_per_group()), CO, [&] {
        const bool vec_in = channels_vectorizable<scalar_t, CO>(grad_output, p.output_strides, p.out_per_group());
        const bool vec_out = channels_vectorizable<scalar_t, CI>(grad_input, p.input_strides, p.in_per_group());
        tconv_grouped_grad_input_kernel<scalar_t, CI, CO>
            <<<static_cast<unsigned int>(geo.blocks), dim3(geo.tile_w, geo.rows_parallel), smem, stream>>>(
                p, geo, static_cast<const scalar_t*>(grad_output), static_cast<const scalar_t*>(weight),
                static_cast<scalar_t*>(grad_input), vec_in, vec_out);
        return cudaGetLastError();
      });
    });
  });
}

cudaError_t TCONV_GROUPED_ENTRY(grouped_grad_weight)(const ConvTransposeParams& p, DType dtype, const void* input,
                                                     const void* grad_output, void* grad_weight, void* workspace,
                                                     int sm_count, int64_t max_workspace_elems,
                                                     cudaStream_t stream) {
  TCONV_GROUPED_ROUTE_16BIT(dtype, grouped_grad_weight, p, dtype, input, grad_output, grad_weight, workspace,
                            sm_count, max_workspace_elems, stream);
  if (!grouped_grad_weight_supported(p, dtype)) return cudaErrorInvalidValue;
  // Nothing to reduce (batch 0 or an empty input): the direct path writes zeros through one split.
  if (p.batch * p.in_spatial() == 0)
    return direct_grad_weight(p, dtype, input, grad_output, grad_weight, workspace, 1, stream);
  const GradWeightPlan plan = plan_grad_weight(p, dtype, sm_count, max_workspace_elems);
  const int64_t blocks = plan.splits * p.groups * plan.column_chunks;
  if (blocks > 0x7fffffff) return cudaErrorInvalidConfiguration;
  const cudaError_t err = TCONV_GROUPED_DTYPE_SWITCH(dtype, scalar_t, [&] {
    return TCONV_POW2_SWITCH(round_up_pow2(p.in_per_group()), CI, [&] {
      return TCONV_POW2_SWITCH(round_up_pow2(p.out_per_group()), CO, [&] {
        tconv_grouped_grad_weight_kernel<scalar_t, CI, CO>
            <<<static_cast<unsigned int>(blocks), kThreads, static_cast<size_t>(plan.smem_bytes), stream>>>(
                p, plan, static_cast<const scalar_t*>(input), static_cast<const scalar_t*>(grad_output),
                static_cast<typename AccType<scalar_t>::type*>(workspace));
        return cudaGetLastError();
      });
    });
  });
  if (err != cudaSuccess) return err;
  const int64_t sizes[5] = {p.in_channels, p.out_per_group(), p.kernel[0], p.kernel[1], p.kernel[2]};
  return sum_splits(dtype, workspace, plan.splits, sizes, p.weight_strides, grad_weight, stream);
}

}  // namespace tconv
