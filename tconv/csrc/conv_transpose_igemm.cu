// Tensor-core implicit GEMM for the two "gather" passes of a transposed convolution, fp32 data:
//   forward    : out[n, co, r + s*j] = sum_{ci, tap valid for phase r} x[n, ci, j + c_tap] * w[ci, co, tap]
//                (phase decomposition: per output phase r the valid taps are fixed, c_tap = (r+p-k*d)/s,
//                 so no multiplication by a structural zero is ever issued)
//   grad_input : dx[n, ci, j] = sum_{co, tap} dy[n, co, s*j + k*d - p] * w[ci, co, tap]
// Both are   dst[n, nc, r + dst_step*j] = sum_{kc, tap} src[n, kc, src_step*j + c_tap] * B[tap][kc][nc],
// with GEMM M = positions j (NC(D)HW-native: consecutive M are consecutive W, so loads and stores
// coalesce without any layout transpose), N = nc channels of a group, K = kc channels x taps.
// TF32 mma.sync m16n8k8 with fp32 accumulation; with TF32 disallowed, 3xTF32 (a = big + small,
// big*big + big*small + small*big) gives fp32-level accuracy on the same tensor cores.
#include <algorithm>
#include <type_traits>
#include "conv_transpose.h"
#include "dispatch.h"
#include "igemm_config.h"

namespace tconv {
namespace {

constexpr int kMaxKernelPerDim = 32;  // per-dim kernel size limit of this path (tap lists in shared memory)
constexpr int kMaxGatherTaps = WideGatherTile::kMaxTaps;
static_assert(WideGatherTile::kBlockK == kGatherBlockK && NarrowGatherTile::kBlockK == kGatherBlockK, "one packing");

struct GatherArgs {
  const void* src;  // scalar_t (float, __half or __nv_bfloat16)
  void* dst;        // scalar_t
  const float* packed_weight;  // [groups][taps][k_channels][ldw]
  const void* bias;            // nullptr or scalar_t [groups * n_channels] with bias_stride
  int64_t bias_stride;
  int64_t src_stride[5];
  int64_t dst_stride[5];
  int src_size[3];
  int dst_size[3];
  int batch, groups, k_channels, n_channels, ldw, taps_total;
  int k_pad;  // rows per tap of the packed weights: k_channels rounded up to BK (zero rows)
  int kernel[3], stride[3], padding[3], dilation[3];
  int phases[3], src_step[3], dst_step[3];
  bool forward;
};

__device__ __forceinline__ void cp_async_4(float* smem, const float* gmem, bool valid) {
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(dst), "l"(gmem), "r"(valid ? 4 : 0));
}
__device__ __forceinline__ void cp_async_16(float* smem, const float* gmem, bool valid) {
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(gmem), "r"(valid ? 16 : 0));
}
// kCount 4-byte copies, one per channel row: rows src_step apart in global memory, dst_step apart in
// shared memory. kChecked: copy i happens only when i * row_unit < rows_left (a partial tile; the
// others zero-fill from `fallback`); unchecked tiles skip that test and the pointer select.
template <int kCount, bool kChecked>
__device__ __forceinline__ void cp_async_rows(float* dst, int dst_step, const float* src, int64_t src_step, bool valid,
                                              int rows_left, int row_unit, const float* fallback) {
#pragma unroll
  for (int i = 0; i < kCount; ++i) {
    const bool ok = valid && (!kChecked || i * row_unit < rows_left);
    cp_async_4(dst + i * dst_step, kChecked && !ok ? fallback : src, ok);
    src += src_step;
  }
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N> __device__ __forceinline__ void cp_async_wait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N)); }

__device__ __forceinline__ uint32_t to_tf32(float x) {
  uint32_t r;
  asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(x));
  return r;
}

