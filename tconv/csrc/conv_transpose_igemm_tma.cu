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
// Which calls: sm_90a, fp32 data in TF32 mode (channels-last sources under the copy's K bound read in place, their A
// fragments rounded by the MMA threads: tconv_igemm_gather_tma_rounded_kernel, tma_fp32_in_place_mode), fp16/bf16
// data already channels-last (no copy: the boxes are the
// source's; the copy too under "igemm_tma" or TCONV_GATHER_TMA_16BIT=1: tconv_igemm_gather_tma16_kernel), phase
// grids whose extents split into boxes of exactly 128 positions (W extent a multiple of 128, or a power of two whose
// multiples fill whole H (and D) tiles), every phase of the same
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
  int extent[3];        // the longest phase grid along D, H, W (each block stores within its own)
  int n_tiles;          // column tiles of a group
  // The direct form's ring (the copy form's is T's): a stage is the box (32 channels x box_d x box_h x box_w from a
  // 16-byte W start, the tile's positions in its first tile[0] x tile[1] x tile[2]; a_box_floats) padded to
  // a_floats, then the B slice.
  int box_w, box_h, box_d;
  int stages, stage_floats, a_floats, a_box_floats;
  int flat_w;  // flat boxes (kDirectFlatSlack): the source's W, its lines joined along the map's first dimension; or 0
  int phase_table_taps;  // the persistent form: each phase's tap table starts this many entries after the last
};
// The direct form's boxes start at the 16-byte W position at or before the tap's (TMA faults on a tile-mode box whose
// first element along the map's first dimension is not 16-byte aligned: run 346, an illegal instruction for every
// call with a W shift that is not a multiple of 4, as the shifted-x grad_weight's boxes, rows_alignment_offset,
// already knew), so a box carries at least 4 more positions per W line and the MMA threads read from the tap's
// offset. Measured (H200, forward, "igemm_tma_direct" against the copy, "igemm_tma" without a budget): DCGAN 0.400
// against 0.254 ms, L2-61 4.25 against 1.89, L1-68 34.2 against 9.9 (run 347). The box's rows are W lines of
// tile[2] + 4 floats, one per (channel, line): 256 rows of 80 bytes per DCGAN stage, 512 of 48 bytes per L1-68 stage,
// against the copy's 128 rows of 128 bytes, and the slowdown follows the row count, not the bytes (padding the box
// for conflict-free fragment loads made it slower, run 348). So the form stays out of "auto".
constexpr int kDirectWSlack = 4;
// Flat boxes: where a tile is whole source lines (tile[2] = the source's W, unit H step, lines contiguous), the map's
// first dimension is H x W joined, so a box is one row of the tile's 128 positions plus this slack per channel (32
// rows of 544 bytes a stage against tile[1] x 32 of 16 .. 80), and the MMA threads zero the positions whose W, shifted
// by the tap, left the line (the joined dimension wraps them into the next or previous line; past the first and last
// line the box reads zeros). Tiles of one line segment take the same row. 8: the 16-byte start needs 3, and a channel
// pitch of 136 floats (8 modulo 32) keeps the fragment loads free of bank conflicts.
constexpr int kDirectFlatSlack = 8;
// The direct form on 256 columns where a call has them: each thread's A fragments then feed twice the MACs (run 351:
// the 128-column kernel is issue-bound, its per-stage fragment work the difference from the copy form, whose GEMM
// runs DCGAN on 256 columns in 0.218 ms against the direct form's 0.306). 128 accumulators and two fragment sets pass
// the 168 registers a thread of a 384-thread block starts with, so the producer warpgroup gives registers to the MMA
// warpgroups (setmaxnreg, as WgmmaWiderSpecializedGatherTile). Measured (run 354, H200, DCGAN TF32, two rounds):
// forward 0.320 -> 0.232-0.234 ms, fwd+bwd 1.253 -> 1.171-1.173; the kernel 0.304 -> 0.214 (ncu: tensor pipe 72.7 %,
// 168 registers). Reading the fragments at compile-time offsets (a kernel built for one-row boxes' 136-float pitch)
// measured level in the same run (128 columns 0.321 ms, 256 columns 0.235), so the pitch stays a run-time value.
constexpr int kDirectWideProducerRegisters = 40, kDirectWideMmaRegisters = 232;
static_assert(kDirectWideProducerRegisters * 128 + kDirectWideMmaRegisters * 256 <= 65536, "one block per SM");

// K-major, 128-byte swizzle (8-row atoms of 1024 bytes, 1024-byte aligned): start address, leading byte offset 1 (not
// used when a wgmma's K fits one swizzle row), stride byte offset 1024 (the next 8 rows), layout type 1 (128B).
__device__ __forceinline__ WgmmaDescriptor wgmma_descriptor_sw128(const float* tile) {
  const uint32_t address = static_cast<uint32_t>(__cvta_generic_to_shared(tile));
  return {((address & 0x3FFFF) >> 4) | (1u << 16), uint32_t(1024 >> 4) | (1u << 30)};
}

__device__ __forceinline__ void mma_warpgroups_sync() { asm volatile("bar.sync 1, 256;\n" ::: "memory"); }

// Position m of a tile as its (D, H, W) offsets. The tiles' extents are powers of two (tma_gather_tile,
// tma_gather_partial_tile; plan_tma_gather checks), so masks and shifts stand in for divisions by run-time values,
// which the epilogue took per position (run 455's ncu of VAE's channels-last forward: 6.45 cycles per issued
// instruction, 2.4 of them waiting on fixed-latency dependencies, the tensor pipe 8 % busy).
struct TilePosition {
  int d, h, w;
};
__device__ __forceinline__ TilePosition tile_position(const int (&tile)[3], int m) {
  const int w_bits = __ffs(tile[2]) - 1, h_bits = __ffs(tile[1]) - 1;
  return {m >> (w_bits + h_bits), (m >> w_bits) & (tile[1] - 1), m & (tile[2] - 1)};
}
// M tile m_tile's first position j0 in its phase grid (W tiles fastest, then H, D, images); its image.
__device__ __forceinline__ int tile_origin(const TmaGatherArgs& t, unsigned m_tile, int (&j0)[3]) {
#pragma unroll
  for (int i = 2; i >= 0; --i) {
    j0[i] = int(m_tile % unsigned(t.tiles[i])) * t.tile[i];
    m_tile /= unsigned(t.tiles[i]);
  }
  return int(m_tile);
}

// Where a ring's side stands: its next stage, that stage's phase parity and (the producer) the stages issued so far;
// a persistent block carries it from one tile to the next.
struct RingCursor {
  int stage = 0;
  uint32_t parity = 0;
  int issued = 0;
};

// An MMA loop's step, after the stage's wgmmas: commit them and keep that one group in flight, release the stage
// before it (its group has completed; not on the loop's first step) and step the ring, the phase flipping on the wrap.
__device__ __forceinline__ void wgmma_commit_and_step_ring(uint64_t* stage_empty, bool release, int& previous,
                                                           int& stage, int stages, uint32_t& full_parity) {
  wgmma_commit();
  wgmma_wait<1>();
  if (release) mbarrier_arrive(&stage_empty[previous]);
  previous = stage;
  if (++stage == stages) {
    stage = 0;
    full_parity ^= 1;
  }
}

// ---- Pairs of CTAs (thread block clusters of 2) that share one operand's boxes by TMA multicast ----
// This CTA's rank in its cluster (0 without a cluster launch).
__device__ __forceinline__ uint32_t cluster_cta_rank() {
  uint32_t rank = 0;
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(rank));
#endif
  return rank;
}
// Every thread of every CTA of the cluster arrives, then waits for all of them (release / acquire at cluster scope):
// after the barriers' initialisation (no peer's multicast or remote arrival meets an uninitialised barrier) and before
// exit (no CTA leaves while a peer may still write its shared memory or arrive on its barriers).
__device__ __forceinline__ void cluster_sync_all() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("barrier.cluster.arrive.release;\nbarrier.cluster.wait.acquire;\n" ::: "memory");
#endif
}
// One arrival on CTA `cta`'s barrier at the address of `bar` in this CTA (the same offset in every CTA of the
// cluster), released at cluster scope.
__device__ __forceinline__ void mbarrier_arrive_peer(uint64_t* bar, uint32_t cta) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("{\n.reg .b32 remote;\nmapa.shared::cluster.u32 remote, %0, %1;\n"
               "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [remote];\n}\n" ::"r"(shared_address(bar)),
               "r"(cta)
               : "memory");
#endif
}
// tma_load_5d into the same shared-memory offset of every CTA in `cta_mask` (this one's included), each CTA's
// barrier at `bar`'s offset receiving the box's bytes (complete_tx).
__device__ __forceinline__ void tma_load_5d_multicast(void* dst, const CUtensorMap* map, int c0, int c1, int c2, int c3,
                                                      int c4, uint64_t* bar, uint16_t cta_mask) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile(
      "cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1, "
      "{%2, %3, %4, %5, %6}], [%7], %8;\n" ::"r"(shared_address(dst)),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(c4), "r"(shared_address(bar)),
      "h"(cta_mask)
      : "memory");
#endif
}

// A TMA gather block's setup (per-tap and window), every thread: the tile's columns' bias (n0 on), the ring's barriers
// and the phase r's tap table (build_tap_table's barriers publish all three); the phase's taps.
template <class T, typename scalar_t>
__device__ __forceinline__ int tma_block_setup(const GatherArgs& a, const int (&r)[3], int g, int n0, int stages,
                                                float* column_bias, uint64_t* stage_full, uint64_t* stage_empty,
                                                int4* tap_table, int (*tap_lists)[kMaxKernelPerDim][2],
                                                int* tap_counts) {
  const int tid = threadIdx.x;
  if (a.bias != nullptr) {
    const int64_t first = int64_t(g) * a.n_channels + n0;
    for (int c = tid; c < T::kBlockN; c += T::kThreads)
      column_bias[c] =
          n0 + c < a.n_channels ? to_acc(static_cast<const scalar_t*>(a.bias)[(first + c) * a.bias_stride]) : 0.f;
  }
  if (tid == 0) {
    for (int s = 0; s < stages; ++s) {
      mbarrier_init(&stage_full[s], 1);                 // the producer's arrival with the stage's bytes
      mbarrier_init(&stage_empty[s], T::kStageConsumers);  // every consuming MMA thread's release
    }
    fence_mbarrier_init();
  }
  return build_tap_table(a, r, tap_table, tap_lists, tap_counts);
}

// The producer's stages of one tile (column tile n_tile; first position j0 of image n_img), continuing the cursor's
// ring: stage `it` holds tap it / chunks at channel chunk it % chunks. A is the box whose corner is the tile's first
// position at that tap's source shift; B the packed weights' contiguous BK x BN slice.
template <class T, bool kDirect, typename scalar_t>
__device__ __forceinline__ void tma_gather_produce(const TmaGatherArgs& t, float* smem, uint64_t* stage_full,
                                                   uint64_t* stage_empty, const int4* tap_table, int stages,
                                                   int stage_floats, int a_floats, uint32_t stage_tx, int iterations,
                                                   int chunks, int g, int n_tile, const int (&j0)[3], int n_img,
                                                   RingCursor& cursor) {
  constexpr int BN = T::kBlockN, BK = T::kBlockK;
  constexpr int kChannelsPerRow = int(sizeof(float) / sizeof(scalar_t));  // channels per K row of A and B
  const GatherArgs& a = t.g;
  const float* b_base = a.packed_weight + int64_t(g) * a.taps_total * a.k_pad * a.ldw + int64_t(n_tile) * BK * BN;
  const int64_t b_tap_step = int64_t(a.k_pad) * a.ldw, b_chunk_step = int64_t(BK) * a.ldw;
  int stage = cursor.stage, issued = cursor.issued, tap = 0, chunk = 0;
  uint32_t empty_parity = cursor.parity;
  for (int it = 0; it < iterations; ++it, ++issued) {
    if (issued >= stages) mbarrier_wait(&stage_empty[stage], empty_parity);
    const int4 info = tap_table[tap];
    float* As = smem + stage * stage_floats;
    mbarrier_arrive_expect_tx(&stage_full[stage], stage_tx);
    const int w = j0[2] * a.src_step[2] + info.z, h = j0[1] * a.src_step[1] + info.y;
    const int d = j0[0] * a.src_step[0] + info.x, c = g * a.k_channels + chunk * BK * kChannelsPerRow;
    if constexpr (kDirect) {  // from the 16-byte position at or before the first (floor: it may be negative)
      const int first = t.flat_w > 0 ? h * t.flat_w + w : w;
      tma_load_5d(As, &t.src_map, first & ~3, t.flat_w > 0 ? 0 : h, d, c, n_img, &stage_full[stage]);
    } else
      tma_load_5d(As, &t.src_map, c, w, h, d, n_img, &stage_full[stage]);
    bulk_copy_to_shared(As + a_floats, b_base + info.w * b_tap_step + chunk * b_chunk_step,
                        T::kStageBFloats * sizeof(float), &stage_full[stage]);
    if (++chunk == chunks) {
      chunk = 0;
      ++tap;
    }
    if (++stage == stages) {
      stage = 0;
      if (issued >= stages) empty_parity ^= 1;
    }
  }
  cursor.stage = stage;
  cursor.parity = empty_parity;
  cursor.issued = issued;
}

// The MMA warpgroups' K loop of one tile on the copy form's ring (A and B by descriptor; fp32 copies or 16-bit data):
// rows 64 wg .. 64 wg + 63 of every stage's A box against the whole B slice (T::kPingPong: this warpgroup's own tile,
// both 64-row halves). One wgmma group stays in flight: a stage is released once the group after it has been issued
// and its own has completed. kReleaseLast (a persistent block): the last stage is released once its group has
// completed, and the cursor carries the ring's stage and phase on.
template <class T, typename scalar_t, bool kReleaseLast>
__device__ __forceinline__ void tma_gather_mma(float (&acc)[T::kSubTiles][T::kBlockN / 2], const float* smem,
                                               uint64_t* stage_full, uint64_t* stage_empty, int stages,
                                               int iterations, int warpgroup, RingCursor& cursor) {
  constexpr int BN = T::kBlockN, BK = T::kBlockK, kSubTiles = T::kSubTiles;
  int stage = cursor.stage, previous = 0;
  uint32_t full_parity = cursor.parity;
  for (int it = 0; it < iterations; ++it) {
    mbarrier_wait(&stage_full[stage], full_parity);
    const float* As = smem + stage * T::kStageFloats;
    const WgmmaDescriptor b_desc = wgmma_descriptor(As + T::kStageAFloats);
    wgmma_fence();
#pragma unroll
    for (int k8 = 0; k8 < BK / 8; ++k8) {  // a k8 (k16) step is 32 bytes along the swizzled row, 8 x BN words of B
#pragma unroll
      for (int sub = 0; sub < kSubTiles; ++sub) {  // (64 rows are 8 KB: whole 1 KB swizzle atoms)
        const int rows = (T::kPingPong ? sub : warpgroup * kSubTiles + sub) * 64;
        const WgmmaDescriptor a_desc = wgmma_descriptor_sw128(As + rows * BK);
        if constexpr (sizeof(scalar_t) == 2)
          wgmma_mma_shared_a<BN, scalar_t>(acc[sub], a_desc.at(uint32_t(k8 * 2)),
                                           b_desc.at(uint32_t(k8 * 8 * BN * 4 / 16)));
        else
          wgmma_tf32_shared<BN>(acc[sub], a_desc.at(uint32_t(k8 * 2)), b_desc.at(uint32_t(k8 * 8 * BN * 4 / 16)));
      }
    }
    wgmma_commit_and_step_ring(stage_empty, it > 0, previous, stage, stages, full_parity);
  }
  wgmma_wait<0>();
  if (kReleaseLast && iterations > 0) mbarrier_arrive(&stage_empty[previous]);
  cursor.stage = stage;
  cursor.parity = full_parity;
}

// Blocks: column tiles fastest, then phases, then M tiles, so the column tiles of one A box run together (the box is
// read from L2 once per column tile instead of once from DRAM) and the phases of one M tile meet in L2 as the
// gather kernels' do.
// kDirect: the direct form below (boxes of the source itself, A by register fragments).
// scalar_t: fp32 data (TF32 wgmmas on the rounded copy), or fp16/bf16 (tconv_igemm_gather_tma16_kernel: k16 wgmmas on
// the values as they are). A 16-bit stage holds the fp32 stage's bytes: its A rows are 64 channels (32 channel pairs,
// the packed weights' K rows: PairedRows), its B slice the pair rows of the same chunk, and a k16 step takes the 32
// bytes of a row that a k8 step takes in TF32, so the boxes, swizzle, descriptors and their steps are the same.
// kRoundedA: the copy form's boxes of an fp32 source read in place (tconv_igemm_gather_tma_rounded_kernel), A by
// register fragments rounded to TF32.
template <class T, bool kDirect, typename scalar_t = float, bool kRoundedA = false>
__device__ __forceinline__ void tma_gather_block(const TmaGatherArgs& t) {
  constexpr int BM = T::kBlockM, BN = T::kBlockN, BK = T::kBlockK, kStages = T::kStages, kLdC = T::kLdC;
  constexpr bool k16Bit = sizeof(scalar_t) == 2;
  static_assert(!kDirect || !k16Bit, "the direct form reads fp32 sources only");
  static_assert(!kRoundedA || (!kDirect && !k16Bit && !T::kPingPong), "rounded A: fp32 boxes of the copy form's ring");
  const GatherArgs& a = t.g;
  extern __shared__ __align__(1024) unsigned char tma_gather_smem[];
  // The swizzled boxes need 1024-byte alignment, which the dynamic allocation does not promise (gather_tma sizes it
  // with that much slack).
  float* smem = reinterpret_cast<float*>(shared_aligned_1024(tma_gather_smem));
  // The ring: T's for the copy form, the plan's (fewer, larger stages) for the direct form
  const int stages = kDirect ? t.stages : kStages;
  const int stage_floats = kDirect ? t.stage_floats : T::kStageFloats;
  const int a_floats = kDirect ? t.a_floats : T::kStageAFloats;
  const uint32_t stage_tx = kDirect ? uint32_t(t.a_box_floats + T::kStageBFloats) * 4u : T::kStageBytes;
  int4* tap_table = reinterpret_cast<int4*>(smem + stages * stage_floats);
  __shared__ int tap_lists[3][kMaxKernelPerDim][2];
  __shared__ int tap_counts[3];
  __shared__ float column_bias[BN];
  __shared__ uint64_t stage_full[kStages], stage_empty[kStages];

  // (32-bit: the grid has at most 2^31 - 1 blocks, and 64-bit divisions are long instruction sequences)
  const unsigned phase_count = unsigned(a.phases[0] * a.phases[1] * a.phases[2]);
  unsigned block = blockIdx.x;
  const int n_tile = int(block % unsigned(t.n_tiles));
  block /= unsigned(t.n_tiles);
  int r[3], j0[3];
  phase_offsets(a, int(block % phase_count), r);
  const int n_img = tile_origin(t, block / phase_count, j0);
  // (t.tiles may tile a longer phase's grid than this one's: tma_unequal_phases_enabled; uniform)
  if (!phase_position_inside(a, r, j0)) return;
  const int g = blockIdx.y, n0 = n_tile * BN;
  const int tid = threadIdx.x;

  const int taps = tma_block_setup<T, scalar_t>(a, r, g, n0, stages, column_bias, stage_full, stage_empty, tap_table,
                                                 tap_lists, tap_counts);
  const int chunks = (a.k_rows + BK - 1) / BK;
  const int iterations = taps * chunks;

  // (the direct and rounded forms on 256 columns: 128 accumulators and two A fragment sets a thread)
  constexpr bool kTradeRegisters = (kDirect || kRoundedA) && BN > 128;
  if (tid >= T::kMmaThreads) {
    if constexpr (kTradeRegisters) warpgroup_registers_down<kDirectWideProducerRegisters>();
    if (tid != T::kMmaThreads) return;
    RingCursor cursor;
    tma_gather_produce<T, kDirect, scalar_t>(t, smem, stage_full, stage_empty, tap_table, stages, stage_floats,
                                             a_floats, stage_tx, iterations, chunks, g, n_tile, j0, n_img, cursor);
    return;
  }

  // MMA warpgroups: rows 64 wg .. 64 wg + 63 of every stage's A box against the whole B slice.
  if constexpr (kTradeRegisters) warpgroup_registers_up<kDirectWideMmaRegisters>();
  const int warpgroup = uniform_warpgroup();
  float acc[BN / 2];
#pragma unroll
  for (int i = 0; i < BN / 2; ++i) acc[i] = 0.f;
  // The register-A forms' steps (direct, rounded): wait for the stage (ring_stage_start), load and round its A
  // fragments, then issue its wgmmas, keep that group in flight and release the stage before it (ring_issue_and_step).
  // A stage's A was read by this thread's generic loads, B by the async proxy; the producer refills it through the
  // async proxy. A fragment set is rewritten only after its wgmmas completed (run_paired_steps alternates two).
  int stage = 0, previous = 0;
  uint32_t full_parity = 0;
  const auto ring_stage_start = [&]() {
    mbarrier_wait(&stage_full[stage], full_parity);
    return smem + stage * stage_floats;
  };
  const auto ring_issue_and_step = [&](int it, uint32_t (&a_frag)[BK / 8][4],
                                       const uint32_t (&a_previous)[BK / 8][4]) {
    warpgroup_issue_mma<BN, BK, float>(acc, a_frag, smem + stage * stage_floats + a_floats);
    wgmma_wait<1>();
    keep_registers_until_here<BK>(a_previous);
    if (it > 0) {
      fence_generic_to_async_shared();
      mbarrier_arrive(&stage_empty[previous]);
    }
    previous = stage;
    if (++stage == stages) {
      stage = 0;
      full_parity ^= 1;
    }
  };
  if constexpr (kDirect) {
    // This thread's fragment rows (wg_row + gid, + 8) as box offsets; a stage's tap adds its W offset in the box.
    const int lane = tid % 32, gid = lane / 4, tig = lane % 4;
    const int channel_pitch = t.a_box_floats / kGatherBlockK;
    const bool flat = t.flat_w > 0;
    int row_at[2], row_w[2];
#pragma unroll
    for (int i = 0; i < 2; ++i) {
      const int m = warpgroup * 64 + (tid / 32 % 4) * 16 + gid + 8 * i;
      const TilePosition l = tile_position(t.tile, m);
      row_at[i] = (flat ? m : (l.d * t.box_h + l.h) * t.box_w + l.w) + tig * channel_pitch;
      row_w[i] = l.w;  // flat: the row's W (the tile is whole lines)
    }
    int tap = 0, chunk = 0;
    uint32_t a_even[BK / 8][4], a_odd[BK / 8][4];
    auto step = [&](int it, uint32_t (&a_frag)[BK / 8][4], const uint32_t (&a_previous)[BK / 8][4]) {
      const float* stage_start = ring_stage_start();
      const int4 info = tap_table[tap];
      const int w = j0[2] + info.z;  // (W step 1; flat: j0[2] = 0)
      const int first = flat ? (j0[1] * a.src_step[1] + info.y) * t.flat_w + w : w;
      const float* As = stage_start + (first & 3);
      // flat: positions whose W left the line read as zeros (unsigned: below 0 too); otherwise every row is valid
      const bool valid0 = !flat || unsigned(row_w[0] + info.z) < unsigned(t.flat_w);
      const bool valid1 = !flat || unsigned(row_w[1] + info.z) < unsigned(t.flat_w);
#pragma unroll
      for (int k8 = 0; k8 < BK / 8; ++k8) {  // the m16n8k8 A fragment: rows gid, gid + 8 at k tig, then k tig + 4
        const float* k_row = As + k8 * 8 * channel_pitch;
        uint32_t unused;
        split_tf32<false, false>(valid0 ? k_row[row_at[0]] : 0.f, a_frag[k8][0], unused);
        split_tf32<false, false>(valid1 ? k_row[row_at[1]] : 0.f, a_frag[k8][1], unused);
        split_tf32<false, false>(valid0 ? k_row[row_at[0] + 4 * channel_pitch] : 0.f, a_frag[k8][2], unused);
        split_tf32<false, false>(valid1 ? k_row[row_at[1] + 4 * channel_pitch] : 0.f, a_frag[k8][3], unused);
      }
      ring_issue_and_step(it, a_frag, a_previous);
      if (++chunk == chunks) {
        chunk = 0;
        ++tap;
      }
    };
    run_paired_steps(iterations, step, a_even, a_odd);
  } else if constexpr (kRoundedA) {
    // The box is the copy form's: row m of the tile is 128 bytes of 32 channels, its 16-byte pieces swizzled by m
    // modulo 8 (piece q at q ^ (m % 8)). This thread's fragment rows wg_row + gid and + 8 are both gid modulo 8, so a
    // k8 step's words lie at row * 32 + ((8 k8) ^ 4 gid) + tig and + 4: one bank each across the warp.
    const int lane = tid % 32, gid = lane / 4, tig = lane % 4;
    const int at0 = (warpgroup * 64 + (tid / 32 % 4) * 16 + gid) * BK + tig, at1 = at0 + 8 * BK, swizzle = 4 * gid;
    uint32_t a_even[BK / 8][4], a_odd[BK / 8][4];
    auto step = [&](int it, uint32_t (&a_frag)[BK / 8][4], const uint32_t (&a_previous)[BK / 8][4]) {
      const float* As = ring_stage_start();
#pragma unroll
      for (int k8 = 0; k8 < BK / 8; ++k8) {  // the m16n8k8 A fragment: rows gid, gid + 8 at k tig, then k tig + 4
        const int lo = (8 * k8) ^ swizzle, hi = (8 * k8 + 4) ^ swizzle;
        uint32_t unused;
        split_tf32<false, false>(As[at0 + lo], a_frag[k8][0], unused);
        split_tf32<false, false>(As[at1 + lo], a_frag[k8][1], unused);
        split_tf32<false, false>(As[at0 + hi], a_frag[k8][2], unused);
        split_tf32<false, false>(As[at1 + hi], a_frag[k8][3], unused);
      }
      ring_issue_and_step(it, a_frag, a_previous);
    };
    run_paired_steps(iterations, step, a_even, a_odd);
  } else {
    static_assert(!T::kPingPong, "the ping-pong tile runs persistent only");
    RingCursor cursor;
    tma_gather_mma<T, scalar_t, false>(reinterpret_cast<float(&)[1][BN / 2]>(acc), smem, stage_full, stage_empty,
                                       stages, iterations, warpgroup, cursor);
  }

  // Epilogue: every stage has been read (each MMA thread waited for its last group); stage the tile as [N][M] with the
  // bias, then each thread writes one position for every other column, so a warp's stores run along W.
  mma_warpgroups_sync();
  float* Cs = smem;
  const int warp = tid / 32, lane = tid % 32, gid = lane / 4, tig = lane % 4;
  const int row = (warp / 4) * 64 + (warp % 4) * 16 + gid;
  const bool has_bias = a.bias != nullptr;
  // A channels-innermost destination (channels_last) takes the tile as [M][N] instead, and each warp writes whole
  // positions, its lanes along the channels: stores along W would land C elements apart (run 451, H200, DCGAN bf16
  // channels-last, in place: forward 0.340 ms against the contiguous copy form's 0.164). The copy form only: the
  // direct form's ring is sized for the [N][M] tile.
  if constexpr (!kDirect) {
    if (a.dst_stride[1] == 1) {
      constexpr int kLdRow = T::kLdCRowMajor;
#pragma unroll
      for (int j = 0; j < BN / 8; ++j) {  // accumulator 4 j + 2 h + l: row + 8 h, column 8 j + 2 tig + l
        const int col = j * 8 + 2 * tig;
        const float b0 = has_bias ? column_bias[col] : 0.f, b1 = has_bias ? column_bias[col + 1] : 0.f;
        *reinterpret_cast<float2*>(Cs + row * kLdRow + col) = make_float2(acc[4 * j] + b0, acc[4 * j + 1] + b1);
        *reinterpret_cast<float2*>(Cs + (row + 8) * kLdRow + col) =
            make_float2(acc[4 * j + 2] + b0, acc[4 * j + 3] + b1);
      }
      mma_warpgroups_sync();
      const int columns = min(BN, a.n_channels - n0);
      const int64_t first_channel = int64_t(g) * a.n_channels + n0;
      scalar_t* const first = static_cast<scalar_t*>(a.dst) + first_channel;
      // Four channels a lane (one 8- or 16-byte store, a 128-column row in one warp instruction) where every
      // position's run of columns starts on 4 elements. Why: run 455's ncu of VAE's channels-last forward (bf16, 128
      // columns, one block per SM) had the SMs without an eligible warp 66 % of cycles at 6.45 cycles per issued
      // instruction: the blocks' own instructions (this loop's per-element loads, conversions and 2-byte stores, the
      // per-position divisions; no source counters taken) with no second block to hide them. With tile_position and
      // the 32-bit block decode: VAE's forward 0.819 -> 0.482 ms (run 456, one block per SM: TCONV_TMA_SHORT_RING=0).
      const bool by_four = channels_last_by_four<scalar_t>(a, first_channel, columns);
      const ChannelsLastLanes split = channels_last_lanes(columns, by_four, lane);
      for (int m = warp * split.per_warp + split.position; m < BM; m += T::kMmaThreads / 32 * split.per_warp) {
        const TilePosition l = tile_position(t.tile, m);
        const int j[3] = {j0[0] + l.d, j0[1] + l.h, j0[2] + l.w};
        if (!phase_position_inside(a, r, j)) continue;
        store_staged_position(first + phase_position_offset(a, n_img, r, j), Cs + m * kLdRow, columns, split.sub_lane,
                              split.lanes, by_four);
      }
      return;
    }
  }
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
  const TilePosition l = tile_position(t.tile, m);
  const int j[3] = {j0[0] + l.d, j0[1] + l.h, j0[2] + l.w};
  if (!phase_position_inside(a, r, j)) return;
  scalar_t* out = static_cast<scalar_t*>(a.dst) + phase_position_offset(a, n_img, r, j) +
                  (int64_t(g) * a.n_channels + n0 + first_col) * a.dst_stride[1];
  store_staged_columns<2, kLdC>(out, a.dst_stride[1], Cs + first_col * kLdC + m, first_col,
                                min(BN, a.n_channels - n0));
}
template <class T>
__global__ void __launch_bounds__(T::kThreads, T::kMinBlocks)
tconv_igemm_gather_tma_kernel(const __grid_constant__ TmaGatherArgs t) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  tma_gather_block<T, false>(t);
#endif
}
// The per-tap boxes of an fp32 source already channels-last, read in place (tma_fp32_in_place_mode: which calls): the
// boxes land as the copy form's do, but unrounded, and wgmma truncates what it reads from shared memory (Session 5:
// twice PyTorch's TF32 error), so the MMA threads load their A fragments from the swizzled box, round them and issue
// the wgmmas with A from registers, as the direct form does.
template <class T>
__global__ void __launch_bounds__(T::kThreads, T::kMinBlocks)
tconv_igemm_gather_tma_rounded_kernel(const __grid_constant__ TmaGatherArgs t) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  tma_gather_block<T, false, float, true>(t);
#endif
}
// The per-tap boxes on fp16/bf16 data: of the source itself where it is channels-last already, else of the copy
// (gather_tma_16bit_mode: which calls). Why: the 16-bit gathers run on the cp.async tiles, DCGAN's at ~264 TF/s a
// pass (0.26 ms against cuDNN-benchmark's ~0.09-0.10: bf16 fwd 0.69x eager), where the TF32 copy form moved DCGAN's
// forward from 0.40 to 0.218 ms (run 319's profile of the cp.async tiles: issue slots 35 %, no eligible warp 63 %).
// k16 wgmmas do twice a TF32 k8's work per instruction. Measured (run 450, H200, DCGAN bf16, "igemm_tma" on the
// whole batch's copy): forward 0.164 ms against 0.245, fwd+bwd 0.634 against 0.771.
template <class T, typename scalar_t>
__global__ void __launch_bounds__(T::kThreads, T::kMinBlocks)
tconv_igemm_gather_tma16_kernel(const __grid_constant__ TmaGatherArgs t) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  tma_gather_block<T, false, scalar_t>(t);
#endif
}

