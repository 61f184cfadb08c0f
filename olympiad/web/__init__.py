"""The live web app: a FastAPI read/write API, a standings stream and the scoreboard/entry pages.

Modules, one job each: ``app`` (the FastAPI factory and routes), ``backend`` (what a deployment
provides: the embedded store now, Kafka later), ``embedded`` (the embedded-store backend),
``broadcast`` (fan-out of standings updates to stream subscribers), ``auth`` (terminal tokens and
their scopes), ``views`` (JSON views of the tournament state), ``models`` (the documented API
shapes), ``preload`` (a source cut after round N). Pages are plain HTML + JS in ``static/``.
"""