__device__ __forceinline__ void mma_tf32(float (&c)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
  asm volatile(
      "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// Element (m, k) of an operand tile in shared memory: "k-major" tiles keep K contiguous
// ([M][K + pad]), the others M (or N) contiguous ([K][M + pad]).
template <bool kKContiguous>
__device__ __forceinline__ float tile_at(const float* tile, int ld, int mn, int k) {
  return kKContiguous ? tile[mn * ld + k] : tile[k * ld + mn];
}

// One warp's 32x32 tile over a BK-deep stage: 2 x 4 mma.sync m16n8k8 per k8 step.
// Exact mode (kSplitTf32): 3xTF32, and the stage's products are summed in fresh registers and then
// added to `acc` with ordinary fp32 adds, because the tensor cores' own accumulation truncates; over
// thousands of K steps that bias would exceed the exact-fp32 contract (seen: 3x over allclose(1e-4)
// on L1-68's grad_input before this split). TF32 mode accumulates in place: its input rounding
// (2^-11) dwarfs that bias. kARounded / kBRounded: the operand already holds TF32 values (the packed
// weights in TF32 mode; fp16/bf16 data widened to fp32, which TF32 represents exactly).
template <bool kSplitTf32, bool kARounded, bool kBRounded, bool kAKContiguous, bool kBKContiguous, int kDepth>
__device__ __forceinline__ void warp_tile_mma(float (&acc)[2][4][4], const float* As, int lda, const float* Bs,
                                              int ldb, int warp_row, int warp_col, int gid, int tig) {
  float part[2][4][4];
#pragma unroll
  for (int mt = 0; mt < 2; ++mt)
#pragma unroll
    for (int nt = 0; nt < 4; ++nt)
#pragma unroll
      for (int e = 0; e < 4; ++e) part[mt][nt][e] = kSplitTf32 ? 0.f : acc[mt][nt][e];
#pragma unroll
  for (int kk = 0; kk < kDepth; kk += 8) {
    uint32_t a_big[2][4], b_big[4][2], a_small[2][4], b_small[4][2];
#pragma unroll
    for (int mt = 0; mt < 2; ++mt) {
      const int row = warp_row + mt * 16 + gid;
      const float v[4] = {tile_at<kAKContiguous>(As, lda, row, kk + tig), tile_at<kAKContiguous>(As, lda, row + 8, kk + tig),
                          tile_at<kAKContiguous>(As, lda, row, kk + tig + 4), tile_at<kAKContiguous>(As, lda, row + 8, kk + tig + 4)};
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        a_big[mt][e] = kARounded ? __float_as_uint(v[e]) : to_tf32(v[e]);
        if (kSplitTf32) a_small[mt][e] = to_tf32(v[e] - __uint_as_float(a_big[mt][e]));
      }
    }
#pragma unroll
    for (int nt = 0; nt < 4; ++nt) {
      const int col = warp_col + nt * 8 + gid;
      const float v[2] = {tile_at<kBKContiguous>(Bs, ldb, col, kk + tig), tile_at<kBKContiguous>(Bs, ldb, col, kk + tig + 4)};
#pragma unroll
      for (int e = 0; e < 2; ++e) {
        b_big[nt][e] = kBRounded ? __float_as_uint(v[e]) : to_tf32(v[e]);
        if (kSplitTf32) b_small[nt][e] = to_tf32(v[e] - __uint_as_float(b_big[nt][e]));
      }
    }
#pragma unroll
    for (int mt = 0; mt < 2; ++mt)
#pragma unroll
      for (int nt = 0; nt < 4; ++nt) {
        if (kSplitTf32) {
          mma_tf32(part[mt][nt], a_small[mt], b_big[nt]);
          mma_tf32(part[mt][nt], a_big[mt], b_small[nt]);
        }
        mma_tf32(part[mt][nt], a_big[mt], b_big[nt]);
      }
  }
#pragma unroll
  for (int mt = 0; mt < 2; ++mt)
#pragma unroll
    for (int nt = 0; nt < 4; ++nt)
#pragma unroll
      for (int e = 0; e < 4; ++e) acc[mt][nt][e] = kSplitTf32 ? acc[mt][nt][e] + part[mt][nt][e] : part[mt][nt][e];
}

// The phase's tap table: per dim the valid kernel offsets (shift c into src coordinates and the
// kernel index k), then their product; built in a fixed order so results are deterministic.
__device__ __forceinline__ int build_tap_table(const GatherArgs& a, const int (&r)[3], int4* table,
                                               int (*lists)[kMaxKernelPerDim][2], int* counts) {
  if (threadIdx.x < 3) {
    const int dim = threadIdx.x;
    int count = 0;
    for (int k = 0; k < a.kernel[dim]; ++k) {
      int shift;
      if (a.forward) {
        const int t = r[dim] + a.padding[dim] - k * a.dilation[dim];
        if (t % a.stride[dim] != 0) continue;
        shift = t / a.stride[dim];
      } else {
        shift = k * a.dilation[dim] - a.padding[dim];
      }
      lists[dim][count][0] = shift;
      lists[dim][count][1] = k;
      ++count;
    }
    counts[dim] = count;
  }
  __syncthreads();
  const int taps = counts[0] * counts[1] * counts[2];
  for (int t = threadIdx.x; t < taps; t += blockDim.x) {
    const int iw = t % counts[2], ih = (t / counts[2]) % counts[1], id = t / (counts[2] * counts[1]);
    const int k = (lists[0][id][1] * a.kernel[1] + lists[1][ih][1]) * a.kernel[2] + lists[2][iw][1];
    table[t] = make_int4(lists[0][id][0], lists[1][ih][0], lists[2][iw][0], k);
  }
  __syncthreads();
  return taps;
}

// Dynamic shared memory: kStages pipeline stages [A: BK x kLdA | B: BK x kLdB], then the phase's
// tap table (int4 per tap).
template <class Tile>
int64_t gather_smem_bytes(int stages, int taps) {
  return int64_t(stages) * Tile::kStageFloats * int64_t(sizeof(float)) + int64_t(taps) * int64_t(sizeof(int4));
}

// The per-stage address work is what limited the first version (notes/perf.md: 401 instructions per
// 16 HMMA, most of them 64-bit address math redone for every copy). Here every thread keeps its
// output position, its row pointer and the (tap, channel chunk) it loads next in registers: a stage
// costs one position check and three multiplies, then one pointer add per 4-byte copy.
// scalar_t = float: A arrives by 4-byte cp.async and is rounded to TF32 in the fragment loads.
// scalar_t = __half / __nv_bfloat16: A is loaded, widened to fp32 (exactly representable in TF32, so
// the TF32 MMA multiplies it exactly, as a native fp16/bf16 MMA would) and stored to shared memory by
// the thread; outputs are rounded to scalar_t in the store. kSplitTf32 is for float only.
template <class Tile, typename scalar_t, bool kSplitTf32, int kStages>
__global__ void __launch_bounds__(Tile::kThreads, Tile::kBlocksPerSm)
tconv_igemm_gather_tf32_kernel(const GatherArgs a) {
  constexpr bool kFloatData = std::is_same<scalar_t, float>::value;
  static_assert(kFloatData || !kSplitTf32, "3xTF32 is for fp32 data; fp16/bf16 are exact in TF32");
  constexpr int BM = Tile::kBlockM, BN = Tile::kBlockN, BK = Tile::kBlockK;
  constexpr int kLdA = Tile::kLdA, kLdB = Tile::kLdB, kLdC = Tile::kLdC, kStageA = Tile::kStageA,
                kStageFloats = Tile::kStageFloats, kBRowsPerPass = Tile::kBRowsPerPass;
  constexpr int kRowStep = Tile::kThreadsPerRow;  // channel rows between one thread's A copies
  extern __shared__ __align__(16) float smem[];
  __shared__ int tap_lists[3][kMaxKernelPerDim][2];
  __shared__ int tap_counts[3];
  int4* tap_table = reinterpret_cast<int4*>(smem + kStages * kStageFloats);

  // Phases vary fastest across blocks: the blocks of all phases of one M tile run together, so the
  // partial 32-byte sectors each phase writes (every s-th output along W) meet in L2 before they are
  // written back, instead of one phase's whole output reaching DRAM before the next phase starts.
  const int phase_count = a.phases[0] * a.phases[1] * a.phases[2];
  const int g = blockIdx.z;
  int ph = int(blockIdx.x % unsigned(phase_count));
  const int64_t m_tile = blockIdx.x / unsigned(phase_count);
  int r[3];
  r[2] = ph % a.phases[2]; ph /= a.phases[2];
  r[1] = ph % a.phases[1];
  r[0] = ph / a.phases[1];
  int extent[3];
#pragma unroll
  for (int i = 0; i < 3; ++i) extent[i] = (a.dst_size[i] - r[i] + a.dst_step[i] - 1) / a.dst_step[i];
  const int64_t spatial = int64_t(extent[0]) * extent[1] * extent[2];
  const int64_t M = spatial * a.batch;
  const int64_t m0 = m_tile * BM;
  if (m0 >= M || spatial == 0) return;  // uniform per block
  const int n0 = blockIdx.y * BN;

  const int taps = build_tap_table(a, r, tap_table, tap_lists, tap_counts);

  // This thread's GEMM row (output position) for A loads and for the epilogue.
  const int tid = threadIdx.x;
  const int m_local = tid % BM;
  const int row_base = tid / BM;  // this thread copies channel rows row_base + i * kRowStep
  const int64_t m = m0 + m_local;
  const bool m_valid = m < M;
  int j[3] = {0, 0, 0};
  int64_t n_img = 0;
  if (m_valid) {
    int64_t rest = m;
    j[2] = int(rest % extent[2]); rest /= extent[2];
    j[1] = int(rest % extent[1]); rest /= extent[1];
    j[0] = int(rest % extent[0]);
    n_img = rest / extent[0];
  }
  // Source coordinates before the tap shift; invalid rows get coordinates that fail every check.
  const int src_d = m_valid ? j[0] * a.src_step[0] : -(1 << 30);
  const int src_h = j[1] * a.src_step[1], src_w = j[2] * a.src_step[2];
  const int size_d = a.src_size[0], size_h = a.src_size[1], size_w = a.src_size[2];
  const int64_t stride_c = a.src_stride[1], stride_d = a.src_stride[2], stride_h = a.src_stride[3],
                stride_w = a.src_stride[4];
  const scalar_t* src_base = static_cast<const scalar_t*>(a.src);
  const scalar_t* thread_src =
      src_base + n_img * a.src_stride[0] + (int64_t(g) * a.k_channels + row_base) * stride_c;

  // B: 16-byte copies of the packed weights (rows padded to k_pad with zeros, so no row checks).
  const int b_row = tid / (BN / 4);
  const int b_col = (tid % (BN / 4)) * 4;
  const bool b_col_valid = n0 + b_col < a.ldw;
  const float* thread_b = b_col_valid ? a.packed_weight + int64_t(g) * a.taps_total * a.k_pad * a.ldw +
                                            int64_t(b_row) * a.ldw + n0 + b_col
                                      : a.packed_weight;
  const int64_t b_tap_step = b_col_valid ? int64_t(a.k_pad) * a.ldw : 0;
  const int64_t b_chunk_step = b_col_valid ? int64_t(BK) * a.ldw : 0;
  const int64_t b_pass_step = b_col_valid ? int64_t(kBRowsPerPass) * a.ldw : 0;

  const int chunks_per_tap = (a.k_channels + BK - 1) / BK;
  const int iterations = taps * chunks_per_tap;
  int load_tap = 0, load_chunk = 0;  // what the next load_stage fetches

  auto load_stage = [&](int stage) {
    const int4 info = tap_table[load_tap];
    const int c0 = load_chunk * BK;
    const int pd = src_d + info.x, phh = src_h + info.y, pw = src_w + info.z;
    const bool pos_valid = unsigned(pd) < unsigned(size_d) && unsigned(phh) < unsigned(size_h) &&
                           unsigned(pw) < unsigned(size_w);
    // An invalid position copies nothing (zero fill) from a harmless address that never moves.
    const scalar_t* src = pos_valid ? thread_src + pd * stride_d + phh * stride_h + pw * stride_w + c0 * stride_c
                                    : src_base;
    const int64_t step = pos_valid ? kRowStep * stride_c : 0;
    float* As = smem + stage * kStageFloats + row_base * kLdA + m_local;
    const bool full_chunk = c0 + BK <= a.k_channels;
    const int rows_left = a.k_channels - c0 - row_base;
    if constexpr (kFloatData) {
      if (full_chunk)
        cp_async_rows<BK / kRowStep, false>(As, kRowStep * kLdA, src, step, pos_valid, rows_left, kRowStep, src_base);
      else
        cp_async_rows<BK / kRowStep, true>(As, kRowStep * kLdA, src, step, pos_valid, rows_left, kRowStep, src_base);
    } else {
#pragma unroll
      for (int i = 0; i < BK / kRowStep; ++i) {
        const bool valid = pos_valid && (full_chunk || kRowStep * i < rows_left);
        As[kRowStep * i * kLdA] = valid ? to_acc(src[0]) : 0.f;
        src += step;
      }
    }
    float* Bs = smem + stage * kStageFloats + kStageA + b_row * kLdB + b_col;
    const float* b_src = thread_b + info.w * b_tap_step + load_chunk * b_chunk_step;
#pragma unroll
    for (int i = 0; i < BK / kBRowsPerPass; ++i) cp_async_16(Bs + i * kBRowsPerPass * kLdB, b_src + i * b_pass_step, b_col_valid);
    if (++load_chunk == chunks_per_tap) {
      load_chunk = 0;
      ++load_tap;
    }
  };

  const int warp = tid / 32, lane = tid % 32;
  const int warp_m = warp % Tile::kWarpsM, warp_n = warp / Tile::kWarpsM;
  const int gid = lane / 4, tig = lane % 4;
  float acc[2][4][4];
#pragma unroll
  for (int mt = 0; mt < 2; ++mt)
#pragma unroll
    for (int nt = 0; nt < 4; ++nt)
#pragma unroll
      for (int e = 0; e < 4; ++e) acc[mt][nt][e] = 0.f;

#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < iterations) load_stage(s);
    cp_async_commit();
  }
  int read_stage = 0, write_stage = kStages - 1;
  for (int it = 0; it < iterations; ++it) {
    cp_async_wait<kStages - 2>();
    __syncthreads();
    if (it + kStages - 1 < iterations) load_stage(write_stage);
    cp_async_commit();
    const float* As = smem + read_stage * kStageFloats;
    // B holds TF32-rounded weights in TF32 mode (packed that way), raw fp32 in exact mode.
    warp_tile_mma<kSplitTf32, !kFloatData, !kSplitTf32, false, false, BK>(acc, As, kLdA, As + kStageA, kLdB,
                                                                         warp_m * 32, warp_n * 32, gid, tig);
    read_stage = read_stage + 1 == kStages ? 0 : read_stage + 1;
    write_stage = write_stage + 1 == kStages ? 0 : write_stage + 1;
  }
  cp_async_wait<0>();
  __syncthreads();

  // Epilogue: stage the tile as [N][M] so each thread then writes its own output position for a
  // run of channels: stores are coalesced along W for every channel.
  float* Cs = smem;
#pragma unroll
  for (int mt = 0; mt < 2; ++mt)
#pragma unroll
    for (int nt = 0; nt < 4; ++nt) {
      const int row = warp_m * 32 + mt * 16 + gid;
      const int col = warp_n * 32 + nt * 8 + 2 * tig;
      Cs[col * kLdC + row] = acc[mt][nt][0];
      Cs[(col + 1) * kLdC + row] = acc[mt][nt][1];
      Cs[col * kLdC + row + 8] = acc[mt][nt][2];
      Cs[(col + 1) * kLdC + row + 8] = acc[mt][nt][3];
    }
  __syncthreads();
  if (!m_valid) return;
  scalar_t* dst_pos = static_cast<scalar_t*>(a.dst) + n_img * a.dst_stride[0] + int64_t(r[0] + j[0] * a.dst_step[0]) * a.dst_stride[2] +
                   int64_t(r[1] + j[1] * a.dst_step[1]) * a.dst_stride[3] +
                   int64_t(r[2] + j[2] * a.dst_step[2]) * a.dst_stride[4];
#pragma unroll 4
  for (int col = row_base; col < BN; col += kRowStep) {
    const int channel = n0 + col;
    if (channel >= a.n_channels) break;
    const int64_t c_abs = int64_t(g) * a.n_channels + channel;
    float v = Cs[col * kLdC + m_local];
    if (a.bias != nullptr) v += to_acc(static_cast<const scalar_t*>(a.bias)[c_abs * a.bias_stride]);
    dst_pos[c_abs * a.dst_stride[1]] = from_acc<scalar_t>(v);
  }
}