// The persistent per-tap boxes (16-bit data; TCONV_TMA_GATHER_PERSISTENT, development, igemm_config.h
// kTmaGatherPersistentRounds: where and why): each block loops over (M tile, phase) tiles (blockIdx.x, + gridDim.x,
// ...) of one column tile, so its producer fills the next tile's stages while the warpgroups store the last one, and
// the prologue (barriers, bias, every phase's tap table) runs once a block. Each warpgroup stages its 64 positions in
// kTmaGatherPersistentRounds rounds in its own area past the ring, as scalar_t [position][BN + 8] (the one rounding of
// the non-persistent epilogue's fp32 staging and store), and stores them 16 bytes (8 channels) a lane, with no barrier
// across warpgroups. Same sums in the same order as tconv_igemm_gather_tma16_kernel: the outputs agree bit for bit.
// T::kPingPong (TmaGatherPingPongTile): the warpgroups take the block's tiles in turn, each stepping its ring cursor
// over the other's stages, and stage and store their whole tile's two 64-row halves one after the other.
template <class T, typename scalar_t>
__device__ __forceinline__ void tma_gather_persistent_block(const TmaGatherArgs& t) {
  static_assert(sizeof(scalar_t) == 2, "16-bit sources");
  constexpr int BN = T::kBlockN, BK = T::kBlockK, kLdS = BN + 8, kSubTiles = T::kSubTiles;
  constexpr int kRounds = kTmaGatherPersistentRounds, kRoundRows = 64 / kRounds;
  // A round: the rows of accumulator half h = round of each warp's 16 (8 a warp), so every thread stages every round
  static_assert(kRounds == 2, "a round is one accumulator half");
  constexpr int kLanesPerPosition = BN / 8, kPositionsPerStep = 128 / kLanesPerPosition;
  static_assert(kLanesPerPosition <= 32 && kRoundRows % kPositionsPerStep == 0, "whole steps a round");
  const GatherArgs& a = t.g;
  extern __shared__ __align__(1024) unsigned char tma_gather_persistent_smem[];
  float* smem = reinterpret_cast<float*>(shared_aligned_1024(tma_gather_persistent_smem));
  const int stages = t.stages;
  scalar_t* staging = reinterpret_cast<scalar_t*>(smem + stages * T::kStageFloats);
  int4* tap_tables = reinterpret_cast<int4*>(staging + 2 * kRoundRows * kLdS);
  __shared__ int tap_lists[3][kMaxKernelPerDim][2];
  __shared__ int tap_counts[3];
  __shared__ int phase_taps[kTmaGatherPersistentMaxPhases];
  __shared__ float column_bias[BN];
  __shared__ uint64_t stage_full[T::kStages], stage_empty[T::kStages];
  __shared__ uint64_t mainloop_done;  // kPingPong: phase k completes when turn k's warpgroup has waited on its stages

  const int g = blockIdx.y, tid = threadIdx.x;
  const int phase_count = a.phases[0] * a.phases[1] * a.phases[2];  // (at most the maximum: the host's condition)
  if (T::kPingPong && tid == 0) mbarrier_init(&mainloop_done, 128);  // (published by the barriers below)
  // Every phase's tap table (build_tap_table's barriers order the builds; the last one's taps after the barrier)
  for (int ph = 0; ph < phase_count; ++ph) {
    int r[3];
    phase_offsets(a, ph, r);
    int4* table = tap_tables + ph * t.phase_table_taps;
    const int taps =
        ph == 0 ? tma_block_setup<T, scalar_t>(a, r, g, 0, stages, column_bias, stage_full, stage_empty, table,
                                               tap_lists, tap_counts)
                : build_tap_table(a, r, table, tap_lists, tap_counts);
    if (tid == 0) phase_taps[ph] = taps;
  }
  __syncthreads();
  const int chunks = (a.k_rows + BK - 1) / BK;
  // Tiles: phases fastest (the non-persistent grid's order), then M tiles
  const uint32_t tiles = uint32_t(a.batch) * uint32_t(t.tiles[0]) * uint32_t(t.tiles[1]) * uint32_t(t.tiles[2]) *
                         uint32_t(phase_count);

  if (tid >= T::kMmaThreads) {
    if (tid != T::kMmaThreads) return;
    RingCursor cursor;
    for (uint32_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
      const int ph = int(tile % uint32_t(phase_count));
      int j0[3];
      const int n_img = tile_origin(t, tile / uint32_t(phase_count), j0);
      tma_gather_produce<T, false, scalar_t>(t, smem, stage_full, stage_empty, tap_tables + ph * t.phase_table_taps,
                                             stages, T::kStageFloats, T::kStageAFloats, T::kStageBytes,
                                             phase_taps[ph] * chunks, chunks, g, 0, j0, n_img, cursor);
    }
    return;
  }

  const int warpgroup = uniform_warpgroup();
  const int warp = tid / 32, lane = tid % 32, gid = lane / 4, tig = lane % 4;
  const bool has_bias = a.bias != nullptr;
  const int columns = min(BN, a.n_channels);
  scalar_t* const first = static_cast<scalar_t*>(a.dst) + int64_t(g) * a.n_channels;
  scalar_t* const area = staging + warpgroup * kRoundRows * kLdS;
  // Staging: this thread's rows of a round, (warp % 4) x 8 + gid; storing: kPositionsPerStep positions at a time,
  // kLanesPerPosition lanes of the warpgroup each
  const int staged_row = (warp % 4) * 8 + gid;
  const int wg_thread = tid % 128, sub = wg_thread % kLanesPerPosition, first_local = wg_thread / kLanesPerPosition;
  RingCursor cursor;
  int turn = 0;  // the block's tiles so far
  for (uint32_t tile = blockIdx.x; tile < tiles; tile += gridDim.x, ++turn) {
    const int ph = int(tile % uint32_t(phase_count));
    if (T::kPingPong && (turn & 1) != warpgroup) {  // the other warpgroup's tile: past its stages
      const int next = cursor.stage + phase_taps[ph] * chunks;
      cursor.parity ^= uint32_t(next / stages) & 1u;
      cursor.stage = next % stages;
      continue;
    }
    // A stage's full barrier tells its laps apart by parity only, so a warpgroup whose cursor stepped over the other's
    // tile waits until the other has waited on every stage of it: each stage's barrier is then one lap behind this
    // tile's at most. (It also keeps the warpgroups' wgmmas in turn, so each epilogue overlaps the other's MMAs.)
    if (T::kPingPong && turn > 0) mbarrier_wait(&mainloop_done, uint32_t(turn - 1) & 1u);
    int r[3], j0[3];
    phase_offsets(a, ph, r);
    const int n_img = tile_origin(t, tile / uint32_t(phase_count), j0);
    float acc[kSubTiles][BN / 2];
#pragma unroll
    for (int s = 0; s < kSubTiles; ++s)
#pragma unroll
      for (int i = 0; i < BN / 2; ++i) acc[s][i] = 0.f;
    tma_gather_mma<T, scalar_t, true>(acc, smem, stage_full, stage_empty, stages, phase_taps[ph] * chunks, warpgroup,
                                      cursor);
    // (every thread arrives before its warpgroup's first epilogue barrier, so no thread reaches its next turn's wait
    // while the phase it arrived on is still open: that wait's parity would read the open phase as the done one)
    if (T::kPingPong) mbarrier_arrive(&mainloop_done);
#pragma unroll
    for (int s = 0; s < kSubTiles; ++s) {
#pragma unroll
      for (int round = 0; round < kRounds; ++round) {
        // (the area is free once the warpgroup's stores of the last round have read it)
        asm volatile("bar.sync %0, 128;\n" ::"r"(2 + warpgroup) : "memory");
        // accumulator 4 j + 2 h + l: row 16 (warp % 4) + gid + 8 h, column 8 j + 2 tig + l
#pragma unroll
        for (int j = 0; j < BN / 8; ++j) {
          const int col = j * 8 + 2 * tig;
          const float b0 = has_bias ? column_bias[col] : 0.f, b1 = has_bias ? column_bias[col + 1] : 0.f;
          store_pack<scalar_t, 2>(area + staged_row * kLdS + col,
                                  {acc[s][4 * j + 2 * round] + b0, acc[s][4 * j + 2 * round + 1] + b1});
        }
        asm volatile("bar.sync %0, 128;\n" ::"r"(2 + warpgroup) : "memory");
#pragma unroll
        for (int local = first_local; local < kRoundRows; local += kPositionsPerStep) {
          // staged row local: warp local / 8's row gid = local % 8 of half `round` of 64-row tile s
          const int m = (T::kPingPong ? s : warpgroup * kSubTiles + s) * 64 + (local / 8) * 16 + local % 8 + 8 * round;
          const TilePosition l = tile_position(t.tile, m);
          const int j[3] = {j0[0] + l.d, j0[1] + l.h, j0[2] + l.w};
          if (j[0] < t.extent[0] && j[1] < t.extent[1] && j[2] < t.extent[2] && 8 * sub < columns)
            *reinterpret_cast<uint4*>(first + phase_position_offset(a, n_img, r, j) + 8 * sub) =
                *reinterpret_cast<const uint4*>(area + local * kLdS + 8 * sub);
        }
      }
    }
  }
}
template <class T, typename scalar_t>
__global__ void __launch_bounds__(T::kThreads, T::kMinBlocks)
tconv_igemm_gather_tma16_persistent_kernel(const __grid_constant__ TmaGatherArgs t) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  static_assert(!T::kPingPong, "the ping-pong tile's kernel is the one below");
  tma_gather_persistent_block<T, scalar_t>(t);
#endif
}
// The ping-pong tile (igemm_config.h, TmaGatherPingPongTile: where and why), under its own name for the launch counts
template <typename scalar_t>
__global__ void __launch_bounds__(TmaGatherPingPongTile::kThreads, TmaGatherPingPongTile::kMinBlocks)
tconv_igemm_gather_tma16_persistent_ping_pong_kernel(const __grid_constant__ TmaGatherArgs t) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  tma_gather_persistent_block<TmaGatherPingPongTile, scalar_t>(t);
#endif
}

// The direct form ("igemm_tma_direct"; "auto" where the copy is refused): the gather kernel above with no
// channels-last copy. Why: the copy is extra device memory (the issue allows 10 % of the output; the whole-batch copy
// is 50-100 % of DCGAN's, so "auto" chunks or refuses it) and a pass over the source. TF32 wgmma reads only K-major
// shared operands, but A may come from registers: the box is taken straight from the user's (N, C, D, H, W) tensor,
// 32 channels x the tile's lines of tile[2] + kDirectWSlack positions from a 16-byte W start, and each MMA thread
// loads its A fragments from the tap's offset in it and rounds them to TF32, as the cp.async gather's MMA warps do.
// B is the packed weights' slice by descriptor, as above. Measured: boxes of W lines are slower than the copy
// everywhere (kDirectWSlack); one row per channel (kDirectFlatSlack) runs DCGAN's forward in 0.324-0.326 ms against
// 0.250 for the whole-batch copy the budget forbids (run 351; the kernel 0.306 ms against the copy form's GEMM at
// 0.218). Run 350's ncu had the fragment loads as generic 64-bit loads (shared_aligned_1024 fixed that: 0.349 ->
// 0.306 ms); what remained was issue-bound (6.2 cycles per issued instruction, tensor pipe 50 %, run 351): per k8
// step each MMA thread loads, selects and rounds 4 words, where the copy form's threads issue one wgmma. On 256
// columns those words feed twice the MACs: 0.214 ms, forward 0.233 (run 354; kDirectWideMmaRegisters).
template <class T>
__global__ void __launch_bounds__(T::kThreads, 1)
tconv_igemm_gather_tma_direct_kernel(const __grid_constant__ TmaGatherArgs t) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  tma_gather_block<T, true>(t);
#endif
}

// The TMA window: the W taps of a (D, H) tap read the same source lines at shifts, so one box of the channels-last
// copy serves all of them, each tap's operand a row shift of the wgmma descriptor (igemm_config.h, TmaWindowTileOf:
// why). A block computes kBlockM GEMM rows (positions) as runs of 128 consecutive shared-memory rows of its stage's
// boxes, kRuns per MMA warpgroup (run i of warpgroup wg is the block's run kRuns wg + i):
// - narrow grids (pitch = extent_w + span <= 256): the GEMM rows of a (image, d) plane are lines of `pitch` rows,
//   the last `span` of each computed and dropped (as the cp.async window's); the box is `lines` whole source lines
//   from the block's first line, and run j starts at row_start + 128 j;
// - wide grids: segments of 128 positions of a line, one per run, each a box of 128 + span source positions.
// Tap t's rows then start shift_t - w_first rows (64 bytes each) further on, inside the 64-byte swizzle's 512-byte
// pattern. The TMA unit and wgmma both take the swizzle from the shared-memory address bits, so a shifted start reads
// what the box wrote with the descriptor's base offset left 0 (run 335: with base offsets, errors of the outputs'
// size).
struct TmaWindowArgs {
  CUtensorMap src_map;  // (C, W, H, D, N): the TF32 copy (16-channel boxes) or a 16-bit source (32) x box_w x lines
  GatherArgs g;
  int extent[3];        // the phase grid along D, H, W (every phase the same)
  int pitch;            // narrow: GEMM rows per line; 0: wide
  int w_segments;       // wide: segments per line
  int tiles_per_plane;  // blocks of kBlockM rows per (image, d) plane
  int box_w, segment_rows;  // wide: a box's W extent and the rows between the two boxes (1024-byte multiples)
  int n_tiles;
  int stages;
  uint32_t a_bytes, stage_bytes;  // the A region of a stage; a whole stage (A, then the B slices), 1024-byte multiple
  uint32_t a_box_bytes;           // what the stage's boxes deliver (wide: less than a_bytes, whose boxes are aligned)
};

// A block's pipeline ring as the MMA loop reads it.
struct TmaWindowRing {
  unsigned char* base;
  uint32_t stage_bytes, a_bytes;
  int stages;
  uint64_t* full;
  uint64_t* empty;
};
// The MMA warpgroups' K loop at kWidth W taps per stage. The operands are swapped against the per-tap kernel: A is a
// tap's packed weights (kMTiles m64 tiles of output channels), B the warpgroup's 128 positions of the window at the
// tap's row shift (n128), so each wgmma reads 2 + 4 KB of shared memory per 64 x 128 x 8 MACs instead of 2 + 2 KB
// per 64 x 64 x 8 (64-column calls), the bandwidth a TF32 wgmma at full rate needs. One wgmma group stays in flight;
// a stage is released once the group after it has been issued and its own has completed.
// kReleaseLast (a persistent block): the last stage is released once its group has completed, and the cursor carries
// the ring's stage and phase to the next tile.
template <class T, int kWidth, typename scalar_t, bool kReleaseLast>
__device__ __forceinline__ void tma_window_mma_loop(float (&acc)[T::kMTiles][T::kRuns][T::kPositions / 2],
                                                    const TmaWindowRing& ring, int iterations,
                                                    const int (&window_row)[T::kRuns], const int (*w_taps)[2],
                                                    int w_first, RingCursor& cursor) {
  constexpr int BN = T::kBlockN, BK = T::kBlockK;
  int shift[kWidth];
#pragma unroll
  for (int tap = 0; tap < kWidth; ++tap) shift[tap] = w_taps[tap][0] - w_first;
  int stage = cursor.stage, previous = 0;
  uint32_t full_parity = cursor.parity;
  for (int it = 0; it < iterations; ++it) {
    mbarrier_wait(&ring.full[stage], full_parity);
    const unsigned char* stage_at = ring.base + size_t(stage) * ring.stage_bytes;
    const uint32_t window_address = static_cast<uint32_t>(__cvta_generic_to_shared(stage_at));
    const float* Bs = reinterpret_cast<const float*>(stage_at + ring.a_bytes);
    wgmma_fence();
#pragma unroll
    for (int tap = 0; tap < kWidth; ++tap) {
#pragma unroll
      for (int run = 0; run < T::kRuns; ++run) {
        // K-major, 64-byte swizzle (layout type 2): stride byte offset 512 (the next 8 positions), leading byte
        // offset unused (a wgmma's K fits one row)
        const uint32_t address = window_address + uint32_t(window_row[run] + shift[tap]) * uint32_t(T::kRowBytes);
        const WgmmaDescriptor x_desc = {((address & 0x3FFFF) >> 4) | (1u << 16), uint32_t(512 >> 4) | (2u << 30)};
#pragma unroll
        for (int mt = 0; mt < T::kMTiles; ++mt) {
          // The packed slice as A: [k8][channel group of 8][k half][8 channels][4 k], channel 64 mt at 512 mt floats
          const WgmmaDescriptor w_desc = wgmma_descriptor(Bs + tap * T::kSliceFloats + mt * 512);
#pragma unroll
          for (int k8 = 0; k8 < BK / 8; ++k8) {  // a k8 (k16) step: 8 x BN words of the slice, 32 bytes of the row
            if constexpr (sizeof(scalar_t) == 2)
              wgmma_mma_shared_a<T::kPositions, scalar_t>(acc[mt][run], w_desc.at(uint32_t(k8 * 8 * BN * 4 / 16)),
                                                          x_desc.at(uint32_t(k8 * 2)));
            else
              wgmma_tf32_shared<T::kPositions>(acc[mt][run], w_desc.at(uint32_t(k8 * 8 * BN * 4 / 16)),
                                               x_desc.at(uint32_t(k8 * 2)));
          }
        }
      }
    }
    wgmma_commit_and_step_ring(ring.empty, it > 0, previous, stage, ring.stages, full_parity);
  }
  wgmma_wait<0>();
  if (kReleaseLast && iterations > 0) mbarrier_arrive(&ring.empty[previous]);
  cursor.stage = stage;
  cursor.parity = full_parity;
}
// The MMA loop at the phase's W taps per stage (whole W tap loops: a runtime one made ptxas fence the wgmmas, C7519).
template <class T, typename scalar_t, bool kReleaseLast>
__device__ __forceinline__ void tma_window_mma(float (&acc)[T::kMTiles][T::kRuns][T::kPositions / 2],
                                               const TmaWindowRing& ring, int iterations,
                                               const int (&window_row)[T::kRuns], const int (*w_taps)[2], int w_first,
                                               int group_width, RingCursor& cursor) {
#define TCONV_WINDOW_MMA_CASE(W)                                                                                \
  case W:                                                                                                       \
    tma_window_mma_loop<T, W, scalar_t, kReleaseLast>(acc, ring, iterations, window_row, w_taps, w_first, cursor); \
    break;
  switch (group_width) {
    TCONV_WINDOW_MMA_CASE(1)
    TCONV_WINDOW_MMA_CASE(2)
    TCONV_WINDOW_MMA_CASE(3)
    TCONV_WINDOW_MMA_CASE(4)
    TCONV_WINDOW_MMA_CASE(5)
    TCONV_WINDOW_MMA_CASE(6)
    TCONV_WINDOW_MMA_CASE(7)
    TCONV_WINDOW_MMA_CASE(8)
    default: break;  // no taps in this phase (bias only); the host plans at most kMaxGroupWidth
  }
#undef TCONV_WINDOW_MMA_CASE
}

// The producer's stages of one tile (group, n_tile, plane tile, d, image): per (D, H) tap group and chunk of BK
// channel rows, the source box(es) and the group's W taps' B slices, continuing the cursor's ring.
template <class T, typename scalar_t>
__device__ __forceinline__ void tma_window_produce(const TmaWindowArgs& t, unsigned char* ring, uint64_t* stage_full,
                                                   uint64_t* stage_empty, const int4* tap_table, int group_width,
                                                   int w_first, int chunks, int iterations, int g, int n_tile,
                                                   int plane_tile, int d, int n_img, int h_first,
                                                   RingCursor& cursor) {
  constexpr int BK = T::kBlockK, BN = T::kBlockN;
  constexpr int kChannelsPerRow = int(sizeof(float) / sizeof(scalar_t));
  const GatherArgs& a = t.g;
  const bool narrow = t.pitch > 0;
  const uint32_t slice_bytes = T::kSliceFloats * sizeof(float);
  // The packed weights come in chunks of kGatherBlockK rows, each [column tile][k8 step][BN x 8]: a stage's BK rows
  // are BK / 8 consecutive k8 blocks of its chunk's slice.
  constexpr int kPerChunk = kGatherBlockK / BK;
  const float* b_base =
      a.packed_weight + int64_t(g) * a.taps_total * a.k_pad * a.ldw + int64_t(n_tile) * kGatherBlockK * BN;
  const int64_t b_tap_step = int64_t(a.k_pad) * a.ldw, b_chunk_step = int64_t(kGatherBlockK) * a.ldw;
  int stage = cursor.stage, issued = cursor.issued, group = 0, chunk = 0;
  uint32_t empty_parity = cursor.parity;
  for (int it = 0; it < iterations; ++it, ++issued) {
    if (issued >= t.stages) mbarrier_wait(&stage_empty[stage], empty_parity);
    const int4 info = tap_table[group * group_width];  // the group's D and H shifts
    unsigned char* stage_at = ring + size_t(stage) * t.stage_bytes;
    mbarrier_arrive_expect_tx(&stage_full[stage], t.a_box_bytes + uint32_t(group_width) * slice_bytes);
    const int channel = g * a.k_channels + chunk * BK * kChannelsPerRow;
    const int src_d = d * a.src_step[0] + info.x;
    if (narrow) {
      tma_load_5d(stage_at, &t.src_map, channel, w_first, h_first * a.src_step[1] + info.y, src_d, n_img,
                  &stage_full[stage]);
    } else {
#pragma unroll
      for (int seg = 0; seg < 2 * T::kRuns; ++seg) {
        const int q = plane_tile * 2 * T::kRuns + seg;
        const int h = q / t.w_segments, w0 = (q - h * t.w_segments) * T::kSegment;
        tma_load_5d(stage_at + size_t(seg) * t.segment_rows * T::kRowBytes, &t.src_map, channel, w0 + w_first,
                    h * a.src_step[1] + info.y, src_d, n_img, &stage_full[stage]);
      }
    }
    float* Bs = reinterpret_cast<float*>(stage_at + t.a_bytes);
    for (int i = 0; i < group_width; ++i)
      bulk_copy_to_shared(Bs + i * T::kSliceFloats,
                          b_base + tap_table[group * group_width + i].w * b_tap_step +
                              (chunk / kPerChunk) * b_chunk_step + (chunk % kPerChunk) * BK * BN,
                          slice_bytes, &stage_full[stage]);
    if (++chunk == chunks) {
      chunk = 0;
      ++group;
    }
    if (++stage == t.stages) {
      stage = 0;
      if (issued >= t.stages) empty_parity ^= 1;
    }
  }
  cursor.stage = stage;
  cursor.parity = empty_parity;
  cursor.issued = issued;
}

