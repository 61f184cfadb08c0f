"""Versioned pydantic schemas of olympiad-events: events, rule profiles, read models.

Nothing here imports any other package of the project.
"""