struct WeightGradArgs {
  const float* x;
  const float* dy;
  float* partial;  // [splits][C_in][C_out/groups][taps]
  int64_t x_stride[5];
  int64_t dy_stride[5];
  int in_size[3], out_size[3];
  int groups, cin_g, cout_g, taps;
  int kernel[3], stride[3], padding[3], dilation[3];
  int64_t positions;  // batch x input positions
  int64_t chunk;      // positions per split, a multiple of BK
  int64_t weight_numel;
};

template <bool kSplitTf32, int kWarpsM>
__global__ void __launch_bounds__(WeightGemmTile<kWarpsM>::kThreads)
tconv_igemm_grad_weight_tf32_kernel(const WeightGradArgs a) {
  using T = WeightGemmTile<kWarpsM>;
  constexpr int BM = T::kBlockM, BN = T::kBlockN, BK = T::kBlockK, S = T::kStages, LD = T::kLd;
  constexpr int kStage = (BM + BN) * LD;
  constexpr int kRowsPerPass = T::kThreads / BK;
  __shared__ __align__(16) float smem[S * kStage];

  const int ci_tiles = (a.cin_g + BM - 1) / BM, co_tiles = (a.cout_g + BN - 1) / BN;
  int tile = blockIdx.x;
  const int tap = tile % a.taps; tile /= a.taps;
  const int g = tile % a.groups; tile /= a.groups;
  const int co_tile = tile % co_tiles;
  const int ci_tile = tile / co_tiles;
  (void)ci_tiles;
  const int kd = tap / (a.kernel[1] * a.kernel[2]), kh = (tap / a.kernel[2]) % a.kernel[1], kw = tap % a.kernel[2];
  const int ci0 = ci_tile * BM, co0 = co_tile * BN;
  const int64_t k_begin = int64_t(blockIdx.y) * a.chunk;
  const int64_t k_end = k_begin + a.chunk < a.positions ? k_begin + a.chunk : a.positions;
  const int iterations = int((k_end - k_begin + BK - 1) / BK);
  const int64_t spatial = int64_t(a.in_size[0]) * a.in_size[1] * a.in_size[2];

  const int tid = threadIdx.x;
  const int kcol = tid % BK;
  const int row_base = tid / BK;
  // This thread's K position (batch x input position), advanced by BK per stage with carries instead
  // of a division per stage; the channel rows it copies are row_base + i * kRowsPerPass.
  int iw = 0, ih = 0, id = 0;
  int64_t n = 0;
  {
    const int64_t pos = k_begin + kcol;
    n = pos / spatial;
    int rest = int(pos - n * spatial);
    iw = rest % a.in_size[2]; rest /= a.in_size[2];
    ih = rest % a.in_size[1];
    id = rest / a.in_size[1];
  }
  int64_t pos = k_begin + kcol;
  const float* x_thread = a.x + (int64_t(g) * a.cin_g + ci0 + row_base) * a.x_stride[1];
  const float* dy_thread = a.dy + (int64_t(g) * a.cout_g + co0 + row_base) * a.dy_stride[1];
  const int64_t x_pass = kRowsPerPass * a.x_stride[1], dy_pass = kRowsPerPass * a.dy_stride[1];
  const int x_rows = a.cin_g - ci0 - row_base, dy_rows = a.cout_g - co0 - row_base;  // rows this thread may copy
  const bool x_full = a.cin_g - ci0 >= BM, dy_full = a.cout_g - co0 >= BN;
  // Output coordinates of input position 0 through this tap.
  const int od0 = kd * a.dilation[0] - a.padding[0], oh0 = kh * a.dilation[1] - a.padding[1],
            ow0 = kw * a.dilation[2] - a.padding[2];

  auto load_stage = [&](int stage) {
    const bool valid = pos < k_end;
    const int od = id * a.stride[0] + od0, oh = ih * a.stride[1] + oh0, ow = iw * a.stride[2] + ow0;
    const bool dy_valid = valid && unsigned(od) < unsigned(a.out_size[0]) && unsigned(oh) < unsigned(a.out_size[1]) &&
                          unsigned(ow) < unsigned(a.out_size[2]);
    const float* x_src = valid ? x_thread + n * a.x_stride[0] + id * a.x_stride[2] + ih * a.x_stride[3] +
                                     iw * a.x_stride[4]
                               : a.x;
    const float* dy_src = dy_valid ? dy_thread + n * a.dy_stride[0] + od * a.dy_stride[2] + oh * a.dy_stride[3] +
                                         ow * a.dy_stride[4]
                                   : a.dy;
    const int64_t x_step = valid ? x_pass : 0, dy_step = dy_valid ? dy_pass : 0;
    float* As = smem + stage * kStage + row_base * LD + kcol;
    float* Bs = As + BM * LD;
    constexpr int kRowsA = BM / kRowsPerPass, kRowsB = BN / kRowsPerPass;
    if (x_full && dy_full) {  // every channel row exists: the pointers above are safe as they are
      cp_async_rows<kRowsA, false>(As, kRowsPerPass * LD, x_src, x_step, valid, x_rows, kRowsPerPass, a.x);
      cp_async_rows<kRowsB, false>(Bs, kRowsPerPass * LD, dy_src, dy_step, dy_valid, dy_rows, kRowsPerPass, a.dy);
    } else {
      cp_async_rows<kRowsA, true>(As, kRowsPerPass * LD, x_src, x_step, valid, x_rows, kRowsPerPass, a.x);
      cp_async_rows<kRowsB, true>(Bs, kRowsPerPass * LD, dy_src, dy_step, dy_valid, dy_rows, kRowsPerPass, a.dy);
    }
    pos += BK;
    iw += BK;
    while (iw >= a.in_size[2]) {
      iw -= a.in_size[2];
      if (++ih == a.in_size[1]) {
        ih = 0;
        if (++id == a.in_size[0]) {
          id = 0;
          ++n;
        }
      }
    }
  };

  const int warp = tid / 32, lane = tid % 32;
  const int warp_m = warp % kWarpsM, warp_n = warp / kWarpsM;
  const int gid = lane / 4, tig = lane % 4;
  float acc[2][4][4];
#pragma unroll
  for (int mt = 0; mt < 2; ++mt)
#pragma unroll
    for (int nt = 0; nt < 4; ++nt)
#pragma unroll
      for (int e = 0; e < 4; ++e) acc[mt][nt][e] = 0.f;

#pragma unroll
  for (int st = 0; st < S - 1; ++st) {
    if (st < iterations) load_stage(st);
    cp_async_commit();
  }
  for (int it = 0; it < iterations; ++it) {
    cp_async_wait<S - 2>();
    __syncthreads();
    if (it + S - 1 < iterations) load_stage((it + S - 1) % S);
    cp_async_commit();
    const float* As = smem + (it % S) * kStage;
    warp_tile_mma<kSplitTf32, false, false, true, true, BK>(acc, As, LD, As + BM * LD, LD, warp_m * 32, warp_n * 32, gid, tig);
  }
  cp_async_wait<0>();

  float* out = a.partial + int64_t(blockIdx.y) * a.weight_numel;
#pragma unroll
  for (int mt = 0; mt < 2; ++mt)
#pragma unroll
    for (int nt = 0; nt < 4; ++nt)
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const int ci = ci0 + warp_m * 32 + mt * 16 + gid + (e >= 2 ? 8 : 0);
        const int co = co0 + warp_n * 32 + nt * 8 + 2 * tig + (e & 1);
        if (ci < a.cin_g && co < a.cout_g)
          out[((int64_t(g) * a.cin_g + ci) * a.cout_g + co) * a.taps + tap] = acc[mt][nt][e];
      }
}

