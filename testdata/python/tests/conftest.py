import pytest

from shop import App


@pytest.fixture
def app():
    app = App("test")
    yield app
    app.reset()
