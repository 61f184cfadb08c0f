"""The README's "Run your own tournament" block runs as written, and its `olympiad pair` row says
what the command reads from the log: the absences announced for the round and the late entries
(a trial user could not tell that `pair` leaves an announced absence out without `--absent`)."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"
OLYMPIAD = Path(sys.executable).parent / "olympiad"


def _block() -> str:
    """The bash block of the README's "Run your own tournament" section."""
    section = README.read_text(encoding="utf-8").split("## Run your own tournament", 1)[1]
    return re.search(r"```bash\n(.*?)```", section, re.S).group(1)


def test_the_pair_row_says_it_reads_the_logs_absences_and_late_entries() -> None:
    row = next(line for line in README.read_text(encoding="utf-8").splitlines() if line.startswith("| `olympiad pair "))
    assert "the absences announced for round N, the late entries and the withdrawals the log records" in row


def test_the_run_your_own_tournament_block_runs_and_pair_leaves_out_an_announced_absence(tmp_path: Path) -> None:
    block = _block()
    assert block.startswith('O="$PWD/.venv/bin/olympiad"; ')
    script = block.replace('O="$PWD/.venv/bin/olympiad"', f'O="{OLYMPIAD}"', 1)
    env = {k: v for k, v in os.environ.items() if k != "OLYMPIAD_DB"} | {"OLYMPIAD_CLOCK": "2026-10-01T09:00:00Z",
                                                                        "COLUMNS": "200"}
    done = subprocess.run(["bash", "-e", "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "recorded: club-cup/r1/closed" in done.stdout and "recorded: club-cup/r2/proposal/1" in done.stdout
    club = tmp_path / "var" / "club-cup"

    def run(*argv: str) -> str:
        out = subprocess.run([str(OLYMPIAD), *argv], cwd=club, env=env, capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        return out.stdout

    assert run("team", "absent", "club-cup", "C8", "2", "--reason", "visa") == "recorded: club-cup/r2/absent/C8\n"
    engine = run("pair", "sqlite:///olympiad.sqlite", "--round", "2")  # no --absent: the log's absence
    assert "not paired (absent): C8" in engine and "(C8)" not in engine
    proposal = run("round", "pair", "club-cup", "2")
    tables = [re.findall(r"\((C\d)\)", line) for line in engine.splitlines() if re.match(r"│\s+\d+ │", line)]
    assert tables == [re.findall(r"\((C\d)\)", line) for line in proposal.splitlines() if re.match(r"│ \d+\s+│", line)]
    assert len(tables) == 3 and "not paired: C8" in proposal
