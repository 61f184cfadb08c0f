"""Team TRF files as other programs write them, and broken ones (issue 26, TRF).

Good layouts: a TRF-2026 file (310 with 300/320/330/240, the 142-362 header records), the same
without the product's ``### olympiad-events`` comments (so nothing but the records speaks), without
320/330 (an even field, no forfeited match), and a TRF16 file (013 records only, the TRF16 header:
no 142/192/212/352/362); each is read into the matches it describes: every team's MP and GP equal
the simulated tournament's. Broken variants (more than 50), made here from the good file, are each
refused naming the line, the record and what is wrong, in the product's words.
"""
from __future__ import annotations

import re
from functools import cache

import pytest

from producers.importers.trf import TrfError, load_trf
from producers.simulator import SimulationSpec, simulate
from projections.replay import replay
from projections.trf import export_trf
from schemas.profile import OLYMPIAD_2022

COMMENT = "### olympiad-events"


@cache
def good_events(even: bool = False) -> tuple:
    """7 teams (a PAB each round), 4 rounds, forfeited matches (330) and an absence (240 Z); or 8 teams
    and no forfeit (``even``: no 320, no 330)."""
    spec = SimulationSpec(teams=8 if even else 7, rounds=4, seed=0, profile=OLYMPIAD_2022, tournament_id="corpus",
                          match_forfeit_rate=0 if even else 0.15, board_forfeit_rate=0, absence_rate=0 if even else 0.05,
                          withdrawal_rate=0)
    return tuple(simulate(spec).events)


def foreign(text: str) -> str:
    """``text`` without the product's comments: a file as another program writes it."""
    return "\r".join(line for line in text.split("\r") if not line.startswith("###"))


@cache
def good() -> str:
    return foreign(export_trf(good_events()))


def totals(events) -> dict[str, tuple]:
    """Team name -> (MP, GP) after the last round."""
    result = replay(events)
    names = {e.team_id: e.name for e in events if e.type == "TeamRegistered"}
    return {names[r.team_id]: (r.mp, r.gp) for r in result.rounds[max(result.rounds)].rows}


def test_the_good_file_has_every_team_record():
    tags = {line[:3] for line in good().split("\r")}
    assert {"310", "013", "320", "330", "240", "142", "162", "192", "212", "352", "362"} <= tags


@pytest.mark.parametrize("layout", ["trf26-own", "trf26-foreign", "trf26-no-320-330", "trf16-013-only"])
def test_layouts_of_other_programs_import(layout):
    events = good_events(even=layout in ("trf26-no-320-330", "trf16-013-only"))
    text = export_trf(events)
    if layout != "trf26-own":
        text = foreign(text)
    if layout == "trf26-no-320-330":
        assert not re.search(r"^(320|330)", text, re.M)
    if layout == "trf16-013-only":  # TRF16: 013 teams, no TRF-2026 header or team records
        text = "\r".join(line for line in text.split("\r") if line[:3] not in ("310", "300", "142", "152", "162", "192", "202", "212", "352", "362"))
        assert "\r310" not in text and "\r013" in text
    imported = load_trf(text, "corpus")
    assert totals(imported) == totals(events)
    if layout == "trf26-own":
        assert replay(imported).rounds[4].digest == replay(events).rounds[4].digest


def line_no(text: str, tag: str, k: int = 0) -> int:
    """1-based line number of the ``k``-th record ``tag``."""
    return [i for i, line in enumerate(text.split("\r"), start=1) if line.startswith(tag)][k]


def put(line: str, first: int, value: str) -> str:
    """``line`` with ``value`` written from 1-based column ``first``."""
    line = line.ljust(first - 1 + len(value))
    return line[:first - 1] + value + line[first - 1 + len(value):]


def edit(tag: str, k: int, first: int, value: str):
    def apply(text: str) -> str:
        lines = text.split("\r")
        i = line_no(text, tag, k) - 1
        lines[i] = put(lines[i], first, value)
        return "\r".join(lines)
    return apply


