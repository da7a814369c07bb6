// Tensor-core kernels for few channels per group (<= 16 on each side: KernelBench L1-73 / L1-72, 8 x 8 per
// group): the gather passes, forward and grad_input, and (at the end) grad_weight. The FFMA kernels of conv_transpose_grouped.cu issue one
// FFMA per multiply-add (L1-73 forward: 7.25e9 of them, 1.43 ms against a 0.28 ms memory floor, run 64);
// an m16n8k8 TF32 MMA is exactly one group's 8 x 8 channel block per tap, so here every multiply-add
// runs on tensor cores and the kernel is left with the loads and the output write.
//
// Both passes are  dst[n, g, c, row, phase + dst_step * j] = sum_{taps, k} src[n, g, k, ...] * B[tap][k][c]
// (conv_transpose_igemm.cu's formulation): forward: src = x, k = input channel, c = output channel, the
// taps of the output W phase (no structural zeros), dst_step = stride_w; grad_input: src = grad_output,
// k = output channel, c = input channel, every tap, one phase. GEMM M = 16 * tiles_per_phase positions j
// of one phase at a time (one to four m16 tiles), N = the group's dst channels (8 or 16: one or two n8
// tiles), K = the src channels (8 or 16) per tap.
//
// Two forms. The lines form (below; session 39) stages the src lines of a tile of dst rows in shared memory and
// runs wherever its tile fits; run 78's form (first) loads A fragments from global memory and takes the rest.
// Status (run 267, H200, forward ms against the FFMA kernels): the lines form wins on L1-72 in every mode (TF32
// 0.528 -> 0.313, bf16 0.559 -> 0.316, 3xTF32 0.532 -> 0.473), on L1-73 in TF32 (1.280 -> 1.093) and bf16
// (1.359 -> 0.968) and on fam09 (TF32 1.438 -> 0.708, bf16 0.718 -> 0.582); it loses L1-73 in 3xTF32 (1.289 ->
// 1.449). "auto" takes it where grouped_mma_preferred says so; grad_input stays on the FFMA kernel there (the
// lines form's grad_input tile shrinks to one dst row on L1-73: slower, run 264).
//
// Run 78's form: a block owns (n, g) and a run of dst rows (D x H); it stages the group's weights once as MMA B
// fragments in shared memory (TF32-rounded in TF32 mode, fp32 for the 3xTF32 split). Its warps then take
// tasks on their own, with no block barrier: a task is one row's run of stage_w consecutive dst W
// positions, all W phases of them (16 * tiles_per_phase positions j per phase). For each phase the warp
// loads A fragments straight from global memory (lanes of one channel read consecutive positions:
// 32-byte sectors; a src element is reused across taps from L1/L2), accumulates over the row's (kd, kh)
// walks and the phase's W taps, and drops its C fragments into its own shared-memory tile; then it
// stores the tile's channel rows whole, coalesced, with the bias added.
// Why whole rows: run 74 (H200, ncu of the L1-73 forward) measured a form that stored each phase's
// fragments straight to global memory: every 32-byte sector was written in two halves by two tasks, and
// DRAM saw 1.80 GB written and 1.55 GB read (read-modify-write fills) for a 1.04 GB output and a 0.13 GB
// input, 2.22 ms; the FFMA kernel has the same phase-strided stores (1.49 GB written, 0.84 GB read,
// 1.44 ms).
//
// Precision: fp32 data in TF32 mode rounds both operands to TF32 (as cuDNN's TF32 kernels); TF32 off
// runs 3xTF32 (big*big + big*small + small*big, fp32-level error); fp16/bf16 values widen exactly into
// TF32, so their products are exact and sums fp32. fp64 stays on the FFMA kernels.
#include <algorithm>
#include <type_traits>
#include "conv_transpose.h"
#include "dispatch.h"
#include "mma_sm80.h"

namespace tconv {
namespace {

constexpr int kMmaThreads = 128;
constexpr int kMmaWarps = kMmaThreads / 32;
constexpr int kTileM = 4;          // m16 tiles per phase at most (registers for four)
constexpr int kStagePositions = 128;  // dst W positions per task at most, while one m16 tile per phase fits
// The warp's C tile [dst channels][stage_w + pad]: a pitch of 4 mod 32 puts the four tig lanes' channel
// rows (2 * tig * pitch) 8 banks apart, so the fragment stores conflict at most 2-way (W stride 2).
constexpr int kStagePad = 4;

struct MmaGeometry {
  int phases = 1;           // dst W phases (forward: stride_w; grad_input: 1)
  int tiles_per_phase = 4;  // m16 tiles per phase and task (<= kTileM)
  int stage_w = 64;         // dst W positions per task: phases * 16 * tiles_per_phase
  int stage_pitch = 68;
  int tasks_per_row = 1;    // ceil(dst W / stage_w)
  int rows = 0, rows_per_chunk = 1, row_chunks = 1;
  int k_step[kSpatialDims] = {1, 1, 1};  // forward phase walks: s / gcd(s, d) and d / gcd(s, d)
  int i_step[kSpatialDims] = {1, 1, 1};
  int64_t blocks = 0;
  int64_t smem_bytes = 0;
};

// W taps of one warp task: tap t is kw = kw0 + t * kw_step, reading src W index j * mul + base + t * step.
struct WTaps {
  int kw0, kw_step, count, mul, base, step;
};

template <bool kForward>
__host__ __device__ __forceinline__ WTaps w_taps_of_phase(const ConvTransposeParams& p, int k_step, int i_step,
                                                          int phase) {
  const int KW = int(p.kernel[2]), s = int(p.stride[2]), pad = int(p.padding[2]), d = int(p.dilation[2]);
  if (!kForward) return WTaps{0, 1, KW, s, -pad, d};  // o = i*s - p + k*d, every tap
  // Forward: ow = phase + s*j takes taps with (phase + p - k*d) % s == 0, reading
  // iw = j + (phase + p - k*d) / s; those k repeat every k_step taps, iw falling by i_step.
  int k0 = 0;
  while (k0 < k_step && k0 < KW && (phase + pad - k0 * d) % s != 0) ++k0;
  if (k0 >= k_step || k0 >= KW) return WTaps{0, 1, 0, 1, 0, 0};  // no tap reaches this phase
  return WTaps{k0, k_step, (KW - k0 + k_step - 1) / k_step, 1, (phase + pad - k0 * d) / s, -i_step};
}

// A fragment element as MMA bits: fp32 rounded to TF32 (and its remainder when kSplit); fp16/bf16
// widened (exact in TF32).
template <typename scalar_t, bool kSplit>
__device__ __forceinline__ void a_element(const scalar_t* at, bool ok, uint32_t& big, uint32_t& small) {
  const float v = ok ? to_acc(*at) : 0.f;
  split_tf32<kSplit, !std::is_same<scalar_t, float>::value>(v, big, small);
}

// The group's weights as MMA B fragments in shared memory, [tap][KS][NT][lane][2] (one float2 per lane and
// n8 x k8 block), zero beyond the group's channels; TF32-rounded when kRounded (3xTF32 splits them at use).
template <typename scalar_t, bool kRounded, int KP, int NP, bool kForward>
__device__ __forceinline__ void stage_b_fragments(const ConvTransposeParams& p, const scalar_t* __restrict__ w, int g,
                                                  float* b_frags) {
  constexpr int KS = KP / 8, NT = NP / 8;
  const int KH = int(p.kernel[1]), KW = int(p.kernel[2]);
  const int taps = int(p.kernel_volume());
  const int cin = int(p.in_per_group()), cout = int(p.out_per_group());
  // Unrolled so that several weight loads are in flight: run 273 (H100, ncu, L1-72 forward) had 4.5 % of the stall
  // samples on this loop's one-load-at-a-time latency.
#pragma unroll 4
  for (int e = int(threadIdx.x); e < taps * KP * NP; e += int(blockDim.x)) {
    const int half = e % 2, frag_lane = (e / 2) % 32;
    int rest = e / 64;
    const int nt = rest % NT;
    rest /= NT;
    const int ks = rest % KS, tap = rest / KS;
    const int k = 8 * ks + frag_lane % 4 + 4 * half, c = 8 * nt + frag_lane / 4;
    const int ci = kForward ? k : c, co = kForward ? c : k;
    float v = 0.f;
    if (ci < cin && co < cout) {
      const int kd = tap / (KH * KW), kh = (tap / KW) % KH, kw = tap % KW;
      v = to_acc(w[(g * cin + ci) * int(p.weight_strides[0]) + co * int(p.weight_strides[1]) +
                   kd * int(p.weight_strides[2]) + kh * int(p.weight_strides[3]) + kw * int(p.weight_strides[4])]);
      if (kRounded) v = __uint_as_float(to_tf32(v));
    }
    b_frags[e] = v;
  }
}

// One tap's MMAs, acc[mt][nt] += A[mt] x B(tap), over the first `tiles` m16 tiles; B comes from the staged fragments.
// 3xTF32 sums the tap's products apart (mma_sm80.h zero_tile / add_tile): without it, over a hundred taps (L1-72)
// the MMA's truncating accumulation cost 1e-4 on grad_input values of 10 (run 72).
template <bool kSplit, bool kRoundedWeights, int KS, int NT>
__device__ __forceinline__ void mma_tap(float (&acc)[kTileM][NT][4], const uint32_t (&a_big)[kTileM][KS][4],
                                        const uint32_t (&a_small)[kTileM][KS][4], const float* b_tap, int lane,
                                        int tiles) {
  float part[kTileM][NT][4];
  float (&sum)[kTileM][NT][4] = kSplit ? part : acc;
  if (kSplit) zero_tile(part);
#pragma unroll
  for (int ks = 0; ks < KS; ++ks)
#pragma unroll
    for (int nt = 0; nt < NT; ++nt) {
      const float2 bv = *reinterpret_cast<const float2*>(b_tap + ((ks * NT + nt) * 32 + lane) * 2);
      uint32_t b_big[2], b_small[2];
      split_tf32<kSplit, kRoundedWeights>(bv.x, b_big[0], b_small[0]);
      split_tf32<kSplit, kRoundedWeights>(bv.y, b_big[1], b_small[1]);
#pragma unroll
      for (int mt = 0; mt < kTileM; ++mt) {
        if (mt >= tiles) continue;
        if (kSplit) {
          mma_m16n8<float>(sum[mt][nt], a_small[mt][ks], b_big);
          mma_m16n8<float>(sum[mt][nt], a_big[mt][ks], b_small);
        }
        mma_m16n8<float>(sum[mt][nt], a_big[mt][ks], b_big);
      }
    }
  if (kSplit) add_tile(acc, part);
}

// A warp's C tile [dst channel][stage W] to global memory with the bias added: a lane per W position
// (consecutive lanes, consecutive words), no division per element; a channels_last dst walks (position,
// channel) pairs instead.
template <typename scalar_t, bool kForward>
__device__ __forceinline__ void store_warp_tile(const ConvTransposeParams& p, const float* stage, int pitch,
                                                scalar_t* __restrict__ dst_row, int ds1, int ds4, int nn, int w_count,
                                                const scalar_t* __restrict__ bias, int g, int lane) {
  if (ds1 >= ds4) {
#pragma unroll 1
    for (int c = 0; c < nn; ++c) {
      const float bias_c = kForward && bias != nullptr ? to_acc(bias[(g * nn + c) * int(p.bias_stride)]) : 0.f;
      const float* tile_row = stage + c * pitch;
      scalar_t* out = dst_row + c * ds1;
#pragma unroll 4
      for (int w = lane; w < w_count; w += 32) out[w * ds4] = from_acc<scalar_t>(tile_row[w] + bias_c);
    }
  } else {
#pragma unroll 1
    for (int e = lane; e < nn * w_count; e += 32) {
      const int c = e % nn, w = e / nn;
      float v = stage[c * pitch + w];
      if (kForward && bias != nullptr) v += to_acc(bias[(g * nn + c) * int(p.bias_stride)]);
      dst_row[c * ds1 + w * ds4] = from_acc<scalar_t>(v);
    }
  }
}

// Resident blocks per SM asked of ptxas: the 8 x 8 single-MMA kernels (L1-73, L1-72 in TF32, fp16, bf16)
// fit 80 registers with at most 24 bytes of spills (nvcc 13.0, sm_90a; 112-121 registers uncapped), which
// takes them from 16 to 24 warps per SM for the loads' latency; 3xTF32 and the wider tiles spill 100-500
// bytes at that cap and stay uncapped (96-164 registers).
__host__ __device__ constexpr int grouped_mma_min_blocks(int kp, int np, bool split) {
  return kp * np == 64 && !split ? 6 : 1;
}

template <typename scalar_t, bool kSplit, int KP, int NP, bool kForward>
__global__ void __launch_bounds__(kMmaThreads, grouped_mma_min_blocks(KP, NP, kSplit))
tconv_grouped_mma_kernel(const ConvTransposeParams p, const MmaGeometry geo, const scalar_t* __restrict__ src,
                         const scalar_t* __restrict__ w, const scalar_t* __restrict__ bias,
                         scalar_t* __restrict__ dst) {
  constexpr int KS = KP / 8, NT = NP / 8;
  constexpr bool kRoundedWeights = !kSplit;  // staged as TF32 (exact for fp16/bf16) unless split at use
  extern __shared__ __align__(16) float mma_smem[];
  const int KD = int(p.kernel[0]), KH = int(p.kernel[1]), KW = int(p.kernel[2]);
  const int taps = KD * KH * KW;
  float* b_frags = mma_smem;  // [tap][KS][NT][lane][2]: one float2 per lane and n8 x k8 block
  const int cin = int(p.in_per_group()), cout = int(p.out_per_group());
  const int nk = kForward ? cin : cout, nn = kForward ? cout : cin;
  const int64_t* ss = kForward ? p.input_strides : p.output_strides;
  const int64_t* ds = kForward ? p.output_strides : p.input_strides;
  const int64_t* src_size = kForward ? p.in_size : p.out_size;
  const int64_t* dst_size = kForward ? p.out_size : p.in_size;
  const int tid = int(threadIdx.x), warp = tid / 32, lane = tid % 32, gid = lane / 4, tig = lane % 4;
  float* stage = mma_smem + taps * KP * NP + warp * NP * geo.stage_pitch;  // this warp's [NP][stage_pitch]

  int b = int(blockIdx.x);
  const int chunk = b % geo.row_chunks;
  b /= geo.row_chunks;
  const int g = b % int(p.groups), n = b / int(p.groups);

  stage_b_fragments<scalar_t, kRoundedWeights, KP, NP, kForward>(p, w, g, b_frags);
  __syncthreads();  // the only barrier: from here on every warp runs its own tasks

  const int src_w = int(src_size[2]), dst_w = int(dst_size[2]), dst_h = int(dst_size[1]);
  const int ss1 = int(ss[1]), ss2 = int(ss[2]), ss3 = int(ss[3]), ss4 = int(ss[4]);
  const int ds1 = int(ds[1]), ds2 = int(ds[2]), ds3 = int(ds[3]), ds4 = int(ds[4]);
  const scalar_t* src_group = src + n * int(ss[0]) + g * nk * ss1;
  scalar_t* dst_group = dst + n * int(ds[0]) + g * nn * ds1;
  const int dst_step = kForward ? int(p.stride[2]) : 1;
  // Per lane: its two K channels per k8 step (tig, tig + 4), zero beyond the group's.
  int k_off[KS][2];
  bool k_ok[KS][2];
#pragma unroll
  for (int ks = 0; ks < KS; ++ks)
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int k = 8 * ks + tig + 4 * h;
      k_ok[ks][h] = k < nk;
      k_off[ks][h] = k_ok[ks][h] ? k * ss1 : 0;
    }
  const int row_begin = chunk * geo.rows_per_chunk, row_end = min(geo.rows, row_begin + geo.rows_per_chunk);
  const int task_end = (row_end - row_begin) * geo.tasks_per_row;

#pragma unroll 1
  for (int task = warp; task < task_end; task += kMmaWarps) {
    const int row = row_begin + task / geo.tasks_per_row, w_first = (task % geo.tasks_per_row) * geo.stage_w;
    const int r0 = row / dst_h, r1 = row % dst_h;
    const TapWalk<int> walk_d =
        kForward ? forward_taps<int>(r0, KD, int(p.stride[0]), int(p.padding[0]), int(p.dilation[0]), int(src_size[0]),
                                     geo.k_step[0], geo.i_step[0])
                 : grad_input_taps<int>(r0, KD, int(p.stride[0]), int(p.padding[0]), int(p.dilation[0]),
                                        int(src_size[0]));
    const TapWalk<int> walk_h =
        kForward ? forward_taps<int>(r1, KH, int(p.stride[1]), int(p.padding[1]), int(p.dilation[1]), int(src_size[1]),
                                     geo.k_step[1], geo.i_step[1])
                 : grad_input_taps<int>(r1, KH, int(p.stride[1]), int(p.padding[1]), int(p.dilation[1]),
                                        int(src_size[1]));
    const int j0 = w_first / dst_step;  // w_first is a multiple of dst_step (stage_w is)
#pragma unroll 1
    for (int phase = 0; phase < geo.phases; ++phase) {
      const WTaps wt = w_taps_of_phase<kForward>(p, geo.k_step[2], geo.i_step[2], phase);
      float acc[kTileM][NT][4];
      zero_tile(acc);
      // src W index of this lane's rows (j0 + gid + 8 * q) at tap 0 of the walk.
      int w_at[2 * kTileM];
#pragma unroll
      for (int q = 0; q < 2 * kTileM; ++q) w_at[q] = (j0 + gid + 8 * q) * wt.mul + wt.base;
      const int tiles = geo.tiles_per_phase;

      int kd = walk_d.k, a = walk_d.idx;
#pragma unroll 1
      for (int td = 0; td < walk_d.count; ++td, kd += walk_d.k_step, a += walk_d.idx_step) {
        int kh = walk_h.k, bb = walk_h.idx;
#pragma unroll 1
        for (int th = 0; th < walk_h.count; ++th, kh += walk_h.k_step, bb += walk_h.idx_step) {
          const scalar_t* src_row = src_group + a * ss2 + bb * ss3;
          const float* b_row = b_frags + (kd * KH + kh) * KW * (KP * NP);
          int kw = wt.kw0;
#pragma unroll 1
          for (int t = 0; t < wt.count; ++t, kw += wt.kw_step) {
            uint32_t a_big[kTileM][KS][4], a_small[kTileM][KS][4];
#pragma unroll
            for (int mt = 0; mt < kTileM; ++mt)
#pragma unroll
              for (int h = 0; h < 2; ++h) {
                if (mt >= tiles) continue;
                const int wi = w_at[2 * mt + h] + t * wt.step;
                const bool in_w = unsigned(wi) < unsigned(src_w);  // 0 <= wi < src_w
                const int at = in_w ? wi * ss4 : 0;                // 32-bit offsets: grouped_offsets_fit
#pragma unroll
                for (int ks = 0; ks < KS; ++ks) {
                  // fragment rows gid / gid + 8 are elements 0,2 / 1,3; K words tig / tig + 4 are 0,1 / 2,3
                  a_element<scalar_t, kSplit>(src_row + (at + k_off[ks][0]), in_w && k_ok[ks][0], a_big[mt][ks][h],
                                              a_small[mt][ks][h]);
                  a_element<scalar_t, kSplit>(src_row + (at + k_off[ks][1]), in_w && k_ok[ks][1],
                                              a_big[mt][ks][2 + h], a_small[mt][ks][2 + h]);
                }
              }
            mma_tap<kSplit, kRoundedWeights, KS, NT>(acc, a_big, a_small, b_row + kw * (KP * NP), lane, tiles);
          }
        }
      }
      // C fragment: rows gid (elements 0, 1) and gid + 8 (2, 3), columns 2 * tig and 2 * tig + 1.
#pragma unroll
      for (int mt = 0; mt < kTileM; ++mt)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          if (mt >= tiles) continue;
          const int w_local = phase + dst_step * (16 * mt + gid + 8 * h);
#pragma unroll
          for (int nt = 0; nt < NT; ++nt)
#pragma unroll
            for (int e = 0; e < 2; ++e) stage[(8 * nt + 2 * tig + e) * geo.stage_pitch + w_local] = acc[mt][nt][2 * h + e];
        }
    }  // phase
    __syncwarp();
    store_warp_tile<scalar_t, kForward>(p, stage, geo.stage_pitch, dst_group + r0 * ds2 + r1 * ds3 + w_first * ds4,
                                        ds1, ds4, nn, min(geo.stage_w, dst_w - w_first), bias, g, lane);
    __syncwarp();  // the tile is rewritten by the next task
  }
}

