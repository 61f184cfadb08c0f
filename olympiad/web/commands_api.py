"""The arbiter's HTTP commands: every command of ``schemas.commands`` under a token, and the
reads the arbiter page needs (``/arbiter``).

No rule lives here. Each endpoint builds one command (the server sets ``actor`` from the token
and ``issued_at`` from its clock, ``olympiad.doors.now``: ``$OLYMPIAD_CLOCK`` pins it for a
reproducible run), hands it to ``backend.command`` (``processors.deciders.handle`` behind the
backend) and answers the ``Outcome``. A refusal answers a ``Refusal`` naming the field and the
rule: 403 when the field is ``actor`` (who may), else 422 (what); nothing is written.

Who the token makes the actor:
- the chief arbiter's token: role ``chief`` (every command);
- a terminal token scoped to tables: role ``terminal`` of the command's table (its results);
- a token for every table (issued without ``tables``): role ``arbiter`` with the terminal id
  (a floor arbiter: results, forfeits, line-ups of any table);
- a captain's token (``POST /api/tournaments/{tid}/captains``): role ``captain`` of its team
  (``olympiad.web.auth.Terminal.actor``). What each role may do is decided by the command's role
  rule, ``processors.deciders.roles.check_role``, as at every other door.

Before the tournament exists, ``POST /api/tournaments`` takes ``CreateTournament`` with the
setup token printed by ``olympiad serve --new`` (kept by ``TokenStore`` under ``NEW_EVENT``); once
the tournament is created that token becomes its chief arbiter's token.
"""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal, Optional, Union

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import FileResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field, create_model

from olympiad.web import views
from olympiad.web.api_errors import REFUSALS, ApiError
from olympiad.web.auth import TokenStore
from olympiad.web.backend import Backend
from schemas.commands import COMMANDS, parse_command
from schemas.events import EventSchemaError
from schemas.limits import MAX_TEAM_FILE_BYTES

STATIC = Path(__file__).resolve().parent / "static"
NEW_EVENT = "(new)"
"""The ``TokenStore`` tournament id of the setup token, while no tournament exists yet."""
SERVER_SET = ("actor", "issued_at", "tournament_id")


def _body_model(cls: type[BaseModel], keep_tournament: bool = False) -> type[BaseModel]:
    """The request body of command ``cls``: its fields less those the server sets."""
    drop = {"actor", "issued_at"} | (set() if keep_tournament else {"tournament_id"})
    fields = {n: (f.annotation, f) for n, f in cls.model_fields.items() if n not in drop}
    return create_model(f"{cls.__name__}Body", __config__=ConfigDict(extra="forbid"), __doc__=cls.__doc__, **fields)


BODIES = tuple(_body_model(cls) for cls in COMMANDS if cls.__name__ != "CreateTournament")
CommandBody = Annotated[Union[BODIES], Field(discriminator="command")]  # type: ignore[valid-type]
CreateBody = _body_model(next(c for c in COMMANDS if c.__name__ == "CreateTournament"), keep_tournament=True)


class CommandOutcome(BaseModel):
    """A command accepted: the ids of the events it appended (or, for an identical retry,
    ``already_recorded`` and the ids recorded before)."""

    command: str
    accepted: Literal[True] = True
    already_recorded: bool
    event_ids: list[str]
    message: str = Field(description="one line for a person")


class CaptainIn(BaseModel):
    """The team whose captain gets a token."""

    model_config = ConfigDict(extra="forbid")
    team_id: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$")


class CaptainToken(BaseModel):
    """A captain's token, shown once: it submits its team's line-up for the round to pair."""

    team_id: str
    terminal_id: str
    token: str = Field(description="shown once; send as 'Authorization: Bearer <token>'")


class ImportIn(BaseModel):
    """A team file's text: CSV (one row per player, docs/arbiter.md) or TRF-2026 team records."""

    model_config = ConfigDict(extra="forbid")
    text: str = Field(max_length=MAX_TEAM_FILE_BYTES)
    filename: str = Field("", max_length=200, description="its name: *.trf is read as TRF")


