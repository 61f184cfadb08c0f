"""The documented shapes of the HTTP API (request bodies and responses), for the OpenAPI schema.

Units: MP are integers (R-D3: 2/1/0), GP and GP-derived tie-breaks are decimal strings in
half-points ("2.5"); result codes are White-Black (``schemas.events.RESULT_CODES``); board 1's
White is the home team (R-D4).
"""
from __future__ import annotations

from typing import Literal, Optional

from pydantic import BaseModel, ConfigDict, Field

from schemas.limits import MAX_TEAM_FILE_BYTES


# ---------------------------------------------------------------------- errors
class Refusal(BaseModel):
    """Why a request was refused; nothing was stored or published."""

    detail: str = Field(description="what is wrong and what to do")
    field: Optional[str] = Field(None, description="the offending field, when one is to blame")
    rule: Optional[str] = Field(None, description="the rule broken (tournament rule, schema or access rule)")
    event_id: Optional[str] = Field(None, description="the event refused, for rule violations")


# ---------------------------------------------------------------------- reads
class TeamRef(BaseModel):
    """A team as other shapes name it: id, name, federation and pairing number."""

    team_id: str
    name: str
    federation: str
    pairing_number: int = Field(description="starting number (SNo), R-I1")


class Tournament(BaseModel):
    """The tournament served (GET /api/tournaments/{tid}): its profile, schedule and what a client needs to
    show it."""

    tournament_id: str
    name: str
    profile: str = Field(description="rule profile name (schemas.profile)")
    tiebreaks: list[str] = Field(description="tie-breaks after MP, in order")
    columns: list[Column] = Field(description="standings columns in order (the CLI's and the page's)")
    boards: int
    rounds: int = Field(description="rounds scheduled")
    paired_rounds: list[int]
    current_round: int = Field(description="the last paired round (its standings are live)")
    teams: int
    result_codes: list[str] = Field(description="board result codes, White-Black")


class RoundInfo(BaseModel):
    """One paired round: how many of its tables (matches) have all four board results in."""

    round: int
    tables: int
    tables_complete: int
    complete: bool


class Board(BaseModel):
    """One board of a match: the team ids with White and Black and the result, if in."""

    board: int
    white: str = Field(description="team id with White on this board")
    black: str
    result: Optional[str] = Field(None, description="White-Black code, null while not in")
    event_id: Optional[str] = Field(None, description="the event that set the current result (a correction names it)")


class Match(BaseModel):
    """One table of a round: both teams, the game points so far (half-points, "2.5"), the match points once
    complete (R-D3: 2/1/0), and its boards."""

    round: int
    table: int
    home: TeamRef = Field(description="White on board 1")
    away: TeamRef
    home_gp: str
    away_gp: str
    home_mp: Optional[int] = Field(None, description="MP once all boards are in")
    away_mp: Optional[int] = None
    boards_in: int
    complete: bool
    boards: list[Board]


class Pairings(BaseModel):
    """A round's published pairing: its tables in order, the team with the pairing-allocated bye (PAB) and the
    absent teams."""

    round: int
    complete: bool
    tables: list[Match]
    bye: Optional[TeamRef] = None
    absent: list[TeamRef]


class Element(BaseModel):
    """One round's tie-break element (projections.standings.elements)."""

    round: int
    opponent: Optional[str] = Field(None, description="null for a round without an opponent")
    opponent_mp: int
    own_gp: str
    osb_term: str = Field(description="opponent_mp x own_gp")
    unplayed: bool
    cut: bool = Field(description="the element cut-1 leaves out")


class Record(BaseModel):
    """Matches against an opponent won, drawn and lost (forfeited matches too; the PAB is not a match here)."""

    won: int
    drawn: int
    lost: int


class Byes(BaseModel):
    """A team's pairing-allocated byes (PAB), display only (not in the digested document): the rounds,
    the MP they scored, and the record column they count as by those MP under the profile."""

    rounds: list[int] = Field(description="the rounds in which the team had the PAB")
    mp: int = Field(description="the MP the PABs scored (the profile's bye_award.mp each)")
    counted_as: str = Field(description='"won", "drawn" (1 MP under the Olympiad profiles), "lost", or "<n> MP"')


