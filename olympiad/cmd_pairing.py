"""``olympiad pair``, ``olympiad check`` and ``olympiad simulate``: the pairing engine on the command line."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, List, Optional

import typer
from rich.console import Console
from rich.table import Table as RichTable

from olympiad.cli import app
from olympiad.cmd_replay import load_or_refuse, refuse
from processors.tournament import RuleViolation, TournamentState
from projections.eventlog import write_log
from projections.history import History, build_history
from projections.pairing import NoLegalPairing, Pairing, propose_pairing
from projections.pairing.check import check_pairing
from projections.pairing.fidelity import SAMARKAND_ARBITER_MADE, compare_rounds, infer_colours, without_arbiter_made
from schemas.canonical import canonical_json
from schemas.profile import PROFILES, RuleProfile, get_profile

console = Console()
err = Console(stderr=True)


def _state_before(events: list[Any], rnd: int, *, include_pairing: bool) -> tuple[TournamentState, Any]:
    """The state when round ``rnd`` was to be paired (events before its ``RoundPaired``; with
    ``include_pairing`` that event too), and the published ``RoundPaired`` of ``rnd`` if any."""
    state = TournamentState()
    published = None
    for event in events:
        if event.type == "RoundPaired" and event.round == rnd:
            published = event
            if not include_pairing:
                break
        elif published is not None:
            break
        try:
            state.apply(event)
        except RuleViolation as exc:
            exc.event_id = event.event_id
            refuse(exc)
    return state, published


def _profile(state: TournamentState, name: Optional[str]) -> RuleProfile:
    if name is None:
        return state.profile
    try:
        return get_profile(name)
    except KeyError as exc:
        refuse(ValueError(str(exc.args[0])))
        raise


def _history(state: TournamentState, rnd: int, profile: RuleProfile, infer: bool) -> tuple[History, bool]:
    """History of rounds 1..rnd-1, with inferred colours where they are unknown (and ``infer``)."""
    try:
        history = build_history(state, rnd - 1)
    except ValueError as exc:
        refuse(exc)
    unknown = any(tr.kind == "played" and tr.colour is None for per in history.rounds.values() for tr in per.values())
    if unknown and infer:
        return infer_colours(history, profile), True
    return history, False


def _arbiter_made(events: list[Any]) -> dict[int, str]:
    """Tables the arbiters made by hand, by round (known for the Samarkand 2026 Open only)."""
    created = events[0] if events and events[0].type == "TournamentCreated" else None
    return SAMARKAND_ARBITER_MADE if created is not None and created.tournament_id == "samarkand-2026-open" else {}


@app.command()
def pair(
    source: str = typer.Argument(..., help="a shipped log name, a data folder or an event log"),
    rnd: int = typer.Option(..., "--round", "-r", help="the round to pair"),
    explain: Optional[str] = typer.Option(None, "--explain", help="print why TEAM got its opponent and colour"),
    trace: bool = typer.Option(False, "--trace", help="print every decision of the pairing"),
    absent: List[str] = typer.Option([], "--absent", help="a team that will not play the round (repeatable)"),
    profile_name: Optional[str] = typer.Option(None, "--profile", help=f"pair under this profile ({', '.join(PROFILES)}) instead of the log's"),
    infer: bool = typer.Option(True, "--infer-colours/--no-infer-colours", help="reconstruct board-1 colours the source does not have"),
    compare: bool = typer.Option(False, "--compare", help="compare with the published pairing of the round"),
    as_json: bool = typer.Option(False, "--json", help="print the PairingProposed event as canonical JSON"),
) -> None:
    """Print the engine's proposed pairing of round ROUND of SOURCE (from the rounds before it)."""
    events = load_or_refuse(source)
    state, published = _state_before(events, rnd, include_pairing=False)
    profile = _profile(state, profile_name)
    if not 1 <= rnd <= profile.rounds:
        refuse(ValueError(f"round {rnd} is outside 1..{profile.rounds} of profile {profile.name}"))
    if state.rounds and max(state.rounds) != rnd - 1:
        refuse(ValueError(f"round {rnd} cannot be paired: the log's last paired round before it is {max(state.rounds)}"))
    history, inferred = _history(state, rnd, profile, infer)
    absent_teams = set(absent) | (set(published.absent) if published is not None else set())
    try:
        pairing = propose_pairing(history, profile, rnd, absent_teams)
    except (ValueError, NoLegalPairing) as exc:
        refuse(exc)
    if as_json:
        sys.stdout.write(canonical_json(pairing.to_event(state.tournament_id or "")) + "\n")
        return
    _print_pairing(pairing, history, state, inferred)
    if explain is not None:
        lines = pairing.explain(explain)
        if not lines:
            refuse(ValueError(f"{explain!r} is not a team of this pairing (team ids: {', '.join(sorted(history.teams)[:8])}, ...)"))
        console.print(f"\nwhy {explain}:", highlight=False)
        for line in lines:
            console.print("  " + line, highlight=False, soft_wrap=True, markup=False)
    if trace:
        console.print("\ntrace:", highlight=False)
        for line in pairing.trace:
            console.print("  " + line, highlight=False, soft_wrap=True, markup=False)
    if compare:
        _print_comparison(events, rnd, profile, published, infer)


