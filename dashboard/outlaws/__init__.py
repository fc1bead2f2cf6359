"""outlaws."""
