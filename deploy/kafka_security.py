"""Who a Kafka client is: the SASL/SCRAM settings every client of the pipeline connects with.

One place reads them, so that every producer, consumer and admin client (kafka-python, aiokafka
under faust) authenticates the same way (``docs/security.md``):

- ``KAFKA_SASL_USERNAME``: the principal (``chief``, ``terminal-7``, ``captain-UZB``,
  ``processors``, ``worker``, ``web``, ``admin``). Unset: PLAINTEXT, no authentication (the
  development broker of ``deploy/kafka.sh``), and ``warn_unauthenticated`` says so on stderr.
- ``KAFKA_SASL_PASSWORD``, else the file ``$KAFKA_SASL_PASSWORD_FILE``, else the file
  ``$KAFKA_CREDENTIALS/<username>`` (``deploy/kafka.sh`` writes one file per principal there,
  mode 600).
- ``KAFKA_SASL_MECHANISM`` (``SCRAM-SHA-256``), ``KAFKA_SECURITY_PROTOCOL`` (``SASL_PLAINTEXT``
  with a username, else ``PLAINTEXT``; ``SASL_SSL`` on a broker with TLS).
"""
from __future__ import annotations

import logging
import os
import ssl
import sys
from pathlib import Path
from typing import Any

MECHANISM = "SCRAM-SHA-256"


class CredentialsMissing(RuntimeError):
    """A principal is named but no password is found for it; the message says where it was looked for."""


def principal(username: str | None = None) -> str | None:
    """The principal this process authenticates as: ``username``, else ``$KAFKA_SASL_USERNAME``, else None."""
    return username or os.environ.get("KAFKA_SASL_USERNAME") or None


def password(username: str) -> str:
    """The password of ``username`` (module docstring: variable, file, credentials folder).

    Raises ``CredentialsMissing`` when none of them holds one.
    """
    if os.environ.get("KAFKA_SASL_PASSWORD") and username == os.environ.get("KAFKA_SASL_USERNAME"):
        return os.environ["KAFKA_SASL_PASSWORD"]
    given = os.environ.get("KAFKA_SASL_PASSWORD_FILE")
    candidates = [Path(given)] if given and username == os.environ.get("KAFKA_SASL_USERNAME") else []
    if os.environ.get("KAFKA_CREDENTIALS"):
        candidates.append(Path(os.environ["KAFKA_CREDENTIALS"]) / username)
    for path in candidates:
        if path.is_file():
            return path.read_text().strip()
    where = ", ".join(str(p) for p in candidates) or "no KAFKA_SASL_PASSWORD, KAFKA_SASL_PASSWORD_FILE or KAFKA_CREDENTIALS"
    raise CredentialsMissing(f"no password for Kafka principal {username!r} ({where})")


def client_config(username: str | None = None) -> dict[str, Any]:
    """The keyword arguments that make a kafka-python or aiokafka client authenticate as
    ``principal(username)``: ``{}`` (PLAINTEXT) when there is none. Raises ``CredentialsMissing``."""
    user = principal(username)
    if user is None:
        return {}
    # kafka-python warns "Exchanging credentials in the clear" at every SCRAM login without TLS; SCRAM
    # never sends the password (a salted challenge-response), and the broker of deploy/kafka.sh listens
    # on loopback only: docs/security.md says when SASL_SSL is needed instead.
    logging.getLogger("kafka.net.sasl.scram").setLevel(logging.ERROR)
    return {
        "security_protocol": os.environ.get("KAFKA_SECURITY_PROTOCOL", "SASL_PLAINTEXT"),
        "sasl_mechanism": os.environ.get("KAFKA_SASL_MECHANISM", MECHANISM),
        "sasl_plain_username": user,
        "sasl_plain_password": password(user),
    }


def faust_credentials(username: str | None = None) -> Any:
    """The ``faust.SASLCredentials`` of ``principal(username)``, or None (PLAINTEXT)."""
    config = client_config(username)
    if not config:
        return None
    import faust

    if config["security_protocol"] == "SASL_SSL":
        return faust.SASLCredentials(username=config["sasl_plain_username"], password=config["sasl_plain_password"],
                                     mechanism=config["sasl_mechanism"], ssl_context=ssl.create_default_context())
    return faust.SASLCredentials(username=config["sasl_plain_username"], password=config["sasl_plain_password"],
                                 mechanism=config["sasl_mechanism"])


WARNING = ("WARNING: Kafka without authentication (PLAINTEXT, no KAFKA_SASL_USERNAME): the actor of a command "
           "is whatever the message says, so anyone who can reach {where} can act as the chief arbiter. "
           "Development only; for an event start the broker with KAFKA_AUTH=scram deploy/kafka.sh start "
           "(docs/security.md).")


def warn_unauthenticated(where: str, stream: Any = None) -> bool:
    """Print ``WARNING`` on stderr (or ``stream``) when this process connects without
    authentication; returns True if it did."""
    if principal() is not None:
        return False
    print(WARNING.format(where=where), file=stream or sys.stderr, flush=True)
    return True
