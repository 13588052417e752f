"""REST gateway: no domain logic and no database."""
