"""The pure Puerto Rico rules engine: no mail, no SQL, no templates."""
