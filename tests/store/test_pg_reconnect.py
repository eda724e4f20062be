"""A PostgreSQL store outlives a restart of its server: the next statement reconnects (with backoff).

Once, every statement after a restart failed ("the store failed: server closed the connection")
for as long as the process lived: the web app's jobs all failed while /healthz said ok.
"""

from __future__ import annotations

from tests import pgserver
from tests.conftest import pg_location
from tests.web.conftest import EXAMPLE_RECORDS


def test_a_store_reconnects_after_its_server_restarts(own_pg_server: pgserver.Server) -> None:
    from citetracer.mirror.jsonl import add_jsonl
    from citetracer.store.pg import PgStore

    location = pg_location(own_pg_server.url)
    with PgStore(location) as store:
        add_jsonl(store, EXAMPLE_RECORDS, "example")
        before = store.stats()["records"]
        own_pg_server.pause()
        own_pg_server.resume()
        assert store.stats()["records"] == before  # a read on the new connection
        store.set_meta("after_restart", "yes")  # and a write
        with store.writing():
            store.memo.put_many([])
        assert store.meta_value("after_restart") == "yes"
