"""Readiness probe: does a Kafka broker answer a metadata request?

``python deploy/probe.py BOOTSTRAP [--timeout SECONDS] [--pid PID]`` polls every 200 ms until a
broker at ``BOOTSTRAP`` (``host:port[,host:port...]``) returns cluster metadata, then prints the
cluster id and exits 0. Exits 1 when ``--timeout`` (default 60 s) runs out, or at once when the
process ``--pid`` (the broker ``deploy/kafka.sh`` started) has died.
"""
from __future__ import annotations

import argparse
import logging
import os
import sys
import time

from kafka.admin import KafkaAdminClient
from kafka.errors import KafkaError

from deploy.kafka_security import CredentialsMissing, client_config


def _alive(pid: int | None) -> bool:
    if pid is None:
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def cluster_id(bootstrap: str, timeout_ms: int = 1000) -> str | None:
    """Return the cluster id if a broker at ``bootstrap`` answers within ``timeout_ms``, else None."""
    try:
        auth = client_config()  # a broker with authentication answers only an authenticated client
    except CredentialsMissing:
        auth = {}  # no credentials yet (before the first format): a PLAINTEXT probe
    try:
        admin = KafkaAdminClient(
            bootstrap_servers=bootstrap,
            request_timeout_ms=timeout_ms,
            bootstrap_timeout_ms=timeout_ms,
            reconnect_backoff_max_ms=200,
            **auth,
        )
    except (KafkaError, OSError):
        return None
    try:
        meta = admin.describe_cluster()
        if not meta.get("brokers"):
            return None
        return meta.get("cluster_id") or "?"
    except (KafkaError, OSError):
        return None
    finally:
        admin.close()


def wait_until_ready(bootstrap: str, timeout_s: float, pid: int | None = None) -> str | None:
    """Poll ``bootstrap`` until it answers; return the cluster id, or None on time-out / dead broker."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline and _alive(pid):
        found = cluster_id(bootstrap)
        if found:
            return found
        time.sleep(0.2)
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bootstrap")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds to wait (default 60)")
    parser.add_argument("--pid", type=int, default=None, help="give up when this process dies")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.CRITICAL)
    found = wait_until_ready(args.bootstrap, args.timeout, args.pid)
    if found is None:
        return 1
    print(found)
    return 0


if __name__ == "__main__":
    sys.exit(main())