def _print_pairing(pairing: Pairing, history: History, state: TournamentState, inferred: bool) -> None:
    mp = {t: sum(tr.mp for tr in history.team_rounds(t)) for t in history.teams}
    title = f"{state.created.name if state.created else ''}: proposed pairing of round {pairing.round} ({pairing.profile})"
    table = RichTable(title=title, title_justify="left")
    for col, justify in (("Tb", "right"), ("SNo", "right"), ("Home (White on board 1)", "left"), ("MP", "right"),
                         ("MP", "right"), ("Away", "left"), ("SNo", "right")):
        table.add_column(col, justify=justify)
    for t in pairing.tables:
        h, a = history.teams[t.home], history.teams[t.away]
        table.add_row(str(t.table), str(h.pairing_number), f"{h.name} ({t.home})", str(mp[t.home]), str(mp[t.away]),
                      f"{a.name} ({t.away})", str(a.pairing_number))
    console.print(table)
    if pairing.bye:
        console.print(f"bye: {history.teams[pairing.bye].name} ({pairing.bye})", highlight=False)
    if pairing.absent:
        console.print(f"not paired (absent): {', '.join(pairing.absent)}", highlight=False)
    if inferred:
        console.print("colours: the source has no board-1 colours; those of earlier rounds were reconstructed "
                      "by the profile's allocation rules (R-C1, R-C2)", highlight=False)


def _print_comparison(events: list[Any], rnd: int, profile: RuleProfile, published: Any, infer: bool) -> None:
    if published is None:
        refuse(ValueError(f"round {rnd} has no published pairing to compare with"))
    (result,) = compare_rounds(events, profile, arbiter_made=_arbiter_made(events), colours=infer, rounds=[rnd])
    console.print(f"\npublished round {rnd}: {result.identical}/{result.total} pairs identical ({100 * result.share:.1f} %)", highlight=False)
    for a, b in result.published_only:
        console.print(f"  published only: {a} v {b}", highlight=False)
    for a, b in result.engine_only:
        console.print(f"  engine only:    {a} v {b}", highlight=False)
    for a, b in result.arbiter_made:
        console.print(f"  arbiter-made (left out): {a} v {b}", highlight=False)


@app.command()
def check(
    source: str = typer.Argument(..., help="a shipped log name, a data folder or an event log"),
    rnd: int = typer.Option(..., "--round", "-r", help="the published round to check"),
    profile_name: Optional[str] = typer.Option(None, "--profile", help="check against this profile instead of the log's"),
    infer: bool = typer.Option(True, "--infer-colours/--no-infer-colours", help="reconstruct board-1 colours the source does not have"),
) -> None:
    """Check the published pairing of round ROUND of SOURCE; list each violated rule (exit 1 if any)."""
    events = load_or_refuse(source)
    state, published = _state_before(events, rnd, include_pairing=True)
    if published is None:
        refuse(ValueError(f"round {rnd} has no published pairing in {source}"))
    profile = _profile(state, profile_name)
    history, inferred = _history(state, rnd, profile, infer)
    colours = "known" if published.colours_known and not inferred else ("inferred" if inferred else "unknown")
    newcomer = _arbiter_made(events).get(rnd)
    tables, bye, absent = without_arbiter_made(published, newcomer)
    if newcomer:
        console.print(f"round {rnd}: the table of {newcomer} (a late arrival put in the bye's place) is arbiter-made; "
                      f"checked as paired without it", highlight=False)
    try:
        violations = check_pairing(history, profile, rnd, tables, bye, absent, colours)
    except (ValueError, NoLegalPairing) as exc:
        refuse(exc)
    note = {"known": "", "inferred": " (colours reconstructed: only the group-level colour-limit check)",
            "unknown": " (colours unknown: no colour check)"}[colours]
    if not violations:
        console.print(f"round {rnd}: {len(tables)} tables, no rule violated under {profile.name}{note}", highlight=False)
        return
    console.print(f"round {rnd}: {len(violations)} violation(s) under {profile.name}{note}", highlight=False)
    for v in violations:
        console.print("  " + v.render(), highlight=False, soft_wrap=True, markup=False)
    raise typer.Exit(code=1)


@app.command()
def simulate(
    teams: Optional[int] = typer.Option(None, "--teams", "-n", min=2, help="number of teams (default: drawn from the seed, 6-80)"),
    rounds: Optional[int] = typer.Option(None, "--rounds", min=1, help="number of rounds (default: 11, or drawn from the seed, 5-11, without --teams)"),
    seed: int = typer.Option(1, "--seed", help="random seed (same seed, same tournament)"),
    profile_name: str = typer.Option("olympiad-2022", "--profile", help=f"rule profile ({', '.join(PROFILES)})"),
    out: Path = typer.Option(Path("simulated.events.jsonl.gz"), "--out", "-o", help="event log to write"),
) -> None:
    """Simulate a whole tournament (Elo-based results, the engine's pairings) and write its event log.

    Without ``--teams`` the team count, round count, ratings, draw, forfeit, absence and withdrawal
    rates are all drawn from ``--seed`` (``producers.simulator.draw_spec``)."""
    from producers.simulator import SimulationSpec, draw_spec, simulate as run

    try:
        base = get_profile(profile_name)
    except KeyError as exc:
        refuse(ValueError(str(exc.args[0])))
        raise
    if teams is None:
        spec = draw_spec(seed, base, rounds=(rounds, rounds) if rounds else (5, 11))
    else:
        r = rounds or 11
        spec = SimulationSpec(teams=teams, rounds=r, seed=seed, profile=base.model_copy(update={"rounds": r}),
                              tournament_id=f"sim-{teams}-{seed}")
    sim = run(spec)
    n = write_log(out, sim.events)
    played = max(sim.state.rounds, default=0)
    console.print(f"simulated {spec.teams} teams, {played} of {spec.rounds} rounds under {spec.profile.name}: {n} events written to {out}"
                  + ("" if teams else f" (drawn from seed {seed}: absence rate {spec.absence_rate}, match forfeit rate "
                     f"{spec.match_forfeit_rate}, ratings {spec.rating_mean} +- {spec.rating_sd})"), highlight=False)
    if sim.stopped:
        console.print(f"stopped early: {sim.stopped}", highlight=False)
