"""PNG chart of a benchmark run: tconv's speedup over PyTorch eager per problem.

One panel per precision; per problem two bars (forward, forward+backward); log scale with a line at
1.0 (no speedup). Problems whose solution failed verification or errored get no bar and a marker.
"""

from __future__ import annotations

from pathlib import Path
from typing import Dict, List, Optional


def write_speedup_chart(rows: List[Dict], path: Path) -> Optional[Path]:
    """Write the chart to `path`; None (nothing written) when matplotlib is not installed."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None

    precisions = list(dict.fromkeys(row["precision"] for row in rows))
    problems = list(dict.fromkeys(row["problem"] for row in rows))
    if not precisions or not problems:
        return None
    by_key = {(row["problem"], row["precision"]): row for row in rows}
    bar_width = 0.38
    figure, axes = plt.subplots(
        1, len(precisions), figsize=(max(6.0, 1.1 * len(problems)) * len(precisions), 5.0), squeeze=False
    )
    for axis, precision in zip(axes[0], precisions):
        values = [1.0]
        for offset, (field, label, color) in enumerate(
            (
                ("tconv_fwd_speedup_vs_eager", "forward", "#1f77b4"),
                ("tconv_fwdbwd_speedup_vs_eager", "forward+backward", "#ff7f0e"),
            )
        ):
            positions, speedups = [], []
            for index, problem in enumerate(problems):
                value = by_key.get((problem, precision), {}).get(field)
                if value:
                    positions.append(index + (offset - 0.5) * bar_width)
                    speedups.append(value)
            # Bars grow from 1.0 (no speedup): up for faster, down for slower than eager.
            axis.bar(positions, [v - 1.0 for v in speedups], bar_width, bottom=1.0, label=label, color=color)
            for position, value in zip(positions, speedups):
                axis.annotate(f"{value:.2g}", (position, value), ha="center", va="bottom" if value >= 1 else "top", fontsize=7)
            values += speedups
        for index, problem in enumerate(problems):
            row = by_key.get((problem, precision))
            if row is None or row.get("error") or not row.get("verified"):
                status = "not run" if row is None else ("error" if row.get("error") else "unverified")
                axis.text(index, 1.0, status, rotation=90, ha="center", va="bottom", fontsize=8, color="red")
        axis.axhline(1.0, color="black", linewidth=1.0)
        axis.set_yscale("log")
        axis.set_ylim(min(values) / 2.0, max(values) * 2.0)
        axis.set_xlim(-0.6, len(problems) - 0.4)
        axis.set_xticks(range(len(problems)))
        axis.set_xticklabels(problems, rotation=45, ha="right", fontsize=8)
        axis.set_ylabel("speedup vs PyTorch eager (x)")
        axis.set_title(f"tconv speedup, {precision}")
        axis.legend(fontsize=8)
    figure.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=120)
    plt.close(figure)
    return path
