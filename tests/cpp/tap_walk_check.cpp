// Exhaustive check of the tap walks in conv_params.h; built and run by tests/test_conv_params_cpu.py.
#include "conv_params.h"
#include <cstdio>
using namespace tconv;
int main() {
  long bad = 0, checked = 0;
  for (int K = 1; K <= 7; ++K) for (int s = 1; s <= 5; ++s) for (int d = 1; d <= 4; ++d)
  for (int p = 0; p <= d * (K - 1) + 2; ++p) for (int I = 1; I <= 6; ++I) {
    int O = (I - 1) * s - 2 * p + d * (K - 1) + 1;
    for (int op = 0; op < (s > d ? s : d); ++op) {
      int Oo = O + op; if (Oo <= 0) continue;
      int g = gcd_of(s, d);
      for (int o = 0; o < Oo; ++o) {
        TapWalk<int> w = forward_taps<int>(o, K, s, p, d, I, s / g, d / g);
        int t = 0; int k = w.k, idx = w.idx;
        for (int kk = 0; kk < K; ++kk) { int64_t i; if (input_index_for_tap(o, kk, s, p, d, I, &i)) {
          if (t >= w.count || k != kk || idx != i) ++bad; ++t; k += w.k_step; idx += w.idx_step; } }
        if (t != w.count) ++bad; ++checked;
      }
      for (int i = 0; i < I; ++i) {
        TapWalk<int> w = grad_input_taps<int>(i, K, s, p, d, Oo);
        int t = 0; int k = w.k, idx = w.idx;
        for (int kk = 0; kk < K; ++kk) { int64_t o; if (output_index_for_tap(i, kk, s, p, d, Oo, &o)) {
          if (t >= w.count || k != kk || idx != o) ++bad; ++t; k += w.k_step; idx += w.idx_step; } }
        if (t != w.count) ++bad; ++checked;
      }
    }
  }
  printf("checked %ld, bad %ld\n", checked, bad);
  return bad != 0;
}
