"""CPU emulation (float64) of tconv_igemm_grad_weight_wgmma_shifted_x_kernel with the sliding grad_output rows
(session 28): the unit order (image, D row, W chunk, H row), the producer's loads (every valid row at a sweep's
first unit, then one per chain: shifted_x_reach), the consumers' (source unit, position) of their rows, and the slot
releases. It reuses session27-emulate_shifted_x.py's boxes, copies, descriptors and epilogue mapping.

The ring is emulated with stale contents: slots start as NaN and keep whatever was loaded last, so a consumer that
reads a row its source unit did not load, or reads a slot after its refill, gets NaN or another unit's data and the
result mismatches. The producer refills a slot as soon as the protocol allows (its earlier unit released), before
each consumer unit, which is the earliest any schedule could; reads also assert the slot still holds the source unit.
Releases are asserted once per unit and in load order.
dy_flat: the flat grad_output map of session28-shifted_x_flat_dy.patch (D x H x W as one dimension; rows start up to
3 positions early, columns past the row's end and rows outside D or H masked by the consumers). Every case is run
with it too (the kernel takes it only for rows of no multiple of 16 bytes; the index math is the same for all).
Usage: python3 benchmarks/results/logs/session28-emulate_shifted_x_slide.py [case ...] [--rounding]   (~2 min)"""
import importlib.util, math, os, sys
import numpy as np
import torch

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("s27", os.path.join(here, "session27-emulate_shifted_x.py"))
s27 = importlib.util.module_from_spec(spec)
spec.loader.exec_module(s27)
kRows, BM, BN, BK, XW, DYW, CK, CC = s27.kRows, s27.BM, s27.BN, s27.BK, s27.XW, s27.DYW, s27.CK, s27.CC
XF, DYF, SF, CF, LBO, SBO = s27.XF, s27.DYF, s27.SF, s27.CF, s27.LBO, s27.SBO
S = 6


def reach_of(first_row, w, rows, kH, slide):
    row = first_row + w
    if not slide or row >= rows:
        return 0
    r, v = 0, row + 1
    while v < first_row + kRows and v < rows and v // kH == row // kH:
        r, v = r + 1, v + 1
    return r


def flat_box(t, start, c1, c4, bw, bc):
    """The flat map's box: D x H x W as one dimension, zeros only outside the whole of it."""
    N, C = t.shape[:2]
    flat = t.reshape(N, C, -1)
    assert start % 4 == 0, "TMA: the innermost start lies on 16 bytes"
    out = np.zeros((bc, bw))
    if 0 <= c4 < N:
        for c in range(bc):
            if 0 <= c1 + c < C:
                for w in range(bw):
                    if 0 <= start + w < flat.shape[2]:
                        out[c, w] = flat[c4, c1 + c, start + w]
    return out.reshape(-1)


def flat_dy_row(dy_shape, od, oh, j0):
    """(start, shift, inside, outside) as the kernel's flat_dy_row."""
    _, _, Dout, Hout, Wout = dy_shape
    outside = od < 0 or od >= Dout or oh < 0 or oh >= Hout
    flat = (od * Hout + oh) * Wout + j0
    shift = flat & 3
    return flat - shift, shift, Wout - j0, outside


