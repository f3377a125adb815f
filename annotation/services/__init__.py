"""Writes of the annotation app (services write, selectors read), one module per concern."""
