"""The read pages rendered on the server, in the scoreboard's layout family: a team's card, a
player's card, the crosstable, the board prizes, a round's pairing with its players (by table and
by team name) and the match sheet of a table for print.

Each page fills the HTML from one view of ``projections.views`` (the JSON the API serves), so a
page holds no rule: it only renders. Every heading says what the table is: official (the round is
closed), complete, or provisional with how many matches are decided (``views.players.round_status``).
A print stylesheet (``static/style.css``, ``@media print``) drops the navigation; ``static/live.js``
reloads a page when the standings stream says something changed.
"""
from __future__ import annotations

from html import escape
from typing import Any, Iterable
from urllib.parse import quote

from olympiad.web.pages import pts

KINDS = {"bye": "bye", "absent": "not paired", "pending": "in progress", "forfeit-win": "won by forfeit",
         "forfeit-loss": "lost by forfeit", "forfeit-draw": "double forfeit"}


def layout(name: str, title: str, body: str, *, live: bool = True, kind: str = "page") -> str:
    """A whole page: the header with the event's ``name`` and the navigation, ``title`` as the
    page's heading and ``body`` (HTML) under it."""
    nav = " ".join(f'<a href="{href}">{text}</a>' for href, text in (
        ("/", "standings"), ("/crosstable", "crosstable"), ("/prizes", "board prizes"), ("/rounds", "pairings"),
        ("/entry", "result entry"), ("/docs", "API")))
    script = '<script src="/static/common.js"></script><script src="/static/live.js"></script>' if live else ""
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1"><title>{escape(title)}: {escape(name)}</title>'
            f'<link rel="icon" href="data:,"><link rel="stylesheet" href="/static/style.css"></head>'
            f'<body class="{kind}"><header><h1 id="title">{escape(name)}</h1><nav class="meta">{nav}</nav></header>'
            f'<main><h2 id="page-title">{escape(title)}</h2>{body}</main>{script}</body></html>')


def table(head: Iterable[tuple[str, str]], rows: Iterable[str], id_: str, cls: str = "cr") -> str:
    """A ``<table>``: ``head`` as (label, css class) pairs; ``rows`` as ready ``<tr>`` HTML."""
    th = "".join(f'<th class="{c}">{escape(label)}</th>' for label, c in head)
    return f'<table id="{id_}" class="{cls}"><thead><tr>{th}</tr></thead><tbody>{"".join(rows)}</tbody></table>'


def team_link(ref: dict[str, Any] | None) -> str:
    return "" if ref is None else f'<a href="/teams/{quote(ref["team_id"])}">{escape(ref["name"])}</a>'


def player_link(p: dict[str, Any] | None) -> str:
    if p is None:
        return '<span class="none">—</span>'
    title = f'{escape(p["title"])} ' if p.get("title") else ""
    rating = f' <small>{p["rating"]}</small>' if p.get("rating") else ""
    return f'{title}<a href="/players/{quote(p["player_id"])}">{escape(p["name"])}</a>{rating}'


def code(result: str | None) -> str:
    return "·" if result is None else result.replace("1/2", "½")


def perf_cells(perf: dict[str, Any] | None) -> str:
    if perf is None:
        return '<td class="num"></td><td class="num"></td><td class="num"></td>'
    return (f'<td class="num">{perf["average"]}</td><td class="num">{perf["percentage"]}</td>'
            f'<td class="num rp">{perf["rating"]}</td>')


def status_text(status: dict[str, Any] | None) -> str:
    return "" if status is None else status["label"]


def team_page(name: str, view: dict[str, Any]) -> str:
    """A team's card (``views.teams.team_view``): roster with each player's results, average
    rating, and each round's opponent, line-up and board results."""
    players = [f'<tr data-player="{escape(p["player_id"])}"><td class="num">{p["nominated_board"] or ""}</td>'
               f'<td>{player_link(p)}</td><td class="num">{p["rating"] or ""}</td><td class="num">{pts(p["score"])}</td>'
               f'<td class="num">{p["games"]}</td><td class="num">{p["played"]}</td>'
               f'<td>{", ".join(map(str, p["boards"]))}</td>{perf_cells(p["performance"])}</tr>' for p in view["results"]]
    rounds = []
    for r in view["rounds"]:
        kind = f' ({KINDS[r["kind"]]})' if r["kind"] in KINDS else ""
        line = "".join(f'<div class="seat" data-board="{b["board"]}"><span class="bd">{b["board"]}</span> {b["colour"]} '
                       f'{player_link(b["player"])} – {player_link(b["opponent"])} <b>{code(b["result"])}</b></div>'
                       for b in r["boards"])
        rounds.append(f'<tr data-round="{r["round"]}"><td class="num">{r["round"]}</td><td class="num">{r["table"] or ""}</td>'
                      f'<td>{team_link(r["opponent"])}{kind}</td><td class="lineup">{line}</td>'
                      f'<td class="num">{pts(r["gp"])}</td><td class="num">{r["mp"] if r["mp"] is not None else ""}</td>'
                      f'<td class="num">{r["rank_after"] or ""}</td></tr>')
    withdrawn = f', withdrawn from round {view["withdrawn_from_round"]}' if view["withdrawn_from_round"] else ""
    body = (f'<p class="facts">{escape(view["federation"])} · starting number {view["pairing_number"]} · average rating '
            f'<span id="average-rating">{view["average_rating"]}</span> (the {len(view["players"][:4])} best, R-I1){withdrawn}'
            f' · <span id="status">{escape(status_text(view["status"]))}</span></p>'
            + "<h3>Players</h3>"
            + table([("Bd", "num"), ("Player", ""), ("Rtg", "num"), ("Pts", "num"), ("Games", "num"), ("Played", "num"),
                     ("Boards", ""), ("Ra", "num"), ("p", "num"), ("Rp", "num")], players, "players")
            + "<h3>Rounds</h3>"
            + table([("Rd", "num"), ("Tbl", "num"), ("Opponent", ""), ("Line-up: board, colour, player – opponent, result", ""),
                     ("GP", "num"), ("MP", "num"), ("Rank", "num")], rounds, "rounds"))
    return layout(name, f'{view["name"]}: team card', body)


