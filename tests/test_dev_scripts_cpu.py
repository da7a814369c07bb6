"""The sweep scripts' shared options (scripts/dev_common.py): --only selects rows of a SHAPES table by name."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import dev_common  # noqa: E402

SHAPES = [("l1_68", [16, 32, 64, 64, 64]), ("l1_71", [8, 32, 512, 1024]), ("fam02", [16, 32, 16, 32, 64])]


def test_only_selects_the_named_rows_in_table_order():
    args = dev_common.sweep_arguments("doc", ["--only", "fam02", "l1_68", "absent"])
    assert [row[0] for row in dev_common.selected(SHAPES, args.only)] == ["l1_68", "fam02"]


def test_without_only_every_row_runs():
    args = dev_common.sweep_arguments("doc", [])
    assert dev_common.selected(SHAPES, args.only) == SHAPES
