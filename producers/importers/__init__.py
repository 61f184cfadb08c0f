"""Importers: one module per source format, each turning a data folder into a list of events."""