// ---- The "lines" form (forward and grad_input): the src lines a tile of dst rows reads, staged once ----
// Run 78's form above loads every A element from global memory, 16 dependent loads per tap round, and stays
// latency-bound (L1-73 1.76 ms against 0.28 ms of memory floor). Here a block owns (n, g) and a run of
// tiles; a tile is one dst D row and up to kLinesMaxRows dst H rows. The block copies the src lines those
// rows read (the D walk's lines x the H rows' union, the group's channels, all of W) into shared memory by
// cp.async, then its warps take (row, W stretch) tasks as in the form above, reading A fragments from the
// staged lines: each src line feeds every tap and dst row that reads it from shared memory instead of L1/L2.
// A task stores its C fragments either straight to global memory, all W phases of its stretch in turn, or through
// a per-warp C tile in shared memory that it writes out by whole rows; lines_staged_store picks one per call
// (run 267: the tile wins where the output write dominates, the fragments where compute per output does).
// A staged channel row is [halo zeros | src W | zeros]: the zeros are written once per block and cover every
// W index a task's rows and taps read outside the line, so the fragment loads have no bounds test; padded
// channels (above the group's) are zero rows. A channel row's pitch is 8 (fp32) or 4 words (16-bit) mod 32
// banks, so the lanes' (channel tig, row gid) elements lie in distinct banks at W step 1 (forward).
// dst H rows per tile at most. Run 266 (fragments stored straight, forward ms, 8 / 4 rows): L1-73 TF32 1.510 /
// 1.653, bf16 0.995 / 0.958; L1-72 TF32 0.313 / 0.300, bf16 0.280 / 0.317. Neither wins everywhere; 8 kept.
constexpr int kLinesMaxRows = 8;
// Taps per output (taps_per_output) from which fp32 data takes the lines form in 3xTF32 under "auto" and stores
// straight from the fragments: L1-72's 13 and L1-73's 3.4 were measured (runs 266-267); between them, unmeasured.
constexpr double kLinesFp32MinTapsPerOutput = 6.0;
// Taps per output from which 16-bit grad_input takes the lines form under "auto" (grouped_mma_preferred): L1-72's 13
// won and L1-73's 3.4 lost (run 272); between them, unmeasured.
constexpr double kLinesGradInput16BitMinTapsPerOutput = 12.0;
constexpr int kLinesMaxPhases = 16;  // dst W phases (forward: stride_w), the per-phase tap table
constexpr int64_t kLinesMaxSharedBytes = 112 * 1024;  // two blocks per SM at most (228 KiB on sm_80 / sm_90)
// Warps per block: more warps share one block's staged lines, so more warps fit an SM's shared memory. Run 269 (H100,
// forward ms, 4 / 8 warps, 8 rows per tile): L1-73 TF32 1.097 / 0.923, bf16 1.143 / 1.063; L1-72 TF32 0.313 / 0.298,
// bf16 0.318 / 0.301, 3xTF32 0.468 / 0.433; fam09 TF32 0.710 / 0.597, bf16 0.580 / 0.452. 16 rows with 8 warps won on
// L1-72 (0.283) and lost on L1-73 (0.980), so rows stay 8. TCONV_GROUPED_MMA_LINES_WARPS (development only) sets it.
constexpr int kLinesWarps = 8;
constexpr int kLinesMaxThreads = 256;
// Resident blocks of kLinesMaxThreads per SM asked of ptxas. Shared memory holds 4-warp blocks to 2-5 per SM (L1-73:
// 4), so 2 (128 registers: 91-125, no spills; nvcc 13.0, sm_90); without a minimum ptxas capped the fp32 kernels at 72
// and spilled 24-140 bytes. 3xTF32 with 16 K channels spills 56-332 bytes at 128, hence 1 there.
__host__ __device__ constexpr int lines_min_blocks(int kp, int np, bool split) { return split && kp * np > 64 ? 1 : 2; }

struct LinesGeometry {
  int warps = kLinesWarps;  // per block
  int phases = 1, tiles_per_phase = 1, stage_w = 16, tasks_per_row = 1;  // stage_w: dst W positions per task
  int k_step[kSpatialDims] = {1, 1, 1};
  int i_step[kSpatialDims] = {1, 1, 1};
  int rows_per_tile = 1, h_tiles = 1, tiles = 0;  // tiles per (n, g): dst D x h_tiles
  int tiles_per_block = 1, block_chunks = 1;
  int lines_d = 1, lines_h = 1;  // staged line slots: the D walk's lines x the H lines of one tile
  int line_pitch = 8, halo = 0;  // elements per staged channel row; staged index of src W 0
  int copy_elems = 0;            // elements per cp.async (16 or 4 bytes); 0: element loads (strided or unaligned W)
  int position_vectors = 0;      // > 0: the group's channels of a position as that many 16-byte loads (channels_last)
  // Stores through a per-warp C tile in shared memory (whole rows, coalesced) instead of from the fragments.
  bool staged_store = false;
  bool balanced = false;  // odd rounds of tasks dealt from the last warp back
  int stage_pitch = 20;
  int wtaps_offset = 0, stage_offset = 0, lines_offset = 0;  // bytes into shared memory
  int64_t blocks = 0, smem_bytes = 0;
};

template <int kBytes>
__device__ __forceinline__ void cp_async_bytes(void* smem, const void* gmem) {
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  if (kBytes == 16)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(gmem) : "memory");
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(dst), "l"(gmem) : "memory");
}
__device__ __forceinline__ void cp_async_wait_all_groups() { asm volatile("cp.async.wait_all;\n" ::: "memory"); }

