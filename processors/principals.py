"""Who a command on Kafka comes from: the authenticated principal of its topic, mapped to an actor.

On a broker with authentication (``docs/security.md``) each principal writes its commands to a
topic only it may write (``deploy.topics.principal_topic``, topic ACLs of ``deploy/principals.py``);
Kafka attaches no principal to a record, so the topic is the proof of who produced it. The
processors then replace the command's ``actor`` with the actor of that principal
(``take_actor``) before ``processors.deciders.handle`` checks what the role may do: whatever the
message says about its actor is ignored.

Principal names and their actors (``actor_of``):

=====================  ==========================================================================
principal              actor
=====================  ==========================================================================
``chief``              the chief arbiter: ``{"role": "chief", "id": "chief"}``
``arbiter-<id>``       an arbiter: ``{"role": "arbiter", "id": "arbiter-<id>"}``
``terminal-<n>``       the result-entry terminal of table n (digits): ``{"role": "terminal",
                       "id": "terminal-<n>", "table": n}``
``terminal-<name>``    a terminal of every table (``name`` not all digits), ``table`` None
``captain-<team>``     the captain of team ``<team>``: ``{"role": "captain", "id":
                       "captain-<team>", "team": "<team>"}``
``feed-<id>``          a live game feed's ingester: ``{"role": "feed", "id": "feed-<id>"}``
``web``                the web app, a relay: it authenticated the actor with its tokens
                       (``olympiad.web.auth``), so the command keeps the actor it names
=====================  ==========================================================================

Any other principal (``processors``, ``worker``, ``admin``) issues no commands.
"""
from __future__ import annotations

from typing import Any

from processors.tournament import RuleViolation

RELAYS = frozenset({"web"})
"""Principals that are doors of their own: their commands keep the actor the door authenticated."""
RULE = "the actor is the producer's authenticated principal"


def actor_of(principal: str) -> dict[str, Any] | None:
    """The actor (``schemas.commands.Actor`` fields) of ``principal`` (module docstring's table),
    or None for a principal that issues no commands or a relay."""
    role, _, rest = principal.partition("-")
    if principal == "chief":
        return {"role": "chief", "id": "chief"}
    if role == "arbiter" and rest:
        return {"role": "arbiter", "id": principal}
    if role == "terminal" and rest:
        return {"role": "terminal", "id": principal, "table": int(rest) if rest.isdigit() else None}
    if role == "captain" and rest:
        return {"role": "captain", "id": principal, "team": rest}
    if role == "feed" and rest:
        return {"role": "feed", "id": principal}
    return None


def take_actor(command: Any, principal: str | None) -> Any:
    """``command`` with the actor of ``principal`` (the producer of the commands topic it came on).

    ``principal`` None: the command came on a shared input topic of a broker with authentication,
    where its actor would be the message's word: refused. Raises ``RuleViolation`` (field
    ``actor``) for that, and for a principal that issues no commands.
    """
    if principal is None:
        raise RuleViolation(f"{command.command} came on a shared input topic, where no principal vouches for its actor "
                            f"{command.actor.role} {command.actor.id!r}; commands travel on the producer's commands topic",
                            field="actor", rule=RULE)
    if principal in RELAYS:
        return command
    actor = actor_of(principal)
    try:
        if actor is None:
            raise ValueError("not a principal that issues commands")
        made = type(command.actor)(**actor)
    except ValueError:  # pydantic's ValidationError too: a team id no team can have
        raise RuleViolation(f"principal {principal!r} issues no commands ({command.command} refused)",
                            field="actor", rule=RULE) from None
    return command.model_copy(update={"actor": made})
