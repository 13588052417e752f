"""NewsEvents: the news event log read from a position."""