// The staged rows of one tile, a warp per (D line, H line, channel) row: fn(td, hh, k) per row (D walk step, H line,
// channel). The row's coordinates advance by carries, not divisions (run 265: three runtime divisions per row were
// 16 % of the L1-73 forward's instructions).
template <typename Fn>
__device__ __forceinline__ void for_each_staged_row(int nk, const TapWalk<int>& walk_d, int nh, int warp, int warps,
                                                    Fn fn) {
  if (nh <= 0) return;
  int k = warp, hh = 0, td = 0;  // row = (td * nh + hh) * nk + k, starting at this warp's first
  while (k >= nk) {
    k -= nk;
    if (++hh == nh) hh = 0, ++td;
  }
#pragma unroll 1
  for (; td < walk_d.count;) {
    fn(td, hh, k);
    k += warps;
    while (k >= nk) {
      k -= nk;
      if (++hh == nh) hh = 0, ++td;
    }
  }
}
// A staged row's W 0: slot (td, hh), channel row k.
template <int KP, typename scalar_t>
__device__ __forceinline__ scalar_t* staged_row(const LinesGeometry& geo, scalar_t* lines, int td, int hh, int k) {
  return lines + ((td * geo.lines_h + hh) * KP + k) * geo.line_pitch + geo.halo;
}

// One tile's src lines into their slots, lanes along W: by cp.async where W is contiguous and aligned, else element
// loads. kAlongChannels (the forward / grad_input lines kernel): a channels-innermost source (channels_last) is read
// with the lanes along the channels and then W instead, so a warp's loads cover whole positions, where lanes along W
// read one element per sector, a position stride apart. Measured (H200, fam09 channels-last bf16): the lines forward
// 3.125 ms (run 464) -> 0.718 (run 466). Not in the grouped grad_weight kernel: there it measured 1.425 ms (run 464)
// -> 1.992 (run 466; 4.145 in run 465 with a warp per line), its loop holding one load in flight per lane, where the
// element copies' loop is unrolled; both kernels now take the position vectors below where they apply.
// geo.position_vectors (lines_position_vectors: a channels-innermost source whose group channels are whole 16-byte
// vectors at 16-byte aligned positions) comes first in either form: a lane per position of a 32-position stretch loads
// the group's channels there as 16-byte vectors and writes their elements to the channel rows, kPositionLoadsInFlight
// units a warp at a time. Why: the forms below read 2-byte elements, one load in flight a lane (the grad_weight
// kernel's x and grad_output rows a position stride apart: L1-73 channels-last bf16 grad_weight 2.44 ms against 1.79
// contiguous, fam09 1.42 against 0.45, forward 1.51 / 0.91 and 0.71 / 0.46; run 517). Measured: at the switch's
// definition (lines_position_vectors_enabled).
constexpr int kPositionLoadsInFlight = 4;
template <typename scalar_t, int KP, bool kAlongChannels>
__device__ __forceinline__ void stage_src_lines(const LinesGeometry& geo, const scalar_t* __restrict__ src_group,
                                                int ss1, int ss2, int ss3, int ss4, int src_w, int nk,
                                                const TapWalk<int>& walk_d, int h_lo, int nh, scalar_t* lines,
                                                int warp, int warps, int lane) {
  if (geo.position_vectors > 0) {
    constexpr int kVector = 16 / int(sizeof(scalar_t));
    const int vectors = geo.position_vectors, stretches = (src_w + 31) / 32;
    const int units = nh > 0 ? walk_d.count * nh * stretches * vectors : 0;
#pragma unroll 1
    for (int first = warp; first < units; first += kPositionLoadsInFlight * warps) {
      uint4 loaded[kPositionLoadsInFlight];
      scalar_t* to[kPositionLoadsInFlight];
#pragma unroll
      for (int u = 0; u < kPositionLoadsInFlight; ++u) {  // (unit: line, stretch, vector; vector fastest)
        to[u] = nullptr;
        const int unit = first + u * warps;
        if (unit >= units) continue;
        const int vector = unit % vectors, rest = unit / vectors;
        const int line = rest / stretches, w = (rest - line * stretches) * 32 + lane;
        const int td = line / nh, hh = line - td * nh;
        if (w >= src_w) continue;
        loaded[u] = __ldg(reinterpret_cast<const uint4*>(
            src_group + (walk_d.idx + td * walk_d.idx_step) * ss2 + (h_lo + hh) * ss3 + w * ss4 + vector * kVector));
        to[u] = staged_row<KP>(geo, lines, td, hh, vector * kVector) + w;
      }
#pragma unroll
      for (int u = 0; u < kPositionLoadsInFlight; ++u) {
        if (to[u] == nullptr) continue;
        const scalar_t* elements = reinterpret_cast<const scalar_t*>(&loaded[u]);
#pragma unroll
        for (int i = 0; i < kVector; ++i) to[u][i * geo.line_pitch] = elements[i];
      }
    }
    return;
  }
  const int v = geo.copy_elems, copy_bytes = v * int(sizeof(scalar_t));
  if (kAlongChannels && v == 0 && ss1 == 1) {
    static_assert((KP & (KP - 1)) == 0, "channel rows by shifts (mma_width: 8 or 16)");
    // Units of kSegment elements of one line, dealt to the warps: a tile may stage few lines, and a warp per line
    // left the other warps idle (run 465, fam09 channels-last bf16: the grad_weight kernel, then staged this way too,
    // 1.425 -> 4.145 ms with a warp per line).
    constexpr int kSegment = 128;
    const int line_elems = src_w * KP, segments = (line_elems + kSegment - 1) / kSegment;
    const int units = nh > 0 ? walk_d.count * nh * segments : 0;
#pragma unroll 1
    for (int unit = warp; unit < units; unit += warps) {
      const int line = unit / segments, first = (unit - line * segments) * kSegment;
      const int td = line / nh, hh = line - td * nh;
      const scalar_t* from = src_group + (walk_d.idx + td * walk_d.idx_step) * ss2 + (h_lo + hh) * ss3;
      scalar_t* to = staged_row<KP>(geo, lines, td, hh, 0);
      const int end = min(line_elems, first + kSegment);
#pragma unroll 1
      for (int q = first + lane; q < end; q += 32) {
        const int w = q / KP, k = q % KP;
        if (k < nk) to[k * geo.line_pitch + w] = from[w * ss4 + k];  // rows k >= nk stay the block's zeros
      }
    }
    return;
  }
  for_each_staged_row(nk, walk_d, nh, warp, warps, [&](int td, int hh, int k) {
    const scalar_t* from = src_group + (walk_d.idx + td * walk_d.idx_step) * ss2 + (h_lo + hh) * ss3 + k * ss1;
    scalar_t* to = staged_row<KP>(geo, lines, td, hh, k);
    if (copy_bytes == 16) {
      for (int w = lane * v; w < src_w; w += 32 * v) cp_async_bytes<16>(to + w, from + w);
    } else if (copy_bytes == 4) {
      for (int w = lane * v; w < src_w; w += 32 * v) cp_async_bytes<4>(to + w, from + w);
    } else {
      for (int w = lane; w < src_w; w += 32) to[w] = from[w * ss4];
    }
  });
}

