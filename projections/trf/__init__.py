"""TRF-2026 (FIDE Tournament Report File) with team records: the fixed-column layout and the exporter.

``records`` holds the column layout shared by the writer and the reader (``producers.importers.trf``);
``export`` turns an event log into TRF text (``export_trf``, ``render_trf``); ``encoding`` reads and
writes its bytes (Latin-1, cp1252, UTF-8). Layouts: ../shared/spec/trf.md and
../shared/spec/trf-teams.md (TRF-2026 team part, gacrux 1.11.65 reader offsets).
"""
from projections.trf.export import TrfFile, TrfHeader, TrfLimitError, export_trf, render_trf

__all__ = ["TrfFile", "TrfHeader", "TrfLimitError", "export_trf", "render_trf"]
