// mma.sync building blocks shared by the tensor-core kernels (conv_transpose_igemm.cu,
// conv_transpose_grouped_mma.cu, ...): TF32 rounding, the 3xTF32 split, the m16n8 MMA step, ldmatrix and the
// accumulator tiles (MT m16 x NT n8 fragments) that 3xTF32 sums apart.
#pragma once
#include <cstdint>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace tconv {

// Round to TF32. sm_90 has a conversion instruction for round-to-nearest-even (one F2FP); sm_80 has
// only cvt.rna (ties away), which ptxas expands to three instructions (FSETP, IADD, LOP3). The
// fragment loads convert every fp32 A element (and both operands in the grad_weight GEMM), so on
// Hopper that expansion was about a fifth of the gather loop's instructions (SASS of the window
// kernel: ~215 issued per warp per 4 wgmmas, 48 of them the expansion; ncu: issue slots 55 % busy).
// Both round to nearest; they differ only at exact ties.
__device__ __forceinline__ uint32_t to_tf32(float x) {
  uint32_t r;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm("cvt.rn.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(x));
#else
  asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(x));
#endif
  return r;
}

// One m16n8 MMA step over one 32-bit K word of each fragment element: k8 of TF32 for fp32 data, k16 of
// fp16/bf16 (each 32-bit register then holds two consecutive K: the gather GEMM's channel pairs). Both
// read the same fragment registers (a: rows gid, gid + 8 at K words tig, tig + 4; b: column gid at K
// words tig, tig + 4), so every operand layout below serves all three element types.
#define TCONV_MMA_M16N8(KIND)                                                                       \
  asm volatile("mma.sync.aligned." KIND " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n" \
               : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])                                    \
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]))
template <typename mma_t>
__device__ __forceinline__ void mma_m16n8(float (&c)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]);
template <>
__device__ __forceinline__ void mma_m16n8<float>(float (&c)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
  TCONV_MMA_M16N8("m16n8k8.row.col.f32.tf32.tf32.f32");
}
template <>
__device__ __forceinline__ void mma_m16n8<__half>(float (&c)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
  TCONV_MMA_M16N8("m16n8k16.row.col.f32.f16.f16.f32");
}
template <>
__device__ __forceinline__ void mma_m16n8<__nv_bfloat16>(float (&c)[4], const uint32_t (&a)[4],
                                                         const uint32_t (&b)[2]) {
  TCONV_MMA_M16N8("m16n8k16.row.col.f32.bf16.bf16.f32");
}
#undef TCONV_MMA_M16N8

// Four 8 x 8 matrices of 16-bit elements from shared memory (lanes 8 m .. 8 m + 7 give matrix m's row addresses):
// thread t receives row t / 4, elements 2 (t % 4) and 2 (t % 4) + 1 of each, as one word (an m16n8k16 fragment's
// layout). The .trans form hands out the transposed matrices: a matrix stored K-major yields the fragment of its
// transpose.
__device__ __forceinline__ void ldmatrix_x4(unsigned address, uint32_t& r0, uint32_t& r1, uint32_t& r2, uint32_t& r3) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
               : "r"(address));
}
__device__ __forceinline__ void ldmatrix_x4_trans(unsigned address, uint32_t& r0, uint32_t& r1, uint32_t& r2,
                                                  uint32_t& r3) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
               : "r"(address));
}

// An fp32 operand as TF32 bits: big = v rounded (kRounded: v already is a TF32 value, or a widened
// fp16/bf16 one, used as it is); with kSplitTf32 also small = the remainder rounded (3xTF32: v = big + small).
template <bool kSplitTf32, bool kRounded>
__device__ __forceinline__ void split_tf32(float v, uint32_t& big, uint32_t& small) {
  big = kRounded ? __float_as_uint(v) : to_tf32(v);
  if (kSplitTf32) small = to_tf32(v - __uint_as_float(big));
}

// Exact mode (kSplitTf32) sums a stage's products in fresh registers and then adds them to the
// accumulators with ordinary fp32 adds, because the tensor cores' own accumulation truncates; over
// thousands of K steps that bias would exceed the exact-fp32 contract (seen: 3x over allclose(1e-4)
// on L1-68's grad_input before this split). TF32 mode accumulates in place: its input rounding
// (2^-11) dwarfs that bias.
template <int MT, int NT>
__device__ __forceinline__ void zero_tile(float (&c)[MT][NT][4]) {
#pragma unroll
  for (int mt = 0; mt < MT; ++mt)
#pragma unroll
    for (int nt = 0; nt < NT; ++nt)
#pragma unroll
      for (int e = 0; e < 4; ++e) c[mt][nt][e] = 0.f;
}
template <int MT, int NT>
__device__ __forceinline__ void add_tile(float (&acc)[MT][NT][4], const float (&part)[MT][NT][4]) {
#pragma unroll
  for (int mt = 0; mt < MT; ++mt)
#pragma unroll
    for (int nt = 0; nt < NT; ++nt)
#pragma unroll
      for (int e = 0; e < 4; ++e) acc[mt][nt][e] += part[mt][nt][e];
}

}  // namespace tconv