template <typename scalar_t, bool kSplit, int KP, int NP, bool kForward>
__global__ void __launch_bounds__(kLinesMaxThreads, lines_min_blocks(KP, NP, kSplit))
tconv_grouped_mma_lines_kernel(const ConvTransposeParams p, const LinesGeometry geo, const scalar_t* __restrict__ src,
                               const scalar_t* __restrict__ w, const scalar_t* __restrict__ bias,
                               scalar_t* __restrict__ dst) {
  constexpr int KS = KP / 8, NT = NP / 8;
  constexpr bool kRoundedWeights = !kSplit;
  // A elements are TF32 values as staged where they are widened 16-bit data. Rounding fp32 lines once per tile instead
  // (in place after the copies) was slower: run 274 (H100), forward ms per use / per tile: L1-73 TF32 0.874 / 0.891,
  // L1-72 0.304 / 0.308; the grad_weight kernel, both operands: L1-73 1.329 / 1.538, L1-72 0.507 / 0.554. The pass
  // lengthens each tile's unoverlapped staging, and the F2FP it saves had issue slots to spare.
  constexpr bool kRoundedA = !std::is_same<scalar_t, float>::value;
  extern __shared__ __align__(16) float mma_smem[];
  const int KD = int(p.kernel[0]), KH = int(p.kernel[1]), KW = int(p.kernel[2]);
  const int tid = int(threadIdx.x), warp = tid / 32, lane = tid % 32, gid = lane / 4, tig = lane % 4;
  float* b_frags = mma_smem;
  float* stage = reinterpret_cast<float*>(reinterpret_cast<char*>(mma_smem) + geo.stage_offset) +
                 warp * NP * geo.stage_pitch;  // this warp's C tile [NP][stage_pitch] (staged_store)
  float* bias_s = reinterpret_cast<float*>(reinterpret_cast<char*>(mma_smem) + geo.stage_offset) +
                  geo.warps * NP * geo.stage_pitch;  // [NP] (staged_store)
  WTaps* wtaps = reinterpret_cast<WTaps*>(reinterpret_cast<char*>(mma_smem) + geo.wtaps_offset);
  scalar_t* lines = reinterpret_cast<scalar_t*>(reinterpret_cast<char*>(mma_smem) + geo.lines_offset);
  const int nk = int(kForward ? p.in_per_group() : p.out_per_group());
  const int nn = int(kForward ? p.out_per_group() : p.in_per_group());
  const int64_t* ss = kForward ? p.input_strides : p.output_strides;
  const int64_t* ds = kForward ? p.output_strides : p.input_strides;
  const int64_t* src_size = kForward ? p.in_size : p.out_size;
  const int64_t* dst_size = kForward ? p.out_size : p.in_size;

  int b = int(blockIdx.x);
  const int chunk = b % geo.block_chunks;
  b /= geo.block_chunks;
  const int g = b % int(p.groups), n = b / int(p.groups);

  stage_b_fragments<scalar_t, kRoundedWeights, KP, NP, kForward>(p, w, g, b_frags);
  const int threads = 32 * geo.warps;
  for (int ph = tid; ph < geo.phases; ph += threads)
    wtaps[ph] = w_taps_of_phase<kForward>(p, geo.k_step[2], geo.i_step[2], ph);
  if (geo.staged_store)
    for (int c = tid; c < NP; c += threads)
      bias_s[c] = kForward && bias != nullptr && c < nn ? to_acc(bias[(g * nn + c) * int(p.bias_stride)]) : 0.f;
  const int line_vectors = geo.lines_d * geo.lines_h * KP * geo.line_pitch * int(sizeof(scalar_t)) / 16;
  for (int e = tid; e < line_vectors; e += threads) reinterpret_cast<uint4*>(lines)[e] = make_uint4(0, 0, 0, 0);
  __syncthreads();

  const int src_w = int(src_size[2]), src_h = int(src_size[1]), dst_w = int(dst_size[2]), dst_h = int(dst_size[1]);
  const int s_h = int(p.stride[1]), p_h = int(p.padding[1]), d_h = int(p.dilation[1]);
  const int ss1 = int(ss[1]), ss2 = int(ss[2]), ss3 = int(ss[3]), ss4 = int(ss[4]);
  const int ds1 = int(ds[1]), ds2 = int(ds[2]), ds3 = int(ds[3]), ds4 = int(ds[4]);
  const scalar_t* src_group = src + n * int(ss[0]) + g * nk * ss1;
  scalar_t* dst_group = dst + n * int(ds[0]) + g * nn * ds1;
  const int dst_step = kForward ? int(p.stride[2]) : 1;
  const int pitch = geo.line_pitch, tiles = geo.tiles_per_phase;
  int k_off[KS][2];  // this lane's two K channel rows per k8 step (tig, tig + 4) in a staged line
#pragma unroll
  for (int ks = 0; ks < KS; ++ks) {
    k_off[ks][0] = (8 * ks + tig) * pitch;
    k_off[ks][1] = (8 * ks + tig + 4) * pitch;
  }
  float bias_of[NT][2];  // this lane's C columns' bias (forward only)
#pragma unroll
  for (int nt = 0; nt < NT; ++nt)
#pragma unroll
    for (int e = 0; e < 2; ++e) {
      const int c = 8 * nt + 2 * tig + e;
      bias_of[nt][e] = kForward && bias != nullptr && c < nn ? to_acc(bias[(g * nn + c) * int(p.bias_stride)]) : 0.f;
    }
  const int tile_begin = chunk * geo.tiles_per_block, tile_end = min(geo.tiles, tile_begin + geo.tiles_per_block);

#pragma unroll 1
  for (int tile = tile_begin; tile < tile_end; ++tile) {
    const int r0 = tile / geo.h_tiles, h0 = (tile % geo.h_tiles) * geo.rows_per_tile;
    const int rows_here = min(geo.rows_per_tile, dst_h - h0);
    const TapWalk<int> walk_d =
        kForward ? forward_taps<int>(r0, KD, int(p.stride[0]), int(p.padding[0]), int(p.dilation[0]), int(src_size[0]),
                                     geo.k_step[0], geo.i_step[0])
                 : grad_input_taps<int>(r0, KD, int(p.stride[0]), int(p.padding[0]), int(p.dilation[0]),
                                        int(src_size[0]));
    // The src H lines any of the tile's rows reads (a superset where a stride skips some).
    int h_lo, h_hi;
    if (kForward) {
      const int first = h0 + p_h - (KH - 1) * d_h;  // ih = (oh + p - kh*d) / s
      h_lo = first <= 0 ? 0 : (first + s_h - 1) / s_h;
      h_hi = min(src_h - 1, (h0 + rows_here - 1 + p_h) / s_h);
    } else {
      h_lo = max(0, h0 * s_h - p_h);  // oh = ih*s - p + kh*d
      h_hi = min(src_h - 1, (h0 + rows_here - 1) * s_h - p_h + (KH - 1) * d_h);
    }
    const int nh = max(0, h_hi - h_lo + 1);
    stage_src_lines<scalar_t, KP, true>(geo, src_group, ss1, ss2, ss3, ss4, src_w, nk, walk_d, h_lo, nh, lines, warp,
                                        geo.warps, lane);
    cp_async_wait_all_groups();
    __syncthreads();

    // Tasks (row, W stretch), a round of one per warp. Balanced: odd rounds deal them from the last warp back, so rows
    // of unequal tap counts pair up across the rounds.
    const int task_count = rows_here * geo.tasks_per_row;
#pragma unroll 1
    for (int round = 0;; ++round) {
      const int task = round * geo.warps + (geo.balanced && (round & 1) ? geo.warps - 1 - warp : warp);
      if (task >= task_count) break;
      const int r1 = h0 + task / geo.tasks_per_row, w_first = (task % geo.tasks_per_row) * geo.stage_w;
      const TapWalk<int> walk_h =
          kForward ? forward_taps<int>(r1, KH, s_h, p_h, d_h, src_h, geo.k_step[1], geo.i_step[1])
                   : grad_input_taps<int>(r1, KH, s_h, p_h, d_h, src_h);
      const int j0 = w_first / dst_step;
#pragma unroll 1
      for (int phase = 0; phase < geo.phases; ++phase) {
        const WTaps wt = wtaps[phase];
        float acc[kTileM][NT][4];
        zero_tile(acc);
        // Staged index of this lane's fragment row gid at the phase's first tap; row gid + 8 * q lies 8 * q * mul
        // further (the forward's mul is 1: immediate offsets).
        const int row_mul = kForward ? 1 : wt.mul;
        const int w_at0 = (j0 + gid) * row_mul + wt.base + geo.halo;
        // Taps in nested walks, each tap's A fragments loaded just before its MMAs. Session 39's form that loaded the
        // next tap's fragments first (two buffers, flattened walks) ran slower on an H100 (run 273, ncu durations
        // against run 271: L1-72 TF32 0.335 / 0.298 ms, L1-73 0.954 / 0.922, fam09 bf16 0.484 / 0.454): ptxas spilled
        // 4-96 bytes and took 16 more registers for the second buffer.
        int kd = walk_d.k;
#pragma unroll 1
        for (int td = 0; td < walk_d.count; ++td, kd += walk_d.k_step) {
          int kh = walk_h.k, ih = walk_h.idx;
#pragma unroll 1
          for (int th = 0; th < walk_h.count; ++th, kh += walk_h.k_step, ih += walk_h.idx_step) {
            const scalar_t* line = lines + (td * geo.lines_h + (ih - h_lo)) * KP * pitch;
            const float* b_row = b_frags + (kd * KH + kh) * KW * (KP * NP);
            int kw = wt.kw0;
#pragma unroll 1
            for (int t = 0; t < wt.count; ++t, kw += wt.kw_step) {
              uint32_t a_big[kTileM][KS][4], a_small[kTileM][KS][4];
#pragma unroll
              for (int mt = 0; mt < kTileM; ++mt)
#pragma unroll
                for (int h = 0; h < 2; ++h) {
                  if (mt >= tiles) continue;
                  const int at = w_at0 + (16 * mt + 8 * h) * row_mul + t * wt.step;
#pragma unroll
                  for (int ks = 0; ks < KS; ++ks) {
                    // fragment rows gid / gid + 8 are elements 0,2 / 1,3; K words tig / tig + 4 are 0,1 / 2,3
                    split_tf32<kSplit, kRoundedA>(to_acc(line[at + k_off[ks][0]]), a_big[mt][ks][h], a_small[mt][ks][h]);
                    split_tf32<kSplit, kRoundedA>(to_acc(line[at + k_off[ks][1]]), a_big[mt][ks][2 + h],
                                                  a_small[mt][ks][2 + h]);
                  }
                }
              mma_tap<kSplit, kRoundedWeights, KS, NT>(acc, a_big, a_small, b_row + kw * (KP * NP), lane, tiles);
            }
          }
        }
        // C fragments: rows gid (elements 0, 1) and gid + 8 (2, 3), channels 2 * tig and 2 * tig + 1.
        scalar_t* dst_row = dst_group + r0 * ds2 + r1 * ds3;
#pragma unroll
        for (int mt = 0; mt < kTileM; ++mt)
#pragma unroll
          for (int h = 0; h < 2; ++h) {
            const int w_local = phase + dst_step * (16 * mt + gid + 8 * h);
            if (mt >= tiles || (!geo.staged_store && w_first + w_local >= dst_w)) continue;
#pragma unroll
            for (int nt = 0; nt < NT; ++nt)
#pragma unroll
              for (int e = 0; e < 2; ++e) {
                const int c = 8 * nt + 2 * tig + e;
                if (geo.staged_store)
                  stage[c * geo.stage_pitch + w_local] = acc[mt][nt][2 * h + e];
                else if (c < nn)
                  dst_row[c * ds1 + (w_first + w_local) * ds4] =
                      from_acc<scalar_t>(acc[mt][nt][2 * h + e] + bias_of[nt][e]);
              }
          }
      }  // phase
      if (geo.staged_store) {
        // The warp's C tile, W-major: each lane stores one W position of every channel per step, so a
        // channel row's lanes write consecutive words; with the channels innermost (channels_last), lanes along the
        // channels and then W instead, so a warp writes whole positions (as stage_src_lines reads them).
        __syncwarp();
        scalar_t* dst_row = dst_group + r0 * ds2 + r1 * ds3 + w_first * ds4;
        const int w_count = min(geo.stage_w, dst_w - w_first);
        if (ds1 == 1) {
#pragma unroll 1
          for (int q = lane; q < w_count * NP; q += 32) {
            const int w = q / NP, c = q % NP;
            if (c < nn) dst_row[c + w * ds4] = from_acc<scalar_t>(stage[c * geo.stage_pitch + w] + bias_s[c]);
          }
          __syncwarp();
          continue;
        }
#pragma unroll 1
        for (int w = lane; w < w_count; w += 32) {
#pragma unroll
          for (int nt = 0; nt < NT; ++nt)
#pragma unroll
            for (int c8 = 0; c8 < 8; ++c8) {
              const int c = 8 * nt + c8;
              if (c < nn) dst_row[c * ds1 + w * ds4] = from_acc<scalar_t>(stage[c * geo.stage_pitch + w] + bias_s[c]);
            }
        }
        __syncwarp();  // the tile is rewritten by the next task
      }
    }
    __syncthreads();  // the lines are restaged for the next tile
  }
}

// ---- grad_weight on tensor cores: the lines form seen from grad_output ----
// grad_w[g, ci, co, kd, kh, kw] = sum over n and input positions of x[ci, id, ih, iw] * dy[co, od, oh, ow] with
// o = i * s - p + k * d per dim. The direct kernel (conv_transpose_direct.cu) takes one tap per block and issues one
// FFMA per product with both operands from global memory: L1-73's grad_weight was 2.6 of its 4.8 ms fwd+bwd.
// Here a block owns a group and a run of tiles; a tile is one grad_output D row and up to kLinesMaxRows of its H
// rows (n, od, oh0..), staged whole in shared memory, with the input lines those rows read (staged as the forward's
// lines form does: the D walk's lines x the H rows' union, halo zeros around W). For each (kd, kh) tap pair and W
// phase r a warp runs m16n8k8 MMAs with M = the group's input channels, N = its output channels and K = the
// phase's grad_output W positions j (ow = s_w * j + r): B = dy[co][s_w * j + r], shared by the phase's W taps, and
// A = x[ci][j + e(kw)], the input line shifted by the tap. Each warp's C fragments are added to the block's
// [tap][KP][NP] sums in shared memory after each tile, one warp per tap (a tap lies in one (kd, kh, r) item),
// and the block writes its sums as one split of [splits][weight], summed in a fixed order (deterministic).
// W taps per item at most (a phase with more is split into several items).
constexpr int kGradWeightMaxWTaps = 4;

struct GradWeightLinesGeometry {
  int warps = 4;
  int phases = 1;       // W phases of grad_output (stride_w)
  int w_chunks = 1;     // items per (kd, kh, phase): the phase's W taps in chunks of kGradWeightMaxWTaps
  int j_steps = 1;      // k8 steps over a phase's W positions j
  int j_parts = 1;      // items per (kd, kh, phase, chunk) along j, each with its own tap sums (added in order)
  bool balanced = false;  // items in falling cost order (W phases by tap count), dealt to warps back and forth
  // > 0: grad_output rows staged de-interleaved by W phase, phase r of a channel row at r * phase_pitch, so the B
  // fragments read consecutive words (no 2-way conflicts at W stride 2); 0: rows staged as they are (cp.async).
  int phase_pitch = 0;
  int k_step[kSpatialDims] = {1, 1, 1};
  int i_step[kSpatialDims] = {1, 1, 1};
  int rows_per_tile = 1, h_tiles = 1;
  int64_t tiles = 0;    // batch x D_out x h_tiles, n outermost
  int64_t tiles_per_block = 1, block_chunks = 1;
  LinesGeometry x_lines, dy_lines;  // staging of the input lines (KP channel rows) and grad_output rows (NP)
  int wtaps_offset = 0, x_offset = 0, dy_offset = 0;  // bytes into shared memory; the tap sums start at 0
  int phase_order[kLinesMaxPhases] = {};  // W phases by falling tap count (balanced)
  int64_t blocks = 0, smem_bytes = 0;
};

