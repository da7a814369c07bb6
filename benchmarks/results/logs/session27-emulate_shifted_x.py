"""CPU emulation (float64) of the index math of tconv_igemm_grad_weight_wgmma_shifted_x_kernel
(session27-grad_weight_shifted_x.patch), transcribed from the patch by hand. It covers:
- the tile decode and the stage cursor;
- the TMA boxes, with zero fill and the 16-byte start rule;
- the rounders' four shifted copies;
- the wgmma B descriptors (K-major, no swizzle: element (n, k) at start + (n/8) SBO + (k/4) LBO + (n%8) 16 B +
  (k%4) 4 B, the layout the rows kernel's B tile runs with);
- A from the grad_output box (the m64k8 fragment layout of the other wgmma kernels);
- the epilogue's mapping.

It is compared against torch's float64 grad_weight. It does not exercise barriers, proxies or the hardware's
rounding.

Session 27: all 7 shapes (SHIFTED_X_GRID and sanitize_small.py's call), with 1 and 3 splits of K, matched to ~1e-15.
A wrong K offset for the odd tap (1.4 relative error) and a window offset e = 0 (the alignment assert) were caught.
Usage: python3 benchmarks/results/logs/session27-emulate_shifted_x.py [case ...]   (~10 s on 2 cores)."""
import math, sys
import numpy as np
import torch

kRows, BM, BN, BK = 3, 64, 32, 16
XW, DYW, CK, CC = 24, 20, 20, 5
XF, DYF = BN * XW, BM * DYW
SF, CF = XF + kRows * DYF, 4 * BN * CK
LBO, SBO = 128 // 4, CC * 128 // 4   # in floats


def box(t, c0, c1, c2, c3, c4, bw, bc):
    """TMA tile load of a (N, C, D, H, W) tensor: [bc][bw], zeros outside."""
    N, C, D, H, W = t.shape
    assert c0 % 4 == 0 and (bw * 4) % 16 == 0, "TMA: the innermost start and box width lie on 16 bytes (run 177)"
    out = np.zeros((bc, bw))
    if not (0 <= c4 < N and 0 <= c3 < D and 0 <= c2 < H):
        return out.reshape(-1)
    for c in range(bc):
        if not 0 <= c1 + c < C:
            continue
        for w in range(bw):
            if 0 <= c0 + w < W:
                out[c, w] = t[c4, c1 + c, c3, c2, c0 + w]
    return out.reshape(-1)


