"""The PostgreSQL store's schema, versioned: numbered migrations applied in order, once, at open.

Why migrations: a shared store outlives the processes that use it, and every machine
of a team opens it with whatever citetracer version it runs. Each migration is a
step from version n-1 to n; they are applied in one transaction under an advisory lock (two
processes opening a new database at once do not both create it); the version is the
row of `schema_version`. A store written by a newer citetracer (a version this code
does not know) is refused with a clear error instead of being misread.

The tables mirror the SQLite store's (store/db.py), plus what the in-database index
needs: each record's distinct title words and surname keys, `postings` (the inverted
index that replaces tantivy, store/pgindex.py; GIN indexes over the arrays until
version 4, arrays until version 5, packed bytes since) and `terms`, the document
frequency of every word, surname and year, kept exact in the same transaction as the
records.
"""

from __future__ import annotations

from typing import Any

#: Key of the advisory lock taken while migrating (any constant unlikely to collide).
MIGRATION_LOCK = 0x43495445  # "CITE"

MIGRATIONS: list[str] = [
    # 1: records, their inverted index, verified links, evidence memo, metadata
    """
    CREATE TABLE meta (key text PRIMARY KEY, value text NOT NULL);
    CREATE TABLE xrefs (key text PRIMARY KEY, title text);
    CREATE TABLE records (
        rid bigserial PRIMARY KEY,
        key text NOT NULL UNIQUE,
        source text NOT NULL,
        type text,
        doi text,
        arxiv text,
        year integer,
        venue_key text,
        data bytea NOT NULL,
        xref text,
        words text[] NOT NULL,
        nwords integer NOT NULL,
        surnames text[] NOT NULL,
        gen bigint NOT NULL DEFAULT 0
    );
    CREATE INDEX records_doi ON records (doi) WHERE doi IS NOT NULL;
    CREATE INDEX records_arxiv ON records (arxiv) WHERE arxiv IS NOT NULL;
    CREATE INDEX records_venue_year ON records (venue_key, year);
    CREATE INDEX records_source ON records (source, type);
    CREATE INDEX records_words ON records USING gin (words) WITH (gin_pending_list_limit = 16384);
    CREATE INDEX records_surnames ON records USING gin (surnames) WITH (gin_pending_list_limit = 16384);
    CREATE TABLE terms (field "char" NOT NULL, term text NOT NULL, df bigint NOT NULL, PRIMARY KEY (field, term));
    CREATE TABLE doi_prefixes (prefix text PRIMARY KEY);
    CREATE TABLE verified (
        fingerprint text PRIMARY KEY,
        rid bigint NOT NULL,
        source text NOT NULL,
        source_id text NOT NULL,
        code text NOT NULL,
        verified_at text NOT NULL
    );
    CREATE TABLE memo (
        source text NOT NULL,
        subject text NOT NULL,
        status text NOT NULL,
        fetched_at double precision NOT NULL,
        detail text,
        candidates bytea NOT NULL,
        PRIMARY KEY (source, subject)
    );
    """,
    # 2: turns of the polite request rates, shared by every process of the fleet (store/turns.py)
    """
    CREATE TABLE rate_turns (key text PRIMARY KEY, tat double precision NOT NULL);
    """,
    # 3: venue knowledge from a sources snapshot, and the venue-years a works subset holds whole (store/venues.py)
    """
    CREATE TABLE venues (
        id text PRIMARY KEY, source text NOT NULL, name text NOT NULL, kind text, issn_l text, publisher text,
        data text NOT NULL
    );
    CREATE TABLE venue_names (
        key text NOT NULL, venue text NOT NULL, what text NOT NULL, name text NOT NULL, PRIMARY KEY (key, venue, what)
    );
    CREATE INDEX venue_names_venue ON venue_names (venue);
    CREATE TABLE venue_year_works (venue text NOT NULL, year integer NOT NULL, works integer NOT NULL,
                                   PRIMARY KEY (venue, year));
    CREATE TABLE complete_venue_years (
        venue text NOT NULL, year integer NOT NULL, source text NOT NULL, records integer NOT NULL,
        expected integer NOT NULL, PRIMARY KEY (venue, year)
    );
    """,
    # 4: the title and surname index as posting lists (store/pgindex.py), in place of the GIN indexes
    """
    CREATE TABLE postings (
        field "char" NOT NULL, term text NOT NULL, rids bigint[] NOT NULL, extra smallint[] NOT NULL
    );
    INSERT INTO postings SELECT 't', w, array_agg(rid ORDER BY rid),
        array_agg(least(nwords, 32767)::smallint ORDER BY rid) FROM records, unnest(words) w GROUP BY w;
    INSERT INTO postings SELECT 's', s, array_agg(rid ORDER BY rid),
        array_agg(least(greatest(coalesce(year, 0), 0), 32767)::smallint ORDER BY rid) FROM records, unnest(surnames) s
        GROUP BY s;
    CREATE INDEX postings_term ON postings (field, term);
    DROP INDEX records_words;
    DROP INDEX records_surnames;
    """,
    # 5: the posting lists as packed bytes, not arrays (store/pgindex.py): the ids as big-endian 8-byte
    # integers (`int8send`'s format), the extras as 2-byte ones. Reading an array out costs the server
    # ~0.1-0.4 us an element (`array_send` calls the element type's output function once each); bytes
    # are copied whole (a 151k-posting list: 52 -> 6 ms at 20M works).
    """
    CREATE TABLE postings_packed (field "char" NOT NULL, term text NOT NULL, rids bytea NOT NULL, extra bytea NOT NULL);
    INSERT INTO postings_packed SELECT field, term,
        coalesce((SELECT string_agg(int8send(x), ''::bytea ORDER BY o) FROM unnest(rids) WITH ORDINALITY u(x, o)),
                 ''::bytea),
        coalesce((SELECT string_agg(int2send(x), ''::bytea ORDER BY o) FROM unnest(extra) WITH ORDINALITY u(x, o)),
                 ''::bytea)
        FROM postings;
    DROP TABLE postings;
    ALTER TABLE postings_packed RENAME TO postings;
    CREATE INDEX postings_term ON postings (field, term);
    """,
]

#: The version this code writes and reads.
SCHEMA_VERSION = len(MIGRATIONS)


class SchemaTooNew(Exception):
    """The database was written by a newer citetracer."""


def migrate(conn: Any, upto: int = SCHEMA_VERSION) -> tuple[int, int]:
    """Bring the schema to version `upto` (default: the current one); returns (before, after).

    `conn` is an autocommit psycopg connection; the steps run in one transaction (all or none).
    """
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version integer NOT NULL)")
        row = conn.execute("SELECT version FROM schema_version").fetchone()
        before = int(row[0]) if row else 0
        if row is None:
            conn.execute("INSERT INTO schema_version VALUES (0)")
        if before > SCHEMA_VERSION:
            raise SchemaTooNew(
                f"the store's schema is version {before}, newer than this citetracer's {SCHEMA_VERSION}: "
                "upgrade citetracer on this machine"
            )
        for version in range(before + 1, upto + 1):
            conn.execute(MIGRATIONS[version - 1])
            conn.execute("UPDATE schema_version SET version = %s", (version,))
    return before, max(before, upto)
