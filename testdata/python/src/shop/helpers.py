from __future__ import annotations

from .store import Item


def join(*parts: str) -> str:
    return "/".join(parts)


def url_for(endpoint: str, **values: str) -> str:
    """Build the URL of an endpoint."""
    return join("", endpoint, *values.values())


def render(item: Item | None) -> str:
    if item is None:
        return "not found"
    return f"{item.key}: {item.price}"
