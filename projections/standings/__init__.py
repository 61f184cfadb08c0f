"""Standings after any round: MP, the profile's tie-breaks (each with its per-opponent breakdown), GP.

Modules, one tie-break family each: ``elements`` (the Olympiad's elements per round and unplayed-round
policies), ``cut`` (the Olympiad's cut-1), ``sonneborn_berger`` (Olympiad SB; C.07 EMMSB/EMGSB/EGMSB/
EGGSB), ``buchholz`` (opponents' MP; C.07 BH and FB on MP or GP), ``direct_encounter`` (C.07 DE, EDE and
its variants), ``board_count`` (BC, TBR, BBE), ``sssc`` (SSSC), ``wins`` (WIN), ``modifiers`` (C.07
cut/median with 16.5), ``unplayed_rounds`` (C.07 art. 16), ``catalogue`` (a C.07 code -> its value),
``ranking`` (order and shared places), ``decided_by`` (the key between neighbouring rows).
"""
from projections.standings.ranking import StandingRow, compute_standings, standings_document

__all__ = ["StandingRow", "compute_standings", "standings_document"]
