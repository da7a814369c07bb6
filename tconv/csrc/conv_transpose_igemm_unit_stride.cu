// The unit-stride forward's instantiations (its kernels for every tile, tap count and type, which grad_input at unit
// stride runs too): one of the translation units of conv_transpose_igemm.cu (why: its head).
#define TCONV_IGEMM_PART TCONV_IGEMM_PART_UNIT_STRIDE
#include "conv_transpose_igemm.cu"