// B operand layout: packed[g][tap][kc][nc] (nc contiguous, padded to ldw; kc padded to k_pad; the
// padding is zeros). TF32 mode stores the weights already rounded to TF32 (round to nearest, ties
// away, like cvt.rna), so the GEMM's inner loop converts only A.
template <typename scalar_t>
__global__ void tconv_igemm_pack_weight_kernel(const scalar_t* __restrict__ w, int64_t ws0, int64_t ws1, int64_t ws2,
                                               int64_t ws3, int64_t ws4, int kh, int kw, int groups, int taps,
                                               int k_channels, int k_pad, int n_channels, int ldw, bool forward,
                                               bool round_tf32, float* __restrict__ packed) {
  const int64_t total = int64_t(groups) * taps * k_pad * ldw;
  for (int64_t idx = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; idx < total;
       idx += int64_t(gridDim.x) * blockDim.x) {
    int64_t rest = idx;
    const int nc = int(rest % ldw); rest /= ldw;
    const int kc = int(rest % k_pad); rest /= k_pad;
    const int tap = int(rest % taps);
    const int g = int(rest / taps);
    float v = 0.f;
    if (nc < n_channels && kc < k_channels) {
      // forward: kc = input channel, nc = output channel; grad_input: the other way round.
      const int64_t ci = int64_t(g) * (forward ? k_channels : n_channels) + (forward ? kc : nc);
      const int64_t co = forward ? nc : kc;
      const int td = tap / (kh * kw), th = (tap / kw) % kh, tw = tap % kw;
      v = to_acc(w[ci * ws0 + co * ws1 + td * ws2 + th * ws3 + tw * ws4]);
      if (round_tf32) v = __uint_as_float(to_tf32(v));
    }
    packed[idx] = v;
  }
}