class Column(BaseModel):
    """One standings column: the row field (or tie-break) it shows and its heading."""

    key: str = Field(description="row field (rank, pairing_number, name, federation, games, won, drawn, lost, mp) "
                                 "or tie-break name")
    label: str = Field(description="column heading as chess-results prints it (Rk, SNo, Team, Fed, Games, +, =, -, MP, ...)")


class ScoreboardRow(BaseModel):
    """One team's line of the standings: rank, MP (integer), GP and tie-break values (decimal strings, half-
    points)."""

    rank: int = Field(description="shared places repeat the rank (1, 2, 2, 4)")
    pairing_number: int
    team_id: str
    name: str
    federation: str
    mp: int
    gp: str
    tiebreaks: dict[str, str] = Field(description="tie-break name -> value")
    record: Record
    byes: Optional[Byes] = Field(default=None, description="the team's PABs, display only: shown in the record column "
                                 "they count as (projections.views.standings.with_byes)")


class StandingRow(ScoreboardRow):
    """A standings line with the per-round elements its tie-breaks sum (Sonneborn-Berger, Buchholz, their
    cut-1)."""

    breakdown: list[Element] = Field(description="per-round, per-opponent elements the tie-breaks sum")
    decided_by: Optional[str] = Field(default=None, description='the key that puts the row below the row above ("MP", a '
                                      'tie-break, or "equal on every key, shared place"); none for the first row')


class RoundStatus(BaseModel):
    """What a table of a round is: official (the round is closed), complete (every match decided) or
    provisional (``decided`` of ``tables`` matches decided); ``label`` in words."""

    round: int
    status: Literal["official", "complete", "provisional"]
    decided: int
    tables: int
    label: str


class Standings(BaseModel):
    """The standings after a round (GET .../standings/{round}), with the digest `olympiad replay` prints."""

    tournament_id: str
    round: int
    profile: str
    complete: bool = Field(description="false while matches of the round are still in progress")
    digest: str = Field(description="SHA-256 of the canonical standings document (same as `olympiad replay`)")
    tiebreaks: list[str]
    columns: list[Column] = Field(description="the columns in order (the CLI's and the page's)")
    status: RoundStatus
    title: str = Field(description="the table's heading: official, complete or provisional with N of M matches")
    rows: list[StandingRow]


class Scoreboard(BaseModel):
    """What the public scoreboard shows: never a tie-break moved by an unplayed match."""

    round: int = Field(description="the last paired round")
    based_on: int = Field(description="the last complete round the table builds on (0: none)")
    decided: int = Field(description="matches of `round` decided (complete)")
    tables: int = Field(description="matches of `round`")
    provisional: bool = Field(description="true while some, not all, matches of `round` are in")
    label: str = Field(description='"Standings after round 10" or "Provisional standings, round 11: 3 of 103 matches"')
    digest: Optional[str] = Field(description="SHA-256 of the table's canonical standings document")
    columns: list[Column] = Field(description="the columns in order (the CLI's and the page's)")
    closed_rounds: list[int] = Field(description="rounds whose official standings exist (/standings/{round})")
    rows: list[ScoreboardRow]


class PlayerRef(BaseModel):
    """A player as other shapes name it: id (``<team id>.<board order>``), name, title, rating."""

    player_id: str
    name: str
    title: str = ""
    rating: Optional[int] = None


class Performance(BaseModel):
    """A rating performance: Rp = Ra + dp (FIDE B.02), over the games played against rated opponents."""

    rating: int = Field(description="Rp")
    average: int = Field(description="Ra: the opponents' average rating, rounded")
    percentage: str = Field(description="p: points / games, in hundredths")
    dp: int
    games: int
    points: str


class PlayerLine(BaseModel):
    """A player's results: score of every game (forfeits included), games, games played over the
    board, boards played, nominated board (the roster's order; 5 the reserve), rating performance."""

    player_id: str
    team: TeamRef
    name: str
    title: str = ""
    fide_id: Optional[str] = None
    rating: Optional[int] = None
    nominated_board: Optional[int] = None
    score: str
    games: int
    played: int
    boards: list[int]
    performance: Optional[Performance] = None