template <typename scalar_t, bool kSplit, int KP, int NP>
__global__ void __launch_bounds__(kLinesMaxThreads, 1)
tconv_grouped_mma_grad_weight_kernel(const ConvTransposeParams p, const GradWeightLinesGeometry geo,
                                     const scalar_t* __restrict__ x, const scalar_t* __restrict__ dy,
                                     float* __restrict__ partial) {
  constexpr int NT = NP / 8;
  constexpr bool kWidened = !std::is_same<scalar_t, float>::value;  // fp16/bf16: exact in TF32
  extern __shared__ __align__(16) float mma_smem[];
  char* smem = reinterpret_cast<char*>(mma_smem);
  float* tap_sums = mma_smem;  // [tap][KP][NP]
  WTaps* wtaps = reinterpret_cast<WTaps*>(smem + geo.wtaps_offset);
  scalar_t* x_lines = reinterpret_cast<scalar_t*>(smem + geo.x_offset);
  scalar_t* dy_lines = reinterpret_cast<scalar_t*>(smem + geo.dy_offset);
  const int KD = int(p.kernel[0]), KH = int(p.kernel[1]), KW = int(p.kernel[2]);
  const int taps = KD * KH * KW;
  const int tid = int(threadIdx.x), warp = tid / 32, lane = tid % 32, gid = lane / 4, tig = lane % 4;
  const int threads = 32 * geo.warps;
  const int cin = int(p.in_per_group()), cout = int(p.out_per_group());
  const int chunk = int(blockIdx.x) % int(geo.block_chunks), g = int(blockIdx.x) / int(geo.block_chunks);

  const int sums_size = taps * KP * NP;  // one [tap][KP][NP] per j part
  for (int e = tid; e < geo.j_parts * sums_size; e += threads) tap_sums[e] = 0.f;
  for (int ph = tid; ph < geo.phases; ph += threads) wtaps[ph] = w_taps_of_phase<true>(p, geo.k_step[2], geo.i_step[2], ph);
  const int x_vectors = geo.x_lines.lines_d * geo.x_lines.lines_h * KP * geo.x_lines.line_pitch * int(sizeof(scalar_t)) / 16;
  for (int e = tid; e < x_vectors; e += threads) reinterpret_cast<uint4*>(x_lines)[e] = make_uint4(0, 0, 0, 0);
  const int dy_vectors = geo.dy_lines.lines_h * NP * geo.dy_lines.line_pitch * int(sizeof(scalar_t)) / 16;
  for (int e = tid; e < dy_vectors; e += threads) reinterpret_cast<uint4*>(dy_lines)[e] = make_uint4(0, 0, 0, 0);
  __syncthreads();

  const int in_d = int(p.in_size[0]), in_h = int(p.in_size[1]), in_w = int(p.in_size[2]);
  const int out_h = int(p.out_size[1]), out_w = int(p.out_size[2]);
  const int s_h = int(p.stride[1]), p_h = int(p.padding[1]), d_h = int(p.dilation[1]), s_w = geo.phases;
  const int xs1 = int(p.input_strides[1]), xs2 = int(p.input_strides[2]), xs3 = int(p.input_strides[3]),
            xs4 = int(p.input_strides[4]);
  const int ys1 = int(p.output_strides[1]), ys2 = int(p.output_strides[2]), ys3 = int(p.output_strides[3]),
            ys4 = int(p.output_strides[4]);
  const int x_pitch = geo.x_lines.line_pitch, dy_pitch = geo.dy_lines.line_pitch;
  const int b_step = geo.phase_pitch > 0 ? 1 : s_w;  // staged elements between consecutive j of one phase
  // This lane's A rows (input channels gid, gid + 8) and B columns (output channels 8 * nt + gid).
  const int a_row0 = gid * x_pitch, a_row1 = (gid + 8) * x_pitch;
  int b_col[NT];
#pragma unroll
  for (int nt = 0; nt < NT; ++nt) b_col[nt] = (8 * nt + gid) * dy_pitch;
  const int64_t tile_begin = chunk * geo.tiles_per_block;
  const int64_t tile_end = min(geo.tiles, tile_begin + geo.tiles_per_block);
  const int64_t tiles_per_n = geo.tiles / p.batch;

#pragma unroll 1
  for (int64_t tile = tile_begin; tile < tile_end; ++tile) {
    const int n = int(tile / tiles_per_n), in_n = int(tile % tiles_per_n);
    const int od = in_n / geo.h_tiles, oh0 = (in_n % geo.h_tiles) * geo.rows_per_tile;
    const int rows_here = min(geo.rows_per_tile, out_h - oh0);
    const TapWalk<int> walk_d = forward_taps<int>(od, KD, int(p.stride[0]), int(p.padding[0]), int(p.dilation[0]),
                                                  in_d, geo.k_step[0], geo.i_step[0]);
    const int first = oh0 + p_h - (KH - 1) * d_h;  // ih = (oh + p - kh * d) / s
    const int h_lo = first <= 0 ? 0 : (first + s_h - 1) / s_h;
    const int h_hi = min(in_h - 1, (oh0 + rows_here - 1 + p_h) / s_h);
    const scalar_t* x_group = x + n * int(p.input_strides[0]) + g * cin * xs1;
    const scalar_t* dy_group = dy + n * int(p.output_strides[0]) + g * cout * ys1;
    const int x_rows = max(0, h_hi - h_lo + 1);
    stage_src_lines<scalar_t, KP, false>(geo.x_lines, x_group, xs1, xs2, xs3, xs4, in_w, cin, walk_d, h_lo, x_rows,
                                         x_lines, warp, geo.warps, lane);
    const TapWalk<int> this_row{0, 1, od, 0, 1};
    if (geo.phase_pitch > 0) {
      // A warp per (row, channel), lanes along one phase's positions at a time (the other phases' words come from L1).
#pragma unroll 1
      for (int rk = warp; rk < rows_here * cout; rk += geo.warps) {
        const int row = rk / cout, k = rk % cout;
        const scalar_t* from = dy_group + od * ys2 + (oh0 + row) * ys3 + k * ys1;
        scalar_t* to = dy_lines + (row * NP + k) * geo.dy_lines.line_pitch;
        for (int r = 0; r < s_w; ++r)
          for (int j = lane; s_w * j + r < out_w; j += 32) to[r * geo.phase_pitch + j] = __ldg(from + (s_w * j + r) * ys4);
      }
    } else {
      stage_src_lines<scalar_t, NP, false>(geo.dy_lines, dy_group, ys1, ys2, ys3, ys4, out_w, cout, this_row, oh0,
                                           rows_here, dy_lines, warp, geo.warps, lane);
    }
    cp_async_wait_all_groups();
    __syncthreads();

    const int items = walk_d.count * KH * s_w * geo.w_chunks * geo.j_parts;
    const int steps_per_part = (geo.j_steps + geo.j_parts - 1) / geo.j_parts;
#pragma unroll 1
    for (int round = 0;; ++round) {
      // Balanced: the items come in falling cost order and odd rounds deal them from the last warp back, so the
      // costliest items do not pile up on the first warps.
      const int item = round * geo.warps + (geo.balanced && (round & 1) ? geo.warps - 1 - warp : warp);
      if (item >= items) break;
      int r, w_chunk, kh, td, j_part;
      if (geo.balanced) {  // (phase rank, chunk, td, kh, j part), j part fastest
        int rest = item;
        j_part = rest % geo.j_parts;
        rest /= geo.j_parts;
        kh = rest % KH;
        rest /= KH;
        td = rest % walk_d.count;
        rest /= walk_d.count;
        w_chunk = rest % geo.w_chunks;
        r = geo.phase_order[rest / geo.w_chunks];
      } else {  // (td, kh, phase, chunk, j part), j part fastest
        int rest = item;
        j_part = rest % geo.j_parts;
        rest /= geo.j_parts;
        w_chunk = rest % geo.w_chunks;
        rest /= geo.w_chunks;
        r = rest % s_w;
        rest /= s_w;
        kh = rest % KH;
        td = rest / KH;
      }
      const int js_begin = j_part * steps_per_part, js_end = min(geo.j_steps, js_begin + steps_per_part);
      if (js_begin >= js_end) continue;
      const WTaps phase_taps = wtaps[r];
      const int t_first = w_chunk * kGradWeightMaxWTaps;
      const int t_count = min(kGradWeightMaxWTaps, phase_taps.count - t_first);
      if (t_count <= 0) continue;
      float acc[kGradWeightMaxWTaps][NT][4];
      zero_tile(acc);
      bool any_row = false;
#pragma unroll 1
      for (int row = 0; row < rows_here; ++row) {
        const int ih_s = oh0 + row + p_h - kh * d_h;
        if (ih_s < 0 || ih_s % s_h != 0 || ih_s / s_h >= in_h) continue;
        any_row = true;
        const scalar_t* x_line = x_lines + (td * geo.x_lines.lines_h + (ih_s / s_h - h_lo)) * KP * x_pitch +
                                 geo.x_lines.halo + tig + (phase_taps.base + t_first * phase_taps.step);
        const scalar_t* dy_row = dy_lines + row * NP * dy_pitch + b_step * tig + (geo.phase_pitch > 0 ? r * geo.phase_pitch : r);
#pragma unroll 1
        for (int js = js_begin; js < js_end; ++js) {
          const int j0 = 8 * js;
          uint32_t b_big[NT][2], b_small[NT][2];
#pragma unroll
          for (int nt = 0; nt < NT; ++nt) {
            split_tf32<kSplit, kWidened>(to_acc(dy_row[b_col[nt] + b_step * j0]), b_big[nt][0], b_small[nt][0]);
            split_tf32<kSplit, kWidened>(to_acc(dy_row[b_col[nt] + b_step * (j0 + 4)]), b_big[nt][1], b_small[nt][1]);
          }
#pragma unroll
          for (int t = 0; t < kGradWeightMaxWTaps; ++t) {
            if (t >= t_count) break;
            const scalar_t* at = x_line + j0 + t * phase_taps.step;
            uint32_t a_big[4], a_small[4];
            split_tf32<kSplit, kWidened>(to_acc(at[a_row0]), a_big[0], a_small[0]);
            split_tf32<kSplit, kWidened>(to_acc(at[a_row0 + 4]), a_big[2], a_small[2]);
            if (KP == 16) {
              split_tf32<kSplit, kWidened>(to_acc(at[a_row1]), a_big[1], a_small[1]);
              split_tf32<kSplit, kWidened>(to_acc(at[a_row1 + 4]), a_big[3], a_small[3]);
            } else {
              a_big[1] = a_big[3] = a_small[1] = a_small[3] = 0u;
            }
#pragma unroll
            for (int nt = 0; nt < NT; ++nt) {
              if (kSplit) {
                float part[4] = {0.f, 0.f, 0.f, 0.f};
                mma_m16n8<float>(part, a_small, b_big[nt]);
                mma_m16n8<float>(part, a_big, b_small[nt]);
                mma_m16n8<float>(part, a_big, b_big[nt]);
#pragma unroll
                for (int e = 0; e < 4; ++e) acc[t][nt][e] += part[e];
              } else {
                mma_m16n8<float>(acc[t][nt], a_big, b_big[nt]);
              }
            }
          }
        }
      }
      if (!any_row) continue;
      // C fragments: rows (input channels) gid (elements 0, 1) and gid + 8 (2, 3), columns (output channels)
      // 2 * tig and 2 * tig + 1.
      const int kd = walk_d.k + td * walk_d.k_step;
#pragma unroll
      for (int t = 0; t < kGradWeightMaxWTaps; ++t) {
        if (t >= t_count) break;
        const int kw = phase_taps.kw0 + (t_first + t) * phase_taps.kw_step;
        float* sums = tap_sums + j_part * sums_size + ((kd * KH + kh) * KW + kw) * KP * NP;
#pragma unroll
        for (int nt = 0; nt < NT; ++nt)
#pragma unroll
          for (int h = 0; h < 2; ++h)
#pragma unroll
            for (int e = 0; e < 2; ++e) {
              if (KP == 8 && h == 1) continue;
              sums[(gid + 8 * h) * NP + 8 * nt + 2 * tig + e] += acc[t][nt][2 * h + e];
            }
      }
    }
    __syncthreads();  // the sums are complete for this tile and the lines are restaged for the next
  }
  // This block's split: [C_in][C_out/g][KD][KH][KW], the group's input channels.
  float* split = partial + int64_t(chunk) * p.in_channels * cout * taps;
  for (int e = tid; e < cin * cout * taps; e += threads) {
    const int tap = e % taps, co = (e / taps) % cout, ci = e / (taps * cout);
    float sum = 0.f;
    for (int part = 0; part < geo.j_parts; ++part) sum += tap_sums[part * sums_size + (tap * KP + ci) * NP + co];
    split[int64_t(g * cin + ci) * cout * taps + co * taps + tap] = sum;
  }
}

// The forward phase walks' steps per dim (conv_params.h forward_taps): k_step = s / gcd(s, d), i_step = d / gcd(s, d).
void phase_walk_steps(const ConvTransposeParams& p, int (&k_step)[kSpatialDims], int (&i_step)[kSpatialDims]) {
  for (int i = 0; i < kSpatialDims; ++i) {
    const int64_t common = gcd_of<int64_t>(p.stride[i], p.dilation[i]);
    k_step[i] = int(p.stride[i] / common);
    i_step[i] = int(p.dilation[i] / common);
  }
}

// A group's channel count (1..16) padded to the MMA width, 8 or 16 (TCONV_MMA_WIDTH_SWITCH at compile time).
int64_t mma_width(int64_t channels) { return channels <= 8 ? 8 : 16; }

MmaGeometry make_mma_geometry(const ConvTransposeParams& p, bool forward, int sm_count) {
  MmaGeometry geo;
  geo.phases = forward ? int(p.stride[2]) : 1;
  geo.tiles_per_phase = int(std::max<int64_t>(1, std::min<int64_t>(kTileM, kStagePositions / (16 * geo.phases))));
  geo.stage_w = geo.phases * 16 * geo.tiles_per_phase;
  geo.stage_pitch = geo.stage_w + kStagePad;
  const int64_t* dst_size = forward ? p.out_size : p.in_size;
  geo.tasks_per_row = int(std::max<int64_t>(1, (dst_size[2] + geo.stage_w - 1) / geo.stage_w));
  phase_walk_steps(p, geo.k_step, geo.i_step);
  geo.rows = int(dst_size[0] * dst_size[1]);
  const int64_t outer = p.batch * p.groups;
  const int64_t want = (int64_t(std::max(sm_count, 1)) * kGroupedMmaBlocksPerSm + outer - 1) / std::max<int64_t>(outer, 1);
  const int64_t chunks = std::max<int64_t>(1, std::min<int64_t>(want, geo.rows));
  geo.rows_per_chunk = int(std::max<int64_t>(1, (geo.rows + chunks - 1) / chunks));
  geo.row_chunks = int((geo.rows + geo.rows_per_chunk - 1) / geo.rows_per_chunk);
  geo.blocks = outer * geo.row_chunks;
  const int64_t kp = mma_width(p.in_per_group()), np = mma_width(p.out_per_group());
  const int64_t dst_channels = forward ? np : kp;  // padded, as the kernel's NP
  geo.smem_bytes = (p.kernel_volume() * kp * np + kMmaWarps * dst_channels * geo.stage_pitch) * int64_t(sizeof(float));
  return geo;
}

int lines_warps() {
  static const int warps =
      std::min(kLinesMaxThreads / 32, std::max(1, development_switch("TCONV_GROUPED_MMA_LINES_WARPS", kLinesWarps)));
  return warps;
}

// The lines form's tasks dealt balanced (TCONV_GROUPED_MMA_LINES_BALANCED=0, development only, read once per process,
// deals them in order). Why (run 273, H100, ncu): a row's tap count alternates with its parity where the H stride is
// 2 (L1-73: 2 or 1 kh taps), and a warp's two rounds took two rows of one parity, so the warps holding the longer rows
// kept the others at the tile barrier (12 % of the L1-73 forward's stall samples). Run 274 (H100, forward ms, in
// order / balanced): L1-73 TF32 0.933 / 0.874, bf16 1.065 / 1.041; fam09 and L1-72 (one round per tile) unchanged.
// A task per W phase where the fragments store straight, for L1-72's single round, lost: 0.297 / 0.304.
bool lines_balanced() {
  static const bool on = development_switch("TCONV_GROUPED_MMA_LINES_BALANCED", 1) != 0;
  return on;
}

