"""The bytes of a TRF file (issue 26, TRF): ``export-trf`` writes Latin-1 by default, what gacrux
reads with its default options, respelling what Latin-1 cannot hold (listed on stderr; the exact
text travels in the product's comments, so the round trip keeps the digest), or UTF-8 / cp1252 when
asked. ``import-trf`` reads UTF-8 (with or without BOM), Latin-1 and cp1252, detected or given, with
CR, LF or CRLF line ends and trailing blanks."""
from __future__ import annotations

import pytest
from typer.testing import CliRunner

from olympiad.cli import app as cli
from producers.importers.trf import TrfError, load_file, load_trf, read_text
from projections.eventlog import write_log
from projections.replay import replay
from projections.trf import render_trf
from projections.trf import records as rec
from projections.trf.encoding import decode_trf
from schemas import event_ids
from schemas.events import Player, TeamRegistered, TournamentCreated
from schemas.profile import OLYMPIAD_2022
from tests import factories as F
from tests.unit.test_trf_corpus import good


def log() -> list:
    """Four teams; "Côte d’Ivoire" (U+2019), a player "Żółć, Łukasz", a venue with an en dash; round 1 played."""
    def team(code: str, n: int, name: str, first: str) -> TeamRegistered:
        players = tuple(Player(board_order=i, name=first if i == 1 else f"{code} player {i}", rating=2200 - 10 * i) for i in range(1, 6))
        return TeamRegistered(event_id=event_ids.team(F.TID, code), tournament_id=F.TID, team_id=code, name=name, federation="ABC", players=players, pairing_number=n)

    created = TournamentCreated(event_id=event_ids.created(F.TID), tournament_id=F.TID, name="Open – Tbilisi", profile=OLYMPIAD_2022, venue="Tbilisi – Sheraton")
    return [created, team("CIV", 1, "Côte d’Ivoire", "Żółć, Łukasz"), team("GER", 2, "Deutschland", "Müller, Jörg"),
            team("C", 3, "Team C", "Player C"), team("D", 4, "Team D", "Player D"),
            F.paired(1, [("CIV", "GER"), ("C", "D")]), *F.match(1, 1, ("1-0", "1/2-1/2", "0-1", "1-0")), *F.match(1, 2, ("1/2-1/2",) * 4)]


RESPELLED = {"’": "'", "Ż": "Z", "ł": "l", "ć": "c", "Ł": "L", "–": "-"}


def test_latin1_by_default_with_the_respelled_characters_listed():
    trf = render_trf(log())
    assert (trf.encoding, trf.respelled) == ("latin-1", RESPELLED)
    text = trf.data().decode("latin-1")
    civ = next(line for line in text.split("\r") if line.startswith("310   1"))
    assert rec.field(civ, rec.TEAM_NAME) == "Côte d'Ivoire" and civ[71:73] == "  " and civ[73:77] == "   1"
    assert next(line for line in text.split("\r") if line.startswith("001    1"))[14:47].rstrip() == "Zólc, Lukasz"
    assert "Müller, Jörg" in text  # Latin-1 holds ü and ö: kept
    assert "022 Tbilisi - Sheraton" in text.split("\r")
    # The exact texts are in the comments (ASCII escapes), so the round trip keeps names and digest.
    events = load_trf(read_text(trf.data()))
    names = {e.team_id: (e.name, e.players[0].name) for e in events if e.type == "TeamRegistered"}
    assert names["CIV"] == ("Côte d’Ivoire", "Żółć, Łukasz") and events[0].name == "Open – Tbilisi" and events[0].venue == "Tbilisi – Sheraton"
    assert replay(events).rounds[1].digest == replay(log()).rounds[1].digest


def test_utf8_when_asked():
    trf = render_trf(log(), encoding="utf-8")
    assert trf.respelled == {}
    text = trf.data().decode("utf-8")
    civ = next(line for line in text.split("\r") if line.startswith("310   1"))
    assert rec.field(civ, rec.TEAM_NAME) == "Côte d’Ivoire" and civ[71:73] == "  "
    assert replay(load_trf(read_text(trf.data()))).rounds[1].digest == replay(log()).rounds[1].digest


