"""The timeline bounded context."""