def emulate(x, dy, groups, kernel, stride, padding, dilation, splits=1):
    Nb, Cin, Din, Hin, Win = x.shape
    _, Cout, Dout, Hout, Wout = dy.shape
    cin_g, cout_g = Cin // groups, Cout // groups
    kD, kH, kW = kernel
    taps = kD * kH * kW
    rows = kD * kH
    ci_tiles, co_tiles = math.ceil(cin_g / BN), math.ceil(cout_g / BM)
    tiles = math.ceil(rows / kRows) * groups * ci_tiles * co_tiles
    w_chunks = math.ceil(Wout / BK)
    units = Nb * Din * Hin * w_chunks
    chunk = max(1, math.ceil(units / splits))
    splits = math.ceil(units / chunk)
    out = np.zeros((Cin, cout_g, taps))
    e = ((padding[2] - 4) % 4 + 4) % 4
    kPairs, kOdd = kW // 2, kW % 2
    for tile0 in range(tiles):
        for split in range(splits):
            tile = tile0
            ci0 = (tile % ci_tiles) * BN; tile //= ci_tiles
            co0 = (tile % co_tiles) * BM; tile //= co_tiles
            g = tile % groups; tile //= groups
            kh_first = tile * kRows
            u_begin = split * chunk
            u_end = min(u_begin + chunk, units)
            acc_pair = [[np.zeros((BM, 64)) for _ in range(max(kPairs, 1))] for _ in range(kRows)]
            acc_odd = [np.zeros((BM, 32)) for _ in range(kRows)]
            for u in range(u_begin, u_end):
                row_index = u // w_chunks
                wc = u - row_index * w_chunks
                ih = row_index % Hin
                idd = (row_index // Hin) % Din
                n = row_index // (Hin * Din)
                # producer lane 0
                stage = np.zeros(SF)
                j0 = wc * BK
                x_channel, dy_channel = g * cin_g + ci0, g * cout_g + co0
                stage[:XF] = box(x, j0 + padding[2] - 4 - e, x_channel, ih, idd, n, XW, BN)
                for w in range(kRows):
                    row = kh_first + w if kh_first + w < rows else rows - 1
                    kd, kh = row // kH, row % kH
                    od = idd * stride[0] + kd * dilation[0] - padding[0]
                    oh = ih * stride[1] + kh * dilation[1] - padding[1]
                    stage[XF + w * DYF: XF + (w + 1) * DYF] = box(dy, j0, dy_channel, oh, od, n, DYW, BM)
                # rounders
                copy = np.zeros(CF)
                window = stage[:XF]
                for p in range(CF // 4):
                    c8, mq, blockk = p % 8, (p // 8) % CC, p // (8 * CC)
                    r, ci = blockk // (BN // 8), (blockk % (BN // 8)) * 8 + c8
                    for q in range(4):
                        m = mq * 4 + q - r + e
                        copy[4 * p + q] = window[ci * XW + m] if 0 <= m < XW else 0.0
                # consumers
                for grp in range(kRows):
                    A = np.zeros((BM, BK))
                    base = XF + grp * DYF
                    for rr in range(BM):          # frag_at = base + (wwarp*16 + gid)*20 + tig, + k8*8 (+4, +8 rows)
                        for k in range(BK):
                            A[rr, k] = stage[base + rr * DYW + k]
                    for k8 in range(BK // 8):
                        Ak = A[:, k8 * 8:k8 * 8 + 8]
                        for pr in range(kPairs):
                            s0 = (2 * pr * (BN // 8) * CC + 2 * k8 + 1) * 32
                            B = np.array([[copy[s0 + (nn // 8) * SBO + (k // 4) * LBO + (nn % 8) * 4 + k % 4]
                                           for k in range(8)] for nn in range(64)])
                            acc_pair[grp][pr] += Ak @ B.T
                        if kOdd:
                            tap = kW - 1
                            r, q = tap % 4, tap // 4
                            s0 = (r * (BN // 8) * CC + 2 * k8 + 1 - q) * 32
                            B = np.array([[copy[s0 + (nn // 8) * SBO + (k // 4) * LBO + (nn % 8) * 4 + k % 4]
                                           for k in range(8)] for nn in range(32)])
                            acc_odd[grp] += Ak @ B.T
            # epilogue
            for grp in range(kRows):
                row = kh_first + grp
                if row >= rows:
                    continue
                sets = [(acc_pair[grp][pr], 2 * pr) for pr in range(kPairs)]
                if kOdd:
                    sets.append((acc_odd[grp], kW - 1))
                for acc, first_tap in sets:
                    for m in range(BM):
                        co = co0 + m
                        for col in range(acc.shape[1]):
                            ci = ci0 + col % BN
                            tap = first_tap + col // BN
                            if ci < cin_g and co < cout_g:
                                out[g * cin_g + ci, co, row * kW + tap] += acc[m, col]
    return out


def check(dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, splits=1, seed=0):
    torch.manual_seed(seed)
    x = torch.randn(batch, cin, *spatial, dtype=torch.float64)
    w = torch.randn(cin, cout // groups, *kernel, dtype=torch.float64, requires_grad=True)
    fn = torch.nn.functional.conv_transpose3d if dims == 3 else torch.nn.functional.conv_transpose2d
    y = fn(x, w, None, stride, padding, output_padding, groups, dilation)
    dy = torch.randn_like(y)
    (gw,) = torch.autograd.grad(y, [w], dy)
    if dims == 2:  # as the host describes a 2D call: D = 1, kD = 1
        x5, dy5 = x.unsqueeze(2), dy.unsqueeze(2)
        kernel, stride, padding, dilation = [1, *kernel], [1, *stride], [0, *padding], [1, *dilation]
    else:
        x5, dy5 = x, dy
    ours = emulate(x5.numpy(), dy5.numpy(), groups, kernel, stride, padding, dilation, splits)
    ref = gw.detach().reshape(cin, cout // groups, -1).numpy()
    err = np.abs(ours - ref).max() / max(1.0, np.abs(ref).max())
    return err


GRID = [
    (3, 2, 32, 64, 1, [3, 5, 5], [1, 1, 1], [0, 0, 0], [0, 0, 0], [1, 1, 1], [4, 6, 20]),
    (2, 2, 24, 40, 1, [3, 3], [1, 1], [1, 1], [0, 0], [1, 1], [5, 18]),
    (3, 2, 64, 64, 2, [2, 3, 4], [2, 2, 1], [1, 0, 2], [1, 1, 0], [1, 2, 1], [3, 4, 17]),
    (2, 3, 16, 96, 1, [4, 5], [1, 1], [2, 3], [0, 0], [1, 1], [6, 33]),
    (3, 1, 32, 64, 1, [3, 3, 1], [1, 1, 1], [1, 1, 0], [0, 0, 0], [1, 1, 1], [3, 4, 40]),
    (2, 2, 32, 32, 1, [5, 2], [1, 1], [0, 1], [0, 0], [2, 1], [7, 16]),
    (3, 2, 24, 40, 1, [3, 5, 5], [1, 1, 1], [0, 1, 1], [0, 0, 0], [1, 1, 1], [3, 4, 19]),  # sanitize_small's call
]
if __name__ == "__main__":
    which = [int(a) for a in sys.argv[1:]] or range(len(GRID))
    for i in which:
        for splits in (1, 3):
            err = check(*GRID[i], splits=splits, seed=i)
            print(f"case {i} splits {splits}: max rel err {err:.2e}", "OK" if err < 1e-9 else "MISMATCH", flush=True)
