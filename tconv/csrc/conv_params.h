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
// Bytes per element of the type.
constexpr int element_bytes(DType dtype) {
  return dtype == DType::kFloat64 ? 8 : dtype == DType::kFloat32 ? 4 : 2;
}
// fp16 or bf16.
constexpr bool is_16bit(DType dtype) { return element_bytes(dtype) == 2; }

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

// The same in 32 bits, for kernels whose extents fit (conv_transpose_one_tap.cu: a 64-bit division is a call of ~70
// instructions, and its block-uniform indices paid it in every thread; run 525: fam13's forward 0.463 -> 0.404 ms).
TCONV_HOST_DEVICE bool input_index_for_tap(int o, int k, int s, int p, int d, int in_size, int* i) {
  const int t = o + p - k * d;
  if (t < 0) return false;
  const int q = t / s;
  if (q * s != t || q >= in_size) return false;
  *i = q;
  return true;
}

// Along a dimension where the taps fall within one stride (d (k - 1) < s), output o = i*s - p + r receives at most one
// tap: k = r / d where d divides r (conv_transpose_one_tap.cu).
TCONV_HOST_DEVICE bool one_tap_dimension(int64_t k, int64_t s, int64_t d) { return d * (k - 1) < s; }

// grad_input (scatter inverted into a gather over taps): o = i*s - p + k*d.
TCONV_HOST_DEVICE bool output_index_for_tap(int64_t i, int64_t k, int64_t s, int64_t p, int64_t d,
                                            int64_t out_size, int64_t* o) {
  const int64_t q = i * s - p + k * d;
  if (q < 0 || q >= out_size) return false;
  *o = q;
  return true;
}

// Phase-aware tap walks (register-blocked kernels): the taps of one dim that connect an index to
// the other side, as an arithmetic progression, so a kernel loops over exactly those taps without
// a division per tap. Tap t of the walk is k = k + t * k_step with index idx + t * idx_step, for t
// in [0, count). Same set, in increasing k, as the taps input_index_for_tap /
// output_index_for_tap accept (checked exhaustively in tests/test_conv_params_cpu.py).
template <typename I>
struct TapWalk {
  I k, k_step, idx, idx_step, count;
};

template <typename I> TCONV_HOST_DEVICE I gcd_of(I a, I b) {
  while (b != 0) {
    const I t = a % b;
    a = b;
    b = t;
  }
  return a;
}

// Forward (gather into output o): o + p - k*d must be a multiple of s. Those k repeat every
// s / gcd(s, d) taps and their input index falls by d / gcd(s, d) per repeat; both steps are
// loop-invariant, pass them in (k_step = s / gcd(s, d), i_step = d / gcd(s, d)).
template <typename I>
TCONV_HOST_DEVICE TapWalk<I> forward_taps(I o, I K, I s, I p, I d, I in_size, I k_step, I i_step) {
  TapWalk<I> w{0, k_step, 0, -i_step, 0};
  const I base = o + p;
  I k0 = 0;
  while (k0 < k_step && k0 < K && (base - k0 * d) % s != 0) ++k0;
  if (k0 >= k_step || k0 >= K) return w;  // no tap of this phase lies in the kernel
  const I i0 = (base - k0 * d) / s;      // exact; may be out of range on either side
  if (i0 < 0) return w;                   // the index only falls from here
  const I t_lo = i0 >= in_size ? (i0 - in_size + i_step) / i_step : I(0);  // first t with idx < in_size
  I t_hi = (K - k0 + k_step - 1) / k_step;                                 // taps inside the kernel
  const I t_nonneg = i0 / i_step + 1;                                      // taps with idx >= 0
  if (t_nonneg < t_hi) t_hi = t_nonneg;
  if (t_hi <= t_lo) return w;
  w.k = k0 + t_lo * k_step;
  w.idx = i0 - t_lo * i_step;
  w.count = t_hi - t_lo;
  return w;
}

// grad_input (gather from grad_output at o = i*s - p + k*d): every k whose o lies in [0, out_size).
template <typename I>
TCONV_HOST_DEVICE TapWalk<I> grad_input_taps(I i, I K, I s, I p, I d, I out_size) {
  TapWalk<I> w{0, 1, 0, d, 0};
  const I base = i * s - p;  // o of tap 0
  if (base > out_size - 1) return w;
  const I k_lo = base >= 0 ? I(0) : (-base + d - 1) / d;
  I k_hi = (out_size - 1 - base) / d + 1;
  if (K < k_hi) k_hi = K;
  if (k_hi <= k_lo) return w;
  w.k = k_lo;
  w.idx = base + k_lo * d;
  w.count = k_hi - k_lo;
  return w;
}

