"""FIDE Swiss Team Pairing System, C.04.6 (2026 edition, in force from 1 February 2026).

One module per part of the text: ``teams`` (the teams to pair, art. 1), ``preferences``
(colour preferences Type A / Type B / none, art. 1.7), ``criteria`` (the quality criteria
[C8]-[C10] of a pair and the pairing of one bracket, art. 2.3 and 3.6), ``brackets`` (the PAB,
art. 3.4; the set of upfloaters, art. 3.5 with [C3]-[C7]), ``colours`` (the colour allocation,
art. 4) and ``engine`` (the round, art. 3.3.2). The registry of pairing
systems (``projections.pairing.systems``) hands every profile with ``swiss_team`` set to
``engine.propose_swiss_team`` and ``check.check_swiss_team``.
"""
