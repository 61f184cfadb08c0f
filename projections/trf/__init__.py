"""TRF-2026 (FIDE Tournament Report File) with team records: the fixed-column layout and the exporter.

``records`` holds the column layout shared by the writer and the reader (``producers.importers.trf``);
``export`` turns an event log into TRF text (``export_trf``). Layouts: ../shared/spec/trf.md and
../shared/spec/trf-teams.md (TRF-2026 team part, gacrux 1.11.65 reader offsets).
"""
from projections.trf.export import TrfHeader, export_trf

__all__ = ["TrfHeader", "export_trf"]
