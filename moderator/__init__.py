"""A play-by-email moderator for the board game Puerto Rico."""

__version__ = "0.1.0"
