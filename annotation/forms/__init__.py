"""Forms of the annotation pages, one module per concern."""
