"""`tconv summary FILE [FILE ...] [--suite all] [--json OUT]`: the suite figures of `tconv bench` results.

A full suite is often measured in pieces: one file per precision, a suite split over GPUs, an interrupted run
continued with --resume. This reads those files together and prints, per precision, the geometric means of the
speedups (forward and forward+backward, against eager PyTorch, cuDNN's benchmark mode and torch.compile where
timed) and the shapes below 1.0x.

It refuses to mix what would not be comparable: files must agree on the GPU, torch, CUDA, cuDNN, tconv commit,
run counts and autotune setting (RESUME_KEYS), and a (problem, precision) pair may appear in one file only.
Rows that are missing from the suite, failed verification or ended in an error are listed and left out of the
means, never silently dropped.

`--merge OUT` also writes the rows of all the files as one results file in `tconv bench`'s format (the first
file's env, with `merged_from` naming the files and their dates), so a suite measured one row per process, or
over several GPUs, is committed as one file; `complete` says whether every precision in it has every suite shape.

Exit codes: 0 every precision found has every suite shape, verified; 1 some are missing or unverified;
2 the files cannot be summarised together (or cannot be read).
"""
import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .bench import BASELINES, PASSES, RESUME_KEYS, _suite


class SummaryError(ValueError):
    """The files cannot be summarised together."""


def load_results(paths: Sequence[Path], dates: Optional[List[Dict[str, Any]]] = None
                 ) -> Tuple[Dict[str, Any], Dict[Tuple[str, str], Dict[str, Any]]]:
    """The shared environment and the rows by (problem, precision); SummaryError on disagreement. `dates`, when
    given, receives each file's name and date."""
    env: Optional[Dict[str, Any]] = None
    first: Optional[Path] = None
    rows: Dict[Tuple[str, str], Dict[str, Any]] = {}
    origin: Dict[Tuple[str, str], Path] = {}
    for path in paths:
        try:
            saved = json.loads(Path(path).read_text())
        except (OSError, ValueError) as error:
            raise SummaryError(f"{path}: cannot read ({error})") from error
        if not isinstance(saved, dict) or not isinstance(saved.get("rows"), list) or not isinstance(saved.get("env"), dict):
            raise SummaryError(f"{path} is not a tconv bench results file")
        if env is None:
            env, first = saved["env"], Path(path)
        else:
            differing = [key for key in RESUME_KEYS if saved["env"].get(key) != env.get(key)]
            if differing:
                detail = ", ".join(f"{key}: {env.get(key)!r} in {first}, {saved['env'].get(key)!r} here" for key in differing)
                raise SummaryError(f"{path} was measured under different conditions ({detail})")
        if dates is not None:
            dates.append({"file": Path(path).name, "date": saved["env"].get("date"),
                          "resumed": saved["env"].get("resumed", [])})
        for row in saved["rows"]:
            key = (row["problem"], row["precision"])
            if key in rows:
                raise SummaryError(f"{key[0]} ({key[1]}) is in both {origin[key]} and {path}")
            rows[key] = row
            origin[key] = Path(path)
    if env is None:
        raise SummaryError("no results files given")
    return env, rows


def _geomean(values: List[float]) -> Optional[float]:
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def _usable(row: Dict[str, Any]) -> bool:
    return bool(row.get("verified")) and not row.get("error")


def summarize(rows: Dict[Tuple[str, str], Dict[str, Any]], suite: Sequence[str]) -> Dict[str, Dict[str, Any]]:
    """Per precision present in `rows`: counts, what is missing or unusable, geometric means and shapes below 1.0x.
    Rows outside the suite are reported as extra and left out."""
    summary: Dict[str, Dict[str, Any]] = {}
    for precision in sorted({p for _, p in rows}):
        present = {problem: row for (problem, p), row in rows.items() if p == precision}
        usable = [present[stem] for stem in suite if stem in present and _usable(present[stem])]
        entry: Dict[str, Any] = {
            "rows": len(usable),
            "suite_size": len(suite),
            "missing": [stem for stem in suite if stem not in present],
            "unverified": [stem for stem in suite if stem in present and not _usable(present[stem])],
            "extra": sorted(problem for problem in present if problem not in suite),
        }
        for pass_name in PASSES:
            for baseline in BASELINES:
                key = f"tconv_{pass_name}_speedup_vs_{baseline}"
                values = [row[key] for row in usable if row.get(key)]
                entry[f"geomean_{pass_name}_vs_{baseline}"] = _geomean(values)
                entry[f"count_{pass_name}_vs_{baseline}"] = len(values)
                entry[f"below_1_{pass_name}_vs_{baseline}"] = [
                    (row["problem"], row[key]) for row in usable if row.get(key) and row[key] < 1.0]
            # times that followed the host (timing.TimingStats.host_bound): upper bounds of the GPU's
            entry[f"host_bound_{pass_name}"] = [row["problem"] for row in usable
                                                if row.get(f"tconv_{pass_name}_host_bound")]
        summary[precision] = entry
    return summary


