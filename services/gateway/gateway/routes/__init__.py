"""REST routes, one module per context."""
