"""A live game feed's door (issue 29): sources that are polled for whole games (PGN in a folder or
at a URL, a lichess broadcast stream, DGT LiveChess Cloud JSON), read with python-chess into
snapshots (``schemas.game_commands.FeedGame``), and the ingester that sends each changed game as a
``ReportGame`` command through a door (embedded or Kafka). No rule here: the decider
(``processors.deciders.games``) maps, judges and flags. See ``docs/feeds.md``."""