// A window block's setup, every thread: tma_block_setup's, then the W taps a stage, their first shift, chunks of BK
// channel rows and the K loop's stages.
struct TmaWindowSetup {
  int group_width, w_first, chunks, iterations;
};
template <class T, typename scalar_t>
__device__ __forceinline__ TmaWindowSetup tma_window_setup(const TmaWindowArgs& t, const int (&r)[3], int g, int n0,
                                                           float* column_bias, uint64_t* stage_full,
                                                           uint64_t* stage_empty, int4* tap_table,
                                                           int (*tap_lists)[kMaxKernelPerDim][2], int* tap_counts) {
  const GatherArgs& a = t.g;
  tma_block_setup<T, scalar_t>(a, r, g, n0, t.stages, column_bias, stage_full, stage_empty, tap_table, tap_lists,
                               tap_counts);
  TmaWindowSetup setup;
  setup.group_width = tap_counts[2];
  const int tap_groups = tap_counts[0] * tap_counts[1];
  setup.w_first = 0;
  for (int i = 0; i < setup.group_width; ++i)
    setup.w_first = i == 0 ? tap_lists[2][0][0] : min(setup.w_first, tap_lists[2][i][0]);
  setup.chunks = (a.k_rows + T::kBlockK - 1) / T::kBlockK;
  setup.iterations = setup.group_width == 0 ? 0 : tap_groups * setup.chunks;
  return setup;
}

// A thread's rows of a window tile (first_row, first_row + step, ...) as (h, w) in the (image, d) plane, by counting:
// narrow grids carry w over the pitch, wide lines take each segment's (h, w0) once. Why: run 476's ncu of fam01's
// forward had a division a stored row (with the sub-lane's remainder) at ~37 % of the samples.
template <int kSegment>
struct WindowRows {
  int pitch, w_segments, first_segment;  // narrow: pitch > 0; wide: the tile's first segment of the plane
  int h = 0, w = 0, segment = -1, segment_w = 0;
  __device__ WindowRows(int pitch_, int w_segments_, int first_segment_, int first_q)
      : pitch(pitch_), w_segments(w_segments_), first_segment(first_segment_) {
    if (pitch > 0) {  // (first_q: the first row's GEMM row of the plane)
      h = first_q / pitch;
      w = first_q - h * pitch;
    }
  }
  __device__ __forceinline__ void at(int row) {  // (wide: the tile's row `row`)
    if (pitch > 0 || row / kSegment == segment) {
      if (pitch == 0) w = segment_w + row % kSegment;
      return;
    }
    segment = row / kSegment;
    const int q = first_segment + segment;
    h = q / w_segments;
    segment_w = (q - h * w_segments) * kSegment;
    w = segment_w + row % kSegment;
  }
  __device__ __forceinline__ void advance(int step) {
    if (pitch > 0)
      for (w += step; w >= pitch; w -= pitch) ++h;
  }
};

// scalar_t fp16/bf16 (the 16-bit window, sources read in place: TmaWindowArgs): a K row is a channel pair, so a
// 64-byte window row holds 32 channels and a k16 wgmma step takes the 32 bytes a TF32 k8 step takes; the packed
// weights are the per-tap kernel's pair rows. Same boxes, swizzle, descriptors and steps as fp32.
template <class T, typename scalar_t = float>
__global__ void __launch_bounds__(T::kThreads, T::kMinBlocks)
tconv_igemm_gather_tma_window_kernel(const __grid_constant__ TmaWindowArgs t) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  constexpr int BM = T::kBlockM, BN = T::kBlockN, kLdC = T::kLdC;
  const GatherArgs& a = t.g;
  extern __shared__ __align__(1024) unsigned char tma_window_smem[];
  unsigned char* ring = shared_aligned_1024(tma_window_smem);
  int4* tap_table = reinterpret_cast<int4*>(ring + size_t(t.stages) * t.stage_bytes);
  __shared__ int tap_lists[3][kMaxKernelPerDim][2];
  __shared__ int tap_counts[3];
  __shared__ float column_bias[BN];
  __shared__ uint64_t stage_full[T::kMaxStages], stage_empty[T::kMaxStages];

  const int phase_count = a.phases[0] * a.phases[1] * a.phases[2];
  // (32-bit: a grid's x is; the 64-bit divisions took ~5 % of fam01's window forward samples, run 476)
  uint32_t block = blockIdx.x;
  const int n_tile = int(block % uint32_t(t.n_tiles));
  block /= uint32_t(t.n_tiles);
  const int ph = int(block % uint32_t(phase_count));
  block /= uint32_t(phase_count);
  const int plane_tile = int(block % uint32_t(t.tiles_per_plane));
  block /= uint32_t(t.tiles_per_plane);
  const int d = int(block % uint32_t(t.extent[0]));
  const int n_img = int(block / uint32_t(t.extent[0]));
  int r[3];
  phase_offsets(a, ph, r);
  const int g = blockIdx.y, n0 = n_tile * BN;
  const int tid = threadIdx.x;
  const bool narrow = t.pitch > 0;
  // narrow: the block's first GEMM row of the plane, its line and its row within the line (= within the box)
  const int m0 = plane_tile * BM;
  const int h_first = narrow ? m0 / t.pitch : 0;
  const int row_start = narrow ? m0 - h_first * t.pitch : 0;

  const TmaWindowSetup setup = tma_window_setup<T, scalar_t>(t, r, g, n0, column_bias, stage_full, stage_empty,
                                                              tap_table, tap_lists, tap_counts);
  const int group_width = setup.group_width, w_first = setup.w_first, chunks = setup.chunks;
  const int iterations = setup.iterations;

  if (tid >= T::kMmaThreads) {
    if (tid != T::kMmaThreads) return;
    RingCursor cursor;
    tma_window_produce<T, scalar_t>(t, ring, stage_full, stage_empty, tap_table, group_width, w_first, chunks,
                                    iterations, g, n_tile, plane_tile, d, n_img, h_first, cursor);
    return;
  }

  // MMA warpgroups: warpgroup wg computes every column (output channel) of the block's runs kRuns wg + i, each
  // starting at window_row[i] in the stage's A region (narrow: row_start + 128 j; wide: segment j's box).
  const int warpgroup = uniform_warpgroup();
  int window_row[T::kRuns];
#pragma unroll
  for (int i = 0; i < T::kRuns; ++i) {
    const int run = warpgroup * T::kRuns + i;
    window_row[i] = narrow ? row_start + T::kPositions * run : run * t.segment_rows;
  }
  float acc[T::kMTiles][T::kRuns][T::kPositions / 2];
#pragma unroll
  for (int i = 0; i < T::kMTiles; ++i)
#pragma unroll
    for (int k = 0; k < T::kRuns; ++k)
#pragma unroll
      for (int j = 0; j < T::kPositions / 2; ++j) acc[i][k][j] = 0.f;
  const TmaWindowRing ring_info{ring, t.stage_bytes, t.a_bytes, t.stages, stage_full, stage_empty};
  RingCursor cursor;
  tma_window_mma<T, scalar_t, false>(acc, ring_info, iterations, window_row, tap_lists[2], w_first, group_width,
                                     cursor);

  // Epilogue: stage the tile as [channel][position] with the bias (accumulator 4 j + 2 h + l of m tile mt, run i:
  // channel 64 mt + 16 (warp % 4) + gid + 8 h, position 128 (kRuns wg + i) + 8 j + 2 tig + l), then each thread
  // writes one position for every other channel. A channels-innermost destination stages [position][channel]
  // (T::kLdCRowMajor: 8 modulo 32 floats between a thread's two positions, so a warp's stores fall in distinct banks)
  // and each warp writes whole positions, its lanes along the channels (the per-tap kernel's reason).
  mma_warpgroups_sync();
  float* Cs = reinterpret_cast<float*>(ring);
  const int warp = tid / 32, lane = tid % 32, gid = lane / 4, tig = lane % 4;
  const bool has_bias = a.bias != nullptr, channels_innermost = a.dst_stride[1] == 1;
  constexpr int kLdP = T::kLdCRowMajor;
#pragma unroll
  for (int mt = 0; mt < T::kMTiles; ++mt) {
    const int channel = mt * 64 + (warp % 4) * 16 + gid;
    const float b0 = has_bias ? column_bias[channel] : 0.f, b1 = has_bias ? column_bias[channel + 8] : 0.f;
#pragma unroll
    for (int i = 0; i < T::kRuns; ++i)
#pragma unroll
      for (int j = 0; j < T::kPositions / 8; ++j) {
        const int position = (warpgroup * T::kRuns + i) * T::kPositions + j * 8 + 2 * tig;
        if (channels_innermost) {
          Cs[position * kLdP + channel] = acc[mt][i][4 * j] + b0;
          Cs[(position + 1) * kLdP + channel] = acc[mt][i][4 * j + 1] + b0;
          Cs[position * kLdP + channel + 8] = acc[mt][i][4 * j + 2] + b1;
          Cs[(position + 1) * kLdP + channel + 8] = acc[mt][i][4 * j + 3] + b1;
        } else {
          Cs[channel * kLdC + position] = acc[mt][i][4 * j] + b0;
          Cs[channel * kLdC + position + 1] = acc[mt][i][4 * j + 1] + b0;
          Cs[(channel + 8) * kLdC + position] = acc[mt][i][4 * j + 2] + b1;
          Cs[(channel + 8) * kLdC + position + 1] = acc[mt][i][4 * j + 3] + b1;
        }
      }
  }
  mma_warpgroups_sync();
  const int columns = min(BN, a.n_channels - n0);
  // A row's output position (H, W) in the plane; false past the grid
  const auto position_of = [&](int row, int (&j)[3]) {
    int h, w;
    if (narrow) {
      const int q = m0 + row;
      h = q / t.pitch;
      w = q - h * t.pitch;
    } else {
      const int q = plane_tile * 2 * T::kRuns + row / T::kSegment;
      h = q / t.w_segments;
      w = (q - h * t.w_segments) * T::kSegment + row % T::kSegment;
    }
    j[0] = d, j[1] = h, j[2] = w;
    return h < t.extent[1] && w < t.extent[2];
  };
  const int64_t first_channel = int64_t(g) * a.n_channels + n0;
  if (channels_innermost) {
    const bool by_four = channels_last_by_four<scalar_t>(a, first_channel, columns);
    scalar_t* const first = static_cast<scalar_t*>(a.dst) + first_channel;
    const ChannelsLastLanes split = channels_last_lanes(columns, by_four, lane);
    const int first_row = warp * split.per_warp + split.position, row_step = T::kMmaThreads / 32 * split.per_warp;
    WindowRows<T::kSegment> rows(t.pitch, t.w_segments, plane_tile * 2 * T::kRuns, m0 + first_row);
    for (int row = first_row; row < BM; row += row_step) {
      rows.at(row);
      if (rows.h < t.extent[1] && rows.w < t.extent[2]) {
        const int j[3] = {d, rows.h, rows.w};
        store_staged_position(first + phase_position_offset(a, n_img, r, j), Cs + row * kLdP, columns, split.sub_lane,
                              split.lanes, by_four);
      }
      rows.advance(row_step);
    }
    return;
  }
  for (int m = tid; m < BM * 2; m += T::kMmaThreads) {  // (row, column parity) pairs: BM rows, two column phases
    const int row = m % BM, first_col = m / BM;
    int j[3];
    if (!position_of(row, j)) continue;
    scalar_t* out = static_cast<scalar_t*>(a.dst) + phase_position_offset(a, n_img, r, j) +
                    (first_channel + first_col) * a.dst_stride[1];
    store_staged_columns<2, kLdC>(out, a.dst_stride[1], Cs + first_col * kLdC + row, first_col, columns);
  }
#endif
}

// The persistent window (TCONV_TMA_WINDOW_PERSISTENT=0 turns it off, development; igemm_config.h,
// kTmaWindowPersistentLdS: where): each block loops over tiles (blockIdx.x, + gridDim.x, ...) of one phase and one
// column tile, so its producer fills the next tile's stages while the warpgroups store the last one, and the prologue
// (barriers, bias, tap table) runs once a block. Each warpgroup stages its run in rounds of 32 positions in its own
// area past the ring, as scalar_t [position][kLdS] (the one rounding of the non-persistent epilogue's fp32 staging and
// store), and stores them 16 bytes (8 channels) a lane, with no barrier across warpgroups. Why: run 476's ncu of
// fam01's forward on the short tile (36936 blocks of 6 stages): ~20 % of samples waiting on the first stages of each
// block, 7 % at the prologue's barrier, the epilogue not overlapped with its block's MMAs. Same sums in the same order
// as tconv_igemm_gather_tma_window_kernel: the outputs agree bit for bit.
template <class T, typename scalar_t>
__global__ void __launch_bounds__(T::kThreads, T::kMinBlocks)
tconv_igemm_gather_tma_window_persistent_kernel(const __grid_constant__ TmaWindowArgs t) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  static_assert(sizeof(scalar_t) == 2 && T::kMTiles == 1, "16-bit sources, 64 columns");
  constexpr int BM = T::kBlockM, kLdS = kTmaWindowPersistentLdS;
  const GatherArgs& a = t.g;
  extern __shared__ __align__(1024) unsigned char tma_window_persistent_smem[];
  unsigned char* ring = shared_aligned_1024(tma_window_persistent_smem);
  scalar_t* staging = reinterpret_cast<scalar_t*>(ring + size_t(t.stages) * t.stage_bytes);
  int4* tap_table = reinterpret_cast<int4*>(staging + 2 * (T::kPositions / kTmaWindowPersistentRounds) * kLdS);
  __shared__ int tap_lists[3][kMaxKernelPerDim][2];
  __shared__ int tap_counts[3];
  __shared__ float column_bias[T::kBlockN];
  __shared__ uint64_t stage_full[T::kMaxStages], stage_empty[T::kMaxStages];

  const int r[3] = {0, 0, 0};  // (one phase: the host's condition)
  const int g = blockIdx.y, tid = threadIdx.x;
  const bool narrow = t.pitch > 0;
  const uint32_t tiles = uint32_t(a.batch) * uint32_t(t.extent[0]) * uint32_t(t.tiles_per_plane);
  const TmaWindowSetup setup =
      tma_window_setup<T, scalar_t>(t, r, g, 0, column_bias, stage_full, stage_empty, tap_table, tap_lists, tap_counts);
  // A tile's plane tile, d and image (tile = (image x D + d) x tiles_per_plane + plane tile)
  const auto decode = [&](uint32_t tile, int& plane_tile, int& d, int& n_img) {
    plane_tile = int(tile % uint32_t(t.tiles_per_plane));
    tile /= uint32_t(t.tiles_per_plane);
    d = int(tile % uint32_t(t.extent[0]));
    n_img = int(tile / uint32_t(t.extent[0]));
  };

  if (tid >= T::kMmaThreads) {
    if (tid != T::kMmaThreads) return;
    RingCursor cursor;
    for (uint32_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
      int plane_tile, d, n_img;
      decode(tile, plane_tile, d, n_img);
      const int h_first = narrow ? plane_tile * BM / t.pitch : 0;
      tma_window_produce<T, scalar_t>(t, ring, stage_full, stage_empty, tap_table, setup.group_width, setup.w_first,
                                      setup.chunks, setup.iterations, g, 0, plane_tile, d, n_img, h_first, cursor);
    }
    return;
  }

  const int warpgroup = uniform_warpgroup();
  const int warp = tid / 32, lane = tid % 32, gid = lane / 4, tig = lane % 4;
  const bool has_bias = a.bias != nullptr;
  const int channel = (warp % 4) * 16 + gid;
  const float b0 = has_bias ? column_bias[channel] : 0.f, b1 = has_bias ? column_bias[channel + 8] : 0.f;
  const int columns = min(T::kBlockN, a.n_channels);
  scalar_t* const first = static_cast<scalar_t*>(a.dst) + int64_t(g) * a.n_channels;
  const TmaWindowRing ring_info{ring, t.stage_bytes, t.a_bytes, t.stages, stage_full, stage_empty};
  // The warpgroup's rows: one run of 128 from wg_row0; a warp stores 4 positions at a time, 8 lanes each
  constexpr int kRounds = kTmaWindowPersistentRounds, kRoundRows = T::kPositions / kRounds, row_step = 16;
  static_assert(T::kRuns == 1 && kRoundRows % row_step == 0, "one run a warpgroup, whole steps a round");
  const int wg_row0 = warpgroup * T::kPositions, sub = lane % 8;
  const int first_local = (warp % 4) * 4 + lane / 8, first_row = wg_row0 + first_local;
  scalar_t* const area = staging + warpgroup * kRoundRows * kLdS;
  RingCursor cursor;
  for (uint32_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    int plane_tile, d, n_img;
    decode(tile, plane_tile, d, n_img);
    const int m0 = plane_tile * BM;
    const int row_start = narrow ? m0 - m0 / t.pitch * t.pitch : 0;
    int window_row[T::kRuns];
#pragma unroll
    for (int i = 0; i < T::kRuns; ++i) {
      const int run = warpgroup * T::kRuns + i;
      window_row[i] = narrow ? row_start + T::kPositions * run : run * t.segment_rows;
    }
    float acc[1][T::kRuns][T::kPositions / 2];
#pragma unroll
    for (int k = 0; k < T::kRuns; ++k)
#pragma unroll
      for (int j = 0; j < T::kPositions / 2; ++j) acc[0][k][j] = 0.f;
    tma_window_mma<T, scalar_t, true>(acc, ring_info, setup.iterations, window_row, tap_lists[2], setup.w_first,
                                      setup.group_width, cursor);

    // Rounds of kRoundRows positions: staged (after the warpgroup's stores of the last round have read its area),
    // then stored; a thread's rows run first_row, + 16, ... through the rounds, so one walker serves them all.
    WindowRows<T::kSegment> rows(t.pitch, t.w_segments, plane_tile * 2 * T::kRuns, m0 + first_row);
#pragma unroll
    for (int round = 0; round < kRounds; ++round) {
      asm volatile("bar.sync %0, 128;\n" ::"r"(2 + warpgroup) : "memory");
#pragma unroll
      for (int jj = 0; jj < kRoundRows / 8; ++jj) {
        const int j = round * (kRoundRows / 8) + jj, position = jj * 8 + 2 * tig;
        area[position * kLdS + channel] = from_acc<scalar_t>(acc[0][0][4 * j] + b0);
        area[(position + 1) * kLdS + channel] = from_acc<scalar_t>(acc[0][0][4 * j + 1] + b0);
        area[position * kLdS + channel + 8] = from_acc<scalar_t>(acc[0][0][4 * j + 2] + b1);
        area[(position + 1) * kLdS + channel + 8] = from_acc<scalar_t>(acc[0][0][4 * j + 3] + b1);
      }
      asm volatile("bar.sync %0, 128;\n" ::"r"(2 + warpgroup) : "memory");
#pragma unroll
      for (int k = 0; k < kRoundRows / row_step; ++k) {
        const int local = first_local + k * row_step, row = wg_row0 + round * kRoundRows + local;
        rows.at(row);
        if (rows.h < t.extent[1] && rows.w < t.extent[2] && 8 * sub < columns) {
          const int j[3] = {d, rows.h, rows.w};
          *reinterpret_cast<uint4*>(first + phase_position_offset(a, n_img, r, j) + 8 * sub) =
              *reinterpret_cast<const uint4*>(area + local * kLdS + 8 * sub);
        }
        rows.advance(row_step);
      }
    }
  }
#endif
}

// src (N, C, D, H, W at any strides) -> dst (N, D, H, W, c_pitch) contiguous, TF32-rounded (the wgmmas truncate what
// they read; rounding here gives the gather kernels' round-to-nearest). A block moves kCopyPositions positions x 32
// channels through shared memory, reading along positions (16 loads in flight a thread) and writing along channels;
// both shared-memory passes are conflict-free (row pitch kCopyPositions + 1). Channels c..c_pitch stay unwritten (the
// tensor map's channel extent stops at C). Run 343 (H200): the 32-position form moved L1-68's input (537 MB each way)
// in 0.439 ms over 6 chunks, 2.45 TB/s.
constexpr int kCopyPositions = 128;
// (fp16/bf16 sources: the values as they are, through fp32 in shared memory, which holds them exactly.)
template <typename scalar_t>
__device__ __forceinline__ void copy_to_channels_last(const scalar_t* __restrict__ src, scalar_t* __restrict__ dst,
                                                      int64_t s0, int64_t s1, int64_t s2, int64_t s3, int64_t s4,
                                                      int channels, int c_pitch, int size_h, int size_w,
                                                      int64_t positions) {
  constexpr int kP = kCopyPositions, kSlices = kP / 32;
  __shared__ float tile[32][kP + 1];
  const int64_t p0 = int64_t(blockIdx.x) * kP;
  const int c0 = blockIdx.y * 32, n = blockIdx.z;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const scalar_t* from[kSlices];
  bool inside[kSlices];
#pragma unroll
  for (int q = 0; q < kSlices; ++q) {
    const int64_t p = p0 + q * 32 + lane;
    inside[q] = p < positions;
    const int w = int(p % size_w), h = int((p / size_w) % size_h), d = int(p / (int64_t(size_w) * size_h));
    from[q] = src + n * s0 + d * s2 + h * s3 + w * s4;
  }
  float v[4][kSlices];
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    const int c = c0 + warp + 8 * k;
#pragma unroll
    for (int q = 0; q < kSlices; ++q) v[k][q] = inside[q] && c < channels ? to_acc(from[q][c * s1]) : 0.f;
  }
#pragma unroll
  for (int k = 0; k < 4; ++k)
#pragma unroll
    for (int q = 0; q < kSlices; ++q)
      tile[warp + 8 * k][q * 32 + lane] =
          std::is_same<scalar_t, float>::value ? __uint_as_float(to_tf32(v[k][q])) : v[k][q];
  __syncthreads();
  if (c0 + lane >= channels) return;
  scalar_t* to = dst + (n * positions + p0) * c_pitch + c0 + lane;
#pragma unroll 4
  for (int i = warp; i < kP; i += 8)
    if (p0 + i < positions) to[int64_t(i) * c_pitch] = from_acc<scalar_t>(tile[lane][i]);
}
__global__ void __launch_bounds__(256) tconv_gather_tma_channels_last_kernel(
    const float* __restrict__ src, float* __restrict__ dst, int64_t s0, int64_t s1, int64_t s2, int64_t s3, int64_t s4,
    int channels, int c_pitch, int size_h, int size_w, int64_t positions) {
  copy_to_channels_last(src, dst, s0, s1, s2, s3, s4, channels, c_pitch, size_h, size_w, positions);
}
template <typename scalar_t>
__global__ void __launch_bounds__(256) tconv_gather_tma_channels_last16_kernel(
    const scalar_t* __restrict__ src, scalar_t* __restrict__ dst, int64_t s0, int64_t s1, int64_t s2, int64_t s3,
    int64_t s4, int channels, int c_pitch, int size_h, int size_w, int64_t positions) {
  copy_to_channels_last(src, dst, s0, s1, s2, s3, s4, channels, c_pitch, size_h, size_w, positions);
}

