from shop import App
from shop import MemoryStore
from shop.store import Item


def test_full_dispatch():
    store = MemoryStore()
    store.put(Item("a", 3))
    app = App("t", store)
    assert app.full_dispatch_request("a") == "a: 3"


def test_before_request(app):
    app.before_request(lambda: None)
    assert len(app.before_request_funcs) == 1


class TestStore:
    def test_missing(self):
        assert MemoryStore().get("x") is None


class RecordingStore(MemoryStore):
    """A store for tests that records the last key it was asked for."""

    def get(self, key):
        self.asked = key
        return super().get(key)
