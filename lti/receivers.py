"""Signal receivers of the lti app (filled in with the grade passback)."""
