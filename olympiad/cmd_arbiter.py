"""The arbiter's commands: ``olympiad new``, ``team add|import|roster|ranks|absent|withdraw``,
``lineup``, ``round pair|amend|publish|close``, ``enter``, ``results``, ``forfeit``, ``correct``.

Each builds one command of ``schemas.commands`` and submits it through ``olympiad.doors``: the
embedded store by default, the live pipeline with ``--kafka``. The rules are the deciders'
(``processors.deciders``); these functions only parse arguments and print.
"""
import json
from pathlib import Path
from typing import Any, Optional

import typer

from olympiad.cli import app
from olympiad import doors
from olympiad.doors import AS, DB, KAFKA, actor, console, embedded_state, err, escape, submit
from olympiad.output import note_titles, say

team_app = typer.Typer(no_args_is_help=True, help="Register teams, import them, change rosters, rank, absences, withdrawals.")
round_app = typer.Typer(no_args_is_help=True, help="Pair a round, amend the proposal, publish it, close the round.")
app.add_typer(team_app, name="team")
app.add_typer(round_app, name="round")

TOURNAMENT = typer.Argument(..., metavar="TOURNAMENT", help="tournament id (lower-case letters, digits, '-')")
ROUND = typer.Argument(..., metavar="ROUND", help="round number")
PLAYER = typer.Option([], "--player", metavar="NAME[;FIDE_ID[;TITLE[;RATING]]]",
                      help="a nominated player, in board order (boards 1-4, then the reserve); repeat")


def _players(specs: list[str]) -> list[dict[str, Any]]:
    out = []
    for order, spec in enumerate(specs, start=1):
        name, fide, title, rating = (spec.split(";") + ["", "", ""])[:4]
        player: dict[str, Any] = {"board_order": order, "name": name}
        if fide.strip():
            player["fide_id"] = fide.strip()
        if title.strip():
            player["title"] = title.strip()
        if rating.strip():
            player["rating"] = int(rating) if rating.strip().isdigit() else rating.strip()
        out.append(player)
    return out


def _show_pairing(tables: Any, bye: Optional[str], absent: Any, state: Any, title: str) -> None:
    from rich.table import Table as RichTable

    view = RichTable(title=title, title_justify="left")
    for column in ("table", "home (White on 1)", "away"):
        view.add_column(column)
    names = {tid: t.name for tid, t in state.teams.items()} if state else {}
    for t in tables:
        view.add_row(str(t.table), f"{names.get(t.home, t.home)} ({t.home})", f"{names.get(t.away, t.away)} ({t.away})")
    console().print(view)
    if bye:
        console().print(f"bye (PAB): {names.get(bye, bye)} ({bye})")
    if absent:
        console().print(f"not paired: {', '.join(absent)}")


