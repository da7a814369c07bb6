// The TMA gather: the forward and grad_input GEMMs of conv_transpose_igemm.cu (same M, N, K, same packed weights),
// with A fed by the TMA unit instead of per-thread 4-byte gathers. One of the four translation units of
// conv_transpose_igemm.cu (why: its head).
//
// Why: the cp.async gather tiles stay near 35 % of the TF32 rate on the large-channel rows (run 319's ncu of DCGAN's
// forward: 402 us, issue slots 35 %, no eligible warp 63 %, one block of 16 warps per SM). Their A tile is stored
// [K][M] (positions contiguous, as NCHW lays them out) and reaches the wgmmas through register fragments: each MMA
// thread loads and rounds its A words for every k8 step, and the producers issue one 4-byte copy per (position,
// channel). Here the source is first copied once to channels-last (N, D, H, W, C) and rounded to TF32 on the way
// (tconv_gather_tma_channels_last_kernel). A stage's A tile, 128 positions x 32 channels, is then one TMA box of that
// copy: the box's position dimensions are the tile's rows, K-major, 128-byte rows in the 128-byte swizzle, which is
// the layout wgmma reads by descriptor. So both operands come from shared memory, one thread issues all copies, and
// the two MMA warpgroups only wait, issue four wgmmas and release.
//
// Which calls: sm_90a, fp32 data in TF32 mode, phase grids whose extents split into boxes of exactly 128 positions
// (W extent a multiple of 128, or a power of two whose multiples fill whole H (and D) tiles), every phase of the same
// extent, source steps within the TMA's traversal stride (<= 8, boxes <= 256 elements per dimension), and the group's
// K channels whole 32-channel chunks (or one group, whose last chunk the box fills with zeros past the tensor).
// Grad_input at stride s reads grad_output at every s-th position: the box's traversal stride does that.
// Under "igemm_tma" only (not measured yet, igemm_config.h: TmaGatherNarrowTile) it also takes grids no box tiles
// exactly (the fewest-rows box; the rows past the grid read whatever the box holds there and are not stored) and
// runs calls of at most 64 columns on 64-column tiles.
#define TCONV_IGEMM_PART TCONV_IGEMM_PART_TMA
#include "conv_transpose_igemm.cu"

namespace tconv {
namespace {

#if defined(TCONV_TENSOR_MAPS)


struct TmaGatherArgs {
  CUtensorMap src_map;  // the channels-last TF32 copy: (C, W, H, D, N), boxes of 32 channels x the tile's positions
  GatherArgs g;         // geometry, taps, packed weights and destination, as the gather kernels take them
  int tile[3];          // positions of a tile along D, H, W (their product is kBlockM)
  int tiles[3];         // tiles per phase along D, H, W (the last may run past the extent)
  int extent[3];        // the phase grid along D, H, W: rows at or past it are not stored
  int n_tiles;          // column tiles of a group
};

// K-major, 128-byte swizzle (8-row atoms of 1024 bytes, 1024-byte aligned): start address, leading byte offset 1 (not
// used when a wgmma's K fits one swizzle row), stride byte offset 1024 (the next 8 rows), layout type 1 (128B).
__device__ __forceinline__ WgmmaDescriptor wgmma_descriptor_sw128(const float* tile) {
  const uint32_t address = static_cast<uint32_t>(__cvta_generic_to_shared(tile));
  return {((address & 0x3FFFF) >> 4) | (1u << 16), uint32_t(1024 >> 4) | (1u << 30)};
}

__device__ __forceinline__ void mma_warpgroups_sync() { asm volatile("bar.sync 1, 256;\n" ::: "memory"); }

// Blocks: column tiles fastest, then phases, then M tiles, so the column tiles of one A box run together (the box is
// read from L2 once per column tile instead of once from DRAM) and the phases of one M tile meet in L2 as the
// gather kernels' do.
template <class T>
__global__ void __launch_bounds__(T::kThreads, 1)
tconv_igemm_gather_tma_kernel(const __grid_constant__ TmaGatherArgs t) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  constexpr int BM = T::kBlockM, BN = T::kBlockN, BK = T::kBlockK, kStages = T::kStages, kLdC = T::kLdC;
  const GatherArgs& a = t.g;
  extern __shared__ __align__(1024) unsigned char tma_gather_smem[];
  // The swizzled boxes need 1024-byte alignment, which the dynamic allocation does not promise (gather_tma sizes it
  // with that much slack).
  float* smem = reinterpret_cast<float*>((reinterpret_cast<uintptr_t>(tma_gather_smem) + 1023) & ~uintptr_t(1023));
  int4* tap_table = reinterpret_cast<int4*>(smem + kStages * T::kStageFloats);
  __shared__ int tap_lists[3][kMaxKernelPerDim][2];
  __shared__ int tap_counts[3];
  __shared__ float column_bias[BN];
  __shared__ uint64_t stage_full[kStages], stage_empty[kStages];

