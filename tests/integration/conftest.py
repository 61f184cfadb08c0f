"""Fixtures for the integration tests: a real Kafka broker and a real PostgreSQL, never a mock.

Which broker (session-scoped, first that applies):

1. ``KAFKA_BOOTSTRAP_SERVERS`` is set: that cluster (a developer's own broker; ``.ci/run`` sets nothing, so CI gets 3.);
2. a Docker engine answers: testcontainers' Kafka module (Confluent Platform 8.1 = Apache Kafka 4.1, KRaft);
3. otherwise ``deploy/kafka.sh`` starts a fresh broker of its own (``var/kafka-test-<port>``), stopped
   at the end of the session, on ``KAFKA_PORT`` (its controller on ``KAFKA_PORT + 1``) if set, else
   on a free pair of ports, so that two test runs on one machine never share a broker.

Which PostgreSQL: ``DATABASE_URL`` if set, else testcontainers' PostgreSQL when Docker answers, else
``deploy/postgres.sh`` with its own cluster (``var/postgres-test-<port>``) on ``POSTGRES_PORT`` if set,
else on a free port, stopped at the end.

A second broker with authentication on (``kafka_authenticated``: SASL/SCRAM and topic ACLs,
``KAFKA_AUTH=scram deploy/kafka.sh``) is always started by ``deploy/kafka.sh`` on free ports, for
the tests of who may write (``docs/security.md``), and stopped at the end of the session.

Every test gets its own topic prefix (``topic_prefix``), so tests never read each other's events,
also on a shared cluster.
"""
from __future__ import annotations

import os
import socket
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _port_free(port: int) -> bool:
    """True if nothing listens on 127.0.0.1:``port`` (a bind succeeds)."""
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def _free_ports(variable: str, count: int) -> int:
    """The first of ``count`` consecutive free ports on 127.0.0.1: ``$variable`` when set (an operator's
    choice is kept as given), else a free run found by binding port 0 (why: two suites on one machine
    must not start their brokers on the same fixed port)."""
    given = os.environ.get(variable)
    if given:
        return int(given)
    for _ in range(200):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            first = s.getsockname()[1]
        if first + count < 65536 and all(_port_free(first + i) for i in range(1, count)):
            return first
    raise RuntimeError(f"no {count} consecutive free ports on 127.0.0.1; set {variable}")


def _docker_answers() -> bool:
    """True if a Docker engine answers a ping within 2 s (the ``docker`` package comes with testcontainers)."""
    try:
        import docker

        docker.from_env(timeout=2).ping()
        return True
    except Exception:  # noqa: BLE001 - no engine, no socket, no permission: all mean "no Docker"
        return False


def _run_deploy(script: str, *args: str, env: dict[str, str]) -> str:
    """Run ``deploy/<script> <args>``; return its stdout. Raises ``RuntimeError`` with stderr on failure."""
    proc = subprocess.run(
        ["bash", str(ROOT / "deploy" / script), *args],
        env={**os.environ, **env}, capture_output=True, text=True, timeout=600,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"deploy/{script} {' '.join(args)} failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    return proc.stdout


@pytest.fixture(scope="session")
def kafka_bootstrap() -> Iterator[str]:
    """``host:port`` of a running Kafka 4.x broker (see the module docstring for which one)."""
    given = os.environ.get("KAFKA_BOOTSTRAP_SERVERS")
    if given:
        yield given
        return
    if _docker_answers():
        from testcontainers.community.kafka import KafkaContainer

        with KafkaContainer("confluentinc/cp-kafka:8.1.0").with_kraft() as kafka:
            yield kafka.get_bootstrap_server()
        return
    port = _free_ports("KAFKA_PORT", 2)
    env = {
        "KAFKA_HOME": str(ROOT / "var" / f"kafka-test-{port}"),
        "KAFKA_PORT": str(port),
        "KAFKA_CONTROLLER_PORT": str(port + 1),
    }
    _run_deploy("kafka.sh", "reset", env=env)
    _run_deploy("kafka.sh", "start", env=env)
    try:
        yield f"127.0.0.1:{port}"
    finally:
        _run_deploy("kafka.sh", "stop", env=env)


@pytest.fixture(scope="session")
def kafka_authenticated() -> Iterator[tuple[str, Path]]:
    """``(host:port, credentials folder)`` of a Kafka 4.x broker that authenticates its clients
    (SASL/SCRAM-SHA-256) and allows only what a topic ACL allows: ``KAFKA_AUTH=scram deploy/kafka.sh``
    with its own ``var/kafka-auth-test-<port>``, on a free pair of ports (never ``KAFKA_PORT``: the
    plain broker may hold it). The folder holds one password file per principal."""
    port = _free_ports("KAFKA_AUTH_PORT", 2)
    home = ROOT / "var" / f"kafka-auth-test-{port}"
    env = {"KAFKA_HOME": str(home), "KAFKA_PORT": str(port), "KAFKA_CONTROLLER_PORT": str(port + 1),
           "KAFKA_AUTH": "scram", "KAFKA_CREDENTIALS": str(home / "credentials")}
    _run_deploy("kafka.sh", "reset", env=env)
    _run_deploy("kafka.sh", "start", env=env)
    try:
        yield f"127.0.0.1:{port}", home / "credentials"
    finally:
        _run_deploy("kafka.sh", "stop", env=env)


@pytest.fixture(scope="session")
def database_url() -> Iterator[str]:
    """SQLAlchemy URL of a running PostgreSQL (see the module docstring for which one)."""
    given = os.environ.get("DATABASE_URL")
    if given:
        yield given
        return
    if _docker_answers():
        from testcontainers.community.postgres import PostgresContainer

        with PostgresContainer("postgres:15") as pg:
            yield pg.get_connection_url()
        return
    port = _free_ports("POSTGRES_PORT", 1)
    env = {"POSTGRES_HOME": str(ROOT / "var" / f"postgres-test-{port}"), "POSTGRES_PORT": str(port)}
    _run_deploy("postgres.sh", "reset", env=env)
    url = _run_deploy("postgres.sh", "start", env=env).strip().removeprefix("DATABASE_URL=")
    try:
        yield url
    finally:
        _run_deploy("postgres.sh", "stop", env=env)


@pytest.fixture
def topic_prefix(kafka_bootstrap: str) -> str:
    """A fresh ``OLYMPIAD_TOPIC_PREFIX`` for one test, with every topic of ``deploy.topics`` created."""
    from deploy.topics import ensure_topics

    prefix = f"t{uuid.uuid4().hex[:10]}."
    ensure_topics(kafka_bootstrap, prefix)
    return prefix


@pytest.fixture(scope="module")
def fresh_database(database_url: str, tmp_path_factory: pytest.TempPathFactory):
    """A factory of empty databases on the server of ``database_url`` (one per call, dropped with
    the module): PostgreSQL gets ``CREATE DATABASE``, anything else a new SQLite file."""
    tmp_path = tmp_path_factory.mktemp("db")
    import sqlalchemy as sa
    from sqlalchemy.engine import make_url

    made: list[str] = []

    def make() -> str:
        url = make_url(database_url)
        name = f"t_{uuid.uuid4().hex[:12]}"
        if url.get_backend_name() != "postgresql":
            return f"sqlite:///{tmp_path / (name + '.sqlite')}"
        admin = sa.create_engine(url, isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
        admin.dispose()
        made.append(name)
        return url.set(database=name).render_as_string(hide_password=False)

    yield make
    if made:
        admin = sa.create_engine(make_url(database_url), isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            for name in made:
                conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
