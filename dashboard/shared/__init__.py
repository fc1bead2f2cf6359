"""Parts every page of the dashboard shares."""