// The plan of a call on the TMA gather, or ok = false.
struct TmaGatherPlan {
  bool ok = false;
  GatherArgs args{};
  int tile[3] = {1, 1, 1}, tiles[3] = {1, 1, 1}, extent[3] = {1, 1, 1};
  int block_n = TmaGatherTile::kBlockN, n_tiles = 0, c_pitch = 0;
  int64_t packed_elems = 0, copy_offset = 0, copy_elems = 0;
  int64_t copy_batch = 0;  // images per chunk of the channels-last copy (tma_copy_batch)
  DType dtype = DType::kFloat32;  // the data's: fp32 (TF32), or fp16/bf16 (gather_tma_16bit_mode)
  bool in_place = false;  // a 16-bit source already channels-last: its boxes are taken from it, no copy
  bool paired = false;  // two blocks per SM: TmaGatherShortTile (128 columns) or TmaGatherNarrowPairTile (64)
  bool ping_pong = false;  // TmaGatherPingPongTile (take_ping_pong_tile)
  bool direct = false;     // the direct form: boxes of the source itself, no copy
  int direct_stages = 0, direct_a_floats = 0, direct_a_box_floats = 0;  // TmaGatherArgs says what each is
  int direct_box[3] = {1, 1, 1};                                         // box_d, box_h, box_w
  int direct_flat_w = 0;                                                 // TmaGatherArgs::flat_w
  // The window form (window = true; TmaWindowArgs says what each field is)
  bool window = false;
  int pitch = 0, w_segments = 0, tiles_per_plane = 0, box_w = 0, box_lines = 0, segment_rows = 0, stages = 0;
  uint32_t a_bytes = 0, stage_bytes = 0, a_box_bytes = 0;
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
// fp16/bf16 data on the per-tap boxes (tconv_igemm_gather_tma16_kernel; the direct form stays fp32-only, the window
// takes them in place only: tma_window_16bit_mode).
// TCONV_GATHER_TMA_16BIT (development, read once per process): 0 never; 1 "auto" takes the channels-last copy too; 2
// (unset) "auto" takes only sources already channels-last (in place: no copy, no budget), "igemm_tma" any. Why not
// the copy under "auto": within the 10 % budget the copy runs in chunks, which lost (run 450, H200, DCGAN bf16: forward
// 0.256 ms against the cp.async gather's 0.245; the whole-batch copy, which the budget forbids, 0.164; U-Net 3D fwd+bwd
// 0.720 against 0.602).
int gather_tma_16bit_mode() {
  static const int mode = development_switch("TCONV_GATHER_TMA_16BIT", 2);
  return mode;
}
// "auto" also gives in-place sources what only "igemm_tma" takes for copies: boxes past the grid's end where no box
// tiles it exactly, and 64-column tiles for calls of at most 64 columns (TCONV_TMA_IN_PLACE_PARTIAL=0 turns that off;
// development, read once per process). Why: channels-last bf16 L1-71 (a 514 x 1026 grid, 32 columns) and L2-61 (34^3)
// otherwise leave the TMA gather for the cp.async gathers, which read channels-last sources a channel at a time (run
// 453: L1-71 forward 2.634 ms against eager's 0.370, L2-61 3.228 against 1.697). Measured (run 454, H200, bf16
// channels-last, with the TMA grad_weight below): L2-61 forward 3.247 -> 1.278 ms, fwd+bwd 7.114 -> 3.355 (eager
// 1.697 / 3.395); the forms passed the in-place contract on such grids (runs 451, 454).
bool tma_short_ring_enabled() {  // igemm_config.h, TmaGatherShortTile
  static const bool enabled = development_switch("TCONV_TMA_SHORT_RING", 1) != 0;
  return enabled;
}
// Development switches for A/B timings in one build (read once per process; written in session 81 after its device
// time, not measured): TCONV_TMA_SHORT_ITERATIONS, the K-loop bound of TmaGatherShortTile (kTmaGatherShortIterations
// unset); TCONV_TMA_SHORT_WIDE=1, short-K calls of 256 columns or more on two 128-column short tiles instead of one
// 256-column tile of 4 stages, one block per SM (VAE's grad_input: 256 columns, 4 taps x 2 chunks).
int tma_short_iterations() {
  static const int bound = development_switch("TCONV_TMA_SHORT_ITERATIONS", kTmaGatherShortIterations);
  return bound;
}
bool tma_short_wide_enabled() {
  static const bool enabled = development_switch("TCONV_TMA_SHORT_WIDE", 0) != 0;
  return enabled;
}
// TCONV_TMA_WINDOW_16BIT (development, read once per process): 0 keeps "auto" off the TMA window for 16-bit sources,
// 1 gives it the forward only, 2 (unset) the forward and grad_input (TmaWindow16BitAutoRule: where and why);
// "igemm_tma_window" takes it for them either way.
int tma_window_16bit_mode() {
  static const int mode = development_switch("TCONV_TMA_WINDOW_16BIT", 2);
  return mode;
}
bool tma_window_short_enabled() {  // igemm_config.h, TmaWindowShortTile (development, read once per process)
  static const bool enabled = development_switch("TCONV_TMA_WINDOW_SHORT", 1) != 0;
  return enabled;
}
bool tma_narrow_pair_enabled() {  // igemm_config.h, TmaGatherNarrowPairTile
  static const bool enabled = development_switch("TCONV_TMA_NARROW_PAIR", 1) != 0;
  return enabled;
}
// Phases whose grids differ (a dst_size the stride does not divide, fam10's 65 = 33 + 32 per dimension): tiled by the
// tapped phases' grid, each block storing within its own phase's. fp32 only: the persistent 16-bit kernels take one
// grid for every phase. Measured (run 576, H100, fam10 TF32 channels_last, forward / fwd+bwd ms, on against off):
// 1.012 / 1.829 against 1.408 / 2.211 (predicted ~0.5-0.6 forward: missed, not yet profiled). Its test
// (test_tma_gather_unequal_phases_switch) has not yet run on a GPU: session 119's later calls found no machine.
// TCONV_TMA_UNEQUAL_PHASES (development, read once per process): unset or 0 keeps such forwards off the TMA kernels
// until that test passes; 1 takes them.
bool tma_unequal_phases_enabled() {
  static const bool enabled = development_switch("TCONV_TMA_UNEQUAL_PHASES", 0) != 0;
  return enabled;
}
bool tma_in_place_partial_enabled() {
  static const bool enabled = development_switch("TCONV_TMA_IN_PLACE_PARTIAL", 1) != 0;
  return enabled;
}
// Whether a tensor of `channels` channels of elem_bytes each, element strides (N, C, D, H, W) and position sizes (W,
// H, D, N) is channels-last as a tensor map can take it: channels innermost (stride 1) and every stride of a dimension
// longer than one a whole 16 bytes. (Its base must also lie on 16 bytes: the callers check that.)
bool channels_last_strides_mappable(int64_t channels, const int64_t (&strides)[5], const int64_t (&sizes)[4],
                                    int elem_bytes = 2) {
  if (channels > 1 && strides[1] != 1) return false;
  const int position_dims[4] = {4, 3, 2, 0};  // W, H, D, N
  const int64_t unit = 16 / elem_bytes;
  for (int i = 0; i < 4; ++i)
    if (sizes[i] > 1 && (strides[position_dims[i]] <= 0 || strides[position_dims[i]] % unit != 0)) return false;
  return true;
}
// A source the boxes can read as it is (TmaGatherPlan::in_place): channels-last as above, on a 16-byte address
// (GatherOptions).
bool tma_source_in_place(const GatherArgs& a, const GatherOptions& options, int elem_bytes) {
  const int64_t sizes[4] = {a.src_size[2], a.src_size[1], a.src_size[0], a.batch};
  return options.source_16_byte_aligned &&
         channels_last_strides_mappable(int64_t(a.groups) * a.k_channels, a.src_stride, sizes, elem_bytes);
}
// fp32 sources already channels-last, read in place by the per-tap boxes, their A fragments rounded to TF32 by the MMA
// threads (tconv_igemm_gather_tma_rounded_kernel; 64 and 128 columns, 256 only under tma_fp32_in_place_wide).
// TCONV_TMA_FP32_IN_PLACE (development, read once per process): 0 never; 1 (unset) "auto" takes it where the copy
// form's K bound (kTmaGatherMinK, 128 columns) refuses the call; 2 wherever the source maps, "igemm_tma" too (A/B
// timings). Why: TF32 channels_last k2 s2 ran the cp.async gathers, whose A copies read a channel of 32 positions a
// position's stride apart (run 571, H100: real_unet3d_up forward 1.558 ms, 0.883 with the [M][N] epilogue, against
// eager's 0.539; "igemm_tma" on the whole batch's rounded copy, which the 10 % budget forbids, 0.379). Measured (run
// 572, H100, TF32 channels_last, fwd / fwd+bwd ms, against 0): real_unet3d_up 0.887 / 2.130 -> 0.306 / 1.316,
// real_vae_up 1.752 / 4.174 -> 0.610 / 2.636, fam10 fwd+bwd 4.105 -> 2.226 (its grad_input); real_dcgan_up, fam13 and
// fam09 level. Mode 2 (the copy's K bound ignored) is not measured on the long-K calls, where the copy form's wgmmas
// read both operands by descriptor and the fragment loads may cost more than the copy (the direct form's lesson).
int tma_fp32_in_place_mode() {
  static const int mode = development_switch("TCONV_TMA_FP32_IN_PLACE", 1);
  return mode;
}
// The in-place fp32 form on 256-column tiles where a call has them (TCONV_TMA_FP32_IN_PLACE_WIDE=1, development, read
// once per process; off: written in session 116 without device time, not yet run on a GPU): each A fragment then
// feeds twice the MACs and each box is read once for 256 columns instead of twice, as the direct form gained on 256
// columns (run 354: 0.304 -> 0.214 ms); its MMA warpgroups take the producer's registers by setmaxnreg as the direct
// form's do (128 accumulators and two fragment sets pass the 168 a thread of a 384-thread block starts with).
// real_vae_up's grad_input (256 columns, K 512) is the call it is for.
bool tma_fp32_in_place_wide() {
  static const bool on = development_switch("TCONV_TMA_FP32_IN_PLACE_WIDE", 0) == 1;
  return on;
}
// The channels-last copy's bound as a share of the conv's output (percent; 0: none). The issue allows extra device
// memory of at most 10 % of the output, and the whole-batch copy is 43 % of L1-68's output in the forward, 50 % of
// DCGAN's and 100 % in grad_input (grad_output's copy): the batch runs in chunks of whole images whose copy fits,
// or not on the TMA gather. TCONV_TMA_COPY_BUDGET=<percent> (development only, read once per process) sets it for
// every form; unset, "auto"'s forms take kTmaCopyBudgetPercent and the forced ones ("igemm_tma", "igemm_tma_window":
// tests and A/Bs on small batches, whose one image passes 10 %) none.
int tma_copy_budget_percent(bool forced) {
  static const int percent = development_switch("TCONV_TMA_COPY_BUDGET", -1);
  return percent >= 0 ? percent : forced ? 0 : kTmaCopyBudgetPercent;
}
// Images per chunk of the copy: the whole batch without a budget, else as many as the budget holds (0: none fits).
int64_t tma_copy_batch(const ConvTransposeParams& p, int64_t batch, int64_t image_elems, bool forced) {
  const int percent = tma_copy_budget_percent(forced);
  if (percent <= 0 || batch == 0) return batch;
  const int64_t output = p.batch * p.out_channels * p.out_spatial();
  return std::min(batch, output / 100 * percent / std::max<int64_t>(image_elems, 1));
}
// "auto"'s images per chunk, at most `most`: the size whose chunks take the fewest waves of one block per SM (the TMA
// kernels' occupancy), the larger on a tie; 0 where that passes the whole batch's waves by more than a
// kTmaChunkWaveSlack share (igemm_config.h: the measurements), so the call leaves the TMA gather.
int64_t tma_chunk_images(int64_t batch, int64_t most, int64_t image_blocks, int sms) {
  const auto waves = [&](int64_t images) { return (images * image_blocks + sms - 1) / sms; };
  int64_t best = 0, best_waves = 0;
  for (int64_t c = most; c >= 1; --c) {
    const int64_t total = batch / c * waves(c) + waves(batch % c);
    if (best == 0 || total < best_waves) {
      best = c;
      best_waves = total;
    }
  }
  return best_waves * kTmaChunkWaveSlack.den <= waves(batch) * kTmaChunkWaveSlack.num ? best : 0;
}
// TCONV_GATHER_TMA_WIDE=0 (development only, read once per process) keeps every call on the 128-column tile.
bool gather_tma_wide_enabled() {
  static const bool enabled = development_switch("TCONV_GATHER_TMA_WIDE", 1) != 0;
  return enabled;
}
// The direct form's box for tile (D, H, W) of a phase grid extent_w wide, a source of source_w positions a line and the
// call's source steps: one row per channel (tile[1] x tile[2] + kDirectFlatSlack positions) where the tile is one
// line segment or flat (flat_w = W, kDirectFlatSlack: where), else tile[2] + kDirectWSlack positions along W with the
// tile's lines and planes; false where a row is not whole 16 bytes or passes the TMA's 256 elements per box
// dimension. Boxes of W lines are not padded further: padded to a conflict-free channel pitch (8 or 24 modulo 32
// floats: 20 x 10 lines for DCGAN's 16 x 8 tile) they were slower still (run 348: DCGAN forward 0.456 ms against
// 0.400, L1-68's 46.8 against 34.2), so the fragment loads' 4-way conflicts are not what bounds them (kDirectWSlack:
// what does).
bool direct_box_of(const int (&tile)[3], const int (&step)[3], int extent_w, int source_w, bool lines_contiguous,
                   int (&box)[3], int& flat_w) {
  const bool one_line = tile[0] == 1 && tile[1] == 1;
  flat_w = !one_line && tile[0] == 1 && tile[2] == source_w && extent_w == source_w && step[1] == 1 &&
                   lines_contiguous
               ? source_w
               : 0;
  if (one_line || flat_w > 0) {
    box[0] = 1, box[1] = 1, box[2] = tile[1] * tile[2] + kDirectFlatSlack;
    return (flat_w > 0 || tile[2] % 4 == 0) && box[2] <= 256;
  }
  box[0] = tile[0], box[1] = tile[1], box[2] = tile[2] + kDirectWSlack;
  return tile[2] % 4 == 0 && box[2] <= 256 && box[1] * step[1] <= 256 && box[0] * step[0] <= 256;
}
// A TMA gather block's shared memory for its ring (and, persistent, its staging areas): T's share less the 1 KB
// alignment slack, ~4 KB of the kernels' static arrays and the tap table's table_taps entries.
template <class T>
int64_t tma_ring_room(int table_taps) {
  return T::kSharedBytes - 1024 - 4096 - int64_t(table_taps) * int64_t(sizeof(int4));
}
// The window form's geometry for grids e (every phase the same), or false where it does not apply: W source step 1,
// no W fold, at least two W taps in some phase, boxes within the TMA's 256 elements per dimension, and at least two
// stages in shared memory.
template <class T>
bool plan_tma_window_of(const GatherArgs& a, const int (&e)[3], TmaGatherPlan& plan) {
  constexpr int BM = T::kBlockM;
  const WindowPlan w_taps = window_plan(a);  // the W taps and shifts of every phase
  const int max_span = w_taps.max_span, max_width = w_taps.max_taps;
  if (max_width < 2 || max_width > T::kMaxGroupWidth) return false;
  int a_rows;
  const int pitch = e[2] + max_span;
  const int narrow_lines = (pitch - 1 + BM - 1 + max_span) / pitch + 1;
  if (pitch <= 256 && narrow_lines * a.src_step[1] <= 256) {
    plan.pitch = pitch;
    plan.box_w = pitch;
    plan.box_lines = narrow_lines;
    a_rows = pitch * narrow_lines;
    plan.a_box_bytes = uint32_t(a_rows) * uint32_t(T::kRowBytes);
    plan.tiles_per_plane = int((int64_t(e[1]) * pitch + BM - 1) / BM);
  } else {
    if (T::kSegment + max_span > 256 || a.src_step[1] > 256) return false;
    plan.pitch = 0;
    plan.box_w = T::kSegment + max_span;
    plan.box_lines = 1;
    plan.segment_rows = (plan.box_w + 15) / 16 * 16;  // each box on a 1024-byte boundary
    constexpr int kSegments = 2 * T::kRuns;
    a_rows = kSegments * plan.segment_rows;
    plan.a_box_bytes = uint32_t(kSegments) * uint32_t(plan.box_w) * uint32_t(T::kRowBytes);
    plan.w_segments = (e[2] + T::kSegment - 1) / T::kSegment;
    plan.tiles_per_plane = int((int64_t(e[1]) * plan.w_segments + kSegments - 1) / kSegments);
  }
  plan.a_bytes = (uint32_t(a_rows) * uint32_t(T::kRowBytes) + 1023u) / 1024u * 1024u;  // B slices 16-byte aligned
  const uint32_t stage = plan.a_bytes + uint32_t(max_width) * T::kSliceFloats * 4u;
  plan.stage_bytes = (stage + 1023u) / 1024u * 1024u;
  const int64_t room = tma_ring_room<T>(max_phase_taps(a));
  plan.stages = int(std::min<int64_t>(T::kMaxStages, room / plan.stage_bytes));
  // (the epilogue stages the tile in the ring: [channel][position], or [position][channel] for channels-innermost
  // destinations)
  const int64_t staged_floats =
      a.dst_stride[1] == 1 ? int64_t(BM) * T::kLdCRowMajor : int64_t(T::kBlockN) * T::kLdC;
  if (plan.stages < 2 || staged_floats * 4 > int64_t(plan.stages) * plan.stage_bytes) return false;
  const int64_t blocks = int64_t(a.batch) * e[0] * plan.tiles_per_plane * a.phases[0] * a.phases[1] * a.phases[2] *
                         ((a.n_channels + T::kBlockN - 1) / T::kBlockN);
  if (blocks > 0x7fffffff || int64_t(plan.tiles_per_plane) * BM >= (int64_t(1) << 31)) return false;
  plan.block_n = T::kBlockN;
  plan.window = true;
  return true;
}
// short_ring: a 16-bit source read in place (unless TCONV_TMA_WINDOW_SHORT=0), whose calls of at most 64 columns and a
// short K loop take TmaWindowShortTile (plan.paired)
bool plan_tma_window(const GatherArgs& a, const int (&e)[3], bool short_ring, TmaGatherPlan& plan) {
  if (a.src_step[2] != 1 || a.fold != 1) return false;
  plan.paired = false;
  if (a.n_channels <= TmaWindowTile::kBlockN) {
    const int w_taps = window_plan(a).max_taps;
    const int64_t tap_groups = w_taps > 0 ? (max_phase_taps(a) + w_taps - 1) / w_taps : 0;
    const int64_t chunks = (a.k_rows + TmaWindowShortTile::kBlockK - 1) / TmaWindowShortTile::kBlockK;
    if (short_ring && tap_groups * chunks <= kTmaWindowShortIterations &&
        plan_tma_window_of<TmaWindowShortTile>(a, e, plan)) {
      plan.paired = true;
      return true;
    }
    return plan_tma_window_of<TmaWindowTile>(a, e, plan);
  }
  return plan_tma_window_of<TmaWindowWideTile>(a, e, plan);
}
// Whether the direct form can map the source for plan.tile (setting plan.direct_box and direct_flat_w): W contiguous,
// the map's strides whole 16 bytes, the box's rows whole 16 bytes (direct_box_of), and no traversal stride along W (a
// box from a 16-byte start at W step s would put the tap's first position s * offset in, which the W extent of 256
// limits further; grad_input at W stride > 1 takes "igemm"). Flat boxes join H into the first dimension, so the H
// stride is not a map stride there.
bool plan_direct_box(const GatherArgs& a, const int (&e)[3], TmaGatherPlan& plan) {
  bool mappable = a.src_stride[4] == 1 && a.src_step[2] == 1 &&
                  direct_box_of(plan.tile, a.src_step, e[2], a.src_size[2], a.src_stride[3] == a.src_size[2],
                                plan.direct_box, plan.direct_flat_w);
  for (int i = 0; i < 4; ++i)
    mappable = mappable && ((a.src_stride[i] > 0 && a.src_stride[i] % 4 == 0) || (i == 3 && plan.direct_flat_w));
  return mappable;
}
// "auto"'s per-tap TMA gather takes the direct form where the copy budget refuses the whole batch's copy
// (tma_copy_batch) and the direct boxes are one row per channel: it replaces the budget's chunks of the copy (or the
// cp.async gather where chunks are refused too), not the whole-batch copy, which stays faster where it fits (H200,
// DCGAN forward, run 351: whole-batch copy 0.250 ms, direct 0.324-0.326, 6 chunks of the copy 0.377-0.378 (run 352:
// the chunks 0.307 + copies 0.035 of kernel time); fwd+bwd 1.260 against 1.318-1.323). TCONV_TMA_DIRECT_AUTO=0
// (development, read once per process) keeps "auto" off it.
bool tma_direct_auto_enabled() {
  static const bool enabled = development_switch("TCONV_TMA_DIRECT_AUTO", 1) != 0;
  return enabled;
}
// TCONV_TMA_DIRECT_WIDE=0 (development only, read once per process) keeps the direct form on 128 columns
// (kDirectWideMmaRegisters: why 256).
bool tma_direct_wide_enabled() {
  static const bool enabled = development_switch("TCONV_TMA_DIRECT_WIDE", 1) != 0;
  return enabled;
}
TmaGatherPlan plan_tma_gather(const ConvTransposeParams& p, GatherPass pass, DType dtype, bool split_tf32,
                              const GatherOptions& options) {
  TmaGatherPlan plan;
  const bool automatic = options.tma == GatherTma::kAuto || options.tma == GatherTma::kAutoWindow;
  if (options.tma == GatherTma::kOff || (automatic && !gather_tma_enabled())) return plan;
  const bool k16 = is_16bit(dtype);  // exact products either way: split_tf32 means nothing to 16-bit data
  if (!(dtype == DType::kFloat32 && !split_tf32) && !(k16 && gather_tma_16bit_mode() != 0)) return plan;
  if (!options.allow_wgmma || !igemm_supported(p, pass)) return plan;
  if (k16 && options.tma == GatherTma::kForceDirect) return plan;
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) {
    (void)cudaGetLastError();
    return plan;
  }
  if (!wgmma_available(device) || encode_tiled_fn() == nullptr) return plan;
  GatherArgs a = make_args(p, pass, nullptr, nullptr, nullptr, nullptr);
  const int channels_per_row = k16 ? 2 : 1;  // 16-bit K rows are channel pairs (the packed weights' PairedRows)
  if (k16) set_k_rows(a, channels_per_row);
  plan.dtype = dtype;
  // One group's chunks must not reach into the next group's channels; a single group's last chunk reads zeros past
  // the tensor.
  if (a.groups > 1 && a.k_channels % (TmaGatherTile::kBlockK * channels_per_row) != 0) return plan;
  // "auto" and "igemm": igemm_config.h, TmaGatherTile (the measurements, fp32: K in channels); "igemm_tma" takes any
  // call it can run. A 16-bit source read in place takes no copy and no rounding pass, which the K bound repays, and
  // its alternatives read and write channels-last tensors a channel at a time (run 451, H200, bf16 channels-last
  // on the cp.async gathers: VAE forward 2.88 ms against 0.49 contiguous, U-Net 3D 1.46 against 0.25): no bound.
  const bool k_bound_refuses = a.n_channels < TmaGatherTile::kBlockN ||
                               int64_t(max_phase_taps(a)) * a.k_rows * channels_per_row < kTmaGatherMinK;
  const bool source_in_place = tma_source_in_place(a, options, element_bytes(dtype));
  const int fp32_mode = k16 ? 0 : tma_fp32_in_place_mode();
  const bool fp32_in_place = fp32_mode != 0 && options.tma != GatherTma::kForceWindow &&
                             options.tma != GatherTma::kForceDirect &&
                             (fp32_mode == 2 || (automatic && k_bound_refuses)) && source_in_place;
  const bool in_place = k16 ? source_in_place : fp32_in_place;
  if (k16 && options.tma == GatherTma::kForceWindow && !in_place) return plan;  // (the 16-bit window reads in place)
  if (options.tma == GatherTma::kAuto && !in_place && k_bound_refuses) return plan;
  // e: the tiles' grid, the largest extent of the phases with taps; every phase's grid is tiled to `most`, and a tile
  // past its own phase's grid stores nothing (tma_gather_block). Phases of unequal extents: fp32 and the
  // non-window forms only (the persistent 16-bit kernels and the window take every phase's grid as e).
  int e[3], most[3];
  phase_grid_extents(a, most, e);
  bool unequal = false;
  for (int i = 0; i < 3; ++i) {
    if (a.src_step[i] > 8) return plan;
    unequal = unequal || a.dst_size[i] % a.dst_step[i] != 0 || most[i] != e[i];
  }
  if (unequal && (k16 || !tma_unequal_phases_enabled())) return plan;
  const bool force_direct = options.tma == GatherTma::kForceDirect;
  const bool forced = options.tma == GatherTma::kForce || options.tma == GatherTma::kForceWindow || force_direct;
  const bool partial_boxes = forced || (in_place && tma_in_place_partial_enabled());
  // A K loop short enough for TmaGatherShortTile's two blocks per SM (in place only)
  const int64_t k_chunks = (a.k_rows + TmaGatherTile::kBlockK - 1) / TmaGatherTile::kBlockK;
  const bool short_k = in_place && int64_t(max_phase_taps(a)) * k_chunks <= tma_short_iterations();
  bool direct = false, direct_fallback = false;
  int64_t m_tiles = 0;
  // The column tile: 256 columns where wide enough (the direct form's MMA threads also hold two A fragment sets:
  // kDirectWideMmaRegisters); 64 for narrow forced calls.
  const auto set_column_tiles = [&](bool direct_form) {
    plan.block_n = TmaGatherTile::kBlockN;
    if (a.n_channels >= TmaGatherWideTile::kBlockN && gather_tma_wide_enabled() &&
        (!fp32_in_place || tma_fp32_in_place_wide()) &&
        (!direct_form || tma_direct_wide_enabled()) && !(short_k && tma_short_wide_enabled()))
      plan.block_n = TmaGatherWideTile::kBlockN;
    if (partial_boxes && a.n_channels <= TmaGatherNarrowTile::kBlockN) plan.block_n = TmaGatherNarrowTile::kBlockN;
    plan.n_tiles = (a.n_channels + plan.block_n - 1) / plan.block_n;
    return m_tiles * a.phases[0] * a.phases[1] * a.phases[2] * plan.n_tiles <= 0x7fffffff;
  };
  const bool window = (options.tma == GatherTma::kForceWindow || options.tma == GatherTma::kAutoWindow) &&
                      !fp32_in_place && !unequal &&
                      (!k16 || (in_place && (options.tma == GatherTma::kForceWindow || tma_window_16bit_mode() > 0)));
  for (int i = 0; i < 3; ++i) plan.extent[i] = most[i];
  if (window && plan_tma_window(a, e, k16 && in_place && tma_window_short_enabled(), plan)) {
    plan.n_tiles = (a.n_channels + plan.block_n - 1) / plan.block_n;
  } else {
    plan.window = false;
    if (!tma_gather_tile(e, plan.tile) && !(partial_boxes && tma_gather_partial_tile(e, a.src_step, plan.tile)))
      return plan;
    for (int i = 0; i < 3; ++i) {
      if (plan.tile[i] * a.src_step[i] > 256 || (plan.tile[i] & (plan.tile[i] - 1)) != 0) return plan;  // tile_position
      plan.tiles[i] = (most[i] + plan.tile[i] - 1) / plan.tile[i];
    }
    m_tiles = int64_t(a.batch) * plan.tiles[0] * plan.tiles[1] * plan.tiles[2];
    // The direct form where forced; under "auto" a fallback where the copy is refused (tma_direct_auto_enabled),
    // with boxes of one row per channel (kDirectWSlack: why boxes of W lines stay out).
    if (!k16 && !fp32_in_place && (force_direct || (automatic && tma_direct_auto_enabled()))) {
      direct_fallback = plan_direct_box(a, e, plan) && (force_direct || plan.direct_box[1] == 1);
      if (!direct_fallback && force_direct) return plan;
      direct = force_direct;
    }
    if (!set_column_tiles(direct)) return plan;
  }
  const int64_t channels = int64_t(a.groups) * a.k_channels;
  const int pitch_unit = k16 ? 8 : 4;  // the map's strides are whole 16 bytes
  plan.c_pitch = int((channels + pitch_unit - 1) / pitch_unit * pitch_unit);
  const int64_t positions = int64_t(a.src_size[0]) * a.src_size[1] * a.src_size[2];
  if (positions >= (int64_t(1) << 31) || a.batch > 65535) return plan;
  plan.in_place = in_place && !direct;  // (16-bit data and fp32 ones read in place never take the direct form)
  const bool per_tap_in_place = k16 && plan.in_place && !plan.window;  // (the paired tiles: 16-bit only)
  if (per_tap_in_place && plan.block_n == TmaGatherTile::kBlockN) plan.paired = short_k && tma_short_ring_enabled();
  if (per_tap_in_place && plan.block_n == TmaGatherNarrowTile::kBlockN) plan.paired = tma_narrow_pair_enabled();
  if (k16 && !plan.in_place && !forced && gather_tma_16bit_mode() != 1) return plan;
  a.ldw = plan.n_tiles * plan.block_n;  // whole packed blocks of the tile's width
  plan.packed_elems = packed_weight_elems(a);
  plan.copy_offset = (plan.packed_elems + 255) / 256 * 256;
  if (plan.in_place) plan.copy_batch = a.batch;
  if (!direct && !plan.in_place) {
    plan.copy_batch = tma_copy_batch(p, a.batch, positions * plan.c_pitch, forced);
    // The whole batch's copy or the direct form; chunks of the copy or no TMA where the direct form cannot run.
    const bool copy_whole = plan.copy_batch == a.batch;
    if (!forced && !copy_whole && !direct_fallback && plan.copy_batch > 0) {
      const int64_t image_blocks =
          (plan.window ? int64_t(plan.extent[0]) * plan.tiles_per_plane
                       : int64_t(plan.tiles[0]) * plan.tiles[1] * plan.tiles[2]) *
          a.phases[0] * a.phases[1] * a.phases[2] * plan.n_tiles * a.groups;
      plan.copy_batch = tma_chunk_images(a.batch, plan.copy_batch, image_blocks, sm_count_of_device(device));
    }
    if (a.batch > 0 && plan.copy_batch == 0 && !direct_fallback) return plan;
    if (!copy_whole && direct_fallback) {
      if (!set_column_tiles(true)) return plan;
      direct = true;
      a.ldw = plan.n_tiles * plan.block_n;
      plan.packed_elems = packed_weight_elems(a);
      plan.copy_offset = (plan.packed_elems + 255) / 256 * 256;
    }
  }
  if (direct) {
    // The ring takes at most the copy form's bytes (T::kStages stages of T), in as many of its larger stages as fit.
    const int box_floats = kGatherBlockK * plan.direct_box[0] * plan.direct_box[1] * plan.direct_box[2];
    plan.direct_a_box_floats = box_floats;
    plan.direct_a_floats = (box_floats + 255) / 256 * 256;  // B's slice (and the next stage) on 1 KB
    const bool narrow = plan.block_n == TmaGatherNarrowTile::kBlockN;
    const bool wide = plan.block_n == TmaGatherWideTile::kBlockN;
    const int b_floats = narrow ? TmaGatherNarrowTile::kStageBFloats
                                : wide ? TmaGatherWideTile::kStageBFloats : TmaGatherTile::kStageBFloats;
    // 256 columns: as many stages of the wide tile's count as fit the opt-in shared memory beside the alignment
    // slack, the tap table and the kernel's static arrays (the copy form's 4 x 48 KB ring holds only 3 of these)
    const int64_t wide_room =
        (int64_t(227) * 1024 - 1024 - 4096 - int64_t(max_phase_taps(a)) * int64_t(sizeof(int4))) / 4;
    const int64_t ring_floats = narrow ? int64_t(TmaGatherNarrowTile::kStages) * TmaGatherNarrowTile::kStageFloats
                                : wide ? wide_room
                                       : int64_t(TmaGatherTile::kStages) * TmaGatherTile::kStageFloats;
    const int max_stages = narrow ? TmaGatherNarrowTile::kStages
                                  : wide ? TmaGatherWideTile::kStages : TmaGatherTile::kStages;
    const int stage_floats = plan.direct_a_floats + b_floats;
    plan.direct_stages = int(std::min<int64_t>(max_stages, ring_floats / stage_floats));
    const int ld_c = narrow ? TmaGatherNarrowTile::kLdC : wide ? TmaGatherWideTile::kLdC : TmaGatherTile::kLdC;
    if (plan.direct_stages < 2 || int64_t(plan.direct_stages) * stage_floats < int64_t(plan.block_n) * ld_c)
      return plan;  // (the epilogue stages the tile in the ring)
    plan.direct = true;
    plan.copy_batch = a.batch;
    plan.copy_elems = 0;
    plan.args = a;
    plan.ok = true;
    return plan;
  }
  // in floats (c_pitch is even)
  plan.copy_elems = plan.in_place ? 0 : plan.copy_batch * positions * plan.c_pitch / channels_per_row;
  plan.args = a;
  plan.ok = true;
  return plan;
}

