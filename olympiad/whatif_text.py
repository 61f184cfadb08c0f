"""``olympiad whatif`` behind its command: read the source, ask the what-if, print the answer.

The answer is ``projections.views.whatif.whatif_answer``'s, the one the HTTP API gives; this
module only loads the source (``olympiad.output.load_or_refuse``: read, never written), takes the
standings of the rounds before as they stood (``projections.replay.standings_at``), and prints
the JSON or plain text (the standings in ``olympiad.render``'s layout).
"""
from __future__ import annotations

import json
import sys
from typing import Any, Iterable

from olympiad.output import load_or_refuse, refuse
from olympiad.render import standings_text
from olympiad.web.preload import through_round
from processors.tournament import RuleViolation, TournamentState
from projections.replay import RoundStandings, standings_at
from projections.views.whatif import NOTE, whatif_answer


def run(source: str, settings: Iterable[str], *, rounds: int | None, needs: str | None, bands: Iterable[int],
        simulations: int | None, seed: int, as_json: bool) -> None:
    """Print the what-if of ``source`` (``olympiad whatif``); a refusal exits with status 2."""
    events = load_or_refuse(source)
    try:
        if rounds is not None:
            events = through_round(events, rounds)
        state, official = state_and_official(events)
        answer = whatif_answer(state, official, settings, needs=needs, bands=bands, simulations=simulations, seed=seed)
    except (RuleViolation, ValueError) as exc:
        refuse(exc)
    if as_json:
        sys.stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
        return
    sys.stdout.write(answer_text(answer, state) + "\n")


def state_and_official(events: list[Any]) -> tuple[TournamentState, dict[int, RoundStandings]]:
    """The state of ``events`` and the standings after the round before the round in play as they
    stood when the round in play was paired (what the scoreboard shows while none of its matches
    is in). Raises ``ValueError`` for a log that pairs no round."""
    last = max((e.round for e in events if e.type == "RoundPaired"), default=0)
    state, before = standings_at(events, last - 1 if last > 1 else None)
    return state, ({last - 1: before} if last > 1 else {})


def answer_text(answer: dict[str, Any], state: TournamentState) -> str:
    """The what-if ``answer`` as plain text: a headline, the tables set, the standings, the next
    pairing, what the team needs, the chances."""
    st = answer["standings"]
    out = [f"{state.created.name if state.created else ''}: {NOTE}"]
    for s in answer["settings"]:
        out.append(f"  set: round {s['round']} table {s['table']}: {s['home_gp']}-{s['away_gp']} "
                   f"({', '.join(b['result'] for b in s['boards'])})")
    out.append(standings_text(st["rows"], state.profile.tiebreaks, st["label"]))
    if st["digest"]:
        out.append(f"standings sha256 {st['digest']} (hypothetical)")
    nxt = answer["next_pairing"]
    if nxt is not None:
        out.append(f"\nWhat if: round {nxt['round']} pairing (the engine's proposal, {nxt['profile']})")
        for t in nxt["tables"]:
            out.append(f"  {t['table']:>3}  {t['home']['name']} ({t['home']['mp']} MP) - {t['away']['name']} ({t['away']['mp']} MP)")
        if nxt["bye"]:
            out.append(f"  bye: {nxt['bye']['name']}")
    elif answer["pairing_refused"]:
        out.append(f"\nthe next round cannot be paired: {answer['pairing_refused']}")
    if answer["needs"] is not None:
        out.append("\nWhat it needs:")
        out.extend(f"  {line}" for line in answer["needs"]["lines"])
    odds = answer["chances"]
    if odds is not None:
        bands = odds["bands"]
        out.append(f"\nChances after round {odds['last_round']}: {odds['counted']} simulations (seed {odds['seed']}); "
                   f"{odds['model']}")
        out.append("  " + "  ".join(["team".ljust(30)] + [f"{'first' if b == 1 else f'top {b}':>16}" for b in bands]))
        for t in odds["teams"]:
            if not any(t["chances"].values()):
                continue
            cells = [f"{100 * t['chances'][str(b)]:6.1f} % ± {100 * t['errors'][str(b)]:4.1f}" for b in bands]
            out.append("  " + "  ".join([t["team"]["name"][:30].ljust(30)] + [f"{c:>16}" for c in cells]))
    return "\n".join(out)
