"""The feed sources, each a plugin behind one interface (``FeedSource``): ``poll()`` reads the
whole feed now and returns its games (``reading.Read``), or raises ``OSError``/``ValueError``
when the source cannot be read at all (the ingester backs off). ``open_source`` picks the plugin:

- ``PgnFiles``: a folder of ``*.pgn`` files (one per round or per game) or one file; a file
  unchanged since the last poll is not read again;
- ``PgnUrl``: PGN at a URL, a lichess broadcast round's stream (``/api/stream/...``) too: what
  arrives within ``stream_s`` seconds is read;
- ``DgtFiles`` / ``DgtUrl``: DGT LiveChess Cloud JSON, a round folder (``index.json`` and
  ``game-{n}.json``) or a folder of ``round-{r}`` folders; a URL of a round (``.../round-3/`` or
  its ``index.json``).
"""
from __future__ import annotations

import json
import re
import time
import urllib.request
from pathlib import Path
from typing import Any, Protocol

from producers.feeds.dgt import read_dgt_round
from producers.feeds.pgn import read_pgn
from producers.feeds.reading import Positions, Read

USER_AGENT = "olympiad-events feed"


class FeedSource(Protocol):
    """A feed: ``name`` (its folder or URL) and ``poll()`` (its games now)."""

    name: str

    def poll(self) -> list[Read]: ...


def _round_of(name: str) -> int | None:
    m = re.search(r"round[-_ ]?(\d+)", name, re.IGNORECASE)
    return int(m[1]) if m and 1 <= int(m[1]) <= 99 else None


class PgnFiles:
    """``*.pgn`` files of a folder (sorted by name) or one file."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.name = str(self.path.absolute())  # the feed named the same from any working directory
        self.positions = Positions()
        self._cache: dict[Path, tuple[tuple[int, int], list[Read]]] = {}

    def poll(self) -> list[Read]:
        """Every game of every file; raises ``OSError`` when the folder or file is not there."""
        files = sorted(self.path.glob("*.pgn")) if self.path.is_dir() else [self.path]
        if not self.path.exists():
            raise FileNotFoundError(f"{self.path} does not exist")
        out: list[Read] = []
        for f in files:
            st = f.stat()
            stamp = (st.st_mtime_ns, st.st_size)
            cached = self._cache.get(f)
            if cached is None or cached[0] != stamp:
                cached = self._cache[f] = (stamp, read_pgn(f.read_text(encoding="utf-8", errors="replace"), f.name,
                                                           self.positions))
            out.extend(cached[1])
        return out


def fetch(url: str, timeout: float = 10.0, stream_s: float | None = None) -> bytes:
    """The body at ``url``; with ``stream_s``, what arrives within that many seconds (a stream
    that stays open). Raises ``OSError`` (``urllib.error.URLError`` is one)."""
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
    with urllib.request.urlopen(request, timeout=timeout if stream_s is None else min(timeout, stream_s)) as answer:
        if stream_s is None:
            return answer.read()
        chunks, deadline = [], time.monotonic() + stream_s
        try:
            while time.monotonic() < deadline:
                chunk = answer.read1(65536) if hasattr(answer, "read1") else answer.read(65536)
                if not chunk:
                    break
                chunks.append(chunk)
        except TimeoutError:  # the stream was quiet until the deadline: what came is the snapshot
            pass
        return b"".join(chunks)


class PgnUrl:
    """PGN at ``url``; a stream (a URL with ``/stream/``) is read for ``stream_s`` seconds."""

    def __init__(self, url: str, stream_s: float = 2.0):
        self.url = self.name = url
        self.stream_s = stream_s if "/stream/" in url else None
        self.positions = Positions()

    def poll(self) -> list[Read]:
        """The games at the URL now."""
        body = fetch(self.url, stream_s=self.stream_s).decode("utf-8", "replace")
        return read_pgn(body, self.url.rsplit("/", 1)[-1] or self.url, self.positions)


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


class DgtFiles:
    """A DGT round folder (``index.json``, ``game-{n}.json``) or a folder of round folders; the
    round is the folder's ``round-{r}`` (or ``rnd``); ``boards`` per match."""

    def __init__(self, path: str | Path, boards: int = 4, rnd: int | None = None):
        self.path = Path(path)
        self.name = str(self.path.absolute())  # the feed named the same from any working directory
        self.boards, self.rnd = boards, rnd
        self.positions = Positions()

    def poll(self) -> list[Read]:
        """Every game of every round folder; raises ``OSError`` when the folder is not there."""
        if not self.path.is_dir():
            raise FileNotFoundError(f"{self.path} is not a folder")
        rounds = [self.path] if (self.path / "index.json").is_file() else sorted(
            p for p in self.path.iterdir() if (p / "index.json").is_file())
        out: list[Read] = []
        for folder in rounds:
            index = _json((folder / "index.json").read_text(encoding="utf-8", errors="replace"))
            games = {}
            for f in folder.glob("game-*.json"):
                n = f.stem.removeprefix("game-")
                if n.isdigit():
                    games[int(n)] = _json(f.read_text(encoding="utf-8", errors="replace"))
            out.extend(read_dgt_round(index, games, folder.name, self.rnd or _round_of(folder.name), self.boards, self.positions))
        return out


class DgtUrl:
    """A DGT round at a URL (``.../round-3/`` or ``.../round-3/index.json``)."""

    def __init__(self, url: str, boards: int = 4, rnd: int | None = None):
        self.name = url
        self.base = url.removesuffix("index.json").rstrip("/")
        self.boards, self.rnd = boards, rnd
        self.positions = Positions()

    def poll(self) -> list[Read]:
        """The round's games now (a game whose file is not there yet has no moves)."""
        index = _json(fetch(f"{self.base}/index.json").decode("utf-8", "replace"))
        games = {}
        for n in range(1, len(index.get("pairings", [])) + 1 if isinstance(index, dict) else 1):
            try:
                games[n] = _json(fetch(f"{self.base}/game-{n}.json").decode("utf-8", "replace"))
            except OSError:
                continue
        name = self.base.rsplit("/", 1)[-1]
        return read_dgt_round(index, games, name, self.rnd or _round_of(name), self.boards, self.positions)


def open_source(spec: str, kind: str = "auto", boards: int = 4, rnd: int | None = None) -> FeedSource:
    """The source of ``spec`` (a folder, a file or a URL): ``kind`` "pgn", "dgt" or "auto" (DGT
    where there is an ``index.json``); ``boards`` per match and the round ``rnd`` for DGT."""
    remote = spec.startswith(("http://", "https://"))
    if kind == "auto":
        if remote:
            kind = "dgt" if spec.rstrip("/").endswith(("index.json",)) or "livechesscloud" in spec else "pgn"
        else:
            path = Path(spec)
            dgt = path.is_dir() and ((path / "index.json").is_file() or any(path.glob("*/index.json")))
            kind = "dgt" if dgt else "pgn"
    if kind == "dgt":
        return DgtUrl(spec, boards, rnd) if remote else DgtFiles(spec, boards, rnd)
    return PgnUrl(spec) if remote else PgnFiles(spec)
