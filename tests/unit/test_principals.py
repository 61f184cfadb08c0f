"""Issue 25: on a broker with authentication a command's actor is its commands topic's principal
(``processors.principals``), never the message's; the processors' judge applies it."""
from __future__ import annotations

import json

import pytest

from deploy.principals import acls_of
from processors.judge import COMMANDS_ONLY, Judge
from processors.principals import actor_of, take_actor
from processors.tournament import RuleViolation
from schemas.commands import parse_command

CREATE = {"command": "CreateTournament", "tournament_id": "cup", "actor": {"role": "chief", "id": "chief"},
          "name": "Cup", "profile": "olympiad-2022", "command_id": "c1"}


@pytest.mark.parametrize("principal, actor", [
    ("chief", {"role": "chief", "id": "chief"}),
    ("arbiter-ana", {"role": "arbiter", "id": "arbiter-ana"}),
    ("terminal-12", {"role": "terminal", "id": "terminal-12", "table": 12}),
    ("terminal-hall-b", {"role": "terminal", "id": "terminal-hall-b", "table": None}),
    ("captain-UZB", {"role": "captain", "id": "captain-UZB", "team": "UZB"}),
    ("feed-chennai", {"role": "feed", "id": "feed-chennai"}),
    ("processors", None), ("worker", None), ("web", None), ("terminal-", None), ("chief-2", None),
])
def test_a_principal_names_its_actor(principal: str, actor: dict | None) -> None:
    assert actor_of(principal) == actor


def test_the_message_actor_is_replaced_by_the_principals_or_refused() -> None:
    command = parse_command(CREATE)
    assert take_actor(command, "captain-UZB").actor.model_dump() == {"role": "captain", "id": "captain-UZB",
                                                                     "table": None, "team": "UZB"}
    assert take_actor(command, "web") is command  # a relay: the web app authenticated the actor with a token
    with pytest.raises(RuleViolation) as refused:
        take_actor(command, "worker")
    assert str(refused.value) == ("actor: principal 'worker' issues no commands (CreateTournament refused) "
                                  "[rule: the actor is the producer's authenticated principal]")
    with pytest.raises(RuleViolation) as refused:
        take_actor(command, None)
    assert refused.value.field == "actor" and "came on a shared input topic" in str(refused.value)


def test_the_judge_decides_as_the_topics_principal() -> None:
    raw = json.dumps(CREATE).encode()
    forged = Judge({}).judge(raw, b"cup", principal="terminal-3", authenticated=True)
    assert not forged.accepted and forged.command_id == "c1"
    assert forged.reason == ("actor: terminal 'terminal-3' may not CreateTournament: only the chief arbiter may "
                             "[rule: the chief arbiter's command]")
    shared = Judge({}).judge(raw, b"cup", principal=None, authenticated=True)
    assert not shared.accepted and shared.field == "actor"
    chief = Judge({}).judge(raw, b"cup", principal="chief", authenticated=True)
    assert chief.accepted and [e.actor for e in chief.events] == ["chief"]
    plaintext = Judge({}).judge(raw, b"cup")  # the development broker: the message's actor, as before
    assert plaintext.accepted


def test_an_event_on_a_commands_topic_is_refused() -> None:
    event = {"type": "TournamentCreated", "schema_version": 1, "event_id": "cup/created", "tournament_id": "cup",
             "name": "Cup", "profile": "olympiad-2022"}
    verdict = Judge({}).judge(json.dumps(event).encode(), b"cup", principal="terminal-3", authenticated=True)
    assert (verdict.accepted, verdict.field, verdict.rule) == (False, "command", COMMANDS_ONLY)
    assert verdict.reason == ("command: TournamentCreated without a \"command\" came on the commands topic of 'terminal-3'; "
                              "input topics carry commands only: an event enters the log as a command's decision (an "
                              "importer's facts as ImportFacts) [rule: input topics carry commands]")


def _acls(principal: str) -> set[tuple[str, str]]:
    """``principal``'s topic ACLs as (operation, topic), topics under the prefix ``p.``."""
    found = set()
    for acl in acls_of(principal, "p."):
        assert (acl.principal, acl.permission_type.name, acl.resource_pattern.resource_type.name) == (
            f"User:{principal}", "ALLOW", "TOPIC")
        found.add((acl.operation.name, acl.resource_pattern.resource_name))
    return found


OUTPUTS = {("READ", f"p.{t}") for t in ("tournament-log", "standings", "pairings", "verdicts", "dead-letters")}


def test_a_feeds_principal_writes_its_commands_and_dead_letters_and_reads_verdicts_only() -> None:
    """Issue 29: a feed's ingester sends games (its commands topic), its problems' dead letters, and
    waits for its verdicts; it reads no result and writes no other input (least privilege)."""
    assert _acls("feed-chennai") == {("WRITE", "p.commands.feed-chennai"), ("WRITE", "p.dead-letters"),
                                     ("READ", "p.verdicts")}
    assert _acls("terminal-1") == {("WRITE", "p.commands.terminal-1")} | OUTPUTS
    assert _acls("chief") == {("WRITE", "p.commands.chief"), ("WRITE", "p.tournament-events"),
                              ("WRITE", "p.board-results")} | OUTPUTS
    assert _acls("feeder") == {("WRITE", "p.commands.feeder")} | OUTPUTS  # not a feed: no "feed-" prefix
    assert acls_of("processors", "p.") == []
