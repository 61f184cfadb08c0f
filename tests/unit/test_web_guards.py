"""Issue 12, web limits: a body size limit (413), Content-Security-Policy and X-Frame-Options on
every answer, the chief token from a file or the environment (never the command line) and of at
least 128 bits. Before: 50 MB bodies accepted, no such headers, ``--chief-token x`` accepted."""
from __future__ import annotations

import secrets

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from olympiad.cli import app as cli
from olympiad.web.auth import TokenStore, check_chief_token
from olympiad.web.embedded import store_engine
from olympiad.web.guards import MAX_BODY_BYTES
from tests.factories import TID, four_team_round_one
from tests.web_app import embedded_app

CHIEF = secrets.token_urlsafe(16)


@pytest.fixture(scope="module")
def client():
    app, store, _ = embedded_app(four_team_round_one(), CHIEF)
    with TestClient(app) as c:
        yield c, store


def test_a_body_over_the_limit_is_refused_with_413_and_nothing_is_stored(client):
    c, store = client
    before = len(store.events())
    url = f"/api/tournaments/{TID}/terminals"
    big = b'{"terminal_id": "t", "note": "' + b"x" * (MAX_BODY_BYTES + 1) + b'"}'
    answer = c.post(url, content=big, headers={"Authorization": f"Bearer {CHIEF}", "Content-Type": "application/json"})
    assert answer.status_code == 413 and answer.json()["rule"] == "request body size limit"
    chunked = c.post(url, content=iter([big[:40_000], big[40_000:]]),
                     headers={"Authorization": f"Bearer {CHIEF}", "Content-Type": "application/json"})
    assert chunked.status_code == 413
    assert len(store.events()) == before
    small = c.post(url, json={"terminal_id": "t1", "tables": [1]}, headers={"Authorization": f"Bearer {CHIEF}"})
    assert small.status_code == 201, small.text


@pytest.mark.parametrize("path", ["/", "/entry", "/teams/A", f"/api/tournaments/{TID}", "/static/style.css", "/nowhere"])
def test_every_answer_carries_the_security_headers(client, path):
    answer = client[0].get(path)
    csp = answer.headers["content-security-policy"]
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp and "script-src 'self';" in csp
    assert answer.headers["x-frame-options"] == "DENY"
    assert answer.headers["x-content-type-options"] == "nosniff"


def test_the_pages_hold_no_inline_styles_or_scripts_the_policy_would_block():
    from olympiad.web.app import STATIC

    for page in [*STATIC.glob("*.html"), *(STATIC.parent / "templates").glob("*.html")]:
        text = page.read_text()
        assert "style=" not in text and "<style" not in text, page
        assert text.count("<script") == text.count("<script src="), page


@pytest.mark.parametrize("token", ["x", "chief", "0123456789abcdef", "a" * 40, "😀" * 30])
def test_a_weak_chief_token_is_refused(token):
    with pytest.raises(ValueError, match="128 bits"):
        check_chief_token(token)
    with pytest.raises(ValueError, match="128 bits"):
        TokenStore(store_engine("sqlite://")).set_chief_token(TID, token)


def test_strong_tokens_pass():
    for token in (secrets.token_urlsafe(16), secrets.token_hex(16), secrets.token_urlsafe(32)):
        check_chief_token(token)


def test_serve_takes_no_token_on_the_command_line_and_refuses_a_weak_one(tmp_path, monkeypatch):
    runner = CliRunner()
    on_command_line = runner.invoke(cli, ["serve", "--chief-token", CHIEF])
    assert on_command_line.exit_code == 2 and "No such option" in on_command_line.output
    monkeypatch.setenv("OLYMPIAD_CHIEF_TOKEN", "x")
    weak = runner.invoke(cli, ["serve", "--source", "samarkand-2026-open"])
    assert weak.exit_code == 2 and "128 bits" in " ".join(weak.output.split())
    monkeypatch.delenv("OLYMPIAD_CHIEF_TOKEN")
    path = tmp_path / "chief.token"
    path.write_text("short\n")
    from_file = runner.invoke(cli, ["serve", "--source", "samarkand-2026-open", "--chief-token-file", str(path)])
    assert from_file.exit_code == 2 and "128 bits" in " ".join(from_file.output.split())