// TCONV_GROUPED_MMA_LINES_ROWS (development only, read once per process): dst H rows per tile at most, instead of
// kLinesMaxRows.
int lines_max_rows() {
  static const int rows = std::max(1, development_switch("TCONV_GROUPED_MMA_LINES_ROWS", kLinesMaxRows));
  return rows;
}

// Taps per output on average: each tap of a dim serves one of its stride's phases, so kernel / stride per dim.
double taps_per_output(const ConvTransposeParams& p) {
  double taps = 1.0;
  for (int i = 0; i < kSpatialDims; ++i) taps *= double(p.kernel[i]) / double(p.stride[i]);
  return taps;
}

// Whether the lines form stores through a C tile in shared memory. TCONV_GROUPED_MMA_LINES_STAGED (development
// only, read once per process): 1 or 0 forces it; unset (-1) takes the rule below.
bool lines_staged_store(const ConvTransposeParams& p, bool forward, int element_bytes) {
  static const int forced = development_switch("TCONV_GROUPED_MMA_LINES_STAGED", -1);
  if (forced >= 0) return forced != 0;
  // Run 267 (H200, forward ms, staged / straight from the fragments): the staged store wins where the output write
  // dominates, fp32 data with few taps per output (L1-73 TF32 1.093 / 1.485, 3xTF32 1.449 / 1.584), and wherever W
  // has more than 2 phases, whose sectors the fragments write in thirds or less (fam09: TF32 0.708 / 1.411, bf16
  // 0.582 / 0.855); it loses with many taps (L1-72 TF32 0.369 / 0.313, 3xTF32 0.564 / 0.473) and on 16-bit data at
  // 2 phases (L1-73 bf16 1.037 / 0.968; L1-72 0.312 / 0.316).
  if (!forward) return false;
  return p.stride[2] > 2 || (element_bytes == 4 && taps_per_output(p) < kLinesFp32MinTapsPerOutput);
}

// Persistent blocks, about two per resident slot: a block stages the group's weights once for its tiles.
void set_lines_blocks(LinesGeometry& geo, const ConvTransposeParams& p, int sm_count, int resident) {
  const int64_t outer = p.batch * p.groups;
  const int64_t want = int64_t(std::max(sm_count, 1)) * std::max(resident, 1) * 2;
  const int64_t chunks = std::max<int64_t>(1, std::min<int64_t>(geo.tiles, (want + outer - 1) / std::max<int64_t>(outer, 1)));
  geo.tiles_per_block = int((geo.tiles + chunks - 1) / chunks);
  geo.block_chunks = (geo.tiles + geo.tiles_per_block - 1) / geo.tiles_per_block;
  geo.blocks = outer * geo.block_chunks;
}

// The block count from the kernel's resident blocks per SM as the runtime reports them (registers too), not the
// shared-memory estimate alone. Why: the estimate took L1-72's lines kernels at 4 blocks per SM where registers allow
// 2 (run 273's ncu), so they launched twice the blocks meant, each with half the tiles and its own staging of the
// group's weights (105 taps x 8 x 8 there). Run 278 (H100, ms, two rounds, estimate / runtime count): L1-72 forward
// TF32 0.300 / **0.269**, bf16 0.301 / **0.264**, fwd+bwd 1.281 / 1.259 and 1.153 / 1.114 (its grad_input is the
// lines form too); L1-73 TF32 0.87 both, bf16 1.066 / 1.093 (a loss); fam09 unchanged. TCONV_GROUPED_MMA_LINES_OCCUPANCY=0
// (development only, read once per process) takes the estimate again.
bool lines_resident_from_occupancy() {
  static const bool on = development_switch("TCONV_GROUPED_MMA_LINES_OCCUPANCY", 1) != 0;
  return on;
}

// The lines form's geometry; blocks == 0 where it does not apply (too many W phases, or a tile of one dst row
// does not fit kLinesMaxSharedBytes). element_bytes: sizeof the data type.
LinesGeometry make_lines_geometry(const ConvTransposeParams& p, bool forward, int sm_count, int element_bytes) {
  LinesGeometry geo;
  geo.warps = lines_warps();
  const int64_t* src_size = forward ? p.in_size : p.out_size;
  const int64_t* dst_size = forward ? p.out_size : p.in_size;
  geo.phases = forward ? int(p.stride[2]) : 1;
  if (geo.phases > kLinesMaxPhases) return geo;
  const int64_t j_count = (dst_size[2] + geo.phases - 1) / geo.phases;  // positions of the longest phase
  const int64_t tiles_cap = std::max<int64_t>(1, std::min<int64_t>(kTileM, kStagePositions / (16 * geo.phases)));
  geo.tiles_per_phase = int(std::max<int64_t>(1, std::min<int64_t>(tiles_cap, (j_count + 15) / 16)));
  geo.stage_w = geo.phases * 16 * geo.tiles_per_phase;
  geo.tasks_per_row = int((dst_size[2] + geo.stage_w - 1) / geo.stage_w);
  phase_walk_steps(p, geo.k_step, geo.i_step);
  // src W indices the tasks read: rows j in [0, J), every tap of every phase.
  const int64_t rows_j = int64_t(geo.tasks_per_row) * 16 * geo.tiles_per_phase;
  int64_t w_lo = 0, w_hi = src_size[2] - 1;
  for (int phase = 0; phase < geo.phases; ++phase) {
    const WTaps wt = forward ? w_taps_of_phase<true>(p, geo.k_step[2], geo.i_step[2], phase)
                             : w_taps_of_phase<false>(p, geo.k_step[2], geo.i_step[2], phase);
    if (wt.count == 0) continue;
    const int64_t last_tap = int64_t(wt.count - 1) * wt.step;
    w_lo = std::min<int64_t>(w_lo, wt.base + std::min<int64_t>(0, last_tap));
    w_hi = std::max<int64_t>(w_hi, (rows_j - 1) * wt.mul + wt.base + std::max<int64_t>(0, last_tap));
  }
  geo.halo = int((-w_lo + 7) / 8 * 8);  // keeps the copies' 16-byte alignment
  // Channel-row pitch: the smallest >= the row's elements that is 8 words mod 32 banks, in elements (16-bit: 4
  // words, i.e. 8 elements mod 64).
  const int64_t pitch_mod = element_bytes == 4 ? 32 : 64, needed = geo.halo + w_hi + 1;
  geo.line_pitch = int((needed - 8 + pitch_mod - 1) / pitch_mod * pitch_mod + 8);

  const int64_t kp = mma_width(p.in_per_group()), np = mma_width(p.out_per_group());
  const int64_t src_k = forward ? kp : np;  // padded, as the kernel's KP
  const int64_t KD = p.kernel[0], KH = p.kernel[1];
  geo.lines_d = int(std::min<int64_t>(src_size[0], forward ? (KD + geo.k_step[0] - 1) / geo.k_step[0] : KD));
  const int64_t b_bytes = p.kernel_volume() * kp * np * 4;
  const int64_t wtaps_bytes = (int64_t(geo.phases) * int64_t(sizeof(WTaps)) + 15) / 16 * 16;
  geo.staged_store = lines_staged_store(p, forward, element_bytes);
  geo.balanced = lines_balanced();
  geo.stage_pitch = geo.stage_w + kStagePad;
  const int64_t dst_n = forward ? np : kp;  // padded, as the kernel's NP
  const int64_t stage_bytes = geo.staged_store ? (int64_t(geo.warps) * geo.stage_pitch + 1) * dst_n * 4 : 0;
  for (int rows = int(std::min<int64_t>(dst_size[1], lines_max_rows())); rows >= 1; --rows) {
    const int64_t lines_h = forward ? (rows - 1 + (KH - 1) * p.dilation[1]) / p.stride[1] + 1
                                    : (rows - 1) * p.stride[1] + (KH - 1) * p.dilation[1] + 1;
    geo.lines_h = int(std::min<int64_t>(src_size[1], lines_h));
    const int64_t line_bytes = int64_t(geo.lines_d) * geo.lines_h * src_k * geo.line_pitch * element_bytes;
    const int64_t smem = b_bytes + wtaps_bytes + (stage_bytes + 15) / 16 * 16 + line_bytes;
    if (smem > kLinesMaxSharedBytes) continue;
    geo.rows_per_tile = rows;
    geo.wtaps_offset = int(b_bytes);
    geo.stage_offset = int(b_bytes + wtaps_bytes);
    geo.lines_offset = int(b_bytes + wtaps_bytes + (stage_bytes + 15) / 16 * 16);
    geo.smem_bytes = smem;
    break;
  }
  if (geo.smem_bytes == 0) return geo;
  geo.h_tiles = int((dst_size[1] + geo.rows_per_tile - 1) / geo.rows_per_tile);
  geo.tiles = int(dst_size[0] * geo.h_tiles);
  // Resident blocks per SM as shared memory and warps allow; the launch recounts them with registers
  // (lines_resident_from_occupancy).
  const int64_t resident = std::max<int64_t>(
      1, std::min<int64_t>(std::min<int64_t>(8, 64 / geo.warps), (228 * 1024) / (geo.smem_bytes + 1024)));
  set_lines_blocks(geo, p, sm_count, int(resident));
  return geo;
}

// cp.async width for the staged lines: 16 or 4 bytes where src W is contiguous and every line start and
// length is a multiple of it; 0 (element loads) otherwise, e.g. channels_last src.
int lines_copy_elems(const ConvTransposeParams& p, bool forward, const void* src, int element_bytes) {
  const int64_t* ss = forward ? p.input_strides : p.output_strides;
  const int64_t src_w = forward ? p.in_size[2] : p.out_size[2];
  if (ss[4] != 1 && src_w > 1) return 0;
  for (const int bytes : {16, 4}) {
    bool ok = reinterpret_cast<uintptr_t>(src) % bytes == 0 && (src_w * element_bytes) % bytes == 0;
    for (int i = 0; i < 4; ++i) ok = ok && (ss[i] * element_bytes) % bytes == 0;
    if (ok) return bytes / element_bytes;
  }
  return 0;
}

// 16-byte vectors per position for the staged lines (stage_src_lines): where the source's channels are innermost, the
// group's channels a whole number of 16-byte vectors and the source and its batch / D / H / W strides 16-byte aligned;
// 0 otherwise. forward: the source is the input (channels: in_per_group), else grad_output (out_per_group).
int lines_position_vectors(const ConvTransposeParams& p, bool forward, const void* src, int element_bytes) {
  const int64_t* ss = forward ? p.input_strides : p.output_strides;
  const int64_t group_bytes = (forward ? p.in_per_group() : p.out_per_group()) * element_bytes;
  bool ok = ss[1] == 1 && group_bytes % 16 == 0 && reinterpret_cast<uintptr_t>(src) % 16 == 0;
  for (const int i : {0, 2, 3, 4}) ok = ok && (ss[i] * element_bytes) % 16 == 0;
  return ok ? int(group_bytes / 16) : 0;
}

// The largest bank conflict (distinct 32-bit words in one bank) of a fragment load whose 32 lanes read element
// gid * pitch + lane_step * tig; the staged rows' pitches are chosen to minimise it. Runs on the host per call
// (geometry), so it counts each lane's word once against the earlier lanes: 32 x 32 steps.
int fragment_conflict_ways(int64_t pitch, int lane_step, int element_bytes) {
  int64_t words[32];
  int per_bank[32] = {};
  int worst = 1;
  for (int lane = 0; lane < 32; ++lane) {
    words[lane] = ((lane / 4) * pitch + lane_step * (lane % 4)) * element_bytes / 4;
    bool seen = false;
    for (int other = 0; other < lane; ++other) seen = seen || words[other] == words[lane];
    if (!seen) worst = std::max(worst, ++per_bank[words[lane] % 32]);
  }
  return worst;
}

// The smallest pitch >= needed (a multiple of 16 bytes, for the cp.async copies) with the fewest conflicts.
int conflict_free_pitch(int64_t needed, int lane_step, int element_bytes) {
  const int64_t align = 16 / element_bytes;
  int64_t best = 0;
  int best_ways = 1 << 30;
  for (int64_t pitch = (needed + align - 1) / align * align; pitch < needed + 32 * align + align; pitch += align) {
    const int ways = fragment_conflict_ways(pitch, lane_step, element_bytes);
    if (ways < best_ways) best = pitch, best_ways = ways;
    if (best_ways == 1) break;  // conflict-free: no later pitch does better
  }
  return int(best);
}

