"""Numpy emulation of the W shift in A for the shifted-x grad_weight with <= 32 output channels (notes/perf.md,
Session 30, Next 1): one W row of grad_weight (one (kd, kh) row, stride 1, dilation 1), chunks of 16 grad_output
positions as the kernel's units.

Today's kernel: per chunk j0, A[co][k] = dy[co][j0 + k] and tap t's B is x shifted by t, so rows = output channels.
The proposal: A's rows are (co, r) for r = 0, 1 with A[(co, r)][k] = dy[co][j0 + k + r] (zero past the row), and
one B (x shifted by t0) gives tap t0 from rows r = 0 and tap t0 + 1 from rows r = 1. Chunk j0's r = 1 rows cover
positions j0 + 1 .. j0 + 16, so over a row's chunks position 0 is never covered for tap t0 + 1: a missing term
dy[0] x[p - t0 - 1], nonzero where t0 + 1 <= p. With W padding 0 (L1-71) nothing is missing; with padding the first
chunk needs a correction (or the form stays off). The emulation checks both against a direct sum, and a planted
shift of the wrong sign fails.

    python3 session30-emulate_shift_in_a.py
"""
import numpy as np

BK = 16


def direct(x, dy, taps, pad):
    """gw[ci, co, t] = sum_j dy[co, j] x[ci, j - t + pad] (transposed conv, stride 1: output j = input i + t - pad)."""
    cin, w_in = x.shape
    cout, w_out = dy.shape
    gw = np.zeros((cin, cout, taps))
    for t in range(taps):
        for j in range(w_out):
            i = j - t + pad
            if 0 <= i < w_in:
                gw[:, :, t] += np.outer(x[:, i], dy[:, j])
    return gw


def x_shifted(x, j0, t, pad):
    """B for tap t over chunk j0: B[k][ci] = x[ci, j0 + k - t + pad], zero outside."""
    cin, w_in = x.shape
    b = np.zeros((BK, cin))
    for k in range(BK):
        i = j0 + k - t + pad
        if 0 <= i < w_in:
            b[k] = x[:, i]
    return b


def dy_rows(dy, j0, r):
    """A rows for shift r over chunk j0: A[co][k] = dy[co, j0 + k + r], zero past the row (the flat map's mask)."""
    cout, w_out = dy.shape
    a = np.zeros((cout, BK))
    for k in range(BK):
        j = j0 + k + r
        if 0 <= j < w_out:
            a[:, k] = dy[:, j]
    return a


def shift_in_a(x, dy, taps, pad, sign=1, correct_first=True):
    cin = x.shape[0]
    cout, w_out = dy.shape
    gw = np.zeros((cin, cout, taps))
    for j0 in range(0, w_out, BK):
        for t0 in range(0, taps, 2):
            b = x_shifted(x, j0, t0, pad)
            a = np.concatenate([dy_rows(dy, j0, 0), dy_rows(dy, j0, sign * 1)])  # the m64's 2 x cout rows
            c = a @ b                                                              # [2 cout, cin]
            gw[:, :, t0] += c[:cout].T
            if t0 + 1 < taps:                                                      # an odd T's last r = 1 rows unused
                gw[:, :, t0 + 1] += c[cout:].T
    if correct_first:  # position 0 at taps t0 + 1 <= pad, which no chunk's r = 1 rows reach
        for t in range(1, taps, 2):
            i = 0 - t + pad
            if 0 <= i < x.shape[1]:
                gw[:, :, t] += np.outer(x[:, i], dy[:, 0])
    return gw


def main():
    rng = np.random.default_rng(0)
    worst = 0.0
    for cin, cout, w_in, taps, pad in [(32, 32, 1024, 3, 0), (32, 32, 1000, 3, 0), (8, 16, 37, 5, 0),
                                       (8, 16, 37, 5, 2), (4, 8, 48, 3, 1), (4, 8, 15, 4, 1), (4, 8, 64, 2, 0)]:
        w_out = w_in + taps - 1 - 2 * pad
        x, dy = rng.standard_normal((cin, w_in)), rng.standard_normal((cout, w_out))
        ref = direct(x, dy, taps, pad)
        err = np.abs(shift_in_a(x, dy, taps, pad) - ref).max()
        uncorrected = np.abs(shift_in_a(x, dy, taps, pad, correct_first=False) - ref).max()
        planted = np.abs(shift_in_a(x, dy, taps, pad, sign=-1) - ref).max()
        worst = max(worst, err)
        print(f"cin {cin:2d} cout {cout:2d} W_in {w_in:4d} T {taps} pad {pad}: error {err:.1e}, "
              f"without the first-position correction {uncorrected:.1e}, shift of the wrong sign {planted:.1e}")
        assert err < 1e-9 and planted > 1e-3
        assert (uncorrected < 1e-9) == (pad == 0) or taps == 1
    print(f"all match (worst {worst:.1e}); the correction matters only with W padding")


if __name__ == "__main__":
    main()