def emulate(x, dy, groups, kernel, stride, padding, dilation, splits=1, slide_switch=True, dy_flat=False):
    Nb, Cin, Din, Hin, Win = x.shape
    _, Cout, Dout, Hout, Wout = dy.shape
    cin_g, cout_g = Cin // groups, Cout // groups
    kD, kH, kW = kernel
    rows = kD * kH
    ci_tiles, co_tiles = math.ceil(cin_g / BN), math.ceil(cout_g / BM)
    tiles = math.ceil(rows / kRows) * groups * ci_tiles * co_tiles
    w_chunks = math.ceil(Wout / BK)
    units = Nb * Din * Hin * w_chunks
    chunk = max(1, math.ceil(units / splits))
    splits = math.ceil(units / chunk)
    slide = slide_switch and stride[1] == 1 and dilation[1] == 1
    out = np.zeros((Cin, cout_g, kD * kH * kW))
    e = ((padding[2] - 4) % 4 + 4) % 4
    kPairs, kOdd = kW // 2, kW % 2
    loads_total = 0
    for tile0 in range(tiles):
        for split in range(splits):
            tile = tile0
            ci0 = (tile % ci_tiles) * BN; tile //= ci_tiles
            co0 = (tile % co_tiles) * BM; tile //= co_tiles
            g = tile % groups; tile //= groups
            first_row = tile * kRows
            u_begin = split * chunk
            u_end = min(u_begin + chunk, units)
            iterations = u_end - u_begin
            reach = [reach_of(first_row, w, rows, kH, slide) for w in range(kRows)]
            lag = max(reach)
            slots = [np.full(SF, np.nan) for _ in range(S)]
            copies = [np.full(CF, np.nan) for _ in range(S)]
            tag = [-1] * S
            released = []
            # producer state
            def cursor(u):
                ih = u % Hin; u //= Hin
                wc = u % w_chunks; u //= w_chunks
                return u // Din, u % Din, wc, ih   # n, id, wc, ih
            filled = 0

            def fill(t):
                nonlocal loads_total
                n, idd, wc, ih = cursor(u_begin + t)
                slot = t % S
                st = slots[slot]
                j0 = wc * BK
                st[:XF] = s27.box(x, j0 + padding[2] - 4 - e, g * cin_g + ci0, ih, idd, n, XW, BN)
                sweep_start = t == 0 or ih == 0
                for w in range(kRows):
                    row = first_row + w
                    if row >= rows or not (sweep_start or reach[w] == 0):
                        continue
                    kd, kh = row // kH, row % kH
                    od = idd * stride[0] + kd * dilation[0] - padding[0]
                    oh = ih * stride[1] + kh * dilation[1] - padding[1]
                    if dy_flat:
                        start, _, _, outside = flat_dy_row(dy.shape, od, oh, j0)
                        if outside:
                            continue
                        st[XF + w * DYF: XF + (w + 1) * DYF] = flat_box(dy, start, g * cout_g + co0, n, DYW, BM)
                    else:
                        st[XF + w * DYF: XF + (w + 1) * DYF] = s27.box(dy, j0, g * cout_g + co0, oh, od, n, DYW, BM)
                    loads_total += 1
                cp = copies[slot]
                window = st[:XF]
                for p in range(CF // 4):
                    c8, mq, blockk = p % 8, (p // 8) % CC, p // (8 * CC)
                    r, ci = blockk // (BN // 8), (blockk % (BN // 8)) * 8 + c8
                    for q in range(4):
                        m = mq * 4 + q - r + e
                        cp[4 * p + q] = window[ci * XW + m] if 0 <= m < XW else 0.0
                tag[slot] = t

            acc_pair = [[np.zeros((BM, 64)) for _ in range(max(kPairs, 1))] for _ in range(kRows)]
            acc_odd = [np.zeros((BM, 32)) for _ in range(kRows)]
            ih = u_begin % Hin
            sweep_first = 0
            for it in range(iterations):
                n_c, id_c, wc_c, ih_c = cursor(u_begin + it)
                assert ih_c == ih
                while filled < iterations and (filled < S or (filled - S) in released):
                    fill(filled)
                    filled += 1
                assert tag[it % S] == it, "the unit's own slot was not filled"
                if ih == 0:
                    sweep_first = it
                cp = copies[it % S]
                for grp in range(kRows):
                    source = max(it - reach[grp], sweep_first)
                    if first_row + grp < rows:
                        assert tag[source % S] == source, f"slot of unit {source} refilled before unit {it} read it"
                    st = slots[source % S]
                    shift, inside = 0, BK
                    if dy_flat:
                        my_row = min(first_row + grp, rows - 1)
                        kd, kh = my_row // kH, my_row % kH
                        _, shift, inside, outside = flat_dy_row(
                            dy.shape, id_c * stride[0] + kd * dilation[0] - padding[0],
                            ih_c * stride[1] + kh * dilation[1] - padding[1], wc_c * BK)
                        inside = 0 if outside else inside
                    base = XF + (grp + it - source) * DYF + shift
                    A = np.array([[st[base + rr * DYW + k] if k < inside else 0.0 for k in range(BK)]
                                  for rr in range(BM)])
                    for k8 in range(BK // 8):
                        Ak = A[:, k8 * 8:k8 * 8 + 8]
                        for pr in range(kPairs):
                            s0 = (2 * pr * (BN // 8) * CC + 2 * k8 + 1) * 32
                            B = np.array([[cp[s0 + (nn // 8) * SBO + (k // 4) * LBO + (nn % 8) * 4 + k % 4]
                                           for k in range(8)] for nn in range(64)])
                            acc_pair[grp][pr] += Ak @ B.T
                        if kOdd:
                            tap = kW - 1
                            r, q = tap % 4, tap // 4
                            s0 = (r * (BN // 8) * CC + 2 * k8 + 1 - q) * 32
                            B = np.array([[cp[s0 + (nn // 8) * SBO + (k // 4) * LBO + (nn % 8) * 4 + k % 4]
                                           for k in range(8)] for nn in range(32)])
                            acc_odd[grp] += Ak @ B.T
                if it - lag >= sweep_first:
                    released.append(it - lag)
                if it == iterations - 1 or ih == Hin - 1:
                    for held in range(max(sweep_first, it - lag + 1), it + 1):
                        released.append(held)
                ih = 0 if ih + 1 == Hin else ih + 1
            assert released == list(range(iterations)), "each unit's slot released once, in order"
            for grp in range(kRows):
                row = first_row + grp
                if row >= rows:
                    continue
                sets = [(acc_pair[grp][pr], 2 * pr) for pr in range(kPairs)]
                if kOdd:
                    sets.append((acc_odd[grp], kW - 1))
                for acc, first_tap in sets:
                    for m in range(BM):
                        co = co0 + m
                        for col in range(acc.shape[1]):
                            ci, tap = ci0 + col % BN, first_tap + col // BN
                            if ci < cin_g and co < cout_g:
                                out[g * cin_g + ci, co, row * kW + tap] += acc[m, col]
    return out, loads_total


def check(dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, splits, seed,
          slide_switch=True, dy_flat=False):
    torch.manual_seed(seed)
    x = torch.randn(batch, cin, *spatial, dtype=torch.float64)
    w = torch.randn(cin, cout // groups, *kernel, dtype=torch.float64, requires_grad=True)
    fn = torch.nn.functional.conv_transpose3d if dims == 3 else torch.nn.functional.conv_transpose2d
    y = fn(x, w, None, stride, padding, output_padding, groups, dilation)
    dy = torch.randn_like(y)
    (gw,) = torch.autograd.grad(y, [w], dy)
    if dims == 2:
        x5, dy5 = x.unsqueeze(2), dy.unsqueeze(2)
        kernel, stride, padding, dilation = [1, *kernel], [1, *stride], [0, *padding], [1, *dilation]
    else:
        x5, dy5 = x, dy
    ours, loads = emulate(x5.numpy(), dy5.numpy(), groups, kernel, stride, padding, dilation, splits, slide_switch,
                          dy_flat)
    ref = gw.detach().reshape(cin, cout // groups, -1).numpy()
    return np.abs(ours - ref).max() / max(1.0, np.abs(ref).max()), loads


# tests/test_conv_transpose_gpu.py's SHIFTED_X_GRID (session 28) and sanitize_small.py's call (x 18 wide).
GRID = [
    (3, 2, 32, 64, 1, [3, 5, 5], [1, 1, 1], [0, 0, 0], [0, 0, 0], [1, 1, 1], [4, 6, 20]),
    (2, 2, 24, 40, 1, [3, 3], [1, 1], [1, 1], [0, 0], [1, 1], [5, 16]),
    (3, 2, 64, 64, 2, [2, 3, 4], [2, 2, 1], [1, 0, 2], [1, 1, 0], [1, 2, 1], [3, 4, 17]),
    (2, 3, 16, 96, 1, [4, 3], [1, 1], [2, 3], [0, 0], [1, 1], [6, 36]),
    (3, 1, 32, 64, 1, [3, 3, 1], [1, 1, 1], [1, 1, 0], [0, 0, 0], [1, 1, 1], [3, 4, 40]),
    (2, 2, 32, 32, 1, [5, 2], [1, 1], [0, 1], [0, 0], [2, 1], [7, 17]),
    (2, 2, 32, 64, 1, [3, 5], [1, 1], [1, 2], [0, 0], [1, 1], [6, 24]),
    (3, 2, 24, 40, 1, [3, 5, 5], [1, 1, 1], [0, 1, 1], [0, 0, 0], [1, 1, 1], [3, 4, 18]),
    # grad_output rows of no multiple of 16 bytes (the flat map): L1-71's shape on a small input (W_out 18), and 3D
    # with rows outside D (od -1 and 4: loaded by nobody, masked by the consumers)
    (2, 2, 32, 32, 1, [3, 3], [1, 1], [0, 0], [0, 0], [1, 1], [6, 16]),
    (3, 2, 32, 64, 1, [3, 3, 5], [1, 1, 1], [1, 0, 1], [0, 0, 0], [1, 1, 1], [4, 5, 20]),
]
if __name__ == "__main__":
    which = [int(a) for a in sys.argv[1:] if a.isdigit()] or ([] if "--rounding" in sys.argv else range(len(GRID)))
    for i in which:
        for splits in (1, 3, 7):
            err, loads = check(*GRID[i], splits=splits, seed=i)
            _, loads_off = check(*GRID[i], splits=splits, seed=i, slide_switch=False)
            flat_err, _ = check(*GRID[i], splits=splits, seed=i, dy_flat=True)
            print(f"case {i} splits {splits}: max rel err {err:.2e} {'OK' if err < 1e-9 else 'MISMATCH'}, flat map "
                  f"{flat_err:.2e} {'OK' if flat_err < 1e-9 else 'MISMATCH'}; grad_output row loads {loads} "
                  f"(without sliding {loads_off})", flush=True)


def check_vector_rounding(trials=20):
    """round_shifted_x_copies (three aligned words per item, 12 floats for 4 pieces) writes the same copies as the
    per-piece form, for every window offset e (plain floats: the rounding is the same function in both)."""
    rng = np.random.default_rng(28)
    for e in range(4):
        for _ in range(trials):
            window = rng.standard_normal(XF)
            per_piece = np.zeros(CF)
            for p in range(CF // 4):
                c8, mq, blockk = p % 8, (p // 8) % CC, p // (8 * CC)
                r, ci = blockk // (BN // 8), (blockk % (BN // 8)) * 8 + c8
                for q in range(4):
                    m = mq * 4 + q - r + e
                    per_piece[4 * p + q] = window[ci * XW + m] if 0 <= m < XW else 0.0
            vector = np.full(CF, np.nan)
            for i in range(BN * CC):
                c8, mq, cb = i % 8, (i // 8) % CC, i // (8 * CC)
                at = (cb * 8 + c8) * XW + 4 * mq
                before = window[at - 4:at] if mq > 0 else np.zeros(4)
                raw = np.concatenate([before, window[at:at + 4], window[at + 4:at + 8]])
                piece = ((cb * CC + mq) * 8 + c8) * 4
                for r in range(4):
                    vector[piece + r * BN * CK: piece + r * BN * CK + 4] = raw[4 - r + e: 8 - r + e]
            assert np.array_equal(per_piece, vector), f"e {e}"
    print("vector rounding: the copies equal the per-piece form for e = 0-3", flush=True)


if __name__ == "__main__" and "--rounding" in sys.argv:
    check_vector_rounding()