// Packs the weights in column blocks of block_n and copies the source to channels-last (TF32-rounded fp32, or 16-bit
// values as they are) after them.
template <typename scalar_t = float>
cudaError_t prepare_tma_source(const ConvTransposeParams& p, TmaGatherPlan& plan, const void* weight,
                               float* workspace, int block_n, bool pack, cudaStream_t stream) {
  constexpr bool k16 = sizeof(scalar_t) == 2;
  GatherArgs& a = plan.args;
  scalar_t* copy = reinterpret_cast<scalar_t*>(workspace + plan.copy_offset);
  if (pack && plan.packed_elems > 0) {
    const cudaError_t err = pack_gather_weight(static_cast<const scalar_t*>(weight), p.weight_strides, a, block_n,
                                               true, !k16, workspace, stream);
    if (err != cudaSuccess) return err;
  }
  if (plan.direct || plan.in_place) return cudaSuccess;
  const int64_t positions = int64_t(a.src_size[0]) * a.src_size[1] * a.src_size[2];
  const int channels = a.groups * a.k_channels;
  const dim3 grid(unsigned((positions + kCopyPositions - 1) / kCopyPositions), unsigned((channels + 31) / 32),
                  unsigned(a.batch));
  if constexpr (k16)
    tconv_gather_tma_channels_last16_kernel<scalar_t><<<grid, 256, 0, stream>>>(
        static_cast<const scalar_t*>(a.src), copy, a.src_stride[0], a.src_stride[1], a.src_stride[2],
        a.src_stride[3], a.src_stride[4], channels, plan.c_pitch, a.src_size[1], a.src_size[2], positions);
  else
    tconv_gather_tma_channels_last_kernel<<<grid, 256, 0, stream>>>(
        static_cast<const float*>(a.src), copy, a.src_stride[0], a.src_stride[1], a.src_stride[2], a.src_stride[3],
        a.src_stride[4], channels, plan.c_pitch, a.src_size[1], a.src_size[2], positions);
  return cudaGetLastError();
}

// A channels-last tensor's tensor map, (C, W, H, D, N) with its own strides (a dimension of one position takes a
// packed stride), boxes of box_c channels (16-bit: 64, 128 bytes, the per-tap boxes; 32: the window's 64-byte rows;
// fp32: 32, the per-tap boxes) x box_w x box_h x box_d positions traversing every step-th one, in `swizzle`.
cudaError_t encode_channels_last_map(CUtensorMap* map, DType dtype, const void* base, int64_t channels,
                                     const int64_t (&sizes)[4], const int64_t (&strides)[4], const int (&box)[3],
                                     const int (&step)[3], int box_c = 64,
                                     CUtensorMapSwizzle swizzle = CU_TENSOR_MAP_SWIZZLE_128B) {
  const EncodeTiledFn encode = encode_tiled_fn();
  if (encode == nullptr) return cudaErrorNotSupported;
  const CUtensorMapDataType type = tensor_map_type(dtype);
  const int64_t elem_bytes = element_bytes(dtype), unit = 16 / elem_bytes;
  // sizes and strides: W, H, D, N (elements)
  const cuuint64_t dims[5] = {cuuint64_t(channels), cuuint64_t(sizes[0]), cuuint64_t(sizes[1]), cuuint64_t(sizes[2]),
                              cuuint64_t(sizes[3])};
  cuuint64_t bytes[4];
  int64_t packed = (channels + unit - 1) / unit * unit;
  for (int i = 0; i < 4; ++i) {
    bytes[i] = cuuint64_t(sizes[i] > 1 ? strides[i] : packed) * elem_bytes;
    packed *= sizes[i];
  }
  const cuuint32_t box_dims[5] = {cuuint32_t(box_c), cuuint32_t(box[2]), cuuint32_t(box[1]), cuuint32_t(box[0]), 1};
  const cuuint32_t steps[5] = {1, cuuint32_t(step[2]), cuuint32_t(step[1]), cuuint32_t(step[0]), 1};
  const CUresult encoded = encode(map, type, 5, const_cast<void*>(base), dims, bytes, box_dims, steps,
                                  CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                                  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return encoded == CUDA_SUCCESS ? cudaSuccess : cudaErrorInvalidValue;
}

// The channels-last copy's tensor map (or the source's own, plan.in_place): boxes of box_c channels (per-tap: 32 fp32
// ones, 64 16-bit ones, 128 bytes in the 128-byte swizzle; the window: 16 and 32, 64 bytes in the 64-byte swizzle) x
// box_w x box_h x box_d positions, traversing every src_step-th position (grad_input's stride).
cudaError_t encode_source_map(CUtensorMap* map, const TmaGatherPlan& plan, float* copy, int box_w, int box_h,
                              int box_d, int box_c = kGatherBlockK,
                              CUtensorMapSwizzle swizzle = CU_TENSOR_MAP_SWIZZLE_128B) {
  const GatherArgs& a = plan.args;
  if (plan.in_place) {  // (box_c channels in the caller's swizzle)
    const int64_t sizes[4] = {a.src_size[2], a.src_size[1], a.src_size[0], a.batch};
    const int64_t strides[4] = {a.src_stride[4], a.src_stride[3], a.src_stride[2], a.src_stride[0]};
    const int box[3] = {box_d, box_h, box_w};
    return encode_channels_last_map(map, plan.dtype, a.src, int64_t(a.groups) * a.k_channels, sizes, strides, box,
                                    a.src_step, box_c, swizzle);
  }
  const EncodeTiledFn encode = encode_tiled_fn();
  if (encode == nullptr) return cudaErrorNotSupported;
  const int64_t positions = int64_t(a.src_size[0]) * a.src_size[1] * a.src_size[2];
  const cuuint64_t b = cuuint64_t(element_bytes(plan.dtype));
  const CUtensorMapDataType type = tensor_map_type(plan.dtype);
  const cuuint64_t dims[5] = {cuuint64_t(a.groups) * cuuint64_t(a.k_channels), cuuint64_t(a.src_size[2]),
                              cuuint64_t(a.src_size[1]), cuuint64_t(a.src_size[0]), cuuint64_t(a.batch)};
  const cuuint64_t row = cuuint64_t(plan.c_pitch) * b;
  const cuuint64_t bytes[4] = {row, row * a.src_size[2], row * a.src_size[2] * a.src_size[1],
                               row * cuuint64_t(positions)};
  const cuuint32_t box[5] = {cuuint32_t(box_c), cuuint32_t(box_w), cuuint32_t(box_h), cuuint32_t(box_d), 1};
  const cuuint32_t steps[5] = {1, cuuint32_t(a.src_step[2]), cuuint32_t(a.src_step[1]), cuuint32_t(a.src_step[0]), 1};
  const CUresult encoded = encode(map, type, 5, copy, dims, bytes, box, steps, CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle,
                                  CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return encoded == CUDA_SUCCESS ? cudaSuccess : cudaErrorInvalidValue;
}

// The direct form's tensor map: the source itself as (W, H, D, C, N), boxes of box_w x box_h x box_d positions x 32
// channels traversing every src_step-th position, no swizzle (the MMA threads read it by fragments); flat boxes
// (plan.direct_flat_w) map (H x W joined, 1, D, C, N), the second dimension a placeholder of extent 1.
cudaError_t encode_direct_map(CUtensorMap* map, const TmaGatherPlan& plan, int box_w, int box_h, int box_d) {
  const GatherArgs& a = plan.args;
  const EncodeTiledFn encode = encode_tiled_fn();
  if (encode == nullptr) return cudaErrorNotSupported;
  const cuuint64_t b = sizeof(float);
  const bool flat = plan.direct_flat_w > 0;
  const cuuint64_t dims[5] = {
      flat ? cuuint64_t(a.src_size[1]) * cuuint64_t(a.src_size[2]) : cuuint64_t(a.src_size[2]),
      flat ? 1 : cuuint64_t(a.src_size[1]), cuuint64_t(a.src_size[0]),
      cuuint64_t(a.groups) * cuuint64_t(a.k_channels), cuuint64_t(a.batch)};
  const cuuint64_t bytes[4] = {cuuint64_t(flat ? a.src_stride[2] : a.src_stride[3]) * b,
                               cuuint64_t(a.src_stride[2]) * b, cuuint64_t(a.src_stride[1]) * b,
                               cuuint64_t(a.src_stride[0]) * b};
  const cuuint32_t box[5] = {cuuint32_t(box_w), cuuint32_t(box_h), cuuint32_t(box_d), cuuint32_t(kGatherBlockK), 1};
  const cuuint32_t steps[5] = {cuuint32_t(a.src_step[2]), cuuint32_t(flat ? 1 : a.src_step[1]),
                               cuuint32_t(a.src_step[0]), 1, 1};
  const CUresult encoded = encode(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 5, const_cast<void*>(a.src), dims, bytes, box,
                                  steps, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                  CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return encoded == CUDA_SUCCESS ? cudaSuccess : cudaErrorInvalidValue;
}

// Launches one of the TMA gather's kernels (T's threads): its dynamic shared memory allowed, the whole carveout where
// several blocks share an SM (the driver's choice otherwise: possibly one block's), `blocks` x the groups (persistent:
// at most as many blocks as stay resident, each looping over the tiles).
template <class T, class Args>
cudaError_t launch_tma_kernel(void (*kernel)(Args), const Args& t, int64_t blocks, bool persistent, size_t smem,
                              int groups, cudaStream_t stream) {
  int64_t grid = blocks;
  cudaError_t err;
  if (persistent) {
    int device = 0;
    err = cudaGetDevice(&device);
    if (err != cudaSuccess) return err;
    grid = std::min<int64_t>(blocks, int64_t(sm_count_of_device(device)) * T::kMinBlocks);
  }
  err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem));
  if (err != cudaSuccess) return err;
  if (T::kMinBlocks > 1) {
    err = cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, cudaSharedmemCarveoutMaxShared);
    if (err != cudaSuccess) return err;
  }
  kernel<<<dim3(unsigned(grid), unsigned(groups)), T::kThreads, smem, stream>>>(t);
  return cudaGetLastError();
}

// Whether a destination takes the persistent kernels' stores: channels innermost, and every position's 8-channel runs
// on 16 bytes (base and position strides).
bool persistent_stores_fit(const GatherArgs& a) {
  if (a.dst_stride[1] != 1 || a.n_channels % 8 != 0 || reinterpret_cast<uintptr_t>(a.dst) % 16 != 0) return false;
  for (int i : {0, 2, 3, 4})
    if (a.dst_stride[i] % 8 != 0) return false;
  return true;
}

// TCONV_TMA_GATHER_PERSISTENT (development, read once per process; unset 1): 0 keeps the per-tap calls that
// kTmaGatherPersistentRounds's conditions admit off the persistent kernel.
bool tma_gather_persistent_enabled() {
  static const bool enabled = development_switch("TCONV_TMA_GATHER_PERSISTENT", 1) != 0;
  return enabled;
}
// The persistent per-tap staging areas: a round of positions for each warpgroup, 16-bit, BN + 8 a row.
template <class T>
constexpr size_t tma_gather_persistent_staging_bytes() {
  return size_t(2) * (64 / kTmaGatherPersistentRounds) * (T::kBlockN + 8) * 2;
}
// The persistent per-tap kernel's tap tables: every phase's, each of the most taps a phase has.
int persistent_table_taps(const GatherArgs& a) { return max_phase_taps(a) * a.phases[0] * a.phases[1] * a.phases[2]; }
// The stages the persistent per-tap kernel takes for this plan beside its staging areas and every phase's tap table,
// or 0 where it does not apply (igemm_config.h, kTmaGatherPersistentRounds: the conditions).
template <class T>
int tma_gather_persistent_stages(const GatherArgs& a, const TmaGatherPlan& plan) {
  if (!tma_gather_persistent_enabled() || plan.n_tiles != 1 ||
      a.phases[0] * a.phases[1] * a.phases[2] > kTmaGatherPersistentMaxPhases || !persistent_stores_fit(a))
    return 0;
  const int64_t room = tma_ring_room<T>(persistent_table_taps(a)) - int64_t(tma_gather_persistent_staging_bytes<T>());
  return int(std::min<int64_t>(T::kStages, std::max<int64_t>(room, 0) / T::kStageBytes));
}

// TCONV_TMA_GATHER_PING_PONG (development, read once per process; unset 1, the default since session 97): 0 keeps the
// calls below on TmaGatherTile's shared tile.
bool tma_gather_ping_pong_enabled() {
  static const bool enabled = development_switch("TCONV_TMA_GATHER_PING_PONG", 1) != 0;
  return enabled;
}
// The ping-pong tile where it applies (igemm_config.h, TmaGatherPingPongTile): a 16-bit per-tap call read in place on
// TmaGatherTile's 128 columns (not the paired short tile) that the persistent kernel takes for the destination dst.
// One choice for gather_tma and gather_tma_persistent.
void take_ping_pong_tile(TmaGatherPlan& plan, const void* dst) {
  if (!tma_gather_ping_pong_enabled() || !plan.ok || plan.window || plan.direct || !plan.in_place || plan.paired ||
      !is_16bit(plan.dtype) || plan.block_n != TmaGatherPingPongTile::kBlockN)
    return;
  GatherArgs a = plan.args;
  a.dst = const_cast<void*>(dst);
  plan.ping_pong = tma_gather_persistent_stages<TmaGatherPingPongTile>(a, plan) >= 2;
}

// The per-tap boxes: T's kernel, or its direct form (kDirect: boxes of the source itself, no copy); scalar_t 16-bit:
// tconv_igemm_gather_tma16_kernel on the 16-bit copy (or its persistent form).
template <class T, bool kDirect = false, typename scalar_t = float>
cudaError_t run_tma_gather(const ConvTransposeParams& p, TmaGatherPlan& plan, const void* weight, float* workspace,
                           bool pack, cudaStream_t stream) {
  constexpr bool k16 = sizeof(scalar_t) == 2;
  static_assert(!kDirect || !k16, "the direct form reads fp32 sources only");
  GatherArgs& a = plan.args;
  if (kDirect && reinterpret_cast<uintptr_t>(a.src) % 16 != 0) return cudaErrorMisalignedAddress;  // the map base
  cudaError_t err = prepare_tma_source<scalar_t>(p, plan, weight, workspace, T::kBlockN, pack, stream);
  if (err != cudaSuccess) return err;
  TmaGatherArgs t{};
  t.g = a;
  for (int i = 0; i < 3; ++i) {
    t.tile[i] = plan.tile[i];
    t.tiles[i] = plan.tiles[i];
    t.extent[i] = plan.extent[i];
  }
  t.n_tiles = plan.n_tiles;
  t.box_d = plan.direct_box[0], t.box_h = plan.direct_box[1], t.box_w = plan.direct_box[2];
  t.flat_w = plan.direct_flat_w;
  t.stages = kDirect ? plan.direct_stages : T::kStages;
  t.a_floats = kDirect ? plan.direct_a_floats : T::kStageAFloats;
  t.a_box_floats = kDirect ? plan.direct_a_box_floats : T::kStageAFloats;
  t.stage_floats = t.a_floats + T::kStageBFloats;
  const int box_w = kDirect ? t.box_w : plan.tile[2] * a.src_step[2];
  const int box_h = (kDirect ? t.box_h : plan.tile[1]) * a.src_step[1];
  const int box_d = (kDirect ? t.box_d : plan.tile[0]) * a.src_step[0];
  void (*kernel)(TmaGatherArgs) = nullptr;
  if constexpr (kDirect) {
    err = encode_direct_map(&t.src_map, plan, box_w, box_h, box_d);
    kernel = tconv_igemm_gather_tma_direct_kernel<T>;
  } else if constexpr (k16) {
    err = encode_source_map(&t.src_map, plan, workspace + plan.copy_offset, box_w, box_h, box_d, 2 * kGatherBlockK);
    if constexpr (!T::kPingPong) kernel = tconv_igemm_gather_tma16_kernel<T, scalar_t>;
  } else {
    err = encode_source_map(&t.src_map, plan, workspace + plan.copy_offset, box_w, box_h, box_d);
    kernel = tconv_igemm_gather_tma_kernel<T>;
    if (plan.in_place) kernel = tconv_igemm_gather_tma_rounded_kernel<T>;
  }
  if (err != cudaSuccess) return err;
  const int64_t blocks = int64_t(a.batch) * plan.tiles[0] * plan.tiles[1] * plan.tiles[2] * a.phases[0] *
                         a.phases[1] * a.phases[2] * plan.n_tiles;
  const int taps = max_phase_taps(a);
  size_t staging = 0;
  int table_taps = taps;  // the tap table's entries (persistent: every phase's)
  bool persistent = false;
  if constexpr (k16 && !kDirect) {
    const int persistent_stages = tma_gather_persistent_stages<T>(a, plan);
    if (persistent_stages >= 2) {
      if constexpr (!T::kPingPong) kernel = tconv_igemm_gather_tma16_persistent_kernel<T, scalar_t>;
      else kernel = tconv_igemm_gather_tma16_persistent_ping_pong_kernel<scalar_t>;
      t.stages = persistent_stages;
      t.phase_table_taps = taps;
      table_taps = persistent_table_taps(a);
      staging = tma_gather_persistent_staging_bytes<T>();
      persistent = true;
    }
  }
  if (kernel == nullptr) return cudaErrorInvalidValue;  // (the ping-pong tile: persistent only, take_ping_pong_tile)
  const size_t smem =
      size_t(t.stages) * t.stage_floats * sizeof(float) + staging + 1024 + size_t(table_taps) * sizeof(int4);
  return launch_tma_kernel<T>(kernel, t, blocks, persistent, smem, a.groups, stream);
}

// TCONV_TMA_WINDOW_PERSISTENT (development, read once per process; unset 1): 1 runs the short tile's calls that
// kTmaWindowPersistentLdS's conditions admit on the persistent window kernel, 0 on the non-persistent one.
bool tma_window_persistent_enabled() {
  static const bool enabled = development_switch("TCONV_TMA_WINDOW_PERSISTENT", 1) != 0;
  return enabled;
}
// The persistent window's staging areas: a round of positions for each warpgroup, 16-bit, kTmaWindowPersistentLdS a
// row.
template <class T>
constexpr size_t tma_window_persistent_staging_bytes() {
  return size_t(2) * (T::kPositions / kTmaWindowPersistentRounds) * kTmaWindowPersistentLdS * 2;
}
// The stages the persistent window takes for this plan (igemm_config.h, kTmaWindowPersistentLdS: the conditions), or
// 0 where it does not apply.
template <class T>
int tma_window_persistent_stages(const GatherArgs& a, const TmaGatherPlan& plan, int taps) {
  if (!tma_window_persistent_enabled() || plan.n_tiles != 1 || a.phases[0] * a.phases[1] * a.phases[2] != 1 ||
      !persistent_stores_fit(a))
    return 0;
  const int64_t room = tma_ring_room<T>(taps) - int64_t(tma_window_persistent_staging_bytes<T>());
  return int(std::min<int64_t>(T::kMaxStages, std::max<int64_t>(room, 0) / plan.stage_bytes));
}

// The window form: T's window kernel (scalar_t 16-bit: on sources read in place).
template <class T, typename scalar_t = float>
cudaError_t run_tma_window(const ConvTransposeParams& p, TmaGatherPlan& plan, const void* weight, float* workspace,
                           bool pack, cudaStream_t stream) {
  constexpr int kChannelsPerRow = int(sizeof(float) / sizeof(scalar_t));
  GatherArgs& a = plan.args;
  cudaError_t err = prepare_tma_source<scalar_t>(p, plan, weight, workspace, T::kBlockN, pack, stream);
  if (err != cudaSuccess) return err;
  TmaWindowArgs t{};
  t.g = a;
  for (int i = 0; i < 3; ++i) t.extent[i] = plan.extent[i];
  t.pitch = plan.pitch;
  t.w_segments = plan.w_segments;
  t.tiles_per_plane = plan.tiles_per_plane;
  t.box_w = plan.box_w;
  t.segment_rows = plan.segment_rows;
  t.n_tiles = plan.n_tiles;
  t.stages = plan.stages;
  t.a_bytes = plan.a_bytes;
  t.stage_bytes = plan.stage_bytes;
  t.a_box_bytes = plan.a_box_bytes;
  err = encode_source_map(&t.src_map, plan, workspace + plan.copy_offset, plan.box_w,
                          plan.box_lines * a.src_step[1], 1, T::kBlockK * kChannelsPerRow, CU_TENSOR_MAP_SWIZZLE_64B);
  if (err != cudaSuccess) return err;
  const int64_t blocks = int64_t(a.batch) * plan.extent[0] * plan.tiles_per_plane * a.phases[0] * a.phases[1] *
                         a.phases[2] * plan.n_tiles;
  const int taps = max_phase_taps(a);
  void (*kernel)(TmaWindowArgs) = tconv_igemm_gather_tma_window_kernel<T, scalar_t>;
  size_t staging = 0;
  bool persistent = false;
  if constexpr (sizeof(scalar_t) == 2 && std::is_same<T, TmaWindowShortTile>::value) {
    const int persistent_stages = tma_window_persistent_stages<T>(a, plan, taps);
    if (persistent_stages >= 2) {
      kernel = tconv_igemm_gather_tma_window_persistent_kernel<T, scalar_t>;
      t.stages = persistent_stages;
      staging = tma_window_persistent_staging_bytes<T>();
      persistent = true;
    }
  }
  const size_t smem = size_t(t.stages) * plan.stage_bytes + staging + 1024 + size_t(taps) * sizeof(int4);
  return launch_tma_kernel<T>(kernel, t, blocks, persistent, smem, a.groups, stream);
}


// ---- grad_weight of channels-last 16-bit data by TMA ("auto"; TCONV_GRAD_WEIGHT_TMA=0 turns it off) ----
// Measured (run 454, H200, bf16 channels-last, fwd+bwd ms, with the partial boxes above; eager's in brackets): DCGAN
// 1.313 -> 0.894 (0.717), VAE 2.783 -> 1.378 (1.140), U-Net 3D 1.385 -> 0.678 (0.696), L2-61 7.114 -> 3.355 (3.395).
// Its contract (tests/test_grad_weight_tma_gpu.py, seven cases in bf16 and fp16) passed in the same run.
// Why: channels-last bf16 runs grad_weight on the mma.sync kernel, which stages [channel rows][positions] by element
// copies and widens them to fp32: 2.36 of DCGAN's 2.64 ms of kernels per fwd+bwd (run 452), ~1 ms after its copies
// were reordered along the channels (run 453: fwd+bwd 1.304 ms against eager's 0.717). In a channels-last tensor a
// position's channels are one 128-byte row per 64 channels: the forward's in-place TMA boxes. Per tap, grad_weight
// is X^T (C_in x positions) . GO_tap (positions x C_out), where GO_tap is grad_output at the positions the tap sends
// each input position to (o = i s - p + k d). So a stage is four boxes of 64 positions (the same D x H x W tile of
// input positions, and of grad_output at the tap's offset and stride): two of x (128 input channels), two of
// grad_output (128 output channels), each [position][64 channels] in the 128-byte swizzle. Both are M/N-major
// operands of k16 wgmmas (16-bit types take transposed operands by descriptor): warpgroup w multiplies its 64 input
// channels by the two 64-column halves. Positions outside either tensor land as zeros (TMA), so partial tiles and
// the taps' edges add nothing. Blocks: (group, tap, C_in tile, C_out tile) x a split of the (image, tile) units; each
// writes its fp32 partial sums [split][C_in][C_out/g][taps], which sum_splits adds in a fixed order.
struct TmaWeightGradArgs {
  CUtensorMap x_map;   // x: (C_in, W, H, D, N), boxes of 64 channels x the tile
  CUtensorMap dy_map;  // grad_output: (C_out, W, H, D, N), boxes of 64 channels x the tile at the stride
  float* partial;      // [splits][C_in][C_out / groups][taps]
  int tile[3];         // input positions of a box along D, H, W (their product is kTmaWeightGradPositions)
  int tiles[3];        // boxes per image along D, H, W
  int kernel[3], stride[3], padding[3], dilation[3];
  int groups, cin_g, cout_g, ci_tiles, co_tiles, taps, splits;
  int64_t units;  // batch x boxes per image
  // The m64n128 form (TCONV_GRAD_WEIGHT_TMA_N128): its B operand's descriptor offsets, in bytes (tma_weight_grad_n128)
  uint32_t b_leading_bytes, b_stride_bytes;
  int share_x;  // the pair form: 1, a cluster's two CTAs share x (C_out tiles differ); 0, grad_output (C_in tiles)
};
constexpr int kTmaWeightGradPositions = 64, kTmaWeightGradStages = 6;
constexpr int kTmaWeightGradBoxBytes = kTmaWeightGradPositions * 128;        // 64 positions x 64 channels, 16-bit
constexpr int kTmaWeightGradMmaThreads = 256, kTmaWeightGradThreads = 384;  // two MMA warpgroups, one producer