// Development only (read once per process): warps per grad_weight block and grad_output rows per tile at most.
// Warps per grad_weight block. Run 270 (H100, grad_weight ms, 4 / 8 warps, 8 rows per tile): L1-73 TF32 1.906 /
// 1.375, bf16 2.214 / 1.981; L1-72 TF32 0.633 / 0.484, bf16 0.679 / 0.496; fam09 TF32 0.774 / 0.647, bf16 0.614 /
// 0.675. 4 rows per tile (4 warps) won only L1-73 bf16 (1.936) and L1-72 TF32 (0.474), so 8 rows stay.
constexpr int kGradWeightLinesWarps = 8;
int grad_weight_lines_warps() {
  static const int warps = std::min(
      kLinesMaxThreads / 32, std::max(1, development_switch("TCONV_GROUPED_MMA_GRAD_WEIGHT_WARPS", kGradWeightLinesWarps)));
  return warps;
}
// Development only (read once per process): j parts per item (1-4), rows staged by W phase (0/1) and the balanced item
// order (0/1). Run 272 (H200, grad_weight ms, TF32 / bf16), plain / balanced / 2 parts balanced / de-interleaved:
// L1-73 1.398 / 2.020, 1.341 / 1.923, 1.382 / 1.975, 2.390 / 2.250; L1-72 0.503 / 0.514, 0.509 / 0.519, 0.564 / 0.574,
// 0.670 / 0.684; fam09 0.673 / 0.500, 0.634 / 0.460, 0.697 / 0.489, 1.267 / 1.074. So the balanced order is the default,
// with one part and rows as they lie.
int grad_weight_lines_j_parts() {
  static const int parts = std::min(4, std::max(1, development_switch("TCONV_GROUPED_MMA_GRAD_WEIGHT_JPARTS", 1)));
  return parts;
}
bool grad_weight_lines_deinterleave() {
  static const bool on = development_switch("TCONV_GROUPED_MMA_GRAD_WEIGHT_DEINTERLEAVE", 0) != 0;
  return on;
}
bool grad_weight_lines_balanced() {
  static const bool balanced = development_switch("TCONV_GROUPED_MMA_GRAD_WEIGHT_BALANCED", 1) != 0;
  return balanced;
}
int grad_weight_lines_max_rows() {
  static const int rows = std::max(1, development_switch("TCONV_GROUPED_MMA_GRAD_WEIGHT_ROWS", kLinesMaxRows));
  return rows;
}

// Persistent blocks, about two per resident slot, each writing one weight-sized split: at most max_chunks splits
// per group (the workspace budget).
void set_grad_weight_blocks(GradWeightLinesGeometry& geo, const ConvTransposeParams& p, int sm_count, int64_t resident,
                            int64_t max_chunks) {
  const int64_t want = int64_t(std::max(sm_count, 1)) * std::max<int64_t>(resident, 1) * 2;
  int64_t chunks = std::min<int64_t>(geo.tiles, (want + p.groups - 1) / p.groups);
  chunks = std::max<int64_t>(1, std::min<int64_t>(chunks, max_chunks));
  geo.tiles_per_block = (geo.tiles + chunks - 1) / chunks;
  geo.block_chunks = (geo.tiles + geo.tiles_per_block - 1) / geo.tiles_per_block;
  geo.blocks = p.groups * geo.block_chunks;
}

// The grad_weight grid from the runtime's resident blocks per SM (registers too; never more splits than the
// shared-memory estimate, which sized the workspace), as the lines form does. Why: 93-105 registers x 256 threads allow
// 2 blocks per SM where the estimate may count more, and each extra block adds a split to write and to sum. Run 279
// (H100, grad_weight ms, two rounds, estimate / runtime count): L1-73 bf16 1.915, 1.912 / **1.815, 1.815** (fwd+bwd
// 3.885 / 3.803), TF32 1.331, 1.319 / 1.320, 1.320; L1-72 and fam09 unchanged (0.500 / 0.500, 0.632 / 0.632 TF32).
// TCONV_GROUPED_MMA_GRAD_WEIGHT_OCCUPANCY=0 (development only, read once per process) takes the estimate again.
bool grad_weight_resident_from_occupancy() {
  static const bool on = development_switch("TCONV_GROUPED_MMA_GRAD_WEIGHT_OCCUPANCY", 1) != 0;
  return on;
}

// The grad_weight lines form's geometry; blocks == 0 where it does not apply (more W phases than
// kLinesMaxPhases, or the tap sums and a one-row tile do not fit kLinesMaxSharedBytes).
GradWeightLinesGeometry make_grad_weight_lines_geometry(const ConvTransposeParams& p, int sm_count, int element_bytes,
                                                        int64_t max_workspace_elems) {
  GradWeightLinesGeometry geo;
  geo.warps = grad_weight_lines_warps();
  geo.phases = int(p.stride[2]);
  if (geo.phases > kLinesMaxPhases || p.batch * p.in_spatial() * p.out_spatial() == 0) return geo;
  phase_walk_steps(p, geo.k_step, geo.i_step);
  const int64_t in_w = p.in_size[2], out_w = p.out_size[2];
  const int64_t j_count = (out_w + geo.phases - 1) / geo.phases;  // positions of the longest phase
  geo.j_steps = int((j_count + 7) / 8);
  // Input W indices the items read: j + e(kw) for j in [0, 8 * j_steps), every tap of every phase.
  int64_t e_lo = 0, e_hi = 0;
  int max_taps = 0;
  for (int phase = 0; phase < geo.phases; ++phase) {
    const WTaps wt = w_taps_of_phase<true>(p, geo.k_step[2], geo.i_step[2], phase);
    if (wt.count == 0) continue;
    max_taps = std::max(max_taps, wt.count);
    const int64_t last = wt.base + int64_t(wt.count - 1) * wt.step;
    e_lo = std::min<int64_t>(e_lo, std::min<int64_t>(wt.base, last));
    e_hi = std::max<int64_t>(e_hi, std::max<int64_t>(wt.base, last));
  }
  geo.w_chunks = std::max(1, (max_taps + kGradWeightMaxWTaps - 1) / kGradWeightMaxWTaps);
  geo.j_parts = std::min(grad_weight_lines_j_parts(), geo.j_steps);
  geo.balanced = grad_weight_lines_balanced();
  for (int rank = 0; rank < geo.phases; ++rank) geo.phase_order[rank] = rank;
  std::stable_sort(geo.phase_order, geo.phase_order + geo.phases, [&](int a, int b) {
    return w_taps_of_phase<true>(p, geo.k_step[2], geo.i_step[2], a).count >
           w_taps_of_phase<true>(p, geo.k_step[2], geo.i_step[2], b).count;
  });
  const int64_t align = 16 / element_bytes;
  LinesGeometry& xl = geo.x_lines;
  LinesGeometry& yl = geo.dy_lines;
  xl.halo = int((-e_lo + align - 1) / align * align);
  const int64_t x_needed = std::max<int64_t>(xl.halo + in_w, xl.halo + 8 * int64_t(geo.j_steps) + e_hi);
  xl.line_pitch = conflict_free_pitch(x_needed, 1, element_bytes);  // A: lanes (channel gid, position tig)
  yl.halo = 0;
  if (geo.phases > 1 && grad_weight_lines_deinterleave()) {
    geo.phase_pitch = 8 * geo.j_steps;  // every phase's positions, zeros after its last
    yl.line_pitch = conflict_free_pitch(int64_t(geo.phases) * geo.phase_pitch, 1, element_bytes);  // (gid, tig)
  } else {
    yl.line_pitch = conflict_free_pitch(std::max<int64_t>(out_w, int64_t(geo.phases) * 8 * geo.j_steps), geo.phases,
                                        element_bytes);  // B: lanes (channel gid, position s_w * tig)
  }
  const int64_t kp = mma_width(p.in_per_group()), np = mma_width(p.out_per_group());
  const int64_t KD = p.kernel[0], KH = p.kernel[1];
  xl.lines_d = int(std::min<int64_t>(p.in_size[0], (KD + geo.k_step[0] - 1) / geo.k_step[0]));
  yl.lines_d = 1;
  const int64_t sums_bytes = int64_t(geo.j_parts) * p.kernel_volume() * kp * np * 4;
  const int64_t wtaps_bytes = (int64_t(geo.phases) * int64_t(sizeof(WTaps)) + 15) / 16 * 16;
  for (int rows = int(std::min<int64_t>(p.out_size[1], grad_weight_lines_max_rows())); rows >= 1; --rows) {
    xl.lines_h = int(std::min<int64_t>(p.in_size[1], (rows - 1 + (KH - 1) * p.dilation[1]) / p.stride[1] + 1));
    yl.lines_h = rows;
    const int64_t x_bytes = int64_t(xl.lines_d) * xl.lines_h * kp * xl.line_pitch * element_bytes;
    const int64_t dy_bytes = int64_t(rows) * np * yl.line_pitch * element_bytes;
    const int64_t smem = (sums_bytes + 15) / 16 * 16 + wtaps_bytes + x_bytes + dy_bytes;
    if (smem > kLinesMaxSharedBytes) continue;
    geo.rows_per_tile = rows;
    geo.wtaps_offset = int((sums_bytes + 15) / 16 * 16);
    geo.x_offset = int(geo.wtaps_offset + wtaps_bytes);
    geo.dy_offset = int(geo.x_offset + x_bytes);
    geo.smem_bytes = smem;
    break;
  }
  if (geo.smem_bytes == 0) return geo;
  geo.h_tiles = int((p.out_size[1] + geo.rows_per_tile - 1) / geo.rows_per_tile);
  geo.tiles = p.batch * p.out_size[0] * geo.h_tiles;
  // Resident blocks per SM as shared memory and warps allow; the launch may recount them with registers
  // (grad_weight_resident_from_occupancy).
  const int64_t resident = std::max<int64_t>(
      1, std::min<int64_t>(std::min<int64_t>(8, 64 / geo.warps), (228 * 1024) / (geo.smem_bytes + 1024)));
  const int64_t weight_numel = p.in_channels * p.out_per_group() * p.kernel_volume();
  set_grad_weight_blocks(geo, p, sm_count, resident, max_workspace_elems / std::max<int64_t>(weight_numel, 1));
  return geo;
}

// TCONV_GROUPED_MMA_POSITION_VECTORS (development, read once per process; unset 1, the default since session 97): 0
// stages channels-innermost sources element by element again (lines_position_vectors, stage_src_lines). Measured (run
// 518, H200, channels-last bf16, same build, per pass forward / grad_input / grad_weight ms, 0 -> 1): L1-73 1.517 /
// 1.128 / 2.471 -> 1.640 / 1.131 / 1.398, fam09 0.733 / 0.554 / 1.437 -> 0.611 / 0.554 / 0.670, L1-72 0.316 / 0.600 /
// 0.715 -> 0.260 / 0.349 / 0.493 (L1-73's grad_input runs the FFMA kernel, which this does not touch). L1-73's forward
// lost 8 % (its lines kernel went 102 -> 118 registers on sm_90a; not explained yet) where every other pass gained.
bool lines_position_vectors_enabled() {
  static const bool enabled = development_switch("TCONV_GROUPED_MMA_POSITION_VECTORS", 1) != 0;
  return enabled;
}

template <typename scalar_t, bool kSplit, int KP, int NP>
cudaError_t launch_grouped_mma_grad_weight_kernel(const ConvTransposeParams& p, GradWeightLinesGeometry& geo,
                                                  int sm_count, const void* input, const void* grad_output,
                                                  float* workspace, cudaStream_t stream) {
  geo.x_lines.copy_elems = lines_copy_elems(p, true, input, int(sizeof(scalar_t)));
  geo.dy_lines.copy_elems = lines_copy_elems(p, false, grad_output, int(sizeof(scalar_t)));
  if (lines_position_vectors_enabled()) {
    geo.x_lines.position_vectors = lines_position_vectors(p, true, input, int(sizeof(scalar_t)));
    geo.dy_lines.position_vectors = lines_position_vectors(p, false, grad_output, int(sizeof(scalar_t)));
  }
  auto kernel = tconv_grouped_mma_grad_weight_kernel<scalar_t, kSplit, KP, NP>;
  cudaError_t err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(geo.smem_bytes));
  if (err != cudaSuccess) return err;
  if (grad_weight_resident_from_occupancy()) {
    int resident = 0;
    err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, kernel, 32 * geo.warps, size_t(geo.smem_bytes));
    if (err != cudaSuccess) return err;
    set_grad_weight_blocks(geo, p, sm_count, resident, geo.block_chunks);  // the workspace holds block_chunks splits
  }
  kernel<<<static_cast<unsigned int>(geo.blocks), 32 * geo.warps, static_cast<size_t>(geo.smem_bytes), stream>>>(
      p, geo, static_cast<const scalar_t*>(input), static_cast<const scalar_t*>(grad_output), workspace);
  return cudaGetLastError();
}

// TCONV_GROUPED_MMA_LINES=0 (development only, read once per process) keeps run 78's form everywhere.
bool grouped_mma_lines_enabled() {
  static const bool enabled = development_switch("TCONV_GROUPED_MMA_LINES", 1) != 0;
  return enabled;
}


// Turns a channel count of 1..16 into its padded MMA width (8 or 16) as a compile-time constant.
#define TCONV_MMA_WIDTH_SWITCH(CHANNELS, NAME, ...)                   \
  [&]() -> cudaError_t {                                              \
    if ((CHANNELS) <= 8) { constexpr int NAME = 8; return __VA_ARGS__(); } \
    constexpr int NAME = 16;                                          \
    return __VA_ARGS__();                                             \
  }()