class PlayersPage(BaseModel):
    """Every player's results through the last paired round (GET .../players)."""

    round: int
    status: RoundStatus
    rows: list[PlayerLine]


class PlayerGame(BaseModel):
    """One game of a player: where, colour, the opposing team and player, result code (White-Black), points."""

    round: int
    table: int
    board: int
    colour: Optional[Literal["W", "B"]] = Field(None, description="null where the source does not know the colours")
    opponent_team: TeamRef
    opponent: Optional[PlayerRef] = None
    result: str
    points: str
    played: bool = Field(description="false for a forfeit: no game for the rating performance")


class PlayerCard(PlayerLine):
    """A player's card (GET .../players/{player}): the line and every game."""

    rounds: list[PlayerGame]
    status: RoundStatus


class PrizeLine(PlayerLine):
    """A line of a board-prize table: place (a shared place repeats it) and the player's line."""

    rank: int


class PrizeBoard(BaseModel):
    """The table of one nominated board (``reserve``: the board of the reserve)."""

    board: int
    reserve: bool
    rows: list[PrizeLine]


class Prizes(BaseModel):
    """The board prizes (GET .../prizes): what ``olympiad prizes SOURCE --json`` prints."""

    round: int
    status: RoundStatus
    min_games: int = Field(description="games played over the board a player needs (the profile's board_prize_min_games)")
    rule: str
    boards: list[PrizeBoard]


class TerminalScope(BaseModel):
    """What a token's holder may enter (GET .../terminals/me)."""

    terminal_id: str
    role: str
    tables: Optional[list[int]] = Field(None, description="null: every table")
    corrections: bool
    forfeits: bool


class BoardOfTeam(BaseModel):
    """One board of a team's match, from the team's side: its colour, the result code (White-Black),
    the team's player and the opponent (None when not known)."""

    board: int
    colour: Literal["W", "B"]
    result: Optional[str] = None
    player: Optional[PlayerRef] = None
    opponent: Optional[PlayerRef] = None


class TeamRound(BaseModel):
    """What one round gave a team: its opponent and colour, game points (half-points) and match points, its
    rank after."""

    round: int
    table: Optional[int] = None
    kind: str = Field(description="played, forfeit-win, forfeit-loss, forfeit-draw, bye, absent, pending")
    opponent: Optional[TeamRef] = None
    colour: Optional[Literal["W", "B"]] = Field(None, description="colour on board 1, when known")
    gp: str
    mp: Optional[int] = None
    boards: list[BoardOfTeam]
    rank_after: Optional[int] = Field(None, description="rank in the standings after this round")
    mp_after: Optional[int] = None


class Player(BaseModel):
    """A nominated player: board order fixed at nomination (R-D1), board 5 the reserve."""

    board_order: int
    name: str
    fide_id: Optional[str] = None
    title: str = ""
    rating: Optional[int] = None


class TeamPage(TeamRef):
    """A team's page: its roster, each player's results, its average rating and every round from its side."""

    average_rating: int = Field(description="R-I1: the average of the best 4 ratings, unrated at the profile's floor")
    players: list[Player]
    results: list[PlayerLine]
    withdrawn_from_round: Optional[int] = None
    rounds: list[TeamRound]
    status: Optional[RoundStatus] = Field(None, description="what the last paired round's tables are")


class Step(BaseModel):
    """One criterion of a comparison of two teams, in ranking order, with both values."""

    criterion: str = Field(description="MP, a tie-break name, or SNo")
    a: str
    b: str
    equal: bool


class Term(BaseModel):
    """One round's contribution to the tie-break that separates two teams."""

    round: int
    opponent: Optional[str] = None
    opponent_mp: int
    own_gp: str
    term: str = Field(description="this round's contribution to the deciding tie-break")
    cut: bool
    unplayed: bool


class Comparison(BaseModel):
    """Why one team is placed above another (GET .../standings/{round}/compare): the criteria in order up to
    the first that differs."""

    round: int
    a: str
    b: str
    ahead: str = Field(description="the team placed higher")
    decided_by: str = Field(description="the first criterion on which they differ")
    steps: list[Step]
    explanation: str
    terms: dict[str, list[Term]] = Field(description="team id -> per-round terms of the deciding tie-break")


