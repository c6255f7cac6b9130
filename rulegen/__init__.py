"""rulegen: Criss Cross Poker rules submissions from one offering file."""

__version__ = "0.1.0"
