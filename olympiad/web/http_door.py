"""A door that sends commands to the HTTP API (``olympiad.web.commands_api``), as a browser does.

``HttpDoor(client, chief_token).submit(command)`` posts the command's JSON less ``actor``,
``issued_at`` and ``tournament_id`` (the server sets them: the actor from the token, the time
from its clock) and returns a ``producers.doors.Outcome``, like the embedded and Kafka doors, so
the CLI's command lines can drive the HTTP API (``olympiad.doors.door`` replaced by one). The
command's actor chooses the token: the chief arbiter's, else a token issued (with the chief's
token) to the arbiter's id for every table, or to a terminal's id for its table.
"""
from __future__ import annotations

from typing import Any

from producers.doors import Outcome, in_parts

SERVER_SET = {"actor", "issued_at", "tournament_id", "command_id"}


class HttpDoor:
    """Commands over HTTP: ``client`` an ``httpx.Client`` (a FastAPI ``TestClient`` too) whose
    base URL is the server; ``chief_token`` the chief arbiter's (or ``serve --new``'s setup) token."""

    def __init__(self, client: Any, chief_token: str):
        self.client = client
        self.chief = chief_token
        self._tokens: dict[tuple[str, str, Any], str] = {}

    def _token(self, command: Any) -> str:
        actor = command.actor
        if actor.role == "chief":
            return self.chief
        if actor.role not in ("arbiter", "terminal"):
            raise ValueError(f"the HTTP door has no token for the role {actor.role!r}")
        tables = None if actor.role == "arbiter" else [actor.table or command.table]
        key = (command.tournament_id, actor.id, tuple(tables or ()))
        if key not in self._tokens:
            r = self.client.post(f"/api/tournaments/{command.tournament_id}/terminals",
                                 json={"terminal_id": actor.id, "tables": tables},
                                 headers={"Authorization": f"Bearer {self.chief}"})
            r.raise_for_status()
            self._tokens = {k: v for k, v in self._tokens.items() if k[:2] != key[:2]}  # one token per terminal
            self._tokens[key] = r.json()["token"]
        return self._tokens[key]

    def submit(self, command: Any) -> Outcome:
        """Post ``command`` (an import larger than a request body may be, in parts:
        ``producers.doors.in_parts``); the answer as an ``Outcome`` (a refusal names the field and the rule)."""
        return in_parts(self._post, command)

    def _post(self, command: Any) -> Outcome:
        body = {k: v for k, v in command.model_dump(mode="json", exclude_unset=True).items() if k not in SERVER_SET}
        body["command"] = command.command
        if command.command == "CreateTournament":
            body["tournament_id"] = command.tournament_id
            path = "/api/tournaments"
        else:
            path = f"/api/tournaments/{command.tournament_id}/commands"
        r = self.client.post(path, json=body, headers={"Authorization": f"Bearer {self._token(command)}"})
        answer = r.json()
        if r.status_code == 201:
            return Outcome(True, tuple(answer["event_ids"]), already_recorded=answer["already_recorded"])
        return Outcome(False, field=answer.get("field") or "", rule=answer.get("rule") or "", reason=answer["detail"])

    def checkpoint_basis(self, tournament_id: str, rnd: int) -> dict[str, Any] | None:
        """What closing round ``rnd`` signs, from the server's log as it stands
        (``GET /api/tournaments/{tid}/rounds/{rnd}/checkpoint-basis``, chief arbiter only)."""
        r = self.client.get(f"/api/tournaments/{tournament_id}/rounds/{rnd}/checkpoint-basis",
                            headers={"Authorization": f"Bearer {self.chief}"})
        r.raise_for_status()
        return r.json().get("basis")

    def close(self) -> None:
        """Nothing to release (the client is the caller's)."""
