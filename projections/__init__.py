"""Projections: pure read-model logic (standings, pairing) and its adapters (SQL, replay)."""
