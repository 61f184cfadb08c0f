"""Projections: pure read-model logic (standings, pairing) and its adapters (SQL, replay)."""
from projections import event_rules  # noqa: F401  (registers the event rules that need the engines)
