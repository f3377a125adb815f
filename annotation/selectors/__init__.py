"""Reads of the annotation app (selectors read, services write), one module per concern."""
