// Compile-only probe: does ptxas allocate a consumer branch by the limit `setmaxnreg.inc` raises, rather than by the
// launch bound's cap? Both instances launch 384 threads at one block per SM (cap 168 registers) and keep ~200 floats
// live in warpgroups 0-1; warpgroup 2 drops to 40. Session 27, nvcc 13.0, sm_90a:
//   nvcc -std=c++17 -O3 -Xptxas -v -gencode=arch=compute_90a,code=sm_90a -c scripts/setmaxnreg_probe.cu -o /dev/null
//   probe<232, false>: 168 registers, 504 bytes of spill stores;  probe<232, true>: 168 registers, no spills.
// So the kernels that use setmaxnreg (the warp-specialized grad_weight kernels) are checked for spills by ptxas -v and
// scripts/ptxas_registers.txt as usual: their reported count is the entry count, their spills are real.
template <int kRegisters, bool kRaise>
__global__ void __launch_bounds__(384, 1) probe(const float* __restrict__ in, float* __restrict__ out, int n) {
  if (threadIdx.x / 128 == 2) {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
    return;
  }
  if (kRaise) asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(kRegisters));
  float acc[200];
#pragma unroll
  for (int i = 0; i < 200; ++i) acc[i] = in[i * 384 + threadIdx.x];
  for (int it = 0; it < n; ++it) {
#pragma unroll
    for (int i = 0; i < 200; ++i) acc[i] = acc[i] * acc[(i + 1) % 200] + 1.f;
  }
#pragma unroll
  for (int i = 0; i < 200; ++i) out[i * 384 + threadIdx.x] = acc[i];
}
template __global__ void probe<232, false>(const float*, float*, int);
template __global__ void probe<232, true>(const float*, float*, int);
