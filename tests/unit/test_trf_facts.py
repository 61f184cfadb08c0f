"""What a tournament holds beside its results travels through TRF both ways (issue 26, TRF): the
header records (022 venue, 042/052 dates, 102 chief arbiter), a late entry's starting round, team
names longer than the 310 field; and the exports that used to stop: no round paired, a late entry
that has not played yet, more than 999 teams (refused naming the cap). The 310 strength is the
average rating rounded half up."""
from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from typer.testing import CliRunner

from olympiad.cli import app as cli
from producers.importers.trf import load_trf
from projections.eventlog import write_log
from projections.replay import replay
from projections.trf import TrfLimitError, export_trf, render_trf
from projections.trf import records as rec
from projections.trf.export import strength
from schemas import event_ids
from schemas.events import Player, TeamRegistered, TournamentCreated
from schemas.profile import OLYMPIAD_2022
from tests import factories as F

LONG = "Federation of the Southern Sea Islands, First Team"  # 50 characters; the 310 name holds 32


def created() -> TournamentCreated:
    return TournamentCreated(event_id=event_ids.created(F.TID), tournament_id=F.TID, name="Test Open", profile=OLYMPIAD_2022,
                             starts=date(2026, 12, 1), ends=date(2026, 12, 9), venue="Tashkent, Humo Arena", chief_arbiter="Olga Arbiter")


def registered(code: str, number: int, name: str = "", ratings=(2300, 2290, 2280, 2270, 2260), from_round: int | None = None) -> TeamRegistered:
    players = tuple(Player(board_order=i, name=f"{code} player {i}", rating=r) for i, r in enumerate(ratings, start=1))
    return TeamRegistered(event_id=event_ids.team(F.TID, code), tournament_id=F.TID, team_id=code, name=name or f"Team {code}",
                          federation="ABC", players=players, pairing_number=number, from_round=from_round)


def start_list() -> list:
    return [created(), registered("A", 1, LONG), *(registered(c, n) for n, c in enumerate("BCDEF", start=2))]


def late_entry_log(through: int) -> list:
    """Six teams; round 1 paired and played; team G registered late (from round 2); round 2 (``through`` 2)
    paired with G and played."""
    events = start_list() + [F.paired(1, [("A", "B"), ("C", "D"), ("E", "F")]),
                             *F.match(1, 1, ("1-0", "0-1", "1/2-1/2", "1-0")), *F.match(1, 2, ("0-1",) * 4),
                             *F.match(1, 3, ("1/2-1/2",) * 4),
                             registered("G", 7, ratings=(2100, 2090, 2080, 2070), from_round=2)]
    if through >= 2:
        events += [F.paired(2, [("A", "C"), ("D", "B"), ("G", "E")], bye="F"),
                   *F.match(2, 1, ("1-0",) * 4), *F.match(2, 2, ("0-1", "1-0", "1/2-1/2", "1/2-1/2")), *F.match(2, 3, ("0-1",) * 4)]
    return events


def records(text: str, tag: str) -> list[str]:
    return [line for line in text.split("\r") if line.startswith(tag)]


def test_header_records_travel_both_ways():
    text = export_trf(late_entry_log(2))
    assert records(text, "022") == ["022 Tashkent, Humo Arena"]
    assert (records(text, "042"), records(text, "052")) == (["042 2026/12/01"], ["052 2026/12/09"])
    assert records(text, "102") == ["102 Olga Arbiter"]
    back = load_trf(text)[0]
    assert (back.venue, back.starts, back.ends, back.chief_arbiter) == ("Tashkent, Humo Arena", date(2026, 12, 1), date(2026, 12, 9), "Olga Arbiter")
    # A file of another program (no product comments) gives the same facts from its records.
    foreign = "\r".join(line for line in text.split("\r") if not line.startswith("###"))
    back = load_trf(foreign, "other")[0]
    assert (back.venue, back.starts, back.ends, back.chief_arbiter) == ("Tashkent, Humo Arena", date(2026, 12, 1), date(2026, 12, 9), "Olga Arbiter")


def test_a_late_entry_keeps_its_starting_round_and_the_digest_of_every_round():
    events = late_entry_log(2)
    text = export_trf(events)
    assert records(text, "240") == []  # round 1 was before G entered: not an absence
    imported = load_trf(text)
    g = next(e for e in imported if e.type == "TeamRegistered" and e.team_id == "G")
    assert g.from_round == 2
    # G is registered after round 1's results, before round 2's pairing, as in the log.
    order = [e.type for e in imported]
    assert order.index("TeamRegistered", 7) > max(i for i, e in enumerate(imported) if e.type == "BoardResultRecorded" and e.round == 1)
    original, back = replay(events), replay(imported)
    assert [r.team_id for r in back.rounds[1].rows] == ["A", "C", "D", "E", "F", "B"]  # G not in the table of round 1
    assert len(back.rounds[2].rows) == 7
    for r in (1, 2):
        assert back.rounds[r].digest == original.rounds[r].digest
        assert load_trf(export_trf(events, r)) and replay(load_trf(export_trf(events, r))).rounds[r].digest == original.rounds[r].digest


