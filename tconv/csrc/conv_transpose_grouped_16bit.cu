// The fp16 and bf16 kernels of conv_transpose_grouped.cu and their entry points (*_16bit), to which that unit hands
// 16-bit calls (why: its head).
#define TCONV_GROUPED_16BIT 1
#include "conv_transpose_grouped.cu"