def replace_line(tag: str, k: int, new: str):
    def apply(text: str) -> str:
        lines = text.split("\r")
        lines[line_no(text, tag, k) - 1] = new
        return "\r".join(lines)
    return apply


def insert_after(tag: str, new: str, k: int = 0):
    def apply(text: str) -> str:
        lines = text.split("\r")
        lines.insert(line_no(text, tag, k), new)
        return "\r".join(lines)
    return apply


def duplicate(tag: str, k: int = 0):
    def apply(text: str) -> str:
        lines = text.split("\r")
        i = line_no(text, tag, k) - 1
        lines.insert(i + 1, lines[i])
        return "\r".join(lines)
    return apply


def drop(*tags: str):
    def apply(text: str) -> str:
        return "\r".join(line for line in text.split("\r") if line[:3] not in tags)
    return apply


def with_comments(mutate):
    """A mutation of the product's own file (its comments kept)."""
    def apply(_: str) -> str:
        return mutate(export_trf(good_events()))
    return apply


# (id, mutation, line of the refused record: (tag, k) in the mutated file or None for the whole file, message regex)
BROKEN = [
    # 001 player records
    ("srn-blank", edit("001", 0, 5, "    "), ("001", 0), r"record 001: columns 5-8 \(starting rank\) are blank or 0"),
    ("srn-letters", edit("001", 0, 5, "  x1"), ("001", 0), r"record 001: columns 5-8 \(starting rank\) hold 'x1', not a number"),
    ("srn-duplicate", duplicate("001", 3), ("001", 4), r"record 001: starting rank 4 is given twice \(also on line \d+\)"),
    ("fide-id-XX", edit("001", 0, 58, "         XX"), ("001", 0), r"record 001: columns 58-68 \(FIDE id\) hold 'XX', not a FIDE id \[rule: FIDE ids"),
    ("fide-id-12-digits", edit("001", 0, 58, "12345678901"), ("001", 0), r"record 001: columns 58-68 \(fide id\): '12345678901' is not accepted \[rule: FIDE ids: 1 to 10 digits\]"),
    ("escape-in-name", edit("001", 1, 18, "\x1b"), ("001", 1), r"record 001: column 18: U\+001B is a control character \[rule: text"),
    ("tab-in-name", edit("001", 1, 16, "\t"), ("001", 1), r"record 001: column 16: U\+0009 is a control character"),
    ("nul-in-name", edit("001", 2, 16, "\x00"), ("001", 2), r"record 001: column 16: U\+0000 is a control character"),
    ("rating-letters", edit("001", 0, 49, "24x3"), ("001", 0), r"record 001: columns 49-52 \(rating\) hold '24x3', not a number"),
    ("rating-4000", edit("001", 0, 49, "4000"), ("001", 0), r"record 001: columns 49-52 \(rating\): 4000 is not accepted \[rule: ratings 0 to 3500\]"),
    ("title-not-a-code", edit("001", 0, 11, " 1x"), ("001", 0), r"record 001: columns 11-13 \(title\): '1X' is not accepted \[rule: titles: a FIDE title code"),
    ("name-blank", edit("001", 0, 15, " " * 33), ("001", 0), r"record 001: columns 15-47 \(name\) are blank"),
    ("opponent-letters", edit("001", 0, 92, "00a6"), ("001", 0), r"record 001: round 1: columns 92-95 \(opponent\) hold '00a6', not a starting rank"),
    ("colour-x", edit("001", 0, 97, "x"), ("001", 0), r"record 001: round 1: column 97 \(colour\) holds 'x'; expected w, b or -"),
    ("result-Q", edit("001", 0, 99, "Q"), ("001", 0), r"record 001: round 1: column 99 \(result\) holds 'Q'; expected 1 = 0 \+ - W D L U Z H F"),
    ("round-shifted", edit("001", 0, 96, "w b"), ("001", 0), r"record 001: round 1: columns 96 and 98 are not blank: the round's fields are shifted"),
    ("opponent-unknown", edit("001", 0, 92, "0999"), ("001", 0), r"record 001: round 1: opponent 999 is in no team"),
    ("results-clash", edit("001", 0, 99, "0"), ("001", 0), r"record 001: round 1: players 1 and 16 have results '0' and '0', which do not fit one game \[rule: a game's two results\]"),
    ("own-team-opponent", edit("001", 0, 92, "0002"), ("001", 0), r"record 001: round 1: player 1 faces player 2 of the same team \[rule: a match is two teams\]"),
    ("two-opponents", edit("001", 1, 92, "0006"), ("001", 1), r"record 001: round 1: team 1 meets team 2 here and team 4 on another board \[rule: a team meets one team per round\]"),
    ("too-many-boards", edit("001", 4, 92, "0020 b 1"), ("001", 4), r"record 001: round 1: team 1 has 5 players with a result in a 4-board match and no 300 line-up \[rule: R-D1 boards\]"),
    # 310 / 013 team records
    ("tpn-blank", edit("310", 0, 5, "   "), ("310", 0), r"record 310: columns 5-7 \(team pairing number\) are blank or 0"),
    ("tpn-letters", edit("310", 0, 5, " 1a"), ("310", 0), r"record 310: columns 5-7 \(team pairing number\) hold '1a', not a number"),
    ("tpn-duplicate", insert_after("310", "310   1 Another team                     X       2000    0.0    0.0   8"), ("310", 1),
     r"record 310: team pairing number 1 is given twice \(also on line \d+\) \[rule: TRF-2026 310 one record per team\]"),
    ("team-duplicate", replace_line("310", 1, "310   2 Team 0001                        T2      2243    6.0   11.0   2     6    7    8    9   10"), ("310", 1),
     r"record 310: team 2: the team name 'Team 0001' is also team 1's \(line \d+\): the same team twice"),
    ("member-without-001", edit("310", 0, 94, " 999"), ("310", 0), r"record 310: team 1 names player 999, who has no 001 record"),
    ("member-in-two-teams", edit("310", 1, 94, "   1"), ("310", 1), r"record 310: team 2 names player 1, who is already in team 1 \(line \d+\) \[rule: a player plays for one team\]"),
    ("member-twice", edit("310", 0, 79, "   1"), ("310", 0), r"record 310: columns 79-82 \(member 2\): player 1 is listed twice in this team"),
    ("mp-letters", edit("310", 0, 55, "   x.0"), ("310", 0), r"record 310: columns 55-60 \(match points\) 'x.0' is not a point value"),
    ("gp-quarter", edit("310", 0, 62, "  1.25"), ("310", 0), r"record 310: columns 62-67 \(game points\) '1.25' is not a point value \[rule: points are whole multiples of 1/2\]"),
    ("team-name-blank", edit("310", 0, 9, " " * 32), ("310", 0), r"record 310: team 1: the team name \(columns 9-40\) is blank"),
    ("team-name-escape", edit("310", 0, 12, "\x1b"), ("310", 0), r"record 310: column 12: U\+001B is a control character"),
    ("too-few-members", edit("310", 0, 89, " " * 9), ("310", 0), r"record 310: team 1 \(Team 0001\) lists 3 players; a team has at least 4 \[rule: R-D1"),
    ("no-team-records", drop("310", "013"), None, r"^record 310 team section|no 310 or 013 record: not a team tournament"),
    ("013-member-unknown", lambda t: edit("013", 0, 37, " 999")(drop("310")(t)), ("013", 0), r"record 013: team 1 names player 999, who has no 001 record"),
    # header records: scales, colours, rounds, tie-breaks, dates
    ("362-half-draw", replace_line("362", 0, "362 TW 1.0   TD 0.5   TL 0.0"), ("362", 0),
     r"record 362: columns 17-19: TD 0.5 match points cannot be kept: this product's match points are whole numbers 0 to 10 \(2/1/0, 3/1/0 ...\) \[rule: R-D3"),
    ("362-draw-as-win", replace_line("362", 0, "362 TW 2.0   TD 2.0   TL 0.0"), ("362", 0), r"record 362: match points: match points win 2, draw 2, loss 0: a win is worth more than a draw.*\[rule: R-D3 match points\]"),
    ("362-letters", replace_line("362", 0, "362 TW x.0   TD 1.0   TL 0.0"), ("362", 0), r"record 362: columns 8-10 \(TW\) hold 'x.0', not a number"),
    ("362-garbage", replace_line("362", 0, "362 2/1/0"), ("362", 0), r"record 362: columns 5-9 hold '2/1/0'; expected TW, TD and TL each with its points"),
    ("362-twice", duplicate("362"), ("362", 1), r"record 362: a second 362 record \(the first is on line \d+\)"),
    ("162-draw-0.6", replace_line("162", 0, "162  W 1.0    D 0.6    L 0.0"), ("162", 0), r"record 162: column 15: D 0.6 game points cannot be kept"),
    ("162-win-2", replace_line("162", 0, "162  W 2.0    D 1.0    L 0.0"), ("162", 0), r"record 162: column 6: W 2.0 game points cannot be kept: .* \[rule: R-D2 game points 1, 1/2, 0\]"),
    ("142-letters", replace_line("142", 0, "142 1x"), ("142", 0), r"record 142: columns 5-8 \(number of rounds\) hold '1x', not a number"),
    ("142-zero", replace_line("142", 0, "142 0"), ("142", 0), r"record 142: rounds: 0 is not accepted \[rule: rule profile: rounds\]"),
    ("352-letter", replace_line("352", 0, "352 WBWX"), ("352", 0), r"record 352: columns 5-8 hold 'WBWX'; a board colour sequence is W and B only"),
    ("352-not-alternating", replace_line("352", 0, "352 WWBB"), ("352", 0), r"record 352: colour sequence 'WWBB': this product alternates colours board by board \(WBWB...\) \[rule: R-D4"),
    ("212-unknown", replace_line("212", 0, "212 MPTS,XYZ"), ("212", 0), r"record 212: tie-break 'XYZ': .*\[rule: C.07 2026 art. 5\]"),
    ("320-half-mp", edit("320", 0, 5, " 0.5"), ("320", 0), r"record 320: columns 5-8: PAB match points 0.5: this product's match points are whole numbers \[rule: R-D9"),
    ("320-gp-letters", edit("320", 0, 10, " x.0"), ("320", 0), r"record 320: columns 10-13 \(PAB game points\) 'x.0' is not a point value"),
    ("320-team-unknown", edit("320", 0, 15, "099"), ("320", 0), r"record 320: round 1: team 99 is not in the team section"),
    ("320-gp-over-a-win", edit("320", 0, 10, "80.0"), ("320", 0), r"record 320: bye award: bye award 1 MP, 80 GP: at most a won match \(2 MP, 4 GP\) \[rule: R-D9 bye award\]"),
    ("320-twice", duplicate("320"), ("320", 1), r"record 320: a second 320 record"),
    ("320-team-plays", edit("320", 0, 15, "001"), ("320", 0), r"record 320: round 1: team 1 has the PAB \(320\) and plays"),
    ("042-bad-date", insert_after("012", "042 2026/13/45"), ("042", 0), r"record 042: columns 5-14 hold '2026/13/45', not a date YYYY/MM/DD"),
    ("052-before-042", insert_after("012", "042 2026/09/10\r052 2026/09/01"), ("052", 0), r"record 052: the end date 2026-09-01 is before the start date 2026-09-10"),
    ("012-twice", duplicate("012"), ("012", 1), r"record 012: a second 012 record"),
    # 330 forfeited matches
    ("330-kind", edit("330", 0, 5, "xx"), ("330", 0), r"record 330: columns 5-6 hold 'xx'; expected \+-, -\+ or --"),
    ("330-team-unknown", edit("330", 0, 12, "099"), ("330", 0), r"record 330: columns 12-14: team 99 is not in the team section"),
    ("330-against-itself", edit("330", 0, 16, "  3"), ("330", 0), r"record 330: team 3 forfeits against itself"),
    ("330-round-blank", edit("330", 0, 8, "   "), ("330", 0), r"record 330: columns 8-10 \(round\) are blank or 0"),
    ("330-twice", duplicate("330"), ("330", 1), r"record 330: round 1: a second forfeited match of team \d \(the first on line \d+\)"),
    # 300 line-ups
    ("300-team-unknown", insert_after("013", "300   1  99   4 0001 0002 0003 0004", 6), ("300", 0), r"record 300: columns 9-11: team 99 is not in the team section"),
    ("300-foreign-player", insert_after("013", "300   1   1   4 0001 0002 0003 0006", 6), ("300", 0), r"record 300: columns 32-35 \(board 4\): player 6 is not a member of team 1"),
    ("300-twice", insert_after("013", "300   1   1   4 0001 0002 0003 0004\r300   1   1   4 0001 0002 0003 0004", 6), ("300", 1), r"record 300: round 1: team 1 has a second line-up"),
    ("300-six-boards", insert_after("013", "300   1   1   4 0001 0002 0003 0004 0005 0000", 6), ("300", 0), r"record 300: 6 boards in a 4-board match"),
    # 240 byes, 299 abnormal points
    ("240-full-point-bye", replace_line("240", 0, "240 F 004 0003"), ("240", 0), r"record 240: column 5: a full-point bye has no event in this product"),
    ("240-absent-plays", replace_line("240", 0, "240 Z 001 0001"), ("240", 0), r"record 240: round 1: team 1 is absent \(240 Z\) and plays"),
    ("240-team-unknown", replace_line("240", 0, "240 Z 004 0099"), ("240", 0), r"record 240: columns 11-14: team 99 is not in the team section"),
    ("299-penalty", insert_after("362", "299    -2.0   0.0  001 0003"), ("299", 0), r"record 299: an abnormal points assignment .* \[rule: TRF-2026 299"),
    # the product's own comments and records that contradict them
    ("comment-bad-json", with_comments(lambda t: t.replace("### olympiad-events team 1 {", "### olympiad-events team 1 {{")), ("###", 0),
     r"record ###: the team comment of olympiad-events is not the product's form"),
    ("comment-362-edited", with_comments(replace_line("362", 0, "362 TW 3.0   TD 1.0   TL 0.0")), ("362", 0),
     r"record 362: match points \{'win': 3, 'draw': 1, 'loss': 0\} differ from the olympiad-events profile comment's"),
    ("comment-142-edited", with_comments(replace_line("142", 0, "142 9")), ("142", 0), r"record 142: rounds 9 differ from the olympiad-events profile comment's 11"),
]


def refused_line(text: str, where) -> int:
    tag, k = where
    if tag == "###":
        return [i for i, line in enumerate(text.split("\r"), start=1) if line.startswith(COMMENT + " team")][k]
    return line_no(text, tag, k)


@pytest.mark.parametrize("case", BROKEN, ids=[c[0] for c in BROKEN])
def test_a_broken_file_is_refused_with_its_line_and_record(case):
    _, mutate, where, pattern = case
    text = mutate(good())
    with pytest.raises(TrfError) as refused:
        load_trf(text, "corpus")
    message = str(refused.value)
    prefix = f"line {refused_line(text, where)}: " if where else ""
    assert message.startswith(prefix), message
    assert re.search(pattern, message), message
    assert "validation error" not in message and "pydantic" not in message and "http" not in message


def test_more_than_fifty_broken_variants():
    assert len(BROKEN) > 50