def test_a_late_entry_not_played_yet_is_exported_and_read_back():
    events = late_entry_log(1)  # G registered, round 2 not paired
    for through in (None, 1):
        text = export_trf(events, through)
        g = next(line for line in records(text, "310") if rec.field(line, rec.TEAM_TPN) == "7")
        assert (rec.field(g, rec.TEAM_MP), rec.field(g, rec.TEAM_GP), rec.field(g, rec.TEAM_RANK)) == ("0.0", "0.0", "")
        imported = load_trf(text)
        assert [e.team_id for e in imported if e.type == "TeamRegistered"][-1] == "G" and imported[-1].from_round == 2
        assert replay(imported).rounds[1].digest == replay(events).rounds[1].digest


def test_a_tournament_with_no_round_paired_is_a_start_list(tmp_path):
    events = start_list()
    text = export_trf(events)
    assert len(records(text, "310")) == 6 and len(records(text, "001")) == 30
    assert all(len(line) <= rec.PLAYER_RANK[1] for line in records(text, "001"))  # no round fields
    back = load_trf(text)
    assert [e.type for e in back] == ["TournamentCreated"] + ["TeamRegistered"] * 6
    assert [(e.team_id, e.name, e.pairing_number) for e in back[1:]] == [(e.team_id, e.name, e.pairing_number) for e in events[1:]]
    log = tmp_path / "start.jsonl"
    write_log(log, events)
    done = CliRunner().invoke(cli, ["export-trf", str(log), str(tmp_path / "start.trf")])
    assert done.exit_code == 0, done.output
    assert (tmp_path / "start.trf").read_bytes().decode("latin-1") == text


def test_a_long_team_name_is_cut_in_310_and_kept_whole_in_the_comment():
    text = export_trf(late_entry_log(2))
    a = records(text, "310")[0]
    assert rec.field(a, rec.TEAM_NAME) == LONG[:32] and a[71:73] == "  "
    assert records(text, "013")[0][4:36] == LONG[:32]
    assert f'### olympiad-events team 1 {{"federation":"ABC","name":"{LONG}","team_id":"A"}}' in text.split("\r")
    back = load_trf(text)
    assert next(e.name for e in back if e.type == "TeamRegistered" and e.team_id == "A") == LONG


def test_strength_is_the_average_rating_rounded_half_up():
    """FIDE rounds rating averages to the nearest whole number, 0.5 upward (B.01 art. 1.4.8)."""
    assert (strength(Decimal("2300.5")), strength(Decimal("2301.5")), strength(Decimal("2300.25")), strength(Decimal("2300.75"))) == (2301, 2302, 2300, 2301)
    events = [created(), registered("A", 1, ratings=(2301, 2300, 2300, 2301, 1500)), registered("B", 2, ratings=(2302, 2301, 2301, 2302, 1500)),
              *(registered(c, n) for n, c in enumerate("CD", start=3))]
    text = export_trf(events)
    assert [rec.field(line, rec.TEAM_STRENGTH) for line in records(text, "310")[:2]] == ["2301", "2302"]  # 2300.5, 2301.5


def thousand_teams() -> list:
    players = tuple(Player(board_order=i, name=f"Player {i}") for i in range(1, 5))
    return [created()] + [TeamRegistered(event_id=event_ids.team(F.TID, f"T{n}"), tournament_id=F.TID, team_id=f"T{n}", name=f"Team {n}", federation="ABC",
                                         players=players, pairing_number=n) for n in range(1, 1001)]


def test_more_than_999_teams_is_refused_naming_the_cap(tmp_path):
    events = thousand_teams()
    with pytest.raises(TrfLimitError, match=r"1000 teams: team T1000 has pairing number 1000, and record 310 columns 5-7 hold team "
                                            r"pairing numbers 1 to 999 \[rule: TRF-2026 310 team pairing number 1 to 999\]"):
        render_trf(events)
    assert export_trf(events[:1000])  # 999 teams fit
    log = tmp_path / "big.jsonl"
    write_log(log, events)
    out = tmp_path / "big.trf"
    done = CliRunner().invoke(cli, ["export-trf", str(log), str(out)])
    assert done.exit_code == 2 and not out.exists()
    assert "refused: 1000 teams: team T1000 has pairing number 1000" in " ".join(done.output.split())
