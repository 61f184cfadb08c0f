"""Producers: importers, result-entry terminals, arbiter commands, simulators."""
