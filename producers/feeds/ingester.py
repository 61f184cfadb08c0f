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
from schemas.game_events import copy_fields

DEFAULT_INTERVAL = 5.0
MIN_INTERVAL = 2.0
MAX_BACKOFF = 120.0
FEED_ACTOR = Actor(role="feed", id="feed")


@dataclass
class PollReport:
    """What one poll did: ``games`` seen, ``moves`` (new plies) and ``commands`` sent, ``events``
    recorded, ``problems`` recorded, ``ended`` games whose result was first sent (the last one's
    verdict at ``ended_at``, ``time.perf_counter``), sources that ``failed`` (name -> reason),
    commands without a verdict (``unanswered``)."""

    games: int = 0
    moves: int = 0
    commands: int = 0
    events: int = 0
    problems: int = 0
    ended: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)
    unanswered: int = 0
    ended_at: float | None = None


def _line(text: str) -> str:
    """``text`` on one line (a reason holds no control character)."""
    return " ".join(text.split())


def _utc_now() -> datetime:
    return datetime.now(timezone.utc)


class Ingester:
    """Polls ``sources`` for ``tournament_id`` and submits through ``submit`` (a door's
    ``submit``: command -> ``Outcome``) as ``actor``; ``now`` stamps the commands; ``dead_letters``
    takes each problem's envelope (bytes)."""

    def __init__(self, submit: Callable[[Any], Any], tournament_id: str, sources: Iterable[FeedSource],
                 actor: Actor = FEED_ACTOR, now: Callable[[], datetime] = _utc_now,
                 dead_letters: Callable[[bytes], None] | None = None):
        self.submit, self.tournament_id, self.sources = submit, tournament_id, list(sources)
        self.actor, self.now, self.dead_letters = actor, now, dead_letters
        self.sent: dict[tuple[str, str], Any] = {}
        self.failures: dict[str, int] = {}
        self.resume_at: dict[str, float] = {}
        self.problems: list[str] = []

    def poll_once(self, interval: float = DEFAULT_INTERVAL) -> PollReport:
        """Poll every source that is not backing off; send what changed. Never raises for a
        source that fails or a game that is refused."""
        report = PollReport()
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
                self._send(source.name, read, report)
        return report

    def _send(self, source: str, read: Any, report: PollReport) -> None:
        key = (source, read.game)
        before = self.sent.get(key)
        if isinstance(read, Unreadable):
            digest = hashlib.sha256(read.text.encode("utf-8")).hexdigest()
            if before == digest:
                return
            command = self._problem(source, read.game, read.reason, read.text)
            if self._submit(command, report, read.text, "a feed is read as games", read.reason) is not None:
                self.sent[key] = digest
            return
        if before == read and not (read.result == "*" and len(read.moves) < 2):
            return
        command = ReportGame(tournament_id=self.tournament_id, actor=self.actor, issued_at=self.now(), source=source,
                             game=read)
        outcome = self._submit(command, report, "", "", "")
        if outcome is None or (not outcome.accepted and outcome.field == "game.round"):
            return  # no verdict, or a round not published yet: sent again at the next poll
        self.sent[key] = read
        known = len(before.moves) if isinstance(before, type(read)) else 0
        report.moves += max(0, len(read.moves) - known)
        if read.result != "*" and (not isinstance(before, type(read)) or before.result == "*"):
            report.ended.append(read.game)
            report.ended_at = time.perf_counter()
        if not outcome.accepted:  # refused (a rule the decider applies to the game itself): named and kept
            self._submit(self._problem(source, read.game, outcome.reason, read.model_dump_json()), report,
                         read.model_dump_json(), outcome.rule, outcome.reason)

    def _problem(self, source: str, place: str, reason: str, text: str) -> ReportFeedProblem:
        return ReportFeedProblem(tournament_id=self.tournament_id, actor=self.actor, issued_at=self.now(), kind="malformed-pgn",
                                 source=source[:500], game=place[:500], reason=_line(reason or "unreadable")[:2000],
                                 **copy_fields(text))

    def _submit(self, command: Any, report: PollReport, text: str, rule: str, reason: str) -> Any:
        """Submit ``command``; None when no verdict came (sent again at the next poll)."""
        try:
            outcome = self.submit(command)
        except TimeoutError:
            report.unanswered += 1
            return None
        report.commands += 1
        if outcome.accepted and not outcome.already_recorded:
            report.events += len(outcome.event_ids)
            problems = [i for i in outcome.event_ids if f"{self.tournament_id}/feed/" in i]
            report.problems += len(problems)
            self.problems.extend(problems)
            if problems and self.dead_letters is not None:
                body = text or (command.game.model_dump_json() if isinstance(command, ReportGame) else "")
                self.dead_letters(dead_letter({"topic": "feed", "source": command.source, "problem": problems[0]},
                                              self.tournament_id.encode(), body.encode("utf-8"), "game",
                                              rule or "a feed is read as games", reason or problems[0]))
        return outcome

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
