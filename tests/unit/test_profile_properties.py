"""Issue 28, acceptance 2: random profiles as FIDE writes them.

Valid profiles (a system, a primary score where C.04.6 allows GP, tie-break lists whose modifiers are
typed in a random order, an acceleration where it is approved) are created, their tie-breaks print in
one canonical form whatever the order typed, and a simulated tournament under each replays to the
same standings digest as its TRF-2026 export imported again. Invalid ones (a code C.07 refuses, an
acceleration C.04.7 does not approve for the system) are refused naming a C.07 or C.04.7 article."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from processors.deciders.tournament import resolve_profile
from producers.importers.trf import load_trf
from producers.simulator import SimulationSpec, simulate
from projections.replay import replay
from projections.trf import export_trf
from schemas.profile import OLYMPIAD_2008, OLYMPIAD_2022, SWISS_TEAM_2026, RuleProfile, SwissTeamRules
from schemas.tiebreak_codes import CATALOGUE, OLYMPIAD_NAMES, parse_tiebreak

SYSTEMS = {"burstein-2008": OLYMPIAD_2008, "exchange-2022": OLYMPIAD_2022, "c04.6": SWISS_TEAM_2026}
APPROVED = {"burstein-2008": (None, "top-half", "baku-even"), "exchange-2022": (None,), "c04.6": (None, "c04.7-baku")}


@st.composite
def code_parts(draw, acronyms=tuple(CATALOGUE)) -> tuple[str, list[str]]:
    """A legal C.07 code as (acronym with its selector, its modifiers in C.07's order)."""
    acronym = draw(st.sampled_from(acronyms))
    rule = CATALOGUE[acronym]
    head = acronym + draw(st.sampled_from([""] + [f":{s}" for s in sorted(rule.selectors)]))
    mods = []
    if "C" in rule.modifiers and draw(st.booleans()):
        mods.append(draw(st.sampled_from(["C"] + (["M"] if "M" in rule.modifiers else []))) + str(draw(st.integers(1, 2))))
    mods += [m for m in "PF" if m in rule.modifiers and draw(st.booleans())]
    if "K" in rule.modifiers and draw(st.booleans()):
        mods.append("K5")
    return head, mods


def typed(head: str, mods: list[str], order: list[int]) -> str:
    return "/".join([head] + [mods[i] for i in order])


@st.composite
def valid_profiles(draw) -> tuple[RuleProfile, list[tuple[str, list[str]]]]:
    system = draw(st.sampled_from(sorted(SYSTEMS)))
    base = SYSTEMS[system].model_dump()
    update: dict = {"name": f"prop-{system}", "rounds": 4, "acceleration": draw(st.sampled_from(APPROVED[system]))}
    if system == "c04.6":
        primary = "mp" if update["acceleration"] else draw(st.sampled_from(["mp", "gp"]))
        update["swiss_team"] = SwissTeamRules(primary_score=primary, colour_preferences=draw(st.sampled_from(["type-a", "type-b", "none"])))
    # A bare code that is also an Olympiad name ("BH") is kept as that name (check_tiebreak), so it
    # has no C.07 canonical form to print: those names are the shipped profiles' own, tested there.
    parts = draw(st.lists(code_parts().filter(lambda p: typed(*p, range(len(p[1]))) not in OLYMPIAD_NAMES),
                          min_size=1, max_size=4, unique_by=lambda p: p[0]))
    codes = []
    for head, mods in parts:
        codes.append(typed(head, mods, draw(st.permutations(range(len(mods))))))
    update["tiebreaks"] = tuple(codes)
    return RuleProfile.model_validate({**base, **update}), parts


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(valid_profiles(), st.integers(0, 10_000), st.data())
def test_a_valid_profile_is_created_prints_canonically_and_round_trips(made, seed, data):
    profile, parts = made
    assert resolve_profile(profile) is profile
    for (head, mods), kept in zip(parts, profile.tiebreaks):
        again = typed(head, mods, data.draw(st.permutations(range(len(mods)))))
        assert parse_tiebreak(again).text == kept == parse_tiebreak(kept).text
    events = simulate(SimulationSpec(teams=7 + seed % 4, rounds=4, seed=seed, profile=profile, tournament_id=f"prop-{seed}",
                                     absence_rate=0.03, match_forfeit_rate=0.03)).events
    original = replay(events)
    last = max(original.rounds)
    assert replay(load_trf(export_trf(events))).rounds[last].digest == original.rounds[last].digest


BAD_CODES = [
    ("EGMSB", "/M1", "C.07 2026 art. 13.2.3"), ("EMGSB", "/M2", "C.07 2026 art. 13.2.2"), ("WIN", ":GP", "C.07 2026 art. 7.1"),
    ("EMGSB", ":GP", "C.07 2026 art. 13.2.2"), ("MPVGP", "/C1", "C.07 2026 art. 14"), ("BH", "/C1/M1", "C.07 2026 art. 14"),
    ("XYZ", "", "C.07 2026 art. 5"), ("BH", "/P/P", "C.07 2026 art. 14"),
]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(sorted(SYSTEMS)), st.sampled_from(BAD_CODES), st.booleans(), st.data())
def test_an_invalid_profile_is_refused_naming_the_article(system, bad, bad_acceleration, data):
    """A code C.07 refuses (placed among legal ones), or an acceleration C.04.7 does not approve for the
    system: refused, the message naming a C.07 or C.04.7 article."""
    legal = [typed(h, m, list(range(len(m)))) for h, m in data.draw(st.lists(code_parts(), max_size=2))]
    update: dict = {"name": "bad", "tiebreaks": (*legal, bad[0] + bad[1])}
    article = bad[2]
    if bad_acceleration:
        wrong = sorted({"top-half", "baku-even", "c04.7-baku"} - set(APPROVED[system]))
        update = {"name": "bad", "acceleration": data.draw(st.sampled_from(wrong))}
        article = "C.04.7"
    with pytest.raises(ValidationError) as exc:
        RuleProfile.model_validate({**SYSTEMS[system].model_dump(), **update})
    assert f"[rule: " in str(exc.value) and article in str(exc.value).split("[rule: ", 1)[1]