GatherArgs make_args(const ConvTransposeParams& p, GatherPass pass, const void* src, const float* weight_packed,
                     const void* bias, void* dst) {
  GatherArgs a{};
  const bool fwd = pass == GatherPass::kForward;
  a.src = src;
  a.dst = dst;
  a.packed_weight = weight_packed;
  a.bias = fwd ? bias : nullptr;
  a.bias_stride = p.bias_stride;
  for (int i = 0; i < 5; ++i) {
    a.src_stride[i] = fwd ? p.input_strides[i] : p.output_strides[i];
    a.dst_stride[i] = fwd ? p.output_strides[i] : p.input_strides[i];
  }
  a.batch = int(p.batch);
  a.groups = int(p.groups);
  a.k_channels = int(fwd ? p.in_per_group() : p.out_per_group());
  a.n_channels = int(fwd ? p.out_per_group() : p.in_per_group());
  a.ldw = (a.n_channels + 3) / 4 * 4;
  a.k_pad = (a.k_channels + kGatherBlockK - 1) / kGatherBlockK * kGatherBlockK;
  a.taps_total = int(p.kernel_volume());
  a.forward = fwd;
  for (int i = 0; i < 3; ++i) {
    a.src_size[i] = int(fwd ? p.in_size[i] : p.out_size[i]);
    a.dst_size[i] = int(fwd ? p.out_size[i] : p.in_size[i]);
    a.kernel[i] = int(p.kernel[i]);
    a.stride[i] = int(p.stride[i]);
    a.padding[i] = int(p.padding[i]);
    a.dilation[i] = int(p.dilation[i]);
    a.phases[i] = fwd ? int(p.stride[i]) : 1;
    a.src_step[i] = fwd ? 1 : int(p.stride[i]);
    a.dst_step[i] = fwd ? int(p.stride[i]) : 1;
  }
  return a;
}

