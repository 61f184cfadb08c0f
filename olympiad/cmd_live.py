"""``olympiad live``, ``publish``, ``enter``, ``watch``: the Kafka pipeline from the command line.

``LivePipeline`` runs the pieces for local use (and for the integration tests and the live
benchmark): the broker of ``deploy/kafka.sh`` unless ``KAFKA_BOOTSTRAP_SERVERS`` names one, the
topics of ``deploy.topics``, the faust processors (``faust -A processors.app worker``) and the
projection worker (``python -m projections.worker``) as child processes, stopped on exit.
On a broker with authentication (``KAFKA_AUTH=scram deploy/kafka.sh``, or ``credentials`` given)
the processors run as the principal ``processors`` and the worker as ``worker``, with the
password files of ``KAFKA_CREDENTIALS``; without, every start-up warns that actors are not
authenticated (``docs/security.md``).
"""
import functools
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Optional

import typer

from olympiad.cli import app
from olympiad.broker_probe import BrokerUnavailable, require_broker
from olympiad.output import console as _console, err as _err, load_or_refuse, say

ROOT = Path(__file__).resolve().parent.parent


class Broker:
    """A Kafka cluster to use, as a context manager: ``bootstrap`` if given, else
    ``KAFKA_BOOTSTRAP_SERVERS``, else the broker of ``deploy/kafka.sh start`` (127.0.0.1:9092),
    stopped on exit if this started it and ``keep`` is False."""

    def __init__(self, bootstrap: str | None = None, keep: bool = False):
        self.bootstrap = bootstrap or os.environ.get("KAFKA_BOOTSTRAP_SERVERS")
        self.keep = keep
        self.started = False
        self.credentials: str | None = None  # KAFKA_CREDENTIALS of a broker started with KAFKA_AUTH=scram

    def __enter__(self) -> "Broker":
        if not self.bootstrap:
            script = ["bash", str(ROOT / "deploy" / "kafka.sh")]
            running = subprocess.run([*script, "status"], capture_output=True, text=True)
            if running.returncode == 0:
                out = running.stdout
            else:
                # stderr passes through: the first start shows Maven's progress resolving the jars
                started = subprocess.run([*script, "start"], stdout=subprocess.PIPE, text=True)
                if started.returncode != 0:
                    raise BrokerUnavailable(f"deploy/kafka.sh start failed (exit status {started.returncode}; "
                                            "its messages are above)")
                out = started.stdout
            lines = out.strip().splitlines()
            self.bootstrap = lines[-1].removeprefix("KAFKA_BOOTSTRAP_SERVERS=")
            self.credentials = next((ln.removeprefix("KAFKA_CREDENTIALS=") for ln in lines if ln.startswith("KAFKA_CREDENTIALS=")), None)
            self.started = running.returncode != 0
        return self

    def __exit__(self, *exc: object) -> None:
        if self.started and not self.keep:
            subprocess.run(["bash", str(ROOT / "deploy" / "kafka.sh"), "stop"], check=False, capture_output=True)


def kafka_refusals(command):
    """Decorate a command: a broker that cannot be reached or started ends it with a clear refusal
    (exit status 2) instead of a traceback."""
    @functools.wraps(command)
    def run(*args, **kwargs):
        from kafka.errors import KafkaError
        from rich.markup import escape

        try:
            return command(*args, **kwargs)
        except (BrokerUnavailable, KafkaError) as exc:
            where = os.environ.get("KAFKA_BOOTSTRAP_SERVERS") or "the local deploy/ broker"
            _err().print(f"[bold red]refused[/]: no Kafka broker to use ({where}): {escape(str(exc) or type(exc).__name__)}; "
                      "set KAFKA_BOOTSTRAP_SERVERS to a running broker, or KAFKA_PORT to a free port for deploy/kafka.sh",
                      highlight=False, soft_wrap=True)
            raise typer.Exit(code=2) from None

    return run


