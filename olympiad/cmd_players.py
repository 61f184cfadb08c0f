"""``olympiad prizes``: the board prizes of an event source (``projections.views.players.prizes_view``,
the rows the API serves at ``/api/tournaments/{tid}/prizes``)."""
import json
import sys

import typer

from olympiad.cli import app
from olympiad.output import load_or_refuse, refuse


@app.command()
def prizes(
    source: str = typer.Argument(..., metavar="SOURCE", help="a shipped log name (samarkand-2026-open), a data folder or an event log"),
    as_json: bool = typer.Option(False, "--json", help="print the view's JSON (what the API serves) instead of the tables"),
) -> None:
    """Print the board prizes of SOURCE: per nominated board the best rating performances of the
    players with the profile's minimum of games played (Rp = Ra + dp, FIDE B.02)."""
    from processors.tournament import RuleViolation
    from projections.replay import standings_at
    from projections.views.players import prizes_view
    from projections.views.snapshot import Snapshot

    events = load_or_refuse(source)
    try:
        state, _ = standings_at(events)
    except (RuleViolation, ValueError) as exc:
        refuse(exc)
    view = prizes_view(Snapshot(state, {}))
    if as_json:
        sys.stdout.write(json.dumps(view, ensure_ascii=False, indent=1) + "\n")
        return
    from olympiad.render import prizes_text

    sys.stdout.write(prizes_text(view, f"{state.created.name}: board prizes") + "\n")