  const int phase_count = a.phases[0] * a.phases[1] * a.phases[2];
  int64_t block = blockIdx.x;
  const int n_tile = int(block % t.n_tiles);
  block /= t.n_tiles;
  int ph = int(block % phase_count);
  int64_t m_tile = block / phase_count;
  int r[3];
  r[2] = ph % a.phases[2];
  ph /= a.phases[2];
  r[1] = ph % a.phases[1];
  r[0] = ph / a.phases[1];
  int j0[3];
#pragma unroll
  for (int i = 2; i >= 0; --i) {
    j0[i] = int(m_tile % t.tiles[i]) * t.tile[i];
    m_tile /= t.tiles[i];
  }
  const int n_img = int(m_tile);
  const int g = blockIdx.y, n0 = n_tile * BN;
  const int tid = threadIdx.x;

  if (a.bias != nullptr) {  // published by the tap table's barriers
    const int64_t first = int64_t(g) * a.n_channels + n0;
    for (int c = tid; c < BN; c += T::kThreads)
      column_bias[c] = n0 + c < a.n_channels ? static_cast<const float*>(a.bias)[(first + c) * a.bias_stride] : 0.f;
  }
  if (tid == 0) {
    for (int s = 0; s < kStages; ++s) {
      mbarrier_init(&stage_full[s], 1);                 // the producer's arrival with the stage's bytes
      mbarrier_init(&stage_empty[s], T::kMmaThreads);  // every MMA thread's release
    }
    fence_mbarrier_init();
  }
  const int taps = build_tap_table(a, r, tap_table, tap_lists, tap_counts);
  const int chunks = (a.k_rows + BK - 1) / BK;
  const int iterations = taps * chunks;

  if (tid >= T::kMmaThreads) {
    if (tid != T::kMmaThreads) return;
    // Producer: stage `it` holds tap it / chunks at channel chunk it % chunks. A is the box whose corner is the
    // tile's first position at that tap's source shift; B the packed weights' contiguous BK x BN slice.
    const float* b_base = a.packed_weight + int64_t(g) * a.taps_total * a.k_pad * a.ldw + int64_t(n_tile) * BK * BN;
    const int64_t b_tap_step = int64_t(a.k_pad) * a.ldw, b_chunk_step = int64_t(BK) * a.ldw;
    int stage = 0, tap = 0, chunk = 0;
    uint32_t empty_parity = 0;
    for (int it = 0; it < iterations; ++it) {
      if (it >= kStages) mbarrier_wait(&stage_empty[stage], empty_parity);
      const int4 info = tap_table[tap];
      float* As = smem + stage * T::kStageFloats;
      mbarrier_arrive_expect_tx(&stage_full[stage], T::kStageBytes);
      tma_load_5d(As, &t.src_map, g * a.k_channels + chunk * BK, j0[2] * a.src_step[2] + info.z,
                  j0[1] * a.src_step[1] + info.y, j0[0] * a.src_step[0] + info.x, n_img, &stage_full[stage]);
      bulk_copy_to_shared(As + T::kStageAFloats, b_base + info.w * b_tap_step + chunk * b_chunk_step,
                          T::kStageBFloats * sizeof(float), &stage_full[stage]);
      if (++chunk == chunks) {
        chunk = 0;
        ++tap;
      }
      if (++stage == kStages) {
        stage = 0;
        if (it >= kStages) empty_parity ^= 1;
      }
    }
    return;
  }

