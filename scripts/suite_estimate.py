"""The suite's status between suite runs: the newest verified row of each (problem, precision) across `tconv bench`
results files, and the geometric means of their speedups. A development tool for the notes, not a result: the rows
come from different commits and processes (each row's date and commit are printed beside it), which is exactly what
`tconv summary` refuses to mix. A published suite figure is one `tconv summary` over one commit.

    python3 scripts/suite_estimate.py [FILES ...] [--gpu H200] [--suite all] [--precision tf32 bf16] [--json OUT]

FILES default to benchmarks/results/bench_*.json. Files that cannot be read, rows that failed verification and rows
without a timing are skipped; problems of the suite with no row are listed as missing.
"""
import argparse
import json
import math
import sys
from pathlib import Path
from typing import Dict, List, Optional, Sequence

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tconv.harness.bench import _suite  # noqa: E402

# (column, key in a bench row) of the speedups whose geometric means are printed
SPEEDUPS = [("fwd x eager", "tconv_fwd_speedup_vs_eager"), ("f+b x eager", "tconv_fwdbwd_speedup_vs_eager"),
            ("fwd x cudnnB", "tconv_fwd_speedup_vs_cudnn_bench"),
            ("f+b x cudnnB", "tconv_fwdbwd_speedup_vs_cudnn_bench")]


def newest_rows(paths: Sequence[Path], gpu: str) -> Dict[tuple, dict]:
    """{(problem, precision): row} of the newest verified timed row (by the file's env date) on a GPU whose name
    contains `gpu`; each row gains `_date`, `_commit` and `_file`."""
    newest: Dict[tuple, dict] = {}
    for path in paths:
        try:
            data = json.loads(Path(path).read_text())
        except (OSError, ValueError):
            continue
        env = data.get("env") or {}
        if gpu.lower() not in str(env.get("gpu", "")).lower():
            continue
        date = str(env.get("date", ""))
        for row in data.get("rows") or []:
            if not row.get("verified") or row.get("tconv_fwdbwd_speedup_vs_eager") is None:
                continue
            key = (row.get("problem"), row.get("precision"))
            if key not in newest or date >= newest[key]["_date"]:
                newest[key] = dict(row, _date=date, _commit=str(env.get("tconv_commit", ""))[:9],
                                   _file=Path(path).name)
    return newest


def geomean(values: List[float]) -> Optional[float]:
    values = [v for v in values if v is not None and v > 0]
    return math.exp(sum(map(math.log, values)) / len(values)) if values else None


def estimate(newest: Dict[tuple, dict], suite: Sequence[str], precision: str) -> dict:
    """The suite's rows in one precision, their geometric means, the missing problems and the rows below 1.0x."""
    rows = [newest[(p, precision)] for p in suite if (p, precision) in newest]
    missing = [p for p in suite if (p, precision) not in newest]
    means = {name: geomean([r.get(key) for r in rows]) for name, key in SPEEDUPS}
    below = sorted({r["problem"] for r in rows for _, key in SPEEDUPS
                    if r.get(key) is not None and r[key] < 1.0})
    return {"precision": precision, "rows": rows, "geomeans": means, "missing": missing, "below_1x": below}


def _format(value: Optional[float], digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def print_estimate(result: dict) -> None:
    print(f"== {result['precision']}: newest verified row per problem (an estimate across commits, not a suite run)")
    print(f"{'problem':48s} {'date':10s} {'commit':9s} {'fwd ms':>8s} {'f+b ms':>8s} "
          + " ".join(f"{name:>12s}" for name, _ in SPEEDUPS))
    for r in result["rows"]:
        print(f"{r['problem']:48s} {r['_date'][:10]:10s} {r['_commit']:9s} {_format(r.get('tconv_fwd_ms'), 3):>8s} "
              f"{_format(r.get('tconv_fwdbwd_ms'), 3):>8s} "
              + " ".join(f"{_format(r.get(key)):>12s}" for _, key in SPEEDUPS))
    print(f"geomean over {len(result['rows'])} rows: "
          + ", ".join(f"{name} {_format(value)}" for name, value in result["geomeans"].items()))
    if result["missing"]:
        print("missing: " + ", ".join(result["missing"]))
    if result["below_1x"]:
        print("below 1.0x somewhere: " + ", ".join(result["below_1x"]))


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--gpu", default="H200", help="rows from GPUs whose name contains this (default H200)")
    parser.add_argument("--suite", default="all")
    parser.add_argument("--precision", nargs="+", default=["tf32", "bf16"])
    parser.add_argument("--json", type=Path, help="also write the estimates here")
    args = parser.parse_args(argv)
    files = args.files or sorted((ROOT / "benchmarks" / "results").glob("bench_*.json"))
    newest = newest_rows(files, args.gpu)
    suite = _suite(args.suite, ROOT)
    results = [estimate(newest, suite, precision) for precision in args.precision]
    for result in results:
        print_estimate(result)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
