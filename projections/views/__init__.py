"""The read side's views: plain-JSON documents computed once from the tournament state and its
standings, shown alike by the web app (API, pages, stream) and the CLI.

- ``snapshot``: ``Snapshot`` (the state and the standings after each round) that every view reads;
- ``refs``: team references, the table of a round, ``NotFound``;
- ``matches``: a table's boards and match score, a round's pairing, a preview, the rounds' progress;
- ``standings``: standings rows with the key that decides each place, the public scoreboard;
- ``explanation``: which key (MP, a tie-break of the profile, the starting number) separates two teams;
- ``teams``: a team's page;
- ``tournament``: the tournament's summary and the arbiter's view (what the arbiter page shows).

Points are decimal strings ("2.5"). A lookup of what does not exist raises ``refs.NotFound``.
"""
