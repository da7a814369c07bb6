// Hopper (sm_90a) warpgroup primitives shared by the wgmma kernels of conv_transpose_igemm.cu (and its parts) and
// conv_transpose_unit_stride_mma.cu: the no-swizzle shared-memory descriptor, the wgmma group fence / commit / wait,
// the generic-to-async proxy fence and setmaxnreg. Their bodies compile to nothing below sm_90a, where the host never
// picks the kernels that call them.
#pragma once
#include <cstdint>

namespace tconv {

// A descriptor as its two 32-bit words: the low one holds the start address (16-byte units, bits 0-13) and the
// leading byte offset (bits 16-29), the high one the stride byte offset (bits 62-63 = 0: no swizzle). A step inside
// one buffer adds to the address field only, and shared addresses stay below 2^18 bytes, so it never carries out of
// those 14 bits: one 32-bit add per step. The strip kernels' 64-bit adds of per-thread offsets had cost ~20
// instructions per wgmma (run 154's SASS counters, the unit-stride forward: ~565 issued per warp and K stage).
struct WgmmaDescriptor {
  uint32_t lo, hi;
  __device__ __forceinline__ uint64_t at(uint32_t units) const { return (uint64_t(hi) << 32) | (lo + units); }
};
// From a shared-memory address (as __cvta_generic_to_shared gives it).
__device__ __forceinline__ WgmmaDescriptor wgmma_descriptor_at_address(uint32_t address, int leading_bytes,
                                                                       int stride_bytes) {
  return {((address & 0x3FFFF) >> 4) | (uint32_t(leading_bytes >> 4) << 16), uint32_t(stride_bytes >> 4)};
}
__device__ __forceinline__ void wgmma_fence() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#endif
}
__device__ __forceinline__ void wgmma_commit() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#endif
}
template <int kPending>  // waits until at most kPending wgmma groups of this warp are in flight
__device__ __forceinline__ void wgmma_wait() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(kPending) : "memory");
#endif
}
// cp.async and st.shared write shared memory through the generic proxy, wgmma reads it through the async proxy.
__device__ __forceinline__ void fence_generic_to_async_shared() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
}
// setmaxnreg (sm_90a): a warpgroup's registers per thread, traded within the block's allocation.
template <int kRegisters>
__device__ __forceinline__ void warpgroup_registers_down() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(kRegisters));
#endif
}
template <int kRegisters>
__device__ __forceinline__ void warpgroup_registers_up() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(kRegisters));
#endif
}

}  // namespace tconv