@app.command()
def new(
    tournament: str = TOURNAMENT,
    name: str = typer.Option(..., "--name", help="the tournament's name"),
    profile: str = typer.Option("olympiad-2022", "--profile", help="a built-in rule profile (olympiad-2008, olympiad-2022)"),
    profile_file: Optional[Path] = typer.Option(None, "--profile-file", help="a rule profile as JSON (instead of --profile)"),
    rounds: Optional[int] = typer.Option(None, "--rounds", help="number of rounds (default: the profile's)"),
    starts: Optional[str] = typer.Option(None, "--starts", metavar="YYYY-MM-DD"),
    ends: Optional[str] = typer.Option(None, "--ends", metavar="YYYY-MM-DD"),
    venue: str = typer.Option("", "--venue"),
    chief_arbiter: str = typer.Option("", "--chief-arbiter", help="the chief arbiter's name"),
    nomination_deadline: Optional[str] = typer.Option(None, "--nomination-deadline", metavar="ISO-8601",
                                                      help="rosters are fixed after it (default: when round 1 is published)"),
    key_file: Optional[Path] = typer.Option(None, "--key", help="the chief arbiter's Ed25519 key file that signs each "
                                            "closed round (made if missing; default $OLYMPIAD_KEY, else TOURNAMENT.chief.key)"),
    no_key: bool = typer.Option(False, "--no-key", help="no signed checkpoints"),
    db: Optional[str] = DB, kafka: Optional[str] = KAFKA, who: str = AS,
) -> None:
    """Create a tournament: name, dates, venue, chief arbiter, rule profile, rounds, the checkpoint key."""
    chosen: Any = profile
    if profile_file is not None:
        try:
            chosen = json.loads(profile_file.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            err().print(f"[bold red]refused[/]: {escape(f'--profile-file {profile_file}: {exc}')}", highlight=False,
                        soft_wrap=True)
            raise typer.Exit(code=2) from None
    key = None
    if not no_key:
        from producers.signing import key_path, load_or_create_key, public_hex

        path = key_file or key_path(tournament)
        try:
            key = public_hex(load_or_create_key(path))
        except (OSError, ValueError) as exc:
            err().print(f"[bold red]refused[/]: {escape(f'--key {path}: {exc}')}", highlight=False, soft_wrap=True)
            raise typer.Exit(code=2) from None
    fields = {"tournament_id": tournament, "actor": actor(who), "name": name, "profile": chosen, "rounds": rounds,
              "chief_key": key,
              "starts": starts, "ends": ends, "venue": venue, "chief_arbiter": chief_arbiter,
              "nomination_deadline": nomination_deadline}
    submit("CreateTournament", {k: v for k, v in fields.items() if v is not None}, db, kafka)
    if key is not None:  # what an auditor pins: `olympiad audit SOURCE --key HEX`
        say(f"chief arbiter's public key (publish it; olympiad audit --key): {key}")


@team_app.command("add")
def team_add(
    tournament: str = TOURNAMENT,
    team_id: str = typer.Argument(..., metavar="TEAM", help="team id (letters, digits, '_', '-')"),
    name: str = typer.Option(..., "--name", help="the team's name"),
    federation: str = typer.Option("", "--federation", help="federation code (e.g. UZB)"),
    players: list[str] = PLAYER,
    pairing_number: Optional[int] = typer.Option(None, "--pairing-number"),
    from_round: Optional[int] = typer.Option(None, "--from-round", help="a late entry: the first round it plays"),
    db: Optional[str] = DB, kafka: Optional[str] = KAFKA, who: str = AS,
) -> None:
    """Register a team and its nominated players (4 boards + 1 reserve, fixed board order), or a late entry."""
    team = {"team_id": team_id, "name": name, "federation": federation, "players": _players(players)}
    if pairing_number is not None:
        team["pairing_number"] = pairing_number
    fields = {"tournament_id": tournament, "actor": actor(who), "team": team}
    if from_round is not None:
        fields["from_round"] = from_round
    submit("RegisterTeam", fields, db, kafka)


@team_app.command("import")
def team_import(
    tournament: str = TOURNAMENT,
    path: Path = typer.Argument(..., metavar="FILE", help="a CSV file (one row per player; see docs/arbiter.md) or a "
                                "TRF-2026 file (.trf: 001 player and 310/013 team records)"),
    db: Optional[str] = DB, kafka: Optional[str] = KAFKA, who: str = AS,
) -> None:
    """Register every team of a CSV file, or of a TRF-2026 file's team records (310/013 with 001), at once (all or none)."""
    from producers.importers.common import title_note
    from producers.importers.team_file import read_team_file

    try:
        teams = read_team_file(path.read_bytes(), path.name)
    except (OSError, ValueError) as exc:
        # escaped: the refusal's "[rule: ...]" is text, not rich markup (unescaped it vanished)
        err().print(f"[bold red]refused[/]: {escape(f'{path}: {exc}')}", highlight=False, soft_wrap=True)
        raise typer.Exit(code=2) from None
    note_titles(title_note((t.get("team_id", ""), p.get("name", ""), p.get("title") or "") for t in teams for p in t["players"]))
    submit("ImportTeams", {"tournament_id": tournament, "actor": actor(who), "teams": teams}, db, kafka)


@team_app.command("roster")
def team_roster(
    tournament: str = TOURNAMENT,
    team_id: str = typer.Argument(..., metavar="TEAM"),
    players: list[str] = PLAYER,
    reason: str = typer.Option("", "--reason"),
    db: Optional[str] = DB, kafka: Optional[str] = KAFKA, who: str = AS,
) -> None:
    """Replace a team's nominated players (refused after the nomination deadline)."""
    submit("ChangeRoster", {"tournament_id": tournament, "actor": actor(who), "team_id": team_id,
                            "players": _players(players), "reason": reason}, db, kafka)


@team_app.command("ranks")
def team_ranks(tournament: str = TOURNAMENT, db: Optional[str] = DB, kafka: Optional[str] = KAFKA, who: str = AS) -> None:
    """Set the starting ranks by the profile's seeding rule (R-I1); pairing numbers follow them."""
    submit("SetStartingRanks", {"tournament_id": tournament, "actor": actor(who)}, db, kafka)
    state = embedded_state(db, kafka)
    if state is not None and state.starting_ranks:
        for n, tid in enumerate(state.starting_ranks, start=1):
            console().print(f"{n:>4}  {tid:<8} {state.teams[tid].name}")


@team_app.command("absent")
def team_absent(
    tournament: str = TOURNAMENT, team_id: str = typer.Argument(..., metavar="TEAM"), rnd: int = ROUND,
    reason: str = typer.Option("", "--reason"),
    db: Optional[str] = DB, kafka: Optional[str] = KAFKA, who: str = AS,
) -> None:
    """Announce that a team will not play a round (before the round is paired)."""
    submit("AnnounceAbsence", {"tournament_id": tournament, "actor": actor(who), "team_id": team_id, "round": rnd,
                               "reason": reason}, db, kafka)


@team_app.command("withdraw")
def team_withdraw(
    tournament: str = TOURNAMENT, team_id: str = typer.Argument(..., metavar="TEAM"),
    reason: str = typer.Option(..., "--reason"),
    from_round: Optional[int] = typer.Option(None, "--from-round", help="default: the next round to pair"),
    db: Optional[str] = DB, kafka: Optional[str] = KAFKA, who: str = AS,
) -> None:
    """Withdraw a team: it is not paired from the given round on."""
    fields = {"tournament_id": tournament, "actor": actor(who), "team_id": team_id, "reason": reason}
    if from_round is not None:
        fields["from_round"] = from_round
    submit("WithdrawTeam", fields, db, kafka)


@app.command()
def lineup(
    tournament: str = TOURNAMENT, rnd: int = ROUND, team_id: str = typer.Argument(..., metavar="TEAM"),
    boards: list[int] = typer.Argument(..., metavar="BOARD_ORDERS...", help="the nominated board orders of the players "
                                        "on boards 1-4, e.g. 1 2 3 5 (the reserve plays board 4)"),
    db: Optional[str] = DB, kafka: Optional[str] = KAFKA, who: str = AS,
) -> None:
    """Submit a team's line-up for a round (4 nominated players, in nominated order)."""
    submit("SubmitLineup", {"tournament_id": tournament, "actor": actor(who), "round": rnd, "team_id": team_id,
                            "boards": boards}, db, kafka)


@round_app.command("pair")
def round_pair(tournament: str = TOURNAMENT, rnd: int = ROUND,
               publish: bool = typer.Option(False, "--publish", help="publish the pairing at once (one command: "
                                            "PairRound with publish; a pending amendment is published as it stands)"),
               db: Optional[str] = DB, kafka: Optional[str] = KAFKA, who: str = AS) -> None:
    """Ask the engine for the pairing of a round (the previous round must be complete)."""
    fields: dict[str, Any] = {"tournament_id": tournament, "actor": actor(who), "round": rnd}
    if publish:
        fields["publish"] = True
    submit("PairRound", fields, db, kafka)
    state = embedded_state(db, kafka)
    if publish and state is not None and rnd in state.rounds:
        p = state.rounds[rnd]
        _show_pairing(p.tables, p.bye, p.absent, state, f"round {rnd}, published")
    elif state is not None and rnd in state.proposals:
        p = state.proposals[rnd]
        what = f"proposed pairing of round {rnd} ({p.profile})" if p.type == "PairingProposed" else \
            f"amended pairing of round {rnd} (round pair again for the engine's proposal)"
        _show_pairing(p.tables, p.bye, p.absent, state, what)


@round_app.command("amend")
def round_amend(
    tournament: str = TOURNAMENT, rnd: int = ROUND,
    reason: str = typer.Option(..., "--reason", help="why the proposal is changed (kept in the log)"),
    swap_teams: list[str] = typer.Option([], "--swap-teams", metavar="A,B", help="exchange two teams; repeat"),
    swap_tables: list[str] = typer.Option([], "--swap-tables", metavar="N,M", help="exchange two table numbers; repeat"),
    db: Optional[str] = DB, kafka: Optional[str] = KAFKA, who: str = AS,
) -> None:
    """Amend the proposed pairing: swap teams or tables, with a reason; prints the pairing checker's report."""
    swaps: list[dict[str, Any]] = [{"teams": s.split(",")} for s in swap_teams]
    for s in swap_tables:
        try:
            swaps.append({"tables": [int(x) for x in s.split(",")]})
        except ValueError:
            err().print(f"[bold red]refused[/]: --swap-tables {s!r}: two table numbers, e.g. 3,4")
            raise typer.Exit(code=2) from None
    submit("AmendPairing", {"tournament_id": tournament, "actor": actor(who), "round": rnd, "swaps": swaps,
                            "reason": reason}, db, kafka)
    state = embedded_state(db, kafka)
    if state is not None and rnd in state.proposals:
        p = state.proposals[rnd]
        _show_pairing(p.tables, p.bye, p.absent, state, f"amended pairing of round {rnd}")
        for line in getattr(p, "report", ()) or ("pairing checker: no rule broken",):
            console().print(f"checker: {line}")


@round_app.command("publish")
def round_publish(
    tournament: str = TOURNAMENT, rnd: int = ROUND,
    override_reason: Optional[str] = typer.Option(None, "--override-reason",
                                                  help="needed when the amended pairing breaks an absolute rule"),
    db: Optional[str] = DB, kafka: Optional[str] = KAFKA, who: str = AS,
) -> None:
    """Publish the proposed (or amended) pairing of a round."""
    fields: dict[str, Any] = {"tournament_id": tournament, "actor": actor(who), "round": rnd}
    if override_reason is not None:
        fields["override_reason"] = override_reason
    submit("PublishRound", fields, db, kafka)
    state = embedded_state(db, kafka)
    if state is not None and rnd in state.rounds:
        p = state.rounds[rnd]
        _show_pairing(p.tables, p.bye, p.absent, state, f"round {rnd}, published")


@round_app.command("close")
def round_close(tournament: str = TOURNAMENT, rnd: int = ROUND, db: Optional[str] = DB, kafka: Optional[str] = KAFKA,
                who: str = AS) -> None:
    """Close a round once every result is in: its standings become official; with the chief
    arbiter's key (``--key`` of ``olympiad new``) the same command signs the round's checkpoint
    over the log as it stands (one decision: closed and signed, or neither)."""
    from producers.signing import ChiefKey, close_signed

    fields: dict[str, Any] = {"tournament_id": tournament, "actor": actor(who), "round": rnd}
    try:
        outcome = close_signed(tournament, rnd, ChiefKey(), lambda: doors.door(db, kafka).checkpoint_basis(tournament, rnd),
                               lambda signed: doors.decide("CloseRound", {**fields, **({"checkpoint": signed} if signed else {})},
                                                           db, kafka))
    except (OSError, ValueError) as exc:
        err().print(f"[bold red]refused[/]: round {rnd} not closed: {escape(str(exc))}")
        raise typer.Exit(code=2) from None
    doors.report(outcome)
    state = embedded_state(db, kafka)
    if state is not None and rnd in state.closed:
        console().print(f"official standings after round {rnd}: sha256 {state.closed[rnd]} (olympiad replay "
                        f"--through-round {rnd} shows them)")


def _board_args():
    return (typer.Argument(..., metavar="TABLE", help="table (match) number"),
            typer.Argument(..., metavar="BOARD", help="board 1..4 (the home team has White on 1 and 3)"))


TABLE_ARG, BOARD_ARG = _board_args()


@app.command()
def enter(
    tournament: str = TOURNAMENT, rnd: int = ROUND, table: int = TABLE_ARG, board: int = BOARD_ARG,
    result: str = typer.Argument(..., metavar="RESULT", help="White-Black: 1-0, 0-1 or 1/2-1/2 (forfeits: olympiad forfeit)"),
    terminal: Optional[str] = typer.Option(None, "--terminal", envvar="OLYMPIAD_TERMINAL",
                                           help="enter as this result-entry terminal (else as --as)"),
    db: Optional[str] = DB, kafka: Optional[str] = KAFKA, who: str = typer.Option("arbiter", "--as", metavar="ROLE[:ID]"),
) -> None:
    """Enter one board result (a terminal's or an arbiter's) and print the verdict."""
    submit("RecordResult", {"tournament_id": tournament, "actor": actor(f"terminal:{terminal}" if terminal else who),
                            "round": rnd, "table": table, "board": board, "result": result}, db, kafka)


@app.command()
def results(
    tournament: str = TOURNAMENT, rnd: int = ROUND, table: int = TABLE_ARG,
    codes: list[str] = typer.Argument(..., metavar="RESULTS...", help="one code per board, board 1 first, White-Black "
                                      "(1-0, 0-1, 1/2-1/2); '-' for a board not entered (a forfeit: olympiad forfeit)"),
    terminal: Optional[str] = typer.Option(None, "--terminal", envvar="OLYMPIAD_TERMINAL",
                                           help="enter as this result-entry terminal (else as --as)"),
    db: Optional[str] = DB, kafka: Optional[str] = KAFKA, who: str = typer.Option("arbiter", "--as", metavar="ROLE[:ID]"),
) -> None:
    """Enter the results of a table's boards at once, one code per board (all recorded, or none) and print the verdict."""
    submit("RecordResults", {"tournament_id": tournament, "actor": actor(f"terminal:{terminal}" if terminal else who),
                             "round": rnd, "table": table, "codes": codes}, db, kafka)


@app.command()
def forfeit(
    tournament: str = TOURNAMENT, rnd: int = ROUND, table: int = TABLE_ARG,
    board: Optional[int] = typer.Argument(None, metavar="[BOARD]", help="the board (omit for the whole match)"),
    team: list[str] = typer.Option([], "--team", help="the team that forfeits (give both teams for a double forfeit)"),
    winner: Optional[str] = typer.Option(None, "--winner", help="instead of --team: the team that wins by default"),
    reason: str = typer.Option(..., "--reason", help="late-arrival, handshake-refusal, absence or other"),
    note: str = typer.Option("", "--note", help="details (needed for the reason 'other')"),
    db: Optional[str] = DB, kafka: Optional[str] = KAFKA, who: str = typer.Option("arbiter", "--as", metavar="ROLE[:ID]"),
) -> None:
    """Record a forfeited board or match (zero tolerance: late arrival, refused handshake; absence; other)."""
    fields: dict[str, Any] = {"tournament_id": tournament, "actor": actor(who), "round": rnd, "table": table,
                              "forfeiting": team, "reason": reason, "note": note}
    if winner is not None:
        fields["winner"] = winner
    if board is not None:
        fields["board"] = board
    submit("RecordForfeit", fields, db, kafka)


@app.command()
def correct(
    tournament: str = TOURNAMENT, rnd: int = ROUND, table: int = TABLE_ARG, board: int = BOARD_ARG,
    result: str = typer.Argument(..., metavar="RESULT", help="the corrected result, White-Black (forfeit codes too)"),
    reason: str = typer.Option(..., "--reason", help="why (kept in the log)"),
    terminal: Optional[str] = typer.Option(None, "--terminal", envvar="OLYMPIAD_TERMINAL", help="as a terminal (refused: "
                                           "corrections are the chief arbiter's)"),
    db: Optional[str] = DB, kafka: Optional[str] = KAFKA, who: str = AS,
) -> None:
    """The chief arbiter's correction of a board result; after the next round is published it is a late correction."""
    submit("CorrectResult", {"tournament_id": tournament, "actor": actor(f"terminal:{terminal}" if terminal else who),
                             "round": rnd, "table": table, "board": board, "result": result, "reason": reason}, db, kafka)
    state = embedded_state(db, kafka)
    if state is not None and rnd + 1 in state.rounds:
        console().print(f"a late correction: round {rnd + 1} is published, so the standings after round {rnd} stay as "
                        f"published; it counts from the standings after round {rnd + 1} on")
