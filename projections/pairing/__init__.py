"""The pairing engine (issue 3): the proposed pairing of the next round under a rule profile.

``propose_pairing(history, profile, round)`` -> ``Pairing``; ``check_pairing`` validates a
published pairing; both by the profile's system (``systems``: the registry). One module per
step; see ``docs/pairing.md``.
"""
from projections.pairing.matching import NoLegalPairing
from projections.pairing.proposed import Pairing
from projections.pairing.systems import check_pairing, propose_pairing

__all__ = ["NoLegalPairing", "Pairing", "check_pairing", "propose_pairing"]
