"""``olympiad pair``, ``olympiad check`` and ``olympiad simulate``: the pairing engine on the command line."""
import sys
from pathlib import Path
from typing import Any, List, Optional

import typer

from olympiad.cli import app
from olympiad.output import console, err, load_or_refuse, refuse, say

PROFILE_NAMES = "olympiad-2008, olympiad-2022, swiss-team-2026, swiss-team-2026-nocolour, swiss-team-2026-typeb"  # for the help texts; get_profile refuses any other


def _state_before(events: list[Any], rnd: int, *, include_pairing: bool) -> tuple[Any, Any]:
    """The state when round ``rnd`` was to be paired (events before its ``RoundPaired``; with
    ``include_pairing`` that event too), and the published ``RoundPaired`` of ``rnd`` if any.
    ``events`` are a decided log (``load_or_refuse``): replayed with ``evolve``, not judged again."""
    from processors.tournament import RuleViolation, TournamentState

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
            state.evolve(event)
        except RuleViolation as exc:  # an id used for two different events
            exc.event_id = event.event_id
            refuse(exc)
    return state, published


def _profile(state: Any, name: Optional[str]) -> Any:
    """The ``RuleProfile`` named ``name``, else the log's; an unknown name is refused."""
    from schemas.profile import get_profile

    if name is None:
        return state.profile
    try:
        return get_profile(name)
    except KeyError as exc:
        refuse(ValueError(str(exc.args[0])))


def _history(state: Any, rnd: int, profile: Any, infer: bool) -> tuple[Any, bool]:
    """History of rounds 1..rnd-1, with inferred colours where they are unknown (and ``infer``)."""
    from projections.history import build_history
    from projections.pairing.fidelity import infer_colours

    try:
        history = build_history(state, rnd - 1)
    except ValueError as exc:
        refuse(exc)
    unknown = any(tr.kind == "played" and tr.colour is None for per in history.rounds.values() for tr in per.values())
    if unknown and infer:
        return infer_colours(history, profile), True
    return history, False


def _arbiter_made(source: str, events: list[Any]) -> dict[int, str]:
    """Tables the arbiters made by hand, by round: the newcomer's team id of each entry of the
    source's ``event.json`` (none without one); a bad entry is refused."""
    from producers.importers.event_facts import arbiter_made, read_event_facts_file
    from producers.sources import facts_path

    path = facts_path(source)
    if path is None:
        return {}
    try:
        return arbiter_made(read_event_facts_file(path), events)
    except ValueError as exc:
        refuse(exc)


def team_of(history: Any, given: str, option: str) -> str:
    """The team id ``given`` names: a team id ("IND", any case) or a full team name ("India");
    anything else is refused, listing the teams whose name contains it."""
    by_id = {t.lower(): t for t in history.teams}
    by_name = {team.name.lower(): t for t, team in history.teams.items()}
    key = given.strip().lower()
    if key in by_id or key in by_name:
        return by_id.get(key) or by_name[key]
    near = sorted(f"{team.name} ({t})" for t, team in history.teams.items() if key and key in team.name.lower())
    hint = f"; did you mean {', '.join(near[:6])}?" if near else "; give a team id (IND) or a full name (India)"
    refuse(ValueError(f"{option} {given!r}: no such team{hint}"))


