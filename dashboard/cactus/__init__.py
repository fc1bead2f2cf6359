"""cactus."""