template <typename scalar_t, bool kSplit, int KP, int NP, bool kForward>
cudaError_t launch_grouped_mma_kernel(const ConvTransposeParams& p, int sm_count, const void* src, const void* weight,
                                      const void* bias, void* dst, cudaStream_t stream) {
  const int element_bytes = int(sizeof(scalar_t));
  if (grouped_mma_lines_enabled()) {
    LinesGeometry geo = make_lines_geometry(p, kForward, sm_count, element_bytes);
    if (geo.blocks > 0) {
      if (geo.blocks > 0x7fffffff) return cudaErrorInvalidConfiguration;
      geo.copy_elems = lines_copy_elems(p, kForward, src, element_bytes);
      if (lines_position_vectors_enabled())
        geo.position_vectors = lines_position_vectors(p, kForward, src, element_bytes);
      auto kernel = tconv_grouped_mma_lines_kernel<scalar_t, kSplit, KP, NP, kForward>;
      cudaError_t err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(geo.smem_bytes));
      if (err != cudaSuccess) return err;
      if (lines_resident_from_occupancy()) {
        int resident = 0;
        err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, kernel, 32 * geo.warps, size_t(geo.smem_bytes));
        if (err != cudaSuccess) return err;
        set_lines_blocks(geo, p, sm_count, resident);
        if (geo.blocks > 0x7fffffff) return cudaErrorInvalidConfiguration;
      }
      kernel<<<static_cast<unsigned int>(geo.blocks), 32 * geo.warps, static_cast<size_t>(geo.smem_bytes), stream>>>(
          p, geo, static_cast<const scalar_t*>(src), static_cast<const scalar_t*>(weight),
          static_cast<const scalar_t*>(bias), static_cast<scalar_t*>(dst));
      return cudaGetLastError();
    }
  }
  const MmaGeometry geo = make_mma_geometry(p, kForward, sm_count);
  if (geo.blocks > 0x7fffffff) return cudaErrorInvalidConfiguration;
  tconv_grouped_mma_kernel<scalar_t, kSplit, KP, NP, kForward>
      <<<static_cast<unsigned int>(geo.blocks), kMmaThreads, static_cast<size_t>(geo.smem_bytes), stream>>>(
          p, geo, static_cast<const scalar_t*>(src), static_cast<const scalar_t*>(weight),
          static_cast<const scalar_t*>(bias), static_cast<scalar_t*>(dst));
  return cudaGetLastError();
}

template <bool kForward>
cudaError_t launch_grouped_mma(const ConvTransposeParams& p, DType dtype, bool split_tf32, const void* src,
                               const void* weight, const void* bias, void* dst, int sm_count, cudaStream_t stream) {
  const int64_t k_channels = kForward ? p.in_per_group() : p.out_per_group();
  const int64_t n_channels = kForward ? p.out_per_group() : p.in_per_group();
  return TCONV_MMA_WIDTH_SWITCH(k_channels, KP, [&] {
    return TCONV_MMA_WIDTH_SWITCH(n_channels, NP, [&]() -> cudaError_t {
      switch (dtype) {
        case DType::kFloat32:
          return split_tf32 ? launch_grouped_mma_kernel<float, true, KP, NP, kForward>(p, sm_count, src, weight, bias, dst, stream)
                            : launch_grouped_mma_kernel<float, false, KP, NP, kForward>(p, sm_count, src, weight, bias, dst, stream);
        case DType::kFloat16:
          return launch_grouped_mma_kernel<__half, false, KP, NP, kForward>(p, sm_count, src, weight, bias, dst, stream);
        case DType::kBFloat16:
          return launch_grouped_mma_kernel<__nv_bfloat16, false, KP, NP, kForward>(p, sm_count, src, weight, bias, dst, stream);
        default:
          return cudaErrorInvalidValue;
      }
    });
  });
}

}  // namespace

bool grouped_mma_supported(const ConvTransposeParams& p, DType dtype, GatherPass pass) {
  if (dtype == DType::kFloat64) return false;
  const int64_t cin = p.in_per_group(), cout = p.out_per_group();
  if (cin < 1 || cin > kGroupedMaxChannels || cout < 1 || cout > kGroupedMaxChannels) return false;
  if (!grouped_offsets_fit(p)) return false;
  return make_mma_geometry(p, pass == GatherPass::kForward, 1).smem_bytes <= kGroupedMaxSharedBytes;
}

bool grouped_mma_preferred(const ConvTransposeParams& p, DType dtype, GatherPass pass, bool split_tf32) {
  if (!grouped_mma_supported(p, dtype, pass)) return false;
  if (pass != GatherPass::kForward) {
    // grad_input's lines form against the FFMA kernel (run 272, H200, fwd+bwd ms, FFMA / lines; the same forward and
    // grad_weight): it won only on 16-bit data with many taps per output, L1-72 bf16 (13 taps) 1.347 / 1.209; it lost
    // L1-72 in TF32 (1.320 / 2.220: fp32 lines of grad_output leave 2 dst rows per tile), L1-73 bf16 (3.4 taps)
    // 3.929 / 4.832 and fam09 bf16 (2.5) 1.480 / 1.656.
    return dtype != DType::kFloat32 && p.in_per_group() * p.out_per_group() >= 64 && grouped_mma_lines_enabled() &&
           taps_per_output(p) >= kLinesGradInput16BitMinTapsPerOutput &&
           make_lines_geometry(p, false, 1, element_bytes(dtype)).blocks > 0;
  }
  // Run 78 (H200, run 78's form against the FFMA kernel): with two n8 tiles per A fragment (9-16 output channels
  // per group) fp32 data wins, fam09 (8 x 16) TF32 1.673 -> 0.866 ms and exact fp32 1.675 -> 1.281.
  if (dtype == DType::kFloat32 && p.out_per_group() > 8) return true;
  // Measured only where the group's channels fill an 8 x 8 MMA block (8 x 8 and 8 x 16); fewer stay on FFMA.
  if (p.in_per_group() * p.out_per_group() < 64 || !grouped_mma_lines_enabled() ||
      make_lines_geometry(p, true, 1, element_bytes(dtype)).blocks == 0)
    return false;
  // The lines form with lines_staged_store's choice of store (run 267, H200, forward ms FFMA / lines): 16-bit data
  // and TF32 win everywhere measured (L1-73 bf16 1.359 / 0.968, TF32 1.280 / 1.093; L1-72 bf16 0.559 / 0.316,
  // TF32 0.528 / 0.313; fam09 bf16 0.718 / 0.582). 3xTF32 runs three MMAs per product and wins only where each
  // output has many taps: L1-72 (13 per output) 0.532 / 0.473, while L1-73 (3.4) loses, 1.289 / 1.449.
  return dtype != DType::kFloat32 || !split_tf32 || taps_per_output(p) >= kLinesFp32MinTapsPerOutput;
}

namespace {
// What the grad_weight kernel takes before its geometry: fp32/fp16/bf16, 1-16 channels per group on each side,
// 32-bit offsets.
bool grad_weight_types_fit(const ConvTransposeParams& p, DType dtype) {
  const int64_t cin = p.in_per_group(), cout = p.out_per_group();
  return dtype != DType::kFloat64 && cin >= 1 && cin <= kGroupedMaxChannels && cout >= 1 &&
         cout <= kGroupedMaxChannels && grouped_offsets_fit(p);
}
bool nothing_to_reduce(const ConvTransposeParams& p) { return p.batch * p.in_spatial() * p.out_spatial() == 0; }
}  // namespace

bool grouped_mma_grad_weight_supported(const ConvTransposeParams& p, DType dtype) {
  if (!grad_weight_types_fit(p, dtype)) return false;
  if (nothing_to_reduce(p)) return true;  // zeros, through one split
  return make_grad_weight_lines_geometry(p, 1, element_bytes(dtype), int64_t(1) << 40).blocks > 0;
}

int64_t grouped_mma_grad_weight_workspace_elems(const ConvTransposeParams& p, DType dtype, int sm_count,
                                                int64_t max_workspace_elems) {
  const int64_t weight_numel = p.in_channels * p.out_per_group() * p.kernel_volume();
  const GradWeightLinesGeometry geo =
      make_grad_weight_lines_geometry(p, sm_count, element_bytes(dtype), max_workspace_elems);
  return std::max<int64_t>(1, geo.blocks > 0 ? geo.block_chunks : 1) * weight_numel;
}

cudaError_t grouped_mma_grad_weight(const ConvTransposeParams& p, DType dtype, bool split_tf32, const void* input,
                                    const void* grad_output, void* grad_weight, float* workspace, int sm_count,
                                    int64_t max_workspace_elems, cudaStream_t stream) {
  if (!grad_weight_types_fit(p, dtype)) return cudaErrorInvalidValue;
  const int64_t sizes[5] = {p.in_channels, p.out_per_group(), p.kernel[0], p.kernel[1], p.kernel[2]};
  const int64_t weight_numel = sizes[0] * sizes[1] * sizes[2] * sizes[3] * sizes[4];
  if (nothing_to_reduce(p)) {  // batch 0 or an empty side: one split of zeros
    const cudaError_t err = cudaMemsetAsync(workspace, 0, size_t(weight_numel) * sizeof(float), stream);
    if (err != cudaSuccess) return err;
    return sum_splits(dtype, workspace, 1, sizes, p.weight_strides, grad_weight, stream);
  }
  GradWeightLinesGeometry geo = make_grad_weight_lines_geometry(p, sm_count, element_bytes(dtype), max_workspace_elems);
  if (geo.blocks == 0) return cudaErrorInvalidValue;  // the tap sums and a one-row tile do not fit
  if (geo.blocks > 0x7fffffff) return cudaErrorInvalidConfiguration;
  const cudaError_t err = TCONV_MMA_WIDTH_SWITCH(p.in_per_group(), KP, [&] {
    return TCONV_MMA_WIDTH_SWITCH(p.out_per_group(), NP, [&]() -> cudaError_t {
      switch (dtype) {
        case DType::kFloat32:
          return split_tf32
                     ? launch_grouped_mma_grad_weight_kernel<float, true, KP, NP>(p, geo, sm_count, input, grad_output,
                                                                                  workspace, stream)
                     : launch_grouped_mma_grad_weight_kernel<float, false, KP, NP>(p, geo, sm_count, input, grad_output,
                                                                                   workspace, stream);
        case DType::kFloat16:
          return launch_grouped_mma_grad_weight_kernel<__half, false, KP, NP>(p, geo, sm_count, input, grad_output,
                                                                              workspace, stream);
        case DType::kBFloat16:
          return launch_grouped_mma_grad_weight_kernel<__nv_bfloat16, false, KP, NP>(p, geo, sm_count, input,
                                                                                     grad_output, workspace, stream);
        default:
          return cudaErrorInvalidValue;
      }
    });
  });
  if (err != cudaSuccess) return err;
  return sum_splits(dtype, workspace, geo.block_chunks, sizes, p.weight_strides, grad_weight, stream);
}

bool grouped_mma_grad_weight_preferred(const ConvTransposeParams& p, DType dtype) {
  // Measured where the group's channels fill an 8 x 8 MMA block (L1-73, L1-72: 8 x 8; fam09: 8 x 16), as the lines
  // forward's rule. Run 270 (H100, grad_weight ms, the direct kernel / this one at 4 warps): TF32 L1-73 2.602 /
  // 1.906 (8 warps 1.375), L1-72 0.885 / 0.633 (0.484), fam09 1.332 / 0.774 (0.647); bf16 L1-73 4.324 / 2.214
  // (1.981), L1-72 1.270 / 0.679 (0.496), fam09 2.242 / 0.614 (0.675). 3xTF32 runs three MMAs per product: at 4
  // warps it won with two n8 tiles per A fragment (fam09 1.341 / 0.999) and lost at 8 x 8 (L1-73 2.600 / 2.701, L1-72
  // 0.877 / 0.975); at 8 warps it wins there too (run 271: L1-73 2.615 / 1.937, L1-72 0.881 / 0.730).
  if (!grouped_preferred(p) || p.in_per_group() * p.out_per_group() < 64) return false;
  return grouped_mma_grad_weight_supported(p, dtype);
}

cudaError_t grouped_mma_forward(const ConvTransposeParams& p, DType dtype, bool split_tf32, const void* input,
                                const void* weight, const void* bias, void* output, int sm_count, cudaStream_t stream) {
  if (p.batch * p.out_channels * p.out_spatial() == 0) return cudaSuccess;
  if (!grouped_mma_supported(p, dtype, GatherPass::kForward)) return cudaErrorInvalidValue;
  return launch_grouped_mma<true>(p, dtype, split_tf32, input, weight, bias, output, sm_count, stream);
}

cudaError_t grouped_mma_grad_input(const ConvTransposeParams& p, DType dtype, bool split_tf32, const void* grad_output,
                                   const void* weight, void* grad_input, int sm_count, cudaStream_t stream) {
  if (p.batch * p.in_channels * p.in_spatial() == 0) return cudaSuccess;
  if (!grouped_mma_supported(p, dtype, GatherPass::kGradInput)) return cudaErrorInvalidValue;
  return launch_grouped_mma<false>(p, dtype, split_tf32, grad_output, weight, nullptr, grad_input, sm_count, stream);
}

}  // namespace tconv