def _fmt_mean(entry: Dict[str, Any], pass_name: str, baseline: str) -> str:
    mean = entry[f"geomean_{pass_name}_vs_{baseline}"]
    count = entry[f"count_{pass_name}_vs_{baseline}"]
    if mean is None:
        return "-"
    partial = "" if count == entry["rows"] else f" (over {count} rows)"
    return f"{mean:.2f}x{partial}"


def format_summary(env: Dict[str, Any], summary: Dict[str, Dict[str, Any]]) -> str:
    lines = [f"{env.get('gpu')}, torch {env.get('torch')}, cuDNN {env.get('cudnn')}, tconv {env.get('tconv_commit')}"]
    if env.get("tconv_switches"):
        lines.append(f"development switches set: {env['tconv_switches']}")
    for precision, entry in summary.items():
        lines.append(f"{precision}: {entry['rows']}/{entry['suite_size']} suite rows verified")
        for pass_name, title in (("fwd", "forward"), ("fwdbwd", "fwd+bwd")):
            means = ", ".join(f"{_fmt_mean(entry, pass_name, b)} vs {b.replace('_', '-')}" for b in BASELINES
                              if entry[f"geomean_{pass_name}_vs_{b}"] is not None)
            lines.append(f"  {title:8s} geomean {means or '-'}")
            for baseline in ("eager", "cudnn_bench"):
                below = entry[f"below_1_{pass_name}_vs_{baseline}"]
                if below:
                    shapes = ", ".join(f"{problem} {speedup:.3f}x" for problem, speedup in below)
                    lines.append(f"  {title:8s} below 1.0x vs {baseline.replace('_', '-')}: {shapes}")
            if entry.get(f"host_bound_{pass_name}"):
                lines.append(f"  {title:8s} host-bound tconv times (the CPU set them): "
                             f"{', '.join(entry[f'host_bound_{pass_name}'])}")
        for field, what in (("missing", "missing"), ("unverified", "not verified or failed"), ("extra", "not in the suite")):
            if entry[field]:
                lines.append(f"  {what}: {', '.join(entry[field])}")
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tconv summary", description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path, metavar="FILE", help="tconv bench results (JSON)")
    parser.add_argument("--suite", default="all", help="suite of problems/suites.py the means are over (default: all)")
    parser.add_argument("--json", type=Path, metavar="OUT", help="also write the summary as JSON")
    parser.add_argument("--merge", type=Path, metavar="OUT",
                        help="also write all the rows as one tconv bench results file (suite order, then precision)")
    return parser


def main(argv: Optional[Sequence[str]] = None, root: Optional[Path] = None) -> int:
    args = build_parser().parse_args(argv)
    root = root or Path(__file__).resolve().parents[2]
    try:
        suite = _suite(args.suite, root)
    except (OSError, ImportError, AttributeError, SyntaxError) as error:
        print(f"tconv summary: no suite {args.suite!r}: {error}", file=sys.stderr)
        return 2
    try:
        dates: List[Dict[str, Any]] = []
        env, rows = load_results(args.files, dates)
    except SummaryError as error:
        print(f"tconv summary: {error}", file=sys.stderr)
        return 2
    summary = summarize(rows, suite)
    print(format_summary(env, summary))
    if args.json:
        args.json.write_text(json.dumps({"env": env, "suite": args.suite, "files": [str(f) for f in args.files],
                                         "summary": summary}, indent=2) + "\n")
    complete = all(not entry["missing"] and not entry["unverified"] for entry in summary.values())
    if args.merge:
        order = {stem: index for index, stem in enumerate(suite)}
        merged = sorted(rows.values(), key=lambda row: (order.get(row["problem"], len(order)), row["problem"],
                                                          row["precision"]))
        covered = all(not entry["missing"] for entry in summary.values())
        args.merge.write_text(json.dumps({"env": dict(env, merged_from=dates), "complete": covered, "rows": merged},
                                         indent=2) + "\n")
        print(f"merged {len(merged)} rows into {args.merge}")
    return 0 if complete else 1