def command_routes(backend: Backend, tokens: TokenStore) -> APIRouter:
    """The router of the arbiter's commands and reads over ``backend``; ``tokens`` says who asks."""
    from olympiad.doors import now

    router = APIRouter()
    bearer = HTTPBearer(auto_error=False, description="the chief arbiter's (or a terminal's) token")

    def token_of(cred: Optional[HTTPAuthorizationCredentials]) -> str | None:
        return cred.credentials if cred else None

    def check_tournament(tid: str) -> None:
        if backend.tournament_id is None or tid != backend.tournament_id:
            raise views.NotFound(f"unknown tournament {tid!r} (served: {backend.tournament_id or 'none'})")

    def actor_for(token: str | None, tid: str, table: int | None) -> dict[str, Any]:
        holder = tokens.authorize(token, tid, table) if table is not None else tokens.holder(token, tid)
        return holder.actor(table)

    def decide(fields: dict[str, Any]) -> CommandOutcome:
        try:
            command = parse_command({**fields, "issued_at": now()})
        except EventSchemaError as exc:
            raise ApiError(422, str(exc), field=exc.field, rule=exc.rule) from None
        outcome = backend.command(command)
        if not outcome.accepted:
            raise ApiError(403 if outcome.field == "actor" else 422, outcome.reason, field=outcome.field, rule=outcome.rule)
        return CommandOutcome(command=command.command, already_recorded=outcome.already_recorded,
                              event_ids=list(outcome.event_ids), message=outcome.text())

    def body_fields(body: BaseModel) -> dict[str, Any]:
        return {"command": body.command, **body.model_dump(mode="json", exclude_unset=True)}

    # ------------------------------------------------------------------ commands
    @router.post("/api/tournaments", status_code=201, response_model=CommandOutcome, responses=REFUSALS,
                 tags=["commands"])
    def create_tournament(request: Request, body: CreateBody,  # type: ignore[valid-type]
                          cred: Optional[HTTPAuthorizationCredentials] = Depends(bearer)):
        """Create the tournament (``CreateTournament``) with the setup token that ``olympiad serve
        --new`` printed; that token then is the tournament's chief arbiter's token. The server's
        chief arbiter key (``serve --key``, else ``<id>.chief.key``, made if missing) is recorded
        unless the body gives ``chief_key``: every round closed here is then signed."""
        token = token_of(cred)
        tokens.authorize_chief(token, NEW_EVENT)
        fields = body_fields(body)
        signer = getattr(request.app.state, "chief_key", None)
        if signer is not None and fields.get("chief_key") is None and backend.tournament_id is None:
            try:
                fields["chief_key"] = signer.public_key(body.tournament_id)
            except (OSError, ValueError) as exc:
                raise ApiError(422, f"the chief arbiter's key {signer.path_for(body.tournament_id)}: {exc}",
                               field="chief_key", rule="checkpoints are signed with the chief arbiter's key") from None
        out = decide({**fields, "actor": {"role": "chief", "id": "chief"}})
        if not out.already_recorded:  # the setup token moves to the tournament (one per server)
            tokens.set_chief_token(NEW_EVENT)
            tokens.set_chief_token(body.tournament_id, token)
        return out

    @router.post("/api/tournaments/{tid}/commands", status_code=201, response_model=CommandOutcome, responses=REFUSALS,
                 tags=["commands"])
    def command(request: Request, tid: str, body: CommandBody,  # type: ignore[valid-type]
                cred: Optional[HTTPAuthorizationCredentials] = Depends(bearer)):
        """Any command of the tournament but its creation: ``command`` names it (RegisterTeam,
        ImportTeams, ChangeRoster, SetStartingRanks, SubmitLineup, AnnounceAbsence, WithdrawTeam,
        PairRound, AmendPairing, PublishRound, RecordResult, RecordResults, RecordForfeit,
        CorrectResult, CloseRound); the fields are those of ``schemas.commands`` less ``actor``,
        ``issued_at`` and ``tournament_id``, which the server sets. Refused: 401/403 for the token,
        403 for a role that may not issue it (field ``actor``), 422 for a rule (field and rule named)."""
        check_tournament(tid)
        fields = body_fields(body)
        who = actor_for(token_of(cred), tid, fields.get("table"))
        out = decide({**fields, "tournament_id": tid, "actor": who})
        if out.command == "CloseRound":
            signed = sign_closed(getattr(request.app.state, "chief_key", None), tid, fields["round"], out.event_ids[0], who)
            out.event_ids += signed.event_ids if signed is not None else []
        return out

    def sign_closed(signer: Any, tid: str, rnd: int, closed: str, who: dict[str, Any]) -> CommandOutcome | None:
        """Sign closed round ``rnd``'s checkpoint (``SignCheckpoint``) with the server's chief
        arbiter key, as ``olympiad round close`` does: every door that closes a round signs it.
        ``closed``: the id of its ``RoundClosed``. None when there is nothing to sign
        (``producers.signing.ChiefKey.checkpoint``)."""
        if signer is None:
            return None
        try:
            fields = signer.checkpoint(tid, rnd, backend.checkpoint_basis(tid, rnd, closed))
        except (OSError, ValueError) as exc:
            raise ApiError(422, f"round {rnd} is closed but not signed: {exc}", field="chief_key",
                           rule="checkpoints are signed with the chief arbiter's key") from None
        if fields is None:
            return None
        return decide({"command": "SignCheckpoint", "tournament_id": tid, "actor": who, **fields})

    @router.post("/api/tournaments/{tid}/teams/import", status_code=201, response_model=CommandOutcome,
                 responses=REFUSALS, tags=["commands"])
    def import_teams(tid: str, body: ImportIn, cred: Optional[HTTPAuthorizationCredentials] = Depends(bearer)):
        """Register every team of a CSV or TRF-2026 file at once (``ImportTeams``: all or none); the
        file is read by ``producers.importers.team_file.read_team_file``, as ``olympiad team import``.
        Titles that are not FIDE codes are kept, and named in the message (``title_note``)."""
        from producers.importers.common import title_note
        from producers.importers.team_file import read_team_file

        check_tournament(tid)
        who = actor_for(token_of(cred), tid, None)
        try:
            teams = read_team_file(body.text.encode("utf-8"), body.filename)
        except ValueError as exc:
            raise ApiError(422, f"{body.filename or 'the file'}: {exc}", field="text",
                           rule=getattr(exc, "rule", None) or "team file format") from None
        out = decide({"command": "ImportTeams", "tournament_id": tid, "actor": who, "teams": teams})
        note = title_note((t.get("team_id", ""), p.get("name", ""), p.get("title") or "") for t in teams for p in t["players"])
        return out.model_copy(update={"message": f"{out.message}; note: {note}"}) if note else out

    @router.post("/api/tournaments/{tid}/captains", status_code=201, response_model=CaptainToken, responses=REFUSALS,
                 tags=["terminals"])
    def issue_captain(tid: str, body: CaptainIn, cred: Optional[HTTPAuthorizationCredentials] = Depends(bearer)):
        """Issue a token for the captain of team ``team_id`` (the team's earlier captain token
        stops working). Chief arbiter only. With it the captain's page (``/captain``) submits that
        team's line-up for the round to pair; every other command is refused by the role rule
        (``processors.deciders.roles``: field ``actor``, ``team_id`` or ``round``)."""
        check_tournament(tid)
        tokens.authorize_chief(token_of(cred), tid)
        from processors.rules import team_known

        with backend.read() as snap:
            team_known(snap.state, body.team_id, "team_id")  # RuleViolation: 422 naming field and rule
        terminal_id, token = tokens.issue_captain(tid, body.team_id)
        return CaptainToken(team_id=body.team_id, terminal_id=terminal_id, token=token)

    # ------------------------------------------------------------------ reads for the arbiter page
    @router.get("/api/setup", tags=["commands"])
    def setup(request: Request) -> dict[str, Any]:
        """What ``olympiad serve --new`` was started with (``name``, ``profile``), the tournament
        served (``tournament_id``, None before it is created) and the built-in rule profiles
        (``profiles``: name, rounds, description; ``schemas.profile.PROFILES``) the page offers."""
        from schemas.profile import PROFILES

        new = getattr(request.app.state, "new_event", None) or {}
        return {"name": new.get("name"), "profile": new.get("profile"), "tournament_id": backend.tournament_id,
                "profiles": [{"name": p.name, "rounds": p.rounds, "description": p.description} for p in PROFILES.values()]}

    @router.get("/api/tournaments/{tid}/arbiter", tags=["read"], responses=REFUSALS)
    def arbiter_view(tid: str) -> dict[str, Any]:
        """The tournament as the arbiter runs it: teams with their nominated players, pairing
        numbers and status, the nomination deadline, the round to prepare (its line-ups and the
        pending proposal with the checker's report), published and closed rounds."""
        check_tournament(tid)
        with backend.read() as snap:
            return arbiter_document(snap.state)

    @router.get("/api/tournaments/{tid}/rounds/{rnd}/explanation", tags=["read"], responses=REFUSALS)
    def explanation(tid: str, rnd: int, team: str | None = Query(None, description="a team id: its lines only")) -> dict[str, Any]:
        """The pairing engine's decision trace for round ``rnd`` (the next round to pair): score
        groups, floaters, opponents, colours, tables (``projections.pairing.engine``)."""
        from projections.pairing.proposal import propose_round

        check_tournament(tid)
        with backend.read() as snap:
            state = snap.state
            if rnd != state.last_round + 1 or (rnd > 1 and not state.round_complete(rnd - 1)):
                raise ApiError(422, f"round {rnd} is not the round to pair (next: {state.last_round + 1}, once "
                                    f"round {state.last_round} is complete)", field="round",
                               rule="pair a round when the previous round is complete")
            pairing = propose_round(state, rnd)  # the proposal's own inputs; RuleViolation: 422
        return {"round": rnd, "trace": list(pairing.trace), "team": team,
                "explain": pairing.explain(team) if team else []}

    @router.get("/api/tournaments/{tid}/rounds/{rnd}/checkpoint-basis", tags=["commands"], responses=REFUSALS)
    def checkpoint_basis(tid: str, rnd: int, cred: Optional[HTTPAuthorizationCredentials] = Depends(bearer)) -> dict[str, Any]:
        """What the chief arbiter signs for closed round ``rnd`` (``SignCheckpoint``): the log's hash
        chain head and the round's standings and pairing digests (``producers.signing``); ``basis``
        is null once the round has a checkpoint. The embedded store only (on Kafka the CLI reads
        ``tournament-log`` itself)."""
        from producers.signing import checkpoint_basis as basis_of

        check_tournament(tid)
        tokens.authorize_chief(token_of(cred), tid)
        store = getattr(backend, "store", None)
        if store is None:
            raise ApiError(422, "the checkpoint basis is read from the embedded store", field="round",
                           rule="checkpoints on the embedded store")
        with backend.read() as snap:
            state = snap.state
            if rnd not in state.closed:
                raise ApiError(422, f"round {rnd} is not closed", field="round", rule="a checkpoint of a closed round")
            done = rnd in state.checkpoints or state.created.chief_key is None
            return {"basis": None if done else basis_of(state, rnd, store.chain_head)}

    @router.get("/api/tournaments/{tid}/rounds/{rnd}/tables/{table}/lineups", tags=["read"], responses=REFUSALS)
    def table_lineups(tid: str, rnd: int, table: int) -> dict[str, Any]:
        """Both line-ups of a table, board by board: White's and Black's player names (the home
        team has White on boards 1 and 3, R-D4)."""
        from processors.deciders.results import player_names

        check_tournament(tid)
        with backend.read() as snap:
            state = snap.state
            t = views.paired_table(state, rnd, table)
            boards = []
            for b in range(1, state.profile.boards + 1):
                white, black = player_names(state, rnd, table, b)
                boards.append({"board": b, "white_team": t.home if b % 2 else t.away,
                               "black_team": t.away if b % 2 else t.home, "white": white, "black": black})
        return {"round": rnd, "table": table, "boards": boards}

    @router.get("/arbiter", include_in_schema=False)
    def arbiter_page() -> FileResponse:
        return FileResponse(STATIC / "arbiter.html")

    @router.get("/captain", include_in_schema=False)
    def captain_page() -> FileResponse:
        return FileResponse(STATIC / "captain.html")

    return router


