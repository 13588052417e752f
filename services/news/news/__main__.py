"""`python -m news server|worker|migrate|relay`."""

from news.app import SERVICE


def main() -> None:
    SERVICE.main()


if __name__ == "__main__":
    main()
