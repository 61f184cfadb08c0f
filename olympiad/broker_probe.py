"""Is a Kafka broker there? A door that talks to Kafka asks first, so that a command fails in
seconds with a clear refusal instead of waiting out the Kafka client's own timeouts.

Its own module (not ``olympiad.cmd_live``) because the doors of every command family ask it, and
``cmd_live`` registers commands on the CLI, which imports those families: asking it there made a cycle.
"""
from __future__ import annotations

import socket


class BrokerUnavailable(RuntimeError):
    """No Kafka broker could be used or started; the message says why and what to set."""


PROBE_S = 3.0  # seconds a broker has to accept a connection before a command gives up on it


def require_broker(bootstrap: str | None = None) -> str:
    """``bootstrap`` (default ``KAFKA_BOOTSTRAP_SERVERS``, else 127.0.0.1:9092) if one of its
    brokers accepts a TCP connection within ``PROBE_S``; else raises ``BrokerUnavailable``, so
    that a command fails in seconds instead of waiting out the Kafka client's own timeouts."""
    from deploy.topics import bootstrap_servers

    servers = bootstrap or bootstrap_servers()
    for server in servers.split(","):
        host, _, port = server.strip().rpartition(":")
        try:
            with socket.create_connection((host.strip("[]") or "127.0.0.1", int(port or 9092)), timeout=PROBE_S):
                return servers
        except (OSError, ValueError):
            continue
    raise BrokerUnavailable(f"no broker answers at {servers} within {PROBE_S:g} s")
