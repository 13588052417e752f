"""`python -m timeline server|worker|migrate|relay`."""

from timeline.app import SERVICE


def main() -> None:
    SERVICE.main()


if __name__ == "__main__":
    main()
