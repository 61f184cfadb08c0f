"""The character encoding of a TRF file, both directions: ``transliterate`` for the exporter (what
the encoding cannot hold is respelled), ``decode_trf`` for the importer.

TRF-2026 names no encoding. gacrux 1.11.65, the FIDE TEC reference checker, reads a file as
Latin-1 unless run with ``-b utf-8``; Swiss-Manager writes Windows-1252 (cp1252), Sharly Chess and
this product's ``--encoding utf-8`` UTF-8 (docs/trf.md: which tool reads what). Columns are counted
in characters, so a file read in another encoding than it was written in shifts its fields.
"""
from __future__ import annotations

import unicodedata

ENCODINGS = ("latin-1", "cp1252", "utf-8")
"""The encodings ``export-trf`` writes and ``import-trf`` reads (``--encoding``)."""

_ALIASES = {"latin-1": "latin-1", "latin1": "latin-1", "iso-8859-1": "latin-1", "iso8859-1": "latin-1",
            "cp1252": "cp1252", "windows-1252": "cp1252", "utf-8": "utf-8", "utf8": "utf-8", "utf-8-sig": "utf-8"}

# Characters outside Latin-1 that have a usual Latin-1 spelling (typographic punctuation); letters
# with diacritics outside Latin-1 lose the diacritic (NFKD), anything else becomes "?".
_SPELLING = {
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'", "\u02bc": "'", "\u02bb": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u2033": '"',
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2212": "-",
    "\u2026": "...", "\u2022": "*", "\u0131": "i", "\u0141": "L", "\u0142": "l", "\u0110": "D", "\u0111": "d",
    "\u0152": "OE", "\u0153": "oe", "\u0126": "H", "\u0127": "h",
}


def encoding_name(name: str) -> str:
    """The canonical name (one of ``ENCODINGS``) of ``name``. Raises ``ValueError`` for another."""
    canonical = _ALIASES.get(name.strip().lower())
    if canonical is None:
        raise ValueError(f"encoding {name!r}: TRF files are read and written as {', '.join(ENCODINGS)} [rule: TRF encodings]")
    return canonical


def spelled(ch: str, encoding: str) -> str:
    """``ch`` as ``encoding`` can hold it: itself, its usual spelling, its letter without diacritics, or ``?``."""
    try:
        ch.encode(encoding)
        return ch
    except UnicodeEncodeError:
        pass
    if ch in _SPELLING:
        return _SPELLING[ch]
    base = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
    try:
        base.encode(encoding)
        return base if base else "?"
    except UnicodeEncodeError:
        return "?"


def transliterate(text: str, encoding: str = "latin-1") -> tuple[str, dict[str, str]]:
    """(``text`` with every character ``encoding`` cannot hold respelled, {character: its spelling}).
    Column positions are kept by the caller: it transliterates a field before placing it."""
    if encoding == "utf-8" or text.isascii():
        return text, {}
    changed: dict[str, str] = {}
    out = []
    for ch in text:
        new = spelled(ch, encoding)
        if new != ch:
            changed[ch] = new
        out.append(new)
    return "".join(out), changed


def decode_trf(data: bytes, encoding: str | None = None) -> tuple[str, str]:
    """(text, encoding read) of a TRF file's bytes: ``encoding`` when given, else detected: UTF-8
    (with or without a byte-order mark) when the bytes are valid UTF-8, else cp1252 when they hold a
    byte 0x80-0x9F that cp1252 defines (Latin-1 has only control characters there), else Latin-1.
    Raises ``ValueError`` naming the line and the byte when the bytes are not text in ``encoding``."""
    if encoding is not None:
        name = encoding_name(encoding)
        try:
            return data.decode("utf-8-sig" if name == "utf-8" else name), name
        except UnicodeDecodeError as exc:
            line = data[: exc.start].count(b"\n") + data[: exc.start].replace(b"\r\n", b"\n").count(b"\r") + 1
            raise ValueError(f"line {line}: byte 0x{data[exc.start]:02X} is not {name} text [rule: TRF encodings]") from None
    try:
        return data.decode("utf-8-sig"), "utf-8"
    except UnicodeDecodeError:
        pass
    if any(0x80 <= b <= 0x9F for b in data):
        try:
            return data.decode("cp1252"), "cp1252"
        except UnicodeDecodeError:
            pass
    return data.decode("latin-1"), "latin-1"
