"""Data no test has seen, derived from the shipped data folders into a test's tmp_path (never committed).

``varied_samarkand`` copies the Samarkand 2026 Open folder with the players of five teams renamed
and retitled: Arena titles (AGM AIM AFM ACM), women's titles, a national title that is not a FIDE
code (NM), names in Arabic, CJK, Cyrillic, Greek and Devanagari, diacritics, curly and straight
apostrophes; the round files name the renamed players as the roster does, but the opponent's view
of a board spells a name decomposed (NFD), as another keyboard or scraper would. Results, teams
and team names are unchanged, so the standings digest is the shipped data's.

``reencoded`` writes a folder's text files in another encoding and with other line ends.
"""
from __future__ import annotations

import json
import shutil
import unicodedata
from pathlib import Path

SHARED = Path(__file__).resolve().parents[1] / ".." / "shared" / "data"
SAMARKAND = SHARED / "samarkand-2026-open"
CHENNAI = SHARED / "olympiad-2022-chennai-open"
SAMARKAND_DIGEST = "ead914151892446a1f353a407cf91b571d7cf649e8cb7a430b3f8d01cdd094c8"  # round 11, docs/cli.md

# The players of five teams (by place in the start list), board order 1-5: (name, title).
RENAMED: dict[int, list[tuple[str, str]]] = {
    3: [("丁立人", "GM"), ("韦奕", "GM"), ("卜祥志", "WGM"), ("李超", "AGM"), ("王皓", "AIM")],
    46: [("Nguyễn Ngọc Trường Sơn", "GM"), ("Lê Quang Liêm", "IM"), ("Trần Tuấn Minh", "AFM"),
         ("O’Gorman, Tom", "ACM"), ("D'Amico, Nicola", "WCM")],
    120: [("عبد الله، محمد", "ACM"), ("الأحمد، يوسف", "AFM"), ("بن علي، أمين", "AIM"), ("حسن، عمر", "AGM"),
          ("Ō’Connor, Seán", "NM")],
    150: [("Непомнящий, Ян", "GM"), ("Παπαδόπουλος, Γιώργος", "FM"), ("आनंद, विश्वनाथन", "CM"),
          ("Müller, Jürgen", "ACM"), ("Ðorđević, Željko", "WFM")],
    180: [("Smith’s, Ann", "acm"), ("Łukasz, Żółć", "AFM"), ("Øre, Åse", ""), ("Çelik, Şükrü", "AIM"),
          ("Þórsson, Ægir", "NM")],
}


def _dump(value: object) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)  # as the shipped files are written


def varied_samarkand(dest: Path) -> dict[str, tuple[str, str]]:
    """Write the varied copy of the Samarkand folder to ``dest``; return old name -> (new name, title)."""
    shutil.copytree(SAMARKAND, dest)
    raw = dest / "raw"
    rosters = json.loads((raw / "rosters.json").read_text(encoding="utf-8"))
    everyone = [p["name"] for t in rosters["teams"] for p in t["players"]]
    renamed: dict[str, tuple[str, str]] = {}
    for place, players in RENAMED.items():
        team = rosters["teams"][place]
        for p, (name, title) in zip(sorted(team["players"], key=lambda p: p["order"]), players):
            assert everyone.count(p["name"]) == 1, f"{p['name']} is not one player's name"
            renamed[p["name"]] = (name, title)
            p["name"], p["title"] = name, title
    (raw / "rosters.json").write_text(_dump(rosters), encoding="utf-8")
    for path in sorted(raw.glob("round*.json")):
        rows = json.loads(path.read_text(encoding="utf-8"))
        for row in rows:
            for b in row.get("boards", []):
                if b["player"] in renamed:
                    b["player"], b["playerTitle"] = renamed[b["player"]]
                if b["opponent"] in renamed:
                    name, b["opponentTitle"] = renamed[b["opponent"]]
                    b["opponent"] = unicodedata.normalize("NFD", name)
        path.write_text(_dump(rows), encoding="utf-8")
    return renamed


def single_byte(text: str) -> str:
    """The single-byte encoding of ``text``: Latin-1 where every character has a Latin-1 byte, else cp1252."""
    try:
        text.encode("latin-1")
        return "latin-1"
    except UnicodeEncodeError:
        return "cp1252"


def reencoded(src: Path, dest: Path, encoding: str, newline: str, trailing: str = "") -> Path:
    """Copy the folder ``src`` to ``dest`` with every ``.json``/``.csv`` file written in ``encoding``
    ("single-byte": ``single_byte``), lines ending in ``newline``, each line followed by ``trailing``."""
    shutil.copytree(src, dest)
    for path in sorted(dest.rglob("*")):
        if path.suffix not in (".json", ".csv"):
            continue
        text = path.read_text(encoding="utf-8")
        lines = text.replace("\r\n", "\n").split("\n")
        text = newline.join(line + trailing for line in lines)
        path.write_bytes(text.encode(single_byte(text) if encoding == "single-byte" else encoding))
    return dest
