// Probe of TMA tile-mode loads (one per process: a fault ends the context): negative coordinates, boxes wider than
// the tensor, boxes wholly outside it. Usage: nvcc -std=c++17 -gencode=arch=compute_90a,code=sm_90a scripts/tma_probe.cu
// -o /tmp/tma_probe && /tmp/tma_probe W box_w c0 c1 c2 c3 c4 [D stride]; prints the encode result, the kernel's
// error and the first loaded values (the tensor holds 1, 2, 3, ...; zeros mark the fill).
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
using EncodeFn = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*, const cuuint64_t*,
                              const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave, CUtensorMapSwizzle,
                              CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
struct Args { CUtensorMap map; int c[5]; };
__global__ void probe(const __grid_constant__ Args args, float* out, int n) {
  __shared__ __align__(128) float box[2048];
  __shared__ __align__(8) uint64_t bar;
  if (threadIdx.x == 0) {
    for (int i = 0; i < 2048; ++i) box[i] = -7.f;
    unsigned b = (unsigned)__cvta_generic_to_shared(&bar);
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    asm volatile("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [%0], %1;" ::"r"(b), "r"(n * 4) : "memory");
    asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5, %6}], [%7];"
                 ::"r"((unsigned)__cvta_generic_to_shared(box)), "l"((uint64_t)&args.map), "r"(args.c[0]), "r"(args.c[1]),
                 "r"(args.c[2]), "r"(args.c[3]), "r"(args.c[4]), "r"(b) : "memory");
    unsigned done = 0;
    while (!done) asm volatile("{.reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p;}" : "=r"(done) : "r"(b) : "memory");
    for (int i = 0; i < n; ++i) out[i] = box[i];
  }
}
int main(int argc, char** argv) {
  int W = atoi(argv[1]), boxw = atoi(argv[2]);
  int c[5] = {atoi(argv[3]), atoi(argv[4]), atoi(argv[5]), atoi(argv[6]), atoi(argv[7])};
  long dstride = argc > 8 ? atol(argv[8]) : 0;  // D stride in elements (0: H*W)
  const int C = 8, H = 4, D = 1, N = 2;
  size_t elems = size_t(N) * C * D * H * W;
  float* h = (float*)malloc(elems * 4);
  for (size_t i = 0; i < elems; ++i) h[i] = float(i + 1);
  float *d, *o; cudaMalloc(&d, elems * 4); cudaMalloc(&o, 4096 * 4);
  cudaMemcpy(d, h, elems * 4, cudaMemcpyHostToDevice);
  void* entry = nullptr; cudaDriverEntryPointQueryResult st;
  cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &entry, 12000, cudaEnableDefault, &st);
  EncodeFn enc = (EncodeFn)entry;
  long sH = W, sD = dstride ? dstride : (long)H * W, sC = (long)D * H * W, sN = (long)C * D * H * W;
  cuuint64_t dims[5] = {(cuuint64_t)W, C, H, D, N};
  cuuint64_t strides[4] = {cuuint64_t(sC * 4), cuuint64_t(sH * 4), cuuint64_t(sD * 4), cuuint64_t(sN * 4)};
  cuuint32_t box[5] = {(cuuint32_t)boxw, (cuuint32_t)C, 1, 1, 1}, es[5] = {1, 1, 1, 1, 1};
  Args a; for (int i = 0; i < 5; ++i) a.c[i] = c[i];
  CUresult r = enc(&a.map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 5, d, dims, strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                   CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  printf("W=%d box=%d coords=(%d,%d,%d,%d,%d) dstride=%ld encode=%d ", W, boxw, c[0], c[1], c[2], c[3], c[4], sD, (int)r);
  if (r != CUDA_SUCCESS) { printf("\n"); return 0; }
  int n = boxw * C;
  probe<<<1, 32>>>(a, o, n);
  cudaError_t e = cudaDeviceSynchronize();
  printf("kernel=%s", cudaGetErrorString(e));
  if (e == cudaSuccess) { float v[64]; cudaMemcpy(v, o, sizeof(v), cudaMemcpyDeviceToHost); printf(" row0:"); for (int i = 0; i < (boxw < 12 ? boxw : 12); ++i) printf(" %g", v[i]); }
  printf("\n");
  return 0;
}