  // MMA warpgroups: rows 64 wg .. 64 wg + 63 of every stage's A box against the whole B slice. One wgmma group stays
  // in flight: a stage is released once the group after it has been issued and its own has completed.
  const int warpgroup = uniform_warpgroup();
  float acc[BN / 2];
#pragma unroll
  for (int i = 0; i < BN / 2; ++i) acc[i] = 0.f;
  int stage = 0, previous = 0;
  uint32_t full_parity = 0;
  for (int it = 0; it < iterations; ++it) {
    mbarrier_wait(&stage_full[stage], full_parity);
    const float* As = smem + stage * T::kStageFloats;
    const WgmmaDescriptor a_desc = wgmma_descriptor_sw128(As + warpgroup * 64 * BK);
    const WgmmaDescriptor b_desc = wgmma_descriptor(As + T::kStageAFloats);
    wgmma_fence();
#pragma unroll
    for (int k8 = 0; k8 < BK / 8; ++k8)  // a k8 step is 32 bytes along the swizzled row, 8 x BN floats of B
      wgmma_tf32_shared<BN>(acc, a_desc.at(uint32_t(k8 * 2)), b_desc.at(uint32_t(k8 * 8 * BN * 4 / 16)));
    wgmma_commit();
    wgmma_wait<1>();
    if (it > 0) mbarrier_arrive(&stage_empty[previous]);
    previous = stage;
    if (++stage == kStages) {
      stage = 0;
      full_parity ^= 1;
    }
  }
  wgmma_wait<0>();

