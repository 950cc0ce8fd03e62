"""The service layer: processing messages, deadlines and the moderator's admin work."""
