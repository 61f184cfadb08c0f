"""Issue 13: the command line starts fast and speaks plainly.

Start-up: importing ``olympiad.cli`` (every command registered) imports none of the web
framework, SQLAlchemy, Kafka or rich (``bench/bench_cli.py`` times the whole process). Help
texts show flags as flags and arguments by name; ``serve``, ``simulate``, ``pair``, ``enter``
and ``watch`` refuse what they cannot do before printing anything else, with exit status 2.
"""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time

import pytest

OLYMPIAD = [sys.executable, "-m", "olympiad"]


def run(*args: str, env: dict | None = None, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([*OLYMPIAD, *args], capture_output=True, text=True, timeout=timeout,
                          env=os.environ | (env or {}))


def test_registering_every_command_imports_nothing_heavy() -> None:
    heavy = ("sqlalchemy", "fastapi", "starlette", "uvicorn", "kafka", "faust", "rich", "pydantic", "networkx")
    code = f"import sys, olympiad.cli; print(sorted({{m.split('.')[0] for m in sys.modules}} & set({heavy!r})))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
    from olympiad.cli import app

    assert {c.name or c.callback.__name__ for c in app.registered_commands} >= {
        "replay", "export", "serve", "pair", "check", "simulate", "live", "publish", "enter", "correct", "watch"}


def test_command_modules_give_typer_their_annotations_evaluated() -> None:
    # typer reads every command's annotations at every start; text annotations are compiled and
    # evaluated each time (olympiad/cli.py)
    import importlib
    import inspect

    from olympiad.cli import COMMAND_MODULES, app

    for name in COMMAND_MODULES:
        assert "from __future__ import annotations" not in inspect.getsource(importlib.import_module(name)), name
    for command in app.registered_commands:
        assert not any(isinstance(a, str) for a in command.callback.__annotations__.values()), command.callback


def test_a_command_run_by_name_is_built_alone_and_reads_as_in_the_whole_group() -> None:
    # olympiad.cli.Olympiad builds only the command or group named first; the rest as before
    from olympiad.cli import app

    original = app.registered_commands
    for args, expected in ((["replay", "--help"], "Usage: olympiad replay [OPTIONS] SOURCE"),
                           (["team", "--help"], "Usage: olympiad team [OPTIONS] COMMAND [ARGS]..."),
                           (["repla"], "No such command 'repla'. Did you mean 'replay'?"),
                           (["--help"], "replay")):
        proc = run(*args)
        assert expected in " ".join((proc.stdout + proc.stderr).split()), (args, proc.stdout, proc.stderr)
    with pytest.raises(SystemExit) as done:
        app(["replay", "--help"], prog_name="olympiad")  # in this process: the app itself is left whole
    assert done.value.code == 0 and app.registered_commands is original and len(original) > 20


def test_help_shows_flags_as_flags_and_arguments_by_name() -> None:
    replay = run("replay", "--help").stdout
    assert "Usage: olympiad replay [OPTIONS] SOURCE" in replay
    assert "<bool>" not in replay and "{source}" not in replay
    enter = " ".join(run("enter", "--help").stdout.split())
    assert "TOURNAMENT ROUND TABLE BOARD RESULT" in enter
    for text in ("round number", "table (match) number", "board 1..4", "forfeits: olympiad forfeit"):
        assert text in enter


def test_help_lists_the_profiles_there_are() -> None:
    from olympiad.cmd_pairing import PROFILE_NAMES
    from schemas.profile import PROFILES

    assert PROFILE_NAMES == ", ".join(sorted(PROFILES))


def test_serve_on_a_busy_port_prints_no_token() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        proc = run("serve", "--source", "samarkand-2026-open", "--rounds", "10", "--port", str(port))
    assert proc.returncode == 2
    assert "token" not in proc.stdout + proc.stderr
    assert f"cannot listen on 127.0.0.1:{port}" in " ".join(proc.stderr.split())


def test_serve_refuses_a_round_never_paired_as_replay_does() -> None:
    serve = run("serve", "--source", "samarkand-2026-open", "--rounds", "99", "--port", "0")
    replay = run("replay", "samarkand-2026-open", "--through-round", "99")
    message = "round 99 has not been paired in this log (last paired round: 11)"
    assert (serve.returncode, replay.returncode) == (2, 2)
    assert message in " ".join(serve.stderr.split()) and message in " ".join(replay.stderr.split())
    assert "token" not in serve.stdout


def test_postgresql_urls_name_the_installed_driver() -> None:
    from projections.store import database_url

    assert database_url("postgresql://postgres@127.0.0.1:55432/olympiad") == "postgresql+psycopg2://postgres@127.0.0.1:55432/olympiad"
    assert database_url("postgres://u@h/db") == "postgresql+psycopg2://u@h/db"
    assert database_url("sqlite:///x.db") == "sqlite:///x.db"


def test_serve_refuses_a_database_it_cannot_use() -> None:
    proc = run("serve", "--source", "samarkand-2026-open", "--port", "0", "--db", "postgresql+psycopg://u@127.0.0.1:1/x")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    message = " ".join(proc.stderr.split())
    assert "refused: --db postgresql+psycopg://u@127.0.0.1:1/x" in message and "psycopg2" in message


def test_simulate_one_round_and_an_early_stop(tmp_path) -> None:
    one = run("simulate", "--teams", "10", "--rounds", "1", "--out", str(tmp_path / "one.jsonl.gz"))
    assert one.returncode == 0, one.stderr
    assert "1 of 1 rounds" in one.stdout
    # two teams cannot meet twice: round 2 cannot be paired, the simulation stops early
    short = run("simulate", "--teams", "2", "--rounds", "3", "--out", str(tmp_path / "short.jsonl.gz"))
    assert short.returncode == 1
    assert "1 of 3 rounds" in short.stdout and "stopped early: round 2 cannot be paired" in short.stderr


def test_pair_explain_takes_a_name_or_a_code_and_refuses_before_printing() -> None:
    by_name = run("pair", "samarkand-2026-open", "--round", "11", "--explain", "India")
    by_code = run("pair", "samarkand-2026-open", "--round", "11", "--explain", "ind")
    assert by_name.returncode == by_code.returncode == 0, by_name.stderr
    assert "why India (IND):" in by_name.stdout
    assert by_name.stdout == by_code.stdout
    wrong = run("pair", "samarkand-2026-open", "--round", "11", "--explain", "Indi")
    assert wrong.returncode == 2 and wrong.stdout == ""
    assert "no such team; did you mean India (IND)" in " ".join(wrong.stderr.split())


def test_enter_and_watch_fail_fast_without_a_broker() -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {"KAFKA_BOOTSTRAP_SERVERS": f"127.0.0.1:{port}"}
    for args in (("enter", "samarkand-2026-open", "11", "1", "1", "1-0", "--kafka", f"127.0.0.1:{port}"),
                 ("round", "close", "samarkand-2026-open", "11", "--kafka", f"127.0.0.1:{port}"),
                 ("watch", "samarkand-2026-open", "--once")):
        proc = run(*args, env=env, timeout=20)  # the Kafka client alone would wait some 30 s
        assert proc.returncode == 2, proc.stderr
        assert f"no broker answers at 127.0.0.1:{port}" in " ".join(proc.stderr.split())


def test_serve_prints_the_arbiter_page_with_the_token_it_made(tmp_path) -> None:
    """The printed arbiter page address carries the random chief token, and that token is the
    chief arbiter's: it issues a terminal token (POST .../terminals)."""
    import json
    import re
    import urllib.error
    import urllib.request

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    proc = subprocess.Popen([*OLYMPIAD, "serve", "--source", "samarkand-2026-open", "--rounds", "10", "--port", str(port),
                             "--db", f"sqlite:///{tmp_path / 'serve.db'}"], stdout=subprocess.PIPE, text=True,
                            env={k: v for k, v in os.environ.items() if k != "OLYMPIAD_CHIEF_TOKEN"})
    try:
        lines = [proc.stdout.readline() for _ in range(7)]
        printed = "".join(lines)
        token = re.search(r"chief arbiter token: (\S+)", printed).group(1)
        assert f"arbiter page http://127.0.0.1:{port}/arbiter#token={token}\n" in printed
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/tournaments/samarkand-2026-open/terminals", method="POST",
            data=json.dumps({"terminal_id": "table-1", "tables": [1]}).encode(),
            headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
        for _ in range(300):  # the address is printed before uvicorn accepts
            try:
                with urllib.request.urlopen(request, timeout=30) as answer:
                    assert json.load(answer)["tables"] == [1]
                break
            except urllib.error.HTTPError:
                raise
            except urllib.error.URLError:  # not listening yet
                time.sleep(0.1)
        else:
            raise AssertionError("olympiad serve never answered")
    finally:
        proc.terminate()
        proc.wait(timeout=30)