def player_page(name: str, view: dict[str, Any]) -> str:
    """A player's card (``views.players.player_view``): the line and every game."""
    games = [f'<tr data-round="{g["round"]}"><td class="num">{g["round"]}</td><td class="num">{g["table"]}</td>'
             f'<td class="num">{g["board"]}</td><td>{g["colour"] or "?"}</td><td>{player_link(g["opponent"])}</td>'
             f'<td>{team_link(g["opponent_team"])}</td><td class="ctr">{code(g["result"])}</td>'
             f'<td class="num">{pts(g["points"])}</td><td>{"" if g["played"] else "forfeit"}</td></tr>' for g in view["rounds"]]
    perf = view["performance"]
    rp = ("no rating performance (no game against a rated opponent)" if perf is None else
          f'rating performance <b id="performance">{perf["rating"]}</b> = Ra {perf["average"]} + dp {perf["dp"]} '
          f'(p = {perf["percentage"]} over {perf["games"]} games; FIDE B.02)')
    nominated = f'nominated board {view["nominated_board"]}' if view["nominated_board"] else "not on the roster"
    body = (f'<p class="facts">{team_link(view["team"])} · {nominated} · rating {view["rating"] or "unrated"} · '
            f'<span id="player-score">{pts(view["score"])}</span> from {view["games"]} games ({view["played"]} played) · {rp}'
            f' · <span id="status">{escape(status_text(view["status"]))}</span></p>'
            + table([("Rd", "num"), ("Tbl", "num"), ("Bd", "num"), ("Col", ""), ("Opponent", ""), ("Team", ""),
                     ("Result", "ctr"), ("Pts", "num"), ("", "")], games, "games"))
    title = f'{view["title"]} {view["name"]}'.strip()
    return layout(name, f"{title}: player card", body)


def crosstable_page(name: str, view: dict[str, Any]) -> str:
    """The crosstable (``views.crosstable.crosstable_view``)."""
    rows = []
    for r in view["rows"]:
        cells = []
        for c in r["rounds"]:
            if c["opponent"] is None:
                cells.append(f'<td class="ctr x" title="{KINDS.get(c["kind"], c["kind"])}">{escape(KINDS.get(c["kind"], ""))[:6]}</td>')
                continue
            score = f'{pts(c["gp"])}:{pts(c["opponent_gp"])}' if c["kind"] != "pending" else "…"
            cells.append(f'<td class="ctr x" title="{escape(c["opponent"]["name"])}">{c["opponent_rank"] or ""}'
                         f'<small>{c["colour"] or ""}</small> {score}</td>')
        rows.append(f'<tr data-team="{escape(r["team_id"])}"><td class="num">{r["rank"] or ""}</td>'
                    f'<td class="num">{r["pairing_number"]}</td><td class="team">{team_link(r)}</td>{"".join(cells)}'
                    f'<td class="num">{r["mp"]}</td><td class="num">{pts(r["gp"])}</td></tr>')
    head = [("Rk", "num"), ("SNo", "num"), ("Team", "")] + [(str(n), "ctr") for n in view["rounds"]] + [("MP", "num"), ("GP", "num")]
    title = f'Crosstable after round {view["round"]}, {status_text(view["status"])}' if view["round"] else "Crosstable"
    body = ('<p class="hint">Each round: the opponent\'s rank, the colour on board 1 (W/B) and the match score.</p>'
            + table(head, rows, "crosstable"))
    return layout(name, title, body)