// A 16-bit M/N-major operand of 64 rows (M or N) in the 128-byte swizzle: [K row][64 elements] rows of 128 bytes, 8
// rows an atom of 1024 bytes. The stride between K atoms is 1024 bytes; the one between 64-element groups along M/N
// is never used (one group). Both offsets are set to 1024, so the descriptor holds whichever of them the hardware
// takes as the K stride for this layout.
__device__ __forceinline__ uint64_t wgmma_descriptor_mn_sw128(const void* tile) {
  const uint32_t address = shared_address(tile);
  return uint64_t(((address & 0x3FFFF) >> 4) | (uint32_t(1024 >> 4) << 16)) |
         (uint64_t(uint32_t(1024 >> 4) | (1u << 30)) << 32);
}
// acc (64 x 64, the m64n64 fragment) += A (64 x 16) B (16 x 64), both M/N-major (imm-trans-a = imm-trans-b = 1).
template <typename scalar_t>
__device__ __forceinline__ void wgmma_m64n64k16_mn_major(float (&d)[32], uint64_t a, uint64_t b) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define TCONV_WGMMA_MN_MAJOR(KIND)                                                                                    \
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"                                                          \
               "wgmma.mma_async.sync.aligned.m64n64k16.f32." KIND " "                                              \
               "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "                          \
               "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, p, 1, 1, " \
               "1, 1;\n}\n"                                                                                          \
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),   \
                 "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]),          \
                 "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]),        \
                 "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]),        \
                 "+f"(d[29]), "+f"(d[30]), "+f"(d[31])                                                               \
               : "l"(a), "l"(b))
  if constexpr (std::is_same<scalar_t, __half>::value) TCONV_WGMMA_MN_MAJOR("f16.f16");
  else TCONV_WGMMA_MN_MAJOR("bf16.bf16");
#undef TCONV_WGMMA_MN_MAJOR
#else
  (void)d, (void)a, (void)b;
#endif
}

// The same for an M/N-major operand of 128 columns: two 64-element swizzle groups `leading` bytes apart along N, K
// atoms `stride` bytes apart (PTX's reading for M/N-major swizzled layouts: the leading byte offset steps from one
// (swizzle bytes / 16) group of 128-bit rows to the next along M/N, the stride byte offset 8 K rows).
__device__ __forceinline__ uint64_t wgmma_descriptor_mn_sw128_wide(const void* tile, uint32_t leading,
                                                                   uint32_t stride) {
  const uint32_t address = shared_address(tile);
  return uint64_t(((address & 0x3FFFF) >> 4) | ((leading >> 4) << 16)) |
         (uint64_t((stride >> 4) | (1u << 30)) << 32);
}
// acc (64 x 128, the m64n128 fragment) += A (64 x 16) B (16 x 128), both M/N-major.
template <typename scalar_t>
__device__ __forceinline__ void wgmma_m64n128k16_mn_major(float (&d)[64], uint64_t a, uint64_t b) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define TCONV_WGMMA_MN_MAJOR_N128(KIND)                                                                               \
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"                                                          \
               "wgmma.mma_async.sync.aligned.m64n128k16.f32." KIND " "                                             \
               "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "                          \
               "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "                 \
               "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "                 \
               "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, p, "    \
               "1, 1, 1, 1;\n}\n"                                                                                   \
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),   \
                 "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]),          \
                 "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]),        \
                 "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]),        \
                 "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),        \
                 "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]),        \
                 "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]),        \
                 "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]),        \
                 "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])         \
               : "l"(a), "l"(b))
  if constexpr (std::is_same<scalar_t, __half>::value) TCONV_WGMMA_MN_MAJOR_N128("f16.f16");
  else TCONV_WGMMA_MN_MAJOR_N128("bf16.bf16");
#undef TCONV_WGMMA_MN_MAJOR_N128
#else
  (void)d, (void)a, (void)b;
#endif
}

// The TMA grad_weight's producer thread: unit u is image u / (boxes per image), box u % (boxes per image);
// grad_output's box starts at the tile's first input position sent through this tap (o = i s - p + k d) and steps s.
// kPair: the shared operand's boxes of this CTA's parity are loaded for both CTAs by multicast, the peer loads the
// others, and a stage is refilled once both CTAs' MMA threads released it.
// Timing probes of the TMA grad_weight (TCONV_PROBE_GRAD_WEIGHT_TMA, tma_weight_grad_probe: why): kProbeLoadsOnly,
// the producer's loads with MMA warpgroups that release each stage without multiplying; kProbeMmaOnly, the MMAs on
// whatever the ring holds, each stage marked full without a load. Both write NaN gradients.
constexpr int kProbeNone = 0, kProbeLoadsOnly = 1, kProbeMmaOnly = 2;

template <int kCiBoxes, bool kPair, int kProbe = kProbeNone>
__device__ __forceinline__ void grad_weight_tma_produce(const TmaWeightGradArgs& t, unsigned char* smem,
                                                        uint64_t* stage_full, uint64_t* stage_empty, int g, int kd,
                                                        int kh, int kw, int ci0, int co0, int64_t unit_begin,
                                                        int iterations, uint32_t peer) {
  constexpr int kStages = kTmaWeightGradStages, kBox = kTmaWeightGradBoxBytes, kStageBytes = (kCiBoxes + 2) * kBox;
  const int rank = int(peer ^ 1u);
  // one box of a stage: loaded here alone, or (a shared operand's box) by the CTA whose rank matches its index
  const auto load = [&](void* dst, const CUtensorMap* map, int c, int w, int h, int d, int n, uint64_t* bar,
                        bool shared, int index) {
    if (!kPair || !shared) tma_load_5d(dst, map, c, w, h, d, n, bar);
    else if ((index & 1) == rank) tma_load_5d_multicast(dst, map, c, w, h, d, n, bar, uint16_t(0x3));
  };
  const bool share_x = kPair && t.share_x != 0, share_dy = kPair && t.share_x == 0;
  const int off_d = kd * t.dilation[0] - t.padding[0], off_h = kh * t.dilation[1] - t.padding[1],
            off_w = kw * t.dilation[2] - t.padding[2];
  const int x_c = g * t.cin_g + ci0, dy_c = g * t.cout_g + co0;
  const int64_t boxes = int64_t(t.tiles[0]) * t.tiles[1] * t.tiles[2];
  int stage = 0;
  uint32_t empty_parity = 0;
  for (int it = 0; it < iterations; ++it) {
    if (it >= kStages) {
      mbarrier_wait<kPair>(&stage_empty[stage], empty_parity);  // (kPair: the peer's releases too)
    }
    const int64_t unit = unit_begin + it;
    const int n = int(unit / boxes);
    int box = int(unit % boxes);
    const int bw = box % t.tiles[2];
    box /= t.tiles[2];
    const int bh = box % t.tiles[1], bd = box / t.tiles[1];
    const int w = bw * t.tile[2], h = bh * t.tile[1], d = bd * t.tile[0];
    unsigned char* s = smem + stage * kStageBytes;
    if constexpr (kProbe == kProbeMmaOnly) {
      mbarrier_arrive(&stage_full[stage]);
    } else {
      mbarrier_arrive_expect_tx(&stage_full[stage], kStageBytes);  // (kPair: the peer's multicast halves land here too)
#pragma unroll
      for (int b = 0; b < kCiBoxes; ++b)  // a stage: the x boxes, then grad_output's two
        load(s + b * kBox, &t.x_map, x_c + 64 * b, w, h, d, n, &stage_full[stage], share_x, b);
      const int ow = w * t.stride[2] + off_w, oh = h * t.stride[1] + off_h, od = d * t.stride[0] + off_d;
      load(s + kCiBoxes * kBox, &t.dy_map, dy_c, ow, oh, od, n, &stage_full[stage], share_dy, 0);
      load(s + (kCiBoxes + 1) * kBox, &t.dy_map, dy_c + 64, ow, oh, od, n, &stage_full[stage], share_dy, 1);
    }
    if (++stage == kStages) {
      stage = 0;
      if (it >= kStages) empty_parity ^= 1;
    }
  }
}

// kN128: each warpgroup's k16 step as one m64n128 wgmma over both grad_output boxes (B spans their two swizzle
// groups) instead of two m64n64 ones, the same MACs in the same order per accumulator: a k16 step reads A once, not
// twice (6 KB of shared memory a warpgroup instead of 8; with the TMA's 32 KB a stage, 80 KB a stage in all against
// 96). Why: at the MMA peak (2048 MACs a clock an SM) the m64n64 form needs ~190 bytes a clock of shared memory,
// which serves 128; whether that, L2 or latency bounds DCGAN's pass (373 TF/s, run 457's 0.184 ms) is the next
// measurement. TCONV_GRAD_WEIGHT_TMA_N128 (development, default 0): 1 takes this form.
// kCiBoxes: x boxes of 64 input channels a stage (the tile's C_in: 64 kCiBoxes). 1 where a group has at most 64
// input channels (tma_weight_grad_ci_boxes): the two warpgroups then share that box and take one 64-column half of
// grad_output each, where the two-box tile's second warpgroup multiplied TMA's zero fill (fam06, 64 -> 128: half the
// MMAs of its ~2 ms pass on zeros, and 8 of a stage's 32 KB).
// kPair: the block is one of a cluster of two whose x boxes (C_out tiles in pairs) or grad_output boxes (one C_out
// tile, C_in tiles in pairs) are the same; each CTA loads half of them for both by multicast
// (TCONV_GRAD_WEIGHT_TMA_PAIR, tma_weight_grad_pair_share: why). Same MMAs in the same order: the same bits as the
// single form.
template <typename scalar_t, bool kN128, int kCiBoxes, bool kPair, int kProbe = kProbeNone>
__device__ __forceinline__ void grad_weight_tma_block(const TmaWeightGradArgs& t) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  static_assert(kCiBoxes == 2 || (kCiBoxes == 1 && !kN128), "one x box: each warpgroup takes one 64-column half");
  static_assert(!(kPair && kN128), "the pair form takes the m64n64 steps");
  static_assert(kProbe == kProbeNone || (!kPair && !kN128), "the probes time the default forms");
  constexpr int kStages = kTmaWeightGradStages, kBox = kTmaWeightGradBoxBytes, kStageBytes = (kCiBoxes + 2) * kBox;
  extern __shared__ __align__(1024) unsigned char tma_weight_grad_smem[];
  unsigned char* smem = shared_aligned_1024(tma_weight_grad_smem);
  __shared__ uint64_t stage_full[kStages], stage_empty[kStages];

  int64_t block = blockIdx.x;
  const int co_tile = int(block % t.co_tiles);
  block /= t.co_tiles;
  const int ci_tile = int(block % t.ci_tiles);
  block /= t.ci_tiles;
  const int tap = int(block % t.taps), g = int(block / t.taps);
  const int split = blockIdx.y;
  const int kw = tap % t.kernel[2], kh = tap / t.kernel[2] % t.kernel[1], kd = tap / (t.kernel[2] * t.kernel[1]);
  const int ci0 = ci_tile * 64 * kCiBoxes, co0 = co_tile * 128;
  const int64_t unit_begin = split_begin(t.units, t.splits, split);
  const int iterations = int(split_begin(t.units, t.splits, split + 1) - unit_begin);
  const int tid = threadIdx.x;

  // kPair: this CTA and its peer (the other of a cluster of 2) share one operand's boxes (t.share_x: x, whose C_out
  // tiles differ; else grad_output, whose C_in tiles differ): each loads the shared boxes of its parity for both by
  // multicast, so a stage's empty barrier waits for both CTAs' MMA threads (the multicast refills both at once).
  const uint32_t peer = kPair ? cluster_cta_rank() ^ 1u : 0u;
  if (tid == 0) {
    for (int s = 0; s < kStages; ++s) {
      mbarrier_init(&stage_full[s], 1);
      mbarrier_init(&stage_empty[s], kTmaWeightGradMmaThreads * (kPair ? 2 : 1));
    }
    fence_mbarrier_init();
  }
  if constexpr (kPair) cluster_sync_all();
  else __syncthreads();

  if (tid >= kTmaWeightGradMmaThreads) {
    if (tid == kTmaWeightGradMmaThreads)
      grad_weight_tma_produce<kCiBoxes, kPair, kProbe>(t, smem, stage_full, stage_empty, g, kd, kh, kw, ci0, co0,
                                                       unit_begin, iterations, peer);
    if constexpr (kPair) cluster_sync_all();
    return;
  }

  // MMA warpgroups: warpgroup w, input channels 64 w .. 64 w + 63 of the tile, against both 64-column halves (one x
  // box: all 64 input channels against half w); one wgmma group in flight, a stage released once the group after it
  // is issued and its own has completed.
  const int warpgroup = uniform_warpgroup();
  float acc[2][32];
#pragma unroll
  for (int h = 0; h < 2; ++h)
#pragma unroll
    for (int i = 0; i < 32; ++i) acc[h][i] = 0.f;
  int stage = 0, previous = 0;
  uint32_t full_parity = 0;
  for (int it = 0; it < iterations; ++it) {
    mbarrier_wait(&stage_full[stage], full_parity);
    const unsigned char* s = smem + stage * kStageBytes;
    const uint64_t a_desc = wgmma_descriptor_mn_sw128(s + (kCiBoxes == 2 ? warpgroup : 0) * kBox);
    wgmma_fence();
    if constexpr (kProbe == kProbeLoadsOnly) {
      (void)a_desc;  // (an empty group is committed below: the stage is released as the MMA form releases it)
    } else if constexpr (kCiBoxes == 1) {
      const uint64_t b_desc = wgmma_descriptor_mn_sw128(s + (1 + warpgroup) * kBox);
#pragma unroll
      for (int k16 = 0; k16 < kTmaWeightGradPositions / 16; ++k16) {
        const uint64_t step = uint64_t(k16 * 2048 / 16);
        wgmma_m64n64k16_mn_major<scalar_t>(acc[0], a_desc + step, b_desc + step);
      }
    } else if constexpr (kN128) {
      // acc[2][32] read as the m64n128 fragment: its accumulator 4 j + e (j < 16) is acc[j / 8][4 (j % 8) + e],
      // column 8 j + 2 tig + (e & 1) = 64 (j / 8) + 8 (j % 8) + ..., the m64n64 halves' mapping below.
      float(&wide)[64] = reinterpret_cast<float(&)[64]>(acc);
      const uint64_t b_desc = wgmma_descriptor_mn_sw128_wide(s + 2 * kBox, t.b_leading_bytes, t.b_stride_bytes);
#pragma unroll
      for (int k16 = 0; k16 < kTmaWeightGradPositions / 16; ++k16) {
        const uint64_t step = uint64_t(k16 * 2048 / 16);
        wgmma_m64n128k16_mn_major<scalar_t>(wide, a_desc + step, b_desc + step);
      }
    } else {
      const uint64_t b0_desc = wgmma_descriptor_mn_sw128(s + 2 * kBox);
      const uint64_t b1_desc = wgmma_descriptor_mn_sw128(s + 3 * kBox);
#pragma unroll
      for (int k16 = 0; k16 < kTmaWeightGradPositions / 16; ++k16) {  // 16 positions: two 1024-byte atoms
        const uint64_t step = uint64_t(k16 * 2048 / 16);
        wgmma_m64n64k16_mn_major<scalar_t>(acc[0], a_desc + step, b0_desc + step);
        wgmma_m64n64k16_mn_major<scalar_t>(acc[1], a_desc + step, b1_desc + step);
      }
    }
    if constexpr (kPair) {
      const int released = previous;
      wgmma_commit_and_step_ring(stage_empty, it > 0, previous, stage, kStages, full_parity);
      if (it > 0) mbarrier_arrive_peer(&stage_empty[released], peer);
    } else {
      wgmma_commit_and_step_ring(stage_empty, it > 0, previous, stage, kStages, full_parity);
    }
  }
  wgmma_wait<0>();

  // The m64n64 fragment: accumulator 4 j + 2 h + l is row 16 (warp % 4) + gid + 8 h, column 8 j + 2 tig + l.
  const int lane = tid % 32, gid = lane / 4, tig = lane % 4;
  const int row = (kCiBoxes == 2 ? warpgroup * 64 : 0) + (tid / 32 % 4) * 16 + gid;
  float* const out = t.partial + int64_t(split) * t.groups * t.cin_g * t.cout_g * t.taps;
#pragma unroll
  for (int half = 0; half < kCiBoxes; ++half)  // (one x box: acc[0] holds this warpgroup's half)
#pragma unroll
    for (int j = 0; j < 8; ++j)
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const int column = (kCiBoxes == 2 ? half : warpgroup) * 64 + j * 8 + 2 * tig + (e & 1);
        const int ci = ci0 + row + (e >= 2 ? 8 : 0), co = co0 + column;
        if (ci < t.cin_g && co < t.cout_g)
          out[((int64_t(g) * t.cin_g + ci) * t.cout_g + co) * t.taps + tap] =
              kProbe == kProbeNone ? acc[half][4 * j + e] : __int_as_float(0x7fc00000);
      }
  if constexpr (kPair) cluster_sync_all();
#else
  (void)t;
#endif
}

template <typename scalar_t, bool kN128, int kCiBoxes>
__global__ void __launch_bounds__(kTmaWeightGradThreads, 1)
tconv_grad_weight_tma_kernel(const __grid_constant__ TmaWeightGradArgs t) {
  grad_weight_tma_block<scalar_t, kN128, kCiBoxes, false>(t);
}
// The pair form (TCONV_GRAD_WEIGHT_TMA_PAIR=1, development, default 0 until run on a GPU), launched in clusters of 2
// consecutive blocks (tma_weight_grad_pair_share): why at grad_weight_tma_block's kPair.
template <typename scalar_t, int kCiBoxes>
__global__ void __launch_bounds__(kTmaWeightGradThreads, 1)
tconv_grad_weight_tma_pair_kernel(const __grid_constant__ TmaWeightGradArgs t) {
  grad_weight_tma_block<scalar_t, false, kCiBoxes, true>(t);
}
// The timing probes (TCONV_PROBE_GRAD_WEIGHT_TMA, bf16 only): kProbeLoadsOnly / kProbeMmaOnly.
template <int kCiBoxes, int kProbe>
__global__ void __launch_bounds__(kTmaWeightGradThreads, 1)
tconv_grad_weight_tma_probe_kernel(const __grid_constant__ TmaWeightGradArgs t) {
  grad_weight_tma_block<__nv_bfloat16, false, kCiBoxes, false, kProbe>(t);
}

// A power of two at least n (n >= 1), at most `most`.
int pow2_cover(int64_t n, int most) {
  int v = 1;
  while (v < n && v < most) v *= 2;
  return v;
}
// The box of 64 input positions: W first (up to all of it), then H, then D.
void tma_weight_grad_tile(const ConvTransposeParams& p, int (&tile)[3]) {
  tile[2] = pow2_cover(p.in_size[2], kTmaWeightGradPositions);
  tile[1] = pow2_cover(p.in_size[1], kTmaWeightGradPositions / tile[2]);
  tile[0] = kTmaWeightGradPositions / (tile[2] * tile[1]);
}

// ---- grad_weight of channels-last 16-bit data by window (igemm_config.h: WindowWeightGradTile, why) ----
// A stage: x's segment as ci_planes boxes [position][32 channels] (64-byte rows, 64-byte swizzle), then grad_output's
// as co_planes boxes [kd][kh][box_w positions][32 channels]: the positions the segment's input positions reach
// through every (kd, kh) tap, from the first W tap's to the last's. Atom (tap, plane) of M is that box at the tap's
// line and W shift: an M/N-major operand starting at a whole 64-byte row, read through the address bits' swizzle (as
// the forward's window reads its shifted rows).
struct WindowWeightGradArgs {
  CUtensorMap x_map;   // x: (C_in, W, H, D, N), boxes of 32 channels x `positions` positions
  CUtensorMap dy_map;  // grad_output: boxes of 32 channels x box_w x kernel[1] lines (step dilation) x kernel[0]
  float* partial;      // [splits][C_in][C_out / groups][taps]
  int positions, segments, box_w;
  int in_size[2];      // D, H
  int stride[2], padding[3];  // D, H (W's stride is 1); D, H, W
  int groups, cin_g, cout_g, ci_planes, co_planes, taps, tiles, chunks, splits, stages;
  uint32_t x_plane_bytes, dy_plane_bytes, dy_offset, stage_bytes, stage_tx_bytes;
  int64_t units;  // batch x D_in x H_in x segments
  uint32_t tile_start[WindowWeightGradTile::kMaxTiles];  // a stage's byte of the tile's first atom (rows 0-31)
  uint32_t tile_lbo[WindowWeightGradTile::kMaxTiles];    // bytes from it to the second atom (rows 32-63)
  int16_t tile_atom[WindowWeightGradTile::kMaxTiles][2];  // atom tap x co_planes + plane of rows 0-31, 32-63; -1 none
  // Line boxes (grad_weight_window_line_boxes): grad_output as one box per (kd, kh) line that the block's chunk of
  // tiles reads, lines chunk_line_lo.. of the chunk, each plane's lines from the stage's dy plane start (tile_start
  // is then relative to the chunk's first line); 0: one box of every line per plane.
  // line_rows: 64-byte rows from one line box to the next, box_w rounded up to 16 so that every box starts on 1024
  // bytes, as the whole boxes do (the swizzle's repeat and the TMA destination's alignment, whichever holds).
  int line_boxes, line_rows, kernel_h, dilation_dh[2];
  uint32_t x_tx_bytes;  // a stage's x bytes (the line boxes add the chunk's)
  int split_tiles;      // 1: the split form's plan (tconv_grad_weight_window_kernel's kSplitTiles)
  int16_t chunk_line_lo[WindowWeightGradTile::kMaxTiles], chunk_lines[WindowWeightGradTile::kMaxTiles];
};
static_assert(sizeof(WindowWeightGradArgs) <= 4096, "a kernel's parameters fit 4 KB (before CUDA 12.1's larger limit)");

// The bytes a stage of chunk `chunk` loads (its full barrier's transaction count; the plan's cost of a split chunk).
__host__ __device__ inline uint32_t window_weight_grad_stage_tx_bytes(const WindowWeightGradArgs& t, int chunk) {
  return t.line_boxes ? t.x_tx_bytes + uint32_t(t.co_planes * t.chunk_lines[chunk] * t.box_w * 64) : t.stage_tx_bytes;
}

// acc (64 x kN) += A (64 x 16) B (16 x kN), both M/N-major in the 64-byte swizzle (imm-trans-a = imm-trans-b = 1).
template <typename scalar_t, int kN>
__device__ __forceinline__ void wgmma_mn_major_sw64(float (&d)[kN / 2], uint64_t a, uint64_t b) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  static_assert(kN == 32 || kN == 64, "n32 or n64");
#define TCONV_WGMMA_N32(KIND)                                                                                         \
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"                                                          \
               "wgmma.mma_async.sync.aligned.m64n32k16.f32." KIND " "                                              \
               "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15}, %16, %17, p, 1, 1, 1, 1;\n}\n" \
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),   \
                 "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]),          \
                 "+f"(d[15])                                                                                         \
               : "l"(a), "l"(b))
  if constexpr (kN == 32) {
    if constexpr (std::is_same<scalar_t, __half>::value) TCONV_WGMMA_N32("f16.f16");
    else TCONV_WGMMA_N32("bf16.bf16");
  } else {
    wgmma_m64n64k16_mn_major<scalar_t>(d, a, b);
  }
#undef TCONV_WGMMA_N32
#else
  (void)d, (void)a, (void)b;
#endif
}

// kN: input channels per block (32 or 64: N); kTiles: m64 tiles per block (chunk). kSplitTiles: both MMA warpgroups
// take every stage, each with half of the tiles (grad_weight_window_split_tiles: why), instead of alternate stages
// with all of them.
template <typename scalar_t, int kN, int kTiles, bool kSplitTiles = false>
__global__ void __launch_bounds__(WindowWeightGradTile::kMaxThreads, 1)
tconv_grad_weight_window_kernel(const __grid_constant__ WindowWeightGradArgs t) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  using Tile = WindowWeightGradTile;
  static_assert(!kSplitTiles || kTiles % 2 == 0, "the split form halves the tiles");
  constexpr int kWgTiles = kSplitTiles ? kTiles / 2 : kTiles;  // a warpgroup's tiles
  constexpr int kWgStride = kSplitTiles ? 1 : 2;               // a warpgroup's iterations: every one, or every other
  extern __shared__ __align__(1024) unsigned char window_weight_grad_smem[];
  unsigned char* smem = shared_aligned_1024(window_weight_grad_smem);
  __shared__ uint64_t stage_full[Tile::kMaxStages], stage_empty[Tile::kMaxStages];

  const int chunk = int(blockIdx.x) % t.chunks, g = int(blockIdx.x) / t.chunks;
  const int split = blockIdx.y;
  const int64_t unit_begin = split_begin(t.units, t.splits, split);
  const int iterations = int(split_begin(t.units, t.splits, split + 1) - unit_begin);
  const int stages = t.stages;
  const int tid = threadIdx.x;

  if (tid == 0) {
    for (int s = 0; s < stages; ++s) {
      mbarrier_init(&stage_full[s], 1);
      mbarrier_init(&stage_empty[s], kSplitTiles ? 256 : 128);  // the warpgroups that read the stage
    }
    fence_mbarrier_init();
  }
  __syncthreads();

  if (tid >= Tile::kMmaThreads) {
    // Producer warps (lane 0 of each): producer p issues iterations p, p + producers, ... Why: run 476's ncu of
    // fam02's grad_weight (0.51 ms) had its one producer thread never waiting on an empty stage while the warpgroups
    // spent 79 % of the samples waiting on full ones: its ~167 instructions a stage (three boxes) at ~6.5 cycles each
    // were the ~0.56 us a stage took.
    const int producers = (int(blockDim.x) - Tile::kMmaThreads) / 32, producer = (tid - Tile::kMmaThreads) / 32;
    if (tid % 32 != 0) return;
    // unit u = ((n x D_in + d) x H_in + h) x segments + segment
    const int x_c = g * t.cin_g, dy_c = g * t.cout_g;
    const int chunk_line_lo = t.line_boxes ? t.chunk_line_lo[chunk] : 0;
    const int chunk_lines = t.line_boxes ? t.chunk_lines[chunk] : 0;
    const uint32_t stage_tx_bytes = window_weight_grad_stage_tx_bytes(t, chunk);
    // The unit's coordinates and the ring's stage advance by counters: this one thread issues every stage, and the
    // 64-bit divisions by run-time sizes it took per unit (and per line) sat on its path between two stages (as the
    // channel-tile grad_weight's producer did, run 445).
    int64_t first = unit_begin + producer;
    int segment = int(first % t.segments);
    first /= t.segments;
    int h = int(first % t.in_size[1]);
    first /= t.in_size[1];
    int d = int(first % t.in_size[0]), n = int(first / t.in_size[0]);
    const int first_kd = chunk_line_lo / t.kernel_h, first_kh = chunk_line_lo - first_kd * t.kernel_h;
    int stage = producer;
    uint32_t empty_parity = 0;
    for (int it = producer; it < iterations; it += producers) {
      if (it >= stages) mbarrier_wait(&stage_empty[stage], empty_parity);
      const int w = segment * t.positions;
      unsigned char* s = smem + size_t(stage) * t.stage_bytes;
      mbarrier_arrive_expect_tx(&stage_full[stage], stage_tx_bytes);
      for (int plane = 0; plane < t.ci_planes; ++plane)
        tma_load_5d(s + plane * t.x_plane_bytes, &t.x_map, x_c + 32 * plane, w, h, d, n, &stage_full[stage]);
      const int ow = w - t.padding[2], oh = h * t.stride[1] - t.padding[1], od = d * t.stride[0] - t.padding[0];
      for (int plane = 0; plane < t.co_planes; ++plane) {
        unsigned char* const dy_plane = s + t.dy_offset + plane * t.dy_plane_bytes;
        if (t.line_boxes) {
          int kd = first_kd, kh = first_kh;
          for (int l = 0; l < chunk_lines; ++l) {
            tma_load_5d(dy_plane + l * t.line_rows * 64, &t.dy_map, dy_c + 32 * plane, ow, oh + kh * t.dilation_dh[1],
                        od + kd * t.dilation_dh[0], n, &stage_full[stage]);
            if (++kh == t.kernel_h) {
              kh = 0;
              ++kd;
            }
          }
        } else {
          tma_load_5d(dy_plane, &t.dy_map, dy_c + 32 * plane, ow, oh, od, n, &stage_full[stage]);
        }
      }
      for (int step = 0; step < producers; ++step) {
        if (++segment == t.segments) {
          segment = 0;
          if (++h == t.in_size[1]) {
            h = 0;
            if (++d == t.in_size[0]) {
              d = 0;
              ++n;
            }
          }
        }
      }
      // (producers <= stages: iteration it + producers is one round on exactly when its stage wraps)
      if ((stage += producers) >= stages) {
        stage -= stages;
        if (it >= stages) empty_parity ^= 1;
      }
    }
    return;
  }

  // MMA warpgroup w: iterations w, w + 2, ... (stage it % stages: `stages` is even, so always this warpgroup's); in
  // the split form every iteration, with tiles w x kWgTiles.. of the chunk.
  const int warpgroup = uniform_warpgroup();
  const int first_tile = chunk * kTiles + (kSplitTiles ? warpgroup * kWgTiles : 0);
  uint32_t a_lo[kWgTiles];  // the descriptors' low words at the ring's base, less the stage and k offsets
