"""Routes of the arbiter's commands: every command of ``schemas.commands`` under a token.

No rule lives here. Each endpoint builds one command and sends it through the one HTTP command
path (``deps.WebDoor.send``: the server sets ``actor`` from the token and ``issued_at`` from the
app's one clock, ``olympiad.clock.now`` unless ``create_app`` is given another; ``$OLYMPIAD_CLOCK``
pins it for a reproducible run), which hands it to ``backend.command``
(``processors.deciders.handle`` behind the backend); the answer is the ``Outcome``. A refusal
answers a ``Refusal`` naming the field and the rule: 403 when the field is ``actor`` (who may),
else 422 (what); nothing is written. The per-resource writes (``results_api``, ``rounds_api``,
``teams_api``) take the same path with the same defaults.

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

from typing import Annotated, Any, Literal, Union

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict, Field, create_model

from olympiad.web.api_errors import CONFLICT, REFUSALS, ApiError
from olympiad.web.auth import NEW_EVENT
from olympiad.web.deps import WebDoor, chief_key, door, served, token
from producers.signing import checkpoint_basis, close_signed
from schemas.commands import COMMANDS
from schemas.profile import get_profile


def _body_model(cls: type[BaseModel], keep_tournament: bool = False, optional: frozenset[str] = frozenset()) -> type[BaseModel]:
    """The request body of command ``cls``: its fields less those the server sets; the fields in
    ``optional`` may be left out (the server fills them in)."""
    drop = {"actor", "issued_at"} | (set() if keep_tournament else {"tournament_id"})
    fields = {n: ((f.annotation | None, Field(default=None, description=f.description)) if n in optional else (f.annotation, f))
              for n, f in cls.model_fields.items() if n not in drop}
    return create_model(f"{cls.__name__}Body", __config__=ConfigDict(extra="forbid"), __doc__=cls.__doc__, **fields)


BODIES = tuple(_body_model(cls) for cls in COMMANDS if cls.__name__ != "CreateTournament")
CommandBody = Annotated[Union[BODIES], Field(discriminator="command")]  # type: ignore[valid-type]
CreateBody = _body_model(next(c for c in COMMANDS if c.__name__ == "CreateTournament"), keep_tournament=True,
                         optional=frozenset({"profile"}))
SERVED_PROFILE = "serve --new NAME --profile P: the server creates the event with the profile it was started with"


class CommandOutcome(BaseModel):
    """A command accepted: the ids of the events it appended (or, for an identical retry,
    ``already_recorded`` and the ids recorded before)."""

    command: str
    accepted: Literal[True] = True
    already_recorded: bool
    event_ids: list[str]
    message: str = Field(description="one line for a person")


def answer(command: str, outcome: Any) -> CommandOutcome:
    """The ``CommandOutcome`` of an accepted ``producers.doors.Outcome`` of ``command``."""
    return CommandOutcome(command=command, already_recorded=outcome.already_recorded,
                          event_ids=list(outcome.event_ids), message=outcome.text())


def _fields(body: BaseModel) -> dict[str, Any]:
    return {"command": body.command, **body.model_dump(mode="json", exclude_unset=True)}


router = APIRouter()
ONE_PER_SERVER = "one tournament per server"


@router.post("/api/tournaments", status_code=201, response_model=CommandOutcome, responses=REFUSALS | CONFLICT,
             tags=["commands"])
def create_tournament(body: CreateBody, request: Request, bearer: str | None = Depends(token),  # type: ignore[valid-type]
                      signer: Any = Depends(chief_key), web: WebDoor = Depends(door)) -> CommandOutcome:
    """Create the tournament (``CreateTournament``) with the setup token that ``olympiad serve
    --new`` printed; that token then is the tournament's chief arbiter's token. The server's
    chief arbiter key (``serve --key``, else ``<id>.chief.key``, made if missing) is recorded
    unless the body gives ``chief_key``: every round closed here is then signed. ``profile`` may be
    left out on a server started with ``serve --new NAME --profile P`` (P is used); a body naming
    another profile there is refused (422, field ``profile``)."""
    served_id = web.backend.tournament_id
    if served_id is not None and served_id != body.tournament_id:
        raise ApiError(409, f"this server serves tournament {served_id!r} already; {body.tournament_id!r} needs a "
                            "server of its own (olympiad serve --new)", field="tournament_id", rule=ONE_PER_SERVER)
    # a retried creation (its answer lost) comes with the token it made the tournament's chief's
    web.tokens.authorize_chief(bearer, NEW_EVENT if served_id is None else served_id)
    fields = _fields(body)
    fields["profile"] = _profile(fields.get("profile"), (getattr(request.app.state, "new_event", None) or {}).get("profile"))
    if signer is not None and fields.get("chief_key") is None and web.backend.tournament_id is None:
        try:
            fields["chief_key"] = signer.public_key(body.tournament_id)
        except (OSError, ValueError) as exc:
            raise ApiError(422, f"the chief arbiter's key {signer.path_for(body.tournament_id)}: {exc}",
                           field="chief_key", rule="checkpoints are signed with the chief arbiter's key") from None
    out = answer(body.command, web.send({**fields, "actor": {"role": "chief", "id": "chief"}}))
    if not out.already_recorded:  # the setup token moves to the tournament (one per server)
        web.tokens.set_chief_token(NEW_EVENT, issued_at=web.clock())
        web.tokens.set_chief_token(body.tournament_id, bearer, issued_at=web.clock())
    return out


def _profile(given: Any, served: str | None) -> Any:
    """The creation's profile: ``given`` (a built-in profile's name, or a whole profile as JSON) or,
    left out, ``served`` (the profile of ``serve --new``). On a server started with a profile,
    ``given`` must be that profile (its name, or the same profile whole); else an ``ApiError``
    422 naming the field ``profile``."""
    if served is None:
        if given is None:
            raise ApiError(422, "CreateTournament: profile: give a built-in profile's name or a whole profile",
                           field="profile", rule="CreateTournament names its rule profile")
        return given
    if given is None or given == served:
        return served
    if isinstance(given, dict) and given == get_profile(served).model_dump(mode="json"):
        return given
    named = given.get("name") if isinstance(given, dict) else given
    raise ApiError(422, f"CreateTournament: profile: this server was started for the profile {served!r} (olympiad serve --new "
                        f"--profile {served}), not {named!r}: leave the profile out, or start a server with --profile {named}",
                   field="profile", rule=SERVED_PROFILE)


@router.post("/api/tournaments/{tid}/commands", status_code=201, response_model=CommandOutcome, responses=REFUSALS,
             tags=["commands"])
def command(body: CommandBody, tid: str = Depends(served), bearer: str | None = Depends(token),  # type: ignore[valid-type]
            signer: Any = Depends(chief_key), web: WebDoor = Depends(door)) -> CommandOutcome:
    """Any command of the tournament but its creation: ``command`` names it (RegisterTeam,
    ImportTeams, ChangeRoster, SetStartingRanks, SubmitLineup, AnnounceAbsence, WithdrawTeam,
    PairRound, AmendPairing, PublishRound, RecordResult, RecordResults, RecordForfeit,
    CorrectResult, CloseRound); the fields are those of ``schemas.commands`` less ``actor``,
    ``issued_at`` and ``tournament_id``, which the server sets. Refused: 401/403 for the token,
    403 for a role that may not issue it (field ``actor``), 422 for a rule (field and rule named).
    A round closed here is signed with the server's chief arbiter key, in the same decision
    (``CloseRound`` carries the checkpoint)."""
    fields = _fields(body)
    who = web.actor(bearer, tid, fields.get("table"))
    if fields["command"] == "CloseRound" and fields.get("checkpoint") is None:
        return answer(body.command, _close(web, signer, tid, {**fields, "tournament_id": tid, "actor": who}))
    return answer(body.command, web.send({**fields, "tournament_id": tid, "actor": who}))


def _close(web: WebDoor, signer: Any, tid: str, fields: dict[str, Any]) -> Any:
    """Close the round of ``fields`` (``CloseRound``) signed with the server's chief arbiter key,
    as ``olympiad round close`` does (``producers.signing.close_signed``: one decision); the
    ``Outcome``. A key that cannot be read, or another key than the tournament's: 422, nothing closed."""
    try:
        outcome = close_signed(tid, fields["round"], signer, lambda: checkpoint_basis(fields["round"], *web.backend.log_head(tid)),
                               lambda signed: web.decide({**fields, **({"checkpoint": signed} if signed else {})}))
    except (OSError, ValueError) as exc:
        raise ApiError(422, f"round {fields['round']} not closed: {exc}", field="chief_key",
                       rule="checkpoints are signed with the chief arbiter's key") from None
    return web.accepted(outcome)
