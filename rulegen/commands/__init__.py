"""One module per command; each defines `register(app)`. Heavy imports stay inside the command body."""
