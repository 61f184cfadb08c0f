"""The ``olympiad`` command line (typer + rich): thin glue over producers, processors, projections."""