// grad_weight GEMM: taps along the kernel's W that read one grad_output strip. Tap k reads output
// W position s*i + k*d - p for input position i; k and k + period (period = s / gcd(s, d)) hit the
// same positions modulo s, shifted by shift_step = d / gcd(s, d) whole input positions. Taps of one
// residue class are split into balanced groups of at most max_taps whose shifts span at most
// max_shift. Group `index` (in the fixed order: residue, then k) is tap kw0 + t * kw_step at strip
// shift t * shift_step, t < count; its strip position c reads output W s * (i0 + c) + kw0 * d - p.
// Returns the number of groups (and fills *group for index when group is not null).
struct WTapGroup {
  int kw0, kw_step, count, shift_step;
};

TCONV_HOST_DEVICE int weight_w_tap_groups(int K, int s, int d, int max_taps, int max_shift, int index,
                                          WTapGroup* group) {
  const int common = gcd_of(s, d);
  const int period = s / common, shift_step = d / common;
  int per_group = max_shift / shift_step + 1;
  if (per_group > max_taps) per_group = max_taps;
  int total = 0;
  for (int r = 0; r < period && r < K; ++r) {
    const int taps = (K - r + period - 1) / period;
    const int groups = (taps + per_group - 1) / per_group;
    const int size = (taps + groups - 1) / groups;  // balanced: 5 taps by 4 -> 3 + 2
    if (group != nullptr && index >= total && index < total + groups) {
      const int first = (index - total) * size;
      group->kw0 = r + first * period;
      group->kw_step = period;
      group->count = taps - first < size ? taps - first : size;
      group->shift_step = shift_step;
    }
    total += groups;
  }
  return total;
}

// Grouped grad_weight staging: the output (grad_output) indices that input indices [i0, i0 + count)
// reach through taps [0, K), as a box: it begins at i0*s - p (input i0, tap 0) and input i0 + j,
// tap k lies at box offset j*s + k*d (the o = i*s - p + k*d of output_index_for_tap), so the box
// spans (count - 1)*s + (K - 1)*d + 1 indices. Parts of it may lie outside [0, out_size).
template <typename I>
struct OutputBox {
  I begin, extent;
};
template <typename I> TCONV_HOST_DEVICE OutputBox<I> output_box_of_inputs(I i0, I count, I K, I s, I p, I d) {
  return OutputBox<I>{i0 * s - p, (count - 1) * s + (K - 1) * d + 1};
}
template <typename I> TCONV_HOST_DEVICE I output_box_offset(I j, I k, I s, I d) { return j * s + k * d; }

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


// grad_bias's view of grad_output: per channel, a sum over the reduction dims N, D, H, W. Dims of
// size 1 are dropped, the rest sorted by stride (innermost first) and merged where one continues
// the other (stride == inner size * inner stride), so contiguous NC(D)HW becomes [N][D*H*W, stride
// 1] and channels_last(_3d) one dim of N*D*H*W positions at stride C. The element order of a sum
// changes nothing here but speed: kernels reduce each element exactly once, in a fixed order.
template <typename I>
struct StridedDims {
  static constexpr int kMaxDims = 4;
  int count = 1;  // >= 1: a lone size-1 dim (stride 0) when nothing is reduced
  I size[kMaxDims] = {1, 1, 1, 1};
  I stride[kMaxDims] = {0, 0, 0, 0};

  TCONV_HOST_DEVICE I numel() const {
    I n = 1;
    for (int d = 0; d < count; ++d) n *= size[d];
    return n;
  }
  // Offset of flat index `idx` (innermost fastest) over dims [first, count), computed in J (a
  // kernel's 32/64-bit index type; the dims stay in the kernel's parameter space, not registers).
  // The outermost of those dims takes the quotient without a division, so one dim is a multiply.
  template <typename J> TCONV_HOST_DEVICE J offset(J idx, int first) const {
    J off = 0;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (int d = 0; d < kMaxDims; ++d) {
      if (d < first || d >= count) continue;
      if (d == count - 1) {
        off += idx * static_cast<J>(stride[d]);
      } else {
        const J q = idx / static_cast<J>(size[d]);
        off += (idx - q * static_cast<J>(size[d])) * static_cast<J>(stride[d]);
        idx = q;
      }
    }
    return off;
  }
};

