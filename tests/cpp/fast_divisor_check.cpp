// fast_div and decode_row by fast divisors (igemm_config.h) against the hardware division: edge operands for every
// divisor class (1, powers of two and their neighbours, small odd numbers, large primes, 2^32 - 1) and random ones.
// Prints "bad N" (N wrong results) and exits non-zero if N > 0.
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include "igemm_config.h"

int main() {
  using tconv::fast_div;
  using tconv::fast_divisor;
  std::vector<uint32_t> divisors = {1, 2, 3, 5, 6, 7, 9, 10, 11, 13, 34, 36, 63, 64, 65, 66, 68, 70, 98, 127, 128,
                                    129, 255, 256, 257, 1000, 1026, 1030, 65521, 65535, 65536, 65537, 65538,
                                    1u << 24, (1u << 24) + 1, 2147483647u, 2147483648u, 2147483649u, 4294967291u,
                                    4294967295u};
  for (int k = 0; k < 32; ++k) {
    divisors.push_back(1u << k);
    if (k > 1) divisors.push_back((1u << k) - 1);
    divisors.push_back((1u << k) + 1);
  }
  std::mt19937_64 rng(20261129);
  for (int i = 0; i < 2000; ++i) {
    const uint32_t d = uint32_t(rng() >> (32 + rng() % 32));
    divisors.push_back(d == 0 ? 1 : d);
  }
  long long bad = 0, checked = 0;
  for (uint32_t d : divisors) {
    const tconv::FastDivisor f = fast_divisor(d);
    std::vector<uint32_t> numerators = {0, 1, d - 1, d, d + 1, 2 * d - 1, 2 * d, UINT32_MAX, UINT32_MAX - 1,
                                        UINT32_MAX - d, UINT32_MAX / d * d, UINT32_MAX / d * d - 1, 1u << 31};
    for (int i = 0; i < 2000; ++i) numerators.push_back(uint32_t(rng()));
    for (int i = 0; i < 200; ++i) numerators.push_back(uint32_t(rng() % (uint64_t(d) * 4 + 1)));
    for (uint32_t n : numerators) {
      ++checked;
      if (fast_div(n, f) != n / d) {
        if (++bad <= 10) std::printf("fast_div(%u, %u) = %u, want %u\n", n, d, fast_div(n, f), n / d);
      }
    }
  }
  // decode_row with fast divisors against decode_row, rows up to and past 2^32 (the 64-bit path).
  for (int i = 0; i < 200000; ++i) {
    const int s0 = 1 + int(rng() % 200), s1 = 1 + int(rng() % 1100), s2 = 1 + int(rng() % 70000);
    const int64_t q = i % 2 ? int64_t(rng() % (uint64_t(1) << 33)) : int64_t(rng() % (uint64_t(UINT32_MAX) + 1));
    const tconv::RowCoords a = tconv::decode_row(q, s0, s1, s2);
    const tconv::RowCoords b = tconv::decode_row(q, s0, s1, s2, tconv::row_divisors(s0, s1, s2));
    ++checked;
    if (a.outer != b.outer || a.i0 != b.i0 || a.i1 != b.i1 || a.i2 != b.i2) {
      if (++bad <= 20) std::printf("decode_row(%lld, %d, %d, %d) differs\n", (long long)q, s0, s1, s2);
    }
  }
  std::printf("checked %lld bad %lld\n", checked, bad);
  return bad == 0 ? 0 : 1;
}
