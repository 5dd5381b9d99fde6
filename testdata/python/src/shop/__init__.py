"""Shop: a tiny web shop."""

from . import helpers as helpers
from .app import App as App
from .store import MemoryStore as MemoryStore
