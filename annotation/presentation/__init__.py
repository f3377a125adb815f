"""What the annotation pages and APIs show, built from what the selectors read: plain-dict payloads of
sessions and questions (``sessions``) and the dashboard's charts (``stats``). No reads or writes of
their own beyond the selectors they call."""