  // Epilogue: every stage has been read (each MMA thread waited for its last group); stage the tile as [N][M] with the
  // bias, then each thread writes one position for every other column, so a warp's stores run along W.
  mma_warpgroups_sync();
  float* Cs = smem;
  const int warp = tid / 32, lane = tid % 32, gid = lane / 4, tig = lane % 4;
  const int row = (warp / 4) * 64 + (warp % 4) * 16 + gid;
  const bool has_bias = a.bias != nullptr;
#pragma unroll
  for (int j = 0; j < BN / 8; ++j) {  // accumulator 4 j + 2 h + l: row + 8 h, column 8 j + 2 tig + l
    const int col = j * 8 + 2 * tig;
    const float b0 = has_bias ? column_bias[col] : 0.f, b1 = has_bias ? column_bias[col + 1] : 0.f;
    Cs[col * kLdC + row] = acc[4 * j] + b0;
    Cs[(col + 1) * kLdC + row] = acc[4 * j + 1] + b1;
    Cs[col * kLdC + row + 8] = acc[4 * j + 2] + b0;
    Cs[(col + 1) * kLdC + row + 8] = acc[4 * j + 3] + b1;
  }
  mma_warpgroups_sync();
  const int m = tid % BM, first_col = tid / BM;
  const int lw = m % t.tile[2], lh = (m / t.tile[2]) % t.tile[1], ld = m / (t.tile[2] * t.tile[1]);
  if (j0[0] + ld >= t.extent[0] || j0[1] + lh >= t.extent[1] || j0[2] + lw >= t.extent[2]) return;
  float* out = static_cast<float*>(a.dst) + int64_t(n_img) * a.dst_stride[0] +
               int64_t(r[0] + (j0[0] + ld) * a.dst_step[0]) * a.dst_stride[2] +
               int64_t(r[1] + (j0[1] + lh) * a.dst_step[1]) * a.dst_stride[3] +
               int64_t(r[2] + (j0[2] + lw) * a.dst_step[2]) * a.dst_stride[4] +
               (int64_t(g) * a.n_channels + n0 + first_col) * a.dst_stride[1];
  const int columns = min(BN, a.n_channels - n0);
  const int64_t column_step = 2 * a.dst_stride[1];
  const float* staged = Cs + first_col * kLdC + m;
#pragma unroll 4
  for (int col = first_col; col < columns; col += 2) {
    *out = *staged;
    out += column_step;
    staged += 2 * kLdC;
  }
#endif
}

// src (N, C, D, H, W at any strides) -> dst (N, D, H, W, c_pitch) contiguous, TF32-rounded (the wgmmas truncate what
// they read; rounding here gives the gather kernels' round-to-nearest). A block moves 32 positions x 32 channels
// through shared memory, reading along positions and writing along channels; channels c..c_pitch stay unwritten
// (the tensor map's channel extent stops at C).
__global__ void __launch_bounds__(256) tconv_gather_tma_channels_last_kernel(
    const float* __restrict__ src, float* __restrict__ dst, int64_t s0, int64_t s1, int64_t s2, int64_t s3, int64_t s4,
    int channels, int c_pitch, int size_h, int size_w, int64_t positions) {
  __shared__ float tile[32][33];
  const int64_t p0 = int64_t(blockIdx.x) * 32;
  const int c0 = blockIdx.y * 32, n = blockIdx.z;
  const int tx = threadIdx.x % 32, ty = threadIdx.x / 32;
  const int64_t p = p0 + tx;
  if (p < positions) {
    const int w = int(p % size_w), h = int((p / size_w) % size_h), d = int(p / (int64_t(size_w) * size_h));
    const float* from = src + n * s0 + d * s2 + h * s3 + w * s4;
    for (int c = ty; c < 32; c += 8)
      if (c0 + c < channels) tile[c][tx] = __uint_as_float(to_tf32(from[(c0 + c) * s1]));
  }
  __syncthreads();
  for (int i = ty; i < 32; i += 8) {
    const int64_t q = p0 + i;
    if (q < positions && c0 + tx < channels) dst[(n * positions + q) * c_pitch + c0 + tx] = tile[tx][i];
  }
}

// The plan of a call on the TMA gather, or ok = false.
struct TmaGatherPlan {
  bool ok = false;
  GatherArgs args{};
  int tile[3] = {1, 1, 1}, tiles[3] = {1, 1, 1}, extent[3] = {1, 1, 1};
  int block_n = TmaGatherTile::kBlockN, n_tiles = 0, c_pitch = 0;
  int64_t packed_elems = 0, copy_offset = 0, copy_elems = 0;
};
// The box of a phase grid of extents e (D, H, W): 128 positions, whole along W unless W holds several boxes.
bool tma_gather_tile(const int (&e)[3], int (&tile)[3]) {
  constexpr int kPositions = TmaGatherTile::kBlockM;
  if (e[2] % kPositions == 0) {
    tile[0] = tile[1] = 1;
    tile[2] = kPositions;
    return true;
  }
  if (kPositions % e[2] != 0) return false;
  tile[2] = e[2];
  const int rest = kPositions / e[2];
  if (e[1] % rest == 0) {
    tile[0] = 1;
    tile[1] = rest;
    return true;
  }
  if (rest % e[1] != 0 || e[0] % (rest / e[1]) != 0) return false;
  tile[1] = e[1];
  tile[0] = rest / e[1];
  return true;
}
// Where no box tiles the grid exactly ("igemm_tma" only): the power-of-two box of 128 positions whose whole boxes
// cover the grid with the fewest rows, within the TMA's 256 elements per box dimension (tile x source step).
bool tma_gather_partial_tile(const int (&e)[3], const int (&src_step)[3], int (&tile)[3]) {
  constexpr int kPositions = TmaGatherTile::kBlockM;
  int64_t best = -1;
  for (int tw = 1; tw <= kPositions; tw *= 2) {
    for (int th = 1; tw * th <= kPositions; th *= 2) {
      const int td = kPositions / (tw * th);
      const int t[3] = {td, th, tw};
      int64_t rows = 1;
      bool fits = true;
      for (int i = 0; i < 3; ++i) {
        fits = fits && t[i] * src_step[i] <= 256 && (t[i] == 1 || t[i] < 2 * e[i]);
        rows *= int64_t((e[i] + t[i] - 1) / t[i]) * t[i];
      }
      if (fits && (best < 0 || rows < best)) {
        best = rows;
        for (int i = 0; i < 3; ++i) tile[i] = t[i];
      }
    }
  }
  return best > 0;
}
// TCONV_GATHER_TMA=0 (development only, read once per process) keeps "auto" and "igemm" off the TMA gather, for A/B
// timings in one build.
bool gather_tma_enabled() {
  static const bool enabled = development_switch("TCONV_GATHER_TMA", 1) != 0;
  return enabled;
}
// TCONV_GATHER_TMA_WIDE=0 (development only, read once per process) keeps every call on the 128-column tile.
bool gather_tma_wide_enabled() {
  static const bool enabled = development_switch("TCONV_GATHER_TMA_WIDE", 1) != 0;
  return enabled;
}
TmaGatherPlan plan_tma_gather(const ConvTransposeParams& p, GatherPass pass, DType dtype, bool split_tf32,
                              const GatherOptions& options) {
  TmaGatherPlan plan;
  if (options.tma == GatherTma::kOff || (options.tma == GatherTma::kAuto && !gather_tma_enabled())) return plan;
  if (dtype != DType::kFloat32 || split_tf32 || !options.allow_wgmma || !igemm_supported(p, pass)) return plan;
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) {
    (void)cudaGetLastError();
    return plan;
  }
  if (!wgmma_available(device) || encode_tiled_fn() == nullptr) return plan;
  GatherArgs a = make_args(p, pass, nullptr, nullptr, nullptr, nullptr);
  // One group's chunks must not reach into the next group's channels; a single group's last chunk reads zeros past
  // the tensor.
  if (a.groups > 1 && a.k_channels % TmaGatherTile::kBlockK != 0) return plan;
  // "auto" and "igemm": igemm_config.h, TmaGatherTile (the measurements); "igemm_tma" takes any call it can run.
  if (options.tma == GatherTma::kAuto &&
      (a.n_channels < TmaGatherTile::kBlockN || int64_t(max_phase_taps(a)) * a.k_rows < kTmaGatherMinK))
    return plan;
  int e[3];
  for (int i = 0; i < 3; ++i) {
    if (a.dst_size[i] % a.dst_step[i] != 0 || a.src_step[i] > 8) return plan;
    e[i] = a.dst_size[i] / a.dst_step[i];
  }
  const bool forced = options.tma == GatherTma::kForce;
  if (!tma_gather_tile(e, plan.tile) && !(forced && tma_gather_partial_tile(e, a.src_step, plan.tile))) return plan;
  for (int i = 0; i < 3; ++i) {
    if (plan.tile[i] * a.src_step[i] > 256) return plan;
    plan.tiles[i] = (e[i] + plan.tile[i] - 1) / plan.tile[i];
    plan.extent[i] = e[i];
  }
  const int64_t m_tiles = int64_t(a.batch) * plan.tiles[0] * plan.tiles[1] * plan.tiles[2];
  if (a.n_channels >= TmaGatherWideTile::kBlockN && gather_tma_wide_enabled()) plan.block_n = TmaGatherWideTile::kBlockN;
  if (forced && a.n_channels <= TmaGatherNarrowTile::kBlockN) plan.block_n = TmaGatherNarrowTile::kBlockN;
  plan.n_tiles = (a.n_channels + plan.block_n - 1) / plan.block_n;
  if (m_tiles * a.phases[0] * a.phases[1] * a.phases[2] * plan.n_tiles > 0x7fffffff) return plan;
  const int64_t channels = int64_t(a.groups) * a.k_channels;
  plan.c_pitch = int((channels + 3) / 4 * 4);  // the map's strides are whole 16 bytes
  const int64_t positions = int64_t(a.src_size[0]) * a.src_size[1] * a.src_size[2];
  if (positions >= (int64_t(1) << 31) || a.batch > 65535) return plan;
  a.ldw = plan.n_tiles * plan.block_n;  // whole packed blocks of the tile's width
  plan.packed_elems = packed_weight_elems(a);
  plan.copy_offset = (plan.packed_elems + 255) / 256 * 256;
  plan.copy_elems = int64_t(a.batch) * positions * plan.c_pitch;
  plan.args = a;
  plan.ok = true;
  return plan;
}

