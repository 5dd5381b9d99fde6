from __future__ import annotations

import os

from . import helpers
from .helpers import url_for
from .sansio.scaffold import Scaffold
from .store import MemoryStore
from .store import Store


class App(Scaffold):
    """The application: dispatches requests to the store."""

    def __init__(self, name: str, store: Store | None = None) -> None:
        super().__init__(name)
        self.store: Store = store if store is not None else MemoryStore()
        self._secret = os.environ.get("SHOP_KEY", "")

    def preprocess_request(self) -> None:
        for f in self.before_request_funcs:
            f()

    def full_dispatch_request(self, key: str) -> str:
        self.preprocess_request()
        item = self.store.get(key)
        return helpers.render(item)

    def check_api_key(self) -> None:
        if not self._secret:
            raise PermissionError("no API key")

    def setup(self) -> None:
        self.before_request(self.check_api_key)
        self.static = os.path.join("static", self.name)

    def link(self, key: str) -> str:
        return url_for("item", key=key)

    def shutdown(self, resource) -> None:
        # Both Scaffold and MemoryStore have reset(): not guessed.
        resource.reset()


def create_app() -> App:
    app = App("shop")
    app.setup()
    return app
