""""Decided by" (issue 14, acceptance 5) on the official Samarkand 2026 Open standings after round 11:
the key that separates each two neighbouring rows. The official table (raw/round11.json) gives the order
and the ranks; our rows are in that order (tests/unit/test_samarkand_standings.py), and a pair shares
a place in the official table exactly when "decided by" says so."""
from __future__ import annotations

import json
from collections import Counter

from projections.replay import replay
from producers.sources import load_source
from projections.standings.decided_by import SHARED, decided_by, decided_by_documents
from schemas.profile import OLYMPIAD_2022


def test_decided_by_after_round_11_of_samarkand(samarkand_dir):
    official = json.loads((samarkand_dir / "raw" / "round11.json").read_text(encoding="utf-8"))
    standings = replay(load_source("samarkand-2026-open")).rounds[11]
    rows = standings.rows
    assert [r.pairing_number for r in rows] == [o["id"] for o in official]
    by = decided_by(rows, OLYMPIAD_2022.tiebreaks)
    assert by == decided_by_documents(standings.document["rows"], OLYMPIAD_2022.tiebreaks)
    assert by[0] is None
    for above, below, key in zip(official, official[1:], by[1:]):
        assert (key == SHARED) == (above["rank"] == below["rank"]), (above["name"], below["name"], key)
    # Uzbekistan 20 MP above India 18 MP; India and Germany (18 MP) are separated by OSB-C1.
    assert [(r.name, b) for r, b in zip(rows[:3], by[:3])] == [("Uzbekistan", None), ("India", "MP"), ("Germany", "OSB-C1")]
    assert Counter(by[1:]) == EXPECTED


# How the 205 neighbouring pairs of the final Samarkand table are decided.
EXPECTED = Counter({"OSB-C1": 177, "MP": 17, "GP": 10, "BH-C1": 1})


def test_each_key_is_the_first_that_differs(samarkand_dir):
    rows = replay(load_source("samarkand-2026-open")).rounds[11].rows
    names = ("MP", *OLYMPIAD_2022.tiebreaks)
    for above, below, key in zip(rows, rows[1:], decided_by(rows, OLYMPIAD_2022.tiebreaks)[1:]):
        values = lambda r: (r.mp, *(r.tiebreaks[t] for t in OLYMPIAD_2022.tiebreaks))
        first = next((n for n, a, b in zip(names, values(above), values(below)) if a != b), SHARED)
        assert key == first
        if key != SHARED:
            i = names.index(key)
            assert values(above)[i] > values(below)[i]  # the row above is ahead on it (all keys higher first)
