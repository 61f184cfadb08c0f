"""Issue 26: real data written by other tools reads the same.

The shipped Samarkand 2026 and Chennai 2022 folders, re-encoded into tmp_path (UTF-8 with and
without BOM, UTF-16, Latin-1 where every character has a Latin-1 byte else cp1252; LF, CRLF and CR
line ends; trailing spaces), import to the same events and the same standings digest as the
originals. Rosters with every kind of title and names in five scripts are read, normalised to NFC,
and matched across a folder's files by FIDE id first, else by name.
"""
from __future__ import annotations

import csv
import io
import json
import shutil
import unicodedata
from pathlib import Path

import pytest

from producers.importers.chennai import load_events as chennai_events
from producers.importers.common import name_key, registered_titles, title_note
from producers.importers.samarkand import load_events as samarkand_events
from projections.replay import replay
from schemas.canonical import canonical_json
from tests.varied_data import CHENNAI, SAMARKAND, SAMARKAND_DIGEST, reencoded, single_byte, varied_samarkand

CHENNAI_DIGEST = "7f11b241c58a1fba6f107e9e9d184da9af97c0a507c7b7bbc26542fa85bf9af0"  # round 11 of the shipped folder
VARIANTS = {  # name -> (encoding, line end, trailing text of each line)
    "utf8-lf-trailing-spaces": ("utf-8", "\n", "   "),
    "utf8-bom-crlf": ("utf-8-sig", "\r\n", ""),
    "single-byte-cr": ("single-byte", "\r", ""),
    "single-byte-crlf-trailing-tab": ("single-byte", "\r\n", " \t"),
    "utf16-crlf": ("utf-16", "\r\n", ""),
}


def log_text(events: list) -> str:
    return "\n".join(canonical_json(e) for e in events)


@pytest.fixture(scope="module")
def originals() -> dict[str, str]:
    return {"samarkand": log_text(samarkand_events(SAMARKAND)), "chennai": log_text(chennai_events(CHENNAI))}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_samarkand_reencoded_imports_to_the_same_events_and_digest(tmp_path: Path, variant: str, originals) -> None:
    encoding, newline, trailing = VARIANTS[variant]
    folder = reencoded(SAMARKAND, tmp_path / SAMARKAND.name, encoding, newline, trailing)
    data = (folder / "raw" / "rosters.json").read_bytes()
    if encoding == "single-byte":  # ’ (Cote d’Ivoire) has no Latin-1 byte: the file is cp1252, ’ = 0x92
        assert b"d\x92Ivoire" in data and "Cote d’Ivoire".encode("utf-8") not in data
    events = samarkand_events(folder)
    assert log_text(events) == originals["samarkand"]
    assert replay(events).rounds[11].digest == SAMARKAND_DIGEST


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_chennai_reencoded_imports_to_the_same_events_and_digest(tmp_path: Path, variant: str, originals) -> None:
    encoding, newline, trailing = VARIANTS[variant]
    # The folder's name finds the project's copy of its facts (olympiad/data/<name>.event.json).
    folder = reencoded(CHENNAI, tmp_path / CHENNAI.name, encoding, newline, trailing)
    events = chennai_events(folder)
    assert log_text(events) == originals["chennai"]
    assert replay(events).rounds[11].digest == CHENNAI_DIGEST


def _chennai_with_latin1_names(dest: Path) -> dict[str, str]:
    """The Chennai folder with the players of India 2 renamed to Latin-1 names in both files
    (rosters.csv and matches.json); returns FIDE id -> new name."""
    shutil.copytree(CHENNAI, dest)
    with (dest / "rosters.csv").open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    new = iter(["Müller, Jürgen", "Sarín, Nihal", "Bäskaran, Adhiban", "Øre, Raunak", "Durão, Ægidius", "Ñúñez, Côme"])
    by_id = {r["fide_id"]: next(new) for r in rows if r["team"] == "India 2"}
    for r in rows:
        r["name"] = by_id.get(r["fide_id"], r["name"])
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    (dest / "rosters.csv").write_text(out.getvalue(), encoding="utf-8")
    data = json.loads((dest / "matches.json").read_text(encoding="utf-8"))
    for rnd in data["rounds"]:
        for m in rnd["matches"]:
            for b in m["boards"]:
                for side in ("white", "black"):
                    if b[side]["fide_id"] in by_id:
                        b[side]["name"] = by_id[b[side]["fide_id"]]
    (dest / "matches.json").write_text(json.dumps(data, indent=1, ensure_ascii=False), encoding="utf-8")
    return by_id


def test_chennai_with_latin1_names_reads_alike_in_latin1_and_utf8(tmp_path: Path) -> None:
    by_id = _chennai_with_latin1_names(tmp_path / "utf8" / CHENNAI.name)
    utf8 = chennai_events(tmp_path / "utf8" / CHENNAI.name)
    latin1 = reencoded(tmp_path / "utf8" / CHENNAI.name, tmp_path / "latin1" / CHENNAI.name, "single-byte", "\r\n")
    assert single_byte((latin1 / "rosters.csv").read_bytes().decode("latin-1")) == "latin-1"
    assert "Müller".encode("latin-1") in (latin1 / "rosters.csv").read_bytes()
    assert log_text(chennai_events(latin1)) == log_text(utf8)
    india2 = next(e for e in utf8 if e.type == "TeamRegistered" and e.name == "India 2")
    assert {p.fide_id: p.name for p in india2.players} == by_id
    assert replay(utf8).rounds[11].digest == CHENNAI_DIGEST


