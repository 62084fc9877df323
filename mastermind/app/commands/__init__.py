"""The CLI's commands, one module per topic; each module has ``register(app)``."""