def test_the_cli_warns_on_stderr_and_writes_latin1(tmp_path):
    path = tmp_path / "log.jsonl"
    write_log(path, log())
    out = tmp_path / "x.trf"
    done = CliRunner().invoke(cli, ["export-trf", str(path), str(out)])
    assert done.exit_code == 0, done.output
    assert "warning: latin-1 cannot hold 6 character(s)" in done.stderr and "’ (U+2019) as '" in done.stderr
    assert out.read_bytes() == render_trf(log()).data()
    done = CliRunner().invoke(cli, ["export-trf", str(path), str(tmp_path / "u.trf"), "--encoding", "utf-8"])
    assert done.exit_code == 0 and "warning" not in done.stderr
    assert "Côte d’Ivoire" in (tmp_path / "u.trf").read_bytes().decode("utf-8")
    done = CliRunner().invoke(cli, ["export-trf", str(path), str(tmp_path / "e.trf"), "--encoding", "ebcdic"])
    assert done.exit_code == 2 and "encoding 'ebcdic': TRF files are read and written as latin-1, cp1252, utf-8" in " ".join(done.stderr.split())


def named(text: str, apostrophe: str) -> str:
    """The corpus file (another program's) with team 1 named "Côte d<apostrophe>Ivoire" and its first player "Müller, Jörg"."""
    team = f"Côte d{apostrophe}Ivoire"
    return text.replace("Team 0001    ", team).replace("T1 player 1 ", "Müller, Jörg")


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "cp1252", "latin-1"])
@pytest.mark.parametrize("line_end", ["\r", "\n", "\r\n"])
def test_other_programs_files_in_every_encoding_and_line_end(encoding, line_end):
    apostrophe = "'" if encoding == "latin-1" else "’"
    text = line_end.join(line + "   " for line in named(good(), apostrophe).split("\r"))  # trailing blanks too
    data = text.encode(encoding)
    assert decode_trf(data)[1] == {"utf-8-sig": "utf-8"}.get(encoding, encoding)
    events = load_trf(read_text(data), "corpus")
    civ = next(e for e in events if e.type == "TeamRegistered" and e.pairing_number == 1)
    assert (civ.name, civ.players[0].name) == (f"Côte d{apostrophe}Ivoire", "Müller, Jörg")


def test_the_same_standings_whatever_the_bytes():
    digests = set()
    for encoding in ("utf-8", "utf-8-sig", "cp1252"):
        for line_end in ("\r", "\n", "\r\n"):
            text = line_end.join(line + "  " for line in named(good(), "’").split("\r"))
            digests.add(replay(load_trf(read_text(text.encode(encoding)), "corpus")).rounds[4].digest)
    assert len(digests) == 1


def test_an_encoding_given_is_used_and_wrong_bytes_are_refused_with_their_line(tmp_path):
    data = named(good(), "’").encode("cp1252")
    path = tmp_path / "x.trf"
    path.write_bytes(data)
    assert any(e.type == "TeamRegistered" and e.name == "Côte d’Ivoire" for e in load_file(path, "corpus", encoding="cp1252"))
    # Read as Latin-1, 0x92 is a control character: refused at its line and column.
    line = next(i for i, x in enumerate(good().split("\r"), start=1) if x.startswith("310   1"))
    with pytest.raises(TrfError, match=rf"^line {line}: record 310: column 15: U\+0092 is a control character"):
        load_file(path, "corpus", encoding="latin-1")
    player = next(i for i, x in enumerate(good().split("\r"), start=1) if x.startswith("001    1"))  # "Müller": ü is 0xFC
    with pytest.raises(TrfError, match=rf"^line {player}: byte 0xFC is not utf-8 text \[rule: TRF encodings\]$"):
        load_file(path, "corpus", encoding="utf-8")
    done = CliRunner().invoke(cli, ["import-trf", str(path), "--encoding", "utf-8", "--out", str(tmp_path / "x.jsonl")])
    assert done.exit_code == 2 and f"refused: line {player}: byte 0xFC is not utf-8 text [rule: TRF encodings]" in " ".join(done.stderr.split())
    done = CliRunner().invoke(cli, ["import-trf", str(path), "--out", str(tmp_path / "y.jsonl")])
    assert done.exit_code == 0, done.output
