"""The web app's fixtures (a store seeded with the examples, a client maker) for these tests too."""

from tests.web.conftest import client, example_store, make_client, settings

__all__ = ["client", "example_store", "make_client", "settings"]
