"""Signals other apps may listen to (apps above collector cannot be imported from here)."""
from django.dispatch import Signal

# A round's credit changed: sent with ``round_id`` and ``user_ids`` (the authors concerned, or None for
# every student of the round), from inside the transaction that changed it. Listeners that start
# work (the LTI grade passback) enqueue it with transaction.on_commit.
credit_changed = Signal()
