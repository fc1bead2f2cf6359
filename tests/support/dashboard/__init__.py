"""What the dashboard tests share: the browser tests' Chromium and waits (`browser`, `wagons_browser`), the AppTests'
helpers (`apptest`) and their private stores (`kept`)."""