// Most taps any phase of this pass has (sizes the tap table in shared memory).
int max_phase_taps(const GatherArgs& a) {
  int taps = 1;
  for (int dim = 0; dim < 3; ++dim) {
    int most = 0;
    for (int r = 0; r < a.phases[dim]; ++r) {
      int count = 0;
      for (int k = 0; k < a.kernel[dim]; ++k)
        count += !a.forward || (r + a.padding[dim] - k * a.dilation[dim]) % a.stride[dim] == 0;
      most = std::max(most, count);
    }
    taps *= most;
  }
  return taps;
}

// The deepest pipeline (kMaxStages down to kMinStages) with which Tile::kBlocksPerSm blocks fit in
// one SM's shared memory on this device.
template <class Tile>
int gather_stages(int device, int taps) {
  int per_sm = 0, per_block = 0;
  cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device);
  cudaDeviceGetAttribute(&per_block, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
  constexpr int64_t kReservedPerBlock = 1024;  // the driver's per-block reservation on sm_80/sm_90
  constexpr int64_t kStatic = sizeof(int) * (3 * kMaxKernelPerDim * 2 + 3);
  for (int stages = Tile::kMaxStages; stages > Tile::kMinStages; --stages) {
    const int64_t block = gather_smem_bytes<Tile>(stages, taps) + kStatic;
    if (block <= per_block && Tile::kBlocksPerSm * (block + kReservedPerBlock) <= per_sm) return stages;
  }
  return Tile::kMinStages;
}

template <class Tile, typename scalar_t, bool kSplitTf32, int kStages>
cudaError_t launch_gather(const GatherArgs& a, int64_t m_tiles, int taps, cudaStream_t stream) {
  const dim3 grid(unsigned(m_tiles * a.phases[0] * a.phases[1] * a.phases[2]),
                  unsigned((a.n_channels + Tile::kBlockN - 1) / Tile::kBlockN), unsigned(a.groups));
  const int64_t smem = gather_smem_bytes<Tile>(kStages, taps);
  auto kernel = tconv_igemm_gather_tf32_kernel<Tile, scalar_t, kSplitTf32, kStages>;
  cudaError_t err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem));
  if (err != cudaSuccess) return err;
  kernel<<<grid, Tile::kThreads, size_t(smem), stream>>>(a);
  return cudaGetLastError();
}