// sizes/strides: the reduction dims in any order (grad_bias passes N, D, H, W). Sizes must be > 0.
inline StridedDims<int64_t> collapse_reduction_dims(const int64_t* sizes, const int64_t* strides, int n) {
  StridedDims<int64_t> dims;
  int64_t sz[StridedDims<int64_t>::kMaxDims], st[StridedDims<int64_t>::kMaxDims];
  int kept = 0;
  for (int i = 0; i < n && kept < StridedDims<int64_t>::kMaxDims; ++i) {
    if (sizes[i] == 1) continue;
    // Insertion by |stride|, innermost first; equal strides keep their given order.
    const int64_t a = strides[i] < 0 ? -strides[i] : strides[i];
    int at = kept;
    while (at > 0 && (st[at - 1] < 0 ? -st[at - 1] : st[at - 1]) > a) {
      sz[at] = sz[at - 1];
      st[at] = st[at - 1];
      --at;
    }
    sz[at] = sizes[i];
    st[at] = strides[i];
    ++kept;
  }
  if (kept == 0) return dims;  // count 1, size 1, stride 0
  dims.count = 1;
  dims.size[0] = sz[0];
  dims.stride[0] = st[0];
  for (int i = 1; i < kept; ++i) {
    const int last = dims.count - 1;
    if (st[i] == dims.size[last] * dims.stride[last]) {
      dims.size[last] *= sz[i];
    } else {
      dims.size[dims.count] = sz[i];
      dims.stride[dims.count] = st[i];
      ++dims.count;
    }
  }
  return dims;
}

// Even split of [0, total) into `parts` ranges: part k is [total*k/parts, total*(k+1)/parts).
TCONV_HOST_DEVICE int64_t split_begin(int64_t total, int64_t parts, int64_t k) {
  return static_cast<int64_t>((static_cast<unsigned long long>(total) * static_cast<unsigned long long>(k)) /
                              static_cast<unsigned long long>(parts));
}

// grad_input at unit stride as a unit-stride forward of grad_output: with o = i - p + k dil, grad_x[i] =
// sum_k dy[i - p + k dil] w[k], a transposed convolution of dy by w~[k'] = w[K - 1 - k'] at padding dil (K - 1) - p
// (o' + p' - k' dil = i - p + k dil). Channels swap roles (C_in: grad_output's channels, C_out: grad_input's); the
// returned weight strides are negative along the kernel, so the caller points the weights at w[0, 0, kD - 1, kH - 1,
// kW - 1] (unit_stride_flipped_weight_offset elements in).
inline ConvTransposeParams unit_stride_grad_input_as_forward(const ConvTransposeParams& p) {
  ConvTransposeParams q = p;
  q.in_channels = p.out_channels;
  q.out_channels = p.in_channels;
  for (int i = 0; i < 3; ++i) {
    q.in_size[i] = p.out_size[i];
    q.out_size[i] = p.in_size[i];
    q.padding[i] = p.dilation[i] * (p.kernel[i] - 1) - p.padding[i];
  }
  for (int i = 0; i < 5; ++i) {
    q.input_strides[i] = p.output_strides[i];
    q.output_strides[i] = p.input_strides[i];
  }
  q.weight_strides[0] = p.weight_strides[1];
  q.weight_strides[1] = p.weight_strides[0];
  for (int i = 2; i < 5; ++i) q.weight_strides[i] = -p.weight_strides[i];
  q.bias_stride = 0;
  return q;
}
// Interleaved grad_output rows of the shifted-x grad_weight's channel-tile form (RowsWeightArgs::dy_interleave): R = 2
// or 4 channels' D x H x W planes back to back as one row of a tensor map. A tile of 64 channels arrives as R boxes:
// box `sub` holds channel sub of each R and fills tile rows sub x 64 / R onwards, so tile row r lies in box
// interleaved_row_box(r, R) and holds the tile's channel interleaved_row_channel(r, R) = R (r % (64 / R)) + r / (64 / R).
// A warp's 16 rows lie in one box for R <= 4 (tests/cpp/interleaved_rows_check.cpp).
TCONV_HOST_DEVICE int interleaved_box_rows(int interleave) { return 64 / interleave; }
TCONV_HOST_DEVICE int interleaved_row_box(int row, int interleave) { return row / interleaved_box_rows(interleave); }
TCONV_HOST_DEVICE int interleaved_row_channel(int row, int interleave) {
  const int box_rows = interleaved_box_rows(interleave);
  return interleave * (row % box_rows) + row / box_rows;
}
// The channel-tile form's lane boxes (RowsWeightArgs::lane_boxes): producer lane 0 issues a unit's x box, lane 1 + k its
// grad_output box k, which is box `sub` = k % R (interleaved_row_box's) of C_out tile k / R; R = boxes_per_tile (1 for
// rows that are not interleaved). Lane 0: tile -1.
struct LaneBox {
  int tile, sub;
};
TCONV_HOST_DEVICE LaneBox interleaved_lane_box(int lane, int boxes_per_tile) {
  if (lane < 1) return LaneBox{-1, 0};
  return LaneBox{(lane - 1) / boxes_per_tile, (lane - 1) % boxes_per_tile};
}

inline int64_t unit_stride_flipped_weight_offset(const ConvTransposeParams& p) {
  return (p.kernel[0] - 1) * p.weight_strides[2] + (p.kernel[1] - 1) * p.weight_strides[3] +
         (p.kernel[2] - 1) * p.weight_strides[4];
}

}  // namespace tconv
