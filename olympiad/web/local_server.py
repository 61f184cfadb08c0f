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
from typing import Iterator


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


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
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = tempfile.TemporaryFile(mode="w+")  # a file, not a pipe: a full pipe would block the server
    proc = subprocess.Popen(
        [sys.executable, "-m", "olympiad", "serve", "--source", source, "--rounds", str(rounds), "--port", str(port),
         "--db", db],
        env=os.environ | {"OLYMPIAD_CHIEF_TOKEN": chief_token}, stdout=log, stderr=subprocess.STDOUT, text=True,
    )
    deadline = time.monotonic() + start_timeout
    try:
        while True:
            try:
                call(f"{base}/api/tournaments")
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    proc.kill()
                    proc.wait()
                    log.seek(0)
                    raise RuntimeError(f"olympiad serve did not start: {log.read()[-3000:]}") from None
                time.sleep(0.1)
        yield base, proc.pid
    finally:
        if proc.poll() is None:
            proc.terminate()
            proc.wait(timeout=10)
        log.close()
