"""The news bounded context."""