#pragma unroll
  for (int i = 0; i < kWgTiles; ++i) {
    // (past the call's tiles: the chunk's first tile again, computed, not stored; its offsets are the chunk's)
    const int tile = first_tile + i < t.tiles ? first_tile + i : chunk * kTiles;
    a_lo[i] = (((shared_address(smem) + t.tile_start[tile]) & 0x3FFFF) >> 4) | ((t.tile_lbo[tile] >> 4) << 16);
  }
  // K-groups of 8 positions 512 bytes apart (stride byte offset), layout type 2: the 64-byte swizzle
  const uint32_t desc_hi = uint32_t(512 >> 4) | (2u << 30);
  const uint32_t b_lo = ((shared_address(smem) & 0x3FFFF) >> 4) | ((t.x_plane_bytes >> 4) << 16);
  float acc[kWgTiles][kN / 2];
#pragma unroll
  for (int i = 0; i < kWgTiles; ++i)
#pragma unroll
    for (int j = 0; j < kN / 2; ++j) acc[i][j] = 0.f;
  int previous = -1, stage = kSplitTiles ? 0 : warpgroup;
  uint32_t full_parity = 0;
  for (int it = kSplitTiles ? 0 : warpgroup; it < iterations; it += kWgStride) {
    mbarrier_wait(&stage_full[stage], full_parity);
    const uint32_t stage_units = (uint32_t(stage) * t.stage_bytes) >> 4;
    wgmma_fence();
#pragma unroll
    for (int k = 0; k < WindowWeightGradTile::kPositions / 16; ++k) {  // 16 positions: two 512-byte K groups
      const uint32_t k_units = stage_units + uint32_t(k) * (1024 >> 4);
      const uint64_t b = (uint64_t(desc_hi) << 32) | (b_lo + k_units);
#pragma unroll
      for (int i = 0; i < kWgTiles; ++i)
        wgmma_mn_major_sw64<scalar_t, kN>(acc[i], (uint64_t(desc_hi) << 32) | (a_lo[i] + k_units), b);
    }
    wgmma_commit();
    wgmma_wait<1>();
    if (previous >= 0) mbarrier_arrive(&stage_empty[previous]);
    previous = stage;
    if ((stage += kWgStride) >= stages) {  // (stages is even: back to this warpgroup's first stage)
      stage -= stages;
      full_parity ^= 1;
    }
  }
  wgmma_wait<0>();

  // The warpgroups' sums meet in the ring (every stage the producer filled was waited for by its warpgroup, so no copy
  // is in flight once both are past their loops), and a split writes one partial sum: half the workspace per split,
  // so twice the splits within the budget (window_weight_grad_shared_bytes: the shared memory it takes). The split
  // form's warpgroups hold different tiles: each stores its own.
  if constexpr (!kSplitTiles) {
    float* const staged = reinterpret_cast<float*>(smem);
    const int wg_thread = tid % 128;
    mma_warpgroups_sync();
    if (warpgroup == 1) {
#pragma unroll
      for (int i = 0; i < kTiles; ++i)
#pragma unroll
        for (int j = 0; j < kN / 2; ++j) staged[(i * (kN / 2) + j) * 128 + wg_thread] = acc[i][j];
    }
    mma_warpgroups_sync();
    if (warpgroup == 1) return;
#pragma unroll
    for (int i = 0; i < kTiles; ++i)
#pragma unroll
      for (int j = 0; j < kN / 2; ++j) acc[i][j] += staged[(i * (kN / 2) + j) * 128 + wg_thread];
  }

  // The m64nN fragment: accumulator 4 j + 2 h + l is row 16 (warp % 4) + gid + 8 h, column 8 j + 2 tig + l.
  const int lane = tid % 32, gid = lane / 4, tig = lane % 4, warp = tid / 32 % 4;
  const int64_t weight_numel = int64_t(t.groups) * t.cin_g * t.cout_g * t.taps;
  float* const out = t.partial + int64_t(split) * weight_numel;
#pragma unroll
  for (int i = 0; i < kWgTiles; ++i) {
    const int tile = first_tile + i;
    if (tile >= t.tiles) break;
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      const int row = 16 * warp + gid + (e >= 2 ? 8 : 0);
      const int atom = t.tile_atom[tile][row / 32];
      if (atom < 0) continue;
      const int tap = atom / t.co_planes, co = (atom % t.co_planes) * 32 + row % 32;
      if (co >= t.cout_g) continue;
#pragma unroll
      for (int j = 0; j < kN / 8; ++j) {
        const int ci = 8 * j + 2 * tig + (e & 1);
        if (ci < t.cin_g) out[((int64_t(g) * t.cin_g + ci) * t.cout_g + co) * t.taps + tap] = acc[i][4 * j + e];
      }
    }
  }
#endif
}

// Whether x and grad_output can be the channels-last grad_weight kernels' tensor maps (16-byte bases, channels-last
// strides a map takes) on a device with wgmma and a driver that encodes maps.
bool channels_last_weight_grad_operands(const ConvTransposeParams& p, const void* input, const void* grad_output) {
  const int64_t x_sizes[4] = {p.in_size[2], p.in_size[1], p.in_size[0], p.batch};
  const int64_t dy_sizes[4] = {p.out_size[2], p.out_size[1], p.out_size[0], p.batch};
  if (reinterpret_cast<uintptr_t>(input) % 16 != 0 || reinterpret_cast<uintptr_t>(grad_output) % 16 != 0 ||
      !channels_last_strides_mappable(p.in_channels, p.input_strides, x_sizes) ||
      !channels_last_strides_mappable(p.out_channels, p.output_strides, dy_sizes))
    return false;
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return wgmma_available(device) && encode_tiled_fn() != nullptr;
}

// TCONV_GRAD_WEIGHT_WINDOW_LINES (development, read once per process): 0 refuses calls whose stage of every (kd, kh)
// line leaves under WindowWeightGradTile::kMinStages stages; 1 (unset) loads one box per line that each block's chunk
// of tiles reads (igemm_config.h: WindowWeightGradTile, why).
bool grad_weight_window_line_boxes() {
  static const bool enabled = development_switch("TCONV_GRAD_WEIGHT_WINDOW_LINES", 1) != 0;
  return enabled;
}

// The most output channels per group the window grad_weight takes: 128 (up to four 32-channel atoms a tap; the
// plan's tiles and shared memory bound them further), or 64 under TCONV_GRAD_WEIGHT_WINDOW_WIDE_OUT=0 (development,
// read once per process), where the per-tap TMA grad_weight takes them. Why: that kernel's loads are its pass (run
// 504's probe: 88-92 %), each tap's block reading all of x and grad_output again; the window's chunks (three m64
// tiles: 1.5 taps at 128 channels) read x once a chunk and the lines their taps lie on. Run 507 (H200, bf16
// channels-last, kernel breakdowns in one build, the pass per-tap -> window): fam06 (64 -> 128, 3 x 5) 1.930 ->
// 1.841 ms, L2-61 (64 -> 128, 3 x 3 x 3) 0.924 -> 0.841 (predicted ~1.2 and ~0.7 from bytes: the chunks of 1.5 taps
// read ~10 GB, not the ~7.3 of chunks of two, and its 64-byte box rows). Above 128 not measured: refused.
int grad_weight_window_most_out_channels() {
  static const int most = development_switch("TCONV_GRAD_WEIGHT_WINDOW_WIDE_OUT", 1) != 0 ? 128 : 64;
  return most;
}

// The window grad_weight at 64 input channels runs in its split form (tconv_grad_weight_window_kernel's kSplitTiles):
// chunks of 6 or 8 m64 tiles, both warpgroups on every stage with half of them each, instead of chunks of 3 or 4 on
// alternate stages (a warpgroup's 128 accumulators a thread hold 4 n64 tiles either way);
// TCONV_GRAD_WEIGHT_WINDOW_SPLIT_TILES=0 (development, read once per process) keeps the alternating form. Why: the
// pass is its loads (the per-tap kernel's probe, run 504; the window's run 507 gained only as its bytes fell), and
// every chunk reads x and its taps' lines again: bytes loaded a unit of 64 positions over all chunks, fam06 (15 taps,
// 5 a line, 4 atoms a tap) 290816 at chunks of 3 tiles against 137216 at 8; L2-61 (27 taps, 3 a line) 451584 against
// 225792 at 6 (a line's three taps a chunk). Runs 508-509 (H200, bf16 channels-last, kernel breakdowns in one build,
// the pass alternating -> split): fam06 1.843 -> 0.743 ms (predicted ~0.9-1.1), L2-61 0.840 -> 0.560 (~0.45-0.6),
// fam05 (64 -> 64) 0.873 -> 0.538, fam01 (64 -> 64) 1.481 -> 1.126, fam03 (48 -> 48) 0.790 -> 0.642.
// =2 (development; written after session 95's device time, not run on a GPU) also at 32 channels (n32: chunks of 8,
// 12 or 16 tiles against 4-8; L1-68's 75 tiles, fam02's 53, L1-71's 5), =0 never. Where no split chunk fits (line
// boxes too deep for the ring) or the split chunks are no fewer (plan_grad_weight_window), the alternating ones run.
bool grad_weight_window_split_tiles(bool narrow) {
  static const int mode = development_switch("TCONV_GRAD_WEIGHT_WINDOW_SPLIT_TILES", 1);
  return mode >= (narrow ? 2 : 1);
}

// TCONV_GRAD_WEIGHT_WINDOW_STAGES (development, read once per process): the most stages of the window grad_weight's
// ring (even, WindowWeightGradTile::kMinStages to kMaxStages; unset 8, igemm_config.h: WindowWeightGradTile, why).
int grad_weight_window_most_stages() {
  using Tile = WindowWeightGradTile;
  static const int most =
      std::min(std::max(int(development_switch("TCONV_GRAD_WEIGHT_WINDOW_STAGES", 8)), Tile::kMinStages),
               Tile::kMaxStages) / 2 * 2;
  return most;
}

// TCONV_GRAD_WEIGHT_WINDOW_PRODUCERS (development, read once per process): the window grad_weight's producer warps
// (1 to WindowWeightGradTile::kMaxProducers; unset kProducers, igemm_config.h: WindowWeightGradTile, why).
int grad_weight_window_producers() {
  using Tile = WindowWeightGradTile;
  static const int producers =
      std::min(std::max(int(development_switch("TCONV_GRAD_WEIGHT_WINDOW_PRODUCERS", Tile::kProducers)), 1),
               Tile::kMaxProducers);
  return producers;
}

// The window grad_weight's plan at k_tiles tiles per block (chunk; one of the instantiations' for n): false where it
// cannot run (see grad_weight_window_possible).
bool plan_grad_weight_window_at(const ConvTransposeParams& p, WindowWeightGradArgs& t, int& n, int k_tiles) {
  using Tile = WindowWeightGradTile;
  if (p.stride[2] != 1 || p.in_per_group() > 64 || p.out_per_group() > grad_weight_window_most_out_channels())
    return false;
  // (the channel coordinate of a group's first box on 16 bytes)
  if (p.groups > 1 && (p.in_per_group() % 8 != 0 || p.out_per_group() % 8 != 0)) return false;
  const int64_t big = int64_t(1) << 31;
  for (int i = 0; i < 3; ++i)
    if (p.in_size[i] >= big || p.out_size[i] >= big || p.padding[i] >= big) return false;
  if (p.batch >= big || p.in_channels >= big || p.out_channels >= big) return false;
  for (int i = 0; i < 2; ++i)  // (D and H: the box's lines at the dilation as traversal step, <= 256 elements)
    if (p.dilation[i] > 8 || p.kernel[i] * p.dilation[i] > 256 || p.stride[i] >= big) return false;
  const int span = int(std::min<int64_t>((p.kernel[2] - 1) * p.dilation[2], 256));
  const int lines = int(p.kernel[0] * p.kernel[1]);
  t.cin_g = int(p.in_per_group());
  t.cout_g = int(p.out_per_group());
  t.ci_planes = (t.cin_g + 31) / 32;
  t.co_planes = (t.cout_g + 31) / 32;
  t.taps = int(p.kernel_volume());
  const int atoms = t.taps * t.co_planes;
  t.tiles = (atoms + 1) / 2;
  if (t.tiles > Tile::kMaxTiles) return false;
  n = t.cin_g <= 32 ? 32 : 64;
  t.chunks = (t.tiles + k_tiles - 1) / k_tiles;
  const int positions = Tile::kPositions;
  if (positions + span > 256) return false;
  const auto plane_bytes = [&](int plane_lines, int line_rows) {
    return uint32_t((int64_t(plane_lines) * line_rows * 64 + 1023) / 1024 * 1024);
  };
  const auto stage_bytes_of = [&](uint32_t dy_plane) {
    return int64_t(t.ci_planes) * positions * 64 + int64_t(t.co_planes) * dy_plane;
  };
  uint32_t dy_plane_bytes = plane_bytes(lines, positions + span);
  t.line_boxes = 0;
  t.line_rows = positions + span;
  if (stage_bytes_of(dy_plane_bytes) * Tile::kMinStages > Tile::kSharedBytes - 1024) {
    // Too many lines for 4 stages: the line boxes, where the switch allows (each chunk's lines: those of its atoms,
    // which run in tap order, so a chunk's taps lie on consecutive lines)
    if (!grad_weight_window_line_boxes()) return false;
    int most = 0;
    for (int chunk = 0; chunk < t.chunks; ++chunk) {
      const int first_atom = 2 * chunk * k_tiles, last_atom = std::min(2 * (chunk + 1) * k_tiles, atoms) - 1;
      const int lo = int(first_atom / t.co_planes / p.kernel[2]), hi = int(last_atom / t.co_planes / p.kernel[2]);
      t.chunk_line_lo[chunk] = int16_t(lo);
      t.chunk_lines[chunk] = int16_t(hi - lo + 1);
      most = std::max(most, hi - lo + 1);
    }
    t.line_rows = (positions + span + 15) / 16 * 16;
    dy_plane_bytes = plane_bytes(most, t.line_rows);
    if (stage_bytes_of(dy_plane_bytes) * Tile::kMinStages > Tile::kSharedBytes - 1024) return false;
    t.line_boxes = 1;
  }
  const int64_t stage_bytes = stage_bytes_of(dy_plane_bytes);
  t.kernel_h = int(p.kernel[1]);
  t.dilation_dh[0] = int(p.dilation[0]);
  t.dilation_dh[1] = int(p.dilation[1]);
  t.positions = positions;
  t.box_w = positions + span;
  t.segments = int((p.in_size[2] + positions - 1) / positions);
  t.x_plane_bytes = uint32_t(positions * 64);
  t.dy_plane_bytes = dy_plane_bytes;
  t.dy_offset = uint32_t(t.ci_planes) * t.x_plane_bytes;
  t.stage_bytes = uint32_t(stage_bytes);
  t.x_tx_bytes = uint32_t(int64_t(t.ci_planes) * positions * 64);
  t.stage_tx_bytes = uint32_t(t.x_tx_bytes + int64_t(t.co_planes) * lines * t.box_w * 64);
  t.stages = int(std::min<int64_t>(grad_weight_window_most_stages(), (Tile::kSharedBytes - 1024) / stage_bytes));
  t.stages = t.stages / 2 * 2;
  for (int i = 0; i < 2; ++i) {
    t.in_size[i] = int(p.in_size[i]);
    t.stride[i] = int(p.stride[i]);
  }
  for (int i = 0; i < 3; ++i) t.padding[i] = int(p.padding[i]);
  t.groups = int(p.groups);
  t.units = p.batch * p.in_size[0] * p.in_size[1] * t.segments;
  // Atoms in tap order, each tap's planes together; a tile is two consecutive atoms, the one at the lower address
  // first (the leading byte offset is unsigned). Line boxes: lines from the tile's chunk's first.
  const auto atom_offset = [&](int atom, int tile) {
    const int tap = atom / t.co_planes, plane = atom % t.co_planes;
    const int kw = int(tap % p.kernel[2]), line = int(tap / p.kernel[2]);
    const int first_line = t.line_boxes ? t.chunk_line_lo[tile / k_tiles] : 0;
    return t.dy_offset + uint32_t(plane) * t.dy_plane_bytes +
           uint32_t((int64_t(line - first_line) * t.line_rows + kw * p.dilation[2]) * 64);
  };
  for (int tile = 0; tile < t.tiles; ++tile) {
    int first = 2 * tile, second = 2 * tile + 1 < atoms ? 2 * tile + 1 : -1;
    if (second >= 0 && atom_offset(second, tile) < atom_offset(first, tile)) std::swap(first, second);
    t.tile_start[tile] = atom_offset(first, tile);
    t.tile_lbo[tile] = second >= 0 ? atom_offset(second, tile) - atom_offset(first, tile) : 0;
    t.tile_atom[tile][0] = int16_t(first);
    t.tile_atom[tile][1] = int16_t(second);
  }
  return true;
}

// A plan's splits of its units: one wave of one block per SM, each split at least 4 ring fills per warpgroup, one
// partial sum per split within the workspace (most_splits: the budget over the weight's size).
int64_t window_weight_grad_splits(const WindowWeightGradArgs& t, int sm_count, int64_t most_splits) {
  const int64_t blocks = int64_t(t.groups) * t.chunks;
  int64_t splits = std::max<int64_t>(int64_t(std::max(sm_count, 1)) / std::max<int64_t>(blocks, 1), 1);
  splits = std::min(splits, std::max<int64_t>(t.units / (8 * t.stages), 1));
  splits = std::min(splits, most_splits);
  return std::max<int64_t>(std::min<int64_t>(splits, 65535), 1);
}

// The window grad_weight's plan: false where it cannot run. k_tiles: the instantiation's tiles per block, the one
// whose blocks end soonest by a count of wgmma tiles (waves x units per split x tiles per stage), then the fewest
// tiles computed in all (past-the-end ones included), then the fewest chunks. Why the count: a call whose splits the
// workspace bounds leaves SMs idle unless its chunks are more (fam02 channels-last bf16, 53 tiles: 9 chunks of 6 x 10
// splits = 90 blocks, 14 chunks of 4 x 9 = 126); where the splits fill the SMs it picks as the fewest tiles did.
bool plan_grad_weight_window(const ConvTransposeParams& p, WindowWeightGradArgs& t, int& n, int& k_tiles,
                             int sm_count = 1, int64_t most_splits = 1) {
  static constexpr int kTiles32[] = {4, 5, 6, 8}, kTiles64[] = {3, 4};
  static constexpr int kSplitTiles32[] = {8, 12, 16}, kSplitTiles64[] = {6, 8};
  const bool narrow = p.in_per_group() <= 32;
  // The best of `count` options, {tiles, chunks} ({0, 0}: none can run): the split form counts the bytes its busiest
  // chunk loads a stage (its loads are the pass, and a chunk's bytes follow the lines its taps lie on), the
  // alternating form the wgmma tiles a stage.
  struct Choice {
    int tiles = 0, chunks = 0;
  };
  const auto choose = [&](const int* options, int count, bool split) {
    Choice chosen;
    int64_t best_cost = 0, best_computed = 0;
    for (int i = 0; i < count; ++i) {
      WindowWeightGradArgs c{};
      int c_n = 0;
      if (!plan_grad_weight_window_at(p, c, c_n, options[i])) continue;
      const int64_t splits = window_weight_grad_splits(c, sm_count, most_splits);
      const int64_t blocks = int64_t(c.groups) * c.chunks * splits, slots = std::max(sm_count, 1);
      int64_t per_stage = options[i];
      if (split) {
        per_stage = 0;
        for (int chunk = 0; chunk < c.chunks; ++chunk)
          per_stage = std::max<int64_t>(per_stage, window_weight_grad_stage_tx_bytes(c, chunk));
      }
      const int64_t cost = (blocks + slots - 1) / slots * ((c.units + splits - 1) / splits) * per_stage;
      const int64_t computed = int64_t(c.chunks) * options[i];
      if (chosen.tiles == 0 || cost < best_cost || (cost == best_cost && computed < best_computed) ||
          (cost == best_cost && computed == best_computed && options[i] > chosen.tiles)) {
        best_cost = cost;
        best_computed = computed;
        chosen = {options[i], c.chunks};
      }
    }
    return chosen;
  };
  const Choice alternating = choose(narrow ? kTiles32 : kTiles64, narrow ? 4 : 2, false);
  const Choice split_choice = grad_weight_window_split_tiles(narrow)
                                  ? choose(narrow ? kSplitTiles32 : kSplitTiles64, narrow ? 3 : 2, true)
                                  : Choice{};
  // The split form only where its chunks are fewer: its gain is the reads of x (and of shared lines) that fewer chunks
  // save, and at as many chunks it computes more past-the-end tiles a stage (L1-71's 5 tiles: one chunk of 5 on
  // alternate stages, or of 8 on every stage). Every shape of runs 508-509 had fewer (fam06 4 against 10).
  const bool split = split_choice.tiles != 0 && (alternating.tiles == 0 || split_choice.chunks < alternating.chunks);
  k_tiles = split ? split_choice.tiles : alternating.tiles;
  if (k_tiles == 0 || !plan_grad_weight_window_at(p, t, n, k_tiles)) return false;
  t.split_tiles = split ? 1 : 0;
  return true;
}

// The window grad_weight's dynamic shared memory: the ring, or the staged sums of the warpgroup that hands its sums
// to the other (kTiles x kN / 2 floats a thread; none in the split form), whichever is more, and the 1024-byte
// alignment's slack.
size_t window_weight_grad_shared_bytes(const WindowWeightGradArgs& t, int n, int k_tiles) {
  const size_t staged = t.split_tiles ? 0 : size_t(k_tiles) * (n / 2) * 128 * sizeof(float);
  return std::max(size_t(t.stages) * t.stage_bytes, staged) + 1024;
}

// The splits that the workspace allows: one partial sum (the weight's size in fp32) each.
int64_t window_weight_grad_most_splits(const ConvTransposeParams& p, int64_t max_workspace_elems) {
  const int64_t weight_numel = p.in_channels * p.out_per_group() * p.kernel_volume();
  return std::max<int64_t>(max_workspace_elems / std::max<int64_t>(weight_numel, 1), 1);
}


#endif  // TCONV_TENSOR_MAPS

}  // namespace

#if defined(TCONV_TENSOR_MAPS)
namespace {
template <class T>
struct TmaTileTag {
  using type = T;
};
// The per-tap boxes' tile for a plan, one choice for gather_tma and gather_tma_persistent: visit(TmaTileTag<T>{})
// with T the tile (k16: 16-bit data, whose paired plans run two blocks per SM).
template <bool k16, class Visit>
decltype(auto) with_per_tap_tile(const TmaGatherPlan& plan, Visit&& visit) {
  switch (plan.block_n) {
    case TmaGatherWideTile::kBlockN:
      return visit(TmaTileTag<TmaGatherWideTile>{});
    case TmaGatherNarrowTile::kBlockN:
      if constexpr (k16)
        if (plan.paired) return visit(TmaTileTag<TmaGatherNarrowPairTile>{});
      return visit(TmaTileTag<TmaGatherNarrowTile>{});
    default:
      if constexpr (k16) {
        if (plan.paired) return visit(TmaTileTag<TmaGatherShortTile>{});
        if (plan.ping_pong) return visit(TmaTileTag<TmaGatherPingPongTile>{});
      }
      return visit(TmaTileTag<TmaGatherTile>{});
  }
}
}  // namespace
#endif

bool gather_tma_window_preferred(const ConvTransposeParams& p, GatherPass pass, DType dtype, bool split_tf32,
                                 const GatherOptions& options) {
#if defined(TCONV_TENSOR_MAPS)
  static const bool enabled = development_switch("TCONV_TMA_WINDOW_AUTO", 1) != 0;
  if (!enabled || options.tma != GatherTma::kAutoWindow) return false;
  const bool k16 = is_16bit(dtype);
  // (16-bit sources: the grad_input under mode 2 only; planned in place only)
  if (pass != GatherPass::kForward && !(k16 && tma_window_16bit_mode() >= 2)) return false;
  const TmaGatherPlan plan = plan_tma_gather(p, pass, dtype, split_tf32, options);
  if (!plan.ok || !plan.window) return false;
  const GatherArgs& a = plan.args;
  if (k16) {
    using Rule = TmaWindow16BitAutoRule;
    // TCONV_TMA_WINDOW_WIDE (development, read once per process): 0 refuses wide lines of 64+ source channels, 1
    // (unset) the rule as it stands
    static const bool wide = development_switch("TCONV_TMA_WINDOW_WIDE", 1) != 0;
    const int w_taps = window_plan(a).max_taps;
    return w_taps >= Rule::kMinWTaps &&
           (plan.pitch > 0 || a.k_channels < Rule::kMinWideLineChannelsRefused ||
            (wide && w_taps >= Rule::kMinWideLineWTaps && a.n_channels <= Rule::kMaxWideLineColumns));
  }
  if (plan.pitch == 0) return false;
  return a.n_channels >= TmaWindowAutoRule::kMinChannels && a.n_channels <= TmaWindowAutoRule::kMaxChannels &&
         int64_t(max_phase_taps(a)) * a.k_rows >= TmaWindowAutoRule::kMinK;
#else
  (void)p, (void)pass, (void)dtype, (void)split_tf32, (void)options;
  return false;
#endif
}

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