def test_chennai_rosters_are_matched_by_fide_id_first_then_by_name(tmp_path: Path) -> None:
    """rosters.csv spells two players otherwise than the games, with the FIDE id both carry (matched
    by the id), and gives a third no FIDE id and extra spaces (matched by name, then by the id the
    games give that name): each keeps the board order of the shipped folder."""
    folder = tmp_path / CHENNAI.name
    shutil.copytree(CHENNAI, folder)
    team = next(e for e in chennai_events(CHENNAI) if e.type == "TeamRegistered" and e.name == "Zimbabwe")
    first, second, third = team.players[:3]
    text = (folder / "rosters.csv").read_text(encoding="utf-8")
    for old, new in ((f'"{first.name}",{first.fide_id},', f'"Игрок, Первый",{first.fide_id},'),
                     (f'"{second.name}",{second.fide_id},', f'"{second.name.upper()} (ZIM)",{second.fide_id},'),
                     (f'"{third.name}",{third.fide_id},', f'"  {third.name.replace(", ", ",   ")} ",,')):
        assert text.count(old) == 1
        text = text.replace(old, new)
    (folder / "rosters.csv").write_text(text, encoding="utf-8")
    mine = next(e for e in chennai_events(folder) if e.type == "TeamRegistered" and e.name == "Zimbabwe")
    assert [(p.board_order, p.name, p.fide_id) for p in mine.players[:3]] == [
        (first.board_order, "Игрок, Первый", first.fide_id),
        (second.board_order, f"{second.name.upper()} (ZIM)", second.fide_id),
        (third.board_order, third.name.replace(", ", ",   "), None),
    ]


def test_name_key_meets_nfc_nfd_apostrophes_spaces_and_case() -> None:
    assert name_key("O’Gorman,  Tom") == name_key(unicodedata.normalize("NFD", "o'gorman, tom")) == "o'gorman, tom"
    assert name_key("D`Amico, Nicola") == name_key("D’Amico, Nicola") == name_key("Dʼamico, nicola")
    assert name_key("DAmico, Nicola") != name_key("D'Amico, Nicola")
    assert name_key(unicodedata.normalize("NFD", "Nguyễn")) == "nguyễn" and len(name_key("Nguyễn")) == 6


def test_a_team_named_with_a_curly_apostrophe_finds_its_federation() -> None:
    from producers.importers.federations import federation_of

    assert federation_of("Cote d’Ivoire") == federation_of("Cote d'Ivoire 2 ") == "CIV"
    with pytest.raises(ValueError, match="no FIDE federation code for 'Atlantis'"):
        federation_of("Atlantis 2")


def test_a_roster_player_without_a_game_is_refused_naming_the_line(tmp_path: Path) -> None:
    folder = tmp_path / CHENNAI.name
    shutil.copytree(CHENNAI, folder)
    with (folder / "rosters.csv").open("a", encoding="utf-8") as fh:
        fh.write('Zimbabwe,"Nobody, Never",99999999,,,0,\n')
    lines = (folder / "rosters.csv").read_text(encoding="utf-8").count("\n")
    with pytest.raises(ValueError, match=rf"^rosters.csv line {lines}: Nobody, Never \(Zimbabwe\) has no game in matches.json$"):
        chennai_events(folder)


def test_varied_samarkand_rosters_read_every_title_and_script_in_nfc(tmp_path: Path) -> None:
    renamed = varied_samarkand(tmp_path / "varied")
    events = samarkand_events(tmp_path / "varied")
    players = {p.name: p.title for e in events if e.type == "TeamRegistered" for p in e.players}
    for name, title in renamed.values():
        assert players[unicodedata.normalize("NFC", name)] == title.upper()  # "acm" is FIDE's ACM
    assert {"AGM", "AIM", "AFM", "ACM", "WGM", "WCM", "WFM", "NM"} <= set(players.values())
    boards = [e for e in events if e.type == "BoardResultRecorded"]
    names = {b.white for b in boards} | {b.black for b in boards}
    assert all(unicodedata.is_normalized("NFC", n) for n in names)  # the opponents' views were NFD
    assert {"丁立人", "عبد الله، محمد", "Непомнящий, Ян", "Παπαδόπουλος, Γιώργος", "आनंद, विश्वनाथन", "O’Gorman, Tom"} <= names
    assert title_note(registered_titles(events)) == (
        "2 players carry a title that is not a FIDE title code (kept as given): "
        f"NM ({events[1 + 120].team_id}: Ō’Connor, Seán; {events[1 + 180].team_id}: Þórsson, Ægir)")
    assert replay(events).rounds[11].digest == SAMARKAND_DIGEST


def test_a_feeds_loose_key_ignores_order_accents_and_punctuation_but_keeps_every_script() -> None:
    from schemas.names import loose_name_key

    assert loose_name_key("Vidit, Santosh Gujrathi") == loose_name_key("Santosh Gujrathi VIDIT")
    assert loose_name_key("Müller, Jörg") == loose_name_key("Jorg Muller") == "jorg muller"
    # letters of other scripts are kept: two Chinese (or Cyrillic) names do not meet as one empty key
    assert loose_name_key("丁立人") != loose_name_key("王皓") and loose_name_key("丁立人") == "丁立人"
    assert loose_name_key("Непомнящий, Ян") == loose_name_key("Ян Непомнящий") != loose_name_key("Карякин, Сергей")
