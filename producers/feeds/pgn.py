"""PGN as a live feed sends it: one file per round or per game, or a lichess broadcast stream
(``/api/stream/broadcast/round/{id}.pgn``: every game, then each game's whole PGN again each time
it changes). Each game is a snapshot: its tags (``White``, ``Black``, ``WhiteFideId``,
``BlackFideId``, ``Round`` "r" or "r.t", ``Board``, ``Result``), its moves (SAN) and the
``[%clk h:mm:ss]`` comments (seconds left). The moves are replayed with python-chess
(``reading.Positions``); a game whose tags or moves cannot be read is ``Unreadable``.
"""
from __future__ import annotations

import re

from producers.feeds.reading import Positions, Read, Unreadable, result_of
from schemas.game_commands import FeedGame

_TAG = re.compile(r'^\[([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\]\s*$')
_COMMENT = re.compile(r"\{([^}]*)\}|;[^\n]*")
_CLOCK = re.compile(r"\[%clk\s+(\d+):(\d{1,2}):(\d{1,2})(?:\.\d+)?\]")
_SAN = re.compile(r"^(?:[NBRQK]?[a-h]?[1-8]?x?[a-h][1-8](?:=?[NBRQ])?|O-O(?:-O)?|0-0(?:-0)?)[+#]?[!?]*$")
_RESULTS = frozenset({"1-0", "0-1", "1/2-1/2", "*", "0-0", "½-½"})


def split_games(text: str) -> list[tuple[list[str], str]]:
    """The games of a PGN text: (tag lines, movetext) each; a tag line after movetext starts a game."""
    games: list[tuple[list[str], list[str]]] = []
    tags: list[str] = []
    moves: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("[") and not stripped.startswith("[%"):
            if moves:
                games.append((tags, moves))
                tags, moves = [], []
            tags.append(stripped)
        elif stripped and (tags or moves):
            moves.append(stripped)
        elif stripped:
            moves.append(stripped)
    if tags or moves:
        games.append((tags, moves))
    return [(t, "\n".join(m)) for t, m in games]


def movetext_moves(text: str) -> tuple[list[str], list[int | None]]:
    """(SAN moves, clock after each in seconds or None) of a movetext: comments, variations, move
    numbers, NAGs and the result are skipped; raises ``ValueError`` for a token that is no move."""
    clocks_at: dict[int, int] = {}
    moves: list[str] = []
    depth = 0
    pos = 0
    pieces: list[tuple[str, int | None]] = []
    for m in _COMMENT.finditer(text):
        pieces.append((text[pos:m.start()], None))
        clk = _CLOCK.search(m.group(1) or "")
        pieces.append(("", int(clk[1]) * 3600 + int(clk[2]) * 60 + int(clk[3]) if clk else None))
        pos = m.end()
    pieces.append((text[pos:], None))
    for chunk, clock in pieces:
        if not chunk:
            if clock is not None and moves and not depth:
                clocks_at[len(moves) - 1] = clock
            continue
        if "(" in chunk or ")" in chunk:
            chunk = chunk.replace("(", " ( ").replace(")", " ) ")
        for tok in chunk.split():
            if tok == "(":
                depth += 1
            elif tok == ")":
                depth -= 1
            elif depth or tok[0] == "$" or tok in _RESULTS:
                continue
            else:
                if tok[0].isdigit():
                    tok = tok.lstrip("0123456789")
                    if tok.startswith("."):
                        tok = tok.lstrip(".")
                        if not tok:
                            continue
                    else:  # a token that starts with a digit and is no move number ("0-0" castling was matched above)
                        raise ValueError(f"{tok[:20]!r} is not a move")
                if not _SAN.match(tok):
                    raise ValueError(f"{tok[:20]!r} is not a move")
                moves.append(tok.rstrip("!?"))
    return moves, [clocks_at.get(i) for i in range(len(moves))]


def _int(value: str, low: int, high: int) -> int | None:
    return int(value) if value.isdigit() and low <= int(value) <= high else None


def read_game(tags: list[str], movetext: str, place: str, positions: Positions) -> Read:
    """One game of a PGN text as a ``FeedGame`` (``place``: where it is in the feed), or
    ``Unreadable`` naming what is wrong."""
    whole = "\n".join(tags) + "\n\n" + movetext
    values: dict[str, str] = {}
    for line in tags:
        m = _TAG.match(line)
        if m is None:
            return Unreadable(place, f"tag line {line[:60]!r} is not [Name \"value\"]", whole)
        values[m[1]] = m[2]
    if not values.get("White") or not values.get("Black"):
        return Unreadable(place, "a game names White and Black (tags White, Black)", whole)
    try:
        moves, clocks = movetext_moves(movetext)
        fen = positions.fen(place, tuple(moves))
    except ValueError as exc:
        return Unreadable(place, str(exc), whole)
    rnd, _, table = values.get("Round", "").partition(".")
    white_clock = next((c for c in reversed(clocks[0::2]) if c is not None), None)
    black_clock = next((c for c in reversed(clocks[1::2]) if c is not None), None)
    try:
        return FeedGame(game=place[:500], round=_int(rnd, 1, 99), table=_int(table, 1, 10_000), board=_int(values.get("Board", ""), 1, 20),
                        white=values["White"][:500], black=values["Black"][:500],
                        white_fide_id=values.get("WhiteFideId") if _int(values.get("WhiteFideId", ""), 1, 9_999_999_999) else None,
                        black_fide_id=values.get("BlackFideId") if _int(values.get("BlackFideId", ""), 1, 9_999_999_999) else None,
                        moves=tuple(moves), fen=fen, white_clock=white_clock, black_clock=black_clock,
                        result=result_of(values.get("Result", "*")))
    except ValueError as exc:  # a value the command's schema refuses (too many moves, a control character)
        return Unreadable(place, f"the game does not fit a feed's game: {exc.__class__.__name__}", whole)


def read_pgn(text: str, name: str, positions: Positions) -> list[Read]:
    """The games of the PGN ``text`` of the file or stream ``name``, each at ``name#<n>`` (1-based);
    in a stream that resends a game (the same White, Black and Round), the last copy only, at the
    place of the first."""
    out: dict[tuple[str, ...], Read] = {}
    for n, (tags, movetext) in enumerate(split_games(text), start=1):
        identity = tuple(t for t in tags if t.startswith(("[White ", "[Black ", "[Round ")))
        first = out[identity].game if identity in out else None
        read = read_game(tags, movetext, first or f"{name}#{n}", positions)
        out[identity if len(identity) == 3 else (f"#{n}",)] = read
    return list(out.values())
