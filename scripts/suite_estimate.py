"""The suite's status between suite runs: the newest verified row of each (problem, precision) across `tconv bench`
results files, and the geometric means of their speedups. A development tool for the notes, not a result: the rows
come from different commits and processes (each row's date and commit are printed beside it), which is exactly what
`tconv summary` refuses to mix. A published suite figure is one `tconv summary` over one commit.

    python3 scripts/suite_estimate.py [FILES ...] [--gpu H200] [--suite all] [--precision tf32 bf16]
                                      [--layout contiguous|channels_last] [--json OUT]

Per row: tconv's times, its speedups, and its % of the roofline floor (the row's own, from `tconv bench`).

FILES default to benchmarks/results/bench_*.json. Files that cannot be read, rows that failed verification and rows
without a timing are skipped; problems of the suite with no row are listed as missing.
"""
import argparse
import json
import sys
from pathlib import Path
from typing import Dict, Optional, Sequence

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tconv.harness.bench import _suite  # noqa: E402
from tconv.harness.summary import _usable, summarize  # noqa: E402
from tconv.harness.tensors import LAYOUTS  # noqa: E402

# (column, pass, baseline) of the speedups printed per row, and of their geometric means (summarize's)
SPEEDUPS = [("fwd x eager", "fwd", "eager"), ("f+b x eager", "fwdbwd", "eager"),
            ("fwd x cudnnB", "fwd", "cudnn_bench"), ("f+b x cudnnB", "fwdbwd", "cudnn_bench")]


def _key(pass_name: str, baseline: str) -> str:
    return f"tconv_{pass_name}_speedup_vs_{baseline}"


def newest_rows(paths: Sequence[Path], gpu: str, layout: str = "contiguous") -> Dict[tuple, dict]:
    """{(problem, precision): row} of the newest verified timed row (by the file's env date) on a GPU whose name
    contains `gpu`, from files of one input layout (`tconv bench --layout`: env "layout", absent for contiguous
    runs); each row gains `_date`, `_commit` and `_file`."""
    newest: Dict[tuple, dict] = {}
    for path in paths:
        try:
            data = json.loads(Path(path).read_text())
        except (OSError, ValueError):
            continue
        env = data.get("env") or {}
        if gpu.lower() not in str(env.get("gpu", "")).lower() or env.get("layout", "contiguous") != layout:
            continue
        date = str(env.get("date", ""))
        for row in data.get("rows") or []:
            if not _usable(row) or row.get(_key("fwdbwd", "eager")) is None:
                continue
            key = (row.get("problem"), row.get("precision"))
            if key not in newest or date >= newest[key]["_date"]:
                newest[key] = dict(row, _date=date, _commit=str(env.get("tconv_commit", ""))[:9],
                                   _file=Path(path).name)
    return newest


def estimate(newest: Dict[tuple, dict], suite: Sequence[str], precision: str) -> dict:
    """The suite's rows in one precision and tconv summary's figures of them (geometric means, missing problems,
    rows below 1.0x)."""
    rows = {key: row for key, row in newest.items() if key[1] == precision}
    figures = summarize(rows, suite).get(precision) or {"missing": list(suite)}
    return {"precision": precision, "rows": [rows[(p, precision)] for p in suite if (p, precision) in rows],
            "geomeans": {name: figures.get(f"geomean_{pass_name}_vs_{baseline}")
                         for name, pass_name, baseline in SPEEDUPS},
            "missing": figures["missing"],
            "below_1x": sorted({problem for name, pass_name, baseline in SPEEDUPS
                                for problem, _ in figures.get(f"below_1_{pass_name}_vs_{baseline}", [])})}


def _format(value: Optional[float], digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def print_estimate(result: dict) -> None:
    print(f"== {result['precision']}: newest verified row per problem (an estimate across commits, not a suite run)")
    print(f"{'problem':48s} {'date':10s} {'commit':9s} {'fwd ms':>8s} {'f+b ms':>8s} "
          + " ".join(f"{name:>12s}" for name, _, _ in SPEEDUPS) + f" {'%floor fwd':>10s} {'%floor f+b':>10s}")
    for r in result["rows"]:
        print(f"{r['problem']:48s} {r['_date'][:10]:10s} {r['_commit']:9s} {_format(r.get('tconv_fwd_ms'), 3):>8s} "
              f"{_format(r.get('tconv_fwdbwd_ms'), 3):>8s} "
              + " ".join(f"{_format(r.get(_key(p, b))):>12s}" for _, p, b in SPEEDUPS)
              + "".join(f" {_format(r.get(f'tconv_{p}_pct_of_floor'), 1):>10s}" for p in ("fwd", "fwdbwd")))
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
    parser.add_argument("--layout", choices=LAYOUTS, default="contiguous",
                        help="rows of `tconv bench --layout` runs of this layout (default: contiguous)")
    parser.add_argument("--json", type=Path, help="also write the estimates here")
    args = parser.parse_args(argv)
    files = args.files or sorted((ROOT / "benchmarks" / "results").glob("bench_*.json"))
    newest = newest_rows(files, args.gpu, args.layout)
    suite = _suite(args.suite, ROOT)
    results = [estimate(newest, suite, precision) for precision in args.precision]
    for result in results:
        print_estimate(result)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
