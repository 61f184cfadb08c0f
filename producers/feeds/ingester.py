"""The feed ingester: polls its sources and sends each game that changed as a ``ReportGame``
through a door (``producers.doors``: embedded or Kafka); a text that is no game as a
``ReportFeedProblem``. It holds no rule: the decider maps, judges and flags
(``processors.deciders.games``); a refusal is reported as a feed problem and the feed goes on.

Polling: every ``interval`` seconds (default 5, never below ``MIN_INTERVAL`` = 2); a source that
fails is polled again after ``interval`` x 2^failures (at most ``MAX_BACKOFF`` s), and at the
normal pace once it answers. A game is sent again only when its snapshot changed, or while no
move is made on it (ply 0 or 1: the decider may list a late arrival), so a poll yields at most one
progress event per game; the games that ended are sent first. Every problem recorded is also handed to ``dead_letters`` (on Kafka: the
``dead-letters`` topic, ``schemas.dead_letters`` envelope); on the embedded store the
``FeedProblemReported`` event keeps the text.
"""
from __future__ import annotations

import hashlib
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Callable, Iterable

from producers.feeds.reading import Unreadable
from producers.feeds.sources import FeedSource
from schemas.command_base import Actor
from schemas.dead_letters import dead_letter
from schemas.game_commands import ReportFeedProblem, ReportGame
from schemas.game_events import FEED_PROBLEM_RULES, copy_fields

DEFAULT_INTERVAL = 5.0
MIN_INTERVAL = 2.0
MAX_BACKOFF = 120.0
FEED_ACTOR = Actor(role="feed", id="feed")


@dataclass
class PollReport:
    """What one poll did: ``games`` seen, ``moves`` (new plies) and ``commands`` sent, ``events``
    recorded, ``problems`` recorded, ``ended`` games whose result was first sent (the last one's
    verdict at ``ended_at``, ``time.perf_counter``), sources that ``failed`` (name -> reason),
    commands without a verdict (``unanswered``), one line per feed problem recorded (``notes``:
    its kind, the feed and the game, what is wrong, the field and the rule)."""

    games: int = 0
    moves: int = 0
    commands: int = 0
    events: int = 0
    problems: int = 0
    ended: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)
    unanswered: int = 0
    ended_at: float | None = None
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class _Send:
    """One command of a poll: the game's ``key`` (source, place), what was ``read`` and what was
    sent ``before`` for it, the ``command``; for a problem, its ``text``, ``rule`` and
    ``reason`` (the dead letter's; a refusal's ``reason`` names its field and rule) and the text's
    ``digest``."""

    key: tuple[str, str]
    read: Any
    before: Any
    command: Any
    text: str = ""
    rule: str = ""
    reason: str = ""
    digest: str = ""


def _line(text: str) -> str:
    """``text`` on one line (a reason holds no control character)."""
    return " ".join(text.split())


def _note(send: _Send, problem_id: str) -> str:
    """One line for the operator on the feed problem ``problem_id`` that ``send`` recorded: its
    kind, the feed and the game's place in it, what is wrong, the field and the rule."""
    kind = problem_id.split("/feed/", 1)[1].split("/", 1)[0]
    field_name, rule = FEED_PROBLEM_RULES.get(kind, ("game", send.rule))
    read = send.read
    if send.reason:  # a text that is no game, or a game the decider refused: in its own words
        what = send.reason
    elif kind == "unmapped-game":
        ids = ", ".join(f"{side} {getattr(read, side + '_fide_id') or 'none'}" for side in ("white", "black"))
        what = (f"{read.white or '?'!r} v {read.black or '?'!r} maps to no board of the round: tried the FIDE ids "
                f"({ids}), then the names, in the teams' line-ups")
    elif kind == "board-claimed-twice":
        what = f"{read.white} v {read.black} claims a board another game of the feed holds (a board swap?)"
    elif kind == "result-flipped":
        what = f"the result is now {read.result}, not the one the feed reported: the board's result stands, the arbiter decides"
    else:
        what = kind
    if "[rule: " not in what:
        what += f" [field: {field_name}; rule: {send.rule or rule}]"
    return _line(f"feed problem ({kind}): {send.command.source} {read.game}: {what}")