@app.command()
def pair(
    source: str = typer.Argument(..., metavar="SOURCE", help="a shipped log name, a data folder or an event log"),
    rnd: int = typer.Option(..., "--round", "-r", help="the round to pair"),
    explain: List[str] = typer.Option([], "--explain", metavar="TEAM", help="print why TEAM (a team id such "
                                      "as IND, or a name such as India) got its opponent and colour (repeatable: each team asked for)"),
    trace: bool = typer.Option(False, "--trace", help="print every decision of the pairing"),
    absent: List[str] = typer.Option([], "--absent", metavar="TEAM", help="a team (id or name) that will not play "
                                     "the round, besides the absences and late entries the log records (repeatable)"),
    profile_name: Optional[str] = typer.Option(None, "--profile", help=f"pair under this profile ({PROFILE_NAMES}) instead of the log's"),
    infer: bool = typer.Option(True, "--infer-colours/--no-infer-colours", help="reconstruct board-1 colours the source does not have"),
    compare: bool = typer.Option(False, "--compare", help="compare with the published pairing of the round"),
    as_json: bool = typer.Option(False, "--json", help="print the PairingProposed event as canonical JSON"),
) -> None:
    """Print the engine's proposed pairing of round ROUND of SOURCE (from the rounds before it): the
    arbiter's `round pair` proposal, with the log's absences, late entries and withdrawals."""
    from processors.tournament import RuleViolation
    from projections.pairing.proposal import proposal_event, propose_round
    from schemas.canonical import canonical_json

    events = load_or_refuse(source)
    state, published = _state_before(events, rnd, include_pairing=False)
    profile = _profile(state, profile_name)
    if not 1 <= rnd <= profile.rounds:
        refuse(ValueError(f"round {rnd} is outside 1..{profile.rounds} of profile {profile.name}"))
    if state.rounds and max(state.rounds) != rnd - 1:
        refuse(ValueError(f"round {rnd} cannot be paired: the log's last paired round before it is {max(state.rounds)}"))
    history, inferred = _history(state, rnd, profile, infer)
    explained = [team_of(history, team, "--explain") for team in explain]  # refused before printing
    absent_teams = {team_of(history, a, "--absent") for a in absent} | (set(published.absent) if published is not None else set())
    arbiter_made = _arbiter_made(source, events) if compare else {}
    try:  # the log's absences, late entries and withdrawals, as the arbiter's `round pair` takes them
        pairing = propose_round(state, rnd, profile=profile, history=history, absent=absent_teams)
    except RuleViolation as exc:
        refuse(exc)
    if as_json:
        sys.stdout.write(canonical_json(proposal_event(state, pairing)) + "\n")
        return
    _print_pairing(pairing, history, state, inferred)
    out = console()
    for team in dict.fromkeys(explained):  # every team asked for, once, in the order asked
        name = history.teams[team].name
        out.print(f"\nwhy {team if name == team else f'{name} ({team})'}:", highlight=False)
        for line in pairing.explain(team):
            out.print("  " + line, highlight=False, soft_wrap=True, markup=False)
    if trace:
        out.print("\ntrace:", highlight=False)
        for line in pairing.trace:
            out.print("  " + line, highlight=False, soft_wrap=True, markup=False)
    if compare:
        _print_comparison(events, rnd, profile, published, infer, arbiter_made)


def _print_pairing(pairing: Any, history: Any, state: Any, inferred: bool) -> None:
    from rich.table import Table as RichTable

    out = console()
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
    out.print(table)
    if pairing.bye:
        out.print(f"bye: {history.teams[pairing.bye].name} ({pairing.bye})", highlight=False)
    if pairing.absent:
        out.print(f"not paired (absent): {', '.join(pairing.absent)}", highlight=False)
    if inferred:
        out.print("colours: the source has no board-1 colours; those of earlier rounds were reconstructed "
                      "by the profile's allocation rules (R-C1, R-C2)", highlight=False)


def _print_comparison(events: list[Any], rnd: int, profile: Any, published: Any, infer: bool,
                      arbiter_made: dict[int, str]) -> None:
    from projections.pairing.fidelity import compare_rounds

    out = console()
    if published is None:
        refuse(ValueError(f"round {rnd} has no published pairing to compare with"))
    (result,) = compare_rounds(events, profile, arbiter_made=arbiter_made, colours=infer, rounds=[rnd])
    out.print(f"\npublished round {rnd}: {result.identical}/{result.total} pairs identical ({100 * result.share:.1f} %)", highlight=False)
    for a, b in result.published_only:
        out.print(f"  published only: {a} v {b}", highlight=False)
    for a, b in result.engine_only:
        out.print(f"  engine only:    {a} v {b}", highlight=False)
    for a, b in result.arbiter_made:
        out.print(f"  arbiter-made (left out): {a} v {b}", highlight=False)