class LivePipeline:
    """Broker (see ``Broker``), topics, processors and projection worker; a context manager.

    ``topic_prefix`` and ``database_url`` are handed to the children as ``OLYMPIAD_TOPIC_PREFIX`` /
    ``DATABASE_URL``. ``processors`` faust processors and ``workers`` projection workers are
    started, each in its consumer group (``docs/scaling.md``); the children are named
    ``processors``, ``processors-2`` ... and ``projections``, ``projections-2`` ..., each logging
    to ``var/live/<prefix><name>.log``.
    ``credentials``: the folder of the principals' password files of a broker with authentication
    (default ``$KAFKA_CREDENTIALS``, or the one the started broker printed): the topics, commands
    topics and ACLs of ``BUILT_IN`` are made as ``admin`` and the children run as their principals.
    """

    BUILT_IN = ("processors", "worker", "chief", "web")

    def __init__(self, bootstrap: str | None = None, topic_prefix: str | None = None, database_url: str | None = None,
                 keep_broker: bool = False, credentials: str | None = None, processors: int = 1, workers: int = 1):
        from deploy import topics

        if processors < 1 or workers < 1:
            raise ValueError(f"processors={processors}, workers={workers}: at least one of each")
        self.instances = {"processors": processors, "projections": workers}

        self.broker = Broker(bootstrap, keep_broker)
        self.bootstrap: str | None = None
        self.topic_prefix = topics.prefix() if topic_prefix is None else topic_prefix
        self.database_url = database_url or os.environ.get("DATABASE_URL")
        self.children: dict[str, subprocess.Popen] = {}
        self.logdir = ROOT / "var" / "live"
        self.credentials = credentials or os.environ.get("KAFKA_CREDENTIALS")

    def __enter__(self) -> "LivePipeline":
        from deploy import kafka_security, principals, topics

        self.bootstrap = self.broker.__enter__().bootstrap
        self.credentials = self.credentials or self.broker.credentials
        if self.credentials:
            old = os.environ.get("KAFKA_CREDENTIALS")
            os.environ["KAFKA_CREDENTIALS"] = self.credentials  # read by kafka_security, for admin's password
            try:
                principals.add(list(self.BUILT_IN), self.bootstrap, self.topic_prefix, username="admin")
            finally:
                if old is None:
                    del os.environ["KAFKA_CREDENTIALS"]
                else:
                    os.environ["KAFKA_CREDENTIALS"] = old
        else:
            kafka_security.warn_unauthenticated(f"{self.bootstrap} (olympiad live)")
            topics.ensure_topics(self.bootstrap, self.topic_prefix)
        self.logdir.mkdir(parents=True, exist_ok=True)
        for kind, count in self.instances.items():
            for i in range(1, count + 1):
                self.start(self.child_name(kind, i))
        return self

    @staticmethod
    def child_name(kind: str, i: int) -> str:
        """The name of the ``i``-th (from 1) child of ``kind`` ("processors" or "projections")."""
        return kind if i == 1 else f"{kind}-{i}"

    def __exit__(self, *exc: object) -> None:
        for name in list(self.children):
            self.stop(name)
        self.broker.__exit__(*exc)

    def env(self) -> dict[str, str]:
        from olympiad.web.local_server import free_port

        env = {**os.environ, "KAFKA_BOOTSTRAP_SERVERS": self.bootstrap or "", "OLYMPIAD_TOPIC_PREFIX": self.topic_prefix}
        # A free port all the same, so that pipelines coexist should a web server be turned on.
        env.setdefault("WEB_PORT", str(free_port()))
        if self.database_url:
            env["DATABASE_URL"] = self.database_url
        for name in ("KAFKA_SASL_USERNAME", "KAFKA_SASL_PASSWORD", "KAFKA_SASL_PASSWORD_FILE"):
            env.pop(name, None)  # a child authenticates as its own principal, not as the caller
        if self.credentials:
            env["KAFKA_CREDENTIALS"] = self.credentials
        return env

    def command(self, name: str) -> list[str]:
        if name.startswith("processors"):
            return [str(Path(sys.executable).parent / "faust"), "-A", "processors.app", "worker", "-l", "info", "--without-web"]
        return [sys.executable, "-m", "projections.worker"]

    def start(self, name: str) -> None:
        """Start child ``name`` ("processors", "projections", or either with ``-<i>``: ``child_name``)."""
        logfile = (self.logdir / f"{self.topic_prefix}{name}.log").open("ab")
        env = self.env()
        if self.credentials:
            env["KAFKA_SASL_USERNAME"] = "processors" if name.startswith("processors") else "worker"
        self.children[name] = subprocess.Popen(self.command(name), cwd=ROOT, env=env, stdout=logfile,
                                               stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)

    def stop(self, name: str, sig: int = signal.SIGTERM) -> None:
        """Stop child ``name`` with ``sig`` (SIGKILL to simulate a crash); wait for it to exit."""
        proc = self.children.pop(name)
        if proc.poll() is None:
            proc.send_signal(sig)
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

    def check(self) -> None:
        """Raise ``RuntimeError`` if a child has died."""
        for name, proc in self.children.items():
            if proc.poll() is not None:
                raise RuntimeError(f"{name} exited with {proc.returncode}; see {self.logdir / (self.topic_prefix + name + '.log')}")


