"""``olympiad serve --new NAME --profile P`` over HTTP: the page's "new event" request may leave the
profile out (the server's P is used); a body naming another profile is refused with 422 naming the
field ``profile``, and nothing is written. A server started without a profile takes the body's."""
from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from olympiad.web.app import create_app
from olympiad.web.auth import NEW_EVENT, TokenStore
from olympiad.web.embedded import EmbeddedBackend, store_engine
from projections.store import EventStore
from schemas.profile import OLYMPIAD_2008, OLYMPIAD_2022

TOKEN = "serve-new-profile-4f1c9a7e2b60d835"
CHIEF = {"Authorization": f"Bearer {TOKEN}"}
RULE = "serve --new NAME --profile P: the server creates the event with the profile it was started with"


def server(tmp_path: Any, profile: str | None) -> tuple[TestClient, EventStore]:
    engine = store_engine(f"sqlite:///{tmp_path / 'new.sqlite'}")
    tokens = TokenStore(engine)
    tokens.set_chief_token(NEW_EVENT, TOKEN)
    store = EventStore(engine=engine)
    new_event = {"name": "Club Cup", "profile": profile} if profile else None
    return TestClient(create_app(EmbeddedBackend(store), tokens, new_event=new_event)), store


def create(client: TestClient, **extra: Any):
    return client.post("/api/tournaments", json={"command": "CreateTournament", "tournament_id": "club-cup", "name": "Club Cup",
                                                 "chief_key": "ab" * 32, **extra}, headers=CHIEF)


def test_a_body_without_profile_takes_the_servers(tmp_path):
    client, store = server(tmp_path, "olympiad-2008")
    with client:
        assert client.get("/api/setup").json()["profile"] == "olympiad-2008"
        r = create(client)
        assert r.status_code == 201, r.json()
        assert r.json()["event_ids"] == ["club-cup/created"]
    state = store.refresh() and store.state
    assert state.profile.name == "olympiad-2008" and state.profile.acceleration == "top-half"
    assert state.profile == OLYMPIAD_2008


def test_a_body_naming_another_profile_is_refused_naming_the_field(tmp_path):
    client, store = server(tmp_path, "olympiad-2008")
    with client:
        for given, named in (("olympiad-2022", "olympiad-2022"), (OLYMPIAD_2022.model_dump(mode="json"), "olympiad-2022")):
            r = create(client, profile=given)
            assert r.status_code == 422, r.json()
            assert (r.json()["field"], r.json()["rule"]) == ("profile", RULE)
            assert r.json()["detail"] == (f"CreateTournament: profile: this server was started for the profile 'olympiad-2008' "
                                          f"(olympiad serve --new --profile olympiad-2008), not {named!r}: leave the profile "
                                          f"out, or start a server with --profile {named}")
        assert store.events() == []
        # The server's own profile, by name or whole, is the same creation.
        assert create(client, profile=OLYMPIAD_2008.model_dump(mode="json")).status_code == 201
    assert store.refresh() and store.state.profile == OLYMPIAD_2008


def test_without_a_served_profile_the_body_names_it(tmp_path):
    client, store = server(tmp_path, None)
    with client:
        r = create(client)
        assert r.status_code == 422 and (r.json()["field"], r.json()["rule"]) == ("profile", "CreateTournament names its rule profile")
        assert create(client, profile="olympiad-2022").status_code == 201
    assert store.refresh() and store.state.profile.name == "olympiad-2022"