@app.command()
def check(
    source: str = typer.Argument(..., metavar="SOURCE", help="a shipped log name, a data folder or an event log"),
    rnd: int = typer.Option(..., "--round", "-r", help="the published round to check"),
    profile_name: Optional[str] = typer.Option(None, "--profile", help="check against this profile instead of the log's"),
    infer: bool = typer.Option(True, "--infer-colours/--no-infer-colours", help="reconstruct board-1 colours the source does not have"),
) -> None:
    """Check the published pairing of round ROUND of SOURCE; list each violated rule (exit 1 if any)."""
    from projections.pairing import NoLegalPairing
    from projections.pairing.systems import check_pairing
    from projections.pairing.fidelity import without_arbiter_made

    out = console()
    events = load_or_refuse(source)
    state, published = _state_before(events, rnd, include_pairing=True)
    if published is None:
        refuse(ValueError(f"round {rnd} has no published pairing in {source}"))
    profile = _profile(state, profile_name)
    history, inferred = _history(state, rnd, profile, infer)
    colours = "known" if published.colours_known and not inferred else ("inferred" if inferred else "unknown")
    newcomer = _arbiter_made(source, events).get(rnd)
    tables, bye, absent = without_arbiter_made(published, newcomer)
    if newcomer:
        out.print(f"round {rnd}: the table of {newcomer} (a late arrival put in the bye's place) is arbiter-made; "
                      f"checked as paired without it", highlight=False)
    try:
        violations = check_pairing(history, profile, rnd, tables, bye, absent, colours)
    except (ValueError, NoLegalPairing) as exc:
        refuse(exc)
    note = {"known": "", "inferred": " (colours reconstructed: only the group-level colour-limit check)",
            "unknown": " (colours unknown: no colour check)"}[colours]
    if not violations:
        out.print(f"round {rnd}: {len(tables)} tables, no rule violated under {profile.name}{note}", highlight=False)
        return
    out.print(f"round {rnd}: {len(violations)} violation(s) under {profile.name}{note}", highlight=False)
    for v in violations:
        out.print("  " + v.render(), highlight=False, soft_wrap=True, markup=False)
    raise typer.Exit(code=1)


@app.command()
def simulate(
    teams: Optional[int] = typer.Option(None, "--teams", "-n", min=2, help="number of teams (default: drawn from the seed, 6-80)"),
    rounds: Optional[int] = typer.Option(None, "--rounds", min=1, help="number of rounds (default: 11, or drawn from the seed, 5-11, without --teams)"),
    seed: int = typer.Option(1, "--seed", help="random seed (same seed, same tournament)"),
    profile_name: str = typer.Option("olympiad-2022", "--profile", help=f"rule profile ({PROFILE_NAMES})"),
    out: Path = typer.Option(Path("simulated.events.jsonl.gz"), "--out", "-o", help="event log to write"),
) -> None:
    """Simulate a whole tournament (Elo-based results, the engine's pairings) and write its event log.

    Without --teams the team count, round count, ratings, draw, forfeit, absence and withdrawal
    rates are all drawn from --seed (producers.simulator.draw_spec). Exit status 1 if the
    simulation stopped early (a round the engine could not pair); the log of the rounds played is
    written all the same."""
    from producers.simulator import SimulationSpec, draw_spec, simulate as run
    from projections.eventlog import write_log
    from schemas.profile import get_profile, with_rounds

    try:
        base = get_profile(profile_name)
    except KeyError as exc:
        refuse(ValueError(str(exc.args[0])))
        raise
    if teams is None:
        spec = draw_spec(seed, base, rounds=(rounds, rounds) if rounds else (5, 11))
    else:
        r = rounds or 11
        spec = SimulationSpec(teams=teams, rounds=r, seed=seed, profile=with_rounds(base, r),
                              tournament_id=f"sim-{teams}-{seed}")
    sim = run(spec)
    n = write_log(out, sim.events)
    played = max(sim.state.rounds, default=0)
    say(f"simulated {spec.teams} teams, {played} of {spec.rounds} rounds under {spec.profile.name}: {n} events written to {out}"
                  + ("" if teams else f" (drawn from seed {seed}: absence rate {spec.absence_rate}, match forfeit rate "
                     f"{spec.match_forfeit_rate}, ratings {spec.rating_mean} +- {spec.rating_sd})"))
    if sim.stopped:
        err().print(f"stopped early: {sim.stopped}", highlight=False, soft_wrap=True)
        raise typer.Exit(code=1)
