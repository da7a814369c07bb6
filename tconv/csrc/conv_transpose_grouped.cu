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
// grad_weight stays on the direct kernel (see the note at the end of the file).
#include <algorithm>
#include "conv_transpose.h"
#include "dispatch.h"

namespace tconv {
namespace {

constexpr int kThreads = 256;
// Resident blocks per SM asked of ptxas (its register cap: 4 -> 64, 3 -> 80 registers). Chosen
// from `nvcc -Xptxas -v` (nvcc 13.0, sm_90) so the fp32 8x8 instantiations do not spill: the
// forward fits 64 registers (1024 threads/SM), grad_input needs 80 (768 threads/SM). Not measured.
constexpr int kForwardMinBlocksPerSm = 4;
constexpr int kGradInputMinBlocksPerSm = 3;
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

template <typename scalar_t, int CI, int CO>
__global__ void __launch_bounds__(kThreads, kForwardMinBlocksPerSm)
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
  if (phase >= sw || ow >= OW) return;  // no barrier follows
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
  for (int row = bp.row_begin; row < bp.row_end; row += geo.rows_parallel) {
    if (od != walked_od) {  // rows advance along H first: the D walk changes rarely
      walk_d = forward_taps<int>(od, int(p.kernel[0]), int(p.stride[0]), int(p.padding[0]), int(p.dilation[0]),
                                 int(p.in_size[0]), st.k_step[0], st.i_step[0]);
      walked_od = od;
    }
    const TapWalk<int> walk_h = forward_taps<int>(oh, KH, int(p.stride[1]), int(p.padding[1]), int(p.dilation[1]),
                                                  int(p.in_size[1]), st.k_step[1], st.i_step[1]);
    acc_t acc[CO];
    accumulate_taps<scalar_t, CI, CO>(walk_d, walk_h, walk_w, x_group, xs1, xs2, xs3, xs4, cin, vec_in, ws, KH, KW,
                                      acc);
    if (bias_group != nullptr) {
#pragma unroll
      for (int co = 0; co < CO; ++co)
        if (co < cout) acc[co] += to_acc(bias_group[co * int(p.bias_stride)]);
    }
    store_channels<scalar_t, CO>(y_col + od * ys2 + oh * ys3, ys1, cout, vec_out, acc);
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

}  // namespace

bool grouped_supported(const ConvTransposeParams& p, DType dtype) {
  const int64_t cin = p.in_per_group(), cout = p.out_per_group();
  if (cin < 1 || cin > kGroupedMaxChannels || cout < 1 || cout > kGroupedMaxChannels) return false;
  if (shared_bytes(p, dtype) > kGroupedMaxSharedBytes) return false;
  // 32-bit offsets throughout: every tensor's reachable offsets and element counts below 2^31.
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

cudaError_t grouped_forward(const ConvTransposeParams& p, DType dtype, const void* input, const void* weight,
                            const void* bias, void* output, int sm_count, cudaStream_t stream) {
  if (p.batch * p.out_channels * p.out_spatial() == 0) return cudaSuccess;
  if (!grouped_supported(p, dtype)) return cudaErrorInvalidValue;
  PhaseSteps st;
  for (int i = 0; i < kSpatialDims; ++i) {
    const int64_t g = gcd_of<int64_t>(p.stride[i], p.dilation[i]);
    st.k_step[i] = static_cast<int>(p.stride[i] / g);
    st.i_step[i] = static_cast<int>(p.dilation[i] / g);
  }
  const int64_t wq = (p.out_size[2] + p.stride[2] - 1) / p.stride[2];
  const Geometry geo = make_geometry(p, p.out_size[0] * p.out_size[1], p.stride[2] * wq, sm_count);
  if (geo.blocks > 0x7fffffff) return cudaErrorInvalidConfiguration;
  const size_t smem = static_cast<size_t>(shared_bytes(p, dtype));
  return TCONV_DTYPE_SWITCH(dtype, scalar_t, [&] {
    return TCONV_POW2_SWITCH(round_up_pow2(p.in_per_group()), CI, [&] {
      return TCONV_POW2_SWITCH(round_up_pow2(p.out_per_group()), CO, [&] {
        const bool vec_in = channels_vectorizable<scalar_t, CI>(input, p.input_strides, p.in_per_group());
        const bool vec_out = channels_vectorizable<scalar_t, CO>(output, p.output_strides, p.out_per_group());
        tconv_grouped_forward_kernel<scalar_t, CI, CO>
            <<<static_cast<unsigned int>(geo.blocks), dim3(geo.tile_w, geo.rows_parallel), smem, stream>>>(
                p, st, geo, static_cast<const scalar_t*>(input), static_cast<const scalar_t*>(weight),
                static_cast<const scalar_t*>(bias), static_cast<scalar_t*>(output), vec_in, vec_out);
        return cudaGetLastError();
      });
    });
  });
}

cudaError_t grouped_grad_input(const ConvTransposeParams& p, DType dtype, const void* grad_output,
                               const void* weight, void* grad_input, int sm_count, cudaStream_t stream) {
  if (p.batch * p.in_channels * p.in_spatial() == 0) return cudaSuccess;
  if (!grouped_supported(p, dtype)) return cudaErrorInvalidValue;
  const Geometry geo = make_geometry(p, p.in_size[0] * p.in_size[1], p.in_size[2], sm_count);
  if (geo.blocks > 0x7fffffff) return cudaErrorInvalidConfiguration;
  const size_t smem = static_cast<size_t>(shared_bytes(p, dtype));
  return TCONV_DTYPE_SWITCH(dtype, scalar_t, [&] {
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

// grad_weight is not specialised here. The direct kernel already keeps an 8x8 (ci, co) tile of
// one tap in registers and reduces over positions with split-K, which is the register blocking
// this file would add; a grouped version would win only by reading each input once for all taps
// instead of once per tap (27x fewer L2 reads on L1-73), which needs a different loop order
// (position-major with per-tap accumulators: 8x8x27 values per thread do not fit in registers).
// Left for a measurement of where the direct grad_weight actually spends its time.

}  // namespace tconv