// Packs the weights in T's column blocks, copies the source to channels-last, encodes its map and launches T's kernel.
template <class T>
cudaError_t run_tma_gather(const ConvTransposeParams& p, TmaGatherPlan& plan, const void* weight, float* workspace,
                           cudaStream_t stream) {
  GatherArgs& a = plan.args;
  float* copy = workspace + plan.copy_offset;
  if (plan.packed_elems > 0) {
    const unsigned int grid = unsigned(std::min<int64_t>(plan.packed_elems / (8 * T::kBlockN), 8192));
    tconv_igemm_pack_weight_kernel<float><<<std::max(grid, 1u), 256, 0, stream>>>(
        static_cast<const float*>(weight), p.weight_strides[0], p.weight_strides[1], p.weight_strides[2],
        p.weight_strides[3], p.weight_strides[4], a.kernel[1], a.kernel[2], a.groups, a.taps_total, a.k_channels,
        a.block_k, a.k_pad, a.n_channels, a.ldw, T::kBlockN, true, a.forward, true, a.fold, a.fold_kernel_w,
        a.fold_dilation, workspace);
    const cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) return err;
  }
  const int64_t positions = int64_t(a.src_size[0]) * a.src_size[1] * a.src_size[2];
  const int channels = a.groups * a.k_channels;
  {
    const dim3 grid(unsigned((positions + 31) / 32), unsigned((channels + 31) / 32), unsigned(a.batch));
    tconv_gather_tma_channels_last_kernel<<<grid, 256, 0, stream>>>(
        static_cast<const float*>(a.src), copy, a.src_stride[0], a.src_stride[1], a.src_stride[2], a.src_stride[3],
        a.src_stride[4], channels, plan.c_pitch, a.src_size[1], a.src_size[2], positions);
    const cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) return err;
  }
  TmaGatherArgs t{};
  t.g = a;
  for (int i = 0; i < 3; ++i) {
    t.tile[i] = plan.tile[i];
    t.tiles[i] = plan.tiles[i];
    t.extent[i] = plan.extent[i];
  }
  t.n_tiles = plan.n_tiles;
  const EncodeTiledFn encode = encode_tiled_fn();
  if (encode == nullptr) return cudaErrorNotSupported;
  const cuuint64_t b = sizeof(float);
  const cuuint64_t dims[5] = {cuuint64_t(channels), cuuint64_t(a.src_size[2]), cuuint64_t(a.src_size[1]),
                              cuuint64_t(a.src_size[0]), cuuint64_t(a.batch)};
  const cuuint64_t row = cuuint64_t(plan.c_pitch) * b;
  const cuuint64_t bytes[4] = {row, row * a.src_size[2], row * a.src_size[2] * a.src_size[1],
                               row * cuuint64_t(positions)};
  // The box traverses tile x step source positions per dimension and keeps every step-th (grad_input's stride).
  const cuuint32_t box[5] = {cuuint32_t(T::kBlockK), cuuint32_t(plan.tile[2] * a.src_step[2]),
                             cuuint32_t(plan.tile[1] * a.src_step[1]), cuuint32_t(plan.tile[0] * a.src_step[0]), 1};
  const cuuint32_t steps[5] = {1, cuuint32_t(a.src_step[2]), cuuint32_t(a.src_step[1]), cuuint32_t(a.src_step[0]), 1};
  const CUresult encoded = encode(&t.src_map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 5, copy, dims, bytes, box, steps,
                                  CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                  CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (encoded != CUDA_SUCCESS) return cudaErrorInvalidValue;
  const int64_t blocks = int64_t(a.batch) * plan.tiles[0] * plan.tiles[1] * plan.tiles[2] * a.phases[0] *
                         a.phases[1] * a.phases[2] * plan.n_tiles;
  const int taps = max_phase_taps(a);
  const size_t smem = size_t(T::kStages) * T::kStageBytes + 1024 + size_t(taps) * sizeof(int4);
  auto kernel = tconv_igemm_gather_tma_kernel<T>;
  cudaError_t err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem));
  if (err != cudaSuccess) return err;
  kernel<<<dim3(unsigned(blocks), unsigned(a.groups)), T::kThreads, smem, stream>>>(t);
  return cudaGetLastError();
}

