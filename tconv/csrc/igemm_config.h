// Tile choices of the tensor-core implicit-GEMM kernels, in one place (flash-attention style).
// Each entry says what justified it; entries without a measurement say so.
#pragma once
#include <cstdint>

// The tile functions the kernels also evaluate in their constant expressions (the .cpp side sees plain constexpr).
#if defined(__CUDACC__)
#define TCONV_TILE_FN __host__ __device__ static constexpr
#else
#define TCONV_TILE_FN static constexpr
#endif

namespace tconv {

// Gather implicit GEMM (forward per phase, and grad_input), fp32 in, TF32 / 3xTF32 mma.sync.
//   GEMM M = output positions of one phase (NC(D)HW-native: consecutive M = consecutive W),
//   GEMM N = output channels of one group, GEMM K = input channels of the group x phase taps.
// 128 x BN block tile, 32x32 warp tiles (4 warps along M x BN/32 along N), shared strides padded to
// 8 mod 32 words so the fragment loads are bank-conflict free.
// BK = 32 with up to 4 stages in dynamic shared memory (the deepest pipeline with which
// kBlocksPerSm blocks fit): run 3 (BK = 16, 3 stages, addresses recomputed per stage) measured
// 48 TF/s on L1-68's forward and its SASS showed 401 instructions per 16 HMMA (notes/perf.md);
// BK = 32 halves the per-stage fixed cost per MMA. Run 10 (H200, with the hoisted addressing):
// L1-68 TF32 forward 26.7 -> 16.0 ms (80 TF/s), exact fp32 44.4 -> 36.6 ms.
template <int kBlockNArg, int kBlocksPerSmArg, bool kWgmmaArg = false, int kMaxStagesArg = 4, int kMinStagesArg = 3,
          int kBlockKArg = 32, int kProducerThreadsArg = 0>
struct GatherGemmTile {
  static constexpr bool kWgmma = kWgmmaArg;
  // Warp-specialized (wgmma, fp32 data only): a producer warpgroup gathers the stages by cp.async and
  // signals each one on an mbarrier, the two MMA warpgroups wait on it, and release the stage on a second
  // one when their wgmmas are done; no block-wide barrier in the main loop (see the kernel).
  static constexpr int kProducerThreads = kProducerThreadsArg;  // 0: not warp-specialized
  static constexpr bool kSpecialized = kProducerThreads > 0;
  static constexpr int kBlockM = 128;
  static constexpr int kBlockN = kBlockNArg;
  static constexpr int kBlockK = kBlockKArg;  // K rows per stage: channels (fp32) or channel pairs (16-bit)
  // mma.sync: warps of 32x32 (4 along M x BN/32 along N). wgmma: two warpgroups of 64 rows x BN.
  static constexpr int kWarpsM = 4;
  static constexpr int kWarpsN = kBlockN / 32;
  static constexpr int kMmaThreads = kWgmma ? 256 : 32 * kWarpsM * kWarpsN;
  static constexpr int kThreads = kMmaThreads + kProducerThreads;
  // Threads that copy the stages: the producer warpgroup, or every thread.
  static constexpr int kCopyThreads = kSpecialized ? kProducerThreads : kThreads;
  // Columns of one packed-weight block (igemm.cu, tconv_igemm_pack_weight_kernel): the mma.sync
  // fragment groups are 32 wide, a wgmma B operand is the tile's whole N.
  static constexpr int kPackedBlockN = kWgmma ? kBlockN : 32;
  // Pipeline depth: the deepest of kMinStages..kMaxStages that fits kBlocksPerSm blocks per SM (the
  // development switch TCONV_GATHER_MAX_STAGES caps it, for A/B timings of the depth).
  static constexpr int kMaxStages = kMaxStagesArg;
  static constexpr int kMinStages = kMinStagesArg;
  static constexpr int kBlocksPerSm = kBlocksPerSmArg;
  static constexpr int kMaxTaps = 512;  // phase tap table in shared memory; larger kernels go direct
  // Derived layout: A stored [K][M + 8] ((M + 8) % 32 == 8: conflict-free fragment pairs), B as the
  // packed weights' contiguous fragment-ordered BK x BN slice; the epilogue stages C as [N][M + 4] in
  // the pipeline buffers.
  static constexpr int kLdA = kBlockM + 8;
  static constexpr int kLdC = kBlockM + 4;
  // A channels-last destination's staged tile [M][N + 8]: 8 modulo 32 floats, so the 8-byte fragment stores (8 rows x
  // 4 column pairs a warp) fall in distinct banks within each half-warp; rows on 16 bytes for the float4 reads
  static constexpr int kLdCRowMajor = kBlockN + 8;
  static constexpr int kStageA = kBlockK * kLdA;
  static constexpr int kStageB = kBlockK * kBlockN;
  static constexpr int kStageFloats = kStageA + kStageB;
  static constexpr int kThreadsPerRow = kCopyThreads / kBlockM;       // A: threads sharing one GEMM row
  static constexpr int kBCopiesPerThread = kStageB / 4 / kCopyThreads;  // B: 16-byte copies
  static constexpr int kStoreRowStep = kThreads / kBlockM;             // epilogue: channels between a thread's stores
  static_assert(kCopyThreads % kBlockM == 0 && kBlockK % kThreadsPerRow == 0, "A copies must tile the stage");
  static_assert(kThreads % kBlockM == 0, "the epilogue's stores tile the rows");
  static_assert(kStageB % (4 * kCopyThreads) == 0, "B stage must be a whole number of 16-byte copies per thread");
  static_assert(!kSpecialized || kWgmma, "warp specialization runs on the wgmma tiles");
  static_assert(kLdA % 32 == 8, "A fragment loads must be bank-conflict free");
  static_assert(kBlockM % 32 == 0 && kBlockN % 32 == 0 && kBlockK % 8 == 0, "tiles are whole fragment groups");
  static_assert(!kWgmma || (kBlockM == 128 && kMmaThreads == 256), "wgmma: two warpgroups of 64 rows");
  static_assert((kStageA * 4) % 128 == 0 && (kStageFloats * 4) % 128 == 0, "B stages start 128-byte aligned");
  static_assert(kBlockN * kLdC <= kMinStages * kStageFloats, "epilogue staging must fit in the pipeline buffers");
  static_assert(kBlockM * kLdCRowMajor + 2 * kBlockM <= kMinStages * kStageFloats,
                "the [M][N] staged tile and its row offsets (int64) fit too");
  static_assert(kLdCRowMajor % 32 == 8, "conflict-free [M][N] staging, rows on 16 bytes");
  // The W fold's store keeps a row table (int64 offset + int first W per row) past the staged tile.
  static_assert(kBlockN * kLdC + 3 * kBlockM <= kMinStages * kStageFloats, "fold row table fits after the staging");
  // W-tap window (conv_transpose_igemm.cu, "W-tap window"): A holds BM + span consecutive source
  // positions in natural order, read by every W tap of a (D, H) tap at its shift. Rows padded to
  // BM + kMaxWindowSpan = 152 words (24 mod 32: the shifted 4-byte fragment loads of a warp hit
  // banks 24 * tig + gid + const, all distinct). 24 covers every W span of the suite (fam08's 5 taps
  // at dilation 3 span 12; 7-tap kernels 6).
  static constexpr int kMaxWindowSpan = 24;
  static constexpr int kLdAWindow = kBlockM + kMaxWindowSpan;
  static_assert(kLdAWindow % 32 == 24 || kLdAWindow % 32 == 8, "shifted fragment loads must be conflict free");
};
// The per-stage shared layout of a tile, with or without the W-tap window.
template <class Tile, bool kWindow>
struct GatherStageLayout {
  static constexpr int kLdA = kWindow ? Tile::kLdAWindow : Tile::kLdA;
  static constexpr int kStageA = Tile::kBlockK * kLdA;
  static constexpr int kStageFloats = kStageA + Tile::kStageB;
  static_assert((kStageA * 4) % 128 == 0 && (kStageFloats * 4) % 128 == 0, "B stages start 128-byte aligned");
  static_assert(Tile::kBlockN * Tile::kLdC <= Tile::kMinStages * kStageFloats, "epilogue staging fits");
  static_assert(Tile::kBlockM * Tile::kLdCRowMajor + 2 * Tile::kBlockM <= Tile::kMinStages * kStageFloats,
                "[M][N] staging and its row offsets fit");
};
// 64 channels per block, 8 warps, two blocks per SM: the general tile.
using WideGatherTile = GatherGemmTile<64, 2>;
// 32 channels per block, 4 warps, three blocks per SM: for <= 32 channels per group, where the wide
// tile's N is half padding. Run 10 (H200): L1-71 (32 -> 32) TF32 forward 3.13 -> 1.36 ms (the
// hoisted addressing and BK = 32 contribute too; the tiles were not timed separately).
using NarrowGatherTile = GatherGemmTile<32, 3>;
// Hopper (sm_90a): the same blocks, with wgmma.mma_async m64nBNk8 (A from registers, B from shared
// memory) instead of mma.sync. Why: run 14's ncu of the mma.sync kernel on L1-68 (TF32 forward,
// 16.0 ms = 80 TF/s) showed 25 % occupancy, one instruction issued per 8 cycles per warp, L1/TEX at
// 64 %: latency-bound, not issue- or bandwidth-bound, and fragment-ordered operands (74 -> 34 LDS per
// stage) gained only 5 % (run 15: 15.2 ms). wgmma issues one instruction per 64 x BN x 8 per warpgroup,
// reads B without register fragments and runs asynchronously (two stages in flight, run 17).
// Measured (run 20, tconv bench): L1-68 TF32 forward 15.98 -> 12.57 ms (103 TF/s), fam01 7.82 -> 6.24.
// No 32-column wgmma tile: m64n32k8 measured L1-71's TF32 forward at 1.58 ms (run 16, synchronous) and
// 1.55 ms (run 18, asynchronous) against 1.25-1.26 on the mma.sync narrow tile, so <= 32 channels per
// group stay on mma.sync.
// 128 columns for >= 128 channels per group: each gathered A element feeds twice the MMAs; one block
// of 8 warps per SM (64 accumulators per thread, 4 stages of 33 KB). Run 18 (H200, TF32, tconv-only
// timings against the 64-column wgmma tile of run 17): fam06 fwd 5.01 -> 4.19 ms, L2-61 2.74 -> 2.29,
// DCGAN 0.66 -> 0.53, HiFi-GAN fwd+bwd 51.6 -> 33.2 (its grad_input reads grad_output at stride 8:
// half the gathered sectors per MMA).
// The 128-column tile keeps 4 stages although one block per SM would leave room for 6: run 38 (H200,
// TF32, tconv-only timings, TCONV_GATHER_MAX_STAGES=4 vs 6 in one call) measured 6 stages level on L2-61
// (2.184 vs 2.187 ms fwd), fam07 (8.514 / 8.515) and fam01 (4.987 / 4.984), 0.5 % faster on fam06 and
// slower on the short-K up-convs (VAE fwd 0.974 -> 1.058, U-Net 0.489 -> 0.524, DCGAN 0.508 -> 0.511): the
// gathers' latency is not what the deeper pipeline would hide, and short K pays the longer fill.
// Session 17: for fp32 data each stage's B slice arrives by one bulk copy (the TMA unit) instead of cp.async
// pieces from every thread (the kernel's kBulkB). Run 112 (H200, TF32 forward, same machine, against b0e89e0):
// L1-68 9.223 -> 8.577 ms, fam01 4.863 -> 4.729, VAE 0.727 -> 0.706, U-Net 0.373 -> 0.358.
using WgmmaWideGatherTile = GatherGemmTile<64, 2, true>;
using WgmmaWiderGatherTile = GatherGemmTile<128, 1, true>;
// The 128-column wgmma tile, warp-specialized (fp32 data, TF32): 384 threads, one block per SM. Why: in the
// tile above every warp gathers its share of a stage, then all wait at a block barrier before the stage's
// wgmmas, so the gathers' latency and the MMAs alternate (run 101, TF32: the gather GEMMs reach 65-140
// TF/s where cuDNN's warp-specialized sm90 kernels reach ~400). Here the producer warpgroup runs up to
// kStages stages ahead of the MMA warpgroups. Up to 6 stages (one block per SM leaves the shared memory
// for them: 6 x 35 KB with the window); measured in the session-16 notes (notes/perf.md).
// Measured (runs 102-103, H200, TF32, tconv only, one build, TCONV_GATHER_SPECIALIZED forcing each tile in
// alternating processes, two rounds; forward / fwd+bwd ms, plain -> the better specialized tile):
//   L2-61 (window, 54 stages)          2.031 / 6.407 -> 1.902 / 6.275 (128 producers)
//   fam06 (window, 30 stages)          3.378 / 12.07 -> 3.105 / 11.78 (128 producers)
//   DCGAN fwd (64 stages, no window)   0.505 / 2.006 -> 0.460 / 1.970 (256 producers)
//   HiFi-GAN fwd (W fold, 32 stages)   3.923         -> 3.837         (256 producers)
//   VAE, U-Net (W fold, 8 stages)      0.731 / 2.482, 0.375 / 1.284: every specialized form 3-6 % slower
//   HiFi-GAN grad_input (reads grad_output at W stride 8): 6 stages lose ~1 ms (fwd+bwd 19.26 -> 20.3-20.6),
//   4 stages 0.1-0.2 ms
// So: plain below kSpecializedMinStages K-loop stages (the deeper fill and the producer handoff are not
// repaid) and where consecutive GEMM rows are not adjacent in memory (each copy its own sector: 6 stages of
// shared memory leave L1 too little for the sectors' other elements, which the next phase or tap reads);
// 128 producers with the W-tap window (its A tile is copied once per W-tap group, and the 256-producer
// tile's 128-register cap spills there), 256 without (twice the copy threads for a stage's A tile).
// Why the gain is 2-9 % and not the 2x the warp-specialized cuDNN kernels suggest: notes/perf.md, Session 16.
// Session 17: each stage's B slice by one bulk copy instead of cp.async pieces (run 110's source profile had the
// MMA warps waiting on stage_full for a quarter of all samples, the producers spending half their instructions
// on B). Run 111 (same machine, against b0e89e0, forward): L2-61 1.911 -> 1.747 ms, fam06 3.121 -> 2.811, DCGAN
// 0.459 -> 0.436, HiFi-GAN 3.825 -> 3.685. With it, run 113 (TCONV_GATHER_SPECIALIZED=0 / 1 / 2, forward and
// fwd+bwd ms) moved the stage threshold from 16 to 12:
//   fam04 (window, 12 stages)     3.331 / 10.33, 3.244 / 10.13 (128 producers), 3.841 / 11.36
//   VAE (W fold, 8 stages)        0.707 / 2.407, 0.710 / 2.464, 0.720 / 2.462
//   U-Net (W fold, 8 stages)      0.361 / 1.243, 0.360 / 1.264, 0.367 / 1.262
//   HiFi-GAN (grad_input spread)  3.768 / 19.21, 3.690 / 20.13, 3.688 / 20.25 (forward specialized either way)
using WgmmaWiderSpecializedGatherTile = GatherGemmTile<128, 1, true, 6, 4, 32, 128>;
using WgmmaWiderSpecialized2GatherTile = GatherGemmTile<128, 1, true, 6, 4, 32, 256>;
// 256 columns on the plain wgmma tile (fp32 data in TF32 mode, fp16, bf16; >= 256 channels per group; not where the
// 128-column grid fits in one wave: conv_transpose_igemm.cu, gather_widest_fills; TCONV_GATHER_WIDEST=0 keeps the
// 128-column tiles, 2 takes this one whatever the grid, development only). Why: DCGAN's grad_input (N = 512 input
// channels, the plain 128-column tile because its rows are spread: W stride 2) runs 143 TFLOP/s; run 350's ncu had
// it at L2 70 % and the tensor pipe at 33 %. With 256 columns each gathered A element feeds twice the MMAs and the A
// traffic through L2 halves (2 column tiles of the 512 channels instead of 4), as the 256-column TMA tiles did for
// the forward (the direct form's kernel 0.304 -> 0.214 ms, run 354). 128 accumulators a thread (157 registers at 128
// columns); 4 stages of 49 KB.
// Measured (run 357, H200, TF32 `auto`, tconv only, two rounds, against the default then and the specialized tiles):
//   DCGAN fwd+bwd 1.150-1.154 -> 1.080-1.081 ms (grad_input's kernel 0.477 -> 0.410 ms; the 128- and 256-producer
//     specialized tiles 0.468 and 0.460); U-Net 3D (forward W-folded to 256 columns, grad_input 256) fwd
//     0.359-0.360 -> 0.255-0.256 ms, fwd+bwd 1.238-1.240 -> 1.083-1.088; HiFi-GAN level (8.02-8.04 / 8.01-8.05),
//     its grad_input's specialized tile replaced. Bits equal to the 128-column tile's (test_gather_widest_gpu.py).
//   Run 358 (same build, the switch both ways): VAE fwd 0.704 -> 0.489 ms, fwd+bwd 1.902 -> 1.590; U-Net block
//     0.614 -> 0.518 / 1.850 -> 1.720; fam13 0.813 -> 0.805; HiFi-GAN fwd+bwd 7.99-8.01 -> 8.03 (within its spread).
//   16-bit data (the wgmmas read A from shared memory; 248-254 registers, no spills), run 359, bf16 `auto`, two
//     rounds: DCGAN fwd 0.348 -> 0.245 ms, fwd+bwd 1.600 -> 1.440; U-Net 3D 0.355 -> 0.252 / 1.216 -> 1.060; VAE
//     0.704 -> 0.490 / 2.372 -> 2.033; HiFi-GAN 1.678 / 7.87-7.91 both ways.
using WgmmaWidestGatherTile = GatherGemmTile<256, 1, true>;
constexpr int kSpecializedMinStages = 12;
// fp16/bf16 data (native k16 MMAs on channel pairs): each thread holds its stage's A channel pairs in
// registers between fetch and store (PairedRows, 2 per word: 32 for the 256-thread tiles, 64 for the
// 128-thread one), which the 170 registers of three 128-thread blocks per SM cannot hold (ptxas
// -warn-spills, sm_90a: 296-456 bytes of spills in the windowed kernels), so the 16-bit narrow tile runs
// two blocks per SM.
// On the wgmma tiles the 16-bit wgmmas read A from shared memory (K-major rows of four pairs, stored as
// 16-byte words), so no A fragments are loaded: in run 57's source profile (bf16 L2-61, A from registers)
// the code that loads each stage's A fragments and issues its wgmmas held ~20 % of the stall samples. Measured (H200, bf16 forward,
// tconv only): 128 columns, run 58 (same machine, two builds, alternating processes, with the epilogue
// change of the same commit): L2-61 1.560 -> 1.355 ms, fam06 2.82 -> 2.27, DCGAN 0.402 -> 0.357, HiFi-GAN
// 3.60 -> 3.19, U-Net 0.400 -> 0.335, VAE 0.790 -> 0.660. 64 columns, which before lost to mma.sync with A
// from registers (run 47: spills of 32-652 bytes at two blocks per SM; L1-68 15.49 vs 11.93 ms), now
// wins against the mma.sync wide tile in one process (run 59, `auto` vs `igemm_mma`): L1-68 7.28 vs 10.67
// (16-pair stages), fam01 4.15 vs 4.69, fam05 1.54 vs 1.93, fam03 2.64 vs 2.80, fam08 1.04 vs 1.20, fam10
// 0.558 vs 0.614 (its 32-pair windowed kernels spill 40-48 bytes, its others none). So 16-bit calls with
// more than 32 channels per group on the N side take the wgmma tiles on Hopper.
using NarrowGatherTile16 = GatherGemmTile<32, 2>;
// fp16/bf16 with at most 32 channels per group on the K side (16 channel pairs): a 32-pair stage would
// be half zero padding (loads, stores and B copies of it), so those calls run 16-pair stages. Packed
// weights follow the chunk (GatherArgs::block_k). Measured (H200, bf16 forward, tconv only): L1-71
// 1.87 (run 47, 32-pair stages) -> 1.63 ms (run 48), L1-68 11.93 -> 10.44 on mma.sync (7.28 on the
// shallow wgmma tile, run 59); L1-71 (narrow tile, mma.sync) is still slower than the widened-to-TF32 path
// these replaced (run 37: 1.27 ms at three blocks per SM).
constexpr int kShallowGatherBlockK = 16;
using NarrowShallowGatherTile16 = GatherGemmTile<32, 2, false, 4, 3, kShallowGatherBlockK>;
using WideShallowGatherTile16 = GatherGemmTile<64, 2, false, 4, 3, kShallowGatherBlockK>;
using WgmmaWideShallowGatherTile16 = GatherGemmTile<64, 2, true, 4, 3, kShallowGatherBlockK>;
constexpr int kGatherBlockK = 32;  // every tile but the shallow ones: the packed weights' rows are padded to it

// The TMA gather (conv_transpose_igemm_tma.cu): 128 positions x 128 columns x 32 channels per stage, A one TMA box of
// the source's channels-last TF32 copy (128-byte rows, 128-byte swizzle), B the 128-column wgmma tile's packed slice by
// one bulk copy, both read by wgmma from shared memory; two MMA warpgroups and one producer thread, 6 stages of 32 KB,
// one block per SM.
// kProducerThreads: the producer's warps (one thread issues every copy; a whole warpgroup where the direct form hands
// its registers to the MMA warpgroups by setmaxnreg). kMinBlocks: blocks per SM the launch bounds ask for.
// kPingPong: each MMA warpgroup takes whole tiles in turn (TmaGatherPingPongTile below) instead of half of every tile.
template <int kBlockNArg, int kStagesArg, int kProducerThreads = 128, int kMinBlocksArg = 1, bool kPingPongArg = false>
struct TmaGatherTileOf {
  static constexpr int kBlockM = 128, kBlockN = kBlockNArg, kBlockK = 32;
  static constexpr bool kPingPong = kPingPongArg;
  // 64-row wgmma tiles a warpgroup computes of each of its stages, and the MMA threads that release a stage
  static constexpr int kSubTiles = kPingPong ? 2 : 1, kStageConsumers = kPingPong ? 128 : 256;
  static constexpr int kMmaThreads = 256, kThreads = kMmaThreads + kProducerThreads;  // two MMA warpgroups, a producer
  static constexpr int kStages = kStagesArg, kMinBlocks = kMinBlocksArg;
  // A block's dynamic shared memory at most (the persistent form sizes its ring by it): as TmaWindowTileOf's
  static constexpr int kSharedBytes = kMinBlocks == 1 ? 227 * 1024 : 228 * 1024 / kMinBlocks - 3 * 1024;
  static constexpr int kStageAFloats = kBlockM * kBlockK, kStageBFloats = kBlockK * kBlockN;
  static constexpr int kStageFloats = kStageAFloats + kStageBFloats;
  static constexpr unsigned kStageBytes = kStageFloats * 4;
  static constexpr int kLdC = kBlockM + 4;  // the epilogue's staged tile [N][M + 4]
  // A channels-last destination's staged tile [M][N + 8]: 8 modulo 32 floats, so the MMA threads' 8-byte stores
  // (8 rows x 4 column pairs a warp) fall in distinct banks within each half-warp
  static constexpr int kLdCRowMajor = kBlockN + 8;
  static_assert(kLdCRowMajor % 4 == 0, "staged rows on 16 bytes (the channels-last epilogue's float4 reads)");
  static_assert(kBlockN * kLdC <= kStages * kStageFloats, "the staged tile fits in the pipeline buffers");
  static_assert(kBlockM * kLdCRowMajor <= kStages * kStageFloats, "the [M][N] staged tile fits too");
  static_assert(kStages * kStageBytes + 1024 + 512 * 16 <= 227 * 1024, "the ring, alignment slack and taps fit");
  // kMinBlocks blocks of ring, slack, a tap table of 512 taps, the static arrays (< 2 KB) and the 1 KB the hardware
  // keeps per block, in an SM's 228 KB
  static_assert(kMinBlocks * (kStages * kStageBytes + 1024 + 512 * 16 + 2048 + 1024) <= 228 * 1024,
                "kMinBlocks blocks fit an SM's shared memory");
  static_assert(kProducerThreads % 32 == 0 && kProducerThreads >= 32, "whole producer warps");
  static_assert(kBlockK * 4 == 128, "an A row is one 128-byte swizzle row");
  static_assert(kBlockK == kGatherBlockK, "the packed weights' chunks");
};
using TmaGatherTile = TmaGatherTileOf<128, 6>;
// Short K loops (at most kTmaGatherShortIterations taps x chunks, 16-bit sources read in place): two blocks per SM,
// each a 3-stage ring and one producer warp (288 threads; 90 registers a thread, so two blocks' 576 threads fit the
// register file where two of 384 would need 85 at most). Why: the VAE and 3D U-Net up-convolutions (kernel 2,
// stride 2, 256 input channels: one tap per phase, four 64-channel chunks) run 8192 (VAE) blocks of four stages each
// on channels-last bf16; with one block per SM each fills its ring, computes and then stores its 32 KB tile alone,
// the SM's tensor cores idle through the fill and the stores (run 454: VAE forward 0.822 ms against eager's 0.578,
// U-Net 3D 0.420 against 0.289; DRAM floor ~0.1 ms). A second block's loads and MMAs overlap the first's epilogue.
// TCONV_TMA_SHORT_RING=0 keeps them on TmaGatherTile (development, read once per process). Measured (run 456, H200,
// channels-last bf16, same build, with the epilogue's shifts and four-channel stores): VAE forward 0.482 -> 0.319 ms
// (fwd+bwd 0.950 -> 0.786); verified rows VAE 0.320 ms (1.83x eager), U-Net 3D 0.167 (1.75x; 0.417 in run 455).
using TmaGatherShortTile = TmaGatherTileOf<128, 3, 32, 2>;
constexpr int kTmaGatherShortIterations = 8;
// The persistent form of the per-tap boxes (conv_transpose_igemm_tma.cu, tconv_igemm_gather_tma16_persistent_kernel;
// the default since session 90; TCONV_TMA_GATHER_PERSISTENT=0 turns it off, development, read once per process).
// Measured (run 483, H200, channels-last bf16, same build, quick timing): fam06 forward 1.625 -> 0.956 ms (fwd+bwd
// 4.812 -> 4.129), predicted ~1.0-1.1; L2-61 unchanged (0.821 -> 0.820). Where: a 16-bit call (in place or on the copy)
// with at most kTmaGatherPersistentMaxPhases phases, one column tile of 8k channels and a channels-last destination
// whose strides and base take 16-byte stores; at least 2 stages beside the staging areas (TmaGatherTile keeps its 6).
// Why: run 482's ncu of fam06's forward (channels-last bf16, 128 columns, 15 taps of 64 channels: 18496 blocks of 15
// stages, one block per SM) had 13 % of the samples at the barrier after each block's tap table, ~25 % in its
// channels-last epilogue (8-byte stores, per-position index math) and 8 % waiting on full stages: at 1.607 ms over 140
// waves a block lives ~21000 clocks against ~7700 of wgmmas. The persistent short window tile moved fam01's forward
// 1.911 -> 1.266 ms for the same reasons (run 479). Each warpgroup stages its 64 positions in
// kTmaGatherPersistentRounds rounds of 32 (one accumulator half each) as 16-bit [position][BN + 8] (a thread's 32-bit
// stores at rows gid x (BN + 8) / 2 words apart: 4 modulo 32, distinct banks), 17 KB a block at 128 columns. Strided
// calls too, every phase's tap table built once a block: VAE's and U-Net 3D's forwards (one tap a phase, 4 stages of 64
// channels a block: ~8192 blocks each filling its ring and storing alone, though two a SM) and DCGAN's (4 phases of 4
// taps, ~4 tiles a block); the short tile then keeps 2 stages of its 3 (both blocks' staging areas).
constexpr int kTmaGatherPersistentRounds = 2;
// Phases (strides' product) it takes: every phase's tap table stays in shared memory; 8 is stride 2 in 3D (U-Net).
constexpr int kTmaGatherPersistentMaxPhases = 8;
// The 64-column tile as two blocks per SM of 4 stages (24 KB each) for in-place 16-bit calls: the same reason at any
// K (L1-71 channels-last bf16: 32 channels a side, 9 taps, 37008 blocks of 128 positions; run 455: forward 2.79 ms
// against eager's 0.37). TCONV_TMA_NARROW_PAIR=0 keeps them on TmaGatherNarrowTile (development, read once per
// process). Measured (run 456, H200, channels-last bf16, same build): L1-71 forward 2.058 -> 1.307 ms (fwd+bwd 7.318
// -> 5.880; still 0.28x eager: 9 stages of 64-channel boxes and B slices per 128 positions, half of them zeros at 32
// channels, so ~8 GB through L2 a pass), L2-61 level (1.000 / 2.961 -> 1.005 / 2.894).
using TmaGatherNarrowPairTile = TmaGatherTileOf<64, 4, 32, 2>;
// 256 columns where the call has them: each A box feeds twice the MMAs (half the A bytes and the per-stage handoffs
// per MMA); 4 stages of 48 KB. Not measured yet.
using TmaGatherWideTile = TmaGatherTileOf<256, 4>;
// 64 columns (8 stages of 24 KB) for calls of at most 64 columns, and boxes that run past the phase grid's end (the
// rows past it are computed and not stored) where no box tiles the grid exactly: both only under "igemm_tma" until
// measured. Why: L1-68's forward (K 75 x 32, 64 columns, a 66 x 68 x 68 grid: 2 x 8 x 8 boxes cover it at 89 % of
// rows) runs at 212 TF/s on the cp.async gathers (run 332), 1.8 % short of its 6x target, and L2-61's (K 27 x 64, a
// 34^3 grid: 4 x 4 x 8 boxes at 76 %) at 178.
using TmaGatherNarrowTile = TmaGatherTileOf<64, 8>;
// The ping-pong tile (persistent per-tap boxes only; the default since session 97, TCONV_TMA_GATHER_PING_PONG=0 turns
// it off, development): the two MMA warpgroups take a block's tiles in turn, each a whole tile of 128 positions as two
// 64-row wgmmas on every B slice (128 accumulators a thread, so one producer warp: 288 threads), so one warpgroup's
// epilogue (staging and storing its tile) runs while the other's wgmmas keep the tensor cores busy. Why: run 513's
// ncu of fam06's persistent forward (channels-last bf16, 64 -> 128, 15 taps, 961 us): the tensor pipe active 65 % of
// the cycles, the top stall the epilogue's named barriers; both warpgroups finish a tile together and store it while
// the tensor cores idle. A 256-position tile (-25 % of the L2-to-shared bytes a FLOP, 158 registers) left it level
// (run 512: 0.950 -> 0.949 ms; ncu 961 -> 962 us, tensor pipe 68.7 %), so the bytes did not bound it while the
// epilogue was exposed. Predicted:
// fam06's forward GEMM ~0.95 -> ~0.70-0.75 ms if the epilogue hides behind the other warpgroup's 15 stages.
// Measured (run 515, H200, channels-last bf16, same build, kernel breakdown): 0.956 -> 0.901 ms (kernels per fwd+bwd
// 2.664 -> 2.615; racecheck clean): a gain, a fifth of the one predicted. At 0.90 ms the ring moves ~10 TB/s from L2
// (~18.5 k tiles of 480 KB of A and B), above the 8.3 TB/s run 513's ncu read as 71 % of L2 throughput, so the
// L2-to-shared bytes are the likely next bound here (not measured by ncu on this tile yet).
using TmaGatherPingPongTile = TmaGatherTileOf<128, 6, 32, 1, true>;
// The TMA window (conv_transpose_igemm_tma.cu, "igemm_tma" only until measured): the W taps of a (D, H) tap share
// one A box, each tap a row shift of the wgmma descriptor, so a stage carries one box and the group's B slices.
// Why: the per-tap boxes above move 128 x 32 A floats and 32 x BN B floats per tap; at 64 columns that is 24 KB per
// 0.5 MFLOP, and run 334 (H200, forced "igemm_tma") ran L1-68's forward at 9.93 ms against 6.01 on the unit-stride
// kernel, ~6 TB/s of L2-to-shared traffic. With 256 rows per block and the 5 W taps on one box, L1-68's stage is
// 45 KB of A (5 lines of 72) and 40 KB of B per 5.2 MFLOP, 2.8x fewer bytes per FLOP. 256 rows: two m64 sub-tiles
// per MMA warpgroup, so each B slice feeds four wgmmas. Stages: as many as fit (at least 2, at most kMaxStages).
// 16 channels per stage (64-byte rows, 64-byte swizzle): run 335 (H200, 32-channel stages of 85 KB, so 2 stages on
// L1-68) ran L1-68's forward at 6.75 ms against auto's 6.07, fam01 5.21 / 4.02, L1-71 1.45 / 0.65; at 16 channels
// L1-68's stage is 23 + 20 KB, 5 stages. Run 335 also found the descriptor's base-offset field wrong for these
// row shifts (errors of the outputs' size with it, TF32-sized without): the swizzle follows the address bits.
// The wgmmas take the weights as A (m64 tiles of output channels) and the window as B (n128: a warpgroup's positions):
// with positions as M, a 64-column call's wgmma (m64n64k8) read as many shared-memory bytes per MAC as the SM serves
// at the full TF32 rate; n128 against m64 reads 25 % fewer. Calls of at most 32 columns pad them to 64.
// Runs 338-339 (ncu, L1-68 forward, 256 positions per block): 5.69 ms at 60 % of the TF32 rate, the MMA warps' wait
// for stage_full holding 53 % of the stall samples: the boxes and slices arrive at ~4.8 TB/s (43 KB per stage), the
// same L2-to-shared rate the per-tap boxes reached (run 334). So the 64-column tile takes 512 positions per block
// (two runs of 128 per warpgroup): each B slice serves twice the positions and the box's whole-line over-fetch is
// paid once per 512 rows, 28 % fewer bytes per MAC on L1-68 (62 KB per stage of 2.6 M MACs against 43 KB per
// 1.3 M). The 128-column tile stays at 256 (two m64 channel tiles already, 128 accumulators a thread).
// Tried and removed: blocks of whole lines on narrow grids (no box line unstored; L1-68 32 KB of A per stage instead
// of 41). Run 341 (H200, alternating processes, ms): L1-68 forward 4.828 against 4.828-4.872 from any line start,
// fam03 1.746-1.748 against 1.625-1.626, and L1-68's fwd+bwd under the forced window 22.2-22.3 against 21.3-21.4.
// kRunsArg, kMaxStagesArg, kProducerThreads, kMinBlocksArg: TmaWindowShortTile's (below); the others take the
// defaults.
template <int kBlockNArg, int kRunsArg = (kBlockNArg == 64 ? 2 : 1), int kMaxStagesArg = 8, int kProducerThreads = 128,
          int kMinBlocksArg = 1>
struct TmaWindowTileOf {
  static constexpr int kBlockN = kBlockNArg, kBlockK = 16;
  static constexpr int kRowBytes = kBlockK * 4;   // a window row (one position): one 64-byte swizzle row
  static constexpr int kPositions = 128;          // per wgmma: its N
  static constexpr int kMTiles = kBlockN / 64;    // m64 tiles of output channels
  static constexpr int kRuns = kRunsArg;          // runs of kPositions per MMA warpgroup
  static constexpr int kBlockM = 2 * kRuns * kPositions;
  static constexpr int kSegment = kPositions;     // wide lines: positions per box (one box per run)
  static constexpr int kMmaThreads = 256, kThreads = kMmaThreads + kProducerThreads;
  static constexpr int kStageConsumers = kMmaThreads;  // the MMA threads that release a stage
  static constexpr int kMaxStages = kMaxStagesArg, kMinBlocks = kMinBlocksArg;
  static_assert(kProducerThreads % 32 == 0 && kProducerThreads >= 32, "whole producer warps");
  static constexpr int kMaxGroupWidth = 8;                 // W taps per stage: the MMA loops instantiated
  static constexpr int kSliceFloats = kBlockK * kBlockN;  // one tap's B slice
  static constexpr int kLdC = kBlockM + 4;
  // A channels-last destination's staged tile [position][channel]: neighbouring tig's positions (2 apart) 8 modulo 32
  // floats apart, so with gid along the channels a warp's 32 stores fall in distinct banks
  static constexpr int kLdCRowMajor = kBlockN + 4;
  static_assert((2 * kLdCRowMajor) % 32 == 8 && kLdCRowMajor % 4 == 0, "conflict-free staging, rows on 16 bytes");
  // A block's dynamic shared memory: the whole SM's 227 KB for one block; for kMinBlocks, its share less the 1 KB the
  // hardware keeps per block and ~2 KB of the kernel's static arrays
  static constexpr int kSharedBytes = kMinBlocks == 1 ? 227 * 1024 : 228 * 1024 / kMinBlocks - 3 * 1024;
  static_assert(kRowBytes == 64, "an A row is one 64-byte swizzle row");
  static_assert(kGatherBlockK % kBlockK == 0, "a stage's B slice is a whole part of a packed chunk");
};
static_assert(TmaWindowTileOf<64>::kMTiles == 1 && TmaWindowTileOf<128>::kMTiles == 2, "whole m64 channel tiles");
using TmaWindowTile = TmaWindowTileOf<64>;
using TmaWindowWideTile = TmaWindowTileOf<128>;
// 16-bit sources read in place whose K loop is short (at most kTmaWindowShortIterations (D, H) taps x chunks of 32
// channels) and who have at most 64 columns: two blocks per SM of 256 positions (one run per MMA warpgroup), one
// producer warp, at most 3 stages, so one block's prologue, ring fill and epilogue overlap the other's MMAs
// (TCONV_TMA_WINDOW_SHORT=0 turns it off: development, read once per process). Why: run 459 (H200, bf16
// channels-last) ran L1-71's forward on the window at 0.892 ms against eager's 0.367: 32 channels, 3 (D, H) taps a
// block (3 stages), ~9256 blocks of 512 positions, one per SM, so every block fills its ring and drains its
// epilogue alone, as the per-tap boxes did on VAE before TmaGatherShortTile (0.482 -> 0.319 ms, run 456).
// Shared memory (L1-71): a stage of 2 x 144 A rows of 64 bytes and 3 taps' B slices, 30 KB; 3 stages hold the
// epilogue's 256 x 68 staged floats (68 KB).
// Measured (run 460, H200, channels-last bf16, same build, quick timing fwd / fwd+bwd ms, off -> on): L1-71 0.891 /
// 3.572 -> 0.743 / 3.281, fam11 1.077 / 6.271 -> 0.948 / 5.990; 17 % and 12 % on the forward, not the 1.5x predicted
// from VAE's per-tap boxes.
using TmaWindowShortTile = TmaWindowTileOf<64, 1, 3, 32, 2>;
constexpr int kTmaWindowShortIterations = 8;
// The persistent form of the short tile (conv_transpose_igemm_tma.cu, tconv_igemm_gather_tma_window_persistent_kernel;
// TCONV_TMA_WINDOW_PERSISTENT=0 turns it off, development). Measured (run 479, H200, channels-last bf16, quick timing
// fwd / fwd+bwd ms, off -> on): fam01 1.911 / 5.058 -> 1.266 / 4.021, fam05 0.892 / 2.436 -> 0.687 / 2.162 (predicted
// for fam01's forward: ~1.4-1.5: each block's ring fill, prologue and store no longer stand alone). Where: a 16-bit
// call on TmaWindowShortTile with one phase, one column tile of 8k channels and a channels-last destination whose
// strides and base take 16-byte stores; at least 2 stages beside the staging areas. Each warpgroup stages its 128
// positions in kTmaWindowPersistentRounds rounds as 16-bit [position][kTmaWindowPersistentLdS] (144-byte rows: a
// thread's two positions 2 x 72 elements = 8 words modulo 32 apart, so a warp's 2-byte stores fall in distinct banks or
// share a word; rows on 16 bytes for the stores' reads). Rounds of 32 positions (9 KB for both warpgroups): fam01's 30
// KB stages keep the 3 that the non-persistent tile has, and fam05's and fam11's 46 KB ones (7 W taps) their 2;
// whole-run staging (36 KB) left fam01 2 and those none.
constexpr int kTmaWindowPersistentLdS = 64 + 8, kTmaWindowPersistentRounds = 4;
// Where "auto" takes the TMA window: the forward, on narrow grids (whole lines of extent_w + span <= 256 positions in
// a box), 33-64 output channels per group (the 64-column tile; 32 or fewer pad to 64 and were not timed), a K (taps
// per phase x input channels) of at least 1296, and the copy budget's rules below (TCONV_TMA_WINDOW_AUTO=0 turns it
// off: development only). Run 340 (H200, TF32, forward ms, "auto" / "igemm_tma_window", one process): L1-68 (K 2400,
// 64 columns, pitch 72) 6.077 / 4.860, fam03 (1296, 48, 68) 1.843 / 1.630; not taken: fam01 (wide lines, 576)
// 4.045 / 4.823, and the 128-column tile's L2-61 (1728) 1.301 / 1.283 (level). Run 341: under a 10 % copy budget
// L1-68 runs chunks of 3 images at 4.900-4.953 (fwd+bwd 20.76 against 21.73); fam03's one image is 11.4 % of its
// output, so it stays where it was. grad_input through the window: L1-68's ~8.0 ms against "auto"'s 7.15 (run 341).
struct TmaWindowAutoRule {
  static constexpr int kMinChannels = 33, kMaxChannels = 64;
  static constexpr int kMinK = 1296;
};
// Where "auto" takes the TMA window for 16-bit sources read in place (channels-last, no copy, so none of the fp32
// rule's copy costs): forward and grad_input, any column count, wherever a phase has at least kMinWTaps W taps, on
// narrow grids (lines of extent_w + span <= 256 in a box) and on wide lines where the source has fewer than
// kMinWideLineChannelsRefused channels per group; the per-tap boxes elsewhere (TCONV_TMA_WINDOW_16BIT: 0 off, 1 the
// forward only). Why:
// the per-tap boxes take each tap's box and B slice through L2 for 128 positions, the window one box per (D, H) tap
// for all its W taps. Run 457 (H200, bf16 channels-last, ms, forward / fwd+bwd, per-tap "auto" against
// "igemm_tma_window" for every pass): L1-71 (3 W taps, 32 channels, wide lines) 1.092 / 5.446 -> 0.891 / 3.595,
// L1-68 (5 W taps, 32 -> 64) 8.896 / 38.948 -> 3.075 / 24.109, fam03 (3 W taps, 48) 1.711 / 7.594 -> 1.140 / 5.451
// (the fwd+bwd columns also differ in grad_weight: the TMA grad_weight runs under "auto" only). Two W taps (DCGAN's
// k4 s2 phases) were not timed on the window: they keep the per-tap boxes and their two blocks per SM. Run 458 (same,
// the window in forward and grad_input against TCONV_TMA_WINDOW_16BIT=0): L2-61 (narrow, 64 -> 128) 0.886 / 2.762
// against 1.026 / 2.908; fam01 (wide lines of 1024, 64 -> 64, full 64-channel per-tap boxes) 2.835 / 10.368 against
// 2.678 / 10.074: refused; the grad_input's share (2 against 1): L1-68 31.0 against 33.0, L1-71 5.055 against 5.348.
// Wide lines at kMinWideLineChannelsRefused or more source channels take the window where a phase has at least
// kMinWideLineWTaps W taps and the pass at most kMaxWideLineColumns columns (TCONV_TMA_WINDOW_WIDE=0: refused as
// before; development, read once per process): the refusal was set from fam01's 3 W taps, and 5 or 7 W taps share
// one A box. Run 469 (H200, bf16 channels-last, quick timing fwd / fwd+bwd ms, window on both passes against
// TCONV_TMA_WINDOW_WIDE=0, one build): fam05 (64 -> 64, 7 W taps) 1.144 / 3.842 -> 1.005 / 3.500; fam06 (64 -> 128,
// 5 W taps) 1.720 / 5.251 -> 2.220 / 5.452, its backward (fwd+bwd less fwd) 3.531 -> 3.232: the 128-column forward
// lost 0.5 ms, the 64-column grad_input gained 0.3. So 64 columns at most; fam06 under this rule (per-tap forward,
// window grad_input) was not timed.
// kMinWideLineWTaps was 5 (set from fam06 and fam05); 3 since runs 474 and 476 (H200, bf16 channels-last, quick
// timing, one build each): fam01 (64 -> 64, 3 W taps) forward 2.676 -> 2.353 ms ("auto" against "igemm_tma_window";
// run 458's 2.835 was before session 85's wide-line window), then its grad_input too: fwd+bwd 6.379 -> 6.036 (the
// forward's rule alone against both passes'). fam05 (7 W taps) was on the window already; fam06's forward (128
// columns) stays refused by the columns (1.722 against 2.220).
struct TmaWindow16BitAutoRule {
  static constexpr int kMinWTaps = 3;
  static constexpr int kMinWideLineChannelsRefused = 64;
  static constexpr int kMinWideLineWTaps = 3, kMaxWideLineColumns = 64;
};
// "auto" takes the channels-last TMA grad_weight (128 x 128 channel tiles per tap, boxes of 64 channels) only where
// both sides have at least this many channels per group: with fewer, most of each box and wgmma is padding and every
// tap's block reads the whole of x and grad_output again. Run 458 (H200, bf16 channels-last, L1-68: 32 -> 64
// channels, 75 taps): the TMA grad_weight took 36.4 of 43.4 ms of kernels per fwd+bwd; run 457, "igemm_tma_window"
// (the igemm grad_weight): fwd+bwd 24.1 ms against "auto"'s 31.0 (run 458, the window in both), and L1-71 (32 -> 32)
// 3.595 against 5.055.
constexpr int kGradWeightTmaMinChannels = 64;
// The channels-last 16-bit grad_weight by window (conv_transpose_igemm_tma.cu, tconv_grad_weight_window_kernel) for
// at most 64 input and 128 output channels per group (grad_weight_window_most_out_channels: why), W stride 1: a stage is one segment of an input line (kPositions input
// positions, 32-channel planes) and the grad_output lines every (kd, kh) tap sends it to, each a box of the segment
// plus the W taps' span. grad_weight[tap] = X^T GO_tap, and every tap's GO_tap is the same box at a row shift, so M
// stacks (tap, 32 output channels) atoms in pairs (an m64 wgmma's two 32-row halves at any distance: the descriptor's
// leading byte offset) and one stage feeds every tap. Why: L1-71 channels-last bf16 (32 -> 32, k3) ran grad_weight on
// the igemm mma.sync kernel at 1.902 of its 3.595 ms of kernels per fwd+bwd (run 460; eager's whole fwd+bwd 1.381),
// and the per-tap TMA kernel's 128 x 128 tiles would be 94 % padding there. The two MMA warpgroups take alternate
// stages, each with all of the block's tiles (kTiles m64 tiles, chunks of them across blocks where more); at 64
// input channels both take every stage with half of the tiles each (the split form: grad_weight_window_split_tiles,
// why: fam06's pass 1.843 -> 0.743 ms).
// Measured (run 462, H200, channels-last bf16 quick timing, fwd+bwd ms, the window against the igemm grad_weight
// (TCONV_GRAD_WEIGHT_WINDOW=0) or against the per-tap TMA one (=1) at 64 channels a side): L1-71 1.826 / 3.305,
// fam11 2.718 / 6.034, fam07 13.219 / 15.774; fam05 3.818 / 5.415, fam01 7.850 / 10.047. So "auto" takes it at 64
// channels a side too (TCONV_GRAD_WEIGHT_WINDOW: 0 never, 1 below 64 only).
// Line boxes (TCONV_GRAD_WEIGHT_WINDOW_LINES: 0 refuses such calls): where a stage of every (kd, kh) line leaves under
// kMinStages stages, each block loads one box per line its chunk of tiles reads. Why: fam02 channels-last bf16 (32 ->
// 16, 3 x 5 x 7: 15 lines of 70 positions, a 71 KB stage) ran its grad_weight on the igemm kernel at 4.464 of 5.448 ms
// of kernels per fwd+bwd (run 467; eager's whole fwd+bwd 1.667); its 9 chunks of 6 tiles read 2-3 lines each (a 20 KB
// stage, 8 stages). Measured (run 470, H200, quick timing in one build, fwd / fwd+bwd ms): 0.564 / 2.973 against the
// igemm grad_weight's 0.564 / 5.505 (predicted ~1.5 fwd+bwd: its 45 blocks, 9 chunks x the 5 splits that the
// workspace allowed at two partial sums a split, left 87 SMs idle). Since: one partial sum a split (the warpgroups
// add theirs in shared memory) and the chunks chosen by the blocks' count of tiles (plan_grad_weight_window).
// The producer counts its units, lines and stages: run 473's ncu of fam02's grad_weight (989 us) had the warpgroups
// waiting on full stages (17.2 of 21.6 cycles per issued instruction long scoreboard, tensor pipe 13 %) while its one
// thread took three 64-bit divisions a unit and one 32-bit division a line box. Run 474 (H200, channels-last bf16):
// fam02's grad_weight 0.978 -> 0.510 ms, fwd+bwd 1.971 -> 1.509 (quick timing); L1-68 15.874 -> 11.935.
struct WindowWeightGradTile {
  // (a whole number of the wgmma's k16 steps, unrolled: ptxas fenced the wgmmas of a runtime K loop, C7519)
  static constexpr int kPositions = 64;
  // Even, so each stage always feeds the same warpgroup; at least 4: a warpgroup releases a stage after issuing its
  // next one (two stages on), which must lie elsewhere (run 462: with 2 stages the ring deadlocked).
  // 8 unless TCONV_GRAD_WEIGHT_WINDOW_STAGES asks (12 at most: the barriers' arrays). Run 474 (H200, channels-last
  // bf16, fwd+bwd ms, 8 / 12 stages): fam02 1.509 / 1.510 (stages of 14 KB: 12 fit), L1-68 11.935 / 11.937: the ring's
  // depth does not bound it.
  static constexpr int kMaxStages = 12, kMinStages = 4;
  // m64 tiles a call may have (the kernel's argument arrays, 16 bytes a tile). 128: L1-68's 75 taps x two 32-channel
  // output planes make 75 tiles, which 64 refused to the igemm grad_weight (~17 of its 24.1 ms of kernels per
  // channels-last bf16 fwd+bwd, runs 458-459).
  static constexpr int kMaxTiles = 128;
  // Two MMA warpgroups and kProducers producer warps (TCONV_GRAD_WEIGHT_WINDOW_PRODUCERS: 1 to kMaxProducers, so that
  // the registers' bound, 65536 / kMaxThreads, stays above the 166 that ptxas gives the 8-tile form). Run 476's ncu
  // (fam02): one producer thread issued a stage's three boxes in ~167 instructions at ~6.5 cycles each, the 0.56 us a
  // stage took; the warpgroups waited on it (79 % of samples) and it never waited on them. Run 477 (H200,
  // channels-last bf16, quick timing fwd+bwd ms, 1 / 2 / 4 producers): fam02 1.528 / 1.290 / 1.197 (its grad_weight
  // ~0.51 -> ~0.18 ms at 4 if the rest stayed), L1-68 11.642 / 9.482 / 8.634 (run 478; its 2: 9.686).
  static constexpr int kMmaThreads = 256, kProducers = 4, kMaxProducers = 4;
  static constexpr int kMaxThreads = kMmaThreads + 32 * kMaxProducers;
  static constexpr int kSharedBytes = 227 * 1024;
};
// "auto" takes it from a K (taps per phase x channels) of 2048: the channels-last copy reads and writes the whole
// source once, which only a long K repays, and short K loops pay the ring's fill and the epilogue per few stages.
// Run 324 (H100, TF32, tconv's autotune: each form timed once per signature in one process, ms, TMA / the gather's
// best cp.async form): DCGAN forward (K 4 x 512) 0.342 / 0.419, grad_input (16 x 256) 0.328 / 0.503; U-Net forward
// (1 x 256) 0.386 / 0.359 (the W fold), grad_input (8 x 128) 0.404 / 0.306; VAE forward (1 x 256) 0.856 / 0.715,
// grad_input (4 x 128) 0.837 / 0.587.
constexpr int kTmaGatherMinK = 2048;
// The issue's bound on extra device memory: the channels-last copy (the TMA gather's source) holds at most this share
// of the conv's output; larger batches run in chunks of whole images (conv_transpose_igemm_tma.cu, tma_copy_batch).
constexpr int kTmaCopyBudgetPercent = 10;
// "auto" sizes the chunks for the fewest waves (one block per SM) and chunks only where they take at most this share
// of the whole batch's waves; else the call leaves the TMA gather. Run 341 / 342 (H200, TF32, "auto" ms):
// - DCGAN forward (8 blocks an image): the whole batch 0.258-0.263 (4 waves); chunks of 12 images 0.386-0.390 (6
//   waves: 1.5x); without the TMA gather 0.420. So 1.5x the waves still wins, a little.
// - DCGAN grad_input (4 blocks an image): chunks of 6 images take 11 waves against 2, and fwd+bwd went 0.943-0.959 ->
//   1.86-1.88 (1.36 without the TMA gather): refused.
// - L1-68's window: chunks of 3 images (1980 blocks, 15 whole waves: 80 against 80) 4.90-4.95 against 4.83-4.87.
struct WaveSlack {
  int num, den;
};
constexpr WaveSlack kTmaChunkWaveSlack{3, 2};

}  // namespace tconv

