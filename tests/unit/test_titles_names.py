"""Issue 26: every FIDE title is read and known by name, any other short code is kept and noted,
names in any script are stored in NFC, and the importers' one text reader detects encodings."""
from __future__ import annotations

import unicodedata

import pytest
from pydantic import ValidationError

from producers.importers.common import title_note
from producers.importers.team_file import read_team_file
from producers.importers.text_files import clean_lines, csv_rows, decode_text
from schemas.commands import parse_command
from schemas.events import EventSchemaError, Player, parse_event
from schemas.titles import FIDE_TITLES, TITLE_RULE, title_name

EVERY_KIND = {
    "GM": "Grandmaster", "IM": "International Master", "FM": "FIDE Master", "CM": "Candidate Master",
    "WGM": "Woman Grandmaster", "WIM": "Woman International Master", "WFM": "Woman FIDE Master",
    "WCM": "Woman Candidate Master",
    "AGM": "Arena Grandmaster", "AIM": "Arena International Master", "AFM": "Arena FIDE Master",
    "ACM": "Arena Candidate Master",
}
FIVE_SCRIPTS = ["عبد الله، محمد", "丁立人", "Непомнящий, Ян", "Παπαδόπουλος, Γιώργος", "आनंद, विश्वनाथन"]


def team_registered(players: list[dict]) -> dict:
    return {"type": "TeamRegistered", "event_id": "t/team/A", "tournament_id": "t", "team_id": "A", "name": "A",
            "federation": "", "players": players}


@pytest.mark.parametrize("code", sorted(EVERY_KIND))
def test_every_fide_playing_title_is_accepted_and_known_by_name(code: str) -> None:
    assert title_name(code) == EVERY_KIND[code]
    event = parse_event(team_registered([{"board_order": 1, "name": "X", "title": code}]))
    assert event.players[0].title == code
    assert Player(board_order=1, name="X", title=f" {code.lower()} ").title == code  # FIDE's spelling
    assert title_note([("A", "X", code)]) is None


def test_arbiter_and_trainer_codes_of_the_rating_list_are_known_too() -> None:
    assert {c: FIDE_TITLES[c] for c in ("IA", "FA", "IO", "FST")} == {
        "IA": "International Arbiter", "FA": "FIDE Arbiter", "IO": "International Organizer", "FST": "FIDE Senior Trainer"}
    assert title_name("NM") is None and title_name("") is None


@pytest.mark.parametrize("code", ["NM", "HGM", "WNM", "ГМ", "Lm"])
def test_another_short_code_is_kept_as_given_and_noted(code: str) -> None:
    event = parse_event(team_registered([{"board_order": 1, "name": "Doe, John", "title": code}]))
    assert event.players[0].title == code
    assert title_note([("A", "Doe, John", code)]) == (
        f"1 player carries a title that is not a FIDE title code (kept as given): {code} (A: Doe, John)")


@pytest.mark.parametrize("code", ["G.M.", "GM1", "WGM (h)", "Grandmaster"])
def test_a_title_that_is_not_a_code_of_letters_is_refused_with_the_rule(code: str) -> None:
    with pytest.raises(EventSchemaError) as exc:
        parse_event(team_registered([{"board_order": 1, "name": "X", "title": code}]))
    assert exc.value.field == "players[0].title" and exc.value.rule == TITLE_RULE
    assert f"{code!r} is not a title code" in str(exc.value)
    with pytest.raises(ValidationError):
        Player(board_order=1, name="X", title=code)


def test_the_arena_titles_of_an_olympiad_roster_pass_the_import_command() -> None:
    """What was seen: a roster with ACM and AFM was refused. The ImportTeams command takes them."""
    players = [{"board_order": i, "name": n, "title": t} for i, (n, t) in
               enumerate(zip(FIVE_SCRIPTS, ["ACM", "AFM", "AIM", "AGM", "NM"]), start=1)]
    command = parse_command({"command": "ImportTeams", "tournament_id": "t", "actor": {"role": "chief", "id": "chief"},
                             "teams": [{"team_id": "A", "name": "A", "federation": "EGY", "players": players}]})
    assert [p.title for p in command.teams[0].players] == ["ACM", "AFM", "AIM", "AGM", "NM"]
    assert [p.name for p in command.teams[0].players] == FIVE_SCRIPTS


@pytest.mark.parametrize("name", FIVE_SCRIPTS + ["Nguyễn Ngọc Trường Sơn", "O’Gorman, Tom", "Ō’Connor, Seán"])
def test_names_in_any_script_are_stored_in_nfc(name: str) -> None:
    decomposed = unicodedata.normalize("NFD", name)
    event = parse_event(team_registered([{"board_order": 1, "name": decomposed}]))
    assert event.players[0].name == unicodedata.normalize("NFC", name)
    board = parse_event({"type": "BoardResultRecorded", "event_id": "t/r1/t1/b1", "tournament_id": "t", "round": 1,
                         "table": 1, "board": 1, "white": decomposed, "black": "’", "result": "1-0"})
    assert board.white == unicodedata.normalize("NFC", name) and board.black == "’"  # U+2019 kept


def test_decode_text_detects_utf8_bom_utf16_cp1252_and_latin1() -> None:
    text = "Cote d’Ivoire;Müller, Jürgen;½"
    assert decode_text(text.encode("utf-8")) == text
    assert decode_text(b"\xef\xbb\xbf" + text.encode("utf-8")) == text
    assert decode_text(text.encode("utf-16")) == text
    assert decode_text(text.encode("cp1252")) == text  # ’ is 0x92 in cp1252, a control character in Latin-1
    assert decode_text("Müller ½".encode("latin-1")) == "Müller ½"
    assert decode_text(b"\x81\xe9") == "\x81é"  # 0x81 has no cp1252 character: Latin-1
    assert clean_lines("a  \r\nb\t\rc \nd  ") == "a\nb\nc\nd"


def test_csv_rows_trim_names_and_values_and_read_short_rows() -> None:
    header, rows = csv_rows("\ufeff team_id , name \r\nA ,\"Doe, John\"  \r\nB\r\n\r\n")
    assert header == ["team_id", "name"]
    assert rows == [{"team_id": "A", "name": "Doe, John"}, {"team_id": "B", "name": ""}]


@pytest.mark.parametrize("encoding,newline", [("utf-8", "\n"), ("utf-8-sig", "\r\n"), ("cp1252", "\r"),
                                              ("utf-16", "\r\n")])
def test_a_team_csv_in_any_encoding_and_line_end_reads_alike(encoding: str, newline: str) -> None:
    lines = ["team_id,team,federation,board,name,fide_id,title,rating",
             "CIV,Cote d’Ivoire,CIV,1,\"Koné, Éric\",1234567,AFM,1850   ",
             "CIV,Cote d’Ivoire,CIV,2,\"N’Guessan, Zoë\", ,acm, ",
             "CIV,Cote d’Ivoire,CIV,3,\"Müller, Jürgen\",,NM,1700"]
    teams = read_team_file(newline.join(lines).encode(encoding), "teams.csv")
    assert teams == [{"team_id": "CIV", "name": "Cote d’Ivoire", "federation": "CIV", "players": [
        {"board_order": 1, "name": "Koné, Éric", "fide_id": "1234567", "title": "AFM", "rating": 1850},
        {"board_order": 2, "name": "N’Guessan, Zoë", "title": "acm"},
        {"board_order": 3, "name": "Müller, Jürgen", "title": "NM", "rating": 1700},
    ]}]
