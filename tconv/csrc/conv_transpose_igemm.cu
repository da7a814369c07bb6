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
//
// The host entry points compile in eleven translation units, so that nvcc builds their kernels in parallel: as one
// unit the file took 170 s for sm_90a on one core (session 33), while the device builds took 254-273 s in all. The
// file alone is the gathers' part; conv_transpose_igemm_strip.cu, conv_transpose_igemm_unit_stride.cu,
// conv_transpose_igemm_grad_weight.cu and conv_transpose_igemm_tma.cu include it for the strip forms, the unit-stride
// forward's instantiations, grad_weight and the TMA gather. The kernels above the parts are templates, so each part
// instantiates only its own. The unit-stride part split from the strip part in session 82: locally (sm_90a only, beside
// another build) the strip part took 310 s and grad_weight 291 against the gathers' 174, and session 82's device
// builds took 283-348 s of each 600-second call. Since session 90 the gathers', unit-stride and grad_weight parts
// also compile once per data type (TCONV_IGEMM_TYPES below: *_fp16.cu and *_bf16.cu beside each part's fp32 unit).
#define TCONV_IGEMM_PART_GATHER 1
#define TCONV_IGEMM_PART_STRIP 2
#define TCONV_IGEMM_PART_GRAD_WEIGHT 3
#define TCONV_IGEMM_PART_TMA 4
#define TCONV_IGEMM_PART_UNIT_STRIDE 5
#ifndef TCONV_IGEMM_PART
#define TCONV_IGEMM_PART TCONV_IGEMM_PART_GATHER
#endif
// The data type whose kernels a translation unit of the gathers', unit-stride and grad_weight parts instantiates: the
// fp32 unit (the file alone, conv_transpose_igemm_unit_stride.cu, conv_transpose_igemm_grad_weight.cu) holds the
// part's entry points and hands 16-bit calls to the fp16 and bf16 units (conv_transpose_igemm*_fp16.cu, *_bf16.cu),
// whose entry points carry the type's suffix (TCONV_IGEMM_TYPED, TCONV_IGEMM_ROUTE_16BIT). Why: run 486's cold build
// took 266 s on the device's 16 cores, its critical path these three units (grad_weight 255 s, unit-stride 217 s,
// gathers 216 s: ninja's log), while the session's four cold builds spent 810 s of its 1800 s of device time.
#define TCONV_IGEMM_TYPES_FLOAT 1
#define TCONV_IGEMM_TYPES_HALF 2
#define TCONV_IGEMM_TYPES_BFLOAT16 3
#ifndef TCONV_IGEMM_TYPES
#define TCONV_IGEMM_TYPES TCONV_IGEMM_TYPES_FLOAT
#endif
#if TCONV_IGEMM_TYPES == TCONV_IGEMM_TYPES_HALF
#define TCONV_IGEMM_TYPED(name) name##_fp16
#elif TCONV_IGEMM_TYPES == TCONV_IGEMM_TYPES_BFLOAT16
#define TCONV_IGEMM_TYPED(name) name##_bf16
#else
#define TCONV_IGEMM_TYPED(name) name
#endif
// The fp32 unit's entry point NAME hands 16-bit calls to its fp16 and bf16 units' NAME_fp16 / NAME_bf16 (declared
// with TCONV_IGEMM_DECLARE_16BIT); the typed units do nothing here.
#if TCONV_IGEMM_TYPES == TCONV_IGEMM_TYPES_FLOAT
#define TCONV_IGEMM_ROUTE_16BIT(dtype, name, ...)                      \
  do {                                                                 \
    if ((dtype) == DType::kFloat16) return name##_fp16(__VA_ARGS__);   \
    if ((dtype) == DType::kBFloat16) return name##_bf16(__VA_ARGS__);  \
  } while (0)
#else
#define TCONV_IGEMM_ROUTE_16BIT(dtype, name, ...) \
  do {                                            \
  } while (0)
#endif
#define TCONV_IGEMM_DECLARE_16BIT(result, name, parameters) \
  result name##_fp16 parameters;                            \
  result name##_bf16 parameters;
// Each part leaves the device helpers that only the other parts call unreferenced (nvcc's warning 177).
#pragma nv_diag_suppress 177
#include <cuda.h>  // CUtensorMap (CUDA 12+), the rows grad_weight kernel's TMA tensor maps

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>
#include "activation.h"
#include "conv_transpose.h"
#include "dispatch.h"
#include "igemm_config.h"
#include "mma_sm80.h"
#include "wgmma_sm90.h"

namespace tconv {
namespace {

// The unit's data type (TCONV_IGEMM_TYPES), as its kernels' scalar_t and as a DType.
#if TCONV_IGEMM_TYPES == TCONV_IGEMM_TYPES_HALF
using IgemmUnitScalar = __half;
constexpr DType kIgemmUnitDType = DType::kFloat16;
#elif TCONV_IGEMM_TYPES == TCONV_IGEMM_TYPES_BFLOAT16
using IgemmUnitScalar = __nv_bfloat16;
constexpr DType kIgemmUnitDType = DType::kBFloat16;
#else
using IgemmUnitScalar = float;
constexpr DType kIgemmUnitDType = DType::kFloat32;
#endif

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
  // GEMM K rows per tap: k_channels for fp32 data; channel pairs (k_channels + 1) / 2 for fp16/bf16,
  // whose A and B tiles hold two consecutive channels per 32-bit word (see PairedRows).
  int k_rows;
  int block_k;  // K rows per stage of the chosen tile, and per chunk of the packed weights
  int k_pad;    // rows per tap of the packed weights: k_rows rounded up to block_k (zero rows)
  int kernel[3], stride[3], padding[3], dilation[3];
  int phases[3], src_step[3], dst_step[3];
  bool forward;
  // W fold (forward only; 1 = none, see fold_w): the W phases are GEMM columns. Column c of a group is
  // output channel c / fold at W offset c % fold, row u's outputs sit at W fold * u + c % fold -
  // fold_padding and exist below fold_out_w; fold_kernel_w / fold_dilation are the original W taps'.
  int fold, fold_padding, fold_out_w, fold_kernel_w, fold_dilation;
  // fp32 data into a channels-innermost destination: the cp.async gathers' epilogue stages the tile [M][N] and stores
  // along the channels, as it does for 16-bit data (gather_fp32_channels_last_epilogue; the plain wgmma tiles only:
  // it spilled registers in the others).
  bool float_row_major;
};

__device__ __forceinline__ void cp_async_4(float* smem, const float* gmem, bool valid) {
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(dst), "l"(gmem), "r"(valid ? 4 : 0));
}
// A read-only load where `valid`, else 0, as one predicated instruction: no branch, and no access when invalid.
[[maybe_unused]] __device__ __forceinline__ float ldg_or_zero(const float* gmem, bool valid) {
  float v;
  asm("{\n.reg .pred p;\nsetp.ne.b32 p, %2, 0;\nmov.b32 %0, 0;\n@p ld.global.nc.f32 %0, [%1];\n}\n"
      : "=f"(v) : "l"(gmem), "r"(int(valid)));
  return v;
}

// The same for 16 bytes (gmem 16-byte aligned where valid).
[[maybe_unused]] __device__ __forceinline__ float4 ldg4_or_zero(const float* gmem, bool valid) {
  float4 v;
  asm("{\n.reg .pred p;\nsetp.ne.b32 p, %5, 0;\nmov.b32 %0, 0;\nmov.b32 %1, 0;\nmov.b32 %2, 0;\nmov.b32 %3, 0;\n"
      "@p ld.global.nc.v4.f32 {%0, %1, %2, %3}, [%4];\n}\n"
      : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(gmem), "r"(int(valid)));
  return v;
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
// The same row copies for any data type: fp32 by cp.async, fp16/bf16 loaded by the thread and widened
// to fp32 in shared memory at once. The gather GEMM's fp32 slots use it (its fp16/bf16 tiles are channel
// pairs, PairedRows); the grad_weight GEMMs defer the 16-bit stores instead (DeferredRows).
template <int kCount, bool kChecked, typename scalar_t>
__device__ __forceinline__ void copy_rows(float* dst, int dst_step, const scalar_t* src, int64_t src_step, bool valid,
                                          int rows_left, int row_unit, const scalar_t* fallback) {
  if constexpr (std::is_same<scalar_t, float>::value) {
    cp_async_rows<kCount, kChecked>(dst, dst_step, src, src_step, valid, rows_left, row_unit, fallback);
  } else {
#pragma unroll
    for (int i = 0; i < kCount; ++i) {
      const bool ok = valid && (!kChecked || i * row_unit < rows_left);
      dst[i * dst_step] = ok ? to_acc(src[0]) : 0.f;
      src += src_step;
    }
  }
}
// The grad_weight GEMMs' row copies for any data type, into fp32 tiles: fp32 by cp.async when the stage
// is fetched; fp16/bf16 (which cp.async cannot widen) loaded into registers when the stage is fetched and
// widened into shared memory by land(), which the kernels call after the current stage's MMAs, so the
// loads' latency overlaps those MMAs (a copy that loaded and stored at fetch time stalled every stage on
// its loads: run 62, bf16 grad_weight 1.2-3x slower than TF32's). The stored values are visible to the
// other warps after the next __syncthreads, which every pipeline stage passes before it is read. The
// gather GEMM's fp16/bf16 tiles are channel pairs instead (PairedRows).
__device__ __forceinline__ float widen_bits(unsigned short bits, __half) { return __half2float(__ushort_as_half(bits)); }
__device__ __forceinline__ float widen_bits(unsigned short bits, __nv_bfloat16) {
  return __uint_as_float(uint32_t(bits) << 16);
}
// Four 16-bit values packed in two 32-bit words (the lower half first), widened to fp32.
template <typename scalar_t>
[[maybe_unused]] __device__ __forceinline__ float4 widen_quad_bits(uint32_t lo, uint32_t hi) {
  return make_float4(widen_bits(lo & 0xffffu, scalar_t()), widen_bits(lo >> 16, scalar_t()),
                     widen_bits(hi & 0xffffu, scalar_t()), widen_bits(hi >> 16, scalar_t()));
}
// The 16-bit value at gmem where `valid`, else 0, as its bits (one predicated instruction, as ldg_or_zero).
[[maybe_unused]] __device__ __forceinline__ unsigned short ldg_bits_or_zero(const void* gmem, bool valid) {
  unsigned short bits;
  asm("{\n.reg .pred p;\nsetp.ne.b32 p, %2, 0;\nmov.b16 %0, 0;\n@p ld.global.nc.b16 %0, [%1];\n}\n"
      : "=h"(bits) : "l"(gmem), "r"(int(valid)));
  return bits;
}
// ldg_or_zero for fp16/bf16 data, widened to fp32 (exactly).
template <typename scalar_t>
[[maybe_unused]] __device__ __forceinline__ float ldg_or_zero(const scalar_t* gmem, bool valid) {
  static_assert(sizeof(scalar_t) == 2, "16-bit data (fp32 has its own overload)");
  return widen_bits(ldg_bits_or_zero(gmem, valid), scalar_t());
}
template <int kCount, typename scalar_t>
struct DeferredRows {
  static constexpr bool kAsync = std::is_same<scalar_t, float>::value;
  unsigned short bits[kAsync ? 1 : kCount];
  // kCount rows src_step apart in global memory, dst_step apart in the tile; with kChecked, row i exists
  // while i * row_unit < rows_left (others read as zeros, fp32 from `fallback`).
  template <bool kChecked>
  __device__ __forceinline__ void fetch(float* dst, int dst_step, const scalar_t* src, int64_t src_step, bool valid,
                                        int rows_left, int row_unit, const scalar_t* fallback) {
    if constexpr (kAsync) {
      cp_async_rows<kCount, kChecked>(dst, dst_step, src, src_step, valid, rows_left, row_unit, fallback);
    } else {
      const unsigned short* at = reinterpret_cast<const unsigned short*>(src);
#pragma unroll
      for (int i = 0; i < kCount; ++i) {
        const bool ok = valid && (!kChecked || i * row_unit < rows_left);
        bits[i] = ok ? __ldg(at) : static_cast<unsigned short>(0);
        at += src_step;
      }
    }
  }
  __device__ __forceinline__ void land(float* dst, int dst_step) const {
    if constexpr (!kAsync) {
#pragma unroll
      for (int i = 0; i < kCount; ++i) dst[i * dst_step] = widen_bits(bits[i], scalar_t());
    }
  }
};
// fp16/bf16 A tiles of the gather GEMM: word i holds channels 2 i and 2 i + 1 of one position (low half
// first), the k16 MMAs' register layout, so the fragments are the fp32 path's 32-bit loads and need no
// conversion. cp.async copies 4 bytes at least and the two channels are a channel stride apart, so the
// thread loads them into registers when the stage is fetched (fetch) and writes the words after the
// stage's MMAs are issued (store): the loads' latency overlaps the MMAs instead of stalling the fetch.
//
// kGrouped (the 16-bit wgmma tile, whose A the wgmmas read from shared memory by descriptor): the
// thread's pairs come in groups of four consecutive pairs (one 16-byte core-matrix row of K), groups
// 4 * row_unit pairs apart, and each group is stored as one 16-byte word; otherwise pairs are row_unit apart.
template <int kCount, bool kGrouped = false, bool kAdjacent = true>
struct PairedRows {
  static_assert(!kGrouped || kCount % 4 == 0, "grouped pairs come in fours");
  unsigned short lo[kCount], hi[kCount];
  // Pair i of the thread, counted from its first pair.
  static __device__ __forceinline__ int pair_offset(int i, int row_unit) {
    return kGrouped ? 4 * row_unit * (i / 4) + i % 4 : row_unit * i;
  }
  // kCount words of one position, channels 2 * pair_offset(i) + {0, 1} from src (channel rows
  // channel_stride apart); channels at or past channels_left read as 0 (kChecked only).
  template <bool kChecked>
  __device__ __forceinline__ void fetch(const unsigned short* src, int64_t channel_stride, bool valid, int channels_left,
                                        int row_unit) {
    if (kAdjacent && channel_stride == 1 && valid) {  // channels-last: each pair, or group of four, is one load
      fetch_adjacent<kChecked>(src, channels_left, row_unit);
      return;
    }
#pragma unroll
    for (int i = 0; i < kCount; ++i) {
      const int channel = 2 * pair_offset(i, row_unit);
      const bool ok_lo = valid && (!kChecked || channel < channels_left);
      const bool ok_hi = valid && (!kChecked || channel + 1 < channels_left);
      const unsigned short* at = src + int64_t(channel) * channel_stride;
      lo[i] = ok_lo ? __ldg(at) : static_cast<unsigned short>(0);
      hi[i] = ok_hi ? __ldg(at + channel_stride) : static_cast<unsigned short>(0);
    }
  }
  // fetch where the channels are adjacent (channel_stride 1) and the position valid: a group of four pairs (16 bytes)
  // or one pair (4 bytes) per load where it is aligned and whole, else its channels one by one. Why: with 2-byte loads
  // a warp's load instruction reads 32 positions' sectors for 64 of their bytes, 16 instructions per stage and
  // thread (run 461, H200, channels-last bf16: fam10's forward 2.235 ms against the contiguous layout's 0.518).
  // kAdjacent false leaves it out where the second path costs spills (the gather kernel's GatherAdjacentLoads).
  template <bool kChecked>
  __device__ __forceinline__ void fetch_adjacent(const unsigned short* src, int channels_left, int row_unit) {
    constexpr int kPairsPerLoad = kGrouped ? 4 : 1;
#pragma unroll
    for (int i = 0; i < kCount; i += kPairsPerLoad) {
      const int channel = 2 * pair_offset(i, row_unit);
      const unsigned short* at = src + channel;
      const bool whole = !kChecked || channel + 2 * kPairsPerLoad <= channels_left;
      if (whole && reinterpret_cast<uintptr_t>(at) % (4 * kPairsPerLoad) == 0) {
        if constexpr (kGrouped) {
          const uint4 v = __ldg(reinterpret_cast<const uint4*>(at));
          set_word(i, v.x);
          set_word(i + 1, v.y);
          set_word(i + 2, v.z);
          set_word(i + 3, v.w);
        } else {
          set_word(i, __ldg(reinterpret_cast<const unsigned int*>(at)));
        }
      } else {
#pragma unroll
        for (int j = 0; j < 2 * kPairsPerLoad; ++j) {
          const unsigned short bits = channel + j < channels_left ? __ldg(at + j) : static_cast<unsigned short>(0);
          if (j % 2 == 0) lo[i + j / 2] = bits;
          else hi[i + j / 2] = bits;
        }
      }
    }
  }
  __device__ __forceinline__ void set_word(int i, uint32_t w) {
    lo[i] = static_cast<unsigned short>(w & 0xffffu);
    hi[i] = static_cast<unsigned short>(w >> 16);
  }
  __device__ __forceinline__ uint32_t word(int i) const { return uint32_t(lo[i]) | (uint32_t(hi[i]) << 16); }
  // Word i to dst[i * dst_step], or (kGrouped) group q to the 16 bytes at dst + q * dst_step.
  __device__ __forceinline__ void store(float* dst, int dst_step) const {
    if constexpr (kGrouped) {
#pragma unroll
      for (int q = 0; q < kCount / 4; ++q)
        *reinterpret_cast<uint4*>(dst + q * dst_step) =
            make_uint4(word(4 * q), word(4 * q + 1), word(4 * q + 2), word(4 * q + 3));
    } else {
#pragma unroll
      for (int i = 0; i < kCount; ++i) reinterpret_cast<uint32_t*>(dst)[i * dst_step] = word(i);
    }
  }
};
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N> __device__ __forceinline__ void cp_async_wait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N)); }

// mma.sync m16n8k8 TF32 fragments of a warp's 32x32 tile: A rows warp_row + 16 * mt + gid (+8),
// B columns warp_col + 8 * nt + gid, k = tig (+4). kRounded: the tile already holds TF32 values (the
// packed weights in TF32 mode; fp16/bf16 data widened to fp32, which TF32 represents exactly, or fp16/bf16
// channel pairs for the k16 MMAs, whose bits are used as they are).
// kSplitTf32 also returns the rounding remainders (3xTF32: a = big + small).

// K-contiguous tiles ([M][K + pad], the grad_weight GEMM's positions-as-K layout): one 4-byte load per
// fragment element.
template <bool kSplitTf32, bool kRounded>
__device__ __forceinline__ void load_a_fragments(uint32_t (&big)[2][4], uint32_t (&small)[2][4], const float* tile,
                                                 int ld, int warp_row, int k, int gid, int tig) {
#pragma unroll
  for (int mt = 0; mt < 2; ++mt) {
    const float* row = tile + (warp_row + mt * 16 + gid) * ld + k + tig;
    split_tf32<kSplitTf32, kRounded>(row[0], big[mt][0], small[mt][0]);
    split_tf32<kSplitTf32, kRounded>(row[8 * ld], big[mt][1], small[mt][1]);
    split_tf32<kSplitTf32, kRounded>(row[4], big[mt][2], small[mt][2]);
    split_tf32<kSplitTf32, kRounded>(row[8 * ld + 4], big[mt][3], small[mt][3]);
  }
}
template <bool kSplitTf32, bool kRounded, int NT>
__device__ __forceinline__ void load_b_fragments(uint32_t (&big)[NT][2], uint32_t (&small)[NT][2], const float* tile,
                                                 int ld, int warp_col, int k, int gid, int tig) {
#pragma unroll
  for (int nt = 0; nt < NT; ++nt) {
    const float* col = tile + (warp_col + nt * 8 + gid) * ld + k + tig;
    split_tf32<kSplitTf32, kRounded>(col[0], big[nt][0], small[nt][0]);
    split_tf32<kSplitTf32, kRounded>(col[4], big[nt][1], small[nt][1]);
  }
}

// The gather GEMM's operand tiles are stored in the order the mma.sync fragments want them, so a
// fragment is one or two vector loads that land in the registers the HMMA reads (LDS.32 fragment
// loads were the largest item of the loop after the MMAs, notes/perf.md; 16-byte loads into the wrong
// register order cost a move per element, seen in the SASS of a first try).
// A ([K][M + pad], M-contiguous because NC(D)HW positions are): within each 16-row group, row
// 8 * h + gid sits at 2 * gid + h, so the rows gid and gid + 8 of one k (fragment registers a0/a1,
// and a2/a3 at k + 4) are one 8-byte word. With a row stride of 8 mod 32 words, the 16 lanes of an
// LDS.64 phase cover banks 8 * tig + 2 * gid (+0..1): conflict free. The cp.async writes of 32
// consecutive rows stay a permutation of 32 banks.
__host__ __device__ __forceinline__ int a_fragment_slot(int row) {
  return (row & ~15) | ((row & 7) << 1) | ((row >> 3) & 1);
}
// B (the packed weights): per (k8 step, 32-column group) 256 floats [h][lane][4], lane = 4 * gid + tig,
// holding (n = 8 * (2h) + gid: k = tig, tig + 4), (n = 8 * (2h + 1) + gid: k = tig, tig + 4): one
// LDS.128 per half gives two n8 tiles' b0/b1 pairs, consecutive lanes read consecutive 16-byte words.
constexpr int kBFragmentGroup = 32;                   // columns per fragment-order group
constexpr int kBFragmentStep = 8 * kBFragmentGroup;   // floats per (k8 step, group)
struct BFragmentCoord {
  int k, n;  // within the (k8 step, 32-column group)
};
__host__ __device__ __forceinline__ BFragmentCoord b_fragment_coord(int offset) {
  const int h = offset / 128, lane = (offset / 4) % 32, e = offset % 4;
  return BFragmentCoord{lane % 4 + 4 * (e % 2), 8 * (2 * h + e / 2) + lane / 4};
}
// The m16 x k8 A fragment of rows row16 .. row16 + 15 (row16 a multiple of 16) at k .. k + 7: two LDS.64
// from the fragment-paired order, or four LDS.32 from natural order (the W-tap window, whose tile
// pointer carries the tap's shift, so rows are not 8-byte aligned pairs there).
template <bool kSplitTf32, bool kRounded, bool kNatural = false>
__device__ __forceinline__ void load_a_fragment16(uint32_t (&big)[4], uint32_t (&small)[4], const float* tile, int ld,
                                                  int row16, int k, int gid, int tig) {
  float2 lo, hi;  // rows gid, gid + 8 at k + tig (lo) and k + tig + 4 (hi)
  if (kNatural) {
    const float* row = tile + (k + tig) * ld + row16 + gid;
    lo = make_float2(row[0], row[8]);
    hi = make_float2(row[4 * ld], row[4 * ld + 8]);
  } else {
    const float* pair = tile + (k + tig) * ld + row16 + 2 * gid;
    lo = *reinterpret_cast<const float2*>(pair);
    hi = *reinterpret_cast<const float2*>(pair + 4 * ld);
  }
  split_tf32<kSplitTf32, kRounded>(lo.x, big[0], small[0]);
  split_tf32<kSplitTf32, kRounded>(lo.y, big[1], small[1]);
  split_tf32<kSplitTf32, kRounded>(hi.x, big[2], small[2]);
  split_tf32<kSplitTf32, kRounded>(hi.y, big[3], small[3]);
}
template <bool kSplitTf32, bool kRounded, bool kNatural>
__device__ __forceinline__ void load_a_fragments_ordered(uint32_t (&big)[2][4], uint32_t (&small)[2][4],
                                                         const float* tile, int ld, int warp_row, int k, int gid,
                                                         int tig) {
#pragma unroll
  for (int mt = 0; mt < 2; ++mt)
    load_a_fragment16<kSplitTf32, kRounded, kNatural>(big[mt], small[mt], tile, ld, warp_row + mt * 16, k, gid, tig);
}
// `group` points at the warp's (k8 step, 32-column group) block of the B stage.
template <bool kSplitTf32, bool kRounded>
__device__ __forceinline__ void load_b_fragments_ordered(uint32_t (&big)[4][2], uint32_t (&small)[4][2],
                                                         const float* group, int lane) {
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    const float4 v = *reinterpret_cast<const float4*>(group + h * 128 + lane * 4);
    split_tf32<kSplitTf32, kRounded>(v.x, big[2 * h][0], small[2 * h][0]);
    split_tf32<kSplitTf32, kRounded>(v.y, big[2 * h][1], small[2 * h][1]);
    split_tf32<kSplitTf32, kRounded>(v.z, big[2 * h + 1][0], small[2 * h + 1][0]);
    split_tf32<kSplitTf32, kRounded>(v.w, big[2 * h + 1][1], small[2 * h + 1][1]);
  }
}

// The 2 x NT MMAs of one K-word step (k8 TF32, or k16 fp16/bf16 by mma_t; 3 each for 3xTF32: small*big +
// big*small + big*big). NT = 4 (32-column warp tiles) everywhere but the many-tap grad_weight tile (2).
template <bool kSplitTf32, typename mma_t = float, int NT>
__device__ __forceinline__ void warp_mma_k8(float (&c)[2][NT][4], const uint32_t (&a_big)[2][4],
                                            const uint32_t (&a_small)[2][4], const uint32_t (&b_big)[NT][2],
                                            const uint32_t (&b_small)[NT][2]) {
#pragma unroll
  for (int mt = 0; mt < 2; ++mt)
#pragma unroll
    for (int nt = 0; nt < NT; ++nt) {
      if (kSplitTf32) {
        mma_m16n8<float>(c[mt][nt], a_small[mt], b_big[nt]);
        mma_m16n8<float>(c[mt][nt], a_big[mt], b_small[nt]);
      }
      mma_m16n8<mma_t>(c[mt][nt], a_big[mt], b_big[nt]);
    }
}
// One warp's 32x32 tile over a BK-deep stage of the fragment-ordered tiles: 2 x 4 mma.sync m16n8k8 per
// k8 step. Bs points at the warp's 32-column group of the stage's B slice ([group][k8 step][256]).
// Only the k8 steps below `rows` (the stage's K rows that exist; the rest are zero padding) run.
template <bool kSplitTf32, bool kARounded, bool kBRounded, int kDepth, bool kANatural, typename mma_t = float>
__device__ __forceinline__ void warp_tile_mma(float (&acc)[2][4][4], const float* As, int lda, const float* Bs,
                                              int warp_row, int lane, int rows = kDepth) {
  const int gid = lane / 4, tig = lane % 4;
  float part[2][4][4];
  if (kSplitTf32) zero_tile(part);
  float (&sum)[2][4][4] = kSplitTf32 ? part : acc;
#pragma unroll
  for (int kk = 0; kk < kDepth; kk += 8) {
    if (kk >= rows) break;
    uint32_t a_big[2][4], b_big[4][2], a_small[2][4], b_small[4][2];
    load_a_fragments_ordered<kSplitTf32, kARounded, kANatural>(a_big, a_small, As, lda, warp_row, kk, gid, tig);
    load_b_fragments_ordered<kSplitTf32, kBRounded>(b_big, b_small, Bs + (kk / 8) * kBFragmentStep, lane);
    warp_mma_k8<kSplitTf32, mma_t>(sum, a_big, a_small, b_big, b_small);
  }
  if (kSplitTf32) add_tile(acc, part);
}

// Hopper warpgroup MMA (sm_90a only: the bodies compile to nothing elsewhere, and the host picks these
// kernels only where wgmma_available says the device runs the sm_90a code).
// B descriptor: K-major (the only layout TF32 wgmma reads), no swizzle. The packed weights of one
// k8 step are [n group of 8][k half][8 n][4 k]: 128-byte core matrices (8 rows of 16 bytes), the next
// one along K 128 bytes on (leading byte offset), the next along N 256 bytes on (stride byte offset).
constexpr int kWgmmaLeadingBytes = 128, kWgmmaStrideBytes = 256;
// WgmmaDescriptor (wgmma_sm90.h) of a shared tile.
__device__ __forceinline__ WgmmaDescriptor wgmma_descriptor(const float* tile, int leading_bytes = kWgmmaLeadingBytes,
                                                            int stride_bytes = kWgmmaStrideBytes) {
  return wgmma_descriptor_at_address(static_cast<uint32_t>(__cvta_generic_to_shared(tile)), leading_bytes,
                                     stride_bytes);
}
__device__ __forceinline__ uint64_t wgmma_smem_descriptor(const float* tile, int leading_bytes = kWgmmaLeadingBytes,
                                                       int stride_bytes = kWgmmaStrideBytes) {
  return wgmma_descriptor(tile, leading_bytes, stride_bytes).at(0);
}
// K-major in a swizzle (layout type: 1 = 128-byte, 2 = 64-byte, 3 = 32-byte rows): stride byte offset = the next 8
// rows, leading byte offset 1 (unused where a wgmma's K fits one swizzled row). The tile starts on the swizzle's atoms.
__device__ __forceinline__ uint64_t wgmma_swizzled_descriptor(const void* tile, int stride_bytes, uint32_t layout) {
  const uint32_t address = static_cast<uint32_t>(__cvta_generic_to_shared(tile));
  return (uint64_t(uint32_t(stride_bytes >> 4) | (layout << 30)) << 32) | (((address & 0x3FFFF) >> 4) | (1u << 16));
}
// A value every lane of the warp holds already (this thread's warpgroup, a pipeline slot), through a shuffle so that
// the compiler sees it warp-uniform: the wgmma descriptors built on it can then be formed in uniform registers, not
// moved there per wgmma (R2UR: run 156's SASS, 4 per HGMMA; run 159's, 3 per kernel).
[[maybe_unused]] __device__ __forceinline__ int uniform_int(int value) { return __shfl_sync(0xffffffffu, value, 0); }
[[maybe_unused]] __device__ __forceinline__ int uniform_warpgroup() { return uniform_int(int(threadIdx.x) / 128); }
// The first 1024-byte aligned byte of a dynamic shared-memory array (the 128-byte swizzle's atoms need it; the
// allocation promises 16). Offset from the array itself, not rounded through an integer: the compiler then still
// knows every pointer derived from it is shared memory and emits ld/st.shared with 32-bit addresses. Through
// uintptr_t the TMA gather's direct form read its A fragments with generic 64-bit loads (run 350's ncu: LD.E and
// 64-bit address arithmetic on the hot path, 5.95 cycles per issued instruction, tensor pipe 43 %).
__device__ __forceinline__ unsigned char* shared_aligned_1024(unsigned char* array) {
  const uint32_t address = static_cast<uint32_t>(__cvta_generic_to_shared(array));
  return array + ((1024u - (address & 1023u)) & 1023u);
}
// The wgmma gather pipelines' mbarriers (sm_90; empty elsewhere, where those kernels never run).
// full[s], warp-specialized tile: the producer threads' cp.async copies of stage s's A tile have landed (each
// thread's arrive is deferred until its earlier copies complete: cp.async.mbarrier.arrive.noinc, one arrival per
// producer thread), and so has the bulk copy of its B slice (one more arrival, with the slice's bytes expected).
// full[s], the other fp32 wgmma tiles: the bulk copy of stage s's B slice has landed (A is ordered by the
// cp.async groups and the block barrier).
// empty[s] (warp-specialized only): every MMA thread's reads of stage s have completed (one arrive per MMA thread).
[[maybe_unused]] __device__ __forceinline__ uint32_t shared_address(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void mbarrier_init(uint64_t* bar, int count) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(shared_address(bar)), "r"(count) : "memory");
#endif
}
__device__ __forceinline__ void mbarrier_arrive(uint64_t* bar) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("mbarrier.arrive.release.cta.shared::cta.b64 _, [%0];\n" ::"r"(shared_address(bar)) : "memory");
#endif
}
__device__ __forceinline__ void mbarrier_arrive_on_copies(uint64_t* bar) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];\n" ::"r"(shared_address(bar)) : "memory");
#endif
}
// Makes this thread's mbarrier initialisations visible to the async proxy (the bulk copies' complete_tx); a
// block barrier after it publishes them to the other threads.
__device__ __forceinline__ void fence_mbarrier_init() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
#endif
}
// One arrival that also expects `bytes` of bulk-copy transactions in the current phase: the phase completes
// once the other arrivals are in and those bytes have landed (complete_tx).
__device__ __forceinline__ void mbarrier_arrive_expect_tx(uint64_t* bar, uint32_t bytes) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [%0], %1;\n" ::"r"(shared_address(bar)),
               "r"(bytes)
               : "memory");
#endif
}
// A bulk copy by the TMA unit (no tensor map: one contiguous range; bytes a multiple of 16, both ends
// 16-byte aligned), which signals `bar` with complete_tx when it has landed. It writes shared memory
// through the async proxy, the one wgmma reads, so the reader needs no proxy fence. A CTA's own
// shared::cta addresses are valid shared::cluster addresses, also without a cluster launch.
__device__ __forceinline__ void bulk_copy_to_shared(void* dst, const void* src, uint32_t bytes, uint64_t* bar) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n" ::"r"(
                   shared_address(dst)),
               "l"(src), "r"(bytes), "r"(shared_address(bar))
               : "memory");
#endif
}
// Returns once the phase of parity `parity` has completed (acquire: what the arrivals published is visible; at
// cluster scope where kCluster, for arrivals from another CTA of the cluster).
template <bool kCluster = false>
__device__ __forceinline__ void mbarrier_wait(uint64_t* bar, uint32_t parity) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  const uint32_t address = shared_address(bar);
  uint32_t done = 0;
  do {
    if constexpr (kCluster)
      asm volatile(
          "{\n.reg .pred p;\nmbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2;\n"
          "selp.u32 %0, 1, 0, p;\n}\n"
          : "=r"(done)
          : "r"(address), "r"(parity)
          : "memory");
    else
      asm volatile(
          "{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}\n"
          : "=r"(done)
          : "r"(address), "r"(parity)
          : "memory");
  } while (done == 0);
#endif
}

// TCONV_TENSOR_MAPS: the toolkit declares CUtensorMap (CUDA 12+); the kernels that take tensor maps exist only then.
#if defined(CUDA_VERSION) && CUDA_VERSION >= 12000
#define TCONV_TENSOR_MAPS 1
// One box of a 5-D tensor map into shared memory by the TMA unit (128-byte aligned destination), signalling `bar`
// with complete_tx. Elements outside the tensor (negative coordinates included) land as zeros and count toward the
// transaction bytes, so a box always delivers its full size. The innermost coordinate must put the box's first
// element on 16 bytes (run 177, scripts/tma_probe.cu: other W starts fault with an illegal instruction).
__device__ __forceinline__ void tma_load_5d(void* dst, const CUtensorMap* map, int c0, int c1, int c2, int c3, int c4,
                                            uint64_t* bar) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile(
      "cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5, "
      "%6}], [%7];\n" ::"r"(shared_address(dst)),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(c4), "r"(shared_address(bar))
      : "memory");
#endif
}
CUtensorMapDataType tensor_map_type(DType dtype) {
  return dtype == DType::kFloat16    ? CU_TENSOR_MAP_DATA_TYPE_FLOAT16
         : dtype == DType::kBFloat16 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
                                     : CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
}
// cuTensorMapEncodeTiled from the driver, through the runtime (no link against libcuda); nullptr where unavailable.
using EncodeTiledFn = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*,
                                   const cuuint64_t*, const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave,
                                   CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
EncodeTiledFn encode_tiled_fn() {
  static const EncodeTiledFn fn = [] {
    void* entry = nullptr;
#if CUDART_VERSION >= 12050
    cudaDriverEntryPointQueryResult status{};
    const bool found = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &entry, 12000, cudaEnableDefault,
                                                        &status) == cudaSuccess &&
                       status == cudaDriverEntryPointSuccess;
#else  // CUDA 12.0-12.4: the three-argument form (the status argument is not in every one of them)
    const bool found = cudaGetDriverEntryPoint("cuTensorMapEncodeTiled", &entry, cudaEnableDefault) == cudaSuccess;
#endif
    if (!found || entry == nullptr) {
      (void)cudaGetLastError();
      return EncodeTiledFn(nullptr);
    }
    return reinterpret_cast<EncodeTiledFn>(entry);
  }();
  return fn;
}
#endif

// acc (+)= A (64 x one K step, registers: this warp's 16 rows as an m16n8 A fragment) x B (K step x BN,
// shared, by descriptor): m64nBNk8 TF32, or m64nBNk16 for fp16/bf16 (the shifted-x grad_weight). The gathers'
// fp16/bf16 data read A from shared memory too (wgmma_mma_shared_a, m64nBNk16, both operands K-major:
// imm-trans-a = imm-trans-b = 0); a K step is 8 32-bit words either way, so the B descriptor is the same.
template <int kN, typename mma_t>
__device__ __forceinline__ void wgmma_mma(float (&acc)[kN / 2], const uint32_t (&a)[4], uint64_t b_desc);
#define TCONV_WGMMA_D64 \
  "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), \
  "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), \
  "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), \
  "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
#define TCONV_WGMMA_D128 \
  "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), \
  "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), \
  "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), \
  "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), \
  "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), \
  "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), \
  "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), \
  "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
#define TCONV_WGMMA_D48 \
  "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), \
  "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), \
  "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23])
#define TCONV_WGMMA_ARGS48 \
  "{" \
  "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23}, " \
  "{%24, %25, %26, %27}, %28"
#define TCONV_WGMMA_ARGS64 \
  "{" \
  "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
  "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, " \
  "{%32, %33, %34, %35}, %36"
#define TCONV_WGMMA_ARGS128 \
  "{" \
  "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
  "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, " \
  "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, " \
  "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, " \
  "{%64, %65, %66, %67}, %68"
template <int kN, typename mma_t>
__device__ __forceinline__ void wgmma_mma_shared_a(float (&acc)[kN / 2], uint64_t a_desc, uint64_t b_desc);
// The same with A M-major (imm-trans-a = 1: 16-bit types only): A's core matrices are 8 K values x 8 rows, a K value's
// 8 rows 16 contiguous bytes; the descriptor's leading byte offset steps 8 K values, the stride byte offset 8 rows.
template <int kN, typename mma_t>
__device__ __forceinline__ void wgmma_mma_shared_a_m_major(float (&acc)[kN / 2], uint64_t a_desc, uint64_t b_desc);
// FN<N, TYPE>: m64nNk16 with A and B by descriptor, B K-major, A K-major (TRANS_A "0") or M-major ("1").
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define TCONV_DEFINE_WGMMA_SS(FN, N, TYPE, KIND, TRANS_A)                                                      \
  template <>                                                                                                 \
  __device__ __forceinline__ void FN<N, TYPE>(float (&d)[N / 2], uint64_t a, uint64_t b) {                    \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"                                                   \
                 "wgmma.mma_async.sync.aligned.m64n" #N KIND " " TCONV_WGMMA_SS_ARGS##N ", p, 1, 1, " TRANS_A   \
                 ", 0;\n}\n"                                                                                  \
                 : TCONV_WGMMA_D##N                                                                           \
                 : "l"(a), "l"(b));                                                                           \
  }
#else
#define TCONV_DEFINE_WGMMA_SS(FN, N, TYPE, KIND, TRANS_A) \
  template <>                                             \
  __device__ __forceinline__ void FN<N, TYPE>(float (&)[N / 2], uint64_t, uint64_t) {}
#endif
#define TCONV_DEFINE_WGMMA_SHARED_A(N, TYPE, KIND) TCONV_DEFINE_WGMMA_SS(wgmma_mma_shared_a, N, TYPE, KIND, "0")
#define TCONV_WGMMA_SS_ARGS64 \
  "{" \
  "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
  "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, " \
  "%32, %33"
#define TCONV_WGMMA_SS_ARGS128 \
  "{" \
  "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
  "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, " \
  "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, " \
  "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, " \
  "%64, %65"
TCONV_DEFINE_WGMMA_SHARED_A(64, __half, "k16.f32.f16.f16")
TCONV_DEFINE_WGMMA_SHARED_A(64, __nv_bfloat16, "k16.f32.bf16.bf16")
TCONV_DEFINE_WGMMA_SHARED_A(128, __half, "k16.f32.f16.f16")
TCONV_DEFINE_WGMMA_SHARED_A(128, __nv_bfloat16, "k16.f32.bf16.bf16")
TCONV_DEFINE_WGMMA_SS(wgmma_mma_shared_a_m_major, 128, __half, "k16.f32.f16.f16", "1")
TCONV_DEFINE_WGMMA_SS(wgmma_mma_shared_a_m_major, 128, __nv_bfloat16, "k16.f32.bf16.bf16", "1")
// acc += A (64 x 8) x B (8 x kN), both by descriptor, TF32 (which takes no transpose immediates). The fp32 values in
// shared memory must already be TF32-rounded: wgmma truncates the low bits.
template <int kN>
__device__ __forceinline__ void wgmma_tf32_shared(float (&d)[kN / 2], uint64_t a_desc, uint64_t b_desc);
#define TCONV_WGMMA_D32 \
  "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), \
  "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15])
#define TCONV_WGMMA_SS_ARGS32 \
  "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15}, %16, %17"
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define TCONV_DEFINE_WGMMA_TF32_SHARED(N)                                                                  \
  template <>                                                                                              \
  [[maybe_unused]] __device__ __forceinline__ void wgmma_tf32_shared<N>(float (&d)[N / 2], uint64_t a, uint64_t b) { \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"                                                \
                 "wgmma.mma_async.sync.aligned.m64n" #N "k8.f32.tf32.tf32 " TCONV_WGMMA_SS_ARGS##N ", p, 1, 1;\n}\n" \
                 : TCONV_WGMMA_D##N                                                                        \
                 : "l"(a), "l"(b));                                                                        \
  }
#else
#define TCONV_DEFINE_WGMMA_TF32_SHARED(N) \
  template <>                             \
  [[maybe_unused]] __device__ __forceinline__ void wgmma_tf32_shared<N>(float (&)[N / 2], uint64_t, uint64_t) {}
#endif
TCONV_DEFINE_WGMMA_TF32_SHARED(32)
TCONV_DEFINE_WGMMA_TF32_SHARED(64)
TCONV_DEFINE_WGMMA_TF32_SHARED(128)
#define TCONV_WGMMA_D256 \
  TCONV_WGMMA_D128, \
  "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), \
  "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), \
  "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), \
  "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), \
  "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), \
  "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), \
  "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), \
  "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
// The 128 accumulator operands of an n256 wgmma (the SS form here, the RS form below)
#define TCONV_WGMMA_ACC256 \
  "{" \
  "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
  "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, " \
  "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, " \
  "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, " \
  "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, " \
  "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, " \
  "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, " \
  "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, "
#define TCONV_WGMMA_SS_ARGS256 TCONV_WGMMA_ACC256 "%128, %129"
TCONV_DEFINE_WGMMA_TF32_SHARED(256)
TCONV_DEFINE_WGMMA_SHARED_A(256, __half, "k16.f32.f16.f16")
TCONV_DEFINE_WGMMA_SHARED_A(256, __nv_bfloat16, "k16.f32.bf16.bf16")
#undef TCONV_DEFINE_WGMMA_TF32_SHARED
#undef TCONV_WGMMA_D32
#undef TCONV_WGMMA_SS_ARGS32
#undef TCONV_WGMMA_SS_ARGS256
#undef TCONV_DEFINE_WGMMA_SHARED_A
#undef TCONV_WGMMA_SS_ARGS64
#undef TCONV_WGMMA_SS_ARGS128
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define TCONV_DEFINE_WGMMA(N, TYPE, KIND)                                                                     \
  template <>                                                                                                 \
  __device__ __forceinline__ void wgmma_mma<N, TYPE>(float (&d)[N / 2], const uint32_t (&a)[4], uint64_t b) { \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"                                                   \
                 "wgmma.mma_async.sync.aligned.m64n" #N KIND " " TCONV_WGMMA_ARGS##N ", p, 1, 1;\n}\n"      \
                 : TCONV_WGMMA_D##N                                                                           \
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b));                                       \
  }
#else
#define TCONV_DEFINE_WGMMA(N, TYPE, KIND) \
  template <>                                   \
  __device__ __forceinline__ void wgmma_mma<N, TYPE>(float (&)[N / 2], const uint32_t (&)[4], uint64_t) {}
#endif
#define TCONV_WGMMA_D32 \
  "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), \
  "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15])
#define TCONV_WGMMA_ARGS32 \
  "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15}, {%16, %17, %18, %19}, %20"
TCONV_DEFINE_WGMMA(32, float, "k8.f32.tf32.tf32")
TCONV_DEFINE_WGMMA(48, float, "k8.f32.tf32.tf32")
TCONV_DEFINE_WGMMA(64, float, "k8.f32.tf32.tf32")
TCONV_DEFINE_WGMMA(128, float, "k8.f32.tf32.tf32")
// n256 from registers: the direct TMA form's 256-column tile (conv_transpose_igemm_tma.cu, kDirectWideMmaRegisters)
#define TCONV_WGMMA_ARGS256 TCONV_WGMMA_ACC256 "{%128, %129, %130, %131}, %132"
TCONV_DEFINE_WGMMA(256, float, "k8.f32.tf32.tf32")
#undef TCONV_WGMMA_ARGS256
#undef TCONV_WGMMA_ACC256
#undef TCONV_WGMMA_D256
// fp16/bf16 with A in registers (the shifted-x and 16-bit rows grad_weight's grad_output fragments): m64nNk16, whose
// A registers are
// an m16n8k16 A fragment per warp; the immediates end with imm-trans-b = 0 (B K-major), which TF32 takes none of.
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define TCONV_DEFINE_WGMMA_16BIT(N, TYPE, KIND)                                                               \
  template <>                                                                                                 \
  __device__ __forceinline__ void wgmma_mma<N, TYPE>(float (&d)[N / 2], const uint32_t (&a)[4], uint64_t b) { \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"                                                   \
                 "wgmma.mma_async.sync.aligned.m64n" #N KIND " " TCONV_WGMMA_ARGS##N ", p, 1, 1, 0;\n}\n"   \
                 : TCONV_WGMMA_D##N                                                                           \
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b));                                       \
  }
#else
#define TCONV_DEFINE_WGMMA_16BIT(N, TYPE, KIND) TCONV_DEFINE_WGMMA(N, TYPE, KIND)
#endif
TCONV_DEFINE_WGMMA_16BIT(32, __half, "k16.f32.f16.f16")
TCONV_DEFINE_WGMMA_16BIT(32, __nv_bfloat16, "k16.f32.bf16.bf16")
TCONV_DEFINE_WGMMA_16BIT(64, __half, "k16.f32.f16.f16")
TCONV_DEFINE_WGMMA_16BIT(64, __nv_bfloat16, "k16.f32.bf16.bf16")
TCONV_DEFINE_WGMMA_16BIT(128, __half, "k16.f32.f16.f16")  // the 16-bit rows grad_weight kernel
TCONV_DEFINE_WGMMA_16BIT(128, __nv_bfloat16, "k16.f32.bf16.bf16")
#undef TCONV_DEFINE_WGMMA_16BIT
#undef TCONV_DEFINE_WGMMA
#undef TCONV_WGMMA_ARGS32
#undef TCONV_WGMMA_D32
#undef TCONV_WGMMA_ARGS48
#undef TCONV_WGMMA_ARGS64
#undef TCONV_WGMMA_ARGS128
#undef TCONV_WGMMA_D48
#undef TCONV_WGMMA_D64
#undef TCONV_WGMMA_D128

// One warpgroup's 64 x BN tile over a BK-deep stage, in two steps: this warp's A fragments of every
// k8 step are loaded and rounded into registers that must then stay untouched until the wgmmas
// reading them have completed (wgmma_wait), and the BK / 8 wgmmas are issued as one group. All of
// them, also over a partial chunk's zero padding: a condition around a wgmma made ptxas inject a
// warpgroup.arrive before every one (C7519, seen on every wgmma kernel) and spill in the TF32 ones.
template <bool kARounded, int kDepth, bool kANatural>
__device__ __forceinline__ void load_warpgroup_a(uint32_t (&a)[kDepth / 8][4], const float* As, int lda, int warp_row,
                                                 int lane) {
  const int gid = lane / 4, tig = lane % 4;
#pragma unroll
  for (int k8 = 0; k8 < kDepth / 8; ++k8) {
    uint32_t unused[4];
    load_a_fragment16<false, kARounded, kANatural>(a[k8], unused, As, lda, warp_row, k8 * 8, gid, tig);
  }
}
template <int kDepth>
__device__ __forceinline__ void keep_registers_until_here(const uint32_t (&a)[kDepth / 8][4]) {
#pragma unroll
  for (int k8 = 0; k8 < kDepth / 8; ++k8)
    asm volatile("" ::"r"(a[k8][0]), "r"(a[k8][1]), "r"(a[k8][2]), "r"(a[k8][3]));
}
template <int kN, int kDepth, typename mma_t = float>
__device__ __forceinline__ void warpgroup_issue_mma(float (&acc)[kN / 2], const uint32_t (&a)[kDepth / 8][4],
                                                    const float* Bs) {
  wgmma_fence();
#pragma unroll
  for (int k8 = 0; k8 < kDepth / 8; ++k8) wgmma_mma<kN, mma_t>(acc, a[k8], wgmma_smem_descriptor(Bs + k8 * 8 * kN));
  wgmma_commit();
}
// The same with A from shared memory too (16-bit data only: TF32 wgmma would truncate unrounded fp32 A,
// see the grad_weight kernel). A is K-major without swizzle, as 16-byte rows of four channel pairs:
// row m of K group q (pairs 4 q .. 4 q + 3) at A_rows + 4 (q lda + m) floats, so 8-row core matrices are
// 128 bytes apart along M (stride byte offset) and lda * 16 bytes along K (leading byte offset), and a W
// tap's shift of s rows is 16 s bytes: the W-tap window needs no register fragments.
template <int kN, int kDepth, typename mma_t>
__device__ __forceinline__ void warpgroup_issue_mma_shared_a(float (&acc)[kN / 2], const float* A_rows, int lda,
                                                             const float* Bs) {
  wgmma_fence();
#pragma unroll
  for (int k16 = 0; k16 < kDepth / 8; ++k16)  // a k16 step of 16-bit data is 8 pair words: two K groups
    wgmma_mma_shared_a<kN, mma_t>(acc, wgmma_smem_descriptor(A_rows + 2 * k16 * lda * 4, lda * 16, 128),
                                  wgmma_smem_descriptor(Bs + k16 * 8 * kN));
  wgmma_commit();
}

// Runs a wgmma pipeline's step(it, fragments, previous fragments) for it = 0 .. iterations - 1, the A
// fragment sets alternating, then waits for the last wgmma group. Pairs of stages without a branch between
// them: a conditional second step made the compiler copy the accumulators at the join while a wgmma group
// was in flight, and ptxas then serialized every wgmma (C7513). An odd count starts with one step that waits
// for its group.
template <class Step, class Fragments>
__device__ __forceinline__ void run_paired_steps(int iterations, Step& step, Fragments& a_even, Fragments& a_odd) {
  int it = 0;
  if (iterations % 2 == 1) {
    step(0, a_odd, a_even);
    wgmma_wait<0>();
    it = 1;
  }
  for (; it < iterations; it += 2) {
    step(it, a_even, a_odd);
    step(it + 1, a_odd, a_even);
  }
  wgmma_wait<0>();
}

// The grad_weight form: one A tile (input channels x positions) against up to kMaxTaps B tiles that
// are the same grad_output strip at different shifts (one per tap of the block's W tap group); the
// warp's tile is 32 x 8 NT.
template <bool kSplitTf32, bool kRounded, int kMaxTaps, int kDepth, int NT>
__device__ __forceinline__ void warp_taps_mma(float (&acc)[kMaxTaps][2][NT][4], const float* As, const float* Bs,
                                              int ld, const int (&shift)[kMaxTaps], int count, int warp_row,
                                              int warp_col, int gid, int tig) {
  float part[kSplitTf32 ? kMaxTaps : 1][2][NT][4];
  if (kSplitTf32)
#pragma unroll
    for (int t = 0; t < kMaxTaps; ++t) zero_tile(part[t]);
#pragma unroll
  for (int kk = 0; kk < kDepth; kk += 8) {
    uint32_t a_big[2][4], a_small[2][4];
    load_a_fragments<kSplitTf32, kRounded>(a_big, a_small, As, ld, warp_row, kk, gid, tig);
#pragma unroll
    for (int t = 0; t < kMaxTaps; ++t) {
      if (t < count) {
        uint32_t b_big[NT][2], b_small[NT][2];
        load_b_fragments<kSplitTf32, kRounded>(b_big, b_small, Bs + shift[t], ld, warp_col, kk, gid, tig);
        warp_mma_k8<kSplitTf32>(kSplitTf32 ? part[kSplitTf32 ? t : 0] : acc[t], a_big, a_small, b_big, b_small);
      }
    }
  }
  if (kSplitTf32)
#pragma unroll
    for (int t = 0; t < kMaxTaps; ++t) add_tile(acc[t], part[kSplitTf32 ? t : 0]);
}

// Phase ph's offsets r (W fastest), as the gather kernels number their phases.
__device__ __forceinline__ void phase_offsets(const GatherArgs& a, int ph, int (&r)[3]) {
  r[2] = ph % a.phases[2];
  ph /= a.phases[2];
  r[1] = ph % a.phases[1];
  r[0] = ph / a.phases[1];
}
// Phase r's grid along dimension dim (its outputs r, r + dst_step, ... below dst_size); the phases of a dimension whose
// dst_size the step does not divide have grids one position apart.
__host__ __device__ __forceinline__ int phase_extent(const GatherArgs& a, int dim, int r) {
  return (a.dst_size[dim] - r + a.dst_step[dim] - 1) / a.dst_step[dim];
}
// Whether phase r's grid position j (D, H, W) is an output (a block's tiles may run past its phase's grid):
// j < phase_extent along each dimension, tested on the output position so that no extent stays live in a register.
__device__ __forceinline__ bool phase_position_inside(const GatherArgs& a, const int (&r)[3], const int (&j)[3]) {
  return r[0] + j[0] * a.dst_step[0] < a.dst_size[0] && r[1] + j[1] * a.dst_step[1] < a.dst_size[1] &&
         r[2] + j[2] * a.dst_step[2] < a.dst_size[2];
}
// Where phase r's grid position j (D, H, W) of image n lands in dst, at channel 0 (the caller adds its channel).
__device__ __forceinline__ int64_t phase_position_offset(const GatherArgs& a, int64_t n, const int (&r)[3],
                                                         const int (&j)[3]) {
  return n * a.dst_stride[0] + int64_t(r[0] + j[0] * a.dst_step[0]) * a.dst_stride[2] +
         int64_t(r[1] + j[1] * a.dst_step[1]) * a.dst_stride[3] + int64_t(r[2] + j[2] * a.dst_step[2]) * a.dst_stride[4];
}
// A channels-innermost destination's epilogue (the cp.async gathers, the per-tap and window TMA kernels): whether
// every position's run of a tile's columns starts on 4 elements (the stores below then move four channels a lane); how
// many lanes store one position (four channels a lane: the fewest power of two covering the columns, so a warp stores 32 / lanes positions
// at once: 4 of L1-71's 32 columns, 2 of a 64-column tile's, where lanes past the columns idled); and one position's
// staged columns stored by `lanes` lanes (sub_lane of them) along the channels.
template <typename scalar_t>
__device__ __forceinline__ bool channels_last_by_four(const GatherArgs& a, int64_t first_channel, int columns) {
  return columns % 4 == 0 && first_channel % 4 == 0 && a.dst_stride[0] % 4 == 0 && a.dst_stride[2] % 4 == 0 &&
         a.dst_stride[3] % 4 == 0 && a.dst_stride[4] % 4 == 0 &&
         reinterpret_cast<uintptr_t>(a.dst) % (4 * sizeof(scalar_t)) == 0;
}
// A lane's share of those stores: `lanes` lanes a position (a power of two), so its position within the warp and its
// sub-lane are a shift and a mask. Why: the runtime `lane % lanes` sat in each stored position's path as a 32-bit
// remainder (run 476's ncu of fam01's window forward: with the position's division, ~37 % of the samples).
struct ChannelsLastLanes {
  int lanes, per_warp, position, sub_lane;
};
__device__ __forceinline__ ChannelsLastLanes channels_last_lanes(int columns, bool by_four, int lane) {
  int shift = by_four ? 0 : 5;
  while (shift < 5 && (4 << shift) < columns) ++shift;
  return {1 << shift, 32 >> shift, lane >> shift, lane & ((1 << shift) - 1)};
}
template <typename scalar_t>
__device__ __forceinline__ void store_staged_position(scalar_t* out, const float* staged, int columns, int sub_lane,
                                                      int lanes, bool by_four) {
  if (by_four) {  // (staged rows on 16 bytes)
    for (int c = 4 * sub_lane; c < columns; c += 4 * lanes) {
      const float4 v = *reinterpret_cast<const float4*>(staged + c);
      store_pack<scalar_t, 4>(out + c, {v.x, v.y, v.z, v.w});
    }
  } else {
    for (int c = sub_lane; c < columns; c += lanes) out[c] = from_acc<scalar_t>(staged[c]);
  }
}

// One output position's columns first, first + kStep, ... below `columns`: from the staged tile (column c at
// staged + (c - first) * kLdC) to out (at (c - first) * channel_stride), a shared load, a conversion and a store each.
template <int kStep, int kLdC, typename scalar_t>
__device__ __forceinline__ void store_staged_columns(scalar_t* out, int64_t channel_stride, const float* staged,
                                                     int first, int columns) {
  const int64_t column_step = int64_t(kStep) * channel_stride;
#pragma unroll 4
  for (int col = first; col < columns; col += kStep) {
    *out = from_acc<scalar_t>(*staged);
    out += column_step;
    staged += kStep * kLdC;
  }
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

// The W fold's store (GatherArgs::fold > 1): the staged tile Cs [BN][kLdC] holds, per GEMM row u and
// column c = fold * channel + v, the output at W fold * u + v - fold_padding. Each thread takes pairs
// (row, v) with v fastest and writes them for every channel of the tile, so a warp's stores are
// consecutive W positions of one channel (whole sectors) instead of every fold-th one. Per row, its
// output offset and first W go to `rows` (shared memory past Cs) once, so the loop does no decoding.
template <int BM, int BN, int kLdC, int kThreads, typename scalar_t, typename Decode>
__device__ __forceinline__ void store_folded_tile(const GatherArgs& a, const float* Cs, float* rows, int64_t m0,
                                                  int64_t M, int n0, int g, const int (&r)[3], const int (&extent)[3],
                                                  const Decode& decode) {
  int64_t* row_offset = reinterpret_cast<int64_t*>(rows);
  int* row_w = reinterpret_cast<int*>(row_offset + BM);
  const int tid = threadIdx.x;
  for (int m = tid; m < BM; m += kThreads) {
    int64_t offset = 0;
    int w_first = -(1 << 30);  // no row: every W fails the bounds check
    if (m0 + m < M) {
      int j[3];
      int64_t n_img;
      decode(m0 + m, j, n_img);
      if (j[2] < extent[2]) {  // not a window line's extra row
        w_first = j[2] * a.fold - a.fold_padding;
        offset = n_img * a.dst_stride[0] + int64_t(r[0] + j[0] * a.dst_step[0]) * a.dst_stride[2] +
                 int64_t(r[1] + j[1] * a.dst_step[1]) * a.dst_stride[3] + int64_t(w_first) * a.dst_stride[4];
      }
    }
    row_offset[m] = offset;
    row_w[m] = w_first;
  }
  __syncthreads();
  // A tile's columns need not be whole channels (fold need not divide BN or n0, e.g. s = 5 on 64 or 128 columns): W
  // offset v holds the tile's columns c = v - n0 mod fold, c + fold, ..., of consecutive channels. A channel split
  // between two tiles has part of its W run stored by each.
  const int fold = a.fold;
  const int columns = min(BN, a.n_channels - n0);
  const int n0_offset = n0 % fold;
  const int64_t group_column0 = int64_t(g) * a.n_channels;  // a multiple of fold: whole channels per group
  scalar_t* dst = static_cast<scalar_t*>(a.dst);
  for (int q = tid; q < BM * fold; q += kThreads) {
    const int m = q / fold, v = q - m * fold;
    const int w = row_w[m] + v;
    if (unsigned(w) >= unsigned(a.fold_out_w)) continue;
    int c = v - n0_offset;
    if (c < 0) c += fold;
    scalar_t* out = dst + row_offset[m] + int64_t(v) * a.dst_stride[4] +
                    (group_column0 + n0 + c) / fold * a.dst_stride[1];
    const float* column = Cs + m;
#pragma unroll 4
    for (; c < columns; c += fold) {  // the staged tile holds the bias
      *out = from_acc<scalar_t>(column[c * kLdC]);
      out += a.dst_stride[1];
    }
  }
}

// Whether a gather tile's 16-bit A copies take PairedRows::fetch_adjacent on channels-last sources: the wgmma tiles
// and the 32-column mma.sync ones. Not the 64-column mma.sync tiles (sm_80's, and Hopper's under "igemm_mma"): with the
// second load path their window forms spilled 48-60 bytes where they spilled 12-16 (sm_90a; sm_80 52-60 against 32-36).
template <class Tile>
struct GatherAdjacentLoads {
  static constexpr bool value = Tile::kWgmma || Tile::kBlockN == 32;
};

// Dynamic shared memory: kStages pipeline stages [A: BK x kLdA | B: BK x BN], then the phase's
// tap table (int4 per tap).
template <class Tile, bool kWindow>
int64_t gather_smem_bytes(int stages, int taps) {
  return int64_t(stages) * GatherStageLayout<Tile, kWindow>::kStageFloats * int64_t(sizeof(float)) +
         int64_t(taps) * int64_t(sizeof(int4));
}

// The per-stage address work is what limited the first version (notes/perf.md: 401 instructions per
// 16 HMMA, most of them 64-bit address math redone for every copy). Here every thread keeps its
// source positions and the (tap, channel chunk) it loads next in registers: a stage costs one
// position check and three multiplies, then one pointer add per 4-byte copy.
// scalar_t = float: A arrives by 4-byte cp.async and is rounded to TF32 in the fragment loads.
// scalar_t = __half / __nv_bfloat16: a K row is a channel pair (PairedRows: two channels per 32-bit
// word, loaded by the thread), the MMAs are native k16 (m16n8k16 / m64nNk16) with fp32 accumulation, so
// products are exact and sums fp32 as with TF32 on widened data (the first version), at twice the MMA
// rate and half the shared memory per channel. Outputs are rounded to scalar_t in the store.
// kSplitTf32 is for float only.
//
// W-tap window (kWindow; forward, and grad_input where the W source step is 1): the taps of a phase
// that differ only along W read the same source row at shifts. So the GEMM rows are laid out as
// lines of extent_w + span positions (span = the phase's largest minus smallest W shift; the last
// span rows of each line are computed and dropped), and one A tile of BM + span consecutive source
// positions serves every W tap of a (D, H) tap and channel chunk: row m of tap t reads slot
// m + shift_t, which stays inside m's own line. A copies per MMA fall by the W tap count (5 for
// L1-68); the price is span / (extent_w + span) of the rows.
template <class Tile, typename scalar_t, bool kSplitTf32, int kStages, bool kWindow>
__global__ void __launch_bounds__(Tile::kThreads, Tile::kBlocksPerSm)
tconv_igemm_gather_tf32_kernel(const GatherArgs a) {
  constexpr bool kFloatData = std::is_same<scalar_t, float>::value;
  static_assert(kFloatData || !kSplitTf32, "3xTF32 is for fp32 data; fp16/bf16 run native k16 MMAs");
  static_assert(!(Tile::kWgmma && kSplitTf32), "3xTF32 runs on the mma.sync tiles");
  constexpr bool kSpecialized = Tile::kSpecialized;
  static_assert(!kSpecialized || kFloatData, "the warp-specialized tile copies by cp.async: fp32 data");
  // A K row of the tiles is one channel (fp32) or one channel pair (fp16/bf16, PairedRows).
  constexpr int kChannelsPerRow = kFloatData ? 1 : 2;
  using Layout = GatherStageLayout<Tile, kWindow>;
  constexpr int BM = Tile::kBlockM, BN = Tile::kBlockN, BK = Tile::kBlockK;
  constexpr int kLdA = Layout::kLdA, kLdC = Tile::kLdC, kStageA = Layout::kStageA,
                kStageFloats = Layout::kStageFloats, kBCopies = Tile::kBCopiesPerThread;
  // The wgmma tiles for fp32 data take each stage's B slice by one bulk copy, signalled on stage_full (see
  // load_stage). Not the 16-bit ones: run 113 (H200, bf16 forward, same machine, against cp.async pieces)
  // measured L2-61 1.352 -> 1.284 ms but DCGAN 0.355 -> 0.371 and L1-68 7.358 -> 7.447 (its 16-pair stages
  // carry 4 KB of B).
  constexpr bool kBulkB = Tile::kWgmma && kFloatData;
  constexpr uint32_t kStageBBytes = Tile::kStageB * sizeof(float);  // one stage's B slice (bulk copy)
  static_assert(!kBulkB || (Tile::kPackedBlockN == BN && kStageBBytes % 16 == 0),
                "the bulk copy takes a stage's B slice whole: one packed block, 16-byte multiples");
  constexpr int kRowStep = Tile::kThreadsPerRow;  // channel rows between one thread's A copies
  constexpr int kCopyThreads = Tile::kCopyThreads;
  // 16-bit data on the wgmma tile: the wgmmas read A from shared memory (warpgroup_issue_mma_shared_a's
  // K-major layout of four-pair rows; each thread copies groups of four pairs, PairedRows kGrouped),
  // so no A fragments are loaded into registers.
  constexpr bool kASharedByWgmma = Tile::kWgmma && !kFloatData;
  // Words of one A slot (GEMM row) per K row group: 4 in that layout (a group is four pairs, one word each,
  // and a thread's copies start at pair row_base * kARowWords), 1 in the others.
  constexpr int kARowWords = kASharedByWgmma ? 4 : 1;
  extern __shared__ __align__(16) float smem[];
  __shared__ int tap_lists[3][kMaxKernelPerDim][2];
  __shared__ int tap_counts[3];
  __shared__ float column_bias[BN];  // the block's bias per GEMM column (gather_stages counts it)
  __shared__ uint64_t stage_full[kBulkB ? kStages : 1], stage_empty[kSpecialized ? kStages : 1];
  int4* tap_table = reinterpret_cast<int4*>(smem + kStages * kStageFloats);

  // Phases vary fastest across blocks: the blocks of all phases of one M tile run together, so the
  // partial 32-byte sectors each phase writes (every s-th output along W) meet in L2 before they are
  // written back, instead of one phase's whole output reaching DRAM before the next phase starts.
  const int phase_count = a.phases[0] * a.phases[1] * a.phases[2];
  const int g = blockIdx.z;
  const int64_t m_tile = blockIdx.x / unsigned(phase_count);
  int r[3];
  phase_offsets(a, int(blockIdx.x % unsigned(phase_count)), r);
  int extent[3];
#pragma unroll
  for (int i = 0; i < 3; ++i) extent[i] = phase_extent(a, i, r[i]);
  const int64_t lines = int64_t(extent[0]) * extent[1] * a.batch;
  if (lines == 0 || extent[2] == 0) return;  // uniform per block
  const int n0 = blockIdx.y * BN;

  // The block's bias per GEMM column, added where the accumulators are staged for the store (stage_fragment),
  // so the store loops neither load nor add it: they re-read it per output element (run 57's source profile,
  // bf16 L2-61: the store loop held 13 % of the stall samples, most of them on those loads). GEMM column c of
  // the block is output channel (g * n_channels + n0 + c) / fold; fold divides n_channels (not always n0).
  // Published by the tap table's barriers.
  if (a.bias != nullptr) {  // uniform
    const int64_t first = int64_t(g) * a.n_channels + n0;
    for (int c = threadIdx.x; c < BN; c += Tile::kThreads)
      column_bias[c] = n0 + c < a.n_channels
                           ? to_acc(static_cast<const scalar_t*>(a.bias)[(first + c) / a.fold * a.bias_stride])
                           : 0.f;
  }
  if (kBulkB && threadIdx.x == 0) {  // published by the tap table's barriers (and to the TMA unit by the fence)
    for (int s = 0; s < kStages; ++s) {
      // Warp-specialized: one arrival per producer thread (its A copies) and the bulk copy's. Otherwise the
      // cp.async groups and the block barrier order A, and stage_full is the bulk copy's alone.
      mbarrier_init(&stage_full[s], kSpecialized ? kCopyThreads + 1 : 1);
      if (kSpecialized) mbarrier_init(&stage_empty[s], Tile::kMmaThreads);
    }
    fence_mbarrier_init();
  }
  const int taps = build_tap_table(a, r, tap_table, tap_lists, tap_counts);
  // Window geometry of this phase (without the window: one tap per group, no extra rows).
  int group_width = 1, w_first = 0, span = 0;
  if (kWindow) {
    group_width = tap_counts[2];
    int lo = 0, hi = 0;
    for (int i = 0; i < group_width; ++i) {
      const int shift = tap_lists[2][i][0];
      lo = i == 0 ? shift : min(lo, shift);
      hi = i == 0 ? shift : max(hi, shift);
    }
    w_first = lo;
    span = hi - lo;  // <= Tile::kMaxWindowSpan: the host takes the window only then
  }
  const int row_len = extent[2] + span;
  const int64_t M = lines * row_len;
  const int64_t m0 = m_tile * BM;
  if (m0 >= M) return;  // uniform per block
  // GEMM row (or A slot) q -> (image, d, h, w) in the phase's output grid, w < row_len.
  auto decode = [&](int64_t q, int (&j)[3], int64_t& n_img) {
    const RowCoords c = decode_row(q, extent[0], extent[1], row_len);
    j[0] = c.i0;
    j[1] = c.i1;
    j[2] = c.i2;
    n_img = c.outer;
  };

  const int tid = threadIdx.x;
  // The copying threads' index (warp-specialized: the producer warpgroup, after the MMA warps; the MMA
  // threads get 0 and copy nothing).
  const int copy_tid = !kSpecialized ? tid : (tid >= Tile::kMmaThreads ? tid - Tile::kMmaThreads : 0);
  const int m_local = copy_tid % BM;
  const int row_base = copy_tid / BM;  // this thread copies channel rows row_base + i * kRowStep
  const int64_t stride_c = a.src_stride[1], stride_d = a.src_stride[2], stride_h = a.src_stride[3],
                stride_w = a.src_stride[4];
  const int size_d = a.src_size[0], size_h = a.src_size[1], size_w = a.src_size[2];
  const scalar_t* src_base = static_cast<const scalar_t*>(a.src);
  const scalar_t* thread_src =
      src_base + (int64_t(g) * a.k_channels + kChannelsPerRow * kARowWords * row_base) * stride_c;
  // An A slot's source position before the tap shift (window: before the D/H shifts only, its W is
  // fixed); slots past the end get coordinates that fail every check.
  struct SlotSource {
    int64_t offset;
    int d, h, w;
  };
  auto make_slot = [&](int64_t q) {
    SlotSource s{0, -(1 << 30), 0, 0};
    if (q < M) {
      int j[3];
      int64_t n_img;
      decode(q, j, n_img);
      s.offset = n_img * a.src_stride[0];
      s.d = j[0] * a.src_step[0];
      s.h = j[1] * a.src_step[1];
      s.w = j[2] * a.src_step[2] + w_first;
    }
    return s;
  };
  const SlotSource slot = make_slot(m0 + m_local);
  // Window: the span slots past the tile's BM, copied by the first span threads of each row group.
  const bool has_tail_slot = kWindow && m_local < span;
  const SlotSource tail_slot = make_slot(kWindow ? m0 + BM + m_local : M);

  // B: a stage is one contiguous BK x BN slice of the packed weights (rows padded to k_pad and columns
  // to whole packed blocks with zeros, so no checks but the last N tile's missing block), copied in
  // 16-byte pieces: piece tid + i * kThreads.
  const int blocks_in_row = a.ldw / Tile::kPackedBlockN;
  constexpr int kBlockCols = Tile::kPackedBlockN;
  const float* thread_b = a.packed_weight + int64_t(g) * a.taps_total * a.k_pad * a.ldw +
                          int64_t(n0 / kBlockCols) * BK * kBlockCols + copy_tid * 4;
  bool b_piece_valid[kBCopies];
#pragma unroll
  for (int i = 0; i < kBCopies; ++i)
    b_piece_valid[i] = n0 / kBlockCols + (copy_tid + i * kCopyThreads) * 4 / (BK * kBlockCols) < blocks_in_row;
  const int64_t b_tap_step = int64_t(a.k_pad) * a.ldw;
  const int64_t b_chunk_step = int64_t(BK) * a.ldw;

  // K order: (tap group, channel chunk, W tap within the group); a group is one tap without the
  // window, the phase's W taps of one (D, H) tap with it.
  const int chunks_per_tap = (a.k_rows + BK - 1) / BK;
  const int iterations = taps * chunks_per_tap;
  int load_group = 0, load_chunk = 0, load_w = 0, load_window = 0;  // what the next load_stage fetches

  // The source of one A slot's copies at a tap and channel-row chunk c0 (an invalid position reads
  // nothing, from a harmless address that never moves).
  struct SlotCopy {
    const scalar_t* src;
    bool valid;
  };
  auto slot_copy = [&](const SlotSource& s, const int4& info, int c0) {
    const int pd = s.d + info.x, phh = s.h + info.y, pw = s.w + (kWindow ? 0 : info.z);
    const bool valid = unsigned(pd) < unsigned(size_d) && unsigned(phh) < unsigned(size_h) &&
                       unsigned(pw) < unsigned(size_w);
    return SlotCopy{valid ? thread_src + s.offset + pd * stride_d + phh * stride_h + pw * stride_w +
                                int64_t(kChannelsPerRow) * c0 * stride_c
                          : src_base,
                    valid};
  };
  constexpr int kRowsPerThread = BK / kRowStep;
  auto copy_slot = [&](const SlotSource& s, float* As, const int4& info, int c0) {
    const SlotCopy c = slot_copy(s, info, c0);
    const int64_t step = c.valid ? kRowStep * stride_c : 0;
    const int rows_left = a.k_channels - c0 - row_base;
    if (c0 + BK <= a.k_channels)
      copy_rows<kRowsPerThread, false>(As, kRowStep * kLdA, c.src, step, c.valid, rows_left, kRowStep, src_base);
    else
      copy_rows<kRowsPerThread, true>(As, kRowStep * kLdA, c.src, step, c.valid, rows_left, kRowStep, src_base);
  };
  // fp16/bf16: the channel pairs of the main slot wait in registers between fetch and store.
  using StagedPairs = PairedRows<kFloatData ? 1 : kRowsPerThread, kASharedByWgmma, GatherAdjacentLoads<Tile>::value>;
  StagedPairs staged;
  float* staged_at = nullptr;  // where they go (nullptr: nothing staged)
  // Floats between a thread's consecutive stored words (or, grouped, four-word groups), and from a
  // slot's words to the same words of the slot BM further on (the window's tail slot).
  constexpr int kStoreStep = kARowWords * kRowStep * kLdA;
  constexpr int kTailOffset = kARowWords * BM;
  auto fetch_pairs = [&](StagedPairs& rows, const SlotSource& s, const int4& info, int c0) {
    const SlotCopy c = slot_copy(s, info, c0);
    const unsigned short* src = reinterpret_cast<const unsigned short*>(c.src);
    const int channels_left = a.k_channels - 2 * (c0 + kARowWords * row_base);
    if (2 * (c0 + BK) <= a.k_channels)
      rows.template fetch<false>(src, stride_c, c.valid, channels_left, kRowStep);
    else
      rows.template fetch<true>(src, stride_c, c.valid, channels_left, kRowStep);
  };
  // The window's tail slot (the first span threads of each row group): staged the same way in the
  // shallow (16-pair) tiles; copied whole at store time in the others, where a second register set
  // spills (ptxas, sm_90a: 104-112 bytes in the 64-column mma.sync tile, 52 in the narrow one, against
  // 12 and 0). Copied at store time, its loads put one memory latency per stage on those warps, which
  // the next barrier makes everyone's (run 48, bf16 L1-71 forward, a shallow tile: 1.63 ms).
  constexpr bool kStagedTail = kWindow && !kFloatData && BK == kShallowGatherBlockK;
  PairedRows<kStagedTail ? kRowsPerThread : 1, kStagedTail && kASharedByWgmma, GatherAdjacentLoads<Tile>::value>
      staged_tail;
  bool tail_pending = false;
  int4 tail_info{};
  int tail_c0 = 0;
  auto load_stage = [&](int stage) {
    const int4 info = tap_table[load_group * group_width + load_w];
    const int c0 = load_chunk * BK;
    if (!kWindow || load_w == 0) {
      float* As = smem + (kWindow ? load_window : stage) * kStageFloats + row_base * kLdA * kARowWords;
      float* slot_at = As + (kASharedByWgmma || kWindow ? kARowWords * m_local : a_fragment_slot(m_local));
      if constexpr (kFloatData) {
        copy_slot(slot, slot_at, info, c0);
        if (has_tail_slot) copy_slot(tail_slot, As + BM + m_local, info, c0);
      } else {
        fetch_pairs(staged, slot, info, c0);
        staged_at = slot_at;
        tail_pending = has_tail_slot;
        if constexpr (kStagedTail) {
          if (has_tail_slot) fetch_pairs(staged_tail, tail_slot, info, c0);
        } else {
          tail_info = info;
          tail_c0 = c0;
        }
      }
    }
    float* Bs = smem + stage * kStageFloats + kStageA + copy_tid * 4;
    const float* b_src = thread_b + info.w * b_tap_step + load_chunk * b_chunk_step;
    if constexpr (kBulkB) {
      // The whole slice in one bulk copy by the first copying thread. Why: in run 110's source profile (L2-61,
      // TF32, the warp-specialized tile) the MMA warps spent a quarter of all stall samples waiting for
      // stage_full, while each producer warp spent ~90 of its ~190 instructions per stage on the B pieces'
      // addresses, checks and copies. The slice is whole here: the wgmma tiles pack blocks of BN columns and
      // ldw is a multiple of BN, so b_piece_valid is always true.
      if (copy_tid == 0) {
        mbarrier_arrive_expect_tx(&stage_full[stage], kStageBBytes);
        bulk_copy_to_shared(Bs, b_src, kStageBBytes, &stage_full[stage]);
      }
    } else {
#pragma unroll
      for (int i = 0; i < kBCopies; ++i)
        cp_async_16(Bs + i * kCopyThreads * 4, b_piece_valid[i] ? b_src + i * kCopyThreads * 4 : a.packed_weight,
                    b_piece_valid[i]);
    }
    if (++load_w == group_width) {
      load_w = 0;
      // Window buffers cycle like the stages, one per (group, chunk): buffer x is rewritten only
      // kStages groups later, which is at least kStages iterations, the same distance as a stage.
      load_window = load_window + 1 == kStages ? 0 : load_window + 1;
      if (++load_chunk == chunks_per_tap) {
        load_chunk = 0;
        ++load_group;
      }
    }
  };
  // The second half of a 16-bit stage's A copy (nothing for fp32, whose cp.async copies are complete):
  // called after the MMAs of the current stage are issued, before the barrier that publishes the stage.
  auto store_stage = [&]() {
    if constexpr (!kFloatData) {
      if (staged_at != nullptr) {
        staged.store(staged_at, kStoreStep);
        if (tail_pending) {  // window only, whose main slot sits at m_local: the tail slot is BM on
          if constexpr (kStagedTail) {
            staged_tail.store(staged_at + kTailOffset, kStoreStep);
          } else {
            // Not before the main slot's stores: its registers are free only after them.
            asm volatile("" ::: "memory");
            StagedPairs tail;
            fetch_pairs(tail, tail_slot, tail_info, tail_c0);
            tail.store(staged_at + kTailOffset, kStoreStep);
          }
          tail_pending = false;
        }
        staged_at = nullptr;
      }
    }
  };
  // The compute side's A tile: the stage's own (natural or fragment-paired order), or the window
  // buffer of its (group, chunk) at the W tap's shift.
  int read_w = 0, read_window = 0, read_chunk = 0;
  // K rows of the stage being read that exist (a partial last chunk of each tap is zero-padded): the
  // mma.sync kernels skip the padding's k8 steps for fp16/bf16 (whose <= 32-channel calls fill half a
  // chunk); fp32 keeps its code as it was measured.
  auto read_rows = [&]() { return min(BK, a.k_rows - read_chunk * BK); };
  auto a_tile = [&](int read_stage) -> const float* {
    if (!kWindow) return smem + read_stage * kStageFloats;
    return smem + read_window * kStageFloats + (tap_lists[2][read_w][0] - w_first) * kARowWords;
  };
  auto advance_read = [&]() {
    if (++read_w == group_width) {  // always, without the window (one tap per group)
      read_w = 0;
      read_chunk = read_chunk + 1 == chunks_per_tap ? 0 : read_chunk + 1;
      read_window = read_window + 1 == kStages ? 0 : read_window + 1;
    }
  };

  const int warp = tid / 32, lane = tid % 32;
  const int warp_m = warp % Tile::kWarpsM, warp_n = warp / Tile::kWarpsM;
  const int gid = lane / 4, tig = lane % 4;
  float acc[2][4][4];  // mma.sync: the warp's 32x32 tile
  zero_tile(acc);
  float wg_acc[BN / 2];  // wgmma: this thread's part of its warpgroup's 64 x BN tile
#pragma unroll
  for (int i = 0; i < BN / 2; ++i) wg_acc[i] = 0.f;
  const int wg_row = (warp / 4) * 64 + (warp % 4) * 16;  // wgmma: this warp's 16 rows

  if constexpr (kSpecialized) {
    // Warp-specialized: the producer warpgroup fills stage (it mod kStages) once the MMA warps have
    // released what it held (iteration it - kStages) and signals it on stage_full; each MMA warp waits for
    // it, issues its wgmmas, and releases the previous stage once that stage's wgmmas have completed. The
    // W-tap window's A buffer of a (group, chunk) is written at the group's first W tap and read until its
    // last; it is rewritten kStages groups later, at an iteration whose wait covers the release of every
    // iteration before it (the MMA warps release in order).
    if (tid >= Tile::kMmaThreads) {
      int stage = 0;
      uint32_t empty_parity = 0;
      for (int it = 0; it < iterations; ++it) {
        if (it >= kStages) mbarrier_wait(&stage_empty[stage], empty_parity);
        load_stage(stage);
        mbarrier_arrive_on_copies(&stage_full[stage]);
        if (++stage == kStages) {
          stage = 0;
          if (it >= kStages) empty_parity ^= 1;
        }
      }
    } else {
      int read_stage = 0, release_stage = 0;
      uint32_t full_parity = 0;
      uint32_t a_even[BK / 8][4], a_odd[BK / 8][4];
      auto step = [&](int it, uint32_t (&a_frag)[BK / 8][4], const uint32_t (&a_previous)[BK / 8][4]) {
        // B arrived through the async proxy (bulk copy), the one wgmma reads, and A is read by the loads
        // below: no proxy fence.
        mbarrier_wait(&stage_full[read_stage], full_parity);
        load_warpgroup_a<false, BK, kWindow>(a_frag, a_tile(read_stage), kLdA, wg_row, lane);
        warpgroup_issue_mma<BN, BK, scalar_t>(wg_acc, a_frag, smem + read_stage * kStageFloats + kStageA);
        wgmma_wait<1>();
        keep_registers_until_here<BK>(a_previous);  // as in the wgmma pipeline below
        // Every MMA thread arrives: an arrive releases only the arriving thread's own accesses (its A fragment
        // loads from the stage), so one arrive per warp after __syncwarp left the other lanes' loads unordered
        // with the producer's next writes in the memory model (racecheck, run 107: 48 hazards).
        if (it > 0) mbarrier_arrive(&stage_empty[release_stage]);
        release_stage = read_stage;
        advance_read();
        if (++read_stage == kStages) {
          read_stage = 0;
          full_parity ^= 1;
        }
      };
      run_paired_steps(iterations, step, a_even, a_odd);
    }
  } else if constexpr (Tile::kWgmma) {
    // Asynchronous MMAs: stage it's wgmmas are still running while stage it + 1 is prepared, so
    // loads run kStages - 2 stages ahead (the slot they overwrite was read by the wgmmas of it - 2,
    // which every warpgroup has waited for before the barrier), and the A fragments alternate
    // between two register sets (a set may be rewritten only after its wgmmas completed).
    static_assert(kStages >= 3, "wgmma pipeline: one stage computing, one in flight, one loading");
#pragma unroll
    for (int s = 0; s < kStages - 2; ++s) {
      if (s < iterations) load_stage(s);
      cp_async_commit();
      store_stage();
    }
    int read_stage = 0, write_stage = kStages - 2;
    uint32_t full_parity = 0;
    uint32_t a_even[BK / 8][4], a_odd[BK / 8][4];
    auto step = [&](int it, uint32_t (&a_frag)[BK / 8][4], const uint32_t (&a_previous)[BK / 8][4]) {
      cp_async_wait<kStages - 3>();
      // 16-bit A tiles and cp.async-copied B, stored through the generic proxy, are read by the wgmmas (the
      // async proxy); fp32 A is read by the fragment loads, and bulk-copied B arrives through the async proxy.
      if constexpr (kASharedByWgmma || !kBulkB) fence_generic_to_async_shared();
      __syncthreads();
      // Every thread waited for the bulk copy of the stage rewritten here two iterations ago, before this
      // barrier, so the arrival below starts the barrier's next phase.
      if (it + kStages - 2 < iterations) load_stage(write_stage);
      cp_async_commit();
      if constexpr (kBulkB) mbarrier_wait(&stage_full[read_stage], full_parity);
      if constexpr (kASharedByWgmma) {
        const float* warpgroup_rows = a_tile(read_stage) + kARowWords * (warp / 4) * 64;
        warpgroup_issue_mma_shared_a<BN, BK, scalar_t>(wg_acc, warpgroup_rows, kLdA,
                                                       smem + read_stage * kStageFloats + kStageA);
      } else {
        load_warpgroup_a<!kFloatData, BK, kWindow>(a_frag, a_tile(read_stage), kLdA, wg_row, lane);
        warpgroup_issue_mma<BN, BK, scalar_t>(wg_acc, a_frag, smem + read_stage * kStageFloats + kStageA);
      }
      store_stage();
      wgmma_wait<1>();
      // The previous set is free from here on; until here the compiler must not give its registers to
      // this stage's set (it would, seeing no later use, and ptxas would then serialize the wgmmas).
      if constexpr (!kASharedByWgmma) keep_registers_until_here<BK>(a_previous);
      advance_read();
      if (++read_stage == kStages) {
        read_stage = 0;
        full_parity ^= 1;
      }
      write_stage = write_stage + 1 == kStages ? 0 : write_stage + 1;
    };
    run_paired_steps(iterations, step, a_even, a_odd);
  } else {
#pragma unroll
    for (int s = 0; s < kStages - 1; ++s) {
      if (s < iterations) load_stage(s);
      cp_async_commit();
      store_stage();
    }
    int read_stage = 0, write_stage = kStages - 1;
    for (int it = 0; it < iterations; ++it) {
      cp_async_wait<kStages - 2>();
      __syncthreads();
      if (it + kStages - 1 < iterations) load_stage(write_stage);
      cp_async_commit();
      // B holds TF32-rounded weights in TF32 mode (packed that way), raw fp32 in exact mode, channel
      // pairs for fp16/bf16.
      warp_tile_mma<kSplitTf32, !kFloatData, !kSplitTf32, BK, kWindow, scalar_t>(
          acc, a_tile(read_stage), kLdA, smem + read_stage * kStageFloats + kStageA + warp_n * BK * kBlockCols,
          warp_m * 32, lane, kFloatData ? BK : read_rows());
      store_stage();
      advance_read();
      read_stage = read_stage + 1 == kStages ? 0 : read_stage + 1;
      write_stage = write_stage + 1 == kStages ? 0 : write_stage + 1;
    }
  }
  cp_async_wait<0>();
  __syncthreads();

  // Epilogue: stage the tile as [N][M] so each thread then writes its own output position for a
  // run of channels: stores are coalesced along W for every channel.
  float* Cs = smem;
  // One m16n8 accumulator fragment (rows row, row + 8; columns col, col + 1) into Cs, with the bias of
  // its columns (the accumulators start at zero: starting them at the bias made NVVM share registers
  // between fragment elements of one column, and the copies that needed serialized every wgmma, C7511).
  const bool has_bias = a.bias != nullptr;
  // A 16-bit channels-innermost destination (channels_last, no W fold) takes the tile as [M][N] instead, and the
  // stores run along the channels, whole positions per warp (store_staged_position). Why: stores along W land a
  // position's stride apart, one 2-byte element per sector (run 461, H200, channels-last bf16: fam13's forward 3.046
  // ms against the contiguous layout's 0.707, fam10's 2.235 against 0.518; ~65 G output elements/s on both). fp32
  // data take it only under gather_fp32_channels_last_epilogue, and only in the plain wgmma tiles: the second epilogue
  // made ptxas spill in the warp-specialized 128-column TF32 tile (sm_90a, 8 bytes), and in the 64-row mma.sync tiles
  // (128 registers at two blocks an SM; sm_80, session 115's compile check).
  const bool row_major = (!kFloatData || (Tile::kWgmma && !kSpecialized && a.float_row_major)) &&
                         a.dst_stride[1] == 1 && a.fold == 1;
  constexpr int kLdRow = Tile::kLdCRowMajor;
  auto stage_fragment = [&](int row, int col, float c0, float c1, float c2, float c3) {
    const float b0 = has_bias ? column_bias[col] : 0.f, b1 = has_bias ? column_bias[col + 1] : 0.f;
    if (row_major) {
      *reinterpret_cast<float2*>(Cs + row * kLdRow + col) = make_float2(c0 + b0, c1 + b1);
      *reinterpret_cast<float2*>(Cs + (row + 8) * kLdRow + col) = make_float2(c2 + b0, c3 + b1);
      return;
    }
    Cs[col * kLdC + row] = c0 + b0;
    Cs[(col + 1) * kLdC + row] = c1 + b1;
    Cs[col * kLdC + row + 8] = c2 + b0;
    Cs[(col + 1) * kLdC + row + 8] = c3 + b1;
  };
  if constexpr (Tile::kWgmma) {
    // Accumulator i = 4 j + 2 h + l of a warpgroup's m64nBN tile: row 16 w + gid + 8 h, column 8 j + 2 tig + l.
#pragma unroll
    for (int j = 0; j < BN / 8; ++j)
      if (!kSpecialized || tid < Tile::kMmaThreads)  // not the producer warps
        stage_fragment(wg_row + gid, j * 8 + 2 * tig, wg_acc[4 * j], wg_acc[4 * j + 1], wg_acc[4 * j + 2],
                       wg_acc[4 * j + 3]);
  } else {
#pragma unroll
    for (int mt = 0; mt < 2; ++mt)
#pragma unroll
      for (int nt = 0; nt < 4; ++nt)
        stage_fragment(warp_m * 32 + mt * 16 + gid, warp_n * 32 + nt * 8 + 2 * tig, acc[mt][nt][0], acc[mt][nt][1],
                       acc[mt][nt][2], acc[mt][nt][3]);
  }
  if (a.fold > 1) {  // uniform per call
    store_folded_tile<BM, BN, kLdC, Tile::kThreads, scalar_t>(a, Cs, smem + BN * kLdC, m0, M, n0, g, r, extent,
                                                              decode);
    return;
  }
  // [M][N]: each row's output offset (-1: none) decoded once, into shared memory past the staged tile, where the
  // stores below would decode each row in every lane that stores it (8 decodes a thread at 64 columns, 64-bit
  // divisions, on calls of one tap per phase such as fam13's, whose blocks do little else)
  int64_t* const row_offset = reinterpret_cast<int64_t*>(Cs + BM * kLdRow);
  if (row_major) {
    for (int m = tid; m < BM; m += Tile::kThreads) {
      int64_t offset = -1;
      if (m0 + m < M) {
        int j[3];
        int64_t n_img;
        decode(m0 + m, j, n_img);
        if (j[2] < extent[2]) offset = phase_position_offset(a, n_img, r, j);  // not a window line's extra row
      }
      row_offset[m] = offset;
    }
  }
  __syncthreads();
  const int columns = min(BN, a.n_channels - n0);
  if (row_major) {
    const int64_t first_channel = int64_t(g) * a.n_channels + n0;
    scalar_t* const first = static_cast<scalar_t*>(a.dst) + first_channel;
    const bool by_four = channels_last_by_four<scalar_t>(a, first_channel, columns);
    const ChannelsLastLanes split = channels_last_lanes(columns, by_four, lane);
    for (int m = warp * split.per_warp + split.position; m < BM; m += Tile::kThreads / 32 * split.per_warp) {
      const int64_t offset = row_offset[m];
      if (offset >= 0)
        store_staged_position(first + offset, Cs + m * kLdRow, columns, split.sub_lane, split.lanes, by_four);
    }
    return;
  }
  // Stores: thread (store_row, store_m) writes row store_m's channels store_row + i * kStoreRowStep.
  constexpr int kStoreRowStep = Tile::kStoreRowStep;
  const int store_m = tid % BM, store_row = tid / BM;
  const int64_t m = m0 + store_m;
  if (m >= M) return;
  int j[3];
  int64_t n_img;
  decode(m, j, n_img);
  if (j[2] >= extent[2]) return;  // a window line's extra rows
  scalar_t* dst_pos = static_cast<scalar_t*>(a.dst) + phase_position_offset(a, n_img, r, j);
  scalar_t* out = dst_pos + (int64_t(g) * a.n_channels + n0 + store_row) * a.dst_stride[1];
  // (the staged tile holds the bias)
  store_staged_columns<kStoreRowStep, kLdC>(out, a.dst_stride[1], Cs + store_row * kLdC + store_m, store_row, columns);
}

struct WeightGradArgs {
  const void* x;   // scalar_t input
  const void* dy;  // scalar_t grad_output
  float* partial;  // [splits][C_in][C_out/groups][taps]; ordered split-K: [turn_buffers][C_in][C_out/groups][taps]
  // Ordered split-K (plan_grad_weight: where the workspace cap leaves fewer splits than the GPU needs): split s adds
  // into buffer s % turn_buffers after split s - turn_buffers. [0] hands out block tickets, [1 + b * tiles + tile]
  // counts the splits that have added into buffer b's tile. nullptr: every split writes its own slice of `partial`;
  // either way sum_splits adds the slices.
  int* split_turns;
  int turn_buffers;
  int64_t x_stride[5];
  int64_t dy_stride[5];
  int in_size[3], out_size[3];
  int groups, cin_g, cout_g, taps;
  int kernel[3], stride[3], padding[3], dilation[3];
  int w_groups;     // W tap groups (weight_w_tap_groups) per (kd, kh)
  int max_taps;     // taps per W group (the tile's kMaxTaps)
  int w_chunks;     // BK-wide chunks per input row
  int64_t units;    // batch x D x H input rows x w_chunks: the GEMM's K in stages
  int64_t chunk;    // units per split
  int64_t weight_numel;
  // The W fold (grad_weight_fold_shape): the call describes the forward's folded problem (cout_g = s columns per
  // output channel, W taps T at stride 1); grad_output row u of column c is the real tensor's channel c / fold
  // at W fold * u + c % fold - fold_padding, which exists below fold_out_w. Unfolded: 1, 0 and out_size[2].
  int fold, fold_padding, fold_out_w;
  // What the stage cursor adds to its x and grad_output row offsets when the input row moves to the next H row,
  // to the next D row (H wrapping), and to the next image (D and H wrapping): set_weight_grad_row_steps.
  int64_t x_row_step[3], dy_row_step[3];
};

// Which tile and split of K a grad_weight block computes. Plain split-K: blockIdx.x and blockIdx.y. Ordered
// split-K: the block's ticket t from an atomic counter (split t / tiles, tile t % tiles), so tickets follow the
// order in which blocks start: a block waiting for split s - turn_buffers of its tile (weight_sums_destination) waits
// on a block that took a smaller ticket and is therefore running or done, whatever order the hardware issues blocks
// in.
struct WeightWork {
  int tile, split;
};
// Ordered split-K: the buffer the block's split adds into and its turn there (split % turn_buffers and split /
// turn_buffers), which weight_block_work's thread 0 sets: dividing in the epilogue, where the sums are live, made
// ptxas spill in the 16-bit shifted-x kernels (session 70, sm_90a: <48, 2-5> 0-8 -> 20 bytes of stores).
__device__ __forceinline__ int* weight_sums_buffer_turn() {
  __shared__ int buffer_turn[2];
  return buffer_turn;
}
// The work stays in registers over the main loop: re-reading it from shared memory in the epilogue instead made
// ptxas spill in the register-capped three-tap kernels (sm_90a, TF32: the wgmma one 24/40 -> 64/108 bytes).
__device__ __forceinline__ WeightWork weight_block_work(const WeightGradArgs& a) {
  if (a.split_turns == nullptr) return WeightWork{int(blockIdx.x), int(blockIdx.y)};
  __shared__ int ticket;
  if (threadIdx.x == 0) {
    const int t = atomicAdd(a.split_turns, 1), split = t / int(gridDim.x);
    ticket = t;
    weight_sums_buffer_turn()[0] = split % a.turn_buffers;
    weight_sums_buffer_turn()[1] = split / a.turn_buffers;
  }
  __syncthreads();
  return WeightWork{ticket % int(gridDim.x), ticket / int(gridDim.x)};
}
__device__ __forceinline__ int load_acquire_gpu(const int* p) {
  int v;
  asm volatile("ld.acquire.gpu.global.b32 %0, [%1];\n" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void store_release_gpu(int* p, int v) {
  asm volatile("st.release.gpu.global.b32 [%0], %1;\n" ::"l"(p), "r"(v) : "memory");
}
// The ordered epilogue's barrier over the threads that hold sums: the whole block (kSumThreads 0), or threads
// 0 .. kSumThreads - 1 on named barrier 1 in the warp-specialized kernels, whose producer warpgroup holds none and
// leaves. (It used to pass the same __syncthreads from its own branch: warps at different aligned barrier
// instructions, undefined in PTX and flagged by synccheck, run 182.)
template <int kSumThreads>
__device__ __forceinline__ void weight_sums_barrier() {
  if constexpr (kSumThreads == 0)
    __syncthreads();
  else
    asm volatile("bar.sync 1, %0;\n" ::"n"(kSumThreads) : "memory");
}
// Ordered split-K: the split counter of the block's buffer and tile (split_turns).
__device__ __forceinline__ int* weight_sums_turn(const WeightGradArgs& a, WeightWork w) {
  return a.split_turns + 1 + int64_t(weight_sums_buffer_turn()[0]) * gridDim.x + w.tile;
}
// Whether the block adds its sums to those already in its destination (ordered split-K past a buffer's first split).
__device__ __forceinline__ bool weight_sums_add(const WeightGradArgs& a, WeightWork w) {
  return a.split_turns != nullptr && w.split >= a.turn_buffers;
}
// The block's destination for its sums. Ordered: waits until the splits before it in its buffer have added theirs
// (a fixed order, so the result is deterministic); a buffer's first split stores, the later ones add.
template <int kSumThreads = 0>
__device__ __forceinline__ float* weight_sums_destination(const WeightGradArgs& a, WeightWork w) {
  if (a.split_turns == nullptr) return a.partial + int64_t(w.split) * a.weight_numel;
  if (w.split >= a.turn_buffers) {
    if (threadIdx.x == 0)
      while (load_acquire_gpu(weight_sums_turn(a, w)) != weight_sums_buffer_turn()[1]) __nanosleep(64);
    weight_sums_barrier<kSumThreads>();
  }
  return a.partial + int64_t(weight_sums_buffer_turn()[0]) * a.weight_numel;
}
// add: ordered split-K past a buffer's first split. The earlier sums are read from L2 (__ldcg): another SM wrote
// them, and this SM's L1 may hold an older copy.
__device__ __forceinline__ void store_weight_sum(float* dst, float v, bool add) {
  if (add) v += __ldcg(dst);
  *dst = v;
}
// Ordered: every thread's sums reach the GPU scope before the tile's next split may read them.
template <int kSumThreads = 0>
__device__ __forceinline__ void pass_split_turn(const WeightGradArgs& a, WeightWork w) {
  if (a.split_turns == nullptr) return;
  __threadfence();
  weight_sums_barrier<kSumThreads>();
  if (threadIdx.x == 0) store_release_gpu(weight_sums_turn(a, w), weight_sums_buffer_turn()[1] + 1);
}
// A thread's kCount sums stored 8 at a time; add (weight_sums_add): the 8 earlier sums are read before
// any is written, so their L2 round trips overlap (one read-modify-write at a time would wait kCount times per thread
// while the tile's later splits wait on this one). inside(i): whether accumulator i lies inside the weight (a partial
// tile's padding rows and columns are not stored); element(i): its address. Both are evaluated where they are used,
// as the two kernels' own loops did: holding the 8 addresses across the reads made ptxas spill there.
template <int kCount, class Inside, class Element>
__device__ __forceinline__ void store_weight_sums_by_eights(bool add, const float (&acc)[kCount], Inside inside,
                                                            Element element) {
  static_assert(kCount % 8 == 0, "whole batches of 8");
#pragma unroll
  for (int b0 = 0; b0 < kCount; b0 += 8) {
    float earlier[8];
#pragma unroll
    for (int b = 0; b < 8; ++b) earlier[b] = add && inside(b0 + b) ? __ldcg(element(b0 + b)) : 0.f;
#pragma unroll
    for (int b = 0; b < 8; ++b)
      if (inside(b0 + b)) *element(b0 + b) = acc[b0 + b] + earlier[b];
  }
}

// A grad_weight block: (kd, kh, W tap group, group, C_out tile, C_in tile) from the work's tile, one split
// of K (input rows x W chunks) from its split. Shared by the mma.sync and wgmma kernels.
struct WeightBlock {
  int ci0, co0, g, kd, kh;
  WTapGroup taps;
  int64_t u_begin, u_end;
};
// kh_block: kH rows per block (the rows kernel's warpgroups; b.kh is its first).
__device__ __forceinline__ WeightBlock decode_weight_block(const WeightGradArgs& a, WeightWork work, int ci_block,
                                                           int co_block, int max_shift, int kh_block = 1) {
  const int ci_tiles = (a.cin_g + ci_block - 1) / ci_block, co_tiles = (a.cout_g + co_block - 1) / co_block;
  WeightBlock b;
  int tile = work.tile;
  b.ci0 = (tile % ci_tiles) * ci_block; tile /= ci_tiles;
  b.co0 = (tile % co_tiles) * co_block; tile /= co_tiles;
  b.g = tile % a.groups; tile /= a.groups;
  const int w_group = tile % a.w_groups; tile /= a.w_groups;
  const int kh_tiles = (a.kernel[1] + kh_block - 1) / kh_block;
  b.kh = tile % kh_tiles * kh_block;
  b.kd = tile / kh_tiles;
  b.taps = WTapGroup{0, 1, 0, 0};
  weight_w_tap_groups(a.kernel[2], a.stride[2], a.dilation[2], a.max_taps, max_shift, w_group, &b.taps);
  b.u_begin = int64_t(work.split) * a.chunk;
  b.u_end = b.u_begin + a.chunk < a.units ? b.u_begin + a.chunk : a.units;
  return b;
}
// The next stage's input row (n, id, ih) and W chunk wc, advanced with carries (block-uniform).
// kIncremental (the mma.sync kernel): it also keeps the row's grad_output D/H position at the block's (kd, kh) tap
// and both tensors' 64-bit row offsets, updated by additions. Why: run 86's source profile (TF32 DCGAN, the
// 64-wide two-tap kernel) counted ~100 of the ~364 instructions a warp issues per stage (32 HMMAs) in recomputing
// those offsets from (n, id, ih) with 64-bit multiplies every stage. Measured with the balanced splits (run 88,
// same-machine A/B against cdf06d9, TF32 fwd+bwd), much less than that count suggested: the kernel is latency-
// bound at 8-12 warps per SM, not issue-bound. The wgmma kernel keeps the per-stage form: with the running
// offsets its three-tap kernels, held to 168 registers, spilled more (sm_90a bf16: 44/76 -> 72/156 bytes of
// spill stores/loads) and L2-61's fwd+bwd went 6.606 -> 6.779 ms (TF32, run 87) and 5.72 -> 6.09 (bf16, runs
// 88-89, with the splits unchanged).
template <bool kIncremental>
struct WeightStageCursor {
  int wc, ih, id;
  int64_t n, u;
  int od, oh;             // kIncremental: grad_output D/H of input row (id, ih) at the block's tap (may lie outside)
  int64_t x_row, dy_row;  // kIncremental: n * stride0 + (i)d * stride2 + (i)h * stride3 of x and grad_output
  __device__ __forceinline__ void advance(const WeightGradArgs& a) {
    ++u;
    if constexpr (!kIncremental) {
      if (++wc == a.w_chunks) {
        wc = 0;
        if (++ih == a.in_size[1]) {
          ih = 0;
          if (++id == a.in_size[0]) {
            id = 0;
            ++n;
          }
        }
      }
    } else if (++wc == a.w_chunks) {
      wc = 0;
      if (++ih < a.in_size[1]) {
        oh += a.stride[1];
        x_row += a.x_row_step[0];
        dy_row += a.dy_row_step[0];
        return;
      }
      ih = 0;
      oh -= (a.in_size[1] - 1) * a.stride[1];
      if (++id < a.in_size[0]) {
        od += a.stride[0];
        x_row += a.x_row_step[1];
        dy_row += a.dy_row_step[1];
        return;
      }
      id = 0;
      ++n;
      od -= (a.in_size[0] - 1) * a.stride[0];
      x_row += a.x_row_step[2];
      dy_row += a.dy_row_step[2];
    }
  }
};
template <bool kIncremental>
__device__ __forceinline__ WeightStageCursor<kIncremental> weight_stage_cursor(const WeightGradArgs& a,
                                                                               const WeightBlock& blk) {
  const int64_t row = blk.u_begin / a.w_chunks;
  WeightStageCursor<kIncremental> c;
  c.wc = int(blk.u_begin - row * a.w_chunks);
  c.ih = int(row % a.in_size[1]);
  c.id = int((row / a.in_size[1]) % a.in_size[0]);
  c.n = row / (int64_t(a.in_size[1]) * a.in_size[0]);
  c.u = blk.u_begin;
  if constexpr (kIncremental) {
    c.od = c.id * a.stride[0] + blk.kd * a.dilation[0] - a.padding[0];
    c.oh = c.ih * a.stride[1] + blk.kh * a.dilation[1] - a.padding[1];
    c.x_row = c.n * a.x_stride[0] + c.id * a.x_stride[2] + c.ih * a.x_stride[3];
    c.dy_row = c.n * a.dy_stride[0] + c.od * a.dy_stride[2] + c.oh * a.dy_stride[3];
  }
  return c;
}

// What one thread copies in every stage of a grad_weight block: its channel rows of x, of the
// grad_output strip and of the strip's tail (shifted taps), its columns within a stage, and the
// block's tap offsets. Fixed over the stages; weight_stage_sources turns it into each stage's sources.
template <typename scalar_t>
struct WeightStageThread {
  const scalar_t *x_base, *dy_base;  // the zero-fill fallbacks of invalid copies
  const scalar_t *x, *dy, *dy_tail;  // this thread's channel rows
  int x_col, dy_col, tail_col;       // its columns within a stage
  int od0, oh0, ow_base;             // grad_output D/H of input (0, 0) at this tap; strip column 0's W
  int dy_w, tail_w;                  // the W offset of its grad_output rows (fold: c % fold - fold_padding)
  int64_t dy_pass, tail_pass;        // from one of its grad_output rows to the next
};
// x_ci / dy_co / tail_co: the thread's first channel row in the block's C_in / C_out tile; dy_rows /
// tail_rows: the rows between its copies (the fold divides both, so all its rows share one W offset).
template <typename scalar_t>
__device__ __forceinline__ WeightStageThread<scalar_t> weight_stage_thread(const WeightGradArgs& a,
                                                                           const WeightBlock& blk, int x_ci,
                                                                           int x_col, int dy_co, int dy_col,
                                                                           int tail_co, int tail_col, int dy_rows,
                                                                           int tail_rows) {
  WeightStageThread<scalar_t> t;
  t.x_base = static_cast<const scalar_t*>(a.x);
  t.dy_base = static_cast<const scalar_t*>(a.dy);
  t.x = t.x_base + (int64_t(blk.g) * a.cin_g + blk.ci0 + x_ci) * a.x_stride[1];
  const int64_t dy_c = int64_t(blk.g) * a.cout_g + blk.co0 + dy_co, tail_c = int64_t(blk.g) * a.cout_g + blk.co0 + tail_co;
  t.dy = t.dy_base + dy_c / a.fold * a.dy_stride[1];
  t.dy_tail = t.dy_base + tail_c / a.fold * a.dy_stride[1];
  t.dy_w = int(dy_c % a.fold) - a.fold_padding;
  t.tail_w = int(tail_c % a.fold) - a.fold_padding;
  t.dy_pass = dy_rows / a.fold * a.dy_stride[1];
  t.tail_pass = tail_rows / a.fold * a.dy_stride[1];
  t.x_col = x_col;
  t.dy_col = dy_col;
  t.tail_col = tail_col;
  t.od0 = blk.kd * a.dilation[0] - a.padding[0];
  t.oh0 = blk.kh * a.dilation[1] - a.padding[1];
  t.ow_base = blk.taps.kw0 * a.dilation[2] - a.padding[2];  // strip column c reads W s*(iw0 + c) + ow_base
  return t;
}
template <typename scalar_t>
struct WeightStageSources {
  const scalar_t *x, *dy, *tail;
  bool x_valid, dy_valid, tail_valid;
};
// The stage at `cur` (block-uniform input row and W chunk): each copy's source and whether it lies
// inside its tensor (an invalid copy reads the base pointer and writes zeros).
template <int BK, bool kIncremental, typename scalar_t>
__device__ __forceinline__ WeightStageSources<scalar_t> weight_stage_sources(const WeightGradArgs& a,
                                                                             const WeightStageThread<scalar_t>& t,
                                                                             const WeightStageCursor<kIncremental>& cur,
                                                                             int64_t u_end) {
  const int iw0 = cur.wc * BK;
  const int od = kIncremental ? cur.od : cur.id * a.stride[0] + t.od0,
            oh = kIncremental ? cur.oh : cur.ih * a.stride[1] + t.oh0;
  const bool row_valid =
      cur.u < u_end && unsigned(od) < unsigned(a.out_size[0]) && unsigned(oh) < unsigned(a.out_size[1]);
  const int ix = iw0 + t.x_col;
  // W in the real grad_output (fold: row u of the folded problem lies at fold * u + c % fold - fold_padding)
  const int ow = a.fold * (a.stride[2] * (iw0 + t.dy_col) + t.ow_base) + t.dy_w,
            ow_tail = a.fold * (a.stride[2] * (iw0 + t.tail_col) + t.ow_base) + t.tail_w;
  WeightStageSources<scalar_t> s;
  s.x_valid = cur.u < u_end && ix < a.in_size[2];
  s.dy_valid = row_valid && unsigned(ow) < unsigned(a.fold_out_w);
  s.tail_valid = row_valid && unsigned(ow_tail) < unsigned(a.fold_out_w);
  const int64_t x_row = kIncremental ? cur.x_row
                                     : cur.n * a.x_stride[0] + cur.id * a.x_stride[2] + cur.ih * a.x_stride[3];
  const int64_t dy_row = kIncremental ? cur.dy_row : cur.n * a.dy_stride[0] + od * a.dy_stride[2] + oh * a.dy_stride[3];
  s.x = s.x_valid ? t.x + x_row + ix * a.x_stride[4] : t.x_base;
  s.dy = s.dy_valid ? t.dy + dy_row + ow * a.dy_stride[4] : t.dy_base;
  s.tail = s.tail_valid ? t.dy_tail + dy_row + ow_tail * a.dy_stride[4] : t.dy_base;
  return s;
}

// Block: (kd, kh, W tap group, group, C_out tile, C_in tile) x one split of K. Each stage is one
// BK-wide chunk of one input row, the same for every thread, so the row's grad_output (D, H)
// position and its validity are block-uniform; per thread only the W column varies.
// kMaxTaps (1 to 4, at most the tile's) is the largest W tap group of the call: the accumulators
// are kMaxTaps 32x32 tiles per warp, and a call with one-tap groups (kernel == stride, e.g. k2 s2)
// keeps the small register footprint and occupancy of a one-tap kernel (run 13, H200: with four
// tiles' registers throughout, the 3D U-Net up-conv's TF32 fwd+bwd went 1.96 -> 2.50 ms); three-tap
// kernels are held to 12 warps per SM (WeightGemmTile::min_blocks_per_sm).
// kWarpsN = 4 is the many-tap tile (igemm_config.h): 32 x 16 warp tiles, kMaxTaps 4 or 6.
template <typename scalar_t, bool kSplitTf32, int kWarpsM, int kMaxTaps, int kWarpsN = 2>
__global__ void __launch_bounds__(WeightGemmTile<kWarpsM, kSplitTf32, kWarpsN>::kThreads,
                                  WeightGemmTile<kWarpsM, kSplitTf32, kWarpsN>::min_blocks_per_sm(
                                      kMaxTaps, sizeof(scalar_t) == 4))
tconv_igemm_grad_weight_tf32_kernel(const WeightGradArgs a) {
  using T = WeightGemmTile<kWarpsM, kSplitTf32, kWarpsN>;
  constexpr int NT = T::kWarpTileN / 8;  // n8 tiles per warp and tap
  static_assert(std::is_same<scalar_t, float>::value || !kSplitTf32, "3xTF32 is for fp32 data");
  static_assert(kMaxTaps >= 1 && kMaxTaps <= T::kMaxTaps, "taps per block within the tile's limit");
  constexpr int BM = T::kBlockM, BN = T::kBlockN, BK = T::kBlockK, S = T::kStages, LD = T::kLd;
  constexpr int kShift = T::kMaxStripShift;
  constexpr int kRows = T::kRowsPerPass, kTailRows = T::kTailRowsPerPass;
  constexpr int kStage = T::kStageFloats;
  __shared__ __align__(16) float smem[S * kStage];

  const WeightWork work = weight_block_work(a);
  const WeightBlock blk = decode_weight_block(a, work, BM, BN, kShift);
  const WTapGroup& taps = blk.taps;
  const int g = blk.g, kd = blk.kd, kh = blk.kh, ci0 = blk.ci0, co0 = blk.co0;
  int shift[kMaxTaps];
#pragma unroll
  for (int t = 0; t < kMaxTaps; ++t) shift[t] = t * taps.shift_step;
  const int64_t u_end = blk.u_end;
  const int iterations = int(u_end - blk.u_begin);
  WeightStageCursor<true> cur = weight_stage_cursor<true>(a, blk);

  const int tid = threadIdx.x;
  // Each thread copies one column (position) of every kRows-th channel row: x and the strip's first BK columns, then
  // the strip's last kShift columns. Which thread takes which: where x and grad_output hold their channels innermost
  // (channels_last), neighbouring threads take neighbouring channels of one position, so a warp's copies cover a few
  // runs of contiguous channels instead of 32 positions C elements apart (run 452, H200, bf16 channels-last: this
  // kernel took 2.36 of DCGAN's 2.64 ms of kernels per fwd+bwd, 4.04 of VAE's 5.24). The same copies land in the
  // same places either way.
  static_assert(kRows * BK == T::kThreads && kTailRows * kShift == T::kThreads, "one copy per thread and column");
  const bool channels_inner = a.x_stride[1] == 1 && a.dy_stride[1] == 1;
  const int col = channels_inner ? tid / kRows : tid % BK, row0 = channels_inner ? tid % kRows : tid / BK;
  const int tail_col = BK + (channels_inner ? tid / kTailRows : tid % kShift);
  const int tail_row0 = channels_inner ? tid % kTailRows : tid / kShift;
  const WeightStageThread<scalar_t> thread =
      weight_stage_thread<scalar_t>(a, blk, row0, col, row0, col, tail_row0, tail_col, kRows, kTailRows);
  const scalar_t *x_base = thread.x_base, *dy_base = thread.dy_base;
  const int x_rows = a.cin_g - ci0 - row0, dy_rows = a.cout_g - co0 - row0, tail_rows = a.cout_g - co0 - tail_row0;
  const bool full_tile = a.cin_g - ci0 >= BM && a.cout_g - co0 >= BN;
  const int64_t x_pass = kRows * a.x_stride[1], dy_pass = thread.dy_pass, tail_pass = thread.tail_pass;

  DeferredRows<BM / kRows, scalar_t> x_rows_held;
  DeferredRows<BN / kRows, scalar_t> dy_rows_held;
  DeferredRows<BN / kTailRows, scalar_t> tail_rows_held;
  float* const x_dst = smem + row0 * LD + col;                    // in stage 0; + stage * kStage
  float* const dy_dst = smem + BM * LD + row0 * LD + col;
  float* const tail_dst = smem + BM * LD + tail_row0 * LD + tail_col;
  auto fetch_stage = [&](int stage) {
    const WeightStageSources<scalar_t> src = weight_stage_sources<BK, true>(a, thread, cur, u_end);
    const bool x_valid = src.x_valid, dy_valid = src.dy_valid, tail_valid = src.tail_valid;
    const scalar_t *x_src = src.x, *dy_src = src.dy, *tail_src = src.tail;
    const int at = stage * kStage;
    if (full_tile) {  // every channel row exists: no per-row checks
      x_rows_held.template fetch<false>(x_dst + at, kRows * LD, x_src, x_valid ? x_pass : 0, x_valid, x_rows, kRows,
                                        x_base);
      dy_rows_held.template fetch<false>(dy_dst + at, kRows * LD, dy_src, dy_valid ? dy_pass : 0, dy_valid, dy_rows,
                                         kRows, dy_base);
      if (kMaxTaps > 1)  // one-tap blocks read no shifted columns
        tail_rows_held.template fetch<false>(tail_dst + at, kTailRows * LD, tail_src, tail_valid ? tail_pass : 0,
                                             tail_valid, tail_rows, kTailRows, dy_base);
    } else {
      x_rows_held.template fetch<true>(x_dst + at, kRows * LD, x_src, x_valid ? x_pass : 0, x_valid, x_rows, kRows,
                                       x_base);
      dy_rows_held.template fetch<true>(dy_dst + at, kRows * LD, dy_src, dy_valid ? dy_pass : 0, dy_valid, dy_rows,
                                        kRows, dy_base);
      if (kMaxTaps > 1)
        tail_rows_held.template fetch<true>(tail_dst + at, kTailRows * LD, tail_src, tail_valid ? tail_pass : 0,
                                            tail_valid, tail_rows, kTailRows, dy_base);
    }
    cur.advance(a);
  };
  auto land_stage = [&](int stage) {  // fp16/bf16 only (fp32 copies land by themselves)
    const int at = stage * kStage;
    x_rows_held.land(x_dst + at, kRows * LD);
    dy_rows_held.land(dy_dst + at, kRows * LD);
    if (kMaxTaps > 1) tail_rows_held.land(tail_dst + at, kTailRows * LD);
  };

  const int warp = tid / 32, lane = tid % 32;
  const int warp_m = warp % kWarpsM, warp_n = warp / kWarpsM;
  const int gid = lane / 4, tig = lane % 4;
  float acc[kMaxTaps][2][NT][4];
#pragma unroll
  for (int t = 0; t < kMaxTaps; ++t) zero_tile(acc[t]);

#pragma unroll
  for (int st = 0; st < S - 1; ++st) {
    if (st < iterations) {
      fetch_stage(st);
      land_stage(st);
    }
    cp_async_commit();
  }
  int read_slot = 0, write_slot = S - 1;  // it % S and (it + S - 1) % S without divisions
  for (int it = 0; it < iterations; ++it) {
    cp_async_wait<S - 2>();
    __syncthreads();
    const bool refill = it + S - 1 < iterations;
    if (refill) fetch_stage(write_slot);
    cp_async_commit();
    const float* As = smem + read_slot * kStage;
    constexpr bool kWidened = !std::is_same<scalar_t, float>::value;  // fp16/bf16 values are exact in TF32
    warp_taps_mma<kSplitTf32, kWidened, kMaxTaps, BK>(acc, As, As + BM * LD, LD, shift, taps.count, warp_m * 32,
                                                      warp_n * T::kWarpTileN, gid, tig);
    // The slot refilled is the one the previous iteration read, which every warp finished before the
    // barrier above.
    if (refill) land_stage(write_slot);
    read_slot = read_slot + 1 == S ? 0 : read_slot + 1;
    write_slot = write_slot + 1 == S ? 0 : write_slot + 1;
  }
  cp_async_wait<0>();

  float* out = weight_sums_destination(a, work);
  const bool add = weight_sums_add(a, work);
  const int tap_row = (kd * a.kernel[1] + kh) * a.kernel[2];
#pragma unroll
  for (int t = 0; t < kMaxTaps; ++t) {
    if (t >= taps.count) break;
    const int tap = tap_row + taps.kw0 + t * taps.kw_step;
#pragma unroll
    for (int mt = 0; mt < 2; ++mt)
#pragma unroll
      for (int nt = 0; nt < NT; ++nt)
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          const int ci = ci0 + warp_m * 32 + mt * 16 + gid + (e >= 2 ? 8 : 0);
          const int co = co0 + warp_n * T::kWarpTileN + nt * 8 + 2 * tig + (e & 1);
          if (ci < a.cin_g && co < a.cout_g)
            store_weight_sum(out + ((int64_t(g) * a.cin_g + ci) * a.cout_g + co) * a.taps + tap, acc[t][mt][nt][e],
                             add);
        }
  }
  pass_split_turn(a, work);
}

// grad_weight on Hopper (WeightWgmmaTile): the mma.sync kernel's blocks, stages and split-K, with one
// warpgroup issuing per k8 step kMBlocks wgmmas m64nNk8: A = 64 rows of the grad_output strip, each at its
// tap's shift (registers), B = the x tile (C_in x positions) by descriptor. Synchronous per stage (all of a
// stage's wgmmas, then wait): the x tile stays single-use per stage.
// A's rows: with kMBlocks == kMaxTaps each tap has its own m64 block, row = C_out channel. Where a group's C_out
// is below 64 that block is mostly zeros (fam07: 24 of 64 rows), so the packed form (kMBlocks < kMaxTaps, the
// host's grad_weight_wgmma_m_blocks) stacks the taps' channels: row r is tap r / cout_g, channel r % cout_g, and
// fam07's three taps take two wgmmas per k8 step instead of three. Rows past the last tap read strip row BM - 1,
// which is zero there (cout_g < BM: the checked copies zero-fill it).
// kBlockN: the C_in tile, 64 or 48 (WeightWgmmaTile).
template <typename scalar_t, int kWarpsM, int kMaxTaps, int kMBlocks, int kBlockN>
__global__ void __launch_bounds__(WeightWgmmaTile<kWarpsM, kBlockN>::kThreads,
                                  WeightWgmmaTile<kWarpsM, kBlockN>::min_blocks_per_sm(kMaxTaps, kMBlocks))
tconv_igemm_grad_weight_wgmma_kernel(const WeightGradArgs a) {
  using T = WeightWgmmaTile<kWarpsM, kBlockN>;
  static_assert(kMaxTaps >= 1 && kMaxTaps <= T::kMaxTaps, "taps per block within the tile's limit");
  constexpr int BM = T::kBlockM, BN = T::kBlockN, BK = T::kBlockK, S = T::kStages, LD = T::kLdA;
  constexpr int kShift = T::kMaxStripShift, kThreads = T::kThreads;
  constexpr int kStage = T::kStageFloats;
  constexpr bool kWidened = !std::is_same<scalar_t, float>::value;  // fp16/bf16 values are exact in TF32
  __shared__ __align__(128) float smem[S * kStage];

  // Block: as tconv_igemm_grad_weight_tf32_kernel (C_in tile = its M, C_out tile = its N).
  const WeightWork work = weight_block_work(a);
  const WeightBlock blk = decode_weight_block(a, work, BN, BM, kShift);
  const WTapGroup& taps = blk.taps;
  const int g = blk.g, kd = blk.kd, kh = blk.kh, ci0 = blk.ci0, co0 = blk.co0;
  const int64_t u_end = blk.u_end;
  const int iterations = int(u_end - blk.u_begin);
  WeightStageCursor<false> cur = weight_stage_cursor<false>(a, blk);

  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  // The strip (A): thread copies column `col` of rows row0 + kRows * i, and tail column tail_col of
  // rows tail_row0 + kTailRows * i; neighbouring threads take neighbouring channels where grad_output holds its
  // channels innermost (channels_last), as in tconv_igemm_grad_weight_tf32_kernel.
  constexpr int kRows = kThreads / BK, kTailRows = kThreads / kShift;
  static_assert(kRows * BK == kThreads && kTailRows * kShift == kThreads, "one copy per thread and column");
  const bool channels_inner = a.dy_stride[1] == 1;
  const int col = channels_inner ? tid / kRows : tid % BK, row0 = channels_inner ? tid % kRows : tid / BK;
  const int tail_col = BK + (channels_inner ? tid / kTailRows : tid % kShift);
  const int tail_row0 = channels_inner ? tid % kTailRows : tid / kShift;
  // The x tile (B): lane -> (C_in row lane / 4, position lane % 4) of a core matrix, warp -> the
  // matrix's 4 positions, copy i -> its 8 C_in rows: each warp's 32 writes fill one core matrix.
  static_assert(BK / 4 == kThreads / 32, "one warp per 4 positions of the x tile");
  constexpr int kXCopies = BN / 8;
  const int x_ci = lane / 4, x_col = warp * 4 + lane % 4;
  const WeightStageThread<scalar_t> thread =
      weight_stage_thread<scalar_t>(a, blk, x_ci, x_col, row0, col, tail_row0, tail_col, kRows, kTailRows);
  const scalar_t *x_base = thread.x_base, *dy_base = thread.dy_base;
  const int x_rows = a.cin_g - ci0 - x_ci, dy_rows = a.cout_g - co0 - row0, tail_rows = a.cout_g - co0 - tail_row0;
  const bool full_tile = a.cin_g - ci0 >= BN && a.cout_g - co0 >= BM;
  const int64_t x_pass = 8 * a.x_stride[1], dy_pass = thread.dy_pass, tail_pass = thread.tail_pass;

  DeferredRows<BM / kRows, scalar_t> dy_rows_held;
  DeferredRows<BM / kTailRows, scalar_t> tail_rows_held;
  DeferredRows<kXCopies, scalar_t> x_rows_held;
  constexpr int kXStep = (BK / 4) * 32;                            // from one core matrix row block to the next
  float* const dy_dst = smem + row0 * LD + col;                    // in stage 0; + stage * kStage
  float* const tail_dst = smem + tail_row0 * LD + tail_col;
  float* const x_dst = smem + T::kStageA + warp * 32 + lane;       // core matrix (i, warp), element lane
  auto fetch_stage = [&](int stage) {
    const WeightStageSources<scalar_t> src = weight_stage_sources<BK, false>(a, thread, cur, u_end);
    const bool x_valid = src.x_valid, dy_valid = src.dy_valid, tail_valid = src.tail_valid;
    const scalar_t *x_src = src.x, *dy_src = src.dy, *tail_src = src.tail;
    const int at = stage * kStage;
    if (full_tile) {
      dy_rows_held.template fetch<false>(dy_dst + at, kRows * LD, dy_src, dy_valid ? dy_pass : 0, dy_valid, dy_rows,
                                         kRows, dy_base);
      if (kMaxTaps > 1)
        tail_rows_held.template fetch<false>(tail_dst + at, kTailRows * LD, tail_src, tail_valid ? tail_pass : 0,
                                             tail_valid, tail_rows, kTailRows, dy_base);
      x_rows_held.template fetch<false>(x_dst + at, kXStep, x_src, x_valid ? x_pass : 0, x_valid, x_rows, 8, x_base);
    } else {
      dy_rows_held.template fetch<true>(dy_dst + at, kRows * LD, dy_src, dy_valid ? dy_pass : 0, dy_valid, dy_rows,
                                        kRows, dy_base);
      if (kMaxTaps > 1)
        tail_rows_held.template fetch<true>(tail_dst + at, kTailRows * LD, tail_src, tail_valid ? tail_pass : 0,
                                            tail_valid, tail_rows, kTailRows, dy_base);
      x_rows_held.template fetch<true>(x_dst + at, kXStep, x_src, x_valid ? x_pass : 0, x_valid, x_rows, 8, x_base);
    }
    cur.advance(a);
  };
  auto land_stage = [&](int stage) {  // fp16/bf16 only (fp32 copies land by themselves)
    const int at = stage * kStage;
    dy_rows_held.land(dy_dst + at, kRows * LD);
    if (kMaxTaps > 1) tail_rows_held.land(tail_dst + at, kTailRows * LD);
    x_rows_held.land(x_dst + at, kXStep);
  };

  const int gid = lane / 4, tig = lane % 4;
  static_assert(kMBlocks >= 1 && kMBlocks <= kMaxTaps, "at most one m64 block per tap");
  constexpr bool kPacked = kMBlocks < kMaxTaps;
  float acc[kMBlocks][BN / 2];
#pragma unroll
  for (int m = 0; m < kMBlocks; ++m)
#pragma unroll
    for (int i = 0; i < BN / 2; ++i) acc[m][i] = 0.f;
  int shift[kMaxTaps];
#pragma unroll
  for (int t = 0; t < kMaxTaps; ++t) shift[t] = t * taps.shift_step;
  // The tap count is block-uniform; taps past it still issue their wgmmas (on zero A fragments, into
  // accumulators that are never stored): a branch between the wgmmas of a stage made ptxas serialize
  // them (C7513, as in the gather kernel).
  const int count = taps.count;
  // Packed: where this thread's rows warp * 16 + gid (+ 8) of block m lie in the strip, the tap's shift included.
  int packed_row[kMBlocks][2];
  if constexpr (kPacked) {
#pragma unroll
    for (int m = 0; m < kMBlocks; ++m)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int r = m * 64 + warp * 16 + gid + 8 * h, t = r / a.cout_g;
        packed_row[m][h] = t < count ? (r - t * a.cout_g) * LD + t * taps.shift_step : (BM - 1) * LD;
      }
  }

#pragma unroll
  for (int st = 0; st < S - 1; ++st) {
    if (st < iterations) {
      fetch_stage(st);
      land_stage(st);
    }
    cp_async_commit();
  }
  for (int it = 0; it < iterations; ++it) {
    cp_async_wait<S - 2>();
    // wgmma reads fp32 B as TF32 by dropping the low mantissa bits (truncation): each thread rounds the
    // x elements it copied (its own cp.async writes are complete after the wait). Without this, run 29
    // measured grad_weight errors of 2.0-2.1x PyTorch's TF32 error (the contract allows 2x).
    if (!kWidened) {
      float* own = smem + (it % S) * kStage + T::kStageA + warp * 32 + lane;
#pragma unroll
      for (int i = 0; i < kXCopies; ++i) own[i * (BK / 4) * 32] = __uint_as_float(to_tf32(own[i * (BK / 4) * 32]));
    }
    fence_generic_to_async_shared();
    __syncthreads();
    const bool refill = it + S - 1 < iterations;
    if (refill) fetch_stage((it + S - 1) % S);
    cp_async_commit();
    const float* As = smem + (it % S) * kStage;
    const float* Bs = As + T::kStageA;
    uint32_t frag[BK / 8][kMBlocks][4];
#pragma unroll
    for (int k8 = 0; k8 < BK / 8; ++k8)
#pragma unroll
      for (int m = 0; m < kMBlocks; ++m) {
        float v[4];
        if constexpr (kPacked) {  // strip columns k8 * 8 + tig (+4) of each row at its tap's shift
          const float *p0 = As + packed_row[m][0] + k8 * 8 + tig, *p1 = As + packed_row[m][1] + k8 * 8 + tig;
          v[0] = p0[0], v[1] = p1[0], v[2] = p0[4], v[3] = p1[4];
        } else {  // tap m: rows warp * 16 + gid (+8), strip columns k8 * 8 + tig (+4) + shift
          const float* p = As + (warp * 16 + gid) * LD + k8 * 8 + tig + shift[m];
          const bool live = m < count;
          v[0] = live ? p[0] : 0.f;
          v[1] = live ? p[8 * LD] : 0.f;
          v[2] = live ? p[4] : 0.f;
          v[3] = live ? p[8 * LD + 4] : 0.f;
        }
#pragma unroll
        for (int e = 0; e < 4; ++e) frag[k8][m][e] = kWidened ? __float_as_uint(v[e]) : to_tf32(v[e]);
      }
    wgmma_fence();
#pragma unroll
    for (int k8 = 0; k8 < BK / 8; ++k8) {
      const uint64_t b_desc = wgmma_smem_descriptor(Bs + k8 * 2 * 32, T::kBLeadingBytes, T::kBStrideBytes);
#pragma unroll
      for (int m = 0; m < kMBlocks; ++m) wgmma_mma<BN, float>(acc[m], frag[k8][m], b_desc);
    }
    wgmma_commit();
    wgmma_wait<0>();
    // The refilled slot was read by the previous iteration's wgmmas, complete in every warp before the
    // barrier above; the next iteration's fence orders these generic stores before the wgmmas read them.
    if (refill) land_stage((it + S - 1) % S);
  }
  cp_async_wait<0>();

  // Accumulator i = 4 j + 2 h + l: row warp * 16 + gid + 8 h of block m, C_in column 8 j + 2 tig + l.
  float* out = weight_sums_destination(a, work);
  const bool add = weight_sums_add(a, work);
  const int tap_row = (kd * a.kernel[1] + kh) * a.kernel[2];
  if constexpr (!kPacked) {
#pragma unroll
    for (int t = 0; t < kMaxTaps; ++t) {
      if (t >= count) break;
      const int tap = tap_row + taps.kw0 + t * taps.kw_step;
#pragma unroll
      for (int i = 0; i < BN / 2; ++i) {
        const int co = co0 + warp * 16 + gid + 8 * ((i / 2) % 2);
        const int ci = ci0 + 8 * (i / 4) + 2 * tig + i % 2;
        if (ci < a.cin_g && co < a.cout_g)
          store_weight_sum(out + ((int64_t(g) * a.cin_g + ci) * a.cout_g + co) * a.taps + tap, acc[t][i], add);
      }
    }
  } else {
#pragma unroll
    for (int m = 0; m < kMBlocks; ++m) {
#pragma unroll
      for (int h = 0; h < 2; ++h) {  // co0 is 0: the packed form has one C_out tile
        const int r = m * 64 + warp * 16 + gid + 8 * h, t = r / a.cout_g, co = r - t * a.cout_g;
        if (t >= count) continue;
        const int tap = tap_row + taps.kw0 + t * taps.kw_step;
        float* const row_out = out + (int64_t(g) * a.cin_g * a.cout_g + co) * a.taps + tap;
#pragma unroll
        for (int j = 0; j < BN / 8; ++j)
#pragma unroll
          for (int l = 0; l < 2; ++l) {
            const int ci = ci0 + 8 * j + 2 * tig + l;
            if (ci < a.cin_g)
              store_weight_sum(row_out + int64_t(ci) * a.cout_g * a.taps, acc[m][4 * j + 2 * h + l], add);
          }
      }
    }
  }
  pass_split_turn(a, work);
}

#if defined(TCONV_TENSOR_MAPS)
// The rows kernel's arguments: the plan's, and two 5-D tensor maps (W, C, H, D, N) over x and the real grad_output.
struct RowsWeightArgs {
  CUtensorMap x_map, dy_map;
  WeightGradArgs a;
  int batch;  // images: a unit past the split's end reads image `batch`, outside both maps
  int slide;  // the shifted-x kernel: reuse grad_output rows across consecutive input rows (shifted_x_reach)
  int dy_flat;    // the shifted-x kernel: dy_map is shifted_x_flat_dy_map's (D, H, W as one dimension)
  int x_flat;     // the shifted-x kernel: x_map has D, H, W as one dimension (shifted_x_flat_x_fits)
  int dy_copied;  // the shifted-x kernel: no dy_map; producer warp 0 copies grad_output's rows (shifted_x_copy_dy_fits)
  int word_fragments;  // the 16-bit shifted-x kernel: A fragments as 32-bit words where a row allows (see the kernel)
  int dy_slots;        // the lean shifted-x kernel: grad_output row slots per consumer warpgroup (shifted_x_slots)
  int dy_interleave;  // the channel-tile shifted-x kernel: 0, or dy_map's channels a row (shifted_x_dy_interleave)
  int lane_boxes;     // the channel-tile shifted-x kernel: a unit's boxes issued by a lane each (shifted_x_lane_boxes)
};

// Thread 0's (or the producer's) boxes for the next kUnits units of the rows kernels into one stage. A unit past the
// split's end asks for image N (outside both maps: zeros). elem_t: the data's type; kXBoxes: 16-bit x arrives as two
// boxes of kXBoxW positions (WeightWgmmaRows16Tile) or, swizzled, one; fp32 x as one. kChannelsLast: fp32 maps whose
// first dimension is the channels (rows_channels_last_maps), the raw rows' box T::kClDyW positions from W ow_lo with
// no alignment offset.
template <int kRowGroups, int kUnits, typename elem_t = float, int kXBoxes = 1, bool kChannelsLast = false>
struct RowsStageIssuer {
  using T = WeightWgmmaRowsTile<kRowGroups>;
  static_assert(kXBoxes == 1 || (kXBoxes == 2 && sizeof(elem_t) == 2), "two x boxes: 16-bit data");
  static_assert(!kChannelsLast || (kXBoxes == 1 && sizeof(elem_t) == 4), "channels-last boxes: fp32 data");
  WeightStageCursor<false> cur;
  int x_channel, dy_channel, ow_base;
  __device__ __forceinline__ RowsStageIssuer(const RowsWeightArgs& args, const WeightBlock& blk, int e)
      : cur(weight_stage_cursor<false>(args.a, blk)),
        x_channel(blk.g * args.a.cin_g + blk.ci0),
        dy_channel((blk.g * args.a.cout_g + blk.co0) / T::kFold),
        ow_base(2 * blk.taps.kw0 - args.a.fold_padding - e) {}
  // units: kUnits consecutive units of T::kUnitFloats elements (x, then the raw rows of each warpgroup).
  __device__ __forceinline__ void issue(const RowsWeightArgs& args, const WeightBlock& blk, elem_t* units,
                                        uint64_t* bar) {
    const WeightGradArgs& a = args.a;
    mbarrier_arrive_expect_tx(bar, kChannelsLast ? uint32_t(kUnits * T::kClUnitBytes)
                                                 : uint32_t(kUnits * T::kUnitFloats * sizeof(elem_t)));
#pragma unroll
    for (int v = 0; v < kUnits; ++v) {
      elem_t* const unit = units + v * T::kUnitFloats;
      const int iw0 = cur.wc * T::kBlockK, n = cur.u < blk.u_end ? int(cur.n) : args.batch;
      // The maps' first two dimensions are (W, C), channels-last (C, W).
      const auto load = [&](elem_t* dst, const CUtensorMap* map, int channel, int w, int h, int d) {
        if constexpr (kChannelsLast)
          tma_load_5d(dst, map, channel, w, h, d, n, bar);
        else
          tma_load_5d(dst, map, w, channel, h, d, n, bar);
      };
      load(unit, &args.x_map, x_channel, iw0, cur.ih, cur.id);
      if constexpr (kXBoxes == 2) {
        constexpr int kBox = WeightWgmmaRows16Tile<kRowGroups>::kXBoxW;
        load(unit + T::kBlockN * kBox, &args.x_map, x_channel, iw0 + kBox, cur.ih, cur.id);
      }
      const int od = cur.id * a.stride[0] + blk.kd * a.dilation[0] - a.padding[0];
#pragma unroll
      for (int w = 0; w < kRowGroups; ++w) {
        const int oh = cur.ih * a.stride[1] + (blk.kh + w) * a.dilation[1] - a.padding[1];
        load(unit + T::kStageB + w * T::kStageA, &args.dy_map, dy_channel, 2 * iw0 + ow_base, oh, od);
      }
      cur.advance(a);
    }
  }
};
// The box's first W element must lie on 16 bytes (iw0 is a multiple of 16), so the raw rows start e positions early
// (kAlign: elements per 16 bytes).
template <int kAlign = 4>
__device__ __forceinline__ int rows_alignment_offset(const WeightGradArgs& a, const WTapGroup& taps) {
  return ((2 * taps.kw0 - a.fold_padding) % kAlign + kAlign) % kAlign;
}
// A fragments of one stage: this thread's rows wwarp * 16 + gid (+ 8) are channel wwarp * 8 + gid / 2 (+ 4), phase
// gid % 2, whose strip column c lies at raw column 2 c + phase + e (frag_at). Taps past the group's count load zeros
// (their wgmmas still issue: no branch between a stage's wgmmas).
template <int kRowGroups, int kUnits, int kMaxTaps>
using RowsFragments = uint32_t[kUnits][WeightWgmmaRowsTile<kRowGroups>::kBlockK / 8][kMaxTaps][4];
// kChannelsLast: raw rows [W][T::kClDyPitch channels] (a channel step of 1, a W step of the pitch).
template <int kRowGroups, int kUnits, int kMaxTaps, bool kChannelsLast = false>
__device__ __forceinline__ void load_rows_fragments(RowsFragments<kRowGroups, kUnits, kMaxTaps>& frag,
                                                    const float* stage, int frag_at, int shift_step, int count) {
  using T = WeightWgmmaRowsTile<kRowGroups>;
  constexpr int kChannelStep = kChannelsLast ? 1 : T::kLdRaw, kWStep = kChannelsLast ? T::kClDyPitch : 1;
#pragma unroll
  for (int v = 0; v < kUnits; ++v)
#pragma unroll
    for (int k8 = 0; k8 < T::kBlockK / 8; ++k8)
#pragma unroll
      for (int t = 0; t < kMaxTaps; ++t) {
        const float* p = stage + v * T::kUnitFloats + frag_at + 2 * (k8 * 8 + t * shift_step) * kWStep;
        const bool tap_live = t < count;
        frag[v][k8][t][0] = to_tf32(tap_live ? p[0] : 0.f);
        frag[v][k8][t][1] = to_tf32(tap_live ? p[4 * kChannelStep] : 0.f);
        frag[v][k8][t][2] = to_tf32(tap_live ? p[8 * kWStep] : 0.f);
        frag[v][k8][t][3] = to_tf32(tap_live ? p[4 * kChannelStep + 8 * kWStep] : 0.f);
      }
}
// One stage's wgmmas (committed, not waited for): per unit and k8 step one m64n128k8 per tap.
template <int kRowGroups, int kUnits, int kMaxTaps>
__device__ __forceinline__ void issue_rows_wgmmas(float (&acc)[kMaxTaps][WeightWgmmaRowsTile<kRowGroups>::kBlockN / 2],
                                                  const RowsFragments<kRowGroups, kUnits, kMaxTaps>& frag,
                                                  const float* b_tile) {
  using T = WeightWgmmaRowsTile<kRowGroups>;
  wgmma_fence();
#pragma unroll
  for (int v = 0; v < kUnits; ++v)
#pragma unroll
    for (int k8 = 0; k8 < T::kBlockK / 8; ++k8) {
      const uint64_t b_desc =
          wgmma_smem_descriptor(b_tile + v * T::kStageB + k8 * 2 * 32, T::kBLeadingBytes, T::kBStrideBytes);
#pragma unroll
      for (int t = 0; t < kMaxTaps; ++t) wgmma_mma<T::kBlockN, float>(acc[t], frag[v][k8][t], b_desc);
    }
  wgmma_commit();
}
// The rows kernels' sums: accumulator i = 4 j + 2 h + l is folded column co0 + wwarp * 16 + gid + 8 h, C_in column
// 8 j + 2 tig + l. out: weight_sums_destination's, which every thread of the block calls (its barrier).
template <int kMaxTaps, int BN>
__device__ __forceinline__ void store_rows_weight_sums(const WeightGradArgs& a, const WeightWork& work,
                                                       const WeightBlock& blk, float* out, int kh, int wwarp,
                                                       const float (&acc)[kMaxTaps][BN / 2]) {
  const int lane = threadIdx.x % 32, gid = lane / 4, tig = lane % 4;
  const bool add = weight_sums_add(a, work);
  const int tap_row = (blk.kd * a.kernel[1] + kh) * a.kernel[2];
  const int ci_first = blk.ci0 + 2 * tig, co_first = blk.co0 + wwarp * 16 + gid;
  const int64_t ci_step = int64_t(a.cout_g) * a.taps;
  const auto inside = [&](int i) {
    return ci_first + 8 * (i / 4) + i % 2 < a.cin_g && co_first + 8 * (i / 2 % 2) < a.cout_g;
  };
#pragma unroll
  for (int t = 0; t < kMaxTaps; ++t) {
    if (t >= blk.taps.count) break;
    float* const base = out + ((int64_t(blk.g) * a.cin_g + ci_first) * a.cout_g + co_first) * a.taps + tap_row +
                        blk.taps.kw0 + t * blk.taps.kw_step;
    store_weight_sums_by_eights(add, acc[t], inside, [&](int i) {
      return base + (8 * (i / 4) + i % 2) * ci_step + 8 * (i / 2 % 2) * a.taps;
    });
  }
}

// grad_weight on Hopper for 2D up-convs of W stride 2 with whole W phases (WeightWgmmaRowsTile: the W fold with
// fold 2, kD 1, fp32 data in TF32 mode). A block is (kH row group, W tap group, group, C_out tile, C_in tile) x one
// split of K; warpgroup w takes kH row kh + w. A unit is one input row's 16 positions; a stage is kUnits units, each
// three TMA boxes issued by thread 0: the x tile (128 input channels x 16 positions) and per warpgroup its raw
// grad_output rows (32 real channels x 56 W positions from ow_lo = 2 (iw0 + kw0) - p - e, 16-byte aligned with
// 0 <= e <= 3; outside the tensor, zeros). Each thread rounds its x pieces to TF32 into the core-matrix B tile
// (double-buffered), then each warpgroup issues per unit and k8 step one m64n128k8 per W tap: A = 64 folded columns
// (channel r / 2, W phase r % 2) at the tap's shift, de-interleaved from the raw rows as the fragments load, B = the
// x tile by descriptor. A partial channel tile's boxes read the next group's channels (or zeros past the last): they
// only reach sums of rows or columns past the group's channels, which the epilogue does not store.
template <int kRowGroups, int kMaxTaps, int kUnits>
__global__ void __launch_bounds__(WeightWgmmaRowsTile<kRowGroups>::kThreads, 1)
tconv_igemm_grad_weight_wgmma_rows_kernel(const __grid_constant__ RowsWeightArgs args) {
  using T = WeightWgmmaRowsTile<kRowGroups>;
  static_assert(kMaxTaps >= 1 && kMaxTaps <= T::kMaxTaps, "taps per block within the tile's limit");
  constexpr int BM = T::kBlockM, BN = T::kBlockN, BK = T::kBlockK, S = T::stages(kUnits), LDR = T::kLdRaw;
  constexpr int kUnit = T::kUnitFloats;
  const WeightGradArgs& a = args.a;
  extern __shared__ __align__(128) float rows_smem[];
  float* const b_tiles = rows_smem;                              // [2][kUnits][BN x BK], core matrices
  float* const slots = rows_smem + 2 * kUnits * T::kStageB;      // [S][kUnits][x box, raw rows per warpgroup]
  uint64_t* const full = reinterpret_cast<uint64_t*>(slots + S * kUnits * kUnit);  // [S]: a slot's boxes landed

  const WeightWork work = weight_block_work(a);
  const WeightBlock blk = decode_weight_block(a, work, BN, BM, T::kMaxStripShift, kRowGroups);
  const int iterations = int(blk.u_end - blk.u_begin + kUnits - 1) / kUnits;

  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int group = uniform_warpgroup(), wwarp = warp % 4;
  const int kh = blk.kh + group;  // this warpgroup's kH row (the plan makes kH a multiple of kRowGroups)
  if (tid == 0) {
#pragma unroll
    for (int st = 0; st < S; ++st) mbarrier_init(&full[st], 1);
    fence_mbarrier_init();
  }
  __syncthreads();

  const int e = rows_alignment_offset(a, blk.taps);
  RowsStageIssuer<kRowGroups, kUnits> issuer(args, blk, e);
  // This thread's x pieces: (C_in row xr, positions 4 xq .. 4 xq + 3) of the box, into core matrix (xr / 8, xq).
  const int xq = tid % 4;
  int x_box[T::kXCopies], x_core[T::kXCopies];
#pragma unroll
  for (int i = 0; i < T::kXCopies; ++i) {
    const int xr = (tid + i * T::kThreads) / 4;
    x_box[i] = xr * BK + 4 * xq;
    x_core[i] = ((xr / 8) * (BK / 4) + xq) * 32 + (xr % 8) * 4;
  }

  const int gid = lane / 4, tig = lane % 4;
  float acc[kMaxTaps][BN / 2];
#pragma unroll
  for (int t = 0; t < kMaxTaps; ++t)
#pragma unroll
    for (int i = 0; i < BN / 2; ++i) acc[t][i] = 0.f;
  const int frag_at = T::kStageB + group * T::kStageA + (wwarp * 8 + gid / 2) * LDR + gid % 2 + e + 2 * tig;

  if (tid == 0) {
#pragma unroll
    for (int st = 0; st < S - 1; ++st)
      if (st < iterations) issuer.issue(args, blk, slots + st * kUnits * kUnit, &full[st]);
  }
  for (int it = 0; it < iterations; ++it) {
    const int slot = it % S;
    mbarrier_wait(&full[slot], uint32_t(it / S) & 1u);
    // wgmma reads fp32 B as TF32 by truncation: the x pieces are rounded (to_tf32) on their way into the B tile.
    const float* const stage = slots + slot * kUnits * kUnit;
    float* const b_tile = b_tiles + (it % 2) * kUnits * T::kStageB;
#pragma unroll
    for (int v = 0; v < kUnits; ++v)
#pragma unroll
      for (int i = 0; i < T::kXCopies; ++i) {
        float4 x = *reinterpret_cast<const float4*>(stage + v * kUnit + x_box[i]);
        x.x = __uint_as_float(to_tf32(x.x));
        x.y = __uint_as_float(to_tf32(x.y));
        x.z = __uint_as_float(to_tf32(x.z));
        x.w = __uint_as_float(to_tf32(x.w));
        *reinterpret_cast<float4*>(b_tile + v * T::kStageB + x_core[i]) = x;
      }
    // Orders this thread's generic reads of the slot (this stage and the last) and writes of the B tile before the
    // async proxy's next uses: the refill below (TMA) and the wgmmas.
    fence_generic_to_async_shared();
    __syncthreads();
    // The slot refilled is the one the previous iteration read, which every thread finished before the barrier
    // above; the B tile written above was last read by the wgmmas two iterations ago, complete in every warp.
    if (tid == 0 && it + S - 1 < iterations) {
      const int refill = (it + S - 1) % S;
      issuer.issue(args, blk, slots + refill * kUnits * kUnit, &full[refill]);
    }
    RowsFragments<kRowGroups, kUnits, kMaxTaps> frag;
    load_rows_fragments<kRowGroups, kUnits, kMaxTaps>(frag, stage, frag_at, blk.taps.shift_step, blk.taps.count);
    issue_rows_wgmmas<kRowGroups, kUnits, kMaxTaps>(acc, frag, b_tile);
    wgmma_wait<0>();
  }

  float* const out = weight_sums_destination(a, work);
  store_rows_weight_sums<kMaxTaps, BN>(a, work, blk, out, kh, wwarp, acc);
  pass_split_turn(a, work);
}


// The warp-specialized grad_weight kernels' barriers per stage slot: full (one arrival, the producer's expect_tx; the
// TMA boxes complete it), ready (the kRounders rounding threads: the slot's TF32 B operand is written and fenced) and
// empty (every one of the kConsumers consumer threads is done with the slot). Thread 0 initialises them; the block
// barrier makes them visible to every warp before the roles part.
// full_arrivals: the arrivals besides the bulk copies' bytes that complete full (1: the producer's, or more where
// producer threads also arrive on their cp.async copies). consumers: the threads that release a slot, if fewer than
// kConsumers (the shifted-x channel-tile form's warpgroups past the group's channels read no stage).
template <int kStages, int kRounders, int kConsumers>
__device__ __forceinline__ void init_specialized_stage_barriers(uint64_t* full, uint64_t* ready, uint64_t* empty,
                                                                int full_arrivals = 1, int consumers = kConsumers) {
  if (threadIdx.x == 0) {
#pragma unroll
    for (int st = 0; st < kStages; ++st) {
      mbarrier_init(&full[st], full_arrivals);
      mbarrier_init(&ready[st], kRounders);
      mbarrier_init(&empty[st], consumers);
    }
    fence_mbarrier_init();
  }
  __syncthreads();
}
// The producer before refilling slot it % kStages for iteration it: from the second round on, every consumer must
// have released the slot's previous use (empty phase it / kStages - 1).
template <int kStages>
__device__ __forceinline__ void wait_stage_slot_empty(uint64_t* empty, int it) {
  if (it >= kStages) mbarrier_wait(&empty[it % kStages], uint32_t(it / kStages - 1) & 1u);
}

// The rows kernel, warp-specialized (TCONV_GRAD_WEIGHT_ROWS_SPECIALIZED=1): the same blocks, units, boxes, fragments
// and sums, with a producer warpgroup after the kRowGroups consumer warpgroups and no block barrier in the loop.
// Producer warp 0, lane 0: waits until every consumer has released a slot (empty[s]), then issues its next stage's
// boxes (full[s], complete_tx). Producer warps 1-3: wait for the boxes, round the x box to TF32 into the slot's own B
// tile (wgmma would truncate), fence it for the async proxy and arrive on ready[s]. Consumers: wait full[s] and
// ready[s], load the A fragments from the raw rows, issue the wgmmas, wait for them, release the slot. The two
// consumer warpgroups (two kH rows) thus run apart, and the x rounding leaves their path.
// kChannelsLast: x and grad_output with their channels innermost (rows_channels_last_maps): the boxes land
// [position][channel] (T::kClDyPitch, T::kClDyW), the rounders read 4 positions of a channel across the x box, and the
// fragments step along the raw rows' positions by the pitch; the same B tiles, fragment values and wgmmas otherwise.
template <int kRowGroups, int kMaxTaps, int kUnits, bool kChannelsLast = false>
__global__ void __launch_bounds__(WeightWgmmaRowsTile<kRowGroups>::kSpecializedThreads, 1)
tconv_igemm_grad_weight_wgmma_rows_specialized_kernel(const __grid_constant__ RowsWeightArgs args) {
  using T = WeightWgmmaRowsTile<kRowGroups>;
  static_assert(kMaxTaps >= 1 && kMaxTaps <= T::kMaxTaps, "taps per block within the tile's limit");
  constexpr int BM = T::kBlockM, BN = T::kBlockN, BK = T::kBlockK, S = T::specialized_stages(kUnits);
  constexpr int kUnit = T::kUnitFloats, kPiecesPerUnit = BN * BK / 4;
  const WeightGradArgs& a = args.a;
  extern __shared__ __align__(128) float rows_smem[];
  float* const slots = rows_smem;                                    // [S][kUnits][x box, raw rows per warpgroup]
  float* const b_tiles = rows_smem + S * kUnits * kUnit;             // [S][kUnits][BN x BK], core matrices
  uint64_t* const full = reinterpret_cast<uint64_t*>(b_tiles + S * kUnits * T::kStageB);  // [S]: boxes landed
  uint64_t* const ready = full + S;                                  // [S]: the slot's B tile is rounded
  uint64_t* const empty = ready + S;                                 // [S]: every consumer is done with the slot

  const WeightWork work = weight_block_work(a);
  const WeightBlock blk = decode_weight_block(a, work, BN, BM, T::kMaxStripShift, kRowGroups);
  const int iterations = int(blk.u_end - blk.u_begin + kUnits - 1) / kUnits;
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32, group = uniform_warpgroup();
  init_specialized_stage_barriers<S, T::kRounders, T::kThreads>(full, ready, empty);
  const int e = kChannelsLast ? 0 : rows_alignment_offset(a, blk.taps);

  if (group == kRowGroups) {
    warpgroup_registers_down<T::kProducerRegisters>();
    if (warp % 4 == 0) {
      if (lane == 0) {
        RowsStageIssuer<kRowGroups, kUnits, float, 1, kChannelsLast> issuer(args, blk, e);
        for (int it = 0; it < iterations; ++it) {
          const int slot = it % S;
          wait_stage_slot_empty<S>(empty, it);
          issuer.issue(args, blk, slots + slot * kUnits * kUnit, &full[slot]);
        }
      }
      __syncwarp();
    } else {
      // Piece q of a unit: C_in row xr = 8 (q / 32) + q % 8, positions 4 xq .. 4 xq + 3 with xq = (q % 8 / 2 + q / 8)
      // mod 4. Eight consecutive pieces then read 16-byte words in 8 distinct bank quads of the box (row stride 16
      // floats) and write the 8 rows of one core matrix (128 contiguous bytes).
      const int rounder = tid - T::kThreads - 32;
      for (int it = 0; it < iterations; ++it) {
        const int slot = it % S;
        mbarrier_wait(&full[slot], uint32_t(it / S) & 1u);
        const float* const stage = slots + slot * kUnits * kUnit;
        float* const b_tile = b_tiles + slot * kUnits * T::kStageB;
        for (int p = rounder; p < kUnits * kPiecesPerUnit; p += T::kRounders) {
          const int v = p / kPiecesPerUnit, q = p % kPiecesPerUnit;
          float4 x;
          int xr, xq;
          if constexpr (kChannelsLast) {
            // Channel xr = q % BN of positions 4 xq .. 4 xq + 3 (the box's rows of BN channels): a warp's 32 pieces
            // read 32 consecutive channels (distinct banks) and write 8-row core matrices whole.
            xr = q % BN;
            xq = q / BN;
            const float* const column = stage + v * kUnit + 4 * xq * BN + xr;
            x = make_float4(column[0], column[BN], column[2 * BN], column[3 * BN]);
          } else {
            const int j = q % 8;
            xr = (q / 32) * 8 + j;
            xq = (j / 2 + q / 8) % 4;
            x = *reinterpret_cast<const float4*>(stage + v * kUnit + xr * BK + 4 * xq);
          }
          x.x = __uint_as_float(to_tf32(x.x));
          x.y = __uint_as_float(to_tf32(x.y));
          x.z = __uint_as_float(to_tf32(x.z));
          x.w = __uint_as_float(to_tf32(x.w));
          *reinterpret_cast<float4*>(b_tile + v * T::kStageB + ((xr / 8) * (BK / 4) + xq) * 32 + (xr % 8) * 4) = x;
        }
        // The B tile's generic writes (and the box's generic reads, before the slot's refill) ordered before the
        // async proxy's wgmmas and TMA.
        fence_generic_to_async_shared();
        mbarrier_arrive(&ready[slot]);
      }
    }
    return;  // the consumers' ordered epilogue passes a barrier of their own (weight_sums_barrier)
  }

  warpgroup_registers_up<T::kConsumerRegisters>();
  const int wwarp = warp % 4, gid = lane / 4, tig = lane % 4;
  const int kh = blk.kh + group;  // this warpgroup's kH row (the plan makes kH a multiple of kRowGroups)
  float acc[kMaxTaps][BN / 2];
#pragma unroll
  for (int t = 0; t < kMaxTaps; ++t)
#pragma unroll
    for (int i = 0; i < BN / 2; ++i) acc[t][i] = 0.f;
  const int frag_at =
      T::kStageB + group * T::kStageA +
      (kChannelsLast ? wwarp * 8 + gid / 2 + (gid % 2 + 2 * tig) * T::kClDyPitch
                     : (wwarp * 8 + gid / 2) * T::kLdRaw + gid % 2 + e + 2 * tig);
  for (int it = 0; it < iterations; ++it) {
    const int slot = it % S;
    const uint32_t parity = uint32_t(it / S) & 1u;
    // full: the raw rows (TMA writes) are visible to this thread; ready: the B tile is rounded and fenced.
    mbarrier_wait(&full[slot], parity);
    mbarrier_wait(&ready[slot], parity);
    RowsFragments<kRowGroups, kUnits, kMaxTaps> frag;
    load_rows_fragments<kRowGroups, kUnits, kMaxTaps, kChannelsLast>(frag, slots + slot * kUnits * kUnit, frag_at,
                                                                     blk.taps.shift_step, blk.taps.count);
    issue_rows_wgmmas<kRowGroups, kUnits, kMaxTaps>(acc, frag, b_tiles + slot * kUnits * T::kStageB);
    wgmma_wait<0>();
    // This thread's generic reads of the raw rows before the refill's async writes.
    fence_generic_to_async_shared();
    mbarrier_arrive(&empty[slot]);
  }

  float* const out = weight_sums_destination<T::kThreads>(a, work);
  store_rows_weight_sums<kMaxTaps, BN>(a, work, blk, out, kh, wwarp, acc);
  pass_split_turn<T::kThreads>(a, work);
}
// The rows kernel for fp16/bf16 data (WeightWgmmaRows16Tile): the fp32 forms' blocks, units, raw grad_output rows
// and sums. A producer warpgroup after the kRowGroups consumer warpgroups; its thread 0 waits until every consumer
// has released a slot (empty[s]) and issues the slot's boxes (full[s]): per unit, x as two 8-position boxes that form
// the B tile, and each warpgroup's raw rows. Consumers: wait full[s], build the A fragments from the raw rows (rows
// gid, gid + 8 = folded columns (channel, phase) as in the fp32 forms; per register strip columns 2 tig, 2 tig + 1
// (+ 8) of the tap's shift, which lie two raw positions apart: two 16-bit loads), one m64n128k16 per unit and tap,
// wait, release the slot. Tried and removed (run 365, one build, bf16 fwd+bwd ms, two rounds): keeping one stage's
// wgmmas in flight while the next stage's fragments load (two fragment sets, each slot released a stage later) gave
// the same bits and DCGAN 0.869-0.875 against 0.873-0.875, VAE 1.303-1.304 against 1.301-1.302; so at 0.309 ms (222
// TFLOP/s, the tensor pipe about a quarter busy) the warpgroups' serial wait-load-issue-wait chain is not the limit.
// kSwizzledX (the default; TCONV_GRAD_WEIGHT_ROWS16_SWIZZLE=0 gives the two-box form): x as one 32-byte-swizzled box
// per unit, read by a layout-type-3 descriptor (WeightWgmmaRows16Tile::kSwizzledBStrideBytes). Why: the two-box form
// asks TMA for 320 box rows per unit, 256 of them x rows of 16 bytes; this one for 192. Measured (H200, bf16): ncu
// (run 367) DCGAN 309 -> 279 us, U-Net 3D 208 -> 174 us (L2 throughput 84 % either way there); profiler census U-Net
// 3D 0.211 -> 0.179 ms; fwd+bwd (run 366, two rounds) DCGAN 0.860-0.865 -> 0.839-0.841 ms, VAE 1.300 -> 1.262.
template <typename scalar_t, int kRowGroups, int kMaxTaps, int kUnits, bool kSwizzledX>
__global__ void __launch_bounds__(WeightWgmmaRows16Tile<kRowGroups>::kBlockThreads, 1)
tconv_igemm_grad_weight_wgmma_rows16_kernel(const __grid_constant__ RowsWeightArgs args) {
  using T = WeightWgmmaRows16Tile<kRowGroups>;
  static_assert(sizeof(scalar_t) == 2, "fp16/bf16 data");
  static_assert(kMaxTaps >= 1 && kMaxTaps <= T::kMaxTaps, "taps per block within the tile's limit");
  constexpr int BM = T::kBlockM, BN = T::kBlockN, S = T::stages(kUnits), LDR = T::kLdRaw, kUnit = T::kUnitElems;
  const WeightGradArgs& a = args.a;
  extern __shared__ __align__(128) unsigned char rows16_smem[];
  // The swizzled x boxes start on the swizzle's atoms (256 bytes; shared_bytes leaves the slack)
  scalar_t* const slots = reinterpret_cast<scalar_t*>(kSwizzledX ? shared_aligned_1024(rows16_smem) : rows16_smem);
  uint64_t* const full = reinterpret_cast<uint64_t*>(slots + S * kUnits * kUnit);  // [S]: boxes landed
  uint64_t* const empty = full + S;                                                  // [S]: consumers done

  const WeightWork work = weight_block_work(a);
  const WeightBlock blk = decode_weight_block(a, work, BN, BM, T::kMaxStripShift, kRowGroups);
  const int iterations = int(blk.u_end - blk.u_begin + kUnits - 1) / kUnits;
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32, group = uniform_warpgroup();
  if (tid == 0) {
#pragma unroll
    for (int st = 0; st < S; ++st) {
      mbarrier_init(&full[st], 1);
      mbarrier_init(&empty[st], T::kThreads);
    }
    fence_mbarrier_init();
  }
  __syncthreads();
  const int e = rows_alignment_offset<8>(a, blk.taps);

  if (group == kRowGroups) {
    warpgroup_registers_down<T::kProducerRegisters>();
    if (warp % 4 == 0 && lane == 0) {
      RowsStageIssuer<kRowGroups, kUnits, scalar_t, kSwizzledX ? 1 : 2> issuer(args, blk, e);
      for (int it = 0; it < iterations; ++it) {
        const int slot = it % S;
        wait_stage_slot_empty<S>(empty, it);
        issuer.issue(args, blk, slots + slot * kUnits * kUnit, &full[slot]);
      }
    }
    return;  // the consumers' ordered epilogue passes a barrier of their own (weight_sums_barrier)
  }

  warpgroup_registers_up<T::kConsumerRegisters>();
  const int wwarp = warp % 4, gid = lane / 4, tig = lane % 4;
  const int kh = blk.kh + group;  // this warpgroup's kH row (the plan makes kH a multiple of kRowGroups)
  float acc[kMaxTaps][BN / 2];
#pragma unroll
  for (int t = 0; t < kMaxTaps; ++t)
#pragma unroll
    for (int i = 0; i < BN / 2; ++i) acc[t][i] = 0.f;
  // Strip column c of phase gid % 2 lies at raw position 2 c + gid % 2 + e; this thread's first is c = 2 tig.
  const int frag_at = T::kStageB + group * T::kStageA + (wwarp * 8 + gid / 2) * LDR + gid % 2 + e + 4 * tig;
  const int shift_step = blk.taps.shift_step, count = blk.taps.count;
  for (int it = 0; it < iterations; ++it) {
    const int slot = it % S;
    mbarrier_wait(&full[slot], uint32_t(it / S) & 1u);
    const scalar_t* const stage = slots + slot * kUnits * kUnit;
    uint32_t frag[kUnits][kMaxTaps][4];
#pragma unroll
    for (int v = 0; v < kUnits; ++v)
#pragma unroll
      for (int t = 0; t < kMaxTaps; ++t) {
        // Taps past the group's count load zeros (their wgmmas still issue: no branch between a stage's wgmmas).
        const uint16_t* const p = reinterpret_cast<const uint16_t*>(stage + v * kUnit + frag_at) + 2 * t * shift_step;
        const bool live = t < count;
        const auto pair = [&](int at) { return live ? uint32_t(p[at]) | (uint32_t(p[at + 2]) << 16) : 0u; };
        frag[v][t][0] = pair(0);
        frag[v][t][1] = pair(4 * LDR);
        frag[v][t][2] = pair(16);
        frag[v][t][3] = pair(4 * LDR + 16);
        // Every fragment is built before the first wgmma (as in the shifted-x kernel: ptxas fences otherwise).
        asm volatile("" : "+r"(frag[v][t][0]), "+r"(frag[v][t][1]), "+r"(frag[v][t][2]), "+r"(frag[v][t][3]));
      }
    wgmma_fence();
#pragma unroll
    for (int v = 0; v < kUnits; ++v) {
      const float* const b_tile = reinterpret_cast<const float*>(stage + v * kUnit);
      const uint64_t b_desc = kSwizzledX ? wgmma_swizzled_descriptor(b_tile, T::kSwizzledBStrideBytes, 3u)
                                         : wgmma_smem_descriptor(b_tile, T::kBLeadingBytes, T::kBStrideBytes);
#pragma unroll
      for (int t = 0; t < kMaxTaps; ++t) wgmma_mma<BN, scalar_t>(acc[t], frag[v][t], b_desc);
    }
    wgmma_commit();
    wgmma_wait<0>();
    // This thread's generic reads of the raw rows before the refill's async writes.
    fence_generic_to_async_shared();
    mbarrier_arrive(&empty[slot]);
  }

  float* const out = weight_sums_destination<T::kThreads>(a, work);
  store_rows_weight_sums<kMaxTaps, BN>(a, work, blk, out, kh, wwarp, acc);
  pass_split_turn<T::kThreads>(a, work);
}
// The shifted-x kernel's sums of one accumulator set (kCount per thread, kColumns wide: a tap pair or one tap):
// accumulator i = 4 j + 2 h + l is C_out co_first + co_step h (8; 8 R for interleaved rows of R channels) and column
// 8 j + 2 tig + l, i.e. tap first_tap + column / 32 and C_in ci0 + column % 32. base: the tile row's (group, C_out
// co_first, tap 0) sum. A W tap group's taps past the kernel's last (kernel W 7 as two groups of 4) are not stored.
template <int kCount, int kColumns>
__device__ __forceinline__ void store_shifted_x_sums(const WeightGradArgs& a, const WeightBlock& blk, float* base,
                                                     int co_first, int tig, bool add, int first_tap,
                                                     const float (&acc)[kCount], int co_step = 8) {
  static_assert(kColumns == 2 * kCount, "m64nN: N / 2 accumulators per thread");
  constexpr int kN = WeightShiftedXShape::kBlockN;
  const int64_t ci_step = int64_t(a.cout_g) * a.taps;
  // Accumulator i's C_in and tap.
  const auto ci = [&](int i) { return blk.ci0 + (8 * (i / 4) + 2 * tig + i % 2) % kN; };
  const auto tap = [&](int i) { return first_tap + (8 * (i / 4) + 2 * tig + i % 2) / kN; };
  store_weight_sums_by_eights(
      add, acc,
      [&](int i) { return ci(i) < a.cin_g && co_first + co_step * (i / 2 % 2) < a.cout_g && tap(i) < a.kernel[2]; },
      [&](int i) { return base + ci(i) * ci_step + co_step * (i / 2 % 2) * a.taps + tap(i); });
}

// The shifted-x kernel's units: (image, input D row, 16-position grad_output chunk, input H row), H innermost, so a
// block's consecutive units walk down one column of input rows (a sweep) and its grad_output rows slide with them.
struct ShiftedXCursor {
  int64_t n;
  int id, wc, ih;
  __device__ __forceinline__ void advance(const WeightGradArgs& a) {
    if (++ih < a.in_size[1]) return;
    ih = 0;
    if (++wc < a.w_chunks) return;
    wc = 0;
    if (++id < a.in_size[0]) return;
    id = 0;
    ++n;
  }
};
__device__ __forceinline__ ShiftedXCursor shifted_x_cursor(const WeightGradArgs& a, int64_t u) {
  ShiftedXCursor c;
  c.ih = int(u % a.in_size[1]);
  u /= a.in_size[1];
  c.wc = int(u % a.w_chunks);
  u /= a.w_chunks;
  c.id = int(u % a.in_size[0]);
  c.n = u / a.in_size[0];
  return c;
}
// With H stride and dilation 1 (slide), warpgroup w's grad_output row at input row ih + 1 is warpgroup w + 1's at ih
// when both flattened rows lie in one kd. The reach of w: how many warpgroups after it continue that chain. The
// chain's last warpgroup (reach 0) loads its row every unit; w reads the row it loaded `reach` units earlier, or,
// within a sweep's first `reach` units, the row of warpgroup w + k that the sweep's first unit loaded for every row.
// Rows past kD x kH have reach 0 and load nothing (they compute on stale data and store nothing).
__device__ __forceinline__ int shifted_x_reach(const RowsWeightArgs& args, int first_row, int w) {
  const WeightGradArgs& a = args.a;
  const int rows = a.kernel[0] * a.kernel[1], row = first_row + w;
  if (!args.slide || row >= rows) return 0;
  int reach = 0;
  for (int v = row + 1; v < first_row + WeightShiftedXShape::kRows && v < rows && v / a.kernel[1] == row / a.kernel[1];
       ++v)
    ++reach;
  return reach;
}
// The lean kernel's row slots (shifted_x_lean_slots): kRows x args.dy_slots flattened (kd, kh) rows from first_row,
// slot s the row first_row + s, which warpgroup s / dy_slots computes on (its warps from s % dy_slots x 4 / dy_slots,
// 64 / dy_slots channels). Slot s's reach as shifted_x_reach's, modulo kMaxChain: longer chains (more than kRows
// slots in one kd) restart, so that no stage is held more than kMaxChain - 1 units past its load (the consumers
// release a stage release_lag units late, which must stay well below the stages).
__device__ __forceinline__ int shifted_x_slot_reach(const RowsWeightArgs& args, int first_row, int slot) {
  constexpr int kMaxChain = WeightShiftedXShape::kRows;
  const WeightGradArgs& a = args.a;
  const int rows = a.kernel[0] * a.kernel[1], row = first_row + slot;
  if (!args.slide || row >= rows) return 0;
  int reach = 0;
  const int end = first_row + WeightShiftedXShape::kRows * args.dy_slots;
  for (int v = row + 1; v < end && v < rows && v / a.kernel[1] == row / a.kernel[1]; ++v) ++reach;
  return reach % kMaxChain;
}

// The rounders' four shifted copies of one unit's x window, by item: C_in row ci = 8 cb + c8 and K core mq, for item
// i = (cb x 5 + mq) x 8 + c8. Copy r's 16 bytes at (ci, mq) are window positions 4 mq + q - r + kE (q = 0..3), all
// within the window's aligned float4s mq - 1 .. mq + 1 (none before position 0 for mq = 0: zeros; none past 23).
// So an item reads three 16-byte words and rounds 12 floats for its 4 pieces, and eight consecutive items write 128
// contiguous bytes of each copy. Run 184 (H100, one build, L1-68 TF32 fwd+bwd): 22.67 ms against 25.89 with the form
// before, which decoded each 16-byte piece separately from 4 scalar reads; the kernel went 11.6 -> 8.35 ms, so the
// rounders had been its limit (run 183's halving of the grad_output loads had left it level).
template <typename T, int kE>
__device__ __forceinline__ void round_shifted_x_copies(const float* window, float* copy, int rounder) {
  constexpr int kItems = T::kBlockN * T::kCopyCores, kCopyStride = T::kBlockN * T::kCopyK;
  for (int i = rounder; i < kItems; i += T::kRounders) {
    const int c8 = i % 8, mq = (i / 8) % T::kCopyCores, cb = i / (8 * T::kCopyCores);
    const float* const at = window + (cb * 8 + c8) * T::kXBoxW + 4 * mq;
    const float4 before = mq > 0 ? *reinterpret_cast<const float4*>(at - 4) : make_float4(0.f, 0.f, 0.f, 0.f);
    const float4 here = *reinterpret_cast<const float4*>(at), after = *reinterpret_cast<const float4*>(at + 4);
    const float raw[12] = {before.x, before.y, before.z, before.w, here.x, here.y, here.z, here.w,
                           after.x,  after.y,  after.z,  after.w};
    float v[12];
#pragma unroll
    for (int k = 0; k < 12; ++k) v[k] = __uint_as_float(to_tf32(raw[k]));
    float* const piece = copy + ((cb * T::kCopyCores + mq) * 8 + c8) * 4;
#pragma unroll
    for (int r = 0; r < T::kCopies; ++r)
      *reinterpret_cast<float4*>(piece + r * kCopyStride) =
          make_float4(v[4 - r + kE], v[5 - r + kE], v[6 - r + kE], v[7 - r + kE]);
  }
  static_assert(T::kXBoxW == 4 * (T::kCopyCores + 1), "the last item's word after lies inside the window");
}
// The same copies from a channels-last window ([position][channel], the box's order; e is 0 there): item
// i = mq x 32 + ci, so that a warp reads 32 consecutive floats of one position (no bank conflicts) and a quarter-warp
// writes 128 contiguous bytes of a copy. Copy r's 16 bytes at (ci, mq) are window positions 4 mq + q - r (q = 0..3):
// 4 mq - 3 .. 4 mq + 3, read as 7 scalars (the channel-major form reads 3 float4s), zeros before position 0 as there.
template <typename T>
__device__ __forceinline__ void round_shifted_x_copies_channels_last(const float* window, float* copy, int rounder) {
  static_assert(T::kBlockN == 32, "one position's channels: a warp's lanes");
  constexpr int kItems = T::kBlockN * T::kCopyCores, kCopyStride = T::kBlockN * T::kCopyK;
  for (int i = rounder; i < kItems; i += T::kRounders) {
    const int ci = i % 32, mq = i / 32;
    const float* const at = window + 4 * mq * T::kBlockN + ci;  // position 4 mq
    float v[8];  // v[k]: position 4 mq - 4 + k (k = 1..7; v[0] unused)
#pragma unroll
    for (int k = 1; k < 8; ++k) v[k] = k >= 4 || mq > 0 ? __uint_as_float(to_tf32(at[(k - 4) * T::kBlockN])) : 0.f;
    float* const piece = copy + (((ci / 8) * T::kCopyCores + mq) * 8 + ci % 8) * 4;
#pragma unroll
    for (int r = 0; r < T::kCopies; ++r)
      *reinterpret_cast<float4*>(piece + r * kCopyStride) = make_float4(v[4 - r], v[5 - r], v[6 - r], v[7 - r]);
  }
  static_assert(T::kCopies == 4 && T::kXBoxW >= 4 * T::kCopyCores, "the last item's positions lie in the window");
}
// The 16-bit copies (WeightShiftedXTile<2, kUnitK>): copy r (tap r) holds at position m window position m + 4 + e - r,
// so its 16 bytes at (ci, K core mq) start at element L = 4 + e - r of the window's 16-byte words mq .. mq + 2
// (L <= 11: 8 more fit the 24 elements). Item i = (cb x kCopyCores + mq) x 8 + c8 (C_in row ci = 8 cb + c8) reads
// those three words and writes its piece of each copy: whole words for even L, a funnel of two for odd L. No
// rounding: fp16/bf16 are the wgmma's own types.
template <typename T, int kE>
__device__ __forceinline__ void shift_x_copies_16bit(const uint16_t* window, uint16_t* copy, int shifter) {
  constexpr int kItems = T::kBlockN * T::kCopyCores, kCopyStride = T::kBlockN * T::kCopyK;
  for (int i = shifter; i < kItems; i += T::kRounders) {
    const int c8 = i % 8, mq = (i / 8) % T::kCopyCores, cb = i / (8 * T::kCopyCores);
    const uint4* const at = reinterpret_cast<const uint4*>(window + (cb * 8 + c8) * T::kXBoxW + 8 * mq);
    const uint4 w0 = at[0], w1 = at[1], w2 = at[2];
    const uint32_t u[12] = {w0.x, w0.y, w0.z, w0.w, w1.x, w1.y, w1.z, w1.w, w2.x, w2.y, w2.z, w2.w};
    uint16_t* const piece = copy + ((cb * T::kCopyCores + mq) * 8 + c8) * 8;
#pragma unroll
    for (int r = 0; r < T::kCopies; ++r) {
      const int first = 4 + kE - r;  // constant once unrolled
      uint32_t v[4];
#pragma unroll
      for (int k = 0; k < 4; ++k)
        v[k] = first % 2 == 0 ? u[first / 2 + k] : __byte_perm(u[first / 2 + k], u[first / 2 + k + 1], 0x5432);
      *reinterpret_cast<uint4*>(piece + r * kCopyStride) = make_uint4(v[0], v[1], v[2], v[3]);
    }
  }
  static_assert(T::kXBoxW >= 8 * (T::kCopyCores + 2), "an item's three words lie in the window");
}
// One unit's copies of the x window, by the window's alignment offset e (0 .. kAlign - 1).
template <typename T, typename scalar_t>
__device__ __forceinline__ void build_shifted_x_copies(int e, const scalar_t* window, scalar_t* copy, int rounder) {
  if constexpr (std::is_same<scalar_t, float>::value) {
    switch (e) {
      case 0: round_shifted_x_copies<T, 0>(window, copy, rounder); break;
      case 1: round_shifted_x_copies<T, 1>(window, copy, rounder); break;
      case 2: round_shifted_x_copies<T, 2>(window, copy, rounder); break;
      default: round_shifted_x_copies<T, 3>(window, copy, rounder); break;
    }
  } else {
    const uint16_t* const w = reinterpret_cast<const uint16_t*>(window);
    uint16_t* const c = reinterpret_cast<uint16_t*>(copy);
    switch (e) {
      case 0: shift_x_copies_16bit<T, 0>(w, c, rounder); break;
      case 1: shift_x_copies_16bit<T, 1>(w, c, rounder); break;
      case 2: shift_x_copies_16bit<T, 2>(w, c, rounder); break;
      case 3: shift_x_copies_16bit<T, 3>(w, c, rounder); break;
      case 4: shift_x_copies_16bit<T, 4>(w, c, rounder); break;
      case 5: shift_x_copies_16bit<T, 5>(w, c, rounder); break;
      case 6: shift_x_copies_16bit<T, 6>(w, c, rounder); break;
      default: shift_x_copies_16bit<T, 7>(w, c, rounder); break;
    }
  }
}

// A grad_output row's box in the flat map (args.dy_flat: rows whose stride is no multiple of 16 bytes, D, H and W as
// one dimension): it starts `shift` = 0 .. kAlign - 1 positions (elements per 16 bytes) before (od, oh, j0) so that
// the start lies on 16 bytes, and holds `inside` positions of the row from j0 (the rest belong to the next row). A
// row outside the tensor loads nothing: the flat map would give another row's values, not zeros.
struct FlatDyRow {
  int start, shift, inside;
  bool outside;
};
template <int kAlign>
__device__ __forceinline__ FlatDyRow flat_dy_row(const WeightGradArgs& a, int od, int oh, int j0) {
  FlatDyRow r;
  r.outside = od < 0 || od >= a.out_size[0] || oh < 0 || oh >= a.out_size[1];
  const int flat = (od * a.out_size[1] + oh) * a.out_size[2] + j0;  // the host keeps D x H x W below 2^31
  r.shift = flat & (kAlign - 1);
  r.start = flat - r.shift;
  r.inside = a.out_size[2] - j0;
  return r;
}
// Channel `sub`'s box in an interleaved row (RowsWeightArgs::dy_interleave: R = 2 or 4 channels' D x H x W planes
// back to back as one row of the map, so its row stride is on 16 bytes where a channel's is not): channel 0's flat
// position `first` (flat_dy_row's) `sub` planes on (plane_offset = sub x D x H x W, worked out once per thread: a
// multiply per unit costs where the producer's scalar work bounds the kernel), started on 16 bytes as flat_dy_row's;
// its positions from `inside` on are the next plane's (the host keeps R planes below 2^31). Which tile rows hold which
// channels: interleaved_row_box / interleaved_row_channel (conv_params.h).
template <int kAlign>
__device__ __forceinline__ FlatDyRow interleaved_dy_row(const FlatDyRow& first, int plane_offset) {
  FlatDyRow r = first;
  const int flat = first.start + first.shift + plane_offset;
  r.shift = flat & (kAlign - 1);
  r.start = flat - r.shift;
  return r;
}

// The grad_output rows of one unit (load[w]: warpgroup w's row at (od[w], oh[w]), positions j0 .. j0 + kBlockK - 1 of
// kBlockM channels from dy_channel) copied by the 32 lanes of a warp in 4-byte pieces, zeros outside the tensor (what
// the 5-D map's boxes hold; the box columns past kBlockK are not read). For grad_output rows that no tensor map takes
// (shifted_x_copy_dy_fits: W contiguous, every stride and W a whole number of pieces), e.g. 16-bit L1-71 (W 1026).
// A lane keeps one piece column of a span of kPieces pieces from position kColumn0 (kPieces divides 32), so a unit of
// 48 16-bit positions is copied as spans of 32 and 16 positions.
template <typename T, int kColumn0, int kPieces>
__device__ __forceinline__ void copy_shifted_x_dy_span(const WeightGradArgs& a, void* dy_rows, const bool* load,
                                                       const int* od, const int* oh, int j0, int n, int dy_channel,
                                                       int lane) {
  constexpr int kElemBytes = 16 / T::kAlign, kPerPiece = 4 / kElemBytes;
  static_assert(32 % kPieces == 0, "a lane keeps one piece column");
  constexpr int kRowStep = 32 / kPieces;  // channel rows between a lane's pieces
  const int column = kColumn0 + lane % kPieces * kPerPiece, first_row = lane / kPieces, j = j0 + column;
  const int rows_left = a.groups * a.cout_g - dy_channel - first_row;  // channels from the lane's first on
  const float* const dy_base = static_cast<const float*>(a.dy);
#pragma unroll
  for (int w = 0; w < T::kRows; ++w) {
    if (!load[w]) continue;
    const bool inside = unsigned(od[w]) < unsigned(a.out_size[0]) && unsigned(oh[w]) < unsigned(a.out_size[1]) &&
                        j < a.out_size[2];
    const char* src = static_cast<const char*>(a.dy) +
                      (int64_t(n) * a.dy_stride[0] + int64_t(od[w]) * a.dy_stride[2] +
                       int64_t(oh[w]) * a.dy_stride[3] + int64_t(dy_channel + first_row) * a.dy_stride[1] + j) *
                          kElemBytes;
    const int64_t src_step = int64_t(kRowStep) * a.dy_stride[1] * kElemBytes;
    float* dst = reinterpret_cast<float*>(static_cast<char*>(dy_rows) +
                                          (w * T::kDyElems + first_row * T::kDyBoxW + column) * kElemBytes);
#pragma unroll 4
    for (int r = 0; r < T::kBlockM / kRowStep; ++r) {
      const bool ok = inside && r * kRowStep < rows_left;
      cp_async_4(dst, ok ? reinterpret_cast<const float*>(src) : dy_base, ok);
      src += src_step;
      dst += kRowStep * T::kDyBoxW * kElemBytes / 4;
    }
  }
}
template <typename T>
__device__ __forceinline__ void copy_shifted_x_dy_rows(const WeightGradArgs& a, void* dy_rows, const bool* load,
                                                       const int* od, const int* oh, int j0, int n, int dy_channel,
                                                       int lane) {
  constexpr int kPerPiece = 4 / (16 / T::kAlign), kPieces = T::kBlockK / kPerPiece;
  if constexpr (32 % kPieces == 0) {
    copy_shifted_x_dy_span<T, 0, kPieces>(a, dy_rows, load, od, oh, j0, n, dy_channel, lane);
  } else {
    static_assert(kPieces == 24, "a unit of 48 16-bit positions: spans of 32 and 16");
    copy_shifted_x_dy_span<T, 0, 16>(a, dy_rows, load, od, oh, j0, n, dy_channel, lane);
    copy_shifted_x_dy_span<T, 32, 8>(a, dy_rows, load, od, oh, j0, n, dy_channel, lane);
  }
}

// A unit's x window in the flat x map (RowsWeightArgs::x_flat: D, H, W as one dimension): a TMA box starts on 16
// bytes, so the window starts e = 0 .. kAlign - 1 positions before position j0 + pad_w - 4 of the unit's row (the
// 5-D map's rows start on 16 bytes, so there e depends on pad_w alone).
struct FlatXWindow {
  int start, e;
};
template <int kAlign, int kUnitK>
__device__ __forceinline__ FlatXWindow flat_x_window(const WeightGradArgs& a, const ShiftedXCursor& cur, int pad_w) {
  const int at = (cur.id * a.in_size[1] + cur.ih) * a.in_size[2] + cur.wc * kUnitK + pad_w - 4;
  return {at - (at & (kAlign - 1)), at & (kAlign - 1)};
}
// A unit's x window into `stage`, after the stage's expect_tx for the window and dy_elems grad_output elements: the 5-D
// map's box from W position j0 + pad_w - 4 - e of row (id, ih), or the flat map's window (flat_x_window), whose e
// reaches the rounders through window_e and the barrier's release. The flat map's window may reach into the
// neighbouring rows: only where no stored tap reads there (shifted_x_flat_x_fits). kChannelsLast: the channels-last
// map's box (channels innermost: [position][channel]), from W position j0 + pad_w - 4 (e is 0: a W coordinate needs no
// alignment there).
template <typename T, bool kChannelsLast = false, typename scalar_t>
__device__ __forceinline__ void issue_shifted_x_window(const RowsWeightArgs& args, const ShiftedXCursor& cur, int j0,
                                                       int n, int pad_w, int e, int x_channel, int dy_elems,
                                                       scalar_t* stage, uint64_t* full_slot, int* window_e_slot) {
  int x_w = j0 + pad_w - 4 - e, x_h = cur.ih, x_d = cur.id;
  if (!kChannelsLast && args.x_flat) {
    const FlatXWindow window = flat_x_window<T::kAlign, T::kBlockK>(args.a, cur, pad_w);
    *window_e_slot = window.e;
    x_w = window.start, x_h = 0, x_d = 0;
  }
  mbarrier_arrive_expect_tx(full_slot, uint32_t((T::kXElems + dy_elems) * sizeof(scalar_t)));
  if constexpr (kChannelsLast)
    tma_load_5d(stage, &args.x_map, x_channel, x_w, x_h, x_d, n, full_slot);
  else
    tma_load_5d(stage, &args.x_map, x_w, x_channel, x_h, x_d, n, full_slot);
}

// A shifted-x block's tile, C_in fastest, then C_out, group, W tap group (a.max_taps taps from blk.taps.kw0) and row
// tile (kRows flattened (kd, kh) rows; blk.kh is the first, kd * kH + kh), and its split's units: the order and counts
// of plan_grad_weight_shifted_x's tiles. The channel-tile form (tile_rows 1, co_block kRows x kBlockM): C_out tiles of
// kRows x 64 channels, one row each.
__device__ __forceinline__ WeightBlock decode_shifted_x_block(const WeightGradArgs& a, WeightWork work,
                                                              int tile_rows = WeightShiftedXShape::kRows,
                                                              int co_block = WeightShiftedXShape::kBlockM) {
  using T = WeightShiftedXShape;
  WeightBlock blk{};
  const int ci_tiles = (a.cin_g + T::kBlockN - 1) / T::kBlockN, co_tiles = (a.cout_g + co_block - 1) / co_block;
  int tile = work.tile;
  blk.ci0 = (tile % ci_tiles) * T::kBlockN; tile /= ci_tiles;
  blk.co0 = (tile % co_tiles) * co_block; tile /= co_tiles;
  blk.g = tile % a.groups; tile /= a.groups;
  blk.taps = WTapGroup{(tile % a.w_groups) * a.max_taps, 1, a.max_taps, 1};
  tile /= a.w_groups;
  blk.kh = tile * tile_rows;
  blk.u_begin = int64_t(work.split) * a.chunk;
  blk.u_end = blk.u_begin + a.chunk < a.units ? blk.u_begin + a.chunk : a.units;
  return blk;
}

// The shifted-x grad_weight kernel (WeightShiftedXTile): a block is (row tile of kRows flattened (kd, kh) rows, group,
// C_out tile of 64, C_in tile of 32) x one split of K, whose units are (image, input D row, kUnitK-position chunk of
// the grad_output row, input H row), H innermost (ShiftedXCursor); kUnitK is 16 or 32, or 48 for 16-bit data
// (WeightGradPlan::shifted_x_unit). Per unit, producer warp 0 (lane 0) loads the x window of input row (n, id, ih)
// (32 channels x kXBoxW positions from j0 + p - 4 - e) and the grad_output rows (64 channels x kDyBoxW positions from j0) at
// (id s + kd d - p, ih s + kh d - p) that the unit's consumer warpgroups do not share with an earlier unit
// (shifted_x_reach: at a sweep's first unit every valid row, then one per chain; or, args.dy_copied, warp 0's lanes
// copy those rows: copy_shifted_x_dy_rows); zeros outside the tensors. A slot is
// released when the last unit that reads its rows ends. Producer warps 1-3 write the shifted copies of the window
// (fp32: four, rounded to TF32, copy r's position m the window's m - r + e; fp16/bf16: one per tap, as they are;
// build_shifted_x_copies). Consumer warpgroup w: A = its grad_output row (fragments rounded as they load in fp32), B =
// the copies by descriptor, accumulators per tap pair (m64n64) and for a last odd tap (m64n32); k8 steps for fp32
// data (TF32), k16 for fp16/bf16. kKernelW: the taps of the block's W tap group (the whole kernel W up to 5; wider
// kernels as equal groups, e.g. 7 as 4 + 4 with the eighth tap not stored).
// kLean (the lean kernel: TF32 packed rows by rule, shifted_x_lean_slots): producer lane 0 walks only the rows a
// unit loads, their (kd, kh) stepped without division, and a warpgroup may take args.dy_slots rows of 64 / dy_slots
// channels (shifted_x_slot_reach).
// kDyChannels (WeightShiftedXTile): 32 in the narrow form (fp32, the measured kernel's slots with 32-channel rows).
// kChannelTiles (the channel-tile form: one (kd, kh) row, > 64 output channels per group; shifted_x_channel_tiles):
// warpgroup w takes C_out tile co0 + 64 w of the block's one row instead of row kh + w of one C_out tile, so a 1D
// kernel's three warpgroups share each unit's x copies; a slot holds 64 channels of the unit's one grad_output row, no
// row slides, and a warpgroup whose tile lies past the group's channels loads nothing and issues no MMAs.
// kRingSlots (the row ring, fp32 at a unit of 32, the measured kernel's rows: WeightShiftedXTile's kRingSlots): a
// unit's rows go to the next free slots of a ring of their own, in the order of their warpgroups, and a stage holds
// the x window (and its copies) only, released when its unit ends; the rows of a unit are released release_lag units
// later (at a sweep's or the block's end, those still held), in load order, so the ring frees its slots in the order
// it fills them. The producer writes each unit's first ring slot beside its stage (ring_first); a consumer keeps those
// of its last kRows units, and finds its row among the rows its source unit loaded: a sweep's first unit loads every
// valid row of the tile, the others the chains' heads (the rows whose reach is 0).
// kRingOverlap (the ring's default; shifted_x_ring_overlap): a unit's wgmmas stay in flight while the
// warpgroup waits for the next unit's stage and finds its row; it waits for them (and releases their stage) just
// before it loads the next unit's fragments over theirs. Its rows are in registers once loaded, so they are released
// as before.
// kChannelsLast (the ring only; shifted_x_channels_last_taken): x and grad_output with channels innermost, through
// maps whose boxes land [position][channel] (shifted_x_channels_last_maps): the rounders read the window across
// (round_shifted_x_copies_channels_last) and write the same copies; a grad_output row is kUnitK positions of
// T::kChannelsLastDyPitch channels, whose fragments the consumers load with the steps swapped. The same values meet
// the same wgmmas in the same order: the channel-major ring's grad_weight bits.
template <typename scalar_t, int kUnitK, int kKernelW, bool kLean, int kDyChannels = WeightShiftedXShape::kBlockM,
          bool kChannelTiles = false, int kRingSlots = 0, bool kRingOverlap = false, bool kChannelsLast = false>
__device__ __forceinline__ void shifted_x_grad_weight(const RowsWeightArgs& args) {
  using T = WeightShiftedXTile<int(sizeof(scalar_t)), kUnitK, kDyChannels, kRingSlots>;
  constexpr bool kRowRing = T::kRowRing;
  static_assert(!kRowRing || (!kLean && !kChannelTiles), "the row ring: the measured kernel's rows");
  static_assert(!kRingOverlap || (kRowRing && sizeof(scalar_t) == 4), "the overlap: the ring's stages only");
  static_assert(!kChannelsLast || kRowRing, "channels-last data: the ring only");
  static_assert(!T::kNarrowRows || !kLean, "narrow rows: one slot per warpgroup");
  static_assert(!kChannelTiles || (!kLean && !T::kNarrowRows && T::kBlockM == 64),
                "channel tiles: the measured kernel's slots of 64 channels (interleaved_row_channel's tiles)");
  constexpr bool k16Bit = sizeof(scalar_t) == 2;
  static_assert(kKernelW >= 1 && kKernelW <= T::kMaxKernelW, "a W tap group within the copies' reach");
  constexpr int kPairs = kKernelW / 2, kOdd = kKernelW % 2, S = T::kStages, BK = T::kBlockK;
  const WeightGradArgs& a = args.a;
  extern __shared__ __align__(128) float shifted_smem[];
  scalar_t* const stages = reinterpret_cast<scalar_t*>(shifted_smem);  // [S][x window, kRows grad_output rows]
  scalar_t* const copies = stages + S * T::kStageElems;                // [S][kCopies x 32 rows][K], core matrices
  scalar_t* const ring = copies + S * T::kCopyElems;                   // [kRingSlots][grad_output row] (the ring)
  uint64_t* const full = reinterpret_cast<uint64_t*>(ring + T::kRingElems);
  uint64_t* const ready = full + S;
  uint64_t* const empty = ready + S;
  uint64_t* const row_empty = empty + S;                              // [kRingSlots]: a ring slot released
  int* const window_e = reinterpret_cast<int*>(row_empty + kRingSlots);  // [S]: a flat x window's e, for the rounders
  int* const ring_first = window_e + S;  // [S] (the ring): the first ring slot of the stage's unit's rows

  const WeightWork work = weight_block_work(a);
  const WeightBlock blk = kChannelTiles ? decode_shifted_x_block(a, work, 1, T::kRows * T::kBlockM)
                                        : decode_shifted_x_block(a, work, T::kRows * (kLean ? args.dy_slots : 1));
  const int iterations = int(blk.u_end - blk.u_begin);
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32, group = uniform_warpgroup();
  // The channel-tile form's warpgroups whose C_out tile lies inside the group's channels (the others read nothing).
  const int computing_groups = kChannelTiles ? min(T::kRows, (a.cout_g - blk.co0 + T::kBlockM - 1) / T::kBlockM)
                                             : T::kRows;
  if constexpr (kRowRing) {
    if (tid == 0)
      for (int r = 0; r < kRingSlots; ++r) mbarrier_init(&row_empty[r], computing_groups * T::kThreads / T::kRows);
  }  // (init_specialized_stage_barriers' fence and block barrier publish these too)
  // Copied grad_output rows (args.dy_copied): full also waits for each lane of producer warp 0 (its copies).
  init_specialized_stage_barriers<S, T::kRounders, T::kThreads>(
      full, ready, empty, k16Bit && args.dy_copied ? 1 + 32 : 1, computing_groups * T::kThreads / T::kRows);
  const int rows = a.kernel[0] * a.kernel[1];
  // The block's taps kw0 .. kw0 + kKernelW - 1 are taps 0 .. kKernelW - 1 at W padding p - kw0. The window starts e
  // positions before j0 + p - kw0 - 4 so that it lies on 16 bytes (j0 is a multiple of 16).
  const int pad_w = a.padding[2] - blk.taps.kw0;
  const int e = kChannelsLast ? 0 : ((pad_w - 4) % T::kAlign + T::kAlign) % T::kAlign;

  if (group == T::kRows) {
    warpgroup_registers_down<T::kProducerRegisters>();
    if (warp % 4 == 0) {
      // Lane 0 issues the boxes; with copied grad_output rows every lane of the warp also copies a share of them.
      if (lane == 0 || (k16Bit && args.dy_copied) || (kChannelTiles && args.lane_boxes)) {
        ShiftedXCursor cur = shifted_x_cursor(a, blk.u_begin);
        const int x_channel = blk.g * a.cin_g + blk.ci0, dy_channel = blk.g * a.cout_g + blk.co0;
        if constexpr (kLean) {
          // Bit s: slot s heads its chain (loads its row every unit); slots past kD x kH load nothing. 12 at most.
          const int valid_slots = min(T::kRows * args.dy_slots, rows - blk.kh);
          const uint32_t valid = (1u << valid_slots) - 1u;
          uint32_t heads = 0;
          for (int s = 0; s < valid_slots; ++s) heads |= uint32_t(shifted_x_slot_reach(args, blk.kh, s) == 0) << s;
          const int kd0 = blk.kh / a.kernel[1], kh0 = blk.kh % a.kernel[1], slot_elems = T::kDyElems / args.dy_slots;
          // f(s, od, oh) for each slot s of `mask` in order, its (kd, kh) stepped on from slot 0's: lane 0's scalar
          // work per unit has little slack (run 409: with a division per slot and unit, 12 slots took fam02's bf16
          // grad_weight from 1.37 to 5.99 ms).
          const auto for_each_row = [&](uint32_t mask, auto&& f) {
            int kd = kd0, kh = kh0, at = 0;
            for (; mask != 0; mask &= mask - 1) {
              const int s = __ffs(mask) - 1;
              for (kh += s - at, at = s; kh >= a.kernel[1]; kh -= a.kernel[1]) ++kd;
              f(s, cur.id * a.stride[0] + kd * a.dilation[0] - a.padding[0],
                cur.ih * a.stride[1] + kh * a.dilation[1] - a.padding[1]);
            }
          };
          for (int it = 0; it < iterations; ++it) {
            const int slot = it % S;
            wait_stage_slot_empty<S>(empty, it);
            scalar_t* const stage = stages + slot * T::kStageElems;
            const bool sweep_start = it == 0 || cur.ih == 0;
            const int j0 = cur.wc * BK, n = int(cur.n);
            const uint32_t loading = sweep_start ? valid : heads;
            // Copied rows take units of 16 or 32 here (plan_grad_weight_shifted_x): at 48 the copies' registers spilled
            // in the producer's 56 (nvcc 13.0).
            if constexpr (k16Bit && kUnitK != 48) {
              if (args.dy_copied) {  // one slot per warpgroup (shifted_x_slots); no flat map
                int od[T::kRows], oh[T::kRows];
                bool load[T::kRows];
#pragma unroll
                for (int w = 0; w < T::kRows; ++w) {
                  const int row = blk.kh + w;
                  od[w] = cur.id * a.stride[0] + row / a.kernel[1] * a.dilation[0] - a.padding[0];
                  oh[w] = cur.ih * a.stride[1] + row % a.kernel[1] * a.dilation[1] - a.padding[1];
                  load[w] = (loading >> w) & 1u;
                }
                copy_shifted_x_dy_rows<T>(a, stages + slot * T::kStageElems + T::kXElems, load, od, oh, j0, n,
                                          dy_channel, lane);
                mbarrier_arrive_on_copies(&full[slot]);
              }
            }
            if (lane == 0) {
              // A flat map's rows outside the tensor load nothing (its box would hold another row's values).
              int loads = args.dy_copied ? 0 : __popc(loading);
              if (args.dy_flat) {
                loads = 0;
                for_each_row(loading,
                             [&](int, int od, int oh) { loads += !flat_dy_row<T::kAlign>(a, od, oh, j0).outside; });
              }
              issue_shifted_x_window<T>(args, cur, j0, n, pad_w, e, x_channel, loads * slot_elems, stage, &full[slot],
                                        &window_e[slot]);
              if (!args.dy_copied)
                for_each_row(loading, [&](int s, int od, int oh) {
                  scalar_t* const dst = stage + T::kXElems + s * slot_elems;
                  if (!args.dy_flat) {
                    tma_load_5d(dst, &args.dy_map, j0, dy_channel, oh, od, n, &full[slot]);
                    return;
                  }
                  const FlatDyRow flat = flat_dy_row<T::kAlign>(a, od, oh, j0);
                  if (!flat.outside) tma_load_5d(dst, &args.dy_map, flat.start, dy_channel, 0, 0, n, &full[slot]);
                });
            }
            cur.advance(a);
          }
        } else if constexpr (kChannelTiles) {
          // Lane 0's scalar work per unit bounds the kernel where the MMAs are few (run 445's source counters, fam04
          // TF32 channel tiles: the producer warp ~93 % busy over ~360 instructions a unit, five integer divisions
          // among them), so everything that does not change along the units is worked out once here: each row's
          // (kd, kh) (one row for every warpgroup's C_out tile), whether a tile loads at all, and an interleaved row's
          // map channel and box offsets.
          const int tile_kd = blk.kh / a.kernel[1], tile_kh = blk.kh % a.kernel[1];
          bool tile_live[T::kRows];
          int map_channel[T::kRows];
          const int interleave = args.dy_interleave;
          const int box_elems = interleave ? interleaved_box_rows(interleave) * T::kDyBoxW : 0;
          const int plane = a.out_size[0] * a.out_size[1] * a.out_size[2];  // the host keeps R planes below 2^31
#pragma unroll
          for (int w = 0; w < T::kRows; ++w) {
            tile_live[w] = blk.kh < rows && w < computing_groups;
            const int channel = dy_channel + w * T::kBlockM;
            map_channel[w] = interleave ? channel / interleave : channel;
          }
          const bool masked_rows = args.dy_flat || interleave;  // rows outside the tensor load nothing
          // args.lane_boxes: lane 0 issues the x box and lane 1 + k the unit's grad_output box k (tile k / R, channel
          // k % R of each R), its map channel and offsets fixed per block, so a unit's boxes go out side by side
          // rather than one after the other from lane 0 (TF32's 4 boxes a unit, 16-bit data's 8; run 447:
          // shifted_x_lane_boxes).
          const int tile_boxes = interleave ? interleave : 1;
          const LaneBox mine = interleaved_lane_box(lane, tile_boxes);
          const bool my_live = mine.tile >= 0 && mine.tile < computing_groups && blk.kh < rows;
          const int my_channel = (dy_channel + mine.tile * T::kBlockM) / tile_boxes;
          const int my_dst = T::kXElems + mine.tile * T::kDyElems + mine.sub * box_elems, my_plane = mine.sub * plane;
          for (int it = 0; it < iterations; ++it) {
            const int slot = it % S;
            wait_stage_slot_empty<S>(empty, it);
            scalar_t* const stage = stages + slot * T::kStageElems;
            const int j0 = cur.wc * BK, n = int(cur.n);
            const int od = cur.id * a.stride[0] + tile_kd * a.dilation[0] - a.padding[0];
            const int oh = cur.ih * a.stride[1] + tile_kh * a.dilation[1] - a.padding[1];
            const FlatDyRow flat = flat_dy_row<T::kAlign>(a, od, oh, j0);
            const bool rows_load = !(masked_rows && flat.outside);
            int loads = 0;
#pragma unroll
            for (int w = 0; w < T::kRows; ++w) loads += tile_live[w] && rows_load;
            if (lane == 0) {
              issue_shifted_x_window<T>(args, cur, j0, n, pad_w, e, x_channel, loads * T::kDyElems, stage, &full[slot],
                                        &window_e[slot]);
            }
            if (args.lane_boxes) {
              __syncwarp();  // the boxes' bytes after the stage's expect_tx (a negative tx-count is allowed; kept plain)
              if (my_live && rows_load) {
                const int start = interleave ? interleaved_dy_row<T::kAlign>(flat, my_plane).start
                                  : args.dy_flat ? flat.start
                                                 : j0;
                tma_load_5d(stage + my_dst, &args.dy_map, start, my_channel, interleave || args.dy_flat ? 0 : oh,
                            interleave || args.dy_flat ? 0 : od, n, &full[slot]);
              }
            } else if (lane == 0) {
#pragma unroll
              for (int w = 0; w < T::kRows; ++w) {
                if (!tile_live[w] || !rows_load) continue;
                scalar_t* const dst = stage + T::kXElems + w * T::kDyElems;
                if (interleave) {
                  // Box sub: channel sub of each R (interleaved_row_channel), interleaved_dy_row's start
                  FlatDyRow box = flat;
                  for (int sub = 0; sub < interleave; ++sub, box = interleaved_dy_row<T::kAlign>(flat, sub * plane))
                    tma_load_5d(dst + sub * box_elems, &args.dy_map, box.start, map_channel[w], 0, 0, n, &full[slot]);
                } else if (args.dy_flat)
                  tma_load_5d(dst, &args.dy_map, flat.start, map_channel[w], 0, 0, n, &full[slot]);
                else
                  tma_load_5d(dst, &args.dy_map, j0, map_channel[w], oh, od, n, &full[slot]);
              }
            }
            cur.advance(a);
          }
        } else {
          bool chain_head[T::kRows];
#pragma unroll
          for (int w = 0; w < T::kRows; ++w) chain_head[w] = shifted_x_reach(args, blk.kh, w) == 0;
          // Each row's (kd, kh) offsets once per block, not a division per row and unit (the channel-tile form's
          // producer loop was bound by such scalar work: run 445); but at a unit of 48 the 16-bit producer's
          // registers then spill (nvcc 13.0: 20-40 bytes), so there they stay per unit.
          constexpr bool kRowsOnce = !(k16Bit && kUnitK == 48);
          int od_offset[T::kRows], oh_offset[T::kRows];
          if constexpr (kRowsOnce) {
#pragma unroll
            for (int w = 0; w < T::kRows; ++w) {
              const int row = blk.kh + w;
              od_offset[w] = row / a.kernel[1] * a.dilation[0] - a.padding[0];
              oh_offset[w] = row % a.kernel[1] * a.dilation[1] - a.padding[1];
            }
          }
          int ring_slot = 0, ring_round = 0;  // the ring's next slot, and how often the ring has been filled
          for (int it = 0; it < iterations; ++it) {
            const int slot = it % S;
            wait_stage_slot_empty<S>(empty, it);
            scalar_t* const stage = stages + slot * T::kStageElems;
            const bool sweep_start = it == 0 || cur.ih == 0;
            const int j0 = cur.wc * BK, n = int(cur.n);
            int od[T::kRows], oh[T::kRows], flat_start[T::kRows];
            bool load[T::kRows];
            int loads = 0;
#pragma unroll
            for (int w = 0; w < T::kRows; ++w) {
              const int row = blk.kh + w;
              if constexpr (kRowsOnce) {
                od[w] = cur.id * a.stride[0] + od_offset[w];
                oh[w] = cur.ih * a.stride[1] + oh_offset[w];
              } else {
                const int kd = row / a.kernel[1], kh = row % a.kernel[1];
                od[w] = cur.id * a.stride[0] + kd * a.dilation[0] - a.padding[0];
                oh[w] = cur.ih * a.stride[1] + kh * a.dilation[1] - a.padding[1];
              }
              const FlatDyRow flat = flat_dy_row<T::kAlign>(a, od[w], oh[w], j0);
              flat_start[w] = flat.start;
              load[w] = row < rows && (sweep_start || chain_head[w]) && !(args.dy_flat && flat.outside);  // flat rows
              loads += load[w];
            }
            if constexpr (k16Bit) {
              if (args.dy_copied) {
                copy_shifted_x_dy_rows<T>(a, stages + slot * T::kStageElems + T::kXElems, load, od, oh, j0, n,
                                          dy_channel, lane);
                mbarrier_arrive_on_copies(&full[slot]);
                loads = 0;
              }
            }
            int ring_at[T::kRows];
            if constexpr (kRowRing) {  // lane 0 only (fp32 data copy no rows)
              // Every row the unit loads takes the ring's next slot, a flat row outside the tensor too (it loads
              // nothing and its consumers read zeros), so that the consumers can count which slot holds which row.
              ring_first[slot] = ring_slot;
#pragma unroll
              for (int w = 0; w < T::kRows; ++w) {
                ring_at[w] = ring_slot;
                if (!(blk.kh + w < rows && (sweep_start || chain_head[w]))) continue;
                if (ring_round > 0) mbarrier_wait(&row_empty[ring_slot], uint32_t(ring_round - 1) & 1u);
                if (++ring_slot == kRingSlots) ring_slot = 0, ++ring_round;
              }
            }
            if (lane == 0) {
              issue_shifted_x_window<T, kChannelsLast>(args, cur, j0, n, pad_w, e, x_channel, loads * T::kDyElems,
                                                       stage, &full[slot], &window_e[slot]);
#pragma unroll
              for (int w = 0; w < T::kRows; ++w) {
                if (!load[w] || args.dy_copied) continue;
                scalar_t* const dst =
                    kRowRing ? ring + ring_at[w] * T::kDyElems : stage + T::kXElems + w * T::kDyElems;
                if constexpr (kChannelsLast)
                  tma_load_5d(dst, &args.dy_map, dy_channel, j0, oh[w], od[w], n, &full[slot]);
                else if (args.dy_flat)
                  tma_load_5d(dst, &args.dy_map, flat_start[w], dy_channel, 0, 0, n, &full[slot]);
                else
                  tma_load_5d(dst, &args.dy_map, j0, dy_channel, oh[w], od[w], n, &full[slot]);
              }
            }
            cur.advance(a);
          }
        }
      }
      __syncwarp();
    } else {
      const int rounder = tid - T::kThreads - 32;
      for (int it = 0; it < iterations; ++it) {
        const int slot = it % S;
        mbarrier_wait(&full[slot], uint32_t(it / S) & 1u);
        if constexpr (kChannelsLast) {
          round_shifted_x_copies_channels_last<T>(stages + slot * T::kStageElems, copies + slot * T::kCopyElems,
                                                  rounder);
        } else {
          const int unit_e = args.x_flat ? window_e[slot] : e;
          build_shifted_x_copies<T>(unit_e, stages + slot * T::kStageElems, copies + slot * T::kCopyElems, rounder);
        }
        fence_generic_to_async_shared();
        mbarrier_arrive(&ready[slot]);
      }
    }
    return;  // the consumers' ordered epilogue passes a barrier of their own (weight_sums_barrier)
  }

  warpgroup_registers_up<T::kConsumerRegisters>();
  const int wwarp = warp % 4, gid = lane / 4, tig = lane % 4;
  float acc_pair[kPairs > 0 ? kPairs : 1][32];
  float acc_odd[16];
#pragma unroll
  for (int i = 0; i < 32; ++i) {
#pragma unroll
    for (int pr = 0; pr < (kPairs > 0 ? kPairs : 1); ++pr) acc_pair[pr][i] = 0.f;
    if (i < 16) acc_odd[i] = 0.f;
  }
  // A fragment row's step (the next channel) and position's step: channel-major rows of kDyBoxW positions, or
  // channels-last rows of kChannelsLastDyPitch channels.
  constexpr int kRowStep = kChannelsLast ? 1 : T::kDyBoxW, kPositionStep = kChannelsLast ? T::kChannelsLastDyPitch : 1;
  const int frag_at = (kRowRing ? 0 : T::kXElems) + (wwarp * 16 + gid) * kRowStep + (k16Bit ? 0 : tig * kPositionStep);
  // The lean kernel's warp takes slot my_slot, 16 of its 64 / dy_slots channels: slot s's rows lie at s x slot_elems
  // from the stage's first row, so the warp's fragment rows sit where a warpgroup-wide row's would.
  const int warps_per_slot = kLean ? 4 / args.dy_slots : 4, slot_elems = kLean ? T::kDyElems / args.dy_slots : 0;
  const int my_slot = kLean ? group * args.dy_slots + wwarp / warps_per_slot : group;
  int reach, release_lag = 0;  // a slot's rows are last read release_lag units after it loads (within a sweep)
  if constexpr (kLean) {
    reach = shifted_x_slot_reach(args, blk.kh, my_slot);
    for (int v = 0; v < T::kRows * args.dy_slots; ++v)
      release_lag = max(release_lag, shifted_x_slot_reach(args, blk.kh, v));
  } else if constexpr (kChannelTiles) {
    reach = 0;
  } else {
    reach = shifted_x_reach(args, blk.kh, group);
#pragma unroll
    for (int w = 0; w < T::kRows; ++w) release_lag = max(release_lag, shifted_x_reach(args, blk.kh, w));
  }
  // The ring: the rows a sweep's first unit loads (the tile's valid ones) and the others load (the chains' heads),
  // and the first ring slots of this unit and the two before it (release_lag < kRows)
  static_assert(!kRowRing || T::kRows == 3, "ring_back's three units");
  uint32_t valid_rows = 0, head_rows = 0;
  int ring_first0 = 0, ring_first1 = 0, ring_first2 = 0;
  if constexpr (kRowRing) {
#pragma unroll
    for (int w = 0; w < T::kRows; ++w) {
      if (blk.kh + w >= rows) continue;
      valid_rows |= 1u << w;
      if (shifted_x_reach(args, blk.kh, w) == 0) head_rows |= 1u << w;
    }
  }
  const auto ring_back = [&](int back) { return back == 0 ? ring_first0 : back == 1 ? ring_first1 : ring_first2; };
  ShiftedXCursor cur = shifted_x_cursor(a, blk.u_begin);
  const int my_row = kChannelTiles ? blk.kh : min(blk.kh + my_slot, rows - 1);
  const int my_kd = my_row / a.kernel[1], my_kh = my_row % a.kernel[1];
  // The channel-tile form: this warpgroup's C_out tile (a tile past the group's channels computes nothing)
  const int my_co0 = blk.co0 + (kChannelTiles ? group * T::kBlockM : 0);
  const bool computes = !kChannelTiles || group < computing_groups;
  // Such a warpgroup reads no stage and releases none (empty counts only the computing ones), so it waits at the
  // epilogue's barrier instead of spinning on every stage's (run 445: those spins were a quarter of fam04's warp
  // samples, beside the producer warp whose issue rate bounds the kernel). Its loop is skipped outside the main loop:
  // with a branch around the MMAs in the main loop, ptxas serialized the wgmmas (C75xx; nvcc 13.0).
  const int mma_iterations = computes ? iterations : 0;
  // An interleaved row's warp reads one channel of each R (its positions past the row are the next channel's): box
  // interleaved_row_box(16 wwarp, R), that many planes on from channel 0's position
  const int my_plane_offset = kChannelTiles && args.dy_interleave
                                  ? interleaved_row_box(16 * wwarp, args.dy_interleave) * a.out_size[0] *
                                        a.out_size[1] * a.out_size[2]
                                  : 0;
  // The copies' descriptor once: a unit's wgmma steps add their slot's and step's 16-byte units to its address field
  // (run 546's SASS of the ring kernel: four uniform instructions per wgmma rebuilt it from the address, 15 % of the
  // consumers' stall samples on the uniform datapath).
  const WgmmaDescriptor copies_desc =
      wgmma_descriptor(reinterpret_cast<const float*>(copies), T::kBLeadingBytes, T::kBStrideBytes);
  static_assert(T::kCopyElems * sizeof(scalar_t) % 16 == 0, "a slot's copies start on 16 bytes");
  int sweep_first = 0;
  for (int it = 0; it < mma_iterations; ++it) {
    const int slot = it % S;
    const uint32_t parity = uint32_t(it / S) & 1u;
    const int ih = cur.ih;
    if (ih == 0) sweep_first = it;
    // The flat map's row starts `shift` positions early, and its positions from `inside` on are the next row's.
    int shift = 0, inside = BK;
    if (args.dy_flat || (kChannelTiles && args.dy_interleave)) {
      FlatDyRow r = flat_dy_row<T::kAlign>(a, cur.id * a.stride[0] + my_kd * a.dilation[0] - a.padding[0],
                                           ih * a.stride[1] + my_kh * a.dilation[1] - a.padding[1], cur.wc * BK);
      if (kChannelTiles && args.dy_interleave) r = interleaved_dy_row<T::kAlign>(r, my_plane_offset);
      shift = r.shift;
      inside = r.outside ? 0 : r.inside;
    }
    mbarrier_wait(&full[slot], parity);
    mbarrier_wait(&ready[slot], parity);
    if constexpr (kRowRing) ring_first2 = ring_first1, ring_first1 = ring_first0, ring_first0 = ring_first[slot];
    const int source = max(it - reach, sweep_first);  // the unit that loaded this warpgroup's row, at position
    const scalar_t* p0;
    if constexpr (kLean)
      p0 = stages + (source % S) * T::kStageElems + group * T::kDyElems + (it - source) * slot_elems + frag_at + shift;
    else if constexpr (kRowRing) {
      // warpgroup group + back loaded it, after the source unit's rows of the warpgroups before it
      const int back = it - source;
      const uint32_t loaded = source == sweep_first ? valid_rows : head_rows;
      int at = ring_back(back) + __popc(loaded & ((1u << (group + back)) - 1u));
      if (at >= kRingSlots) at -= kRingSlots;
      p0 = ring + at * T::kDyElems + frag_at + shift;
    } else
      p0 = stages + (source % S) * T::kStageElems + (group + it - source) * T::kDyElems + frag_at + shift;
    const uint32_t copy_units = uint32_t(slot * (T::kCopyElems * int(sizeof(scalar_t)) / 16));
    if constexpr (kRingOverlap) {
      if (it > 0) {  // the previous unit's wgmmas read its stage's copies and its fragments' registers
        wgmma_wait<0>();
        fence_generic_to_async_shared();
        mbarrier_arrive(&empty[(it - 1) % S]);
      }
    }
    if constexpr (k16Bit) {
      // Per k16 step: rows gid and gid + 8, positions 2 tig, 2 tig + 1 and the same + 8, each pair one register
      // (lower position in the low half); a flat row's shift may be odd, so each position is its own 16-bit load.
      // With args.word_fragments, a row whose shift is even and whose positions all lie inside it (every 5-D map or
      // copied row, and most flat ones) loads each pair as one aligned 32-bit word instead: the same values, with
      // one shared load per register instead of two loads, two selects and a merge.
      const uint16_t* const row = reinterpret_cast<const uint16_t*>(p0);
      const auto pair = [&](int offset, int k) {
        const uint32_t lo = k < inside ? row[offset + k] : 0u, hi = k + 1 < inside ? row[offset + k + 1] : 0u;
        return lo | (hi << 16);
      };
      const bool words = args.word_fragments && shift % 2 == 0 && inside >= BK;
      const uint32_t* const row_words = reinterpret_cast<const uint32_t*>(row);  // read only where words: aligned
      uint32_t frag[BK / 16][4];
#pragma unroll
      for (int ks = 0; ks < BK / 16; ++ks) {
        const int k = 16 * ks + 2 * tig;
        if (words) {
          frag[ks][0] = row_words[k / 2];
          frag[ks][1] = row_words[(8 * T::kDyBoxW + k) / 2];
          frag[ks][2] = row_words[(k + 8) / 2];
          frag[ks][3] = row_words[(8 * T::kDyBoxW + k + 8) / 2];
        } else {
          frag[ks][0] = pair(0, k);
          frag[ks][1] = pair(8 * T::kDyBoxW, k);
          frag[ks][2] = pair(0, k + 8);
          frag[ks][3] = pair(8 * T::kDyBoxW, k + 8);
        }
        // Every fragment is built before the first wgmma: without this, ptxas fenced each wgmma at a unit of 32
        // (C7519, a warpgroup.arrive injected before each; nvcc 13.0).
        asm volatile("" : "+r"(frag[ks][0]), "+r"(frag[ks][1]), "+r"(frag[ks][2]), "+r"(frag[ks][3]));
      }
      constexpr int kCopyStride = T::kBlockN * T::kCopyK;
      wgmma_fence();
      // Taps 2 i, 2 i + 1 are copies 2 i, 2 i + 1: rows 64 i .. 64 i + 63 of the stacked copies; step ks starts two K
      // cores (16 positions, 128 elements of a core row group) on. Offsets in 16-byte units (8 elements).
#pragma unroll
      for (int ks = 0; ks < BK / 16; ++ks) {
#pragma unroll
        for (int pr = 0; pr < kPairs; ++pr)
          wgmma_mma<64, scalar_t>(acc_pair[pr], frag[ks],
                                  copies_desc.at(copy_units + uint32_t((2 * pr * kCopyStride + ks * 128) / 8)));
        if constexpr (kOdd)
          wgmma_mma<32, scalar_t>(acc_odd, frag[ks],
                                  copies_desc.at(copy_units + uint32_t(((kKernelW - 1) * kCopyStride + ks * 128) / 8)));
      }
    } else {
      uint32_t frag[BK / 8][4];
      if (inside >= BK) {
        // Every position inside the row (every 5-D map row, most flat ones): no selects, the loads land in the
        // fragments (run 546: the selects' zeroing and moves were ~40 of the ~200 instructions a warp issued a unit).
#pragma unroll
        for (int k8 = 0; k8 < BK / 8; ++k8) {
          const float* p = p0 + k8 * 8 * kPositionStep;
          frag[k8][0] = to_tf32(p[0]);
          frag[k8][1] = to_tf32(p[8 * kRowStep]);
          frag[k8][2] = to_tf32(p[4 * kPositionStep]);
          frag[k8][3] = to_tf32(p[8 * kRowStep + 4 * kPositionStep]);
        }
      } else {
#pragma unroll
        for (int k8 = 0; k8 < BK / 8; ++k8) {
          const float* p = p0 + k8 * 8 * kPositionStep;
          const bool low = k8 * 8 + tig < inside, high = k8 * 8 + tig + 4 < inside;
          frag[k8][0] = low ? to_tf32(p[0]) : 0u;
          frag[k8][1] = low ? to_tf32(p[8 * kRowStep]) : 0u;
          frag[k8][2] = high ? to_tf32(p[4 * kPositionStep]) : 0u;
          frag[k8][3] = high ? to_tf32(p[8 * kRowStep + 4 * kPositionStep]) : 0u;
        }
      }
      wgmma_fence();
#pragma unroll
      for (int k8 = 0; k8 < BK / 8; ++k8) {
        // Tap 4 q + r reads copy r from K core 2 k8 + 1 - q: taps 2 i, 2 i + 1 are copies 2 i, 2 i + 1 (q = 0), rows
        // 64 i .. 64 i + 63 of the stacked copies. A core (32 floats) is 8 16-byte units.
#pragma unroll
        for (int pr = 0; pr < kPairs; ++pr)
          wgmma_mma<64, float>(
              acc_pair[pr], frag[k8],
              copies_desc.at(copy_units + uint32_t((2 * pr * (T::kBlockN / 8) * T::kCopyCores + 2 * k8 + 1) * 8)));
        if constexpr (kOdd) {
          constexpr int kTap = kKernelW - 1, r = kTap % 4, q = kTap / 4;
          wgmma_mma<32, float>(
              acc_odd, frag[k8],
              copies_desc.at(copy_units + uint32_t((r * (T::kBlockN / 8) * T::kCopyCores + 2 * k8 + 1 - q) * 8)));
        }
      }
    }
    wgmma_commit();
    if constexpr (!kRingOverlap) wgmma_wait<0>();
    fence_generic_to_async_shared();
    // Every slot is released once, in load order: the one whose rows this unit read last, and at a sweep's end
    // (or the block's) the sweep's slots still held. The ring: the stage now (with the overlap, once its wgmmas
    // end), and in that way the rows.
    if constexpr (kRowRing) {
      if constexpr (!kRingOverlap) mbarrier_arrive(&empty[slot]);
      const auto release_rows = [&](int unit) {
        int at = ring_back(it - unit);
        for (int r = __popc(unit == sweep_first ? valid_rows : head_rows); r > 0; --r) {
          mbarrier_arrive(&row_empty[at]);
          if (++at == kRingSlots) at = 0;
        }
      };
      if (it - release_lag >= sweep_first) release_rows(it - release_lag);
      if (it == iterations - 1 || ih == a.in_size[1] - 1)
        for (int held = max(sweep_first, it - release_lag + 1); held <= it; ++held) release_rows(held);
    } else {
      if (it - release_lag >= sweep_first) mbarrier_arrive(&empty[(it - release_lag) % S]);
      if (it == iterations - 1 || ih == a.in_size[1] - 1)
        for (int held = max(sweep_first, it - release_lag + 1); held <= it; ++held) mbarrier_arrive(&empty[held % S]);
    }
    cur.advance(a);
  }
  if constexpr (kRingOverlap) {
    wgmma_wait<0>();  // on every path to the sums' store (else ptxas injects one there: C7517)
    if (mma_iterations > 0) {
      fence_generic_to_async_shared();
      mbarrier_arrive(&empty[(mma_iterations - 1) % S]);
    }
  }

  // Accumulator i = 4 j + 2 h + l: C_out co0 + wwarp * 16 + gid + 8 h (lean: (wwarp % warps_per_slot) * 16, of the
  // slot's row), column 8 j + 2 tig + l, which in a pair is tap 2 pr + column / 32, C_in column % 32.
  float* const out = weight_sums_destination<T::kThreads>(a, work);
  const int row = kChannelTiles ? blk.kh : blk.kh + my_slot;
  if (row < rows && computes) {
    const bool add = weight_sums_add(a, work);
    // Interleaved rows: rows gid and gid + 8 of the warp hold channels 8 R apart (interleaved_row_channel)
    const int interleave = kChannelTiles ? args.dy_interleave : 0;
    const int co_first = interleave ? my_co0 + interleaved_row_channel(16 * wwarp + gid, interleave)
                                    : my_co0 + (kLean ? wwarp % warps_per_slot : wwarp) * 16 + gid;
    const int co_step = interleave ? 8 * interleave : 8;
    float* const base = out + (int64_t(blk.g) * a.cin_g * a.cout_g + co_first) * a.taps + int64_t(row) * a.kernel[2];
#pragma unroll
    for (int pr = 0; pr < kPairs; ++pr)
      store_shifted_x_sums<32, 64>(a, blk, base, co_first, tig, add, blk.taps.kw0 + 2 * pr, acc_pair[pr], co_step);
    if constexpr (kOdd)
      store_shifted_x_sums<16, 32>(a, blk, base, co_first, tig, add, blk.taps.kw0 + kKernelW - 1, acc_odd, co_step);
  }
  pass_split_turn<T::kThreads>(a, work);
}
template <typename scalar_t, int kUnitK, int kKernelW>
__global__ void __launch_bounds__(WeightShiftedXShape::kBlockThreads, 1)
tconv_igemm_grad_weight_wgmma_shifted_x_kernel(const __grid_constant__ RowsWeightArgs args) {
  shifted_x_grad_weight<scalar_t, kUnitK, kKernelW, false>(args);
}
template <typename scalar_t, int kUnitK, int kKernelW>
__global__ void __launch_bounds__(WeightShiftedXShape::kBlockThreads, 1)
tconv_igemm_grad_weight_wgmma_shifted_x_lean_kernel(const __grid_constant__ RowsWeightArgs args) {
  shifted_x_grad_weight<scalar_t, kUnitK, kKernelW, true>(args);
}
// The narrow form (fp32 data, at most 32 output channels per group; TCONV_GRAD_WEIGHT_SHIFTED_X_NARROW).
template <int kUnitK, int kKernelW>
__global__ void __launch_bounds__(WeightShiftedXShape::kBlockThreads, 1)
tconv_igemm_grad_weight_wgmma_shifted_x_narrow_kernel(const __grid_constant__ RowsWeightArgs args) {
  shifted_x_grad_weight<float, kUnitK, kKernelW, false, WeightShiftedXShape::kNarrowDyChannels>(args);
}
// The row ring (fp32 data at a unit of 32; TCONV_GRAD_WEIGHT_SHIFTED_X_RING): the measured kernel's blocks, units,
// rows and sums, the rows in a ring of their own.
template <int kKernelW>
__global__ void __launch_bounds__(WeightShiftedXShape::kBlockThreads, 1)
tconv_igemm_grad_weight_wgmma_shifted_x_ring_kernel(const __grid_constant__ RowsWeightArgs args) {
  shifted_x_grad_weight<float, 32, kKernelW, false, WeightShiftedXShape::kBlockM, false, kShiftedXRingSlots>(args);
}
// And a unit's wgmmas in flight into the next unit's waits (the ring's default: shifted_x_ring_overlap).
template <int kKernelW>
__global__ void __launch_bounds__(WeightShiftedXShape::kBlockThreads, 1)
tconv_igemm_grad_weight_wgmma_shifted_x_ring_overlap_kernel(const __grid_constant__ RowsWeightArgs args) {
  shifted_x_grad_weight<float, 32, kKernelW, false, WeightShiftedXShape::kBlockM, false, kShiftedXRingSlots, true>(
      args);
}
// That kernel over channels-last x and grad_output (shifted_x_channels_last_taken).
template <int kKernelW>
__global__ void __launch_bounds__(WeightShiftedXShape::kBlockThreads, 1)
tconv_igemm_grad_weight_wgmma_shifted_x_ring_channels_last_kernel(const __grid_constant__ RowsWeightArgs args) {
  shifted_x_grad_weight<float, 32, kKernelW, false, WeightShiftedXShape::kBlockM, false, kShiftedXRingSlots, true,
                        true>(args);
}
// The channel-tile form (one (kd, kh) row, > 64 output channels per group; shifted_x_channel_tiles): fp32 data, and
// fp16/bf16 (channels16; tested on a GPU since run 443, the rule since run 447).
template <int kUnitK, int kKernelW>
__global__ void __launch_bounds__(WeightShiftedXShape::kBlockThreads, 1)
tconv_igemm_grad_weight_wgmma_shifted_x_channels_kernel(const __grid_constant__ RowsWeightArgs args) {
  shifted_x_grad_weight<float, kUnitK, kKernelW, false, WeightShiftedXShape::kBlockM, true>(args);
}
template <typename scalar_t, int kUnitK, int kKernelW>
__global__ void __launch_bounds__(WeightShiftedXShape::kBlockThreads, 1)
tconv_igemm_grad_weight_wgmma_shifted_x_channels16_kernel(const __grid_constant__ RowsWeightArgs args) {
  shifted_x_grad_weight<scalar_t, kUnitK, kKernelW, false, WeightShiftedXShape::kBlockM, true>(args);
}

#endif  // TCONV_TENSOR_MAPS

// B operand layout: packed[g][tap][kc chunk of BK][column block][BK x block_cols in the order the
// tile's MMA reads] (ldw = nc rounded up to the kernel's block width, the K rows to k_pad; the padding is
// zeros), so a stage's BK x BN slice is contiguous. A K row is one channel's fp32 weight, or for fp16/bf16
// the pair of channels 2 kc, 2 kc + 1 in one 32-bit word (the k16 MMAs' B fragment registers hold two
// consecutive K). Within a block, per k8 step (8 K rows):
//   mma.sync (32 columns): 256 floats in b_fragment_coord order (LDS.128 = two HMMA B pairs);
//   wgmma (BN columns): [n group of 8][k half][8 n][4 k], the core matrices of wgmma_smem_descriptor.
// TF32 mode stores the weights already rounded to TF32 (to_tf32: the fragment loads' rounding),
// so the GEMM's inner loop converts only A.
__host__ __device__ __forceinline__ BFragmentCoord wgmma_b_coord(int offset) {  // within one k8 step
  return BFragmentCoord{(offset / 32) % 2 * 4 + offset % 4, offset / 64 * 8 + (offset / 4) % 8};
}
template <typename scalar_t>
__global__ void tconv_igemm_pack_weight_kernel(const scalar_t* __restrict__ w, int64_t ws0, int64_t ws1, int64_t ws2,
                                               int64_t ws3, int64_t ws4, int kh, int kw, int groups, int taps,
                                               int k_channels, int block_k, int k_pad, int n_channels, int ldw,
                                               int block_cols, bool wgmma_order, bool forward, bool round_tf32, int fold,
                                               int fold_kernel_w, int fold_dilation, float* __restrict__ packed) {
  const int BK = block_k;
  const int column_blocks = ldw / block_cols, step = 8 * block_cols;
  const int64_t steps = int64_t(groups) * taps * (k_pad / 8) * column_blocks;
  // A block decodes one (k8 step, column block) and its threads walk the step's 8 x block_cols floats: run 193's
  // per-element 64-bit decode (six divisions) took DCGAN's 2.1M-float pack to 63 us, 10 % of its fwd+bwd.
  for (int64_t s = blockIdx.x; s < steps; s += gridDim.x) {
    int64_t rest = s;
    const int k8 = int(rest % (BK / 8)); rest /= BK / 8;
    const int column_block = int(rest % column_blocks); rest /= column_blocks;
    const int chunk = int(rest % (k_pad / BK)); rest /= k_pad / BK;
    const int tap = int(rest % taps);
    const int g = int(rest / taps);
    const int td = tap / (kh * kw), th = (tap / kw) % kh;
    for (int within = threadIdx.x; within < step; within += blockDim.x) {
      const int64_t idx = s * step + within;
      const BFragmentCoord at = wgmma_order ? wgmma_b_coord(within) : b_fragment_coord(within);
      const int kc = chunk * BK + k8 * 8 + at.k, nc = column_block * block_cols + at.n;
      float v = 0.f;
      // The W fold (forward): column nc is channel nc / fold at W offset nc % fold, W tap t is shift t;
      // original tap k lands there when k * d = fold * t + nc % fold (see fold_w), else the slot is 0.
      int tw = tap % kw, n_index = nc;
      bool tap_exists = true;
      if (fold > 1) {
        const int dilated = fold * tw + nc % fold;
        n_index = nc / fold;
        tw = dilated / fold_dilation;
        tap_exists = dilated % fold_dilation == 0 && tw < fold_kernel_w;
      }
      // forward: channel = input channel, nc = output channel; grad_input: the other way round.
      auto weight_at = [&](int channel) -> const scalar_t* {
        if (!tap_exists || nc >= n_channels || channel >= k_channels) return nullptr;
        const int64_t ci = int64_t(g) * (forward ? k_channels : n_channels) + (forward ? channel : n_index);
        const int64_t co = forward ? n_index : channel;
        return w + ci * ws0 + co * ws1 + td * ws2 + th * ws3 + int64_t(tw) * ws4;
      };
      if constexpr (std::is_same<scalar_t, float>::value) {
        const float* at = weight_at(kc);
        if (at != nullptr) {
          v = *at;
          if (round_tf32) v = __uint_as_float(to_tf32(v));
        }
        packed[idx] = v;
      } else {  // row kc is the channel pair 2 kc, 2 kc + 1 (PairedRows), bits as they are
        const scalar_t* lo = weight_at(2 * kc);
        const scalar_t* hi = weight_at(2 * kc + 1);
        const uint32_t bits_lo = lo != nullptr ? *reinterpret_cast<const unsigned short*>(lo) : 0u;
        const uint32_t bits_hi = hi != nullptr ? *reinterpret_cast<const unsigned short*>(hi) : 0u;
        reinterpret_cast<uint32_t*>(packed)[idx] = bits_lo | (bits_hi << 16);
      }
    }
  }
}

// The staged pack (weights whose kernel taps are contiguous, no W fold): the same packed layout, but read in the
// weight's own order. Why: the per-element kernel above reads 4 bytes per 32-byte sector (its threads walk the
// fragment order, so neighbours are channels apart), and DCGAN's 2.1M-float weight took 2 x 16 us to pack per
// fwd+bwd (runs 349-355); at whole sectors that is ~8 MB each way, a few microseconds. A block takes one
// (k8 step, 32 columns) piece of a column block for up to kPackTapGroup taps: it reads the piece's channels with their
// taps contiguous (one run of taps x 32 or x 8 values per channel), stages them, then writes each tap's 256 words,
// which are contiguous in the packed order. TCONV_PACK_STAGED=0 (development, read once per process) keeps the
// per-element kernel. fp16/bf16 weights (a K row is the channel pair 2 kc, 2 kc + 1 in one 32-bit word, as the
// per-element kernel packs them) take it too where they have at most kPackTapGroup taps (its bitwise test passed in
// run 500; pack_gather_weight: why the bound; TCONV_PACK_STAGED_16BIT=0 keeps the per-element kernel): DCGAN's bf16
// packs 2 x 0.020 -> 2 x 0.017 ms per fwd+bwd (run 500; predicted 2 x 0.006 at whole sectors: a block's load, sync
// and store in ~2 waves is latency, not bandwidth).
constexpr int kPackTapGroup = 16;
constexpr int kPackThreads = 256;  // one per (k, n) of a piece: 8 x 32
constexpr int kPackChannelPitch = kPackTapGroup + 1;                // per (k, n): the group's taps
constexpr int kPackKPitch = 32 * kPackChannelPitch + 8;             // per k: 32 columns; + 8: the reads' banks differ
// (A template, so that only the translation units that pack through it compile it.)
template <typename scalar_t>
__global__ void __launch_bounds__(kPackThreads)
tconv_igemm_pack_weight_staged_kernel(const scalar_t* __restrict__ w, int64_t ws0, int64_t ws1, int groups, int taps,
                                      int k_channels, int block_k, int k_pad, int n_channels, int ldw, int block_cols,
                                      bool wgmma_order, bool forward, bool round_tf32, float* __restrict__ packed) {
  constexpr bool kPairs = sizeof(scalar_t) == 2;  // a K row: one fp32 channel, or two 16-bit ones
  __shared__ uint32_t staged[8 * kPackKPitch];    // [k][n][tap]: the packed words' bits
  const int BK = block_k, chunks = k_pad / BK, k8_steps = BK / 8;
  const int column_blocks = ldw / block_cols, pieces = block_cols / 32;
  const int tap_groups = (taps + kPackTapGroup - 1) / kPackTapGroup;
  const int64_t units = int64_t(groups) * tap_groups * chunks * column_blocks * k8_steps * pieces;
  for (int64_t u = blockIdx.x; u < units; u += gridDim.x) {
    int64_t rest = u;
    const int piece = int(rest % pieces); rest /= pieces;
    const int k8 = int(rest % k8_steps); rest /= k8_steps;
    const int column_block = int(rest % column_blocks); rest /= column_blocks;
    const int chunk = int(rest % chunks); rest /= chunks;
    const int tap_group = int(rest % tap_groups);
    const int g = int(rest / tap_groups);
    const int tap0 = tap_group * kPackTapGroup, group_taps = min(kPackTapGroup, taps - tap0);
    const int k_first = chunk * BK + k8 * 8, n_first = column_block * block_cols + piece * 32;
    // Thread = one (k, n) of the piece, reading that channel pair's taps (contiguous) in one unrolled run, so no
    // index is divided per element and all the loads are in flight together. Run 355: a thread per packed element
    // (e / group_taps, e % group_taps per element) packed DCGAN's weights in 2 x 14 us against ~2 x 4 us of DRAM
    // traffic (8 MB each way); this way 2 x 10.5 us (run 356; the per-element kernel 2 x 16, DCGAN's forward 0.234 ->
    // 0.227 ms).
    // forward: K = input channel (ws0) outer, N = output channel inner; grad_input: the other way round; taps last
    const int k = forward ? threadIdx.x / 32 : threadIdx.x % 8, n = forward ? threadIdx.x % 32 : threadIdx.x / 8;
    const int kc = k_first + k, nc = n_first + n;
    // the taps of K channel `channel` (a row's only channel, or one of its pair) and this thread's N channel
    auto taps_of = [&](int channel) -> const scalar_t* {
      if (channel >= k_channels || nc >= n_channels) return nullptr;
      return w + (int64_t(g) * (forward ? k_channels : n_channels) + (forward ? channel : nc)) * ws0 +
             int64_t(forward ? nc : channel) * ws1 + tap0;
    };
    uint32_t v[kPackTapGroup];
    if constexpr (kPairs) {
      const scalar_t* lo = taps_of(2 * kc);
      const scalar_t* hi = taps_of(2 * kc + 1);
      const unsigned short* lo_bits = reinterpret_cast<const unsigned short*>(lo);
      const unsigned short* hi_bits = reinterpret_cast<const unsigned short*>(hi);
#pragma unroll
      for (int t = 0; t < kPackTapGroup; ++t) {
        const uint32_t bits_lo = lo != nullptr && t < group_taps ? lo_bits[t] : 0u;
        const uint32_t bits_hi = hi != nullptr && t < group_taps ? hi_bits[t] : 0u;
        v[t] = bits_lo | (bits_hi << 16);
      }
    } else {
      const scalar_t* row = taps_of(kc);
#pragma unroll
      for (int t = 0; t < kPackTapGroup; ++t) {
        const float value = row != nullptr && t < group_taps ? float(row[t]) : 0.f;
        v[t] = round_tf32 ? to_tf32(value) : __float_as_uint(value);
      }
    }
    __syncthreads();  // the previous unit's writes have read `staged`
#pragma unroll
    for (int t = 0; t < kPackTapGroup; ++t)
      if (t < group_taps) staged[k * kPackKPitch + n * kPackChannelPitch + t] = v[t];
    __syncthreads();
    const int64_t first_step =
        (((int64_t(g) * taps + tap0) * chunks + chunk) * column_blocks + column_block) * k8_steps + k8;
    const int64_t tap_step = int64_t(chunks) * column_blocks * k8_steps;  // steps between consecutive taps
    const int o = threadIdx.x;  // one packed element of each of the unit's taps
    const BFragmentCoord at = wgmma_order ? wgmma_b_coord(o) : b_fragment_coord(o);
    uint32_t* const packed_bits = reinterpret_cast<uint32_t*>(packed);
#pragma unroll
    for (int t = 0; t < kPackTapGroup; ++t)
      if (t < group_taps)
        packed_bits[(first_step + t * tap_step) * (8 * block_cols) + piece * 256 + o] =
            staged[at.k * kPackKPitch + at.n * kPackChannelPitch + t];
  }
}
// ---- grad_input over grad_output strips (StripGradInputTile, igemm_config.h; sm_90a, TF32 mode) ----
template <typename scalar_t>  // float (TF32 MMAs), __half or __nv_bfloat16 (widened: the same MMAs on exact values)
struct StripArgs {
  const scalar_t* dy;   // grad_output [N, C_out, D, H, W_out]
  scalar_t* dx;         // grad_input [N, C_in, D, H, W_in]
  // [C_in tiles][stages][k step][8-channel group][K half][8][one K group]: 4 fp32 values rounded to TF32 (k8 steps),
  // or 8 fp16/bf16 ones as they are (the kK16 form's k16 steps)
  const float* packed;
  int64_t dy_stride[5], dx_stride[5];
  int lines_d, lines_h;  // D and H: one GEMM per (n, d, h) line
  int c_in, c_out, in_w, out_w, stride_w, padding_w, stages;  // stages: K stages of kChannels output channels
  bool pair_stores;  // grad_input W-contiguous with even strides and aligned to two elements: position pairs at once
};
// Four consecutive elements of global memory as fp32 where `valid` (fp16/bf16 widened, exactly), else zeros: one
// predicated 16-byte (fp32) or 8-byte (16-bit) load.
template <typename scalar_t>
__device__ __forceinline__ float4 ldg_quad_as_float(const scalar_t* gmem, bool valid) {
  if constexpr (sizeof(scalar_t) == 4) {
    return ldg4_or_zero(gmem, valid);
  } else {
    uint32_t lo, hi;
    asm("{\n.reg .pred p;\nsetp.ne.b32 p, %3, 0;\nmov.b32 %0, 0;\nmov.b32 %1, 0;\n"
        "@p ld.global.nc.v2.b32 {%0, %1}, [%2];\n}\n"
        : "=r"(lo), "=r"(hi) : "l"(gmem), "r"(int(valid)));
    return widen_quad_bits<scalar_t>(lo, hi);
  }
}
// Eight 16-bit values at gmem (8-byte aligned) as their 16 bytes, each half where its flag holds, else zeros: two
// predicated 8-byte loads.
template <typename scalar_t>
__device__ __forceinline__ uint4 ldg_piece_pair_or_zero(const scalar_t* gmem, bool valid_lo, bool valid_hi) {
  static_assert(sizeof(scalar_t) == 2, "16-bit data");
  uint4 v;
  asm("{\n.reg .pred p, q;\nsetp.ne.b32 p, %5, 0;\nsetp.ne.b32 q, %6, 0;\n"
      "mov.b32 %0, 0;\nmov.b32 %1, 0;\nmov.b32 %2, 0;\nmov.b32 %3, 0;\n"
      "@p ld.global.nc.v2.b32 {%0, %1}, [%4];\n@q ld.global.nc.v2.b32 {%2, %3}, [%4+8];\n}\n"
      : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(gmem), "r"(int(valid_lo)), "r"(int(valid_hi)));
  return v;
}

// Four values rounded to TF32 (the strip kernels store their register-held operand so: wgmma would truncate).
[[maybe_unused]] __device__ __forceinline__ float4 tf32_rounded(float4 v) {
  return make_float4(__uint_as_float(to_tf32(v.x)), __uint_as_float(to_tf32(v.y)), __uint_as_float(to_tf32(v.z)),
                     __uint_as_float(to_tf32(v.w)));
}
// Four consecutive channels (channel_stride apart) at one position of x as one 16-byte K group, zeros where not
// inside or past the channel count (channels_left: channels from this quad's first to C_in). One predicate per load:
// a uniform branch to a single predicate for whole quads measured slower (run 153: L1-68's unit-stride forward
// 6.96 -> 7.38 ms, HiFi-GAN's 1D strip forward 2.13 -> 2.18).
[[maybe_unused]] __device__ __forceinline__ float4 load_channel_quad(const float* src, int64_t channel_stride,
                                                                    bool inside, int channels_left) {
  float e[4];
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    e[i] = ldg_or_zero(src, inside && i < channels_left);
    src += channel_stride;
  }
  return make_float4(e[0], e[1], e[2], e[3]);
}

// Eight consecutive fp16/bf16 channels at one position as one 16-byte K group of a k16 wgmma operand (channel 2 i in
// the low half of word i), zeros where not inside or past channels_left, as load_channel_quad.
template <typename scalar_t>
[[maybe_unused]] __device__ __forceinline__ uint4 load_channel_octet(const scalar_t* src, int64_t channel_stride,
                                                                    bool inside, int channels_left) {
  static_assert(sizeof(scalar_t) == 2, "16-bit data");
  uint32_t w[4];
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const uint32_t lo = ldg_bits_or_zero(src, inside && 2 * i < channels_left);
    const uint32_t hi = ldg_bits_or_zero(src + channel_stride, inside && 2 * i + 1 < channels_left);
    w[i] = lo | (hi << 16);
    src += 2 * channel_stride;
  }
  return make_uint4(w[0], w[1], w[2], w[3]);
}
// Eight consecutive fp16/bf16 channels at two adjacent positions (the first on an even element) as eight 32-bit
// words, word i channel i with the first position in its low half; zeros where not inside or past channels_left.
struct ChannelWords {
  uint32_t w[8];
};
template <typename scalar_t>
[[maybe_unused]] __device__ __forceinline__ ChannelWords load_channel_words(const scalar_t* src, int64_t channel_stride,
                                                                           bool inside, int channels_left) {
  static_assert(sizeof(scalar_t) == 2, "16-bit data");
  ChannelWords words;
#pragma unroll
  for (int i = 0; i < 8; ++i, src += channel_stride)
    words.w[i] = __float_as_uint(ldg_or_zero(reinterpret_cast<const float*>(src), inside && i < channels_left));
  return words;
}
// The two K groups (16 bytes each) those words hold: the first position's eight channels (low halves), then the
// second's (high halves).
[[maybe_unused]] __device__ __forceinline__ uint4 position_group(const ChannelWords& v, bool second) {
  const uint32_t sel = second ? 0x7632u : 0x5410u;
  return make_uint4(__byte_perm(v.w[0], v.w[1], sel), __byte_perm(v.w[2], v.w[3], sel),
                    __byte_perm(v.w[4], v.w[5], sel), __byte_perm(v.w[6], v.w[7], sel));
}
// A K group of the strip forwards' x operand as a thread loads and stores it: 4 fp32 channels (load_channel_quad,
// rounded to TF32 when stored: wgmma would truncate) or 8 fp16/bf16 ones (load_channel_octet, stored as they are).
template <typename scalar_t>
struct StripXGroup {
  static constexpr bool k16Bit = sizeof(scalar_t) == 2;
  using type = std::conditional_t<k16Bit, uint4, float4>;
  __device__ __forceinline__ static type load(const scalar_t* src, int64_t channel_stride, bool inside,
                                              int channels_left) {
    if constexpr (k16Bit) return load_channel_octet(src, channel_stride, inside, channels_left);
    else return load_channel_quad(src, channel_stride, inside, channels_left);
  }
  __device__ __forceinline__ static type stored(const type& group) {
    if constexpr (k16Bit) return group;
    else return tf32_rounded(group);
  }
};

// The strip kernels' pipeline (one block per SM, kStages shared-memory slots, kInFlight wgmma groups in flight),
// given a kernel's four parts:
//   copy_async(slot, stage): issue the cp.async copies of the stage's operand that is copied as it is;
//   load(set, stage):        load the stage's other operand into register set `set` (consecutive stages, in order);
//   store(set, slot):        store register set `set` into the slot, rounded to TF32 (wgmma truncates);
//   issue(slot):             issue the stage's wgmmas from the slot.
// The slot refilled at iteration it is the one read kInFlight + 1 iterations earlier, so the shared memory's
// prefetch distance is kAhead = kStages - 1 - kInFlight stages. The registers are loaded kDepth iterations ahead of
// their store, so the loads' latency does not wait on shared memory:
//   kSets = 1, kDepth = 1: one set; the prologue loads and stores each stage in turn;
//   kSets = 2, kDepth = 1: the prologue loads stage st + 1 before it stores stage st (the accumulators are not live
//                          yet, so a second set fits), the loop uses set 0 (runs 138-139, with the 1D forward's other
//                          changes);
//   kSets = 2, kDepth = 2: stage s in set s % 2 throughout, loaded two iterations before its store (the loop
//                          unrolled by two, so that the set is a constant).
// kIssueFirst: an iteration issues its stage's wgmmas before it stores the registers of the stage kAhead on, so
// that a store still waiting on its loads (the ring's fill, where stage kAhead's loads leave only after stage 0's
// store) waits beside the MMAs instead of ahead of them. The stores stay before the next iteration's barrier, and the
// slot they fill is not the one the wgmmas read. A compile-time choice: run 386 had it as a runtime branch, and
// ptxas then injected warpgroup.arrive (C7519) around the wgmmas of every unit-stride instantiation, which cost
// 3-9 % of their forwards (fam06 2.021 -> 2.210 ms, L2-61 TF32 1.304 -> 1.390).
template <int kStages, int kSets, int kDepth, int kInFlight, bool kIssueFirst = false, typename CopyAsync,
          typename Load, typename Store, typename Issue>
__device__ __forceinline__ void run_strip_pipeline(int stages, CopyAsync&& copy_async, Load&& load, Store&& store,
                                                   Issue&& issue) {
  constexpr int kAhead = kStages - 1 - kInFlight;
  static_assert(kAhead >= 1 && (kInFlight == 1 || kInFlight == 2), "a slot to refill past those in flight");
  static_assert(kSets == 1 || kDepth == 2 || (kSets == 2 && kAhead % 2 == 0),
                "with two sets at depth 1, the prologue's last load (stage kAhead) lands in set 0, the loop's");
  static_assert(kDepth == 1 || (kDepth == 2 && kSets == 2), "two stages ahead takes two sets");
  if (kSets == 2 && 0 < stages) load(0, 0);
  if (kDepth == 2 && 1 < stages) load(1, 1);
#pragma unroll
  for (int st = 0; st < kAhead; ++st) {
    if (st < stages) copy_async(st, st);
    if (kDepth == 2) {
      if (st < stages) store(st % 2, st);
      if (st + 2 < stages) load(st % 2, st + 2);
    } else if (kSets == 2) {
      if (st + 1 < stages) load((st + 1) % 2, st + 1);
      if (st < stages) store(st % 2, st);
    } else if (st < stages) {
      load(0, st);
      store(0, st);
    }
    cp_async_commit();
  }
  if (kSets == 1 && kAhead < stages) load(0, kAhead);
  int read_slot = 0, write_slot = kAhead;
  auto iteration = [&](int it, int set) {
    cp_async_wait<kAhead - 1>();
    fence_generic_to_async_shared();
    // Stage it is complete for everyone (its copies landed, its registers stored at least one barrier ago), and
    // both warpgroups have finished stage it - 1 - kInFlight, whose slot is refilled now.
    __syncthreads();
    if constexpr (kIssueFirst) {
      wgmma_fence();
      issue(uniform_int(read_slot));
      wgmma_commit();
    }
    if (it + kAhead < stages) {
      copy_async(write_slot, it + kAhead);
      store(set, write_slot);
    }
    cp_async_commit();
    if (it + kAhead + kDepth < stages) load(set, it + kAhead + kDepth);
    if constexpr (!kIssueFirst) {
      wgmma_fence();
      issue(uniform_int(read_slot));
      wgmma_commit();
    }
    wgmma_wait<kInFlight>();
    read_slot = read_slot + 1 == kStages ? 0 : read_slot + 1;
    write_slot = write_slot + 1 == kStages ? 0 : write_slot + 1;
  };
  if (kDepth == 1) {
    for (int it = 0; it < stages; ++it) iteration(it, 0);
  } else {
    for (int it = 0; it < stages; it += 2) {
      iteration(it, kAhead % 2);
      if (it + 1 < stages) iteration(it + 1, (kAhead + 1) % 2);
    }
  }
  wgmma_wait<0>();
  cp_async_wait<0>();
}

// A role's place in the ring (`stages` counts one tile's stages; a persistent kernel's tiles continue the ring): the
// next slot, the parity of the barrier phase it waits for there, and (the producer's) whether every slot has been
// filled once, after which it waits for the MMA warpgroups' release of a slot before refilling it.
struct StripRing {
  int slot = 0;
  uint32_t parity = 0;
  bool lapped = false;
};
// The strip kernels' warp-specialized pipeline (the unit-stride forward's wide-rows tile, unit_stride_specialized):
// a producer warpgroup fills stage slot it mod kStages once the MMA warpgroups have released what it held (stage
// it - kStages) and signals it on full[slot]; the MMA warpgroups wait for it, issue its wgmmas (one group in flight
// past the one just issued) and release the previous stage once that stage's wgmmas have completed. The parts:
//   copy_bulk(slot, bar):  one producer thread: the stage's weights by one bulk copy completing on `bar` (their bytes
//                          expected there first, full[] counting that thread's arrival once more);
//   load(set, stage):      every producer thread: its x of the stage into register set `set`, two stages ahead;
//   store(set, slot):      every producer thread: that set into the slot, rounded to TF32 (wgmma truncates);
//   issue(slot):           every MMA thread: the stage's wgmmas.
// Why: in the form where every warp loads, stores and issues (run_strip_pipeline), 84 % of L2-61's TF32 forward
// samples sat in per-stage code beside the wgmmas (run 532's source counters), the tensor pipe at 59 % (run 531).
// An MMA thread's arrive releases only its own wgmmas' reads, so each MMA thread arrives on empty[] (256 counts).
template <int kStages, typename CopyBulk, typename Load, typename Store>
__device__ __forceinline__ void produce_strip_stages(int stages, bool copier, uint64_t* full, uint64_t* empty,
                                                     StripRing& ring, CopyBulk&& copy_bulk, Load&& load,
                                                     Store&& store) {
  if (0 < stages) load(0, 0);
  if (1 < stages) load(1, 1);
  auto produce = [&](int it, int set) {
    const int slot = ring.slot;
    if (ring.lapped) mbarrier_wait(&empty[slot], ring.parity);
    if (copier) copy_bulk(slot, &full[slot]);
    store(set, slot);
    if (it + 2 < stages) load(set, it + 2);
    fence_generic_to_async_shared();  // the stores above, before wgmma reads them through the async proxy
    mbarrier_arrive(&full[slot]);
    if (++ring.slot == kStages) {
      ring.slot = 0;
      if (ring.lapped) ring.parity ^= 1u;
      ring.lapped = true;
    }
  };
  for (int it = 0; it < stages; it += 2) {  // by two, so that the register set is a constant
    produce(it, 0);
    if (it + 1 < stages) produce(it + 1, 1);
  }
}
// The tile's last stage is released too, once its wgmmas have completed (a persistent kernel's producer refills it),
// unless hold_last_two (stages >= 2): then the slots of the last two stages stay the caller's (a persistent kernel
// stages its store there and releases them after; the producer refills them last).
template <int kStages, typename Issue>
__device__ __forceinline__ void consume_strip_stages(int stages, uint64_t* full, uint64_t* empty, StripRing& ring,
                                                     Issue&& issue, bool hold_last_two = false) {
  int previous = 0;
  for (int it = 0; it < stages; ++it) {
    const int slot = ring.slot;
    mbarrier_wait(&full[slot], ring.parity);
    wgmma_fence();
    issue(uniform_int(slot));
    wgmma_commit();
    wgmma_wait<1>();
    // stage it - 1's wgmmas have completed
    if (it > 0 && !(hold_last_two && it == stages - 1)) mbarrier_arrive(&empty[previous]);
    previous = slot;
    if (++ring.slot == kStages) {
      ring.slot = 0;
      ring.parity ^= 1u;
    }
  }
  wgmma_wait<0>();
  if (stages > 0 && !hold_last_two) mbarrier_arrive(&empty[previous]);
}
// Row tiles of the unit-stride forward's blocks of block_m stored rows (without tap pairs).
__host__ __device__ __forceinline__ int64_t unit_stride_row_tiles(int64_t rows, int block_m) {
  return (rows + block_m - 1) / block_m;
}
// The MMA warpgroups (threads 0-255) of a warp-specialized strip kernel, without the producer role.
__device__ __forceinline__ void strip_mma_warpgroups_sync() { asm volatile("bar.sync 1, 256;\n" ::: "memory"); }
// Every thread of a warp-specialized strip kernel (the MMA warpgroups and the producer): the tile staged in shared
// memory, for the producer's statistics (staged_group_stats) beside the MMA warpgroups' store.
__device__ __forceinline__ void strip_tile_staged_sync() { asm volatile("bar.sync 5, 384;\n" ::: "memory"); }

// The stage work the two 1D strip kernels (grad_input and forward, StripGradInputTile) share. copy_strip_weights:
// this thread's share of a stage's packed A (the weights, contiguous, 16-byte cp.async copies). issue_strip_steps:
// this warpgroup's m64n256k8 per k8 step of a stage, A its 64 rows of [step][8-row group][K half][8][4] and B the
// strip columns (next K half kRows rows on, next 8 rows 128 bytes on); b_offset(j), where step j's K values sit in
// the columns (16-byte units), is what differs between the kernels. fp16/bf16 operands (the forward's): m64n256k16
// per k16 step, K groups of 8 values in the same bytes.
[[maybe_unused]] __device__ __forceinline__ void copy_strip_weights(float* stage, const float* packed_stage, int tid) {
  using Tile = StripGradInputTile;
  static_assert(Tile::kStageAFloats % (4 * Tile::kThreads) == 0, "whole 16-byte copies per thread");
#pragma unroll
  for (int i = 0; i < Tile::kStageAFloats / (4 * Tile::kThreads); ++i) {
    const int at = 4 * (tid + i * Tile::kThreads);
    cp_async_16(stage + at, packed_stage + at, true);
  }
}
template <int kSteps, typename scalar_t = float, class BOffset>
__device__ __forceinline__ void issue_strip_steps(float (&acc)[128], const float* stage, int warpgroup,
                                                  BOffset&& b_offset) {
  using Tile = StripGradInputTile;
  static_assert(Tile::kBlockN == 256 && Tile::kBlockM == 128, "two warpgroups of m64n256k8");
  const WgmmaDescriptor a_desc = wgmma_descriptor(stage + warpgroup * 64 * 8),
                        b_desc = wgmma_descriptor(stage + Tile::kStageAFloats, Tile::kRows * 16, 128);
#pragma unroll
  for (int j = 0; j < kSteps; ++j) {
    if constexpr (sizeof(scalar_t) == 2)
      wgmma_mma_shared_a<256, scalar_t>(acc, a_desc.at(uint32_t(j * Tile::kBlockM * 8 / 4)), b_desc.at(b_offset(j)));
    else wgmma_tf32_shared<256>(acc, a_desc.at(uint32_t(j * Tile::kBlockM * 8 / 4)), b_desc.at(b_offset(j)));
  }
}

// Two adjacent positions of one channel as one 8-byte (fp32) or 4-byte (fp16/bf16) store; out on 2 elements (the
// strip grad_input's and the unit-stride forward's pair_stores).
template <typename scalar_t>
__device__ __forceinline__ void store_value_pair(scalar_t* out, float v0, float v1) {
  if constexpr (sizeof(scalar_t) == 4) {
    *reinterpret_cast<float2*>(out) = make_float2(v0, v1);
  } else {
    const scalar_t lo = from_acc<scalar_t>(v0), hi = from_acc<scalar_t>(v1);
    unsigned short lo_bits, hi_bits;
    memcpy(&lo_bits, &lo, 2);
    memcpy(&hi_bits, &hi, 2);
    *reinterpret_cast<uint32_t*>(out) = uint32_t(lo_bits) | (uint32_t(hi_bits) << 16);
  }
}

// Block: 128 input channels x 256 positions of one (n, d, h) line; K = all output channels x the W kernel, in
// stages of kChannels channels (32 K values). kColumns = s / 4 16-byte columns per strip row, T = 8 / (kChannels x
// kColumns) taps. Every thread copies a share of the stage's packed weights (16 KB, contiguous, cp.async) and of its
// strips: those it loads into registers one iteration ahead (zeros outside grad_output) and stores rounded to TF32
// (wgmma would truncate), so neither the loads' latency nor the rounding waits on shared memory. Two warpgroups
// issue one m64n256k8 each per k8 step, a stage's four as one group, and keep one group in flight: so the slot
// refilled is the one read two iterations earlier, and the prefetch distance is kStages - 2 (the strips' stores one
// iteration behind their loads). fp16/bf16 data, two forms: kK16, the values as they are (16-byte columns of 8
// phases, k16 wgmmas, the stage order of strip_k16_value), loaded as two 8-byte pieces (p is only a multiple of 4)
// and stored unchanged; else widened to fp32 as they load and the weights packed widened, so the slots and MMAs are
// fp32's (exact products). grad_input is rounded once at the store.
template <typename scalar_t, int kStages, int kColumns, int kChannels, bool kK16 = false>
__global__ void __launch_bounds__(StripGradInputTile::kThreads, 1)
    tconv_igemm_strip_grad_input_kernel(const StripArgs<scalar_t> a) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  using Tile = StripGradInputTile;
  static_assert(!kK16 || sizeof(scalar_t) == 2, "k16 steps on 16-bit data");
  constexpr int BM = Tile::kBlockM, BN = Tile::kBlockN, R = Tile::kRows, kThreads = Tile::kThreads;
  constexpr int kSteps = Tile::kStageK / 8, kAFloats = Tile::kStageAFloats;
  constexpr int kColumnValues = kK16 ? 8 : 4;  // phases per 16-byte column
  constexpr int kTaps = 8 / (kChannels * kColumns), kStride = kColumnValues * kColumns;
  static_assert(kTaps >= 1 && kTaps * kChannels * kStride == Tile::kStageK * kColumnValues / 4 &&
                    kTaps <= Tile::kMaxTaps, "one plan");
  constexpr int kRowsNeeded = BN + kTaps - 1, kRowStep = kThreads / kColumns;
  constexpr int kRowsPerThread = (kRowsNeeded + kRowStep - 1) / kRowStep;
  constexpr int kStageFloats = Tile::template kStageFloats<kTaps>;
  extern __shared__ __align__(16) float smem[];
  const int ci_tile = blockIdx.x, u0 = blockIdx.y * BN, line = blockIdx.z;
  const int h = line % a.lines_h, d = (line / a.lines_h) % a.lines_d, n = line / (a.lines_h * a.lines_d);
  const scalar_t* dy_line = a.dy + n * a.dy_stride[0] + d * a.dy_stride[2] + h * a.dy_stride[3];
  const float* packed = a.packed + int64_t(ci_tile) * a.stages * kAFloats;
  const int tid = threadIdx.x;
  // This thread's strip pieces: column q of rows v0, v0 + kRowStep, ... of each channel of a stage (consecutive
  // threads read consecutive 16 bytes of grad_output).
  const int q = tid % kColumns, v0 = tid / kColumns;
  const int w_first = kStride * (u0 + v0) - a.padding_w + kColumnValues * q;  // grad_output W of the first piece
  using Piece = std::conditional_t<kK16, uint4, float4>;
  Piece held[kChannels][kRowsPerThread];

  auto copy_weights = [&](int slot, int stage) {
    copy_strip_weights(smem + slot * kStageFloats, packed + int64_t(stage) * kAFloats, tid);
  };
  auto load_strips = [&](int stage) {
#pragma unroll
    for (int c = 0; c < kChannels; ++c) {
      const int co = stage * kChannels + c;
      const scalar_t* dy_channel = dy_line + int64_t(co) * a.dy_stride[1];
#pragma unroll
      for (int k = 0; k < kRowsPerThread; ++k) {
        const int w = w_first + kStride * kRowStep * k;
        const bool ok = co < a.c_out && w >= 0 && w + 4 <= a.out_w && v0 + k * kRowStep < kRowsNeeded;
        if constexpr (kK16) {
          // Each 8-byte half wholly inside grad_output or outside (p and W_out multiples of 4).
          const bool ok_hi = co < a.c_out && w + 4 >= 0 && w + 8 <= a.out_w && v0 + k * kRowStep < kRowsNeeded;
          held[c][k] = ldg_piece_pair_or_zero(dy_channel + w, ok, ok_hi);
        } else {
          held[c][k] = ldg_quad_as_float(dy_channel + w, ok);  // run 140: 1.799 -> 1.788 ms on HiFi-GAN
        }
      }
    }
  };
  auto store_strips = [&](int slot) {
    float* Bs = smem + slot * kStageFloats + kAFloats;
#pragma unroll
    for (int c = 0; c < kChannels; ++c)
#pragma unroll
      for (int k = 0; k < kRowsPerThread; ++k) {
        const int v = v0 + k * kRowStep;
        if (v >= kRowsNeeded) continue;
        if constexpr (kK16) *reinterpret_cast<uint4*>(Bs + ((c * kColumns + q) * R + v) * 4) = held[c][k];
        else *reinterpret_cast<float4*>(Bs + ((c * kColumns + q) * R + v) * 4) = tf32_rounded(held[c][k]);
      }
  };

  // B offset of each k8 step within a stage, in 16-byte units (issue_strip_steps; A: this warpgroup's 64 channels):
  // step j is channel c, tap t, phases 8 rb .. 8 rb + 7, i.e. columns 2 rb (K half 0) and 2 rb + 1 of channel c,
  // from row t.
  const int warpgroup = uniform_warpgroup();
  constexpr int kStepsPerTap = kStride / 8, kStepsPerChannel = kTaps * kStepsPerTap;
  auto b_offset = [](int j) {
    if constexpr (kK16) return uint32_t(strip_k16_step_column(j, kTaps) * R + strip_k16_step_row(j, kTaps));
    const int c = j / kStepsPerChannel, t = (j % kStepsPerChannel) / kStepsPerTap, rb = j % kStepsPerTap;
    return uint32_t((c * kColumns + 2 * rb) * R + t);
  };

  float acc[128];
#pragma unroll
  for (int i = 0; i < 128; ++i) acc[i] = 0.f;
  // Issue first, as the unit-stride forward (run 387). Run 388 (H200, HiFi-GAN TF32, whose passes these are): level,
  // 1.51x / 1.20x eager against run 382's 1.52x / 1.19x (the same MMAs in the same order: only the stores move).
  run_strip_pipeline<kStages, 1, 1, 1, true>(
      a.stages, copy_weights, [&](int, int stage) { load_strips(stage); }, [&](int, int slot) { store_strips(slot); },
      [&](int slot) {
        issue_strip_steps<kSteps, std::conditional_t<kK16, scalar_t, float>>(acc, smem + slot * kStageFloats,
                                                                             warpgroup, b_offset);
      });

  // Accumulator i of a warp: channel row 16 warp + gid (+ 8 for i % 4 >= 2), position 8 (i / 4) + 2 tig + i % 2.
  const int warp = (tid % 128) / 32, lane = tid % 32, gid = lane / 4, tig = lane % 4;
  scalar_t* dx_line = a.dx + n * a.dx_stride[0] + d * a.dx_stride[2] + h * a.dx_stride[3];
#pragma unroll
  for (int half = 0; half < 2; ++half) {
    const int ci = ci_tile * BM + warpgroup * 64 + warp * 16 + gid + 8 * half;
    if (ci >= a.c_in) continue;
    scalar_t* row = dx_line + int64_t(ci) * a.dx_stride[1];
#pragma unroll
    for (int j = 0; j < BN / 8; ++j) {
      const int u = u0 + 8 * j + 2 * tig;
      const float lo = acc[4 * j + 2 * half], hi = acc[4 * j + 2 * half + 1];
      if (a.pair_stores && u + 1 < a.in_w) {
        store_value_pair(row + u, lo, hi);
      } else {
        if (u < a.in_w) row[int64_t(u) * a.dx_stride[4]] = from_acc<scalar_t>(lo);
        if (u + 1 < a.in_w) row[int64_t(u + 1) * a.dx_stride[4]] = from_acc<scalar_t>(hi);
      }
    }
  }
#else
  (void)a;
#endif
}

// The strip kernel's A operand: packed[ci tile][stage][step][group][half][row][col] = w[ci, co, kw] rounded to
// TF32, ci = 128 ci_tile + 8 group + row, K index k = 8 step + 4 half + col = (c, kw) with c = k / (T s) the
// stage's channel and kw = k % (T s) the W tap (s t + r), co = stage x channels_per_stage + c; zero past C_in or
// C_out. fp16/bf16 weights are widened (exact in TF32).
template <typename scalar_t>
__global__ void tconv_igemm_strip_pack_weight_kernel(const scalar_t* __restrict__ w, int64_t ws0, int64_t ws1,
                                                     int64_t ws4, int c_in, int c_out, int kernel_w,
                                                     int channels_per_stage, int stages, int64_t total,
                                                     float* __restrict__ packed) {
  using Tile = StripGradInputTile;
  for (int64_t idx = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; idx < total;
       idx += int64_t(gridDim.x) * blockDim.x) {
    const PackedStripIndex at = packed_strip_index(idx, Tile::kBlockM, Tile::kStageK, stages);
    const int64_t ci = at.tile * Tile::kBlockM + at.row;
    const int c = at.k / kernel_w, kw = at.k % kernel_w;
    const int64_t co = at.stage * channels_per_stage + c;
    float v = 0.f;
    if (ci < c_in && co < c_out && c < channels_per_stage)
      v = __uint_as_float(to_tf32(to_acc(w[ci * ws0 + co * ws1 + kw * ws4])));
    packed[idx] = v;
  }
}

// The same for the kK16 form: packed[ci tile][stage][k16 step][group][half][row][8 values] = w[ci, co, kw] as it is,
// (c, kw) = strip_k16_value(k) for the stage's K value k, co = stage x channels_per_stage + c.
template <typename scalar_t>
__global__ void tconv_igemm_strip_pack_weight_k16_kernel(const scalar_t* __restrict__ w, int64_t ws0, int64_t ws1,
                                                         int64_t ws4, int c_in, int c_out, int stride_w, int taps,
                                                         int channels_per_stage, int stages, int64_t total,
                                                         unsigned short* __restrict__ packed) {
  static_assert(sizeof(scalar_t) == 2, "16-bit weights");
  using Tile = StripGradInputTile;
  constexpr int kStageKValues = Tile::kStageK * 2;
  for (int64_t idx = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; idx < total;
       idx += int64_t(gridDim.x) * blockDim.x) {
    const PackedStripIndex at = packed_strip_index(idx, Tile::kBlockM, kStageKValues, stages, 8);
    const int64_t ci = at.tile * Tile::kBlockM + at.row;
    const StripK16Value value = strip_k16_value(at.k, taps, stride_w);
    const int64_t co = at.stage * channels_per_stage + value.channel;
    const bool inside = ci < c_in && co < c_out;
    packed[idx] = inside ? reinterpret_cast<const unsigned short*>(w)[ci * ws0 + co * ws1 + value.tap * ws4] : 0;
  }
}

// ---- the forward over x strips (StripGradInputTile's shapes, igemm_config.h; sm_90a, TF32 mode) ----
// At W stride s with a W kernel of T whole strides (dilation 1), output position J s + r - p of channel co is the
// sum over input channels ci and taps t of x[ci, J - t] w[ci, co, t s + r]. So each (n, d, h) line is one GEMM with
// M = C_out s rows m = co s + r (A: the weights, packed), N = output rows J, K = (tap, input channel) (B: x). It is
// the W fold's GEMM (_w_fold.py), with both operands read by descriptor: B holds x transposed, input-channel quads as
// the 16-byte K groups, so a tap is a row offset of B's descriptor and one copy of x serves all T taps.
template <typename scalar_t>  // float (TF32 MMAs), __half or __nv_bfloat16 (k16 MMAs): x, y and bias
struct StripForwardArgs {
  const scalar_t* x;    // input [N, C_in, D, H, W_in]
  scalar_t* y;          // output [N, C_out, D, H, W_out]
  // [M tiles][stages][k step][8-row group][K half][8][one K group]: 4 fp32 values rounded to TF32 or 8 fp16/bf16
  const float* packed;
  const scalar_t* bias;  // C_out or null
  int64_t x_stride[5], y_stride[5], bias_stride;
  int lines_d, lines_h;
  int c_in, c_out, in_w, out_w, stride_w, padding_w, stages;  // stages: K stages of 32 / T (16-bit: 64 / T) channels
  int m_rows, first_row;  // C_out s; the first output row J (p / s)
};

// Block: 128 rows m x 256 output rows J of one line. Every thread copies a share of the stage's packed weights
// (16 KB, cp.async) and loads x one iteration ahead into registers: four input channels at one position, as scalars
// (consecutive threads take consecutive positions, so each warp load is 128 contiguous bytes), stored rounded to TF32
// as one 16-byte K group. The pipeline is the grad_input strip kernel's (above): one wgmma group in flight, the slot
// refilled the one read two iterations earlier. Measured on HiFi-GAN (runs 137-139, H200): with only 32 K stages a
// block, the prologue and the epilogue count. Guarded loads as predicated instructions (branches around them had
// cost 356 instructions per warp and stage), the prologue loading stage st + 1 before storing st, and stores by
// pointer steps where a row lies inside a W-contiguous output: 2.85 -> 2.15 ms (194 -> 256 TF/s).
// fp16/bf16 data (scalar_t) as in the unit-stride form: a stage holds twice the K values (64 / T channels) in the
// fp32 stage's bytes, K groups of 8 channels, k16 wgmmas on the values as they are.
template <typename scalar_t, int kStages, int kTaps>
__global__ void __launch_bounds__(StripGradInputTile::kThreads, 1)
    tconv_igemm_strip_forward_kernel(const StripForwardArgs<scalar_t> a) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  using Tile = StripGradInputTile;
  constexpr int BM = Tile::kBlockM, BN = Tile::kBlockN, R = Tile::kRows, kThreads = Tile::kThreads;
  constexpr int kGroupChannels = 16 / int(sizeof(scalar_t));
  constexpr int kStageKValues = Tile::kStageK * 4 / int(sizeof(scalar_t));
  constexpr int kSteps = Tile::kStageK / 8, kAFloats = Tile::kStageAFloats;  // k steps per stage: 4 either way
  constexpr int kChannels = kStageKValues / kTaps, kGroups = kChannels / kGroupChannels;
  static_assert(kTaps <= Tile::kMaxTaps && kGroups % 2 == 0, "a k step's K halves: neighbouring groups of one tap");
  constexpr int kRowsNeeded = BN + kTaps - 1;
  constexpr int kStageFloats = Tile::template kStageFloats<kTaps>;
  static_assert(kStageFloats == kAFloats + kGroups * Tile::kColumnFloats, "B: one column of R rows per K group");
  extern __shared__ __align__(16) float smem[];
  const int m_tile = blockIdx.x, j0 = a.first_row + int(blockIdx.y) * BN, line = blockIdx.z;
  const int h = line % a.lines_h, d = (line / a.lines_h) % a.lines_d, n = line / (a.lines_h * a.lines_d);
  const scalar_t* x_line = a.x + n * a.x_stride[0] + d * a.x_stride[2] + h * a.x_stride[3];
  const float* packed = a.packed + int64_t(m_tile) * a.stages * kAFloats;
  const int tid = threadIdx.x;
  // Row v of a stage's B columns is x position j0 - (T - 1) + v. This thread's rows: v = tid for every K group, and
  // for the T - 1 rows past kBlockN, v = kThreads + tid / kGroups of group tid % kGroups (threads tid < kTailLoads).
  constexpr int kTailLoads = (kRowsNeeded - kThreads) * kGroups;
  static_assert(kRowsNeeded >= kThreads && kTailLoads <= 32, "the tail rows within warp 0");
  const bool tail_thread = tid < kTailLoads;
  const int tail_group = tid % kGroups, tail_row = kThreads + tid / kGroups;
  auto x_offset_of = [&](int v, bool& inside) {
    const int position = j0 - (kTaps - 1) + v;
    inside = position >= 0 && position < a.in_w;
    return inside ? int64_t(position) * a.x_stride[4] : int64_t(0);
  };
  bool row_inside, tail_inside;
  const int64_t x_offset = x_offset_of(tid, row_inside);
  const int64_t tail_offset = x_offset_of(tail_row, tail_inside) + kGroupChannels * tail_group * a.x_stride[1];
  tail_inside = tail_inside && tail_thread;
  // Two sets: the prologue loads stage st + 1 before it stores stage st (the accumulators are not live yet).
  using Group = typename StripXGroup<scalar_t>::type;
  Group held[2][kGroups];
  Group held_tail[2];
  auto load_group = [&](const scalar_t* src, bool inside, int channels_left) {
    return StripXGroup<scalar_t>::load(src, a.x_stride[1], inside, channels_left);
  };
  const auto rounded = StripXGroup<scalar_t>::stored;

  auto copy_weights = [&](int slot, int stage) {
    copy_strip_weights(smem + slot * kStageFloats, packed + int64_t(stage) * kAFloats, tid);
  };
  auto load_x = [&](Group (&into)[kGroups], Group& into_tail, int stage) {
    const int c0 = stage * kChannels;
    const scalar_t* channels = x_line + int64_t(c0) * a.x_stride[1];
#pragma unroll
    for (int q = 0; q < kGroups; ++q)
      into[q] = load_group(channels + x_offset + kGroupChannels * q * a.x_stride[1], row_inside,
                           a.c_in - c0 - kGroupChannels * q);
    if (tail_thread)
      into_tail = load_group(channels + tail_offset, tail_inside, a.c_in - c0 - kGroupChannels * tail_group);
  };
  auto store_x = [&](const Group (&from)[kGroups], const Group& from_tail, int slot) {
    float* Bs = smem + slot * kStageFloats + kAFloats;
#pragma unroll
    for (int q = 0; q < kGroups; ++q) *reinterpret_cast<Group*>(Bs + (q * R + tid) * 4) = rounded(from[q]);
    if (tail_thread) *reinterpret_cast<Group*>(Bs + (tail_group * R + tail_row) * 4) = rounded(from_tail);
  };

  // B offset of each k step, in 16-byte units (issue_strip_steps): K groups 2j and 2j + 1 are groups q0 = 2j % G and
  // q0 + 1 (neighbouring columns) of tap t = 2j / G, whose column J0 + n reads x position J0 + n - t: row
  // n + T - 1 - t.
  const int warpgroup = uniform_warpgroup();
  auto b_offset = [](int j) {
    const int t = 2 * j / kGroups, q0 = 2 * j % kGroups;
    return uint32_t(q0 * R + (kTaps - 1 - t));
  };

  float acc[128];
#pragma unroll
  for (int i = 0; i < 128; ++i) acc[i] = 0.f;
  run_strip_pipeline<kStages, 2, 1, 1, true>(  // issue first: see the strip grad_input kernel (run 388: level)
      a.stages, copy_weights, [&](int set, int stage) { load_x(held[set], held_tail[set], stage); },
      [&](int set, int slot) { store_x(held[set], held_tail[set], slot); },
      [&](int slot) { issue_strip_steps<kSteps, scalar_t>(acc, smem + slot * kStageFloats, warpgroup, b_offset); });

  // Accumulator i of a warp: row 16 warp + gid (+ 8 for i % 4 >= 2), column 8 (i / 4) + 2 tig + i % 2. Where s is
  // a multiple of 8, a store's 8 lanes of one column are 8 consecutive phases r: a whole 32-byte sector.
  const int warp = (tid % 128) / 32, lane = tid % 32, gid = lane / 4, tig = lane % 4;
  scalar_t* y_line = a.y + n * a.y_stride[0] + d * a.y_stride[2] + h * a.y_stride[3];
#pragma unroll
  for (int half = 0; half < 2; ++half) {
    const int m = m_tile * BM + warpgroup * 64 + warp * 16 + gid + 8 * half;
    if (m >= a.m_rows) continue;
    const int co = m / a.stride_w, r = m % a.stride_w;
    const float b = a.bias != nullptr ? to_acc(a.bias[co * a.bias_stride]) : 0.f;
    scalar_t* row = y_line + int64_t(co) * a.y_stride[1];
    const int s = a.stride_w, w_first = (j0 + 2 * tig) * s + r - a.padding_w, w_last = w_first + (BN - 7) * s;
    if (a.y_stride[4] == 1 && w_first >= 0 && w_last < a.out_w) {  // the whole row inside a W-contiguous output
      scalar_t* at = row + w_first;
#pragma unroll
      for (int j = 0; j < BN / 8; ++j) {
        at[0] = from_acc<scalar_t>(acc[4 * j + 2 * half] + b);
        at[s] = from_acc<scalar_t>(acc[4 * j + 2 * half + 1] + b);
        at += 8 * s;
      }
      continue;
    }
#pragma unroll
    for (int j = 0; j < BN / 8; ++j)
#pragma unroll
      for (int e = 0; e < 2; ++e) {
        const int w = w_first + (8 * j + e) * s;
        if (w >= 0 && w < a.out_w)
          row[int64_t(w) * a.y_stride[4]] = from_acc<scalar_t>(acc[4 * j + 2 * half + e] + b);
      }
  }
#else
  (void)a;
#endif
}

// The forward strip kernel's A operand: packed[m tile][stage][step][group][half][row][col] = w[ci, co, s t + r],
// m = 128 m_tile + 8 group + row = co s + r, K value k of the stage in K group g = k / E = (t, group) with t = g / G
// (E channels per K group: 4 fp32 values rounded to TF32, or 8 fp16/bf16 ones as they are; G = channels / E),
// ci = stage x channels_per_stage + E (g % G) + k % E; zero past C_in or C_out. total: elements of scalar_t's width.
template <typename scalar_t>
__global__ void tconv_igemm_strip_forward_pack_weight_kernel(const scalar_t* __restrict__ w, int64_t ws0, int64_t ws1,
                                                             int64_t ws4, int c_in, int c_out, int stride_w,
                                                             int channels_per_stage, int stages, int64_t total,
                                                             void* __restrict__ packed) {
  using Tile = StripGradInputTile;
  constexpr int E = 16 / int(sizeof(scalar_t)), kStageKValues = Tile::kStageK * 4 / int(sizeof(scalar_t));
  const int groups = channels_per_stage / E;
  for (int64_t idx = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; idx < total;
       idx += int64_t(gridDim.x) * blockDim.x) {
    const PackedStripIndex at = packed_strip_index(idx, Tile::kBlockM, kStageKValues, stages, E);
    const int64_t m = at.tile * Tile::kBlockM + at.row;
    const int k_group = at.k / E, t = k_group / groups;
    const int64_t ci = at.stage * channels_per_stage + E * (k_group % groups) + at.k % E;
    const int64_t co = m / stride_w;
    const int r = int(m % stride_w);
    const bool inside = ci < c_in && co < c_out;
    const int64_t from = inside ? ci * ws0 + co * ws1 + (int64_t(t) * stride_w + r) * ws4 : 0;
    if constexpr (sizeof(scalar_t) == 2) {
      static_cast<unsigned short*>(packed)[idx] = inside ? reinterpret_cast<const unsigned short*>(w)[from] : 0;
    } else {
      static_cast<float*>(packed)[idx] = inside ? __uint_as_float(to_tf32(w[from])) : 0.f;
    }
  }
}

// ---- the forward at unit stride over the rows of all output lines (StripUnitStrideForwardTile, igemm_config.h) ----
template <typename scalar_t>  // float (TF32 MMAs), __half or __nv_bfloat16 (k16 MMAs): x, y and bias
struct StripUnitStrideArgs {
  const scalar_t* x;    // input [N, C_in, D_in, H_in, W_in]
  scalar_t* y;          // output [N, C_out, D_out, H_out, W_out]
  // [C_out tiles][kD][kH][channel stages][k step][8-channel group][K half][8][one K group]: 4 fp32 values rounded to
  // TF32, or 8 fp16/bf16 ones (read as 4-byte words)
  const float* packed;
  const scalar_t* bias;  // C_out or null
  int64_t x_stride[5], y_stride[5], bias_stride;
  int64_t rows;         // lines x line_rows: the GEMM's M
  int in_d, in_h, in_w, out_d, out_h, out_w, line_rows;  // line_rows = W_out + T - 1
  int c_in, c_out, kernel_d, kernel_h, pad_d, pad_h, pad_w, dil_d, dil_h;
  int channel_stages;   // ceil(C_in / kChannels)
  // The set-up's divisions (decode_row's radices, the tap hulls' dilations) as fast divisors where fast_divisions
  // (unit_stride_fast_divisions), else the hardware's.
  RowDivisors row_div;
  FastDivisor by_dil_d, by_dil_h;
  int fast_divisions;
  // The store (set_unit_stride_store_plan): staged_store, the x-as-A tiles stage their accumulators in shared
  // memory and store rows as the weights-as-A tiles do; pair_stores, rows 2 i and 2 i + 1 of a tile are adjacent
  // output positions on one even element (one 4-byte or 8-byte store for both).
  int staged_store, pair_stores;
  // Channels-last access (set_unit_stride_channels_last_access; fp32): x_channel_quads, a K group is one 16-byte load
  // (x's channels innermost, C_in, x's strides and base whole 16 bytes); y_channel_rows, the weights-as-A tiles' staged
  // store runs with lanes along channels (y's channels innermost), 128 bytes a warp store instead of 32 sectors.
  int x_channel_quads = 0, y_channel_rows = 0;
  // The (kd, kh) taps every block takes: those valid for some line of the tile (strip_unit_stride_taps).
  // GroupNorm statistics of act(y) (conv_transpose.h: ForwardGroupStats; the wide-rows tile only), null: none. In
  // block (b, n tile), each warp writes its Welford partial of (sample n, group g) at split ((b - n rows_per_sample /
  // kBlockM) x tiles_per_group + the tile within the group) x pieces + its 16 channels' piece of the group in the
  // tile (staged_group_stats, unit_stride_group_stats_splits).
  float* group_partials;            // three planes (count, mean, M2) of [N x groups][stat_splits]
  int64_t stat_plane, stat_rows_per_sample;
  int stat_groups, stat_channels_per_group, stat_splits, stat_tiles_per_group;
  ActivationSpec stat_act;
};

// GroupNorm statistics in the conv's store (StripUnitStrideArgs::group_partials). History: the x-as-A tiles' form
// staged the stored values in shared memory and made the statistics in two passes over them, one warp per group
// (runs 247-256, H100/H200, L2-61 forward with / without: TF32 1.449 / 1.299 ms, bf16 1.008 / 0.865): with one block
// per SM nothing overlapped those passes, and the x-as-A tiles were slower than the wide rows. Session 108's form took
// them from the wide-rows tile's accumulators in the MMA warpgroups (two passes over registers, 5 shuffle steps a
// warp): run 550 (H100, L2-61 TF32) timed its conv kernel 0.887 -> 1.015 ms, as much as the statistics pass it
// replaced (0.126), and the forward 1.256 -> 1.271 ms (bf16 0.760 -> 0.763): the passes ran between the staging and
// the store with the tensor pipe idle. This form gives them to the warp-specialized kernel's producer warpgroup,
// idle once the ring is filled: the MMA warpgroups stage the tile (Cs[channel][row] at kPitch, the bias, the row
// masks), meet the producer at one barrier, and store the rows while the producer reads the staged tile.
// Producer warp w takes the tile's channels 32 w .. 32 w + 31 in pieces (16 channels where groups are multiples of
// 16, else the 8-channel groups), lane l rows l + 32 k: per piece and sample, the sum over the piece's channels at the
// lane's rows of act(y as stored), a 5-step warp reduction, the mean; then M2 about it the same way. Lanes 0 and 1
// write sample 0's and 1's Welford partial of the piece, which finalize_stats merges in fp64 (group_norm_act.cu); a
// piece's split: ((b - n rows_per_sample / kBlockM) x tiles_per_group + the tile within the group) x pieces + piece.
// Rows: bit r of row_masks[s][r / 32] is whether the tile's row r is a stored position of sample n0 + s (a block's
// rows span at most two samples: the host requires a sample to hold at least a tile's rows). Reads are conflict-free:
// a warp reads 32 consecutive rows of one channel.
template <int kBlockM, int kPitch, typename scalar_t>
__device__ __forceinline__ void staged_group_stats(const StripUnitStrideArgs<scalar_t>& a, const float* Cs,
                                                   const float* bias_s, const uint32_t* row_masks, int channels,
                                                   int n0, int n_tile) {
  constexpr int kWords = kBlockM / 32;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32 % 4;
  // weight[s][k]: 1 where row lane + 32 k is a stored position of sample n0 + s, else 0. Each value then costs one FFMA
  // a sample: run 552's source counters had the bit-mask selects at ~5 instructions a value and sample (the two passes
  // ~19 % of the kernel's samples, the producer's four warps latency-bound on one dependent sum each). A value of a
  // dropped row enters as 0 x value: it is finite unless some x feeding it is not, and every x of a line also feeds a
  // stored row of the same channel and sample, whose (sample, group) statistics are then not finite either way.
  float weight[2][kWords];
  int rows_of[2] = {0, 0};
#pragma unroll
  for (int s = 0; s < 2; ++s)
#pragma unroll
    for (int k = 0; k < kWords; ++k) {
      const uint32_t word = row_masks[s * kWords + k];
      rows_of[s] += __popc(word);
      weight[s][k] = (word >> lane) & 1u ? 1.f : 0.f;
    }
  const int cpg = a.stat_channels_per_group;
  const bool sixteen = cpg % 16 == 0;  // else groups of 8 channels (unit_stride_group_stats_possible)
  const int piece_channels = sixteen ? 16 : 8;
  // kSamples: 2 where the tile's rows reach a second sample (rows_of[1] > 0), else 1 (most tiles).
  auto pieces_of = [&](auto kind, auto samples) {
    constexpr Activation K = decltype(kind)::value;
    constexpr int kSamples = decltype(samples)::value;
    // act(y as stored) at channel c, row lane + 32 k
    auto stored = [&](int c, int k) {
      const float v = Cs[c * kPitch + lane + 32 * k] + bias_s[c];
      return Act<K>::value(to_acc<scalar_t>(from_acc<scalar_t>(v)), a.stat_act.arg0, a.stat_act.arg1);
    };
    // Per-row partial sums (kWords independent chains a sample), then one sum a sample over the warp.
    auto reduce = [&](float (&part)[2][kWords], float (&total)[2]) {
#pragma unroll
      for (int s = 0; s < 2; ++s) {
        total[s] = 0.f;
#pragma unroll
        for (int k = 0; k < kWords; ++k) total[s] += part[s][k];
      }
#pragma unroll
      for (int offset = 16; offset > 0; offset /= 2)
#pragma unroll
        for (int s = 0; s < kSamples; ++s) total[s] += __shfl_xor_sync(0xffffffffu, total[s], offset);
    };
    for (int c0 = 32 * warp; c0 < 32 * warp + 32 && c0 < channels; c0 += piece_channels) {
      float part[2][kWords] = {};
#pragma unroll 2
      for (int c = c0; c < c0 + piece_channels; ++c)
#pragma unroll
        for (int k = 0; k < kWords; ++k) {
          const float v = stored(c, k);
#pragma unroll
          for (int s = 0; s < kSamples; ++s) part[s][k] = fmaf(weight[s][k], v, part[s][k]);
        }
      float sum[2];
      reduce(part, sum);
      float mean[2], count[2];
#pragma unroll
      for (int s = 0; s < 2; ++s) {
        count[s] = float(piece_channels * rows_of[s]);
        mean[s] = rows_of[s] > 0 ? sum[s] / count[s] : 0.f;
#pragma unroll
        for (int k = 0; k < kWords; ++k) part[s][k] = 0.f;
      }
#pragma unroll 2
      for (int c = c0; c < c0 + piece_channels; ++c)
#pragma unroll
        for (int k = 0; k < kWords; ++k) {
          const float v = stored(c, k);
#pragma unroll
          for (int s = 0; s < kSamples; ++s) {
            const float d = v - mean[s];
            part[s][k] = fmaf(weight[s][k] * d, d, part[s][k]);
          }
        }
      float m2[2];
      reduce(part, m2);
      if (lane < 2 && (lane == 0 ? rows_of[0] : rows_of[1]) > 0) {  // (selects: an indexed array goes to the stack)
        const int s = lane, co = n_tile * 128 + c0, n = n0 + s;
        const int g = co / cpg, span = cpg < 128 ? cpg : 128;
        const int pieces = sixteen ? span / 16 : 1, piece = sixteen ? (co % span) / 16 : 0;
        const int64_t first_block = int64_t(n) * a.stat_rows_per_sample / kBlockM;
        const int tile_in_group = cpg > 128 ? (n_tile * 128 % cpg) / 128 : 0;
        const int64_t split =
            ((int64_t(blockIdx.x) - first_block) * a.stat_tiles_per_group + tile_in_group) * pieces + piece;
        const int64_t i = (int64_t(n) * a.stat_groups + g) * a.stat_splits + split;
        a.group_partials[i] = s == 0 ? count[0] : count[1];
        a.group_partials[a.stat_plane + i] = s == 0 ? mean[0] : mean[1];
        a.group_partials[2 * a.stat_plane + i] = s == 0 ? m2[0] : m2[1];
      }
    }
  };
  // The activation and the sample count as template arguments: every activation (unit_stride_group_stats_activation),
  // the producer's registers being free, where the register form's transcendental ones spilled beside 128 live
  // accumulators.
  auto with_samples = [&](auto kind) {
    if (rows_of[1] > 0) pieces_of(kind, std::integral_constant<int, 2>{});
    else pieces_of(kind, std::integral_constant<int, 1>{});
  };
  using A = Activation;
  switch (a.stat_act.kind) {
    case A::kRelu: with_samples(std::integral_constant<A, A::kRelu>{}); break;
    case A::kLeakyRelu: with_samples(std::integral_constant<A, A::kLeakyRelu>{}); break;
    case A::kGelu: with_samples(std::integral_constant<A, A::kGelu>{}); break;
    case A::kGeluTanh: with_samples(std::integral_constant<A, A::kGeluTanh>{}); break;
    case A::kSilu: with_samples(std::integral_constant<A, A::kSilu>{}); break;
    case A::kHardswish: with_samples(std::integral_constant<A, A::kHardswish>{}); break;
    case A::kTanh: with_samples(std::integral_constant<A, A::kTanh>{}); break;
    case A::kSigmoid: with_samples(std::integral_constant<A, A::kSigmoid>{}); break;
    case A::kHardtanh: with_samples(std::integral_constant<A, A::kHardtanh>{}); break;
    default: with_samples(std::integral_constant<A, A::kIdentity>{});
  }
}

// Block: kBlockM rows (output positions, see StripUnitStrideForwardTile) x kBlockN output channels, K over the (kd,
// kh) taps that reach any of the block's lines (a tap that reaches none adds nothing) x kChannels-channel stages.
// Every thread loads one padded input row (and warp 0 the T - 1 rows past kBlockM): kChannels channels at one
// position as scalars (consecutive threads, consecutive positions: a warp load is one 128-byte line inside an input
// line), stored rounded to TF32 as kChannels / 4 16-byte K groups; the stage's packed weights (B) by cp.async. Each
// warpgroup issues two m64nBNk8 per k8 step (its 128 rows), one stage's as one group (run_strip_pipeline).
// kWeightsAsA (kBlockN = 64): the roles swap, the tile's 64 output channels are wgmma's A (m64) and this warpgroup's
// 128 rows its B (n128, the same x descriptor: K-major core matrices of 8 rows x one quad either way), one m64n128k8
// per k8 step instead of two m64n64k8: 6 KB of shared reads per 131 KFLOP instead of 8 KB, half the wgmma
// instructions and descriptors. The accumulators then hold (channel, row) pairs, so the store goes through shared
// memory: one thread per row, a row decoded once, 128-byte stores per warp and channel.
// kTapPairs (kBlockN = 32, weights as A): A's 64 rows are the tile's 32 output channels at two W taps, row 32 r + c
// = channel c at tap 2 p + r for the K group of tap pair p, whose B is the x rows at tap 2 p's shift. Row (c, 1) of
// column j then holds tap 2 p + 1's product for output row j + 1 (its x row j + T - 1 - 2 p is that row's at tap
// 2 p + 1), so the store adds it there: a block computes kBlockM columns from row r0 = 255 b - 1 and stores the
// kBlockM - 1 rows after its first. An odd T leaves its last tap's r = 1 rows zero. Against the 32-column x-as-A
// tile (two m64n32k8 per k8 step and tap): one m64n128k8 per k8 step and tap pair.
// scalar_t (x, y, bias, weights): fp32 in TF32 mode, or fp16/bf16 in either mode on k16 wgmmas of the values as they
// are (exact products, fp32 sums). A 16-bit stage holds twice the channels in the fp32 stage's bytes (K groups of 8
// channels, Tile::channels), so its shared memory, descriptors and wgmma count per stage are the fp32 stage's and each
// k16 wgmma does twice a k8's work; each thread loads twice the scalars per stage (2 bytes each).
// Tile (igemm_config.h: UnitStrideTile): StripUnitStrideForwardTile, or StripUnitStrideForwardHalfTile (128 rows, one
// warpgroup, two blocks per SM; 64-channel weights-as-A and tap-pairs tiles only: its 128-channel form, two m64
// channel halves per k step, lost to the 256-row tile in run 389 and was taken out), or their 48-channel 16-bit
// forms (StripUnitStrideForwardTile48, StripUnitStrideForwardHalfTile48).
// kSpecialized (unit_stride_specialized; the 256-row weights-as-A tiles): a producer warpgroup more (threads
// kThreads.., tid 0-127 there), produce_strip_stages' role: each thread loads and stores rows tid and tid + 128 (with
// kXPairs both K-group halves of row pair 2 tid; the tail's as above), the weights by one bulk copy a stage; the MMA
// warpgroups only issue and store.
// kPersistent (unit_stride_persistent; a kSpecialized form): a block takes row tiles blockIdx.x + k gridDim.x in turn,
// both roles carrying their place in the ring from tile to tile, and the MMA warpgroups stage their store through
// the slots of the tile's last two stages (from registers for tiles of fewer stages).
template <typename scalar_t, int kStages, int kDepth, int kInFlight, int kBlockN, int kTaps, int kChannels,
          bool kWeightsAsA, bool kTapPairs = false, bool kGroupStats = false, bool kXPairs = false,
          typename Tile = StripUnitStrideForwardTile, bool kSpecialized = false, bool kPersistent = false,
          bool kChannelsLastAccess = false>
__global__ void __launch_bounds__(Tile::kThreads + (kSpecialized ? StripUnitStrideSpecialized::kProducerThreads : 0),
                                  Tile::kBlocksPerSm)
    tconv_igemm_strip_unit_stride_forward_kernel(const StripUnitStrideArgs<scalar_t> a) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  constexpr int BM = Tile::kBlockM, R = Tile::kRows, kThreads = Tile::kThreads;
  static_assert(!kTapPairs || (kWeightsAsA && kBlockN == 32), "tap pairs: 32 channels x 2 taps as A's 64 rows");
  // K groups per stage (taps, or tap pairs) and the packed weights' rows per tile.
  constexpr int kKTaps = Tile::k_taps(kTaps, kTapPairs), kWRows = Tile::weight_rows(kBlockN, kTapPairs);
  // K groups: 16 bytes of one row, 4 fp32 channels (k8 steps) or 8 fp16/bf16 ones (k16 steps).
  constexpr bool k16Bit = sizeof(scalar_t) == 2;
  constexpr int kElemBytes = int(sizeof(scalar_t)), kGroupChannels = Tile::group_channels(kElemBytes);
  constexpr int kGroups = kChannels / kGroupChannels, kStageK = kChannels * kKTaps;
  constexpr int kSteps = kStageK / (2 * kGroupChannels);
  constexpr int kXFloats = kGroups * R * 4, kWFloats = Tile::weight_floats(kWRows, kKTaps, kElemBytes);
  constexpr int kStageFloats = Tile::stage_floats(kWRows, kKTaps, kElemBytes);
  static_assert(kChannels == Tile::channels(kWRows, kKTaps, kElemBytes) && kGroups % 2 == 0,
                "a k step: two K groups of one tap");
  static_assert(kStageFloats == kXFloats + kWFloats && kTaps <= Tile::kMaxTaps, "one plan");
  // kXPairs (unit_stride_x_pairs): a thread loads two adjacent rows (positions) of half the K groups as 32-bit words.
  constexpr int kRowsPerThread = kXPairs ? 2 : 1, kThreadGroups = kGroups / kRowsPerThread;
  static_assert(!kXPairs || (k16Bit && !kTapPairs && kThreads == BM && (kTaps - 1) % 2 == 0),
                "position pairs: 16-bit x, even rows from r0, whole tail pairs");
  constexpr int kRowsNeeded = BM + kTaps - 1, kTailLoads = (kTaps - 1) / kRowsPerThread * kGroups;
  static_assert(kRowsNeeded >= kThreads && kTailLoads <= 32, "the tail rows within warp 0");
  extern __shared__ __align__(16) float smem[];
  const int tid = kSpecialized ? int(threadIdx.x) % kThreads : int(threadIdx.x), n_tile = blockIdx.y;
  static_assert(!kPersistent || kSpecialized, "the persistent form is the warp-specialized one's");

  // The block's (kd, kh) taps: the hull of those that reach its first and last lines' input (all, where the block
  // spans two samples or, for kh, two D planes). A tap outside a row's input reads zeros, so the hull is exact.
  struct LineOf {
    int n, od, oh, w;  // w: the row within its line, 0 .. line_rows - 1
  };
  const bool fast = a.fast_divisions != 0;
  auto line_of = [&](int64_t row) {
    const RowCoords c = fast ? decode_row(row, a.out_d, a.out_h, a.line_rows, a.row_div)
                             : decode_row(row, a.out_d, a.out_h, a.line_rows);
    return LineOf{int(c.outer), c.i0, c.i1, c.i2};
  };
  auto divide = [&](int v, int d, FastDivisor by) { return fast ? int(fast_div(uint32_t(v), by)) : v / d; };
  // Taps k with 0 <= o + p - k dil < size, as [lo, hi] within [0, kernel): lo = ceil((o + p - size + 1) / dil).
  auto tap_lo = [&](int o, int p, int dil, FastDivisor by, int size) {
    const int v = o + p - size + 1;
    return v <= 0 ? 0 : divide(v + dil - 1, dil, by);
  };
  auto tap_hi = [&](int o, int p, int dil, FastDivisor by, int kernel) {
    const int v = o + p;
    if (v < 0) return -1;
    const int k = divide(v, dil, by);
    return k < kernel - 1 ? k : kernel - 1;
  };
  // Row tile `tile`'s first column r0 (a GEMM row; with tap pairs one before its first stored row, -1 in tile 0), its
  // first and last lines, tap hull and stages: the block's tile, or (kPersistent) each of its tiles in turn.
  int64_t r0 = 0;
  LineOf first{}, last{};
  int kd_lo = 0, kd_hi = 0, kh_lo = 0, kh_hi = 0, stages = 0;
  auto begin_tile = [&](int64_t tile) {
    r0 = kTapPairs ? tile * (BM - 1) - 1 : tile * BM;
    first = line_of(r0 > 0 ? r0 : 0);
    last = line_of((r0 + BM - 1 < a.rows ? r0 + BM : a.rows) - 1);
    kd_lo = 0, kd_hi = a.kernel_d - 1, kh_lo = 0, kh_hi = a.kernel_h - 1;
    if (first.n == last.n) {
      kd_lo = tap_lo(first.od, a.pad_d, a.dil_d, a.by_dil_d, a.in_d);
      kd_hi = tap_hi(last.od, a.pad_d, a.dil_d, a.by_dil_d, a.kernel_d);
      if (first.od == last.od) {
        kh_lo = tap_lo(first.oh, a.pad_h, a.dil_h, a.by_dil_h, a.in_h);
        kh_hi = tap_hi(last.oh, a.pad_h, a.dil_h, a.by_dil_h, a.kernel_h);
      }
    }
    const int taps_d = kd_hi >= kd_lo ? kd_hi - kd_lo + 1 : 0, taps_h = kh_hi >= kh_lo ? kh_hi - kh_lo + 1 : 0;
    stages = taps_d * taps_h * a.channel_stages;
  };
  begin_tile(blockIdx.x);

  // This thread's padded input rows: row tid for every K group, and for tid < kTailLoads row kThreads + tid / kGroups
  // of group tid % kGroups. Row v holds, for tap (kd, kh), x[n, :, od + p_d - kd dil_d, oh + p_h - kh dil_h, iw] with
  // iw = (r0 + v) % line_rows + p_w - (T - 1); zeros outside x or past the last line.
  struct PaddedRow {
    int64_t base;  // x offset at kd = kh = 0 (meaningful only where inside)
    int id0, ih0;  // od + p_d, oh + p_h
    bool inside;   // inside some line, and iw inside x
  };
  auto padded_row = [&](int v) {
    PaddedRow row{0, 0, 0, false};
    const int64_t q = r0 + v;
    if (q < 0 || q >= a.rows) return row;
    const LineOf l = line_of(q);
    const int iw = l.w + a.pad_w - (kTaps - 1);
    row.id0 = l.od + a.pad_d;
    row.ih0 = l.oh + a.pad_h;
    row.inside = iw >= 0 && iw < a.in_w;
    row.base = l.n * a.x_stride[0] + int64_t(row.id0) * a.x_stride[2] + int64_t(row.ih0) * a.x_stride[3] +
               int64_t(iw) * a.x_stride[4];
    return row;
  };
  // kXPairs: rows 2 p and 2 p + 1 (p = tid % (BM / 2)) of K groups tid / (BM / 2) + 2 k, and the tail in pairs too.
  const bool tail_thread = tid < kTailLoads;
  const int tail_group = tid % kGroups;
  const int main_index = kXPairs ? 2 * (tid % (BM / 2)) : tid, group0 = kXPairs ? tid / (BM / 2) : 0;
  const int tail_index = kThreads + kRowsPerThread * (tid / kGroups);
  // kMainRows: this thread's shares of the tile's rows (two of a producer thread's, kSpecialized): share r is rows
  // main_index + kRowStep r, or with kXPairs the same row pair's K groups group0 + kGroupStep r + 2 k (a producer
  // thread takes both parities of its pair, as two threads of the other form do).
  constexpr int kMainRows = kSpecialized ? StripUnitStrideSpecialized::kRowsPerProducer : 1;
  constexpr int kRowStep = kXPairs ? 0 : StripUnitStrideSpecialized::kProducerThreads;
  constexpr int kGroupStep = kXPairs && kSpecialized ? 1 : 0;
  static_assert(!kSpecialized || (kXPairs ? kMainRows == 2 && 2 * StripUnitStrideSpecialized::kProducerThreads == BM
                                          : kMainRows * kRowStep == BM),
                "the producer's rows: the tile's");
  // The distinct rows among the shares (kXPairs: one pair for both), so that a row is decoded and held once.
  constexpr int kRowsHeld = kXPairs ? 1 : kMainRows;
  PaddedRow main_row[kRowsHeld], tail_row;
  // The stage cursors: load and copy_async each see consecutive stages (run_strip_pipeline), so each steps a
  // (kd, kh, channel stage) cursor instead of dividing.
  struct StageCursor {
    int kd, kh, cs;
  };
  auto step = [&](StageCursor& c) {
    if (++c.cs == a.channel_stages) {
      c.cs = 0;
      if (++c.kh > kh_hi) {
        c.kh = kh_lo;
        ++c.kd;
      }
    }
  };
  StageCursor load_at{}, copy_at{};
  // Offsets at the load cursor's (kd, kh), and whether the rows are inside x there.
  const scalar_t* x_main[kRowsHeld];
  const scalar_t* x_tail = a.x;
  bool main_inside[kRowsHeld], tail_inside = false;
  auto locate = [&](const PaddedRow& row, const scalar_t*& at, bool& inside) {
    const int id = row.id0 - load_at.kd * a.dil_d, ih = row.ih0 - load_at.kh * a.dil_h;
    inside = row.inside && id >= 0 && id < a.in_d && ih >= 0 && ih < a.in_h;
    at = a.x + (inside ? row.base - int64_t(load_at.kd * a.dil_d) * a.x_stride[2] -
                             int64_t(load_at.kh * a.dil_h) * a.x_stride[3]
                       : 0);
  };
  // This thread's rows of the tile begin_tile set, and both cursors at its first stage.
  auto begin_rows = [&] {
#pragma unroll
    for (int r = 0; r < kRowsHeld; ++r) main_row[r] = padded_row(main_index + kRowStep * r);
    tail_row = padded_row(tail_thread ? tail_index : BM + kTaps);  // past: not inside
    load_at = copy_at = StageCursor{kd_lo, kh_lo, 0};
#pragma unroll
    for (int r = 0; r < kRowsHeld; ++r) locate(main_row[r], x_main[r], main_inside[r]);
    locate(tail_row, x_tail, tail_inside);
    tail_inside = tail_inside && tail_thread;
  };
  begin_rows();

  using Group = typename StripXGroup<scalar_t>::type;
  auto load_group = [&](const scalar_t* src, bool inside, int channels_left) {
    // (channels_left > 0 means >= 4 here: C_in and the quads' first channels are multiples of 4)
    if constexpr (!k16Bit && kChannelsLastAccess)
      if (a.x_channel_quads) return ldg4_or_zero(src, inside && channels_left > 0);
    return StripXGroup<scalar_t>::load(src, a.x_stride[1], inside, channels_left);
  };
  const auto rounded = StripXGroup<scalar_t>::stored;
  // kXPairs: the words as loaded, split into the two positions' K groups when stored (no wait at the load).
  using Held = std::conditional_t<kXPairs, ChannelWords, Group>;
  auto load_held = [&](const scalar_t* src, bool inside, int channels_left) {
    if constexpr (kXPairs) return load_channel_words(src, a.x_stride[1], inside, channels_left);
    else return load_group(src, inside, channels_left);
  };
  Held held[2][kMainRows][kThreadGroups];
  Held held_tail[2];
  auto load = [&](int set, int) {
    const int c0 = load_at.cs * kChannels;
#pragma unroll
    for (int r = 0; r < kMainRows; ++r)
#pragma unroll
      for (int k = 0; k < kThreadGroups; ++k) {
        const int q = group0 + kGroupStep * r + kRowsPerThread * k;
        const int row = kXPairs ? 0 : r;
        held[set][r][k] = load_held(x_main[row] + int64_t(c0 + kGroupChannels * q) * a.x_stride[1],
                                    main_inside[row], a.c_in - c0 - kGroupChannels * q);
      }
    if (tail_thread)
      held_tail[set] = load_held(x_tail + int64_t(c0 + kGroupChannels * tail_group) * a.x_stride[1], tail_inside,
                                 a.c_in - c0 - kGroupChannels * tail_group);
    const int kd = load_at.kd, kh = load_at.kh;
    step(load_at);
    if (load_at.kd != kd || load_at.kh != kh) {
#pragma unroll
      for (int r = 0; r < kRowsHeld; ++r) locate(main_row[r], x_main[r], main_inside[r]);
      locate(tail_row, x_tail, tail_inside);
      tail_inside = tail_inside && tail_thread;
    }
  };
  // kXPairs: the pair's odd row first in lanes 4-7 of each 8 (p / 4 odd), so that a store of 8 lanes touches every
  // bank once (rows 0, 2, 4, 6 and 9, 11, 13, 15).
  auto store_pair = [&](uint4* rows, const ChannelWords& words, bool odd_first) {
    const uint4 even = position_group(words, false), odd = position_group(words, true);
    rows[odd_first ? 1 : 0] = odd_first ? odd : even;
    rows[odd_first ? 0 : 1] = odd_first ? even : odd;
  };
  auto store = [&](int set, int slot) {
    float* Xs = smem + slot * kStageFloats;
#pragma unroll
    for (int r = 0; r < kMainRows; ++r)
#pragma unroll
      for (int k = 0; k < kThreadGroups; ++k) {
        const int q = group0 + kGroupStep * r + kRowsPerThread * k;
        if constexpr (kXPairs)
          store_pair(reinterpret_cast<uint4*>(Xs + (q * R + main_index) * 4), held[set][r][k],
                     (main_index / 8) % 2 == 1);
        else *reinterpret_cast<Group*>(Xs + (q * R + tid + kRowStep * r) * 4) = rounded(held[set][r][k]);
      }
    if (tail_thread) {
      if constexpr (kXPairs)
        store_pair(reinterpret_cast<uint4*>(Xs + (tail_group * R + tail_index) * 4), held_tail[set], false);
      else *reinterpret_cast<Group*>(Xs + (tail_group * R + tail_index) * 4) = rounded(held_tail[set]);
    }
  };
  const float* packed_tile = a.packed + int64_t(n_tile) * a.kernel_d * a.kernel_h * a.channel_stages * kWFloats;
  auto copy_async = [&](int slot, int) {
    float* Ws = smem + slot * kStageFloats + kXFloats;
    const float* src =
        packed_tile + (int64_t(copy_at.kd * a.kernel_h + copy_at.kh) * a.channel_stages + copy_at.cs) * kWFloats;
#pragma unroll
    for (int i = 0; i < (kWFloats / 4 + kThreads - 1) / kThreads; ++i) {
      const int at = 4 * (tid + i * kThreads);
      if (kWFloats % (4 * kThreads) == 0 || at < kWFloats) cp_async_16(Ws + at, src + at, true);
    }
    step(copy_at);
  };

  // Descriptor offsets of each k step (16-byte units). A: K groups 2j, 2j + 1 are groups q0 = 2j % G and q0 + 1 of
  // tap t = 2j / G; output row m reads padded row m + T - 1 - t. This warpgroup's rows start at 128 wg, its second
  // m64 half 64 rows on. B: [step][8-channel group][K half][8][one K group] (packed_strip_index).
  const int warpgroup = uniform_warpgroup();
  auto a_offset = [](int j) {
    const int t = (kTapPairs ? 2 : 1) * (2 * j / kGroups), q0 = 2 * j % kGroups;  // tap pairs: the pair's first tap
    return uint32_t(q0 * R + (kTaps - 1 - t));
  };
  auto b_offset = [](int j) { return uint32_t(j * kWRows * 8 / 4); };
  constexpr int kALeadingBytes = R * 16, kAStrideBytes = 128;  // next K half: next K group; next 8 rows

  // kWeightsAsA with 128 channels (kWideRows): warpgroup wg takes output channels 64 wg .. 64 wg + 63 as A and all
  // kBlockM rows as B, one m64n256k8 per k8 step: 10 KB of shared reads per 262 KFLOP, against the x-as-A tile's
  // two m64n128k8 per warpgroup (12 KB: B read once per m64 half), which at a full tensor pipe would need ~96 % of
  // shared-memory bandwidth (run 252's L2-61 TF32 profile: 1.31e8 wavefronts, ~48 % busy at ~50 % tensor activity).
  constexpr bool kWideRows = kWeightsAsA && kWRows == 128;
  static_assert(!kWeightsAsA || kWRows == 64 || (kWideRows && !kTapPairs && BM == 256),
                "weights as A: one m64 of output channels (or channel-tap pairs), or two warpgroups' m64 of 128");
  static_assert(kThreads == 256 || (kWeightsAsA && !kGroupStats), "the one-warpgroup tile: weights as A, no statistics");
  static_assert(!kGroupStats || (kWideRows && kBlockN == 128), "the statistics: the wide-rows tile's (128 channels)");
  constexpr int kHalves = kWeightsAsA ? 1 : 2;
  constexpr int kAccPerHalf = kWideRows ? 128 : kWeightsAsA ? 64 : kBlockN / 2;
  float acc[kHalves][kAccPerHalf];
#pragma unroll
  for (int h = 0; h < kHalves; ++h)
#pragma unroll
    for (int i = 0; i < kAccPerHalf; ++i) acc[h][i] = 0.f;
  // Issue first (run_strip_pipeline). Run 387 (H200, TF32 forward ms, against runs 382 / 385 on the same GPU model):
  // fam04 (K 384, forced) 2.376 -> 2.297, its per-tile part 1.171 -> 0.952; fam01 4.160 -> 4.090; fam06 2.021 ->
  // 1.927; L2-61 1.304 -> 1.278 (bf16 0.772 -> 0.762).
  auto issue = [&](int slot) {
    const float* stage = smem + slot * kStageFloats;
    const WgmmaDescriptor x_desc = wgmma_descriptor(stage + (kWideRows ? 0 : warpgroup * 128 * 4), kALeadingBytes,
                                                    kAStrideBytes),
                          w_desc = wgmma_descriptor(stage + kXFloats);
#pragma unroll
    for (int j = 0; j < kSteps; ++j) {
      if constexpr (kWideRows) {  // this warpgroup's 64 channels: 8 of the step's 8-channel groups, 16 units each
        if constexpr (k16Bit)
          wgmma_mma_shared_a<256, scalar_t>(acc[0], w_desc.at(b_offset(j) + 128 * warpgroup), x_desc.at(a_offset(j)));
        else wgmma_tf32_shared<256>(acc[0], w_desc.at(b_offset(j) + 128 * warpgroup), x_desc.at(a_offset(j)));
      } else if constexpr (kWeightsAsA) {
        if constexpr (k16Bit)
          wgmma_mma_shared_a<128, scalar_t>(acc[0], w_desc.at(b_offset(j)), x_desc.at(a_offset(j)));
        else wgmma_tf32_shared<128>(acc[0], w_desc.at(b_offset(j)), x_desc.at(a_offset(j)));
      } else {
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          if constexpr (k16Bit)
            wgmma_mma_shared_a<kBlockN, scalar_t>(acc[h], x_desc.at(a_offset(j) + 64 * h), w_desc.at(b_offset(j)));
          else wgmma_tf32_shared<kBlockN>(acc[h], x_desc.at(a_offset(j) + 64 * h), w_desc.at(b_offset(j)));
        }
      }
    }
  };
  // y at a stored row's position (its line l) and output channel co: every store path's address.
  auto output_at = [&](const LineOf& l, int co) {
    return a.y + l.n * a.y_stride[0] + int64_t(co) * a.y_stride[1] + int64_t(l.od) * a.y_stride[2] +
           int64_t(l.oh) * a.y_stride[3] + int64_t(l.w) * a.y_stride[4];
  };
  if constexpr (kSpecialized) {
    static_assert(kWeightsAsA && !kTapPairs && BM == 256 && kThreads == 256 && !(kGroupStats && kPersistent),
                  "the 256-row weights-as-A tiles (64 channels, or 128 as wide rows), statistics one tile a block");
    static_assert(kWFloats % 4 == 0 && kXFloats % 4 == 0 && kStageFloats % 4 == 0, "16-byte bulk copies");
    __shared__ uint64_t full[kStages], empty[kStages];
    if (threadIdx.x == 0) {
      for (int s = 0; s < kStages; ++s) {
        mbarrier_init(&full[s], StripUnitStrideSpecialized::kProducerThreads + 1);  // and the copier's expect_tx
        mbarrier_init(&empty[s], kThreads);
      }
      fence_mbarrier_init();
    }
    __syncthreads();
    if (threadIdx.x >= kThreads) {
      auto copy_bulk = [&](int slot, uint64_t* bar) {
        const float* src =
            packed_tile + (int64_t(copy_at.kd * a.kernel_h + copy_at.kh) * a.channel_stages + copy_at.cs) * kWFloats;
        mbarrier_arrive_expect_tx(bar, uint32_t(kWFloats * 4));
        bulk_copy_to_shared(smem + slot * kStageFloats + kXFloats, src, uint32_t(kWFloats * 4), bar);
        step(copy_at);
      };
      StripRing ring;
      produce_strip_stages<kStages>(stages, tid == 0, full, empty, ring, copy_bulk, load, store);
      if constexpr (kPersistent) {
        for (int64_t tile = int64_t(blockIdx.x) + gridDim.x; tile < unit_stride_row_tiles(a.rows, BM);
             tile += gridDim.x) {
          begin_tile(tile);
          begin_rows();
          produce_strip_stages<kStages>(stages, tid == 0, full, empty, ring, copy_bulk, load, store);
        }
      }
      if constexpr (kGroupStats) {  // the statistics of the tile the MMA warpgroups stage (staged_group_stats)
        constexpr int kPitch = BM + 8;
        const float* bias_s = smem + kWRows * kPitch;
        strip_tile_staged_sync();
        staged_group_stats<BM, kPitch>(a, smem, bias_s, reinterpret_cast<const uint32_t*>(bias_s + kBlockN),
                                       a.c_out - n_tile * kBlockN < kBlockN ? a.c_out - n_tile * kBlockN : kBlockN,
                                       first.n, n_tile);
      }
      return;
    }
    StripRing ring;
    // kPersistent, the MMA warpgroups: each of the block's tiles in turn (the producer runs into the next while they
    // store). Accumulator i holds channel 64 wg + 16 warp + gid (+ 8 for i % 4 >= 2) at rows 8 (i / 4) + 2 tig + i % 2
    // (64 channels: channel 16 warp + gid (+ 8), row 128 wg + 8 (i / 4) + 2 tig + i % 2). Stored from registers, a
    // warp store writes 8 rows (32 bytes of fp32) in each of 8 channels, which straddle two L2 sectors unless y's
    // line aligns: run 542 measured 2x the staged store's write sectors on L2-61 and the kernel 21 % slower than one
    // tile a block (run 541). So a tile of two or more stages keeps the slots of its last two stages (the ones the
    // producer refills last: it fills kStages - 2 of the next tile meanwhile), and warpgroup g stages its 64 channels
    // plus the bias through stage stages - 2 + g's slot in chunks (channels x rows at kStagedPitch), each copied out
    // as runs of one channel's rows (a warp store: 64 rows); then every MMA thread releases both slots. Tiles of
    // fewer stages store from registers. Every MMA thread decodes one row of the tile into row_at (y's offset at
    // channel 0; -1: a dropped row), double-buffered by tile so that one barrier a tile orders its writes before the
    // reads and after the previous tile's. The protocols under random schedules: scripts/strip_ring_model.py (the
    // staged store: staged=True).
    if constexpr (kPersistent) {
      __shared__ __align__(16) int64_t row_at[2][BM];
      const int warp = tid / 32 % 4, gid = tid % 32 / 4, tig = tid % 4;
      // and channel0 + 8; this warpgroup's rows: all 256 as wide rows, else its 128
      const int channel0 = n_tile * kBlockN + (kWideRows ? 64 * warpgroup : 0) + 16 * warp + gid;
      const int row0 = kWideRows ? 0 : 128 * warpgroup;
      // The channels' bias.
      float bias_of[2];
#pragma unroll
      for (int half = 0; half < 2; ++half) {
        const int co = channel0 + 8 * half;
        const scalar_t* at = a.bias != nullptr ? a.bias + int64_t(co) * a.bias_stride : nullptr;
        bias_of[half] = ldg_or_zero(at, at != nullptr && co < a.c_out);
      }
      // The staged store: a warpgroup's rows, taken in chunks of rows so that a chunk's writes end its accumulators'
      // lives before its copy-out (chunks of channels kept all 128 live through it: 72 bytes of spills), the rows a
      // chunk holds in one stage slot at 64 channels, and their pitch (8 words more a channel, so that a half-warp's
      // 8-byte writes of 4 channels x 4 row pairs fall on distinct banks).
      constexpr int kGroupRows = kWideRows ? BM : BM / 2;
      constexpr int kChunkRows = kGroupRows <= 128 && 64 * (kGroupRows + 8) <= kStageFloats ? kGroupRows
                                 : 64 * (128 + 8) <= kStageFloats                          ? 128
                                 : 64 * (64 + 8) <= kStageFloats                           ? 64
                                                                                           : 32;
      constexpr int kStagedPitch = kChunkRows + 8;
      static_assert(64 * kStagedPitch <= kStageFloats && kAccPerHalf / 4 * 8 == kGroupRows &&
                        kGroupRows % kChunkRows == 0,
                    "a chunk within a stage slot; a thread's accumulators: 2 channels x the warpgroup's rows / 4");
      constexpr int kPairs = kChunkRows / 2, kSets = 128 / kPairs;  // the copy-out's threads: row pairs x channels
      auto warpgroup_sync = [&] { asm volatile("bar.sync %0, 128;\n" ::"r"(2 + warpgroup) : "memory"); };
      // Two adjacent rows' values of one channel (at: the rows' offsets in y at channel 0), as one store where
      // pair_stores allows.
      auto store_rows = [&](scalar_t* out, const longlong2& at, float v0, float v1) {
        if (a.pair_stores && at.y >= 0) {
          store_value_pair(out + at.x, v0, v1);
        } else {
          if (at.x >= 0) out[at.x] = from_acc<scalar_t>(v0);
          if (at.y >= 0) out[at.y] = from_acc<scalar_t>(v1);
        }
      };
      int buffer = 0;
      for (int64_t tile = blockIdx.x; tile < unit_stride_row_tiles(a.rows, BM); tile += gridDim.x, buffer ^= 1) {
        if (tile != blockIdx.x) begin_tile(tile);
        {
          const int64_t q = r0 + tid;
          int64_t at = -1;
          if (q < a.rows) {
            const LineOf l = line_of(q);
            if (l.w < a.out_w) at = output_at(l, 0) - a.y;
          }
          row_at[buffer][tid] = at;
        }
#pragma unroll
        for (int i = 0; i < kAccPerHalf; ++i) acc[0][i] = 0.f;
        const bool staged = stages >= 2;
        consume_strip_stages<kStages>(stages, full, empty, ring, issue, staged);
        strip_mma_warpgroups_sync();  // the row table written; no wgmma still reads the held slots
        if (staged) {
          const int local = 16 * warp + gid;  // this thread's channels local and local + 8 of the warpgroup's 64
          const int group_channel0 = n_tile * kBlockN + (kWideRows ? 64 * warpgroup : 0);
          const int pair = tid % 128 % kPairs, set = tid % 128 / kPairs;
          // Stages stages - 2 and stages - 1 sit in the two slots before the ring's next.
          const int held0 = (ring.slot + kStages - 2) % kStages, held1 = (ring.slot + kStages - 1) % kStages;
          float* const Cs = smem + (warpgroup == 0 ? held0 : held1) * kStageFloats;
#pragma unroll
          for (int chunk = 0; chunk < kGroupRows / kChunkRows; ++chunk) {
            constexpr int kChunkSteps = kChunkRows / 8;  // accumulator groups j: rows 8 j + 2 tig and the next
#pragma unroll
            for (int half = 0; half < 2; ++half) {
              float* const row_pairs = Cs + (local + 8 * half) * kStagedPitch + 2 * tig;
#pragma unroll
              for (int j = 0; j < kChunkSteps; ++j) {
                const float v0 = acc[0][4 * (chunk * kChunkSteps + j) + 2 * half] + bias_of[half];
                const float v1 = acc[0][4 * (chunk * kChunkSteps + j) + 2 * half + 1] + bias_of[half];
                *reinterpret_cast<float2*>(row_pairs + 8 * j) = make_float2(v0, v1);
              }
            }
            warpgroup_sync();
            // Rows 2 pair and the next of the chunk: with pair_stores adjacent positions of one line on an even
            // element, so the second inside makes both inside.
            const longlong2 at =
                *reinterpret_cast<const longlong2*>(&row_at[buffer][row0 + chunk * kChunkRows + 2 * pair]);
            for (int k = set; k < 64; k += kSets) {
              const int co = group_channel0 + k;
              if (co >= a.c_out) break;
              const float2 v = *reinterpret_cast<const float2*>(Cs + k * kStagedPitch + 2 * pair);
              store_rows(a.y + int64_t(co) * a.y_stride[1], at, v.x, v.y);
            }
            warpgroup_sync();  // the chunk read before the next one's writes
          }
          fence_generic_to_async_shared();  // these accesses before the producer's bulk copies into the slots
          mbarrier_arrive(&empty[held0]);
          mbarrier_arrive(&empty[held1]);
          continue;
        }
        // y at channel0 (channel0 + 8: 8 channel strides on, a kernel parameter away), derived after the K loop
        scalar_t* const y_channel0 = a.y + int64_t(channel0) * a.y_stride[1];
#pragma unroll
        for (int j = 0; j < kAccPerHalf / 4; ++j) {
          const longlong2 at = *reinterpret_cast<const longlong2*>(&row_at[buffer][row0 + 8 * j + 2 * tig]);
#pragma unroll
          for (int half = 0; half < 2; ++half) {
            if (channel0 + 8 * half >= a.c_out) continue;
            store_rows(y_channel0 + (half == 0 ? 0 : 8 * a.y_stride[1]), at, acc[0][4 * j + 2 * half] + bias_of[half],
                       acc[0][4 * j + 2 * half + 1] + bias_of[half]);
          }
        }
      }
      return;
    }
    consume_strip_stages<kStages>(stages, full, empty, ring, issue);
  } else {
    run_strip_pipeline<kStages, 2, kDepth, kInFlight, true>(stages, copy_async, load, store, issue);
  }

  const int warp = (tid % 128) / 32, lane = tid % 32, gid = lane / 4, tig = lane % 4;
  const int channels = a.c_out - n_tile * kBlockN < kBlockN ? a.c_out - n_tile * kBlockN : kBlockN;
  auto stage_bias = [&](float* bias_s) {
    if (tid < kBlockN) {
      const int co = n_tile * kBlockN + tid;
      const scalar_t* at = a.bias != nullptr ? a.bias + int64_t(co) * a.bias_stride : nullptr;
      bias_s[tid] = ldg_or_zero(at, at != nullptr && co < a.c_out);
    }
  };
  // A staged tile (Cs[channel][row] at `pitch`, bias_s per channel) to y by rows, so that a warp's store covers
  // consecutive rows of one channel (whole 32-byte sectors of 16-bit data, where the x-as-A accumulators' own layout
  // writes 16 bytes in each of 4 channels). With pair_stores, thread tid takes rows 2 i and 2 i + 1 (i = tid %
  // (BM / 2)) of every other channel from tid / (BM / 2) as one 4-byte (16-bit) or 8-byte (fp32) store: 64 rows per
  // warp store. Without, thread tid takes row tid of every channel.
  auto store_staged_rows = [&](float* Cs, int pitch, const float* bias_s) {
    const int64_t channel_stride = a.y_stride[1];
    auto row_out = [&](const LineOf& l, int channel) { return output_at(l, n_tile * kBlockN + channel); };
    if constexpr (kChannelsLastAccess) {  // (fp32 only: set_unit_stride_channels_last_access)
      if (a.y_channel_rows) {
        // y's channels innermost: warp v takes rows 32 v .. 32 v + 31, then 32 (v + kThreads / 32) .., each lane
        // decoding one of them and the warp shuffling the y offsets (y_channel_rows 2, unit_stride_cl_store_rows_mode;
        // 1: every lane decodes each row: run 571's source counters had those decodes at ~2800 instructions a warp,
        // 34 % of fam01's channels-last forward samples). Per quad of rows, lane c takes channels c, c + 32, ..., each a
        // 16-byte read of its 4 rows (a pitch of 8 mod 32 words: 2-way conflicts, 8 wavefronts for 128 values, where
        // one row a read would take 8 for 32), then 4 stores of 128-byte runs (one row each). The one-row-a-thread
        // store below writes 4 bytes of each 32-byte sector of channels-last y.
        static_assert(BM % 32 == 0, "whole 32-row runs");
        const int lane = tid % 32;
        const bool shuffled = a.y_channel_rows == 2;
        auto row_pointer = [&](int64_t q) {  // 0: a row past the tile's rows or its line's outputs
          if (q < a.rows) {
            const LineOf l = line_of(q);
            if (l.w < a.out_w) return reinterpret_cast<unsigned long long>(row_out(l, 0));
          }
          return 0ull;
        };
        for (int row32 = 32 * (tid / 32); row32 < BM && r0 + row32 < a.rows; row32 += kThreads) {
          const unsigned long long mine = shuffled ? row_pointer(r0 + row32 + lane) : 0ull;
#pragma unroll 2
          for (int row4 = 0; row4 < 32; row4 += 4) {
            scalar_t* out[4];
#pragma unroll
            for (int k = 0; k < 4; ++k)
              out[k] = reinterpret_cast<scalar_t*>(shuffled ? __shfl_sync(0xffffffffu, mine, row4 + k)
                                                            : row_pointer(r0 + row32 + row4 + k));
            for (int c = lane; c < channels; c += 32) {
              const float4 v = *reinterpret_cast<const float4*>(Cs + c * pitch + row32 + row4);
              const float b = bias_s[c];
              if (out[0] != nullptr) out[0][c] = from_acc<scalar_t>(v.x + b);
              if (out[1] != nullptr) out[1][c] = from_acc<scalar_t>(v.y + b);
              if (out[2] != nullptr) out[2][c] = from_acc<scalar_t>(v.z + b);
              if (out[3] != nullptr) out[3][c] = from_acc<scalar_t>(v.w + b);
            }
          }
        }
        return;
      }
    }
    if (!a.pair_stores) {
      static_assert(kThreads == BM, "one row per thread");
      const int64_t q = r0 + tid;
      if (q >= a.rows) return;
      const LineOf l = line_of(q);
      if (l.w >= a.out_w) return;
      scalar_t* out = row_out(l, 0);
#pragma unroll 4
      for (int c = 0; c < channels; ++c, out += channel_stride) {
        const float v = Cs[c * pitch + tid] + bias_s[c];
        *out = from_acc<scalar_t>(v);
      }
      return;
    }
    constexpr int kPairs = BM / 2, kSets = kThreads / kPairs;
    static_assert(kThreads % kPairs == 0 && BM % 2 == 0, "whole sets of row pairs");
    const int set = tid / kPairs, pair = tid % kPairs;
    const int64_t q = r0 + 2 * pair;  // even: row q + 1 is position w + 1 of the same line, inside where w + 1 < W_out
    if (q >= a.rows) return;
    const LineOf l = line_of(q);
    if (l.w >= a.out_w) return;
    float* const src = Cs + 2 * pair;
    scalar_t* out = row_out(l, set);
    if (l.w + 1 < a.out_w) {
#pragma unroll 4
      for (int c = set; c < channels; c += kSets, out += kSets * channel_stride) {
        const float2 v = *reinterpret_cast<const float2*>(src + c * pitch);
        const float v0 = v.x + bias_s[c], v1 = v.y + bias_s[c];
        store_value_pair(out, v0, v1);
      }
    } else {
      for (int c = set; c < channels; c += kSets, out += kSets * channel_stride) {
        const float v = src[c * pitch] + bias_s[c];
        *out = from_acc<scalar_t>(v);
      }
    }
  };
  if constexpr (kWeightsAsA) {
    // Accumulator i: channel 16 warp + gid (+ 8 for i % 4 >= 2) of the tile, row 128 wg + 8 (i / 4) + 2 tig + i % 2
    // of the block (kWideRows: channel 64 wg + 16 warp + gid (+ 8), row 8 (i / 4) + 2 tig + i % 2). Staged as
    // Cs[channel][row] (a pitch of 8 mod 32 words: a float2 store of 8 channels x 4 row pairs touches every bank once
    // per half-warp), then stored by rows.
    constexpr int kPitch = BM + 8;
    // kWRows staged rows: the tile's channels, or (kTapPairs) its 32 channels at both taps of a pair.
    // kGroupStats: the row masks of staged_group_stats past the bias.
    constexpr int kMaskWords = kGroupStats ? 2 * BM / 32 : 0;
    static_assert(kStages * kStageFloats >= kWRows * kPitch + kBlockN + kMaskWords,
                  "the staged tile inside the pipeline's shared memory");
    float* Cs = smem;  // the pipeline has waited for every wgmma and copy
    float* bias_s = smem + kWRows * kPitch;
    uint32_t* row_masks = reinterpret_cast<uint32_t*>(bias_s + kBlockN);
    auto mma_threads_sync = [] {  // the producer role has left (kSpecialized)
      if constexpr (kSpecialized) strip_mma_warpgroups_sync();
      else __syncthreads();
    };
    mma_threads_sync();  // every warp's last wgmma reads of the stages are complete
#pragma unroll
    for (int h = 0; h < kHalves; ++h)
#pragma unroll
      for (int j = 0; j < kAccPerHalf / 4; ++j)
#pragma unroll
        for (int half = 0; half < 2; ++half) {
          const int channel = (kWideRows ? 64 * warpgroup : 0) + warp * 16 + gid + 8 * half;
          const int row = (kWideRows ? 0 : warpgroup * 128) + 8 * j + 2 * tig;
          *reinterpret_cast<float2*>(Cs + channel * kPitch + row) =
              make_float2(acc[h][4 * j + 2 * half], acc[h][4 * j + 2 * half + 1]);
        }
    stage_bias(bias_s);
    if constexpr (kGroupStats) {  // row tid's sample slot: 0 (first.n's), 1 (the next), or neither
      const int64_t q = r0 + tid;
      int slot = -1;
      if (q < a.rows) {
        const LineOf l = line_of(q);
        if (l.w < a.out_w) slot = l.n - first.n;
      }
      const uint32_t in0 = __ballot_sync(0xffffffffu, slot == 0), in1 = __ballot_sync(0xffffffffu, slot == 1);
      if (tid % 32 == 0) {
        row_masks[tid / 32] = in0;
        row_masks[BM / 32 + tid / 32] = in1;
      }
    }
    if constexpr (kGroupStats) strip_tile_staged_sync();  // the producer warpgroup reads the staged tile too
    else mma_threads_sync();
    if constexpr (kTapPairs) {  // r0 is odd in every other block: one row per thread
      const int64_t q = r0 + tid;
      if (tid == 0 || q >= a.rows) return;  // column 0 only feeds row r0 + 1
      const LineOf l = line_of(q);
      if (l.w >= a.out_w) return;
      scalar_t* out = output_at(l, n_tile * kBlockN);
      const int64_t channel_stride = a.y_stride[1];
#pragma unroll 4
      for (int c = 0; c < channels; ++c, out += channel_stride)
        *out = from_acc<scalar_t>(Cs[c * kPitch + tid] + Cs[(32 + c) * kPitch + tid - 1] + bias_s[c]);
    } else {
      store_staged_rows(Cs, kPitch, bias_s);
    }
    return;
  }
  // staged_store: the x-as-A accumulators staged as Cs[channel][row] too (a pitch of 4 mod 32 words: a warp's store
  // of 4 channels 2 tig apart x 8 rows touches every bank once), then stored by rows.
  constexpr int kXPitch = BM + 4;
  constexpr bool kStagedFits = !kWeightsAsA && kStages * kStageFloats >= kBlockN * kXPitch + kBlockN;
  if constexpr (kStagedFits) {
    if (a.staged_store) {
      float* Cs = smem;
      float* bias_s = smem + kBlockN * kXPitch;
      __syncthreads();  // every warpgroup's wgmmas have read their last stage
#pragma unroll
      for (int h = 0; h < kHalves; ++h)
#pragma unroll
        for (int j = 0; j < kBlockN / 8; ++j)
#pragma unroll
          for (int half = 0; half < 2; ++half)
#pragma unroll
            for (int e = 0; e < 2; ++e)
              Cs[(8 * j + 2 * tig + e) * kXPitch + warpgroup * 128 + 64 * h + warp * 16 + gid + 8 * half] =
                  acc[h][4 * j + 2 * half + e];
      stage_bias(bias_s);
      __syncthreads();
      store_staged_rows(Cs, kXPitch, bias_s);
      return;
    }
  }
  // Accumulator i of half h: row 128 wg + 64 h + 16 warp + gid (+ 8 for i % 4 >= 2), output channel
  // 8 (i / 4) + 2 tig + i % 2 of the tile. A store instruction writes 8 consecutive positions of 4 channels.
  const int co0 = n_tile * kBlockN + 2 * tig;
  // This thread's output channels co0 + 8 j + e, the same for its four rows: their bias once, not per store (run
  // 148's sweep with bias timed L1-68 at 7.84 ms, run 149's bench without it 7.22).
  float bias_of[kBlockN / 4];
#pragma unroll
  for (int j = 0; j < kBlockN / 8; ++j)
#pragma unroll
    for (int e = 0; e < 2; ++e) {
      const int co = co0 + 8 * j + e;
      const scalar_t* at = a.bias != nullptr ? a.bias + int64_t(co) * a.bias_stride : nullptr;
      bias_of[2 * j + e] = ldg_or_zero(at, at != nullptr && co < a.c_out);
    }
#pragma unroll
  for (int h = 0; h < kHalves; ++h)
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const int64_t q = r0 + warpgroup * 128 + 64 * h + warp * 16 + gid + 8 * half;
      if (q >= a.rows) continue;
      const LineOf l = line_of(q);
      if (l.w >= a.out_w) continue;
      // Channels co0 + 8 j and co0 + 8 j + 1: one pointer stepped by 8 channels, not 16 products of the stride.
      scalar_t* out = output_at(l, co0);
      const int64_t channel_stride = a.y_stride[1];
#pragma unroll
      for (int j = 0; j < kBlockN / 8; ++j, out += 8 * channel_stride)
#pragma unroll
        for (int e = 0; e < 2; ++e) {
          if (co0 + 8 * j + e < a.c_out) {
            out[e * channel_stride] = from_acc<scalar_t>(acc[h][4 * j + 2 * half + e] + bias_of[2 * j + e]);
          }
        }
    }
#else
  (void)a;
#endif
}

// The unit-stride forward's B operand: packed[co tile][kd][kh][channel stage][step][group][half][row][col] =
// w[ci, co, kd, kh, t], co = block_n tile + row, K value k of the stage = (t, K group, col) with t = k / E / G (E
// channels per K group: 4 for fp32, rounded to TF32, or 8 for fp16/bf16, copied as they are; G = channels / E),
// ci = channels x stage + E (k / E % G) + k % E; zero past C_in or C_out. tap_pairs (block_n 32): 64 rows per tile,
// row 32 r + c is channel block_n tile + c at tap 2 (k / E / G) + r (the kernel's kTapPairs A); zero past the last
// tap. total: elements of scalar_t's width (the buffer is unit_stride_packed_weight_elems 4-byte words).
template <typename scalar_t>
__global__ void tconv_igemm_strip_unit_stride_pack_weight_kernel(const scalar_t* __restrict__ w, int64_t ws0,
                                                                 int64_t ws1, int64_t ws2, int64_t ws3, int64_t ws4,
                                                                 int c_in, int c_out, int kernel_h, int taps,
                                                                 int block_n, int channels, int channel_stages,
                                                                 int64_t stages, int64_t total,
                                                                 void* __restrict__ packed, bool tap_pairs) {
  using Tile = StripUnitStrideForwardTile;
  constexpr int E = Tile::group_channels(int(sizeof(scalar_t)));
  const int groups = channels / E, tile_rows = Tile::weight_rows(block_n, tap_pairs);
  const int k_taps = Tile::k_taps(taps, tap_pairs);
  for (int64_t idx = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; idx < total;
       idx += int64_t(gridDim.x) * blockDim.x) {
    const PackedStripIndex at = packed_strip_index(idx, tile_rows, channels * k_taps, stages, E);
    const int64_t co = at.tile * block_n + (tap_pairs ? at.row % 32 : at.row);
    const int cs = int(at.stage % channel_stages);
    const int64_t tap_dh = at.stage / channel_stages;
    const int64_t kd = tap_dh / kernel_h, kh = tap_dh % kernel_h;
    const int k_group = at.k / E, t = tap_pairs ? 2 * (k_group / groups) + at.row / 32 : k_group / groups;
    const int64_t ci = int64_t(cs) * channels + E * (k_group % groups) + at.k % E;
    const bool inside = ci < c_in && co < c_out && t < taps;
    const int64_t from = inside ? ci * ws0 + co * ws1 + kd * ws2 + kh * ws3 + int64_t(t) * ws4 : 0;
    if constexpr (sizeof(scalar_t) == 2) {
      static_cast<unsigned short*>(packed)[idx] = inside ? reinterpret_cast<const unsigned short*>(w)[from] : 0;
    } else {
      static_cast<float*>(packed)[idx] = inside ? __uint_as_float(to_tf32(w[from])) : 0.f;
    }
  }
}

// ---- grad_weight over grad_output strips (StripGradWeightTile, igemm_config.h; sm_90a, TF32 mode or 16-bit data) ----
// Four consecutive elements by cp.async into shared memory (16 bytes of fp32, 8 of fp16/bf16), zeros where !valid.
template <typename scalar_t>
__device__ __forceinline__ void cp_async_quad(scalar_t* smem, const scalar_t* gmem, bool valid) {
  if constexpr (sizeof(scalar_t) == 4) {
    cp_async_16(smem, gmem, valid);
  } else {
    const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(smem));
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;\n" ::"r"(dst), "l"(gmem), "r"(valid ? 8 : 0));
  }
}
// The four elements a cp_async_quad left in shared memory, as fp32 (fp16/bf16 widened: exact, and exact in TF32).
template <typename scalar_t>
__device__ __forceinline__ float4 shared_quad_as_float(const scalar_t* smem) {
  if constexpr (sizeof(scalar_t) == 4) {
    return *reinterpret_cast<const float4*>(smem);
  } else {
    const uint2 w = *reinterpret_cast<const uint2*>(smem);
    return widen_quad_bits<scalar_t>(w.x, w.y);
  }
}
template <typename scalar_t>
struct StripWeightArgs {
  const scalar_t* x;   // input [N, C_in, D, H, W_in]
  const scalar_t* dy;  // grad_output [N, C_out, D, H, W_out]
  float* partial;    // [splits][C_in][C_out][K_W] (row-major), summed by sum_splits
  int64_t x_stride[5], dy_stride[5];
  int lines_d, lines_h;
  int c_in, c_out, in_w, out_w, padding_w;
  int chunks_per_line;  // kBlockK-position chunks of a line
  int64_t chunks;       // lines x chunks_per_line: the GEMM's K in stages
  int splits;
  bool x_copy_by_channel;  // fp32 data: x pieces copied a channel's 64 bytes per 4 lanes (strip_x_copy_by_channel)
};

// Block: kBlockM rows (output channel, W tap) = kBlockM / (T s) output channels x all their taps, by kBlockN input
// channels, over one split of the K chunks (kBlockK positions of one (n, d, h) line each). Tap s t + r of input
// position u reads grad_output at s (u + t) - p + r: row u + t, phase r of the channel's strip, one contiguous range
// of grad_output per chunk. Both operands come from shared memory by descriptor (K-major 8 x 16-byte core matrices).
// Each thread copies its 16-byte pieces of a stage (x, strips) by cp.async into a raw ring kRaw stages ahead, and
// when the stage's turn comes reads back its own pieces (no barrier: the same thread) and stores them rounded to TF32
// (wgmma truncates) into a wgmma slot: the x tile (B) as it is, the strips (A) transposed to [row group][position
// quad][8 rows][4 positions], once per tap at the tap's shift (a one-position shift is not a 16-byte descriptor
// offset). The ring replaced pieces held in registers one stage ahead (run 130), on a latency hypothesis that run
// 131 refuted (slower); what held both forms back was per-stage index math (run 132, the cursor below). The ring
// stays for the registers it frees (the 256 x 128 tile compiles to 232-251); it has not been re-measured against
// the register form since. Each warpgroup issues kHalves m64nBNk8 per k8 step and keeps one group in flight, so the
// slot refilled is the one read two iterations earlier. fp16/bf16 data: the raw ring holds the pieces as they are
// (8 bytes of 4 elements, cp_async_quad). kK16: the slots hold them as they are too, in k16 core matrices (A: [row
// group][position octet][8 rows][8 positions], kAOctetElems16 apart; the x tile: [8-channel group][position octet][8
// channels][8 positions]), one m64n128k16 per stage and half; else the slot stores widen them to fp32, exact in
// TF32, and the MMAs are the fp32 data's. kAMajorM (with kK16; TCONV_STRIP_GRAD_WEIGHT_16BIT=3, the default since
// run 423): A M-major ([row group][position octet][8 positions][8 rows], wgmma_mma_shared_a_m_major), where a strip
// piece's 4 phases are 4 neighbouring rows at one position: one 8-byte store per tap instead of four 2-byte ones.
template <typename scalar_t, int kSlots, int kRaw, int kStride, int kTaps, bool kXByChannel, bool kK16 = false,
          bool kAMajorM = false>
__global__ void __launch_bounds__(StripGradWeightTile::kThreads, 1)
    tconv_igemm_strip_grad_weight_kernel(const StripWeightArgs<scalar_t> a) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  using Tile = StripGradWeightTile;
  static_assert(!kK16 || sizeof(scalar_t) == 2, "k16 MMAs on 16-bit data");
  static_assert(!kAMajorM || kK16, "A M-major: a k16 form");
  constexpr int kAOctet = kAMajorM ? 64 : Tile::kAOctetElems16;  // M-major cores unpadded: 8-byte stores, no skew
  constexpr int BM = Tile::kBlockM, BN = Tile::kBlockN, BK = Tile::kBlockK, kThreads = Tile::kThreads;
  constexpr int kAQuad = Tile::kAQuadFloats;
  constexpr int kKernelW = kTaps * kStride, kChannels = BM / kKernelW, kSteps = BK / 8;
  constexpr int kStripRows = Tile::strip_rows(kTaps), kPieces = kStride / 4;  // 16-byte pieces per strip row
  constexpr int kStripCopies = Tile::strip_copies(kStride, kTaps);
  constexpr int kXFloats = Tile::kXFloats, kSlotFloats = Tile::kSlotFloats;
  constexpr int kRawElems = Tile::raw_floats(kStride, kTaps);  // a raw stage's elements (scalar_t)
  constexpr int kXCopies = kXFloats / 4 / kThreads, kQuadGroups = BK / 16;  // a warp's x copy: 8 channels x 4 quads
  static_assert(BM % kKernelW == 0 && kXFloats % (4 * kThreads) == 0 && kStride % 8 == 0 && BK % 16 == 0,
                "whole pieces");
  static_assert(kSlots >= 3 && kRaw >= 1, "a slot read, one in flight, one refilled");
  extern __shared__ __align__(16) float smem[];
  scalar_t* const raw_ring = reinterpret_cast<scalar_t*>(smem + kSlots * kSlotFloats);  // elements, 4 per piece
  const int m_tile = blockIdx.x, n0 = blockIdx.y * BN, split = blockIdx.z;
  const int co0 = m_tile * kChannels;
  const int64_t chunk_begin = split_begin(a.chunks, a.splits, split);
  const int stages = int(split_begin(a.chunks, a.splits, split + 1) - chunk_begin);
  const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;

  // The next stage to copy, by (n, d, h) line and first position u0: stages are issued in order, so the cursor steps
  // one chunk at a time and divides only here. Why: with the divisions per stage (four 64-bit ones), the block
  // issued 410 instructions per warp and stage at ~7.5 cycles each, 3.1k cycles for 512 of MMA (run 132).
  int64_t next_n, x_line = 0, dy_line = 0;
  int next_d, next_h, next_u0;
  {
    const int64_t line = chunk_begin / a.chunks_per_line;
    next_u0 = int(chunk_begin - line * a.chunks_per_line) * BK;
    next_h = int(line % a.lines_h);
    next_d = int((line / a.lines_h) % a.lines_d);
    next_n = line / (int64_t(a.lines_h) * a.lines_d);
  }
  auto locate_line = [&] {
    x_line = next_n * a.x_stride[0] + next_d * a.x_stride[2] + next_h * a.x_stride[3];
    dy_line = next_n * a.dy_stride[0] + next_d * a.dy_stride[2] + next_h * a.dy_stride[3];
  };
  locate_line();
  auto step_chunk = [&] {
    next_u0 += BK;
    if (next_u0 < a.chunks_per_line * BK) return;
    next_u0 = 0;
    if (++next_h == a.lines_h) {
      next_h = 0;
      if (++next_d == a.lines_d) {
        next_d = 0;
        ++next_n;
      }
    }
    locate_line();
  };
  // x pieces: warp task p = warp + 8 i is 8-channel group p / kQuadGroups, positions 16 (p % kQuadGroups) .. + 15;
  // lane: channel lane % 8 of the group, 4 positions from 4 (lane / 8); raw and slot hold it at the same offset.
  // Strip pieces: piece e = tid + 256 i is channel e / (rows x pieces), row (e / pieces) % rows, phases
  // 4 (e % pieces) .. + 3; raw float4 e.
  auto x_offset = [&](int i) {
    const int p = warp + 8 * i, quad = 4 * (p % kQuadGroups) + lane / 8;
    return ((p / kQuadGroups) * (BK / 4) + quad) * 32 + (lane % 8) * 4;
  };
  // kK16: the same piece's place in the slot's x tile, in 16-bit elements (a quad is half of a position octet).
  auto x_offset_k16 = [&](int i) {
    const int p = warp + 8 * i, quad = 4 * (p % kQuadGroups) + lane / 8;
    return ((p / kQuadGroups) * (BK / 8) + quad / 2) * 64 + (lane % 8) * 8 + (quad % 2) * 4;
  };
  // By channel (kXByChannel, fp32 data; StripWeightArgs::x_copy_by_channel picks it): the copy of lane L takes
  // channel L / 4 of the task, 4 positions from 4 (L % 4), so the four lanes of one request read one channel's 64
  // contiguous bytes (2 sectors) instead of four channels' 16 (4 half-used sectors: run 379 counted 32 shared
  // wavefronts and 32 L2 sectors per warp instruction of these copies, ideal 4 and 16). The raw task (128 floats)
  // holds piece (channel c, quad q) at 16-byte chunk Tile::x_raw_chunk(c, q) (bank-skewed: igemm_config.h). The
  // store then reads the piece of its slot position (c = lane % 8, q = lane / 8), which another lane of the same warp
  // copied: a __syncwarp after the wait orders it.
  static_assert(kQuadGroups == 1, "one 16-position task per 8 channels");
  static_assert(!kXByChannel || sizeof(scalar_t) == 4, "by channel: the fp32 copies' 16-byte pieces");
  constexpr bool x_by_channel = kXByChannel;
  auto x_raw_offset = [&](int i, int c, int q) {
    return x_by_channel ? (warp + 8 * i) * 128 + 4 * Tile::x_raw_chunk(c, q) : x_offset(i);
  };
  // Stage q's copies into raw slot q % kRaw, one commit group per stage (an empty one past the last stage, so that
  // the group count stays q + kRaw when stage q is stored).
  // Each piece's source, fixed per thread but for the stage's line and u0: x at x_line + x_source[i] + u0 (-1: a
  // channel past C_in), the strip piece at dy_line + strip_source[i] + s u0 for w = strip_w[i] + s u0 (channel past
  // C_out or past this tile's channels: strip_w = INT_MIN / 2, never inside grad_output).
  int64_t x_source[kXCopies], strip_source[kStripCopies];
  int x_u[kXCopies], strip_w[kStripCopies];
#pragma unroll
  for (int i = 0; i < kXCopies; ++i) {
    const int p = warp + 8 * i, ci = n0 + (p / kQuadGroups) * 8 + (x_by_channel ? lane / 4 : lane % 8);
    x_u[i] = 4 * (4 * (p % kQuadGroups) + (x_by_channel ? lane % 4 : lane / 8));
    x_source[i] = ci < a.c_in ? int64_t(ci) * a.x_stride[1] + x_u[i] : -1;
  }
#pragma unroll
  for (int i = 0; i < kStripCopies; ++i) {
    const int e = tid + i * kThreads, c = e / (kStripRows * kPieces), v = (e / kPieces) % kStripRows;
    const bool channel_ok = c < kChannels && co0 + c < a.c_out;
    strip_w[i] = channel_ok ? kStride * v - a.padding_w + 4 * (e % kPieces) : INT_MIN / 2;
    strip_source[i] = channel_ok ? int64_t(co0 + c) * a.dy_stride[1] + strip_w[i] : 0;
  }
  auto issue_stage = [&](int q) {
    if (q < stages) {
      scalar_t* raw = raw_ring + (q % kRaw) * kRawElems;
      const int u0 = next_u0;
#pragma unroll
      for (int i = 0; i < kXCopies; ++i) {
        const bool ok = x_source[i] >= 0 && u0 + x_u[i] < a.in_w;
        cp_async_quad(raw + x_raw_offset(i, lane / 4, lane % 4), ok ? a.x + x_line + x_source[i] + u0 : a.x, ok);
      }
#pragma unroll
      for (int i = 0; i < kStripCopies; ++i) {
        if ((tid + i * kThreads) / (kStripRows * kPieces) >= kChannels) continue;
        const int w = strip_w[i] + kStride * u0;
        const bool ok = w >= 0 && w + 4 <= a.out_w;
        const scalar_t* src = ok ? a.dy + dy_line + strip_source[i] + kStride * u0 : a.dy;
        cp_async_quad(raw + kXFloats + 4 * (tid + i * kThreads), src, ok);
      }
      step_chunk();
    }
    cp_async_commit();
  };
  // Where piece i's phases land in a slot's A for tap t (-1: its row falls outside the tap's positions), fixed per
  // thread. Row m = c K_W + s t + r, position u = v - t: [m / 8][u / 4][m % 8][u % 4]; the piece's four phases
  // r0 .. r0 + 3 stay inside one aligned 4-row half of a row group, so they lie 4 floats apart. Why hoisted: the
  // stores' address math was most of the 357 instructions per warp and stage of an instruction-bound loop (run 135).
  int strip_offset[kStripCopies][kTaps];
#pragma unroll
  for (int i = 0; i < kStripCopies; ++i) {
    const int e = tid + i * kThreads, c = e / (kStripRows * kPieces), v = (e / kPieces) % kStripRows;
#pragma unroll
    for (int t = 0; t < kTaps; ++t) {
      const int u = v - t, m0 = c * kKernelW + t * kStride + 4 * (e % kPieces);
      const int at = kAMajorM ? ((m0 / 8) * (BK / 8) + u / 8) * kAOctet + (u % 8) * 8 + m0 % 8
                     : kK16   ? ((m0 / 8) * (BK / 8) + u / 8) * kAOctet + (m0 % 8) * 8 + u % 8
                              : ((m0 / 8) * (BK / 4) + u / 4) * kAQuad + (m0 % 8) * 4 + u % 4;
      strip_offset[i][t] = c < kChannels && u >= 0 && u < BK ? at : -1;
    }
  }
  auto store_stage = [&](int q, int slot) {
    const scalar_t* raw = raw_ring + (q % kRaw) * kRawElems;
    float* X = smem + slot * kSlotFloats;
    if constexpr (kK16) {  // the pieces' bits, unchanged: x as 8-byte pieces, the strips' four phases as 2 bytes each
      unsigned short* X16 = reinterpret_cast<unsigned short*>(X);
#pragma unroll
      for (int i = 0; i < kXCopies; ++i)
        *reinterpret_cast<uint2*>(X16 + x_offset_k16(i)) = *reinterpret_cast<const uint2*>(raw + x_offset(i));
      unsigned short* A16 = reinterpret_cast<unsigned short*>(X + kXFloats);
#pragma unroll
      for (int i = 0; i < kStripCopies; ++i) {
        if ((tid + i * kThreads) / (kStripRows * kPieces) >= kChannels) continue;
        const uint2 bits = *reinterpret_cast<const uint2*>(raw + kXFloats + 4 * (tid + i * kThreads));
        if constexpr (kAMajorM) {  // the 4 phases are 4 neighbouring rows of one position: 8 contiguous bytes
#pragma unroll
          for (int t = 0; t < kTaps; ++t)
            if (strip_offset[i][t] >= 0) *reinterpret_cast<uint2*>(A16 + strip_offset[i][t]) = bits;
        } else {
          const unsigned short values[4] = {static_cast<unsigned short>(bits.x & 0xffffu),
                                            static_cast<unsigned short>(bits.x >> 16),
                                            static_cast<unsigned short>(bits.y & 0xffffu),
                                            static_cast<unsigned short>(bits.y >> 16)};
#pragma unroll
          for (int t = 0; t < kTaps; ++t) {
            const int o = strip_offset[i][t];
            if (o < 0) continue;
#pragma unroll
            for (int j = 0; j < 4; ++j) A16[o + 8 * j] = values[j];
          }
        }
      }
    } else {
      if constexpr (x_by_channel) __syncwarp();
#pragma unroll
      for (int i = 0; i < kXCopies; ++i) {
        *reinterpret_cast<float4*>(X + x_offset(i)) =
            tf32_rounded(shared_quad_as_float(raw + x_raw_offset(i, lane % 8, lane / 8)));
      }
      if constexpr (x_by_channel) __syncwarp();  // the raw slot's next copies come after every lane's read
      float* A = X + kXFloats;
#pragma unroll
      for (int i = 0; i < kStripCopies; ++i) {
        if ((tid + i * kThreads) / (kStripRows * kPieces) >= kChannels) continue;
        const float4 piece = shared_quad_as_float(raw + kXFloats + 4 * (tid + i * kThreads));
        const float values[4] = {__uint_as_float(to_tf32(piece.x)), __uint_as_float(to_tf32(piece.y)),
                                 __uint_as_float(to_tf32(piece.z)), __uint_as_float(to_tf32(piece.w))};
#pragma unroll
        for (int t = 0; t < kTaps; ++t) {
          const int o = strip_offset[i][t];
          if (o < 0) continue;
#pragma unroll
          for (int j = 0; j < 4; ++j) A[o + 4 * j] = values[j];
        }
      }
    }
  };

  // Each warpgroup: BM / 2 rows as kHalves m64 halves over all BN columns (BN / 2 accumulators each).
  constexpr int kHalves = BM / 128;
  static_assert(BM % 128 == 0 && BN == 128 && kHalves * BN / 2 == 128, "m64n128 halves, 128 accumulators per thread");
  const int warpgroup = uniform_warpgroup();
  float acc[kHalves][BN / 2];
#pragma unroll
  for (int h = 0; h < kHalves; ++h)
#pragma unroll
    for (int i = 0; i < BN / 2; ++i) acc[h][i] = 0.f;

#pragma unroll 1
  for (int q = 0; q < kRaw; ++q) issue_stage(q);
#pragma unroll 1
  for (int q = 0; q < kSlots - 2; ++q) {
    cp_async_wait<kRaw - 1>();  // stage q's own pieces (kRaw + q groups committed)
    if (q < stages) store_stage(q, q);
    issue_stage(q + kRaw);
  }
  int read_slot = 0, write_slot = kSlots - 2;
  for (int it = 0; it < stages; ++it) {
    fence_generic_to_async_shared();
    // Stage it was stored at least one barrier ago; both warpgroups finished stage it - 2 (one group in flight),
    // whose slot is refilled now with stage it + kSlots - 2.
    __syncthreads();
    const int q = it + kSlots - 2;
    cp_async_wait<kRaw - 1>();
    if (q < stages) store_stage(q, write_slot);
    issue_stage(q + kRaw);
    const float* stage = smem + uniform_int(read_slot) * kSlotFloats;
    wgmma_fence();
    if constexpr (kK16) {
      // B (x): k16 step j reads position octets 2 j, 2 j + 1 (128 bytes apart; the next 8 channels BK / 8 x 128
      // bytes on); A: this warpgroup's 8 row groups, the same octets (kAOctet elements apart). In both A layouts the
      // leading byte offset steps one octet core (the next 8 positions) and the stride byte offset a row group.
      const WgmmaDescriptor b_desc = wgmma_descriptor(stage, 128, BK / 8 * 128);
#pragma unroll
      for (int h = 0; h < kHalves; ++h) {
        const int group0 = (warpgroup * kHalves + h) * 8;
        const WgmmaDescriptor a_desc = wgmma_descriptor(stage + kXFloats + group0 * (BK / 8) * kAOctet / 2,
                                                        kAOctet * 2, BK / 8 * kAOctet * 2);
#pragma unroll
        for (int j = 0; j < BK / 16; ++j) {
          if constexpr (kAMajorM)
            wgmma_mma_shared_a_m_major<128, scalar_t>(acc[h], a_desc.at(j * 2 * kAOctet * 2 / 16),
                                                      b_desc.at(j * 2 * 128 / 16));
          else
            wgmma_mma_shared_a<128, scalar_t>(acc[h], a_desc.at(j * 2 * kAOctet * 2 / 16),
                                              b_desc.at(j * 2 * 128 / 16));
        }
      }
    } else {
      // B (x): step j reads position quads 2 j, 2 j + 1 (the next quad 128 bytes on, the next 8 channels 1 KB on);
      // A: this warpgroup's 8 row groups, the same quads (kAQuad floats apart).
      const WgmmaDescriptor b_desc = wgmma_descriptor(stage, 128, BK / 4 * 128);
#pragma unroll
      for (int h = 0; h < kHalves; ++h) {
        const int group0 = (warpgroup * kHalves + h) * 8;  // this m64 half's first 8-row group
        const WgmmaDescriptor a_desc = wgmma_descriptor(stage + kXFloats + group0 * (BK / 4) * kAQuad, kAQuad * 4,
                                                        BK / 4 * kAQuad * 4);
#pragma unroll
        for (int j = 0; j < kSteps; ++j)
          wgmma_tf32_shared<128>(acc[h], a_desc.at(j * 2 * kAQuad * 4 / 16), b_desc.at(j * 2 * 128 / 16));
      }
    }
    wgmma_commit();
    wgmma_wait<1>();
    read_slot = read_slot + 1 == kSlots ? 0 : read_slot + 1;
    write_slot = write_slot + 1 == kSlots ? 0 : write_slot + 1;
  }
  cp_async_wait<0>();  // the empty tail groups: nothing lands after exit
  wgmma_wait<0>();

  const int gid = lane / 4, tig = lane % 4;
  // Accumulator [h][i]: row 64 (kHalves warpgroup + h) + 16 (warp % 4) + gid (+ 8 for i % 4 >= 2), input channel
  // n0 + 8 (i / 4) + 2 tig + i % 2.
  float* out = a.partial + int64_t(split) * a.c_in * a.c_out * kKernelW;
#pragma unroll
  for (int h = 0; h < kHalves; ++h)
#pragma unroll
    for (int hrow = 0; hrow < 2; ++hrow) {
      const int m = m_tile * BM + 64 * (kHalves * warpgroup + h) + 16 * (warp % 4) + gid + 8 * hrow;
      const int co = m / kKernelW, kw = m % kKernelW;
      if (co >= a.c_out) continue;
#pragma unroll
      for (int j = 0; j < BN / 8; ++j)
#pragma unroll
        for (int e = 0; e < 2; ++e) {
          const int ci = n0 + 8 * j + 2 * tig + e;
          if (ci < a.c_in) out[(int64_t(ci) * a.c_out + co) * kKernelW + kw] = acc[h][4 * j + 2 * hrow + e];
        }
    }
#else
  (void)a;
#endif
}

// GEMM K rows per tap for channels_per_row channels per row (2: the fp16/bf16 channel pairs), in
// chunks of block_k rows.
void set_k_rows(GatherArgs& a, int channels_per_row, int block_k = kGatherBlockK) {
  a.k_rows = (a.k_channels + channels_per_row - 1) / channels_per_row;
  a.block_k = block_k;
  a.k_pad = (a.k_rows + block_k - 1) / block_k * block_k;
}
// The [M][N] channels-last epilogue for fp32 data in the cp.async gathers' plain wgmma tiles
// (GatherArgs::float_row_major). Why: their fp32 epilogue staged [N][M] and stored 4 bytes of a channel per
// position, a position's stride apart (one 32-byte sector a value on channels-last outputs). Measured (run 571, H100,
// TF32 channels_last, forward / fwd+bwd ms): real_unet3d_up 1.558 / 2.924 -> 0.883 / 2.102, real_vae_up 3.061 / 6.156
// -> 1.728 / 4.173; its +1 to +4 registers on the fp32 wgmma gathers left L1-68 contiguous level (4.776 / 18.938
// against run 545's 4.797 / 19.466). TCONV_GATHER_FP32_CHANNELS_LAST_EPILOGUE=0 (development only, read once per
// process) keeps the [N][M] stores, for A/B timings.
bool gather_fp32_channels_last_epilogue() {
  static const bool on = development_switch("TCONV_GATHER_FP32_CHANNELS_LAST_EPILOGUE", 1) != 0;
  return on;
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
  a.ldw = 0;  // set once the kernel is chosen (its packed block width)
  set_k_rows(a, 1);
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
  a.fold = 1;
  a.float_row_major = gather_fp32_channels_last_epilogue();  // (read by fp32 kernels only)
  return a;
}

// Elements of the packed weights (B) of a call described by a (ldw set).
int64_t packed_weight_elems(const GatherArgs& a) { return int64_t(a.groups) * a.taps_total * a.k_pad * a.ldw; }
inline bool pack_staged_enabled() {
  static const bool enabled = development_switch("TCONV_PACK_STAGED", 1) != 0;
  return enabled;
}
inline bool pack_staged_16bit_enabled() {
  static const bool enabled = pack_staged_enabled() && development_switch("TCONV_PACK_STAGED_16BIT", 1) != 0;
  return enabled;
}
// Packs a gather GEMM's weights (B, the layout above tconv_igemm_pack_weight_kernel) in column blocks of block_cols.
template <typename scalar_t>
cudaError_t pack_gather_weight(const scalar_t* weight, const int64_t (&ws)[5], const GatherArgs& a, int block_cols,
                               bool wgmma_order, bool round_tf32, float* packed, cudaStream_t stream) {
  const int64_t elems = packed_weight_elems(a);
  if (elems <= 0) return cudaSuccess;
  // Taps contiguous: kW at stride 1, kH at kW, kD at kH kW (a dimension of one tap may have any stride).
  const int kd = a.taps_total / (a.kernel[1] * a.kernel[2]), kh = a.kernel[1], kw = a.kernel[2];
  const bool taps_contiguous =
      (kw == 1 || ws[4] == 1) && (kh == 1 || ws[3] == kw) && (kd == 1 || ws[2] == int64_t(kh) * kw);
  // 16-bit weights: staged where a block's taps are all of them (run 502, bf16 packs per call: VAE 0.012 -> 0.007 ms,
  // U-Net 3D 0.012 -> 0.008, DCGAN 0.020 -> 0.017 (run 500), but L1-68's 105 taps 0.008 -> 0.013: its ~50 blocks
  // each loop over 7 tap groups, where the per-element kernel spreads the weight over more blocks).
  const bool staged = std::is_same<scalar_t, float>::value
                          ? pack_staged_enabled()
                          : pack_staged_16bit_enabled() && a.taps_total <= kPackTapGroup;
  if (a.fold == 1 && taps_contiguous && block_cols % 32 == 0 && staged) {
    const int64_t blocks = elems / kPackThreads / std::min(a.taps_total, kPackTapGroup);  // ~ one unit each
    const unsigned int grid = unsigned(std::min<int64_t>(blocks, 8192));
    tconv_igemm_pack_weight_staged_kernel<scalar_t><<<std::max(grid, 1u), kPackThreads, 0, stream>>>(
        weight, ws[0], ws[1], a.groups, a.taps_total, a.k_channels, a.block_k, a.k_pad, a.n_channels, a.ldw,
        block_cols, wgmma_order, a.forward, round_tf32, packed);
    return cudaGetLastError();
  }
  const unsigned int grid = unsigned(std::min<int64_t>(elems / (8 * block_cols), 8192));
  tconv_igemm_pack_weight_kernel<scalar_t><<<std::max(grid, 1u), 256, 0, stream>>>(
      weight, ws[0], ws[1], ws[2], ws[3], ws[4], a.kernel[1], a.kernel[2], a.groups, a.taps_total, a.k_channels,
      a.block_k, a.k_pad, a.n_channels, a.ldw, block_cols, wgmma_order, a.forward, round_tf32, a.fold,
      a.fold_kernel_w, a.fold_dilation, packed);
  return cudaGetLastError();
}

// Most taps any phase of this pass has (sizes the tap table in shared memory).
// Taps of phase r along dimension dim (every tap for grad_input, whose pass has one phase).
int phase_dim_taps(const GatherArgs& a, int dim, int r) {
  int count = 0;
  for (int k = 0; k < a.kernel[dim]; ++k)
    count += !a.forward || (r + a.padding[dim] - k * a.dilation[dim]) % a.stride[dim] == 0;
  return count;
}
int max_phase_taps(const GatherArgs& a) {
  int taps = 1;
  for (int dim = 0; dim < 3; ++dim) {
    int most = 0;
    for (int r = 0; r < a.phases[dim]; ++r) most = std::max(most, phase_dim_taps(a, dim, r));
    taps *= most;
  }
  return taps;
}

// The phase grids' extents along D, H, W: `most`, the largest any phase has; `tapped`, the largest among the phases
// with taps along that dimension (the others only store zeros or the bias: fam10's even outputs, 33 per dimension
// against the odd ones' 32).
void phase_grid_extents(const GatherArgs& a, int (&most)[3], int (&tapped)[3]) {
  for (int dim = 0; dim < 3; ++dim) {
    most[dim] = tapped[dim] = 0;
    for (int r = 0; r < a.phases[dim]; ++r) {
      most[dim] = std::max(most[dim], phase_extent(a, dim, r));
      if (phase_dim_taps(a, dim, r) > 0) tapped[dim] = std::max(tapped[dim], phase_extent(a, dim, r));
    }
    if (tapped[dim] == 0) tapped[dim] = most[dim];
  }
}

// TCONV_GATHER_MAX_STAGES (development only): the deepest pipeline the gather kernels may take, read
// once per process; unset = no cap. Two processes of one device call can so time a tile's deep and
// shallow instantiations.
int gather_stage_cap() {
  static const int cap = [] {
    const int parsed = development_switch("TCONV_GATHER_MAX_STAGES", 0);
    return parsed > 0 ? parsed : 1 << 30;
  }();
  return cap;
}
// The 128-column TF32 gather tile of a call: plain, or warp-specialized with 128 or 256 producer threads
// (igemm_config.h, WgmmaWiderSpecializedGatherTile: why, and the measurements behind this choice).
// TCONV_GATHER_SPECIALIZED (development only, read once per process) forces one: 0 plain, 1 and 2 the
// specialized tiles with 128 and 256 producers; unset, choose_wider_gather decides.
enum class WiderGather { kPlain, kProducers128, kProducers256 };
int gather_specialized_override() {
  static const int mode = development_switch("TCONV_GATHER_SPECIALIZED", -1);
  return mode;
}
WiderGather choose_wider_gather(const GatherArgs& a, bool window, int taps) {
  switch (gather_specialized_override()) {
    case 0: return WiderGather::kPlain;
    case 1: return WiderGather::kProducers128;
    case 2: return WiderGather::kProducers256;
    default: break;
  }
  const int64_t stages = int64_t(taps) * (a.k_pad / a.block_k);  // the kernel's K loop: taps x channel chunks
  const bool spread = int64_t(a.src_step[2]) * a.src_stride[4] != 1;  // consecutive GEMM rows not adjacent
  if (stages < kSpecializedMinStages || spread) return WiderGather::kPlain;
  return window ? WiderGather::kProducers128 : WiderGather::kProducers256;
}
// The deepest pipeline (kMaxStages down to kMinStages) with which Tile::kBlocksPerSm blocks fit in
// one SM's shared memory on this device.
template <class Tile, bool kWindow>
int gather_stages(int device, int taps) {
  int per_sm = 0, per_block = 0;
  cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device);
  cudaDeviceGetAttribute(&per_block, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
  constexpr int64_t kReservedPerBlock = 1024;  // the driver's per-block reservation on sm_80/sm_90
  constexpr int64_t kStatic = sizeof(int) * (3 * kMaxKernelPerDim * 2 + 3) + sizeof(float) * Tile::kBlockN;
  const int cap = gather_stage_cap();
  for (int stages = Tile::kMaxStages; stages > Tile::kMinStages; --stages) {
    // stage_full per stage on the wgmma tiles (fp32 data; the 16-bit ones are counted too, 8 bytes a stage),
    // and stage_empty on the warp-specialized one.
    const int64_t barriers = (Tile::kSpecialized ? 2 : Tile::kWgmma ? 1 : 0) * stages * int64_t(sizeof(uint64_t));
    const int64_t block = gather_smem_bytes<Tile, kWindow>(stages, taps) + kStatic + barriers;
    if (stages <= cap && block <= per_block && Tile::kBlocksPerSm * (block + kReservedPerBlock) <= per_sm)
      return stages;
  }
  return Tile::kMinStages;
}

template <class Tile, typename scalar_t, bool kSplitTf32, int kStages, bool kWindow>
cudaError_t launch_gather(const GatherArgs& a, int64_t m_tiles, int taps, cudaStream_t stream) {
  const dim3 grid(unsigned(m_tiles * a.phases[0] * a.phases[1] * a.phases[2]),
                  unsigned((a.n_channels + Tile::kBlockN - 1) / Tile::kBlockN), unsigned(a.groups));
  const int64_t smem = gather_smem_bytes<Tile, kWindow>(kStages, taps);
  auto kernel = tconv_igemm_gather_tf32_kernel<Tile, scalar_t, kSplitTf32, kStages, kWindow>;
  cudaError_t err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem));
  if (err != cudaSuccess) return err;
  kernel<<<grid, Tile::kThreads, size_t(smem), stream>>>(a);
  return cudaGetLastError();
}

template <class Tile, typename scalar_t, bool kWindow>
cudaError_t launch_gather_deepest(const GatherArgs& a, bool split_tf32, int64_t m_tiles, int taps, int device,
                                  cudaStream_t stream) {
  const bool deep = gather_stages<Tile, kWindow>(device, taps) == Tile::kMaxStages;
  constexpr int kDeep = Tile::kMaxStages, kShallow = Tile::kMinStages;
  if constexpr (std::is_same<scalar_t, float>::value && !Tile::kWgmma) {
    if (split_tf32)
      return deep ? launch_gather<Tile, scalar_t, true, kDeep, kWindow>(a, m_tiles, taps, stream)
                  : launch_gather<Tile, scalar_t, true, kShallow, kWindow>(a, m_tiles, taps, stream);
  }
  return deep ? launch_gather<Tile, scalar_t, false, kDeep, kWindow>(a, m_tiles, taps, stream)
              : launch_gather<Tile, scalar_t, false, kShallow, kWindow>(a, m_tiles, taps, stream);
}

// Packs the weights in Tile's operand order, then runs Tile's kernel (with or without the W-tap
// window) with the deepest pipeline that fits.
template <class Tile, typename scalar_t>
cudaError_t run_gather_tile(const GatherArgs& a, const void* weight, const int64_t (&weight_strides)[5],
                            bool split_tf32, bool window, int64_t m_tiles, int taps, int device, cudaStream_t stream) {
  const cudaError_t packed_err =
      pack_gather_weight(static_cast<const scalar_t*>(weight), weight_strides, a, Tile::kPackedBlockN, Tile::kWgmma,
                         !split_tf32, const_cast<float*>(a.packed_weight), stream);
  if (packed_err != cudaSuccess) return packed_err;
  return window ? launch_gather_deepest<Tile, scalar_t, true>(a, split_tf32, m_tiles, taps, device, stream)
                : launch_gather_deepest<Tile, scalar_t, false>(a, split_tf32, m_tiles, taps, device, stream);
}

// The sm_90a wgmma kernels run where the build holds them (TCONV_WGMMA: _build.py compiles 9.0 as
// sm_90a) and the device is compute capability 9.0 (H100/H200/GH200).
bool wgmma_available(int device) {
#if defined(TCONV_WGMMA)
  int major = 0, minor = 0;
  if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess ||
      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) != cudaSuccess)
    return false;
  return major == 9 && minor == 0;
#else
  (void)device;
  return false;
#endif
}

// fp16/bf16 products are exact in TF32: split_tf32 applies to fp32 data only.
bool uses_split_tf32(DType dtype, bool split_tf32) { return split_tf32 && dtype == DType::kFloat32; }

// The gather kernel for a call: wgmma on Hopper for TF32-mode work with more than 32 channels (its
// tile width by the channel count), else mma.sync (3xTF32 included).
// kWgmmaWidest: the 256-column plain tile (plan_gather; igemm_config.h, WgmmaWidestGatherTile).
enum class GatherKernel { kMmaNarrow, kMmaWide, kWgmmaWide, kWgmmaWider, kWgmmaWidest };
GatherKernel choose_gather_kernel(int n_channels, bool wgmma) {
  const bool narrow = n_channels <= NarrowGatherTile::kBlockN;
  if (!wgmma) return narrow ? GatherKernel::kMmaNarrow : GatherKernel::kMmaWide;
  if (n_channels >= WgmmaWiderGatherTile::kBlockN) return GatherKernel::kWgmmaWider;
  return narrow ? GatherKernel::kMmaNarrow : GatherKernel::kWgmmaWide;
}
// 1 where the query fails (its error cleared, so a later launch check reports only the launch's own).
int sm_count_of_device(int device) {
  int count = 0;
  if (cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device) != cudaSuccess) {
    (void)cudaGetLastError();
    return 1;
  }
  return std::max(count, 1);
}
// GEMM rows per phase of a gather pass: batch x D x H extents x row_length (the W line's extent, gather_line_length,
// or the W-tap window's padded line); igemm_gather's grid covers the largest phase.
int64_t gather_line_length(const GatherArgs& a) { return (a.dst_size[2] + a.dst_step[2] - 1) / a.dst_step[2]; }
int64_t gather_rows_per_phase(const GatherArgs& a, int64_t row_length) {
  int64_t rows = a.batch;
  for (int i = 0; i < 2; ++i) rows *= (a.dst_size[i] + a.dst_step[i] - 1) / a.dst_step[i];
  return rows * row_length;
}
// The 256-column plain wgmma tile for calls with that many columns (WgmmaWidestGatherTile: the measurements), where
// the 128-column tiles' grid would fill more than half a wave (gather_widest_fills). TCONV_GATHER_WIDEST (development
// only, read once per process): 0 keeps every call on the 128-column tiles, 2 takes the 256-column one wherever it
// applies, whatever the grid (the bitwise tests' small shapes); 1, the default, as above.
int gather_widest_mode() {
  static const int mode = development_switch("TCONV_GATHER_WIDEST", 1);
  return mode;
}
// Both tiles run one block per SM. Alone on its SM, a 256-column block takes ~1.33 times a 128-column one's time
// (run 361, scripts/widest_rule_timing.py, forward with TMA off: 16 x 1024->512 4x4 k4 s2, 32 blocks of 128
// columns, 0.131 ms against 0.173 on 16 of 256; 16 x 512->256 8x8, 64 blocks, 0.064 against 0.085). With the grid
// near a full wave the L2 feeds every SM and the 256-column tile's A traffic (loaded once, not once per 128
// columns) decides: 8 x 256->256 32x32 k3 s1, 128 blocks of 128, 0.104 ms against 0.075 on 64 of 256; at 2 and 4
// waves (batch 16, 32) the two are level in that script and 256 wins on DCGAN's grad_input (run 357: 0.410 against
// 0.477 ms). So a call keeps the 128-column tiles where their grid fills at most half a wave (e.g. a generator's
// first layers). Counted without the W-tap window's extra rows per line (a lower bound of the grid).
bool gather_widest_fills(const GatherArgs& a, int device) {
  const int64_t rows = gather_rows_per_phase(a, gather_line_length(a));
  const int64_t m_tiles = (rows + WgmmaWiderGatherTile::kBlockM - 1) / WgmmaWiderGatherTile::kBlockM;
  const int64_t blocks = m_tiles * a.phases[0] * a.phases[1] * a.phases[2] * a.groups *
                         ((a.n_channels + WgmmaWiderGatherTile::kBlockN - 1) / WgmmaWiderGatherTile::kBlockN);
  return 2 * blocks > sm_count_of_device(device);
}
int packed_block_n(GatherKernel kernel) {
  switch (kernel) {
    case GatherKernel::kMmaNarrow: return NarrowGatherTile::kPackedBlockN;
    case GatherKernel::kMmaWide: return WideGatherTile::kPackedBlockN;
    case GatherKernel::kWgmmaWide: return WgmmaWideGatherTile::kPackedBlockN;
    case GatherKernel::kWgmmaWidest: return WgmmaWidestGatherTile::kPackedBlockN;
    default: return WgmmaWiderGatherTile::kPackedBlockN;
  }
}
// Columns of a packed weight row: the channels rounded up to the kernel's packed block width (the
// buffer igemm_packed_weight_elems sizes and the layout igemm_gather packs agree through this).
int packed_row_length(int n_channels, GatherKernel kernel) {
  const int block_n = packed_block_n(kernel);
  return (n_channels + block_n - 1) / block_n * block_n;
}
bool use_wgmma(DType dtype, bool split_tf32, bool allow_wgmma, int device) {
  return allow_wgmma && !(split_tf32 && dtype == DType::kFloat32) && wgmma_available(device);
}
int tile_block_n(GatherKernel kernel) {
  switch (kernel) {
    case GatherKernel::kMmaNarrow: return NarrowGatherTile::kBlockN;
    case GatherKernel::kMmaWide: return WideGatherTile::kBlockN;
    case GatherKernel::kWgmmaWide: return WgmmaWideGatherTile::kBlockN;
    case GatherKernel::kWgmmaWidest: return WgmmaWidestGatherTile::kBlockN;
    default: return WgmmaWiderGatherTile::kBlockN;
  }
}

// The W fold (forward at W stride s > 1): writing the output W as o = s * u + v - p (0 <= v < s), original
// W tap k reads input u - t where k * d = s * t + v. So the forward is a W-stride-1 GEMM whose columns
// are (output channel, v) pairs, s per channel, over T = (K - 1) * d / s + 1 W taps (shifts -t), with
// the pixel shuffle done by the store (store_folded_tile). Against the W phases (one GEMM per v, each
// storing every s-th W element, so a 32-byte sector gets 32 / s useful bytes per store) the stores become
// whole runs of W; the A tile (input rows) is gathered once for all s phases of a column tile instead of
// once per phase; the price is the zero slots of the s x T tap grid where no k lands (s * T / K of the
// MMAs: 1 when s divides K at d = 1, e.g. HiFi-GAN's k16 s8, DCGAN's k4 s2, the U-Net/VAE k2 s2).
int fold_taps(const GatherArgs& a) { return (a.kernel[2] - 1) * a.dilation[2] / a.stride[2] + 1; }
double fold_mma_ratio(const GatherArgs& a) {
  return double(a.stride[2]) * fold_taps(a) / a.kernel[2];
}
void fold_w(GatherArgs& a) {
  const int s = a.stride[2];
  a.fold = s;
  a.fold_padding = a.padding[2];
  a.fold_out_w = a.dst_size[2];
  a.fold_kernel_w = a.kernel[2];
  a.fold_dilation = a.dilation[2];
  a.kernel[2] = fold_taps(a);
  a.stride[2] = a.dilation[2] = a.phases[2] = a.dst_step[2] = 1;
  a.padding[2] = 0;
  // rows u whose W run s * u - p .. s * u + s - 1 - p meets [0, out_w)
  a.dst_size[2] = (a.fold_out_w + a.fold_padding + s - 1) / s;
  a.n_channels *= s;
  a.taps_total = a.kernel[0] * a.kernel[1] * a.kernel[2];
}
// Possible for forward calls at W stride > 1 within the GEMM's tap limits. A column tile need not hold whole
// channels (store_folded_tile), so any stride folds.
bool fold_possible(const GatherArgs& a) {
  if (!a.forward || a.stride[2] == 1 || a.fold != 1) return false;
  const int64_t columns = int64_t(a.n_channels) * a.stride[2];
  if (columns > (int64_t(1) << 24) || fold_taps(a) > kMaxKernelPerDim) return false;
  GatherArgs folded = a;
  fold_w(folded);
  return max_phase_taps(folded) <= kMaxGatherTaps;
}
// The folded GEMM's work against the phases': the zero slots of the tap grid times the extra rows (a line
// of out_w outputs takes U = ceil((out_w + p) / s) rows, s * U >= out_w + p columns of outputs).
double fold_work_ratio(const GatherArgs& a) {
  const int s = a.stride[2];
  const double rows = double((a.dst_size[2] + a.padding[2] + s - 1) / s);
  return fold_mma_ratio(a) * rows * s / a.dst_size[2];
}
// The folded GEMM's FLOPs per byte of fp32 output, in TF32 MMAs (3xTF32 counts three): C_in per group x the taps an
// output has on average (taps over the phases) x the fold's work ratio.
double fold_tf32_flops_per_output_byte(const GatherArgs& a, bool split_tf32) {
  const double taps_per_output = double(a.taps_total) / (double(a.stride[0]) * a.stride[1] * a.stride[2]);
  return 2.0 * a.k_channels * taps_per_output * fold_work_ratio(a) * (split_tf32 ? 3 : 1) / 4;
}
// "auto" (igemm_config.h has the measurements): a W-contiguous output (the stores the fold makes whole are W runs
// only there), and
// - fp32 data: at most kFoldMaxWorkRatio, or a GEMM light enough per byte written that its extra MMAs hide under the
//   stores (kFoldMaxFlopsPerOutputByte);
// - fp16/bf16 data: at most kFoldMaxWorkRatio, with whole channels per column tile (s divides its width).
bool use_fold(const GatherArgs& a, GatherFold mode, DType dtype, bool split_tf32, bool wgmma) {
  if (mode == GatherFold::kOff || !fold_possible(a)) return false;
  if (mode == GatherFold::kForce) return true;
  if (a.dst_stride[4] != 1) return false;
  if (dtype != DType::kFloat32)  // the folded GEMM's columns: n_channels x s
    return fold_work_ratio(a) <= kFoldMaxWorkRatio &&
           tile_block_n(choose_gather_kernel(a.n_channels * a.stride[2], wgmma)) % a.stride[2] == 0;
  return fold_work_ratio(a) <= kFoldMaxWorkRatio ||
         fold_tf32_flops_per_output_byte(a, split_tf32) <= kFoldMaxFlopsPerOutputByte;
}
// TF32 forwards whose whole GEMM K (input channels per group x the phase's taps, after the fold) is at most
// kGatherMmaSyncMaxK, and whose columns the wgmma kernel's tiles (wgmma_kernel) do not divide, take the mma.sync
// kernel (igemm_config.h: the measurements). TCONV_GATHER_MMA_SYNC_MAX_K (development only, read once per process)
// replaces the bound; 0 keeps every such call on wgmma, for A/B timings.
int gather_mma_sync_max_k() {
  static const int bound = development_switch("TCONV_GATHER_MMA_SYNC_MAX_K", kGatherMmaSyncMaxK);
  return bound;
}
bool gather_takes_shallow_mma_sync(const GatherArgs& a, DType dtype, GatherKernel wgmma_kernel) {
  return dtype == DType::kFloat32 && a.forward && a.n_channels % tile_block_n(wgmma_kernel) != 0 &&
         int64_t(a.k_channels) * max_phase_taps(a) <= gather_mma_sync_max_k();
}
// The launch description of a gather pass: its arguments (folded where use_fold says so) and kernel, with
// the packed weights' row length set for it. igemm_packed_weight_elems and igemm_gather both plan here.
struct GatherLaunch {
  GatherArgs args;
  GatherKernel kernel;
};
GatherLaunch plan_gather(const ConvTransposeParams& p, GatherPass pass, DType dtype, bool split_tf32,
                         const GatherOptions& options, int device) {
  GatherLaunch plan;
  plan.args = make_args(p, pass, nullptr, nullptr, nullptr, nullptr);
  if (dtype != DType::kFloat32) set_k_rows(plan.args, 2);
  const bool wgmma = use_wgmma(dtype, split_tf32, options.allow_wgmma, device);
  if (use_fold(plan.args, options.fold, dtype, split_tf32, wgmma)) fold_w(plan.args);
  plan.kernel = choose_gather_kernel(plan.args.n_channels, wgmma);
  // (for fp32 data not where a specialized tile is forced: TCONV_GATHER_SPECIALIZED picks among the 128-column tiles)
  const int widest = gather_widest_mode();
  if (plan.kernel == GatherKernel::kWgmmaWider && plan.args.n_channels >= WgmmaWidestGatherTile::kBlockN &&
      widest != 0 && (dtype != DType::kFloat32 || gather_specialized_override() < 0) &&
      (widest == 2 || gather_widest_fills(plan.args, device)))
    plan.kernel = GatherKernel::kWgmmaWidest;
  if (wgmma && gather_takes_shallow_mma_sync(plan.args, dtype, plan.kernel))
    plan.kernel = choose_gather_kernel(plan.args.n_channels, false);
  if (dtype != DType::kFloat32) {  // igemm_config.h, the 16-bit tiles: why and the measurements
    const bool has_shallow_tile = plan.kernel != GatherKernel::kWgmmaWider && plan.kernel != GatherKernel::kWgmmaWidest;
    if (has_shallow_tile && plan.args.k_rows <= kShallowGatherBlockK) set_k_rows(plan.args, 2, kShallowGatherBlockK);
  }
  plan.args.ldw = packed_row_length(plan.args.n_channels, plan.kernel);
  return plan;
}

template <typename scalar_t>
cudaError_t run_gather(GatherKernel kernel, const GatherArgs& a, const void* weight, const int64_t (&weight_strides)[5],
                       bool split_tf32, bool window, int64_t m_tiles, int taps, int device, cudaStream_t stream) {
  if constexpr (!std::is_same<scalar_t, float>::value) {  // the 16-bit tiles (igemm_config.h; plan_gather)
    static_assert(NarrowGatherTile16::kPackedBlockN == NarrowGatherTile::kPackedBlockN &&
                      NarrowShallowGatherTile16::kPackedBlockN == NarrowGatherTile::kPackedBlockN &&
                      WideShallowGatherTile16::kPackedBlockN == WideGatherTile::kPackedBlockN &&
                      WgmmaWideShallowGatherTile16::kPackedBlockN == WgmmaWideGatherTile::kPackedBlockN,
                  "one packing per kernel choice");
    const bool shallow = a.block_k == kShallowGatherBlockK;
    switch (kernel) {
      case GatherKernel::kMmaNarrow:
        return shallow ? run_gather_tile<NarrowShallowGatherTile16, scalar_t>(a, weight, weight_strides, false, window,
                                                                              m_tiles, taps, device, stream)
                       : run_gather_tile<NarrowGatherTile16, scalar_t>(a, weight, weight_strides, false, window,
                                                                       m_tiles, taps, device, stream);
      case GatherKernel::kMmaWide:
        return shallow ? run_gather_tile<WideShallowGatherTile16, scalar_t>(a, weight, weight_strides, false, window,
                                                                            m_tiles, taps, device, stream)
                       : run_gather_tile<WideGatherTile, scalar_t>(a, weight, weight_strides, false, window, m_tiles,
                                                                   taps, device, stream);
      case GatherKernel::kWgmmaWide:
        return shallow ? run_gather_tile<WgmmaWideShallowGatherTile16, scalar_t>(a, weight, weight_strides, false,
                                                                                 window, m_tiles, taps, device, stream)
                       : run_gather_tile<WgmmaWideGatherTile, scalar_t>(a, weight, weight_strides, false, window,
                                                                        m_tiles, taps, device, stream);
      case GatherKernel::kWgmmaWidest:
        return run_gather_tile<WgmmaWidestGatherTile, scalar_t>(a, weight, weight_strides, false, window, m_tiles,
                                                                taps, device, stream);
      default:
        return run_gather_tile<WgmmaWiderGatherTile, scalar_t>(a, weight, weight_strides, false, window, m_tiles, taps,
                                                               device, stream);
    }
  } else {
    switch (kernel) {
      case GatherKernel::kMmaNarrow:
        return run_gather_tile<NarrowGatherTile, scalar_t>(a, weight, weight_strides, split_tf32, window, m_tiles,
                                                           taps, device, stream);
      case GatherKernel::kMmaWide:
        return run_gather_tile<WideGatherTile, scalar_t>(a, weight, weight_strides, split_tf32, window, m_tiles, taps,
                                                         device, stream);
      case GatherKernel::kWgmmaWide:
        return run_gather_tile<WgmmaWideGatherTile, scalar_t>(a, weight, weight_strides, false, window, m_tiles,
                                                              taps, device, stream);
      case GatherKernel::kWgmmaWidest:
        return run_gather_tile<WgmmaWidestGatherTile, scalar_t>(a, weight, weight_strides, false, window, m_tiles,
                                                                taps, device, stream);
      default:
        static_assert(WgmmaWiderSpecializedGatherTile::kPackedBlockN == WgmmaWiderGatherTile::kPackedBlockN,
                      "one packing per kernel choice");
        switch (choose_wider_gather(a, window, taps)) {
          case WiderGather::kProducers128:
            return run_gather_tile<WgmmaWiderSpecializedGatherTile, scalar_t>(a, weight, weight_strides, false, window,
                                                                              m_tiles, taps, device, stream);
          case WiderGather::kProducers256:
            return run_gather_tile<WgmmaWiderSpecialized2GatherTile, scalar_t>(a, weight, weight_strides, false,
                                                                               window, m_tiles, taps, device, stream);
          default:
            return run_gather_tile<WgmmaWiderGatherTile, scalar_t>(a, weight, weight_strides, false, window, m_tiles,
                                                                   taps, device, stream);
        }
    }
  }
}

// The W-tap window over all phases of a pass (the kernel derives the same per phase from its tap
// table): the most W taps and the widest span of one phase, the shortest phase extent along W, and
// the longest GEMM line (extent + span).
struct WindowPlan {
  int max_taps = 0, max_span = 0, min_extent = 0, max_row_len = 0;
};
WindowPlan window_plan(const GatherArgs& a) {
  WindowPlan plan;
  plan.min_extent = a.dst_size[2];
  for (int r = 0; r < a.phases[2]; ++r) {
    int count = 0, lo = 0, hi = 0;
    for (int k = 0; k < a.kernel[2]; ++k) {
      int shift;
      if (a.forward) {
        const int t = r + a.padding[2] - k * a.dilation[2];
        if (t % a.stride[2] != 0) continue;
        shift = t / a.stride[2];
      } else {
        shift = k * a.dilation[2] - a.padding[2];
      }
      lo = count == 0 ? shift : std::min(lo, shift);
      hi = count == 0 ? shift : std::max(hi, shift);
      ++count;
    }
    const int extent = phase_extent(a, 2, r);
    plan.max_taps = std::max(plan.max_taps, count);
    plan.max_span = std::max(plan.max_span, hi - lo);
    plan.min_extent = std::min(plan.min_extent, extent);
    plan.max_row_len = std::max(plan.max_row_len, extent + hi - lo);
  }
  return plan;
}
// Possible where a GEMM row's W taps read one source row at unit steps (the forward always; grad_input
// at W stride 1) and the span fits the padded A tile. Chosen (kAuto) with three or more W taps and lines
// at least ten spans long. Run 34 (H200, TF32, tconv's autotune: window and no window back to back on
// the same tensors), forward: with 3+ taps the window won (L1-68 9.35 vs 12.2 ms, fam02 1.37 vs 1.98,
// fam07 8.51 vs 10.4, L2-61 1.90 vs 1.94 at 34-position lines, span 2) except on fam10's 16-position
// lines (span 2: 0.790 vs 0.760); with two taps it lost everywhere (HiFi-GAN 5.75 vs 5.60, DCGAN 0.567
// vs 0.509, fam09 1.99 vs 1.81): half the A copies do not pay for the span's extra rows and the
// natural-order fragment loads.
// Exact fp32 (3xTF32) also takes it with two taps where the span's extra rows are under 1 % of a line. Runs 237
// and 239 (H100, scripts/quick_timing.py, "auto" against "igemm_window" in one process, exact forward):
// HiFi-GAN (k16 s8, two taps, span 1, 8192-position lines) 11.29-11.39 -> 10.06-10.14 ms; DCGAN (two taps,
// 16-position lines: 6 % extra rows) 1.315-1.325 -> 1.366-1.383, a loss about its extra rows' share.
// TCONV_WINDOW_SPAN2_MIN_CHANNELS (development only, read once per process) overrides kWindowSpan2MinChannels (0: the
// window wherever the rule before run 372 took it).
int window_span2_min_channels() {
  static const int channels = development_switch("TCONV_WINDOW_SPAN2_MIN_CHANNELS", kWindowSpan2MinChannels);
  return channels;
}
bool window_possible(const GatherArgs& a, const WindowPlan& plan) {
  return a.src_step[2] == 1 && plan.max_span <= WideGatherTile::kMaxWindowSpan;
}
bool use_window(const GatherArgs& a, const WindowPlan& plan, GatherWindow mode, bool exact_fp32) {
  if (mode == GatherWindow::kOff || !window_possible(a, plan)) return false;
  if (mode == GatherWindow::kForce) return true;
  const bool w_strided = a.stride[2] > 1 || a.fold > 1;
  if (plan.max_taps == 3 && plan.max_span == 2 && w_strided && a.k_channels < window_span2_min_channels())
    return false;  // igemm_config.h, kWindowSpan2MinChannels
  if (plan.max_taps >= 3) return 10 * plan.max_span <= plan.min_extent;
  return exact_fp32 && plan.max_taps == 2 && 100 * plan.max_span <= plan.min_extent;
}
}  // namespace

#if TCONV_IGEMM_PART == TCONV_IGEMM_PART_GATHER
#if TCONV_IGEMM_TYPES == TCONV_IGEMM_TYPES_FLOAT

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

int64_t igemm_packed_weight_elems(const ConvTransposeParams& p, GatherPass pass, DType dtype, bool split_tf32,
                                  const GatherOptions& options) {
  const int64_t tma = gather_tma_workspace_elems(p, pass, dtype, split_tf32, options);
  if (tma > 0) return tma;
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) return -1;
  return packed_weight_elems(plan_gather(p, pass, dtype, split_tf32, options, device).args);
}

bool igemm_dtype_supported(DType dtype) { return dtype != DType::kFloat64; }

TCONV_IGEMM_DECLARE_16BIT(cudaError_t, igemm_gather,
                          (const ConvTransposeParams& p, GatherPass pass, DType dtype, bool split_tf32,
                           const GatherOptions& options, const void* src, const void* weight, const void* bias,
                           void* dst, float* packed_weight, cudaStream_t stream))
#endif  // TCONV_IGEMM_TYPES_FLOAT

cudaError_t TCONV_IGEMM_TYPED(igemm_gather)(const ConvTransposeParams& p, GatherPass pass, DType dtype,
                                            bool split_tf32, const GatherOptions& options, const void* src,
                                            const void* weight, const void* bias, void* dst, float* packed_weight,
                                            cudaStream_t stream) {
  TCONV_IGEMM_ROUTE_16BIT(dtype, igemm_gather, p, pass, dtype, split_tf32, options, src, weight, bias, dst,
                          packed_weight, stream);
  if (dtype != kIgemmUnitDType) return cudaErrorInvalidValue;
  // The same decision as igemm_packed_weight_elems, which sized packed_weight for it.
  if (gather_tma_workspace_elems(p, pass, dtype, split_tf32, options) > 0)
    return gather_tma(p, pass, dtype, options, src, weight, bias, dst, packed_weight, stream);
  int device = 0;
  const cudaError_t device_err = cudaGetDevice(&device);
  if (device_err != cudaSuccess) return device_err;
  const GatherLaunch launch = plan_gather(p, pass, dtype, split_tf32, options, device);
  GatherArgs a = launch.args;
  a.src = src;
  a.dst = dst;
  a.packed_weight = packed_weight;
  // The wgmma tiles read B slices from it by bulk copies, which need 16-byte aligned addresses (the slices are
  // 16-byte multiples from the start); callers pass a fresh allocation.
  if (reinterpret_cast<uintptr_t>(packed_weight) % 16 != 0) return cudaErrorMisalignedAddress;
  a.bias = pass == GatherPass::kForward ? bias : nullptr;
  const WindowPlan plan = window_plan(a);
  const bool window = use_window(a, plan, options.window, uses_split_tf32(dtype, split_tf32));
  // The grid covers the largest phase, whose blocks past their own phase's rows return at once.
  const int64_t max_rows = gather_rows_per_phase(a, window ? plan.max_row_len : gather_line_length(a));
  static_assert(WideGatherTile::kBlockM == NarrowGatherTile::kBlockM &&
                    WideGatherTile::kBlockM == WgmmaWideGatherTile::kBlockM &&
                    WideGatherTile::kBlockM == WgmmaWiderGatherTile::kBlockM,
                "one M tiling");
  static_assert(WideGatherTile::kMaxWindowSpan == NarrowGatherTile::kMaxWindowSpan &&
                    WideGatherTile::kMaxWindowSpan == WgmmaWiderGatherTile::kMaxWindowSpan,
                "one window limit");
  const int64_t m_tiles = (max_rows + WideGatherTile::kBlockM - 1) / WideGatherTile::kBlockM;
  if (m_tiles == 0) return cudaSuccess;
  if (m_tiles * a.phases[0] * a.phases[1] * a.phases[2] > 0x7fffffff) return cudaErrorInvalidConfiguration;
  const int taps = max_phase_taps(a);
  return run_gather<IgemmUnitScalar>(launch.kernel, a, weight, p.weight_strides,
                                     dtype == DType::kFloat32 && split_tf32, window, m_tiles, taps, device, stream);
}

#endif  // TCONV_IGEMM_PART_GATHER

#if TCONV_IGEMM_PART == TCONV_IGEMM_PART_STRIP || TCONV_IGEMM_PART == TCONV_IGEMM_PART_UNIT_STRIDE
// (the unit-stride part compiles the helpers the unit-stride forward needs and its instantiations only: the
// strip part calls them through unit_stride_forward_instantiated)

bool strip_grad_output_possible(const ConvTransposeParams& p, DType dtype, bool split_tf32, const void* grad_output);

namespace {
// The strip kernels' packing kernels: grid-stride loops of 256 threads over `total` packed elements.
template <typename... Params, typename... Args>
cudaError_t launch_pack(void (*kernel)(Params...), int64_t total, cudaStream_t stream, Args... args) {
  if (total <= 0) return cudaSuccess;
  kernel<<<int(std::min<int64_t>((total + 255) / 256, 4096)), 256, 0, stream>>>(args...);
  return cudaGetLastError();
}
// The operands both forward strip forms read the same way.
template <typename Args>
void set_strip_forward_operands(Args& a, const ConvTransposeParams& p, const void* input, const void* bias,
                                void* output, const float* packed_weight) {
  a.x = static_cast<decltype(a.x)>(input);
  a.y = static_cast<decltype(a.y)>(output);
  a.packed = packed_weight;
  a.bias = static_cast<decltype(a.bias)>(bias);
  a.bias_stride = p.bias_stride;
  for (int i = 0; i < 5; ++i) {
    a.x_stride[i] = p.input_strides[i];
    a.y_stride[i] = p.output_strides[i];
  }
}
// The (n, d, h) lines and W extents both strip kernels' arguments carry (StripArgs, StripWeightArgs).
template <class Args>
void set_strip_line_shape(Args& a, const ConvTransposeParams& p) {
  a.lines_d = int(p.in_size[0]);
  a.lines_h = int(p.in_size[1]);
  a.c_in = int(p.in_channels);
  a.c_out = int(p.out_channels);
  a.in_w = int(p.in_size[2]);
  a.out_w = int(p.out_size[2]);
  a.padding_w = int(p.padding[2]);
}
}  // namespace

#if TCONV_IGEMM_PART == TCONV_IGEMM_PART_STRIP

// fp16/bf16 data on the strip grad_input. TCONV_STRIP_GRAD_INPUT_16BIT (development only, read once per process):
// 0 keeps 16-bit calls off it, 1 widens them to fp32 as they load (TF32 MMAs), 2 (the default) runs k16 MMAs on the
// values as they are; so one build times all three.
int strip_grad_input_16bit_form() {
  static const int form = development_switch("TCONV_STRIP_GRAD_INPUT_16BIT", 2);
  return form;
}
bool strip_grad_input_16bit_enabled() { return strip_grad_input_16bit_form() != 0; }
// Whether this call's strip grad_input runs k16 MMAs on 16-bit values (a stage then holds twice the channels).
bool strip_grad_input_k16(DType dtype) { return is_16bit(dtype) && strip_grad_input_16bit_form() == 2; }
bool strip_grad_input_possible(const ConvTransposeParams& p, DType dtype, bool split_tf32, const void* grad_output,
                               const void* grad_input) {
  (void)grad_input;  // any strides, see StripArgs::pair_stores
  if (is_16bit(dtype) && !strip_grad_input_16bit_enabled()) return false;
  return strip_grad_output_possible(p, dtype, split_tf32, grad_output) &&
         p.batch * p.in_size[0] * p.in_size[1] <= 65535 &&
         (p.in_size[2] + StripGradInputTile::kBlockN - 1) / StripGradInputTile::kBlockN <= 65535;
}

namespace {
struct StripPlan {
  int taps, channels_per_stage, stages, ci_tiles;
};
StripPlan strip_plan(const ConvTransposeParams& p, DType dtype) {
  using Tile = StripGradInputTile;
  StripPlan plan;
  plan.taps = int(p.kernel[2] / p.stride[2]);
  plan.channels_per_stage = Tile::kStageK * (strip_grad_input_k16(dtype) ? 2 : 1) / int(p.kernel[2]);
  plan.stages = int((p.out_channels + plan.channels_per_stage - 1) / plan.channels_per_stage);
  plan.ci_tiles = int((p.in_channels + Tile::kBlockM - 1) / Tile::kBlockM);
  return plan;
}
template <typename scalar_t, int kColumns, int kChannels, bool kK16 = false>
cudaError_t launch_strip_grad_input(const StripArgs<scalar_t>& a, const dim3& grid, cudaStream_t stream) {
  using Tile = StripGradInputTile;
  constexpr int kTaps = 8 / (kColumns * kChannels);
  // Six stages fit where a stage holds at most four strip columns (T >= 2), else four.
  constexpr int kStages = 8 / kTaps <= 4 ? Tile::kDeepStages : Tile::kShallowStages;
  const int smem = kStages * Tile::template kStageFloats<kTaps> * int(sizeof(float));
  auto kernel = tconv_igemm_strip_grad_input_kernel<scalar_t, kStages, kColumns, kChannels, kK16>;
  const cudaError_t err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  if (err != cudaSuccess) return err;
  kernel<<<grid, StripGradInputTile::kThreads, size_t(smem), stream>>>(a);
  return cudaGetLastError();
}
}  // namespace

int64_t strip_packed_weight_elems(const ConvTransposeParams& p, DType dtype) {
  const StripPlan plan = strip_plan(p, dtype);
  return int64_t(plan.ci_tiles) * plan.stages * StripGradInputTile::kStageAFloats;
}

template <typename scalar_t>
cudaError_t strip_grad_input_typed(const ConvTransposeParams& p, DType dtype, const void* grad_output,
                                   const void* weight, void* grad_input, float* packed_weight, cudaStream_t stream) {
  using Tile = StripGradInputTile;
  const StripPlan plan = strip_plan(p, dtype);
  const int64_t lines = p.batch * p.in_size[0] * p.in_size[1];
  if (lines == 0 || p.in_size[2] == 0 || p.in_channels == 0) return cudaSuccess;
  if (reinterpret_cast<uintptr_t>(packed_weight) % 16 != 0) return cudaErrorMisalignedAddress;  // 16-byte copies
  const int64_t total = strip_packed_weight_elems(p, dtype);
  bool k16 = false;
  cudaError_t packed_err = cudaSuccess;
  if constexpr (sizeof(scalar_t) == 2) {
    k16 = strip_grad_input_k16(dtype);
    if (k16)
      packed_err = launch_pack(tconv_igemm_strip_pack_weight_k16_kernel<scalar_t>, 2 * total, stream,
          static_cast<const scalar_t*>(weight), p.weight_strides[0], p.weight_strides[1], p.weight_strides[4],
          int(p.in_channels), int(p.out_channels), int(p.stride[2]), plan.taps, plan.channels_per_stage, plan.stages,
          2 * total, reinterpret_cast<unsigned short*>(packed_weight));
  }
  if (!k16) {
    packed_err = launch_pack(tconv_igemm_strip_pack_weight_kernel<scalar_t>, total, stream,
        static_cast<const scalar_t*>(weight), p.weight_strides[0], p.weight_strides[1], p.weight_strides[4],
        int(p.in_channels), int(p.out_channels), int(p.kernel[2]), plan.channels_per_stage, plan.stages, total,
        packed_weight);
  }
  if (packed_err != cudaSuccess) return packed_err;
  StripArgs<scalar_t> a;
  a.dy = static_cast<const scalar_t*>(grad_output);
  a.dx = static_cast<scalar_t*>(grad_input);
  a.packed = packed_weight;
  for (int i = 0; i < 5; ++i) {
    a.dy_stride[i] = p.output_strides[i];
    a.dx_stride[i] = p.input_strides[i];
  }
  set_strip_line_shape(a, p);
  a.stride_w = int(p.stride[2]);
  a.stages = plan.stages;
  const int64_t* dx = p.input_strides;
  a.pair_stores = dx[4] == 1 && dx[0] % 2 == 0 && dx[1] % 2 == 0 && dx[2] % 2 == 0 && dx[3] % 2 == 0 &&
                  reinterpret_cast<uintptr_t>(grad_input) % (2 * element_bytes(dtype)) == 0;
  const dim3 grid(unsigned(plan.ci_tiles), unsigned((p.in_size[2] + Tile::kBlockN - 1) / Tile::kBlockN),
                  unsigned(lines));
  if constexpr (sizeof(scalar_t) == 2) {
    if (k16) {
      switch (a.stride_w * 8 + plan.taps) {  // kColumns s / 8, kChannels 64 / (T s)
        case 8 * 8 + 1: return launch_strip_grad_input<scalar_t, 1, 8, true>(a, grid, stream);
        case 8 * 8 + 2: return launch_strip_grad_input<scalar_t, 1, 4, true>(a, grid, stream);
        case 8 * 8 + 4: return launch_strip_grad_input<scalar_t, 1, 2, true>(a, grid, stream);
        case 16 * 8 + 1: return launch_strip_grad_input<scalar_t, 2, 4, true>(a, grid, stream);
        case 16 * 8 + 2: return launch_strip_grad_input<scalar_t, 2, 2, true>(a, grid, stream);
        case 32 * 8 + 1: return launch_strip_grad_input<scalar_t, 4, 2, true>(a, grid, stream);
        default: return cudaErrorInvalidValue;
      }
    }
  }
  switch (a.stride_w * 8 + plan.taps) {  // (s, T) with T s dividing 32 (strip_grad_input_possible)
    case 8 * 8 + 1: return launch_strip_grad_input<scalar_t, 2, 4>(a, grid, stream);
    case 8 * 8 + 2: return launch_strip_grad_input<scalar_t, 2, 2>(a, grid, stream);
    case 8 * 8 + 4: return launch_strip_grad_input<scalar_t, 2, 1>(a, grid, stream);
    case 16 * 8 + 1: return launch_strip_grad_input<scalar_t, 4, 2>(a, grid, stream);
    case 16 * 8 + 2: return launch_strip_grad_input<scalar_t, 4, 1>(a, grid, stream);
    case 32 * 8 + 1: return launch_strip_grad_input<scalar_t, 8, 1>(a, grid, stream);
    default: return cudaErrorInvalidValue;
  }
}
cudaError_t strip_grad_input(const ConvTransposeParams& p, DType dtype, const void* grad_output, const void* weight,
                             void* grad_input, float* packed_weight, cudaStream_t stream) {
  return TCONV_FLOAT_DTYPE_SWITCH(dtype, scalar_t, [&] {
    return strip_grad_input_typed<scalar_t>(p, dtype, grad_output, weight, grad_input, packed_weight, stream);
  });
}

#endif  // TCONV_IGEMM_PART_STRIP
namespace {
// What every strip kernel needs: fp32 data in TF32 mode or fp16/bf16 data (k16 MMAs, or widened to fp32 where the
// products are exact in TF32, so torch's TF32 flag does not matter for them), groups 1, and a device that runs the
// sm_90a code (wgmma). Each kernel's own switch for 16-bit data is its caller's.
bool strip_mode_possible(const ConvTransposeParams& p, DType dtype, bool split_tf32) {
  const bool data_possible = is_16bit(dtype) || (dtype == DType::kFloat32 && !split_tf32);
  if (!data_possible || p.groups != 1) return false;
  int device = 0;
  return cudaGetDevice(&device) == cudaSuccess && wgmma_available(device);
}
// The 1D strip kernels: those, and 1D lines (kernel 1, stride 1, padding 0 along D and H).
bool strip_lines_possible(const ConvTransposeParams& p, DType dtype, bool split_tf32) {
  if (!strip_mode_possible(p, dtype, split_tf32)) return false;
  for (int i = 0; i < 2; ++i)
    if (p.kernel[i] != 1 || p.stride[i] != 1 || p.padding[i] != 0 || p.out_size[i] != p.in_size[i]) return false;
  return true;
}
}  // namespace
#if TCONV_IGEMM_PART == TCONV_IGEMM_PART_STRIP

// The grad_output side of both backward strip kernels: those, W dilation 1, a W stride that is a multiple of 8 with
// T whole strides per W kernel (T s dividing 32), and whole pieces of 4 elements of W-contiguous grad_output rows
// (each lies inside it or outside, never across an end), rows 16-byte aligned.
bool strip_grad_output_possible(const ConvTransposeParams& p, DType dtype, bool split_tf32, const void* grad_output) {
  using Tile = StripGradInputTile;
  if (!strip_lines_possible(p, dtype, split_tf32)) return false;
  const int64_t s = p.stride[2];
  if (p.dilation[2] != 1 || s % 8 != 0 || s > Tile::kStageK || p.kernel[2] % s != 0) return false;
  const int64_t taps = p.kernel[2] / s;
  if (taps > Tile::kMaxTaps || Tile::kStageK % (taps * s) != 0) return false;
  if (p.padding[2] % 4 != 0 || p.out_size[2] % 4 != 0) return false;
  const int64_t big = int64_t(1) << 30;  // positions and channels are ints in the kernels
  if (p.out_size[2] >= big || p.in_size[2] >= big || p.padding[2] >= big || p.in_channels >= big ||
      p.out_channels >= big)
    return false;
  const int64_t* dy = p.output_strides;
  if (dy[4] != 1) return false;
  for (int i = 0; i < 4; ++i)
    if (dy[i] % 4 != 0) return false;
  return reinterpret_cast<uintptr_t>(grad_output) % 16 == 0;
}

// fp16/bf16 data on the strip grad_weight. TCONV_STRIP_GRAD_WEIGHT_16BIT (development only, read once per process):
// 0 keeps 16-bit calls off it, 1 widens them to fp32 in its slots (TF32 MMAs), 2 runs k16 MMAs on the values as they
// are with A K-major (four 2-byte stores per strip piece and tap), 3 (the default) the same with A M-major (one
// 8-byte store): run 423, HiFi-GAN bf16 fwd+bwd 5.445 ms (3) / 5.647 (2); so one build times all four.
int strip_grad_weight_16bit_form() {
  static const int form = development_switch("TCONV_STRIP_GRAD_WEIGHT_16BIT", 3);
  return form;
}
bool strip_grad_weight_16bit_enabled() { return strip_grad_weight_16bit_form() != 0; }
bool strip_grad_weight_possible(const ConvTransposeParams& p, DType dtype, bool split_tf32, const void* input,
                                const void* grad_output) {
  // 16-bit data: the fp32 data's conditions, in elements (pieces of 4 elements, 8-byte aligned).
  if (is_16bit(dtype) && !strip_grad_weight_16bit_enabled()) return false;
  if (!strip_grad_output_possible(p, dtype, split_tf32, grad_output)) return false;
  // x by pieces of 4 positions: W-contiguous, whole pieces, rows aligned to a piece.
  const int64_t* x = p.input_strides;
  if (x[4] != 1 || p.in_size[2] % 4 != 0) return false;
  // A block's stage count is an int: fewer than 2^31 position chunks in all.
  const int64_t chunks_per_line = (p.in_size[2] + StripGradWeightTile::kBlockK - 1) / StripGradWeightTile::kBlockK;
  if (p.batch * p.in_size[0] * p.in_size[1] * chunks_per_line >= (int64_t(1) << 31)) return false;
  for (int i = 0; i < 4; ++i)
    if (x[i] % 4 != 0) return false;
  return reinterpret_cast<uintptr_t>(input) % 16 == 0;
}

namespace {
// Splits of the position chunks: the fewest among those with the least waves x work per block (one block per SM),
// within the workspace budget (whole weight-sized buffers, at least one).
int strip_grad_weight_splits(const ConvTransposeParams& p, int sm_count, int64_t max_workspace_elems) {
  using Tile = StripGradWeightTile;
  const int64_t weight = p.in_channels * p.out_channels * p.kernel[2];
  const int64_t tiles = ((p.out_channels * p.kernel[2] + Tile::kBlockM - 1) / Tile::kBlockM) *
                        ((p.in_channels + Tile::kBlockN - 1) / Tile::kBlockN);
  const int64_t chunks = p.batch * p.in_size[0] * p.in_size[1] * ((p.in_size[2] + Tile::kBlockK - 1) / Tile::kBlockK);
  const int64_t cap = std::max<int64_t>(1, std::min<int64_t>({max_workspace_elems / std::max<int64_t>(weight, 1),
                                                              chunks, 64, 65535}));
  int best = 1;
  double best_cost = 0;
  for (int64_t splits = 1; splits <= cap; ++splits) {
    const int64_t waves = (tiles * splits + sm_count - 1) / sm_count;
    const double cost = double(waves) / double(splits);
    if (splits == 1 || cost < best_cost * 0.999) {
      best = int(splits);
      best_cost = cost;
    }
  }
  return best;
}
// form16: 16-bit data's form (strip_grad_weight_16bit_form: 2 k16, 3 k16 with A M-major, else widened).
template <typename scalar_t, int kStride, int kTaps>
cudaError_t launch_strip_grad_weight(const StripWeightArgs<scalar_t>& a, int form16, const dim3& grid,
                                     cudaStream_t stream) {
  using Tile = StripGradWeightTile;
  constexpr int kRaw = Tile::raw_stages(kStride, kTaps);
  constexpr int kBytes = int(sizeof(float)) * Tile::kSlots * Tile::kSlotFloats +
                         int(sizeof(scalar_t)) * kRaw * Tile::raw_floats(kStride, kTaps);
  auto kernel = tconv_igemm_strip_grad_weight_kernel<scalar_t, Tile::kSlots, kRaw, kStride, kTaps, false>;
  if constexpr (sizeof(scalar_t) == 4)  // fp32: the by-channel x copies unless switched off (strip_x_copy_by_channel)
    if (a.x_copy_by_channel)
      kernel = tconv_igemm_strip_grad_weight_kernel<scalar_t, Tile::kSlots, kRaw, kStride, kTaps, true>;
  if constexpr (sizeof(scalar_t) == 2) {
    if (form16 == 2)
      kernel = tconv_igemm_strip_grad_weight_kernel<scalar_t, Tile::kSlots, kRaw, kStride, kTaps, false, true>;
    else if (form16 == 3)
      kernel = tconv_igemm_strip_grad_weight_kernel<scalar_t, Tile::kSlots, kRaw, kStride, kTaps, false, true, true>;
  }
  const cudaError_t err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kBytes);
  if (err != cudaSuccess) return err;
  kernel<<<grid, Tile::kThreads, size_t(kBytes), stream>>>(a);
  return cudaGetLastError();
}
}  // namespace

bool strip_grad_weight_preferred(const ConvTransposeParams& p, int sm_count, int64_t max_workspace_elems) {
  using Tile = StripGradWeightTile;
  const int64_t tiles = ((p.out_channels * p.kernel[2] + Tile::kBlockM - 1) / Tile::kBlockM) *
                        ((p.in_channels + Tile::kBlockN - 1) / Tile::kBlockN);
  return tiles * strip_grad_weight_splits(p, sm_count, max_workspace_elems) >=
         StripAutoRule::grad_weight_min_blocks(sm_count);
}

int64_t strip_grad_weight_workspace_elems(const ConvTransposeParams& p, int sm_count, int64_t max_workspace_elems) {
  return int64_t(strip_grad_weight_splits(p, sm_count, max_workspace_elems)) * p.in_channels * p.out_channels *
         p.kernel[2];
}

// Whether the strip grad_weight kernel copies its fp32 x pieces by channel (StripWeightArgs::x_copy_by_channel).
// Run 381 (H200, HiFi-GAN TF32, ncu): the kernel's shared wavefronts 778 M -> 438 M (the ideal count is ~445 M), its
// time 3.88 -> 3.80 ms; fwd+bwd 8.036-8.065 -> 7.990-7.997 ms in alternating processes; racecheck clean. So the
// shared-memory path was not its limit either. TCONV_STRIP_X_COPY_BY_CHANNEL=0 (development only, read once per
// process) gives the old lane mapping, for A/B timings in one build; 16-bit data always take it.
bool strip_x_copy_by_channel() {
  static const bool by_channel = development_switch("TCONV_STRIP_X_COPY_BY_CHANNEL", 1) != 0;
  return by_channel;
}
template <typename scalar_t>
cudaError_t strip_grad_weight_typed(const ConvTransposeParams& p, DType dtype, const void* input,
                                    const void* grad_output, void* grad_weight, float* workspace, int sm_count,
                                    int64_t max_workspace_elems, cudaStream_t stream) {
  using Tile = StripGradWeightTile;
  StripWeightArgs<scalar_t> a;
  a.x = static_cast<const scalar_t*>(input);
  a.dy = static_cast<const scalar_t*>(grad_output);
  a.partial = workspace;
  for (int i = 0; i < 5; ++i) {
    a.x_stride[i] = p.input_strides[i];
    a.dy_stride[i] = p.output_strides[i];
  }
  set_strip_line_shape(a, p);
  a.chunks_per_line = int((p.in_size[2] + Tile::kBlockK - 1) / Tile::kBlockK);
  a.chunks = p.batch * p.in_size[0] * p.in_size[1] * a.chunks_per_line;
  a.splits = strip_grad_weight_splits(p, sm_count, max_workspace_elems);
  a.x_copy_by_channel = strip_x_copy_by_channel();
  const int form16 = is_16bit(dtype) ? strip_grad_weight_16bit_form() : 0;
  const int64_t sizes[5] = {p.in_channels, p.out_channels, 1, 1, p.kernel[2]};
  const int64_t weight = p.in_channels * p.out_channels * p.kernel[2];
  if (weight == 0) return cudaSuccess;
  if (a.chunks == 0) {  // no positions: the sums are zero
    const cudaError_t err = cudaMemsetAsync(workspace, 0, size_t(weight) * sizeof(float), stream);
    if (err != cudaSuccess) return err;
    return sum_splits(dtype, workspace, 1, sizes, p.weight_strides, grad_weight, stream);
  }
  const dim3 grid(unsigned((p.out_channels * p.kernel[2] + Tile::kBlockM - 1) / Tile::kBlockM),
                  unsigned((p.in_channels + Tile::kBlockN - 1) / Tile::kBlockN), unsigned(a.splits));
  cudaError_t err = cudaErrorInvalidValue;
  switch (p.stride[2] * 8 + p.kernel[2] / p.stride[2]) {  // (s, T) as strip_grad_output_possible allows
    case 8 * 8 + 1: err = launch_strip_grad_weight<scalar_t, 8, 1>(a, form16, grid, stream); break;
    case 8 * 8 + 2: err = launch_strip_grad_weight<scalar_t, 8, 2>(a, form16, grid, stream); break;
    case 8 * 8 + 4: err = launch_strip_grad_weight<scalar_t, 8, 4>(a, form16, grid, stream); break;
    case 16 * 8 + 1: err = launch_strip_grad_weight<scalar_t, 16, 1>(a, form16, grid, stream); break;
    case 16 * 8 + 2: err = launch_strip_grad_weight<scalar_t, 16, 2>(a, form16, grid, stream); break;
    case 32 * 8 + 1: err = launch_strip_grad_weight<scalar_t, 32, 1>(a, form16, grid, stream); break;
    default: break;
  }
  if (err != cudaSuccess) return err;
  return sum_splits(dtype, workspace, a.splits, sizes, p.weight_strides, grad_weight, stream);
}
cudaError_t strip_grad_weight(const ConvTransposeParams& p, DType dtype, const void* input, const void* grad_output,
                              void* grad_weight, float* workspace, int sm_count, int64_t max_workspace_elems,
                              cudaStream_t stream) {
  return TCONV_FLOAT_DTYPE_SWITCH(dtype, scalar_t, [&] {
    return strip_grad_weight_typed<scalar_t>(p, dtype, input, grad_output, grad_weight, workspace, sm_count,
                                             max_workspace_elems, stream);
  });
}

#endif  // TCONV_IGEMM_PART_STRIP (the strip kernels' entry points)

cudaError_t unit_stride_forward_instantiated(const ConvTransposeParams& p, DType dtype, const void* input,
                                             const void* weight, const void* bias, void* output,
                                             float* packed_weight, cudaStream_t stream,
                                             const ForwardGroupStats* stats);

namespace {
// Output rows J run from first_row = p / s to (W_out - 1 + p) / s, in row_tiles tiles of kBlockN.
struct StripForwardPlan {
  int taps, channels_per_stage, stages, m_tiles, first_row;
  int64_t row_tiles;
};
// dtype: fp16/bf16 stages hold twice the K values (k16 MMAs, the fp32 stage's bytes).
StripForwardPlan strip_forward_plan(const ConvTransposeParams& p, DType dtype = DType::kFloat32) {
  using Tile = StripGradInputTile;
  StripForwardPlan plan;
  plan.taps = int(p.kernel[2] / p.stride[2]);
  plan.channels_per_stage = Tile::kStageK * 4 / element_bytes(dtype) / plan.taps;  // 16-bit: twice the K values
  plan.stages = int((p.in_channels + plan.channels_per_stage - 1) / plan.channels_per_stage);
  plan.m_tiles = int((p.out_channels * p.stride[2] + Tile::kBlockM - 1) / Tile::kBlockM);
  plan.first_row = int(p.padding[2] / p.stride[2]);
  const int64_t rows = (p.out_size[2] - 1 + p.padding[2]) / p.stride[2] - plan.first_row + 1;
  plan.row_tiles = (rows + Tile::kBlockN - 1) / Tile::kBlockN;
  return plan;
}
template <typename scalar_t, int kTaps>
cudaError_t launch_strip_forward(const StripForwardArgs<scalar_t>& a, const dim3& grid, cudaStream_t stream) {
  using Tile = StripGradInputTile;
  // As the grad_input strip kernel: six stages where a stage's B holds at most four columns (T >= 2), else four.
  constexpr int kStages = kTaps >= 2 ? Tile::kDeepStages : Tile::kShallowStages;
  const int smem = kStages * Tile::template kStageFloats<kTaps> * int(sizeof(float));
  auto kernel = tconv_igemm_strip_forward_kernel<scalar_t, kStages, kTaps>;
  const cudaError_t err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  if (err != cudaSuccess) return err;
  kernel<<<grid, Tile::kThreads, size_t(smem), stream>>>(a);
  return cudaGetLastError();
}
}  // namespace

namespace {
// The 1D form (tconv_igemm_strip_forward_kernel): 1D lines, W dilation 1, a W kernel of T = 1, 2 or 4 whole strides.
// fp16/bf16 data on the 1D form (k16 MMAs). TCONV_STRIP_LINES_16BIT=0 (development only, read once per process)
// keeps 16-bit calls off it, so one build times both.
bool strip_lines_16bit_enabled() {
  static const bool enabled = development_switch("TCONV_STRIP_LINES_16BIT", 1) != 0;
  return enabled;
}
bool strip_lines_forward_possible(const ConvTransposeParams& p, DType dtype, bool split_tf32) {
  using Tile = StripGradInputTile;
  if ((is_16bit(dtype) && !strip_lines_16bit_enabled()) || !strip_lines_possible(p, dtype, split_tf32)) return false;
  const int64_t s = p.stride[2];
  if (p.dilation[2] != 1 || p.kernel[2] > 4 * Tile::kStageK || p.kernel[2] % s != 0) return false;
  const int64_t taps = p.kernel[2] / s;
  if (taps != 1 && taps != 2 && taps != 4) return false;
  const int64_t big = int64_t(1) << 30;  // positions, channels and rows are ints in the kernel
  if (p.out_size[2] >= big || p.in_size[2] >= big || p.padding[2] >= big || p.in_channels >= big ||
      p.out_channels * s >= big)
    return false;
  return p.batch * p.in_size[0] * p.in_size[1] <= 65535 && strip_forward_plan(p).row_tiles <= 65535;
}

// The unit-stride form (tconv_igemm_strip_unit_stride_forward_kernel, StripUnitStrideForwardTile).
// 32-channel tiles take the kernel's kTapPairs form (two W taps of 32 channels as A's 64 rows) instead of x as A.
// Run 194 (H200, TF32, same build): L1-68's grad_input (64 -> 32 channels, T 5) 8.81 -> 7.26 ms, fwd+bwd 24.07 ->
// 22.52 ms; fam02 forward (T 7) 0.901 -> 0.753 ms. TCONV_UNIT_STRIDE_TAP_PAIRS=0 (development only, read once per
// process) gives the x-as-A tiles back.
bool unit_stride_tap_pairs() {
  static const bool pairs = development_switch("TCONV_UNIT_STRIDE_TAP_PAIRS", 1) != 0;
  return pairs;
}
bool unit_stride_weights_as_a_disabled();
bool unit_stride_wide_rows();
// The unit-stride forward's set-up divisions by fast divisors (igemm_config.h: fast_div), by default.
// TCONV_UNIT_STRIDE_FAST_DIVISIONS=0 (development only, read once per process) keeps the hardware's, so one build
// times both. Run 396 (H200, one build, TF32 quick_timing, two rounds, hardware -> fast, fwd / fwd+bwd ms): fam04
// 2.289 / 8.270-8.288 -> 2.247-2.252 / 8.197; fam06 1.896-1.897 / 6.893-6.903 -> 1.865-1.869 / 6.834-6.839; L2-61
// 1.283-1.284 / 5.037-5.042 -> 1.269-1.279 / 5.015-5.017.
bool unit_stride_fast_divisions() {
  static const bool fast = development_switch("TCONV_UNIT_STRIDE_FAST_DIVISIONS", 1) != 0;
  return fast;
}
// The half tile for the tap-pairs form (32-channel tiles), where StripUnitStrideHalfTileRule's K bounds take it:
// TCONV_UNIT_STRIDE_HALF_TILE_TAP_PAIRS (development only, read once per process) 1 (default) there, 0 nowhere, 2 on
// every tap-pairs tile (to time it).
int unit_stride_half_tile_tap_pairs_mode() {
  static const int mode = development_switch("TCONV_UNIT_STRIDE_HALF_TILE_TAP_PAIRS", 1);
  return mode;
}
// 48-channel 16-bit stages (igemm_config.h: StripUnitStrideForwardHalfTile48, StripUnitStrideForwardTile48), where
// C_in is a multiple of 48 but not of 32, at T 3: TCONV_UNIT_STRIDE_STAGE_48 (development only, read once per process)
// 0 nowhere; 1 on the tap-pairs half tiles; 2 there and on the 64-channel weights-as-A tiles as 256-row blocks (five
// stages); 3 (the default) there and on the 64-channel half tile (three stages, one wgmma group in flight). Run 408
// (H200, bf16, quick_timing, two rounds, ms): fam07 (48 -> 24, pairs) fwd 4.591 -> 3.475-3.482 under 1, fwd+bwd
// 9.98 -> 8.87; fam03 (48 -> 48) fwd 1.348 -> 1.231 under 2 and 1.040 under 3, fwd+bwd 4.57 -> 4.35 and 4.01.
int unit_stride_stage_48_mode() {
  static const int mode = development_switch("TCONV_UNIT_STRIDE_STAGE_48", 3);
  return mode;
}
// StripUnitStrideForwardHalfTile (igemm_config.h): TCONV_UNIT_STRIDE_HALF_TILE (development only, read once per
// process) 1 (default) where StripUnitStrideHalfTileRule takes it, 0 nowhere, 2 wherever it has kernels (to time it).
int unit_stride_half_tile_mode() {
  static const int mode = development_switch("TCONV_UNIT_STRIDE_HALF_TILE", 1);
  return mode;
}
// fp32 calls whose input or output is not W-contiguous and has its channels innermost (channels_last) keep to the
// 256-row tiles, which have the channels-last access (kChannelsLastAccess); the half tiles read and write such
// tensors a channel at a time (other strided views take them as before: both tiles read those per channel). Why:
// run 564 (H100, TF32 channels_last) had fam01 (64 -> 64, K 576: the 64-channel half tile) at fwd 13.137 ms, fwd+bwd
// 32.042 (0.22x / 0.37x eager). TCONV_UNIT_STRIDE_CL_HALF_TILE=1 (development only, read once per process) lets
// them take the half tiles as W-contiguous calls do, for A/B timings; since session 118 the fp32 64-channel half tiles
// have the channels-last access too (not yet run on a GPU). Why: fam01's 256-row channels-last forward spent 21.7 % of
// its samples in the set-up and ring fill (run 571), which a second block an SM overlaps (fixed cost 1.128 -> 0.671
// ms on W-contiguous fam01, run 389).
bool unit_stride_channels_last_half_tile() {
  static const bool allowed = development_switch("TCONV_UNIT_STRIDE_CL_HALF_TILE", 0) == 1;
  return allowed;
}
struct UnitStridePlan {
  int elem_bytes;  // 4 (fp32, TF32 MMAs) or 2 (fp16/bf16, k16 MMAs)
  int block_n, taps, channels, channel_stages, line_rows;
  bool tap_pairs;      // the kTapPairs form: A rows = 32 channels x 2 taps, tiles of kBlockM - 1 stored rows
  bool half_tile;      // StripUnitStrideForwardHalfTile's blocks (their stages' channels, their 128 rows)
  bool stage_48;       // 48-channel 16-bit stages (StripUnitStrideForwardHalfTile48, or StripUnitStrideForwardTile48)
  int w_rows, k_taps;  // the packed weights' rows per tile and K groups per stage (taps, or tap pairs)
  int64_t rows, row_tiles, n_tiles;
};
UnitStridePlan unit_stride_plan(const ConvTransposeParams& p, DType dtype) {
  using Tile = StripUnitStrideForwardTile;
  using HalfTile = StripUnitStrideForwardHalfTile;
  UnitStridePlan plan;
  plan.elem_bytes = element_bytes(dtype);
  plan.block_n = Tile::block_n(p.out_channels);
  plan.taps = int(p.kernel[2]);
  // 16-bit data always pairs taps in 32-channel tiles (the switch compares fp32 forms; there is no k16 m64n32 here)
  plan.tap_pairs = plan.block_n == 32 && (unit_stride_tap_pairs() || plan.elem_bytes == 2);
  plan.w_rows = Tile::weight_rows(plan.block_n, plan.tap_pairs);
  plan.k_taps = Tile::k_taps(plan.taps, plan.tap_pairs);
  // The half tile's kernels: weights as A, 64 channels, fp32 at T 3-7 and fp16/bf16 at T 3.
  using HalfRule = StripUnitStrideHalfTileRule;
  const int half_mode = unit_stride_half_tile_mode();
  const long long k = (long long)p.in_channels * p.kernel[0] * p.kernel[1] * p.kernel[2];
  const int pairs_mode = unit_stride_half_tile_tap_pairs_mode();
  const bool pairs_half = pairs_mode == 2 || (pairs_mode == 1 && k >= HalfRule::kTapPairsMinK &&
                                               (plan.elem_bytes == 2 || k <= HalfRule::kTapPairsMaxKFp32));
  // (as set_unit_stride_channels_last_access would find it: a side not W-contiguous with its channels innermost)
  const bool channels_last_fp32 = plan.elem_bytes == 4 && (p.input_strides[4] != 1 || p.output_strides[4] != 1) &&
                                  (p.input_strides[1] == 1 || p.output_strides[1] == 1);
  plan.half_tile = half_mode != 0 && (!channels_last_fp32 || unit_stride_channels_last_half_tile()) &&
                   (plan.tap_pairs ? pairs_half
                                   : plan.block_n == HalfRule::kBlockN && !unit_stride_weights_as_a_disabled() &&
                                         (plan.elem_bytes == 4 || plan.taps == 3) &&
                                         (half_mode == 2 ||
                                          k <= (plan.elem_bytes == 4 ? HalfRule::kMaxK : HalfRule::kMaxK16Bit)));
  const int stage_48_mode = unit_stride_stage_48_mode();
  const bool channels_48 = plan.elem_bytes == 2 && plan.taps == 3 && p.in_channels % 48 == 0 &&
                           p.in_channels % 32 != 0;
  const bool weights_as_a_64 = plan.block_n == 64 && !plan.tap_pairs && !unit_stride_weights_as_a_disabled();
  plan.stage_48 = channels_48 && ((stage_48_mode >= 1 && plan.half_tile && plan.tap_pairs) ||
                                  (stage_48_mode == 2 && weights_as_a_64) ||
                                  (stage_48_mode == 3 && weights_as_a_64 && plan.half_tile));
  if (plan.stage_48 && stage_48_mode == 2 && !plan.tap_pairs) plan.half_tile = false;  // StripUnitStrideForwardTile48
  plan.channels = plan.stage_48    ? StripUnitStrideForwardHalfTile48::channels(plan.w_rows, plan.k_taps, 2)
                  : plan.half_tile ? HalfTile::channels(plan.w_rows, plan.k_taps, plan.elem_bytes)
                                   : Tile::channels(plan.w_rows, plan.k_taps, plan.elem_bytes);
  plan.channel_stages = int((p.in_channels + plan.channels - 1) / plan.channels);
  plan.line_rows = int(p.out_size[2] + p.kernel[2] - 1);
  plan.rows = p.batch * p.out_size[0] * p.out_size[1] * plan.line_rows;
  const int block_rows = plan.half_tile ? HalfTile::kBlockM : Tile::kBlockM;
  const int stored_rows = plan.tap_pairs ? block_rows - 1 : block_rows;
  plan.row_tiles = (plan.rows + stored_rows - 1) / stored_rows;
  plan.n_tiles = (p.out_channels + plan.block_n - 1) / plan.block_n;
  return plan;
}
// Which form strip_forward runs: the two forms' calls do not overlap (T = kernel / s in {1, 2, 4} against unit
// stride with 3, 5 or 7 W taps).
bool takes_unit_stride_form(const ConvTransposeParams& p) {
  return p.stride[2] == 1 && (p.kernel[2] == 3 || p.kernel[2] == 5 || p.kernel[2] == 7);
}
// fp16/bf16 data on the unit-stride form (session 31). TCONV_UNIT_STRIDE_16BIT=0 (development only, read once per
// process) keeps 16-bit calls off it, so one build times both.
bool unit_stride_16bit_enabled() {
  static const bool enabled = development_switch("TCONV_UNIT_STRIDE_16BIT", 1) != 0;
  return enabled;
}
bool unit_stride_forward_possible(const ConvTransposeParams& p, DType dtype, bool split_tf32) {
  if (!takes_unit_stride_form(p) || p.stride[0] != 1 || p.stride[1] != 1 || p.dilation[2] != 1) return false;
  const int64_t big = int64_t(1) << 30;  // sizes, channels, paddings and dilations are ints in the kernel
  for (int i = 0; i < 3; ++i)
    if (p.in_size[i] >= big || p.out_size[i] + p.kernel[2] >= big || p.padding[i] >= big || p.dilation[i] >= big ||
        p.kernel[i] >= big || p.out_size[i] + p.padding[i] >= big)
      return false;
  if (p.in_channels >= big || p.out_channels >= big || p.kernel[0] * p.kernel[1] >= big) return false;
  const UnitStridePlan plan = unit_stride_plan(p, dtype);
  if (plan.row_tiles >= (int64_t(1) << 31) || plan.n_tiles > 65535) return false;
  if (is_16bit(dtype) && !unit_stride_16bit_enabled()) return false;
  return strip_mode_possible(p, dtype, split_tf32);
}
// TCONV_UNIT_STRIDE_WEIGHTS_AS_A=0 (development only, read once per process) keeps 64-channel tiles on the x-as-A
// form, so one build times both.
bool unit_stride_weights_as_a_disabled() {
  static const bool disabled = development_switch("TCONV_UNIT_STRIDE_WEIGHTS_AS_A", 1) == 0;
  return disabled;
}
// Splits per (sample, group) of the statistics' partials: the blocks that can hold rows of one sample (at most
// rows_per_sample / kBlockM + 2) times the C_out tiles of one group times the warps (16 channels each) of a group in
// one tile (staged_group_stats; 1 for 8-channel groups).
int64_t group_stats_splits_of(const ConvTransposeParams& p, DType dtype, int64_t groups) {
  const UnitStridePlan plan = unit_stride_plan(p, dtype);
  const int64_t rows_per_sample = p.out_size[0] * p.out_size[1] * plan.line_rows;
  const int64_t cpg = p.out_channels / groups;
  const int64_t pieces = cpg % 16 == 0 ? std::min<int64_t>(cpg, plan.block_n) / 16 : 1;
  return (rows_per_sample / StripUnitStrideForwardTile::kBlockM + 2) * (cpg > plan.block_n ? cpg / plan.block_n : 1) *
         pieces;
}
// The unit-stride forward's stores (StripUnitStrideArgs::staged_store, pair_stores): stores by rows where the output
// is W-contiguous, and row pairs as one store where every line starts on an even element (even line_rows, so a
// block's even rows are even positions; even strides, or sizes of 1, above W; an aligned y). The tap-pairs tiles
// start at odd rows: one row per thread. TCONV_UNIT_STRIDE_STAGED_STORE=0 (the x-as-A tiles store from their
// accumulators' layout) and TCONV_UNIT_STRIDE_PAIR_STORES=0 (one row per thread: the weights-as-A tiles' store before
// run 252) are development switches read once per process, so one build times both. Measured (H100, same build,
// forward ms): staged against the accumulator layout (run 252), fam06 bf16 1.43 / 1.92, fam04 bf16 1.77 / 2.69, L2-61
// TF32 1.48 / 1.57, L2-61 bf16 0.94 / 1.02-1.03; pairs against one row per thread (run 253), L1-68 bf16 4.09 / 4.18,
// fam01 bf16 3.00 / 3.07, TF32 level to 1 % worse (L1-68 6.02 / 6.07, fam01 4.35 / 4.30).
// The channels-last access forms (StripUnitStrideArgs::x_channel_quads, y_channel_rows), fp32 data: x's K groups as
// 16-byte loads where x's channels are innermost and every K group starts on 16 bytes; the staged store with lanes
// along channels where y's channels are innermost and rows are not stored in pairs. Why: the per-channel loads put
// a warp's lanes on 32 positions C_in floats apart (32 L1 wavefronts a load against 4 W-contiguous, four loads a K
// group), and the one-row-a-thread store writes 4 bytes of each 32-byte sector of channels-last y. Measured (run
// 560, H100, TF32 channels_last under TCONV_UNIT_STRIDE_CHANNELS_LAST=1, forward / fwd+bwd ms): L2-61 2.926 / 9.479
// per-channel, 1.432 / 5.775 with this access; fam03 4.588 / 12.484 against 2.552 / 8.351. TCONV_UNIT_STRIDE_CL_ACCESS
// (development only, read once per process): 0 keeps the per-channel loads and the row store; unset or anything else
// takes this access wherever it applies.
// The channels-last store's row decodes (StripUnitStrideArgs::y_channel_rows): 2, one a lane, the warp shuffling the
// y offsets; 1, every lane decoding each row of its quad. Why 2: the store was 34 % of fam01's TF32 channels_last
// forward samples, ~2800 instructions a warp, mostly decodes (run 571). Measured (run 576, H100, TF32 channels_last,
// forward / fwd+bwd ms, 2 against 1): fam01 4.993 / 13.255 against 6.461 / 15.841 (predicted ~4.5-5 forward), fam05
// 1.745 / 5.119 against 2.141 / 5.891. TCONV_UNIT_STRIDE_CL_STORE_ROWS (development only, read once per process): 1
// keeps every lane decoding every row; unset or anything else takes 2.
int unit_stride_cl_store_rows_mode() {
  static const int mode = development_switch("TCONV_UNIT_STRIDE_CL_STORE_ROWS", 2) == 1 ? 1 : 2;
  return mode;
}
template <typename scalar_t>
void set_unit_stride_channels_last_access(StripUnitStrideArgs<scalar_t>& a, const ConvTransposeParams& p) {
  static const bool enabled = development_switch("TCONV_UNIT_STRIDE_CL_ACCESS", 1) != 0;
  a.x_channel_quads = a.y_channel_rows = 0;
  if (!enabled || sizeof(scalar_t) != 4) return;
  bool quads = p.input_strides[1] == 1 && p.in_channels % 4 == 0 && reinterpret_cast<uintptr_t>(a.x) % 16 == 0;
  for (int i = 0; i < 5; ++i)
    if (i != 1) quads = quads && p.input_strides[i] % 4 == 0;
  a.x_channel_quads = quads ? 1 : 0;
  a.y_channel_rows = p.output_strides[1] == 1 && !a.pair_stores ? unit_stride_cl_store_rows_mode() : 0;
}
template <typename scalar_t>
void set_unit_stride_store_plan(StripUnitStrideArgs<scalar_t>& a, const ConvTransposeParams& p,
                                const UnitStridePlan& plan) {
  static const bool staged = development_switch("TCONV_UNIT_STRIDE_STAGED_STORE", 1) != 0;
  static const bool pairs = development_switch("TCONV_UNIT_STRIDE_PAIR_STORES", 1) != 0;
  const bool w_contiguous = p.output_strides[4] == 1;
  const int64_t sizes[4] = {p.batch, p.out_channels, p.out_size[0], p.out_size[1]};
  bool even_lines = plan.line_rows % 2 == 0 && !plan.tap_pairs &&
                    reinterpret_cast<uintptr_t>(a.y) % (2 * sizeof(scalar_t)) == 0;
  for (int i = 0; i < 4; ++i) even_lines = even_lines && (p.output_strides[i] % 2 == 0 || sizes[i] == 1);
  a.staged_store = staged && w_contiguous;
  a.pair_stores = pairs && w_contiguous && even_lines;
}
// The 128-channel tiles as weights as A over all 256 rows (the kernel's kWideRows: one m64n256k8 per warpgroup and k8
// step, 17 % less shared-memory traffic per FLOP than two m64n128k8). Measured (run 256, H200, forward ms wide / x as
// A): L2-61 TF32 1.30 / 1.415, bf16 0.865 / 0.92; fam06 TF32 1.983 / 2.105, bf16 1.388 / 1.443; fam04 level in TF32
// (3.172 / 3.175), bf16 1.748 / 1.78. TCONV_UNIT_STRIDE_WIDE_ROWS=0 (development only, read once per process) keeps
// them x as A, so one build times both.
// x as 32-bit words of two adjacent positions (the kernel's kXPairs): 16-bit x whose rows 2 i and 2 i + 1 of a tile
// are adjacent positions of one line on an even element, both inside or both outside x: even line_rows (with r0 a
// multiple of kBlockM, a tile's even rows are a line's even rows), an even W padding (T - 1 is even), an even W_in,
// W-contiguous x with even strides above W (or sizes of 1) and an aligned pointer; not the tap-pairs tiles (odd r0).
// Half the load instructions, and the words are split into the two positions' K groups when stored, where the
// per-position loads were packed right after they were issued, ahead of the stage's wgmmas (run 252's profile).
// Measured (run 261, H200, bf16 forward ms with / without): fam06 1.273 / 1.378, fam04 1.540 / 1.723, L1-68 3.797 /
// 4.125, L2-61 0.779 / 0.861. (Packing at the store instead, two iterations after the load, lost: run 258.)
// TCONV_UNIT_STRIDE_X_PAIRS=0 (development only, read once per process) keeps the per-position loads.
bool unit_stride_x_pairs(const ConvTransposeParams& p, const UnitStridePlan& plan, const void* input) {
  static const bool enabled = development_switch("TCONV_UNIT_STRIDE_X_PAIRS", 1) != 0;
  if (!enabled || plan.elem_bytes != 2 || plan.tap_pairs || plan.line_rows % 2 != 0 || p.padding[2] % 2 != 0 ||
      p.in_size[2] % 2 != 0 || p.input_strides[4] != 1 || reinterpret_cast<uintptr_t>(input) % 4 != 0)
    return false;
  const int64_t sizes[4] = {p.batch, p.in_channels, p.in_size[0], p.in_size[1]};
  for (int i = 0; i < 4; ++i)
    if (p.input_strides[i] % 2 != 0 && sizes[i] != 1) return false;
  return true;
}
bool unit_stride_wide_rows() {
  static const bool wide = development_switch("TCONV_UNIT_STRIDE_WIDE_ROWS", 1) != 0;
  return wide;
}
// The wide-rows tile's fp32 calls without statistics on its warp-specialized form (produce_strip_stages). Run 537
// (H200, TF32, the other form / this one): L2-61's forward conv kernel 0.981 -> 0.884 ms (forward 1.269 -> 1.177,
// quick timing; predicted ~0.70: missed), fam06's forward 1.856 -> 1.702. 16-bit calls with x in position pairs
// (unit_stride_x_pairs) too since run 541 (H200, bf16, the other form / this one: L2-61's forward 0.755 -> 0.732 ms,
// fwd+bwd 2.562 -> 2.537; fam06's 1.168 -> 1.026, 3.915 -> 3.764); 16-bit x per position only under
// TCONV_UNIT_STRIDE_SPECIALIZED=2 (tested in run 537, never timed); =0 keeps every call on the other form
// (development, read once per process).
int unit_stride_specialized() {
  static const int specialized = development_switch("TCONV_UNIT_STRIDE_SPECIALIZED", 1);
  return specialized;
}
// The 64-channel weights-as-A tiles of 256 rows (fp32 calls past StripUnitStrideHalfTileRule's K, 16-bit ones at T 5
// or 7, and L2-61's grad_input: 128 -> 64 channels at K 3456) on the warp-specialized form too, for the data types
// unit_stride_specialized allows. Slower where timed (run 541, H200, TF32, off / on: L2-61's grad_input kernel 1.096 ->
// 1.208 ms, fam03's forward 1.841 -> 2.013; predicted ~1.0 and ~1.7), as feared when predicted: a stage's MMA work
// halves while the producer's x stays. TCONV_UNIT_STRIDE_SPECIALIZED_64 (development, read once per process): 0
// (default) off, 1 on.
bool unit_stride_specialized_64() {
  static const bool on = development_switch("TCONV_UNIT_STRIDE_SPECIALIZED_64", 0) != 0;
  return on;
}
// The warp-specialized form's persistent kernel (its template flag kPersistent): blocks take row tiles blockIdx.x,
// blockIdx.x + gridDim.x, ..., so that the producer fills the next tile's stages while the MMA warpgroups store, and
// the set-up and ring fill of every block's tiles after its first overlap the MMAs. Its first form stored from
// registers and was slower (run 541, H200, TF32, off / on: L2-61's conv 0.883 -> 1.067 ms, fam06's forward 1.710 ->
// 2.021; predicted 0.75-0.80 for L2-61): 32 bytes of 8 rows a channel a piece, which straddle two L2 sectors unless
// y's line aligns, so L2 took 22.1 M write sectors against the staged store's 10.7 M (ncu, runs 538 / 542) while
// the tensor pipe waited. Now (session 103, not yet run on a GPU) a tile of two or more stages is staged through the
// slots of its last two stages, which the MMA warps hold until the store is done (the producer fills the ring's
// other kStages - 2 meanwhile). Predicted: L2-61's conv ~0.80-0.84 ms against 0.883. TCONV_UNIT_STRIDE_PERSISTENT
// (development, read once per process): 0 (default) off; 1 one block an SM per C_out tile; v > 1: v blocks per
// C_out tile (the tests, to put many tiles on a block).
int unit_stride_persistent() {
  static const int persistent = development_switch("TCONV_UNIT_STRIDE_PERSISTENT", 0);
  return persistent;
}
// In 4-byte words whatever the data type.
int64_t unit_stride_packed_weight_elems(const ConvTransposeParams& p, DType dtype) {
  const UnitStridePlan plan = unit_stride_plan(p, dtype);
  // A stage's weight_floats, at the plan's channels per stage (the half tile's may differ)
  return plan.n_tiles * p.kernel[0] * p.kernel[1] * plan.channel_stages *
         (int64_t(plan.w_rows) * plan.channels * plan.k_taps * plan.elem_bytes / 4);
}
#if TCONV_IGEMM_PART == TCONV_IGEMM_PART_UNIT_STRIDE
// kChannelsLastAccess: the kernels' channels-last access (set_unit_stride_channels_last_access, fp32 only), as
// instantiations of their own: the runtime branches for it in the loads and the store cost the W-contiguous kernels
// 13-17 % (run 561, H100, L2-61 TF32: forward 0.973 -> 1.099 ms, grad_input 1.086 -> 1.267, the other kernels level
// with runs 554-556). The persistent kernels (TCONV_UNIT_STRIDE_PERSISTENT, development only) and the half tiles
// (launch_unit_stride_weights_as_a) other than the fp32 64-channel ones have none: they read and write
// channels-last tensors per channel.
template <typename scalar_t, int kBlockN, int kTaps, bool kTapPairs = false, bool kChannelsLastAccess = false>
cudaError_t launch_unit_stride_forward(const StripUnitStrideArgs<scalar_t>& a, const dim3& grid, cudaStream_t stream,
                                       bool x_pairs = false) {
  using Tile = StripUnitStrideForwardTile;
  constexpr int kElemBytes = int(sizeof(scalar_t));
  constexpr bool kCl = kChannelsLastAccess;
  if constexpr (kElemBytes == 2 && kBlockN == 32 && !kTapPairs) {
    return cudaErrorInvalidValue;  // unit_stride_plan: 16-bit data pairs the taps of 32-channel tiles
  } else if constexpr (kElemBytes == 4 && !kCl) {
    if ((a.x_channel_quads || a.y_channel_rows) && unit_stride_persistent() == 0)
      return launch_unit_stride_forward<scalar_t, kBlockN, kTaps, kTapPairs, true>(a, grid, stream, x_pairs);
  }
  if constexpr (!(kElemBytes == 2 && kBlockN == 32 && !kTapPairs)) {
    constexpr int kWRows = Tile::weight_rows(kBlockN, kTapPairs), kKTaps = Tile::k_taps(kTaps, kTapPairs);
    constexpr int kStages = Tile::stages(kWRows, kKTaps, kElemBytes);
    constexpr int kBytes = kStages * Tile::stage_floats(kWRows, kKTaps, kElemBytes) * int(sizeof(float));
    // x registers two stages ahead of their store (run_strip_pipeline): run 148 measured one stage ahead within -1.4 %
    // to +4 % of it on the 11 suite shapes (fam07 6.86 vs 7.14 ms, L2-61 1.377 vs 1.397, fam03 2.511 vs 2.477).
    // Two wgmma groups in flight (the slot refilled is the one read three iterations earlier): run 152 measured one
    // 1-2 % slower on the suite shapes that take this form (L1-68 7.05 vs 6.96 ms, fam06 2.50 vs 2.45, fam03 2.37 vs
    // 2.32).
    constexpr int kChannels = Tile::channels(kWRows, kKTaps, kElemBytes);
    auto kernel = tconv_igemm_strip_unit_stride_forward_kernel<scalar_t, kStages, 2, 2, kBlockN, kTaps, kChannels,
                                                               kTapPairs, kTapPairs, false, false, Tile, false, false,
                                                               kCl>;
    if constexpr ((kBlockN == 64 || kBlockN == 128) && !kTapPairs) {
      // Weights as A: the 64-channel tiles, and the 128-channel ones as wide rows; x pairs (unit_stride_x_pairs) on
      // either form. The statistics below take the wide rows' warp-specialized form.
      const bool weights_as_a = kBlockN == 64 ? !unit_stride_weights_as_a_disabled() : unit_stride_wide_rows();
      if (weights_as_a)
        kernel = tconv_igemm_strip_unit_stride_forward_kernel<scalar_t, kStages, 2, 2, kBlockN, kTaps, kChannels, true,
                                                              false, false, false, Tile, false, false, kCl>;
      if constexpr (kElemBytes == 2) {
        if (x_pairs)
          kernel = weights_as_a ? tconv_igemm_strip_unit_stride_forward_kernel<scalar_t, kStages, 2, 2, kBlockN, kTaps,
                                                                               kChannels, true, false, false, true>
                                : tconv_igemm_strip_unit_stride_forward_kernel<scalar_t, kStages, 2, 2, kBlockN, kTaps,
                                                                               kChannels, false, false, false, true>;
      }
    }
    int threads = Tile::kThreads;
    dim3 launch_grid = grid;
    // The warp-specialized form (unit_stride_specialized, unit_stride_specialized_64) of the weights-as-A tiles, and
    // its persistent kernel (unit_stride_persistent): one block an SM per C_out tile, or the switch's count.
    auto take_specialized = [&]() -> cudaError_t {
      if constexpr ((kBlockN == 64 || kBlockN == 128) && !kTapPairs) {
        const int persistent = unit_stride_persistent();
        auto specialized = [](auto pairs, auto persistent_kernel) {
          constexpr bool kPersistent = decltype(persistent_kernel)::value;
          return tconv_igemm_strip_unit_stride_forward_kernel<scalar_t, kStages, 2, 2, kBlockN, kTaps, kChannels, true,
                                                              false, false, decltype(pairs)::value, Tile, true,
                                                              kPersistent, kCl && !kPersistent>;
        };
        using Off = std::false_type;
        using On = std::true_type;
        kernel = persistent != 0 ? specialized(Off{}, On{}) : specialized(Off{}, Off{});
        if constexpr (kElemBytes == 2) {  // x pairs: 16-bit data only (unit_stride_x_pairs)
          if (x_pairs) kernel = persistent != 0 ? specialized(On{}, On{}) : specialized(On{}, Off{});
        }
        threads = Tile::kThreads + StripUnitStrideSpecialized::kProducerThreads;
        if (persistent == 0) return cudaSuccess;
        int64_t blocks = persistent;
        if (persistent == 1) {
          int device = 0;
          const cudaError_t err = cudaGetDevice(&device);
          if (err != cudaSuccess) return err;
          blocks = std::max<int64_t>(sm_count_of_device(device) / std::max<int64_t>(grid.y, 1), 1);
        }
        launch_grid.x = unsigned(std::min<int64_t>(blocks, unit_stride_row_tiles(a.rows, Tile::kBlockM)));
      }
      return cudaSuccess;
    };
    // 16-bit x per position stays on the other form unless the switch is 2: only x pairs were timed (run 541).
    const bool specialized_types = unit_stride_specialized() >= (kElemBytes == 2 && !x_pairs ? 2 : 1);
    if constexpr (kBlockN == 128) {  // unit_stride_group_stats_possible: the 128-channel wide-rows tiles only
      if (a.group_partials != nullptr) {
        // The warp-specialized form whatever unit_stride_specialized says (one instantiation less per type), x pairs
        // where they apply.
        auto with_stats = [](auto pairs) {
          return tconv_igemm_strip_unit_stride_forward_kernel<scalar_t, kStages, 2, 2, kBlockN, kTaps, kChannels, true,
                                                              false, true, decltype(pairs)::value, Tile, true, false,
                                                              kCl>;
        };
        kernel = with_stats(std::false_type{});
        if constexpr (kElemBytes == 2) {
          if (x_pairs) kernel = with_stats(std::true_type{});
        }
        threads = Tile::kThreads + StripUnitStrideSpecialized::kProducerThreads;
      } else if (unit_stride_wide_rows() && specialized_types) {
        if (const cudaError_t err = take_specialized(); err != cudaSuccess) return err;
      }
    } else if (a.group_partials != nullptr) {
      return cudaErrorInvalidValue;
    } else if (kBlockN == 64 && !kTapPairs && !unit_stride_weights_as_a_disabled() && specialized_types &&
               unit_stride_specialized_64()) {
      if (const cudaError_t err = take_specialized(); err != cudaSuccess) return err;
    }
    const cudaError_t err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kBytes);
    if (err != cudaSuccess) return err;
    kernel<<<launch_grid, threads, size_t(kBytes), stream>>>(a);
    return cudaGetLastError();
  }
}
// Weights-as-A tiles of a given Tile and no statistics: the half tile (UnitStridePlan::half_tile; 16-bit x per position
// or in pairs, or kTapPairs, the 32-channel tap-pairs tiles) and the 48-channel 16-bit stages
// (StripUnitStrideForwardHalfTile48, StripUnitStrideForwardTile48), with kInFlight wgmma groups in flight.
// kChannelsLastAccess: the fp32 64-channel half tiles' channels-last access (unit_stride_channels_last_half_tile).
template <typename scalar_t, int kBlockN, int kTaps, bool kXPairs = false, bool kTapPairs = false,
          typename Tile = StripUnitStrideForwardHalfTile, int kInFlight = 2, bool kChannelsLastAccess = false>
cudaError_t launch_unit_stride_weights_as_a(const StripUnitStrideArgs<scalar_t>& a, const dim3& grid,
                                            cudaStream_t stream) {
  constexpr int kElemBytes = int(sizeof(scalar_t));
  constexpr int kWRows = Tile::weight_rows(kBlockN, kTapPairs), kKTaps = Tile::k_taps(kTaps, kTapPairs);
  constexpr int kStages = Tile::stages(kWRows, kKTaps, kElemBytes);
  constexpr int kChannels = Tile::channels(kWRows, kKTaps, kElemBytes);
  constexpr int kBytes = kStages * Tile::stage_floats(kWRows, kKTaps, kElemBytes) * int(sizeof(float));
  static_assert(kStages >= kInFlight + 2 && kBytes <= Tile::kSharedBytes,
                "a stage to refill past the wgmma groups in flight, Tile::kBlocksPerSm blocks per SM");
  auto kernel = tconv_igemm_strip_unit_stride_forward_kernel<scalar_t, kStages, 2, kInFlight, kBlockN, kTaps, kChannels,
                                                             true, kTapPairs, false, kXPairs, Tile, false, false,
                                                             kChannelsLastAccess>;
  const cudaError_t err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kBytes);
  if (err != cudaSuccess) return err;
  kernel<<<grid, Tile::kThreads, size_t(kBytes), stream>>>(a);
  return cudaGetLastError();
}
template <typename scalar_t>  // dtype: scalar_t's
cudaError_t unit_stride_forward_typed(const ConvTransposeParams& p, DType dtype, const void* input, const void* weight,
                                      const void* bias, void* output, float* packed_weight,
                                      const ForwardGroupStats* stats, cudaStream_t stream) {
  const UnitStridePlan plan = unit_stride_plan(p, dtype);
  if (plan.rows == 0 || p.out_channels == 0) return cudaSuccess;
  if (reinterpret_cast<uintptr_t>(packed_weight) % 16 != 0) return cudaErrorMisalignedAddress;  // 16-byte copies
  const int64_t total = unit_stride_packed_weight_elems(p, dtype) * 4 / int64_t(sizeof(scalar_t));
  const cudaError_t packed_err = launch_pack(tconv_igemm_strip_unit_stride_pack_weight_kernel<scalar_t>, total, stream,
        static_cast<const scalar_t*>(weight), p.weight_strides[0], p.weight_strides[1], p.weight_strides[2],
        p.weight_strides[3], p.weight_strides[4], int(p.in_channels), int(p.out_channels), int(p.kernel[1]),
        plan.taps, plan.block_n, plan.channels, plan.channel_stages, p.kernel[0] * p.kernel[1] * plan.channel_stages,
        total, packed_weight, plan.tap_pairs);
  if (packed_err != cudaSuccess) return packed_err;
  StripUnitStrideArgs<scalar_t> a;
  set_strip_forward_operands(a, p, input, bias, output, packed_weight);
  a.rows = plan.rows;
  a.in_d = int(p.in_size[0]);
  a.in_h = int(p.in_size[1]);
  a.in_w = int(p.in_size[2]);
  a.out_d = int(p.out_size[0]);
  a.out_h = int(p.out_size[1]);
  a.out_w = int(p.out_size[2]);
  a.line_rows = plan.line_rows;
  a.c_in = int(p.in_channels);
  a.c_out = int(p.out_channels);
  a.kernel_d = int(p.kernel[0]);
  a.kernel_h = int(p.kernel[1]);
  a.pad_d = int(p.padding[0]);
  a.pad_h = int(p.padding[1]);
  a.pad_w = int(p.padding[2]);
  a.dil_d = int(p.dilation[0]);
  a.dil_h = int(p.dilation[1]);
  a.channel_stages = plan.channel_stages;
  a.fast_divisions = unit_stride_fast_divisions() ? 1 : 0;
  a.row_div = row_divisors(a.out_d, a.out_h, a.line_rows);
  a.by_dil_d = fast_divisor(uint32_t(a.dil_d));
  a.by_dil_h = fast_divisor(uint32_t(a.dil_h));
  set_unit_stride_store_plan(a, p, plan);
  set_unit_stride_channels_last_access(a, p);  // (after the store plan: y_channel_rows reads pair_stores)
  a.group_partials = nullptr;
  if (stats != nullptr) {
    if (!unit_stride_group_stats_possible(p, dtype, stats->groups) ||
        !unit_stride_group_stats_activation(stats->activation) ||
        stats->splits != group_stats_splits_of(p, dtype, stats->groups))
      return cudaErrorInvalidValue;
    a.group_partials = stats->partials;
    a.stat_groups = int(stats->groups);
    a.stat_channels_per_group = int(p.out_channels / stats->groups);
    a.stat_splits = int(stats->splits);
    a.stat_tiles_per_group = a.stat_channels_per_group > plan.block_n ? a.stat_channels_per_group / plan.block_n : 1;
    a.stat_plane = p.batch * stats->groups * stats->splits;
    a.stat_rows_per_sample = p.out_size[0] * p.out_size[1] * plan.line_rows;
    a.stat_act = {static_cast<Activation>(stats->activation), stats->act_arg0, stats->act_arg1};
  }
  const dim3 grid(unsigned(plan.row_tiles), unsigned(plan.n_tiles), 1);
  const bool x_pairs = unit_stride_x_pairs(p, plan, input);
  if (plan.half_tile) {
    if (a.group_partials != nullptr) return cudaErrorInvalidValue;  // unit_stride_group_stats_possible refuses it
    if constexpr (!std::is_same_v<scalar_t, float>) {
      using Tile48 = StripUnitStrideForwardHalfTile48;
      if (plan.stage_48 && plan.tap_pairs)
        return launch_unit_stride_weights_as_a<scalar_t, 32, 3, false, true, Tile48>(a, grid, stream);
      if (plan.stage_48)  // 64 channels: three stages fit, so one wgmma group in flight
        return x_pairs ? launch_unit_stride_weights_as_a<scalar_t, 64, 3, true, false, Tile48, 1>(a, grid, stream)
                       : launch_unit_stride_weights_as_a<scalar_t, 64, 3, false, false, Tile48, 1>(a, grid, stream);
    }
    if (plan.stage_48) return cudaErrorInvalidValue;  // unit_stride_plan: 16-bit data only
    if (plan.tap_pairs) {
      switch (plan.taps) {
        case 3: return launch_unit_stride_weights_as_a<scalar_t, 32, 3, false, true>(a, grid, stream);
        case 5: return launch_unit_stride_weights_as_a<scalar_t, 32, 5, false, true>(a, grid, stream);
        case 7: return launch_unit_stride_weights_as_a<scalar_t, 32, 7, false, true>(a, grid, stream);
        default: return cudaErrorInvalidValue;
      }
    }
    if constexpr (std::is_same_v<scalar_t, float>) {
      // channels-last tensors (unit_stride_channels_last_half_tile) on the channels-last access, as the 256-row tiles
      const bool channels_last = a.x_channel_quads || a.y_channel_rows;
      auto half_tile = [&](auto taps) {
        constexpr int kT = decltype(taps)::value;
        return channels_last ? launch_unit_stride_weights_as_a<float, 64, kT, false, false,
                                                               StripUnitStrideForwardHalfTile, 2, true>(a, grid, stream)
                             : launch_unit_stride_weights_as_a<float, 64, kT>(a, grid, stream);
      };
      switch (plan.block_n * 8 + plan.taps) {
        case 64 * 8 + 3: return half_tile(std::integral_constant<int, 3>{});
        case 64 * 8 + 5: return half_tile(std::integral_constant<int, 5>{});
        case 64 * 8 + 7: return half_tile(std::integral_constant<int, 7>{});
        default: return cudaErrorInvalidValue;  // unit_stride_plan plans no other half tile
      }
    } else {
      if (plan.block_n != 64 || plan.taps != 3) return cudaErrorInvalidValue;
      return x_pairs ? launch_unit_stride_weights_as_a<scalar_t, 64, 3, true>(a, grid, stream)
                     : launch_unit_stride_weights_as_a<scalar_t, 64, 3>(a, grid, stream);
    }
  }
  if constexpr (!std::is_same_v<scalar_t, float>) {
    if (plan.stage_48 && a.group_partials == nullptr)  // unit_stride_plan: 64 channels at T 3, weights as A
      return x_pairs ? launch_unit_stride_weights_as_a<scalar_t, 64, 3, true, false, StripUnitStrideForwardTile48>(
                           a, grid, stream)
                     : launch_unit_stride_weights_as_a<scalar_t, 64, 3, false, false, StripUnitStrideForwardTile48>(
                           a, grid, stream);
  }
  if (plan.stage_48) return cudaErrorInvalidValue;
  if (plan.tap_pairs) {
    switch (plan.taps) {
      case 3: return launch_unit_stride_forward<scalar_t, 32, 3, true>(a, grid, stream);
      case 5: return launch_unit_stride_forward<scalar_t, 32, 5, true>(a, grid, stream);
      case 7: return launch_unit_stride_forward<scalar_t, 32, 7, true>(a, grid, stream);
      default: return cudaErrorInvalidValue;
    }
  }
  switch (plan.block_n * 8 + plan.taps) {  // unit_stride_forward_possible: T in {3, 5, 7}
    case 32 * 8 + 3: return launch_unit_stride_forward<scalar_t, 32, 3>(a, grid, stream, x_pairs);
    case 32 * 8 + 5: return launch_unit_stride_forward<scalar_t, 32, 5>(a, grid, stream, x_pairs);
    case 32 * 8 + 7: return launch_unit_stride_forward<scalar_t, 32, 7>(a, grid, stream, x_pairs);
    case 64 * 8 + 3: return launch_unit_stride_forward<scalar_t, 64, 3>(a, grid, stream, x_pairs);
    case 64 * 8 + 5: return launch_unit_stride_forward<scalar_t, 64, 5>(a, grid, stream, x_pairs);
    case 64 * 8 + 7: return launch_unit_stride_forward<scalar_t, 64, 7>(a, grid, stream, x_pairs);
    case 128 * 8 + 3: return launch_unit_stride_forward<scalar_t, 128, 3>(a, grid, stream, x_pairs);
    case 128 * 8 + 5: return launch_unit_stride_forward<scalar_t, 128, 5>(a, grid, stream, x_pairs);
    case 128 * 8 + 7: return launch_unit_stride_forward<scalar_t, 128, 7>(a, grid, stream, x_pairs);
    default: return cudaErrorInvalidValue;
  }
}
#endif  // TCONV_IGEMM_PART_UNIT_STRIDE (the instantiations)
// The data type picks the instantiation (unit_stride_forward_possible admits fp32, fp16 and bf16); they compile in
// the unit-stride part's units, one per type (TCONV_IGEMM_TYPES).
cudaError_t unit_stride_forward(const ConvTransposeParams& p, DType dtype, const void* input, const void* weight,
                                const void* bias, void* output, float* packed_weight, cudaStream_t stream,
                                const ForwardGroupStats* stats = nullptr) {
#if TCONV_IGEMM_PART == TCONV_IGEMM_PART_UNIT_STRIDE
  if (dtype != kIgemmUnitDType) return cudaErrorInvalidValue;
  return unit_stride_forward_typed<IgemmUnitScalar>(p, dtype, input, weight, bias, output, packed_weight, stats,
                                                    stream);
#else
  return unit_stride_forward_instantiated(p, dtype, input, weight, bias, output, packed_weight, stream, stats);
#endif
}
}  // namespace

#if TCONV_IGEMM_PART == TCONV_IGEMM_PART_UNIT_STRIDE
#if TCONV_IGEMM_TYPES == TCONV_IGEMM_TYPES_FLOAT
TCONV_IGEMM_DECLARE_16BIT(cudaError_t, unit_stride_forward_instantiated,
                          (const ConvTransposeParams& p, DType dtype, const void* input, const void* weight,
                           const void* bias, void* output, float* packed_weight, cudaStream_t stream,
                           const ForwardGroupStats* stats))
#endif
cudaError_t TCONV_IGEMM_TYPED(unit_stride_forward_instantiated)(const ConvTransposeParams& p, DType dtype,
                                                                const void* input, const void* weight,
                                                                const void* bias, void* output, float* packed_weight,
                                                                cudaStream_t stream, const ForwardGroupStats* stats) {
  TCONV_IGEMM_ROUTE_16BIT(dtype, unit_stride_forward_instantiated, p, dtype, input, weight, bias, output,
                          packed_weight, stream, stats);
  return unit_stride_forward(p, dtype, input, weight, bias, output, packed_weight, stream, stats);
}
#else

bool unit_stride_group_stats_possible(const ConvTransposeParams& p, DType dtype, int64_t groups) {
  using Tile = StripUnitStrideForwardTile;
  if (!takes_unit_stride_form(p) || groups < 1 || p.out_channels % groups != 0) return false;
  const UnitStridePlan plan = unit_stride_plan(p, dtype);
  if (plan.half_tile) return false;  // the statistics' instantiation is the 256-row tile's
  const int64_t cpg = p.out_channels / groups;
  // The 128-channel wide-rows tiles (staged_group_stats), groups of whole 8-channel runs inside a tile or of
  // whole tiles.
  if (plan.block_n != 128 || !unit_stride_wide_rows() || cpg % 8 != 0 ||
      (plan.block_n % cpg != 0 && cpg % plan.block_n != 0))
    return false;
  // A block's rows span at most two samples (the kernel's static_assert places its staged tile and row masks).
  const int64_t rows_per_sample = p.out_size[0] * p.out_size[1] * plan.line_rows;
  if (rows_per_sample < Tile::kBlockM) return false;
  const int64_t splits = group_stats_splits_of(p, dtype, groups);
  return p.batch * groups * splits * 3 < (int64_t(1) << 31) && splits < (int64_t(1) << 30);
}

bool unit_stride_group_stats_activation(int activation) { return activation >= 0 && activation < kActivationCount; }

int64_t unit_stride_group_stats_splits(const ConvTransposeParams& p, DType dtype, int64_t groups) {
  return group_stats_splits_of(p, dtype, groups);
}

int64_t unit_stride_group_stats_partials(const ConvTransposeParams& p, DType dtype, int64_t groups) {
  return 3 * p.batch * groups * group_stats_splits_of(p, dtype, groups);
}

bool strip_forward_possible(const ConvTransposeParams& p, DType dtype, bool split_tf32) {
  return strip_lines_forward_possible(p, dtype, split_tf32) || unit_stride_forward_possible(p, dtype, split_tf32);
}

// TCONV_UNIT_STRIDE_MIN_K_FP32 (development only, read once per process): the least K at which "auto" takes the
// unit-stride form for fp32 data, instead of StripAutoRule's, for A/B timings of the bound in one build.
namespace {
int unit_stride_forward_min_k(int elem_bytes) {
  static const int fp32_override = development_switch("TCONV_UNIT_STRIDE_MIN_K_FP32", 0);
  return elem_bytes == 4 && fp32_override > 0 ? fp32_override : StripAutoRule::unit_stride_forward_min_k(elem_bytes);
}
// TCONV_UNIT_STRIDE_CHANNELS_LAST (development only, read once per process): unset or 1 lets "auto" take the
// unit-stride form for fp32 data (TF32) whose input or output is not W-contiguous (channels_last), where its K and
// grid bounds hold; 0, W-contiguous tensors only, the layout its rule was first measured on (runs 147-150). Why: TF32
// channels_last fell to the cp.async mma.sync gathers there (run 558, H100, L2-61 TF32 channels_last: forward 3.318,
// grad_input 4.325 ms against the unit-stride kernel's 0.973 / 1.086 on contiguous tensors; fwd+bwd 0.79x eager).
// Measured (run 560, H100, with the kernel's channels-last access, forward / fwd+bwd ms): L2-61 3.766 / 10.853 -> 1.432
// / 5.775, fam03 6.268 / 15.476 -> 2.552 / 8.351. 16-bit data stay out: their channels-last calls read in place
// through the TMA window (run 457-458), and grad_input asks the unit-stride form before the window.
bool unit_stride_channels_last(int elem_bytes) {
  static const bool enabled = development_switch("TCONV_UNIT_STRIDE_CHANNELS_LAST", 1) != 0;
  return enabled && elem_bytes == 4;
}
}  // namespace

bool strip_forward_preferred(const ConvTransposeParams& p, DType dtype, int sm_count) {
  if (takes_unit_stride_form(p)) {  // measured on W-contiguous tensors (runs 147-150); unit_stride_channels_last
    const UnitStridePlan plan = unit_stride_plan(p, dtype);
    return ((p.input_strides[4] == 1 && p.output_strides[4] == 1) || unit_stride_channels_last(plan.elem_bytes)) &&
           p.kernel_volume() * plan.channel_stages * plan.channels >= unit_stride_forward_min_k(plan.elem_bytes) &&
           plan.row_tiles * plan.n_tiles >= StripAutoRule::forward_min_blocks(sm_count);
  }
  if (p.stride[2] % 8 != 0) return false;
  const StripForwardPlan plan = strip_forward_plan(p, dtype);
  const int64_t blocks = plan.m_tiles * plan.row_tiles * p.batch * p.in_size[0] * p.in_size[1];
  return blocks >= StripAutoRule::forward_min_blocks(sm_count);
}

int64_t strip_forward_packed_weight_elems(const ConvTransposeParams& p, DType dtype) {
  if (takes_unit_stride_form(p)) return unit_stride_packed_weight_elems(p, dtype);
  const StripForwardPlan plan = strip_forward_plan(p, dtype);
  return int64_t(plan.m_tiles) * plan.stages * StripGradInputTile::kStageAFloats;
}

namespace {
template <typename scalar_t>
cudaError_t strip_lines_forward_typed(const ConvTransposeParams& p, DType dtype, const void* input, const void* weight,
                                      const void* bias, void* output, float* packed_weight, cudaStream_t stream) {
  const StripForwardPlan plan = strip_forward_plan(p, dtype);
  const int64_t lines = p.batch * p.in_size[0] * p.in_size[1];
  const int64_t s = p.stride[2];
  if (lines == 0 || p.out_size[2] == 0 || p.out_channels == 0) return cudaSuccess;
  if (reinterpret_cast<uintptr_t>(packed_weight) % 16 != 0) return cudaErrorMisalignedAddress;  // 16-byte copies
  const int64_t total = strip_forward_packed_weight_elems(p, dtype) * 4 / int64_t(sizeof(scalar_t));
  const cudaError_t packed_err = launch_pack(tconv_igemm_strip_forward_pack_weight_kernel<scalar_t>, total, stream,
        static_cast<const scalar_t*>(weight), p.weight_strides[0], p.weight_strides[1], p.weight_strides[4],
        int(p.in_channels), int(p.out_channels), int(s), plan.channels_per_stage, plan.stages, total,
        static_cast<void*>(packed_weight));
  if (packed_err != cudaSuccess) return packed_err;
  StripForwardArgs<scalar_t> a;
  set_strip_forward_operands(a, p, input, bias, output, packed_weight);
  set_strip_line_shape(a, p);
  a.stride_w = int(s);
  a.stages = plan.stages;
  a.m_rows = int(p.out_channels * s);
  a.first_row = plan.first_row;
  const dim3 grid(unsigned(plan.m_tiles), unsigned(plan.row_tiles), unsigned(lines));
  switch (plan.taps) {  // strip_forward_possible: T in {1, 2, 4}
    case 1: return launch_strip_forward<scalar_t, 1>(a, grid, stream);
    case 2: return launch_strip_forward<scalar_t, 2>(a, grid, stream);
    case 4: return launch_strip_forward<scalar_t, 4>(a, grid, stream);
    default: return cudaErrorInvalidValue;
  }
}
}  // namespace

cudaError_t strip_forward(const ConvTransposeParams& p, DType dtype, const void* input, const void* weight,
                          const void* bias, void* output, float* packed_weight, cudaStream_t stream,
                          const ForwardGroupStats* stats) {
  if (takes_unit_stride_form(p))
    return unit_stride_forward(p, dtype, input, weight, bias, output, packed_weight, stream, stats);
  if (stats != nullptr) return cudaErrorInvalidValue;  // unit_stride_group_stats_possible
  return TCONV_FLOAT_DTYPE_SWITCH(dtype, scalar_t, [&] {
    return strip_lines_forward_typed<scalar_t>(p, dtype, input, weight, bias, output, packed_weight, stream);
  });
}

// grad_input at unit stride is the unit-stride forward of grad_output (conv_params.h:
// unit_stride_grad_input_as_forward); the packing reads the flipped weights through negative strides, so no kernel
// changes.

bool unit_stride_grad_input_possible(const ConvTransposeParams& p, DType dtype, bool split_tf32) {
  if (p.groups != 1) return false;
  const ConvTransposeParams q = unit_stride_grad_input_as_forward(p);
  for (int i = 0; i < 3; ++i)  // output_padding 0: the equivalent forward's output is exactly grad_input
    if (q.padding[i] < 0 || q.out_size[i] != q.in_size[i] + q.dilation[i] * (q.kernel[i] - 1) - 2 * q.padding[i])
      return false;
  return unit_stride_forward_possible(q, dtype, split_tf32);
}

bool unit_stride_grad_input_preferred(const ConvTransposeParams& p, DType dtype, int sm_count) {
  return strip_forward_preferred(unit_stride_grad_input_as_forward(p), dtype, sm_count);
}

int64_t unit_stride_grad_input_packed_elems(const ConvTransposeParams& p, DType dtype) {
  return unit_stride_packed_weight_elems(unit_stride_grad_input_as_forward(p), dtype);
}

cudaError_t unit_stride_grad_input(const ConvTransposeParams& p, DType dtype, const void* grad_output,
                                   const void* weight, void* grad_input, float* packed_weight, cudaStream_t stream) {
  const void* flipped =
      static_cast<const char*>(weight) + unit_stride_flipped_weight_offset(p) * element_bytes(dtype);
  return unit_stride_forward(unit_stride_grad_input_as_forward(p), dtype, grad_output, flipped, nullptr, grad_input,
                             packed_weight, stream);
}

#endif  // TCONV_IGEMM_PART_UNIT_STRIDE / the strip part's entry points
#endif  // TCONV_IGEMM_PART_STRIP or TCONV_IGEMM_PART_UNIT_STRIDE

#if TCONV_IGEMM_PART == TCONV_IGEMM_PART_GRAD_WEIGHT

namespace {
struct WeightGradPlan {
  int warps_m, max_taps, w_groups, w_chunks;
  bool many_taps;      // the many-tap mma.sync tile (WeightGemmManyTapTile): C_in tiles of 32 whose W groups it merges
  int rows_per_pass;   // channel rows between one thread's copies (the W fold must divide it)
  int largest_group;   // taps in the call's largest W tap group
  int taps_per_block;  // the mma.sync kernel's kMaxTaps: largest_group (4 at most), many-tap: 4 or 6
  int wgmma_m_blocks;  // the wgmma kernel's m64 blocks per k8 step (grad_weight_wgmma_m_blocks)
  int wgmma_block_n;   // and its C_in tile (grad_weight_wgmma_block_n)
  int row_groups;      // > 1: the rows kernel (WeightWgmmaRowsTile), kH rows per block
  bool shifted_x;      // the shifted-x kernel (WeightShiftedXTile; w_chunks and units over grad_output chunks)
  int shifted_x_unit;  // and its grad_output positions per unit (kUnitK: 16 or 32)
  bool shifted_x_lean;  // and its lean form (shifted_x_lean_slots), with shifted_x_slots row slots per warpgroup
  int shifted_x_slots;
  bool shifted_x_narrow;  // or its narrow form (32-channel grad_output rows: shifted_x_narrow_rows)
  bool shifted_x_channel_tiles;  // or its channel-tile form (one row, kRows C_out tiles: shifted_x_channel_tiles)
  bool shifted_x_ring;           // or the measured kernel's rows in a ring of their own (shifted_x_row_ring)
  bool shifted_x_ring_overlap;   // the ring's wgmmas in flight into the next unit's waits (shifted_x_ring_overlap)
  bool shifted_x_channels_last;  // that ring over channels-last data (shifted_x_channels_last_taken)
  bool rows_channels_last;       // the rows kernel over channels-last data (rows_channels_last_taken)
  int64_t tiles, units, chunk, splits;
  int64_t max_splits;  // the caps on splits (>= 16 stages each, the workspace, the grid's y limit)
  bool ordered;        // ordered split-K: the splits add into buffers in turn (WeightGradArgs::split_turns)
  int64_t turn_buffers;  // and how many (grad_weight_turn_buffers: at most the splits)
  int64_t plain_splits;  // ordered plans: the splits the workspace cap allows without ordering
};

// The W tap groups of a call under a tile's limits: their number and the largest group's taps.
struct WTapGrouping {
  int groups, largest;
};
WTapGrouping w_tap_grouping(const ConvTransposeParams& p, int max_taps, int max_shift) {
  WTapGrouping g{weight_w_tap_groups(int(p.kernel[2]), int(p.stride[2]), int(p.dilation[2]), max_taps, max_shift, -1,
                                     nullptr),
                 1};
  for (int i = 0; i < g.groups; ++i) {
    WTapGroup group{0, 1, 1, 0};
    weight_w_tap_groups(int(p.kernel[2]), int(p.stride[2]), int(p.dilation[2]), max_taps, max_shift, i, &group);
    g.largest = std::max(g.largest, group.count);
  }
  return g;
}

// TCONV_GRAD_WEIGHT_PACKED_TAPS=0 (development only, read once per process) gives every tap of the wgmma
// grad_weight its own m64 block, for A/B timings of the packed form in one build. Run 169 also timed the fp32
// two-block packed kernels held to 4 blocks per SM: 128 registers with 48 bytes of spills, fam07 TF32 fwd+bwd 23.65
// ms against 22.26 at 3 blocks (156 registers), so they take no minimum (WeightWgmmaTile::min_blocks_per_sm).
bool grad_weight_packed_taps_allowed() {
  static const bool allowed = development_switch("TCONV_GRAD_WEIGHT_PACKED_TAPS", 1) != 0;
  return allowed;
}
// TCONV_GRAD_WEIGHT_NARROW_N=0 (development only, read once per process) keeps the 64-wide C_in tile for 33-48
// input channels per group, for A/B timings of the 48-wide one in one build.
bool grad_weight_narrow_n_allowed() {
  static const bool allowed = development_switch("TCONV_GRAD_WEIGHT_NARROW_N", 1) != 0;
  return allowed;
}
// The wgmma grad_weight's C_in tile (its N): 48 where a group's 33-48 input channels make one tile either way.
int grad_weight_wgmma_block_n(int64_t cin_g) {
  return grad_weight_narrow_n_allowed() && cin_g > 32 && cin_g <= 48 ? 48 : 64;
}
// The wgmma grad_weight kernel's m64 blocks per k8 step: one per tap of the largest W group, or, where a group's
// C_out channels times those taps fit in fewer blocks (one C_out tile below 64 channels), that many with the taps'
// channels stacked (tconv_igemm_grad_weight_wgmma_kernel). Run 169 (H200, same build, fwd+bwd TF32): fam07 (3 x 24
// rows in two blocks) 24.56 -> 22.26 ms, bf16 26.39 -> 24.18.
int grad_weight_wgmma_m_blocks(int64_t cout_g, int largest_group) {
  const int64_t block_m = WeightWgmmaTile<2>::kBlockM;
  const int64_t packed = (cout_g * largest_group + block_m - 1) / block_m;
  return grad_weight_packed_taps_allowed() && cout_g < block_m && packed < largest_group ? int(packed)
                                                                                          : largest_group;
}

void set_grad_weight_splits(WeightGradPlan& plan, int64_t splits) {
  plan.chunk = std::max<int64_t>(1, (plan.units + splits - 1) / std::max<int64_t>(splits, 1));
  plan.splits = std::max<int64_t>(1, (plan.units + plan.chunk - 1) / plan.chunk);
}
// An ordered plan's buffers: those its splits reach (the balancing may leave fewer splits than planned buffers).
int64_t grad_weight_turn_buffers(const WeightGradPlan& plan) {
  return std::max<int64_t>(1, std::min(plan.turn_buffers, plan.splits));
}

// TCONV_GRAD_WEIGHT_TURN_BUFFERS (development only, read once per process): unset or 1, the rule
// (grad_weight_turn_buffer_rule); 0, one buffer (ordered only below kGradWeightMaxOrderedSplits capped splits, as
// before session 71); 2, as many buffers as the workspace cap holds wherever the cap leaves fewer splits than the GPU
// needs (session 70's form, for A/B timings and the mechanism's test).
int grad_weight_turn_buffers_mode() {
  static const int mode = development_switch("TCONV_GRAD_WEIGHT_TURN_BUFFERS", 1);
  return mode == 0 || mode == 2 ? mode : 1;
}
// Ordered split-K in several buffers (split s adds into buffer s % buffers after split s - buffers, up to
// kGradWeightMaxOrderedSplits splits per buffer) only where the capped plain plan leaves SMs without a block
// (tiles x capped splits < SMs): there more splits pay for their waits; elsewhere the plain splits already fill the
// GPU and the waits cost. Run 415 (H200, one build, switch 0 / session 70's form, fwd+bwd ms): fam02 bf16 (10 tiles
// x 10 capped splits) 2.226 -> 1.996 (1.786 with two packed row slots, shifted_x_lean_slots); but VAE 1.189 -> 1.335
// (bf16) and 1.576 -> 1.697 (TF32), HiFi-GAN 7.666 -> 7.714, whose plain splits fill the GPU. Run 416 (rule / 0):
// fam02 bf16 1.798 / 2.247 ms (6 packed tiles x 10: 44 splits in 10 buffers), TF32 2.113 / 2.116; the up-convs'
// plans unchanged (VAE 8 tiles x 51-102 capped splits).
bool grad_weight_turn_buffer_rule(int64_t tiles, int64_t workspace_splits, int sm_count) {
  const int mode = grad_weight_turn_buffers_mode();
  return mode == 2 || (mode == 1 && tiles * workspace_splits < int64_t(sm_count));
}
// TCONV_GRAD_WEIGHT_ORDERED=0 (development only, read once per process) keeps the workspace-capped plain
// split-K where plan_grad_weight would order the splits: for A/B timings of the two in one build.
bool grad_weight_ordered_allowed() {
  static const bool allowed = development_switch("TCONV_GRAD_WEIGHT_ORDERED", 1) != 0;
  return allowed;
}

// Split-K needs a weight-sized fp32 buffer per split, and the memory rule (workspace within 10 % of the reduced
// tensor, never below one split) can leave a call far fewer splits than the GPU needs: DCGAN's k4 s2 up-conv
// (C 512 -> 256, 16 x 16 input, batch 64) got one split, 256 blocks for 396 resident slots (run 89), 12 % achieved
// occupancy (run 86). There the splits add into one buffer in a fixed order instead (ordered split-K:
// weight_sums_destination), so any number of splits costs one buffer. Each split of a tile waits for the one
// before it, so the chain of a tile's epilogues grows with the splits; they stop at kGradWeightMaxOrderedSplits,
// and choose_grad_weight_ordering keeps the plain plan where ordering would not pay. Measured (runs 94-95, H200,
// one build, TCONV_GRAD_WEIGHT_ORDERED=1 / 0 in alternating processes): DCGAN fwd+bwd TF32 2.156 -> 2.01-2.02 ms
// (3 splits), bf16 1.716 -> 1.623; the model predicted 1024 -> 684 waves x stages, i.e. up to 1.5x on
// grad_weight (~1.08 ms): the third block per SM gains less than a whole block's throughput.
void plan_grad_weight_splits(WeightGradPlan& plan, const ConvTransposeParams& p, int sm_count,
                             int64_t max_workspace_elems);
// The tiles and units of the mma.sync / wgmma / rows kernels, before the splits of K. row_groups > 1 plans the rows
// kernel's blocks (grad_weight_takes_rows): 128-wide C_in tiles, kH rows per block.
WeightGradPlan plan_grad_weight_tiles(const ConvTransposeParams& p, DType dtype, bool split_tf32, int row_groups) {
  using Tile = WeightGemmTile<1, false>;
  split_tf32 = uses_split_tf32(dtype, split_tf32);
  WeightGradPlan plan{};
  plan.warps_m = p.in_per_group() <= 32 ? 1 : 2;
  const int max_taps = split_tf32 ? WeightGemmTile<1, true>::kMaxTaps : Tile::kMaxTaps;
  const int many_max_taps = WeightGemmManyTapTile::kMaxTaps;
  const WTapGrouping base = w_tap_grouping(p, max_taps, Tile::kMaxStripShift);
  // The many-tap tile only where it merges W groups (kernel width 5 at stride 1, ...: igemm_config.h):
  // elsewhere its blocks would run the same groups with twice the warps for the same work.
  const bool many_allowed = plan.warps_m == 1 && !split_tf32;
  const WTapGrouping many = many_allowed ? w_tap_grouping(p, many_max_taps, WeightGemmManyTapTile::kMaxStripShift) : base;
  plan.many_taps = many_allowed && many.groups < base.groups;
  const WTapGrouping& grouping = plan.many_taps ? many : base;
  plan.max_taps = plan.many_taps ? many_max_taps : max_taps;
  plan.w_groups = grouping.groups;
  plan.largest_group = grouping.largest;
  const int largest = grouping.largest;
  plan.taps_per_block = plan.many_taps ? (largest <= 4 ? 4 : 6) : std::min(largest, 4);
  plan.wgmma_m_blocks = grad_weight_wgmma_m_blocks(p.out_per_group(), std::min(largest, 4));
  plan.wgmma_block_n = grad_weight_wgmma_block_n(p.in_per_group());
  plan.rows_per_pass = plan.many_taps ? WeightGemmManyTapTile::kRowsPerPass
                                      : (plan.warps_m == 1 ? WeightGemmTile<1, false>::kRowsPerPass
                                                           : WeightGemmTile<2, false>::kRowsPerPass);
  plan.row_groups = row_groups;
  const int64_t bm = row_groups > 1 ? WeightWgmmaRowsTile<2>::kBlockN : 32 * plan.warps_m, bn = Tile::kBlockN,
                bk = Tile::kBlockK;
  const int64_t kh_tiles = (p.kernel[1] + row_groups - 1) / row_groups;
  plan.tiles = p.kernel[0] * kh_tiles * plan.w_groups * p.groups * ((p.in_per_group() + bm - 1) / bm) *
               ((p.out_per_group() + bn - 1) / bn);
  plan.w_chunks = int((p.in_size[2] + bk - 1) / bk);
  plan.units = p.batch * p.in_size[0] * p.in_size[1] * plan.w_chunks;
  return plan;
}
WeightGradPlan plan_grad_weight(const ConvTransposeParams& p, DType dtype, bool split_tf32, int sm_count,
                                int64_t max_workspace_elems, int row_groups = 1) {
  WeightGradPlan plan = plan_grad_weight_tiles(p, dtype, split_tf32, row_groups);
  plan_grad_weight_splits(plan, p, sm_count, max_workspace_elems);
  return plan;
}
// The splits of K for plan.tiles and plan.units: enough blocks to fill the GPU (WeightGemmTile's target; the
// occupancy balancing refines it per kernel), within the workspace cap, ordered where the cap leaves too few.
void plan_grad_weight_splits(WeightGradPlan& plan, const ConvTransposeParams& p, int sm_count,
                             int64_t max_workspace_elems) {
  using Tile = WeightGemmTile<1, false>;
  const int64_t weight_numel = p.in_channels * p.out_per_group() * p.kernel_volume();
  const int64_t target_blocks = int64_t(std::max(sm_count, 1)) * Tile::kBlocksPerSmTarget;
  int64_t splits = std::max<int64_t>(1, (target_blocks + plan.tiles - 1) / std::max<int64_t>(plan.tiles, 1));
  plan.max_splits = std::min<int64_t>(std::max<int64_t>(1, plan.units / 16), 65535);  // >= 16 stages per split
  const int64_t workspace_splits = std::max<int64_t>(1, max_workspace_elems / std::max<int64_t>(weight_numel, 1));
  const int64_t wanted = std::min(splits, plan.max_splits);
  // Each buffer comes with a split counter per tile (ints in the fp32 workspace; one buffer may exceed the cap by
  // those, as the cap's floor of one buffer allows)
  plan.turn_buffers = grad_weight_turn_buffer_rule(plan.tiles, workspace_splits, sm_count)
                          ? std::max<int64_t>(1, std::min(workspace_splits, (max_workspace_elems - 1) /
                                                                                (weight_numel + plan.tiles)))
                          : 1;
  const int64_t ordered_splits = plan.turn_buffers * kGradWeightMaxOrderedSplits;
  plan.ordered = workspace_splits < std::min(wanted, ordered_splits) && grad_weight_ordered_allowed();
  plan.plain_splits = std::min(wanted, workspace_splits);
  plan.max_splits = std::min<int64_t>(plan.max_splits, plan.ordered ? ordered_splits : workspace_splits);
  set_grad_weight_splits(plan, std::min(splits, plan.max_splits));
}
// TCONV_GRAD_WEIGHT_SHIFTED_X_UNIT (development only, read once per process): 16 or 32 forces the shifted-x kernel's
// grad_output positions per unit, for A/B timings in one build; anything else leaves it to shifted_x_unit.
// 48 forces it for 16-bit data only (fp32 has no such tile: the rule below picks its unit).
int shifted_x_unit_switch() {
  static const int unit = development_switch("TCONV_GRAD_WEIGHT_SHIFTED_X_UNIT", 0);
  return unit;
}
bool shifted_x_dy_copied(const ConvTransposeParams& p, DType dtype);
// The shifted-x kernel's grad_output positions per unit (the rules and their measurements: kShiftedXUnit32MaxPadding,
// kShiftedXUnit48MaxPadding).
int shifted_x_unit(const ConvTransposeParams& p, DType dtype) {
  const int forced = shifted_x_unit_switch();
  if (forced == 16 || forced == 32) return forced;
  const int64_t w = p.out_size[2], at16 = (w + 15) / 16 * 16, at32 = (w + 31) / 32 * 32, at48 = (w + 47) / 48 * 48;
  if (element_bytes(dtype) == 2)
    return forced == 48 || (double(at48) <= kShiftedXUnit48MaxPadding * double(at32) && !shifted_x_dy_copied(p, dtype))
               ? 48
               : 32;
  return double(at32) <= kShiftedXUnit32MaxPadding * double(at16) ? 32 : 16;
}
// The lean kernel's grad_output row slots per consumer warpgroup (WeightShiftedXShape::kMaxDySlots), up to
// `max_slots`: 64 / slots channels per slot must hold the group's C_out; among the counts that do, the fewest row
// tiles (kRows x slots flattened (kd, kh) rows each), then the fewest slots. Copied grad_output rows keep one.
int shifted_x_slots(const ConvTransposeParams& p, DType dtype, int max_slots) {
  if (shifted_x_dy_copied(p, dtype)) return 1;
  using T = WeightShiftedXShape;
  const int64_t rows = p.kernel[0] * p.kernel[1];
  int best = 1;
  for (int slots = 2; slots <= std::min(max_slots, T::kMaxDySlots); slots *= 2) {
    const int64_t tiles = (rows + T::kRows * slots - 1) / (T::kRows * slots);
    if (p.out_per_group() <= T::kBlockM / slots && tiles < (rows + T::kRows * best - 1) / (T::kRows * best))
      best = slots;
  }
  return best;
}
// TCONV_GRAD_WEIGHT_SHIFTED_X_LEAN (development only, read once per process): 1, 2 or 4 run the shifted-x kernel's
// lean form (tconv_igemm_grad_weight_wgmma_shifted_x_lean_kernel, W tap groups of 3-5 taps) with at most that many
// grad_output row slots per consumer warpgroup, 0 the measured kernel everywhere; unset (or any other value), the
// rule: TF32 data pack up to kShiftedXLeanSlotsTf32 slots where that leaves fewer row tiles, 16-bit data
// kShiftedXLeanSlots16 where the splits then fill the GPU in turn buffers (plan_grad_weight_shifted_x), and everything
// else keeps the measured kernel (its one-slot form won only on fam07 bf16, lost on fam02 bf16: run 411). Session 69: 4
// slots lost on fam02 (run 410); run 409's first producer, which evaluated every slot twice per unit with a
// division, took L1-68 TF32 from ~20.9 to 27.9 ms: lane 0's scalar work per unit has little slack.
// Returns the slots of the lean kernel, or 0 for the measured one.
int shifted_x_lean_slots_switch() {
  static const int mode = development_switch("TCONV_GRAD_WEIGHT_SHIFTED_X_LEAN", -1);
  return mode;
}
bool shifted_x_lean_slots_by_rule() {
  const int mode = shifted_x_lean_slots_switch();
  return !(mode == 0 || mode == 1 || mode == 2 || mode == 4);
}
int shifted_x_lean_slots(const ConvTransposeParams& p, DType dtype) {
  const int mode = shifted_x_lean_slots_switch();
  if (!shifted_x_lean_slots_by_rule()) return mode == 0 ? 0 : shifted_x_slots(p, dtype, mode);
  if (element_bytes(dtype) != 4) return 0;
  const int slots = shifted_x_slots(p, dtype, kShiftedXLeanSlotsTf32);
  return slots > 1 ? slots : 0;
}
// The shifted-x kernel's narrow form (WeightShiftedXTile's kDyChannels 32: 6 stages instead of 4 at unit 32) where the
// measured kernel would run on fp32 data with at most 32 output channels per group. It sums the same products in the
// same order: the same grad_weight bits. Run 435 (H200, TF32 fwd+bwd ms, measured / narrow, both sliding): L1-71
// 2.426 / 2.162, fam11 4.632 / 4.132. TCONV_GRAD_WEIGHT_SHIFTED_X_NARROW=0 (development only, read once per process)
// keeps the measured kernel, for A/B timings in one build.
bool shifted_x_narrow_rows(const ConvTransposeParams& p, DType dtype, bool lean) {
  static const bool narrow = development_switch("TCONV_GRAD_WEIGHT_SHIFTED_X_NARROW", 1) != 0;
  return narrow && element_bytes(dtype) == 4 && !lean && p.out_per_group() <= WeightShiftedXShape::kNarrowDyChannels;
}
// The shifted-x kernel's channel-tile form (its kChannelTiles: warpgroup w takes C_out tile w of one (kd, kh) row)
// where one row would leave two of the three consumer warpgroups idle: fp32 data, a single (kd, kh) row (1D kernels),
// more than 64 output channels per group. Why: fam04 TF32 (1D, N 64, 128 -> 128, k3, L 65536: 412 GFLOP a pass) runs
// its grad_weight on the mma.sync kernel in 3.74 ms (110 TF/s) against cuDNN's 2.07 (run 432); the shifted-x kernel
// with three busy warpgroups does fam05's (361 GFLOP) in about 1.9 ms (run 436's no-slide gain on run 432's 2.43), so
// with two of three busy at 128 channels, about 3.3 ms projected. fam04's grad_output (W_out 65538) has no 5-D or flat
// map: the form reads it as channel-pair rows (shifted_x_dy_interleave). Run 441 (H200, one build, TF32): the pass
// 3.739 -> 2.826 ms, fam04 fwd+bwd 8.134 -> 7.278. fp16/bf16 data too (session 77's 16-bit form; the unit-stride
// grad_weight, "auto"'s first choice for 16-bit data up to 128 channels, steps aside where this form runs:
// igemm_grad_weight_takes_channel_tiles). Run 447 (H200, one build, fam04 bf16 fwd+bwd ms, lane boxes on): this form
// 5.579, the unit-stride wgmma grad_weight ("auto" then) 6.740. TCONV_GRAD_WEIGHT_SHIFTED_X_CHANNELS (development
// only, read once per process): 0 never takes it; 1 fp32 data only (the rule before run 447), for A/B timings in one
// build; unset or anything else, every data type.
int shifted_x_channel_tiles_switch() {
  static const int mode = development_switch("TCONV_GRAD_WEIGHT_SHIFTED_X_CHANNELS", 2);
  return mode;
}
bool shifted_x_channel_tiles(const ConvTransposeParams& p, DType dtype) {
  const int mode = shifted_x_channel_tiles_switch();
  return mode != 0 && (element_bytes(dtype) == 4 || mode != 1) && p.kernel[0] * p.kernel[1] == 1 &&
         p.out_per_group() > WeightShiftedXShape::kBlockM;
}
// The shifted-x kernel's row ring (WeightShiftedXTile's kRingSlots) where the measured kernel would run on fp32 data
// at a unit of 32 with more than one (kd, kh) row: it sums the same products in the same order (the same grad_weight
// bits), with 6 stages instead of 4, so that its rows slide (kShiftedXSlideMinStages). Written in session 105 for
// L2-61 TF32's grad_weight (the swapped way: 64 x channels as the rows). Wherever it applies (more than one (kd, kh)
// row). Run 543 (H100, one build, TF32 kernel breakdowns, measured kernel -> ring), the k3x3x3 rows: L2-61's
// grad_weight 2.188 -> 1.414 ms, fam03's 3.481 -> 2.592. The 2D rows (kH 3) lost a little to the plain ring (run 544,
// H200: fam06's (k3x5) 2.007 -> 2.032, fam05's (k3x7) 1.916 -> 1.921) and gain from the overlapping one (below):
// run 552 (H100) fam06 2.061 -> 1.916 ms, run 554 (H100) fam05 2.147 -> 1.845, so since session 111 the 2D rows take
// it too. TCONV_GRAD_WEIGHT_SHIFTED_X_RING (development only, read once per process): 0 never takes it (the measured
// kernel, for A/B timings in one build); anything else, wherever it applies.
bool shifted_x_row_ring(const ConvTransposeParams& p, DType dtype, const WeightGradPlan& plan) {
  static const int mode = development_switch("TCONV_GRAD_WEIGHT_SHIFTED_X_RING", 2);
  const bool applies = element_bytes(dtype) == 4 && plan.shifted_x_unit == 32 && !plan.shifted_x_lean &&
                       !plan.shifted_x_narrow && !plan.shifted_x_channel_tiles && p.kernel[0] * p.kernel[1] > 1;
  return applies && mode != 0;
}
// The ring kernel's consumers leave a unit's wgmmas in flight into the next unit's waits (kRingOverlap), wherever
// the ring runs. Written in session 107 after run 546's source counters (L2-61 TF32, H100: the wgmma wait 7.5 % of
// the samples, the stage waits ~12 %, tensor pipe 37 %); run 548 (H100, one build, TF32 grad_weight kernel, plain
// ring -> overlap): L2-61 1.355 -> 1.345 ms, fam03 2.491 -> 2.443 (predicted -3 to -8 %: the waits the wgmmas now
// cover were shorter than their samples suggested). TCONV_GRAD_WEIGHT_SHIFTED_X_RING_OVERLAP (development only, read
// once per process): 0 never takes it (the plain ring, for A/B timings in one build); anything else, wherever the
// ring runs.
bool shifted_x_ring_overlap(const WeightGradPlan& plan) {
  static const int mode = development_switch("TCONV_GRAD_WEIGHT_SHIFTED_X_RING_OVERLAP", 1);
  return plan.shifted_x_ring && mode != 0;
}
// The overlapping ring over channels-last data (shifted_x_grad_weight's kChannelsLast): fp32 data whose x and
// grad_output both have their channels innermost and are not W-contiguous (channels_last tensors), every other stride
// on 16 bytes (its maps: shifted_x_channels_last_maps), and more than one (kd, kh) row (the ring's). Where the
// shifted-x kernel runs (grad_weight_problem's rules as for channel-major data), its plan is the ring's at a unit of
// 32 whatever unit, lean or narrow form channel-major data would take (plan_shifted_x_slots). Why: TF32
// channels_last grad_weight ran on the mma.sync TF32 kernel, L2-61's in 2.271 ms (run 564, H100) where the ring takes
// 1.335 on contiguous data; the ring reads K-major operands only, and channels_last puts its K (positions) C apart,
// so its rounders transpose the x window as they write the copies. Run 566 (H100, one build, quick timing, L2-61 TF32
// channels_last, switch unset (then off) / 1): fwd+bwd 6.321 -> 5.457 ms (the mma.sync grad_weight took 2.288 of
// it). TCONV_GRAD_WEIGHT_SHIFTED_X_CHANNELS_LAST (development only, read once per process): 0 keeps channels-last
// data on the other grad_weight kernels, for A/B timings in one build; unset or anything else, the rule.
bool shifted_x_channels_last_taken(const ConvTransposeParams& p, DType dtype) {
  static const bool on = development_switch("TCONV_GRAD_WEIGHT_SHIFTED_X_CHANNELS_LAST", 1) != 0;
  const int64_t *x = p.input_strides, *dy = p.output_strides, align = 16 / element_bytes(dtype);
  if (!on || dtype != DType::kFloat32 || x[1] != 1 || dy[1] != 1 || x[4] == 1 || dy[4] == 1 ||
      p.kernel[0] * p.kernel[1] < 2)
    return false;
  for (const int i : {0, 2, 3, 4})
    if (x[i] % align != 0 || dy[i] % align != 0) return false;
  return true;
}
// W tap groups of the shifted-x kernel: the fewest that hold kMaxKernelW taps each, of equal size (kernel W 7: 4 + 4,
// the eighth tap computed and not stored; 9: 5 + 5).
WTapGrouping shifted_x_w_groups(int64_t kernel_w) {
  const int max = WeightShiftedXShape::kMaxKernelW;
  const int groups = int((kernel_w + max - 1) / max);
  return {groups, int((kernel_w + groups - 1) / groups)};
}
// The shifted-x kernel's plan: tiles of WeightShiftedXShape::kRows flattened (kd, kh) rows x W tap groups x groups x
// C_out tiles of 64 x C_in tiles of 32 (the kernel decodes them in decode_shifted_x_block; the channel-tile form:
// one row and C_out tiles of kRows x 64); units over grad_output W chunks of 16 or 32 (48 for 16-bit data, forced:
// shifted_x_unit_switch).
WeightGradPlan plan_shifted_x_slots(const ConvTransposeParams& p, DType dtype, int sm_count,
                                    int64_t max_workspace_elems, int lean_slots) {
  using T = WeightShiftedXShape;
  WeightGradPlan plan = plan_grad_weight_tiles(p, dtype, false, 1);
  plan.shifted_x = true;
  plan.many_taps = false;
  const WTapGrouping w = shifted_x_w_groups(p.kernel[2]);
  plan.w_groups = w.groups;
  plan.max_taps = plan.largest_group = plan.taps_per_block = w.largest;
  const int64_t rows = p.kernel[0] * p.kernel[1];
  // Channels-last data take the overlapping ring only (its one channels-last form), at its unit of 32.
  const bool channels_last = shifted_x_channels_last_taken(p, dtype);
  plan.shifted_x_channels_last = channels_last;
  plan.shifted_x_unit = channels_last ? 32 : shifted_x_unit(p, dtype);
  // The channel-tile form before the lean one, also under a forced TCONV_GRAD_WEIGHT_SHIFTED_X_LEAN:
  // grad_weight_takes_shifted_x may have taken interleaved rows (shifted_x_dy_interleave), which only that form reads.
  // It excludes the narrow rows (> 64 output channels). The lean kernel copies no rows at a unit of 48 (forced by
  // TCONV_GRAD_WEIGHT_SHIFTED_X_UNIT only).
  plan.shifted_x_channel_tiles = !channels_last && shifted_x_channel_tiles(p, dtype);
  // The 16-bit channel-tile kernels exist at a unit of 32 only
  if (plan.shifted_x_channel_tiles && element_bytes(dtype) == 2) plan.shifted_x_unit = 32;
  plan.shifted_x_lean = !channels_last && !plan.shifted_x_channel_tiles && lean_slots != 0 && w.largest >= 3 &&
                        !(plan.shifted_x_unit == 48 && shifted_x_dy_copied(p, dtype));
  plan.shifted_x_slots = plan.shifted_x_lean ? lean_slots : 1;
  plan.shifted_x_narrow = !channels_last && shifted_x_narrow_rows(p, dtype, plan.shifted_x_lean);
  plan.shifted_x_ring = channels_last || shifted_x_row_ring(p, dtype, plan);
  plan.shifted_x_ring_overlap = channels_last || shifted_x_ring_overlap(plan);
  const int64_t tile_rows = plan.shifted_x_channel_tiles ? 1 : T::kRows * plan.shifted_x_slots;
  const int64_t co_block = plan.shifted_x_channel_tiles ? T::kRows * T::kBlockM : T::kBlockM;
  plan.tiles = (rows + tile_rows - 1) / tile_rows * w.groups * p.groups *
               ((p.in_per_group() + T::kBlockN - 1) / T::kBlockN) * ((p.out_per_group() + co_block - 1) / co_block);
  plan.w_chunks = int((p.out_size[2] + plan.shifted_x_unit - 1) / plan.shifted_x_unit);
  plan.units = p.batch * p.in_size[0] * p.in_size[1] * plan.w_chunks;
  plan_grad_weight_splits(plan, p, sm_count, max_workspace_elems);
  return plan;
}

// 16-bit data pack kShiftedXLeanSlots16 row slots too where the plan then orders its splits in several buffers: with
// the GPU filled by the turn buffers, packing halves the x windows and their copies; under the split cap alone it
// halves the blocks instead (run 411: fam02 bf16 2.236 -> 2.748 ms at two slots).
WeightGradPlan plan_grad_weight_shifted_x(const ConvTransposeParams& p, DType dtype, int sm_count,
                                          int64_t max_workspace_elems) {
  if (element_bytes(dtype) == 2 && shifted_x_lean_slots_by_rule()) {
    const int packed_slots = shifted_x_slots(p, dtype, kShiftedXLeanSlots16);
    if (packed_slots > 1) {
      WeightGradPlan packed = plan_shifted_x_slots(p, dtype, sm_count, max_workspace_elems, packed_slots);
      if (packed.shifted_x_lean && packed.ordered && grad_weight_turn_buffers(packed) > 1) return packed;
    }
  }
  return plan_shifted_x_slots(p, dtype, sm_count, max_workspace_elems, shifted_x_lean_slots(p, dtype));
}

// TCONV_GRAD_WEIGHT_BALANCE (development only, read once per process): 0 keeps the planned splits (for A/B
// timings of the balancing in one build); "log" balances and prints each plan's tiles, stages, slots and splits
// before and after to stderr.
int grad_weight_balance_mode() {
  static const int mode = [] {
    const char* value = std::getenv("TCONV_GRAD_WEIGHT_BALANCE");
    if (value == nullptr) return 1;
    if (std::string(value) == "log") return 2;
    return std::atoi(value) == 0 ? 0 : 1;
  }();
  return mode;
}
// Waves x stages of `splits` splits with `slots` blocks resident at once.
int64_t grad_weight_cost(const WeightGradPlan& plan, int64_t splits, int64_t slots) {
  const int64_t chunk = (plan.units + splits - 1) / splits;
  const int64_t used = (plan.units + chunk - 1) / chunk;  // splits that get stages
  return (plan.tiles * used + slots - 1) / slots * chunk;
}
// An ordered plan that the cost model does not put at least 10 % ahead of the capped plain one goes back to plain:
// the ordered splits' waits and read-modify-writes are not in the model. Run 94 (H200, DCGAN, one build, switch
// on/off): TF32 fwd+bwd 2.156 -> 2.019 ms and bf16 1.716 -> 1.623 (cost 1024 -> 684 at 396 slots), while exact
// fp32 went 4.33 -> 4.37: its 3xTF32 kernel's 256 blocks already fill its slots (2 per SM, by the occupancy
// calculator), so more splits only add waves.
void choose_grad_weight_ordering(WeightGradPlan& plan, int64_t slots) {
  if (!plan.ordered) return;
  const int64_t plain = std::max<int64_t>(1, plan.plain_splits);
  if (slots <= 0 || 10 * grad_weight_cost(plan, plan.splits, slots) > 9 * grad_weight_cost(plan, plain, slots)) {
    plan.ordered = false;
    plan.max_splits = plain;
    set_grad_weight_splits(plan, plain);
  }
}
// Split-K against the grid's tail: the blocks of a call do equal work, so with `slots` blocks resident at once
// (blocks per SM from the occupancy calculator x SMs) it runs ceil(tiles * s / slots) waves of ceil(units / s)
// stages. Among s within a factor of two of the plan's count (about kBlocksPerSmTarget blocks per SM, within the
// workspace cap), the fewest waves x stages, then the fewest splits (less workspace to sum). E.g. L1-71 (TF32):
// 3 tiles, 262144 stages, 792 slots: 352 splits = 1056 blocks = 1.33 waves of 745 stages; 264 = one full wave
// of 993 (cost 993 against 1490).
// Measured, run 89 (H200, one build, TCONV_GRAD_WEIGHT_BALANCE=0 / 1 in alternating processes, two rounds,
// fwd+bwd): TF32 L1-68 35.9-36.2 -> 34.5 ms, L2-61 6.66 -> 6.25, fam03 11.46 -> 11.08; bf16 L1-68 36.7 -> 33.65;
// level where the splits stay (bf16 L2-61 18 -> 18; DCGAN 1 -> 1, held there by the workspace cap of one
// weight-sized buffer: 256 blocks for 396 slots, hence run 86's 12 % achieved occupancy). With the cursor change,
// run 88 (same-machine A/B against cdf06d9, TF32 fwd+bwd): L1-71 4.024 -> 3.736, fam02 6.393 -> 5.108, fam06
// 12.585 -> 12.107, U-Net 1.340 -> 1.297, L2-61 6.601 -> 6.277.
void balance_grad_weight_splits(WeightGradPlan& plan, int64_t slots) {
  const int mode = grad_weight_balance_mode();
  if (mode == 0 || slots <= 0 || plan.tiles <= 0 || plan.units <= 0) {
    choose_grad_weight_ordering(plan, mode == 0 ? slots : 0);
    return;
  }
  const int64_t planned = plan.splits;
  const int64_t lo = std::max<int64_t>(1, plan.splits / 2), hi = std::min(plan.max_splits, 2 * plan.splits);
  int64_t best = plan.splits, best_cost = -1;
  for (int64_t s = lo; s <= hi; ++s) {
    const int64_t cost = grad_weight_cost(plan, s, slots);
    if (best_cost < 0 || cost < best_cost) {
      best = s;
      best_cost = cost;
    }
  }
  set_grad_weight_splits(plan, best);
  choose_grad_weight_ordering(plan, slots);
  if (mode == 2) {
    const int64_t buffers = grad_weight_turn_buffers(plan);
    std::string ordering = plan.ordered ? " (ordered)" : "";
    if (plan.ordered && buffers > 1) ordering = " (ordered in " + std::to_string(buffers) + " buffers)";
    std::fprintf(stderr, "tconv grad_weight plan: tiles %lld, stages %lld, slots %lld, splits %lld -> %lld%s\n",
                 static_cast<long long>(plan.tiles), static_cast<long long>(plan.units),
                 static_cast<long long>(slots), static_cast<long long>(planned), static_cast<long long>(plan.splits),
                 ordering.c_str());
  }
}

// The kernel a grad_weight plan runs: one dispatch for its launch and for the occupancy query that sizes the
// splits (balance_grad_weight_splits).
#if defined(TCONV_TENSOR_MAPS)
// A 5-D fp32 tensor map (W, C, H, D, N) over a tensor with element strides `strides` (N, C, D, H, W order, W = 1),
// boxes of box_w x box_c x 1 x 1 x 1, zeros outside.
cudaError_t encode_rows_map(CUtensorMap* map, const void* data, const int64_t* sizes, const int64_t* strides,
                            int box_w, int box_c, DType dtype = DType::kFloat32,
                            CUtensorMapSwizzle swizzle = CU_TENSOR_MAP_SWIZZLE_NONE) {
  const EncodeTiledFn encode = encode_tiled_fn();
  if (encode == nullptr) return cudaErrorNotSupported;
  const cuuint64_t dims[5] = {cuuint64_t(sizes[4]), cuuint64_t(sizes[1]), cuuint64_t(sizes[3]), cuuint64_t(sizes[2]),
                              cuuint64_t(sizes[0])};
  const cuuint64_t b = cuuint64_t(element_bytes(dtype));
  const cuuint64_t bytes[4] = {cuuint64_t(strides[1]) * b, cuuint64_t(strides[3]) * b, cuuint64_t(strides[2]) * b,
                               cuuint64_t(strides[0]) * b};
  const cuuint32_t box[5] = {cuuint32_t(box_w), cuuint32_t(box_c), 1, 1, 1}, unit[5] = {1, 1, 1, 1, 1};
  const CUresult r = encode(map, tensor_map_type(dtype), 5, const_cast<void*>(data), dims, bytes, box, unit,
                            CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle,
                            CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return r == CUDA_SUCCESS ? cudaSuccess : cudaErrorInvalidValue;
}
// The shifted-x kernel takes a grad_output whose rows are no multiple of 16 bytes through the flat map. Run 186
// (H200, same-build A/B, TF32): L1-71 fwd+bwd 3.671 -> 3.397 ms. TCONV_GRAD_WEIGHT_SHIFTED_X_FLAT_DY=0
// (development only, read once per process) leaves such a grad_output to the mma.sync kernels.
bool grad_weight_shifted_x_flat_dy() {
  static const bool flat = development_switch("TCONV_GRAD_WEIGHT_SHIFTED_X_FLAT_DY", 1) != 0;
  return flat;
}
// Elements per 16 bytes: a TMA map's strides and the shifted-x kernel's window alignment count in these.
int elements_per_16_bytes(DType dtype) { return 16 / element_bytes(dtype); }
// Whether grad_output's D, H and W rows lie back to back (W contiguous), so that they can be one dimension of a
// tensor map whose rows need no 16-byte stride (shifted_x_flat_dy_map), with the image and channel strides on 16
// bytes and every position a 32-bit TMA coordinate.
bool shifted_x_flat_dy_fits(const ConvTransposeParams& p, DType dtype) {
  const int64_t* dy = p.output_strides;
  const int64_t plane = p.out_size[1] * p.out_size[2], align = elements_per_16_bytes(dtype);
  return dy[4] == 1 && dy[3] == p.out_size[2] && (p.out_size[0] == 1 || dy[2] == plane) && dy[0] % align == 0 &&
         dy[1] % align == 0 && p.out_size[0] * plane < (int64_t(1) << 31);
}
// Whether the shifted-x kernel can read an x whose rows are no multiple of 16 bytes through a map with D x H x W as
// one dimension (RowsWeightArgs::x_flat): D, H and W back to back, the image and channel strides on 16 bytes. Such a
// map has no zeros at the ends of a row: the window of a unit at row end or start reaches into the next or previous
// row. Every position a stored tap reads for a grad_output position j < W_out, j + p - kw, lies in the row where the
// W padding is at least the kernel W - 1 (W stride and dilation 1 here); positions j >= W_out of a last unit meet
// grad_output's zeros (so an infinite x value in the next row's first positions turns its channel's sums to NaN where
// a 5-D map would leave them infinite; finite values change nothing). That is the case of a swapped grad_weight
// (swapped_grad_weight_params) of padding 0. Every window start and end (a row's last unit reaches ~W padding + 64
// past its row) is a 32-bit TMA coordinate.
bool shifted_x_flat_x_fits(const ConvTransposeParams& p, DType dtype) {
  const int64_t* x = p.input_strides;
  const int64_t plane = p.in_size[1] * p.in_size[2], align = elements_per_16_bytes(dtype);
  return p.padding[2] >= p.kernel[2] - 1 && x[4] == 1 && x[3] == p.in_size[2] &&
         (p.in_size[0] == 1 || x[2] == plane) && x[0] % align == 0 && x[1] % align == 0 &&
         p.in_size[0] * plane + p.padding[2] + 64 < (int64_t(1) << 31);
}
// Whether x's strides other than W's are all on 16 bytes (the 5-D map).
bool shifted_x_x_aligned(const ConvTransposeParams& p, DType dtype) {
  const int64_t align = elements_per_16_bytes(dtype);
  for (int i = 0; i < 4; ++i)
    if (p.input_strides[i] % align != 0) return false;
  return true;
}
// TCONV_GRAD_WEIGHT_SHIFTED_X_COPY_DY=0 (development only, read once per process) leaves grad_output rows that no
// tensor map takes to the other kernels, for A/B timings of the copied rows in one build. Run 227 (H100, one build, two
// rounds, bf16 fwd+bwd ms, copied / not): L1-71 3.32 / 3.73, fam05 4.79-4.80 / 5.75-5.78, fam01 11.33-11.35 /
// 12.24-12.29 (and fam04 15.81-15.90 / 9.48: one (kd, kh) row, since refused in grad_weight_takes_shifted_x).
bool grad_weight_shifted_x_copy_dy() {
  static const bool copy = development_switch("TCONV_GRAD_WEIGHT_SHIFTED_X_COPY_DY", 1) != 0;
  return copy;
}
// Whether the shifted-x kernel's producer warp can copy grad_output's rows in 4-byte pieces (RowsWeightArgs::dy_copied)
// where no tensor map takes them: fp16/bf16 data (fp32 rows take the flat map wherever the channel stride allows; not
// timed for fp32), W contiguous, W and every other stride whole pieces, 4-byte aligned data.
bool shifted_x_copy_dy_fits(const ConvTransposeParams& p, DType dtype, const void* grad_output) {
  const int64_t* dy = p.output_strides;
  if (!is_16bit(dtype) || !grad_weight_shifted_x_copy_dy() || dy[4] != 1 || p.out_size[2] % 2 != 0 ||
      reinterpret_cast<uintptr_t>(grad_output) % 4 != 0)
    return false;
  for (int i = 0; i < 4; ++i)
    if (dy[i] % 2 != 0) return false;
  return true;
}
// The channels per row of a map over grad_output that the shifted-x kernel's channel-tile form can read where neither
// map above takes it (RowsWeightArgs::dy_interleave), or 0: R = 2 or 4 channels' D x H x W planes back to back as one
// row, the fewest whose row stride lies on 16 bytes (fam04's fp32 plane of 65538 floats, 8 bytes past a multiple of
// 16: R 2; its 16-bit plane, 4 bytes past: R 4), with the planes contiguous (NCDHW), the image stride on 16 bytes and
// a multiple of R channels per group (a tile's channels start at a multiple of R). The kernel loads channel sub of
// each R into tile rows sub x 64 / R onwards, masks each row past its end as the flat map's (there the next channel
// begins), and stores tile row r's sums to channel R (r % (64 / R)) + r / (64 / R). R 4 for 16-bit data only (tested
// since run 443, the rule since run 447); fp32 planes an odd number of floats long (R 4) keep the other kernels.
int shifted_x_dy_interleave(const ConvTransposeParams& p, DType dtype) {
  const int64_t* dy = p.output_strides;
  const int64_t plane = p.out_size[0] * p.out_size[1] * p.out_size[2], align = elements_per_16_bytes(dtype);
  if (dy[4] != 1 || dy[3] != p.out_size[2] || (p.out_size[0] != 1 && dy[2] != p.out_size[1] * p.out_size[2]) ||
      dy[1] != plane || plane % align == 0 || dy[0] % align != 0)
    return 0;
  for (int interleave = 2; interleave <= 4; interleave *= 2)
    if ((interleave * plane) % align == 0)
      return p.out_per_group() % interleave == 0 && interleave * plane + 64 < (int64_t(1) << 31) &&
                     (interleave == 2 || element_bytes(dtype) == 2)  // R 4 tested on 16-bit data only
                 ? interleave
                 : 0;
  return 0;
}
// How the shifted-x kernel reads grad_output, from its strides: a 5-D map (every stride on 16 bytes), the flat map
// (rows off 16 bytes but back to back), else copied rows where shifted_x_copy_dy_fits allows, or for the channel-tile
// form the interleaved rows where shifted_x_dy_interleave allows.
struct ShiftedXDyRead {
  bool aligned, flat;
};
ShiftedXDyRead shifted_x_dy_read(const ConvTransposeParams& p, DType dtype) {
  const int64_t *dy = p.output_strides, align = elements_per_16_bytes(dtype);
  bool aligned = true;
  for (int i = 0; i < 4; ++i) aligned = aligned && dy[i] % align == 0;
  const bool flat = (dy[2] % align != 0 || dy[3] % align != 0) && grad_weight_shifted_x_flat_dy() &&
                    shifted_x_flat_dy_fits(p, dtype);
  return {aligned, flat};
}
// Whether the shifted-x kernel, where it runs, copies grad_output's rows (RowsWeightArgs::dy_copied).
bool shifted_x_dy_copied(const ConvTransposeParams& p, DType dtype) {
  const ShiftedXDyRead read = shifted_x_dy_read(p, dtype);
  return !read.aligned && !read.flat;
}
// The shifted-x kernel's box widths (the x window, grad_output rows) for its data and unit.
struct ShiftedXBoxes {
  int x_w, dy_w;
};
template <int kElemBytes, int kUnitK>
constexpr ShiftedXBoxes shifted_x_boxes_of() {
  return {WeightShiftedXTile<kElemBytes, kUnitK>::kXBoxW, WeightShiftedXTile<kElemBytes, kUnitK>::kDyBoxW};
}
ShiftedXBoxes shifted_x_boxes(DType dtype, int unit) {
  if (element_bytes(dtype) == 2)
    return unit == 48 ? shifted_x_boxes_of<2, 48>()
                      : (unit == 32 ? shifted_x_boxes_of<2, 32>() : shifted_x_boxes_of<2, 16>());
  return unit == 32 ? shifted_x_boxes_of<4, 32>() : shifted_x_boxes_of<4, 16>();
}
// TCONV_GRAD_WEIGHT_ROWS16_SWIZZLE (development only, read once per process): 0 gives the 16-bit rows kernel's
// two-box form instead of its swizzled one (one 32-byte-swizzled x box per unit, the default since run 367). The x map
// and the kernel choice both read it.
bool grad_weight_rows16_swizzle() {
  static const bool swizzle = development_switch("TCONV_GRAD_WEIGHT_ROWS16_SWIZZLE", 1) != 0;
  return swizzle;
}
// The rows kernel's maps over the real tensors (p: the call's real description, not the folded one); shifted_x_unit
// > 0: the shifted-x kernel's boxes instead (the x window, 64 grad_output channels x a row), of `dtype`'s elements
// (the rows kernels: fp32, or fp16/bf16 with the x box split or swizzled). A grad_output whose rows are no multiple
// of 16 bytes (L1-71: 1026 floats) has no 5-D map; for the shifted-x kernel it takes a map with D x H x W as one
// dimension instead (rows.dy_flat; the kernel's flat_dy_row places and masks each row).
// channel_tiles: for the shifted-x kernel's channel-tile form, which alone reads interleaved rows (rows.dy_interleave)
// and never copies rows.
cudaError_t rows_weight_tensor_maps(const ConvTransposeParams& p, const void* input, const void* grad_output,
                                    RowsWeightArgs& rows, int shifted_x_unit = 0, DType dtype = DType::kFloat32,
                                    int shifted_x_slots = 1, int shifted_x_dy_channels = WeightShiftedXShape::kBlockM,
                                    bool channel_tiles = false) {
  using T = WeightWgmmaRowsTile<2>;
  const bool shifted_x = shifted_x_unit > 0;
  const ShiftedXBoxes boxes = shifted_x_boxes(dtype, shifted_x_unit);
  // 16-bit rows kernel: x as two boxes per unit, or one in the 32-byte swizzle (grad_weight_rows16_swizzle)
  const bool rows16 = !shifted_x && dtype != DType::kFloat32, swizzled = rows16 && grad_weight_rows16_swizzle();
  const int x_box_w = shifted_x                ? boxes.x_w
                      : rows16 && !swizzled ? WeightWgmmaRows16Tile<2>::kXBoxW
                                            : T::kBlockK,
            dy_box_w = boxes.dy_w;
  const int64_t x_sizes[5] = {p.batch, p.in_channels, p.in_size[0], p.in_size[1], p.in_size[2]};
  const int64_t dy_sizes[5] = {p.batch, p.out_channels, p.out_size[0], p.out_size[1], p.out_size[2]};
  const int64_t* x = p.input_strides;
  const bool x_flat = shifted_x && !shifted_x_x_aligned(p, dtype);
  if (x_flat && !shifted_x_flat_x_fits(p, dtype)) return cudaErrorInvalidValue;
  // The flat x map: (W: D x H x W, C, 1, 1, N), as the flat grad_output map below.
  const int64_t x_flat_sizes[5] = {p.batch, p.in_channels, 1, 1, p.in_size[0] * p.in_size[1] * p.in_size[2]};
  const int64_t x_flat_strides[5] = {x[0], x[1], x[0], x[0], 1};
  const cudaError_t err =
      encode_rows_map(&rows.x_map, input, x_flat ? x_flat_sizes : x_sizes, x_flat ? x_flat_strides : x, x_box_w,
                      shifted_x ? WeightShiftedXShape::kBlockN : T::kBlockN, dtype,
                      swizzled ? CU_TENSOR_MAP_SWIZZLE_32B : CU_TENSOR_MAP_SWIZZLE_NONE);
  if (err != cudaSuccess) return err;
  const int64_t* dy = p.output_strides;
  const ShiftedXDyRead read = shifted_x_dy_read(p, dtype);
  rows.dy_flat = shifted_x && read.flat;
  rows.x_flat = x_flat;
  rows.dy_copied =
      shifted_x && !channel_tiles && !read.aligned && !read.flat && shifted_x_copy_dy_fits(p, dtype, grad_output);
  rows.dy_slots = shifted_x ? shifted_x_slots : 1;
  if (rows.dy_slots < 1 || rows.dy_slots > WeightShiftedXShape::kMaxDySlots || (rows.dy_copied && rows.dy_slots != 1))
    return cudaErrorInvalidValue;  // shifted_x_slots: 1, 2 or 4, and 1 for copied rows
  if (rows.dy_copied) return cudaSuccess;
  const int dy_box_channels = shifted_x_dy_channels / rows.dy_slots;  // one row slot's channels
  rows.dy_interleave =
      shifted_x && channel_tiles && !read.aligned && !read.flat ? shifted_x_dy_interleave(p, dtype) : 0;
  if (rows.dy_interleave) {  // (W: R channels' D x H x W, C / R, 1, 1, N); a box: one channel of each of 64 / R rows
    const int interleave = rows.dy_interleave;
    const int64_t sizes[5] = {p.batch, p.out_channels / interleave, 1, 1,
                              interleave * p.out_size[0] * p.out_size[1] * p.out_size[2]};
    const int64_t strides[5] = {dy[0], interleave * dy[1], dy[0], dy[0], 1};
    return encode_rows_map(&rows.dy_map, grad_output, sizes, strides, dy_box_w, dy_box_channels / interleave, dtype);
  }
  if (rows.dy_flat) {  // (W: D x H x W, C, 1, 1, N); the unit dimensions take the image stride
    const int64_t flat_sizes[5] = {p.batch, p.out_channels, 1, 1, p.out_size[0] * p.out_size[1] * p.out_size[2]};
    const int64_t flat_strides[5] = {dy[0], dy[1], dy[0], dy[0], 1};
    return encode_rows_map(&rows.dy_map, grad_output, flat_sizes, flat_strides, dy_box_w, dy_box_channels, dtype);
  }
  return encode_rows_map(&rows.dy_map, grad_output, dy_sizes, p.output_strides, shifted_x ? dy_box_w : T::kLdRaw,
                         shifted_x ? dy_box_channels : T::kRawRows, dtype);
}
// A 5-D fp32 tensor map (C, W, H, D, N) over a tensor whose channels are innermost (element strides `strides` in N,
// C, D, H, W order, C = 1), boxes of box_c x box_w x 1 x 1 x 1 that land [position][channel], zeros outside.
cudaError_t encode_channels_last_rows_map(CUtensorMap* map, const void* data, const int64_t* sizes,
                                          const int64_t* strides, int box_c, int box_w) {
  const EncodeTiledFn encode = encode_tiled_fn();
  if (encode == nullptr) return cudaErrorNotSupported;
  if (strides[1] != 1) return cudaErrorInvalidValue;
  const cuuint64_t dims[5] = {cuuint64_t(sizes[1]), cuuint64_t(sizes[4]), cuuint64_t(sizes[3]), cuuint64_t(sizes[2]),
                              cuuint64_t(sizes[0])};
  const cuuint64_t b = sizeof(float);
  const cuuint64_t bytes[4] = {cuuint64_t(strides[4]) * b, cuuint64_t(strides[3]) * b, cuuint64_t(strides[2]) * b,
                               cuuint64_t(strides[0]) * b};
  const cuuint32_t box[5] = {cuuint32_t(box_c), cuuint32_t(box_w), 1, 1, 1}, unit[5] = {1, 1, 1, 1, 1};
  const CUresult r = encode(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 5, const_cast<void*>(data), dims, bytes, box, unit,
                            CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                            CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return r == CUDA_SUCCESS ? cudaSuccess : cudaErrorInvalidValue;
}
// The maps of a grad_weight kernel over channels-last x and grad_output: x's boxes of x_box_c channels x x_box_w
// positions, grad_output's of dy_box_c channels x dy_box_w positions, both landing [position][channel].
cudaError_t channels_last_weight_maps(const ConvTransposeParams& p, const void* input, const void* grad_output,
                                      RowsWeightArgs& rows, int x_box_c, int x_box_w, int dy_box_c, int dy_box_w) {
  const int64_t x_sizes[5] = {p.batch, p.in_channels, p.in_size[0], p.in_size[1], p.in_size[2]};
  const int64_t dy_sizes[5] = {p.batch, p.out_channels, p.out_size[0], p.out_size[1], p.out_size[2]};
  rows.dy_flat = rows.x_flat = rows.dy_copied = rows.dy_interleave = 0;
  rows.dy_slots = 1;
  const cudaError_t err = encode_channels_last_rows_map(&rows.x_map, input, x_sizes, p.input_strides, x_box_c, x_box_w);
  if (err != cudaSuccess) return err;
  return encode_channels_last_rows_map(&rows.dy_map, grad_output, dy_sizes, p.output_strides, dy_box_c, dy_box_w);
}
// The channels-last ring's maps (shifted_x_channels_last_taken): x's window as 32 channels x kXBoxW positions, a
// grad_output row as kChannelsLastDyPitch channels x kUnitK positions (the kernel's [position][channel] slots).
cudaError_t shifted_x_channels_last_maps(const ConvTransposeParams& p, const void* input, const void* grad_output,
                                         RowsWeightArgs& rows) {
  using T = WeightShiftedXTile<4, 32, WeightShiftedXShape::kBlockM, kShiftedXRingSlots>;
  return channels_last_weight_maps(p, input, grad_output, rows, T::kBlockN, T::kXBoxW, T::kChannelsLastDyPitch,
                                   T::kBlockK);
}
// The rows kernel's maps over channels-last x and grad_output (rows_channels_last_taken): x's boxes as 128 channels x
// 16 positions, a warpgroup's raw grad_output rows as kClDyPitch channels x kClDyW positions (the kernel's
// [position][channel] units).
cudaError_t rows_channels_last_maps(const ConvTransposeParams& p, const void* input, const void* grad_output,
                                    RowsWeightArgs& rows) {
  using T = WeightWgmmaRowsTile<2>;
  return channels_last_weight_maps(p, input, grad_output, rows, T::kBlockN, T::kBlockK, T::kClDyPitch, T::kClDyW);
}
#endif

#if defined(TCONV_TENSOR_MAPS)
using RowsWeightKernelFn = void (*)(RowsWeightArgs);
#else
using RowsWeightKernelFn = void (*)();  // never set: the rows kernel needs tensor maps
#endif
// fn, or for the rows kernel rows_fn (its own arguments) with its dynamic shared memory.
struct GradWeightKernel {
  void (*fn)(WeightGradArgs);
  int threads;
  RowsWeightKernelFn rows_fn = nullptr;
  int shared_bytes = 0;
  int stages = 0;  // the shifted-x kernel's (its tile's kStages), for its slide rule
  const void* entry() const {
    return rows_fn != nullptr ? reinterpret_cast<const void*>(rows_fn) : reinterpret_cast<const void*>(fn);
  }
};
// The rows kernel's dynamic shared memory is above the default 48 KB: the opt-in, before an occupancy query or
// a launch.
cudaError_t prepare_grad_weight_kernel(const GradWeightKernel& kernel) {
  if (kernel.shared_bytes <= 48 * 1024) return cudaSuccess;
  return cudaFuncSetAttribute(kernel.entry(), cudaFuncAttributeMaxDynamicSharedMemorySize, kernel.shared_bytes);
}
template <typename scalar_t, bool kSplitTf32, int kMaxTaps>
GradWeightKernel mma_grad_weight_taps(const WeightGradPlan& plan) {
  if (plan.warps_m == 1)
    return {tconv_igemm_grad_weight_tf32_kernel<scalar_t, kSplitTf32, 1, kMaxTaps>,
            WeightGemmTile<1, kSplitTf32>::kThreads};
  return {tconv_igemm_grad_weight_tf32_kernel<scalar_t, kSplitTf32, 2, kMaxTaps>,
          WeightGemmTile<2, kSplitTf32>::kThreads};
}
template <typename scalar_t, bool kSplitTf32>
GradWeightKernel mma_grad_weight_kernel(const WeightGradPlan& plan) {
  if constexpr (!kSplitTf32) {  // the plan never takes the many-tap tile in 3xTF32
    if (plan.many_taps)
      return plan.taps_per_block == 4
                 ? GradWeightKernel{tconv_igemm_grad_weight_tf32_kernel<scalar_t, false, 1, 4, 4>,
                                    WeightGemmManyTapTile::kThreads}
                 : GradWeightKernel{tconv_igemm_grad_weight_tf32_kernel<scalar_t, false, 1, 6, 4>,
                                    WeightGemmManyTapTile::kThreads};
  }
  if (plan.taps_per_block == 1) return mma_grad_weight_taps<scalar_t, kSplitTf32, 1>(plan);
  if (plan.taps_per_block == 2 || kSplitTf32) return mma_grad_weight_taps<scalar_t, kSplitTf32, 2>(plan);
  if (plan.taps_per_block == 3) return mma_grad_weight_taps<scalar_t, kSplitTf32, (kSplitTf32 ? 2 : 3)>(plan);
  return mma_grad_weight_taps<scalar_t, kSplitTf32, (kSplitTf32 ? 2 : 4)>(plan);
}
// The wgmma kernel issues all its wgmmas of a k8 step (no branch between them), so kMaxTaps is the call's
// largest W tap group exactly (3 included: kernel width 3, and 5 as 3 + 2) and kMBlocks plan.wgmma_m_blocks.
// Only 33-64 input channels per group (plan.warps_m == 2; C_in tiles of 48 or 64) take it; see
// grad_weight_uses_wgmma.
template <typename scalar_t, int kMaxTaps, int kBlockN>
GradWeightKernel wgmma_grad_weight_taps(int m_blocks) {
  constexpr int kThreads = WeightWgmmaTile<2, kBlockN>::kThreads;
  if constexpr (kMaxTaps > 1) {
    if (m_blocks == 1) return {tconv_igemm_grad_weight_wgmma_kernel<scalar_t, 2, kMaxTaps, 1, kBlockN>, kThreads};
    if constexpr (kMaxTaps > 2) {
      if (m_blocks == 2) return {tconv_igemm_grad_weight_wgmma_kernel<scalar_t, 2, kMaxTaps, 2, kBlockN>, kThreads};
    }
    if constexpr (kMaxTaps > 3) {
      if (m_blocks == 3) return {tconv_igemm_grad_weight_wgmma_kernel<scalar_t, 2, kMaxTaps, 3, kBlockN>, kThreads};
    }
  }
  return {tconv_igemm_grad_weight_wgmma_kernel<scalar_t, 2, kMaxTaps, kMaxTaps, kBlockN>, kThreads};
}
template <typename scalar_t, int kBlockN>
GradWeightKernel wgmma_grad_weight_columns(const WeightGradPlan& plan) {
  switch (plan.largest_group) {
    case 1: return wgmma_grad_weight_taps<scalar_t, 1, kBlockN>(plan.wgmma_m_blocks);
    case 2: return wgmma_grad_weight_taps<scalar_t, 2, kBlockN>(plan.wgmma_m_blocks);
    case 3: return wgmma_grad_weight_taps<scalar_t, 3, kBlockN>(plan.wgmma_m_blocks);
    default: return wgmma_grad_weight_taps<scalar_t, 4, kBlockN>(plan.wgmma_m_blocks);
  }
}
template <typename scalar_t>
GradWeightKernel wgmma_grad_weight_kernel(const WeightGradPlan& plan) {
  return plan.wgmma_block_n == 48 ? wgmma_grad_weight_columns<scalar_t, 48>(plan)
                                  : wgmma_grad_weight_columns<scalar_t, 64>(plan);
}
// Units (input rows or W chunks) per stage of the rows kernel: two, whose wgmmas run behind one barrier. Run 178 (H200,
// one build, TF32 fwd+bwd, TCONV_GRAD_WEIGHT_ROWS=2 / 1 in alternating processes, two rounds): DCGAN 1.385-1.388 /
// 1.428-1.438 ms, VAE 1.892-1.894 / 1.972-1.984 (the other kernels: 1.863-1.865, 2.395-2.398). =1 (development
// only) keeps one unit per stage, for A/B timings in one build.
int grad_weight_rows_units() {
  static const int units = development_switch("TCONV_GRAD_WEIGHT_ROWS", 2) == 1 ? 1 : 2;
  return units;
}
// The rows kernel (fp32 data, TF32 mode), for the W tap groups of k4 s2 (two folded taps) and k2 s2 (one).
// TCONV_GRAD_WEIGHT_ROWS_SPECIALIZED (development only, for A/B timings in one build): 1 (default) = the
// warp-specialized form, 0 = thread 0 issuing the boxes behind one block barrier per stage.
bool grad_weight_rows_specialized() {
  static const bool specialized = development_switch("TCONV_GRAD_WEIGHT_ROWS_SPECIALIZED", 1) != 0;
  return specialized;
}
template <int kUnits>
GradWeightKernel wgmma_rows_grad_weight_units(const WeightGradPlan& plan) {
#if defined(TCONV_TENSOR_MAPS)
  using T = WeightWgmmaRowsTile<2>;
  if (plan.rows_channels_last) {  // (the specialized form only: rows_channels_last_taken)
    constexpr int kBytes = T::specialized_shared_bytes(kUnits);
    if (plan.largest_group == 1)
      return {nullptr, T::kSpecializedThreads,
              tconv_igemm_grad_weight_wgmma_rows_specialized_kernel<2, 1, kUnits, true>, kBytes};
    return {nullptr, T::kSpecializedThreads, tconv_igemm_grad_weight_wgmma_rows_specialized_kernel<2, 2, kUnits, true>,
            kBytes};
  }
  if (grad_weight_rows_specialized()) {
    constexpr int kBytes = T::specialized_shared_bytes(kUnits);
    if (plan.largest_group == 1)
      return {nullptr, T::kSpecializedThreads, tconv_igemm_grad_weight_wgmma_rows_specialized_kernel<2, 1, kUnits>,
              kBytes};
    return {nullptr, T::kSpecializedThreads, tconv_igemm_grad_weight_wgmma_rows_specialized_kernel<2, 2, kUnits>,
            kBytes};
  }
  constexpr int kBytes = T::shared_bytes(kUnits);
  if (plan.largest_group == 1)
    return {nullptr, T::kThreads, tconv_igemm_grad_weight_wgmma_rows_kernel<2, 1, kUnits>, kBytes};
  return {nullptr, T::kThreads, tconv_igemm_grad_weight_wgmma_rows_kernel<2, 2, kUnits>, kBytes};
#else
  (void)plan;
  return {nullptr, 0};
#endif
}
// kernel_for(std::integral_constant<int, taps>{}) for a W tap group of `taps` (1-5) taps.
template <typename KernelFor>
RowsWeightKernelFn shifted_x_kernel_for_taps(int taps, KernelFor kernel_for) {
  switch (taps) {
    case 1: return kernel_for(std::integral_constant<int, 1>{});
    case 2: return kernel_for(std::integral_constant<int, 2>{});
    case 3: return kernel_for(std::integral_constant<int, 3>{});
    case 4: return kernel_for(std::integral_constant<int, 4>{});
    default: return kernel_for(std::integral_constant<int, 5>{});
  }
}
// The shifted-x kernel for the call's data, unit and W kernel (1-5 taps).
template <typename scalar_t, int kUnitK>
GradWeightKernel shifted_x_grad_weight_taps(const WeightGradPlan& plan) {
#if defined(TCONV_TENSOR_MAPS)
  using T = WeightShiftedXTile<int(sizeof(scalar_t)), kUnitK>;
  constexpr int kBytes = T::shared_bytes(), kThreads = T::kBlockThreads;
  if (plan.shifted_x_lean) {  // plan_grad_weight_shifted_x: W tap groups of 3-5
    RowsWeightKernelFn lean = tconv_igemm_grad_weight_wgmma_shifted_x_lean_kernel<scalar_t, kUnitK, 5>;
    if (plan.largest_group == 3) lean = tconv_igemm_grad_weight_wgmma_shifted_x_lean_kernel<scalar_t, kUnitK, 3>;
    if (plan.largest_group == 4) lean = tconv_igemm_grad_weight_wgmma_shifted_x_lean_kernel<scalar_t, kUnitK, 4>;
    return {nullptr, kThreads, lean, kBytes, T::kStages};
  }
  if constexpr (std::is_same<scalar_t, float>::value) {
    if (plan.shifted_x_narrow) {
      using Narrow = WeightShiftedXTile<4, kUnitK, WeightShiftedXShape::kNarrowDyChannels>;
      return {nullptr, kThreads, shifted_x_kernel_for_taps(plan.largest_group, [](auto taps) -> RowsWeightKernelFn {
                return tconv_igemm_grad_weight_wgmma_shifted_x_narrow_kernel<kUnitK, decltype(taps)::value>;
              }),
              Narrow::shared_bytes(), Narrow::kStages};
    }
    if (plan.shifted_x_channel_tiles)
      return {nullptr, kThreads, shifted_x_kernel_for_taps(plan.largest_group, [](auto taps) -> RowsWeightKernelFn {
                return tconv_igemm_grad_weight_wgmma_shifted_x_channels_kernel<kUnitK, decltype(taps)::value>;
              }),
              kBytes, T::kStages};
    if constexpr (kUnitK == 32) {
      if (plan.shifted_x_ring) {
        using Ring = WeightShiftedXTile<4, 32, WeightShiftedXShape::kBlockM, kShiftedXRingSlots>;
        if (plan.shifted_x_channels_last)  // plan_shifted_x_slots: the overlapping ring
          return {nullptr, kThreads, shifted_x_kernel_for_taps(plan.largest_group, [](auto taps) -> RowsWeightKernelFn {
                    return tconv_igemm_grad_weight_wgmma_shifted_x_ring_channels_last_kernel<decltype(taps)::value>;
                  }),
                  Ring::shared_bytes(), Ring::kStages};
        if (plan.shifted_x_ring_overlap)
          return {nullptr, kThreads, shifted_x_kernel_for_taps(plan.largest_group, [](auto taps) -> RowsWeightKernelFn {
                    return tconv_igemm_grad_weight_wgmma_shifted_x_ring_overlap_kernel<decltype(taps)::value>;
                  }),
                  Ring::shared_bytes(), Ring::kStages};
        return {nullptr, kThreads, shifted_x_kernel_for_taps(plan.largest_group, [](auto taps) -> RowsWeightKernelFn {
                  return tconv_igemm_grad_weight_wgmma_shifted_x_ring_kernel<decltype(taps)::value>;
                }),
                Ring::shared_bytes(), Ring::kStages};
      }
    }
  } else if constexpr (kUnitK == 32) {  // plan_shifted_x_slots: the 16-bit channel-tile form at a unit of 32 only
    if (plan.shifted_x_channel_tiles)
      return {nullptr, kThreads, shifted_x_kernel_for_taps(plan.largest_group, [](auto taps) -> RowsWeightKernelFn {
                return tconv_igemm_grad_weight_wgmma_shifted_x_channels16_kernel<scalar_t, 32, decltype(taps)::value>;
              }),
              kBytes, T::kStages};
  }
  return {nullptr, kThreads, shifted_x_kernel_for_taps(plan.largest_group, [](auto taps) -> RowsWeightKernelFn {
            return tconv_igemm_grad_weight_wgmma_shifted_x_kernel<scalar_t, kUnitK, decltype(taps)::value>;
          }),
          kBytes, T::kStages};
#else
  (void)plan;
  return {nullptr, 0};
#endif
}
template <typename scalar_t>
GradWeightKernel shifted_x_grad_weight_kernel(const WeightGradPlan& plan) {
  if constexpr (sizeof(scalar_t) == 2) {
    if (plan.shifted_x_unit == 48) return shifted_x_grad_weight_taps<scalar_t, 48>(plan);
  }
  return plan.shifted_x_unit == 32 ? shifted_x_grad_weight_taps<scalar_t, 32>(plan)
                                   : shifted_x_grad_weight_taps<scalar_t, 16>(plan);
}
// (a template, so that only the fp32 unit instantiates the fp32 rows kernels: grad_weight_kernel_of's branch)
template <typename scalar_t>
GradWeightKernel wgmma_rows_grad_weight_kernel(const WeightGradPlan& plan) {
  static_assert(std::is_same<scalar_t, float>::value, "the rows kernel reads fp32 data");
  return grad_weight_rows_units() == 2 ? wgmma_rows_grad_weight_units<2>(plan) : wgmma_rows_grad_weight_units<1>(plan);
}
// The 16-bit rows kernel (fp16/bf16 data), for the W tap groups of k4 s2 (two folded taps) and k2 s2 (one).
template <typename scalar_t, int kUnits, bool kSwizzledX>
GradWeightKernel wgmma_rows16_grad_weight_units(const WeightGradPlan& plan) {
#if defined(TCONV_TENSOR_MAPS)
  using T = WeightWgmmaRows16Tile<2>;
  constexpr int kBytes = T::shared_bytes(kUnits), kThreads = T::kBlockThreads;
  if (plan.largest_group == 1)
    return {nullptr, kThreads, tconv_igemm_grad_weight_wgmma_rows16_kernel<scalar_t, 2, 1, kUnits, kSwizzledX>, kBytes};
  return {nullptr, kThreads, tconv_igemm_grad_weight_wgmma_rows16_kernel<scalar_t, 2, 2, kUnits, kSwizzledX>, kBytes};
#else
  (void)plan;
  return {nullptr, 0};
#endif
}
template <typename scalar_t>
GradWeightKernel wgmma_rows16_grad_weight_kernel(const WeightGradPlan& plan) {
  if (grad_weight_rows16_swizzle())
    return grad_weight_rows_units() == 2 ? wgmma_rows16_grad_weight_units<scalar_t, 2, true>(plan)
                                         : wgmma_rows16_grad_weight_units<scalar_t, 1, true>(plan);
  return grad_weight_rows_units() == 2 ? wgmma_rows16_grad_weight_units<scalar_t, 2, false>(plan)
                                       : wgmma_rows16_grad_weight_units<scalar_t, 1, false>(plan);
}
template <typename scalar_t>
GradWeightKernel grad_weight_kernel_of(const WeightGradPlan& plan, bool split_tf32, bool wgmma) {
  if (plan.shifted_x) return shifted_x_grad_weight_kernel<scalar_t>(plan);
  if (plan.row_groups > 1) {
    if constexpr (std::is_same<scalar_t, float>::value) return wgmma_rows_grad_weight_kernel<scalar_t>(plan);
    else return wgmma_rows16_grad_weight_kernel<scalar_t>(plan);
  }
  if (wgmma) return wgmma_grad_weight_kernel<scalar_t>(plan);
  if constexpr (std::is_same<scalar_t, float>::value) {
    if (split_tf32) return mma_grad_weight_kernel<float, true>(plan);
  }
  return mma_grad_weight_kernel<scalar_t, false>(plan);
}
// split_tf32: as uses_split_tf32 decided it. The unit's own data type only (TCONV_IGEMM_TYPES: its entry points
// hand the others on).
GradWeightKernel grad_weight_kernel(const WeightGradPlan& plan, DType dtype, bool split_tf32, bool wgmma) {
  if (dtype != kIgemmUnitDType) return {nullptr, 0};
  return grad_weight_kernel_of<IgemmUnitScalar>(plan, dtype == DType::kFloat32 && split_tf32, wgmma);
}
// Blocks of `kernel` resident at once on `device` (0 where the query fails: the splits then stay as planned).
// Cached per (kernel, device): the query reads the kernel's attributes, and two calls per grad_weight (the
// workspace size, then the launch) must agree.
int64_t grad_weight_slots(const GradWeightKernel& kernel, int device, int sm_count) {
  static std::mutex mutex;
  static std::map<std::pair<const void*, int>, int> cache;
  const std::pair<const void*, int> key{kernel.entry(), device};
  int per_sm = 0;
  {
    const std::lock_guard<std::mutex> lock(mutex);
    const auto it = cache.find(key);
    if (it != cache.end()) {
      per_sm = it->second;
    } else {
      if (kernel.entry() == nullptr || prepare_grad_weight_kernel(kernel) != cudaSuccess ||
          cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel.entry(), kernel.threads,
                                                        kernel.shared_bytes) != cudaSuccess) {
        (void)cudaGetLastError();  // a failed query leaves no error behind for the launch check
        per_sm = 0;
      }
      cache[key] = per_sm;
    }
  }
  return int64_t(per_sm) * std::max(sm_count, 1);
}

// C_in tiles of 32 (m64n32) stay on mma.sync: run 29 (H200, TF32 fwd+bwd, same script) measured the
// wgmma kernel slower there (L1-68 42.85 -> 43.65 ms, L1-71 4.08 -> 4.28) and faster on the 64-wide
// tiles (L2-61 7.41 -> 6.92, fam07 35.5 -> 31.6, fam06 13.55 -> 12.79). One-tap groups (kernel ==
// stride) stay too: run 32 (tconv bench) had the U-Net up-conv at 1.714 ms and the VAE's at 3.266
// against 1.516 / 2.920 with the mma.sync kernel (run 20). And only 3D kernels: run 34 (H200, TF32,
// tconv's autotune: grad_weight alone, both kernels back to back on the same tensors) had wgmma ahead
// on L2-61 (2.87 vs 3.11 ms), fam03 (5.82 vs 6.00) and fam07 (19.2 vs 20.8), level on fam02 (3.49 vs
// 3.46), and behind on every 1D/2D shape it took: fam01 7.09 vs 6.68, fam04 4.62 vs 4.43, fam05 4.23 vs
// 4.11, fam06 6.98 vs 6.56 (run 29's fam06 gain, a fwd+bwd figure, did not hold up here), DCGAN 1.17 vs 1.08, HiFi-GAN 12.4 vs 11.2 (not understood yet; the 3D
// shapes have 9 (kd, kh) tap rows per W group where the 2D ones have 3 or 7 and the 1D ones 1).
// TCONV_GRAD_WEIGHT_WGMMA_ANY_DIMS=1 (development only, read once per process) lifts the 3D condition, for A/B
// timings of 1D/2D shapes in one build (run 34's figures predate the ordered split-K).
bool grad_weight_wgmma_any_dims() {
  static const bool any = development_switch("TCONV_GRAD_WEIGHT_WGMMA_ANY_DIMS", 0) != 0;
  return any;
}
// TCONV_GRAD_WEIGHT_TF32_MMA_SYNC=0 (development only, read once per process) keeps fp32 data on the wgmma kernel at
// every C_in tile (grad_weight_keeps_wgmma), for A/B timings in one build.
bool grad_weight_tf32_mma_sync_allowed() {
  static const bool allowed = development_switch("TCONV_GRAD_WEIGHT_TF32_MMA_SYNC", 1) != 0;
  return allowed;
}
// Of the calls grad_weight_uses_wgmma gives the wgmma kernel, fp32 data (TF32) keep it only on its 48-wide C_in tile
// (33-48 input channels per group, where mma.sync's 64 rows would be a quarter padding); at 64-wide tiles the mma.sync
// kernel is now the faster (run 34 found the opposite before its stage cursor and split balancing; not profiled, and
// its <float, 2, 3, 3, 64> instantiation spills 24 / 40 bytes at nvcc 13.0). Run 320 (H100, one build,
// grad_weight alone as scripts/grad_weight_timing.py's k3d:N,C_in,C_out,S entries time it, "auto" = wgmma against
// igemm_mma = mma.sync, ms; N,C_in,C_out,S):
//   48-wide tile:  8,48,48,64 3.795 vs 4.267   8,48,96,48 3.161 vs 3.626   (fam07's 48 -> 24, run 319: 10.43 vs 14.22)
//   64-wide tiles: 16,64,128,32 (L2-61) 2.373 vs 2.166   16,64,64,32 1.458 vs 1.339   8,64,256,32 2.350 vs 2.130
//                  8,128,128,32 2.838 vs 2.568   16,128,64,32 2.799 vs 2.542   4,64,128,48 1.923 vs 1.781
//                  32,64,128,16 0.981 vs 0.961   4,64,64,64 2.295 vs 2.090   8,96,96,32 2.295 vs 2.151
//                  8,96,192,32 3.578 vs 3.365
// 16-bit data were not measured so (they take the shifted-x kernel where it runs) and keep the wgmma kernel.
bool grad_weight_keeps_wgmma(const WeightGradPlan& plan, DType dtype) {
  return dtype != DType::kFloat32 || plan.wgmma_block_n == 48 || !grad_weight_tf32_mma_sync_allowed();
}
bool grad_weight_uses_wgmma(const ConvTransposeParams& p, const WeightGradPlan& plan, DType dtype, bool split_tf32,
                            bool allow_wgmma, int device) {
  return use_wgmma(dtype, uses_split_tf32(dtype, split_tf32), allow_wgmma, device) && plan.warps_m == 2 &&
         plan.largest_group >= 2 && (p.kernel[0] > 1 || grad_weight_wgmma_any_dims());
}

// grad_weight's W fold, the forward's (fold_w) seen from the weights: at W stride s with s dividing the W
// kernel (d = 1), dW[ci, co, s*t + v] = sum over input positions i of x[i] * dy[s*(i + t) + v - p], so with the
// columns (co, v) and T = K / s taps of stride 1 it is the grad_weight of the folded problem, whose grad_output
// rows (real W s*u + v - p) are read through WeightGradArgs::fold. One block then holds all s values of v of
// its channels, so the s threads reading one 32-byte sector of grad_output are in one block (L1) instead of
// s blocks of s different tap groups (s times the L2 traffic of the strided strips). Taken where the folded
// weight is a 5-D strided view of the real one (T = 1, or kD = 1: sum_splits' 5 dims) and s divides a thread's
// rows between copies (4 * warps_m: then all of a thread's rows share one v).
bool grad_weight_fold_shape(const ConvTransposeParams& p) {
  const int64_t s = p.stride[2], k = p.kernel[2];
  return s > 1 && p.dilation[2] == 1 && k % s == 0 && (k == s || p.kernel[0] == 1);
}
ConvTransposeParams grad_weight_folded_params(const ConvTransposeParams& p) {
  ConvTransposeParams f = p;
  const int64_t s = p.stride[2];
  f.out_channels = p.out_channels * s;
  f.out_size[2] = (p.out_size[2] + p.padding[2] + s - 1) / s;
  f.kernel[2] = p.kernel[2] / s;
  f.stride[2] = f.dilation[2] = 1;
  f.padding[2] = 0;
  return f;
}
// "auto" folds wherever possible: run 40 (H200, scripts/fold_sweep.py, grad_weight alone, same tensors) measured
// TF32 HiFi-GAN 11.03 -> 6.94 ms, 1D k8 s4 1.01 -> 0.83, DCGAN 1.13 -> 1.09, U-Net/VAE k2 s2 3 % and 2 %;
// bf16 HiFi-GAN 9.55 -> 8.70, and one loss, bf16 DCGAN 1.33 -> 1.41.
struct WeightGradProblem {
  ConvTransposeParams p;  // the folded description where fold > 1
  WeightGradPlan plan;
  int fold;
  GradWeightKernel kernel;
  bool fp32_kept_off_shifted_x;  // fp32 data that the wgmma kernel takes (below), not offered the shifted-x one
};
// TCONV_GRAD_WEIGHT_ROWS=0 (development only, read once per process) keeps the wgmma / mma.sync kernels where
// grad_weight_takes_rows would take the rows kernel, for A/B timings in one build.
bool grad_weight_rows_allowed() {
  static const bool allowed = development_switch("TCONV_GRAD_WEIGHT_ROWS", 2) != 0;
  return allowed;
}
// The rows kernel for kD > 1 as well: its blocks (decode_weight_block's kd), stage cursor (id), TMA boxes (5-D maps;
// a grad_output D row outside the tensor is zero-filled) and sums (the folded [C_in, C_out/g, 2, kD, kH] view at
// T = 1) are written for any kD. Measured (run 361): U-Net 3D's k2 s2 grad_weight (256 x 1024 outputs over 65,536
// positions, 34 GFLOP) 0.542 ms on the mma.sync kernel (run 359) -> 0.270 on the rows kernel; the layer's TF32
// fwd+bwd 1.092 -> 0.822 ms, the U-Net block's 1.716 -> 1.444. TCONV_GRAD_WEIGHT_ROWS_3D=0 (development only, read
// once per process) keeps 3D problems off it, for A/B timings in one build.
bool grad_weight_rows_3d() {
  static const bool allowed = development_switch("TCONV_GRAD_WEIGHT_ROWS_3D", 1) != 0;
  return allowed;
}
// TCONV_GRAD_WEIGHT_ROWS16=0 (development only, read once per process) keeps fp16/bf16 problems off the 16-bit rows
// kernel (WeightWgmmaRows16Tile), on the widened mma.sync kernels, for A/B timings in one build.
bool grad_weight_rows16() {
  static const bool allowed = development_switch("TCONV_GRAD_WEIGHT_ROWS16", 1) != 0;
  return allowed;
}
// The rows kernel over channels-last fp32 data (tconv_igemm_grad_weight_wgmma_rows_specialized_kernel's kChannelsLast):
// x and grad_output both with their channels innermost and not W-contiguous, every other stride of both a whole 16
// bytes (the maps check the rest), the specialized form on. Why: TF32 channels_last k2 s2 ran its grad_weight on the
// mma.sync kernel, the largest of its kernels once the forward and grad_input read in place (run 572, H100:
// real_unet3d_up 0.786 of 1.374 ms of kernels per fwd+bwd, real_vae_up 1.485 of 2.712; contiguous, the rows kernel
// takes the 3D call's in 0.270 against the mma.sync kernel's 0.542, run 361). TF32 wgmma reads only K-major operands,
// and channels-last data are channel-major along this GEMM's K (positions): the rounders, which round x into the B
// tile anyway, read it across, and the A fragments are loaded from the raw rows at the pitch.
// Measured (run 576, H100, TF32 channels_last fwd+bwd ms, on against off): real_unet3d_up 0.836 / 1.321 (predicted
// ~0.85), real_vae_up 1.722 / 2.646 (~1.8), real_dcgan_up (k4 s2: two folded taps) 1.526 / 2.192; forwards equal.
// TCONV_GRAD_WEIGHT_ROWS_CHANNELS_LAST (development only, read once per process): 0 keeps such calls on the kernels
// they ran before; unset or anything else takes it.
bool grad_weight_rows_channels_last() {
  static const bool on = development_switch("TCONV_GRAD_WEIGHT_ROWS_CHANNELS_LAST", 1) != 0;
  return on;
}
bool rows_channels_last_taken(const ConvTransposeParams& real, DType dtype) {
  if (dtype != DType::kFloat32 || !grad_weight_rows_channels_last() || !grad_weight_rows_specialized()) return false;
  const int64_t *x = real.input_strides, *dy = real.output_strides;
  if (x[1] != 1 || dy[1] != 1 || (x[4] == 1 && dy[4] == 1)) return false;
  for (int i : {0, 2, 3, 4})
    if (x[i] % 4 != 0 || dy[i] % 4 != 0) return false;
  return true;
}
// The rows kernel (WeightWgmmaRowsTile; for fp16/bf16 WeightWgmmaRows16Tile) where it can run: fp32 data in TF32
// mode or fp16/bf16 data (TCONV_GRAD_WEIGHT_ROWS16=0: fp32 only) on sm_90a, a W fold of 2 (W stride
// 2, dilation 1, kernel 2 or 4), any kD (TCONV_GRAD_WEIGHT_ROWS_3D=0: kD = 1 only), an even kH, folded W tap
// groups of at most 2, 128 or more input channels per group, and both tensors as TMA tensor maps take them
// (W-contiguous, the other strides multiples of 16 bytes, 16-byte-aligned data; the driver's encoder available).
// real: the call's own description (the maps are over the real tensors); the encoder must accept both maps (e.g. a
// stride-0 expanded dimension may not be), so the workspace query and the launch agree.
bool grad_weight_takes_rows(const ConvTransposeParams& real, const ConvTransposeParams& folded, int fold,
                            const WeightGradPlan& plan, DType dtype, bool split_tf32, bool allow_wgmma, int device,
                            const void* input, const void* grad_output) {
#if defined(TCONV_TENSOR_MAPS)
  using T = WeightWgmmaRowsTile<2>;
  if (device < 0 || (dtype != DType::kFloat32 && !grad_weight_rows16()) || !grad_weight_rows_allowed() ||
      !use_wgmma(dtype, uses_split_tf32(dtype, split_tf32), allow_wgmma, device) || encode_tiled_fn() == nullptr)
    return false;
  if (fold != T::kFold || (folded.kernel[0] != 1 && !grad_weight_rows_3d()) || folded.kernel[1] % T::kRowGroups != 0 ||
      plan.largest_group > T::kMaxTaps || folded.in_per_group() < T::kBlockN)
    return false;
  if (reinterpret_cast<uintptr_t>(input) % 16 != 0 || reinterpret_cast<uintptr_t>(grad_output) % 16 != 0) return false;
  RowsWeightArgs trial{};
  if (rows_channels_last_taken(real, dtype))
    return rows_channels_last_maps(real, input, grad_output, trial) == cudaSuccess;
  const int64_t *x = folded.input_strides, *dy = folded.output_strides;
  if (x[4] != 1 || dy[4] != 1) return false;
  const int64_t align = 16 / element_bytes(dtype);  // elements per 16 bytes
  for (int i = 0; i < 4; ++i)
    if (x[i] % align != 0 || dy[i] % align != 0) return false;
  return rows_weight_tensor_maps(real, input, grad_output, trial, 0, dtype) == cudaSuccess;
#else
  (void)real, (void)folded, (void)fold, (void)plan, (void)dtype, (void)split_tf32, (void)allow_wgmma, (void)device,
      (void)input, (void)grad_output;
  return false;
#endif
}
// TCONV_GRAD_WEIGHT_SHIFTED_X=0 (development only, read once per process) keeps the other kernels where
// grad_weight_takes_shifted_x would take the shifted-x kernel, for A/B timings in one build.
bool grad_weight_shifted_x_allowed() {
  static const bool allowed = development_switch("TCONV_GRAD_WEIGHT_SHIFTED_X", 1) != 0;
  return allowed;
}
// Whether the shifted-x kernel slides the grad_output rows along its sweeps: with kShiftedXSlideMinStages stages or
// more (the launched kernel's GradWeightKernel::stages). TCONV_GRAD_WEIGHT_SHIFTED_X_SLIDE (development only, read
// once per process): 1 slides everywhere, 0 nowhere, unset the rule; for A/B timings in one build.
bool grad_weight_shifted_x_slide(int stages) {
  static const int mode = development_switch("TCONV_GRAD_WEIGHT_SHIFTED_X_SLIDE", -1);
  if (mode == 0 || mode == 1) return mode == 1;
  return stages >= kShiftedXSlideMinStages;
}
// The 16-bit shifted-x consumers load their grad_output fragments as 32-bit words where a row allows
// (RowsWeightArgs::word_fragments) rather than as 16-bit pairs (~8 instructions per fragment register against 1).
// Run 242 (H100, one build, unit 32, bf16 fwd+bwd ms, two rounds, pairs / words): L2-61 4.064-4.066 / 4.050-4.057,
// L1-68 14.40-14.41 / 14.32-14.34, fam06 5.21-5.22 / 5.09-5.10, fam03 6.07-6.15 / 6.00-6.09, fam02 2.73-2.75 /
// 2.69-2.71, L1-71 3.32-3.37 / 3.29-3.32: small gains everywhere (run 243's ncu: the kernel waits more than it
// issues). TCONV_GRAD_WEIGHT_SHIFTED_X_WORDS=0 (development only, read once per process) keeps the pairs.
bool grad_weight_shifted_x_words() {
  static const bool words = development_switch("TCONV_GRAD_WEIGHT_SHIFTED_X_WORDS", 1) != 0;
  return words;
}
// The channel-tile shifted-x kernel's boxes issued a lane each (RowsWeightArgs::lane_boxes) instead of by lane 0 in
// turn. Why: run 445's source counters had that kernel bound by producer lane 0's scalar work (the interleaved rows:
// 4 boxes a unit for fp32, 8 for 16-bit data). Run 447 (H200, one build, fam04 fwd+bwd ms, lane 0 / lane boxes): TF32
// 7.685 / 7.046, bf16 (channel tiles) 6.406 / 5.579; the same grad_weight bits (the same boxes land in the same
// shared memory). TCONV_GRAD_WEIGHT_SHIFTED_X_LANE_BOXES=0 (development only, read once per process) keeps lane 0.
bool shifted_x_lane_boxes() {
  static const bool on = development_switch("TCONV_GRAD_WEIGHT_SHIFTED_X_LANE_BOXES", 1) != 0;
  return on;
}
// TCONV_GRAD_WEIGHT_SHIFTED_X_16BIT=0 (development only, read once per process) keeps fp16/bf16 data on the other
// kernels where grad_weight_takes_shifted_x would take the shifted-x kernel, for A/B timings in one build.
bool grad_weight_shifted_x_16bit() {
  static const bool allowed = development_switch("TCONV_GRAD_WEIGHT_SHIFTED_X_16BIT", 1) != 0;
  return allowed;
}
// TCONV_GRAD_WEIGHT_SHIFTED_X_WIDE=0 (development only, read once per process) keeps the shifted-x kernel to what it
// took before W tap groups and several C_in tiles: kernel W <= 5, 16-32 input and >= 32 output channels per group,
// for A/B timings in one build.
bool grad_weight_shifted_x_wide() {
  static const bool wide = development_switch("TCONV_GRAD_WEIGHT_SHIFTED_X_WIDE", 1) != 0;
  return wide;
}
// The shifted-x kernel (WeightShiftedXTile) where it can run: fp32 data in TF32 mode, or fp16/bf16 data, on sm_90a; W
// stride and dilation 1, two or more (kd, kh) rows, >= 16 input and output channels per group (fewer would leave most
// of the m64n32 tiles as padding; C_in in tiles of 32, kernel W in groups of up to 5 taps: shifted_x_w_groups), and
// both tensors as TMA tensor maps take them (as grad_weight_takes_rows, with strides in 16-byte units of the data's
// elements), or a 16-bit grad_output that no map takes whose rows the producer warp copies instead
// (shifted_x_copy_dy_fits).
bool grad_weight_takes_shifted_x(const ConvTransposeParams& p, DType dtype, bool split_tf32, bool allow_wgmma,
                                 int device, const void* input, const void* grad_output) {
#if defined(TCONV_TENSOR_MAPS)
  using T = WeightShiftedXShape;
  if (device < 0 || !(dtype == DType::kFloat32 || (is_16bit(dtype) && grad_weight_shifted_x_16bit())) ||
      !grad_weight_shifted_x_allowed() ||
      !use_wgmma(dtype, uses_split_tf32(dtype, split_tf32), allow_wgmma, device) || encode_tiled_fn() == nullptr)
    return false;
  if (p.stride[2] != 1 || p.dilation[2] != 1 || p.in_per_group() < 16 || p.out_per_group() < 16) return false;
  // One (kd, kh) row (1D kernels) leaves two of the three consumer warpgroups computing padding: run 227 (H100, one
  // build, bf16 fwd+bwd) had fam04's k3 take 15.81-15.90 ms with the shifted-x kernel against 9.48 without. The
  // channel-tile form gives them C_out tiles of the one row instead (shifted_x_channel_tiles).
  if (p.kernel[0] * p.kernel[1] < 2 && !shifted_x_channel_tiles(p, dtype)) return false;
  if (!grad_weight_shifted_x_wide() &&
      (p.kernel[2] > T::kMaxKernelW || p.in_per_group() > T::kBlockN || p.out_per_group() < 32))
    return false;
  if (shifted_x_channels_last_taken(p, dtype)) {
    if (reinterpret_cast<uintptr_t>(input) % 16 != 0 || reinterpret_cast<uintptr_t>(grad_output) % 16 != 0)
      return false;
    RowsWeightArgs trial{};
    return shifted_x_channels_last_maps(p, input, grad_output, trial) == cudaSuccess;
  }
  const int64_t *x = p.input_strides, *dy = p.output_strides, align = elements_per_16_bytes(dtype);
  if (x[4] != 1 || dy[4] != 1) return false;
  if (!shifted_x_x_aligned(p, dtype) && !shifted_x_flat_x_fits(p, dtype)) return false;
  bool dy_rows_aligned = true;
  for (int i = 0; i < 4; ++i) dy_rows_aligned = dy_rows_aligned && dy[i] % align == 0;
  const bool channel_tiles = shifted_x_channel_tiles(p, dtype);
  if (!dy_rows_aligned && !(grad_weight_shifted_x_flat_dy() && shifted_x_flat_dy_fits(p, dtype)) &&
      !shifted_x_copy_dy_fits(p, dtype, grad_output) && !(channel_tiles && shifted_x_dy_interleave(p, dtype)))
    return false;
  if (reinterpret_cast<uintptr_t>(input) % 16 != 0) return false;
  // rows_weight_tensor_maps decides how grad_output is read (5-D map, flat map or copied rows); a map needs 16-byte
  // aligned data, the copied rows 4 (shifted_x_copy_dy_fits).
  RowsWeightArgs trial{};
  if (rows_weight_tensor_maps(p, input, grad_output, trial, shifted_x_unit(p, dtype), dtype, 1,
                              WeightShiftedXShape::kBlockM, channel_tiles) != cudaSuccess)
    return false;
  return trial.dy_copied || reinterpret_cast<uintptr_t>(grad_output) % 16 == 0;
#else
  (void)p, (void)dtype, (void)split_tf32, (void)allow_wgmma, (void)device, (void)input, (void)grad_output;
  return false;
#endif
}
// TCONV_GRAD_WEIGHT_SHIFTED_X_FP32_OVER_WGMMA=1 (development only, read once per process) lets fp32 data that the wgmma
// kernel takes reach the shifted-x kernel in the plain orientation too (the swapped one always may: grad_weight_swaps
// decides there), for A/B timings in one build. Run 401 (H200, one build, 0 / 1, TF32 fwd+bwd ms; both swap under 1):
// L2-61 5.021 / 4.575, fam03 7.379 / 6.897.
bool grad_weight_shifted_x_fp32_over_wgmma() {
  static const bool over = development_switch("TCONV_GRAD_WEIGHT_SHIFTED_X_FP32_OVER_WGMMA", 0) != 0;
  return over;
}
// input / grad_output: the rows kernel's alignment test (the workspace query passes the same pointers as the launch).
// swapped_way: the description is grad_weight_swaps' swapped one, whose fp32 data may take the shifted-x kernel
// where the rule below keeps them off it (grad_weight_swaps compares the work instead).
// fp32 data that the wgmma kernel takes (3D, > 32 input channels per group) stay off the shifted-x kernel, whose TF32
// form pays for its rounders: on the wgmma kernel, or the mma.sync one at 64-wide C_in tiles (grad_weight_keeps_wgmma);
// fp16/bf16 data, widened to TF32 in that kernel, take the shifted-x one. Run 225 (H100, one build,
// TCONV_GRAD_WEIGHT_SHIFTED_X_WIDE=1 / 0, two rounds, fwd+bwd ms), shifted-x / before:
//   TF32: L2-61 6.15-6.19 / 5.61-5.65, fam03 8.32-8.45 / 7.52-7.57, fam07 23.17 / 19.31 (these keep the wgmma kernel);
//         fam06 7.43-7.54 / 10.07, fam05 5.65-5.68 / 7.10-7.16, fam02 3.34 / 3.80, fam01 12.64-12.69 / 14.10,
//         fam11 4.93-4.97 / 6.89 (2D and kernel W 7 ones had the mma.sync kernel);
//   bf16: L2-61 4.01-4.04 / 5.05, fam03 6.00-6.05 / 7.10-7.13, fam07 15.83 / 18.76-18.84, fam06 5.10-5.13 / 9.74-9.75,
//         fam02 2.61 / 5.35-5.39, fam11 3.40-3.45 / 6.23-6.24.
WeightGradProblem grad_weight_problem(const ConvTransposeParams& p, DType dtype, bool split_tf32, bool allow_wgmma,
                                      GatherFold mode, int sm_count, int64_t max_workspace_elems, const void* input,
                                      const void* grad_output, bool swapped_way) {
  WeightGradProblem w{p, plan_grad_weight(p, dtype, split_tf32, sm_count, max_workspace_elems), 1, {}, false};
  if (mode != GatherFold::kOff && grad_weight_fold_shape(p)) {
    const ConvTransposeParams f = grad_weight_folded_params(p);
    const WeightGradPlan plan = plan_grad_weight(f, dtype, split_tf32, sm_count, max_workspace_elems);
    if (plan.rows_per_pass % p.stride[2] == 0) {
      w.p = f;
      w.plan = plan;
      w.fold = int(p.stride[2]);
    }
  }
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) {
    (void)cudaGetLastError();
    device = -1;  // no balancing; the launch reports the error
  }
  if (w.fold > 1 &&
      grad_weight_takes_rows(p, w.p, w.fold, w.plan, dtype, split_tf32, allow_wgmma, device, input, grad_output)) {
    w.plan =
        plan_grad_weight(w.p, dtype, split_tf32, sm_count, max_workspace_elems, WeightWgmmaRowsTile<2>::kRowGroups);
    w.plan.rows_channels_last = rows_channels_last_taken(p, dtype);
  } else if (w.fold == 1) {
    w.fp32_kept_off_shifted_x = dtype == DType::kFloat32 && device >= 0 && !swapped_way &&
                                !grad_weight_shifted_x_fp32_over_wgmma() &&
                                grad_weight_uses_wgmma(w.p, w.plan, dtype, split_tf32, allow_wgmma, device);
    if (!w.fp32_kept_off_shifted_x &&
        grad_weight_takes_shifted_x(p, dtype, split_tf32, allow_wgmma, device, input, grad_output))
      w.plan = plan_grad_weight_shifted_x(p, dtype, sm_count, max_workspace_elems);
  }
  const bool wgmma = device >= 0 && grad_weight_uses_wgmma(w.p, w.plan, dtype, split_tf32, allow_wgmma, device) &&
                     grad_weight_keeps_wgmma(w.plan, dtype);
  w.kernel = grad_weight_kernel(w.plan, dtype, uses_split_tf32(dtype, split_tf32), wgmma);
  if (device >= 0) balance_grad_weight_splits(w.plan, grad_weight_slots(w.kernel, device, sm_count));
  return w;
}
}  // namespace

namespace {
// WeightStageCursor's row offset steps (after the sizes and strides are set): the next H row; the next D row from
// the last H row; the next image from the last D and H rows. grad_output rows move by the conv strides.
void set_weight_grad_row_steps(WeightGradArgs& a) {
  const int64_t h_last = a.in_size[1] - 1, d_last = a.in_size[0] - 1;
  const int64_t dy_h = int64_t(a.stride[1]) * a.dy_stride[3], dy_d = int64_t(a.stride[0]) * a.dy_stride[2];
  a.x_row_step[0] = a.x_stride[3];
  a.x_row_step[1] = a.x_stride[2] - h_last * a.x_stride[3];
  a.x_row_step[2] = a.x_stride[0] - d_last * a.x_stride[2] - h_last * a.x_stride[3];
  a.dy_row_step[0] = dy_h;
  a.dy_row_step[1] = dy_d - h_last * dy_h;
  a.dy_row_step[2] = a.dy_stride[0] - d_last * dy_d - h_last * dy_h;
}
}  // namespace

#if TCONV_IGEMM_TYPES == TCONV_IGEMM_TYPES_FLOAT
bool igemm_grad_weight_supported(const ConvTransposeParams& p) {
  const int64_t big = int64_t(1) << 30;
  for (int i = 0; i < 3; ++i)
    if (p.in_size[i] >= big || p.out_size[i] >= big || p.kernel[i] >= big || p.stride[i] >= big ||
        p.padding[i] >= big || p.dilation[i] * p.kernel[i] >= big)
      return false;
  // Upper bound of the tile count (one tap per W group) must index a 1-D grid.
  const int64_t tiles = p.kernel_volume() * p.groups * ((p.in_per_group() + 31) / 32) * ((p.out_per_group() + 63) / 64);
  return tiles < (int64_t(1) << 31) && p.batch * p.in_size[0] * p.in_size[1] < (int64_t(1) << 40);
}

bool igemm_grad_weight_preferred(const ConvTransposeParams& p) {
  return p.in_per_group() * p.out_per_group() >= kGradWeightIgemmMinChannelProduct;
}

bool igemm_grad_weight_takes_channel_tiles(const ConvTransposeParams& p, DType dtype, bool split_tf32, bool allow_wgmma,
                                           const void* input, const void* grad_output) {
  if (!shifted_x_channel_tiles(p, dtype)) return false;
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return grad_weight_takes_shifted_x(p, dtype, split_tf32, allow_wgmma, device, input, grad_output);
}

TCONV_IGEMM_DECLARE_16BIT(int64_t, igemm_grad_weight_workspace_elems,
                          (const ConvTransposeParams& p, DType dtype, bool split_tf32, bool allow_wgmma,
                           GatherFold fold, int sm_count, int64_t max_workspace_elems, const void* input,
                           const void* grad_output))
TCONV_IGEMM_DECLARE_16BIT(cudaError_t, igemm_grad_weight,
                          (const ConvTransposeParams& real, DType dtype, bool split_tf32, bool allow_wgmma,
                           GatherFold fold, const void* input, const void* grad_output, void* grad_weight,
                           float* workspace, int sm_count, int64_t max_workspace_elems, cudaStream_t stream))
#endif  // TCONV_IGEMM_TYPES_FLOAT

// The fp32 buffers of split sums (ordered: grad_weight_turn_buffers, followed by the ticket and the split counters:
// WeightGradArgs::split_turns).
int64_t grad_weight_workspace_elems(const WeightGradPlan& plan, int64_t weight_numel) {
  const int64_t buffers = grad_weight_turn_buffers(plan);
  return plan.ordered ? buffers * weight_numel + 1 + buffers * plan.tiles : plan.splits * weight_numel;
}

namespace {
// The swapped grad_weight. At stride 1, grad_weight[ci][co][k] = sum over images and input positions i of
// x[ci][i] dy[co][i - p + k d] is also the grad_weight of the problem whose input is grad_output and whose grad_output
// is x: C_out -> C_in channels, padding d (K - 1) - p, the same kernel and dilation, tap K - 1 - k. Its result
// [C_out][C_in][k'] is grad_weight transposed and flipped (the sum's view, swapped_grad_weight_view). Where the channel
// counts or the W lengths tile badly one way (fam07: 24 output channels of the shifted-x kernel's 64-row tiles, W_out
// 98 in units of 32), the other way can tile better (48 of 64, W 96 in units of 48). Groups 1 only (the view
// of a grouped result would need a sixth dimension); every padding within d (K - 1) and no output_padding (the
// output size in + d (K - 1) - 2 p), which stride 1 implies unless the dilation is above 1.
bool swapped_grad_weight_params(const ConvTransposeParams& p, ConvTransposeParams* swapped) {
  if (p.groups != 1) return false;
  for (int i = 0; i < 3; ++i) {
    const int64_t reach = p.dilation[i] * (p.kernel[i] - 1);
    if (p.stride[i] != 1 || p.padding[i] > reach || p.out_size[i] != p.in_size[i] + reach - 2 * p.padding[i])
      return false;
  }
  *swapped = p;
  swapped->in_channels = p.out_channels;
  swapped->out_channels = p.in_channels;
  for (int i = 0; i < 3; ++i) {
    swapped->in_size[i] = p.out_size[i];
    swapped->out_size[i] = p.in_size[i];
    swapped->padding[i] = p.dilation[i] * (p.kernel[i] - 1) - p.padding[i];
  }
  for (int i = 0; i < 5; ++i) {
    swapped->input_strides[i] = p.output_strides[i];
    swapped->output_strides[i] = p.input_strides[i];
  }
  // The swapped weight [C_out, C_in, kD, kH, kW], contiguous; only its shape is read.
  swapped->weight_strides[4] = 1;
  swapped->weight_strides[3] = p.kernel[2];
  swapped->weight_strides[2] = p.kernel[1] * p.kernel[2];
  swapped->weight_strides[1] = p.kernel_volume();
  swapped->weight_strides[0] = p.in_channels * p.kernel_volume();
  return true;
}
// TCONV_GRAD_WEIGHT_SWAP (development only, read once per process): 0 never swaps, 1 swaps wherever
// swapped_grad_weight_params allows (any kernel), for A/B timings in one build; unset, grad_weight_swaps' rule.
int grad_weight_swap_switch() {
  static const int mode = development_switch("TCONV_GRAD_WEIGHT_SWAP", -1);
  return mode;
}
// The shifted-x kernel's work in grad_output positions (kShiftedXUnitFixedPositions) of the plan `plan_p` gave, counted
// at one row slot per warpgroup: the swap rule's bounds were measured so, and a packed unit costs about its slots'
// worth of unpacked ones (run 410: fam02 bf16, 4 slots, ~1.65 against ~0.84 us), so packing, which both ways may
// take, changes neither's rank (it would have kept fam07's TF32 form off its swapped way: 0.80 of the plain count).
double shifted_x_work(const WeightGradPlan& plan, const ConvTransposeParams& plan_p) {
  using T = WeightShiftedXShape;
  const int64_t rows = plan_p.kernel[0] * plan_p.kernel[1];
  const int64_t packed_row_tiles = (rows + T::kRows * plan.shifted_x_slots - 1) / (T::kRows * plan.shifted_x_slots);
  const double tiles = double(plan.tiles) / double(packed_row_tiles) * double((rows + T::kRows - 1) / T::kRows);
  return tiles * double(plan.units) * (double(plan.shifted_x_unit) + kShiftedXUnitFixedPositions);
}
// Whether grad_weight runs swapped (its description in *swapped): where the swapped way takes the shifted-x kernel
// and would do less work than the plain way's shifted-x kernel (kGradWeightSwapMaxWork), or than the plain way's
// shifted-x plan where fp32 data keep the wgmma kernel (kGradWeightSwapOverWgmmaMaxWork), or the plain way takes
// neither (measurements with the constants).
bool grad_weight_swaps(const ConvTransposeParams& p, DType dtype, bool split_tf32, bool allow_wgmma, GatherFold fold,
                       int sm_count, int64_t max_workspace_elems, const void* input, const void* grad_output,
                       ConvTransposeParams* swapped) {
  const int mode = grad_weight_swap_switch();
  if (mode == 0 || !swapped_grad_weight_params(p, swapped)) return false;
  if (mode == 1) return true;
  const WeightGradPlan other = grad_weight_problem(*swapped, dtype, split_tf32, allow_wgmma, fold, sm_count,
                                                   max_workspace_elems, grad_output, input, true)
                                   .plan;
  if (!other.shifted_x) return false;
  const WeightGradProblem plain = grad_weight_problem(p, dtype, split_tf32, allow_wgmma, fold, sm_count,
                                                      max_workspace_elems, input, grad_output, false);
  if (plain.plan.shifted_x)
    return shifted_x_work(other, *swapped) < kGradWeightSwapMaxWork * shifted_x_work(plain.plan, p);
  if (plain.fp32_kept_off_shifted_x)
    return shifted_x_work(other, *swapped) <
           kGradWeightSwapOverWgmmaMaxWork *
               shifted_x_work(plan_grad_weight_shifted_x(p, dtype, sm_count, max_workspace_elems), p);
  return true;
}
// Where the swapped sums go: element (co, ci, k') of the swapped result is grad_weight[ci][co][K - 1 - k'], a view
// with negative tap strides from the last tap.
void* swapped_grad_weight_view(const ConvTransposeParams& p, DType dtype, void* grad_weight, int64_t sizes[5],
                               int64_t strides[5]) {
  const int64_t* ws = p.weight_strides;
  const int64_t view_sizes[5] = {p.out_channels, p.in_channels, p.kernel[0], p.kernel[1], p.kernel[2]};
  const int64_t view_strides[5] = {ws[1], ws[0], -ws[2], -ws[3], -ws[4]};
  std::copy(view_sizes, view_sizes + 5, sizes);
  std::copy(view_strides, view_strides + 5, strides);
  const int64_t last = (p.kernel[0] - 1) * ws[2] + (p.kernel[1] - 1) * ws[3] + (p.kernel[2] - 1) * ws[4];
  return static_cast<char*>(grad_weight) + last * element_bytes(dtype);
}
}  // namespace

int64_t TCONV_IGEMM_TYPED(igemm_grad_weight_workspace_elems)(const ConvTransposeParams& p, DType dtype,
                                                             bool split_tf32, bool allow_wgmma, GatherFold fold,
                                                             int sm_count, int64_t max_workspace_elems,
                                                             const void* input, const void* grad_output) {
  TCONV_IGEMM_ROUTE_16BIT(dtype, igemm_grad_weight_workspace_elems, p, dtype, split_tf32, allow_wgmma, fold, sm_count,
                          max_workspace_elems, input, grad_output);
  ConvTransposeParams swapped;
  const bool swap = grad_weight_swaps(p, dtype, split_tf32, allow_wgmma, fold, sm_count, max_workspace_elems, input,
                                      grad_output, &swapped);
  const WeightGradPlan plan = grad_weight_problem(swap ? swapped : p, dtype, split_tf32, allow_wgmma, fold, sm_count,
                                                  max_workspace_elems, swap ? grad_output : input,
                                                  swap ? input : grad_output, swap)
                                  .plan;
  return grad_weight_workspace_elems(plan, p.in_channels * p.out_per_group() * p.kernel_volume());
}

namespace {
cudaError_t launch_grad_weight(const ConvTransposeParams& real, DType dtype, bool split_tf32, bool allow_wgmma,
                               GatherFold fold, const void* input, const void* grad_output, void* grad_weight,
                               const int64_t* view_sizes, const int64_t* view_strides, float* workspace,
                               int sm_count, int64_t max_workspace_elems, cudaStream_t stream);
}  // namespace

cudaError_t TCONV_IGEMM_TYPED(igemm_grad_weight)(const ConvTransposeParams& real, DType dtype, bool split_tf32,
                                                 bool allow_wgmma, GatherFold fold, const void* input,
                                                 const void* grad_output, void* grad_weight, float* workspace,
                                                 int sm_count, int64_t max_workspace_elems, cudaStream_t stream) {
  TCONV_IGEMM_ROUTE_16BIT(dtype, igemm_grad_weight, real, dtype, split_tf32, allow_wgmma, fold, input, grad_output,
                          grad_weight, workspace, sm_count, max_workspace_elems, stream);
  if (dtype != kIgemmUnitDType) return cudaErrorInvalidValue;
  ConvTransposeParams swapped;
  if (grad_weight_swaps(real, dtype, split_tf32, allow_wgmma, fold, sm_count, max_workspace_elems, input, grad_output,
                        &swapped)) {
    int64_t sizes[5], strides[5];
    void* const last_tap = swapped_grad_weight_view(real, dtype, grad_weight, sizes, strides);
    return launch_grad_weight(swapped, dtype, split_tf32, allow_wgmma, fold, grad_output, input, last_tap, sizes,
                              strides, workspace, sm_count, max_workspace_elems, stream);
  }
  return launch_grad_weight(real, dtype, split_tf32, allow_wgmma, fold, input, grad_output, grad_weight, nullptr,
                            nullptr, workspace, sm_count, max_workspace_elems, stream);
}

namespace {
// view_sizes / view_strides (or null: real's weight): where the sums of real's [C_in, C_out/g, kD, kH, kW] go; set,
// real is grad_weight_swaps' swapped description and is planned as such.
cudaError_t launch_grad_weight(const ConvTransposeParams& real, DType dtype, bool split_tf32, bool allow_wgmma,
                               GatherFold fold, const void* input, const void* grad_output, void* grad_weight,
                               const int64_t* view_sizes, const int64_t* view_strides, float* workspace,
                               int sm_count, int64_t max_workspace_elems, cudaStream_t stream) {
  const WeightGradProblem problem = grad_weight_problem(real, dtype, split_tf32, allow_wgmma, fold, sm_count,
                                                       max_workspace_elems, input, grad_output, view_sizes != nullptr);
  const ConvTransposeParams& p = problem.p;
  const WeightGradPlan& plan = problem.plan;
  // The partial sums are row-major over [C_in, C_out/g, kD, kH, kW] of the described problem; folded, that
  // is [C_in, C_out/g, s, kD, kH, T] with real tap s*t + v, a strided view of the weight where T = 1 or kD = 1.
  const int64_t* ws = real.weight_strides;
  int64_t sizes[5] = {real.in_channels, real.out_per_group(), real.kernel[0], real.kernel[1], real.kernel[2]};
  int64_t strides[5] = {ws[0], ws[1], ws[2], ws[3], ws[4]};
  if (view_sizes != nullptr) {  // a swapped problem (stride 1: never folded)
    std::copy(view_sizes, view_sizes + 5, sizes);
    std::copy(view_strides, view_strides + 5, strides);
  }
  if (problem.fold > 1 && p.kernel[2] == 1) {
    const int64_t folded[5] = {real.in_channels, real.out_per_group(), problem.fold, real.kernel[0], real.kernel[1]};
    const int64_t folded_strides[5] = {ws[0], ws[1], ws[4], ws[2], ws[3]};
    std::copy(folded, folded + 5, sizes);
    std::copy(folded_strides, folded_strides + 5, strides);
  } else if (problem.fold > 1) {  // kD = 1
    const int64_t folded[5] = {real.in_channels, real.out_per_group(), problem.fold, real.kernel[1], p.kernel[2]};
    const int64_t folded_strides[5] = {ws[0], ws[1], ws[4], ws[3], problem.fold * ws[4]};
    std::copy(folded, folded + 5, sizes);
    std::copy(folded_strides, folded_strides + 5, strides);
  }
  const int64_t weight_numel = real.in_channels * real.out_per_group() * real.kernel_volume();
  if (plan.units == 0) {
    const cudaError_t err = cudaMemsetAsync(workspace, 0, sizeof(float) * weight_numel, stream);
    if (err != cudaSuccess) return err;
    return sum_splits(dtype, workspace, 1, sizes, strides, grad_weight, stream);
  }
  WeightGradArgs a{};
  a.fold = problem.fold;
  a.fold_padding = problem.fold > 1 ? int(real.padding[2]) : 0;
  a.fold_out_w = int(real.out_size[2]);
  a.x = input;
  a.dy = grad_output;
  a.partial = workspace;
  const int64_t turn_buffers = grad_weight_turn_buffers(plan);
  if (plan.ordered) {
    static_assert(sizeof(int) == sizeof(float), "the split turns share the float workspace");
    a.split_turns = reinterpret_cast<int*>(workspace + turn_buffers * weight_numel);
    a.turn_buffers = int(turn_buffers);
    const cudaError_t err =
        cudaMemsetAsync(a.split_turns, 0, sizeof(int) * (1 + turn_buffers * plan.tiles), stream);
    if (err != cudaSuccess) return err;
  }
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
  set_weight_grad_row_steps(a);
  a.w_groups = plan.w_groups;
  a.max_taps = plan.max_taps;
  a.w_chunks = plan.w_chunks;
  a.units = plan.units;
  a.chunk = plan.chunk;
  a.weight_numel = weight_numel;
  if (problem.kernel.entry() == nullptr) return cudaErrorInvalidValue;
  const dim3 grid(unsigned(plan.tiles), unsigned(plan.splits));
  const cudaError_t prepared = prepare_grad_weight_kernel(problem.kernel);
  if (prepared != cudaSuccess) return prepared;
  if (problem.kernel.rows_fn != nullptr) {
#if defined(TCONV_TENSOR_MAPS)
    RowsWeightArgs rows{};
    rows.a = a;
    rows.batch = int(p.batch);
    rows.slide = plan.shifted_x && !plan.shifted_x_channel_tiles && real.stride[1] == 1 && real.dilation[1] == 1 &&
                 grad_weight_shifted_x_slide(problem.kernel.stages);
    rows.word_fragments = plan.shifted_x && grad_weight_shifted_x_words();
    rows.lane_boxes = plan.shifted_x_channel_tiles && shifted_x_lane_boxes();
    const int dy_channels =
        plan.shifted_x_narrow ? WeightShiftedXShape::kNarrowDyChannels : WeightShiftedXShape::kBlockM;
    const cudaError_t mapped =
        plan.shifted_x && plan.shifted_x_channels_last ? shifted_x_channels_last_maps(real, input, grad_output, rows)
        : plan.row_groups > 1 && plan.rows_channels_last ? rows_channels_last_maps(real, input, grad_output, rows)
            : rows_weight_tensor_maps(real, input, grad_output, rows, plan.shifted_x ? plan.shifted_x_unit : 0, dtype,
                                      plan.shifted_x ? plan.shifted_x_slots : 1, dy_channels,
                                      plan.shifted_x_channel_tiles);
    if (mapped != cudaSuccess) return mapped;
    problem.kernel.rows_fn<<<grid, problem.kernel.threads, size_t(problem.kernel.shared_bytes), stream>>>(rows);
#endif
  } else {
    problem.kernel.fn<<<grid, problem.kernel.threads, 0, stream>>>(a);
  }
  const cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) return err;
  return sum_splits(dtype, workspace, plan.ordered ? turn_buffers : plan.splits, sizes, strides, grad_weight, stream);
}
}  // namespace

#endif  // TCONV_IGEMM_PART_GRAD_WEIGHT

}  // namespace tconv
