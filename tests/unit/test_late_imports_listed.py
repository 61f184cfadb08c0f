"""Every import inside a function is listed in ``docs/cli.md`` with the start-up time it saves, and
the list names none that is gone (issue 25: imports inside functions only where start-up time
needs them; a late import can hide a module cycle from ``lint-imports``).

The list is the table of the section "Imports inside functions", as
``python -m bench.bench_lazy_imports --markdown`` prints it; the imports are found the way that
bench finds them (``bench.bench_lazy_imports.late_imports``).
"""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from bench.bench_lazy_imports import late_imports

ROOT = Path(__file__).resolve().parents[2]
SECTION = "## Imports inside functions"
ROW = re.compile(r"^\| `([\w.]+)` \| `(\w+)` \| `([\w.]+)` \| (\d+\.\d) \|$")


def listed(text: str) -> list[tuple[str, str, str]]:
    """The (module, function, imported module) rows of the section's table in ``text``."""
    section = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    return [m.groups()[:3] for m in map(ROW.match, section.splitlines()) if m]


def test_every_import_inside_a_function_is_listed_and_every_listed_one_exists():
    # One row per import statement: a function importing the same module twice has two rows.
    found = Counter((i.module, i.function, i.target) for i in late_imports())
    rows = Counter(listed((ROOT / "docs" / "cli.md").read_text(encoding="utf-8")))
    hint = "regenerate the table: .venv/bin/python -m bench.bench_lazy_imports --runs 3 --markdown"
    assert not found - rows, f"imports inside functions missing from docs/cli.md ({hint}): {sorted(found - rows)}"
    assert not rows - found, f"docs/cli.md lists imports inside functions that no longer exist ({hint}): {sorted(rows - found)}"


def test_the_table_is_read_row_by_row():
    text = ("# x\n\n" + SECTION + "\n\n| module | function | imports | start-up CPU saved, ms |\n|---|---|---|---|\n"
            "| `olympiad.cli` | `_value_refused` | `schemas.refusals` | 66.8 |\n"
            "| `olympiad.doors` | `door` | `deploy.topics` | 3.2 |\n\n## Next\n\n"
            "| `olympiad.output` | `console` | `rich.console` | 18.7 |\n")
    assert listed(text) == [("olympiad.cli", "_value_refused", "schemas.refusals"), ("olympiad.doors", "door", "deploy.topics")]
