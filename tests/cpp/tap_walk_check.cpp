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
  // grad_weight's W tap groups: every tap exactly once, at most max_taps per group, shifts within
  // max_shift, and tap kw0 + t * kw_step reads output s * (i + t * shift_step) + kw0 * d = s * i + kw * d.
  // max_shift 4 is the 32 x 32-warp tiles' strip tail, 8 the many-tap tile's (up to 8 taps).
  for (int max_shift = 4; max_shift <= 8; max_shift += 4)
  for (int K = 1; K <= 32; ++K) for (int s = 1; s <= 9; ++s) for (int d = 1; d <= 5; ++d)
  for (int max_taps = 1; max_taps <= 2 * max_shift && max_taps <= 8; ++max_taps) {
    int seen[32] = {0};
    const int groups = weight_w_tap_groups(K, s, d, max_taps, max_shift, -1, nullptr);
    for (int gi = 0; gi < groups; ++gi) {
      WTapGroup g{-1, 0, 0, 0};
      if (weight_w_tap_groups(K, s, d, max_taps, max_shift, gi, &g) != groups) ++bad;
      if (g.count < 1 || g.count > max_taps || (g.count - 1) * g.shift_step > max_shift) ++bad;
      for (int t = 0; t < g.count; ++t) {
        const int kw = g.kw0 + t * g.kw_step;
        if (kw < 0 || kw >= K || s * t * g.shift_step != t * g.kw_step * d) { ++bad; continue; }
        ++seen[kw];
      }
      ++checked;
    }
    for (int k = 0; k < K; ++k) bad += seen[k] != 1;
  }
  printf("checked %ld, bad %ld\n", checked, bad);
  return bad != 0;
}