namespace tconv {

// grad_weight implicit GEMM: M = input channels, N = output channels of a group, K = input
// positions (batch x D x H, then W in chunks of BK), split over blocks (deterministic split-K:
// partial sums per split, summed in a fixed order by a second kernel). One block computes up to
// kMaxTaps taps along W that share a grad_output strip: taps kw whose offsets kw*dilation agree
// modulo the stride read the same every-stride-th grad_output elements, shifted by whole positions,
// so the block loads the x tile once and one strip of BK + kMaxStripShift grad_output positions, and
// runs kMaxTaps MMA tiles on them (4 taps x 32 x 64 per stage where the last version ran one tap:
// run 12, H200, the one-tap kernel took ~48 of L1-68's 80 ms TF32 fwd+bwd, ~27 TF/s).
// Warps are 32x32 per tap; kWarpsM = 1 fits C_in/group <= 32 exactly, 2 the wider ones.
// Tiles K-contiguous with rows padded to 20 words: fragment loads at any strip shift are
// bank-conflict free (20 * row mod 32 are distinct multiples of 4).
// kWarpsN = 4 (the many-tap tile, C_in/group <= 32 only, TF32 and fp16/bf16): four warps of 32 x 16 per
// tap, so a block holds more taps in fewer accumulator registers per thread, and a W tap group reaches
// 8 positions of shift (strip 24, rows padded to 28 words: 28 * row mod 32 are again distinct multiples of
// 4). Why: with at most 4 taps, kernel width 5 runs as W groups of 3 + 2, each loading the x tile and a
// strip of its own; on L1-68 (TF32, run 63) those blocks were latency-bound (tensor pipe 23 %, 8 warps per
// SM, leading stall on fixed-latency dependencies). Run 67 (H200, grad_weight kernel time, profiler, against
// runs 62-63): one group of 5 taps (the 6-tap kernel, 168 registers: 12 warps per SM) took L1-68 from 21.7 to
// 16.2 ms in TF32 and 22.6 to 19.4 in bf16; one group of 7 (an 8-tap kernel, 222 registers, 8 warps per SM)
// lost against 4 + 3 (fam02 TF32 3.47 -> 4.17 ms, fam11 bf16 4.19 -> 4.54), so groups stop at 6 taps. 3xTF32
// keeps the 32 x 32 tiles (its many-tap form passed the GPU tests in run 67 but was not timed).
template <int kWarpsMArg, bool kSplitTf32Arg, int kWarpsNArg = 2>
struct WeightGemmTile {
  static constexpr int kWarpsM = kWarpsMArg;
  static constexpr int kWarpsN = kWarpsNArg;
  static constexpr int kBlockM = 32 * kWarpsM;
  static constexpr int kBlockN = 64;
  static constexpr int kWarpTileN = kBlockN / kWarpsN;
  static constexpr int kBlockK = 16;
  static constexpr int kThreads = 32 * kWarpsM * kWarpsN;
  static constexpr int kStages = 3;
  // 3xTF32 keeps a second set of per-stage sums (see warp_tile_mma): two taps keep it within the
  // register file; TF32 and fp16/bf16 take four (128 accumulators per thread). The many-tap tile's
  // 32 x 16 warps: six (96 accumulators; eight measured slower, above).
  static constexpr int kMaxTaps = kWarpsN == 4 ? 6 : (kSplitTf32Arg ? 2 : 4);
  static constexpr int kMaxStripShift = kWarpsN == 4 ? 8 : 4;  // taps of one block lie within this many positions
  static constexpr int kStrip = kBlockK + kMaxStripShift;
  static constexpr int kLd = kWarpsN == 4 ? kStrip + 4 : kStrip;
  static constexpr int kStageFloats = (kBlockM + kBlockN) * kLd;
  static constexpr int kRowsPerPass = kThreads / kBlockK;  // threads copy one column each
  static constexpr int kTailRowsPerPass = kThreads / kMaxStripShift;
  // Split-K target: about this many resident blocks per SM over the whole grid.
  static constexpr int kBlocksPerSmTarget = 8;
  // Blocks per SM the registers must allow (__launch_bounds__' second argument) for a kernel of `taps`
  // taps: three-tap kernels (kernel width 3, and 3 + 2 groups of width 5) are held to 12 warps per SM
  // (170 registers), where their 96 accumulators leave room; the others take what ptxas gives (8 warps per
  // SM at 4 taps). Why: run 70's ncu of the four-tap-sized kernel on fam06 (TF32, 212 registers, 12.3 %
  // achieved occupancy) showed 40 % of the stall samples on fixed-latency dependencies ("wait") with two
  // warps per scheduler, and the many-tap tile's 12 warps per SM gained 25 % on L1-68 (run 67).
  // The others get 0, which is no minimum, as if the argument were absent. An explicit 1 is not: it lets
  // ptxas take up to 255 registers. 282c8e2 passed 1, and most grad_weight kernels grew (sm_90, TF32:
  // one tap 96 -> 120 registers, two taps 144 -> 154, the 6-tap many-tap kernel 168 -> 185 = 8 instead
  // of 12 warps per SM). That undid run 67's L1-68 gain: run 79, grad_weight 21.7 ms against run 67's 16.2.
  // Only for fp32 data (`four_byte`): the 16-bit three-tap kernels spilled under the cap (sm_90: 168 registers,
  // 32-56 bytes; their copies are staged in registers, DeferredRows) and run 198-214 registers without it. And the
  // TF32 one-tap kernel of 32-wide C_in tiles takes 1 (up to 255 registers: ptxas gives it 120 instead of 96); the
  // 64-wide one keeps 0 (96 registers, the U-Net's gain of run 80). Run 86 (H200, same-machine A/B against
  // 9546925, tconv only, fwd+bwd): bf16 L1-71 5.370 -> 4.685 ms, fam10 1.634 -> 1.536, fam12 2.025 -> 1.899 (the
  // three-tap C_in-32 calls); TF32 fam13 1.989 -> 1.860 (one tap, C_in 32); TF32 L1-71 (three taps, unchanged)
  // 4.004 / 4.005.
  static constexpr int min_blocks_per_sm(int taps, bool four_byte) {
    if (!four_byte) return 0;
    if (taps == 3) return 12 * 32 / kThreads;
    const bool tf32_one_tap_narrow = taps == 1 && kWarpsM == 1 && kWarpsN == 2 && !kSplitTf32Arg;
    return tf32_one_tap_narrow ? 1 : 0;
  }
  static_assert(kWarpsN == 2 || (kWarpsN == 4 && kWarpsM == 1 && !kSplitTf32Arg),
                "the many-tap tile is for C_in tiles of 32, TF32 and fp16/bf16");
  static_assert(kBlockM % kRowsPerPass == 0 && kBlockN % kTailRowsPerPass == 0, "copies tile the stage");
  static_assert(kLd % 4 == 0 && (kLd / 4) % 2 == 1, "fragment loads conflict free: 8 rows x 4 columns on distinct banks");
};
using WeightGemmManyTapTile = WeightGemmTile<1, false, 4>;
constexpr int kGradWeightMaxWGroups = 32;  // W tap groups per call (kernel width <= 32)
// Ordered split-K (plan_grad_weight, where the workspace cap leaves fewer splits than the GPU needs): at most this
// many splits per buffer, because a tile's splits in one buffer add their sums one after another (a wait, a
// read-modify-write of the tile and a fence each). Not tuned: 8 covers DCGAN's plan (5 planned, 3 after balancing
// against 396 slots). In several buffers (grad_weight_turn_buffer_rule): this many per buffer.
constexpr int kGradWeightMaxOrderedSplits = 8;

// grad_weight on Hopper (sm_90a, TF32 mode and fp16/bf16): the same blocks as WeightGemmTile (C_in tile
// of 32 or 64 = 32 x kWarpsM, 64 C_out, a W tap group of up to 4 taps, split-K), as one warpgroup
// issuing wgmma.m64nNk8 with M = the 64 C_out rows of the grad_output strip (A from registers, so
// each tap reads it at its own shift) and N = the C_in tile (B: the x tile by descriptor, K-major
// core matrices). Why: run 27's profile (benchmarks/results/RUNS.md) put the mma.sync kernel at
// 35-55 % of fwd+bwd on the GEMM shapes, and its SASS at ~6 issued instructions per m16n8k8 (fragment
// loads and conversions of both operands); here B needs no register fragments. Taken for 33-64-wide C_in
// tiles only (run 29: slower than mma.sync with 32-wide ones, see igemm_grad_weight).
// kBlockNArg: 48 where a group has 33-48 input channels (one C_in tile either way, so the same blocks and plan),
// a quarter fewer MMAs and x copies than the 64-wide tile (grad_weight_wgmma_block_n). Run 170 (H200, same build,
// fwd+bwd TF32): fam07 22.27 -> 20.80 ms, fam03 8.23 -> 7.64; bf16 fam07 23.97 -> 23.33.
template <int kWarpsMArg, int kBlockNArg = 32 * kWarpsMArg>
struct WeightWgmmaTile {
  static constexpr int kThreads = 128;
  static constexpr int kBlockM = 64;                // C_out: the wgmma's M
  static constexpr int kBlockN = kBlockNArg;        // C_in: the wgmma's N (at most WeightGemmTile's kBlockM)
  static constexpr int kBlockK = 16;
  static constexpr int kStages = 4;
  static constexpr int kMaxTaps = 4;
  // As WeightGemmTile::min_blocks_per_sm: three-tap kernels are held to three blocks (12 warps) per SM, 16-bit ones
  // included, although they spill there (sm_90a: 168 registers, 44-76 bytes of spill stores): without the cap
  // (203 registers, no spill) run 87 measured bf16 fwd+bwd L2-61 5.726 -> 6.553 ms and fam03 9.549 -> 9.788.
  static constexpr int min_blocks_per_sm(int taps, int m_blocks) {  // 0: no minimum
    return taps == 3 && m_blocks == 3 ? 3 : 0;
  }
  static constexpr int kMaxStripShift = 4;
  static constexpr int kStrip = kBlockK + kMaxStripShift;
  // The strip as [C_out][20]: fragment loads (rows gid, columns tig at any shift) hit banks
  // 20 * gid + tig + const, all distinct.
  static constexpr int kLdA = kStrip;
  static constexpr int kStageA = kBlockM * kLdA;
  static constexpr int kStageB = kBlockN * kBlockK;  // [C_in / 8][K / 4][8][4] core matrices
  static constexpr int kStageFloats = kStageA + kStageB;
  static constexpr int kBLeadingBytes = 128, kBStrideBytes = kBlockK / 4 * 128;
  static_assert(kBlockN % 8 == 0 && kBlockN <= WeightGemmTile<kWarpsMArg, false>::kBlockM &&
                    kBlockM == WeightGemmTile<1, false>::kBlockN &&
                    kBlockK == WeightGemmTile<1, false>::kBlockK &&
                    kMaxStripShift == WeightGemmTile<1, false>::kMaxStripShift,
                "the same blocks, W tap groups and split-K plan as the mma.sync kernel");
  static_assert((kStageA * 4) % 128 == 0 && (kStageFloats * 4) % 128 == 0, "B tiles start 128-byte aligned");
};

// grad_weight on Hopper for 2D up-convs whose W stride 2 folds (grad_weight_fold_shape: DCGAN's k4 s2) with at least
// 128 input channels per group: kRowGroups warpgroups, each on its own kH row, share one 128-wide x tile (the
// wgmma's N) per unit; M = 64 folded C_out columns (32 channels x 2 W phases) per warpgroup. The operands arrive as
// TMA boxes (x: 128 channels x 16 positions; grad_output: 32 channels x 56 W positions, raw), so the tensors' edges
// are the copies' zero fill and no thread computes a source address. A box's first W element must lie on 16 bytes
// (run 177's probe, scripts/tma_probe.cu: a W coordinate of -1 or 30 faults with an illegal instruction, -1 in H or
// a box wider than the tensor loads zeros), so the grad_output box starts up to 3 positions early.
// Why: the 64 x 64 wgmma kernel (WeightWgmmaTile) moved ~0.07 bytes per MAC from L2 on DCGAN and the mma.sync one
// ran at ~77 TF/s (run 162, 0.89 ms against cuDNN's 0.32); with kH rows sharing x and 128 input channels sharing each
// grad_output element it is ~0.035. The same tile fed by 16-byte cp.async (runs 174-175) ran at 12.5 % occupancy with
// long-scoreboard waits leading (2.5 per issue): ~8 bytes per clock per SM arrived, whatever the stage's size, and
// DCGAN's grad_weight took 0.768 ms. Fed by TMA (run 178, one unit per stage): 0.464 ms (148 TF/s), tensor pipe
// 32.5 % (19.4), L2 4.9 TB/s; the VAE's k2 s2 0.597 ms against 1.29.
template <int kRowGroupsArg>
struct WeightWgmmaRowsTile {
  static constexpr int kRowGroups = kRowGroupsArg;
  static constexpr int kThreads = 128 * kRowGroups;
  static constexpr int kFold = 2;                    // W phases per channel (the fold's stride)
  static constexpr int kBlockM = 64;                 // folded C_out columns per warpgroup (the wgmma's M)
  static constexpr int kBlockN = 128;                // C_in: the wgmma's N
  static constexpr int kBlockK = 16;                 // input positions of one row per unit
  static constexpr int kMaxTaps = 2;                 // folded W taps (k4 s2: 2, k2 s2: 1)
  static constexpr int kMaxStripShift = 4;           // as WeightGemmTile (the W tap groups are planned alike)
  static constexpr int kRawRows = kBlockM / kFold;   // real grad_output channels per warpgroup
  // Raw rows of 56 W positions (strip column c of phase v at 2 c + v + e, e <= 3 the alignment offset), 56 floats
  // apart: a fragment load (rows gid / 2, columns 2 tig + gid % 2) hits banks 24 r + c, distinct.
  static constexpr int kLdRaw = 56;
  static constexpr int kStageA = kRawRows * kLdRaw;  // one warpgroup's raw rows
  static constexpr int kStageB = kBlockN * kBlockK;  // the x box; the B tile ([C_in / 8][K / 4][8][4] core matrices)
  static constexpr int kUnitFloats = kStageB + kRowGroups * kStageA;
  // Stages of `units` units: one block per SM, so as many as fit beside the two B tiles.
  TCONV_TILE_FN int stages(int units) { return units == 1 ? 6 : 4; }
  TCONV_TILE_FN int shared_bytes(int units) {
    return (2 * units * kStageB + stages(units) * units * kUnitFloats) * 4 + stages(units) * 8;
  }
  static constexpr int kBLeadingBytes = 128, kBStrideBytes = kBlockK / 4 * 128;
  static constexpr int kXCopies = kBlockN * kBlockK / 4 / kThreads;   // 16-byte x pieces per thread and unit
  // The warp-specialized form: a producer warpgroup beside the kRowGroups consumer warpgroups. Its warp 0 issues the
  // boxes, its other 3 warps round each stage's x box into that stage's own B tile, so a slot is (x box, raw rows,
  // B tile) and the consumers never wait for each other. Registers by setmaxnreg: at 384 threads a block starts with
  // 168 per thread; the producer drops to 40 and the consumers rise to 232 (128 x 40 + 256 x 232 <= 65536), room for
  // two taps x 64 accumulators and two units' fragments (the 288-thread draft, capped at 224, spilled 68-164 bytes).
  static constexpr int kProducerThreads = 128, kRounders = 96;
  static constexpr int kSpecializedThreads = kThreads + kProducerThreads;
  static constexpr int kProducerRegisters = 40, kConsumerRegisters = 232;
  static_assert(kProducerRegisters * kProducerThreads + kConsumerRegisters * kThreads <= 65536, "one block per SM");
  TCONV_TILE_FN int specialized_stages(int units) { return units == 1 ? 6 : 3; }
  TCONV_TILE_FN int specialized_shared_bytes(int units) {
    return specialized_stages(units) * units * (kUnitFloats + kStageB) * 4 + 3 * specialized_stages(units) * 8;
  }
  static_assert(kLdRaw >= 2 * (kBlockK + kMaxStripShift - 1) + kFold + 3 && kLdRaw % 32 == 24, "conflict-free rows");
  // Channels-last data (the specialized form only; grad_weight_rows_channels_last): x's box lands [16 positions][128
  // channels] and each thread rounds 4 positions of one channel into the same B tile; a warpgroup's grad_output box
  // lands [kClDyW positions][kClDyPitch channels] (no W alignment there: the channels are the map's first dimension),
  // 4 channels past its 32 read as padding, so a fragment load (channels gid / 2, W 2 tig + gid % 2) hits banks
  // 4 w + c, distinct; it fits a warpgroup's kStageA.
  static constexpr int kClDyPitch = 36, kClDyW = 48;
  static constexpr int kClUnitBytes = (kStageB + kRowGroups * kClDyPitch * kClDyW) * 4;  // the boxes of one unit
  static_assert(kClDyW >= 2 * (kBlockK + kMaxStripShift - 1) + kFold && kClDyPitch % 32 == 4 &&
                    kClDyPitch * kClDyW <= kStageA && (kClDyPitch * 4) % 16 == 0,
                "channels-last raw rows: whole strips, conflict-free, within the unit");
  static_assert(kXCopies * kThreads * 4 == kBlockN * kBlockK, "the x pieces tile the box");
  static_assert((kStageB * 4) % 128 == 0 && (kStageA * 4) % 128 == 0, "TMA boxes land 128-byte aligned");
  static_assert(shared_bytes(1) <= 227 * 1024 && shared_bytes(2) <= 227 * 1024, "within the opt-in maximum");
  static_assert(specialized_shared_bytes(1) <= 227 * 1024 && specialized_shared_bytes(2) <= 227 * 1024,
                "within the opt-in maximum");
};

// The rows kernel for fp16/bf16 data (tconv_igemm_grad_weight_wgmma_rows16_kernel): the same blocks, units, raw
// grad_output rows and sums, with m64n128k16 wgmmas (one per unit and tap) at the 16-bit rate. wgmma reads 16-bit B
// as it is, so nothing rounds x: its box arrives as two TMA boxes of 8 positions (one K core matrix each, 128 rows x 16
// bytes), which is the B tile itself ([K core][C_in / 8][8][8]: K-adjacent core matrices kBlockN x 16 bytes apart),
// and the producer warpgroup is one thread issuing boxes. Element counts per unit as the fp32 tile's (x: 128 x 16,
// raw rows: 32 x 56 per warpgroup), half the bytes, so twice the stages fit. Why: DCGAN's bf16 grad_weight took 0.880
// ms on the widened mma.sync kernel (fp16/bf16 values through TF32 MMAs; run 362), against 0.41 for the TF32 rows
// kernel on the same GEMM. Measured (run 363, one build): 0.309 ms; bf16 fwd+bwd DCGAN 1.438 -> 0.868 ms, VAE 2.03 ->
// 1.30, U-Net 3D 1.06 -> 0.68-0.77.
template <int kRowGroupsArg>
struct WeightWgmmaRows16Tile : WeightWgmmaRowsTile<kRowGroupsArg> {
  using Base = WeightWgmmaRowsTile<kRowGroupsArg>;
  static constexpr int kXBoxW = 8;                                       // positions per x box: one K core matrix
  static constexpr int kUnitElems = Base::kUnitFloats;                   // x (both boxes), then the raw rows
  static constexpr int kBLeadingBytes = Base::kBlockN * kXBoxW * 2, kBStrideBytes = 128;
  // The swizzled form (the default since run 367; TCONV_GRAD_WEIGHT_ROWS16_SWIZZLE=0 gives the two boxes above: its
  // measurements are at the kernel, conv_transpose_igemm.cu): x as one box of kBlockK positions (32-byte rows) in the
  // 32-byte swizzle, which wgmma reads as it lands (K-major, layout type 3): 8-row atoms of 256 bytes, stride byte
  // offset 256, the leading one unused (a wgmma's K is the whole row). Half the x box rows per unit (128 of 32 bytes
  // instead of 256 of 16).
  static constexpr int kSwizzledBStrideBytes = 8 * Base::kBlockK * 2;
  static constexpr int kProducerThreads = 128;
  static constexpr int kBlockThreads = Base::kThreads + kProducerThreads;
  TCONV_TILE_FN int stages(int units) { return units == 1 ? 16 : 8; }
  // + 1024: the swizzled form aligns its ring to the swizzle's atoms (the dynamic allocation promises 16 bytes)
  TCONV_TILE_FN int shared_bytes(int units) {
    return stages(units) * units * kUnitElems * 2 + 2 * stages(units) * 8 + 1024;
  }
  static_assert(Base::kBlockK == 2 * kXBoxW, "a unit is two K core matrices: one m64n128k16");
  static_assert(Base::kLdRaw >= 2 * (Base::kBlockK + Base::kMaxStripShift - 1) + Base::kFold + 7,
                "a raw row starts up to 7 positions early (16 bytes of 16-bit data)");
  static_assert((Base::kStageA * 2) % 128 == 0 && (kUnitElems * 2) % 256 == 0 && (Base::kBlockN * kXBoxW * 2) % 128 == 0,
                "TMA boxes land 128-byte aligned, the swizzled x boxes on 256 bytes");
  static_assert(shared_bytes(1) <= 227 * 1024 && shared_bytes(2) <= 227 * 1024, "within the opt-in maximum");
};

// The shifted-x grad_weight kernel (Hopper, fp32 data in TF32 mode; W stride 1 and dilation 1, kernel W <= 5, <= 32
// input channels per group: L1-68's k3x5x5 with C 32 -> 64). K runs over grad_output positions j, so
// dW[ci, co, kw] = sum_j dy[co, j] x[ci, j + p - kw]: A is the unshifted grad_output row, whose fragments serve every W
// tap, and B is x at the tap's shift. The producer rounds four shifted copies of the x window (one per shift mod 4)
// stacked along N, so taps (0, 1) and (2, 3) are each one m64n64k8 over two consecutive copies and tap 4 is an
// m64n32k8 on copy 0 one core matrix further along K. A block's kRows consumer warpgroups take kRows (kd, kh) rows
// (flattened, so a row tile may span two kd) and share the x window; warpgroups on consecutive kh of one kd share
// grad_output rows along a sweep of input rows (shifted_x_reach). Measured on an H100 (runs 181-184, L1-68 TF32
// fwd+bwd, one build each): 28.07 ms with the kernels before, 26.06 with this one, 22.67 once the rounders built
// the copies from aligned words (the kernel 11.6 -> 8.35 ms); sharing the rows (about half the L2 traffic) was level
// while the rounders were the limit, and with faster rounders it gains 4.5 % (run 187, H200: 24.99 -> 23.86 ms).
// Taps 0-3 as one m64n128k8 was level (run 187) and is gone: its run-time branch, an m64n128k8 over the two pair
// accumulators viewed as one array, made ptxas fence every wgmma of kernel W 4 and 5 (C7519, a warpgroup.arrive
// injected before each; C7511 "serialized" for W 4; nvcc 13.0), and W 5's SASS waited on each HGMMA before the next
// (run 193: ~23 % of L1-68's stall samples on those waits). Without it no kernel W gets either message at the same
// 56 / 144 registers; scripts/ptxas_registers.py fails on both. Run 199: shifted_x<5> 9.12 -> 8.40 ms on L1-68. Session 27's estimate
// (math-bound) did not hold; run 187's ncu (tensor pipe 38 %, L2 78 %, stalls wait / barrier / long scoreboard
// about equal) names no single limit (notes/perf.md, Session 29).
// What both element widths and unit depths share: the block's warps and registers, and its tile's M and N.
struct WeightShiftedXShape {
  static constexpr int kRows = 3;                        // consumer warpgroups, one (kd, kh) row each
  static constexpr int kThreads = 128 * kRows;           // consumers
  static constexpr int kProducerThreads = 128, kRounders = 96;
  static constexpr int kBlockThreads = kThreads + kProducerThreads;
  // setmaxnreg: at 512 threads a block starts with 128 registers a thread. At 40 the producer's TMA lane spilled
  // 60-172 bytes (nvcc 13.0, kernel W 4-5); 56 / 144 compiles without spills (80 accumulators + 8 fragments).
  static constexpr int kProducerRegisters = 56, kConsumerRegisters = 144;
  static_assert(kProducerRegisters * kProducerThreads + kConsumerRegisters * kThreads <= 65536, "one block per SM");
  static constexpr int kBlockM = 64;                     // C_out channels (the wgmma's M)
  static constexpr int kNarrowDyChannels = 32;           // the narrow form's grad_output rows (WeightShiftedXTile)
  static constexpr int kBlockN = 32;                     // C_in channels per tap
  static constexpr int kMaxKernelW = 5;                  // W taps per block (wider kernels: shifted_x_w_groups)
  static constexpr int kBLeadingBytes = 128;             // the copies' next core matrix along K
  // The lean kernel's row slots per warpgroup (RowsWeightArgs::dy_slots, shifted_x_slots): C_out of at most 64 / slots
  // per group leaves most M rows of a warpgroup-wide grad_output row as padding, so each warp (or pair of warps) may
  // take a (kd, kh) row of its own, a block covering kRows x slots rows with one x window and its copies.
  static constexpr int kMaxDySlots = 4;
};
// The lean shifted-x kernel's row slots by rule (shifted_x_lean_slots): TF32 data pack up to this many grad_output rows
// per warpgroup where packing leaves fewer row tiles; elsewhere (one slot, 16-bit data) the measured kernel runs. Run
// 411 (H200, one build, TCONV_GRAD_WEIGHT_SHIFTED_X_LEAN 0 / 1 / 2 / 4, fwd+bwd ms, quick_timing): fam02 TF32 2.491 /
// 2.477 / **2.120** / 4.19 (two rounds alike), L1-68 TF32 20.81 / 20.53 / **19.63**; fam02 bf16 **2.236** / 2.345 /
// 2.748 / 3.62 (its split cap of 10 leaves a packed grad_weight 40 blocks on 132 SMs); fam07 bf16 8.872 / 8.727.
constexpr int kShiftedXLeanSlotsTf32 = 2;
// 16-bit data pack this many where the plan then orders its splits in several buffers (grad_weight_turn_buffer_rule).
// Run 415 (H200, one build, turn buffers as session 70 wrote them, LEAN unset / 4 / 2, fwd+bwd ms, quick_timing):
// fam02 bf16 1.996 / 1.803 / **1.786** (2.226 in one buffer).
constexpr int kShiftedXLeanSlots16 = 2;
// kElemBytes: 4 = fp32 data (TF32 mode, m64nNk8 steps, copies rounded to TF32), 2 = fp16/bf16 (m64nNk16 steps, copies
// that need no rounding). kUnitK: grad_output positions per unit (a pipeline stage), 16 or 32.
// fp32: the x window from j0 + p - 4 - e (16-byte aligned start, 0 <= e <= 3), kUnitK + 8 wide: taps 0..4 at any e;
// four copies (x shifts mod 4) of kUnitK + 4 positions (one core matrix of shift); grad_output rows of kUnitK + 4
// floats, so that the fragment loads (rows gid, columns tig) hit banks (kUnitK + 4) r + c, distinct.
// 16-bit: a 16-byte core matrix holds 8 positions, so the taps' shifts 0..4 need one copy each (kCopies = kMaxKernelW)
// and every tap reads its copy from K core 0: the pairs are m64n64k16 over copies (0, 1) and (2, 3), a fifth tap
// m64n32k16 on copy 4. The window from j0 + p - 4 - e (0 <= e <= 7), kUnitK + 16 wide (a copy's piece at K core mq
// reads the window's 16-byte words mq .. mq + 2); grad_output rows of kUnitK + 8 elements (a flat row's shift of up to
// 7; 16-byte multiples as TMA boxes need; the fragments' 32-bit words hit banks (kUnitK / 2 + 4) r + c, distinct).
// Stages: as many as fit, except fp32 at 16 (6, as measured since run 184; 8 would fit). 16-bit data also has a unit of
// 48 (5 stages of 40 KB; the rule: kShiftedXUnit48MaxPadding): a third fewer units than 32 at the same padded
// positions for most W_out (L1-68's 68: 2 x 48 against 3 x 32; L2-61's 34: 1 x 48 against 2 x 32), where run 231
// counted ~2540 cycles per unit of 32 against ~290 of MMAs on L2-61 bf16.
// kDyChannels: the grad_output rows' channels per stage slot, kBlockM, or 32 in the narrow form (fp32 data, at most
// 32 output channels per group: shifted_x_narrow_rows; run 435: L1-71 TF32 fwd+bwd 2.426 -> 2.162 ms). The
// consumers' m64 stays; the rows past 32 are not stored, so their fragments may read whatever follows (the next slot,
// stage or the copies). Why: L1-71 TF32's stages are 51.2 KB at unit 32, 4 of them, and the sliding rows hold a stage
// 2 units past its load, so the producer runs one unit ahead of the consumers (run 434's ncu: tensor pipe 30 %,
// long-scoreboard stalls first, most likely the mbarrier waits); with 32-channel rows a stage is 37.4 KB and 6 fit: 3
// units ahead.
// kRingSlots (the row ring, fp32 data at a unit of 32 only; shifted_x_row_ring): > 0 keeps the grad_output rows out
// of the stages, in a ring of that many row slots of their own, each released when the last unit that reads it ends,
// while a stage (the x window and its copies) is released as soon as its unit ends. Why: L2-61 TF32's grad_weight
// (swapped: 64 x channels as the rows) runs this kernel at unit 32 in 4 stages of 51.2 KB, too few to slide (sliding
// holds a stage 2 units past its load: kShiftedXSlideMinStages), so each unit loads its 3 rows (27.6 KB of its 32.6
// KB of boxes; ~7.2 GB a pass, 3.6 TB/s out of L2 at 2.03 ms). With the ring a stage is 23 KB: 6 stages and 9 row
// slots fit, the rows slide, and a steady unit loads one row (14.3 KB of boxes).
template <int kElemBytes, int kUnitK, int kDyChannels = WeightShiftedXShape::kBlockM, int kRingSlots = 0>
struct WeightShiftedXTile : WeightShiftedXShape {
  static_assert((kElemBytes == 4 || kElemBytes == 2) &&
                    (kUnitK == 16 || kUnitK == 32 || (kUnitK == 48 && kElemBytes == 2)),
                "the instantiated tiles");
  static_assert(kDyChannels == kBlockM || (kDyChannels == kNarrowDyChannels && kElemBytes == 4),
                "the narrow rows: fp32 only");
  static_assert(kRingSlots == 0 ||
                    (kElemBytes == 4 && kUnitK == 32 && kDyChannels == kBlockM && kRingSlots >= kRows * kRows),
                "the row ring: fp32 at a unit of 32, wide rows, room for kRows units of kRows rows (release_lag < kRows)");
  static constexpr bool kNarrowRows = kDyChannels != kBlockM;
  static constexpr bool kRowRing = kRingSlots > 0;
  static constexpr int kBlockK = kUnitK;
  static constexpr int kAlign = 16 / kElemBytes;                        // elements per 16 bytes
  static constexpr int kCopies = kElemBytes == 4 ? 4 : kMaxKernelW;
  static constexpr int kXBoxW = kElemBytes == 4 ? kUnitK + 8 : kUnitK + 16;
  static constexpr int kDyBoxW = kElemBytes == 4 ? kUnitK + 4 : kUnitK + 8;
  static constexpr int kCopyK = kElemBytes == 4 ? kUnitK + 4 : kUnitK;
  static constexpr int kCopyCores = kCopyK / kAlign;
  static constexpr int kXElems = kBlockN * kXBoxW;
  static constexpr int kDyElems = kDyChannels * kDyBoxW;
  static constexpr int kStageElems = kXElems + (kRowRing ? 0 : kRows * kDyElems);  // one unit's boxes (TMA)
  static constexpr int kCopyElems = kCopies * kBlockN * kCopyK;         // [copy][n / 8][K core][8][kAlign]
  static constexpr int kStageBytes = (kStageElems + kCopyElems) * kElemBytes;
  static constexpr int kRingElems = kRingSlots * kDyElems;
  // The ring's channels-last form (shifted_x_grad_weight's kChannelsLast): a grad_output row lands as kUnitK positions
  // of kChannelsLastDyPitch channels, its box reaching 8 channels past the tile's (zeros past the tensor, another
  // tile's channels inside it, read by no fragment), so that a fragment's four positions (tig) fall 8 banks apart and
  // its eight rows (gid) one apart: conflict-free, as kDyBoxW makes the channel-major rows. The same slot size.
  static constexpr int kChannelsLastDyPitch = kDyChannels + 8;
  static_assert(!kRowRing || kChannelsLastDyPitch * kUnitK == kDyElems, "a channels-last row fills a ring slot");
  static constexpr int kStages = kElemBytes == 4 && kUnitK == 16 && !kNarrowRows
                                     ? 6
                                     : (227 * 1024 - 256 - kRingElems * kElemBytes - kRingSlots * 8) /
                                           (kStageBytes + (kRowRing ? 3 * 8 + 2 * 4 : 0));
  static constexpr int kBStrideBytes = kCopyCores * 128;
  // the stages, their three barriers each, each stage's flat x window offset (RowsWeightArgs::x_flat), and the ring's
  // rows, their barriers and each stage's first ring slot
  TCONV_TILE_FN int shared_bytes() {
    return kStages * kStageBytes + 3 * kStages * 8 + kStages * 4 + kRingElems * kElemBytes + kRingSlots * 8 +
           (kRowRing ? kStages * 4 : 0);
  }
  static_assert(kDyBoxW >= kBlockK + kAlign - 1 && (kDyBoxW * kElemBytes) % 16 == 0, "a flat row's shift; box rows");
  static_assert((kDyBoxW * kElemBytes / 4) % 8 == 4, "conflict-free fragment rows");
  static_assert((kXElems * kElemBytes) % 128 == 0 && (kDyElems * kElemBytes) % 128 == 0 &&
                    (kStageElems * kElemBytes) % 128 == 0 && (kCopyElems * kElemBytes) % 128 == 0,
                "TMA boxes and copies land 128-byte aligned");
  static_assert((kDyElems / kMaxDySlots * kElemBytes) % 128 == 0, "packed row slots' boxes land 128-byte aligned");
  static_assert(shared_bytes() <= 227 * 1024, "within the opt-in maximum");
};

// The row ring's slots (WeightShiftedXTile's kRingSlots): kRows x kRows, the most rows that kRows units (a unit and
// the release_lag <= kRows - 1 units before it whose rows it may still read) can hold; 9 x 9.2 KB beside 6 stages.
constexpr int kShiftedXRingSlots = 9;
// The shifted-x kernel slides its grad_output rows along a sweep (a warpgroup reads the row the next one loaded units
// earlier: up to a third of the row loads) only with at least this many stages: sliding holds a stage up to 2 units
// past its load (3 rows a tile), which leaves the producer of fp32 data at unit 32 in wide rows (4 stages of 51.2 KB)
// one unit ahead. Run 436 (H200, TF32 fwd+bwd ms, sliding / not): with 4 stages fam01 11.323 / 10.946, fam05 5.312 /
// 4.847, fam06 6.451 / 6.188, fam03 6.931 / 6.472; with 6 (unit 16 or the narrow rows) L1-68 20.505 / 21.381, L2-61
// 4.592 / 4.822, fam02 2.095 / 2.361, L1-71 2.163 / 2.212, fam11 4.129 / 4.138. bf16 (8 stages at unit 32): L2-61
// 2.770 / 2.991, fam02 1.797 / 2.243, fam01 6.807 / 6.750, L1-68 13.044 / 13.004, L1-71 and fam05 within 0.2 %.
constexpr int kShiftedXSlideMinStages = 6;

// The shifted-x kernel's unit (WeightShiftedXTile's kUnitK): 32 grad_output positions halve the per-unit steps
// (barriers, fences, waits) and cut the TMA rows' sectors per position by a quarter against 16, but a W_out just past a
// multiple of 32 computes more padding. Run 212 (H200, one build, TCONV_GRAD_WEIGHT_SHIFTED_X_UNIT=16 / 32 in
// alternating processes, fwd+bwd): bf16 L1-68 (W_out 68: 96 positions against 80) 17.09 -> 14.74 ms; TF32 L1-68
// 21.78-21.97 -> 22.09-22.10 (a loss); TF32 L1-71 (W_out 1026: 1056 against 1040) 3.378 -> 3.128. So 16-bit data take
// 32 always (the per-unit steps bound their kernel most: run 211, ~7.5 ms on L1-68 against TF32's 8.4 at half the
// bytes), fp32 where 32 computes at most this factor of the positions 16 would (between L1-71's 1.015 and L1-68's 1.2;
// untimed between).
constexpr double kShiftedXUnit32MaxPadding = 1.05;
// 16-bit data take the unit of 48 where it computes no more positions than 32 (W_out 34, 68, 260: yes; 64: no, 96
// against 64) and grad_output comes through a tensor map (not copied rows). Run 242 (H100, one build,
// TCONV_GRAD_WEIGHT_SHIFTED_X_UNIT=0 (32) / 48 in alternating processes, bf16 fwd+bwd ms, two rounds): L2-61
// 4.034-4.061 -> 3.458-3.479, L1-68 14.40-14.50 -> 13.90, fam06 5.15-5.22 -> 5.00-5.07, fam03 6.07 -> 5.88-5.97,
// fam02 2.71-2.73 -> 2.35-2.37; copied rows lose: L1-71 (W_out 1026, 1056 positions either way) 3.35-3.37 -> 3.46.
// Untimed: W_out where 48 computes more positions in fewer units (100: 144 in 3 against 128 in 4), so the factor is 1.
constexpr double kShiftedXUnit48MaxPadding = 1.0;
// The shifted-x kernel's cost of a unit in grad_output positions: its positions plus a fixed part (barriers, waits,
// the copies' set-up) worth ~32 positions, from run 242's L2-61 (bf16 grad_weight's share of 4.05 -> 3.47 ms fwd+bwd
// for two units of 32 against one of 48: 2 (32 + c) = 1.6 (48 + c)). It ranks the two ways of a swapped grad_weight
// (grad_weight_swaps): the swapped way runs where its tiles x units x (unit + this) are below kGradWeightSwapMaxWork
// of the other's. Counts (plain / swapped) and run 399 (H200, one build, TCONV_GRAD_WEIGHT_SWAP=0 / 1, bf16 fwd+bwd
// ms, two rounds): fam07 (48 -> 24 channels, W 96 -> 98) 113 M / 37 M, 15.54-15.55 / 10.16-10.23; fam03 31.5 M /
// 26.8 M, 5.108-5.109 / 4.569-4.571; L2-61 15.7 M / 14.2 M, 2.980-2.986 / 2.767-2.769. The count under-rates the
// swapped way on all three (run 400 set the bound to 1 for 3D kernels only). fam02 (32 -> 16, k 3 x 5 x 7) counts
// 13.1 M / 13.3 M in bf16 (stays plain) and 19.7 M / 13.3 M in TF32 (units of 16 against 32); L1-68 52 M / 92 M in
// bf16.
// Run 400 (the rule against TCONV_GRAD_WEIGHT_SWAP=0, fwd+bwd ms): fam02 TF32 2.534 / 3.331, bf16 2.279 / 2.280;
// fam07 TF32 (its plain way keeps the wgmma kernel: kGradWeightSwapOverWgmmaMaxWork) 14.661 / 19.560.
// Run 401 (TCONV_GRAD_WEIGHT_SWAP=0 / 1, fwd+bwd ms) on 2D rows, counts swapped / plain: TF32 fam06 (64 -> 128, W 256
// -> 260: units of 32 against 16) 0.64, 6.855 / 6.470; fam05 0.945, 5.295 / 5.252; fam01 0.972, 11.328 / 11.499; L1-71
// 0.973, 2.405 / 2.493 (its x' rows, 1026 wide, through the flat map); bf16 rows count 1.08-1.17 (the unit of 48 fits
// their plain W_out; L1-71 and fam01 run the unit-stride mma.sync grad_weight, unswapped). So the bound lies between
// L2-61 bf16's 0.903 (a win of 7 %) and fam05's 0.945 (level), one bound for 2D and 3D.
constexpr double kShiftedXUnitFixedPositions = 32.0;
constexpr double kGradWeightSwapMaxWork = 0.93;
// fp32 data whose plain way keeps the wgmma kernel (3D, > 32 input channels) run swapped on the shifted-x kernel
// where it counts below this share of the plain way's shifted-x plan. Run 225 had that plan lose 10-20 % of fwd+bwd at
// 1 (L2-61, fam03, fam07 TF32); run 401 (TCONV_GRAD_WEIGHT_SHIFTED_X_FP32_OVER_WGMMA=0 / 1, both swapped under 1, TF32
// fwd+bwd ms) had the swapped one win at L2-61's 0.50 (5.021 / 4.575) and fam03's 0.57 (7.379 / 6.897); fam07 counts
// 0.30. A line through those puts the break-even near 0.7.
constexpr double kGradWeightSwapOverWgmmaMaxWork = 0.65;

// Heuristic: the grad_weight GEMM's 32x64 tile is mostly padding when a group has few channels.
// Measured on an H200 (tconv bench, TF32, fwd+bwd, benchmarks/results/bench_20261121-122012 vs
// -122833): direct -> igemm grad_weight went 247 -> 121 ms on L1-68 (32x64 channels per group),
// 18.6 -> 12.4 ms on L1-71 (32x32), 41.8 -> 18.3 ms on L2-61 (64x128), but 12.0 -> 28.0 ms on
// L1-73 and 4.2 -> 9.7 ms on L1-72 (8x8 per group). The threshold sits between those.
constexpr long long kGradWeightIgemmMinChannelProduct = 256;

}  // namespace tconv

