"""The mail edge: envelope extraction from raw messages, IMAP in, SMTP out."""
