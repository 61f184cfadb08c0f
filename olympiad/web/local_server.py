"""Run ``olympiad serve`` as a child process on a free loopback port and call its JSON API.

Used by the browser test and the web benchmark, which must drive the real server process.
"""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from contextlib import contextmanager
from typing import Any, Iterator


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def free_ports(n: int) -> list[int]:
    """``n`` distinct TCP ports on 127.0.0.1 that were free a moment ago (all held at once while
    picked: ``free_port`` called n times may give one port twice)."""
    socks = [socket.socket() for _ in range(n)]
    try:
        for s in socks:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


def call(url: str, body: dict | None = None, token: str | None = None, timeout: float = 30) -> dict:
    """GET (``body`` None) or POST JSON to ``url`` with an optional bearer token; returns the JSON
    answer. Raises ``urllib.error.URLError``/``OSError`` when the server does not answer."""
    headers = {"Content-Type": "application/json"} | ({"Authorization": f"Bearer {token}"} if token else {})
    req = urllib.request.Request(url, data=json.dumps(body).encode() if body is not None else None, headers=headers)
    with urllib.request.urlopen(req, timeout=timeout) as r:
        return json.load(r)


@contextmanager
def serving(source: str, rounds: int, chief_token: str, start_timeout: float = 60, db: str = "sqlite://") -> Iterator[str]:
    """``olympiad serve --source SOURCE --rounds ROUNDS --db DB`` on a free port; yields its base URL
    and stops it on exit (``server_process``)."""
    with server_process(source, rounds, chief_token, start_timeout, db) as (base, _pid):
        yield base


@contextmanager
def server_process(source: str, rounds: int, chief_token: str, start_timeout: float = 60,
                   db: str = "sqlite://") -> Iterator[tuple[str, int]]:
    """``olympiad serve --source SOURCE --rounds ROUNDS --db DB`` on a free port; yields its base URL
    and its process id (the web benchmark reads its CPU time) and stops it on exit. ``db`` defaults
    to a fresh in-memory store, never ``$DATABASE_URL``'s (a shared database would keep one run's
    entered results for the next). Raises
    ``RuntimeError`` with the server's output if it does not start."""
    with server_processes([(source, rounds, db)], chief_token, start_timeout) as [served]:
        yield served


@contextmanager
def server_processes(specs: list[tuple[str | None, int | None, str]], chief_token: str,
                     start_timeout: float = 60) -> Iterator[list[tuple[str, int]]]:
    """One ``olympiad serve`` per ``(source, rounds, db)`` of ``specs`` (``source`` None: serve the
    tournament already in ``db``), each on a free port, all started before any is waited for (the
    web benchmark serves tens of tournaments); yields their (base URL, process id) in the order of
    ``specs`` and stops them all on exit. Raises ``RuntimeError`` with a server's output if one does
    not start within ``start_timeout`` seconds of the last start."""
    running: list[tuple[subprocess.Popen, Any, str]] = []
    try:
        for (source, rounds, db), port in zip(specs, free_ports(len(specs))):
            log = tempfile.TemporaryFile(mode="w+")  # a file, not a pipe: a full pipe would block the server
            loaded = [] if source is None else ["--source", source] + ([] if rounds is None else ["--rounds", str(rounds)])
            proc = subprocess.Popen(
                [sys.executable, "-m", "olympiad", "serve", *loaded, "--port", str(port), "--db", db],
                env=os.environ | {"OLYMPIAD_CHIEF_TOKEN": chief_token}, stdout=log, stderr=subprocess.STDOUT, text=True,
            )
            running.append((proc, log, f"http://127.0.0.1:{port}"))
        deadline = time.monotonic() + start_timeout
        for proc, log, base in running:
            while True:
                try:
                    call(f"{base}/api/tournaments")
                    if proc.poll() is None:  # ours answered, not another process on that port
                        break
                    raise OSError("exited")
                except OSError:
                    if proc.poll() is not None or time.monotonic() > deadline:
                        log.seek(0)
                        raise RuntimeError(f"olympiad serve did not start: {log.read()[-3000:]}") from None
                    time.sleep(0.1)
        yield [(base, proc.pid) for proc, _, base in running]
    finally:
        for proc, _, _ in running:
            if proc.poll() is None:
                proc.terminate()
        for proc, log, _ in running:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            log.close()
