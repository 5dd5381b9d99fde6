"""Views of the shop's web front."""

from .. import helpers
from ..app import create_app

app = create_app()


@app.before_request
def check_key() -> None:
    app.check_api_key()


def index() -> str:
    return helpers.url_for("index")