namespace tconv {

// The forward's W fold (conv_transpose_igemm.cu, fold_w): "auto" takes it where the folded GEMM does at most
// this much of the phases' work (the empty slots of the s x T tap grid times the extra rows of an output line).
// Run 39-40 (H200, scripts/fold_sweep.py, forward alone, fold vs not on the same tensors, TF32): with no extra
// work it won everywhere, HiFi-GAN k16 s8 5.17 -> 3.99 ms, 1D k8 s4 1.01 -> 0.79, 1D k4 s2 0.66 -> 0.58, U-Net
// k2 s2 0.43 -> 0.39, VAE 0.84 -> 0.76 (bf16 1.03-1.10x); it lost on DCGAN's 16-wide lines (k4 s2 p1: 17 rows
// for 16 positions' worth, 0.50 -> 0.58), at 4/3 the MMAs (k3 s2: 0.90-1.00x) and at 2x (d2 s2: 0.80-1.00x).
constexpr double kFoldMaxWorkRatio = 1.03;
// fp32 data also folds where the folded GEMM is light per byte written (fold_tf32_flops_per_output_byte: TF32 FLOPs
// per output byte, 3xTF32 counting three), whatever its extra work: the phases' strided stores bound such shapes.
// Since session 24 a column tile need not hold whole channels, so any W stride folds. Run 166 (H200,
// scripts/fold_sweep.py, forward alone, TF32): fam13 (k3 s5 d2, C_in 32; 5/3 the MMAs at 9.7 FLOPs per byte)
// 1.305 -> 0.810 ms, fam12 (1D k3 s2 d2, 2x the MMAs, 48) 1.089 -> 1.002, fam10 (3D, 2x, 108) 0.812 -> 0.727; with
// no extra work at strides that divide no tile, 2D k3 s3 1.04x, 1D k6 s3 1.26x, 2D k5 s5 1.89x; DCGAN (1.06x the
// work, ~1090) 0.438 -> 0.489. Runs 39-40 had 4/3 the MMAs lose at 144-256 (k3 s2 with output padding: 0.90-1.00x).
// The bound sits between 108 and 144 (untimed inside). Run 167, exact fp32 (3xTF32): fam13 (29) 1.357 -> 0.718 ms;
// fam12 (144) 0.86x and fam10 (324) 0.67x folded, which counting three keeps on the phases.
// fp16/bf16 data keeps the work-ratio rule with whole channels per tile (use_fold): run 166 had every other bf16 fold
// slower, fam13 0.710 -> 0.836 ms, fam12 0.67x, fam10 0.63x, 2D k3 s3 0.239 -> 0.342 (only 2D k5 s5 gained, 1.09x).
constexpr double kFoldMaxFlopsPerOutputByte = 120.0;
// TF32 forwards with a shallow GEMM K (input channels per group x the phase's taps, after the fold) whose columns the
// wgmma tile does not divide run on the mma.sync kernel, whose 64-column tiles waste less of them
// (gather_takes_shallow_mma_sync). With one or two K blocks a block loads, multiplies and stores, and the wgmma
// tiles' one block per SM (221 registers on fam13's 256-column tile, 11.7 % occupancy in run 375's ncu) leaves the
// stores nothing to hide under. Runs 376-377 (H200, scripts/gather_rule_sweep.py, forward alone, TF32 ms, wgmma vs
// mma.sync; columns = output channels x the W fold):
//   columns the wgmma tile pads:   fam13 (k3 s5 d2, C_in 32, 320 columns) 0.806 vs 0.669, C_in 16 0.808 vs 0.669,
//     C_in 64 (K 64) 0.829 vs 0.724, 160 columns 0.517 vs 0.391, 640 columns 1.432 vs 1.327;
//     1D k3 s3 C_in 32 (192 columns) 1.500 vs 1.246
//   columns it divides (K 16-64):  2D k2 s2 128 columns 0.197 vs 0.194, 256 0.285 vs 0.380, 512 0.149 vs 0.192;
//     1D k4 s4 256 columns 1.093 vs 1.586; 3D k2 s2 64 columns 0.188 vs 0.192, 128 0.372 vs 0.372,
//     256 0.149 vs 0.195; 2D k2 s2 C_in 64 0.214 vs 0.233 (run 376)
// Not timed above K 64. bf16 keeps wgmma: fam13 0.708 vs 0.709 (run 376).
constexpr int kGatherMmaSyncMaxK = 64;

// The W-tap window (conv_transpose_igemm.cu, use_window) on W-strided forwards whose phase (or fold) has three W taps
// at consecutive shifts (span 2: k3 at stride 2 and dilation 2): "auto" keeps it only from this many input channels
// per group. Run 372 (H200, scripts/gather_rule_sweep.py, the forward alone, window / no window, ms): fam10 (3D, C 32)
// TF32 0.733 / 0.709, bf16 0.544 / 0.519; fam12 (1D, C 32) 0.770 / 0.750 bf16, 1.003 / 0.969 TF32 (the fold's taps);
// 1D C 64 0.620 / 0.617, 0.469 / 0.443; 1D C 128 0.733 / 0.774, 0.548 / 0.555 (the window wins). At stride 1 the window
// won at 32 channels with span 4 (k3 d2: 0.208 / 0.223, bf16 0.186 / 0.203) and, in run 34, on L2-61's 64 (span 2),
// so the bound is for W-strided calls only. run 371's autotune sweep picked "igemm_nowindow" on fam10 and fam12 alone.
constexpr int kWindowSpan2MinChannels = 128;

}  // namespace tconv