cudaError_t gather_tma(const ConvTransposeParams& p, GatherPass pass, DType dtype, const GatherOptions& options,
                       const void* src, const void* weight, const void* bias, void* dst, float* workspace,
                       cudaStream_t stream) {
#if defined(TCONV_TENSOR_MAPS)
  TmaGatherPlan plan = plan_tma_gather(p, pass, dtype, false, options);
  if (!plan.ok) return cudaErrorInvalidValue;
  take_ping_pong_tile(plan, dst);
  // The bulk copies of the packed weights and the tensor map's base need 16-byte addresses (the caching allocator
  // gives more).
  if (reinterpret_cast<uintptr_t>(workspace) % 16 != 0) return cudaErrorMisalignedAddress;
  GatherArgs& a = plan.args;
  const int64_t batch = a.batch;
  if (batch == 0) return cudaSuccess;
  a.packed_weight = workspace;
  a.bias = pass == GatherPass::kForward ? bias : nullptr;
  if (plan.direct) {
    a.src = src;
    a.dst = dst;
    return with_per_tap_tile<false>(plan, [&](auto tile) {
      return run_tma_gather<typename decltype(tile)::type, true>(p, plan, weight, workspace, true, stream);
    });
  }
  // Chunks of copy_batch images (all of them without a copy budget), each copied and then computed; the weights are
  // packed once. One stream orders a chunk's copy after the previous chunk's kernel, which read the same buffer.
  const int64_t bytes = element_bytes(dtype);
  for (int64_t n0 = 0; n0 < batch; n0 += plan.copy_batch) {
    TmaGatherPlan chunk = plan;
    chunk.args.batch = int(std::min(plan.copy_batch, batch - n0));
    chunk.args.src = static_cast<const char*>(src) + n0 * a.src_stride[0] * bytes;
    chunk.args.dst = static_cast<char*>(dst) + n0 * a.dst_stride[0] * bytes;
    const bool pack = n0 == 0;
    // The per-tap boxes on the data's type
    auto per_tap_boxes = [&](auto zero) -> cudaError_t {
      using scalar_t = decltype(zero);
      return with_per_tap_tile<sizeof(scalar_t) == 2>(plan, [&](auto tile) {
        return run_tma_gather<typename decltype(tile)::type, false, scalar_t>(p, chunk, weight, workspace, pack,
                                                                            stream);
      });
    };
    cudaError_t err;
    // The window on the data's type (16-bit data only in place: plan_tma_gather)
    auto window_boxes = [&](auto zero) -> cudaError_t {
      using scalar_t = decltype(zero);
      if constexpr (sizeof(scalar_t) == 2)
        if (plan.paired) return run_tma_window<TmaWindowShortTile, scalar_t>(p, chunk, weight, workspace, pack, stream);
      return plan.block_n == TmaWindowTile::kBlockN
                 ? run_tma_window<TmaWindowTile, scalar_t>(p, chunk, weight, workspace, pack, stream)
                 : run_tma_window<TmaWindowWideTile, scalar_t>(p, chunk, weight, workspace, pack, stream);
    };
    if (plan.window)
      err = dtype == DType::kFloat16    ? window_boxes(__half())
            : dtype == DType::kBFloat16 ? window_boxes(__nv_bfloat16())
                                        : window_boxes(0.f);
    else
      err = dtype == DType::kFloat16    ? per_tap_boxes(__half())
            : dtype == DType::kBFloat16 ? per_tap_boxes(__nv_bfloat16())
                                        : per_tap_boxes(0.f);
    if (err != cudaSuccess) return err;
  }
  return cudaSuccess;
#else
  (void)p, (void)pass, (void)dtype, (void)options, (void)src, (void)weight, (void)bias, (void)dst, (void)workspace,
      (void)stream;
  return cudaErrorNotSupported;
#endif
}

bool gather_tma_persistent(const ConvTransposeParams& p, GatherPass pass, DType dtype, bool split_tf32,
                           const GatherOptions& options, const void* dst) {
#if defined(TCONV_TENSOR_MAPS)
  if (!is_16bit(dtype)) return false;  // both persistent forms take 16-bit data only
  TmaGatherPlan plan = plan_tma_gather(p, pass, dtype, split_tf32, options);
  if (!plan.ok || plan.direct || plan.args.batch == 0) return false;
  take_ping_pong_tile(plan, dst);
  // gather_tma's choices for its first chunk (run_tma_window, run_tma_gather)
  GatherArgs& a = plan.args;
  a.dst = const_cast<void*>(dst);
  const int taps = max_phase_taps(a);
  if (plan.window) return plan.paired && tma_window_persistent_stages<TmaWindowShortTile>(a, plan, taps) >= 2;
  return with_per_tap_tile<true>(plan, [&](auto tile) {
    return tma_gather_persistent_stages<typename decltype(tile)::type>(a, plan) >= 2;
  });
#else
  (void)p, (void)pass, (void)dtype, (void)split_tf32, (void)options, (void)dst;
  return false;
#endif
}

// Diagnostics for run 498's failure (H200, 7c1009a: the TMA grad_weight reported "invalid argument" on every call where
// a process's backwards had needed grad_weight alone, channels-last bf16, x without grad, and in no process where a
// backward with grad_input had run first). The suspected cause is fixed where it lies, in the entry points
// (torch_check.h: bind_primary_context); the other candidate, an error an earlier call left unread (which the launch
// check's cudaGetLastError would report as this launch's), is only reported, not cleared:
// TCONV_REPORT_PENDING_CUDA_ERRORS=1 (development, read once per process) prints such an error, and the step of the
// launch that failed, to stderr.
#if defined(TCONV_TENSOR_MAPS)
static bool report_launch_errors() {
  static const bool report = development_switch("TCONV_REPORT_PENDING_CUDA_ERRORS", 0) != 0;
  return report;
}
static void report_pending_launch_error(const char* launch) {
  if (!report_launch_errors()) return;
  const cudaError_t pending = cudaPeekAtLastError();
  if (pending != cudaSuccess)
    std::fprintf(stderr, "tconv: a CUDA error was pending before the %s launch: %s\n", launch,
                 cudaGetErrorString(pending));
}
static cudaError_t reported_step(cudaError_t err, const char* launch, const char* step) {
  if (err != cudaSuccess && report_launch_errors())
    std::fprintf(stderr, "tconv: the %s launch failed at %s: %s\n", launch, step, cudaGetErrorString(err));
  return err;
}
#endif

bool grad_weight_tma_possible(const ConvTransposeParams& p, DType dtype, const void* input, const void* grad_output) {
#if defined(TCONV_TENSOR_MAPS)
  // (an empty tensor has no tensor map: its dimensions must be at least 1)
  if (!is_16bit(dtype) || p.batch * p.in_spatial() == 0 || p.out_spatial() == 0) return false;
  if (p.groups > 1 && (p.in_per_group() % 64 != 0 || p.out_per_group() % 64 != 0)) return false;
  int tile[3];
  tma_weight_grad_tile(p, tile);
  const int64_t big = int64_t(1) << 31;
  for (int i = 0; i < 3; ++i)
    if (p.stride[i] > 8 || tile[i] * p.stride[i] > 256 || p.in_size[i] >= big || p.out_size[i] >= big ||
        p.dilation[i] * p.kernel[i] >= big || p.padding[i] >= big)
      return false;
  if (p.batch >= big || p.in_channels >= big || p.out_channels >= big || p.kernel_volume() >= big) return false;
  return channels_last_weight_grad_operands(p, input, grad_output);
#else
  (void)p, (void)dtype, (void)input, (void)grad_output;
  return false;
#endif
}

// TCONV_GRAD_WEIGHT_TMA_N128 (development, read once per process): 1 runs the TMA grad_weight's k16 steps as m64n128
// wgmmas (tconv_grad_weight_tma_kernel's kN128: why); 0, the default, as two m64n64 ones.
static bool tma_weight_grad_n128() {
  static const bool enabled = development_switch("TCONV_GRAD_WEIGHT_TMA_N128", 0) != 0;
  return enabled;
}

// x boxes a block's tile takes (tconv_grad_weight_tma_kernel's kCiBoxes): one where a group has at most 64 input
// channels (two would put half of every wgmma on zero fill): fam06's pass 3.156 -> 2.717 ms (run 497), gradients bit
// for bit the two-box form's (run 499). TCONV_GRAD_WEIGHT_TMA_CI64=0 (read once per process) keeps two boxes.
// TCONV_GRAD_WEIGHT_TMA_PAIR (development, read once per process; default 0 until run on a GPU): 1 launches the TMA
// grad_weight in clusters of 2 blocks that share one operand's boxes by multicast (tconv_grad_weight_tma_pair_kernel)
// where two consecutive blocks can: C_out tiles in pairs (they share x), or one C_out tile and C_in tiles in pairs
// (they share grad_output). Why: run 495's ncu of DCGAN's pass (tensor pipe 38 %, L2 28 %, N128 no gain) leaves the
// TMA unit's rate in 128-byte box rows as the suspect (notes/perf.md, session 92): a pair loads 192 rows a stage an
// SM instead of 256. Returns 1 (share x), 0 (share grad_output) or -1 (no pair).
// TCONV_PROBE_GRAD_WEIGHT_TMA (a timing probe, read once per process; 0, the default, off): 1 runs the bf16 TMA
// grad_weight's loads alone, 2 its MMAs alone (kProbeLoadsOnly, kProbeMmaOnly), writing NaN gradients, and says so on
// stderr. Why: run 501's stall samples have the MMA warps waiting on full stages 54 % of the time and run 502's
// crossbar reads run at 5.79 TB/s (~23 B a clock an SM); what the box pattern delivers with nothing consuming it, and
// what the MMAs and the ring's barriers take with nothing loading, bound the pass from each side.
static int tma_weight_grad_probe() {
  static const int probe = [] {
    const int value = development_switch("TCONV_PROBE_GRAD_WEIGHT_TMA", 0);
    if (value == kProbeLoadsOnly || value == kProbeMmaOnly)
      std::fprintf(stderr, "tconv: TCONV_PROBE_GRAD_WEIGHT_TMA=%d: the bf16 TMA grad_weight runs its %s only and "
                   "writes NaN gradients (a timing probe)\n", value, value == kProbeLoadsOnly ? "loads" : "MMAs");
    return value == kProbeLoadsOnly || value == kProbeMmaOnly ? value : kProbeNone;
  }();
  return probe;
}

static int tma_weight_grad_pair_share(int ci_tiles, int co_tiles) {
  static const bool enabled = development_switch("TCONV_GRAD_WEIGHT_TMA_PAIR", 0) != 0;
  if (!enabled) return -1;
  if (co_tiles % 2 == 0) return 1;
  return co_tiles == 1 && ci_tiles % 2 == 0 ? 0 : -1;
}

static int tma_weight_grad_ci_boxes(const ConvTransposeParams& p) {
  static const bool narrow = development_switch("TCONV_GRAD_WEIGHT_TMA_CI64", 1) != 0;
  return narrow && p.in_per_group() <= 64 ? 1 : 2;
}

bool grad_weight_tma_preferred(const ConvTransposeParams& p) {
  static const bool enabled = development_switch("TCONV_GRAD_WEIGHT_TMA", 1) != 0;
  return enabled && p.in_per_group() >= kGradWeightTmaMinChannels && p.out_per_group() >= kGradWeightTmaMinChannels;
}

// The TMA grad_weight's splits by waves (the default; TCONV_GRAD_WEIGHT_TMA_WAVES=0, read once per process, keeps
// the rule below): the count whose blocks end soonest at one block per SM, waves x (units a split + 8 for the ring's
// fill and the epilogue), the fewest splits on a tie, at most four waves and `most`. Why: the rule below (two waves'
// worth, rounded up) makes 270 blocks of fam06's 15 (splits 18) and of L2-61's 27 (10): a third wave of 6 blocks, a
// third of the pass's time for 2 % of its work; U-Net 3D's 16 take the workspace's 12 splits, a second wave of 60.
// Run 505 (bf16 channels-last, the pass 0 -> 1, predicted from run 504's probe in brackets): fam06 2.729 -> 1.931 ms
// (~1.9), L2-61 1.234 -> 0.922 (~0.88), U-Net 3D 0.147 -> 0.106 (~0.11), VAE 0.185 -> 0.170 (~unchanged); DCGAN's
// one split is the workspace's either way.
static bool tma_weight_grad_waves() {
  static const bool enabled = development_switch("TCONV_GRAD_WEIGHT_TMA_WAVES", 1) != 0;
  return enabled;
}
static int64_t tma_weight_grad_splits_by_waves(int64_t blocks, int64_t units, int sm_count, int64_t most) {
  const int64_t slots = std::max(sm_count, 1);
  blocks = std::max<int64_t>(blocks, 1);
  const int64_t last = std::min(most, (4 * slots + blocks - 1) / blocks);
  int64_t best = 1, best_cost = -1;
  for (int64_t splits = 1; splits <= last; ++splits) {
    const int64_t cost = (blocks * splits + slots - 1) / slots * ((units + splits - 1) / splits + 8);
    if (best_cost < 0 || cost < best_cost) {
      best = splits;
      best_cost = cost;
    }
  }
  return best;
}

int64_t grad_weight_tma_splits(const ConvTransposeParams& p, int sm_count, int64_t max_workspace_elems) {
#if defined(TCONV_TENSOR_MAPS)
  int tile[3];
  tma_weight_grad_tile(p, tile);
  int64_t units = p.batch;
  for (int i = 0; i < 3; ++i) units *= (p.in_size[i] + tile[i] - 1) / tile[i];
  const int ci_tile = 64 * tma_weight_grad_ci_boxes(p);
  const int64_t blocks = p.groups * p.kernel_volume() * ((p.in_per_group() + ci_tile - 1) / ci_tile) *
                         ((p.out_per_group() + 127) / 128);
  const int64_t weight_numel = p.in_channels * p.out_per_group() * p.kernel_volume();
  // Each split at least 8 units (a ring's fill is 6), within the workspace budget and the grid's y limit.
  const int64_t workspace_splits = max_workspace_elems / std::max<int64_t>(weight_numel, 1);
  const int64_t most = std::max<int64_t>(std::min<int64_t>({units / 8, workspace_splits, 65535}), 1);
  if (tma_weight_grad_waves()) return tma_weight_grad_splits_by_waves(blocks, units, sm_count, most);
  // Two waves' worth of one block per SM.
  const int64_t splits = (2 * int64_t(std::max(sm_count, 1)) + blocks - 1) / std::max<int64_t>(blocks, 1);
  return std::min(splits, most);
#else
  (void)p, (void)sm_count, (void)max_workspace_elems;
  return 1;
#endif
}

cudaError_t grad_weight_tma(const ConvTransposeParams& p, DType dtype, const void* input, const void* grad_output,
                            void* grad_weight, float* workspace, int64_t splits, cudaStream_t stream) {
#if defined(TCONV_TENSOR_MAPS)
  if (!grad_weight_tma_possible(p, dtype, input, grad_output)) return cudaErrorInvalidValue;
  report_pending_launch_error("grad_weight (TMA)");
  TmaWeightGradArgs t{};
  tma_weight_grad_tile(p, t.tile);
  t.units = p.batch;
  for (int i = 0; i < 3; ++i) {
    t.tiles[i] = int((p.in_size[i] + t.tile[i] - 1) / t.tile[i]);
    t.units *= t.tiles[i];
    t.kernel[i] = int(p.kernel[i]);
    t.stride[i] = int(p.stride[i]);
    t.padding[i] = int(p.padding[i]);
    t.dilation[i] = int(p.dilation[i]);
  }
  t.groups = int(p.groups);
  t.cin_g = int(p.in_per_group());
  t.cout_g = int(p.out_per_group());
  const int ci_boxes = tma_weight_grad_ci_boxes(p);
  t.ci_tiles = (t.cin_g + 64 * ci_boxes - 1) / (64 * ci_boxes);
  t.co_tiles = (t.cout_g + 127) / 128;
  t.taps = int(p.kernel_volume());
  t.splits = int(splits);
  t.partial = workspace;
  const int64_t x_sizes[4] = {p.in_size[2], p.in_size[1], p.in_size[0], p.batch};
  const int64_t x_strides[4] = {p.input_strides[4], p.input_strides[3], p.input_strides[2], p.input_strides[0]};
  const int64_t dy_sizes[4] = {p.out_size[2], p.out_size[1], p.out_size[0], p.batch};
  const int64_t dy_strides[4] = {p.output_strides[4], p.output_strides[3], p.output_strides[2], p.output_strides[0]};
  const int unit_step[3] = {1, 1, 1};
  const int dy_box[3] = {t.tile[0] * t.stride[0], t.tile[1] * t.stride[1], t.tile[2] * t.stride[2]};
  const char* const launch = "grad_weight (TMA)";
  cudaError_t err = encode_channels_last_map(&t.x_map, dtype, input, p.in_channels, x_sizes, x_strides, t.tile,
                                             unit_step);
  if (err != cudaSuccess) return reported_step(err, launch, "x's tensor map");
  err = encode_channels_last_map(&t.dy_map, dtype, grad_output, p.out_channels, dy_sizes, dy_strides, dy_box,
                                 t.stride);
  if (err != cudaSuccess) return reported_step(err, launch, "grad_output's tensor map");
  const int64_t blocks = int64_t(t.groups) * t.taps * t.ci_tiles * t.co_tiles;
  if (blocks > 0x7fffffff || splits > 65535) return cudaErrorInvalidConfiguration;
  const size_t smem = size_t(kTmaWeightGradStages) * (ci_boxes + 2) * kTmaWeightGradBoxBytes + 1024;
  const int pair_share = tma_weight_grad_pair_share(t.ci_tiles, t.co_tiles);
  const bool n128 = tma_weight_grad_n128() && pair_share < 0;
  t.b_leading_bytes = kTmaWeightGradBoxBytes;  // the two grad_output boxes of a stage, one after the other
  t.b_stride_bytes = 1024;                     // 8 positions (K) of 128 bytes: one swizzle atom
  t.share_x = pair_share == 1 ? 1 : 0;
  const int probe = dtype == DType::kBFloat16 && pair_share < 0 && !n128 ? tma_weight_grad_probe() : kProbeNone;
  void (*kernel)(TmaWeightGradArgs) =
      probe == kProbeLoadsOnly
          ? (ci_boxes == 1 ? tconv_grad_weight_tma_probe_kernel<1, kProbeLoadsOnly>
                           : tconv_grad_weight_tma_probe_kernel<2, kProbeLoadsOnly>)
      : probe == kProbeMmaOnly
          ? (ci_boxes == 1 ? tconv_grad_weight_tma_probe_kernel<1, kProbeMmaOnly>
                           : tconv_grad_weight_tma_probe_kernel<2, kProbeMmaOnly>)
      : pair_share >= 0
          ? (dtype == DType::kFloat16
                 ? (ci_boxes == 1 ? tconv_grad_weight_tma_pair_kernel<__half, 1>
                                  : tconv_grad_weight_tma_pair_kernel<__half, 2>)
                 : (ci_boxes == 1 ? tconv_grad_weight_tma_pair_kernel<__nv_bfloat16, 1>
                                  : tconv_grad_weight_tma_pair_kernel<__nv_bfloat16, 2>))
      : dtype == DType::kFloat16
          ? (ci_boxes == 1 ? tconv_grad_weight_tma_kernel<__half, false, 1>
                           : n128 ? tconv_grad_weight_tma_kernel<__half, true, 2>
                                  : tconv_grad_weight_tma_kernel<__half, false, 2>)
          : (ci_boxes == 1 ? tconv_grad_weight_tma_kernel<__nv_bfloat16, false, 1>
                           : n128 ? tconv_grad_weight_tma_kernel<__nv_bfloat16, true, 2>
                                  : tconv_grad_weight_tma_kernel<__nv_bfloat16, false, 2>);
  err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem));
  if (err != cudaSuccess) return reported_step(err, launch, "the shared memory attribute");
  if (pair_share >= 0) {  // blocks (C_out tile fastest, then C_in tile) in clusters of two consecutive ones
    cudaLaunchAttribute cluster[1];
    cluster[0].id = cudaLaunchAttributeClusterDimension;
    cluster[0].val.clusterDim.x = 2;
    cluster[0].val.clusterDim.y = 1;
    cluster[0].val.clusterDim.z = 1;
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(unsigned(blocks), unsigned(splits));
    config.blockDim = dim3(kTmaWeightGradThreads);
    config.dynamicSmemBytes = smem;
    config.stream = stream;
    config.attrs = cluster;
    config.numAttrs = 1;
    err = cudaLaunchKernelEx(&config, kernel, t);
  } else {
    kernel<<<dim3(unsigned(blocks), unsigned(splits)), kTmaWeightGradThreads, smem, stream>>>(t);
    err = cudaGetLastError();
  }
  if (err != cudaSuccess) return reported_step(err, launch, "the kernel's launch");
  const int64_t sizes[5] = {p.in_channels, p.out_per_group(), p.kernel[0], p.kernel[1], p.kernel[2]};
  return reported_step(sum_splits(dtype, workspace, splits, sizes, p.weight_strides, grad_weight, stream), launch,
                       "the splits' sum");
#else
  (void)p, (void)dtype, (void)input, (void)grad_output, (void)grad_weight, (void)workspace, (void)splits,
      (void)stream;
  return cudaErrorNotSupported;
#endif
}

bool grad_weight_window_possible(const ConvTransposeParams& p, DType dtype, const void* input,
                                 const void* grad_output) {
#if defined(TCONV_TENSOR_MAPS)
  if (!is_16bit(dtype) || p.batch * p.in_spatial() == 0 || p.out_spatial() == 0) return false;
  WindowWeightGradArgs t{};
  int n = 0, k_tiles = 0;
  return plan_grad_weight_window(p, t, n, k_tiles) && channels_last_weight_grad_operands(p, input, grad_output);
#else
  (void)p, (void)dtype, (void)input, (void)grad_output;
  return false;
#endif
}

// TCONV_GRAD_WEIGHT_WINDOW (development, read once per process): 0 never, 1 where the per-tap TMA grad_weight is not
// preferred (fewer than kGradWeightTmaMinChannels channels a side), 2 (unset) also in its place (64 a side).
bool grad_weight_window_preferred(const ConvTransposeParams& p) {
  static const int mode = development_switch("TCONV_GRAD_WEIGHT_WINDOW", 2);
  return mode >= 2 || (mode == 1 && !grad_weight_tma_preferred(p));
}

int64_t grad_weight_window_splits(const ConvTransposeParams& p, int sm_count, int64_t max_workspace_elems) {
#if defined(TCONV_TENSOR_MAPS)
  WindowWeightGradArgs t{};
  int n = 0, k_tiles = 0;
  const int64_t most_splits = window_weight_grad_most_splits(p, max_workspace_elems);
  if (!plan_grad_weight_window(p, t, n, k_tiles, sm_count, most_splits)) return 1;
  return window_weight_grad_splits(t, sm_count, most_splits);
#else
  (void)p, (void)sm_count, (void)max_workspace_elems;
  return 1;
#endif
}

cudaError_t grad_weight_window(const ConvTransposeParams& p, DType dtype, const void* input, const void* grad_output,
                               void* grad_weight, float* workspace, int sm_count, int64_t max_workspace_elems,
                               cudaStream_t stream) {
#if defined(TCONV_TENSOR_MAPS)
  if (!grad_weight_window_possible(p, dtype, input, grad_output)) return cudaErrorInvalidValue;
  WindowWeightGradArgs t{};
  int n = 0, k_tiles = 0;
  const int64_t most_splits = window_weight_grad_most_splits(p, max_workspace_elems);
  if (!plan_grad_weight_window(p, t, n, k_tiles, sm_count, most_splits)) return cudaErrorInvalidValue;
  // (the same plan and splits as grad_weight_window_splits, which sized the workspace)
  const int64_t splits = window_weight_grad_splits(t, sm_count, most_splits);
  t.splits = int(splits);
  t.partial = workspace;
  const int64_t x_sizes[4] = {p.in_size[2], p.in_size[1], p.in_size[0], p.batch};
  const int64_t x_strides[4] = {p.input_strides[4], p.input_strides[3], p.input_strides[2], p.input_strides[0]};
  const int64_t dy_sizes[4] = {p.out_size[2], p.out_size[1], p.out_size[0], p.batch};
  const int64_t dy_strides[4] = {p.output_strides[4], p.output_strides[3], p.output_strides[2], p.output_strides[0]};
  const int x_box[3] = {1, 1, t.positions}, x_step[3] = {1, 1, 1};
  // (D, H: kernel lines at the dilation; the box spans kernel x dilation elements, so each is a whole number of
  // traversal steps)
  const int dy_box[3] = {t.line_boxes ? 1 : int(p.kernel[0] * p.dilation[0]),
                         t.line_boxes ? 1 : int(p.kernel[1] * p.dilation[1]), t.box_w};
  const int dy_step[3] = {t.line_boxes ? 1 : int(p.dilation[0]), t.line_boxes ? 1 : int(p.dilation[1]), 1};
  cudaError_t err = encode_channels_last_map(&t.x_map, dtype, input, p.in_channels, x_sizes, x_strides, x_box,
                                             x_step, 32, CU_TENSOR_MAP_SWIZZLE_64B);
  if (err != cudaSuccess) return err;
  err = encode_channels_last_map(&t.dy_map, dtype, grad_output, p.out_channels, dy_sizes, dy_strides, dy_box, dy_step,
                                 32, CU_TENSOR_MAP_SWIZZLE_64B);
  if (err != cudaSuccess) return err;
  const int64_t blocks = int64_t(t.groups) * t.chunks;
  if (blocks > 0x7fffffff || splits > 65535) return cudaErrorInvalidConfiguration;
  const size_t smem = window_weight_grad_shared_bytes(t, n, k_tiles);
  const bool half = dtype == DType::kFloat16;
  void (*kernel)(WindowWeightGradArgs) = nullptr;
#define TCONV_WINDOW_GRAD_KERNEL(N, TILES)                                                                  \
  if (n == N && k_tiles == TILES && !t.split_tiles)                                                        \
    kernel = half ? tconv_grad_weight_window_kernel<__half, N, TILES>                                     \
                  : tconv_grad_weight_window_kernel<__nv_bfloat16, N, TILES>;
  TCONV_WINDOW_GRAD_KERNEL(32, 4)
  TCONV_WINDOW_GRAD_KERNEL(32, 5)
  TCONV_WINDOW_GRAD_KERNEL(32, 6)
  TCONV_WINDOW_GRAD_KERNEL(32, 8)
  TCONV_WINDOW_GRAD_KERNEL(64, 3)
  TCONV_WINDOW_GRAD_KERNEL(64, 4)
#undef TCONV_WINDOW_GRAD_KERNEL
#define TCONV_WINDOW_GRAD_SPLIT_KERNEL(N, TILES)                                                            \
  if (n == N && k_tiles == TILES && t.split_tiles)                                                         \
    kernel = half ? tconv_grad_weight_window_kernel<__half, N, TILES, true>                               \
                  : tconv_grad_weight_window_kernel<__nv_bfloat16, N, TILES, true>;
  TCONV_WINDOW_GRAD_SPLIT_KERNEL(32, 8)
  TCONV_WINDOW_GRAD_SPLIT_KERNEL(32, 12)
  TCONV_WINDOW_GRAD_SPLIT_KERNEL(32, 16)
  TCONV_WINDOW_GRAD_SPLIT_KERNEL(64, 6)
  TCONV_WINDOW_GRAD_SPLIT_KERNEL(64, 8)
#undef TCONV_WINDOW_GRAD_SPLIT_KERNEL
  if (kernel == nullptr) return cudaErrorInvalidValue;
  err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem));
  if (err != cudaSuccess) return err;
  const int threads = WindowWeightGradTile::kMmaThreads + 32 * grad_weight_window_producers();
  kernel<<<dim3(unsigned(blocks), unsigned(splits)), threads, smem, stream>>>(t);
  err = cudaGetLastError();
  if (err != cudaSuccess) return err;
  const int64_t sizes[5] = {p.in_channels, p.out_per_group(), p.kernel[0], p.kernel[1], p.kernel[2]};
  return sum_splits(dtype, workspace, splits, sizes, p.weight_strides, grad_weight, stream);
#else
  (void)p, (void)dtype, (void)input, (void)grad_output, (void)grad_weight, (void)workspace, (void)sm_count,
      (void)max_workspace_elems, (void)stream;
  return cudaErrorNotSupported;
#endif
}

}  // namespace tconv
