"""Randomized model of the barrier protocol of session 27's two patches (the warp-specialized rows kernel and the
shifted-x kernel): a TMA lane, a rounding group and C consumer warpgroups, over mbarriers with 1-bit parity waits
(try_wait.parity).

Per slot: full (the boxes landed), ready (the B tile or copies are rounded) and empty (every consumer is done). The
model checks that nothing deadlocks, and that no slot's boxes are overwritten while an older iteration still reads
them, or read before they are written.

Session 27: 3000 random schedules (2-6 stages, 0-40 iterations, 2-3 consumers) passed. Two planted bugs each failed
most schedules: a producer that skips the empty wait, and consumers that skip the ready wait.
Usage: python3 benchmarks/results/logs/session27-pipeline_protocol_model.py"""
import random

class Bar:
    def __init__(s, count): s.count, s.pending, s.phase = count, 0, 0   # phase: completed phases
    def arrive(s):
        s.pending += 1
        if s.pending == s.count: s.pending, s.phase = 0, s.phase + 1
    def passed(s, parity): return (s.phase & 1) != parity                # try_wait.parity semantics

def run(S, iters, C, seed):
    rnd = random.Random(seed)
    full = [Bar(1) for _ in range(S)]; ready = [Bar(1) for _ in range(S)]; empty = [Bar(C) for _ in range(S)]
    box = [None] * S; copy = [None] * S
    readers_box = [set() for _ in range(S)]   # agents still reading the slot's boxes (iteration, agent)
    inflight = []                             # TMA transfers issued, not landed: (slot, it)
    p_it, r_it, c_it = 0, 0, [0] * C
    r_stage = 0                               # rounder: 0 = waiting full, 1 = wrote copy (arrive next)
    steps = 0
    while p_it < iters or r_it < iters or min(c_it) < iters or inflight:
        steps += 1
        moves = []
        if p_it < iters:
            sl = p_it % S
            if p_it < S or empty[sl].passed((p_it // S - 1) & 1): moves.append('P')
        if inflight: moves.append('T')
        if r_it < iters:
            sl = r_it % S
            if full[sl].passed((r_it // S) & 1): moves.append('R')
        for c in range(C):
            it = c_it[c]
            if it < iters:
                sl = it % S
                if full[sl].passed((it // S) & 1) and ready[sl].passed((it // S) & 1): moves.append(c)
        if not moves: return f"deadlock at P{p_it} R{r_it} C{c_it}"
        m = rnd.choice(moves)
        if m == 'P':
            sl = p_it % S
            assert not readers_box[sl], f"TMA overwrites slot {sl} while {readers_box[sl]} read it"
            inflight.append((sl, p_it)); p_it += 1
        elif m == 'T':
            sl, it = inflight.pop(0)                    # transfers land in order of issue per slot (one per slot)
            box[sl] = it; readers_box[sl] = {('R', it)} | {(c, it) for c in range(C)}
            full[sl].arrive()
        elif m == 'R':
            sl = r_it % S
            assert box[sl] == r_it, "rounder reads a box not yet landed or overwritten"
            assert not any(a != 'R' and i == r_it - S for a, i in readers_box[sl]), "copy overwritten while read"
            copy[sl] = r_it; readers_box[sl].discard(('R', r_it)); ready[sl].arrive(); r_it += 1
        else:
            c = m; it = c_it[c]; sl = it % S
            assert box[sl] == it and copy[sl] == it, f"consumer {c} reads stale slot {sl}: box {box[sl]} copy {copy[sl]} want {it}"
            readers_box[sl].discard((c, it)); empty[sl].arrive(); c_it[c] += 1
    return "ok"

bad = 0
for seed in range(3000):
    S = random.Random(seed).choice([2, 3, 4, 6]); iters = random.Random(seed + 1).randint(0, 40)
    C = random.Random(seed + 2).choice([2, 3])
    try:
        r = run(S, iters, C, seed)
    except AssertionError as ex:
        r = f"violation: {ex}"
    if r != "ok":
        bad += 1
        if bad < 5: print(S, iters, C, seed, r)
print("trials 3000, failures", bad)
