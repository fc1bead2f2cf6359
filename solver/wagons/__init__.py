"""Circle the Wagons: Lone Cowboy."""
