"""Settings for running the product on one machine (scripts/start.sh)."""
from config.settings.base import *  # noqa: F403
