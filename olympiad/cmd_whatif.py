"""``olympiad whatif``: the standings, the next pairing, what a team needs and the chances, if...

A door of the what-if (``projections.views.whatif.whatif_answer``, the function the HTTP API and
the scoreboard page call too): it reads SOURCE, lays the ``--set`` results over it in memory and
prints the answer. Nothing is written, to SOURCE or anywhere, and no command is sent.
"""
from typing import List, Optional

import typer

from olympiad.cli import app


@app.command()
def whatif(
    source: str = typer.Argument(..., metavar="SOURCE", help="a shipped log name, a data folder, an event log or an "
                                 "event store's database URL (sqlite:///olympiad.sqlite): read, never written"),
    settings: List[str] = typer.Option([], "--set", metavar="R/TABLE=SCORE", help="a hypothetical result of a pending "
                                       "match of the round in play: a match score, home first (11/5=2.5-1.5), or every "
                                       "board's result White-Black (11/5=1-0,1/2-1/2,0-1,1-0); repeatable"),
    rounds: Optional[int] = typer.Option(None, "--rounds", min=0, help="take SOURCE as it stood with N rounds played "
                                         "and round N+1 paired, its results not in (as olympiad serve --rounds N)"),
    needs: Optional[str] = typer.Option(None, "--needs", metavar="TEAM", help="what TEAM (an id such as IND, or a full "
                                        "name) needs from its own match for each place band"),
    bands: List[int] = typer.Option([1, 3], "--band", metavar="N", help="a place band: the top N (1: first place, "
                                    "3: a medal); repeatable, default 1 and 3"),
    simulations: Optional[int] = typer.Option(None, "--chances", metavar="N", help="each team's chances of each band, "
                                              "from N simulations of the rounds still to play (at most 2,000)"),
    seed: int = typer.Option(1, "--seed", help="the random seed of the chances and of a sampled --needs (same seed, same answer)"),
    as_json: bool = typer.Option(False, "--json", help="print the answer as JSON (the HTTP API's)"),
) -> None:
    """What if the pending matches of the round in play ended as --set says: the standings (every
    tie-break, "decided by"), the next round's pairing by the engine once the round is complete,
    what a team needs (--needs) and the chances (--chances). Hypothetical: nothing is recorded."""
    from olympiad.whatif_text import run  # the engines: not loaded by the other commands' start-up

    run(source, settings, rounds=rounds, needs=needs, bands=bands, simulations=simulations, seed=seed, as_json=as_json)
