"""Standings after any round: MP, the profile's tie-breaks (each with its per-opponent breakdown), GP.

Modules, one tie-break family each: ``elements`` (one element per round and the unplayed-round
policies), ``cut`` (cut-1), ``sonneborn_berger`` (Olympiad SB), ``buchholz`` (opponents' MP),
``ranking`` (order and shared places).
"""
from projections.standings.ranking import StandingRow, compute_standings, standings_document

__all__ = ["StandingRow", "compute_standings", "standings_document"]
