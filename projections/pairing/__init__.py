"""The pairing engine (issue 3): the proposed pairing of the next round under a rule profile.

``propose_pairing(history, profile, round)`` -> ``Pairing``; ``check_pairing`` validates a
published pairing. One module per step; see ``docs/pairing.md``.
"""
from projections.pairing.engine import Pairing, propose_pairing
from projections.pairing.matching import NoLegalPairing

__all__ = ["NoLegalPairing", "Pairing", "propose_pairing"]
