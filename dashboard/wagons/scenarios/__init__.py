"""The Lone Cowboy scenarios page (`page`) and its simulated games (`rows`)."""