def _utc_now() -> datetime:
    return datetime.now(timezone.utc)


class Ingester:
    """Polls ``sources`` for ``tournament_id`` and submits through ``submit`` (a door's
    ``submit``: command -> ``Outcome``; ``TimeoutError``: no verdict) as ``actor``, or a poll's
    commands at once through ``submit_all`` (a door's ``submit_all``: commands -> their
    ``Outcome`` or None, in order); ``now`` stamps the commands; ``dead_letters`` takes each
    problem's envelope (bytes)."""

    def __init__(self, submit: Callable[[Any], Any], tournament_id: str, sources: Iterable[FeedSource],
                 actor: Actor = FEED_ACTOR, now: Callable[[], datetime] = _utc_now,
                 dead_letters: Callable[[bytes], None] | None = None,
                 submit_all: Callable[[list[Any]], list[Any]] | None = None):
        self.submit, self.submit_all, self.tournament_id, self.sources = submit, submit_all, tournament_id, list(sources)
        self.actor, self.now, self.dead_letters = actor, now, dead_letters
        self.sent: dict[tuple[str, str], Any] = {}
        self.failures: dict[str, int] = {}
        self.resume_at: dict[str, float] = {}
        self.problems: list[str] = []

    def poll_once(self, interval: float = DEFAULT_INTERVAL) -> PollReport:
        """Poll every source that is not backing off; send what changed, the poll's commands in
        one batch (``submit_all``: one round trip to the processors, not one per game), then the
        refusals named as feed problems in a second. Never raises for a source that fails or a
        game that is refused."""
        report = PollReport()
        sends: list[_Send] = []
        for source in self.sources:
            if time.monotonic() < self.resume_at.get(source.name, 0.0):
                continue
            try:
                reads = source.poll()
            except (OSError, ValueError) as exc:
                n = self.failures[source.name] = self.failures.get(source.name, 0) + 1
                self.resume_at[source.name] = time.monotonic() + min(interval * 2 ** n, MAX_BACKOFF)
                report.failed[source.name] = f"{exc.__class__.__name__}: {exc}"
                continue
            self.failures.pop(source.name, None)
            self.resume_at.pop(source.name, None)
            # ended games first: a result reaches the standings before the progress of the others
            for read in sorted(reads, key=lambda r: getattr(r, "result", "*") == "*"):
                report.games += 1
                if (send := self._command(source.name, read)) is not None:
                    sends.append(send)
        refusals = [problem for send, outcome in zip(sends, self._submit_all([s.command for s in sends], report))
                    if (problem := self._settle(send, outcome, report)) is not None]
        for problem, outcome in zip(refusals, self._submit_all([p.command for p in refusals], report)):
            self._account(problem, outcome, report)
        return report

    def _command(self, source: str, read: Any) -> "_Send | None":
        """The command for ``read`` if it changed since it was last sent (a text that is no game:
        a ``ReportFeedProblem``; a game: a ``ReportGame``), else None."""
        key = (source, read.game)
        before = self.sent.get(key)
        if isinstance(read, Unreadable):
            digest = hashlib.sha256(read.text.encode("utf-8")).hexdigest()
            if before == digest:
                return None
            return _Send(key, read, before, self._problem(source, read.game, read.reason, read.text), read.text,
                         "a feed is read as games", read.reason, digest)
        if before == read and not (read.result == "*" and len(read.moves) < 2):
            return None
        command = ReportGame(tournament_id=self.tournament_id, actor=self.actor, issued_at=self.now(), source=source,
                             game=read)
        return _Send(key, read, before, command)

    def _settle(self, send: "_Send", outcome: Any, report: PollReport) -> "_Send | None":
        """Count ``send``'s ``outcome`` and remember what was sent; the problem to report for a game
        the decider refused (named and kept), else None."""
        read, before = send.read, send.before
        if outcome is None:
            return None  # no verdict: sent again at the next poll
        self._account(send, outcome, report)
        if isinstance(read, Unreadable):
            self.sent[send.key] = send.digest
            return None
        if not outcome.accepted and outcome.field == "game.round":
            return None  # a round not published yet: sent again at the next poll
        self.sent[send.key] = read
        known = len(before.moves) if isinstance(before, type(read)) else 0
        report.moves += max(0, len(read.moves) - known)
        if read.result != "*" and (not isinstance(before, type(read)) or before.result == "*"):
            report.ended.append(read.game)
            report.ended_at = time.perf_counter()
        if outcome.accepted:
            return None
        text = read.model_dump_json()  # refused (a rule the decider applies to the game itself)
        return _Send(send.key, read, before, self._problem(send.command.source, read.game, outcome.reason, text), text,
                     outcome.rule, outcome.reason)

    def _problem(self, source: str, place: str, reason: str, text: str) -> ReportFeedProblem:
        return ReportFeedProblem(tournament_id=self.tournament_id, actor=self.actor, issued_at=self.now(), kind="malformed-pgn",
                                 source=source[:500], game=place[:500], reason=_line(reason or "unreadable")[:2000],
                                 **copy_fields(text))

    def _submit_all(self, commands: list[Any], report: PollReport) -> list[Any]:
        """The outcomes of ``commands``, in order (None: no verdict came; sent again at the next
        poll): through ``submit_all`` in one batch, else one ``submit`` each."""
        if not commands:
            return []
        if self.submit_all is not None:
            outcomes = list(self.submit_all(commands))
        else:
            outcomes = []
            for command in commands:
                try:
                    outcomes.append(self.submit(command))
                except TimeoutError:
                    outcomes.append(None)
        report.unanswered += sum(1 for o in outcomes if o is None)
        report.commands += sum(1 for o in outcomes if o is not None)
        return outcomes

    def _account(self, send: "_Send", outcome: Any, report: PollReport) -> None:
        """Count the events of an accepted ``outcome``; hand each feed problem it recorded to
        ``dead_letters`` (the text of ``send``, its rule and reason)."""
        if not outcome.accepted or outcome.already_recorded:
            return
        report.events += len(outcome.event_ids)
        problems = [i for i in outcome.event_ids if f"{self.tournament_id}/feed/" in i]
        report.problems += len(problems)
        report.notes.extend(_note(send, p) for p in problems)
        self.problems.extend(problems)
        if problems and self.dead_letters is not None:
            command = send.command
            body = send.text or (command.game.model_dump_json() if isinstance(command, ReportGame) else "")
            self.dead_letters(dead_letter({"topic": "feed", "source": command.source, "problem": problems[0]},
                                          self.tournament_id.encode(), body.encode("utf-8"), "game",
                                          send.rule or "a feed is read as games", send.reason or problems[0]))

    def run(self, interval: float = DEFAULT_INTERVAL, stop: threading.Event | None = None, polls: int | None = None,
            on_poll: Callable[[PollReport], None] | None = None) -> None:
        """Poll every ``interval`` seconds (at least ``MIN_INTERVAL``) until ``stop`` is set or
        ``polls`` polls are done; ``on_poll`` sees each poll's report."""
        interval = max(interval, MIN_INTERVAL)
        stop = stop or threading.Event()
        done = 0
        while not stop.is_set():
            started = time.monotonic()
            report = self.poll_once(interval)
            if on_poll is not None:
                on_poll(report)
            done += 1
            if polls is not None and done >= polls:
                return
            stop.wait(max(0.0, interval - (time.monotonic() - started)))
