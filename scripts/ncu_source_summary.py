"""Summary of an Nsight Compute source page (scripts/ncu_source.sh's CSV, plain or gzip): stall samples by
reason, the hottest SASS instructions with their leading reasons, and the mbarrier waits (the branch after
each `SYNCS.PHASECHK...TRYWAIT` carries the samples of the warps spinning on it). Offline: no GPU.

    python3 scripts/ncu_source_summary.py benchmarks/results/logs/run114-src_l2_61_tf32.csv.gz [--top 25]

Session 17 read the warp-specialized gather tile this way (notes/perf.md): the MMA warps' waits on stage_full
and the producers' waits on stage_empty, as shares of all samples.
"""
import argparse
import csv
import gzip
import io
import sys
from typing import Dict, List, Tuple


def load(path: str) -> Tuple[str, List[Dict[str, str]]]:
    """The kernel's name and one row per SASS instruction."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        lines = f.read().splitlines()
    kernel = next((line for line in lines if line.startswith('"Kernel Name"')), "")
    start = next(i for i, line in enumerate(lines) if line.startswith('"Address"'))
    return kernel, list(csv.DictReader(io.StringIO("\n".join(lines[start:]))))


def stall_columns(rows: List[Dict[str, str]]) -> List[str]:
    return [k for k in rows[0] if k.startswith("stall_") and "Not Issued" not in k]


def samples(row: Dict[str, str]) -> int:
    return int(row["# Samples"] or 0)


def summarize(rows: List[Dict[str, str]], top: int) -> List[str]:
    out = []
    stalls = stall_columns(rows)
    total = sum(samples(r) for r in rows) or 1
    out.append(f"samples {total}, SASS instructions {len(rows)}")
    by_reason = {k: sum(int(r[k] or 0) for r in rows) for k in stalls}
    for reason, count in sorted(by_reason.items(), key=lambda kv: -kv[1])[:8]:
        out.append(f"  {reason[6:]:20s} {count:9d} {100 * count / total:5.1f} %")
    out.append(f"hottest {top} instructions (index, samples, share, executed, source, leading reasons):")
    hottest = sorted(range(len(rows)), key=lambda i: -samples(rows[i]))[:top]
    for i in sorted(hottest):
        row = rows[i]
        leading = sorted(((int(row[k] or 0), k[6:]) for k in stalls if int(row[k] or 0)), reverse=True)[:3]
        out.append(f"  {i:5d} {samples(row):7d} {100 * samples(row) / total:5.1f} % {row['Instructions Executed']:>10s} "
                   f"{row['Source'].strip()[:60]:60s} {', '.join(f'{n} {c}' for c, n in leading)}")
    out.append("mbarrier waits (samples from the try_wait to the branch that retries it):")
    for i, row in enumerate(rows):
        if "TRYWAIT" in row["Source"] and int(row["Instructions Executed"] or 0) > 0:
            # the predicated branch that retries follows within a few instructions
            spin = samples(row)
            for j in range(i + 1, min(i + 5, len(rows))):
                spin += samples(rows[j])
                if "BRA" in rows[j]["Source"]:
                    break
            out.append(f"  {i:5d} executed {row['Instructions Executed']:>10s} samples {spin:7d} "
                       f"{100 * spin / total:5.1f} %  {row['Source'].strip()[:60]}")
    return out


SEGMENT_KINDS = ("HGMMA", "BAR.SYNC", "LDGSTS", "LDG", "STG", "LDS", "STS", "EXIT")


def opcode(source: str) -> str:
    """A SASS line's opcode with its modifiers ("LDG.E.128"), past a predicate ("@!P2")."""
    tokens = [t for t in source.split() if not t.startswith("@")]
    return tokens[0] if tokens else ""


def segments(rows: List[Dict[str, str]], size: int) -> List[str]:
    """The samples by runs of `size` consecutive SASS instructions, with each run's largest executed count and the
    instruction kinds in it: where a kernel's time sits between its set-up, its K loop (the HGMMA run, executed once
    per stage) and its epilogue (session 63 read fam04's unit-stride forward so)."""
    total = sum(samples(r) for r in rows) or 1
    out = [f"samples by runs of {size} instructions (first, last, samples, share, max executed, kinds):"]
    for first in range(0, len(rows), size):
        part = rows[first:first + size]
        count = sum(samples(r) for r in part)
        executed = max(int((r["Instructions Executed"] or "0").replace(",", "")) for r in part)
        opcodes = [opcode(r["Source"]) for r in part]
        kinds = [k for k in SEGMENT_KINDS if any(op == k or op.startswith(k + ".") for op in opcodes)]
        out.append(f"  {first:5d} {first + len(part) - 1:5d} {count:8d} {100 * count / total:5.1f} % {executed:10d}  "
                   f"{' '.join(kinds)}")
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv", nargs="+", help="ncu source-page CSV files (.csv or .csv.gz)")
    parser.add_argument("--top", type=int, default=20, help="hottest instructions to list")
    parser.add_argument("--segments", type=int, default=0, metavar="N",
                        help="also the samples by runs of N consecutive instructions")
    args = parser.parse_args(argv)
    for path in args.csv:
        kernel, rows = load(path)
        print(f"== {path}\n{kernel[:220]}")
        print("\n".join(summarize(rows, args.top)))
        if args.segments > 0:
            print("\n".join(segments(rows, args.segments)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