template <class Tile, typename scalar_t>
cudaError_t launch_gather_tile(const GatherArgs& a, bool split_tf32, int64_t m_tiles, int taps, int device,
                               cudaStream_t stream) {
  const bool deep = gather_stages<Tile>(device, taps) == Tile::kMaxStages;
  constexpr int kDeep = Tile::kMaxStages, kShallow = Tile::kMinStages;
  if constexpr (std::is_same<scalar_t, float>::value) {
    if (split_tf32)
      return deep ? launch_gather<Tile, scalar_t, true, kDeep>(a, m_tiles, taps, stream)
                  : launch_gather<Tile, scalar_t, true, kShallow>(a, m_tiles, taps, stream);
  }
  return deep ? launch_gather<Tile, scalar_t, false, kDeep>(a, m_tiles, taps, stream)
              : launch_gather<Tile, scalar_t, false, kShallow>(a, m_tiles, taps, stream);
}

}  // namespace

bool igemm_supported(const ConvTransposeParams& p, GatherPass pass) {
  // Sizes are held in 32-bit ints inside the kernel; offsets stay 64-bit.
  const int64_t big = int64_t(1) << 30;
  for (int i = 0; i < 3; ++i)
    if (p.kernel[i] > kMaxKernelPerDim || p.in_size[i] >= big || p.out_size[i] >= big || p.stride[i] >= big ||
        p.padding[i] >= big || p.dilation[i] * p.kernel[i] >= big)
      return false;
  const int64_t phases = pass == GatherPass::kForward ? p.stride[0] * p.stride[1] * p.stride[2] : 1;
  if (p.groups * phases > 65535 || p.batch * p.in_spatial() >= (int64_t(1) << 40)) return false;
  // grad_input uses every tap; the forward's phases only theirs.
  return max_phase_taps(make_args(p, pass, nullptr, nullptr, nullptr, nullptr)) <= kMaxGatherTaps;
}

int64_t igemm_packed_weight_elems(const ConvTransposeParams& p, GatherPass pass) {
  const int64_t k_channels = pass == GatherPass::kForward ? p.in_per_group() : p.out_per_group();
  const int64_t n_channels = pass == GatherPass::kForward ? p.out_per_group() : p.in_per_group();
  const int64_t k_pad = (k_channels + kGatherBlockK - 1) / kGatherBlockK * kGatherBlockK;
  return p.groups * p.kernel_volume() * k_pad * ((n_channels + 3) / 4 * 4);
}

bool igemm_dtype_supported(DType dtype) { return dtype != DType::kFloat64; }

cudaError_t igemm_gather(const ConvTransposeParams& p, GatherPass pass, DType dtype, bool split_tf32, const void* src,
                         const void* weight, const void* bias, void* dst, float* packed_weight, cudaStream_t stream) {
  if (!igemm_dtype_supported(dtype)) return cudaErrorInvalidValue;
  GatherArgs a = make_args(p, pass, src, packed_weight, bias, dst);
  const int64_t packed = igemm_packed_weight_elems(p, pass);
  if (packed > 0) {
    const unsigned int grid = unsigned(std::min<int64_t>((packed + 255) / 256, 4096));
    const cudaError_t err = TCONV_DTYPE_SWITCH(dtype, scalar_t, [&] {
      tconv_igemm_pack_weight_kernel<scalar_t><<<grid, 256, 0, stream>>>(
          static_cast<const scalar_t*>(weight), p.weight_strides[0], p.weight_strides[1], p.weight_strides[2],
          p.weight_strides[3], p.weight_strides[4], a.kernel[1], a.kernel[2], a.groups, a.taps_total, a.k_channels,
          a.k_pad, a.n_channels, a.ldw, a.forward, !split_tf32, packed_weight);
      return cudaGetLastError();
    });
    if (err != cudaSuccess) return err;
  }
  int64_t max_spatial = 1;
  for (int i = 0; i < 3; ++i) max_spatial *= (a.dst_size[i] + a.dst_step[i] - 1) / a.dst_step[i];
  static_assert(WideGatherTile::kBlockM == NarrowGatherTile::kBlockM, "one M tiling");
  const int64_t m_tiles = (max_spatial * a.batch + WideGatherTile::kBlockM - 1) / WideGatherTile::kBlockM;
  if (m_tiles == 0) return cudaSuccess;
  if (m_tiles * a.phases[0] * a.phases[1] * a.phases[2] > 0x7fffffff) return cudaErrorInvalidConfiguration;
  const int taps = max_phase_taps(a);
  int device = 0;
  const cudaError_t err = cudaGetDevice(&device);
  if (err != cudaSuccess) return err;
  const bool narrow = a.n_channels <= NarrowGatherTile::kBlockN;
  switch (dtype) {
    case DType::kFloat32:
      return narrow ? launch_gather_tile<NarrowGatherTile, float>(a, split_tf32, m_tiles, taps, device, stream)
                    : launch_gather_tile<WideGatherTile, float>(a, split_tf32, m_tiles, taps, device, stream);
    case DType::kFloat16:
      return narrow ? launch_gather_tile<NarrowGatherTile, __half>(a, false, m_tiles, taps, device, stream)
                    : launch_gather_tile<WideGatherTile, __half>(a, false, m_tiles, taps, device, stream);
    case DType::kBFloat16:
      return narrow ? launch_gather_tile<NarrowGatherTile, __nv_bfloat16>(a, false, m_tiles, taps, device, stream)
                    : launch_gather_tile<WideGatherTile, __nv_bfloat16>(a, false, m_tiles, taps, device, stream);
    default:
      return cudaErrorInvalidValue;
  }
}