#endif  // TCONV_TENSOR_MAPS

}  // namespace

int64_t gather_tma_workspace_elems(const ConvTransposeParams& p, GatherPass pass, DType dtype, bool split_tf32,
                                   const GatherOptions& options) {
#if defined(TCONV_TENSOR_MAPS)
  const TmaGatherPlan plan = plan_tma_gather(p, pass, dtype, split_tf32, options);
  return plan.ok ? plan.copy_offset + plan.copy_elems : 0;
#else
  (void)p, (void)pass, (void)dtype, (void)split_tf32, (void)options;
  return 0;
#endif
}

cudaError_t gather_tma(const ConvTransposeParams& p, GatherPass pass, const GatherOptions& options, const void* src,
                       const void* weight, const void* bias, void* dst, float* workspace, cudaStream_t stream) {
#if defined(TCONV_TENSOR_MAPS)
  TmaGatherPlan plan = plan_tma_gather(p, pass, DType::kFloat32, false, options);
  if (!plan.ok) return cudaErrorInvalidValue;
  // The bulk copies of the packed weights and the tensor map's base need 16-byte addresses (the caching allocator
  // gives more).
  if (reinterpret_cast<uintptr_t>(workspace) % 16 != 0) return cudaErrorMisalignedAddress;
  GatherArgs& a = plan.args;
  if (a.batch == 0) return cudaSuccess;
  a.src = src;
  a.dst = dst;
  a.packed_weight = workspace;
  a.bias = pass == GatherPass::kForward ? bias : nullptr;
  switch (plan.block_n) {
    case TmaGatherWideTile::kBlockN:
      return run_tma_gather<TmaGatherWideTile>(p, plan, weight, workspace, stream);
    case TmaGatherNarrowTile::kBlockN:
      return run_tma_gather<TmaGatherNarrowTile>(p, plan, weight, workspace, stream);
    default:
      return run_tma_gather<TmaGatherTile>(p, plan, weight, workspace, stream);
  }
#else
  (void)p, (void)pass, (void)options, (void)src, (void)weight, (void)bias, (void)dst, (void)workspace, (void)stream;
  return cudaErrorNotSupported;
#endif
}

}  // namespace tconv
