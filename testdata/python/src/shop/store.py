from __future__ import annotations

from abc import ABC
from abc import abstractmethod
from dataclasses import dataclass


@dataclass
class Item:
    key: str
    price: int = 0


class Store(ABC):
    """Where items live."""

    @abstractmethod
    def get(self, key: str) -> Item | None: ...

    @abstractmethod
    def put(self, item: Item) -> None: ...


class MemoryStore(Store):
    """A store in a dict."""

    def __init__(self) -> None:
        self.items: dict[str, Item] = {}

    def get(self, key: str) -> Item | None:
        return self.items.get(key)

    def put(self, item: Item) -> None:
        self.items[item.key] = item

    def reset(self) -> None:
        self.items.clear()
