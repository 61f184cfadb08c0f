"""The scoreboard page rendered on the server: standings and pairings are in the HTML before any
script runs (a browser without JavaScript, a search engine, a slow connection see them); the
page's script then keeps them live from the standings stream.

``scoreboard_page(snap, rnd)`` fills ``templates/scoreboard.html`` from the same views as the
JSON API (``projections.views``: ``scoreboard_view``, ``standings_view``, ``pairings_view``), so
the page, the API and the CLI show one set of values in one column order
(``projections.standings.columns``).
"""
from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any

from projections.standings.columns import cell
from projections.standings.decided_by import SHARED
from projections.views.matches import pairings_view
from projections.views.snapshot import Snapshot
from projections.views.standings import scoreboard_view, standings_view

TEMPLATE = Path(__file__).resolve().parent / "templates" / "scoreboard.html"
NUMERIC = {"rank", "pairing_number", "games", "won", "drawn", "lost", "mp"}


def pts(value: str) -> str:
    """"11.5" -> "11½" as the page's script shows points (``common.js`` ``pts``)."""
    if not value.endswith(".5"):
        return value
    whole = value[:-2]
    return ("" if whole == "0" else whole) + "½"


def _standings_rows(rows: list[dict[str, Any]], columns: list[dict[str, str]], tid: str) -> str:
    out, previous = [], None
    for r in rows:
        cells = []
        for c in columns:
            key, text = c["key"], cell(r, c["key"])
            if key == "rank":
                text = "" if r["rank"] == previous else text
                cells.append(f'<td class="num rk" data-value="{r["rank"]}">{text}</td>')
            elif key == "name":
                cells.append(f'<td class="team">{escape(text)}<a class="team-link" title="team page" '
                             f'href="/teams/{escape(r["team_id"])}?t={escape(tid)}">↗</a></td>')
            elif key == "federation":
                cells.append(f'<td class="fed">{escape(text)}</td>')
            elif key == "decided_by":
                shown = "= shared" if text == SHARED else text
                cells.append(f'<td class="by" title="the key that puts the row below the one above">{escape(shown)}</td>')
            elif key in NUMERIC:
                cells.append(f'<td class="num {key}" data-value="{escape(text)}">{text}</td>')
            else:
                cls = "gp" if key == "GP" else "tb"
                cells.append(f'<td class="num {cls}" data-tb="{escape(key)}" data-value="{escape(text)}">{pts(text)}</td>')
        previous = r["rank"]
        out.append(f'<tr data-team="{escape(r["team_id"])}" data-rank="{r["rank"]}">{"".join(cells)}</tr>')
    return "".join(out)


def _pairing_rows(pairings: dict[str, Any]) -> str:
    out = []
    for m in pairings["tables"]:
        score = f'{pts(m["home_gp"])} : {pts(m["away_gp"])}' if m["boards_in"] else "–"
        boards = "".join(
            f'<span class="{"" if b["result"] else "none"}" data-board="{b["board"]}" data-result="{escape(b["result"] or "")}">'
            f'{escape((b["result"] or "·").replace("1/2", "½"))}</span>' for b in m["boards"])
        out.append(f'<tr data-table="{m["table"]}"><td class="num">{m["table"]}</td>'
                   f'<td class="num">{m["home"]["pairing_number"]}</td><td class="team">{escape(m["home"]["name"])}</td>'
                   f'<td class="score" data-home="{m["home_gp"]}" data-away="{m["away_gp"]}">{score}</td>'
                   f'<td class="team">{escape(m["away"]["name"])}</td><td class="num">{m["away"]["pairing_number"]}</td>'
                   f'<td class="boards">{boards}</td><td class="whatif"></td></tr>')
    return "".join(out)


def _checkpoint_rows(state: Any) -> str:
    """One row per signed checkpoint (``projections.anchors``): round, signed length, head, digest."""
    return "".join(f'<tr><td class="num">{cp.round}</td><td class="num">{"" if cp.events is None else cp.events}</td>'
                   f'<td><code>{escape(cp.head)}</code></td><td><code>{escape(cp.standings_digest)}</code></td></tr>'
                   for _, cp in sorted(state.checkpoints.items()))


def scoreboard_page(snap: Snapshot, rnd: int | None = None) -> str:
    """The scoreboard HTML: the live scoreboard (``rnd`` None), or the standings after round ``rnd``
    with that round's pairing, titled by what they are (official, complete or provisional:
    ``standings_view``'s ``title``). Raises ``projections.views.refs.NotFound`` for a round without
    standings."""
    state = snap.state
    if state.created is None:
        return TEMPLATE.read_text(encoding="utf-8").replace("{{name}}", "No tournament is served")
    live = scoreboard_view(snap)
    if rnd is None:
        board, title, shown = live, live["label"], live["round"]
    else:
        board = standings_view(snap, rnd)
        title, shown = board["title"], rnd
    columns = live["columns"]
    head = "<tr>" + "".join(f'<th class="{"" if c["key"] in ("name", "federation") else "num"}" data-key="{escape(c["key"])}">'
                            f'{escape(c["label"])}</th>' for c in columns) + "</tr>"
    after = " · after round" if live["closed_rounds"] else ""
    links = [f'<a href="/" data-round="live" class="{"current" if rnd is None else ""}">live</a>{after}'] + [
        f'<a href="/?round={r}" data-round="{r}" class="{"current" if r == rnd else ""}">{r}</a>' for r in live["closed_rounds"]]
    pairings = pairings_view(snap, shown) if shown in state.rounds else {"tables": [], "bye": None, "absent": [], "not_entered": []}
    extra = "; ".join(x for x in (f'bye: {pairings["bye"]["name"]}' if pairings["bye"] else "",
                                  f'absent: {", ".join(a["name"] for a in pairings["absent"])}' if pairings["absent"] else "",
                                  f'not yet entered: {", ".join(a["name"] for a in pairings["not_entered"])}'
                                  if pairings["not_entered"] else "") if x)
    values = {
        "page_title": f"{state.created.name}: standings", "name": state.created.name, "view_round": str(rnd or ""),
        "live": "1" if rnd is None else "0", "provisional": "1" if rnd is None and live["provisional"] else "0",
        "round_links": " ".join(links),
        "standings_title": title, "order": f"Order: MP, {', '.join(state.profile.tiebreaks)} ({state.profile.name}).",
        "standings_head": head, "standings_rows": _standings_rows(board["rows"], columns, state.tournament_id or ""),
        "pairings_title": f"Round {shown} pairings" + (f" ({extra})" if extra else "") if shown else "Pairings",
        "pairings_rows": _pairing_rows(pairings),
        "anchors_url": f"/api/tournaments/{state.tournament_id}/checkpoints", "chief_key": state.created.chief_key or "none",
        "checkpoint_rows": _checkpoint_rows(state),
    }
    html = TEMPLATE.read_text(encoding="utf-8")
    for key, value in values.items():
        html = html.replace("{{" + key + "}}", value if key.endswith(("_rows", "_head", "_links")) else escape(value))
    return html
