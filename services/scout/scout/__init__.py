"""The scout bounded context."""