def prizes_page(name: str, view: dict[str, Any]) -> str:
    """The board prizes (``views.players.prizes_view``): one table per nominated board."""
    parts = [f'<p class="hint" id="rule">{escape(view["rule"])}</p>']
    for board in view["boards"]:
        rows = [f'<tr data-player="{escape(r["player_id"])}"><td class="num">{r["rank"]}</td><td>{player_link(r)}</td>'
                f'<td>{team_link(r["team"])}</td><td class="num">{pts(r["score"])}/{r["games"]}</td>'
                f'<td class="num">{r["played"]}</td>{perf_cells(r["performance"])}</tr>' for r in board["rows"]]
        label = f'Board {board["board"]}' + (" (reserve)" if board["reserve"] else "")
        parts.append(f'<h3>{label}: {len(rows)} players with at least {view["min_games"]} games</h3>'
                     + table([("Rk", "num"), ("Player", ""), ("Team", ""), ("Pts", "num"), ("Played", "num"), ("Ra", "num"),
                              ("p", "num"), ("Rp", "num")], rows, f'board-{board["board"]}', "cr prize"))
    title = f'Board prizes after round {view["round"]}, {status_text(view["status"])}' if view["round"] else "Board prizes"
    return layout(name, title, "".join(parts))


def round_page(name: str, tid: str, view: dict[str, Any], alphabetical: bool = False) -> str:
    """A round's pairing (``views.paper.round_pairings_view``): by table with the players on every
    board, or (``alphabetical``) every team by name with its table."""
    rnd = view["round"]
    links = (f'<p class="hint noprint"><a href="/rounds/{rnd}">by table</a> · <a href="/rounds/{rnd}?order=team">by team</a>'
             f' · <a href="/api/tournaments/{quote(tid)}/export/pairings.csv?round={rnd}">CSV</a></p>')
    if alphabetical:
        rows = [f'<tr><td class="team">{team_link(a["team"])}</td><td class="num">{a["table"]}</td><td>{a["colour"]}</td>'
                f'<td class="team">{team_link(a["opponent"])}</td></tr>' for a in view["alphabetical"]]
        body = table([("Team", ""), ("Table", "num"), ("Colour", ""), ("Opponent", "")], rows, "by-team")
    else:
        rows = []
        for m in view["tables"]:
            boards = "".join(f'<div class="seat" data-board="{b["board"]}"><span class="bd">{b["board"]}</span> '
                             f'{player_link(b["white_player"])} – {player_link(b["black_player"])} <b>{code(b["result"])}</b></div>'
                             for b in m["boards"])
            score = f'{pts(m["home_gp"])} : {pts(m["away_gp"])}' if m["boards_in"] else "–"
            rows.append(f'<tr data-table="{m["table"]}"><td class="num">{m["table"]}</td>'
                        f'<td class="team">{team_link(m["home"])} <small title="average rating">{m["home_rating"]}</small></td>'
                        f'<td class="score">{score}</td>'
                        f'<td class="team">{team_link(m["away"])} <small title="average rating">{m["away_rating"]}</small></td>'
                        f'<td class="lineup">{boards}</td>'
                        f'<td class="noprint"><a href="/rounds/{rnd}/tables/{m["table"]}/sheet">sheet</a></td></tr>')
        body = table([("Tbl", "num"), ("White on board 1 (Rtg avg)", ""), ("Res.", "ctr"), ("Black on board 1 (Rtg avg)", ""),
                      ("Boards: White – Black, result", ""), ("", "noprint")], rows, "round-pairings")
    extra = "; ".join(x for x in (f'bye: {view["bye"]["name"]}' if view["bye"] else "",
                                  "absent: " + ", ".join(a["name"] for a in view["absent"]) if view["absent"] else "") if x)
    title = f'Round {rnd} pairings, {status_text(view["status"])}' + (f" ({extra})" if extra else "")
    return layout(name, title, links + body)


def sheet_page(name: str, view: dict[str, Any]) -> str:
    """The match sheet of one table (``views.paper.match_sheet_view``), print-ready: both teams,
    boards, players, colours, a line for each result and the captains' signatures."""
    home, away = view["home"], view["away"]
    rows = []
    for b in view["boards"]:
        white, black = b["white_player"], b["black_player"]
        home_is_white = b["white"] == home["team_id"]
        left, right = (white, black) if home_is_white else (black, white)
        rows.append(f'<tr data-board="{b["board"]}"><td class="num">{b["board"]}</td>'
                    f'<td>{"White" if home_is_white else "Black"}</td><td>{player_link(left)}</td>'
                    f'<td class="line">{code(b["result"]) if b["result"] else ""}</td>'
                    f'<td>{player_link(right)}</td><td>{"Black" if home_is_white else "White"}</td></tr>')
    body = (f'<p class="facts">{escape(view["tournament"])} · round {view["round"]} · table {view["table"]}</p>'
            + table([("Board", "num"), ("Colour", ""), (home["name"], ""), ("Result", "ctr"), (away["name"], ""),
                     ("Colour", "")], rows, "sheet", "cr sheet")
            + '<p class="total">Match score: <span class="line wide"></span></p>'
            + '<div class="signatures">'
            + f'<div>Captain of {escape(home["name"])}<span class="line wide"></span></div>'
            + f'<div>Captain of {escape(away["name"])}<span class="line wide"></span></div>'
            + '<div>Arbiter<span class="line wide"></span></div></div>'
            + '<p class="hint noprint">Print this page (Ctrl+P): the print view shows the sheet only.</p>')
    return layout(name, f'Match sheet: {home["name"]} – {away["name"]}', body, live=False, kind="page sheet-page")
