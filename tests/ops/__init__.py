"""Running it like a service: health, readiness, metrics, drain, surviving the database."""
