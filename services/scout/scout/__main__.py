"""`python -m scout server|worker|migrate|relay`."""

from scout.app import SERVICE


def main() -> None:
    SERVICE.main()


if __name__ == "__main__":
    main()
