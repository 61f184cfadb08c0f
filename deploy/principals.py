"""The principals of a broker with authentication: SCRAM credentials, commands topics, topic ACLs.

``python deploy/principals.py add NAME [NAME ...]`` (run by ``KAFKA_AUTH=scram deploy/kafka.sh
start`` for the built-in principals and by ``deploy/kafka.sh principal NAME``), as the ``admin``
principal (``deploy.kafka_security``): for each NAME it creates a SCRAM-SHA-256 credential (a
random password written to ``$KAFKA_CREDENTIALS/NAME``, mode 600; an existing file is kept),
the principal's commands topic ``commands.NAME`` (``deploy.topics.principal_topic``) and the ACLs
of its kind (``acls_of``). ``OLYMPIAD_TOPIC_PREFIX`` applies to every topic named.

Who may do what (the broker's ``StandardAuthorizer``; nothing is allowed without an ACL):

==============================  =========================================================
principal                       may
==============================  =========================================================
``admin``, ``processors``,      everything (``super.users`` of the broker's configuration:
``worker``                      the admin tools, the faust app, the projection worker)
``chief``, ``web``              write its commands topic and the two input topics
                                (``tournament-events``, ``board-results``: what comes there
                                is refused by the processors, no principal vouches for it);
                                read the outputs
``feed-<id>`` (a live game      write its own commands topic and ``dead-letters`` (the
feed's ingester, issue 29)      feed's problems, ``producers.feeds.dead_letters``); read
                                ``verdicts`` only: it needs nothing else, and reads no
                                result (``FEED_READS``)
any other (``terminal-7``,      write its own commands topic only; read the outputs
``captain-UZB``, ``arbiter-x``)
==============================  =========================================================

The outputs are ``tournament-log``, ``standings``, ``pairings``, ``verdicts`` and
``dead-letters``. Which actor a principal's commands carry is the processors'
mapping (``processors.principals``).
"""
from __future__ import annotations

import argparse
import os
import re
import secrets
import sys
from pathlib import Path
from typing import Any

from kafka.admin import (ACL, ACLOperation, ACLPermissionType, ResourcePattern, ResourceType, ScramMechanism,
                         UserScramCredentialUpsertion)

from deploy import topics

SUPER_USERS = ("admin", "processors", "worker")
"""Principals the broker's ``super.users`` names (``deploy/kafka.sh``): no ACL applies to them."""
INPUT_WRITERS = ("chief", "web")
"""Principals that may write the shared input topics as well as their own commands topic."""
OUTPUTS = (topics.TOURNAMENT_LOG, topics.STANDINGS, topics.PAIRINGS, topics.VERDICTS, topics.DEAD_LETTERS)
FEED_WRITES = (topics.DEAD_LETTERS,)
"""What a feed's principal (``feed-<id>``) writes besides its commands topic: its problems' dead letters."""
FEED_READS = (topics.VERDICTS,)
"""What a feed's principal reads: its commands' verdicts (``producers.doors.KafkaDoor``), nothing else."""
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")
"""A principal's name: also the tail of a topic name, so letters, digits, ``_`` and ``-`` only."""


def acls_of(principal: str, topic_prefix: str | None = None) -> list[Any]:
    """The topic ACLs (kafka-python ``ACL``) of ``principal`` (module docstring's table); none
    for a super user."""
    if principal in SUPER_USERS:
        return []

    def allow(operation: Any, topic: str) -> Any:
        return ACL(f"User:{principal}", "*", operation, ACLPermissionType.ALLOW, ResourcePattern(ResourceType.TOPIC, topic))

    writes = [topics.principal_topic(principal, topic_prefix)]
    reads = OUTPUTS
    if principal in INPUT_WRITERS:
        writes += [topics.name(topics.TOURNAMENT_EVENTS, topic_prefix), topics.name(topics.BOARD_RESULTS, topic_prefix)]
    if principal.startswith("feed-"):  # least privilege: a feed's ingester sends games and reads verdicts
        writes += [topics.name(spec, topic_prefix) for spec in FEED_WRITES]
        reads = FEED_READS
    return ([allow(ACLOperation.WRITE, t) for t in writes]
            + [allow(ACLOperation.READ, topics.name(spec, topic_prefix)) for spec in reads])


def credentials_dir() -> Path:
    """``$KAFKA_CREDENTIALS``: where each principal's password file is kept."""
    given = os.environ.get("KAFKA_CREDENTIALS")
    if not given:
        raise SystemExit("principals: KAFKA_CREDENTIALS (the folder of the password files) is not set")
    return Path(given)


def password_of(principal: str) -> str:
    """The password in ``$KAFKA_CREDENTIALS/<principal>``; a new random one written there (mode 600)
    if the file does not exist."""
    path = credentials_dir() / principal
    if path.is_file():
        return path.read_text().strip()
    path.parent.mkdir(parents=True, exist_ok=True)
    os.chmod(path.parent, 0o700)
    word = secrets.token_urlsafe(24)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as fh:
        fh.write(word + "\n")
    return word


def add(principals: list[str], bootstrap: str | None = None, topic_prefix: str | None = None,
        username: str | None = None) -> list[str]:
    """Create the credentials, commands topics and ACLs of ``principals`` (idempotent: a second
    run changes nothing but re-sends the same credential), as ``username`` (default: the
    environment's principal; it must be a super user). Returns one line per principal.

    Raises ``ValueError`` for a name that cannot be a principal (``NAME``), ``RuntimeError`` when
    the broker refuses a credential or an ACL.
    """
    for p in principals:
        if not NAME.match(p):
            raise ValueError(f"principal {p!r}: letters, digits, '_' and '-' only (it names a topic), at most 64")
    admin = topics.admin_client(bootstrap, "olympiad-principals", username)
    try:
        errors = admin.alter_user_scram_credentials(
            [UserScramCredentialUpsertion(p, ScramMechanism.SCRAM_SHA_256, password_of(p)) for p in principals])
        if failed := {u: e for u, e in errors.items() if e}:
            raise RuntimeError(f"the broker refused the credentials of {failed}")
        acls = [acl for p in principals for acl in acls_of(p, topic_prefix)]
        if acls:
            result = admin.create_acls(acls)
            if result["failed"]:
                raise RuntimeError(f"the broker refused ACLs: {result['failed']}")
    finally:
        admin.close()
    users = tuple(p for p in principals if p not in SUPER_USERS)
    topics.ensure_topics(bootstrap, topic_prefix, principals=users, username=username)
    return [f"{p}: super user (credentials only)" if p in SUPER_USERS else
            f"{p}: writes {', '.join(a.resource_pattern.resource_name for a in acls_of(p, topic_prefix) if a.operation.name == 'WRITE')}"
            for p in principals]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="deploy/principals.py", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="action", required=True)
    cmd = sub.add_parser("add", help="create principals: credentials, commands topic, ACLs")
    cmd.add_argument("names", nargs="+", metavar="NAME")
    args = parser.parse_args(argv)
    try:
        for line in add(args.names):
            print(f"principal {line}")
    except (ValueError, RuntimeError) as exc:
        print(f"principals: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
