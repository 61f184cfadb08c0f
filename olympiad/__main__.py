"""``python -m olympiad``: the same as the ``olympiad`` console script."""
from olympiad.cli import app

app(prog_name="olympiad")
