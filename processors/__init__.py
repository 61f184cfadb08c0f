"""Stream processors: board results -> match results (pure fold + faust adapter)."""
