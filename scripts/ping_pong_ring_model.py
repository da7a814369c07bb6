"""A model of the persistent per-tap kernel's ring under the ping-pong tile (conv_transpose_igemm_tma.cu,
tma_gather_persistent_block with TmaGatherPingPongTile), run under random interleavings.

One producer fills the ring's stages for a block's tiles in order; the two MMA warpgroups take the tiles in turn, each
stepping its ring cursor over the other's stages. Barriers are modelled as mbarriers: a phase completes when its count
of arrivals is in, and a parity wait returns once the current phase's parity differs from the one asked for, so a
waiter cannot tell a barrier's laps two apart. Each warp of a warpgroup is an actor: it waits on the stages and
arrives on the barriers itself, the warpgroup's warps meet at each stage's wgmmas (issued by all four together) and at
the epilogue's named barrier. Each warp checks it reads its own tile's step in every stage.

Without the turn barrier (`mainloop_done`) a warpgroup whose cursor stepped over the other's tile can wait on a stage
two laps behind and read the other's data: run 514 (H200) hung there. With it, every schedule is expected to run; and
it needs the epilogue's barrier after the arrivals (without it a fast warp's next wait can read an open phase as done).
    python3 scripts/ping_pong_ring_model.py   (exits 1 if a schedule of the kernel's protocol fails)
"""
import random
import sys


class MBarrier:
    def __init__(self, count):
        self.count, self.pending, self.phase = count, count, 0

    def arrive(self):
        self.pending -= 1
        if self.pending == 0:
            self.phase += 1
            self.pending = self.count

    def parity_done(self, parity):
        return (self.phase & 1) != parity


class Rendezvous:
    """A point every warp of a warpgroup must reach before any goes on (bar.sync, or a warpgroup's wgmma)."""

    def __init__(self, warps):
        self.warps, self.arrived, self.generation = warps, 0, 0

    def meet(self):
        generation = self.generation
        self.arrived += 1
        if self.arrived == self.warps:
            self.arrived, self.generation = 0, generation + 1
        while self.generation == generation:
            yield


def run_block(tile_stages, stages, seed, turn_barrier=True, epilogue_barrier=True, warps=4):
    """One persistent block over tiles of tile_stages[k] stages each: "ok", "wrong data" or "deadlock"."""
    rng = random.Random(seed)
    full = [MBarrier(1) for _ in range(stages)]
    empty = [MBarrier(warps) for _ in range(stages)]  # the owning warpgroup's warps (its 128 threads)
    mainloop_done = MBarrier(warps)
    contents = [None] * stages
    meet_mma = [Rendezvous(warps) for _ in range(2)]
    meet_epilogue = [Rendezvous(warps) for _ in range(2)]

    def producer():  # tma_gather_produce, its cursor carried from tile to tile
        stage, issued, parity = 0, 0, 0
        for tile, steps in enumerate(tile_stages):
            for step in range(steps):
                if issued >= stages:
                    while not empty[stage].parity_done(parity):
                        yield
                contents[stage] = (tile, step)
                full[stage].arrive()
                stage += 1
                if stage == stages:
                    stage = 0
                    if issued >= stages:
                        parity ^= 1
                issued += 1
                yield

    def warp(w):  # one warp of warpgroup w: the tile loop and tma_gather_mma with kReleaseLast
        stage, parity = 0, 0
        for turn, steps in enumerate(tile_stages):
            if turn & 1 != w:
                following = stage + steps
                parity ^= (following // stages) & 1
                stage = following % stages
                continue
            if turn_barrier and turn > 0:
                while not mainloop_done.parity_done((turn - 1) & 1):
                    yield
            previous = None
            for step in range(steps):
                while not full[stage].parity_done(parity):
                    yield
                if contents[stage] != (turn, step):
                    raise AssertionError((w, turn, step, contents[stage]))
                yield from meet_mma[w].meet()  # the stage's wgmmas
                if previous is not None:
                    empty[previous].arrive()
                previous = stage
                stage += 1
                if stage == stages:
                    stage, parity = 0, parity ^ 1
            if previous is not None:
                empty[previous].arrive()
            if turn_barrier:
                mainloop_done.arrive()
            for _ in range(rng.randint(0, 20)):  # staging the first round
                yield
            if epilogue_barrier:
                yield from meet_epilogue[w].meet()
            for _ in range(rng.randint(0, 20)):  # the stores
                yield

    return schedule([producer()] + [warp(w) for w in (0, 1) for _ in range(warps)], rng)


def schedule(actors, rng, stalled=lambda: False, steps=2_000_000):
    """Runs the actors (generators) one random step at a time: "ok" once every one has ended, "wrong data" where one
    raised AssertionError, "deadlock" after `steps` steps or once stalled() says the block has stopped moving."""
    alive = list(actors)
    for _ in range(steps):
        if not alive:
            return "ok"
        if stalled():
            return "deadlock"
        actor = rng.choice(alive)
        try:
            next(actor)
        except StopIteration:
            alive.remove(actor)
        except AssertionError:
            return "wrong data"
    return "deadlock"


def tally(run, tile_choices, rings, schedules, **protocol):
    """{outcome: schedules} of run(tile_stages, ring stages, seed, **protocol) over random blocks of 1-9 tiles, each
    of stages drawn from tile_choices, on a ring drawn from rings."""
    counts = {}
    for seed in range(schedules):
        rng = random.Random(seed)
        tiles = [rng.choice(tile_choices) for _ in range(rng.randint(1, 9))]
        result = run(tiles, rng.choice(rings), seed, **protocol)
        counts[result] = counts.get(result, 0) + 1
    return counts


def outcomes(schedules=300, **protocol):
    """{outcome: schedules} over random blocks: 1-9 tiles of 0-27 stages (phases without taps, short and long K
    loops), rings of 2, 4 or 6 stages."""
    return tally(run_block, [15, 15, 15, 1, 0, 2, 9, 27], [2, 4, 6], schedules, **protocol)


if __name__ == "__main__":
    kernel = outcomes()
    print("the kernel's protocol:", kernel)
    print("without the turn barrier:", outcomes(turn_barrier=False))
    print("without the epilogue barrier after the arrivals:", outcomes(epilogue_barrier=False))
    sys.exit(0 if kernel == {"ok": 300} else 1)