class Preview(BaseModel):
    """The match score a set of board results would give (nothing is stored): game points (half-points) and
    match points once complete."""

    round: int
    table: int
    home: str
    away: str
    home_gp: str
    away_gp: str
    home_mp: Optional[int] = None
    away_mp: Optional[int] = None
    boards_in: int
    complete: bool


# ---------------------------------------------------------------------- writes
class Body(BaseModel):
    """A request body: a key it does not know is refused with the key named (a misspelt
    ``reason`` would otherwise be dropped without a word)."""

    model_config = ConfigDict(extra="forbid")


class BoardEntry(Body):
    """One board's result as a terminal enters it; a forfeit code (+/-, -/+, -/-) takes its reason (zero
    tolerance: late arrival, refused handshake)."""

    board: int = Field(description="1..4")
    result: str = Field(description="White-Black code: 1-0, 0-1, 1/2-1/2, +/-, -/+, -/- (forfeits)")
    reason: Optional[str] = Field(None, description="a forfeit's note (needed for the reason 'other')")
    forfeit: Optional[Literal["late-arrival", "handshake-refusal", "absence", "other"]] = Field(
        None, description="why a forfeit (default: other)")


class ResultsIn(Body):
    """Body of POST .../tables/{table}/results: one to four boards of the table, each entered once (a change is
    a correction)."""

    boards: list[BoardEntry] = Field(min_length=1, description="one to four boards of the table")


class CorrectionIn(Body):
    """Body of POST .../tables/{table}/corrections: a stored board result replaced, with the reason (the chief
    arbiter's command)."""

    board: int
    result: str
    reason: str = Field(description="why the stored result is wrong (required)")


class ForfeitIn(Body):
    """Body of POST .../tables/{table}/forfeit: a whole match forfeited (every board to the winner, or lost by
    both)."""

    winner: Optional[str] = Field(description="team id that wins every board by default; null: both forfeit")
    reason: str = Field("", description="a note on the forfeit")
    forfeit: Optional[Literal["late-arrival", "handshake-refusal", "absence", "other"]] = Field(
        None, description="why (default: absence)")


class PreviewBoard(Body):
    """One board of a preview: board number and result code."""

    board: int
    result: str


class PreviewIn(Body):
    """Body of POST .../tables/{table}/preview: the boards to score."""

    boards: list[PreviewBoard]


class Written(BaseModel):
    """The answer to an accepted write: the events stored and the match as it now stands."""

    accepted: int = Field(description="events newly stored (a repeated event id counts 0)")
    event_ids: list[str]
    terminal_id: str
    match: Match


class TerminalIn(Body):
    """Body of POST .../terminals: a result-entry terminal and the tables its token may enter."""

    terminal_id: str = Field(pattern=r"^[A-Za-z0-9._-]{1,60}$")
    tables: Optional[list[int]] = Field(None, description="table numbers (any round); null: the whole tournament")


class IssuedToken(BaseModel):
    """A terminal's new token (the earlier one of the same terminal stops working)."""

    terminal_id: str
    tables: Optional[list[int]] = None
    token: str = Field(description="shown once; send as 'Authorization: Bearer <token>'")


class TerminalInfo(BaseModel):
    """A token as the chief arbiter lists it (never the token itself)."""

    terminal_id: str
    tables: Optional[list[int]] = None
    chief: bool
    revoked: bool
    issued_at: str


# ---------------------------------------------------------------------- teams
class ImportIn(Body):
    """A team file's text: CSV (one row per player, docs/arbiter.md) or TRF-2026 team records."""

    text: str = Field(max_length=MAX_TEAM_FILE_BYTES)
    filename: str = Field("", max_length=200, description="its name: *.trf is read as TRF")


class CaptainIn(Body):
    """The team whose captain gets a token."""

    team_id: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$")


class CaptainToken(BaseModel):
    """A captain's token, shown once: it submits its team's line-up for the round to pair."""

    team_id: str
    terminal_id: str
    token: str = Field(description="shown once; send as 'Authorization: Bearer <token>'")