def arbiter_document(state: Any) -> dict[str, Any]:
    """The arbiter page's view of ``state`` (a ``TournamentState``): plain JSON."""
    refs = views.team_refs(state)
    created = state.created
    nxt = state.last_round + 1 if state.last_round < state.profile.rounds else None
    prepare = nxt if nxt is not None else state.last_round
    teams = []
    for tid, t in state.teams.items():
        teams.append({
            **refs[tid], "players": [p.model_dump(mode="json") for p in t.players],
            "from_round": state.entered.get(tid, 1), "withdrawn_from": state.withdrawn.get(tid),
            "absent": tid in state.absences.get(prepare, {}),
            "lineup": list(state.lineup(prepare, tid)), "lineup_submitted": (prepare, tid) in state.lineups,
        })
    proposal = state.proposals.get(nxt) if nxt else None
    rounds = [{"round": r, "tables": len(p.tables), "complete": state.round_complete(r), "closed": r in state.closed}
              for r, p in sorted(state.rounds.items())]
    return {
        "tournament_id": state.tournament_id, "name": created.name, "profile": state.profile.name,
        "rounds": state.profile.rounds, "boards": state.profile.boards, "venue": created.venue,
        "chief_arbiter": created.chief_arbiter,
        "nomination_deadline": created.model_dump(mode="json")["nomination_deadline"],
        "rosters_open": state.last_round == 0, "starting_ranks_set": state.starting_ranks is not None,
        "last_round": state.last_round, "next_round": nxt, "prepare_round": prepare,
        "previous_complete": state.last_round == 0 or state.round_complete(state.last_round),
        "closed": sorted(state.closed), "published": rounds, "teams": sorted(teams, key=lambda x: x["pairing_number"]),
        "proposal": None if proposal is None else {
            "type": proposal.type, "round": proposal.round, "event_id": proposal.event_id,
            "tables": [{"table": t.table, "home": refs[t.home], "away": refs[t.away]} for t in proposal.tables],
            "bye": refs[proposal.bye] if proposal.bye else None, "absent": [refs[a] for a in proposal.absent],
            "reason": getattr(proposal, "reason", ""), "report": list(getattr(proposal, "report", ())),
        },
    }
