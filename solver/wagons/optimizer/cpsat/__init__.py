"""cpsat."""