namespace tconv {

// grad_input over grad_output strips (Hopper, TF32 mode; conv_transpose_igemm.cu, strip_grad_input). Where the W
// stride s is a multiple of 8 and the W kernel is T whole strides (HiFi-GAN's k16 s8: T = 2), tap s t + r of input
// position u reads grad_output at s (u + t) - p + r: row u + t of the "strip" whose row v holds the s values from
// s v - p. One channel's rows are one contiguous range of grad_output, so a stage copies it with 16-byte copies
// (the gather tile copies 4 bytes per 32-byte sector there: runs 94-95) and reads each row for all T taps.
// The GEMM is transposed against the gather kernels': M = input channels (the packed weights, wgmma's A from
// shared memory), N = positions (the strips, B), K = channels x T x s, both operands K-major in 8 x 16-byte core
// matrices. The strips are kept as 16-byte columns ([column][row][4 floats]): a tap's shift of one row is a
// 16-byte descriptor offset, and the next K half (the next column) is one column further.
// Measured (H200, TF32, HiFi-GAN's grad_input, 550 GFLOP, profiler): the phase-split gather 8.16 ms (run 101); this
// tile 3.18 ms with cp.async strips rounded in place (run 120: 37 % tensor-pipe activity, 16 % of the stall
// samples on the rounding's shared loads, run 123), 1.80 ms (306 TF/s) with the strips loaded into registers one
// iteration ahead and stored rounded (run 124). cuDNN's fprop for the same GEMM: 1.31 ms (run 101).
struct StripGradInputTile {
  static constexpr int kThreads = 256;  // two warpgroups, each 64 input channels x all kBlockN positions; all copy
  static constexpr int kBlockM = 128;   // input channels
  static constexpr int kBlockN = 256;   // positions (wgmma m64n256k8)
  static constexpr int kStageK = 32;    // channels per stage x T x s: T s divides 32
  static constexpr int kMaxTaps = 4;    // T
  static constexpr int kRows = 264;     // strip rows per column: kBlockN + kMaxTaps - 1, rounded up to 8
  static constexpr int kStageAFloats = kBlockM * kStageK;
  // Columns per stage are 8 / T (channels per stage x s / 4); 6 stages where they fit (T >= 2), else 4.
  static constexpr int kColumnFloats = kRows * 4;
  template <int kTaps>
  static constexpr int kStageFloats = kStageAFloats + 8 / kTaps * kColumnFloats;
  static constexpr int kDeepStages = 6, kShallowStages = 4;
  static_assert(kRows >= kBlockN + kMaxTaps - 1 && kRows % 8 == 0, "every shifted row inside the column");
};

// The strip grad_input on fp16/bf16 data as they are (k16 wgmmas): a 16-byte column holds 8 phases, so a stage's
// bytes hold twice the K values (64: channels x T x s), in the same 8 / T columns ([channel][s / 8 phase groups]).
// k16 step j reads the column pair 2 (j / T), 2 (j / T) + 1 (its two K halves, one column apart as in the fp32
// form) from row t = j % T. K value k of a stage is column 2 (k / 16 / T) + k % 16 / 8: stage channel column /
// (s / 8), W tap s t + 8 (column % (s / 8)) + k % 8. The packing (A) and the kernel's B offsets both read these.
struct StripK16Value {
  int channel, tap;  // channel within the stage; W tap s t + r
};
TCONV_TILE_FN int strip_k16_step_column(int step, int taps) { return 2 * (step / taps); }
TCONV_TILE_FN int strip_k16_step_row(int step, int taps) { return step % taps; }
TCONV_TILE_FN StripK16Value strip_k16_value(int k, int taps, int stride_w) {
  const int step = k / 16, column = strip_k16_step_column(step, taps) + k % 16 / 8, columns = stride_w / 8;
  return {column / columns, stride_w * strip_k16_step_row(step, taps) + 8 * (column % columns) + k % 8};
}
// HiFi-GAN's s 8, T 2 (4 channels a stage): K value 27 is step 1 (row 1), column 1 (channel 1), tap 8 + 3; s 16,
// T 1: K value 57 is step 3, column 7, channel 3, tap 8 + 1.
static_assert(strip_k16_value(27, 2, 8).channel == 1 && strip_k16_value(27, 2, 8).tap == 11 &&
                  strip_k16_value(57, 1, 16).channel == 3 && strip_k16_value(57, 1, 16).tap == 9,
              "strip_k16_value");

// The packed wgmma operands of the strip kernels (A of the 1D strip kernels, B of the unit-stride forward): per tile
// of tile_rows rows and per stage of stage_k K values, [k step][8-row group][K half][8 rows][E K], the no-swizzle
// K-major core matrices that wgmma_smem_descriptor's defaults read (next K half 128 bytes on, next 8 rows 256), with
// E = 4 fp32 values (k8 steps) or 8 fp16/bf16 ones (k16 steps: the same bytes). Element idx of a [tiles][stages][...]
// buffer is row `row` of tile `tile` at K value `k` of stage `stage`.
struct PackedStripIndex {
  int64_t tile, stage;
  int row, k;
};
TCONV_TILE_FN PackedStripIndex packed_strip_index(int64_t idx, int tile_rows, int stage_k, int64_t stages,
                                                  int group_elems = 4) {
  const int e = group_elems, step_k = 2 * group_elems;
  const int within = int(idx % (int64_t(tile_rows) * step_k));  // within one k step of the tile
  const int64_t steps = idx / (int64_t(tile_rows) * step_k);
  const int64_t stage_of_tile = steps / (stage_k / step_k);
  return {stage_of_tile / stages, stage_of_tile % stages, within / (16 * e) * 8 + within / e % 8,
          int(steps % (stage_k / step_k)) * step_k + within / (8 * e) % 2 * e + within % e};
}
// 64-row tiles: fp32 element 301 = 4 x 64 + 32 + 3 x 4 + 1 is row group 4, K half 1, row 3, K 1; 16-bit element
// 333 = 2 x 128 + 64 + 1 x 8 + 5 is row group 2, K half 1, row 1, K 5.
static_assert(packed_strip_index(301, 64, 16, 1).row == 35 && packed_strip_index(301, 64, 16, 1).k == 5 &&
                  packed_strip_index(333, 64, 32, 1, 8).row == 17 && packed_strip_index(333, 64, 32, 1, 8).k == 13,
              "packed_strip_index, fp32 and 16-bit");

// A GEMM row q >= 0 as mixed-radix coordinates (outer, i0, i1, i2), i2 fastest, radices size0, size1, size2 > 0: the
// gather GEMMs' (image, d, h, w) rows and the unit-stride forward's (n, od, oh, row within the line). Rows below 2^32
// divide in 32 bits: a 64-bit division is a called routine of ~70-100 instructions, and run 155 counted them as a
// quarter of L1-68's unit-stride forward (the 32-bit form took it from 6.91 to 6.46 ms in run 156).
struct RowCoords {
  int64_t outer;
  int i0, i1, i2;
};
TCONV_TILE_FN RowCoords decode_row(int64_t q, int size0, int size1, int size2) {
  if (q <= int64_t(UINT32_MAX)) {
    const uint32_t u = uint32_t(q), q2 = u / uint32_t(size2), q1 = q2 / uint32_t(size1), q0 = q1 / uint32_t(size0);
    return {int64_t(q0), int(q1 - q0 * uint32_t(size0)), int(q2 - q1 * uint32_t(size1)),
            int(u - q2 * uint32_t(size2))};
  }
  const int64_t q2 = q / size2, q1 = q2 / size1, q0 = q1 / size0;
  return {q0, int(q1 - q0 * size0), int(q2 - q1 * size1), int(q - q2 * size2)};
}
// Both paths against the nested division they replace: q = ((outer s0 + i0) s1 + i1) s2 + i2.
static_assert(decode_row(((int64_t(5) * 7 + 3) * 11 + 10) * 13 + 12, 7, 11, 13).outer == 5 &&
                  decode_row(((int64_t(5) * 7 + 3) * 11 + 10) * 13 + 12, 7, 11, 13).i0 == 3 &&
                  decode_row(((int64_t(5) * 7 + 3) * 11 + 10) * 13 + 12, 7, 11, 13).i1 == 10 &&
                  decode_row(((int64_t(5) * 7 + 3) * 11 + 10) * 13 + 12, 7, 11, 13).i2 == 12,
              "decode_row, 32-bit path");
static_assert(decode_row(((int64_t(40000) * 66 + 65) * 68 + 1) * 72 + 71, 66, 68, 72).outer == 40000 &&
                  decode_row(((int64_t(40000) * 66 + 65) * 68 + 1) * 72 + 71, 66, 68, 72).i0 == 65 &&
                  decode_row(((int64_t(40000) * 66 + 65) * 68 + 1) * 72 + 71, 66, 68, 72).i1 == 1 &&
                  decode_row(((int64_t(40000) * 66 + 65) * 68 + 1) * 72 + 71, 66, 68, 72).i2 == 71,
              "decode_row, 64-bit path (q > 2^32)");
static_assert(decode_row(int64_t(UINT32_MAX), 1000, 1000, 1000).outer == 4 &&
                  decode_row(int64_t(UINT32_MAX), 1000, 1000, 1000).i0 == 294 &&
                  decode_row(int64_t(UINT32_MAX), 1000, 1000, 1000).i1 == 967 &&
                  decode_row(int64_t(UINT32_MAX), 1000, 1000, 1000).i2 == 295, "decode_row at 2^32 - 1");

// n / d for any 32-bit n and d >= 1 by a multiply-high, an add and a shift (Granlund and Montgomery's round-up
// method: l = ceil(log2 d), mul = floor(2^32 (2^l - d) / d) + 1, n / d = (mulhi(n, mul) + n) >> l, the sum in 64
// bits). Why: a runtime 32-bit division is ~20 instructions with a MUFU reciprocal, and the unit-stride forward's
// block set-up chains them (decode_row's three per row, four rows, and the tap hulls' divisions by the dilation):
// run 385's source page had the set-up at 10.3 % of fam04's forward, its stalls "wait" and "short scoreboard".
struct FastDivisor {
  uint32_t mul = 1, shift = 0;
};
TCONV_TILE_FN FastDivisor fast_divisor(uint32_t d) {
  uint32_t l = 0;
  while (l < 32 && (uint64_t(1) << l) < d) ++l;
  FastDivisor f;
  f.mul = uint32_t((uint64_t(1) << 32) * ((uint64_t(1) << l) - d) / d + 1);
  f.shift = l;
  return f;
}
TCONV_TILE_FN uint32_t fast_div(uint32_t n, FastDivisor f) {
  const uint32_t t = uint32_t((uint64_t(n) * f.mul) >> 32);
  return uint32_t((uint64_t(t) + n) >> f.shift);
}
// Spot checks at the edges (d = 1, powers of two, 3, 7, a prime near 2^16, 2^32 - 1; n = 0, d - 1, d, UINT32_MAX);
// tests/test_fast_divisor_cpu.py checks the same formula over random and edge operands in Python.
static_assert(fast_div(UINT32_MAX, fast_divisor(1)) == UINT32_MAX && fast_div(0, fast_divisor(1)) == 0 &&
                  fast_div(UINT32_MAX, fast_divisor(2)) == UINT32_MAX / 2 && fast_div(1, fast_divisor(2)) == 0 &&
                  fast_div(UINT32_MAX, fast_divisor(3)) == UINT32_MAX / 3 && fast_div(2, fast_divisor(3)) == 0 &&
                  fast_div(3, fast_divisor(3)) == 1 && fast_div(UINT32_MAX, fast_divisor(7)) == UINT32_MAX / 7 &&
                  fast_div(UINT32_MAX, fast_divisor(65521)) == UINT32_MAX / 65521 &&
                  fast_div(65520, fast_divisor(65521)) == 0 && fast_div(65521, fast_divisor(65521)) == 1 &&
                  fast_div(UINT32_MAX, fast_divisor(65538)) == UINT32_MAX / 65538 &&
                  fast_div(UINT32_MAX - 1, fast_divisor(UINT32_MAX)) == 0 &&
                  fast_div(UINT32_MAX, fast_divisor(UINT32_MAX)) == 1 &&
                  fast_div(UINT32_MAX, fast_divisor(1u << 31)) == 1 &&
                  fast_div(123456789, fast_divisor(1000)) == 123456,
              "fast_div");
// decode_row's radices as fast divisors (the host sets them once per call).
struct RowDivisors {
  FastDivisor size0, size1, size2;
};
inline RowDivisors row_divisors(int size0, int size1, int size2) {
  return {fast_divisor(uint32_t(size0)), fast_divisor(uint32_t(size1)), fast_divisor(uint32_t(size2))};
}
// decode_row with the 32-bit path's divisions as fast_div; rows past 2^32 divide as decode_row does.
TCONV_TILE_FN RowCoords decode_row(int64_t q, int size0, int size1, int size2, const RowDivisors& by) {
  if (q <= int64_t(UINT32_MAX)) {
    const uint32_t u = uint32_t(q), q2 = fast_div(u, by.size2), q1 = fast_div(q2, by.size1),
                   q0 = fast_div(q1, by.size0);
    return {int64_t(q0), int(q1 - q0 * uint32_t(size0)), int(q2 - q1 * uint32_t(size1)),
            int(u - q2 * uint32_t(size2))};
  }
  return decode_row(q, size0, size1, size2);
}
static_assert(decode_row(int64_t(UINT32_MAX), 1000, 1000, 1000,
                         RowDivisors{fast_divisor(1000), fast_divisor(1000), fast_divisor(1000)}).i1 == 967 &&
                  decode_row(((int64_t(5) * 7 + 3) * 11 + 10) * 13 + 12, 7, 11, 13,
                             RowDivisors{fast_divisor(7), fast_divisor(11), fast_divisor(13)}).outer == 5 &&
                  decode_row(((int64_t(5) * 7 + 3) * 11 + 10) * 13 + 12, 7, 11, 13,
                             RowDivisors{fast_divisor(7), fast_divisor(11), fast_divisor(13)}).i2 == 12,
              "decode_row by fast divisors");

// The forward at unit stride (conv_transpose_igemm.cu, strip_forward's second form; Hopper, TF32 mode): stride 1 in
// D, H and W, W dilation 1, a W kernel of T = 3, 5 or 7 taps, any D/H kernel, dilation and padding. Output position
// ow of a line reads x at ow + p - t through W tap t. Lay every output line out as W_out + T - 1 rows, one after the
// other over (n, od, oh): then output row R reads, through tap t, the "padded input row" R + T - 1 - t, which lies
// in the same line, holding x at position R % (W_out + T - 1) + p - (T - 1) of the line's input line for the
// block's (kd, kh). One GEMM: M = those rows (A: x transposed into input-channel quads, the 16-byte K groups, so a
// tap is a row offset of A's descriptor and one copy of x serves all T taps), N = output channels (B: the weights,
// packed per (kd, kh)), K = (kd, kh) x input channels x T, in stages of one (kd, kh) and kChannels channels. The
// T - 1 rows a line adds are computed and dropped: 4 / 72 of L1-68's, 2 / 36 of L2-61's. The rows of a block span
// lines, so short lines (L2-61's 34 outputs) fill the 256-row tile. Versus the 1D strip forward, the roles of the
// operands swap (there M = C_out s): at stride 1 C_out is the short side (24-128 in the suite), and wgmma's N takes
// any multiple of 8 where M comes in 64s.
// UnitStrideTile<...> is the block shape; StripUnitStrideForwardTile (below) is the default one, and
// StripUnitStrideForwardHalfTile the two-blocks-per-SM one.
template <int kBlockM_, int kThreads_, int kSharedKiB, int kBlocksPerSm_, int kMaxStageWeightBytes,
          int kChannels16Bit = 0>
struct UnitStrideTile {
  static constexpr int kThreads = kThreads_;  // one or two warpgroups of 128 rows each, one row per thread
  static constexpr int kBlockM = kBlockM_;
  static constexpr int kBlocksPerSm = kBlocksPerSm_;  // __launch_bounds__'s minimum: what registers must allow
  static constexpr int kMaxTaps = 7;
  static constexpr int kRows = (kBlockM + kMaxTaps - 1 + 7) / 8 * 8;  // x rows per quad column: kBlockM + T - 1
  static constexpr int kSharedBytes = kSharedKiB * 1024;  // per block; 227 KB is the opt-in maximum on sm_90
  // Not measured against other values here: the 256 x BN tile, kMaxStages and the 32 KB cap below follow the 1D strip
  // kernels' six-stage ring (run 124). Run 152 measured only the pipeline's groups in flight (two: 1-2 % faster).
  static constexpr int kMaxStages = 6;
  static_assert(kRows >= kBlockM + kMaxTaps - 1 && kRows % 8 == 0 && kThreads == kBlockM, "one row per thread");
  // Input channels per stage for fp32 data: 16 (two k8 steps per tap), 8 where a stage's weights would pass
  // kMaxStageWeightBytes (32 KB: 128 output channels at T = 5 or 7), so that four or more stages fit. fp16/bf16 data
  // (elem_bytes 2, k16 MMAs on the values as they are) take twice the channels in the same bytes: a stage's shared
  // memory, its 16-byte K groups (8 channels instead of 4) and its wgmma instructions are the fp32 stage's, each k16
  // MMA twice a k8's work. Sizes below are in 4-byte words whatever the data type.
  // kChannels16Bit, where nonzero, sets a 16-bit stage's channels instead (StripUnitStrideForwardHalfTile48).
  TCONV_TILE_FN int channels(int block_n, int taps, int elem_bytes = 4) {
    if (kChannels16Bit != 0 && elem_bytes == 2) return kChannels16Bit;
    return (block_n * 16 * taps * 4 <= kMaxStageWeightBytes ? 16 : 8) * 4 / elem_bytes;
  }
  TCONV_TILE_FN int group_channels(int elem_bytes = 4) { return 16 / elem_bytes; }  // channels per 16-byte K group
  TCONV_TILE_FN int weight_floats(int block_n, int taps, int elem_bytes = 4) {
    return block_n * channels(block_n, taps, elem_bytes) * taps * elem_bytes / 4;
  }
  TCONV_TILE_FN int stage_floats(int block_n, int taps, int elem_bytes = 4) {
    return channels(block_n, taps, elem_bytes) / group_channels(elem_bytes) * kRows * 4 +
           weight_floats(block_n, taps, elem_bytes);
  }
  // As many as fit, up to kMaxStages.
  TCONV_TILE_FN int stages(int block_n, int taps, int elem_bytes = 4) {
    return kSharedBytes / 4 / stage_floats(block_n, taps, elem_bytes) < kMaxStages
               ? kSharedBytes / 4 / stage_floats(block_n, taps, elem_bytes)
               : kMaxStages;
  }
  // Output channels per block: 32, 64 or 128, the least that holds C_out (tiles of 128 past that).
  TCONV_TILE_FN int block_n(long long c_out) { return c_out <= 32 ? 32 : c_out <= 64 ? 64 : 128; }
  // The tap-pairs form (32-channel tiles, two W taps as A's 64 rows): the packed weights' rows per tile and the K
  // groups per stage (tap pairs, an odd T's last one half zero) that channels/stage_floats/stages take.
  TCONV_TILE_FN int weight_rows(int block_n, bool tap_pairs) { return tap_pairs ? 64 : block_n; }
  TCONV_TILE_FN int k_taps(int taps, bool tap_pairs) { return tap_pairs ? (taps + 1) / 2 : taps; }
};
using StripUnitStrideForwardTile = UnitStrideTile<256, 256, 227, 1, 32 * 1024>;
static_assert(StripUnitStrideForwardTile::kRows == 264, "x rows per quad column as before the template");
// The wide-rows tile's warp-specialized form (unit_stride_specialized: fp32 data): one producer warpgroup more, each
// of its threads loading two x rows (r and r + 128) and the tail's, as two MMA threads load them in the other form.
// Not two producer warpgroups: at 512 threads a thread gets at most 128 registers, and ptxas refuses the m64n256
// wgmma below 154 (C7602, nvcc 13.0), setmaxnreg notwithstanding; at 384 the cap is 168 for both roles, so no
// registers are traded (ptxas: 154-168 registers, no spills). Run 537 (H200, TF32): L2-61's forward conv 0.981 ->
// 0.884 ms, fam06's forward 1.856 -> 1.702; run 538's ncu of L2-61's: tensor pipe 65.8 % (59 % before), long
// scoreboard (the producer's loads) 47.5 % of warp cycles.
struct StripUnitStrideSpecialized {
  static constexpr int kProducerThreads = 128, kRowsPerProducer = 2;
};
// Two blocks per SM: 128 rows, one warpgroup, at most 113 KB of shared memory and 255 registers a thread, so that one
// block's set-up, ring fill and store (run 385: 10.3 %, 16.6 % and 22.7 % of fam04's forward with one block per SM)
// overlap the other block's K loop. Stages of 8 channels where 16 would pass 16 KB of weights, so that four or more
// stages fit (run_strip_pipeline keeps two wgmma groups in flight). Fixed cost and cost per K (= C_in x taps) fitted
// over C_in (scripts/unit_stride_fixed_cost.py, run 389, H200, TF32 forward ms; 256-row tile -> this one):
//   fam01 (2D, 8 x 1024 x 1024, C_out 64, k3x3)   fixed 1.128 -> 0.671, per K 5.027 -> 5.350 us: wins to K ~1400
//     K 288 2.654 -> 2.554, K 576 4.124 -> 3.681, K 1152 6.634 -> 6.342, K 2304 12.82 -> 13.22
//   fam05 (C 64 -> 64, k3x7: K 1344)             1.489 -> 1.504
//   fam04 (1D, C_out 128, k3)                     fixed 1.064 -> 0.851, per K 3.206 -> 4.235 us: K 384 2.295 -> 2.499
//   fam06 (C_out 128, k3x5)                       fixed 0.646 -> 0.437, per K 1.351 -> 1.616 us: K 960 level
//   L2-61 (C 64 -> 128, k3x3x3: K 1728)           1.277 -> 1.368
// At 128 channels a k8 step's two m64n128 (the A halves) read 12 KB of shared memory per 262 KFLOP against the wide
// rows' 10, and the per-K cost grew 20-32 %; at 64 channels it grew 6 %. So "auto" takes it for fp32 weights-as-A
// tiles of 64 channels at K <= kMaxK only (the largest K measured to win). fp16/bf16 tiles of 64 channels at T 3 (its
// 16-bit kernels) win at every K measured, their per-K cost lower too (run 391, bf16 forward ms, 256-row tile -> this
// one; fam01's shape): fixed 0.905 -> 0.878 ms, per K 2.884 -> 2.569 us; K 288 1.811 -> 1.744, K 576 2.580 -> 2.336,
// K 1152 4.075 -> 3.649, K 2304 7.613 -> 6.881. So kMaxK16Bit bounds nothing.
// Lost and removed, 16-bit half-tile kernels beyond 64 channels at T 3 (run 394, bf16, quick_timing, two rounds each,
// the rule -> the half tile there; fwd and fwd+bwd ms): 128 channels as two m64 halves (kChannelHalves, as run 389's
// fp32 form) fam04 T 3 1.447 -> 1.681, 7.096 -> 7.569; fam06's forward (128, T 5) level, 1.194 -> 1.196; 64 channels
// at T 5 (fam06's grad_input) fwd+bwd 3.945 -> 4.165, at T 7 (fam05) 0.891 -> 0.960, 3.687 -> 3.849. Run 393's
// ncu had the 256-row tile's warps stalled on the stage barrier twice as long as the half tile's (fam01 bf16: 0.63
// against 0.31 cycles per issued instruction; fam04 bf16: 1.10). The 128-channel half tile cut fam04's barrier stall
// to 0.46, but its long-scoreboard stall rose 1.34 -> 2.04 and its tensor pipe fell 29.9 -> 25.2 %; at T 5 and 7 its
// 16 KB weight cap halves the channels per stage (16 against the 256-row tile's 32), doubling the steps per K.
using StripUnitStrideForwardHalfTile = UnitStrideTile<128, 128, 113, 2, 16 * 1024>;
struct StripUnitStrideHalfTileRule {
  static constexpr int kBlockN = 64;
  static constexpr long long kMaxK = 1152, kMaxK16Bit = 1LL << 62;
  // The tap-pairs form (32-channel tiles) takes the half tile at kTapPairsMinK <= K, and fp32 data also at K <=
  // kTapPairsMaxKFp32. quick_timing (H200), 256-row tile -> half tile, ms: run 405, fam07 (48 -> 24, K 1296) forward
  // bf16 4.827 -> 4.548, TF32 5.177 -> 4.923; fam02 (32 -> 16, k3x5x7, K 3360) forward bf16 0.497 -> 0.467, TF32
  // 0.708 -> 0.668, fwd+bwd 2.529 -> 2.492 (its grad_input, K 1680, in pairs too). Run 406, two rounds each: L1-68's
  // grad_input (64 -> 32, T 5, K 4800) fwd+bwd bf16 13.34 -> 12.94-13.10, TF32 20.92-21.03 -> 21.43-21.50 (the per-K
  // cost of fp32 half tiles grows, as at 64 channels above); fam11 (32 -> 32, K 672) level in both (forward bf16
  // 0.585, TF32 1.163-1.166); L1-71 bf16 (K 288) fwd+bwd 1.140-1.142 -> 1.150-1.154. Untimed between 672 and 1296
  // and between 3360 and 4800.
  static constexpr long long kTapPairsMinK = 1024, kTapPairsMaxKFp32 = 4096;
};
// 16-bit tap-pairs half tiles at T 3 whose C_in is a multiple of 48 but not of 32 (fam07's 48): stages of 48 channels
// (six K groups), where 32-channel stages leave a partial last stage of zeros (48 channels in 64: a quarter of the
// MMAs, and half the stages, of fam07's forward; run 404's ncu had it at 24 % tensor pipe, latency-bound, with the
// stage barrier 0.48 cycles per issued instruction). Four stages of 25 KB fit two blocks per SM (at T 5 and 7 only
// three would). The 64-channel weights-as-A tiles at T 3 (fam03's 48 -> 48, forward and grad_input) take them too,
// on the half tile, where only three 31 KB stages fit and so one wgmma group stays in flight; 256-row blocks
// (StripUnitStrideForwardTile48, five 43 KB stages) lose to it. Run 408 (H200, bf16, ms): fam07 forward 4.591 ->
// 3.48 (the tensor pipe was a quarter busy: stage count, not MMAs, set its time); fam03 forward 1.348 -> 1.231
// (256-row) and 1.040 (half tile). TCONV_UNIT_STRIDE_STAGE_48 (conv_transpose_igemm.cu) switches them for A/Bs.
// Untimed past C_in 48 (144: 3 stages of 48 against 5 of 32).
using StripUnitStrideForwardHalfTile48 = UnitStrideTile<128, 128, 113, 2, 16 * 1024, 48>;
using StripUnitStrideForwardTile48 = UnitStrideTile<256, 256, 227, 1, 32 * 1024, 48>;
static_assert(StripUnitStrideForwardTile48::stages(64, 3, 2) == 5 &&
                  StripUnitStrideForwardHalfTile48::stages(64, 3, 2) == 3,
              "the 64-channel 48-channel-stage tiles: five 256-row stages, three half-tile ones");
static_assert(StripUnitStrideForwardHalfTile48::channels(64, 2, 2) == 48 &&
                  StripUnitStrideForwardHalfTile48::channels(64, 2, 4) == 16 &&
                  StripUnitStrideForwardHalfTile48::stages(64, 2, 2) == 4 &&
                  StripUnitStrideForwardHalfTile48::stage_floats(64, 2, 2) * 4 == 6 * 136 * 16 + 64 * 48 * 2 * 2,
              "48-channel 16-bit stages: six K groups of 136 rows and 64 x 96 weights, four stages");
static_assert(StripUnitStrideForwardHalfTile::kRows == 136 &&
                  StripUnitStrideForwardHalfTile::stages(64, 3) * StripUnitStrideForwardHalfTile::stage_floats(64, 3) *
                          4 <= 113 * 1024 &&
                  StripUnitStrideForwardHalfTile::stages(64, 3) >= 4 &&
                  StripUnitStrideForwardHalfTile::stages(64, 5) >= 4 &&
                  StripUnitStrideForwardHalfTile::stages(64, 7) >= 4 &&
                  StripUnitStrideForwardHalfTile::stages(64, 3, 2) >= 4,
              "the half tile's planned shapes keep two wgmma groups in flight");
static_assert(StripUnitStrideForwardTile::stage_floats(128, 7, 2) == StripUnitStrideForwardTile::stage_floats(128, 7) &&
                  StripUnitStrideForwardTile::stage_floats(64, 3, 2) == StripUnitStrideForwardTile::stage_floats(64, 3),
              "a 16-bit stage is the fp32 stage's bytes");

// Where "auto" takes the forward and grad_weight strip kernels (one block per SM each): grids of at least these
// many blocks. Run 143 (H200, 132 SMs, scripts/strip_sweep.py at W stride 8, 16 and 32), each pass alone against
// the GEMM "auto" runs otherwise: the forward lost at 36 and 80 blocks (0.74x, 0.84x) and won from 144 (1.06x) to
// 8448 (1.67x); grad_weight lost at 16 blocks (0.65x, 0.58x: the workspace rule left one split) and won from 64
// (1.23x) up. The bounds sit between those points (untimed inside). grad_input has none: "auto"'s alternative
// there is the phase split, 5-10x slower than the strip kernel on the small shapes (run 144).
// The unit-stride forward (StripUnitStrideForwardTile) needs a long enough K loop instead (kD kH kW x C_in, the input
// channels rounded up to whole stages): a block's fill, tap set-up and stores are paid once per K loop. Run 150 (H200,
// scripts/unit_stride_sweep.py, the suite's 11 stride-1 forwards with a bias, against the gather GEMMs "auto" runs
// otherwise) had it win from K = 960 and lose at 288-672. Run 156, after the 32-bit descriptors and row decode (runs
// 155-156), moved the loss point down: it wins at 672 (fam11 1.11x) and from 960 up (fam06, fam05 at 1344, fam03 and
// fam07 at 1296, L2-61 1728, L1-68 2400, fam02 3360), is level at 576 (fam01 0.99x) and 384 (fam04 1.02x), and loses
// at 288 (L1-71 0.89x). Run 159, after the weights-as-A form for 64-channel tiles and uniform descriptors, moved it
// again: fam01 (576, 64 output channels) wins 1.16x (forward) and 1.12x (grad_input through the same kernel), fam04
// (384, 128 channels) loses 0.97x / 0.88x, L1-71 (288) 0.87x / 0.83x, everything from 672 up wins (grad_input 1.07x
// at fam11 to 2.42x at fam02). The bound sits between 384 and 576 (untimed inside; a 128-channel tile at 576 was
// level in run 156). Run 195, with the 32-channel tiles as tap pairs: L1-71 still loses, 0.94x forward and 0.91x
// grad_input, so the bound stays. It also takes the 1D form's grid bound (every suite shape has thousands of blocks; small grids
// are not measured for this form). grad_input at stride 1 takes the same rule on its own K (C_out kD kH kW).
// fp16/bf16 data (session 31, k16 MMAs: a 16-bit stage holds twice the channels in the fp32 stage's bytes) against
// the 16-bit gathers "auto" runs otherwise, run 206 (H200, bf16, scripts/unit_stride_sweep.py, the same 11 shapes):
// the form wins everywhere, forward 1.06x at fam04 (K 384), 1.19x fam06, 1.31x L2-61, 1.33x fam01, 1.43x fam05,
// 1.46x L1-71 (K 288), 1.48x fam07, 1.55x fam03, 1.76x L1-68 (7.35 -> 4.17 ms), 1.99x fam11, 2.98x fam02; grad_input
// 1.07x (fam04) to 2.18x (fam02). So 16-bit data take the least K measured, 288 (untimed below it); fp16 was timed
// on L1-68 only (1.78x forward, 1.85x grad_input). Run 203's TF32-on-widened-values form had lost from 64 channels.
// Run 367 (H200, ncu, TF32 forward of fam04, K 384, one launch each): the unit-stride form 2.36 ms against the
// mma.sync gather's 3.18 that "auto" ran (tensor pipe 36 % against 27 %), after the many changes to the form since
// run 159. So fp32 data take it from 384 (TCONV_UNIT_STRIDE_MIN_K_FP32 overrides the bound for A/B timings).
struct StripAutoRule {
  TCONV_TILE_FN int forward_min_blocks(int sm_count) { return sm_count; }
  TCONV_TILE_FN int unit_stride_forward_min_k(int elem_bytes = 4) { return elem_bytes == 2 ? 288 : 384; }
  TCONV_TILE_FN int grad_weight_min_blocks(int sm_count) { return sm_count / 6; }
};

// grad_weight over the same strips (conv_transpose_igemm.cu, strip_grad_weight): M = (output channel, W tap) rows,
// kBlockM / (T s) whole channels (A: the strips transposed, one copy per tap shift), N = input channels (B: the x
// tile), K = positions, kBlockK of one line per stage, split over the lines into weight-sized fp32 partial sums.
struct StripGradWeightTile {
  // Two warpgroups of kBlockM / 2 rows each (m64 halves), both over all kBlockN input channels. 256 x 128, not
  // 128 x 256: a strip row serves every tap, so A costs ~0.53 of B per row and the L2 bytes per MAC (the limit at
  // 72 % L2 throughput, run 133) are least near kBlockM = 2 kBlockN: 16.7 vs 20.7 KB per stage.
  // Its 16-byte cp.async.cg copies count one L2 sector per thread (run 379, ncu source counters: 32 per warp
  // instruction against an ideal 16; HiFi-GAN TF32: 543.7 M sectors, 18.65 GB of L2, 68 % L2 throughput). Through L1
  // (cp.async.ca, run 380, same build) the L2 saw 183.7 M sectors (7.13 GB, 17 %), but the kernel took 4.64 ms
  // against 3.88 and HiFi-GAN's fwd+bwd 8.77-8.82 against 7.99-8.06: the L2 was not its limit, so the copies bypass
  // L1.
  static constexpr int kThreads = 256;
  static constexpr int kBlockM = 256;
  static constexpr int kBlockN = 128;   // wgmma m64n128k8
  static constexpr int kBlockK = 16;  // positions per stage (32 spilled in the register-held form; untried since)
  // The strips' core matrices 144 bytes apart along K, not 128: a warp's transposed scalar stores then hit 32 banks,
  // not 8 (run 130, HiFi-GAN: 6.23 vs 6.26 ms, while per-stage index math dominated).
  static constexpr int kAQuadFloats = 36;
  // The k16 form (16-bit data as they are): A's core matrices are 8 rows x 8 positions (16-bit), kept the same 144
  // bytes apart (72 elements) as the fp32 form's quads; A and the x tile then fill half of an fp32 slot.
  static constexpr int kAOctetElems16 = 72;
  static constexpr int kXFloats = kBlockN * kBlockK;
  static constexpr int kSlotFloats = kXFloats + kBlockM / 8 * (kBlockK / 4) * kAQuadFloats;
  static constexpr int kSlots = 3;      // wgmma slots: one read, one in flight (stage - 1), one refilled (+1)
  static constexpr int kMaxRaw = 8;
  static constexpr int kSharedBytes = 227 * 1024;  // the opt-in maximum per block on sm_90
  TCONV_TILE_FN int strip_rows(int taps) { return kBlockK + taps - 1; }
  TCONV_TILE_FN int strip_copies(int stride, int taps) {
    return (kBlockM / (taps * stride) * strip_rows(taps) * (stride / 4) + kThreads - 1) / kThreads;
  }
  // The x copies by channel (conv_transpose_igemm.cu, StripWeightArgs::x_copy_by_channel): piece (channel c of a
  // warp's 8, position quad q) sits at 16-byte chunk x_raw_chunk(c, q) of the warp's 32, so that the four chunks one
  // copy request writes (one c, q = 0-3) and the eight one store phase reads (one q, c = 0-7) lie in distinct bank
  // groups (chunk % 8).
  TCONV_TILE_FN int x_raw_chunk(int c, int q) { return q * 8 + (c + 2 * q) % 8; }
  TCONV_TILE_FN bool x_raw_chunks_conflict_free() {
    for (int c = 0; c < 8; ++c)
      for (int q = 0; q < 4; ++q)
        for (int other = 0; other < 8; ++other) {
          if (other < 4 && other != q && x_raw_chunk(c, q) % 8 == x_raw_chunk(c, other) % 8) return false;
          if (other != c && x_raw_chunk(c, q) % 8 == x_raw_chunk(other, q) % 8) return false;
          if (x_raw_chunk(c, q) < 0 || x_raw_chunk(c, q) >= 32) return false;
        }
    return true;
  }
  // A raw stage: the x tile and each thread's strip pieces (16 bytes per copy), as cp.async leaves them.
  TCONV_TILE_FN int raw_floats(int stride, int taps) { return kXFloats + strip_copies(stride, taps) * kThreads * 4; }
  // As many raw stages as the shared memory left by the slots holds: every one is a stage of latency covered.
  TCONV_TILE_FN int raw_stages(int stride, int taps) {
    return (kSharedBytes / 4 - kSlots * kSlotFloats) / raw_floats(stride, taps) < kMaxRaw
               ? (kSharedBytes / 4 - kSlots * kSlotFloats) / raw_floats(stride, taps)
               : kMaxRaw;
  }
};
static_assert(StripGradWeightTile::x_raw_chunks_conflict_free(), "the by-channel x layout: distinct bank groups");

// The unit-stride mma.sync forward (conv_transpose_unit_stride_mma.cu) for few channels (C_in a multiple of kChannels,
// any C_out in tiles of 32), also grad_input at unit stride as the forward of grad_output. A tile is kRows output rows
// x kWarpM output positions x kBlockN output channels, one row per warp; K walks the (kh, kw) taps over a window of the
// input staged once per tile and kChannels-channel stage (position-major, kChannels channels per position, so every
// tap's A fragment is an ldmatrix at a shifted position), with all of the C_out tile's weights resident in shared
// memory for the block's life. Why these sizes (L1-71, C 32 -> 32, k3): a warp's 64 x 32 fragment keeps 64
// accumulators per thread, so two 256-thread blocks fit an SM's registers; the window (10 rows x 72 positions)
// costs 1.25 staged values per output position and tap row instead of 3. fp32 had 32-position warp tiles until
// session 47's patches (run 311: L1-71 TF32 forward 0.678 -> 0.642 ms at 64). Other sizes are unmeasured.
template <int kElemBytesArg>
struct UnitStrideMmaTile {
  static constexpr int kElemBytes = kElemBytesArg;
  static constexpr int kThreads = 256, kWarps = kThreads / 32;
  static constexpr int kRows = kWarps;                             // output rows per tile: one per warp
  static constexpr int kWarpM = 64;                                // output positions per warp (the tile's width)
  static constexpr int kMTiles = kWarpM / 16;
  static constexpr int kBlockN = 32;                               // output channels per tile (four n8 fragments)
  // Input channels per stage: 32 in 16-bit; 16 in fp32, so that the fp32 window and its raw copy take 23 KB each
  // at L1-71 (46 KB at 32) and two blocks fit an SM (97 KB each; 129.5 KB at 32 channels allowed one, and run 303's
  // ncu found that one block's 8 warps kept issue slots 29-35 % busy).
  static constexpr int kChannels = kElemBytes == 2 ? 32 : 16;
  static constexpr int kChunkElems = 16 / kElemBytes;              // elements per 16-byte chunk
  static constexpr int kPositionChunks = kChannels * kElemBytes / 16;  // 16-byte chunks per staged position
  static constexpr int kKSteps = kPositionChunks / 2;              // MMA K steps per tap and stage (two chunks each)
  // Staged output rows (one per channel) of a warp, in elements: the padding puts the four channels a quad stores
  // in distinct banks (16-bit: 144-byte rows; fp32: 144-byte rows).
  // fp32: the raw window is copied in kRawParts parts of its rows (one buffer of a part's rows), and each warp stages
  // its outputs in kOutHalves halves of its m-tiles, so that 64-position tiles fit two blocks per SM (L1-71: 100 KB;
  // whole, 150 KB). A 64-position warp tile loads 25 % fewer fragment bytes per MMA than a 32-position one (run
  // 307's ncu: ldmatrix was 57 % of the shared-memory wavefronts at 32).
  static constexpr int kRawParts = kElemBytes == 2 ? 1 : 2;
  static constexpr int kOutHalves = kElemBytes == 2 ? 1 : 2;
  static constexpr int kOutPitch = kWarpM / kOutHalves + (kElemBytes == 2 ? 8 : 4);
  static constexpr int kOutBytes = kWarps * kBlockN * kOutPitch * kElemBytes;
  // Two blocks per SM where the shared memory allows (L1-71: 111 KB each in 16-bit, 97 KB in fp32), so one block's
  // transpose and store overlap the other's MMAs; 128 registers per thread then.
  static constexpr int kBlocksPerSm = 2;
};

// Where "auto" takes the unit-stride mma.sync forward (and grad_input) over the other kernels, given that it can run.
// Run 282 (H200, one process, "auto" without it against it forced, fwd / fwd+bwd ms):
//   L1-71 (C 32 -> 32, k3)     bf16 0.957 / 3.297 -> 0.519 / 2.605   TF32 1.027 / 3.168 -> 1.180 / 3.861
//   fam11 (C 32 -> 32, k3x7)   bf16 1.077 / 3.420 -> 0.853 / 2.972   TF32 1.309 / 4.898 -> 1.606 / 5.531
//   fam01 (C 64 -> 64, k3)     bf16 2.605 / 10.29 -> 4.566 / 15.89   TF32 4.041 / 12.46 -> 8.384 / 24.38
//   fam05 (C 64 -> 64, k3x7)   bf16 0.930 / 4.503 -> 1.805 / 6.487   TF32 cannot run (shared memory)
// so 16-bit data with 32 channels on each side only: fp32 runs one block per SM at half the MMA rate and loses to the
// wgmma strip form; at 64 channels the window is staged once per 32-channel C_out tile and transposed per stage.
// Folded tiles (1D calls, unit_stride_mma_folds), run 286 (H200, same comparison, fwd / fwd+bwd ms):
//   fam08 (1D, C 32 -> 64, k5, dilation 3)  bf16 1.007 / 3.673 -> 0.681 / 2.968   TF32 1.137 / 3.690 -> 1.355 / 4.098
//   fam04 (1D, C 128 -> 128, k3)            bf16 1.504 / 7.298 -> 3.603 / 13.21   TF32 3.179 / 9.996 -> 10.02 / 27.41
// fam08's forward (32 -> 64) and its grad_input (64 -> 32 as a forward) both win, so folded tiles take up to 64
// channels on a side with at most 32 x 64 pairs; 64 x 64 is unmeasured folded (it lost on row tiles, fam01).
// TF32 after 1308fdd's instruction cuts, run 288 (H200, same comparison, fwd / fwd+bwd ms):
//   L1-71 (k3, 9 taps)     1.016 / 3.133 -> 0.937 / 3.065   fam11 (k3x7, 21 taps)   1.302 / 4.881 -> 1.368 / 5.003
// fp32's one block per SM leaves the MMAs unhidden, so the kernel wins where the window's staging dominates (few
// taps per staged value) and the wgmma strip form wins as K grows: TF32 takes row tiles at 32 channels a side with
// at most 9 taps (kh x kw), and never folded tiles (fam08 above).
// fp32 in 16-channel stages, two blocks per SM (72f68c3), run 306 (H100, same comparison, TF32 fwd / fwd+bwd ms):
//   L1-71 (k3, 9 taps)  1.026 / 3.153 -> 0.763 / 2.725   fam08 (folded)  1.132 / 3.714 -> 1.091 / 3.623
//   fam11 (k3x7, 21 taps: 86 KB of fp32 weights, still one block)        1.324 / 4.973 -> 1.407 / 5.141
// fam08's folded TF32 won by 4 % / 2 % in that run. With 64-position fp32 warp tiles (the raw window in two row
// parts, output staged in halves) and the split sum in 8 lanes, run 311 (H200, one process each, "auto" / forced):
//   L1-71 (k3, 9 taps)         0.644 / 2.412 -> 0.642 / 2.406   (702e70b forced: 0.678 / 2.557)
//   fam08 (folded, 5 taps)     1.124 / 3.643 -> 0.782 / 2.925   (702e70b forced: 0.912 / 3.228)
// so TF32 takes folded tiles too (same channel limits as 16-bit). Run 313 (H200, same build as 311, "auto" against
// forced): fam11 (k3x7, 21 taps) 1.304 / 4.839 -> 1.159 / 4.546, so TF32 takes up to 21 taps as 16-bit does (the
// most measured).
// Channels-last 16-bit calls (the kernel's channels-last form, session 85) take the same rule; "auto" asks it before
// the TMA window. Run 468 (H200, bf16 channels-last, quick timing fwd / fwd+bwd ms, the rule against
// TCONV_UNIT_STRIDE_MMA=0, one build): L1-71 0.746 / 1.826 -> 0.328 / 1.077 (the contiguous form 0.325 / 1.150),
// fam11 0.950 / 2.719 -> 0.577 / 2.042; forced at 64 channels a side it lost as on contiguous data: fam01 2.849 /
// 8.357 against "auto"'s 2.680 / 7.816 (run 466), fam05 1.218 / 4.120 against 1.126 / 3.803.
struct UnitStrideMmaAutoRule {
  static constexpr int kMaxInChannels = 32, kMaxOutChannels = 32;
  static constexpr int kMaxFoldedChannels = 64, kMaxFoldedChannelPairs = 32 * 64;
  static constexpr bool k16Bit = true, kTf32 = true, kTf32Folded = true;
  static constexpr int kMaxTf32Taps = 21;
  // fp32 stages 16 channels, so TF32 could take C_in 16; only 32 has been measured.
  static constexpr int kMinTf32InChannels = 32;
};

// The unit-stride grad_weight on mma.sync (conv_transpose_unit_stride_mma.cu), 16-bit data. A block stages an input
// window (kRows x kWidth output positions and the taps' halo, or one folded row of kFoldedWidth) transposed to
// position-major, and the grad_output tile raw ([channel][row][position]); it sums grad_weight[ci][co][tap] = sum over
// the tile's positions of window[position + tap shift][ci] x grad_output[co][position] with K = positions: A by
// ldmatrix.trans (a tap's shift is a row offset), B by plain ldmatrix from the raw tile (no transpose). Warps: the
// C_in 16-half (w % 2) x a group of taps (taps w / 2 + 4 i), every position of the tile; per K step a warp loads
// grad_output's fragments once for all its taps. At most 12 taps a warp holds 3 (48 accumulators) and two blocks
// share an SM; up to kMaxTaps = 28, 7 and one block. Split-K over the tiles (fp32 partials per split, summed in a
// fixed order). Why: L1-71's bf16 grad_weight ran ~1.3 ms on the shifted-x wgmma kernel (half of every m64 idle at
// 32 channels); its floor is ~0.13 ms (540 MB read, 77 GFLOP). Run 293's first form (8-row tiles, both operands
// transposed, one block per SM: 159 KB) ran it in 0.941 ms.
struct UnitStrideMmaGradWeightTile {
  static constexpr int kThreads = 256, kWarps = kThreads / 32;
  static constexpr int kTapGroups = kWarps / 2, kGroupTaps = 7, kMaxTaps = kTapGroups * kGroupTaps;
  static constexpr int kFewGroupTaps = 3;  // <= kTapGroups x 3 taps: 48 accumulators, <= 128 registers, two blocks/SM
  static constexpr int kChannels = 32, kBlockN = 32;  // C_in per stage (M), C_out per tile (N)
  static constexpr int kRows = 4, kWidth = 64, kFoldedWidth = 256;
  static constexpr int kSmBytesForTwo = 200 * 1024;  // two blocks' shared memory per SM (Hopper: 228 KB)
};

// The unit-stride grad_weight on Hopper (sm_90a, 16-bit data): the mma.sync kernel's tiles (kRows x kWidth or one
// folded row of kFoldedWidth output positions, the input window with the taps' halo copied as the tensor holds it),
// with wgmma.m64n32k16 reading both operands from shared memory: A = the grad_output tile (M = 64 C_out, K =
// positions; K-major core matrices, the cp.async copy writes them directly), B = the window transposed to
// [8-channel group][position][8 channels] (N = 32 C_in, MN-major, imm-trans-b 1), where a tap's shift is the B
// descriptor's start moved by whole 16-byte positions. Three warpgroups take taps g, g + 3, ... (at most
// kMaxWgTaps each: 7 x 16 accumulators); two buffers of each operand, so a tile's wgmmas run while the block
// transposes the next window and copies the one after. Why: fam05 bf16 (C 64 -> 64, k3x7, 512 x 512) ran its
// grad_weight on the mma.sync kernel at 1.944 ms (186 TF/s) against cuDNN's wgrad 0.754 (run 423's census), the
// largest pass of its fwd+bwd (1.02x eager). Run 424: 1.384 ms (296 TF/s; predicted 0.8-1.0); run 426's ncu: tensor
// pipe 31 %, barrier stalls first (every warp stages and computes, so each tile's end drains the pipe). The default
// since run 429 is the warp-specialized kernel (a producer warpgroup stages, the three MMA warpgroups take A from
// registers): 0.714 ms on fam05, tensor pipe 61 % (conv_transpose_unit_stride_mma.cu has its measurements).
struct UnitStrideWgmmaGradWeightTile {
  static constexpr int kWarpgroups = 3, kThreads = 128 * kWarpgroups;
  // The warp-specialized form: a producer warpgroup more, its registers handed to the MMA warpgroups (setmaxnreg;
  // an SM sub-partition holds one warp of each warpgroup: 56 + 3 x 152 = 512 registers a lane).
  static constexpr int kSpecializedThreads = kThreads + 128, kProducerRegisters = 56, kMmaRegisters = 152;
  static_assert(kProducerRegisters * 128 + kMmaRegisters * kThreads <= 65536, "one block per SM");
  static constexpr int kMaxWgTaps = 7, kMaxTaps = kWarpgroups * kMaxWgTaps;  // 3, 5 or 7 wgmmas a warpgroup per K step
  static constexpr int kChannels = 32;   // C_in per block: the wgmma's N (the mma.sync kernel's stage)
  static constexpr int kBlockM = 64;     // C_out per block: the wgmma's M
  static constexpr int kPositions = 256; // output positions per tile (kRows x kWidth or kFoldedWidth)
};

// Where the unit-stride grad_weight takes its wgmma form (given that the mma.sync kernel's rule took the call and the
// wgmma form can run). Run 424 (H200, one build, bf16 fwd+bwd ms under "auto", mma.sync / wgmma form; its kernel
// serially 1.944 -> 1.384 ms on fam05, 296 TF/s, against a prediction of 0.8-1.0):
//   fam05 (C 64 -> 64, k3x7: 21 taps)         3.631 -> 3.079
//   fam11 (C 32 -> 32, k3x7)                  2.041 -> 2.118   (C_out 32: half of every m64 idle)
//   fam01 (C 64 -> 64, k3: 9 taps)            7.962 -> 8.222   (3 wgmmas a warpgroup per K step against the staging)
//   L1-71 (C 32 -> 32, k3)                    1.150 -> 1.555
//   fam08 (1D, C 32 -> 64, k5 dilation 3)     1.620 -> 1.750
//   fam06 (C 64 -> 128, k3x5; forced)         3.922 (shifted-x) -> 5.080
// so more than 32 output channels and more than 15 taps (7 wgmmas a warpgroup per K step). Then the warp-specialized
// form with A from registers (the default form since): run 428, fam05 3.077 -> 2.407-2.413, fam11 (forced) 2.033 on
// mma.sync -> 1.684; run 429, forced at every tap count against "auto" (mma.sync):
//   fam01 (C 64 -> 64, 9 taps)                7.971 -> 6.735
//   fam08 (1D, C 32 -> 64, 5 taps)            1.608 -> 1.431
//   L1-71 (C 32 -> 32, 9 taps)                1.145 -> 1.237
// so 32 output channels and up above 15 taps, 64 and up at any tap count (within the mma.sync kernel's rule: fam06,
// 64 -> 128, stayed on shifted-x in both of run 429's timings, 3.905 / 3.903, as the switch did not reach it).
// Beyond that rule's 64 channels (it loses 2x there: run 299), run 431 (H200, one build, bf16 fwd+bwd ms, "auto"
// (shifted-x grad_weight) / the wgmma form forced with TCONV_UNIT_STRIDE_MMA_GRAD_WEIGHT=1):
//   fam04 (1D, C 128 -> 128, k3, folded)      7.013 (7.006-7.018) -> 6.717 (6.707-6.733)
//   fam06 (C 64 -> 128, k3x5)                 3.918 (3.916-3.920) -> 3.905 (3.901-3.915)
// so "auto" takes the wgmma form up to kMaxChannels on each side (the most measured).
struct UnitStrideWgmmaGradWeightAutoRule {
  static constexpr int kMinOutChannels = 32, kMinTaps = 16, kMinOutChannelsFewTaps = 64;
  static constexpr int kMaxChannels = 128;
};

// Where "auto" takes the unit-stride grad_weight (given that it can run). Run 294 (H200, one build, bf16 fwd+bwd ms,
// "auto" with the kernel off / forced; the forward and grad_input are unit_stride_mma's either way):
//   L1-71 (C 32 -> 32, k3: 9 taps, 4-row tiles)        2.093 -> 1.398   (grad_weight 0.649 ms)
//   fam08 (1D, C 32 -> 64, k5 dilation 3, folded)     2.461 -> 2.000
//   fam11 (C 32 -> 32, k3x7: 21 taps, one block/SM)   2.429 -> 2.472   (grad_weight 1.275 ms: the 7-tap groups lost)
// After 66b24a7 (each tap's A address once per row, no divisions in the staging: L1-71's grad_weight 317M -> 206M
// instructions by ncu), runs 298-299 (H200, one build, bf16 fwd+bwd ms, the rule of 49dc122 / the kernel wherever it
// runs, TCONV_UNIT_STRIDE_MMA_GRAD_WEIGHT=1; grad_weight kernel ms in brackets, shifted-x or tf32-path kernel first):
//   L1-71 (32 -> 32, 9 taps)                  1.213 by the rule                   (0.476)
//   fam08 (1D 32 -> 64, 5 taps, folded)       1.710 by the rule                   (0.701)
//   fam11 (32 -> 32, k3x7: 21 taps)           2.450 -> 2.094                      (1.247 -> 0.902)
//   fam01 (64 -> 64, k3: two stages)          10.38 -> 8.715                      (5.118 -> 3.533)
//   fam05 (64 -> 64, k3x7: 21 taps)           4.496 -> 3.862                      (2.614 -> 2.009)
//   fam06 (64 -> 128, k3x5: four C_out tiles) 4.068 -> 11.09                      (1.435 -> 8.462)
//   fam04 (1D 128 -> 128, k3, folded)         7.326 -> 11.84                      (4.289 -> 8.771)
// so 16-bit data with at most 64 channels on each side (each C_out tile restages the input window, each stage the
// grad_output tile: at 128 channels the wgmma and TF32-path kernels win by 2x) and at most 21 taps (the most
// measured; the kernel takes 28).
struct UnitStrideMmaGradWeightAutoRule {
  static constexpr int kMaxInChannels = 64, kMaxOutChannels = 64, kMaxTaps = 21;
};

}  // namespace tconv
