"""CPU emulation of the unit-stride forward's kTapPairs form (session 29 patch): per block, 256 GEMM columns from
row r0 = 255 b - 1, A rows (c, r) = channel c at tap 2p + r for the K group of pair p, B = the padded x rows at tap 2p's
shift; stored row r0 + j (j >= 1) = acc[(c, 0), j] + acc[(c, 1), j - 1]. Checked against torch's conv_transpose1d
(stride 1) in float64, over lines (batch x output rows) that cross block boundaries. --plant drops the pair shift
(stores acc1 of column j instead of j - 1) to show the check catches it."""
import sys
import numpy as np
import torch

BM = 256


def emulate(x, w, pad, plant=False):
    n, cin, win = x.shape
    _, cout, T = w.shape
    wout = win - 1 - 2 * pad + T
    line_rows = wout + T - 1
    rows = n * line_rows
    pairs = (T + 1) // 2
    y = np.full((n, cout, wout), np.nan)

    def xpad(q):  # padded row q: channels of x at line q // line_rows, iw = q % line_rows + pad - (T - 1)
        if q < 0 or q >= rows:
            return np.zeros(cin)
        line, v = divmod(q, line_rows)
        iw = v + pad - (T - 1)
        return x[line, :, iw] if 0 <= iw < win else np.zeros(cin)

    tiles = (rows + BM - 2) // (BM - 1)
    for b in range(tiles):
        r0 = b * (BM - 1) - 1
        acc = np.zeros((2, cout, BM))
        for j in range(BM):
            for p in range(pairs):
                xv = xpad(r0 + j + T - 1 - 2 * p)
                for r in range(2):
                    t = 2 * p + r
                    if t < T:
                        acc[r, :, j] += w[:, :, t].T @ xv
        for j in range(1, BM):
            q = r0 + j
            if q >= rows:
                break
            line, v = divmod(q, line_rows)
            if v >= wout:
                continue
            y[line, :, v] = acc[0, :, j] + acc[1, :, j if plant else j - 1]
    return y


def main():
    plant = "--plant" in sys.argv
    rng = np.random.default_rng(0)
    worst = 0.0
    for (n, cin, cout, T, win, pad) in [(2, 5, 7, 3, 40, 1), (3, 4, 32, 5, 100, 2), (1, 3, 9, 7, 300, 3),
                                         (2, 6, 5, 5, 3, 0), (4, 2, 3, 7, 64, 6), (2, 3, 4, 3, 254, 0)]:
        x = rng.standard_normal((n, cin, win))
        w = rng.standard_normal((cin, cout, T))
        ref = torch.nn.functional.conv_transpose1d(torch.from_numpy(x), torch.from_numpy(w), padding=pad).numpy()
        got = emulate(x, w, pad, plant)
        err = np.nanmax(np.abs(got - ref)) if not np.isnan(got).any() else float("inf")
        worst = max(worst, err)
        print(f"n {n} cin {cin} cout {cout} T {T} W_in {win} pad {pad}: max |err| {err:.2e}")
    print("worst", worst)
    return 0 if worst < 1e-9 else 1


if __name__ == "__main__":
    sys.exit(main())
