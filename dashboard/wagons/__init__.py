"""wagons."""