namespace {
struct WeightGradPlan {
  int warps_m;
  int64_t tiles;
  int64_t chunk;
  int64_t splits;
};

WeightGradPlan plan_grad_weight(const ConvTransposeParams& p, int sm_count, int64_t max_workspace_elems) {
  WeightGradPlan plan{};
  plan.warps_m = p.in_per_group() <= 32 ? 1 : 2;
  const int64_t bm = 32 * plan.warps_m, bn = 64, bk = 16;
  plan.tiles = p.kernel_volume() * p.groups * ((p.in_per_group() + bm - 1) / bm) * ((p.out_per_group() + bn - 1) / bn);
  const int64_t positions = p.batch * p.in_spatial();
  const int64_t weight_numel = p.in_channels * p.out_per_group() * p.kernel_volume();
  const int64_t target_blocks = int64_t(std::max(sm_count, 1)) * WeightGemmTile<1>::kBlocksPerSmTarget;
  int64_t splits = std::max<int64_t>(1, (target_blocks + plan.tiles - 1) / std::max<int64_t>(plan.tiles, 1));
  splits = std::min(splits, std::max<int64_t>(1, positions / (bk * 16)));  // >= 16 stages per split
  splits = std::min(splits, std::max<int64_t>(1, max_workspace_elems / std::max<int64_t>(weight_numel, 1)));
  splits = std::min<int64_t>(splits, 65535);
  int64_t chunk = (positions + splits - 1) / splits;
  chunk = (chunk + bk - 1) / bk * bk;
  plan.chunk = std::max<int64_t>(chunk, bk);
  plan.splits = std::max<int64_t>(1, (positions + plan.chunk - 1) / plan.chunk);
  return plan;
}
}  // namespace

bool igemm_grad_weight_supported(const ConvTransposeParams& p) {
  const int64_t big = int64_t(1) << 30;
  for (int i = 0; i < 3; ++i)
    if (p.in_size[i] >= big || p.out_size[i] >= big) return false;
  const int64_t tiles = p.kernel_volume() * p.groups * ((p.in_per_group() + 31) / 32) * ((p.out_per_group() + 63) / 64);
  return p.in_spatial() < big && tiles < (int64_t(1) << 31);
}

bool igemm_grad_weight_preferred(const ConvTransposeParams& p) {
  return p.in_per_group() * p.out_per_group() >= kGradWeightIgemmMinChannelProduct;
}

int64_t igemm_grad_weight_splits(const ConvTransposeParams& p, int sm_count, int64_t max_workspace_elems) {
  return plan_grad_weight(p, sm_count, max_workspace_elems).splits;
}

cudaError_t igemm_grad_weight_fp32(const ConvTransposeParams& p, bool split_tf32, const float* input,
                                   const float* grad_output, float* grad_weight, float* workspace, int sm_count,
                                   int64_t max_workspace_elems, cudaStream_t stream) {
  const WeightGradPlan plan = plan_grad_weight(p, sm_count, max_workspace_elems);
  const int64_t sizes[5] = {p.in_channels, p.out_per_group(), p.kernel[0], p.kernel[1], p.kernel[2]};
  const int64_t positions = p.batch * p.in_spatial();
  if (positions == 0) {
    const cudaError_t err = cudaMemsetAsync(workspace, 0, sizeof(float) * sizes[0] * sizes[1] * p.kernel_volume(), stream);
    if (err != cudaSuccess) return err;
    return sum_splits(DType::kFloat32, workspace, 1, sizes, p.weight_strides, grad_weight, stream);
  }
  WeightGradArgs a{};
  a.x = input;
  a.dy = grad_output;
  a.partial = workspace;
  for (int i = 0; i < 5; ++i) {
    a.x_stride[i] = p.input_strides[i];
    a.dy_stride[i] = p.output_strides[i];
  }
  for (int i = 0; i < 3; ++i) {
    a.in_size[i] = int(p.in_size[i]);
    a.out_size[i] = int(p.out_size[i]);
    a.kernel[i] = int(p.kernel[i]);
    a.stride[i] = int(p.stride[i]);
    a.padding[i] = int(p.padding[i]);
    a.dilation[i] = int(p.dilation[i]);
  }
  a.groups = int(p.groups);
  a.cin_g = int(p.in_per_group());
  a.cout_g = int(p.out_per_group());
  a.taps = int(p.kernel_volume());
  a.positions = positions;
  a.chunk = plan.chunk;
  a.weight_numel = sizes[0] * sizes[1] * p.kernel_volume();
  const dim3 grid(unsigned(plan.tiles), unsigned(plan.splits));
  if (plan.warps_m == 1) {
    if (split_tf32) tconv_igemm_grad_weight_tf32_kernel<true, 1><<<grid, WeightGemmTile<1>::kThreads, 0, stream>>>(a);
    else tconv_igemm_grad_weight_tf32_kernel<false, 1><<<grid, WeightGemmTile<1>::kThreads, 0, stream>>>(a);
  } else {
    if (split_tf32) tconv_igemm_grad_weight_tf32_kernel<true, 2><<<grid, WeightGemmTile<2>::kThreads, 0, stream>>>(a);
    else tconv_igemm_grad_weight_tf32_kernel<false, 2><<<grid, WeightGemmTile<2>::kThreads, 0, stream>>>(a);
  }
  const cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) return err;
  return sum_splits(DType::kFloat32, workspace, plan.splits, sizes, p.weight_strides, grad_weight, stream);
}

}  // namespace tconv
