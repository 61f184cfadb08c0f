"""DGT LiveChess Cloud JSON as a live feed sends it: per round an ``index.json`` whose ``pairings``
name ``white`` and ``black`` (``fname``, ``mname``, ``lname``, ``title``, ``fideid``) and the
``result``, and per game ``game-{n}.json`` (n = 1, 2 ... in the order of the pairings) with
``moves`` as ``"Nf3 3010"`` (SAN, then the clock in seconds, optionally ``+increment``), ``result``
and ``clock``; a pairing without players is a board with no game. For a team event the pairings run table by table, board 1 first: game n is board
``(n - 1) % boards + 1`` (``boards`` per match), the board number the feed gives the decider.
"""
from __future__ import annotations

import json
from typing import Any

from producers.feeds.reading import Positions, Read, Unreadable, result_of
from schemas.game_commands import FeedGame


def player_name(p: dict[str, Any]) -> str:
    """``Lname, Fname Mname`` of a DGT player."""
    first = " ".join(x for x in (p.get("fname"), p.get("mname")) if x)
    last = p.get("lname") or ""
    return f"{last}, {first}" if last and first else (last or first)


def _fide(p: dict[str, Any]) -> str | None:
    value = str(p.get("fideid") or "").strip()
    return value if value.isdigit() and 0 < len(value) <= 10 and int(value) > 0 else None


def _moves(entries: list[Any]) -> tuple[list[str], list[int | None]]:
    """(SAN moves, clock after each in seconds) of DGT's ``moves``; raises ``ValueError``."""
    moves, clocks = [], []
    for entry in entries:
        if not isinstance(entry, str) or not entry.split():
            raise ValueError(f"move {entry!r:.30} is not 'SAN seconds'")
        san, *rest = entry.split()
        seconds = rest[0].split("+")[0] if rest else ""
        moves.append(san)
        clocks.append(int(seconds) if seconds.isdigit() else None)
    return moves, clocks


def read_dgt_game(pairing: dict[str, Any], game: dict[str, Any] | None, place: str, rnd: int | None, board: int | None,
                  positions: Positions) -> Read:
    """One DGT game (its pairing and its ``game-{n}.json``, None before the game has a file)."""
    text = json.dumps({"pairing": pairing, "game": game}, ensure_ascii=False)
    try:
        white, black = pairing["white"], pairing["black"]
        moves, clocks = _moves((game or {}).get("moves") or [])
        fen = positions.fen(place, tuple(moves))
        result = result_of(str((game or {}).get("result") or pairing.get("result") or "*"))
        clock = (game or {}).get("clock") or {}
        white_clock = next((c for c in reversed(clocks[0::2]) if c is not None), None)
        black_clock = next((c for c in reversed(clocks[1::2]) if c is not None), None)
        if white_clock is None and isinstance(clock.get("white"), int) and clock["white"] >= 0:
            white_clock = clock["white"]
        if black_clock is None and isinstance(clock.get("black"), int) and clock["black"] >= 0:
            black_clock = clock["black"]
        return FeedGame(game=place, round=rnd, board=board, white=player_name(white)[:500], black=player_name(black)[:500],
                        white_fide_id=_fide(white), black_fide_id=_fide(black), moves=tuple(moves), fen=fen,
                        white_clock=white_clock, black_clock=black_clock, result=result)
    except (KeyError, TypeError, AttributeError):
        return Unreadable(place, "a DGT pairing names white and black", text)
    except ValueError as exc:
        return Unreadable(place, str(exc), text)


def read_dgt_round(index: Any, games: dict[int, Any], name: str, rnd: int | None, boards: int, positions: Positions) -> list[Read]:
    """The games of one DGT round: ``index`` (``index.json`` read), ``games`` (n -> ``game-{n}.json``
    read, or a text that was no JSON), ``name`` the round's place in the feed."""
    if not isinstance(index, dict) or not isinstance(index.get("pairings"), list):
        return [Unreadable(f"{name}/index.json", "index.json holds a list of pairings", json.dumps(index)[:10_000])]
    out: list[Read] = []
    for n, pairing in enumerate(index["pairings"], start=1):
        place = f"{name}/game-{n}.json"
        game = games.get(n)
        if isinstance(game, str):
            out.append(Unreadable(place, "game file is not JSON", game))
            continue
        if isinstance(pairing, dict) and not pairing.get("white") and not pairing.get("black"):
            continue  # a board without players (no game on it): its number still counts
        if not isinstance(pairing, dict) or (game is not None and not isinstance(game, dict)):
            out.append(Unreadable(place, "a DGT pairing and game are JSON objects", json.dumps([pairing, game])[:10_000]))
            continue
        out.append(read_dgt_game(pairing, game, place, rnd, (n - 1) % boards + 1, positions))
    return out
