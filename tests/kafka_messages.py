"""Messages for the Kafka input topics in tests: they carry commands only, so a test's facts travel
as an ``ImportFacts`` of an importer (``processors.judge.COMMANDS_ONLY``)."""
from __future__ import annotations

from typing import Any

from schemas.canonical import canonical_json

IMPORTER = "test-importer"


def import_body(*facts: Any, importer: str = IMPORTER, command_id: str | None = None) -> dict[str, Any]:
    """The JSON body of an ``ImportFacts`` of ``facts`` (events or their JSON bodies, of one
    tournament) by the importer ``importer``."""
    bodies = [f if isinstance(f, dict) else f.model_dump(mode="json") for f in facts]
    body = {"command": "ImportFacts", "tournament_id": bodies[0]["tournament_id"],
            "actor": {"role": "importer", "id": importer}, "source": importer, "facts": bodies}
    return {**body, "command_id": command_id} if command_id else body


def imported(*facts: Any, importer: str = IMPORTER, command_id: str | None = None) -> bytes:
    """The message value (canonical JSON) of ``import_body(*facts)``."""
    return canonical_json(import_body(*facts, importer=importer, command_id=command_id)).encode()
