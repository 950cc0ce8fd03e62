"""Game pages and archives for readers: the game record, the log, the web pages."""
