"""Issue 26: a table's results by position take exactly one code per board (``-`` for a board not
entered); three codes for four boards, or five, are refused with the count expected, by the one
rule of the command layer (``processors.deciders.results.by_position``) at the CLI and over HTTP.
Before: ``olympiad results T 1 1 1-0 0-1 1-0`` recorded three boards without a word."""
from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from olympiad.cli import app as cli
from projections.store import EventStore
from tests.factories import TID, created, paired, stored, team
from tests.web_app import embedded_app

CHIEF = "positions-chief-5c1e9a0b7d3f2468"
RULE = "results by position: one code per board, board 1 first, '-' for a board not entered"
ROUND_ONE = [created(), *(team(c, n) for n, c in enumerate("ABCD", start=1)), paired(1, [("A", "C"), ("D", "B")])]


@pytest.fixture
def cli_store(tmp_path):
    db = f"sqlite:///{tmp_path / 'p.sqlite'}"
    stored(ROUND_ONE, db)

    def run(*codes: str) -> tuple[int, str]:
        result = CliRunner().invoke(cli, ["results", TID, "1", "1", *codes],
                                    env={"OLYMPIAD_DB": db, "OLYMPIAD_CLOCK": "2026-10-01T10:00:00Z", "COLUMNS": "300"})
        return result.exit_code, " ".join(result.output.split())

    return run, lambda: EventStore(db).state.results


@pytest.fixture
def http():
    app, store, _ = embedded_app(ROUND_ONE, CHIEF)
    with TestClient(app) as client:
        def post(body: dict):
            return client.post(f"/api/tournaments/{TID}/commands", json={"command": "RecordResults", "round": 1, "table": 1,
                                                                          **body},
                               headers={"Authorization": f"Bearer {CHIEF}"})
        yield post, lambda: store.refresh().results


@pytest.mark.parametrize("codes, said", [
    (["1-0", "0-1", "1-0"], "3 codes given for a 4-board match; give 4"),
    (["1-0", "0-1", "1-0", "-", "1-0"], "5 codes given for a 4-board match; give 4"),
    (["1-0"], "1 code given for a 4-board match; give 4"),
    (["-", "-", "-", "-"], "every code is '-': no board entered"),
])
def test_a_wrong_count_of_codes_is_refused_alike_at_the_cli_and_over_http(cli_store, http, codes, said):
    run, cli_results = cli_store
    post, http_results = http
    rule = "a table's results name one board at least" if "every code" in said else RULE
    assert run(*codes) == (2, f"refused: codes: {said} [rule: {rule}]")
    answer = post({"codes": codes})
    assert answer.status_code == 422
    assert answer.json() == {"detail": f"codes: {said} [rule: {rule}]", "field": "codes", "rule": rule, "event_id": None}
    assert cli_results() == {} and http_results() == {}


def test_a_dash_keeps_every_other_code_on_its_own_board(cli_store, http):
    run, cli_results = cli_store
    assert run("1-0", "0-1", "-", "1/2-1/2") == (0, f"recorded: {TID}/r1/t1/b1, {TID}/r1/t1/b2, {TID}/r1/t1/b4")
    post, http_results = http
    assert post({"codes": ["1-0", "0-1", "-", "1/2-1/2"]}).status_code == 201
    for results in (cli_results(), http_results()):
        assert {key: code for key, (_, code) in results.items()} == {(1, 1, 1): "1-0", (1, 1, 2): "0-1", (1, 1, 4): "1/2-1/2"}


def test_boards_are_named_or_given_by_position_not_both(http):
    post, results = http
    answer = post({"codes": ["1-0", "0-1", "1-0", "0-1"], "boards": [{"board": 1, "result": "1-0"}]})
    assert answer.status_code == 422 and answer.json()["field"] == "codes"
    assert answer.json()["detail"] == f"codes: boards are named or given by position (codes), not both [rule: {RULE}]"
    answer = post({})
    assert answer.status_code == 422 and answer.json()["rule"] == "a table's results name one board at least"
    assert post({"boards": [{"board": 3, "result": "0-1"}]}).status_code == 201  # named: any subset of the boards
    assert {key: code for key, (_, code) in results().items()} == {(1, 1, 3): "0-1"}


def test_a_bad_code_is_named_by_its_board_as_the_arbiter_counts_it(cli_store, http):
    """The third code is board 3's: ``codes[board 3]``, not the list position ``codes[2]``."""
    run, cli_results = cli_store
    rule = "schema RecordResults v1: codes values"
    said = "codes[board 3]: 'x' is not one of '1-0', '0-1', '1/2-1/2' or '-'"
    assert run("1-0", "0-1", "x", "1-0") == (2, f"refused: command RecordResults: {said} [rule: {rule}]")
    post, http_results = http
    answer = post({"codes": ["1-0", "0-1", "x", "1-0"]})
    assert answer.status_code == 422
    assert answer.json() == {"detail": f"command RecordResults: {said} [rule: request schema: codes values]",
                             "field": "codes[board 3]",
                             "rule": "request schema: codes values", "event_id": None}
    assert cli_results() == {} and http_results() == {}