def render(body: dict[str, Any], created: dict[str, Any] | None) -> str:
    """The text table of a ``StandingsUpdated`` body; tie-breaks in the order of the tournament's profile."""
    from olympiad.render import standings_text

    tiebreaks = tuple(created["profile"]["tiebreaks"]) if created else tuple(sorted(body["rows"][0]["tiebreaks"]) if body["rows"] else ())
    name = created["name"] if created else body["tournament_id"]
    title = f"{name}: standings after round {body['round']}" + ("" if body["complete"] else " (provisional)")
    primary = str(((created or {}).get("profile", {}).get("swiss_team") or {}).get("primary_score", "mp")).upper()
    return standings_text(body["rows"], tiebreaks, title, primary)


class _Bar:
    """Adapter from ``producers.publish.publish``'s progress protocol to a rich task."""

    def __init__(self, progress: Any, task: Any):
        self.progress, self.task = progress, task

    def advance(self, n: int) -> None:
        self.progress.advance(self.task, n)

    def describe(self, text: str) -> None:
        self.progress.update(self.task, description=text)


def _publish_with_bar(events: list, speed: float, bootstrap: str | None, topic_prefix: str | None, timeout: float):
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from producers.publish import publish as publish_events

    columns = (TextColumn("{task.description:>9}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=_err()) as progress:
        bar = _Bar(progress, progress.add_task("registration", total=len(events)))
        return publish_events(events, speed=speed, bootstrap=bootstrap, topic_prefix=topic_prefix, progress=bar,
                              timeout=timeout)


def _load(source: str) -> list:
    return load_or_refuse(source)


@app.command()
@kafka_refusals
def live(
    source: Optional[str] = typer.Argument(None, metavar="SOURCE", help="publish this source (shipped log name, data folder or event log), print the final standings and stop"),
    speed: float = typer.Option(0.0, "--speed", help="board results per second when publishing (0: as fast as the pipeline takes them)"),
    keep_running: bool = typer.Option(False, "--keep-running", help="leave the broker running at the end"),
    timeout: float = typer.Option(300.0, "--timeout", help="seconds to wait for the pipeline at each round"),
    processors: int = typer.Option(1, "--processors", min=1, help="faust processor instances (one consumer group; at most the partitions, OLYMPIAD_PARTITIONS, get work)"),
    workers: int = typer.Option(1, "--workers", min=1, help="projection worker instances sharing the database (one consumer group)"),
) -> None:
    """Run broker (unless KAFKA_BOOTSTRAP_SERVERS names one), processors and projection workers.

    With SOURCE: publish it through Kafka round by round, print the final standings and their
    digest, check it against `olympiad replay` of the same source, and stop. Without: run until Ctrl-C.
    """
    from projections.replay import replay

    events = _load(source) if source else []
    _err().print(f"starting broker, {processors} processor(s) and {workers} projection worker(s) ...")
    with LivePipeline(keep_broker=keep_running, processors=processors, workers=workers) as pipeline:
        say(f"broker {pipeline.bootstrap}; logs in {pipeline.logdir}", stderr=True)
        if pipeline.credentials and not os.environ.get("KAFKA_SASL_USERNAME"):
            # What this process imports (a data set's facts, ImportFacts) it imports as the chief arbiter.
            os.environ.update(KAFKA_SASL_USERNAME="chief", KAFKA_CREDENTIALS=pipeline.credentials)
        if not source:
            _err().print("running; Ctrl-C stops")
            try:
                while True:
                    pipeline.check()
                    time.sleep(1)
            except KeyboardInterrupt:
                return
        follower = _publish_with_bar(events, speed, pipeline.bootstrap, pipeline.topic_prefix, timeout)
        follower.close()
    tid = events[0].tournament_id
    last = follower.rounds(tid)[-1]
    body = follower.latest(tid, last).body
    _console().print(render(body, follower.created.get(tid)), markup=False, highlight=False, soft_wrap=True)  # full-width rows also when redirected
    expected = replay(events).rounds[last].digest
    _console().print(f"live standings sha256 {body['digest']}", highlight=False, soft_wrap=True)
    _console().print(f"olympiad replay sha256 {expected}: {'equal' if expected == body['digest'] else 'DIFFERENT'}",
                  highlight=False, soft_wrap=True)
    if follower.refused:
        _err().print(f"{len(follower.refused)} event(s) refused; see the dead-letters topic")
    if expected != body["digest"]:
        raise typer.Exit(code=1)


@app.command("publish")
@kafka_refusals
def publish_command(
    source: str = typer.Argument(..., metavar="SOURCE", help="a shipped log name (samarkand-2026-open), a data folder or an event log"),
    speed: float = typer.Option(0.0, "--speed", help="board results per second (0: as fast as the pipeline takes them)"),
    timeout: float = typer.Option(300.0, "--timeout", help="seconds to wait for the pipeline at each round"),
) -> None:
    """Import SOURCE into Kafka round by round, its facts as ImportFacts commands (needs running processors and worker)."""
    events = _load(source)
    require_broker()
    follower = _publish_with_bar(events, speed, None, None, timeout)
    follower.close()
    _err().print(f"{len(events)} events published; {len(follower.refused)} refused")


@app.command()
@kafka_refusals
def watch(
    tournament: str = typer.Argument(..., metavar="TOURNAMENT", help="tournament id"),
    once: bool = typer.Option(False, "--once", help="print the current standings and exit"),
    timeout: float = typer.Option(30.0, "--timeout", help="with --once: seconds to wait for standings"),
) -> None:
    """A terminal scoreboard: the latest standings of TOURNAMENT, updated as StandingsUpdated events arrive."""
    from rich.live import Live
    from rich.text import Text

    from producers.publish import Follower

    require_broker()
    follower = Follower()

    def current() -> Optional[dict[str, Any]]:
        rounds = follower.rounds(tournament)
        return follower.latest(tournament, rounds[-1]).body if rounds else None

    try:
        if once:
            follower.wait(lambda: current() is not None, timeout, f"standings of {tournament}")
            time.sleep(1.0)  # let the follower read what is already there, so that the latest is shown
            _console().print(render(current(), follower.created.get(tournament)), markup=False, highlight=False)
            return
        shown = None
        with Live(console=_console(), refresh_per_second=4, screen=False) as view:
            while True:
                time.sleep(0.25)
                body = current()
                if body is not None and body["event_id"] != shown:
                    view.update(Text(render(body, follower.created.get(tournament))))
                    shown = body["event_id"]
    except KeyboardInterrupt:
        pass
    except TimeoutError as exc:
        _err().print(f"[bold red]no standings[/]: {exc}")
        raise typer.Exit(code=1)
    finally:
        follower.close()
